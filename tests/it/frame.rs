//! The canvas's frames on large grids: a finished run's end is drawn within a few frames,
//! counted (not timed), whatever the grid's size.

use crate::common::gui::*;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, PuzzleLabApp, SearchMarks, Settings, TimelineCommand, Track};
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::{Cell, Puzzle as _};
use puzzlelab::search::Algorithm;
use puzzlelab::ui::with_canvas_texture;

/// The canvas's marks set whole, as drawn: their id and the rows painted exactly.
fn whole_drawn(h: &Harness<'static, PuzzleLabApp>) -> Option<(u64, usize)> {
    with_canvas_texture(&h.ctx, |t| t.whole_drawn()).flatten()
}

/// Whether the view is at the finished run's end: every chunk in, the last position shown.
fn at_the_end(app: &PuzzleLabApp) -> bool {
    app.result().is_some()
        && (app.timeline().and_then(|t| t.track.as_ref()))
            .is_some_and(|t| t.is_caught_up() && t.shown() == t.len())
}

/// A jump to a finished run's end on a large grid (from its start, millions of marks
/// changes away on a big one) sets the marks whole from the recording: the first frame
/// after the jump draws the end's coarse picture, and the exact picture follows at least a
/// band of 64 rows a frame; the marks then equal a plain replay to the end. On a 300 x 300
/// and a 640 x 640 grid alike the coarse end is on screen in the first frame (issue 56,
/// item 12: a 2048 x 2048 run's end took 44 s to be drawn).
#[test]
fn a_finished_runs_end_is_drawn_within_a_few_frames_whatever_the_grids_size() {
    for side in [300, 640] {
        let mut maze = Maze::new(side, side);
        maze.randomize(0.3, 5);
        let mut h = harness(Settings {
            puzzle_json: Some(maze.to_json().to_string()),
            algorithm: Some(Algorithm::Bfs),
            full_speed: true,
            ..Settings::default()
        });
        h.step();
        h.get_by_label("Start").click();
        run_until(&mut h, |app| {
            at_the_end(app) && !app.marks().is_setting_whole()
        });
        let len = h.state().timeline_len();
        assert!(len > side * side / 3, "{len} expansions");
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(0)));
        run_until(&mut h, |app| app.marks().stats.expanded == 0);
        // The jump, taken at the end of this frame.
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(len)));
        h.step();
        h.step();
        let id = h.state().marks().id;
        assert!(h.state().marks().whole.is_some(), "{side}: set whole");
        let first = whole_drawn(&h).expect("the end drawn");
        assert_eq!(first.0, id, "{side}: the first frame draws the end's marks");
        let coarse = with_canvas_texture(&h.ctx, |t| t.coarse_end().is_some());
        assert!(
            coarse == Some(true) || first.1 == side,
            "{side}: the coarse end under {} exact rows",
            first.1
        );
        let mut frames = 1;
        while !(at_the_end(h.state()) && whole_drawn(&h) == Some((id, side))) {
            h.step();
            frames += 1;
            assert!(
                frames <= side.div_ceil(64) + 2,
                "{side}: {frames} frames and the end not drawn: {:?}",
                whole_drawn(&h)
            );
        }
        // The marks are a plain replay's to the end.
        let recording = h
            .state()
            .timeline_recording()
            .cloned()
            .expect("a recording");
        let mut reference = SearchMarks::with_dims(side, side);
        let mut plain = Track::new(recording, Algorithm::Bfs);
        assert!(plain.seek(&mut reference, len, None));
        let marks = h.state().marks();
        for r in 0..side {
            for c in 0..side {
                let cell = Cell::new(r, c);
                assert_eq!(marks.mark(cell), reference.mark(cell), "{side}: {cell:?}");
            }
        }
        assert_eq!(marks.stats.expanded as usize, len);
    }
}
