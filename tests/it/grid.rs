//! The grid workbench's engine: every optimal algorithm agrees with Dijkstra and with the
//! `pathfinding` crate on random weighted grids, 4- and 8-connected, with and without corner
//! cutting; Jump Point Search and the bidirectional searches agree on uniform grids; multiple
//! goals and percolation mode.

use pathfinding::prelude::dijkstra;
use puzzlelab::puzzles::Cell;
use puzzlelab::puzzles::maze::{Connectivity, GridHeuristic, Maze, Percolation};
use puzzlelab::search::{self, Algorithm, Outcome, Problem};
use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng as _};

/// A random grid: a quarter blocked, and (when `weighted`) terrain costs 1 to 9.
fn random_grid(seed: u64, side: usize, eight: bool, cut: bool, weighted: bool) -> Maze {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut maze = Maze::new(side, side + 3);
    maze.randomize(0.25, seed);
    if weighted {
        for r in 0..maze.rows() {
            for c in 0..maze.cols() {
                let cell = Cell::new(r, c);
                if !maze.is_blocked(cell) {
                    maze.set_cost(cell, rng.random_range(1..=9));
                }
            }
        }
    }
    if eight {
        maze.set_connectivity(Connectivity::Eight);
        maze.set_heuristic(GridHeuristic::Octile);
    }
    maze.set_corner_cutting(cut);
    maze
}

/// Costs in millionths, for the oracle's integer Dijkstra.
const SCALE: f64 = 1e6;

/// The moves of `maze` from `cell`, written independently of the engine from the rules: a
/// diagonal needs both squares beside it free, or (corner cutting) at least one.
fn oracle_moves(maze: &Maze, cell: Cell) -> Vec<(Cell, u64)> {
    let mut out = Vec::new();
    let (r, c) = (cell.row as isize, cell.col as isize);
    let free = |r: isize, c: isize| {
        r >= 0 && c >= 0 && !maze.is_blocked(Cell::new(r as usize, c as usize))
    };
    for dr in -1..=1isize {
        for dc in -1..=1isize {
            if (dr, dc) == (0, 0)
                || (dr != 0 && dc != 0 && maze.connectivity() == Connectivity::Four)
            {
                continue;
            }
            if !free(r + dr, c + dc) {
                continue;
            }
            let length = if dr != 0 && dc != 0 {
                let (a, b) = (free(r + dr, c), free(r, c + dc));
                if !(if maze.corner_cutting() {
                    a || b
                } else {
                    a && b
                }) {
                    continue;
                }
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            let to = Cell::new((r + dr) as usize, (c + dc) as usize);
            let cost = f64::from(maze.cost_at(to)) * length;
            out.push((to, (cost * SCALE).round() as u64));
        }
    }
    out
}

fn oracle_cost(maze: &Maze) -> Option<f64> {
    let goals = maze.goals().to_vec();
    dijkstra(
        &maze.start(),
        |&c| oracle_moves(maze, c),
        |c| goals.contains(c),
    )
    .map(|(_, cost)| cost as f64 / SCALE)
}

/// Checks every move of a solution is legal and the costs add up.
fn assert_legal(maze: &Maze, result: &search::SearchResult<u32, puzzlelab::puzzles::maze::Dir>) {
    let mut cost = 0.0;
    for (i, mv) in result.moves.iter().enumerate() {
        let mut successors = Vec::new();
        maze.successors(&result.states[i], &mut successors).unwrap();
        let step = successors
            .iter()
            .find(|s| s.state == result.states[i + 1] && s.mv == *mv)
            .unwrap_or_else(|| panic!("{}: move {i} ({mv}) is not legal", result.algorithm));
        cost += step.cost;
    }
    assert!((cost - result.cost).abs() < 1e-6, "{}", result.algorithm);
    assert!(maze.is_goal(result.states.last().unwrap()).unwrap());
}

#[test]
fn optimal_algorithms_agree_with_pathfinding_on_weighted_grids() {
    let mut checked = 0;
    for seed in 0..24 {
        for (eight, cut) in [(false, false), (true, false), (true, true)] {
            let side = if seed % 3 == 0 { 7 } else { 14 };
            let maze = random_grid(seed, side, eight, cut, seed % 2 == 0);
            let expected = oracle_cost(&maze);
            for algorithm in maze_algorithms(&maze) {
                if !algorithm.is_optimal_for(&maze) {
                    continue;
                }
                let result = search::solve(&maze, algorithm).unwrap();
                match expected {
                    None => {
                        assert_eq!(result.outcome, Outcome::NotFound, "{algorithm} seed {seed}")
                    }
                    Some(cost) => {
                        assert_eq!(result.outcome, Outcome::Found, "{algorithm} seed {seed}");
                        assert!(
                            (result.cost - cost).abs() < 1e-4,
                            "{algorithm} seed {seed} eight {eight} cut {cut}: {} vs {cost}",
                            result.cost
                        );
                        if !matches!(algorithm, Algorithm::Jps | Algorithm::JpsPlus) {
                            assert_legal(&maze, &result);
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} solutions compared");
}

/// The algorithms that apply, IDA* only on the small grids.
fn maze_algorithms(maze: &Maze) -> Vec<Algorithm> {
    Algorithm::ALL
        .into_iter()
        .filter(|a| a.applies_to(maze))
        .filter(|a| *a != Algorithm::IdaStar || maze.rows() * maze.cols() <= 100)
        .collect()
}

#[test]
fn jump_point_search_matches_dijkstra_on_uniform_octile_grids() {
    use puzzlelab::puzzles::{NoWatcher, Puzzle};
    for seed in 0..40 {
        let maze = random_grid(seed, 30, true, false, false);
        let dijkstra = search::solve(&maze, Algorithm::Dijkstra).unwrap();
        for algorithm in [Algorithm::Jps, Algorithm::JpsPlus] {
            assert!(algorithm.applies_to(&maze));
            let jps = search::solve(&maze, algorithm).unwrap();
            assert_eq!(jps.outcome, dijkstra.outcome, "{algorithm} seed {seed}");
            assert!(
                (jps.cost - dijkstra.cost).abs() < 1e-6,
                "{algorithm} seed {seed}: {} vs {}",
                jps.cost,
                dijkstra.cost
            );
            assert!(jps.optimal || jps.outcome == Outcome::NotFound);
            // The report shows the path square by square, as the other algorithms do.
            let report = maze
                .solve(algorithm, &mut NoWatcher, &search::CancelToken::new())
                .unwrap();
            if report.solved {
                assert_eq!(report.path.len(), report.moves.len() + 1);
                for pair in report.path.windows(2) {
                    let (a, b) = (pair[0].cell, pair[1].cell);
                    assert!(a.row.abs_diff(b.row) <= 1 && a.col.abs_diff(b.col) <= 1);
                    assert_ne!(a, b);
                }
                let replayed = puzzlelab::puzzles::replay(&maze, &report.moves).unwrap();
                assert!(maze.is_goal(replayed.last().unwrap()).unwrap());
            }
            if jps.outcome == Outcome::Found {
                assert!(jps.stats.expanded <= dijkstra.stats.expanded);
            }
        }
    }
}

#[test]
fn jump_point_search_needs_a_uniform_octile_grid_without_corner_cutting() {
    for algorithm in [Algorithm::Jps, Algorithm::JpsPlus] {
        let mut maze = random_grid(1, 10, false, false, false);
        assert!(!algorithm.applies_to(&maze));
        maze.set_connectivity(Connectivity::Eight);
        assert!(algorithm.applies_to(&maze));
        maze.set_corner_cutting(true);
        assert!(!algorithm.applies_to(&maze));
        maze.set_corner_cutting(false);
        maze.set_cost(Cell::new(3, 3), 5);
        assert!(!algorithm.applies_to(&maze));
    }
    // JPS+'s lines stop at goal squares: percolation's goal rows are refused, with the reason.
    let mut maze = random_grid(1, 10, true, false, false);
    maze.set_percolation(puzzlelab::puzzles::maze::Percolation::TopBottom);
    assert!(Algorithm::Jps.applies_to(&maze));
    let why = Algorithm::JpsPlus.refusal(&maze).unwrap().to_string();
    assert!(why.contains("not percolation"), "{why}");
}

#[test]
fn bidirectional_bfs_finds_shortest_paths_on_unit_grids() {
    for seed in 0..30 {
        let maze = random_grid(seed, 25, false, false, false);
        let bfs = search::solve(&maze, Algorithm::Bfs).unwrap();
        let bi = search::solve(&maze, Algorithm::BidirectionalBfs).unwrap();
        assert_eq!(bi.outcome, bfs.outcome, "seed {seed}");
        assert_eq!(bi.cost, bfs.cost, "seed {seed}");
        if bi.outcome == Outcome::Found {
            assert!(bi.optimal);
            assert_legal(&maze, &bi);
        }
    }
}

#[test]
fn several_goals_end_at_the_nearest() {
    let maze = Maze::from_text("S.....G\n.......\nG......\n").unwrap();
    assert_eq!(maze.goals().len(), 2);
    for algorithm in maze_algorithms(&maze) {
        let result = search::solve(&maze, algorithm).unwrap();
        if algorithm.is_optimal_for(&maze) {
            assert_eq!(result.cost, 2.0, "{algorithm}");
        }
        assert_legal(&maze, &result);
    }
}

#[test]
fn manhattan_with_diagonals_is_marked_not_optimal() {
    let mut maze = random_grid(3, 12, true, false, false);
    maze.set_heuristic(GridHeuristic::Manhattan);
    assert!(!maze.facts().admissible);
    let result = search::solve(&maze, Algorithm::AStar).unwrap();
    assert!(!result.optimal);
    for h in [
        GridHeuristic::Euclidean,
        GridHeuristic::Octile,
        GridHeuristic::Chebyshev,
        GridHeuristic::Zero,
    ] {
        maze.set_heuristic(h);
        assert!(Algorithm::AStar.is_optimal_for(&maze), "{h}");
    }
}

#[test]
fn percolation_searches_from_every_top_square_to_any_bottom_square() {
    use puzzlelab::puzzles::{NoWatcher, Puzzle};
    let mut maze = Maze::from_text("percolation: top-bottom\n#.#.\n#..#\n##.#\n##.#\n").unwrap();
    assert_eq!(maze.percolation(), Percolation::TopBottom);
    let starts: Vec<(u32, u32)> = maze
        .start_states()
        .iter()
        .map(|&s| (s >> 16, s & 0xFFFF))
        .collect();
    assert_eq!(
        starts,
        vec![(0, 1), (0, 3)],
        "(row, column) of the free top squares"
    );
    let result = search::solve(&maze, Algorithm::Bfs).unwrap();
    assert_eq!(result.outcome, Outcome::Found);
    assert_eq!(result.cost, 4.0);
    let cluster = maze.percolating_cluster();
    assert_eq!(cluster.iter().filter(|&&x| x).count(), 5);
    assert!(!cluster[3], "(0, 3) is free but not connected");
    maze.set_blocked(Cell::new(2, 2), true);
    assert_eq!(
        search::solve(&maze, Algorithm::Bfs).unwrap().outcome,
        Outcome::NotFound
    );
    assert!(maze.percolating_cluster().iter().all(|&x| !x));
    // No free square on the left: it cannot percolate, and says so without searching.
    maze.set_percolation(Percolation::LeftRight);
    let error = maze
        .solve(Algorithm::Bfs, &mut NoWatcher, &search::CancelToken::new())
        .unwrap_err();
    assert!(error.to_string().contains("does not percolate"), "{error}");
}

#[test]
fn percolation_curve_rises_near_the_threshold() {
    use puzzlelab::puzzles::maze::percolation::{Experiment, run_experiment};
    let experiment = Experiment {
        side: 24,
        trials: 30,
        steps: 10,
        connectivity: Connectivity::Four,
        seed: 7,
    };
    let curve = run_experiment(&experiment, &search::CancelToken::new(), |_| {});
    assert_eq!(curve.len(), 11);
    let at = |p: f64| {
        curve
            .iter()
            .find(|c| (c.open - p).abs() < 1e-9)
            .unwrap()
            .fraction
    };
    assert_eq!(at(0.0), 0.0);
    assert_eq!(at(1.0), 1.0);
    assert!(at(0.4) < 0.1, "{curve:?}");
    assert!(at(0.8) > 0.9, "{curve:?}");
    assert!(
        curve
            .windows(2)
            .all(|w| w[1].fraction + 0.2 >= w[0].fraction)
    );
}

#[test]
fn optimal_algorithms_agree_with_several_goals_and_in_percolation_mode() {
    for seed in 0..20 {
        for percolation in [
            Percolation::Off,
            Percolation::TopBottom,
            Percolation::LeftRight,
        ] {
            let mut maze = random_grid(seed, 20, true, false, false);
            if percolation == Percolation::Off {
                for cell in [Cell::new(3, 17), Cell::new(15, 4), Cell::new(10, 10)] {
                    maze.set_blocked(cell, false);
                    maze.toggle_goal(cell);
                }
            } else {
                maze.set_percolation(percolation);
            }
            if maze.start_states().is_empty() {
                continue;
            }
            let dijkstra = search::solve(&maze, Algorithm::Dijkstra).unwrap();
            for algorithm in maze_algorithms(&maze) {
                if !algorithm.is_optimal_for(&maze) {
                    continue;
                }
                let result = search::solve(&maze, algorithm).unwrap();
                assert_eq!(result.outcome, dijkstra.outcome, "{algorithm} seed {seed}");
                assert!(
                    (result.cost - dijkstra.cost).abs() < 1e-6,
                    "{algorithm} seed {seed} {percolation:?}: {} vs {}",
                    result.cost,
                    dijkstra.cost
                );
            }
        }
    }
}

#[test]
fn costs_read_whole_or_to_four_decimals() {
    assert_eq!(search::format_cost(9.0), "9");
    assert_eq!(search::format_cost(0.0), "0");
    assert_eq!(search::format_cost(33.242_640_687_119_29), "33.2426");
    assert_eq!(
        search::format_cost(1.0 + std::f64::consts::SQRT_2),
        "2.4142"
    );
}
