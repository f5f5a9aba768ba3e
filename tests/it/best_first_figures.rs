//! The best-first searches' figures at a found end say what happened (issue 56, item 1 of
//! the brief after f0a4c74): Dijkstra, A*, weighted A*, greedy best-first and the jump-point
//! searches test a state for the goal when they take it off the open list, and return it
//! there, never expanded: the goal is reached and on neither set. "Frontier" is the open list
//! the run leaves (the Learn panel's at the end), and reached = expanded + frontier + 1, as
//! breadth-first search's (`bfs_figures.rs`). The engine's figures against a watcher's
//! re-count of every algorithm are in `frontier.rs`; here, the app's.

use puzzlelab::app::{AppCommand, Settings};
use puzzlelab::search::{Algorithm, Weight};

use crate::common::gui::{assert_found_end_figures, harness, open_for_learning, run_until};

/// The algorithms with one open list of single states that end at a goal taken off it.
fn best_first() -> [Algorithm; 6] {
    [
        Algorithm::Dijkstra,
        Algorithm::AStar,
        Algorithm::WeightedAStar(Weight::DEFAULT),
        Algorithm::Greedy,
        Algorithm::Jps,
        Algorithm::JpsPlus,
    ]
}

/// Every best-first search on a 4-connected maze (the flat grid A* among them), the octile
/// maze with three goals (the octile searches, JPS and JPS+) and the 8-puzzle (the general
/// search): the statistics' frontier is the open list the Learn panel re-counts from the
/// recording at the end, the goal on neither, and reached = expanded + frontier + 1.
#[test]
fn a_found_best_first_runs_frontier_is_its_open_list_at_the_end() {
    let mut checked = Vec::new();
    for file in [
        "maze-small.txt",
        "maze-octile-goals.txt",
        "sliding-8-easy-6.txt",
    ] {
        for algorithm in best_first() {
            let mut h = harness(Settings {
                full_speed: true,
                ..Settings::default()
            });
            open_for_learning(&mut h, file, algorithm);
            if !h.state().puzzle().algorithms().contains(&algorithm) {
                continue; // the algorithm does not apply to this puzzle
            }
            h.state_mut().push(AppCommand::Start);
            run_until(&mut h, |app| app.result().is_some());
            h.run();
            let what = format!("{file} {algorithm}");
            assert_found_end_figures(&h, &what);
            checked.push(what);
        }
    }
    // Each algorithm ran on one puzzle at least (JPS and JPS+ on the octile maze only).
    for algorithm in best_first() {
        assert!(
            checked.iter().any(|w| w.ends_with(&algorithm.to_string())),
            "{algorithm} never ran: {checked:?}"
        );
    }
}
