//! The search tree (issue 32): every expansion of a run drawn once, joined to its parent's
//! latest expansion, the solution's branch among them; a click on a node in the window
//! seeks the timeline to that expansion, and the picture shows the tree up to the cursor.

use puzzlelab::app::search_tree::{Solution, lay_out_tree, nearest_node};
use puzzlelab::puzzles::Puzzle;
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::runs::recording::TraceRecorder;
use puzzlelab::search::{Algorithm, CancelToken};

fn recorded(maze: &Maze, algorithm: Algorithm) -> (TraceRecorder, puzzlelab::puzzles::Report) {
    let mut recorder = TraceRecorder::new(1 << 26);
    let report = maze
        .solve(algorithm, &mut recorder, &CancelToken::new())
        .unwrap();
    recorder.finish();
    (recorder, report)
}

#[test]
fn the_tree_has_a_node_per_expansion_at_its_depth_and_finds_them_back() {
    let maze =
        Maze::from_text(&std::fs::read_to_string("puzzles/maze-rooms.txt").unwrap()).unwrap();
    for algorithm in [Algorithm::AStar, Algorithm::Bfs, Algorithm::IdaStar] {
        let (rec, report) = recorded(&maze, algorithm);
        for by_g in [false, true] {
            let solution = Solution {
                places: report.path.clone(),
                depth_first: false,
            };
            let t = lay_out_tree(&rec, &solution, by_g, &CancelToken::new()).unwrap();
            assert_eq!(
                t.positions.len(),
                report.stats.expanded as usize,
                "{algorithm:?}"
            );
            assert_eq!(t.total, t.positions.len());
            assert!(
                t.joined,
                "a maze's states are squares: joined to their parents"
            );
            // Across by order of expansion; down by depth (or g), the start at the top.
            assert!(t.positions.windows(2).all(|w| w[0][0] < w[1][0]));
            let deepest = (0..rec.expansions())
                .map(|k| rec.expansion(k).unwrap().depth)
                .max()
                .unwrap();
            assert_eq!(t.y_max, deepest as f32, "unit costs: g is the depth");
            for k in [0, t.positions.len() / 2, t.positions.len() - 1] {
                assert_eq!(nearest_node(&t, t.positions[k], 0.001), Some(k));
            }
        }
    }
}

#[test]
fn a_click_on_a_node_of_an_a_star_tree_goes_to_its_expansion() {
    use crate::common::gui::{harness, run_until};
    use egui_kittest::kittest::Queryable as _;
    use puzzlelab::app::{AppCommand, Settings};
    let mut h = harness(Settings::default());
    h.run();
    let _dir = crate::common::gui::open_copy_at_full_speed(
        &mut h,
        "puzzles/maze-rooms.txt",
        Algorithm::AStar,
    );
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.state_mut().windows.tree_window.open = true;
    run_until(&mut h, |app| app.windows.tree_window.layout.is_some());
    h.run();
    let rect = h
        .get_by_label(puzzlelab::ui::tree_window::TREE_LABEL)
        .rect();
    let layout = h.state().windows.tree_window.layout.clone().unwrap();
    let k = layout.positions.len() / 3;
    let p = layout.positions[k];
    let at = eframe::egui::pos2(
        rect.min.x + p[0] * rect.width(),
        rect.min.y + p[1] * rect.height(),
    );
    crate::common::gui::click_at(&mut h, at);
    h.run();
    let target = h.state().timeline().unwrap().target;
    // The node clicked, or one a pixel from it (nodes a pixel apart across).
    assert!(
        target.abs_diff(k + 1) <= 2,
        "seeked to {target}, clicked expansion {}",
        k + 1
    );
}

#[test]
fn after_ida_star_on_a_board_puzzle_the_branch_is_the_path_it_stood_on() {
    use puzzlelab::puzzles::sliding::Sliding;
    let mut board = Sliding::solved(3, 3).unwrap();
    board.scramble_walk(16, 5);
    board.set_option("heuristic", "manhattan").unwrap();
    let mut recorder = TraceRecorder::with_boards(1 << 26);
    let report = board
        .solve(Algorithm::IdaStar, &mut recorder, &CancelToken::new())
        .unwrap();
    recorder.finish();
    assert!(report.solved && report.cost > 2.0);
    let layout = |depth_first| {
        let solution = Solution {
            places: Vec::new(),
            depth_first,
        };
        lay_out_tree(&recorder, &solution, false, &CancelToken::new()).unwrap()
    };
    // Boards have no places: without the depth-first rule no branch is drawn.
    assert!(layout(false).branch.is_empty());
    let t = layout(true);
    assert!(!t.joined);
    // One state a move, from the start to the one before the goal (the goal is not
    // expanded), each at its depth and expanded after the one before.
    assert_eq!(t.branch.len() as f64, report.cost);
    for (d, &k) in t.branch.iter().enumerate() {
        assert_eq!(recorder.expansion(k).unwrap().depth as usize, d);
    }
    assert!(t.branch.windows(2).all(|w| w[0] < w[1]));
    // They are the last expansions: none after them at a depth they cover.
    let last = *t.branch.last().unwrap();
    for k in last + 1..recorder.expansions() {
        assert!(recorder.expansion(k).unwrap().depth as usize >= t.branch.len());
    }
}
