//! Issue 57's walk: on Sokoban the board seemed not to change after Ctrl+Z (intermittent).
//! A move by hand slides into place over a few frames, and an edit made while it slid
//! (Ctrl+Z, Ctrl+Y, another edit) left the slide running: the canvas drew the move being
//! made, from the board before it, over the undone board until the slide's time was up.
//! Every edit now ends a slide in progress; a move by hand starts its own after its edit.

use eframe::egui;
use egui_kittest::Harness;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings};
use puzzlelab::puzzles;
use puzzlelab::puzzles::sokoban::{Dir, Sokoban};

use crate::common::gui::harness;

/// The app on the shipped first Sokoban level, and an arrow key whose step is legal there.
fn first_steps() -> (Harness<'static, PuzzleLabApp>, egui::Key) {
    // A slide of 0.3 s (the longest), longer than a test frame's 0.25 s.
    let mut h = harness(Settings {
        playback_rate: 0.5,
        ..Settings::default()
    });
    let (t, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "sokoban-first-steps.xsb")
        .expect("shipped");
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    let level = h.state().model::<Sokoban>().unwrap().clone();
    let keys = [
        (egui::Key::ArrowUp, Dir::Up),
        (egui::Key::ArrowDown, Dir::Down),
        (egui::Key::ArrowLeft, Dir::Left),
        (egui::Key::ArrowRight, Dir::Right),
    ];
    let key = keys
        .into_iter()
        .find_map(|(key, dir)| level.clone().step(dir).map(|_| key))
        .expect("the player can step");
    (h, key)
}

/// A key pressed (not yet released: no event comes after it) in a frame of its own.
fn press(h: &mut Harness<'static, PuzzleLabApp>, key: egui::Key, modifiers: egui::Modifiers) {
    h.event(egui::Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers,
    });
    h.step();
}

/// Ctrl+Z while the step slides shows the board before it at once, not the step's slide.
#[test]
fn ctrl_z_during_a_sokoban_slide_shows_the_undone_board_at_once() {
    let (mut h, key) = first_steps();
    let before = h.state().puzzle().picture();
    press(&mut h, key, egui::Modifiers::NONE);
    assert_ne!(h.state().puzzle().picture(), before, "stepped");
    press(&mut h, egui::Key::Z, egui::Modifiers::COMMAND);
    assert_eq!(
        h.state().puzzle().picture(),
        before,
        "{:?}",
        h.state().status()
    );
    assert!(
        h.state().edit_transition().is_none(),
        "the canvas draws the undone board, not the step sliding"
    );
    press(&mut h, egui::Key::Y, egui::Modifiers::COMMAND);
    assert_ne!(h.state().puzzle().picture(), before, "redone");
    assert!(
        h.state().edit_transition().is_none(),
        "no slide after a redo"
    );
}
