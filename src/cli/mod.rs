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

use clap::Parser;

use crate::puzzles;
use crate::puzzles::batch::ranged;
use crate::search::Algorithm;

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
mod commands;
mod compare;
mod generators;
mod help;
mod limit_args;
mod merge;
mod solve;
mod states;

use commands::Command;
use compare::compare;
use generators::generate;
use help::types_help;
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

#[derive(Debug, clap::Args)]
struct CompareArgs {
    #[command(flatten)]
    puzzle: limit_args::PuzzleFile,
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
struct StatesArgs {
    #[command(flatten)]
    puzzle: limit_args::PuzzleFile,
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
}

pub use crate::puzzles::batch::{EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_SOLVED};

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
        .spawn(move || command.run());
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

/// Opens the window, on `file` if given. A word that is no file is taken for a mistyped
/// subcommand, and a missing file is refused, before any window opens.
fn gui(file: Option<PathBuf>) -> ExitCode {
    if let Some(path) = &file
        && path.to_str() != Some("-")
        && !path.exists()
    {
        let word = path.to_string_lossy();
        if path.components().count() == 1 && path.extension().is_none() {
            let subcommands = commands::names().join(", ");
            say!("unknown subcommand `{word}` (subcommands: {subcommands}; or give a puzzle file)");
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

    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), u8> {
        write_bytes(bytes)
    }

    fn say(&mut self, text: &str) {
        say!("{text}");
    }

    fn bad(&mut self, file: &Path, message: &dyn std::fmt::Display) -> u8 {
        bad(file, message)
    }
}
