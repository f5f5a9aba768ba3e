//! Issue 57's walk: after a solve the canvas showed the solution played to its end (the
//! solved 8-puzzle) while a click moved a tile of the start board, and the hover named the
//! start board's tiles. A move by hand while a solution's playback is shown now acts on the
//! board shown: it becomes the puzzle (Ctrl+Z goes back to the board it was played from),
//! for every type played by hand, by the pointer and by the keys.

use eframe::egui;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings, ShownMoment};
use puzzlelab::puzzles::sliding::Sliding;
use puzzlelab::puzzles::{self, Cell, Puzzle as _};
use puzzlelab::search::Algorithm;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use crate::common::gui::{cell_pos, click_cell, harness, run_until};

/// The shipped `file` solved with A* at full speed, its solution shown to its end.
fn solved(file: &str) -> Harness<'static, PuzzleLabApp> {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    let (t, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == file)
        .unwrap_or_else(|| panic!("{file} is shipped"));
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.state_mut()
        .push(AppCommand::SetAlgorithm(Algorithm::AStar));
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let moves = h.state().result().unwrap().moves.len();
    assert_eq!(h.state().shown_moment(), ShownMoment::Solution(moves));
    h
}

fn tiles(h: &Harness<'static, PuzzleLabApp>) -> Vec<u8> {
    h.state().model::<Sliding>().unwrap().tiles_row_major()
}

/// The 8-puzzle solved: the canvas shows the goal, blank last. Hovering its middle names
/// tile 5 (the start board's blank is there), and a click on tile 8 (left of the blank)
/// slides it into the blank of the board shown.
/// Ctrl+Z takes the slide back (the solved board), then the board taken (the start).
#[test]
fn a_click_after_a_sliding_solve_moves_a_tile_of_the_solved_board_shown() {
    let mut h = solved("sliding-8-easy-12.txt");
    let start = tiles(&h);
    let goal: Vec<u8> = vec![1, 2, 3, 4, 5, 6, 7, 8, 0];
    assert_ne!(start, goal);
    assert_eq!(start[4], 0, "the start board's blank is in the middle");
    h.hover_at(cell_pos(&h, Cell::new(1, 1)));
    h.run();
    assert!(
        h.query_by_label_contains("row 1, column 1 · tile 5")
            .is_some(),
        "the hover names the board shown's tile"
    );
    click_cell(&mut h, Cell::new(2, 1));
    h.run();
    assert_eq!(
        tiles(&h),
        vec![1, 2, 3, 4, 5, 6, 7, 0, 8],
        "{:?}",
        h.state().status()
    );
    assert_eq!(h.state().shown_moment(), ShownMoment::Puzzle);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(tiles(&h), goal, "the slide taken back");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(
        tiles(&h),
        start,
        "the board taken from the playback taken back"
    );
}

/// An arrow key after a sliding solve slides a tile of the solved board shown too.
#[test]
fn an_arrow_key_after_a_sliding_solve_moves_a_tile_of_the_solved_board_shown() {
    let mut h = solved("sliding-8-easy-12.txt");
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(
        tiles(&h),
        vec![1, 2, 3, 4, 5, 6, 7, 0, 8],
        "{:?}",
        h.state().status()
    );
}

/// Sokoban solved: an arrow key walks the player of the board shown (the solved one),
/// which Sokoban's hand play (the app's undo) then holds.
#[test]
fn an_arrow_key_after_a_sokoban_solve_walks_on_the_board_shown() {
    use puzzlelab::puzzles::sokoban::{Dir, Sokoban};
    let mut h = solved("sokoban-first-steps.xsb");
    let moves = h.state().result().unwrap().moves.clone();
    let shown = h.state().puzzle().after_moves(&moves).unwrap();
    let shown = shown.model::<Sokoban>().unwrap().clone();
    let start = h.state().puzzle().picture();
    assert_ne!(shown.picture(), start, "the canvas shows the solved board");
    let keys = [
        (egui::Key::ArrowUp, Dir::Up),
        (egui::Key::ArrowDown, Dir::Down),
        (egui::Key::ArrowLeft, Dir::Left),
        (egui::Key::ArrowRight, Dir::Right),
    ];
    let (key, expected) = keys
        .into_iter()
        .find_map(|(key, dir)| {
            let mut board = shown.clone();
            board.step(dir).map(|_| (key, board.picture()))
        })
        .expect("the player can step somewhere");
    h.key_press(key);
    h.run();
    assert_eq!(
        h.state().puzzle().picture(),
        expected,
        "{:?}",
        h.state().status()
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(
        h.state().puzzle().picture(),
        shown.picture(),
        "the step taken back"
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(
        h.state().puzzle().picture(),
        start,
        "the board taken, taken back"
    );
}
