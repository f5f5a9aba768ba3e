//! `solve`: one puzzle solved headless, its moves and statistics printed (text or one JSON
//! object), with its type options, preparation, the algorithm's choice, the exit code of a
//! report and the Posthoc trace.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::puzzles::{self, NoWatcher, Report};
use crate::runs::recording::TraceRecorder;
use crate::search::limits;
use crate::search::{self, Algorithm, CancelToken, SearchError, Weight};

use super::help::set_help;
use super::limit_args;
use super::{EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_SOLVED, algorithm_named, bad, write_out};

#[derive(Debug, clap::Args)]
pub(super) struct SolveArgs {
    #[command(flatten)]
    pub(super) puzzle: limit_args::PuzzleFile,
    /// The algorithm: dfs, bfs, dijkstra, astar, idastar, wastar, greedy, bibfs, biastar, jps
    /// or jps+. Default: the fastest one that guarantees an optimal answer for the puzzle.
    #[arg(long, short, value_name = "A")]
    pub(super) algorithm: Option<String>,
    /// The move metric (same as `--set metric=M`). Klotski: `unit` (one piece moves one cell)
    /// or `piece` (one piece moves any distance). Rush Hour: `moves` (a vehicle slides any
    /// distance) or `steps` (one cell). Sokoban: `pushes` (walking free) or `moves` (every
    /// step). Default: the file's.
    #[arg(long, value_name = "M")]
    pub(super) metric: Option<String>,
    /// The heuristic. Sliding tiles: misplaced, manhattan, linear_conflict or pdb (additive
    /// pattern databases, built on first use and cached; default pdb on boards of 10 to 16
    /// squares, linear_conflict otherwise). Grid mazes: manhattan, euclidean, octile,
    /// chebyshev or zero (default: the file's).
    #[arg(long, value_name = "H")]
    pub(super) heuristic: Option<String>,
    /// Weighted A*'s weight w (1 to 10; priority g + w * h). Default 2.
    #[arg(long, value_name = "W")]
    pub(super) weight: Option<f64>,
    /// Grid mazes: 4 or 8 directions (default: the file's).
    #[arg(long, value_name = "N")]
    pub(super) moves: Option<u8>,
    /// Grid mazes: let diagonal moves cut a corner past one blocked square (`yes` or `no`;
    /// default: the file's).
    #[arg(long, value_name = "YES|NO")]
    pub(super) corner_cutting: Option<String>,
    /// The level of a file of many levels (same as `--set level=N`), 1-based as numbered in
    /// the file. Sokoban: an XSB collection. Default: the first.
    #[arg(long, value_name = "N")]
    pub(super) level: Option<usize>,
    /// A setting of the puzzle's type, as NAME=VALUE (repeatable); an option the type does
    /// not take is an error listing its options. The settings of each type follow (from the
    /// type registry).
    #[arg(long = "set", value_name = "NAME=VALUE", long_help = set_help())]
    pub(super) set: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub(super) json: bool,
    /// Also record the search and write it to OUT as a search trace for Posthoc, the trace
    /// viewer (format 1.4.0, JSON): every state generated and expanded, with its parent, g
    /// and f. For puzzles whose states are places (grid mazes, Klondike, the car maze); the
    /// recording keeps within a quarter of the memory limit.
    #[arg(long, value_name = "OUT")]
    pub(super) trace: Option<PathBuf>,
    /// Also write the moves found to OUT, one a line, then `; cost = N`: the IPC plan format
    /// that VAL and the planning.domains tools read, for planning tasks. Written only when a
    /// solution is found.
    #[arg(long, value_name = "OUT")]
    pub(super) plan: Option<PathBuf>,
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
                &args.puzzle.file,
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
    let file = &args.puzzle.file;
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
pub(super) fn prepare_puzzle(
    args: &SolveArgs,
    puzzle: &mut dyn puzzles::Puzzle,
    cancel: &CancelToken,
) -> Result<(), u8> {
    let file = &args.puzzle.file;
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
    let file = &args.puzzle.file;
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
pub(super) fn exit_code_of(report: &Report) -> u8 {
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

pub(super) fn solve(args: &SolveArgs) -> u8 {
    let (mut puzzle, cancel) = match args.puzzle.load(args.json) {
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
    if let Err(code) = super::states::warn_then_prepare(args, puzzle.as_mut(), &cancel) {
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
        Err(e) => return bad(&args.puzzle.file, e),
    };
    let text = if args.json {
        // The forecasts of IDA*'s iterations, where the type makes them (after the run).
        if let Some(forecasts) = puzzle.capabilities().forecasts {
            forecasts.forecast_iterations(&mut report.iterations, FORECAST_PROBES, &cancel);
        }
        match serde_json::to_string_pretty(&report) {
            Ok(json) => json + "\n",
            Err(e) => return bad(&args.puzzle.file, e),
        }
    } else {
        report_text(&report)
    };
    emit!(&text);
    if let Some(message) = &report.message {
        say!("{}: the search {message}", args.puzzle.file.display());
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
