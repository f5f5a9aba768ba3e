//! A benchmark over a collection of instances (`bench <type>`: the levels of a file, the
//! problems of a folder), as a capability a type lends through the registry
//! ([`TypeCapabilities::bench`], `puzzle_types!`'s `{ bench: ... }`): its arguments, its run
//! and how `merge` joins the JSON of its shards. The command line lists every type that
//! lends one and hands its arguments over; it names none.
//!
//! Besides the capability, what every such benchmark shares: its parts (`--shard K/N`,
//! [`shard`]), a range `A-B` of its instances ([`range_of`]), its totals ([`bench_totals`]),
//! the exit codes, and the [`Console`] it writes to.

use std::fmt;
use std::path::Path;

use crate::search::Algorithm;

pub mod shard;

pub use shard::{MAX_SHARDS, Shard, parse_shard};

/// Exit code: solved.
pub const EXIT_SOLVED: u8 = 0;
/// Exit code: the search ended without a solution.
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit code: bad input (file, type, algorithm or arguments), or output that cannot be written.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: a search stopped at its memory or time limit.
pub const EXIT_LIMIT: u8 = 3;

/// What a type lends the front ends as a type, before any puzzle of it is open (through the
/// registry, [`super::lent_by`]); each `None` when it lends nothing of that kind.
#[derive(Clone, Copy)]
pub struct TypeCapabilities {
    /// A benchmark over a collection of its instances (`bench <type>`).
    pub bench: Option<&'static Bench>,
}

impl TypeCapabilities {
    /// Nothing lent (what the registry starts every type's from).
    pub const NONE: TypeCapabilities = TypeCapabilities { bench: None };
}

/// A benchmark over a collection of a type's instances, each solved under its own limits,
/// with per-instance and total figures.
pub struct Bench {
    /// What it does, the help's line of `bench <type>`.
    pub about: &'static str,
    /// Adds its arguments to the subcommand (clap's `Args::augment_args` of its own
    /// arguments).
    pub arguments: fn(clap::Command) -> clap::Command,
    /// Runs it on the arguments parsed, writing to the console; the exit code.
    pub run: fn(&clap::ArgMatches, &mut dyn Console) -> u8,
    /// How `merge` tells and joins the JSON of its shards.
    pub shards: ShardedJson,
}

/// The JSON a benchmark prints under `--shard K/N --json`, as `merge` reads it: which output
/// it is, its rows, what places them, what every shard must give alike. The merged object
/// counts `totals` again over the rows ([`bench_totals`], the rows' key naming their count).
pub struct ShardedJson {
    /// Whether an output is this benchmark's.
    pub is: fn(&serde_json::Value) -> bool,
    /// The key of the array of rows (`levels`, `problems`).
    pub rows: &'static str,
    /// The key of a row's place in the collection, rising over the shards in order.
    pub place: &'static str,
    /// The fields every shard must give alike.
    pub same: &'static [&'static str],
}

/// Where a benchmark writes: standard output, and the front end's words for bad input.
pub trait Console {
    /// Writes `text` to standard output; `Err` is the exit code to end with (a closed pipe,
    /// an output that cannot be written).
    ///
    /// # Errors
    /// The exit code when the text could not be written.
    fn write(&mut self, text: &str) -> Result<(), u8>;

    /// Reports bad input about `file` (the message, prefixed with the file's name); the exit
    /// code, [`EXIT_BAD_INPUT`].
    fn bad(&mut self, file: &Path, message: &dyn fmt::Display) -> u8;
}

/// Writes to a [`Console`], returning its exit code from the enclosing function when the
/// write fails.
macro_rules! emit_to {
    ($console:expr, $text:expr) => {
        if let Err(code) = $console.write($text) {
            return code;
        }
    };
}
pub(crate) use emit_to;

/// Runs `run` on the arguments `matches` holds, parsed as `A` (the body of a lent
/// [`Bench::run`]); arguments that do not parse as `A` (which clap, having parsed them by
/// `A`'s own definition, rules out) are bad input, clap's message printed.
pub fn run_parsed<A: clap::FromArgMatches>(
    matches: &clap::ArgMatches,
    console: &mut dyn Console,
    run: fn(&A, &mut dyn Console) -> u8,
) -> u8 {
    match A::from_arg_matches(matches) {
        Ok(args) => run(&args, console),
        Err(e) => {
            let _ = e.print();
            EXIT_BAD_INPUT
        }
    }
}

/// Parses an algorithm name, or reports the known ones as bad input about `file`.
///
/// # Errors
/// The exit code of bad input, the known names said.
pub fn algorithm_named(
    console: &mut dyn Console,
    file: &Path,
    name: &str,
) -> Result<Algorithm, u8> {
    Algorithm::from_name(name.trim()).ok_or_else(|| {
        let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        let message = format!("unknown algorithm `{name}` (known: {})", known.join(", "));
        console.bad(file, &message)
    })
}

/// `A-B` (1-based, inclusive) as a range of indices into `total` instances (`--levels`,
/// `--problems`).
///
/// # Errors
/// Why `text` is not `A-B` with 1 <= A <= B.
pub fn range_of(text: &str, total: usize) -> Result<std::ops::Range<usize>, String> {
    let usage = || format!("`{text}` is not A-B (1 <= A <= B)");
    let (a, b) = text.split_once('-').ok_or_else(usage)?;
    let (Ok(a), Ok(b)) = (a.trim().parse::<usize>(), b.trim().parse::<usize>()) else {
        return Err(usage());
    };
    if a == 0 || a > b {
        return Err(usage());
    }
    Ok((a - 1).min(total)..b.min(total))
}

/// The totals of a bench batch's rows (every lent benchmark's, and `merge` counting them
/// again over the shards' rows): `{"solved", COUNT, "seconds", "expanded"}`, where `count`
/// names the rows (`problems`, `levels`); seconds to the millisecond.
pub fn bench_totals(rows: &[serde_json::Value], count: &str) -> serde_json::Value {
    let solved = rows.iter().filter(|r| r["solved"] == true).count();
    let seconds: f64 = rows.iter().filter_map(|r| r["seconds"].as_f64()).sum();
    let expanded: u64 = rows.iter().filter_map(|r| r["expanded"].as_u64()).sum();
    let mut totals = serde_json::json!({
        "solved": solved,
        "seconds": (seconds * 1000.0).round() / 1000.0,
        "expanded": expanded,
    });
    totals[count] = rows.len().into();
    totals
}

/// The exit code of a batch whose `rows` are done: bad input when every one of them is
/// unreadable (an `error`), solved otherwise (a shard with no row of its own, more shards
/// than instances, included).
pub fn batch_exit_code(rows: &[serde_json::Value]) -> u8 {
    if !rows.is_empty() && rows.iter().all(|r| r.get("error").is_some()) {
        EXIT_BAD_INPUT
    } else {
        EXIT_SOLVED
    }
}
