//! `puzzlelab bench planning DIR`: every problem of a folder of PDDL tasks solved in one
//! process, each under its own time limit, with per-problem and total figures.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::shard::Shard;
use super::{EXIT_BAD_INPUT, EXIT_SOLVED, bad, write_out};
use crate::puzzles::planning::Planning;
use crate::puzzles::{self, NoWatcher};
use crate::search::{CancelToken, Limits};

/// The arguments of `bench planning`.
#[derive(Debug, clap::Args)]
pub(super) struct PlanningArgs {
    /// A folder of PDDL problems with their domains beside them (as pyperplan's and the
    /// IPC's benchmark folders are): every `.pddl` file whose name does not contain `domain`
    /// is a problem.
    dir: PathBuf,
    /// The algorithm (as `solve --algorithm`). Default: astar.
    #[arg(long, short, default_value = "astar", value_name = "A")]
    algorithm: String,
    /// The heuristic: blind, goalcount, hmax, lmcut, hadd or hff. Default: lmcut.
    #[arg(long, default_value = "lmcut", value_name = "H")]
    heuristic: String,
    /// Seconds for each problem (0.001 to 86400), loading and grounding included.
    #[arg(long, default_value_t = 60.0, value_name = "S")]
    time_limit: f64,
    /// The memory budget of each search in bytes, such as 2G. Default: the search's.
    #[arg(long, value_name = "SIZE", value_parser = crate::search::limits::parse_memory_size)]
    max_memory: Option<u64>,
    /// Only the problems from the A-th to the B-th, by name order (1-based, `A-B`).
    #[arg(long, value_name = "A-B")]
    problems: Option<String>,
    /// Only the K-th of N equal runs of the problems (after `--problems`), so that N
    /// processes or machines share a folder; `merge` joins their `--json` outputs.
    #[arg(long, value_name = "K/N", value_parser = super::shard::parse_shard)]
    shard: Option<Shard>,
    /// Print one JSON object instead of text: `{"dir", "algorithm", "heuristic",
    /// "time_limit_s", "problems": [{"index", "problem", "solved", "length", "cost",
    /// "optimal", "expanded", "generated", "seconds", "operators", "facts", "outcome",
    /// "error"}], "totals": {"solved", "problems", "seconds", "expanded"}}`, with `shard`
    /// under `--shard`. `index` is the problem's place (1-based) in the folder's name order.
    #[arg(long)]
    json: bool,
}

/// The problems of `dir`, by name.
fn problems_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().to_lowercase());
            p.is_file() && name.is_some_and(|n| n.ends_with(".pddl") && !n.contains("domain"))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// `A-B` (1-based, inclusive) as a range of indices into `total` problems (also `bench
/// sokoban --levels`).
pub(super) fn range_of(text: &str, total: usize) -> Result<std::ops::Range<usize>, String> {
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

pub(super) fn planning(args: &PlanningArgs) -> u8 {
    let algorithm = match super::algorithm_named(&args.dir, &args.algorithm) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if !(0.001..=86_400.0).contains(&args.time_limit) {
        return bad(
            &args.dir,
            "the time limit must be from 0.001 to 86400 seconds",
        );
    }
    let problems = match problems_in(&args.dir) {
        Ok(p) => p,
        Err(e) => return bad(&args.dir, e),
    };
    // Each problem with its place in the folder's name order (1-based).
    let mut problems: Vec<(usize, PathBuf)> = problems
        .into_iter()
        .enumerate()
        .map(|(i, p)| (i + 1, p))
        .collect();
    if let Some(range) = &args.problems {
        match range_of(range, problems.len()) {
            Ok(r) => problems = problems.drain(r).collect(),
            Err(e) => return bad(&args.dir, e),
        }
    }
    if problems.is_empty() {
        return bad(&args.dir, "no PDDL problem in this folder");
    }
    let total = problems.len();
    if let Some(shard) = args.shard {
        problems = problems.drain(shard.range(total)).collect();
    }
    let mut rows = Vec::new();
    for (index, path) in &problems {
        let began = Instant::now();
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let mut row = match solve_one(path, &name, args, algorithm, began) {
            Ok(row) => row,
            Err(code) => return code,
        };
        row["index"] = (*index).into();
        let s = began.elapsed().as_secs_f64();
        row["seconds"] = ((s * 1000.0).round() / 1000.0).into();
        if !args.json {
            let what = match (&row["length"], &row["error"]) {
                (serde_json::Value::Number(n), _) => format!("plan of {n} (cost {})", row["cost"]),
                (_, serde_json::Value::String(e)) => format!("error: {e}"),
                _ => format!("not solved ({})", row["outcome"].as_str().unwrap_or("?")),
            };
            emit!(&format!(
                "{name}: {what}, {} expanded, {s:.3} s\n",
                row["expanded"]
            ));
        }
        rows.push(row);
    }
    let totals = super::shard::bench_totals(&rows, "problems");
    if args.json {
        let mut v = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "algorithm": algorithm.to_string(),
            "heuristic": args.heuristic,
            "time_limit_s": args.time_limit,
            "problems": rows,
            "totals": totals,
        });
        if let Some(shard) = args.shard {
            v["shard"] = shard.to_json(total);
        }
        emit!(&format!("{v:#}\n"));
    } else {
        emit!(&format!(
            "solved {} of {} in {:.3} s\n",
            totals["solved"], totals["problems"], totals["seconds"]
        ));
    }
    // Every problem unreadable is bad input; a shard with no problem of its own (more
    // shards than problems) is not.
    if !rows.is_empty() && rows.iter().all(|r| r.get("error").is_some()) {
        EXIT_BAD_INPUT
    } else {
        EXIT_SOLVED
    }
}

/// One problem's row: loaded, its heuristic set, solved under the time limit left after
/// loading (`began` when its clock started).
fn solve_one(
    path: &Path,
    name: &str,
    args: &PlanningArgs,
    algorithm: crate::search::Algorithm,
    began: Instant,
) -> Result<serde_json::Value, u8> {
    let mut row = serde_json::json!({ "problem": name, "solved": false });
    let loaded = puzzles::load_file(path, Some("planning"));
    match loaded {
        Err(e) => row["error"] = e.to_string().into(),
        Ok(mut puzzle) => {
            if let Err(e) = puzzle.set_option("heuristic", &args.heuristic) {
                return Err(bad(&args.dir, e));
            }
            if let Some(refusal) = puzzle.refusal(algorithm) {
                return Err(bad(&args.dir, refusal));
            }
            let spent = began.elapsed();
            let mut limits = Limits {
                timeout: Some(Duration::from_secs_f64(args.time_limit).saturating_sub(spent)),
                ..Limits::default()
            };
            if let Some(bytes) = args.max_memory {
                limits.max_memory = bytes;
            }
            let cancel = CancelToken::with_limits(limits);
            match puzzle.solve(algorithm, &mut NoWatcher, &cancel) {
                Ok(report) => {
                    row["solved"] = report.solved.into();
                    row["outcome"] = format!("{:?}", report.outcome).to_lowercase().into();
                    if report.solved {
                        row["length"] = report.moves.len().into();
                        row["cost"] = report.cost.into();
                        row["optimal"] = report.optimal.into();
                    }
                    row["expanded"] = report.stats.expanded.into();
                    row["generated"] = report.stats.generated.into();
                    // The grounded task's size, read from the task itself.
                    if let Some(task) = puzzle.model::<Planning>().map(Planning::task) {
                        row["facts"] = task.facts.len().into();
                        row["operators"] = task.operators.len().into();
                    }
                }
                Err(e) => row["error"] = e.to_string().into(),
            }
        }
    }
    Ok(row)
}
