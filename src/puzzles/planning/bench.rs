//! `puzzlelab bench planning DIR`: every problem of a folder of PDDL tasks solved in one
//! process, each under its own time limit, with per-problem and total figures.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::Planning;
use crate::puzzles::batch::{self, Bench, Console, Shard, ShardedJson, emit_to};
use crate::puzzles::{self, NoWatcher};
use crate::search::{CancelToken, Limits};

/// `bench planning`, lent through the registry: every problem of a folder.
pub static BENCH: Bench = Bench {
    about: "Solve every PDDL problem of a folder (its domain beside it) in one process, each \
            under a time limit, and report per problem and in total: solved, plan length and \
            cost, optimal, states expanded and generated, seconds, grounded facts and \
            operators.",
    arguments: <PlanningArgs as clap::Args>::augment_args,
    run: |matches, console| batch::run_parsed(matches, console, planning),
    shards: ShardedJson {
        is: |v| v.get("dir").is_some() && v["problems"].is_array(),
        rows: "problems",
        place: Some("index"),
        same: &["dir", "algorithm", "heuristic", "time_limit_s"],
        join: batch::join_counted,
    },
};

/// The arguments of `bench planning`.
#[derive(Debug, clap::Args)]
struct PlanningArgs {
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
    #[arg(long, value_name = "K/N", value_parser = batch::parse_shard)]
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

/// Runs `bench planning`; its exit code.
fn planning(args: &PlanningArgs, console: &mut dyn Console) -> u8 {
    let algorithm = match batch::algorithm_named(console, &args.dir, &args.algorithm) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if !(0.001..=86_400.0).contains(&args.time_limit) {
        return console.bad(
            &args.dir,
            &"the time limit must be from 0.001 to 86400 seconds",
        );
    }
    let problems = match problems_in(&args.dir) {
        Ok(p) => p,
        Err(e) => return console.bad(&args.dir, &e),
    };
    // Each problem with its place in the folder's name order (1-based).
    let mut problems: Vec<(usize, PathBuf)> = problems
        .into_iter()
        .enumerate()
        .map(|(i, p)| (i + 1, p))
        .collect();
    if let Some(range) = &args.problems {
        match batch::range_of(range, problems.len()) {
            Ok(r) => problems = problems.drain(r).collect(),
            Err(e) => return console.bad(&args.dir, &e),
        }
    }
    if problems.is_empty() {
        return console.bad(&args.dir, &"no PDDL problem in this folder");
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
        let mut row = match solve_one(path, &name, args, algorithm, began, console) {
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
            emit_to!(
                console,
                &format!("{name}: {what}, {} expanded, {s:.3} s\n", row["expanded"])
            );
        }
        rows.push(row);
    }
    let head = serde_json::json!({
        "dir": args.dir.display().to_string(),
        "algorithm": algorithm.to_string(),
        "heuristic": args.heuristic,
        "time_limit_s": args.time_limit,
    });
    batch::finish(
        console, args.json, head, rows, "problems", args.shard, total,
    )
}

/// One problem's row: loaded, its heuristic set, solved under the time limit left after
/// loading (`began` when its clock started).
fn solve_one(
    path: &Path,
    name: &str,
    args: &PlanningArgs,
    algorithm: crate::search::Algorithm,
    began: Instant,
    console: &mut dyn Console,
) -> Result<serde_json::Value, u8> {
    let mut row = serde_json::json!({ "problem": name, "solved": false });
    let loaded = puzzles::load_file(path, Some(super::TYPE.name));
    match loaded {
        Err(e) => row["error"] = e.to_string().into(),
        Ok(mut puzzle) => {
            if let Err(e) = puzzle.set_option("heuristic", &args.heuristic) {
                return Err(console.bad(&args.dir, &e));
            }
            if let Some(refusal) = puzzle.refusal(algorithm) {
                return Err(console.bad(&args.dir, &refusal));
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
