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

use crate::puzzles;
use crate::puzzles::maze::generate::{self};
use crate::puzzles::maze::percolation;
use crate::search::{Algorithm, CancelToken};

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
mod bench_sliding;
mod generators;
mod help;
mod limit_args;
mod merge;
mod runs;
mod solve;
mod states;

use generators::{generate, percolation};
use help::{type_names, types_help};
use limit_args::{LimitArgs, load_within};
use runs::{compare, scenario};
pub use solve::report_text;
use solve::{SolveArgs, exit_code_of, prepare_puzzle, solve};
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
    /// `bench <type>` runs a type's own benchmark over a collection of its instances.
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
    #[arg(long, value_name = "K/N", value_parser = puzzles::batch::parse_shard)]
    shard: Option<puzzles::batch::Shard>,
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

pub use crate::puzzles::batch::{EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_SOLVED};

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
    puzzles::batch::algorithm_named(&mut Terminal, file, name)
}

/// The process's standard output and error, as the console a type's own benchmark writes to
/// ([`puzzles::batch::Console`]): [`write_out`] and [`bad`].
struct Terminal;

impl puzzles::batch::Console for Terminal {
    fn write(&mut self, text: &str) -> Result<(), u8> {
        write_out(text)
    }

    fn bad(&mut self, file: &Path, message: &dyn std::fmt::Display) -> u8 {
        bad(file, message)
    }
}
