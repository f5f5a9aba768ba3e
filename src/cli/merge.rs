//! `merge FILE...`: joins the JSON outputs of the shards of one batch (a subcommand or a
//! benchmark a type lends, run with `--shard K/N --json`: `scenario`, every `bench`, each
//! saying how its JSON is joined, [`puzzles::batch::ShardedJson`]) into the object an
//! unsharded run prints: the problems in their order, the totals counted again over them.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{bad, write_out};
use crate::puzzles;
use crate::puzzles::batch::{MAX_SHARDS, Shard, ShardedJson};

#[derive(Debug, clap::Args)]
pub(super) struct MergeArgs {
    /// The JSON outputs of every shard of one batch (`scenario` or a `bench` with `--shard
    /// K/N --json`), each once, in any order.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// What a batch's JSON is, and how its parts are joined: one of the batches that take
/// `--shard K/N` (a lent subcommand's, `scenario`, or a lent benchmark's, `bench <type>`),
/// as it says ([`ShardedJson`]).
#[derive(Clone)]
struct Kind {
    /// The batch's command line (`scenario`, `bench sliding`), for messages.
    name: String,
    /// How its JSON is told and joined.
    json: &'static ShardedJson,
}

impl PartialEq for Kind {
    fn eq(&self, other: &Kind) -> bool {
        std::ptr::eq(self.json, other.json)
    }
}

impl Kind {
    /// Every batch `merge` joins: the lent subcommands that take `--shard`, then the lent
    /// benchmarks, in registry order.
    fn all() -> Vec<Kind> {
        let commands = puzzles::TYPES
            .iter()
            .filter_map(|t| puzzles::lent_by(t).commands)
            .flatten()
            .filter_map(|c| {
                c.shards.as_ref().map(|json| Kind {
                    name: c.name.to_owned(),
                    json,
                })
            });
        let benches = puzzles::benches().map(|(t, b)| Kind {
            name: format!("bench {}", t.name),
            json: &b.shards,
        });
        commands.chain(benches).collect()
    }

    /// The batch whose JSON `v` is.
    fn of(v: &Value) -> Option<Kind> {
        Kind::all().into_iter().find(|k| (k.json.is)(v))
    }

    /// What `merge` takes, for the message about a file it does not: `a scenario, a bench
    /// sliding, a bench T1 or a bench T2`.
    fn known() -> String {
        let mut kinds: Vec<String> = Kind::all()
            .into_iter()
            .map(|k| format!("a {}", k.name))
            .collect();
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
        if Kind::of(&part.json).as_ref() != Some(&kind) {
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
        for key in kind.json.same {
            if part.json.get(key) != first.json.get(key) {
                return Err(at(format!(
                    "its `{key}` differs from that of {}",
                    first.path.display()
                )));
            }
        }
        let rows = part.json[kind.json.rows].as_array().map_or(0, Vec::len);
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
    if let Some(key) = kind.json.place {
        check_rising(parts, &kind, key)?;
    }
    Ok(kind)
}

/// Checks that the rows are each part's own: every row names its problem's place in the
/// batch's file (`key`: a scenario's `line` of the `.scen` file, a lent benchmark's
/// [`ShardedJson::place`]), and the problems of the shards in order are the file's problems in order, so the places
/// rise strictly from the first row of shard 1 to the last row of shard N. A part holding
/// another part's rows, a row twice or its rows out of order breaks the rise; `Err` names the
/// file and the row.
fn check_rising(parts: &[Part], kind: &Kind, key: &str) -> Result<(), (PathBuf, String)> {
    let mut last: Option<(u64, &Path)> = None;
    for part in parts {
        let rows = part.json[kind.json.rows]
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

/// The merged object and the exit code an unsharded run gives: the first part's object, its
/// `shard` taken out, with every part's rows in order and the totals counted again over them
/// as the batch says ([`ShardedJson::join`]).
fn join(kind: Kind, parts: Vec<Part>) -> (Value, u8) {
    let mut rows = Vec::new();
    let mut objects = Vec::with_capacity(parts.len());
    for part in parts {
        let mut json = part.json;
        if let Some(Value::Array(list)) = json.get_mut(kind.json.rows).map(Value::take) {
            rows.extend(list);
        }
        objects.push(json);
    }
    let mut merged = objects.first().cloned().unwrap_or(Value::Null);
    if let Value::Object(map) = &mut merged {
        map.remove("shard");
    }
    let code = (kind.json.join)(kind.json, &mut merged, rows, &objects);
    (merged, code)
}
