//! "Back from the Klondike" on the article's grid (`puzzles/klondike.txt`): the published
//! 9-move solution, the two shortest solutions, and legal jumps.

use puzzlelab::puzzles::klondike::{Compass, Klondike, Spot};
use puzzlelab::puzzles::{self, Cell, NoWatcher, Puzzle};
use puzzlelab::search::{self, Algorithm, CancelToken, Outcome};

fn klondike() -> Klondike {
    Klondike::from_text(include_str!("../../puzzles/klondike.txt")).unwrap()
}

#[test]
fn grid_matches_the_article() {
    let k = klondike();
    assert_eq!((k.rows(), k.cols()), (23, 23));
    assert_eq!(k.start(), Cell::new(11, 11));
    // The start is the "3 inside a heart".
    assert_eq!(k.spot(k.start()), Some(Spot::Jump(3)));
}

#[test]
fn shortest_solution_has_nine_moves() {
    let k = klondike();
    for algorithm in [Algorithm::Bfs, Algorithm::Dijkstra, Algorithm::AStar] {
        let result = search::solve(&k, algorithm).unwrap();
        assert_eq!(result.outcome, Outcome::Found);
        assert_eq!(result.cost, 9.0, "{algorithm}");
        assert!(result.optimal);
        let moves: Vec<String> = result.moves.iter().map(ToString::to_string).collect();
        assert_eq!(
            moves[..8],
            ["sw", "sw", "ne", "ne", "ne", "sw", "sw", "sw"],
            "{algorithm}"
        );
        assert!(
            moves[8] == "nw" || moves[8] == "se",
            "{algorithm}: {moves:?}"
        );
    }
}

#[test]
fn there_are_exactly_two_shortest_solutions() {
    assert_eq!(klondike().count_shortest_solutions(), Some((9, 2)));
    let report = klondike()
        .solve(Algorithm::Bfs, &mut NoWatcher, &CancelToken::new())
        .unwrap();
    assert_eq!(report.notes, ["2 shortest solutions of 9 moves exist"]);
}

#[test]
fn every_algorithm_finds_a_legal_solution() {
    let k = klondike();
    for algorithm in Algorithm::ALL.into_iter().filter(|a| a.applies_to(&k)) {
        let report = k
            .solve(algorithm, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert!(report.solved, "{algorithm}");
        assert_eq!(report.path.len(), report.moves.len() + 1);
        assert_eq!(report.path[0].cell, k.start());
        for (i, mv) in report.moves.iter().enumerate() {
            let dir = Compass::ALL
                .into_iter()
                .find(|d| d.to_string() == *mv)
                .unwrap();
            assert_eq!(
                k.jump(report.path[i].cell, dir),
                Some(report.path[i + 1].cell)
            );
        }
        assert_eq!(k.spot(report.path.last().unwrap().cell), Some(Spot::Goal));
        // Only the last move leaves the ring.
        for place in &report.path[..report.path.len() - 1] {
            assert!(matches!(k.spot(place.cell), Some(Spot::Jump(_))));
        }
    }
}

#[test]
fn jumps_may_not_pass_over_goal_or_void_squares() {
    let k = Klondike::from_text("_____\n_x___\n__3__\n__1__\n__x__\n").unwrap();
    // From the centre 3: north passes the void at (1, 2); north-west would land at (-1, -1).
    assert_eq!(k.jump(Cell::new(2, 2), Compass::N), None);
    assert_eq!(k.jump(Cell::new(2, 2), Compass::Nw), None);
    // South passes (3, 2), a board square, and (4, 2), a goal, before landing: not allowed.
    assert_eq!(k.jump(Cell::new(2, 2), Compass::S), None);
    // From the 1 the goal right below is one jump away.
    assert_eq!(k.jump(Cell::new(3, 2), Compass::S), Some(Cell::new(4, 2)));
}

#[test]
fn the_heuristic_never_overestimates() {
    // Admissibility checked against exact BFS distances from every board square.
    let k = klondike();
    let text = k.to_text();
    for row in 0..k.rows() {
        for col in 0..k.cols() {
            let cell = Cell::new(row, col);
            if !matches!(k.spot(cell), Some(Spot::Jump(_))) {
                continue;
            }
            let moved = Klondike::from_json(serde_json::json!({
                "type": "klondike", "version": 1,
                "grid": text.lines().collect::<Vec<_>>(),
                "start": {"row": row, "col": col},
            }))
            .unwrap();
            let state = (row * k.cols() + col) as u32;
            let h = search::Problem::heuristic(&moved, &state).unwrap();
            let exact = search::solve(&moved, Algorithm::Bfs).unwrap();
            if exact.outcome == Outcome::Found {
                assert!(h <= exact.cost, "h({cell}) = {h} > {}", exact.cost);
            }
        }
    }
}

#[test]
fn cli_type_detection_finds_klondike() {
    let p = puzzles::parse(include_str!("../../puzzles/klondike.txt"), None).unwrap();
    assert_eq!(p.puzzle_type().name, "klondike");
}

/// Issue 57's walk: after Step the Statistics panel said "States generated 0, Frontier 0"
/// beside the 4 squares the first expansion put on the frontier (the figures sent with the
/// pause were counted before the expansion's successors). After each Step the panel's
/// figures are the moment's on the canvas: its expansions, its frontier squares, the squares
/// reached, and every successor generated.
#[test]
fn after_each_step_the_panels_figures_are_the_canvass() {
    use crate::common::gui::{harness, run_until};
    use puzzlelab::app::{AppCommand, Settings};
    let mut h = harness(Settings::default());
    let (t, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "klondike.txt")
        .expect("klondike.txt is shipped");
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.state_mut().push(AppCommand::SetAlgorithm(Algorithm::Bfs));
    h.run();
    for step in 1..=4u64 {
        h.state_mut().push(AppCommand::Step);
        run_until(&mut h, |app| {
            app.marks().stats.expanded == step && app.shown_stats().expanded == step
        });
        let (shown, marks) = (h.state().shown_stats(), h.state().marks());
        let canvas = (
            marks.stats.expanded,
            marks.frontier_places as u64,
            (marks.closed_places + marks.frontier_places) as u64,
        );
        assert_eq!(
            (shown.expanded, shown.frontier, shown.max_closed),
            canvas,
            "step {step}: {shown:?}"
        );
        assert!(
            shown.max_frontier >= shown.frontier,
            "step {step}: {shown:?}"
        );
        assert!(
            shown.generated >= shown.max_closed - 1,
            "step {step}: every state reached but the start was generated: {shown:?}"
        );
    }
}
