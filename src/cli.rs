//! The command line: `puzzlelab [FILE]` opens the GUI; `puzzlelab solve FILE` solves a puzzle
//! headless and prints the moves and statistics (or one JSON object with `--json`).
//!
//! Exit codes of `solve`: 0 solved, 1 no solution, 2 bad input (including bad arguments).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use crate::puzzles::klotski::{Klotski, Metric};
use crate::puzzles::maze::generate::{self, Generator};
use crate::puzzles::maze::movingai;
use crate::puzzles::maze::percolation::{Experiment, run_experiment};
use crate::puzzles::maze::{Connectivity, GridHeuristic, Maze};
use crate::puzzles::pattern_db::{PatternDb, PdbError};
use crate::puzzles::sliding::{SMALL_BOARD, Sliding, TileHeuristic};
use crate::puzzles::{self, NoWatcher, Puzzle as _, Report};
use crate::results;
use crate::search::{self, Algorithm, CancelToken, SearchError, Weight};

/// puzzlelab: solve puzzles by state-space search and watch the search happen.
#[derive(Debug, Parser)]
#[command(name = "puzzlelab", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A puzzle file to open in the GUI.
    file: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve a puzzle file and print the solution and the statistics of the search.
    Solve(SolveArgs),
    /// Count the states reachable from a puzzle's start, and how many of them are solved.
    States(StatesArgs),
    /// Run several algorithms on one puzzle and print a table of their results.
    Compare(CompareArgs),
    /// Solve a fixed, seeded set of random 15-puzzles optimally with IDA* and report, per
    /// instance and in total, the solution length, the states expanded and the time.
    Bench(BenchArgs),
    /// Run every problem of a Moving AI scenario file (`.scen`) on its map with 8-connected
    /// moves, diagonal cost sqrt(2) and no corner cutting, and check each computed length
    /// against the stated optimal one. Exit code 0 when all match, 1 otherwise.
    Scenario(ScenarioArgs),
    /// Generate a maze (blocked-square representation) and print it in the text format.
    Generate(GenerateArgs),
    /// The percolation experiment: for open-square probabilities from 0 to 1, the fraction of
    /// random square grids that percolate from top to bottom.
    Percolation(PercolationArgs),
}

#[derive(Debug, clap::Args)]
struct ScenarioArgs {
    /// The scenario file (`version 1`).
    scen: PathBuf,
    /// The map file (`.map`). Default: the map the scenario names, looked for beside the
    /// scenario file and in the folders above it.
    #[arg(long, value_name = "MAP")]
    map: Option<PathBuf>,
    /// The algorithm (one that finds least-cost paths: astar, jps, dijkstra, biastar, ...).
    #[arg(long, short, default_value = "astar", value_name = "A")]
    algorithm: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// The generator: binary-tree, sidewinder, aldous-broder, wilson, hunt-and-kill,
    /// recursive-backtracker, kruskal, prim, growing-tree, eller or recursive-division.
    #[arg(long, short, default_value = "recursive-backtracker", value_name = "G")]
    algorithm: String,
    /// Rows of cells (the maze has 2 * rows + 1 rows of squares).
    #[arg(long, default_value_t = 10)]
    rows: usize,
    /// Columns of cells (the maze has 2 * cols + 1 columns of squares).
    #[arg(long, default_value_t = 10)]
    cols: usize,
    /// The seed: the same seed gives the same maze.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The fraction of dead ends to remove (0 to 1): 0 keeps the maze perfect.
    #[arg(long, default_value_t = 0.0)]
    braid: f64,
}

#[derive(Debug, clap::Args)]
struct PercolationArgs {
    /// Side of the square grids.
    #[arg(long, default_value_t = 48)]
    side: usize,
    /// Random grids per probability.
    #[arg(long, default_value_t = 60)]
    trials: usize,
    /// Probabilities 0, 1/steps, ..., 1.
    #[arg(long, default_value_t = 40)]
    steps: usize,
    /// Moves: 4 or 8.
    #[arg(long, default_value_t = 4)]
    moves: u8,
    /// The seed of the random grids.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct CompareArgs {
    /// The puzzle file (plain text or JSON).
    file: PathBuf,
    /// The puzzle type; detected from the file when absent.
    #[arg(long = "type", value_name = "T")]
    puzzle_type: Option<String>,
    /// The algorithms, separated by commas (for example `bfs,astar,dfs`). Default: every one
    /// that applies to the puzzle.
    #[arg(long, short, value_name = "A,B,...", value_delimiter = ',')]
    algorithms: Vec<String>,
    /// Print the rows as a JSON array.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the rows as CSV.
    #[arg(long)]
    csv: bool,
}

#[derive(Debug, clap::Args)]
struct BenchArgs {
    /// How many random instances.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// The seed of the first instance (instance i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The heuristic: misplaced, manhattan, linear_conflict or pdb.
    #[arg(long, default_value = "pdb", value_name = "H")]
    heuristic: String,
    /// Board side (rows = columns).
    #[arg(long, default_value_t = 4)]
    side: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct StatesArgs {
    /// The puzzle file (plain text or JSON).
    file: PathBuf,
    /// The puzzle type; detected from the file when absent.
    #[arg(long = "type", value_name = "T")]
    puzzle_type: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct SolveArgs {
    /// The puzzle file (plain text or JSON).
    file: PathBuf,
    /// The puzzle type (klondike, maze, car-maze, klotski, sliding); detected from the file
    /// when absent.
    #[arg(long = "type", value_name = "T")]
    puzzle_type: Option<String>,
    /// The algorithm: dfs, bfs, dijkstra, astar, idastar, wastar, greedy, bibfs, biastar or
    /// jps. Default: the fastest one that guarantees an optimal answer for the puzzle.
    #[arg(long, short, value_name = "A")]
    algorithm: Option<String>,
    /// Klotski's move metric: `unit` (one piece moves one cell) or `piece` (one piece moves
    /// any distance). Default: the file's, or `unit`.
    #[arg(long, value_name = "M")]
    metric: Option<String>,
    /// The heuristic. Sliding tiles: misplaced, manhattan, linear_conflict or pdb (additive
    /// pattern databases, built on first use and cached; default pdb on boards of 10 to 16
    /// squares, linear_conflict otherwise). Grid mazes: manhattan, euclidean, octile,
    /// chebyshev or zero (default: the file's).
    #[arg(long, value_name = "H")]
    heuristic: Option<String>,
    /// Weighted A*'s weight w (1 to 10; priority g + w * h). Default 2.
    #[arg(long, value_name = "W")]
    weight: Option<f64>,
    /// Grid mazes: 4 or 8 directions (default: the file's).
    #[arg(long, value_name = "N")]
    moves: Option<u8>,
    /// Grid mazes: let diagonal moves cut a corner past one blocked square (`yes` or `no`;
    /// default: the file's).
    #[arg(long, value_name = "YES|NO")]
    corner_cutting: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Exit code: solved.
pub const EXIT_SOLVED: u8 = 0;
/// Exit code: the search ended without a solution.
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit code: bad input (file, type, algorithm or arguments).
pub const EXIT_BAD_INPUT: u8 = 2;

/// Parses the process's arguments and runs the GUI or a subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Solve(args)) => ExitCode::from(solve(&args)),
        Some(Command::States(args)) => ExitCode::from(states(&args)),
        Some(Command::Bench(args)) => ExitCode::from(bench(&args)),
        Some(Command::Compare(args)) => ExitCode::from(compare(&args)),
        Some(Command::Scenario(args)) => ExitCode::from(scenario(&args)),
        Some(Command::Generate(args)) => ExitCode::from(generate(&args)),
        Some(Command::Percolation(args)) => ExitCode::from(percolation(&args)),
        None => match crate::app::run_gui(cli.file) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("puzzlelab: cannot open the window: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

fn solve(args: &SolveArgs) -> u8 {
    let mut puzzle = match puzzles::load_file(&args.file, args.puzzle_type.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("puzzlelab: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    if let Some(name) = &args.metric {
        let Some(metric) = Metric::from_name(name) else {
            eprintln!("puzzlelab: unknown metric `{name}` (known: unit, piece)");
            return EXIT_BAD_INPUT;
        };
        let Some(klotski) = puzzle.as_any_mut().downcast_mut::<Klotski>() else {
            eprintln!("puzzlelab: --metric applies to klotski puzzles only");
            return EXIT_BAD_INPUT;
        };
        klotski.set_metric(metric);
    }
    // A 15-puzzle (or any board of 10 to 16 squares) is solved with pattern databases unless
    // told otherwise: with linear conflict alone some take minutes.
    let grid_flags = args.moves.is_some() || args.corner_cutting.is_some();
    match puzzle.as_any_mut().downcast_mut::<Maze>() {
        Some(maze) => {
            if let Some(moves) = args.moves {
                let connectivity = match moves {
                    4 => Connectivity::Four,
                    8 => Connectivity::Eight,
                    m => {
                        eprintln!("puzzlelab: --moves must be 4 or 8, not {m}");
                        return EXIT_BAD_INPUT;
                    }
                };
                maze.set_connectivity(connectivity);
            }
            match args.corner_cutting.as_deref() {
                None => {}
                Some("yes") => {
                    maze.set_corner_cutting(true);
                }
                Some("no") => {
                    maze.set_corner_cutting(false);
                }
                Some(other) => {
                    eprintln!("puzzlelab: --corner-cutting must be yes or no, not `{other}`");
                    return EXIT_BAD_INPUT;
                }
            }
        }
        None if grid_flags => {
            eprintln!("puzzlelab: --moves and --corner-cutting apply to grid mazes only");
            return EXIT_BAD_INPUT;
        }
        None => {}
    }
    if let Some(maze) = puzzle.as_any_mut().downcast_mut::<Maze>()
        && let Some(name) = &args.heuristic
    {
        let Some(h) = GridHeuristic::from_name(name) else {
            eprintln!(
                "puzzlelab: unknown grid heuristic `{name}` (known: manhattan, euclidean, octile, chebyshev, zero)"
            );
            return EXIT_BAD_INPUT;
        };
        maze.set_heuristic(h);
    }
    let is_maze = puzzle.as_any().is::<Maze>();
    let default_heuristic = puzzle
        .as_any()
        .downcast_ref::<Sliding>()
        .filter(|s| s.pattern_db_possible() && s.rows() * s.cols() > SMALL_BOARD)
        .map(|_| TileHeuristic::PatternDb.name().to_owned());
    if let Some(name) = args
        .heuristic
        .as_ref()
        .or(default_heuristic.as_ref())
        .filter(|_| !is_maze)
    {
        let Some(heuristic) = TileHeuristic::from_name(name) else {
            eprintln!(
                "puzzlelab: unknown heuristic `{name}` (known: misplaced, manhattan, linear_conflict)"
            );
            return EXIT_BAD_INPUT;
        };
        let Some(sliding) = puzzle.as_any_mut().downcast_mut::<Sliding>() else {
            eprintln!("puzzlelab: --heuristic applies to sliding puzzles only");
            return EXIT_BAD_INPUT;
        };
        sliding.set_heuristic(heuristic);
        if heuristic == TileHeuristic::PatternDb {
            match load_pattern_db(sliding) {
                Ok(db) => {
                    sliding.attach_pattern_db(db);
                }
                Err(e) => {
                    eprintln!("puzzlelab: {e}");
                    return EXIT_BAD_INPUT;
                }
            }
        }
    }
    let algorithm = match args.algorithm.as_deref() {
        None => puzzle.default_algorithm(),
        Some(name) => match Algorithm::from_name(name) {
            Some(a) => a,
            None => {
                let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                eprintln!(
                    "puzzlelab: unknown algorithm `{name}` (known: {})",
                    known.join(", ")
                );
                return EXIT_BAD_INPUT;
            }
        },
    };
    let algorithm = match (algorithm, args.weight) {
        (_, None) => algorithm,
        (Algorithm::WeightedAStar(_), Some(w)) => match Weight::new(w) {
            Some(weight) => Algorithm::WeightedAStar(weight),
            None => {
                eprintln!("puzzlelab: --weight must be from 1 to 10, not {w}");
                return EXIT_BAD_INPUT;
            }
        },
        (_, Some(_)) => {
            eprintln!("puzzlelab: --weight applies to weighted A* (-a wastar) only");
            return EXIT_BAD_INPUT;
        }
    };
    let report = match puzzle.solve(algorithm, &mut NoWatcher, &CancelToken::new()) {
        Ok(r) => r,
        Err(SearchError::Unsolvable(reason)) => {
            // Known to have no solution without a search: that is an answer, not bad input.
            if args.json {
                let v = serde_json::json!({
                    "type": puzzle.puzzle_type().name,
                    "outcome": "unsolvable",
                    "solved": false,
                    "reason": reason,
                });
                println!("{v:#}");
            } else {
                println!("no solution: {reason}");
            }
            return EXIT_NO_SOLUTION;
        }
        Err(e) => {
            eprintln!("puzzlelab: {}: {e}", args.file.display());
            return EXIT_BAD_INPUT;
        }
    };
    let text = if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(json) => json + "\n",
            Err(e) => {
                eprintln!("puzzlelab: {e}");
                return EXIT_BAD_INPUT;
            }
        }
    } else {
        report_text(&report)
    };
    // A closed pipe (`puzzlelab solve ... | head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
    if report.solved {
        EXIT_SOLVED
    } else {
        EXIT_NO_SOLUTION
    }
}

/// Loads the sliding puzzle's pattern database from the cache, or builds (and caches) it,
/// reporting the build's progress on standard error.
fn load_pattern_db(sliding: &Sliding) -> Result<Arc<PatternDb>, PdbError> {
    let mut last = -1;
    let db = PatternDb::load_or_build(
        sliding.rows(),
        sliding.cols(),
        sliding.goal(),
        &CancelToken::new(),
        &mut |fraction| {
            let percent = (fraction * 100.0) as i32;
            if percent / 10 != last / 10 && percent < 100 {
                eprintln!("puzzlelab: building pattern databases… {percent}%");
            }
            last = percent;
        },
    )?;
    Ok(Arc::new(db))
}

fn compare(args: &CompareArgs) -> u8 {
    let puzzle = match puzzles::load_file(&args.file, args.puzzle_type.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("puzzlelab: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let mut algorithms = Vec::new();
    for name in &args.algorithms {
        match Algorithm::from_name(name.trim()) {
            Some(a) => algorithms.push(a),
            None => {
                eprintln!("puzzlelab: unknown algorithm `{name}`");
                return EXIT_BAD_INPUT;
            }
        }
    }
    if algorithms.is_empty() {
        algorithms = puzzle.algorithms();
    }
    let name = args.file.file_name().map_or_else(
        || args.file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut rows = Vec::new();
    for (algorithm, run) in algorithms.iter().zip(results::compare(
        &name,
        puzzle.as_ref(),
        &algorithms,
        &CancelToken::new(),
    )) {
        match run {
            Ok((row, _)) => rows.push(row),
            Err(e) => {
                eprintln!("puzzlelab: {algorithm}: {e}");
                return EXIT_BAD_INPUT;
            }
        }
    }
    let text = if args.json {
        match serde_json::to_string_pretty(&rows) {
            Ok(json) => json + "\n",
            Err(e) => {
                eprintln!("puzzlelab: {e}");
                return EXIT_BAD_INPUT;
            }
        }
    } else if args.csv {
        match results::to_csv(&rows) {
            Ok(csv) => csv,
            Err(e) => {
                eprintln!("puzzlelab: {e}");
                return EXIT_BAD_INPUT;
            }
        }
    } else {
        results::to_table(&rows)
    };
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
    if rows.iter().all(|r| r.solved) {
        EXIT_SOLVED
    } else {
        EXIT_NO_SOLUTION
    }
}

fn bench(args: &BenchArgs) -> u8 {
    let Some(heuristic) = TileHeuristic::from_name(&args.heuristic) else {
        eprintln!("puzzlelab: unknown heuristic `{}`", args.heuristic);
        return EXIT_BAD_INPUT;
    };
    let mut board = match Sliding::solved(args.side, args.side) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("puzzlelab: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    board.set_heuristic(heuristic);
    if heuristic == TileHeuristic::PatternDb {
        match load_pattern_db(&board) {
            Ok(db) => {
                board.attach_pattern_db(db);
            }
            Err(e) => {
                eprintln!("puzzlelab: {e}");
                return EXIT_BAD_INPUT;
            }
        }
    }
    let mut rows = Vec::new();
    for i in 0..args.count {
        let seed = args.seed + i as u64;
        board.scramble_uniform(seed);
        let report = match board.solve(Algorithm::IdaStar, &mut NoWatcher, &CancelToken::new()) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("puzzlelab: instance {i}: {e}");
                return EXIT_BAD_INPUT;
            }
        };
        if !args.json {
            println!(
                "{i:>3}  seed {seed:<4} length {:>3}  expanded {:>11}  {:>9.1} ms",
                report.cost, report.stats.expanded, report.stats.elapsed_ms
            );
        }
        rows.push(serde_json::json!({
            "seed": seed,
            "tiles": board.to_json()["tiles"],
            "length": report.cost,
            "expanded": report.stats.expanded,
            "elapsed_ms": report.stats.elapsed_ms,
        }));
    }
    let total = |key: &str| {
        rows.iter()
            .map(|r| r[key].as_f64().unwrap_or(0.0))
            .sum::<f64>()
    };
    let (expanded, ms) = (total("expanded"), total("elapsed_ms"));
    let n = args.count.max(1) as f64;
    if args.json {
        let v = serde_json::json!({
            "heuristic": heuristic.name(),
            "instances": rows,
            "total_expanded": expanded,
            "total_ms": ms,
            "mean_ms": ms / n,
        });
        println!("{v:#}");
    } else {
        println!(
            "total: {} instances, {expanded} states expanded, {ms:.1} ms ({:.1} ms and {:.0} expansions per instance)",
            args.count,
            ms / n,
            expanded / n
        );
    }
    EXIT_SOLVED
}

fn scenario(args: &ScenarioArgs) -> u8 {
    let fail = |message: String| {
        eprintln!("puzzlelab: {message}");
        EXIT_BAD_INPUT
    };
    let text = match std::fs::read_to_string(&args.scen) {
        Ok(t) => t,
        Err(e) => return fail(format!("{}: {e}", args.scen.display())),
    };
    let scenario = match movingai::parse_scenario(&text) {
        Ok(s) => s,
        Err(e) => return fail(format!("{}: {e}", args.scen.display())),
    };
    let Some(map_path) = args.map.clone().or_else(|| scenario.find_map(&args.scen)) else {
        return fail(format!(
            "cannot find the map `{}` that {} names; give it with --map",
            scenario.map,
            args.scen.display()
        ));
    };
    let maze = match puzzles::load_file(&map_path, Some("maze")) {
        Ok(p) => match p.as_any().downcast_ref::<Maze>() {
            Some(m) => m.clone(),
            None => return fail(format!("{}: not a grid map", map_path.display())),
        },
        Err(e) => return fail(e.to_string()),
    };
    if let Err(e) = scenario.check_map(&maze) {
        return fail(format!(
            "{} on {}: {e}",
            args.scen.display(),
            map_path.display()
        ));
    }
    let Some(algorithm) = Algorithm::from_name(&args.algorithm) else {
        return fail(format!("unknown algorithm `{}`", args.algorithm));
    };
    if !algorithm.applies_to(&maze) {
        return fail(format!("{algorithm} does not apply to this map"));
    }
    let mut rows = Vec::new();
    let (mut matched, mut expanded, mut ms) = (0, 0, 0.0);
    for problem in &scenario.problems {
        let m = maze.with_problem(problem);
        let result = match search::solve(&m, algorithm) {
            Ok(r) => r,
            Err(e) => return fail(format!("line {}: {e}", problem.line)),
        };
        let computed = (result.outcome == search::Outcome::Found).then_some(result.cost);
        let ok = computed.is_some_and(|c| (c - problem.optimal).abs() <= 1e-4);
        matched += usize::from(ok);
        expanded += result.stats.expanded;
        ms += result.stats.elapsed_ms;
        if !args.json {
            println!(
                "line {:>5}  ({}, {}) -> ({}, {})  stated {:>10.4}  computed {:>10}  {}  expanded {:>8}  {:>8.3} ms",
                problem.line,
                problem.start.col,
                problem.start.row,
                problem.goal.col,
                problem.goal.row,
                problem.optimal,
                computed.map_or_else(|| "none".to_owned(), |c| format!("{c:.4}")),
                if ok { "ok" } else { "MISMATCH" },
                result.stats.expanded,
                result.stats.elapsed_ms
            );
        }
        rows.push(serde_json::json!({
            "line": problem.line,
            "bucket": problem.bucket,
            "start": {"x": problem.start.col, "y": problem.start.row},
            "goal": {"x": problem.goal.col, "y": problem.goal.row},
            "stated": problem.optimal,
            "computed": computed,
            "matched": ok,
            "expanded": result.stats.expanded,
            "elapsed_ms": result.stats.elapsed_ms,
        }));
    }
    let total = scenario.problems.len();
    if args.json {
        let v = serde_json::json!({
            "scenario": args.scen.display().to_string(),
            "map": map_path.display().to_string(),
            "algorithm": algorithm.name(),
            "problems": rows,
            "matched": matched,
            "total": total,
            "expanded": expanded,
            "elapsed_ms": ms,
        });
        println!("{v:#}");
    } else {
        println!(
            "{matched} of {total} match (within 1e-4); {algorithm}: {expanded} states expanded, {ms:.1} ms searching"
        );
    }
    if matched == total {
        EXIT_SOLVED
    } else {
        EXIT_NO_SOLUTION
    }
}

fn generate(args: &GenerateArgs) -> u8 {
    let Some(generator) = Generator::from_name(&args.algorithm) else {
        let known: Vec<&str> = Generator::ALL.iter().map(|g| g.name()).collect();
        eprintln!(
            "puzzlelab: unknown generator `{}` (known: {})",
            args.algorithm,
            known.join(", ")
        );
        return EXIT_BAD_INPUT;
    };
    if !(1..=generate::MAX_CELLS).contains(&args.rows)
        || !(1..=generate::MAX_CELLS).contains(&args.cols)
    {
        eprintln!(
            "puzzlelab: --rows and --cols must be from 1 to {}",
            generate::MAX_CELLS
        );
        return EXIT_BAD_INPUT;
    }
    if !(0.0..=1.0).contains(&args.braid) {
        eprintln!("puzzlelab: --braid must be from 0 to 1");
        return EXIT_BAD_INPUT;
    }
    let generated = generate::generate(generator, args.rows, args.cols, args.seed, args.braid);
    let mut maze = Maze::new(3, 3);
    maze.apply_generated(&generated);
    let _ = std::io::Write::write_all(&mut std::io::stdout(), maze.to_text().as_bytes());
    EXIT_SOLVED
}

fn percolation(args: &PercolationArgs) -> u8 {
    let connectivity = match args.moves {
        4 => Connectivity::Four,
        8 => Connectivity::Eight,
        m => {
            eprintln!("puzzlelab: --moves must be 4 or 8, not {m}");
            return EXIT_BAD_INPUT;
        }
    };
    let experiment = Experiment {
        side: args.side,
        trials: args.trials,
        steps: args.steps,
        connectivity,
        seed: args.seed,
    };
    let curve = run_experiment(&experiment, &CancelToken::new(), |_| {});
    if args.json {
        let v = serde_json::json!({
            "side": args.side,
            "trials": args.trials,
            "moves": args.moves,
            "curve": curve,
        });
        println!("{v:#}");
    } else {
        println!("open  percolating");
        for p in &curve {
            println!("{:.3}  {:.3}", p.open, p.fraction);
        }
    }
    EXIT_SOLVED
}

fn states(args: &StatesArgs) -> u8 {
    let puzzle = match puzzles::load_file(&args.file, args.puzzle_type.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("puzzlelab: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let count = puzzle.count_states(&CancelToken::new());
    let text = if args.json {
        format!(
            "{}\n",
            serde_json::json!({
                "type": puzzle.puzzle_type().name,
                "states": count.states,
                "solved_states": count.goals,
                "elapsed_ms": count.elapsed_ms,
            })
        )
    } else {
        format!(
            "reachable states: {}\nsolved states: {}\ntime: {:.1} ms\n",
            count.states, count.goals, count.elapsed_ms
        )
    };
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
    EXIT_SOLVED
}

/// The plain-text report printed by `puzzlelab solve`.
pub fn report_text(report: &Report) -> String {
    let mut out = format!(
        "puzzle: {}\nalgorithm: {}\n",
        report.puzzle_type, report.algorithm
    );
    if report.solved {
        out += &format!(
            "solved: {} moves, cost {} ({})\nmoves: {}\n",
            report.moves.len(),
            search::format_cost(report.cost),
            if report.optimal {
                "optimal"
            } else {
                "not guaranteed optimal"
            },
            report.moves.join(" ")
        );
    } else {
        out += "no solution: the goal cannot be reached\n";
    }
    let s = &report.stats;
    out += &format!(
        "expanded: {}\ngenerated: {}\nmax frontier: {}\nmax closed: {}\nmax depth: {}\ntime: {:.3} ms\n",
        s.expanded, s.generated, s.max_frontier, s.max_closed, s.max_depth, s.elapsed_ms
    );
    for note in &report.notes {
        out += &format!("note: {note}\n");
    }
    out
}
