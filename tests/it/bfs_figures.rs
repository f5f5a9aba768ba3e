//! Breadth-first search's figures say what happened (issue 56, the walk's W13 and the
//! lead's note on its end): it tests a state for the goal before it puts it on the frontier
//! (the start at line 2, each successor at line 8), so the state a run ends at (the goal
//! returned, or the state whose goal test failed) was reached and never on the frontier:
//! "Frontier" is the queue as the run left it, the Learn panel's open list at the end, and
//! reached = expanded + frontier + 1.

use puzzlelab::app::{AppCommand, Settings};
use puzzlelab::search::{Algorithm, Outcome};

use crate::common::gui::{
    assert_found_end_figures, harness, learn_to_the_end, open_path, run_until,
};

/// The walk's W13: an `is_goal` that fails on the start state (line 2, before the frontier
/// is made) expanded nothing and put nothing on the frontier; the start alone was reached.
#[test]
fn a_goal_test_failing_on_the_start_expands_nothing_and_queues_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("goal-number.rhai");
    std::fs::write(
        &path,
        "fn start() { 0 }\n\
         fn is_goal(n) { if n == 3 { 1 } else { 0 } }\n\
         fn moves(n) { [#{ label: \"+1\", to: n + 1 }] }\n",
    )
    .unwrap();
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    open_path(&mut h, path);
    h.state_mut().push(AppCommand::SetAlgorithm(Algorithm::Bfs));
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let report = h.state().result().unwrap().clone();
    assert_eq!(report.outcome, Outcome::ScriptError, "{report:?}");
    for (what, s) in [
        ("the report", &report.stats),
        ("the figures shown", &h.state().marks().stats),
    ] {
        assert_eq!(
            (s.expanded, s.frontier, s.max_frontier, s.max_closed),
            (0, 0, 0, 1),
            "{what}: expanded, frontier, peak frontier, reached"
        );
    }
}

/// At the end of a run that found its goal, the statistics' frontier is the open list the
/// Learn panel shows (the goal returned is on neither), on a maze (the flat grid search)
/// and on the 8-puzzle (the general search); reached counts the goal besides.
#[test]
fn a_found_runs_frontier_is_its_open_list_at_the_end() {
    for file in ["maze-small.txt", "sliding-8-easy-6.txt"] {
        let mut h = harness(Settings {
            full_speed: true,
            ..Settings::default()
        });
        learn_to_the_end(&mut h, file, Algorithm::Bfs);
        assert_found_end_figures(&h, file);
    }
}
