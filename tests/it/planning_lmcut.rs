//! LM-cut's strength (issue 59) on IPC elevators task01, when `../shared/pddl` is there: A*
//! finds the optimal 14 and expands at most 450 states: 323 with the goal zone's supporter ties
//! broken as Fast Downward breaks them (Fast Downward itself 413); 821 without, 1,947 with the
//! supporter of largest fact id among equally dear preconditions. And LM-cut stays admissible
//! over the whole spaces of seven small IPC tasks.

use std::path::Path;

use puzzlelab::puzzles::planning::Planning;
use puzzlelab::puzzles::{Model, NoWatcher};
use puzzlelab::search::{Algorithm, CancelToken};

#[test]
fn a_star_with_lm_cut_expands_at_most_450_states_on_elevators_task01() {
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
    assert!(report.stats.expanded <= 450, "{}", report.stats.expanded);
}

/// IPC tasks of pyperplan's benchmarks whose whole reachable space is small (225 to 3,072
/// states).
const SMALL_IPC_TASKS: [&str; 7] = [
    "blocks/task04",
    "depot/task01",
    "gripper/task02",
    "satellite/task02",
    "zenotravel/task02",
    "miconic/task03",
    "transport/task01",
];

#[test]
fn lm_cut_never_exceeds_the_true_cost_over_the_whole_space_of_small_ipc_tasks() {
    // The supporter ties broken at the goal zone change which cuts are found, never that each
    // is a landmark: over every reachable state, LM-cut <= h* (the least cost to a goal, by a
    // backward search over the explored space).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pddl/benchmarks");
    if !root.is_dir() {
        eprintln!("{} is not there: skipped", root.display());
        return;
    }
    let mut states = 0;
    for name in SMALL_IPC_TASKS {
        let puzzle = puzzlelab::puzzles::load_file(&root.join(format!("{name}.pddl")), None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut task = puzzle.model::<Planning>().unwrap().clone();
        let oracle = Model::oracle(&task, &CancelToken::new(), &mut |_| {}).unwrap();
        let space = oracle.space().unwrap();
        Model::set_option(&mut task, "heuristic", "lmcut").unwrap();
        let quality = space
            .heuristic_quality(&task, &CancelToken::new())
            .unwrap()
            .unwrap();
        assert!(quality.admissible, "{name}: {quality:?}");
        assert_eq!(quality.inadmissible_states, 0, "{name}");
        states += quality.states;
    }
    assert!(states > 5_000, "{states}");
}
