//! A benchmark over a collection of instances (`bench <type>`: the levels of a file, the
//! problems of a folder), as a capability a type lends through the registry
//! ([`TypeCapabilities::bench`], `puzzle_types!`'s `{ bench: ... }`): its arguments, its run
//! and how `merge` joins the JSON of its shards. The command line lists every type that
//! lends one and hands its arguments over; it names none.
//!
//! A type lends two more kinds the same way: subcommands of its own ([`Command`]: the
//! maze's `scenario` and `percolation`) and a generator of its own for `generate`
//! ([`Generator`]: the maze's and Klondike's).
//!
//! Besides the capabilities, what every such command shares: its parts (`--shard K/N`,
//! [`shard`]), a range `A-B` of its instances ([`range_of`]), its totals ([`bench_totals`]),
//! the search limits' arguments ([`LimitArgs`]), `generate`'s own ([`GenerateArgs`]), the
//! exit codes, and the [`Console`] it writes to.

use std::fmt;
use std::path::Path;

use crate::search::Algorithm;

pub mod generate;
pub mod limit_args;
pub mod shard;

pub use generate::GenerateArgs;
pub use limit_args::{LimitArgs, ranged};
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
    /// Subcommands of its own (`scenario`).
    pub commands: Option<&'static [Command]>,
    /// A generator of its own (`generate <type>`), with options of its own.
    pub generator: Option<&'static Generator>,
}

impl TypeCapabilities {
    /// Nothing lent (what the registry starts every type's from).
    pub const NONE: TypeCapabilities = TypeCapabilities {
        bench: None,
        commands: None,
        generator: None,
    };
}

/// A subcommand a type lends (`puzzlelab scenario`): its name, help, arguments and run, as
/// [`Bench`]'s are, and where it stands in the list of subcommands.
pub struct Command {
    /// Its name on the command line.
    pub name: &'static str,
    /// The subcommand it is listed after (in the help and the list of subcommands).
    pub follows: &'static str,
    /// What it does, its help's first paragraph.
    pub about: &'static str,
    /// Adds its arguments to the subcommand (clap's `Args::augment_args`).
    pub arguments: fn(clap::Command) -> clap::Command,
    /// Runs it on the arguments parsed, writing to the console; the exit code.
    pub run: fn(&clap::ArgMatches, &mut dyn Console) -> u8,
    /// How `merge` tells and joins the JSON of its shards, for a command that takes
    /// `--shard K/N`.
    pub shards: Option<ShardedJson>,
}

/// A generator a type lends to `generate` (`generate maze`): its line in `generate`'s help,
/// its own options beside `generate`'s ([`GenerateArgs`]), and its run.
pub struct Generator {
    /// What it makes, the help's line of its value of `WHAT`.
    pub help: &'static str,
    /// Whether `generate` with no `WHAT` runs it (one type's does).
    pub is_default: bool,
    /// Adds its own options to `generate` (clap's `Args::augment_args`); every generator's
    /// are `generate`'s, so their names are distinct.
    pub arguments: fn(clap::Command) -> clap::Command,
    /// Runs it on the arguments parsed (its own and [`GenerateArgs`], see
    /// [`run_generator`]), writing the puzzle to the console; the exit code.
    pub run: fn(&clap::ArgMatches, &mut dyn Console) -> u8,
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

/// The JSON a batch prints under `--shard K/N --json`, as `merge` reads it: which output
/// it is, its rows, what places them, what every shard must give alike, and how its totals
/// are counted again over the rows.
pub struct ShardedJson {
    /// Whether an output is this batch's.
    pub is: fn(&serde_json::Value) -> bool,
    /// The key of the array of rows (`levels`, `problems`).
    pub rows: &'static str,
    /// The key of a row's place in the collection, rising over the shards in order; `None`
    /// where rows carry none.
    pub place: Option<&'static str>,
    /// The fields every shard must give alike.
    pub same: &'static [&'static str],
    /// Puts the rows of every shard, in order, into the merged object (the first shard's
    /// object, its rows and `shard` taken out), with the totals counted again over them; the
    /// parts' objects (their rows taken out) for what else they say; the exit code the whole
    /// batch gives. [`join_counted`] for a benchmark's `totals`.
    pub join: fn(
        &ShardedJson,
        &mut serde_json::Value,
        Vec<serde_json::Value>,
        &[serde_json::Value],
    ) -> u8,
}

/// [`ShardedJson::join`] of a benchmark whose totals are [`bench_totals`] under `totals`: the
/// rows under their key, exit code 0.
pub fn join_counted(
    shards: &ShardedJson,
    merged: &mut serde_json::Value,
    rows: Vec<serde_json::Value>,
    _parts: &[serde_json::Value],
) -> u8 {
    merged["totals"] = bench_totals(&rows, shards.rows);
    merged[shards.rows] = serde_json::Value::Array(rows);
    EXIT_SOLVED
}

/// Copies the first stopped part's `complete: false` and, where it gives them, its `outcome`
/// and `message` into the merged object (an object), so a batch missing problems never reads
/// as whole; whether a part had stopped.
pub fn keep_stop(merged: &mut serde_json::Value, parts: &[serde_json::Value]) -> bool {
    let stopped = parts
        .iter()
        .find(|p| p.get("complete") == Some(&serde_json::Value::Bool(false)));
    let (Some(stopped), serde_json::Value::Object(map)) = (stopped, merged) else {
        return false;
    };
    map.insert("complete".into(), serde_json::Value::Bool(false));
    for key in ["outcome", "message"] {
        match stopped.get(key) {
            Some(v) => map.insert(key.into(), v.clone()),
            None => map.remove(key),
        };
    }
    true
}

/// The largest number under `key` of the parts that give one (`load_ms`, `threads`).
pub fn largest(parts: &[serde_json::Value], key: &str) -> Option<f64> {
    parts
        .iter()
        .filter_map(|p| p.get(key).and_then(serde_json::Value::as_f64))
        .reduce(f64::max)
}

/// Where a benchmark writes: standard output, and the front end's words for bad input.
pub trait Console {
    /// Writes `text` to standard output; `Err` is the exit code to end with (a closed pipe,
    /// an output that cannot be written).
    ///
    /// # Errors
    /// The exit code when the text could not be written.
    fn write(&mut self, text: &str) -> Result<(), u8>;

    /// Writes bytes already encoded (serde_json's output, UTF-8 by construction) to standard
    /// output as they are; `Err` as [`Console::write`]'s.
    ///
    /// # Errors
    /// The exit code when the bytes could not be written.
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), u8>;

    /// Writes a line to standard error, prefixed `puzzlelab: ` (progress, a note, why a
    /// batch stopped); a failed write is ignored.
    fn say(&mut self, text: &str);

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

/// Ends a benchmark over `total` instances (`total` before `--shard`): with `json`, `head`
/// (an object of its own fields) with the rows under `key`, their totals ([`bench_totals`],
/// `totals`) and, under `--shard`, the `shard`, printed; else the line `solved S of N in T
/// s`. The exit code ([`batch_exit_code`]: every instance unreadable is bad input, a shard
/// with none of its own is not).
pub fn finish(
    console: &mut dyn Console,
    json: bool,
    mut head: serde_json::Value,
    rows: Vec<serde_json::Value>,
    key: &str,
    shard: Option<Shard>,
    total: usize,
) -> u8 {
    let totals = bench_totals(&rows, key);
    let code = batch_exit_code(&rows);
    if json {
        head[key] = serde_json::Value::Array(rows);
        head["totals"] = totals;
        if let Some(shard) = shard {
            head["shard"] = shard.to_json(total);
        }
        emit_to!(console, &format!("{head:#}\n"));
    } else {
        emit_to!(
            console,
            &format!(
                "solved {} of {} in {:.3} s\n",
                totals["solved"], totals[key], totals["seconds"]
            )
        );
    }
    code
}

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

/// Runs a lent generator's `run` on the arguments `matches` holds: its own, parsed as `A`,
/// and `generate`'s shared ones ([`GenerateArgs`]); as [`run_parsed`], arguments that do not
/// parse are bad input.
pub fn run_generator<A: clap::FromArgMatches>(
    matches: &clap::ArgMatches,
    console: &mut dyn Console,
    run: fn(&A, &GenerateArgs, &mut dyn Console) -> u8,
) -> u8 {
    let shared = <GenerateArgs as clap::FromArgMatches>::from_arg_matches(matches);
    match (A::from_arg_matches(matches), shared) {
        (Ok(own), Ok(shared)) => run(&own, &shared, console),
        (Err(e), _) | (_, Err(e)) => {
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
