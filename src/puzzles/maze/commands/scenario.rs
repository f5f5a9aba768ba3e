//! `scenario`: every problem of a Moving AI scenario file run on its map through a search,
//! each computed length checked against the stated optimal one; its arguments, its text and
//! JSON output, and how `merge` joins its shards ([`SHARDS`]).

use std::path::PathBuf;

use serde_json::Value;

use super::super::movingai;
use crate::puzzles::batch::{
    self, Console, EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_SOLVED, LimitArgs, Shard, ShardedJson,
    emit_to,
};

/// The arguments of `scenario`.
#[derive(Debug, clap::Args)]
pub(super) struct ScenarioArgs {
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
    #[arg(long, value_name = "K/N", value_parser = batch::parse_shard)]
    shard: Option<Shard>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// How `merge` tells and joins the JSON of `scenario`'s shards: `problems`, placed by their
/// `line` in the file, with the totals `matched`, `total`, `expanded`, `elapsed_ms` and
/// JPS+'s `precompute_ms` (every shard computes the jump distances once; the merge keeps the
/// longest), and the whole batch's exit code.
pub(super) const SHARDS: ShardedJson = ShardedJson {
    is: |v| v.get("scenario").is_some() && v["problems"].is_array(),
    rows: "problems",
    place: Some("line"),
    same: &["scenario", "map", "algorithm"],
    join,
};

/// [`ShardedJson::join`] of `scenario`.
fn join(_: &ShardedJson, merged: &mut Value, rows: Vec<Value>, parts: &[Value]) -> u8 {
    let matched = rows
        .iter()
        .filter(|r| r["matched"] == Value::Bool(true))
        .count();
    let total = rows.len();
    merged["matched"] = matched.into();
    merged["total"] = total.into();
    merged["expanded"] = rows
        .iter()
        .filter_map(|r| r["expanded"].as_u64())
        .sum::<u64>()
        .into();
    let mut ms = 0.0;
    for r in &rows {
        ms += r["elapsed_ms"].as_f64().unwrap_or(0.0);
    }
    merged["elapsed_ms"] = ms.into();
    if let Some(ms) = batch::largest(parts, "precompute_ms") {
        merged["precompute_ms"] = ms.into();
    }
    merged["problems"] = Value::Array(rows);
    if batch::keep_stop(merged, parts) {
        EXIT_LIMIT
    } else if matched == total {
        EXIT_SOLVED
    } else {
        EXIT_NO_SOLUTION
    }
}

/// `scenario`: every problem of the scenario (or of its shard) run on its map, a line each
/// as it ends (or one JSON object), then the summary; exit code 0 when every computed length
/// matches the stated one, 1 when one does not, 3 at a limit.
pub(super) fn scenario(args: &ScenarioArgs, console: &mut dyn Console) -> u8 {
    let scen = &args.scen;
    let text = match super::read(scen, console) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let mut scenario = match movingai::parse_scenario(&text) {
        Ok(s) => s,
        Err(e) => return console.bad(scen, &e),
    };
    let Some(map_path) = args.map.clone().or_else(|| scenario.find_map(scen)) else {
        let why = format!(
            "cannot find the map `{}` it names; give it with --map",
            scenario.map
        );
        return console.bad(scen, &why);
    };
    let maze = match super::read(&map_path, console) {
        Ok(text) => match movingai::parse_map(&text) {
            Ok(maze) => maze,
            Err(e) => return console.bad(&map_path, &e),
        },
        Err(code) => return code,
    };
    if let Err(e) = scenario.check_map(&maze) {
        return console.bad(scen, &format!("on {}: {e}", map_path.display()));
    }
    let algorithm = match batch::algorithm_named(console, scen, &args.algorithm) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if let Some(refusal) = algorithm.refusal(&maze) {
        return console.bad(scen, &refusal);
    }
    let all = scenario.problems.len();
    if let Some(shard) = args.shard {
        scenario.problems = scenario.problems.drain(shard.range(all)).collect();
    }
    let cancel = args.limits.token();
    let mut rows: Vec<ScenarioRow> = Vec::with_capacity(scenario.problems.len());
    let mut text = String::new();
    let mut write_failed = None;
    let summary = scenario.run(&maze, algorithm, &cancel, |run| {
        let row = ScenarioRow::of(run);
        if !args.json && write_failed.is_none() {
            row.write_line(&mut text);
            if text.len() >= 1 << 16 {
                if let Err(code) = console.write(&text) {
                    // Nobody reads any more: the remaining problems are not run.
                    write_failed = Some(code);
                    cancel.cancel();
                }
                text.clear();
            }
        }
        rows.push(row);
    });
    if write_failed.is_none()
        && let Err(code) = console.write(&text)
    {
        write_failed = Some(code);
    }
    if let Some(code) = write_failed {
        return code;
    }
    if let Some(why) = &summary.stopped {
        console.say(&format!("{}: {why}", scen.display()));
        return EXIT_LIMIT;
    }
    let total = scenario.problems.len();
    let matched = summary.matched;
    if args.json {
        let report = ScenarioReport {
            algorithm: algorithm.name(),
            elapsed_ms: summary.elapsed_ms,
            expanded: summary.expanded,
            map: map_path.display().to_string(),
            matched,
            precompute_ms: (summary.precompute_ms > 0.0).then_some(summary.precompute_ms),
            problems: &rows,
            scenario: scen.display().to_string(),
            shard: args.shard.map(|s| s.to_json(all)),
            total,
        };
        let mut out = Vec::with_capacity(rows.len() * 256 + 256);
        if let Err(e) = serde_json::to_writer_pretty(&mut out, &report) {
            return console.bad(scen, &e);
        }
        out.push(b'\n');
        // Written as it is: serde_json writes UTF-8 (no check of a copy per run).
        if let Err(code) = console.write_bytes(&out) {
            return code;
        }
    } else {
        emit_to!(console, &format!("{}; {algorithm}\n", summary.line(total)));
    }
    if matched == total {
        EXIT_SOLVED
    } else {
        EXIT_NO_SOLUTION
    }
}

/// The `--json` object of `scenario`: its fields in the order of their names, as the
/// `merge` of its shards (a `serde_json::Value`) prints them.
#[derive(serde::Serialize)]
struct ScenarioReport<'a> {
    algorithm: &'a str,
    elapsed_ms: f64,
    expanded: u64,
    map: String,
    matched: usize,
    /// JPS+: the time its jump distances took to compute, milliseconds (absent for the
    /// other algorithms).
    #[serde(skip_serializing_if = "Option::is_none")]
    precompute_ms: Option<f64>,
    problems: &'a [ScenarioRow],
    scenario: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<serde_json::Value>,
    total: usize,
}

/// A square of a scenario's JSON: x the column, y the row.
#[derive(serde::Serialize)]
struct Xy {
    x: usize,
    y: usize,
}

/// One problem's row of `scenario --json`, fields in the order of their names.
#[derive(serde::Serialize)]
struct ScenarioRow {
    bucket: u32,
    computed: Option<f64>,
    elapsed_ms: f64,
    expanded: u64,
    goal: Xy,
    line: usize,
    matched: bool,
    start: Xy,
    stated: f64,
}

impl ScenarioRow {
    fn of(run: &movingai::ProblemRun) -> Self {
        let p = &run.problem;
        Self {
            bucket: p.bucket,
            computed: run.computed,
            elapsed_ms: run.elapsed_ms,
            expanded: run.expanded,
            goal: Xy {
                x: p.goal.col,
                y: p.goal.row,
            },
            line: p.line,
            matched: run.matched,
            start: Xy {
                x: p.start.col,
                y: p.start.row,
            },
            stated: p.optimal,
        }
    }

    /// Appends the row's line of the text output.
    fn write_line(&self, text: &mut String) {
        use std::fmt::Write as _;
        let computed = self
            .computed
            .map_or_else(|| "none".to_owned(), |c| format!("{c:.4}"));
        let _ = writeln!(
            text,
            "line {:>5}  ({}, {}) -> ({}, {})  stated {:>10.4}  computed {:>10}  {}  expanded {:>8}  {:>8.3} ms",
            self.line,
            self.start.x,
            self.start.y,
            self.goal.x,
            self.goal.y,
            self.stated,
            computed,
            if self.matched { "ok" } else { "MISMATCH" },
            self.expanded,
            self.elapsed_ms
        );
    }
}
