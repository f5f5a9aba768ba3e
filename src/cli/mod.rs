//! The command line: `puzzlelab [FILE]` opens the GUI; `puzzlelab solve FILE` solves a puzzle
//! headless and prints the moves and statistics (or one JSON object with `--json`).
//!
//! Exit codes: 0 solved, 1 no solution, 2 bad input (including bad arguments and output that
//! cannot be written), 3 a search stopped at its memory or time limit.
//!
//! Nothing printed can panic: a closed pipe (`puzzlelab ... | head`) ends the program quietly
//! with exit code 0, and any other write error is reported with exit code 2.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::puzzles::maze::generate::{self};
use crate::puzzles::maze::percolation;
use crate::puzzles::{self, NoWatcher, Report};
use crate::runs::recording::TraceRecorder;
use crate::search::limits;
use crate::search::{self, Algorithm, CancelToken, SearchError, Weight};

/// Writes a line to standard error, prefixed `puzzlelab: `; a failed write is ignored (there
/// is nowhere left to report it).
macro_rules! say {
    ($($arg:tt)*) => {{
        let text = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "puzzlelab: {}", $crate::cli::printable(&text));
    }};
}

/// Writes text to standard output, returning from the enclosing function with the exit code
/// [`write_out`] gives when that fails.
macro_rules! emit {
    ($text:expr) => {
        if let Err(code) = write_out($text) {
            return code;
        }
    };
}

mod bench;
mod bench_planning;
mod bench_sokoban;
mod generators;
mod help;
mod limit_args;
mod merge;
mod runs;
mod shard;
mod states;

use generators::{generate, percolation};
use help::{set_help, type_names, types_help};
use limit_args::{LimitArgs, load_within};
use runs::{compare, scenario};
use states::states;

/// Writes `text` to standard output and flushes it. A closed pipe is `Err(0)`: the program
/// ends quietly, as `head` users expect. Any other error is reported: `Err(2)`.
/// Control characters other than line feed and tab (a script's move label may carry a
/// terminal's escape sequences or a carriage return) are written escaped, `\u{1b}`, so the
/// output cannot retitle, clear or overwrite the terminal it is read in.
fn write_out(text: &str) -> Result<(), u8> {
    write_bytes(printable(text).as_bytes())
}

/// `text` with every control character but `\n` and `\t` escaped as `\u{..}` (Rust's
/// notation); borrowed as it is when it has none.
pub(crate) fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if bad(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// [`write_out`] for bytes already encoded (serde_json's output, UTF-8 by construction).
fn write_bytes(bytes: &[u8]) -> Result<(), u8> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(EXIT_SOLVED),
        Err(e) => {
            say!("cannot write the output: {e}");
            Err(EXIT_BAD_INPUT)
        }
    }
}

/// A clap value parser for a whole number from `min` to `max`.
fn ranged<T>(min: T, max: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let value: T = text
            .trim()
            .parse()
            .map_err(|_| format!("`{text}` is not a whole number"))?;
        if value < min || value > max {
            return Err(format!("must be from {min} to {max}"));
        }
        Ok(value)
    }
}

/// puzzlelab: solve puzzles by state-space search and watch the search happen.
#[derive(Debug, Parser)]
#[command(
    name = "puzzlelab",
    version,
    args_conflicts_with_subcommands = true,
    after_help = types_help()
)]
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
    /// Benchmarks: `bench sliding` solves a batch of sliding tile puzzles optimally with IDA*
    /// (boards from a file, or a seeded random set) and reports per instance and in total;
    /// `bench planning` solves every PDDL problem of a folder.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Run every problem of a Moving AI scenario file (`.scen`) on its map with 8-connected
    /// moves, diagonal cost sqrt(2) and no corner cutting, and check each computed length
    /// against the stated optimal one. Exit code 0 when all match, 1 otherwise.
    Scenario(ScenarioArgs),
    /// Join the JSON outputs of the shards of one batch (`scenario` or `bench sliding` run
    /// with `--shard K/N --json`) into the one object the batch run whole prints.
    Merge(merge::MergeArgs),
    /// Generate a puzzle and print it in the text format: a maze, a Klondike board, or the
    /// hardest of random layouts of a type that makes them.
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
    /// The algorithm (one that finds least-cost paths: astar, jps, jps+, dijkstra, biastar,
    /// ...). jps+ computes the map's jump distances once (precompute_ms in the JSON).
    #[arg(long, short, default_value = "astar", value_name = "A")]
    algorithm: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Run only the K-th of N equal parts of the problems, by their order in the file (1 <=
    /// K <= N); `merge` joins the parts' JSON outputs.
    #[arg(long, value_name = "K/N", value_parser = shard::parse_shard)]
    shard: Option<shard::Shard>,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// What to generate: a puzzle type (default `maze`).
    #[arg(value_name = "WHAT", default_value = "maze", value_parser = generators::kinds())]
    what: String,
    /// Klondike: board squares across the ring, 5 to 41 (Loyd's: 21).
    #[arg(long, default_value_t = 21, value_parser = ranged(5usize, 41))]
    size: usize,
    /// Klondike: the least number of jumps of the shortest solution; Rush Hour and Klotski:
    /// the least number of moves from the goal; 1 to 60 (Klotski: up to 1000).
    #[arg(long, default_value_t = 10, value_parser = ranged(1usize, 1000))]
    min_length: usize,
    /// Klondike: the shortest solution must be the only one of its length.
    #[arg(long)]
    unique: bool,
    /// Klondike: give up after this many seconds with the best board found (exit 1).
    #[arg(long, default_value_t = 120.0)]
    time: f64,
    /// The maze generator: binary-tree, sidewinder, aldous-broder, wilson, hunt-and-kill,
    /// recursive-backtracker, kruskal, prim, growing-tree, eller or recursive-division.
    #[arg(long, short, default_value = "recursive-backtracker", value_name = "G")]
    algorithm: String,
    /// Rows of cells, 1 to 1023 (the maze has 2 * rows + 1 rows of squares).
    #[arg(long, default_value_t = 10, value_parser = ranged(1, generate::MAX_CELLS))]
    rows: usize,
    /// Columns of cells, 1 to 1023 (the maze has 2 * cols + 1 columns of squares).
    #[arg(long, default_value_t = 10, value_parser = ranged(1, generate::MAX_CELLS))]
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
    /// Side of the square grids, 2 to 512.
    #[arg(long, default_value_t = 48,
          value_parser = ranged(percolation::MIN_EXPERIMENT_SIDE, percolation::MAX_EXPERIMENT_SIDE))]
    side: usize,
    /// Random grids per probability, 1 to 100000.
    #[arg(long, default_value_t = 60, value_parser = ranged(1, percolation::MAX_TRIALS))]
    trials: usize,
    /// Probabilities 0, 1/steps, ..., 1; steps from 1 to 10000.
    #[arg(long, default_value_t = 40, value_parser = ranged(1, percolation::MAX_STEPS))]
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
    #[arg(long = "type", value_name = "T", value_parser = type_names())]
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
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    companion: limit_args::CompanionArg,
}

#[derive(Debug, clap::Args)]
struct StatesArgs {
    /// The puzzle file (plain text or JSON).
    file: PathBuf,
    /// The puzzle type; detected from the file when absent.
    #[arg(long = "type", value_name = "T", value_parser = type_names())]
    puzzle_type: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the state graph to OUT: a CSV edge list (`source,target`) when OUT ends in
    /// `.csv`, GraphML otherwise.
    #[arg(long, value_name = "OUT")]
    graph: Option<PathBuf>,
    /// Also measure heuristic H (a value of the type's `heuristic` option, as for `solve`)
    /// against the exact least costs to a goal over the whole space: admissible, consistent,
    /// means, exact states, violations with examples.
    #[arg(long, value_name = "H")]
    heuristic: Option<String>,
    /// With --heuristic, on a board too large to explore (the 15- and 24-puzzles): measure
    /// over N random positions instead, h* by optimal IDA* with pattern databases.
    #[arg(long, value_name = "N", value_parser = ranged(1usize, 100_000))]
    sample: Option<usize>,
    /// The seed of the first sampled position (the others follow it).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    companion: limit_args::CompanionArg,
}

#[derive(Debug, clap::Args)]
struct SolveArgs {
    /// The puzzle file (plain text or JSON).
    file: PathBuf,
    /// The puzzle type; detected from the file when absent.
    #[arg(long = "type", value_name = "T", value_parser = type_names())]
    puzzle_type: Option<String>,
    /// The algorithm: dfs, bfs, dijkstra, astar, idastar, wastar, greedy, bibfs, biastar, jps
    /// or jps+. Default: the fastest one that guarantees an optimal answer for the puzzle.
    #[arg(long, short, value_name = "A")]
    algorithm: Option<String>,
    /// The move metric (same as `--set metric=M`). Klotski: `unit` (one piece moves one cell)
    /// or `piece` (one piece moves any distance). Rush Hour: `moves` (a vehicle slides any
    /// distance) or `steps` (one cell). Sokoban: `pushes` (walking free) or `moves` (every
    /// step). Default: the file's.
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
    /// The level of a file of many levels (same as `--set level=N`), 1-based as numbered in
    /// the file. Sokoban: an XSB collection. Default: the first.
    #[arg(long, value_name = "N")]
    level: Option<usize>,
    /// A setting of the puzzle's type, as NAME=VALUE (repeatable); an option the type does
    /// not take is an error listing its options. The settings of each type follow (from the
    /// type registry).
    #[arg(long = "set", value_name = "NAME=VALUE", long_help = set_help())]
    set: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also record the search and write it to OUT as a search trace for Posthoc, the trace
    /// viewer (format 1.4.0, JSON): every state generated and expanded, with its parent, g
    /// and f. For puzzles whose states are places (grid mazes, Klondike, the car maze); the
    /// recording keeps within a quarter of the memory limit.
    #[arg(long, value_name = "OUT")]
    trace: Option<PathBuf>,
    /// Also write the moves found to OUT, one a line, then `; cost = N`: the IPC plan format
    /// that VAL and the planning.domains tools read, for planning tasks. Written only when a
    /// solution is found.
    #[arg(long, value_name = "OUT")]
    plan: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    companion: limit_args::CompanionArg,
}

/// Exit code: solved.
pub const EXIT_SOLVED: u8 = 0;
/// Exit code: the search ended without a solution.
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit code: bad input (file, type, algorithm or arguments), or output that cannot be written.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: a search stopped at its memory or time limit.
pub const EXIT_LIMIT: u8 = 3;

/// The names of the subcommands, for the message about an unknown one.
const SUBCOMMANDS: &str = "solve, states, compare, bench, scenario, merge, generate, percolation";

/// Parses the process's arguments and runs the GUI or a subcommand.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout (exit 0) and usage errors to stderr
            // (exit 2); a failed write is ignored, never a panic.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_BAD_INPUT } else { 0 });
        }
    };
    let Some(command) = cli.command else {
        return gui(cli.file);
    };
    // The work runs on a thread with the stack a puzzle script's calls may need (the main
    // thread's is the system's, often 8 MiB).
    let work = std::thread::Builder::new()
        .name("command".into())
        .stack_size(puzzles::call_limits::THREAD_STACK)
        .spawn(move || run_command(&command));
    let code = match work.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => {
            say!("cannot start the work's thread: {e}");
            EXIT_BAD_INPUT
        }
    };
    ExitCode::from(code)
}

/// Runs a subcommand; its exit code.
fn run_command(command: &Command) -> u8 {
    match command {
        Command::Solve(args) => solve(args),
        Command::States(args) => states(args),
        Command::Bench(command) => bench::bench(command),
        Command::Compare(args) => compare(args),
        Command::Scenario(args) => scenario(args),
        Command::Merge(args) => merge::merge(args),
        Command::Generate(args) => generate(args),
        Command::Percolation(args) => percolation(args),
    }
}

/// Opens the window, on `file` if given. A word that is no file is taken for a mistyped
/// subcommand, and a missing file is refused, before any window opens.
fn gui(file: Option<PathBuf>) -> ExitCode {
    if let Some(path) = &file
        && path.to_str() != Some("-")
        && !path.exists()
    {
        let word = path.to_string_lossy();
        if path.components().count() == 1 && path.extension().is_none() {
            say!("unknown subcommand `{word}` (subcommands: {SUBCOMMANDS}; or give a puzzle file)");
        } else {
            say!("{word}: no such file");
        }
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    match crate::ui::run_gui(file) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("cannot open the window: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reports bad input about `file`: the message, prefixed with the file's name. Exit code 2.
fn bad(file: &Path, message: impl std::fmt::Display) -> u8 {
    say!("{}: {message}", file.display());
    EXIT_BAD_INPUT
}

/// Parses an algorithm name, or reports the known ones.
fn algorithm_named(file: &Path, name: &str) -> Result<Algorithm, u8> {
    Algorithm::from_name(name.trim()).ok_or_else(|| {
        let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        bad(
            file,
            format!("unknown algorithm `{name}` (known: {})", known.join(", ")),
        )
    })
}

/// The type options `solve` was given: `--metric`, `--heuristic`, `--moves`,
/// `--corner-cutting` and `--level` (kept as flags), then each `--set NAME=VALUE`, as (name, value) pairs.
fn type_options(args: &SolveArgs) -> Result<Vec<(String, String)>, u8> {
    let mut options = Vec::new();
    let flags = [
        ("metric", args.metric.clone()),
        ("heuristic", args.heuristic.clone()),
        ("moves", args.moves.map(|m| m.to_string())),
        ("corner-cutting", args.corner_cutting.clone()),
        ("level", args.level.map(|n| n.to_string())),
    ];
    for (name, value) in flags {
        if let Some(value) = value {
            options.push((name.to_owned(), value));
        }
    }
    for pair in &args.set {
        let Some((name, value)) = pair.split_once('=') else {
            return Err(bad(
                &args.file,
                format!("--set takes NAME=VALUE, not `{pair}`"),
            ));
        };
        options.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    Ok(options)
}

/// Applies the type options of `solve` (see [`type_options`]) through the options the
/// puzzle's type declares ([`puzzles::Puzzle::options`]); an option the type does not take
/// is an error that lists the ones it does, naming the file and the type it holds.
fn apply_type_options(args: &SolveArgs, puzzle: &mut dyn puzzles::Puzzle) -> Result<(), u8> {
    let file = &args.file;
    let type_name = puzzle.puzzle_type().name;
    for (name, value) in type_options(args)? {
        if !puzzle.options().iter().any(|o| o.name == name) {
            let known: Vec<String> = puzzle
                .options()
                .iter()
                .map(|o| format!("{}={}", o.name, o.values))
                .collect();
            let known = if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            };
            return Err(bad(
                file,
                format!(
                    "--{name} does not apply to this file, which holds a {type_name} \
                     (its options: {known})"
                ),
            ));
        }
        puzzle
            .set_option(&name, &value)
            .map_err(|message| bad(file, message))?;
    }
    Ok(())
}

/// Does the work a search of the puzzle needs first ([`puzzles::Preparation`]: pattern
/// databases for sliding tiles, chosen by default on boards of 10 to 16 squares), under the
/// limits of `cancel`, reporting progress on standard error. `Err` is the exit code, the
/// reason already printed.
fn prepare_puzzle(
    args: &SolveArgs,
    puzzle: &mut dyn puzzles::Puzzle,
    cancel: &CancelToken,
) -> Result<(), u8> {
    let file = &args.file;
    let type_name = puzzle.puzzle_type().name;
    let chosen = args.heuristic.is_some() || args.set.iter().any(|s| s.starts_with("heuristic"));
    let mut last = -1;
    let Some(preparation) = puzzle.preparation() else {
        return Ok(());
    };
    let prepared = preparation.prepare(!chosen, cancel, &mut |fraction| {
        let percent = (fraction * 100.0) as i32;
        if percent / 10 != last / 10 && percent < 100 {
            say!("building pattern databases… {percent}%");
        }
        last = percent;
    });
    let Err(e) = prepared else {
        return Ok(());
    };
    let Some(outcome) = e.limit_outcome() else {
        return Err(bad(file, e));
    };
    say!("{}: {e}", file.display());
    if args.json {
        let v = serde_json::json!({
            "type": type_name,
            "outcome": outcome,
            "solved": false,
            "message": e.to_string(),
        });
        write_out(&format!("{v:#}\n"))?;
    }
    Err(EXIT_LIMIT)
}

/// Picks the algorithm (`--algorithm`, else the puzzle's default; `--weight` for weighted
/// A*), refusing one that does not apply before anything costly is prepared.
fn choose_algorithm(args: &SolveArgs, puzzle: &dyn puzzles::Puzzle) -> Result<Algorithm, u8> {
    let file = &args.file;
    let algorithm = match args.algorithm.as_deref() {
        None => puzzle.default_algorithm(),
        Some(name) => algorithm_named(file, name)?,
    };
    let algorithm = match (algorithm, args.weight) {
        (_, None) => algorithm,
        (Algorithm::WeightedAStar(_), Some(w)) => match Weight::new(w) {
            Some(weight) => Algorithm::WeightedAStar(weight),
            None => return Err(bad(file, format!("--weight must be from 1 to 10, not {w}"))),
        },
        (_, Some(_)) => {
            return Err(bad(
                file,
                "--weight applies to weighted A* (-a wastar) only",
            ));
        }
    };
    if let Some(refusal) = puzzle.refusal(algorithm) {
        return Err(bad(
            file,
            format!("{refusal} (a {})", puzzle.puzzle_type().name),
        ));
    }
    Ok(algorithm)
}

/// The exit code of a finished report: 0 solved, 3 stopped at a limit, 1 otherwise.
fn exit_code_of(report: &Report) -> u8 {
    if report.solved {
        EXIT_SOLVED
    } else if report.outcome.is_limit() {
        EXIT_LIMIT
    } else {
        EXIT_NO_SOLUTION
    }
}

/// Stratified-sampling probes an IDA* iteration for the forecasts in `solve --json`.
const FORECAST_PROBES: usize = 300;

fn solve(args: &SolveArgs) -> u8 {
    let (mut puzzle, cancel) = match load_within(
        &args.file,
        args.companion.domain.as_deref(),
        args.puzzle_type.as_deref(),
        &args.limits,
        args.json,
    ) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    if let Err(code) = apply_type_options(args, puzzle.as_mut()) {
        return code;
    }
    let algorithm = match choose_algorithm(args, puzzle.as_ref()) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if let Err(code) = states::warn_then_prepare(args, puzzle.as_mut(), &cancel) {
        return code;
    }
    let named = args.algorithm.is_some() || args.weight.is_some();
    let mut recorder = args
        .trace
        .as_ref()
        .map(|_| TraceRecorder::new(cancel.limits().max_memory / 4));
    let watcher: &mut dyn puzzles::Watcher = match recorder.as_mut() {
        Some(r) => r,
        None => &mut NoWatcher,
    };
    let run = if named {
        puzzle.solve(algorithm, watcher, &cancel)
    } else {
        puzzle.solve_default(watcher, &cancel)
    };
    let mut report = match run {
        Ok(r) => r,
        Err(SearchError::Unsolvable(reason)) => {
            // Known to have no solution without a search: that is an answer, not bad input.
            let text = if args.json {
                let v = serde_json::json!({
                    "type": puzzle.puzzle_type().name,
                    "outcome": "unsolvable",
                    "solved": false,
                    "reason": reason,
                });
                format!("{v:#}\n")
            } else {
                format!("no solution: {reason}\n")
            };
            emit!(&text);
            return EXIT_NO_SOLUTION;
        }
        Err(e) => return bad(&args.file, e),
    };
    let text = if args.json {
        // The forecasts of IDA*'s iterations, where the type makes them (after the run).
        if let Some(forecasts) = puzzle.capabilities().forecasts {
            forecasts.forecast_iterations(&mut report.iterations, FORECAST_PROBES, &cancel);
        }
        match serde_json::to_string_pretty(&report) {
            Ok(json) => json + "\n",
            Err(e) => return bad(&args.file, e),
        }
    } else {
        report_text(&report)
    };
    emit!(&text);
    if let Some(message) = &report.message {
        say!("{}: the search {message}", args.file.display());
    }
    if let Some(out) = &args.plan
        && report.solved
    {
        let mut text: String = report.moves.iter().map(|m| format!("{m}\n")).collect();
        text += &format!("; cost = {}\n", search::format_cost(report.cost));
        if let Err(e) = puzzles::write_atomically(out, text.as_bytes()) {
            return bad(out, e);
        }
    }
    if let Some(recorder) = recorder.as_mut() {
        recorder.finish();
    }
    if let (Some(out), Some(recorder)) = (&args.trace, &recorder)
        && let Err(code) = write_trace(out, recorder, &report)
    {
        return code;
    }
    exit_code_of(&report)
}

/// Writes the recorded run to `out` (see [`TraceRecorder::write_posthoc`]); a recording that
/// could not be made is an error, one cut short by its budget a warning.
fn write_trace(out: &Path, recorder: &TraceRecorder, report: &Report) -> Result<(), u8> {
    if recorder.is_empty() {
        let why = recorder.stopped().unwrap_or("the search expanded nothing");
        return Err(bad(out, format!("no trace written: {why}")));
    }
    if let Some(why) = recorder.stopped() {
        say!("{}: the trace is partial: {why}", out.display());
    }
    let file = std::fs::File::create(out).map_err(|e| bad(out, e))?;
    let mut writer = std::io::BufWriter::new(file);
    let written = recorder
        .write_posthoc(report, &mut writer)
        .and_then(|n| writer.flush().map(|()| n))
        .map_err(|e| bad(out, e))?;
    say!(
        "{}: {written} events written ({} expansions recorded in {} bytes)",
        out.display(),
        recorder.expansions(),
        recorder.bytes()
    );
    Ok(())
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
    } else if let Some(message) = &report.message {
        out += &format!("no solution found: the search {message}\n");
    } else {
        out += "no solution: the goal cannot be reached\n";
    }
    let s = &report.stats;
    out += &format!(
        "expanded: {}\ngenerated: {}\nmax frontier: {}\nmax closed: {}\nmax depth: {}\npeak memory: {}\ntime: {:.3} ms\n",
        s.expanded,
        s.generated,
        s.max_frontier,
        s.max_closed,
        s.max_depth,
        limits::format_bytes(s.peak_memory_bytes),
        s.elapsed_ms
    );
    for note in &report.notes {
        out += &format!("note: {note}\n");
    }
    out
}
