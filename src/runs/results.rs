//! The results table: one row per finished run (puzzle, algorithm, heuristic, outcome, cost
//! and statistics), exported as CSV or JSON, and [`compare`], which runs several algorithms on
//! one puzzle and makes their rows. No GUI here: the app, the `compare` subcommand and the
//! tests share it.

use serde::{Deserialize, Serialize};

use crate::puzzles::{NoWatcher, Puzzle, Report};
use crate::search::{Algorithm, CancelToken, SearchError};

/// One run in the results table. Times are in milliseconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultRow {
    /// The puzzle: its file name, or its type when it has none.
    pub puzzle: String,
    /// The algorithm's command-line name (see [`Algorithm::name`]), with weighted A*'s weight
    /// (`wastar w=2`).
    pub algorithm: String,
    /// The heuristic, for algorithms that use one; empty otherwise.
    pub heuristic: String,
    /// How the open list broke ties (`high-g`, `low-g`, `fifo`, `lifo`; see
    /// [`crate::search::TieBreak`]), for algorithms with one; empty otherwise.
    #[serde(default)]
    pub tie_break: String,
    /// How the run ended: `found`, `not_found`, `cancelled`, `memory_limit`, `timeout`,
    /// `script_error` (the puzzle's script failed; [`ResultRow::message`] says where) or
    /// `unsolvable`.
    pub outcome: String,
    /// Whether a solution was found.
    pub solved: bool,
    /// The solution's cost (0 when not solved).
    pub cost: f64,
    /// Whether the solution is guaranteed to have the least cost.
    pub optimal: bool,
    /// States expanded.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// The largest frontier (open list).
    pub peak_frontier: u64,
    /// The largest closed set: with the frontier, what the run held in memory, in states.
    pub peak_closed: u64,
    /// Wall-clock time of the search, to the microsecond.
    pub time_ms: f64,
    /// Why a run that ended at an error of the puzzle's script ended, with the line and
    /// column (`line 17, column 22: in moves: Variable not found: JUMPS`), at most
    /// [`MAX_MESSAGE_CHARS`] characters; empty for other runs.
    #[serde(default)]
    pub message: String,
}

/// The most characters of a run's error kept in its row.
pub const MAX_MESSAGE_CHARS: usize = 200;

impl ResultRow {
    /// The algorithm's name as the GUI lists it (`A*`, `Weighted A* (w = 2)`), from
    /// [`ResultRow::algorithm`].
    pub fn algorithm_label(&self) -> String {
        let mut words = self.algorithm.split_whitespace();
        let name = words.next().unwrap_or_default();
        let label =
            Algorithm::from_name(name).map_or_else(|| name.to_owned(), |a| a.label().to_owned());
        match words.next().and_then(|w| w.strip_prefix("w=")) {
            Some(weight) => format!("{label} (w = {weight})"),
            None => label,
        }
    }

    /// The row of `report`, a run on `puzzle` named `name`.
    pub fn new(name: &str, puzzle: &dyn Puzzle, report: &Report) -> Self {
        let outcome = serde_json::to_value(report.outcome)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        Self {
            puzzle: name.to_owned(),
            algorithm: match report.algorithm {
                Algorithm::WeightedAStar(w) => format!("wastar w={}", w.value()),
                a => a.name().to_owned(),
            },
            heuristic: if report.algorithm.needs_heuristic() {
                puzzle.heuristic_name()
            } else {
                String::new()
            },
            tie_break: report
                .stats
                .tie_break
                .map(|t| t.name().to_owned())
                .unwrap_or_default(),
            outcome,
            solved: report.solved,
            cost: report.cost,
            optimal: report.optimal,
            expanded: report.stats.expanded,
            generated: report.stats.generated,
            peak_frontier: report.stats.max_frontier,
            peak_closed: report.stats.max_closed,
            // Microseconds are the most a time here means.
            time_ms: (report.stats.elapsed_ms * 1000.0).round() / 1000.0,
            message: report
                .error
                .as_ref()
                .map(|e| shortened(&e.to_string()))
                .unwrap_or_default(),
        }
    }
}

/// `text` cut to [`MAX_MESSAGE_CHARS`] characters (an ellipsis said where it was cut).
fn shortened(text: &str) -> String {
    if text.chars().count() <= MAX_MESSAGE_CHARS {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(MAX_MESSAGE_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// The rows as CSV, with a header line of the field names.
///
/// # Errors
/// The CSV writer's error (none in practice: it writes to memory).
pub fn to_csv(rows: &[ResultRow]) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Reads rows written by [`to_csv`].
///
/// # Errors
/// A CSV error naming the record that does not fit.
pub fn from_csv(text: &str) -> Result<Vec<ResultRow>, csv::Error> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect()
}

/// Writes the rows to `path` as CSV if it ends in `.csv`, else as a JSON array; atomically
/// (a temporary file, then a rename).
///
/// # Errors
/// Any I/O error, or a CSV error as an I/O error.
pub fn export(rows: &[ResultRow], path: &std::path::Path) -> std::io::Result<()> {
    let is_csv = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    let text = if is_csv {
        to_csv(rows).map_err(std::io::Error::other)?
    } else {
        serde_json::to_string_pretty(rows).map_err(std::io::Error::other)? + "\n"
    };
    crate::puzzles::write_atomically(path, text.as_bytes())
}

/// Runs each of `algorithms` on `puzzle` (named `name`) in turn, headless, and makes a row of
/// each run. An algorithm that cannot run gives its error instead.
pub fn compare(
    name: &str,
    puzzle: &dyn Puzzle,
    algorithms: &[Algorithm],
    cancel: &CancelToken,
) -> Vec<Result<(ResultRow, Report), SearchError>> {
    algorithms
        .iter()
        .map(|&a| {
            let report = puzzle.solve(a, &mut NoWatcher, cancel)?;
            Ok((ResultRow::new(name, puzzle, &report), report))
        })
        .collect()
}

/// The rows as an aligned text table, a header line first.
pub fn to_table(rows: &[ResultRow]) -> String {
    let header = [
        "puzzle",
        "algorithm",
        "heuristic",
        "ties",
        "solved",
        "cost",
        "optimal",
        "expanded",
        "generated",
        "peak frontier",
        "peak closed",
        "time ms",
    ];
    let cells: Vec<Vec<String>> = std::iter::once(header.map(str::to_owned).to_vec())
        .chain(rows.iter().map(|r| {
            vec![
                r.puzzle.clone(),
                r.algorithm.clone(),
                if r.heuristic.is_empty() {
                    "-".into()
                } else {
                    r.heuristic.clone()
                },
                if r.tie_break.is_empty() {
                    "-".into()
                } else {
                    r.tie_break.clone()
                },
                if r.solved { "yes" } else { "no" }.into(),
                if r.solved {
                    crate::search::format_cost(r.cost)
                } else {
                    "-".into()
                },
                if r.optimal { "yes" } else { "no" }.into(),
                r.expanded.to_string(),
                r.generated.to_string(),
                r.peak_frontier.to_string(),
                r.peak_closed.to_string(),
                format!("{:.2}", r.time_ms),
            ]
        }))
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    cells
        .iter()
        .map(|row| {
            let padded: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, &w)| format!("{cell:<w$}"))
                .collect();
            padded.join("  ").trim_end().to_owned() + "\n"
        })
        .collect()
}
