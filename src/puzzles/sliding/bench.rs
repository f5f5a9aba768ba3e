//! `puzzlelab bench sliding`, lent through the registry: optimal IDA* on a batch of sliding
//! tile puzzles in one process, with per-instance and total figures (length, expanded,
//! generated, time, nodes a second).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use super::{Sliding, TileHeuristic, stratified};
use crate::puzzles::batch::{
    self, Bench, Console, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_SOLVED, LimitArgs, ShardedJson, emit_to,
    ranged,
};
use crate::puzzles::{NoWatcher, Puzzle as _};
use crate::search::{Algorithm, CancelToken, Outcome};

/// `bench sliding`: its arguments, its run, and how `merge` joins its shards (`instances`,
/// with no place of their own, the totals in `total`; `load_ms` and `threads` the largest of
/// the parts').
pub static BENCH: Bench = Bench {
    about: "Solve sliding tile puzzles optimally with IDA* in one process, and report per \
            instance and in total the solution length, the states expanded and generated, the \
            time and the nodes generated a second. The boards come from `--instances FILE` or \
            are a seeded random set (`--count N --seed S`).",
    arguments: <SlidingArgs as clap::Args>::augment_args,
    run: |matches, console| batch::run_parsed(matches, console, sliding),
    shards: ShardedJson {
        is: |v| v.get("heuristic").is_some() && v["instances"].is_array(),
        rows: "instances",
        place: None,
        same: &["heuristic", "dual", "transpositions"],
        join,
    },
};

/// [`ShardedJson::join`] of `bench sliding`: the totals over every shard's instances, the
/// largest `load_ms` and `threads`, a stop kept (exit code 3).
fn join(_: &ShardedJson, merged: &mut Value, rows: Vec<Value>, parts: &[Value]) -> u8 {
    merged["total"] = total_json(&rows);
    merged["instances"] = Value::Array(rows);
    merged["load_ms"] = batch::largest(parts, "load_ms").unwrap_or(0.0).into();
    merged["threads"] = (batch::largest(parts, "threads").unwrap_or(0.0) as u64).into();
    if batch::keep_stop(merged, parts) {
        EXIT_LIMIT
    } else {
        EXIT_SOLVED
    }
}

mod instances;

use instances::{Instance, batch};

/// The arguments of `bench sliding`.
#[derive(Debug, clap::Args)]
struct SlidingArgs {
    /// A file with one board per line: the tiles in reading order separated by spaces, 0 the
    /// blank (16 numbers for the 15-puzzle, 25 for the 24-puzzle), then optionally a `#`
    /// comment; blank lines and lines starting with `#` are skipped.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["count", "seed", "side"])]
    instances: Option<PathBuf>,
    /// The goal of the boards, as tiles in reading order (for example
    /// "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" for Korf's goal): of the boards of
    /// `--instances`, or of the random ones (solvable towards it; their side is the goal's).
    /// Default: the tiles in order, the blank last.
    #[arg(long, value_name = "TILES")]
    goal: Option<String>,
    /// How many random instances, 1 to 10000.
    #[arg(long, default_value_t = 10, value_parser = ranged(1usize, 10_000))]
    count: usize,
    /// The seed of the first random instance (instance i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The heuristic: misplaced, manhattan, linear_conflict, pdb or pdb78 (`pdb` on 5 x 5:
    /// Korf and Felner's 6-6-6-6 databases, built once and cached).
    #[arg(long, default_value = "pdb", value_name = "H")]
    heuristic: String,
    /// Board side of the random instances (rows = columns), 2 to 8. Default: 4, or the
    /// side of `--goal`.
    #[arg(long,
          value_parser = ranged(super::MIN_SIDE, super::MAX_SIDE))]
    side: Option<usize>,
    /// Print one JSON object instead of text: `{"heuristic", "dual", "transpositions",
    /// "threads", "load_ms",
    /// "instances": [{"length", "expanded", "generated", "ms", "iterations": [{"bound",
    /// "expanded", "generated", "ms", "predicted", "kre"}, …]}, …], "total": {"expanded",
    /// "generated", "ms"}}`, `ms` being the solving time; `predicted` and `kre` are the
    /// forecasts of the iteration's expansions (with pattern databases).
    #[arg(long)]
    json: bool,
    /// The dual lookups (Felner, Zahavi et al.) of the fast IDA* core: on or off. `on` loads
    /// (or builds and caches: for the 7-8 set about 5 minutes for the minus tables and 11 for
    /// the carrier tables) the databases' dual tables first.
    /// Default: off (they cost more time than they save; README).
    #[arg(long, value_name = "ON|OFF", value_parser = ["on", "off"])]
    dual: Option<String>,
    /// The fast IDA* core's transposition table (a state expanded earlier in the iteration
    /// from as few moves is skipped): on or off. Default: on.
    #[arg(long, value_name = "ON|OFF", value_parser = ["on", "off"])]
    transpositions: Option<String>,
    /// Threads for the fast IDA* core: 1 searches sequentially; default every core.
    #[arg(long, value_name = "N", value_parser = ranged(1usize, 256))]
    threads: Option<usize>,
    /// Probes of the stratified sampling that forecasts each iteration's expansions after
    /// the run (`predicted` in the JSON; 0: no forecasts; none with `--dual on`, whose tree
    /// they do not model). They forecast the tree without the transposition table, which
    /// skips about a fifth of it (`--transpositions off` compares like with like). More
    /// probes, a closer forecast: on Korf's 100, 300 probes take about 3 s in all.
    #[arg(long, default_value_t = 300, value_name = "N", value_parser = ranged(0usize, 1_000_000))]
    forecast_probes: usize,
    /// Solve only the K-th of N equal parts of the instances, by their order (1 <= K <= N;
    /// instance numbers and seeds stay those of the whole batch); `merge` joins the parts'
    /// JSON outputs.
    #[arg(long, value_name = "K/N", value_parser = batch::parse_shard)]
    shard: Option<batch::Shard>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Why the tables could not be prepared: the exit code and, for a limit reached, its outcome
/// and message.
type PrepareError = (u8, Option<(Outcome, String)>);

/// `bench sliding`: loads the tables once, solves each board of the batch with IDA*, then
/// prints the rows and the totals.
fn sliding(args: &SlidingArgs, console: &mut dyn Console) -> u8 {
    let Some(heuristic) = TileHeuristic::from_name(&args.heuristic) else {
        console.say(&format!(
            "unknown heuristic `{}` (known: misplaced, manhattan, linear_conflict, pdb, pdb78)",
            args.heuristic
        ));
        return EXIT_BAD_INPUT;
    };
    let mut instances = match batch(args, console) {
        Ok(list) => list,
        Err(code) => return code,
    };
    if let Some(n) = args.threads.filter(|&n| n > 1) {
        // The first pool set in the process wins; the command line sets none before this.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    let core = super::ida::Options {
        dual: args.dual.as_deref() == Some("on"),
        parallel: args.threads != Some(1),
        transpositions: args.transpositions.as_deref() != Some("off"),
        ..super::ida::Options::default()
    };
    let cancel = args.limits.token();
    // The databases are loaded (or built) once, before the clock of the first instance.
    let load_started = Instant::now();
    let db = match prepare(
        &mut instances[0].board,
        heuristic,
        core.dual,
        &cancel,
        console,
    ) {
        Ok(db) => db,
        Err((code, limit)) => return stopped_preparing(args.json, heuristic, code, limit, console),
    };
    let load_ms = load_started.elapsed().as_secs_f64() * 1000.0;
    // A shard keeps its part of the batch (after the tables, which the first board chose).
    let all = instances.len();
    let first = args.shard.map_or(0, |s| s.range(all).start);
    if let Some(shard) = args.shard {
        instances = instances.drain(shard.range(all)).collect();
    }
    // The forecasts of each iteration (after the run, off its clock): stratified sampling of
    // its tree, and Korf, Reid and Edelkamp's formula from the estimate's distribution.
    let forecast = db
        .as_deref()
        .filter(|_| args.forecast_probes > 0 && !core.dual)
        .map(|db| super::forecast::Forecast::sample(db, 20_000, 1));
    let mut rows = Vec::new();
    // How the batch stopped before its end (a limit), if it did.
    let mut stopped = None;
    for (i, instance) in (first..).zip(instances.iter_mut()) {
        instance.board.set_heuristic(heuristic);
        instance.board.set_core_options(core);
        if let Some(db) = &db {
            instance.board.attach_pattern_db(db.clone());
        }
        let report = match instance
            .board
            .solve(Algorithm::IdaStar, &mut NoWatcher, &cancel)
        {
            Ok(mut r) => {
                if let (Some(f), Some(db)) = (&forecast, &db)
                    && r.message.is_none()
                {
                    forecast_iterations(i, db, f, &instance.board, &mut r, args, &cancel, console);
                }
                r
            }
            Err(e) => {
                console.say(&format!("instance {i}: {e}"));
                return EXIT_BAD_INPUT;
            }
        };
        if let Some(message) = &report.message {
            console.say(&format!("instance {i}: the search {message}"));
            // The rows solved so far are still reported, with how the batch ended.
            stopped = Some((
                report.outcome,
                format!("instance {i}: the search {message}"),
            ));
            break;
        }
        match instance_row(i, instance, &report, args.json, console) {
            Ok(row) => rows.push(row),
            Err(code) => return code,
        }
    }
    let tables = Tables {
        heuristic,
        core,
        load_ms,
        shard: args.shard.map(|s| s.to_json(all)),
    };
    totals(args.json, &tables, &rows, stopped.as_ref(), console)
}

/// The exit code `code` of a batch whose tables could not be prepared; for a limit reached
/// while building them, with `--json`, the (empty) batch and how it ended are printed first.
fn stopped_preparing(
    json: bool,
    heuristic: TileHeuristic,
    code: u8,
    limit: Option<(Outcome, String)>,
    console: &mut dyn Console,
) -> u8 {
    if let (true, Some((outcome, message))) = (json, limit) {
        let v = serde_json::json!({
            "heuristic": heuristic.name(),
            "instances": [],
            "complete": false,
            "outcome": outcome,
            "message": message,
        });
        emit_to!(console, &format!("{v:#}\n"));
    }
    code
}

/// Forecasts the expansions of each iteration of instance `i`'s `report` (solved on `board`),
/// by stratified sampling with `--forecast-probes` probes; a time limit leaves the rest
/// without, and says so.
#[allow(clippy::too_many_arguments)]
fn forecast_iterations(
    i: usize,
    db: &super::pattern_db::PatternDb,
    forecast: &super::forecast::Forecast,
    board: &Sliding,
    report: &mut crate::puzzles::Report,
    args: &SlidingArgs,
    cancel: &CancelToken,
    console: &mut dyn Console,
) {
    let tiles = board.tiles_row_major();
    let complete = stratified::forecast_iterations(
        db,
        forecast,
        &tiles,
        &mut report.iterations,
        args.forecast_probes,
        cancel,
    );
    if !complete {
        console.say(&format!(
            "instance {i}: the forecasts stopped at the time limit; the iterations not \
             forecast have none"
        ));
    }
}

/// The JSON row of instance `i` solved in `report`; without `--json` its line is printed too
/// (`Err`: the exit code when standard output fails).
fn instance_row(
    i: usize,
    instance: &Instance,
    report: &crate::puzzles::Report,
    json: bool,
    console: &mut dyn Console,
) -> Result<serde_json::Value, u8> {
    let s = &report.stats;
    let per_second = if s.elapsed_ms > 0.0 {
        s.generated as f64 / s.elapsed_ms * 1000.0
    } else {
        0.0
    };
    if !json {
        let from = match (instance.seed, instance.line) {
            (Some(seed), _) => format!("seed {seed:<5}"),
            (None, Some(line)) => format!("line {line:<5}"),
            (None, None) => String::new(),
        };
        console.write(&format!(
            "{:>4}  {from} length {:>3}  expanded {:>11}  generated {:>11}  {:>9.1} ms  {:>6.1} M nodes/s\n",
            i + 1,
            report.cost,
            s.expanded,
            s.generated,
            s.elapsed_ms,
            per_second / 1e6
        ))?;
    }
    let mut row = serde_json::json!({
        "length": report.cost,
        "expanded": s.expanded,
        "generated": s.generated,
        "ms": s.elapsed_ms,
        "tiles": instance.board.to_json()["tiles"],
        "iterations": serde_json::to_value(&report.iterations).unwrap_or_default(),
    });
    if let Some(seed) = instance.seed {
        row["seed"] = seed.into();
    }
    Ok(row)
}

/// What the batch searched with: the heuristic, the fast core's options and the time its
/// tables took to load.
struct Tables {
    heuristic: TileHeuristic,
    core: super::ida::Options,
    load_ms: f64,
    /// What a shard of the batch says of itself (`--shard`).
    shard: Option<serde_json::Value>,
}

/// The `total` object of the JSON over the instances' `rows`: expanded, generated, the
/// solving time and the nodes generated a second (also `merge`'s, over the shards' rows).
fn total_json(rows: &[serde_json::Value]) -> serde_json::Value {
    let (expanded, generated, ms) = sums(rows);
    serde_json::json!({
        "expanded": expanded as u64,
        "generated": generated as u64,
        "ms": ms,
        "nodes_per_second": per_second(generated, ms),
    })
}

/// The rows' expanded, generated and solving time, summed.
fn sums(rows: &[serde_json::Value]) -> (f64, f64, f64) {
    let total = |key: &str| {
        rows.iter()
            .map(|r| r[key].as_f64().unwrap_or(0.0))
            .sum::<f64>()
    };
    // (`+ 0.0`: an empty sum is -0.0, printed "-0.0".)
    (
        total("expanded") + 0.0,
        total("generated") + 0.0,
        total("ms") + 0.0,
    )
}

/// Nodes generated a second.
fn per_second(generated: f64, ms: f64) -> f64 {
    if ms > 0.0 {
        generated / ms * 1000.0
    } else {
        0.0
    }
}

/// Prints the batch's totals over `rows` (with `--json`, the whole batch as one object) and
/// gives the exit code: solved, or a limit when the batch `stopped` before its end.
fn totals(
    json: bool,
    tables: &Tables,
    rows: &[serde_json::Value],
    stopped: Option<&(Outcome, String)>,
    console: &mut dyn Console,
) -> u8 {
    let (expanded, generated, ms) = sums(rows);
    let n = rows.len().max(1) as f64;
    let per_second = per_second(generated, ms);
    let Tables {
        heuristic,
        core,
        load_ms,
        shard,
    } = tables;
    if json {
        let mut v = serde_json::json!({
            "heuristic": heuristic.name(),
            "dual": core.dual,
            "transpositions": core.transpositions,
            "threads": if core.parallel { rayon::current_num_threads() } else { 1 },
            "load_ms": load_ms,
            "instances": rows,
            "total": total_json(rows),
        });
        if let Some(shard) = shard {
            v["shard"] = shard.clone();
        }
        if let Some((outcome, message)) = stopped {
            v["outcome"] = serde_json::json!(outcome);
            v["message"] = serde_json::json!(message);
            v["complete"] = false.into();
        }
        emit_to!(console, &format!("{v:#}\n"));
    } else {
        let total = if stopped.is_some() {
            "total before the limit"
        } else {
            "total"
        };
        emit_to!(
            console,
            &format!(
                "{total}: {} instances, {} expanded, {} generated, {ms:.1} ms solving ({:.1} ms and {:.0} expansions an instance, {:.1} M nodes/s); databases loaded in {load_ms:.0} ms\n",
                rows.len(),
                expanded as u64,
                generated as u64,
                ms / n,
                expanded / n,
                per_second / 1e6
            )
        );
    }
    if stopped.is_some() {
        EXIT_LIMIT
    } else {
        EXIT_SOLVED
    }
}

/// Chooses `heuristic` on `board` and loads (or builds, with progress on standard error) the
/// pattern databases it reads, once for the whole batch. `Err` is the exit code, the reason
/// printed, and for a limit reached its outcome and message.
fn prepare(
    board: &mut Sliding,
    heuristic: TileHeuristic,
    dual: bool,
    cancel: &CancelToken,
    console: &mut dyn Console,
) -> Result<Option<Arc<super::pattern_db::PatternDb>>, PrepareError> {
    board.set_heuristic(heuristic);
    if heuristic.pdb_set(board.rows(), board.cols()).is_none() {
        return Ok(None);
    }
    if !board.pattern_db_possible() {
        console.say(&format!(
            "the heuristic {} does not apply to a {} x {} board",
            heuristic.name(),
            board.rows(),
            board.cols()
        ));
        return Err((EXIT_BAD_INPUT, None));
    }
    let mut last = -1;
    let prepared = board.prepare(false, cancel, &mut |fraction| {
        let percent = (fraction * 100.0) as i32;
        if percent / 5 != last / 5 && percent < 100 {
            console.say(&format!("building pattern databases… {percent}%"));
        }
        last = percent;
    });
    let fail = |e: super::pattern_db::PdbError, console: &mut dyn Console| {
        console.say(&e.to_string());
        match e.limit_outcome() {
            Some(outcome) => (EXIT_LIMIT, Some((outcome, e.to_string()))),
            None => (EXIT_BAD_INPUT, None),
        }
    };
    prepared.map_err(|e| fail(e, console))?;
    let Some(db) = board.attached_db().cloned() else {
        return Ok(None);
    };
    if !dual {
        return Ok(Some(db));
    }
    // The dual lookups' minus and carrier tables, cached beside the databases.
    let mut db = Arc::unwrap_or_clone(db);
    let mut last = -1;
    let built = db.load_or_build_dual_tables(cancel, &mut |fraction| {
        let percent = (fraction * 100.0) as i32;
        if percent / 5 != last / 5 && percent < 100 {
            console.say(&format!("building the dual lookups' tables… {percent}%"));
        }
        last = percent;
    });
    built.map_err(|e| fail(e, console))?;
    Ok(Some(Arc::new(db)))
}
