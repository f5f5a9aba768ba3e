//! Rush Hour: the published figure of Michael Fogleman's example (49 moves), optimal counts
//! that agree between BFS, A* and Dijkstra in both metrics on random boards, an unsolvable
//! board, bad files with their line and column, and the `solve --metric` and `states`
//! commands.

use crate::common::puzzlelab;

use puzzlelab::puzzles::rush_hour::{Metric, RushHour};
use puzzlelab::puzzles::{self, Cell, NoWatcher, Puzzle, Report};
use puzzlelab::search::{Algorithm, CancelToken, Outcome, Problem};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const FOGLEMAN: &str = include_str!("../../puzzles/rush-hour-fogleman-49.txt");

fn solve(board: &RushHour, algorithm: Algorithm) -> Report {
    board
        .solve(algorithm, &mut NoWatcher, &CancelToken::new())
        .unwrap()
}

fn with_metric(text: &str, metric: Metric) -> RushHour {
    let mut board = RushHour::from_text(text).unwrap();
    board.set_metric(metric);
    board
}

/// Every move of the report is a legal successor and the last state is solved.
fn assert_replays_to_solved(board: &RushHour, report: &Report) {
    let states = puzzles::replay(board, &report.moves)
        .unwrap_or_else(|i| panic!("move {i} ({}) is not legal", report.moves[i]));
    assert!(board.is_goal(states.last().unwrap()).unwrap());
}

#[test]
fn fogleman_example_takes_49_moves() {
    // Published in the README of https://github.com/fogleman/rush: "# moves: 49".
    let board = with_metric(FOGLEMAN, Metric::Moves);
    for algorithm in [Algorithm::Bfs, Algorithm::AStar] {
        let report = solve(&board, algorithm);
        assert!(report.solved && report.optimal, "{algorithm:?}");
        assert_eq!(report.moves.len(), 49, "{algorithm:?}");
        assert_replays_to_solved(&board, &report);
    }
}

/// A random board of side 6: the red car on row 2, then up to `vehicles` vehicles of length
/// 2 or 3 placed at random where they fit, and a wall now and then.
fn random_board(rng: &mut StdRng, vehicles: usize) -> RushHour {
    let mut board = RushHour::empty(6).unwrap();
    let col: usize = rng.random_range(0..3);
    board.paint(Cell::new(2, col), 0);
    for _ in 0..vehicles {
        let cell = Cell::new(rng.random_range(0..6), rng.random_range(0..6));
        let len = rng.random_range(2..=3);
        let _ = board.place(cell, len, rng.random_bool(0.5));
    }
    if rng.random_bool(0.2) {
        let _ = board.toggle_wall(Cell::new(rng.random_range(0..6), rng.random_range(0..6)));
    }
    board
}

#[test]
fn optimal_counts_agree_between_bfs_astar_and_dijkstra_in_both_metrics() {
    let mut rng = StdRng::seed_from_u64(2026);
    let mut solved = 0;
    for _ in 0..40 {
        let base = random_board(&mut rng, 9);
        for metric in [Metric::Moves, Metric::Steps] {
            let mut board = base.clone();
            board.set_metric(metric);
            let bfs = solve(&board, Algorithm::Bfs);
            let astar = solve(&board, Algorithm::AStar);
            let dijkstra = solve(&board, Algorithm::Dijkstra);
            assert_eq!(bfs.solved, astar.solved, "{}", board.to_text());
            assert_eq!(bfs.solved, dijkstra.solved);
            if bfs.solved {
                solved += 1;
                assert_eq!(bfs.cost, astar.cost, "{}", board.to_text());
                assert_eq!(bfs.cost, dijkstra.cost, "{}", board.to_text());
                assert_replays_to_solved(&board, &astar);
            } else {
                assert_eq!(bfs.outcome, Outcome::NotFound);
            }
        }
    }
    assert!(solved >= 20, "only {solved} boards were solvable");
}

#[test]
fn a_wall_in_the_red_cars_way_means_no_solution() {
    let board = RushHour::from_text("......\n......\nAA..x.\n......\n......\n......\n").unwrap();
    let report = solve(&board, Algorithm::Bfs);
    assert!(!report.solved);
    assert_eq!(report.outcome, Outcome::NotFound);
}

#[test]
fn bad_files_say_where() {
    let cases = [
        (
            "......\n......\nAA.B..\n......\n......\n......\n",
            "line 3",
            "one cell",
        ),
        (
            "......\n.BB...\nAAB...\n......\n......\n......\n",
            "line 2",
            "straight",
        ),
        (
            "......\nB.....\n.BAA..\n......\n......\n......\n",
            "line 2",
            "straight",
        ),
        (
            "......\n......\nAA..AA\n......\n......\n......\n",
            "line 3",
            "straight",
        ),
        (
            "......\nA.....\nA.....\n......\n......\n......\n",
            "line 2",
            "horizontal",
        ),
        (
            "......\n......\nAA....\n.....\n......\n......\n",
            "line 4",
            "5 cells",
        ),
        (
            "......\n......\nAA..?.\n......\n......\n......\n",
            "column 5",
            "unexpected",
        ),
        (
            "......\n......\n......\n......\n......\n......\n",
            "",
            "no red car",
        ),
    ];
    for (text, place, what) in cases {
        let err = RushHour::from_text(text).unwrap_err().to_string();
        assert!(err.contains(place), "{err}");
        assert!(err.contains(what), "{err}");
    }
}

#[test]
fn text_and_json_round_trip_and_the_type_is_recognised() {
    let board = with_metric(FOGLEMAN, Metric::Steps);
    let again = RushHour::from_text(&board.to_text()).unwrap();
    assert_eq!(again, board);
    let parsed = puzzles::parse(&board.to_json().to_string(), None).unwrap();
    assert_eq!(parsed.puzzle_type().name, "rush-hour");
    assert_eq!(parsed.to_text(), board.to_text());
    assert_eq!(
        puzzles::parse(FOGLEMAN, None).unwrap().puzzle_type().name,
        "rush-hour"
    );
}

#[test]
fn every_shipped_board_solves_by_bfs_and_astar_alike() {
    for (t, shipped) in puzzles::shipped().filter(|(t, _)| t.name == "rush-hour") {
        let board = (t.parse_text)(shipped.text).unwrap();
        let bfs = board
            .solve(Algorithm::Bfs, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        let astar = board
            .solve(Algorithm::AStar, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert!(bfs.solved, "{}", shipped.file);
        assert_eq!(bfs.cost, astar.cost, "{}", shipped.file);
    }
}

#[test]
fn the_command_line_solves_in_both_metrics_and_counts_states() {
    let file = "puzzles/rush-hour-fogleman-49.txt";
    let (code, out, _) = puzzlelab(&["solve", file, "--metric", "moves"]);
    assert_eq!(code, 0);
    assert!(out.contains("49 moves"), "{out}");
    let (code, out, _) = puzzlelab(&["solve", file, "--set", "metric=steps", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["solved"], true);
    let (code, _, err) = puzzlelab(&["solve", file, "--metric", "piece"]);
    assert_eq!(code, 2);
    assert!(err.contains("moves, steps"), "{err}");
    let (code, _, err) = puzzlelab(&["solve", file, "--moves", "8"]);
    assert_eq!(code, 2);
    assert!(err.contains("metric=moves|steps"), "{err}");
    let (code, out, _) = puzzlelab(&["states", file]);
    assert_eq!(code, 0);
    assert!(out.contains("reachable states: 24132"), "{out}");
    assert!(out.contains("solved states: 1023"), "{out}");
}

/// A drag is one slide however many cells it passes: one move in the `moves` metric, the
/// cells from where it began in `steps`; a new drag is a move of its own.
#[test]
fn a_drag_by_hand_counts_as_one_slide_in_the_metric() {
    let text = "......\n......\nAA....\n......\n......\n......\n";
    let mut board = RushHour::from_text(text).unwrap();
    board.begin_stroke();
    for col in 2..=4 {
        assert!(board.paint(Cell::new(2, col), 0));
    }
    assert_eq!(board.moves_played_by_hand(), 1, "three cells, one slide");
    board.begin_stroke();
    assert!(board.paint(Cell::new(2, 0), 0));
    assert_eq!(board.moves_played_by_hand(), 2, "a new drag is a new move");

    let mut steps = RushHour::from_text(&format!("metric: steps\n{text}")).unwrap();
    steps.begin_stroke();
    for col in 2..=4 {
        assert!(steps.paint(Cell::new(2, col), 0));
    }
    // Back one cell within the same drag (to columns 2 and 3): 2 cells from where it
    // began, whatever it passed on the way.
    assert!(steps.paint(Cell::new(2, 2), 0));
    assert_eq!(steps.vehicle_at(Cell::new(2, 2)), Some(0));
    assert_eq!(steps.vehicle_at(Cell::new(2, 4)), None);
    assert_eq!(steps.moves_played_by_hand(), 2);
    steps.begin_stroke();
    assert!(steps.paint(Cell::new(2, 5), 0));
    assert_eq!(steps.moves_played_by_hand(), 4);
    // A drag back to where it began is no move.
    steps.begin_stroke();
    assert!(steps.paint(Cell::new(2, 2), 0));
    assert!(steps.paint(Cell::new(2, 5), 0));
    assert_eq!(steps.vehicle_at(Cell::new(2, 4)), Some(0));
    assert_eq!(steps.moves_played_by_hand(), 4);
}
