//! The results table: rows from runs match the runs, CSV and JSON exports round-trip, and the
//! `compare` command prints the same rows.

use crate::common::puzzlelab;

use puzzlelab::puzzles::{self, NoWatcher};
use puzzlelab::runs::results::{self, ResultRow};
use puzzlelab::search::{Algorithm, CancelToken};

fn rooms() -> Box<dyn puzzles::Puzzle> {
    let (t, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "maze-rooms.txt")
        .unwrap();
    (t.parse_text)(shipped.text).unwrap()
}

fn rows() -> Vec<ResultRow> {
    let puzzle = rooms();
    let algorithms = [Algorithm::Bfs, Algorithm::AStar, Algorithm::Dfs];
    results::compare(
        "maze-rooms.txt",
        puzzle.as_ref(),
        &algorithms,
        &CancelToken::new(),
    )
    .into_iter()
    .map(|r| r.unwrap().0)
    .collect()
}

#[test]
fn rows_match_the_single_runs() {
    let puzzle = rooms();
    let rows = rows();
    assert_eq!(rows.len(), 3);
    for row in &rows {
        let algorithm = Algorithm::from_name(&row.algorithm).unwrap();
        let single = puzzle
            .solve(algorithm, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert_eq!(row.puzzle, "maze-rooms.txt");
        assert_eq!(row.solved, single.solved);
        assert_eq!(row.cost, single.cost);
        assert_eq!(row.optimal, single.optimal);
        assert_eq!(row.expanded, single.stats.expanded);
        assert_eq!(row.generated, single.stats.generated);
        assert_eq!(row.peak_frontier, single.stats.max_frontier);
        assert_eq!(row.peak_closed, single.stats.max_closed);
        assert_eq!(row.outcome, "found");
    }
    assert_eq!(rows[0].heuristic, "", "BFS uses no heuristic");
    assert_eq!(rows[1].heuristic, "Manhattan distance to the goal");
    assert!(rows[1].expanded < rows[0].expanded);
}

#[test]
fn csv_and_json_exports_round_trip() {
    let rows = rows();
    let csv = results::to_csv(&rows).unwrap();
    assert!(csv.starts_with("puzzle,algorithm,heuristic,tie_break,outcome,solved,cost,optimal,"));
    assert_eq!(results::from_csv(&csv).unwrap(), rows);

    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("runs.csv");
    results::export(&rows, &csv_path).unwrap();
    let text = std::fs::read_to_string(&csv_path).unwrap();
    assert_eq!(results::from_csv(&text).unwrap(), rows);

    let json_path = dir.path().join("runs.json");
    results::export(&rows, &json_path).unwrap();
    let back: Vec<ResultRow> =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(back, rows);

    assert!(results::from_csv("puzzle,algorithm\nx,y\n").is_err());
}

#[test]
fn the_table_lines_up_its_columns() {
    let table = results::to_table(&rows());
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4);
    let column = lines[0].find("expanded").unwrap();
    for line in &lines[1..] {
        assert!(
            line[column..].starts_with(|c: char| c.is_ascii_digit()),
            "{line}"
        );
    }
}

#[test]
fn compare_prints_the_rows() {
    let (code, stdout, _) = puzzlelab(&[
        "compare",
        "puzzles/maze-rooms.txt",
        "--algorithms",
        "bfs,astar,dfs",
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}");
    let printed: Vec<ResultRow> = serde_json::from_str(&stdout).unwrap();
    let expected = rows();
    assert_eq!(printed.len(), 3);
    for (p, e) in printed.iter().zip(&expected) {
        assert_eq!(
            (&p.algorithm, p.cost, p.expanded),
            (&e.algorithm, e.cost, e.expanded)
        );
    }
    let (code, stdout, _) = puzzlelab(&["compare", "puzzles/klondike.txt", "--csv"]);
    assert_eq!(code, 0);
    let rows = results::from_csv(&stdout).unwrap();
    let klondike = puzzles::parse(include_str!("../../puzzles/klondike.txt"), None).unwrap();
    assert_eq!(
        rows.len(),
        klondike.algorithms().len(),
        "every algorithm that applies"
    );
    let (code, _, stderr) = puzzlelab(&["compare", "puzzles/klondike.txt", "-a", "bfs,nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown algorithm `nope`"));
}
