//! Klotski (`002_6d7bc12a9da3d476.txt`): the classic layout's published figures, every shipped
//! layout's optimum by two algorithms and both metrics, legal replays, playing by hand, bad
//! input, and the `solve --metric` and `states` commands.

use crate::common::puzzlelab;

use puzzlelab::puzzles::klotski::{Klotski, Metric};
use puzzlelab::puzzles::{self, Cell, NoWatcher, Puzzle, Report};
use puzzlelab::search::{Algorithm, CancelToken, Outcome, Problem};

const CLASSIC: &str = include_str!("../../puzzles/klotski-classic.txt");

fn layout(text: &str, metric: Metric) -> Klotski {
    let mut k = Klotski::from_text(text).unwrap();
    k.set_metric(metric);
    k
}

fn solve(k: &Klotski, algorithm: Algorithm) -> Report {
    k.solve(algorithm, &mut NoWatcher, &CancelToken::new())
        .unwrap()
}

/// Every move of the report is a legal successor and the last state is solved.
fn assert_replays_to_solved(k: &Klotski, report: &Report) {
    let states = puzzles::replay(k, &report.moves)
        .unwrap_or_else(|i| panic!("move {i} ({}) is not legal", report.moves[i]));
    assert!(k.is_goal(states.last().unwrap()).unwrap());
    assert!(!k.is_goal(&states[0]).unwrap());
}

#[test]
fn classic_takes_116_unit_moves_and_81_piece_moves() {
    let unit = solve(&layout(CLASSIC, Metric::Unit), Algorithm::Bfs);
    assert_eq!(unit.outcome, Outcome::Found);
    assert!(unit.optimal);
    assert_eq!(unit.cost, 116.0);
    assert_eq!(unit.moves.len(), 116);
    assert!(unit.notes.iter().any(|n| n.starts_with("metric: unit")));

    let piece = solve(&layout(CLASSIC, Metric::Piece), Algorithm::Bfs);
    assert_eq!(piece.cost, 81.0);
    assert!(piece.notes.iter().any(|n| n.starts_with("metric: piece")));
}

#[test]
fn classic_has_25955_reachable_states() {
    let count = layout(CLASSIC, Metric::Unit).count_states(&CancelToken::new());
    assert_eq!(count.states, 25_955);
    assert_eq!(count.goals, 964);
    // The piece metric joins the same positions, so the space is the same.
    let count = layout(CLASSIC, Metric::Piece).count_states(&CancelToken::new());
    assert_eq!(count.states, 25_955);
}

#[test]
fn every_shipped_layout_bfs_and_astar_agree_with_the_published_optimum() {
    // (file, unit-metric optimum found by BFS, published piece-metric optimum)
    let published = [
        ("klotski-classic.txt", 116.0, 81.0),
        ("klotski-zhi-hui-ruo-ding.txt", 100.0, 70.0),
        ("klotski-qi-tou-bing-jin.txt", 85.0, 60.0),
        ("klotski-jiang-yong-cao-ying.txt", 101.0, 72.0),
        ("klotski-bing-fen-san-lu.txt", 92.0, 72.0),
        ("klotski-feng-hui-lu-zhuan.txt", 179.0, 138.0),
        ("klotski-pennant.txt", 83.0, 59.0),
    ];
    let shipped: Vec<_> = puzzles::shipped()
        .filter(|(t, _)| t.name == "klotski")
        .collect();
    assert_eq!(shipped.len(), published.len());
    for (_, file) in shipped {
        let &(_, unit_cost, piece_cost) = published
            .iter()
            .find(|(f, _, _)| *f == file.file)
            .unwrap_or_else(|| panic!("{} has no published figure here", file.file));
        for (metric, cost) in [(Metric::Unit, unit_cost), (Metric::Piece, piece_cost)] {
            let k = layout(file.text, metric);
            for algorithm in [Algorithm::Bfs, Algorithm::AStar] {
                let report = solve(&k, algorithm);
                assert!(report.optimal, "{} {algorithm}", file.file);
                assert_eq!(report.cost, cost, "{} {metric:?} {algorithm}", file.file);
                assert_replays_to_solved(&k, &report);
            }
        }
    }
}

#[test]
fn astar_expands_fewer_states_than_bfs_on_the_classic() {
    let k = layout(CLASSIC, Metric::Unit);
    let bfs = solve(&k, Algorithm::Bfs);
    let astar = solve(&k, Algorithm::AStar);
    assert!(astar.stats.expanded <= bfs.stats.expanded);
}

#[test]
fn depth_first_finds_a_long_legal_solution() {
    let k = layout(CLASSIC, Metric::Unit);
    let report = solve(&k, Algorithm::Dfs);
    assert_eq!(report.outcome, Outcome::Found);
    assert!(!report.optimal);
    // The article reports a depth-first solution of 700+ moves.
    assert!(report.moves.len() > 116, "{}", report.moves.len());
    assert_replays_to_solved(&k, &report);
}

#[test]
fn solution_boards_follow_the_moves() {
    let report = solve(&layout(CLASSIC, Metric::Piece), Algorithm::Bfs);
    assert_eq!(report.boards.len(), report.moves.len() + 1);
    let start = Klotski::from_text(CLASSIC).unwrap().picture();
    assert_eq!(report.boards[0].squares, start.squares);
    // The goal area is the target's four cells at rows 3-4, columns 1-2.
    let mut goal = start.goal_area.clone();
    goal.sort();
    assert_eq!(
        goal,
        vec![
            Cell::new(3, 1),
            Cell::new(3, 2),
            Cell::new(4, 1),
            Cell::new(4, 2)
        ]
    );
}

#[test]
fn dragging_plays_only_legal_moves_with_undo_redo_and_reset() {
    let mut k = Klotski::from_text(CLASSIC).unwrap();
    // The soldier g at (3,1) can go down into the empty (4,1).
    assert_eq!(k.piece_at(Cell::new(3, 1)), Some('g'));
    assert!(k.drag(Cell::new(3, 1), Cell::new(4, 1)));
    assert_eq!(k.piece_at(Cell::new(4, 1)), Some('g'));
    assert_eq!(k.piece_at(Cell::new(3, 1)), None);
    assert_eq!(k.moves_played(), 1);
    // The big block cannot move: it is boxed in.
    assert!(!k.drag(Cell::new(1, 1), Cell::new(2, 1)));
    // Not a neighbour, or off the board.
    assert!(!k.drag(Cell::new(4, 1), Cell::new(2, 1)));
    assert!(!k.drag(Cell::new(4, 0), Cell::new(5, 0)));
    // Nothing to drag from an empty cell.
    assert!(!k.drag(Cell::new(3, 1), Cell::new(4, 1)));

    assert!(k.undo());
    assert_eq!(k.piece_at(Cell::new(3, 1)), Some('g'));
    assert!(!k.undo());
    assert!(k.redo());
    assert_eq!(k.piece_at(Cell::new(4, 1)), Some('g'));
    assert!(!k.redo());
    k.reset();
    assert_eq!(k.piece_at(Cell::new(3, 1)), Some('g'));
    assert_eq!(k.moves_played(), 0);
}

#[test]
fn l_shaped_pieces_slide_and_solve() {
    // An L (three cells) must move out of the target's way.
    let text = "target: A\ngoal: 2 0\nAL.\nLL.\n...\n";
    let k = layout(text, Metric::Unit);
    let report = solve(&k, Algorithm::Bfs);
    assert_eq!(report.outcome, Outcome::Found);
    assert_replays_to_solved(&k, &report);
    // The L moves right, then A goes down twice.
    assert_eq!(report.cost, 3.0);
    // An L does not fit where its bounding box would not.
    let mut k = Klotski::from_text(text).unwrap();
    assert!(k.drag(Cell::new(1, 0), Cell::new(1, 1)));
    assert_eq!(k.piece_at(Cell::new(1, 2)), Some('L'));
    assert_eq!(k.piece_at(Cell::new(0, 2)), Some('L'));
    assert!(!k.drag(Cell::new(1, 1), Cell::new(1, 2)));
}

#[test]
fn distinct_pieces_make_a_larger_state_space() {
    let merged = layout(CLASSIC, Metric::Unit).count_states(&CancelToken::new());
    let text = CLASSIC.replace("target: A", "target: A\ndistinct: b c");
    let k = layout(&text, Metric::Unit);
    let split = k.count_states(&CancelToken::new());
    assert!(split.states > merged.states);
    // Distinct pieces survive a round trip through both formats.
    assert!(k.to_text().contains("distinct: b c"));
    let again = Klotski::from_json(k.to_json()).unwrap();
    assert_eq!(again.count_states(&CancelToken::new()).states, split.states);
}

#[test]
fn an_unsolvable_layout_is_reported_not_found() {
    // The target can never pass the 1x3 bar across the board.
    let text = "target: A\ngoal: 3 0\nA..\nBBB\n...\n...\n";
    let k = layout(text, Metric::Unit);
    for algorithm in [Algorithm::Bfs, Algorithm::AStar, Algorithm::Dfs] {
        let report = solve(&k, algorithm);
        assert_eq!(report.outcome, Outcome::NotFound, "{algorithm}");
        assert!(!report.solved);
    }
}

fn text_error(text: &str) -> String {
    Klotski::from_text(text).unwrap_err().to_string()
}

fn json_error(value: serde_json::Value) -> String {
    Klotski::from_json(value).unwrap_err().to_string()
}

#[test]
fn bad_text_layouts_are_rejected_with_reasons() {
    let e = text_error("target: A\ngoal: 1 0\nAb\n.A\n");
    assert!(e.contains("piece A") && e.contains("not connected"), "{e}");
    let e = text_error("goal: 1 0\nA.\n..\n");
    assert!(e.contains("no target"), "{e}");
    let e = text_error("target: Z\ngoal: 1 0\nA.\n..\n");
    assert!(e.contains("target Z is not on the board"), "{e}");
    let e = text_error("target: A\ngoal: 5 0\nA.\n..\n");
    assert!(e.contains("off the"), "{e}");
    // A goal on the board that would put part of the 2x2 target off it.
    let e = text_error("target: A\ngoal: 1 1\nAA\nAA\n");
    assert!(e.contains("off the"), "{e}");
    let e = text_error("target: A\ngoal: 1 0\nA.\n.\n");
    assert!(e.contains("ragged"), "{e}");
    let e = text_error("target: A\ngoal: 1 0\nA*\n..\n");
    assert!(e.contains("unknown character"), "{e}");
    let e = text_error("target: A\ngoal: one 0\nA.\n..\n");
    assert!(e.contains("goal"), "{e}");
    let e = text_error("target: A\ngoal: 0 0\nA..........\n");
    assert!(e.contains("at most 10"), "{e}");
}

#[test]
fn bad_json_layouts_are_rejected_with_reasons() {
    let base = serde_json::json!({
        "type": "klotski", "version": 1, "rows": 2, "cols": 2,
        "pieces": {"A": [{"row": 0, "col": 0}], "b": [{"row": 0, "col": 1}]},
        "target": "A", "goal": {"row": 1, "col": 0}
    });
    assert!(Klotski::from_json(base.clone()).is_ok());

    let mut overlap = base.clone();
    overlap["pieces"]["b"] = serde_json::json!([{"row": 0, "col": 0}]);
    let e = json_error(overlap);
    assert!(e.contains("overlap"), "{e}");

    let mut outside = base.clone();
    outside["pieces"]["b"] = serde_json::json!([{"row": 2, "col": 1}]);
    let e = json_error(outside);
    assert!(e.contains("outside"), "{e}");

    let mut goal_off = base.clone();
    goal_off["goal"] = serde_json::json!({"row": 0, "col": 7});
    let e = json_error(goal_off);
    assert!(e.contains("off the"), "{e}");

    let mut no_target = base;
    no_target.as_object_mut().unwrap().remove("target");
    let e = json_error(no_target);
    assert!(e.contains("target"), "{e}");
}

#[test]
fn cli_solves_the_classic_in_both_metrics() {
    for (metric, cost) in [("unit", 116.0), ("piece", 81.0)] {
        let (code, stdout, _) = puzzlelab(&[
            "solve",
            "puzzles/klotski-classic.txt",
            "--metric",
            metric,
            "--json",
        ]);
        assert_eq!(code, 0, "{stdout}");
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(v["type"], "klotski");
        assert_eq!(v["cost"], cost);
        assert_eq!(v["optimal"], true);
        assert!(v["notes"].as_array().unwrap().iter().any(|n| {
            n.as_str()
                .unwrap()
                .starts_with(&format!("metric: {metric}"))
        }));
    }
    let (code, _, _) = puzzlelab(&[
        "solve",
        "puzzles/klotski-classic.txt",
        "--metric",
        "diagonal",
    ]);
    assert_eq!(code, 2);
    let (code, _, _) = puzzlelab(&["solve", "puzzles/klondike.txt", "--metric", "unit"]);
    assert_eq!(code, 2);
}

#[test]
fn cli_counts_states() {
    let (code, stdout, _) = puzzlelab(&["states", "puzzles/klotski-classic.txt", "--json"]);
    assert_eq!(code, 0, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["states"], 25_955);
    assert_eq!(v["solved_states"], 964);
    let (code, stdout, _) = puzzlelab(&["states", "puzzles/klotski-pennant.txt"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("reachable states: "), "{stdout}");
}

#[test]
fn the_editor_places_removes_and_retargets_pieces() {
    use puzzlelab::puzzles::klotski::{EditError, Shape, Tool};
    let mut k = Klotski::from_text(CLASSIC).unwrap();
    // Two 1x1 pieces fill the empty cells; then nothing more fits.
    k.apply_tool(Tool::Place(Shape::Single), Cell::new(4, 1))
        .unwrap();
    assert!(matches!(
        k.apply_tool(Tool::Place(Shape::Wide), Cell::new(4, 2)),
        Err(EditError::DoesNotFit { .. })
    ));
    let placed = k.piece_at(Cell::new(4, 1)).unwrap();
    assert!(k.to_text().contains(&format!("i{placed}.j")));
    // The new piece is interchangeable with the other soldiers: the state space shrinks to
    // the positions with one empty cell.
    assert!(k.count_states(&CancelToken::new()).states < 25_955);
    // The target cannot be removed; other pieces can.
    assert_eq!(
        k.apply_tool(Tool::Remove, Cell::new(0, 1)),
        Err(EditError::RemoveTarget)
    );
    k.apply_tool(Tool::Remove, Cell::new(4, 1)).unwrap();
    assert_eq!(k.piece_at(Cell::new(4, 1)), None);
    assert_eq!(
        k.apply_tool(Tool::Remove, Cell::new(4, 1)),
        Err(EditError::NoPiece(Cell::new(4, 1)))
    );
    // A new target keeps the goal where it fits there.
    k.apply_tool(Tool::Target, Cell::new(2, 1)).unwrap();
    assert!(
        k.to_text().starts_with("target: e\ngoal: 3 1\n"),
        "{}",
        k.to_text()
    );
    assert_eq!(
        k.apply_tool(Tool::Goal, Cell::new(4, 3)),
        Err(EditError::GoalDoesNotFit(Cell::new(4, 3)))
    );
    k.apply_tool(Tool::Goal, Cell::new(4, 0)).unwrap();
    assert!(k.to_text().starts_with("target: e\ngoal: 4 0\n"));
    let report = solve(&k, Algorithm::Bfs);
    assert!(report.solved);
}

#[test]
fn resizing_drops_pieces_that_no_longer_fit_but_never_the_target() {
    let mut k = Klotski::from_text(CLASSIC).unwrap();
    k.resize(4, 4).unwrap();
    assert_eq!((k.rows(), k.cols()), (4, 4));
    // i and j stood on row 4; the goal moved up so the target still fits.
    assert!(
        k.to_text().starts_with("target: A\ngoal: 2 1\n"),
        "{}",
        k.to_text()
    );
    assert!(!k.to_text().contains('i'));
    assert!(k.resize(1, 4).is_err(), "the target is cut off");
    assert!(k.resize(0, 4).is_err());
    assert!(k.resize(11, 4).is_err());
    assert_eq!((k.rows(), k.cols()), (4, 4));
    k.clear_pieces().unwrap();
    assert_eq!(
        k.to_text(),
        "target: A\ngoal: 2 1\n.AA.\n.AA.\n....\n....\n"
    );
}

#[test]
fn each_played_back_move_slides_one_piece_along_free_cells() {
    for metric in [Metric::Unit, Metric::Piece] {
        let report = solve(&layout(CLASSIC, metric), Algorithm::Bfs);
        let mut turns = 0;
        for pair in report.boards.windows(2) {
            let m = pair[0].moved_piece(&pair[1]).expect("one piece moves");
            assert!(m.route.len() >= 2);
            assert_eq!(m.route[0], (0, 0));
            for step in m.route.windows(2) {
                let (a, b) = (step[0], step[1]);
                assert_eq!((a.0 - b.0).abs() + (a.1 - b.1).abs(), 1);
            }
            if metric == Metric::Unit {
                assert_eq!(m.route.len(), 2);
            }
            turns +=
                usize::from(m.route.windows(3).any(|w| {
                    (w[1].0 - w[0].0, w[1].1 - w[0].1) != (w[2].0 - w[1].0, w[2].1 - w[1].1)
                }));
            // Backwards is the same route reversed.
            let back = pair[1].moved_piece(&pair[0]).unwrap();
            assert_eq!(back.route.len(), m.route.len());
        }
        if metric == Metric::Piece {
            assert!(turns > 0, "some piece moves turn a corner");
        }
    }
}
