//! `puzzlelab bench sokoban FILE.xsb`: every level of a collection solved in one process,
//! each under its own time and memory limits, with per-level and total figures; the answers
//! as LURD, so another program (`../shared/peers/festival/bench.py`) can replay them.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Metric, Sokoban};
use crate::puzzles::batch::{self, Bench, Console, Shard, ShardedJson, emit_to};
use crate::puzzles::{NoWatcher, Puzzle as _};
use crate::search::{CancelToken, Limits, SearchError};

/// `bench sokoban`, lent through the registry: every level of a collection.
pub static BENCH: Bench = Bench {
    about: "Solve every level of an XSB collection (or `--levels A-B`) in one process, each \
            under a time limit, and report per level and in total: solved, pushes, moves, the \
            answer as LURD, optimal, seconds and states expanded.",
    arguments: <SokobanArgs as clap::Args>::augment_args,
    run: |matches, console| batch::run_parsed(matches, console, sokoban),
    shards: ShardedJson {
        is: |v| v.get("metric").is_some() && v["levels"].is_array(),
        rows: "levels",
        place: Some("level"),
        same: &["file", "algorithm", "metric", "time_limit_s"],
        join: batch::join_counted,
    },
};

/// The arguments of `bench sokoban`.
#[derive(Debug, clap::Args)]
struct SokobanArgs {
    /// An XSB collection (one or many levels; refused levels are reported, not solved).
    file: PathBuf,
    /// The algorithms (as `solve --algorithm`, and `fast`, the fast solver, and `default`,
    /// what `solve` does with no algorithm named), separated by commas, tried in turn on a
    /// level while none has solved it: each gets an equal share of the time left, and the
    /// next runs only when one stops at a limit (not when one proves the level unsolvable).
    /// Default: `default` (optimal A* on the matching bound for at most 2 s or a tenth of the
    /// time, then the fast solver: solved, not proved optimal).
    #[arg(long, short, default_value = "default", value_name = "A,B,...")]
    algorithm: String,
    /// The move metric: pushes (walking free) or moves (every step).
    #[arg(long, default_value = "pushes", value_name = "M")]
    metric: String,
    /// Seconds for each level (0.001 to 86400).
    #[arg(long, default_value_t = 60.0, value_name = "S")]
    time_limit: f64,
    /// The memory budget of each search in bytes, such as 2G. Default: the search's.
    #[arg(long, value_name = "SIZE", value_parser = crate::search::limits::parse_memory_size)]
    max_memory: Option<u64>,
    /// Only the levels numbered A to B (1-based, as numbered in the file, `A-B`).
    #[arg(long, value_name = "A-B")]
    levels: Option<String>,
    /// Solve only the K-th of N equal parts of the levels chosen (1 <= K <= N); `merge`
    /// joins the parts' JSON outputs.
    #[arg(long, value_name = "K/N", value_parser = batch::parse_shard)]
    shard: Option<Shard>,
    /// A puzzle option for every level, `NAME=VALUE` (as `solve --set`: `corrals=off`,
    /// `packing=off`); repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Print one JSON object instead of text: `{"file", "algorithm", "metric",
    /// "time_limit_s", "levels": [{"level", "title", "boxes", "solved", "pushes", "moves",
    /// "lurd", "optimal", "solved_by", "seconds", "expanded", "outcome", "error"}], "totals": {"solved",
    /// "levels", "seconds", "expanded"}}`, with `shard` under `--shard`. `lurd` is the
    /// answer from the level's start (lowercase walks, uppercase pushes).
    #[arg(long)]
    json: bool,
}

/// Runs `bench sokoban`; its exit code.
fn sokoban(args: &SokobanArgs, console: &mut dyn Console) -> u8 {
    let file = &args.file;
    let mut algorithms = Vec::new();
    for name in args.algorithm.split(',') {
        match name.trim() {
            "fast" => algorithms.push(Choice::Fast),
            "default" => algorithms.push(Choice::Default),
            _ => match batch::algorithm_named(console, file, name) {
                Ok(a) => algorithms.push(Choice::Plain(a)),
                Err(code) => return code,
            },
        }
    }
    let Some(metric) = Metric::from_name(args.metric.trim()) else {
        return console.bad(
            file,
            &format!("unknown metric `{}` (known: pushes, moves)", args.metric),
        );
    };
    if !(0.001..=86_400.0).contains(&args.time_limit) {
        return console.bad(file, &"the time limit must be from 0.001 to 86400 seconds");
    }
    let text = match crate::puzzles::read_text_file(file) {
        Ok(t) => t,
        Err(e) => return console.bad(file, &e),
    };
    let mut puzzle = match Sokoban::from_text(&text) {
        Ok(p) => p,
        Err(e) => return console.bad(file, &e),
    };
    puzzle.set_metric(metric);
    for setting in &args.set {
        let Some((name, value)) = setting.split_once('=') else {
            return console.bad(file, &format!("--set takes NAME=VALUE, not `{setting}`"));
        };
        if let Err(e) = puzzle.set_option(name.trim(), value.trim()) {
            return console.bad(file, &e);
        }
    }
    let refusal = algorithms.iter().find_map(|c| match c {
        Choice::Plain(a) => puzzle.refusal(*a),
        _ => None,
    });
    if let Some(refusal) = refusal {
        return console.bad(file, &refusal);
    }
    // Every level of the file by number, well-formed or refused.
    let mut numbers: Vec<usize> = puzzle.levels().iter().map(|l| l.number).collect();
    numbers.extend(puzzle.refused().iter().map(|e| e.number));
    numbers.sort_unstable();
    if let Some(range) = &args.levels {
        let Some(&last) = numbers.last() else {
            return console.bad(file, &"no level in this file");
        };
        match batch::range_of(range, last) {
            Ok(r) => numbers.retain(|n| r.contains(&(n - 1))),
            Err(e) => return console.bad(file, &e),
        }
    }
    if numbers.is_empty() {
        return console.bad(file, &"no level in this range");
    }
    let total = numbers.len();
    if let Some(shard) = args.shard {
        numbers = numbers[shard.range(total)].to_vec();
    }
    let mut rows = Vec::new();
    for &number in &numbers {
        let row = solve_level(&puzzle, number, args, &algorithms);
        if !args.json {
            emit_to!(console, &format!("{}\n", row_text(&row)));
        }
        rows.push(row);
    }
    let head = serde_json::json!({
        "file": file.display().to_string(),
        "algorithm": args.algorithm,
        "metric": metric.name(),
        "time_limit_s": args.time_limit,
    });
    batch::finish(console, args.json, head, rows, "levels", args.shard, total)
}

/// An algorithm of `--algorithm`: one of the workbench's, the fast solver, or `solve`'s
/// default.
#[derive(Clone, Copy, Debug)]
enum Choice {
    Plain(crate::search::Algorithm),
    Fast,
    Default,
}

impl Choice {
    /// Its name in the JSON's `solved_by`: the algorithm's, `fast`, or for the default what
    /// answered (`astar` or `fast`).
    fn name(self, report: &crate::puzzles::Report) -> String {
        match self {
            Choice::Plain(a) => a.to_string(),
            Choice::Fast => "fast".into(),
            Choice::Default if report.algorithm == crate::search::Algorithm::AStar => {
                "astar".into()
            }
            Choice::Default => "fast".into(),
        }
    }
}

/// One level's row: opened, solved under the limits by the algorithms in turn (see
/// [`SokobanArgs::algorithm`]), its answer spelled as LURD from the level's start.
fn solve_level(
    collection: &Sokoban,
    number: usize,
    args: &SokobanArgs,
    algorithms: &[Choice],
) -> Value {
    let began = Instant::now();
    let mut row = serde_json::json!({ "level": number, "solved": false });
    let mut puzzle = collection.clone();
    if let Err(e) = puzzle.set_level(number) {
        row["error"] = e.into();
        row["seconds"] = 0.0.into();
        return row;
    }
    if let Some(title) = &puzzle.level().title {
        row["title"] = title.clone().into();
    }
    row["boxes"] = puzzle.board().start.boxes.len().into();
    let whole = Duration::from_secs_f64(args.time_limit);
    let mut expanded = 0u64;
    for (i, &algorithm) in algorithms.iter().enumerate() {
        let left = whole.saturating_sub(began.elapsed());
        let share = left.div_f64((algorithms.len() - i) as f64);
        let mut limits = Limits {
            timeout: Some(share),
            ..Limits::default()
        };
        if let Some(bytes) = args.max_memory {
            limits.max_memory = bytes;
        }
        let cancel = CancelToken::with_limits(limits);
        let result = match algorithm {
            Choice::Plain(a) => puzzle.solve(a, &mut NoWatcher, &cancel),
            Choice::Fast => puzzle.solve_fast(&cancel),
            Choice::Default => puzzle.solve_default(&mut NoWatcher, &cancel),
        };
        match result {
            Ok(report) => {
                row["outcome"] = format!("{:?}", report.outcome).to_lowercase().into();
                expanded += report.stats.expanded;
                let by = algorithm.name(&report);
                if let Some(lurd) = report.lurd.filter(|_| report.solved) {
                    row["solved"] = true.into();
                    row["solved_by"] = by.into();
                    row["optimal"] = report.optimal.into();
                    row["pushes"] = lurd.chars().filter(char::is_ascii_uppercase).count().into();
                    row["moves"] = lurd.chars().count().into();
                    row["lurd"] = lurd.into();
                }
                if !report.outcome.is_limit() {
                    break;
                }
            }
            Err(SearchError::Unsolvable(reason)) => {
                row["outcome"] = "unsolvable".into();
                row["reason"] = reason.into();
                break;
            }
            Err(e) => {
                row["error"] = e.to_string().into();
                break;
            }
        }
    }
    row["expanded"] = expanded.into();
    let s = began.elapsed().as_secs_f64();
    row["seconds"] = ((s * 1000.0).round() / 1000.0).into();
    row
}

/// A row as a line of text.
fn row_text(row: &Value) -> String {
    let what = if row["solved"] == true {
        format!(
            "{} pushes, {} moves ({})",
            row["pushes"],
            row["moves"],
            if row["optimal"] == true {
                "optimal"
            } else {
                "solved, not proved optimal"
            }
        )
    } else if let Some(e) = row["error"].as_str() {
        format!("error: {e}")
    } else if let Some(r) = row["reason"].as_str() {
        format!("unsolvable: {r}")
    } else {
        format!("not solved ({})", row["outcome"].as_str().unwrap_or("?"))
    };
    format!(
        "level {}: {what}, {} expanded, {} s",
        row["level"], row["expanded"], row["seconds"]
    )
}
