//! `puzzlelab bench sliding`: optimal IDA* on a batch of sliding tile puzzles in one process,
//! with per-instance and total figures (length, expanded, generated, time, nodes a second).

use std::io::Write as _;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::{EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_SOLVED, LimitArgs, bad, ranged, write_out};
use crate::puzzles::sliding::{Sliding, TileHeuristic, stratified};
use crate::puzzles::{self, NoWatcher, Puzzle as _};
use crate::search::{Algorithm, CancelToken, Outcome};

#[derive(Debug, clap::Args)]
pub(super) struct SlidingArgs {
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
          value_parser = ranged(crate::puzzles::sliding::MIN_SIDE, crate::puzzles::sliding::MAX_SIDE))]
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
    #[arg(long, value_name = "K/N", value_parser = puzzles::batch::parse_shard)]
    shard: Option<puzzles::batch::Shard>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Why the tables could not be prepared: the exit code and, for a limit reached, its outcome
/// and message.
type PrepareError = (u8, Option<(Outcome, String)>);

/// One board of the batch and where it came from (the seed, or the file's line).
struct Instance {
    board: Sliding,
    seed: Option<u64>,
    line: Option<usize>,
}

/// The tiles `numbers` (in reading order, separated by spaces) as the rows of a square board,
/// and its side; an error naming `what` when they are not a square number of at least 4.
fn rows_of(numbers: &str, what: &str) -> Result<(String, usize), String> {
    let tiles: Vec<&str> = numbers.split_whitespace().collect();
    let side = (tiles.len() as f64).sqrt().round() as usize;
    if side * side != tiles.len() || side < 2 {
        return Err(format!(
            "{what} has {} numbers, not a square board's (16 for the 15-puzzle)",
            tiles.len()
        ));
    }
    let rows = tiles
        .chunks(side)
        .map(|row| row.join(" "))
        .collect::<Vec<_>>()
        .join("\n");
    Ok((rows, side))
}

/// The goal of `--goal` as a solved board (the tiles checked as a board's), or the solved
/// board of `side` (default 4) without it; `--side` must agree with the goal's.
fn solved_board(goal: Option<&str>, side: Option<usize>) -> Result<Sliding, String> {
    let Some(goal) = goal else {
        let side = side.unwrap_or(4);
        return Sliding::solved(side, side).map_err(|e| e.to_string());
    };
    let (rows, goal_side) = rows_of(goal, "--goal")?;
    if let Some(side) = side.filter(|&s| s != goal_side) {
        return Err(format!(
            "--goal is a {goal_side} x {goal_side} board, --side {side} asks for {side} x {side}"
        ));
    }
    Sliding::from_text(&format!("{rows}\ngoal:\n{rows}"))
        .map_err(|e| format!("--goal is not a board's goal: {e}"))
}

/// The boards of `--instances`: one per line, each a square number of tiles.
fn read_instances(path: &Path, goal: Option<&str>) -> Result<Vec<Instance>, String> {
    let text = puzzles::read_text_file(path).map_err(|e| e.to_string())?;
    let goal_rows = goal
        .map(|g| rows_of(g, "--goal").map(|(rows, _)| rows))
        .transpose()?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // A `#` starts a comment, on a line of its own or after a board.
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let what = format!("line {}", i + 1);
        let (mut board, _) = rows_of(line, &what)?;
        if let Some(goal) = &goal_rows {
            board = format!("{board}\ngoal:\n{goal}");
        }
        let sliding = Sliding::from_text(&board).map_err(|e| format!("{what}: {e}"))?;
        if let Err(reason) = sliding.check_solvable() {
            return Err(format!("{what}: no solution: {reason}"));
        }
        out.push(Instance {
            board: sliding,
            seed: None,
            line: Some(i + 1),
        });
    }
    if out.is_empty() {
        return Err("no boards in the file".into());
    }
    if out
        .iter()
        .any(|b| (b.board.rows(), b.board.goal()) != (out[0].board.rows(), out[0].board.goal()))
    {
        return Err("the boards differ in size: one size a batch".into());
    }
    Ok(out)
}

/// `bench sliding`: loads the tables once, solves each board of the batch with IDA*, then
/// prints the rows and the totals.
pub(super) fn sliding(args: &SlidingArgs) -> u8 {
    let Some(heuristic) = TileHeuristic::from_name(&args.heuristic) else {
        say!(
            "unknown heuristic `{}` (known: misplaced, manhattan, linear_conflict, pdb, pdb78)",
            args.heuristic
        );
        return EXIT_BAD_INPUT;
    };
    let mut instances = match batch(args) {
        Ok(list) => list,
        Err(code) => return code,
    };
    if let Some(n) = args.threads.filter(|&n| n > 1) {
        // The first pool set in the process wins; the command line sets none before this.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    let core = crate::puzzles::sliding::ida::Options {
        dual: args.dual.as_deref() == Some("on"),
        parallel: args.threads != Some(1),
        transpositions: args.transpositions.as_deref() != Some("off"),
        ..crate::puzzles::sliding::ida::Options::default()
    };
    let cancel = args.limits.token();
    // The databases are loaded (or built) once, before the clock of the first instance.
    let load_started = Instant::now();
    let db = match prepare(&mut instances[0].board, heuristic, core.dual, &cancel) {
        Ok(db) => db,
        Err((code, limit)) => return stopped_preparing(args.json, heuristic, code, limit),
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
        .map(|db| crate::puzzles::sliding::forecast::Forecast::sample(db, 20_000, 1));
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
                    forecast_iterations(i, db, f, &instance.board, &mut r, args, &cancel);
                }
                r
            }
            Err(e) => {
                say!("instance {i}: {e}");
                return EXIT_BAD_INPUT;
            }
        };
        if let Some(message) = &report.message {
            say!("instance {i}: the search {message}");
            // The rows solved so far are still reported, with how the batch ended.
            stopped = Some((
                report.outcome,
                format!("instance {i}: the search {message}"),
            ));
            break;
        }
        match instance_row(i, instance, &report, args.json) {
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
    totals(args.json, &tables, &rows, stopped.as_ref())
}

/// The boards of the batch: those of `--instances`, or random ones solvable towards the goal
/// (scrambled from it); `Err` is the exit code, the reason printed.
fn batch(args: &SlidingArgs) -> Result<Vec<Instance>, u8> {
    if let Some(path) = &args.instances {
        return read_instances(path, args.goal.as_deref()).map_err(|e| bad(path, e));
    }
    let solved = solved_board(args.goal.as_deref(), args.side).map_err(|e| {
        say!("{e}");
        EXIT_BAD_INPUT
    })?;
    let mut list = Vec::new();
    for i in 0..args.count {
        let seed = args.seed.wrapping_add(i as u64);
        let mut board = solved.clone();
        board.scramble_uniform(seed);
        list.push(Instance {
            board,
            seed: Some(seed),
            line: None,
        });
    }
    Ok(list)
}

/// The exit code `code` of a batch whose tables could not be prepared; for a limit reached
/// while building them, with `--json`, the (empty) batch and how it ended are printed first.
fn stopped_preparing(
    json: bool,
    heuristic: TileHeuristic,
    code: u8,
    limit: Option<(Outcome, String)>,
) -> u8 {
    if let (true, Some((outcome, message))) = (json, limit) {
        let v = serde_json::json!({
            "heuristic": heuristic.name(),
            "instances": [],
            "complete": false,
            "outcome": outcome,
            "message": message,
        });
        emit!(&format!("{v:#}\n"));
    }
    code
}

/// Forecasts the expansions of each iteration of instance `i`'s `report` (solved on `board`),
/// by stratified sampling with `--forecast-probes` probes; a time limit leaves the rest
/// without, and says so.
fn forecast_iterations(
    i: usize,
    db: &crate::puzzles::sliding::pattern_db::PatternDb,
    forecast: &crate::puzzles::sliding::forecast::Forecast,
    board: &Sliding,
    report: &mut crate::puzzles::Report,
    args: &SlidingArgs,
    cancel: &CancelToken,
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
        say!(
            "instance {i}: the forecasts stopped at the time limit; the iterations not \
             forecast have none"
        );
    }
}

/// The JSON row of instance `i` solved in `report`; without `--json` its line is printed too
/// (`Err`: the exit code when standard output fails).
fn instance_row(
    i: usize,
    instance: &Instance,
    report: &crate::puzzles::Report,
    json: bool,
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
        write_out(&format!(
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
    core: crate::puzzles::sliding::ida::Options,
    load_ms: f64,
    /// What a shard of the batch says of itself (`--shard`).
    shard: Option<serde_json::Value>,
}

/// The `total` object of the JSON over the instances' `rows`: expanded, generated, the
/// solving time and the nodes generated a second (also `merge`'s, over the shards' rows).
pub(super) fn total_json(rows: &[serde_json::Value]) -> serde_json::Value {
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
        emit!(&format!("{v:#}\n"));
    } else {
        let total = if stopped.is_some() {
            "total before the limit"
        } else {
            "total"
        };
        emit!(&format!(
            "{total}: {} instances, {} expanded, {} generated, {ms:.1} ms solving ({:.1} ms and {:.0} expansions an instance, {:.1} M nodes/s); databases loaded in {load_ms:.0} ms\n",
            rows.len(),
            expanded as u64,
            generated as u64,
            ms / n,
            expanded / n,
            per_second / 1e6
        ));
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
) -> Result<Option<Arc<crate::puzzles::sliding::pattern_db::PatternDb>>, PrepareError> {
    board.set_heuristic(heuristic);
    if heuristic.pdb_set(board.rows(), board.cols()).is_none() {
        return Ok(None);
    }
    if !board.pattern_db_possible() {
        say!(
            "the heuristic {} does not apply to a {} x {} board",
            heuristic.name(),
            board.rows(),
            board.cols()
        );
        return Err((EXIT_BAD_INPUT, None));
    }
    let mut last = -1;
    let prepared = board.prepare(false, cancel, &mut |fraction| {
        let percent = (fraction * 100.0) as i32;
        if percent / 5 != last / 5 && percent < 100 {
            say!("building pattern databases… {percent}%");
        }
        last = percent;
    });
    let fail = |e: crate::puzzles::sliding::pattern_db::PdbError| {
        say!("{e}");
        match e.limit_outcome() {
            Some(outcome) => (EXIT_LIMIT, Some((outcome, e.to_string()))),
            None => (EXIT_BAD_INPUT, None),
        }
    };
    prepared.map_err(fail)?;
    let Some(db) = board.attached_db().cloned() else {
        return Ok(None);
    };
    if !dual {
        return Ok(Some(db));
    }
    // The dual lookups' minus and carrier tables, cached beside the databases.
    let mut db = Arc::unwrap_or_clone(db);
    let mut last = -1;
    db.load_or_build_dual_tables(cancel, &mut |fraction| {
        let percent = (fraction * 100.0) as i32;
        if percent / 5 != last / 5 && percent < 100 {
            say!("building the dual lookups' tables… {percent}%");
        }
        last = percent;
    })
    .map_err(fail)?;
    Ok(Some(Arc::new(db)))
}
