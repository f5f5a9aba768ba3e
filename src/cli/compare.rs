//! `compare`: every algorithm on one puzzle, a row each.

use crate::puzzles;
use crate::runs::results::{self, ResultRow};
use crate::search::SearchError;
use std::io::Write as _;

use super::*;

pub(super) fn compare(args: &CompareArgs) -> u8 {
    let file = &args.puzzle.file;
    let (puzzle, token) = match args.puzzle.load(args.json) {
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
