//! Issue 44, "Trust the screen and the disk": every readout describes the puzzle on screen
//! (the hover's distances, the pinned state, the breakpoints, the results' names, the status
//! line), and opening a puzzle never touches another type's work. Driven headless with
//! egui_kittest at 1024 x 640.

use crate::common::gui::*;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::oracle::OracleStatus;
use puzzlelab::app::{PuzzleLabApp, Settings};
use puzzlelab::puzzles::Cell;

/// The app in a 1024 x 640 window.
fn small_window(settings: Settings) -> Harness<'static, PuzzleLabApp> {
    harness_at(1024.0, 640.0, settings)
}

/// Writes `text` as `name` in `dir` and opens it (as File > Open does), returning its path.
fn open_text(
    h: &mut Harness<'static, PuzzleLabApp>,
    dir: &std::path::Path,
    name: &str,
    text: &str,
) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    open_path(h, path.clone());
    path
}

/// A maze of `rows` x `cols` squares, start top left, goal bottom right, free but for the
/// squares of `walls`.
fn maze_text(rows: usize, cols: usize, walls: &[(usize, usize)]) -> String {
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push(match (r, c) {
                (0, 0) => 'S',
                _ if (r, c) == (rows - 1, cols - 1) => 'G',
                _ if walls.contains(&(r, c)) => '#',
                _ => '.',
            });
        }
        text.push('\n');
    }
    text
}

/// The text of the status bar's readout of the square under the pointer, hovering `cell`.
fn hover_readout(h: &mut Harness<'static, PuzzleLabApp>, cell: Cell) -> String {
    h.hover_at(cell_pos(h, cell));
    h.run();
    let prefix = format!("row {}, column {}", cell.row, cell.col);
    let node = h.get_by_label_contains(&prefix);
    let ak = egui_kittest::kittest::NodeT::accesskit_node(&node);
    ak.label().or_else(|| ak.value()).unwrap_or_default()
}

/// Item 1: tick and untick Optimal moves on a maze, open another maze: the hover says
/// nothing of the first maze's distances (its explored space is dropped with it), and ticked
/// again, the distances are the new maze's.
#[test]
fn the_hover_never_gives_distances_of_a_maze_no_longer_on_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_text(&mut h, dir.path(), "free.txt", &maze_text(12, 12, &[]));
    click_label(&mut h, "Distances");
    h.run();
    click_label(&mut h, "Optimal moves");
    run_until(&mut h, |app| {
        matches!(app.oracle.status(), OracleStatus::Ready(_))
    });
    let free = hover_readout(&mut h, Cell::new(3, 3));
    assert!(free.contains("6 steps from the start"), "{free}");
    click_label(&mut h, "Optimal moves");
    h.run();
    assert!(!h.state().oracle.enabled);
    // Another maze: a wall where the pointer is, the goal walled off.
    let walls: Vec<(usize, usize)> = (0..12).map(|c| (3, c)).collect();
    open_text(&mut h, dir.path(), "walled.txt", &maze_text(12, 12, &walls));
    let wall = hover_readout(&mut h, Cell::new(3, 3));
    assert!(wall.contains("wall"), "{wall}");
    assert!(
        !wall.contains("from the start") && !wall.contains("nearest goal"),
        "the first maze's distances on the second's wall: {wall}"
    );
    assert!(h.state().oracle.space().is_none(), "the old space is gone");
    // Ticked again: the new maze's own distances (its goal cannot be reached).
    click_label(&mut h, "Optimal moves");
    run_until(&mut h, |app| {
        matches!(app.oracle.status(), OracleStatus::Ready(_))
    });
    let near = hover_readout(&mut h, Cell::new(2, 3));
    assert!(
        near.contains("5 steps from the start, no way to a goal"),
        "{near}"
    );
}
