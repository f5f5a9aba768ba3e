//! The model-based test's invariants of the Learn panel: nothing it says is false about
//! the moment on screen (see the parent module's documentation).

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use puzzlelab::app::Mark;
use puzzlelab::app::learn::{Ending, square};
use puzzlelab::puzzles::{Cell, Place};
use puzzlelab::search::pseudocode::Step;

use super::Sequence;

/// The Learn panel's invariants (see the module's documentation).
pub(super) fn says_the_truth(seq: &mut Sequence) -> Result<(), TestCaseError> {
    let app = seq.h.state();
    let (right, tries) = app.windows.learn.score;
    prop_assert!(
        right <= tries,
        "Predict's score {} right of {}",
        right,
        tries
    );
    let Some((recording, m)) = app.learn_moment() else {
        return Ok(());
    };
    let track = app.timeline().and_then(|t| t.track.as_ref());
    let shown = track.map_or(0, |t| t.shown());
    prop_assert_eq!(m.len, recording.expansions(), "the moment's length");
    prop_assert_eq!(
        m.position,
        shown.min(m.len),
        "the Learn moment is the timeline's"
    );
    let expanded = m
        .position
        .checked_sub(1)
        .and_then(|j| recording.expansion(j));
    prop_assert_eq!(&m.expanded, &expanded, "n is the recording's expansion");
    let caption = m.caption();
    if let (Some(place), Step::Expand | Step::Take | Step::GoalTest) =
        (expanded.as_ref().and_then(|e| e.place), m.step)
    {
        prop_assert!(
            caption.contains(&square(place)),
            "the caption names another state than n = {}: {}",
            square(place),
            caption
        );
    }
    if m.ending == Ending::Ended(puzzlelab::search::Outcome::Cancelled) && m.step == Step::Stopped {
        prop_assert!(caption.starts_with("You stopped the run"), "{}", caption);
    }
    // At a settled moment (no run going, the marks there, no micro-step), the open list
    // holds exactly the squares the canvas marks as frontier.
    let settled = !app.is_running()
        && app.race().is_none()
        && m.event.is_none()
        && app.timeline().is_some_and(|t| t.target == shown)
        && track.is_some_and(|t| t.is_caught_up());
    let list = app.learn_open_list();
    if settled
        && app.windows.learn.open
        && let Some(list) = list
        && !recording.has_boards()
        && list
            .iter()
            .all(|e| e.place.is_some_and(|p| p.side.is_none()))
        && app.puzzle().picture().squares.len() <= puzzlelab::ui::TEXTURE_SQUARES
    {
        let marks = app.marks();
        let (rows, cols) = marks.dims();
        let mut on_canvas: Vec<Cell> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| Cell::new(r, c)))
            .filter(|&c| marks.mark(Place::from(c)) == Mark::Frontier)
            .collect();
        // The goal the run returned keeps its mark on the canvas (reached, it carries its
        // number) but is on no open list (the walk's W4 and W9).
        if m.step == Step::Found
            && let Some(goal) = app.result().and_then(|r| r.path.last())
        {
            on_canvas.retain(|&c| c != goal.cell);
        }
        let mut listed: Vec<Cell> = list.iter().filter_map(|e| Some(e.place?.cell)).collect();
        on_canvas.sort();
        listed.sort();
        listed.dedup();
        prop_assert_eq!(
            listed,
            on_canvas,
            "the open list at moment {} against the canvas's frontier",
            m.position
        );
    }
    Ok(())
}
