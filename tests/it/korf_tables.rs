//! Korf's tables (issue 32): the states expanded per f value (A*, Dijkstra, weighted A*,
//! greedy; the grid's fast A* too) and per IDA* iteration (the generic search and the sliding
//! puzzle's fast core) add up to the run's statistics, f rising layer by layer under a
//! consistent heuristic; `solve --json` carries them.

use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::sliding::Sliding;
use puzzlelab::puzzles::{NoWatcher, Puzzle, Report, Watcher};
use puzzlelab::search::{Algorithm, CancelToken};

/// A watcher that is not silent, so that the generic searches run instead of fast paths.
struct Listening;
impl Watcher for Listening {}

fn solve(p: &dyn Puzzle, algorithm: Algorithm, watched: bool) -> Report {
    let report = if watched {
        p.solve(algorithm, &mut Listening, &CancelToken::new())
    } else {
        p.solve(algorithm, &mut NoWatcher, &CancelToken::new())
    };
    let report = report.unwrap();
    assert!(report.solved, "{algorithm:?}");
    report
}

#[test]
fn per_f_tables_add_up_to_the_expansions_and_rise_under_a_consistent_heuristic() {
    let text = std::fs::read_to_string("puzzles/maze-terrain.txt").unwrap();
    let terrain = Maze::from_text(&text).unwrap();
    let open =
        Maze::from_text(&std::fs::read_to_string("puzzles/maze-small.txt").unwrap()).unwrap();
    for (maze, name) in [(&terrain, "terrain"), (&open, "small")] {
        for algorithm in [
            Algorithm::AStar,
            Algorithm::Dijkstra,
            Algorithm::WeightedAStar(puzzlelab::search::Weight::DEFAULT),
            Algorithm::Greedy,
        ] {
            for watched in [false, true] {
                let r = solve(maze, algorithm, watched);
                let sum: u64 = r.per_f.iter().map(|l| l.expanded).sum();
                assert_eq!(
                    sum, r.stats.expanded,
                    "{name} {algorithm:?} watched {watched}"
                );
                assert!(
                    r.per_f.windows(2).all(|w| w[0].f < w[1].f),
                    "sorted, merged"
                );
                assert!(r.iterations.is_empty());
                if matches!(algorithm, Algorithm::AStar | Algorithm::Dijkstra) {
                    // The last layer is the solution's cost: the goal's f.
                    assert!(
                        r.per_f.last().unwrap().f <= r.cost + 1e-9,
                        "{name} {algorithm:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn iteration_tables_add_up_to_the_run_for_generic_ida_star_and_the_fast_core() {
    let mut p = Sliding::solved(4, 4).unwrap();
    p.scramble_walk(40, 3);
    p.set_option("heuristic", "manhattan").unwrap();
    for watched in [true, false] {
        let r = solve(&p, Algorithm::IdaStar, watched);
        assert!(!r.iterations.is_empty(), "watched {watched}");
        let expanded: u64 = r.iterations.iter().map(|i| i.expanded).sum();
        let generated: u64 = r.iterations.iter().map(|i| i.generated).sum();
        assert_eq!(expanded, r.stats.expanded, "watched {watched}");
        assert_eq!(generated, r.stats.generated, "watched {watched}");
        assert!(r.iterations.windows(2).all(|w| w[0].bound < w[1].bound));
        assert_eq!(r.iterations.last().unwrap().bound, r.cost);
        assert_eq!(r.iterations.len() as u64, r.stats.iterations.max(1));
    }
    // A maze on the generic IDA*: the same sums.
    let maze = Maze::from_text("S....\n.###.\n....G").unwrap();
    let r = solve(&maze, Algorithm::IdaStar, false);
    let expanded: u64 = r.iterations.iter().map(|i| i.expanded).sum();
    assert_eq!(expanded, r.stats.expanded);
}

#[test]
fn solve_json_carries_the_tables() {
    let (code, out, err) = crate::common::puzzlelab(&[
        "solve",
        "puzzles/maze-terrain.txt",
        "--algorithm",
        "astar",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let layers = v["per_f"].as_array().expect("per_f");
    let sum: u64 = layers.iter().map(|l| l["expanded"].as_u64().unwrap()).sum();
    assert_eq!(sum, v["stats"]["expanded"].as_u64().unwrap());
    let iterations = hardest_8_puzzle_iterations("manhattan");
    for key in ["bound", "expanded", "generated", "ms"] {
        assert!(!iterations[0][key].is_null(), "{key}");
    }
}

/// `solve --json`'s IDA* iterations on the hardest 8-puzzle with `heuristic` (more than one).
fn hardest_8_puzzle_iterations(heuristic: &str) -> Vec<serde_json::Value> {
    let (code, out, err) = crate::common::puzzlelab(&[
        "solve",
        "puzzles/sliding-8-hardest-a.txt",
        "--algorithm",
        "idastar",
        "--heuristic",
        heuristic,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let iterations = v["iterations"].as_array().expect("iterations").clone();
    assert!(iterations.len() > 1);
    iterations
}

#[test]
fn solve_json_forecasts_each_iteration_of_the_fast_core() {
    let iterations = hardest_8_puzzle_iterations("pdb");
    for it in &iterations {
        assert!(it["predicted"].as_f64().unwrap() >= 1.0, "{it}");
        assert!(it["kre"].as_f64().unwrap() > 0.0, "{it}");
    }
    // The completed iterations' forecast is near their expansions.
    let done = &iterations[..iterations.len() - 1];
    let sum = |key: &str| done.iter().map(|it| it[key].as_f64().unwrap()).sum::<f64>();
    let ratio = sum("predicted") / sum("expanded");
    assert!((0.7..1.4).contains(&ratio), "{ratio}");
    // A type without forecasts leaves them out.
    let iterations = hardest_8_puzzle_iterations("manhattan");
    assert!(iterations[0].get("predicted").is_none());
}

#[test]
fn the_forecast_of_ida_stars_iterations_follows_the_actual_expansions_on_random_15_puzzles() {
    use puzzlelab::puzzles::sliding::forecast::Forecast;
    use puzzlelab::puzzles::sliding::ida::{self, Options};
    use puzzlelab::puzzles::sliding::pattern_db::PatternDb;
    use puzzlelab::puzzles::sliding::stratified;
    let goal: Vec<u8> = (1..16).chain([0]).collect();
    let db = PatternDb::build(4, 4, &goal, &CancelToken::new(), &mut |_| {}).unwrap();
    let forecast = Forecast::sample(&db, 4_000, 7);
    // The brute-force tree from a corner: 2 moves, then 3 (each neighbour of a corner is an
    // edge square with 2 ways on), growing by about 2.13 a level.
    let nodes = forecast.tree_nodes(15, 30);
    assert_eq!(&nodes[..3], &[1.0, 2.0, 4.0]);
    let growth = nodes[30] / nodes[29];
    assert!((2.0..2.3).contains(&growth), "{growth}");
    let cancel = CancelToken::new();
    let (mut predicted, mut kre, mut actual) = (0.0, 0.0, 0u64);
    let mut worst: f64 = 1.0;
    for seed in 0..12 {
        let mut p = Sliding::solved(4, 4).unwrap();
        p.scramble_walk(50, seed);
        let tiles = p.tiles_row_major();
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        // The tree the forecasts model: no transposition table (with one, the search skips
        // the states it has expanded already in the iteration, a fifth of them on Korf's 100).
        let options = Options {
            transpositions: false,
            ..Options::default()
        };
        let run = ida::solve_with(&db, &tiles, &cancel, options, &|_| {});
        // The completed iterations (the last stops at its first solution).
        for it in &run.iterations[..run.iterations.len() - 1] {
            let bound = it.bound as u32;
            let n = stratified::expansions(&db, &tiles, bound, 100, seed, &cancel);
            // The first probe's level 0 is the start alone: an iteration that expands one
            // state is forecast exactly.
            if it.expanded == 1 {
                assert_eq!(n, 1.0);
            }
            if it.expanded >= 100 {
                worst = worst
                    .max(n / it.expanded as f64)
                    .max(it.expanded as f64 / n);
            }
            actual += it.expanded;
            predicted += n;
            kre += forecast.kre_expansions(blank, bound);
        }
    }
    let ratio = predicted / actual as f64;
    eprintln!(
        "forecast {predicted:.0}, actual {actual}, ratio {ratio:.3}, worst iteration x{worst:.2}, KRE {kre:.0}"
    );
    assert!(actual > 1000, "{actual}");
    // Stratified sampling is unbiased: the sum is close, and no iteration is far off.
    assert!(
        (0.8..1.25).contains(&ratio),
        "forecast {predicted:.0} against {actual}"
    );
    assert!(worst < 2.0, "an iteration forecast x{worst:.2} off");
    // KRE's average over random starts is no forecast for one start's own bounds.
    assert!(kre > predicted, "KRE {kre:.0}");
    // Cancelled, the forecast gives up.
    let stopped = CancelToken::new();
    stopped.cancel();
    let tiles = Sliding::solved(4, 4).unwrap().tiles_row_major();
    assert_eq!(
        stratified::expansions(&db, &tiles, 10, 100, 1, &stopped),
        0.0
    );
}

#[test]
fn the_app_forecasts_ida_stars_iterations_beside_the_run() {
    use crate::common::gui::{harness, run_until};
    use egui_kittest::kittest::Queryable as _;
    use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings, ViewCommand};
    use puzzlelab::ui::views::sliding::Command as SlidingCommand;
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    h.get_by_label("Sliding tiles").click();
    h.run();
    h.state_mut().push(AppCommand::View(ViewCommand::new(
        SlidingCommand::Heuristic(puzzlelab::puzzles::sliding::TileHeuristic::PatternDb),
    )));
    h.state_mut()
        .push(AppCommand::SetAlgorithm(Algorithm::IdaStar));
    h.step();
    let ready = |app: &PuzzleLabApp| {
        app.puzzle()
            .as_any()
            .downcast_ref::<Sliding>()
            .is_some_and(Sliding::has_pattern_db)
    };
    run_until(&mut h, ready);
    // The forecast comes from a background thread; before a run it names the first bound.
    let first = |h: &egui_kittest::Harness<'static, PuzzleLabApp>| {
        h.query_by_label_contains("First iteration (bound")
            .is_some()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !first(&h) {
        assert!(std::time::Instant::now() < deadline, "no forecast shown");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let report = h.state().result().unwrap().clone();
    assert!(report.solved && report.stats.iterations >= 1);
    // After the solved run: the completed iterations beside their forecast, and the last
    // one's whole forecast beside where it ended; no next iteration.
    let bound = report.stats.threshold as u32;
    let last = report.iterations.last().unwrap();
    h.get_by_label_contains(&format!("Last iteration (bound {bound}): forecast about"));
    h.get_by_label_contains(&format!("after {} states", last.expanded));
    if report.iterations.len() > 1 {
        let done = &report.iterations[..report.iterations.len() - 1];
        let expanded: u64 = done.iter().map(|it| it.expanded).sum();
        h.get_by_label_contains(&format!("expanded {expanded}."));
    }
    assert!(h.query_by_label_contains("Next iteration").is_none());
}
