//! Loading a puzzle file under the limits of the subcommands that search (`--max-memory`,
//! `--timeout`, `--tie-break`: [`LimitArgs`], shared with the commands the types lend), and
//! the file a puzzle needs beside it: the arguments `solve`, `compare` and `states` share
//! ([`PuzzleFile`]), read in one place ([`PuzzleFile::load`]).

use std::io::Write as _;
use std::path::PathBuf;

use crate::puzzles;
pub(super) use crate::puzzles::batch::LimitArgs;
use crate::search::limits;
use crate::search::{self, CancelToken};

use super::help::type_names;
use super::{EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NO_SOLUTION, write_out};

/// The puzzle file a subcommand that searches loads (`solve`, `compare`, `states`): the file,
/// its type, the run's limits and the file it needs beside it.
#[derive(Debug, clap::Args)]
pub(super) struct PuzzleFile {
    /// The puzzle file (plain text or JSON).
    pub(super) file: PathBuf,
    /// The puzzle type; detected from the file when absent.
    #[arg(long = "type", value_name = "T", value_parser = type_names())]
    pub(super) puzzle_type: Option<String>,
    #[command(flatten)]
    pub(super) limits: LimitArgs,
    #[command(flatten)]
    pub(super) companion: CompanionArg,
}

/// The file a puzzle needs beside it, for the subcommands that load one.
#[derive(Clone, Debug, Default, clap::Args)]
pub(super) struct CompanionArg {
    /// The file the puzzle file needs beside it: a PDDL problem's domain. Default: found
    /// beside the problem (PROBLEM-domain.pddl, domain_PROBLEM.pddl, domainNN.pddl for a
    /// problem numbered NN, domain.pddl).
    #[arg(long, value_name = "FILE")]
    pub(super) domain: Option<std::path::PathBuf>,
}

impl PuzzleFile {
    /// Loads the puzzle file, or reports why not (the error names the file): exit code 2 for
    /// bad input, 1 for a puzzle script that fails to compile or to make its start state (a
    /// failed run of the user's program, said with its line and column).
    ///
    /// Loading runs under the run's limits: `--timeout` counts from here, so compiling a puzzle
    /// script, its top level and its `start()` are bound by it, and by `--max-memory`, as its
    /// searches are. Returns the puzzle and the token for its searches (their time limit what
    /// loading left of it). A load stopped at a limit is said as the search says it (exit 3;
    /// with `json`, an object with its `outcome`).
    pub(super) fn load(&self, json: bool) -> Result<(Box<dyn puzzles::Puzzle>, CancelToken), u8> {
        let file = &self.file;
        let began = std::time::Instant::now();
        let token = self.limits.token();
        let guard = puzzles::call_limits::RunGuard::enter(&token);
        let loaded = puzzles::load_file_with(
            file,
            self.companion.domain.as_deref(),
            self.puzzle_type.as_deref(),
        );
        let hit = guard.hit();
        drop(guard);
        let e = match loaded {
            Ok(puzzle) => return Ok((puzzle, self.limits.token_after(began.elapsed()))),
            Err(e) => e,
        };
        let Some((hit, outcome)) = hit.and_then(|h| Some((h.clone(), h.outcome()?))) else {
            say!("{e}");
            return Err(match e {
                puzzles::LoadError::Format { source, .. } if source.in_program => EXIT_NO_SOLUTION,
                _ => EXIT_BAD_INPUT,
            });
        };
        let message = match outcome {
            search::Outcome::Timeout => format!(
                "stopped at the time limit of {:.1} s while loading: {hit}",
                token.limits().timeout.unwrap_or_default().as_secs_f64()
            ),
            search::Outcome::MemoryLimit => format!(
                "stopped at the memory limit of {} while loading: {hit}",
                limits::format_bytes(token.limits().max_memory)
            ),
            _ => format!("stopped while loading: {hit}"),
        };
        say!("{}: {message}", file.display());
        if json {
            let v = serde_json::json!({
                "file": file.display().to_string(),
                "outcome": outcome,
                "solved": false,
                "message": message,
            });
            write_out(&format!("{v:#}\n"))?;
        }
        Err(EXIT_LIMIT)
    }
}
