//! LM-cut's strength (issue 59) on IPC elevators task01, when `../shared/pddl` is there: A*
//! finds the optimal 14 and expands at most 1,000 states (821 with the supporter of smallest
//! fact id among equally dear preconditions; 1,947 with the largest; Fast Downward 413).

use std::path::Path;

use puzzlelab::puzzles::planning::Planning;
use puzzlelab::puzzles::{Model, NoWatcher};
use puzzlelab::search::{Algorithm, CancelToken};

#[test]
fn a_star_with_lm_cut_expands_under_a_thousand_states_on_elevators_task01() {
    let problem = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/pddl/benchmarks/elevators/task01.pddl");
    if !problem.is_file() {
        eprintln!("{} is not there: skipped", problem.display());
        return;
    }
    let puzzle = puzzlelab::puzzles::load_file(&problem, None).unwrap();
    let mut task = puzzle.model::<Planning>().unwrap().clone();
    Model::set_option(&mut task, "heuristic", "lmcut").unwrap();
    let report =
        Model::solve(&task, Algorithm::AStar, &mut NoWatcher, &CancelToken::new()).unwrap();
    assert!(report.solved && report.optimal);
    assert_eq!(report.cost, 14.0);
    assert!(report.stats.expanded <= 1_000, "{}", report.stats.expanded);
}
