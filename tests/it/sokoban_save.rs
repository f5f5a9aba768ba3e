//! The final walk of 8 December (issue 58, a player): a move by hand marked the collection
//! edited ("*" in the title, a Save question before opening another file), and Save wrote the
//! played position over level 1 and dropped every `;` line (the credits, the copyright
//! notice, the level numbers). Playing is not an edit of the file: nothing is marked, and a
//! save writes the collection as it was read, also after the app's state brought it back.

use eframe::egui;
use puzzlelab::app::{AppCommand, Settings};
use puzzlelab::puzzles::Puzzle as _;
use puzzlelab::puzzles::sokoban::Sokoban;

use crate::common::gui::harness;

const MICROBAN: &str = include_str!("../fixtures/sokoban-microban-1-10.xsb");

#[test]
fn playing_by_hand_is_no_edit_and_a_save_keeps_the_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("microban.xsb");
    std::fs::write(&path, MICROBAN).unwrap();
    let mut h = harness(Settings::default());
    h.state_mut().push(AppCommand::OpenPath(path.clone()));
    h.run();
    // Level 1: Down walks, Left pushes the box beside the player, Up walks.
    for key in [
        egui::Key::ArrowDown,
        egui::Key::ArrowLeft,
        egui::Key::ArrowUp,
    ] {
        h.key_press(key);
        h.run();
    }
    let played = h.state().puzzle().model::<Sokoban>().unwrap().clone();
    assert!(played.moves_by_hand() >= 2, "{}", played.lurd_by_hand());
    assert!(
        played.position() != &played.board().start,
        "a position played"
    );
    assert!(!h.state().is_modified(), "playing is not an edit");
    assert!(!h.state().title().contains('*'), "{}", h.state().title());
    let status = &h.state().status().text;
    assert!(
        status.starts_with("Played ") && !status.contains("Edited"),
        "{status}"
    );
    h.state_mut().push(AppCommand::Save);
    h.run();
    let copy = dir.path().join("copy.xsb");
    h.state_mut().push(AppCommand::SaveTo(copy.clone()));
    h.run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), MICROBAN);
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), MICROBAN);
    // Brought back from the app's state (its JSON), the played position stays and the
    // collection still saves as its file was.
    let restored = Sokoban::from_json(played.to_json()).unwrap();
    assert_eq!(restored.position(), played.position());
    assert_eq!(restored.to_text(), MICROBAN);
}

/// A collection read from text keeps it; one whose JSON carries other levels than its
/// `source` is refused, naming the field.
#[test]
fn a_source_that_is_not_the_levels_is_refused() {
    let s = Sokoban::from_text(MICROBAN).unwrap();
    let mut json = s.to_json();
    json["levels"].as_array_mut().unwrap().pop();
    let e = Sokoban::from_json(json).unwrap_err();
    assert!(e.to_string().contains("source"), "{e}");
}
