//! `merge FILE...`: joins the JSON outputs of the shards of one batch (`scenario --shard K/N
//! --json`, or any `bench` with `--shard K/N --json`: `bench sliding` and the benchmarks the
//! types lend, each saying how its JSON is joined, [`puzzles::batch::ShardedJson`]) into the
//! object an unsharded run prints: the problems in their order, the totals counted again over
//! them.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_SOLVED, bad, write_out};
use crate::puzzles;
use crate::puzzles::batch::{MAX_SHARDS, Shard, ShardedJson};

#[derive(Debug, clap::Args)]
pub(super) struct MergeArgs {
    /// The JSON outputs of every shard of one batch (`scenario` or a `bench` with `--shard
    /// K/N --json`), each once, in any order.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// What a batch's JSON is, and how its parts are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `scenario`: `problems`, with the totals `matched`, `total`, `expanded`, `elapsed_ms`.
    Scenario,
    /// `bench sliding`: `instances`, with the totals in `total`.
    BenchSliding,
    /// A type's own benchmark (`bench <type>`, the type's name): its rows, with the totals in
    /// `totals`, as it says ([`ShardedJson`]).
    Lent(&'static str),
}

impl Kind {
    fn of(v: &Value) -> Option<Kind> {
        if v.get("scenario").is_some() && v["problems"].is_array() {
            Some(Kind::Scenario)
        } else if v.get("heuristic").is_some() && v["instances"].is_array() {
            Some(Kind::BenchSliding)
        } else {
            puzzles::benches()
                .find(|(_, b)| (b.shards.is)(v))
                .map(|(t, _)| Kind::Lent(t.name))
        }
    }

    /// A lent benchmark's JSON, as it says.
    fn lent(name: &str) -> &'static ShardedJson {
        puzzles::benches()
            .find(|(t, _)| t.name == name)
            .map(|(_, b)| &b.shards)
            .expect("a kind found among the lent benchmarks")
    }

    /// The array of problems.
    fn rows(self) -> &'static str {
        match self {
            Kind::Scenario => "problems",
            Kind::BenchSliding => "instances",
            Kind::Lent(name) => Kind::lent(name).rows,
        }
    }

    /// The key of a row's place in the batch's file, rising over the shards in order
    /// (`check_rising`); `None` where rows carry none.
    fn place(self) -> Option<&'static str> {
        match self {
            Kind::Scenario => Some("line"),
            Kind::BenchSliding => None,
            Kind::Lent(name) => Some(Kind::lent(name).place),
        }
    }

    /// The fields every shard must give alike.
    fn same(self) -> &'static [&'static str] {
        match self {
            Kind::Scenario => &["scenario", "map", "algorithm"],
            Kind::BenchSliding => &["heuristic", "dual", "transpositions"],
            Kind::Lent(name) => Kind::lent(name).same,
        }
    }

    /// What `merge` takes, for the message about a file it does not: `a scenario, a bench
    /// sliding, a bench T1 or a bench T2`.
    fn known() -> String {
        let mut kinds = vec!["a scenario".to_owned(), "a bench sliding".to_owned()];
        kinds.extend(puzzles::benches().map(|(t, _)| format!("a bench {}", t.name)));
        let last = kinds.pop().unwrap_or_default();
        format!("{} or {last}", kinds.join(", "))
    }
}

/// One shard's output as read.
struct Part {
    path: PathBuf,
    shard: Shard,
    /// The problems of the whole batch.
    of: usize,
    json: Value,
}

pub(super) fn merge(args: &MergeArgs) -> u8 {
    let mut parts = Vec::new();
    for path in &args.files {
        match read_part(path) {
            Ok(part) => parts.push(part),
            Err(e) => return bad(path, e),
        }
    }
    let kind = match check_parts(&mut parts) {
        Ok(kind) => kind,
        Err((path, e)) => return bad(&path, e),
    };
    let (merged, code) = join(kind, parts);
    if let Err(code) = write_out(&format!("{merged:#}\n")) {
        return code;
    }
    code
}

/// Reads a shard's JSON and its `shard` object.
fn read_part(path: &Path) -> Result<Part, String> {
    let text = puzzles::read_text_file(path).map_err(|e| e.to_string())?;
    let json: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let not_shard = "has no `shard` object: not the --json output of a run with --shard K/N";
    let s = json.get("shard").ok_or(not_shard)?;
    let number = |key: &str| s.get(key).and_then(Value::as_u64).map(|n| n as usize);
    let (Some(index), Some(count), Some(first), Some(of)) = (
        number("index"),
        number("count"),
        number("first"),
        number("of"),
    ) else {
        return Err(not_shard.into());
    };
    if !(1..=MAX_SHARDS).contains(&count) || !(1..=count).contains(&index) {
        return Err(format!(
            "its shard {index}/{count} is not K/N with 1 <= K <= N"
        ));
    }
    let shard = Shard { index, count };
    if shard.range(of).start != first {
        return Err(format!(
            "shard {index}/{count} of {of} problems starts at {first}, not at {}",
            shard.range(of).start
        ));
    }
    Ok(Part {
        path: path.to_owned(),
        shard,
        of,
        json,
    })
}

/// Puts the parts in order and checks that they are every shard of one batch, each once;
/// `Err` names the file at fault.
fn check_parts(parts: &mut [Part]) -> Result<Kind, (PathBuf, String)> {
    parts.sort_by_key(|p| p.shard.index);
    let first = &parts[0];
    let kind = Kind::of(&first.json).ok_or_else(|| {
        (
            first.path.clone(),
            format!("is not the JSON of {}", Kind::known()),
        )
    })?;
    let count = first.shard.count;
    for (i, part) in parts.iter().enumerate() {
        let at = |e: String| (part.path.clone(), e);
        if Kind::of(&part.json) != Some(kind) {
            return Err(at(format!(
                "is not the same kind of output as {}",
                first.path.display()
            )));
        }
        if part.shard.count != count || part.of != first.of {
            return Err(at(format!(
                "is shard {}/{} of {} problems; {} is shard {}/{count} of {}",
                part.shard.index,
                part.shard.count,
                part.of,
                first.path.display(),
                first.shard.index,
                first.of
            )));
        }
        if part.shard.index != i + 1 {
            let why = if part.shard.index == i {
                format!("repeats shard {i}/{count}")
            } else {
                format!("shard {}/{count} is missing", i + 1)
            };
            return Err(at(why));
        }
        for key in kind.same() {
            if part.json.get(key) != first.json.get(key) {
                return Err(at(format!(
                    "its `{key}` differs from that of {}",
                    first.path.display()
                )));
            }
        }
        let rows = part.json[kind.rows()].as_array().map_or(0, Vec::len);
        let complete = part.json.get("complete") != Some(&Value::Bool(false));
        if rows > part.shard.range(part.of).len()
            || (complete && rows < part.shard.range(part.of).len())
        {
            return Err(at(format!(
                "holds {rows} problems; shard {}/{count} of {} has {}",
                part.shard.index,
                part.of,
                part.shard.range(part.of).len()
            )));
        }
    }
    if parts.len() != count {
        let last = &parts[parts.len() - 1];
        return Err((
            last.path.clone(),
            format!("shard {}/{count} is missing", parts.len() + 1),
        ));
    }
    if let Some(key) = kind.place() {
        check_rising(parts, kind, key)?;
    }
    Ok(kind)
}

/// Checks that the rows are each part's own: every row names its problem's place in the
/// batch's file (`key`: a scenario's `line` of the `.scen` file, a lent benchmark's
/// [`ShardedJson::place`]), and the problems of the shards in order are the file's problems in order, so the places
/// rise strictly from the first row of shard 1 to the last row of shard N. A part holding
/// another part's rows, a row twice or its rows out of order breaks the rise; `Err` names the
/// file and the row.
fn check_rising(parts: &[Part], kind: Kind, key: &str) -> Result<(), (PathBuf, String)> {
    let mut last: Option<(u64, &Path)> = None;
    for part in parts {
        let rows = part.json[kind.rows()]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        for (i, row) in rows.iter().enumerate() {
            let Some(line) = row.get(key).and_then(Value::as_u64) else {
                return Err((
                    part.path.clone(),
                    format!("its row {} has no `{key}`", i + 1),
                ));
            };
            if let Some((before, path)) = last
                && line <= before
            {
                let whose = if path == part.path.as_path() {
                    "its own row before".to_owned()
                } else {
                    format!("a row of {}", path.display())
                };
                return Err((
                    part.path.clone(),
                    format!(
                        "its row {} is the problem of {key} {line}, but {whose} was that of \
                         {key} {before}: a shard's rows are its own problems in the file's order",
                        i + 1
                    ),
                ));
            }
            last = Some((line, part.path.as_path()));
        }
    }
    Ok(())
}

/// The merged object and the exit code an unsharded run gives.
fn join(kind: Kind, parts: Vec<Part>) -> (Value, u8) {
    let mut rows = Vec::new();
    let mut merged = Value::Null;
    let mut stopped: Option<Value> = None;
    let (mut load_ms, mut threads) = (0.0f64, 0u64);
    // JPS+'s jump distances: every shard computes them once; the merge keeps the longest.
    let mut precompute_ms: Option<f64> = None;
    for part in parts {
        let mut json = part.json;
        if let Some(Value::Array(list)) = json.get_mut(kind.rows()).map(Value::take) {
            rows.extend(list);
        }
        load_ms = load_ms.max(json["load_ms"].as_f64().unwrap_or(0.0));
        threads = threads.max(json["threads"].as_u64().unwrap_or(0));
        if let Some(ms) = json.get("precompute_ms").and_then(Value::as_f64) {
            precompute_ms = Some(precompute_ms.map_or(ms, |m| m.max(ms)));
        }
        if stopped.is_none() && json.get("complete") == Some(&Value::Bool(false)) {
            stopped = Some(json.clone());
        }
        if merged.is_null() {
            merged = json;
        }
    }
    if let Value::Object(map) = &mut merged {
        map.remove("shard");
    }
    match kind {
        Kind::Scenario => {
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
            if let Some(ms) = precompute_ms {
                merged["precompute_ms"] = ms.into();
            }
            merged["problems"] = Value::Array(rows);
            let mut code = if matched == total {
                EXIT_SOLVED
            } else {
                EXIT_NO_SOLUTION
            };
            if let (Some(s), Value::Object(map)) = (stopped, &mut merged) {
                keep_stop(map, &s);
                code = EXIT_LIMIT;
            }
            (merged, code)
        }
        Kind::Lent(_) => {
            let key = kind.rows();
            merged["totals"] = puzzles::batch::bench_totals(&rows, key);
            merged[key] = Value::Array(rows);
            (merged, EXIT_SOLVED)
        }
        Kind::BenchSliding => {
            merged["total"] = super::bench_sliding::total_json(&rows);
            merged["instances"] = Value::Array(rows);
            merged["load_ms"] = load_ms.into();
            merged["threads"] = threads.into();
            let mut code = EXIT_SOLVED;
            if let (Some(s), Value::Object(map)) = (stopped, &mut merged) {
                keep_stop(map, &s);
                code = EXIT_LIMIT;
            }
            (merged, code)
        }
    }
}

/// Copies a stopped part's `complete: false` and, where it gives them, its `outcome` and
/// `message` into the merged object, so a batch missing problems never reads as whole.
fn keep_stop(map: &mut serde_json::Map<String, Value>, stopped: &Value) {
    map.insert("complete".into(), Value::Bool(false));
    for key in ["outcome", "message"] {
        match stopped.get(key) {
            Some(v) => map.insert(key.into(), v.clone()),
            None => map.remove(key),
        };
    }
}
