//! The limits of the subcommands that search (`--max-memory`, `--timeout`, `--tie-break`),
//! and loading a puzzle file under them.

use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::puzzles;
use crate::search::limits::{self, MAX_TIMEOUT_SECS};
use crate::search::{self, CancelToken, Limits, TieBreak};

use super::{EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NO_SOLUTION, write_out};

/// The limits of the subcommands that search.
#[derive(Clone, Copy, Debug, clap::Args)]
pub(super) struct LimitArgs {
    /// The memory budget of each search, such as 512M or 4G (1M to 1T). A search stops
    /// before it would use more (exit code 3). Default: half of the memory this process may
    /// use (physical memory, cgroup limit, address-space limit), at most 8G.
    #[arg(long, value_name = "SIZE", value_parser = limits::parse_memory_size)]
    max_memory: Option<u64>,
    /// Stop each search after this many seconds (0.001 to 604800; exit code 3). Default: no
    /// time limit.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<f64>,
    /// Among states of equal priority on the open list (Dijkstra, A*, weighted A*, greedy,
    /// JPS, bidirectional A*), which to expand first: high-g (the larger path cost, the
    /// default), low-g, fifo or lifo.
    #[arg(long, value_name = "POLICY", value_parser = parse_tie_break)]
    tie_break: Option<TieBreak>,
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

fn parse_tie_break(text: &str) -> Result<TieBreak, String> {
    TieBreak::from_name(text.trim())
        .ok_or_else(|| format!("`{text}` is not a tie-breaking policy (high-g, low-g, fifo, lifo)"))
}

impl LimitArgs {
    /// A fresh cancel token carrying these limits.
    pub(super) fn token(&self) -> CancelToken {
        self.token_after(Duration::ZERO)
    }

    /// A fresh cancel token carrying these limits, its time limit shortened by `spent` (the
    /// time loading the puzzle took, which `--timeout` counts too).
    pub(super) fn token_after(&self, spent: Duration) -> CancelToken {
        let mut limits = Limits::default();
        if let Some(bytes) = self.max_memory {
            limits.max_memory = bytes;
        }
        limits.timeout = self
            .timeout
            .map(|t| Duration::from_secs_f64(t).saturating_sub(spent));
        limits.tie_break = self.tie_break.unwrap_or_default();
        CancelToken::with_limits(limits)
    }
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if (0.001..=MAX_TIMEOUT_SECS).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!(
            "the time limit must be from 0.001 to {MAX_TIMEOUT_SECS} seconds"
        ))
    }
}

/// Loads the puzzle file, or reports why not (the error names the file): exit code 2 for
/// bad input, 1 for a puzzle script that fails to compile or to make its start state (a
/// failed run of the user's program, said with its line and column).
///
/// Loading runs under the run's limits: `--timeout` counts from here, so compiling a puzzle
/// script, its top level and its `start()` are bound by it, and by `--max-memory`, as its
/// searches are. Returns the puzzle and the token for its searches (their time limit what
/// loading left of it). A load stopped at a limit is said as the search says it (exit 3;
/// with `json`, an object with its `outcome`).
pub(super) fn load_within(
    file: &Path,
    companion: Option<&Path>,
    puzzle_type: Option<&str>,
    limits: &LimitArgs,
    json: bool,
) -> Result<(Box<dyn puzzles::Puzzle>, CancelToken), u8> {
    let began = std::time::Instant::now();
    let token = limits.token();
    let guard = puzzles::call_limits::RunGuard::enter(&token);
    let loaded = puzzles::load_file_with(file, companion, puzzle_type);
    let hit = guard.hit();
    drop(guard);
    let e = match loaded {
        Ok(puzzle) => return Ok((puzzle, limits.token_after(began.elapsed()))),
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
