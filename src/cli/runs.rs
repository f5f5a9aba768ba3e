//! `compare` (every algorithm on one puzzle) and `scenario` (a Moving AI scenario file run through a search).

use crate::puzzles;
use crate::puzzles::maze::movingai;
use crate::runs::results::{self, ResultRow};
use crate::search::SearchError;
use std::io::Write as _;

use super::*;

pub(super) fn compare(args: &CompareArgs) -> u8 {
    let file = &args.file;
    let (puzzle, token) = match load_within(
        file,
        args.companion.domain.as_deref(),
        args.puzzle_type.as_deref(),
        &args.limits,
        args.json,
    ) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut algorithms = Vec::new();
    for name in &args.algorithms {
        match algorithm_named(file, name) {
            Ok(a) => algorithms.push(a),
            Err(code) => return code,
        }
    }
    if algorithms.is_empty() {
        algorithms = puzzle.algorithms();
    }
    for &algorithm in &algorithms {
        if let Some(refusal) = puzzle.refusal(algorithm) {
            return bad(file, format!("{refusal} (a {})", puzzle.puzzle_type().name));
        }
    }
    let name = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut rows = Vec::new();
    let mut code = EXIT_SOLVED;
    let mut said_unsolvable = false;
    for (algorithm, run) in algorithms.iter().zip(results::compare(
        &name,
        puzzle.as_ref(),
        &algorithms,
        &token,
    )) {
        match run {
            Ok((row, report)) => {
                if let Some(message) = &report.message {
                    say!("{}: {algorithm}: the search {message}", file.display());
                }
                code = code.max(exit_code_of(&report));
                rows.push(row);
            }
            Err(SearchError::Unsolvable(reason)) => {
                // As `solve` does: no solution is an answer (exit 1), said with the file, and
                // a row for the algorithm with the outcome `unsolvable` (no search ran).
                if !said_unsolvable {
                    say!("{}: no solution: {reason}", file.display());
                    said_unsolvable = true;
                }
                code = code.max(EXIT_NO_SOLUTION);
                rows.push(unsolvable_row(&name, puzzle.as_ref(), *algorithm));
            }
            Err(e) => return bad(file, format!("{algorithm}: {e}")),
        }
    }
    let text = if args.json {
        match serde_json::to_string_pretty(&rows) {
            Ok(json) => json + "\n",
            Err(e) => return bad(file, e),
        }
    } else if args.csv {
        match results::to_csv(&rows) {
            Ok(csv) => csv,
            Err(e) => return bad(file, e),
        }
    } else {
        results::to_table(&rows)
    };
    emit!(&text);
    code
}

/// The row of `algorithm` on a puzzle known to have no solution without a search (a sliding
/// board of the wrong parity, a percolation grid whose first side is blocked): the outcome
/// `unsolvable`, nothing expanded.
fn unsolvable_row(name: &str, puzzle: &dyn puzzles::Puzzle, algorithm: Algorithm) -> ResultRow {
    ResultRow {
        puzzle: name.to_owned(),
        algorithm: match algorithm {
            Algorithm::WeightedAStar(w) => format!("wastar w={}", w.value()),
            a => a.name().to_owned(),
        },
        heuristic: if algorithm.needs_heuristic() {
            puzzle.heuristic_name()
        } else {
            String::new()
        },
        tie_break: String::new(),
        outcome: "unsolvable".to_owned(),
        solved: false,
        cost: 0.0,
        optimal: false,
        expanded: 0,
        generated: 0,
        peak_frontier: 0,
        peak_closed: 0,
        time_ms: 0.0,
        message: String::new(),
    }
}

pub(super) fn scenario(args: &ScenarioArgs) -> u8 {
    let scen = &args.scen;
    let text = match puzzles::read_text_file(scen) {
        Ok(t) => t,
        Err(e) => {
            say!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let mut scenario = match movingai::parse_scenario(&text) {
        Ok(s) => s,
        Err(e) => return bad(scen, e),
    };
    let Some(map_path) = args.map.clone().or_else(|| scenario.find_map(scen)) else {
        return bad(
            scen,
            format!(
                "cannot find the map `{}` it names; give it with --map",
                scenario.map
            ),
        );
    };
    let maze = match puzzles::read_text_file(&map_path) {
        Ok(text) => match movingai::parse_map(&text) {
            Ok(maze) => maze,
            Err(e) => return bad(&map_path, e),
        },
        Err(e) => {
            say!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    if let Err(e) = scenario.check_map(&maze) {
        return bad(scen, format!("on {}: {e}", map_path.display()));
    }
    let algorithm = match algorithm_named(scen, &args.algorithm) {
        Ok(a) => a,
        Err(code) => return code,
    };
    if let Some(refusal) = algorithm.refusal(&maze) {
        return bad(scen, refusal);
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
                if let Err(code) = write_out(&text) {
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
        && let Err(code) = write_out(&text)
    {
        write_failed = Some(code);
    }
    if let Some(code) = write_failed {
        return code;
    }
    if let Some(why) = &summary.stopped {
        say!("{}: {why}", scen.display());
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
            return bad(scen, e);
        }
        out.push(b'\n');
        // Written as it is: serde_json writes UTF-8 (no check of a copy per run).
        if let Err(code) = super::write_bytes(&out) {
            return code;
        }
    } else {
        emit!(&format!("{}; {algorithm}\n", summary.line(total)));
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
