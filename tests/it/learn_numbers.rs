//! Issue 56 item 10 at every moment: each square the run reached carries its number and its
//! parent arrow on the canvas (the notes the canvas writes, `AppState::learn_notes`), at the
//! moment a Stop ends and at the goal's too.

use puzzlelab::app::{AppCommand, Mark, PuzzleLabApp, Settings};
use puzzlelab::puzzles::{Cell, Place};
use puzzlelab::search::Algorithm;

use crate::common::gui::{harness, open_for_learning, run_until};

type Harness = egui_kittest::Harness<'static, PuzzleLabApp>;

/// Every square the canvas marks as reached (on the frontier or closed) has a `g` and, but
/// for the start, a parent next to it; returns how many squares that is.
fn every_reached_square_is_noted(app: &PuzzleLabApp, what: &str) -> usize {
    let marks = app.marks();
    let notes = app.learn_notes();
    let (rows, cols) = marks.dims();
    let mut reached = 0;
    for cell in (0..rows).flat_map(|r| (0..cols).map(move |c| Cell::new(r, c))) {
        if marks.mark(Place::from(cell)) == Mark::None {
            continue;
        }
        reached += 1;
        let note = notes
            .at(cell)
            .unwrap_or_else(|| panic!("{what}: {cell:?} is reached and carries nothing"));
        assert!(note.g.is_some(), "{what}: {cell:?} has no g: {note:?}");
        if cell != Cell::new(0, 0) {
            let parent = note.parent.expect("a parent");
            let steps = parent.cell.row.abs_diff(cell.row) + parent.cell.col.abs_diff(cell.col);
            assert_eq!(steps, 1, "{what}: {cell:?}'s parent {parent:?}");
        }
    }
    reached
}

/// A breadth-first run on the small maze with the Learn panel open.
fn bfs_on_the_small_maze(settings: Settings) -> Harness {
    let mut h = harness(settings);
    open_for_learning(&mut h, "maze-small.txt", Algorithm::Bfs);
    h
}

/// Item 10 at the goal: breadth-first tests a state when it is generated, and its last
/// expansion ends at the goal, part way through its successors. The goal is reached (the
/// figures count it with the frontier): it is marked, and carries its `g` (the path's
/// length) and the arrow to the square before it on the path, as every square reached.
#[test]
fn the_goal_a_breadth_first_run_ends_at_carries_its_number_and_parent() {
    let mut h = bfs_on_the_small_maze(Settings {
        full_speed: true,
        ..Settings::default()
    });
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let app = h.state();
    let report = app.result().unwrap().clone();
    assert!(report.solved);
    let (_, m) = app.learn_moment().unwrap();
    assert_eq!(m.position, m.len, "the run's last moment");
    let reached = every_reached_square_is_noted(app, "the goal's moment");
    assert_eq!(
        reached as u64,
        report.stats.expanded + report.stats.frontier
    );
    let notes = app.learn_notes();
    let goal = report.path.last().unwrap().cell;
    let before = report.path[report.path.len() - 2];
    let note = notes.at(goal).expect("the goal carries a note");
    assert_eq!(note.g, Some(report.cost as f32));
    assert_eq!(note.parent, Some(before));
    assert_eq!(app.marks().mark(Place::from(goal)), Mark::Frontier);
    // The open list of the end is the frontier the figures count, the goal in it.
    let list = app.learn_open_list().unwrap();
    assert_eq!(list.len() as u64, report.stats.frontier);
}

/// Item 10 at a Stop: stepped, then stopped, the run's last moment (and every one before)
/// has every square reached noted.
#[test]
fn every_square_reached_is_noted_at_the_moment_a_stop_ends() {
    let mut h = bfs_on_the_small_maze(Settings::default());
    for p in 1..=6 {
        h.state_mut().push(AppCommand::Step);
        run_until(&mut h, |app| {
            app.learn_moment().is_some_and(|(_, m)| m.position >= p)
        });
    }
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let (_, m) = h.state().learn_moment().unwrap();
    assert_eq!(m.step, puzzlelab::search::pseudocode::Step::Stopped);
    let len = m.len;
    assert!(every_reached_square_is_noted(h.state(), "the Stop's moment") > len);
    for p in (0..len).rev() {
        h.state_mut()
            .push(AppCommand::Timeline(puzzlelab::app::TimelineCommand::Seek(
                p,
            )));
        h.run();
        every_reached_square_is_noted(h.state(), &format!("moment {p}"));
    }
}
