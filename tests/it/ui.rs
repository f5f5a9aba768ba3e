//! The GUI, driven headless with egui_kittest: pick a puzzle, edit it on the canvas, start,
//! stop, step, play back a solution, and a snapshot of the main window.

use std::time::Duration;

use crate::common::gui::*;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::ViewCommand;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings};
use puzzlelab::puzzles::klotski::Klotski;
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::sliding::Sliding;
use puzzlelab::puzzles::{self, Cell, Puzzle as _};
use puzzlelab::search::{self, Algorithm, Outcome, TieBreak};
use puzzlelab::ui::CANVAS_LABEL;
use puzzlelab::ui::views::{
    maze::Command as MazeCommand, maze::MazeView, sliding::Command as SlidingCommand,
    sliding::SlidingView,
};

/// Queues a command of the view of the puzzle on screen.
fn view_command(command: impl std::any::Any + Send) -> AppCommand {
    AppCommand::View(ViewCommand::new(command))
}

/// The grid maze's view (the puzzle on screen must be a maze).
fn maze_view(app: &PuzzleLabApp) -> &MazeView {
    app.type_view()
        .and_then(|v| v.as_any().downcast_ref::<MazeView>())
        .expect("the grid maze's view")
}

/// The sliding tile puzzle's view.
fn sliding_view(app: &PuzzleLabApp) -> &SlidingView {
    app.type_view()
        .and_then(|v| v.as_any().downcast_ref::<SlidingView>())
        .expect("the sliding tiles' view")
}

fn maze(h: &Harness<'static, PuzzleLabApp>) -> Maze {
    h.state()
        .puzzle()
        .as_any()
        .downcast_ref::<Maze>()
        .expect("the maze is on screen")
        .clone()
}

fn open_maze(h: &mut Harness<'static, PuzzleLabApp>) {
    h.get_by_label("Grid maze").click();
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, "maze");
}

#[test]
fn opens_on_klondike() {
    let h = harness(Settings::default());
    assert_eq!(h.state().puzzle().puzzle_type().name, "klondike");
    assert_eq!(h.state().algorithm(), Algorithm::Bfs);
    h.get_by_label("Start");
    h.get_by_label(CANVAS_LABEL);
}

#[test]
fn clicking_a_square_toggles_it_and_dragging_paints() {
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    let cell = Cell::new(0, 1);
    let before = maze(&h).is_blocked(cell);
    click_cell(&mut h, cell);
    assert_eq!(maze(&h).is_blocked(cell), !before);
    click_cell(&mut h, cell);
    assert_eq!(maze(&h).is_blocked(cell), before);

    // A drag along row 2 paints the value of its first square onto every square it passes.
    h.get_by_label("Clear").click();
    h.run();
    let (from, to) = (cell_pos(&h, Cell::new(2, 1)), cell_pos(&h, Cell::new(2, 6)));
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for i in 1..=10 {
        h.drag_at(from + (to - from) * (i as f32 / 10.0));
        h.run();
    }
    h.drop_at(to);
    h.run();
    let m = maze(&h);
    for col in 1..=6 {
        assert!(m.is_blocked(Cell::new(2, col)), "column {col}");
    }
    assert!(!m.is_blocked(Cell::new(2, 7)));
}

#[test]
fn start_finds_the_shortest_path() {
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    h.get_by_label("Full speed").click();
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap().clone();
    let expected = search::solve(&maze(&h), Algorithm::Bfs).unwrap().cost;
    assert!(report.solved);
    assert_eq!(report.cost, expected);
    assert!(h.state().status().text.starts_with("Solved"));
    assert!(
        h.state().marks().closed_places > 0,
        "the explored region is shown"
    );

    // Play the solution back.
    let total = report.moves.len();
    assert_eq!(h.state().shown_moves(), total);
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().shown_moves(), total - 1);
    h.get_by_label("First").click();
    h.run();
    assert_eq!(h.state().shown_moves(), 0);
    h.get_by_label("Next").click();
    h.run();
    assert_eq!(h.state().shown_moves(), 1);
}

#[test]
fn stop_ends_a_slow_run() {
    let mut h = harness(Settings {
        speed: 20.0,
        ..Settings::default()
    });
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.marks().stats.expanded >= 2);
    assert!(h.state().is_running());
    h.get_by_label("Stop").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap();
    assert_eq!(report.outcome, Outcome::Cancelled);
    assert!(h.state().status().text.starts_with("Stopped after"));
}

#[test]
fn stop_during_a_full_speed_search_shows_stopped_on_the_next_frame() {
    // The start top-left, the goal bottom-right: four million squares between (a million
    // took a fast build's search to its end before the click, at times).
    let maze = Maze::new(2048, 2048);
    let mut h = harness(Settings {
        puzzle_json: Some(maze.to_json().to_string()),
        algorithm: Some(Algorithm::Bfs),
        full_speed: true,
        ..Settings::default()
    });
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.shown_stats().expanded >= 1000);
    assert!(h.state().is_running(), "the search is still under way");
    let shown = h.state().shown_stats().expanded;
    h.get_by_label("Stop").click();
    h.step();
    assert!(
        !h.state().is_running(),
        "the window shows the run as stopped at once"
    );
    assert!(
        h.state().status().text.starts_with("Stopped after"),
        "{:?}",
        h.state().status()
    );
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap();
    assert_eq!(report.outcome, Outcome::Cancelled);
    assert!(
        report.stats.expanded >= shown,
        "the figures at the moment of stopping"
    );
    assert!(report.stats.expanded < 2048 * 2048);
}

#[test]
fn pause_and_step_expand_one_state_at_a_time() {
    let mut h = harness(Settings::default());
    h.get_by_label("Step").click();
    run_until(&mut h, |app| app.marks().stats.expanded == 1);
    assert!(h.state().is_paused());
    h.get_by_label("Step").click();
    run_until(&mut h, |app| app.marks().stats.expanded == 2);
    std::thread::sleep(Duration::from_millis(50));
    h.run_steps(3);
    assert_eq!(h.state().marks().stats.expanded, 2);
    h.get_by_label("Resume").click();
    h.get_by_label("Full speed").click();
    run_until(&mut h, |app| app.result().is_some());
    assert_eq!(h.state().result().unwrap().cost, 9.0);
}

#[test]
fn no_path_is_reported_with_the_explored_region() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    let (t, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "maze-no-path.txt")
        .unwrap();
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    assert_eq!(h.state().result().unwrap().outcome, Outcome::NotFound);
    assert!(h.state().status().text.starts_with("No path"));
    assert!(h.state().marks().closed_places > 10);
}

#[test]
fn editing_during_a_search_stops_it() {
    let mut h = harness(Settings {
        speed: 5.0,
        ..Settings::default()
    });
    open_maze(&mut h);
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.marks().stats.expanded >= 1);
    click_cell(&mut h, Cell::new(0, 2));
    assert!(!h.state().is_running());
    assert_eq!(
        h.state().marks().stats.expanded,
        0,
        "the old search is cleared"
    );
    assert!(h.state().status().text.contains("edited"));
}

#[test]
fn a_bad_file_keeps_the_puzzle_and_shows_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "S..\n.?.\n..G\n").unwrap();
    let mut h = harness(Settings::default());
    let before = h.state().puzzle().to_text();
    h.state_mut().push(AppCommand::OpenPath(bad.clone()));
    h.run();
    let status = h.state().status();
    assert!(status.is_error);
    assert!(status.text.contains("bad.txt"), "{}", status.text);
    assert!(status.text.contains("line 2, column 2"), "{}", status.text);
    assert_eq!(h.state().puzzle().to_text(), before);
}

#[test]
fn save_and_reopen_keep_edits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.json");
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    h.get_by_label("Revert").click();
    h.run();
    let edited = h.state().puzzle().to_text();
    h.state_mut().push(AppCommand::SaveTo(path.clone()));
    h.run();
    assert!(h.state().status().text.starts_with("Saved"));
    h.get_by_label("Back from the Klondike").click();
    h.run();
    h.state_mut().push(AppCommand::OpenPath(path));
    h.run();
    assert_eq!(h.state().puzzle().to_text(), edited);

    // The settings eframe persists bring the edited puzzle back after a restart.
    let restored = PuzzleLabApp::new(h.state_mut().settings_to_save().clone());
    assert_eq!(restored.puzzle().to_text(), edited);
}

#[test]
fn random_revert_clear_and_resize() {
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    h.get_by_label("Clear").click();
    h.run();
    assert_eq!(maze(&h).to_text().matches('#').count(), 0);
    h.get_by_label("Random").click();
    h.run();
    let random = maze(&h);
    assert!(random.to_text().matches('#').count() > 10);
    h.get_by_label("Revert").click();
    h.run();
    let inverted = maze(&h);
    let cell = Cell::new(1, 1);
    assert_eq!(inverted.is_blocked(cell), !random.is_blocked(cell));
    h.state_mut()
        .push(view_command(MazeCommand::Resize(30, 40)));
    h.run();
    assert_eq!((maze(&h).rows(), maze(&h).cols()), (30, 40));
}

#[test]
fn main_window_snapshot() {
    // A fixed memory limit: the default depends on the machine's memory.
    let mut h = harness(Settings {
        memory_limit_mib: Some(4096),
        ..Settings::default()
    });
    h.run();
    h.snapshot("main_window");
}

#[test]
fn car_maze_solves_and_the_car_steps_along_the_route() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    h.get_by_label("Car maze").click();
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, "car-maze");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap().clone();
    assert_eq!(report.cost, 31.0);
    assert_eq!(report.moves[0], "right to (1,1)");
    h.get_by_label("First").click();
    h.run();
    for step in 1..=3 {
        h.get_by_label("Next").click();
        h.run();
        assert_eq!(h.state().shown_moves(), step);
    }
    h.get_by_label("3. right to (2,2)");
}

#[test]
fn the_turn_editor_edits_the_clicked_intersection() {
    let mut h = harness(Settings::default());
    h.get_by_label("Car maze").click();
    h.run();
    // The picture has a border of one square: intersection (3, 4) is picture square (4, 5).
    click_cell(&mut h, Cell::new(4, 5));
    h.get_by_label("Turns at intersection (3, 4)");
    let turns_of = |h: &Harness<'static, PuzzleLabApp>| {
        h.state()
            .puzzle()
            .as_any()
            .downcast_ref::<puzzlelab::puzzles::car_maze::CarMaze>()
            .unwrap()
            .turns(Cell::new(3, 4))
    };
    let before = turns_of(&h);
    // The row "enter from down" has the checkboxes up, left, right; untick "right".
    let checkboxes: Vec<_> = h.query_all_by_label("right").collect();
    checkboxes[1].click();
    h.run();
    let bit = puzzlelab::puzzles::car_maze::turn_bit(
        puzzlelab::puzzles::Side::Down,
        puzzlelab::puzzles::Side::Right,
    );
    assert_eq!(turns_of(&h), before & !bit);
}

fn klotski(h: &Harness<'static, PuzzleLabApp>) -> Klotski {
    h.state()
        .puzzle()
        .as_any()
        .downcast_ref::<Klotski>()
        .expect("Klotski is on screen")
        .clone()
}

/// Presses on `from`, moves the pointer to `to` in a few steps and releases it there.
fn drag_cells(h: &mut Harness<'static, PuzzleLabApp>, from: Cell, to: Cell) {
    let (a, b) = (cell_pos(h, from), cell_pos(h, to));
    drag_between(h, a, b, 4);
}

#[test]
fn klotski_drag_undo_solve_and_play_back() {
    let mut h = harness_sized(
        Settings {
            full_speed: true,
            playback_rate: 4.0,
            ..Settings::default()
        },
        1000.0,
    );
    h.get_by_label("Klotski (sliding blocks)").click();
    h.run();
    assert_eq!(klotski(&h).piece_at(Cell::new(3, 1)), Some('g'));
    // Nothing played: Undo, Redo and Reset have nothing to do and say so by being disabled.
    let disabled = |h: &Harness<'static, PuzzleLabApp>, label: &str| {
        egui_kittest::kittest::NodeT::accesskit_node(&h.get_by_label(label)).is_disabled()
    };
    assert!(disabled(&h, "Undo") && disabled(&h, "Redo") && disabled(&h, "Reset"));

    // Drag the soldier g down into the empty cell below it; the big block cannot move.
    drag_cells(&mut h, Cell::new(3, 1), Cell::new(4, 1));
    assert_eq!(klotski(&h).piece_at(Cell::new(4, 1)), Some('g'));
    assert_eq!(klotski(&h).moves_played(), 1);
    assert!(!disabled(&h, "Undo") && disabled(&h, "Redo") && !disabled(&h, "Reset"));
    drag_cells(&mut h, Cell::new(1, 1), Cell::new(2, 1));
    assert_eq!(klotski(&h).piece_at(Cell::new(0, 1)), Some('A'));
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(klotski(&h).piece_at(Cell::new(3, 1)), Some('g'));
    assert_eq!(klotski(&h).moves_played(), 0);

    // Solve with the piece metric: 81 moves.
    h.get_by_label("piece moves").click();
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap().clone();
    assert!(report.solved);
    assert_eq!(report.cost, 81.0);
    assert!(h.state().status().text.starts_with("Solved"));

    // Step through the solution: each step slides one piece, then shows the next position.
    h.get_by_label("First").click();
    h.run();
    h.get_by_label("Next").click();
    h.step();
    assert!(h.state().transition().is_some(), "the move slides");
    run_until(&mut h, |app| app.transition().is_none());
    assert_eq!(h.state().shown_moves(), 1);
    h.get_by_label("move 1 of 81");

    // Play the rest back automatically; it stops at the solved position.
    h.get_by_label("Play").click();
    h.step();
    assert!(h.state().is_playing());
    run_until(&mut h, |app| !app.is_playing());
    assert_eq!(h.state().shown_moves(), 81);
}

#[test]
fn klotski_editor_places_removes_and_sets_target_and_goal() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    h.get_by_label("Klotski (sliding blocks)").click();
    h.run();
    h.get_by_label("edit layout").click();
    h.run();
    // Place a 1x1 piece in the empty cell (4, 1).
    h.get_by_label("1x1").click();
    h.run();
    click_cell(&mut h, Cell::new(4, 1));
    let placed = klotski(&h).piece_at(Cell::new(4, 1));
    assert!(placed.is_some());
    // A 2x2 does not fit at (4, 2): refused, with the reason in the status bar.
    h.get_by_label("2x2").click();
    h.run();
    click_cell(&mut h, Cell::new(4, 2));
    assert!(h.state().status().is_error);
    assert!(h.state().status().text.contains("does not fit"));
    assert_eq!(klotski(&h).piece_at(Cell::new(4, 2)), None);
    // Remove the piece again, then take the removal back.
    h.get_by_label("Remove").click();
    h.run();
    click_cell(&mut h, Cell::new(4, 1));
    assert_eq!(klotski(&h).piece_at(Cell::new(4, 1)), None);
    h.get_by_label("Undo edit").click();
    h.run();
    assert_eq!(klotski(&h).piece_at(Cell::new(4, 1)), placed);
    // Make the bar e the target, with its goal at the bottom-left.
    h.get_by_label("Target").click();
    h.run();
    click_cell(&mut h, Cell::new(2, 1));
    h.get_by_label("Goal").click();
    h.run();
    click_cell(&mut h, Cell::new(4, 0));
    let text = klotski(&h).to_text();
    assert!(text.starts_with("target: e\ngoal: 4 0\n"), "{text}");
    // Free the cell again, so that there is room to move.
    h.get_by_label("Remove").click();
    h.run();
    click_cell(&mut h, Cell::new(4, 1));
    // The edited layout solves.
    h.get_by_label("play by hand").click();
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    assert!(h.state().result().unwrap().solved);
}

fn sliding(h: &Harness<'static, PuzzleLabApp>) -> Sliding {
    h.state()
        .puzzle()
        .as_any()
        .downcast_ref::<Sliding>()
        .expect("the sliding puzzle is on screen")
        .clone()
}

#[test]
fn sliding_tiles_click_scramble_unscramble_and_solve() {
    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        1100.0,
    );
    h.get_by_label("Sliding tiles").click();
    h.run();
    // The first shipped board: 8 6 7 / 2 5 4 / 3 0 1, blank at (2, 1).
    assert_eq!(sliding(&h).tile_at(Cell::new(2, 1)), Some(0));
    click_cell(&mut h, Cell::new(1, 1));
    assert_eq!(sliding(&h).tile_at(Cell::new(2, 1)), Some(5));
    assert_eq!(sliding(&h).moves_played(), 1);
    // A tile not next to the blank stays put.
    click_cell(&mut h, Cell::new(0, 0));
    assert_eq!(sliding(&h).moves_played(), 1);
    h.get_by_label("Undo move").click();
    h.run();
    assert_eq!(sliding(&h).moves_played(), 0);

    // Scramble by a random walk, then play it backwards to the goal.
    h.get_by_label("Scramble").click();
    h.run();
    assert!(!sliding(&h).is_solved());
    h.get_by_label("Unscramble").click();
    h.step();
    assert!(sliding_view(h.state()).is_unscrambling());
    run_until(&mut h, |app| !sliding_view(app).is_unscrambling());
    assert!(sliding(&h).is_solved());

    // A random board solves optimally with the default algorithm (A* on the 8-puzzle).
    h.get_by_label("Random board").click();
    h.run();
    let expected = search::solve(&sliding(&h), Algorithm::Bfs).unwrap().cost;
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap();
    assert!(report.solved && report.optimal);
    assert_eq!(report.cost, expected);

    // A 4x4 board: an arrow key slides a tile; a scrambled board solves with IDA*, whose
    // iteration and bound show, and plays back.
    h.state_mut()
        .push(view_command(SlidingCommand::Resize(4, 4)));
    h.run();
    assert!(sliding(&h).is_solved());
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(sliding(&h).tile_at(Cell::new(3, 3)), Some(15));
    h.get_by_label("Scramble").click();
    h.run();
    assert_eq!(h.state().algorithm(), Algorithm::IdaStar);
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap().clone();
    assert!(report.solved && report.optimal);
    assert!(report.stats.iterations >= 1);
    h.get_by_label("IDA* bound (g + h)");
    h.get_by_label("First").click();
    h.run();
    h.get_by_label("Next").click();
    run_until(&mut h, |app| app.transition().is_none());
    assert_eq!(h.state().shown_moves(), 1);
}

#[test]
fn pattern_databases_build_in_the_background_and_are_used() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    h.get_by_label("Sliding tiles").click();
    h.run();
    h.state_mut().push(view_command(SlidingCommand::Heuristic(
        puzzlelab::puzzles::sliding::TileHeuristic::PatternDb,
    )));
    // The build wakes the UI as it progresses, so frames are stepped, not run until quiet.
    h.step();
    // The 8-puzzle's tables build (or load from the cache) on the "pattern-db" thread.
    run_until(&mut h, sliding_ready);
    h.get_by_label("Pattern databases (quick) ready.");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap();
    assert_eq!(report.cost, 31.0);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("additive pattern databases")),
        "{:?}",
        report.notes
    );
}

#[test]
fn the_7_8_databases_are_offered_for_the_15_puzzle_only() {
    let mut h = harness(Settings::default());
    h.get_by_label("Sliding tiles").click();
    h.run();
    // The 8-puzzle: the 7-8 choice says it does not apply, and no build starts.
    h.state_mut().push(view_command(SlidingCommand::Heuristic(
        puzzlelab::puzzles::sliding::TileHeuristic::PatternDb78,
    )));
    h.run();
    h.get_by_label(
        "The 7-8 pattern databases are for the 4 x 4 board only; linear conflict stands in.",
    );
    assert!(!sliding_ready(h.state()));
    assert!(!sliding(&h).pattern_db_possible());
    // The heuristic list offers it by name; picking another heuristic there works.
    h.get_by_label("Heuristic").click();
    h.run();
    h.get_by_label("pattern databases 7-8");
    h.get_by_label("Manhattan distance").click();
    h.run();
    assert_eq!(
        sliding(&h).heuristic_kind(),
        puzzlelab::puzzles::sliding::TileHeuristic::Manhattan
    );
}

fn sliding_ready(app: &PuzzleLabApp) -> bool {
    app.puzzle()
        .as_any()
        .downcast_ref::<Sliding>()
        .is_some_and(Sliding::has_pattern_db)
}

#[test]
fn weighted_astar_shows_its_weight_and_reports_it() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    open_maze(&mut h);
    let weight = search::Weight::new(3.0).unwrap();
    h.state_mut()
        .push(AppCommand::SetAlgorithm(Algorithm::WeightedAStar(weight)));
    h.run();
    assert!(h.query_all_by_label("w").count() > 0);
    h.get_by_label("not optimal");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap();
    assert!(report.solved && !report.optimal);
    assert!(report.notes.iter().any(|n| n.starts_with("weight 3")));
}

#[test]
fn finished_runs_fill_the_results_table_which_exports() {
    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        1600.0,
    );
    for algorithm in [Algorithm::Bfs, Algorithm::AStar] {
        h.state_mut().push(AppCommand::SetAlgorithm(algorithm));
        h.run();
        h.get_by_label("Start").click();
        h.step();
        run_until(&mut h, |app| app.result().is_some());
    }
    h.get_by_label("Results (2 runs)").click();
    h.run();
    h.get_by_label("Export results…");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.csv");
    h.state_mut().push(AppCommand::ExportResults(path.clone()));
    h.run();
    let rows =
        puzzlelab::runs::results::from_csv(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].algorithm, "bfs");
    assert_eq!(rows[1].algorithm, "astar");
    assert!(rows.iter().all(|r| r.solved && r.cost == 9.0));
    h.get_by_label("Clear results").click();
    h.run();
    assert!(h.query_by_label("Results (2 runs)").is_none());
}

#[test]
fn the_last_run_exports_as_a_posthoc_search_trace_written_off_the_ui_thread() {
    let mut h = solved_at_full_speed();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.trace.json");
    h.state_mut().push(AppCommand::ExportTrace(path.clone()));
    run_until(&mut h, |app| {
        app.status().text.starts_with("Wrote a search trace")
    });
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(trace["version"], "1.4.0");
    let events = trace["events"].as_array().unwrap();
    // The status counts the events written (it said 387 where 537 were written).
    let status = &h.state().status().text;
    assert!(
        status.contains(&format!("a search trace of {} events", events.len())),
        "{status}"
    );
    let expanding = events.iter().filter(|e| e["type"] == "expanding").count();
    assert_eq!(
        expanding as u64,
        h.state().result().unwrap().stats.expanded,
        "one expanding event per expansion of the run shown"
    );
    assert_eq!(events.last().unwrap()["type"], "end");
    // A new run forgets the old recording until it ends; a board puzzle's run has none to
    // write, and says why.
    let sliding = puzzlelab::puzzles::type_by_name("sliding").unwrap();
    h.state_mut().push(AppCommand::SelectType(sliding));
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    h.state_mut()
        .push(AppCommand::ExportTrace(dir.path().join("board.json")));
    h.run();
    assert!(
        h.state().status().text.contains("states are boards"),
        "{}",
        h.state().status().text
    );
    assert!(!dir.path().join("board.json").exists());
}

#[test]
fn the_solution_exports_as_text_and_the_canvas_as_png() {
    let mut h = solved_at_full_speed();
    let dir = tempfile::tempdir().unwrap();
    let moves = dir.path().join("solution.txt");
    h.state_mut().push(AppCommand::ExportMoves(moves.clone()));
    h.run();
    let text = std::fs::read_to_string(&moves).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10, "{text}");
    assert!(lines[0].starts_with("# klondike solved by Breadth-first: 9 moves, cost 9 (optimal)"));
    assert_eq!(lines[1], "1. sw");

    // A picture: the canvas's part of a screenshot, cropped and encoded.
    let image = egui::ColorImage::new(
        [40, 30],
        vec![egui::Color32::from_rgb(200, 10, 10); 40 * 30],
    );
    let crop = puzzlelab::app::export::crop(
        &image,
        egui::Rect::from_min_size(egui::pos2(5.0, 5.0), egui::vec2(10.0, 8.0)),
        2.0,
    );
    assert_eq!(crop.size, [20, 16]);
    let png_path = dir.path().join("canvas.png");
    puzzlelab::app::export::write_png(&crop, &png_path).unwrap();
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (20, 16));
    assert_eq!(&buf[..4], &[200, 10, 10, 255]);
}

#[test]
fn the_canvas_saves_as_png() {
    let mut h = harness(Settings::default());
    h.run();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("canvas.png");
    h.state_mut().push(AppCommand::ExportCanvas(path.clone()));
    // The picture is taken when a frame is rendered.
    h.step();
    let _ = h.render();
    run_until(&mut h, |app| app.status().text.starts_with("Saved a"));
    assert!(!h.state().status().is_error);
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    // The canvas fills the window right of the side panel; Klondike's board is on it.
    let canvas = h.get_by_label(CANVAS_LABEL).rect();
    assert_eq!(info.width, canvas.width().round() as u32);
    // Klondike's number disks are drawn in cream (250, 240, 214).
    let cream = buf.chunks(4).filter(|p| p[..3] == [250, 240, 214]).count();
    assert!(cream > 1000, "{cream} cream pixels");
}

#[test]
fn plots_follow_the_run_by_depth_and_by_ida_iteration() {
    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        1400.0,
    );
    h.get_by_label("Start").click();
    h.step();
    run_until(&mut h, |app| app.result().is_some());
    let view = h.state().marks();
    let expanded = h.state().result().unwrap().stats.expanded;
    assert!(!view.samples.is_empty());
    assert_eq!(view.samples.last().unwrap()[0], expanded as f64);
    let track = h.state().timeline().unwrap().track.as_ref().unwrap();
    assert!(track.sizes().iter().all(|s| s[2] == s[0]));
    // Breadth-first: the layers add up to every state expanded, one layer per depth.
    assert_eq!(view.layers.iter().sum::<u64>(), expanded);
    assert_eq!(
        view.layers.len(),
        9,
        "depths 0 to 8 expanded before the goal at 9"
    );
    assert!(view.iteration_nodes.is_empty());
    h.get_by_label("Plots");

    // IDA* on the 8-puzzle: the nodes of every iteration add up to the run's.
    h.get_by_label("Sliding tiles").click();
    h.run();
    h.state_mut()
        .push(AppCommand::SetAlgorithm(Algorithm::IdaStar));
    h.run();
    h.get_by_label("Start").click();
    h.step();
    run_until(&mut h, |app| app.result().is_some());
    let view = h.state().marks();
    let report = h.state().result().unwrap();
    assert_eq!(
        view.iteration_nodes.len() as u64,
        report.stats.iterations,
        "one bar per iteration"
    );
    assert_eq!(
        view.iteration_nodes.iter().sum::<u64>(),
        report.stats.expanded
    );
}

#[test]
fn a_board_search_shows_the_state_expanded_and_its_depth() {
    let mut h = harness(Settings {
        speed: 30.0,
        ..Settings::default()
    });
    h.get_by_label("Klotski (sliding blocks)").click();
    h.run();
    let before = h.state().puzzle().picture();
    h.get_by_label("Start").click();
    h.step();
    run_until(&mut h, |app| {
        app.marks().stats.expanded >= 3 && app.marks().board.is_some()
    });
    assert!(
        h.query_by_label_contains("Expanding a state at depth")
            .is_some()
    );
    // The canvas draws the state being expanded, not the position on the board.
    // (the third state expanded is one move from the start).
    let shown = h.state().marks().board.clone().unwrap();
    assert_ne!(shown.squares, before.squares);
    assert_eq!(h.state().puzzle().picture().squares, before.squares);
    h.get_by_label("Stop").click();
    run_until(&mut h, |app| !app.is_running());
}

/// The bar above a board's canvas counts in the singular for one: after one Step, "1 state
/// expanded" (it said "1 states expanded").
#[test]
fn a_board_search_paused_after_one_step_says_1_state_expanded() {
    let mut h = harness(Settings::default());
    h.get_by_label("Sliding tiles").click();
    h.run();
    h.get_by_label("Step").click();
    run_until(&mut h, |app| {
        app.marks().stats.expanded == 1 && app.marks().board.is_some()
    });
    h.run();
    let node = h.get_by_label_contains("Expanding a state at depth");
    let ak = egui_kittest::kittest::NodeT::accesskit_node(&node);
    let bar = ak.label().or_else(|| ak.value()).unwrap_or_default();
    assert!(bar.ends_with("; 1 state expanded"), "{bar}");
    h.get_by_label("Stop").click();
    run_until(&mut h, |app| !app.is_running());
}

/// Starts a race of `algorithms` on the puzzle on screen and waits for every lane to end.
fn race(h: &mut Harness<'static, PuzzleLabApp>, algorithms: &[Algorithm]) {
    for &a in algorithms {
        h.state_mut().push(AppCommand::RaceToggle(a));
    }
    h.state_mut().push(AppCommand::StartRace);
    h.step();
    assert!(h.state().race().is_some(), "{:?}", h.state().status());
    run_until(h, |app| app.race().is_some_and(|r| !r.is_running()));
}

#[test]
fn a_race_runs_bfs_astar_and_dfs_side_by_side() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    open_maze(&mut h);
    race(&mut h, &[Algorithm::Bfs, Algorithm::AStar, Algorithm::Dfs]);
    let lanes = &h.state().race().unwrap().lanes;
    assert_eq!(lanes.len(), 3);
    let optimal = search::solve(&maze(&h), Algorithm::Bfs).unwrap().cost;
    for lane in lanes {
        let report = lane.result.as_ref().expect("every lane finished");
        assert!(report.solved, "{}", lane.algorithm);
        assert_eq!(lane.marks.stats.expanded, report.stats.expanded);
        if report.optimal {
            assert_eq!(report.cost, optimal);
        }
        assert!(report.cost >= optimal);
        h.get_by_label(&format!("race pane {}", lane.algorithm.name()));
    }
    // A* expands no more than BFS on the same maze.
    assert!(lanes[1].marks.stats.expanded <= lanes[0].marks.stats.expanded);
    // Every lane added its row to the results table, and the table matches the lanes.
    h.get_by_label("Close race").click();
    h.run();
    assert!(h.state().race().is_none());
    h.get_by_label_contains("Results (3 runs)");
}

#[test]
fn a_race_of_tie_breaking_policies_shows_their_expansions() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    open_maze(&mut h);
    // An open grid: ties everywhere.
    h.get_by_label("Clear").click();
    h.run();
    h.state_mut()
        .push(AppCommand::SetAlgorithm(Algorithm::AStar));
    h.run();
    h.get_by_label("Race algorithms").click();
    h.run();
    h.get_by_label("Race the tie-breaking policies").click();
    h.step();
    assert!(h.state().race().is_some(), "{:?}", h.state().status());
    run_until(&mut h, |app| app.race().is_some_and(|r| !r.is_running()));
    let lanes = &h.state().race().unwrap().lanes;
    assert_eq!(lanes.len(), 4);
    let costs: Vec<f64> = lanes
        .iter()
        .map(|l| l.result.as_ref().unwrap().cost)
        .collect();
    assert!(costs.iter().all(|&c| c == costs[0]), "{costs:?}");
    let expanded = |t: TieBreak| {
        let lane = lanes.iter().find(|l| l.tie_break == Some(t)).unwrap();
        h.get_by_label(&format!("race pane astar {}", t.name()));
        assert_eq!(lane.result.as_ref().unwrap().stats.tie_break, Some(t));
        lane.result.as_ref().unwrap().stats.expanded
    };
    assert!(expanded(TieBreak::HighG) * 3 < expanded(TieBreak::LowG));
    expanded(TieBreak::Fifo);
    expanded(TieBreak::Lifo);
    // Each lane's row names its policy.
    let mut policies: Vec<String> = h
        .state_mut()
        .settings_to_save()
        .results
        .iter()
        .map(|r| r.tie_break.clone())
        .collect();
    policies.sort();
    assert_eq!(policies, ["fifo", "high-g", "lifo", "low-g"]);
    // The setting in the details panel: the next run uses the policy chosen.
    h.get_by_label("Close race").click();
    h.run();
    h.get_by_label("Equal f: expand").click();
    h.run();
    h.get_by_label("smaller g first").click();
    h.run();
    assert_eq!(h.state().settings().tie_break, TieBreak::LowG);
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    assert_eq!(
        h.state().result().unwrap().stats.tie_break,
        Some(TieBreak::LowG)
    );
}

#[test]
fn a_race_runs_to_completion_on_every_puzzle_type() {
    for t in puzzles::TYPES {
        let mut h = harness(Settings {
            full_speed: true,
            ..Settings::default()
        });
        h.state_mut().push(AppCommand::SelectType(t));
        h.run();
        let available = h.state().puzzle().algorithms();
        let pair: Vec<Algorithm> = [Algorithm::Bfs, Algorithm::AStar, Algorithm::Greedy]
            .into_iter()
            .filter(|a| available.contains(a))
            .take(2)
            .collect();
        race(&mut h, &pair);
        for lane in &h.state().race().unwrap().lanes {
            let report = lane.result.as_ref().unwrap();
            assert!(report.solved, "{} {}", t.name, lane.algorithm);
        }
    }
}

#[test]
fn grid_drag_the_goal_paint_terrain_undo_and_redo() {
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    h.get_by_label("Clear").click();
    h.run();
    let goal = maze(&h).goal();
    let target = Cell::new(goal.row - 2, goal.col - 3);
    drag_cells(&mut h, goal, target);
    assert_eq!(maze(&h).goal(), target, "the goal follows the drag");
    assert_eq!(maze(&h).goals().len(), 1);

    // The terrain brush paints its cost along a drag: one undo step for the whole stroke.
    h.get_by_label("Terrain").click();
    h.run();
    drag_cells(&mut h, Cell::new(1, 1), Cell::new(1, 4));
    for col in 1..=4 {
        assert_eq!(maze(&h).cost_at(Cell::new(1, col)), 5, "column {col}");
    }
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(
        maze(&h).cost_at(Cell::new(1, 2)),
        1,
        "the stroke is undone at once"
    );
    assert_eq!(maze(&h).goal(), target);
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(maze(&h).goal(), goal, "the goal's move is undone");
    h.get_by_label("Redo").click();
    h.run();
    h.get_by_label("Redo").click();
    h.run();
    assert_eq!(maze(&h).goal(), target);
    assert_eq!(maze(&h).cost_at(Cell::new(1, 3)), 5);

    // Solving goes round or through the terrain at least cost, and agrees with Dijkstra.
    h.get_by_label("Full speed").click();
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap().clone();
    let expected = search::solve(&maze(&h), Algorithm::Dijkstra).unwrap().cost;
    assert!(report.solved && report.optimal);
    assert_eq!(report.cost, expected);
    assert_eq!(report.path.last().unwrap().cell, target);
}

#[test]
fn grid_goals_brush_adds_a_goal_and_the_nearest_is_reached() {
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    h.get_by_label("Clear").click();
    h.run();
    h.get_by_label("Goals").click();
    h.run();
    click_cell(&mut h, Cell::new(0, 3));
    assert_eq!(maze(&h).goals().len(), 2);
    h.get_by_label("Full speed").click();
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    assert_eq!(h.state().result().unwrap().cost, 3.0, "the nearer goal");
}

#[test]
fn grid_generate_a_maze_and_solve_it() {
    // Tall enough for the generator's settings below the list of types.
    let mut h = crate::common::gui::harness_sized(Settings::default(), 1000.0);
    open_maze(&mut h);
    h.get_by_label("Generate a maze").click();
    h.run();
    click_label(&mut h, "Generate");
    h.run_steps(2);
    // Animated: it carves a few squares a frame, and Finish completes it.
    assert!(maze_view(h.state()).generation_progress().is_some());
    h.run_steps(3);
    h.get_by_label("Finish").click();
    h.run_steps(2);
    h.run();
    assert!(maze_view(h.state()).generation_progress().is_none());
    let generated = maze(&h);
    let settings = maze_view(h.state()).settings().clone();
    assert_eq!(generated.rows(), 2 * settings.cell_rows + 1);
    assert_eq!(generated.cols(), 2 * settings.cell_cols + 1);
    let expected = puzzlelab::puzzles::maze::generate::generate(
        settings.generator,
        settings.cell_rows,
        settings.cell_cols,
        // The seed field shows the seed that made the maze on screen.
        settings.generator_seed,
        settings.braid,
    );
    assert_eq!(
        (0..generated.rows() * generated.cols())
            .map(|i| u8::from(
                !generated.is_blocked(Cell::new(i / generated.cols(), i % generated.cols()))
            ))
            .collect::<Vec<_>>(),
        expected.squares(),
        "the animation ends on the generated maze"
    );
    h.get_by_label("Full speed").click();
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap();
    assert!(report.solved);
    assert_eq!(
        report.cost,
        search::solve(&generated, Algorithm::Bfs).unwrap().cost
    );
    // Undo brings back the maze from before the generation.
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(maze(&h).rows(), 10);
}

#[test]
fn grid_percolation_cluster_and_experiment() {
    use puzzlelab::puzzles::maze::Percolation;
    let mut h = harness(Settings::default());
    h.state_mut().push(AppCommand::OpenShipped(
        puzzles::type_by_name("maze").unwrap(),
        puzzles::shipped()
            .find(|(_, s)| s.file == "maze-percolation.txt")
            .unwrap()
            .1,
    ));
    h.run();
    assert_eq!(maze(&h).percolation(), Percolation::TopBottom);
    h.state_mut()
        .push(view_command(MazeCommand::ShowCluster(true)));
    h.run();
    let cluster = maze_view(h.state()).cluster().expect("shown").to_vec();
    h.get_by_label("Full speed").click();
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap();
    // The grid percolates exactly when its cluster is not empty, and the path lies in it.
    assert_eq!(report.solved, cluster.iter().any(|&x| x));
    let cols = maze(&h).cols();
    for place in &report.path {
        assert!(cluster[place.cell.row * cols + place.cell.col]);
    }
    // The experiment runs in the background and plots its curve.
    {
        let app = h.state_mut();
        app.push(view_command(MazeCommand::ExperimentWindow(true)));
    }
    h.run();
    h.state_mut().settings_to_save();
    h.get_by_label("Run").click();
    run_until(&mut h, |app| {
        maze_view(app)
            .experiment_points()
            .is_some_and(|p| p.len() == 41)
    });
    let points = maze_view(h.state()).experiment_points().unwrap();
    assert_eq!(points[0].fraction, 0.0);
    assert_eq!(points[40].fraction, 1.0);
}

#[test]
fn grid_scenario_steps_through_its_problems() {
    let dir = tempfile::tempdir().unwrap();
    let scen = write_tiny_scenario(dir.path(), false);
    let mut h = harness(Settings::default());
    // Opening a .scen file like any puzzle file opens the scenario with its map.
    h.state_mut().push(AppCommand::OpenPath(scen));
    h.run();
    assert_eq!(
        maze_view(h.state()).scenario_position().map(|p| (p.1, p.2)),
        Some((0, 2))
    );
    assert_eq!(maze(&h).goal(), Cell::new(0, 4));
    click_label(&mut h, "Next problem");
    h.run();
    assert_eq!(maze(&h).goal(), Cell::new(3, 4));
    assert_eq!(maze(&h).start(), Cell::new(0, 0));
    h.get_by_label("Full speed").click();
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let cost = h.state().result().unwrap().cost;
    assert!((cost - maze_view(h.state()).scenario_optimal().unwrap()).abs() < 1e-4);
    h.get_by_label_contains("matches");
    // Closing the scenario takes its problem's words off the status line too (issue 44).
    click_label(&mut h, "Previous problem");
    h.run();
    assert!(
        h.state().status().text.contains("roblem"),
        "{:?}",
        h.state().status()
    );
    click_label(&mut h, "Close scenario");
    h.run();
    assert!(maze_view(h.state()).scenario_position().is_none());
    let status = &h.state().status().text;
    assert!(!status.contains("roblem"), "{status}");
}

#[test]
fn grid_a_2048_square_grid_draws_as_a_texture_zooms_and_searches() {
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    h.state_mut()
        .push(view_command(MazeCommand::Resize(2048, 2048)));
    h.run();
    assert_eq!(maze(&h).rows(), 2048);
    assert!(puzzlelab::ui::canvas_is_texture(&h.ctx));
    // Scrolling over the canvas zooms in about the pointer.
    let centre = h.get_by_label(CANVAS_LABEL).rect().center();
    h.hover_at(centre + egui::vec2(50.0, 30.0));
    h.run();
    wheel(&mut h, 400.0);
    let (zoom, pan) = h.state().canvas_zoom();
    assert!(zoom > 1.5, "zoom {zoom}");
    assert!(pan != egui::Vec2::ZERO);
    // An animated search on it keeps running frames without blocking.
    h.get_by_label("Start").click();
    h.run_steps(5);
    assert!(h.state().is_running());
    run_until(&mut h, |app| app.marks().stats.expanded > 0);
    h.get_by_label("Stop").click();
    h.step();
    assert!(!h.state().is_running(), "Stop shows at once");
    run_until(&mut h, |app| app.result().is_some());
    assert!(h.state().marks().stats.expanded > 0);
}

#[test]
fn a_search_at_its_memory_limit_says_so_and_keeps_the_puzzle() {
    let layout = "target: A\ngoal: 8 8\nAA........\nAA........\nb.........\n..........\n\
                  ....c.....\n..........\n.......d..\n..........\n..........\n.........e\n";
    let puzzle = puzzles::parse(layout, None).unwrap();
    let json = puzzle.to_json().to_string();
    let mut h = harness(Settings {
        puzzle_json: Some(json.clone()),
        algorithm: Some(Algorithm::Bfs),
        full_speed: true,
        memory_limit_mib: Some(16),
        ..Settings::default()
    });
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, "klotski");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let status = h.state().status().clone();
    assert!(status.is_error, "{status:?}");
    assert!(status.text.contains("memory limit of 16 MiB"), "{status:?}");
    assert_eq!(h.state().result().unwrap().outcome, Outcome::MemoryLimit);
    assert_eq!(
        h.state().puzzle().to_json().to_string(),
        json,
        "the puzzle stays"
    );
}

#[test]
fn long_solutions_play_fast_and_their_list_is_virtualised() {
    // An open 600 x 600 grid: a 1,198-move solution.
    let maze = Maze::new(600, 600);
    let settings = Settings {
        puzzle_json: Some(maze.to_json().to_string()),
        algorithm: Some(Algorithm::Bfs),
        full_speed: true,
        playback_rate: 100_000.0,
        ..Settings::default()
    };
    // Tall enough that the side panel shows the solution list without scrolling.
    let mut h = harness_sized(settings, 1600.0);
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    // The panel settles first: the legend and the plots change with what the canvas draws,
    // which follows the search's last marks a few frames later, and a row's place read
    // before then is not where a click lands.
    h.run();
    let total = h.state().result().unwrap().moves.len();
    assert_eq!(total, 1198);
    // Only the rows in view exist as widgets: the first move, not the last.
    assert!(
        h.query_by_label(&format!(
            "{total}. {}",
            h.state().result().unwrap().moves[total - 1]
        ))
        .is_none()
    );
    let second = format!("2. {}", h.state().result().unwrap().moves[1]);
    h.get_by_label(&second).click();
    // The grid's texture may take a few frames to catch up with the search's marks.
    run_until(&mut h, |app| app.shown_moves() == 2);
    h.get_by_label("Play").click();
    // 100,000 moves a second: the whole solution plays within a few frames.
    for _ in 0..30 {
        h.step();
        if h.state().shown_moves() == total {
            break;
        }
    }
    assert_eq!(h.state().shown_moves(), total);
}

fn rush_hour(h: &Harness<'static, PuzzleLabApp>) -> puzzlelab::puzzles::rush_hour::RushHour {
    h.state()
        .puzzle()
        .as_any()
        .downcast_ref::<puzzlelab::puzzles::rush_hour::RushHour>()
        .expect("a Rush Hour board")
        .clone()
}

#[test]
fn rush_hour_drag_undo_edit_solve_and_play_back() {
    use puzzlelab::ui::views::{
        rush_hour::Command as RushHourCommand, rush_hour::Tool as RushHourTool,
    };
    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        1000.0,
    );
    h.get_by_label("Rush Hour").click();
    h.run();
    // The first shipped board: B blocks the red car; drag B down one cell, then undo.
    assert_eq!(rush_hour(&h).vehicle_at(Cell::new(0, 2)), Some(1));
    drag_cells(&mut h, Cell::new(2, 2), Cell::new(3, 2));
    assert_eq!(rush_hour(&h).vehicle_at(Cell::new(3, 2)), Some(1));
    assert_eq!(rush_hour(&h).vehicle_at(Cell::new(0, 2)), None);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(rush_hour(&h).vehicle_at(Cell::new(0, 2)), Some(1));
    h.get_by_label("Redo").click();
    h.run();
    assert_eq!(rush_hour(&h).vehicle_at(Cell::new(3, 2)), Some(1));
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(rush_hour(&h).vehicle_at(Cell::new(0, 2)), Some(1));

    // The editor places a truck where a click falls.
    h.get_by_label("edit layout").click();
    h.run();
    h.state_mut().push(view_command(RushHourCommand::Tool(Some(
        RushHourTool::Place(3, false),
    ))));
    h.run();
    click_cell(&mut h, Cell::new(3, 0));
    assert_eq!(rush_hour(&h).vehicles().len(), 5);
    assert!(rush_hour(&h).vehicle_at(Cell::new(5, 0)).is_some());
    h.get_by_label("play by hand").click();
    h.run();

    // Solve in both metrics, and play the solution back to the red car at the exit.
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let moves = h.state().result().unwrap().clone();
    assert!(moves.solved && moves.optimal);
    assert_eq!(moves.cost, 3.0);
    h.get_by_label("steps").click();
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let steps = h.state().result().unwrap().clone();
    assert!(steps.cost > moves.cost);
    h.get_by_label("First").click();
    h.run();
    h.get_by_label("Play").click();
    let total = steps.moves.len();
    run_until(&mut h, |app| app.shown_moves() == total);
    assert!(
        rush_hour(&h).vehicle_at(Cell::new(2, 0)).is_some(),
        "the board is unchanged"
    );
}

#[test]
fn a_views_settings_are_kept_across_restarts() {
    use puzzlelab::ui::views::maze::Brush;
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    h.state_mut()
        .push(view_command(MazeCommand::Brush(Brush::Terrain(7))));
    h.run();
    assert_eq!(maze_view(h.state()).settings().brush, Brush::Terrain(7));
    let saved = h.state_mut().settings_to_save().clone();
    let mut again = harness(saved);
    again.run();
    assert_eq!(maze_view(again.state()).settings().brush, Brush::Terrain(7));
}

#[test]
fn hovering_over_the_canvas_says_what_is_there() {
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    let start = maze(&h).start();
    h.hover_at(cell_pos(&h, start));
    h.run();
    h.get_by_label_contains(&format!("row {}, column {} · start", start.row, start.col));
    h.get_by_label("Rush Hour").click();
    h.run();
    h.hover_at(cell_pos(&h, Cell::new(2, 0)));
    h.run();
    h.get_by_label_contains("row 2, column 0 · red car A, 2 cells, across");
}

/// The timeline works during a run: scrubbed back, the canvas shows that moment while the
/// search goes on (the recording keeps growing), and >| follows the live search again.
#[test]
fn a_running_search_scrubs_back_and_follows_the_head_again() {
    use puzzlelab::app::{Mark, TimelineCommand};
    let maze = Maze::new(40, 40);
    let mut h = harness(Settings {
        puzzle_json: Some(maze.to_json().to_string()),
        algorithm: Some(Algorithm::Bfs),
        speed: 200.0,
        ..Settings::default()
    });
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.timeline_len() >= 30);
    assert!(h.state().is_running());
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(10)));
    run_until(&mut h, |app| app.marks().stats.expanded == 10);
    assert!(h.state().is_scrubbed());
    let len_then = h.state().timeline_len();
    // The search goes on; the canvas stays at expansion 10.
    run_until(&mut h, |app| app.timeline_len() >= len_then + 20);
    assert!(h.state().is_running());
    let view = h.state().marks();
    assert_eq!(view.stats.expanded, 10);
    assert_eq!(
        view.closed_places, 10,
        "a grid's places are expanded once each"
    );
    let start = Cell::new(0, 0);
    assert_eq!(view.mark(start), Mark::Closed);
    // The bar above the canvas counts out of what is recorded so far, not out of a result
    // the running search has not given yet.
    h.step();
    let len_now = h.state().timeline_len();
    h.get_by_label_contains(&format!(
        "Timeline at expansion 10 of {len_now} (the search goes on)"
    ));
    // Hover figures cover the moment shown: a square expanded later has none yet.
    let recording = h.state().timeline_recording().unwrap().clone();
    let later = (len_then..recording.expansions())
        .find_map(|j| recording.expansion(j)?.place)
        .unwrap();
    assert!(h.state().expansion_at(later.cell).is_none());
    assert_eq!(h.state().expansion_at(start).map(|e| e.index), Some(0));
    // >| follows the live search again.
    h.get_by_label("Timeline head").click();
    run_until(&mut h, |app| {
        !app.is_scrubbed() && app.marks().closed_places >= len_then + 20
    });
    assert!(h.state().expansion_at(later.cell).is_some());
    h.get_by_label("Stop").click();
    run_until(&mut h, |app| app.result().is_some());
    // Stopped: the view shows the whole recording, every expansion the search reported.
    let expanded = h.state().result().unwrap().stats.expanded as usize;
    run_until(&mut h, |app| app.marks().closed_places == expanded);
    assert_eq!(h.state().timeline_len(), expanded);
}

/// A finished run's timeline: step back with the bar's button, scrub with the slider, pin a
/// square on the canvas and read its figures, colour by expansion order, and write the run
/// as a GIF off the UI thread (decoded back).
#[test]
fn a_finished_run_scrubs_back_and_forth_pins_squares_and_exports_a_gif() {
    use puzzlelab::app::{Mark, ShadeKind, TimelineCommand};
    let mut h = solved_at_full_speed();
    let len = h.state().timeline_len();
    let expanded = h.state().result().unwrap().stats.expanded as usize;
    assert_eq!(len, expanded, "every expansion is on the timeline");
    assert!(!h.state().is_scrubbed());
    h.get_by_label(puzzlelab::ui::SCRUBBER_LABEL);
    // One step back: the last expansion undone, the solution hidden until the end.
    h.get_by_label("One expansion back").click();
    run_until(&mut h, |app| app.marks().stats.expanded as usize == len - 1);
    assert!(h.state().is_scrubbed());
    let closed_end = h.state().marks().closed_places;
    // Half way: fewer closed squares, the state expanded then is the current one.
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(len / 2)));
    run_until(&mut h, |app| app.marks().stats.expanded as usize == len / 2);
    let view = h.state().marks();
    assert!(view.closed_places < closed_end);
    assert!(view.current.is_some());
    // Back to the start: only the start on the frontier.
    h.get_by_label("Timeline start").click();
    run_until(&mut h, |app| app.marks().stats.expanded == 0);
    let start = h
        .state()
        .puzzle()
        .picture()
        .start
        .unwrap_or(Cell::new(0, 0));
    assert_eq!(h.state().marks().closed_places, 0);
    assert_eq!(h.state().marks().mark(start), Mark::Frontier);
    // To the end again with the key, then pin the start: its figures in the details panel.
    h.get_by_label("Timeline head").click();
    run_until(&mut h, |app| {
        !app.is_scrubbed() && app.marks().stats.expanded as usize == len
    });
    h.get_by_label("Pin squares").click();
    h.run();
    let before = h.state().puzzle().to_text();
    click_cell(&mut h, start);
    assert_eq!(
        h.state().puzzle().to_text(),
        before,
        "a click while inspecting does not edit"
    );
    assert!(h.state().timeline().unwrap().pinned.is_some());
    h.get_by_label("Pinned state");
    h.get_by_label("a start");
    // A heat map of the expansion order, with its colour bar.
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Heat(Some(
            puzzlelab::runs::recording::Quantity::Order,
        ))));
    h.run();
    let shade = h.state().marks().shade.clone().unwrap();
    assert!(matches!(shade.kind, ShadeKind::Heat { .. }));
    h.get_by_label(&format!("order {}", 0));
    // The GIF: 2 s at 5 frames a second.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.gif");
    let picture = h.state().puzzle().picture();
    let colors = puzzlelab::runs::animation::GifColors {
        squares: vec![[238, 238, 238]; picture.squares.len()],
        keeps_color: vec![false; picture.squares.len()],
        frontier: [0, 158, 115],
        closed: [86, 180, 233],
        current: [240, 228, 66],
        ..Default::default()
    };
    let options = puzzlelab::runs::animation::GifOptions {
        fps: 5,
        seconds: 2.0,
    };
    h.state_mut()
        .push(AppCommand::ExportGifDialog(Box::new(colors), options));
    h.state_mut().push(AppCommand::ExportGif(path.clone()));
    // The file appears whole (written beside, then renamed). The status may say "Wrote a
    // GIF" or, a moment later, that the file dialog asked for first could not be shown
    // (no portal here): the two threads race, so the file is what is waited for.
    run_until(&mut h, |_| path.exists());
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&path).unwrap())
        .unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 10);
}

#[test]
fn optimal_moves_follow_each_move_and_undo_with_hints_and_all_moves_rated() {
    use puzzlelab::app::oracle::OracleStatus;
    use puzzlelab::puzzles::oracle::{Distance, Rating};
    let mut h = harness_sized(Settings::default(), 1000.0);
    h.get_by_label("Klotski (sliding blocks)").click();
    h.run();
    h.get_by_label("Optimal moves").click();
    run_until(&mut h, |app| {
        matches!(
            app.windows.oracle.status(),
            OracleStatus::Ready(Distance::Exact(_))
        )
    });
    // The classic layout, counted in cell moves: 116 from the start.
    assert_eq!(
        h.state().windows.oracle.status(),
        OracleStatus::Ready(Distance::Exact(116))
    );
    h.get_by_label("Optimal from here: 116 cell moves");
    assert!(
        h.state().windows.oracle.arrows().is_empty(),
        "no arrow until asked"
    );
    h.get_by_label("Hint").click();
    h.run();
    let hint = h.state().windows.oracle.arrows();
    assert_eq!(hint.len(), 1);
    assert_eq!(hint[0].rating, Rating::Better);
    h.get_by_label("Show all").click();
    h.run();
    let all = h.state().windows.oracle.arrows();
    let moves = h.state().windows.oracle.assessment().unwrap().moves.len();
    assert_eq!(all.len(), moves);
    assert!(all.iter().any(|a| a.rating == Rating::Worse));

    // A move away from the goal: one more to go; Undo: back to 116.
    drag_cells(&mut h, Cell::new(3, 1), Cell::new(4, 1));
    assert_eq!(klotski(&h).moves_played(), 1);
    run_until(&mut h, |app| {
        app.windows.oracle.status() != OracleStatus::Ready(Distance::Exact(116))
    });
    let after = h.state().windows.oracle.status();
    assert!(
        matches!(after, OracleStatus::Ready(Distance::Exact(d)) if d == 115 || d == 117),
        "{after:?}"
    );
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(
        h.state().windows.oracle.status(),
        OracleStatus::Ready(Distance::Exact(116))
    );

    // The state space window: a random layout whose hardest position is at least 20 moves
    // from the goal, made on a background thread, opens (after the question about edits).
    h.get_by_label("State space...").click();
    // The click sends the window's command, applied at the frame's end: the window is laid
    // out in the next frame and shown in the one after.
    h.run_steps(3);
    h.get_by_label("Generate layout").click();
    run_until(&mut h, |app| {
        app.unsaved_question().is_some() || app.status().text.starts_with("Generated a layout")
    });
    if h.state().unsaved_question().is_some() {
        h.run_steps(2);
        h.get_by_label("Discard").click();
        h.run_steps(2);
    }
    assert!(
        h.state().status().text.starts_with("Generated a layout"),
        "{}",
        h.state().status().text
    );
    run_until(
        &mut h,
        |app| matches!(app.windows.oracle.status(), OracleStatus::Ready(Distance::Exact(d)) if d >= 20),
    );
}

#[test]
fn the_car_maze_is_driven_by_hand_with_the_oracle_and_its_state_space_opens_states() {
    use puzzlelab::app::oracle::OracleStatus;
    use puzzlelab::puzzles::car_maze::CarMaze;
    use puzzlelab::puzzles::oracle::Distance;
    let car = |h: &Harness<'static, PuzzleLabApp>| {
        h.state()
            .puzzle()
            .as_any()
            .downcast_ref::<CarMaze>()
            .unwrap()
            .clone()
    };
    let mut h = harness_sized(Settings::default(), 1000.0);
    h.get_by_label("Car maze").click();
    h.run();
    h.get_by_label("play by hand").click();
    h.run();
    h.get_by_label("Optimal moves").click();
    run_until(&mut h, |app| {
        matches!(
            app.windows.oracle.status(),
            OracleStatus::Ready(Distance::Exact(_))
        )
    });
    h.get_by_label("Optimal from here: 31 moves");
    // Drive along the hint: a click on the intersection it points to, one move closer.
    for step in 0..3 {
        let hint = h
            .state()
            .windows
            .oracle
            .assessment()
            .unwrap()
            .hint()
            .unwrap()
            .clone();
        let to = hint.motion.unwrap().to().unwrap();
        click_cell(&mut h, to);
        h.run();
        assert_eq!(car(&h).moves_driven(), step + 1);
        assert_eq!(
            h.state().windows.oracle.status(),
            OracleStatus::Ready(Distance::Exact(30 - step as u32))
        );
    }
    // A click off the car's neighbours does not drive.
    click_cell(&mut h, Cell::new(0, 0));
    assert_eq!(car(&h).moves_driven(), 3);
    assert!(
        !h.state().is_modified(),
        "driving by hand leaves the file as it was"
    );
    h.get_by_label("Reset").click();
    h.run();
    assert_eq!(car(&h).moves_driven(), 0);

    // The state space: its numbers, its graph, and a click on a state opens it.
    h.get_by_label("State space...").click();
    run_until(&mut h, |app| app.windows.space_window.layout.is_some());
    h.run();
    h.get_by_label("64 states, 98 moves between them, 1 solved, 0 dead ends (no way to the goal).");
    h.get_by_label("Open the hardest position").click();
    h.run();
    // Driving does not change the file (its start stays): nothing to save, no question.
    assert!(
        h.query_by_label("Discard").is_none(),
        "driving by hand is not an unsaved edit"
    );
    assert!(!h.state().is_modified());
    run_until(&mut h, |app| {
        app.windows.oracle.status() == OracleStatus::Ready(Distance::Exact(37))
    });
    assert_eq!(
        h.state().windows.oracle.status(),
        OracleStatus::Ready(Distance::Exact(37))
    );
    assert!(h.state().status().text.starts_with("Opened state"));
    let graph = h
        .get_by_label(puzzlelab::ui::space_window::GRAPH_LABEL)
        .rect();
    let layout = h.state().windows.space_window.layout.as_ref().unwrap();
    // The start state sits at the left edge: click it.
    let [fx, fy] = puzzlelab::app::space_layout::image_fraction(layout.positions[0]);
    let at = graph.min + egui::vec2(fx * graph.width(), fy * graph.height());
    crate::common::gui::click_at(&mut h, at);
    run_until(&mut h, |app| {
        app.windows.oracle.status() == OracleStatus::Ready(Distance::Exact(31))
    });

    // The graph exported as GraphML on a background thread.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("car.graphml");
    h.state_mut().push(AppCommand::ExportGraph(path.clone()));
    run_until(&mut h, |app| {
        app.status().text.starts_with("Wrote the state graph")
    });
    assert_eq!(
        h.state().status().text,
        format!("Wrote the state graph (64 states) to {}.", path.display())
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("<node ").count(), 64);
    assert_eq!(text.matches("<edge ").count(), 98);
}

#[test]
fn an_oracle_stopped_by_the_memory_limit_says_so_and_tries_again_after_a_change() {
    use puzzlelab::app::oracle::OracleStatus;
    use puzzlelab::puzzles::oracle::Distance;
    // 16 MiB, the least the memory setting takes: the 8-puzzle's 181,440 boards do not fit.
    let mut h = harness_sized(
        Settings {
            memory_limit_mib: Some(16),
            ..Settings::default()
        },
        1000.0,
    );
    let dir = tempfile::tempdir().unwrap();
    let eight = dir.path().join("eight.txt");
    std::fs::write(&eight, "8 6 7\n2 5 4\n3 0 1\n").unwrap();
    h.state_mut().push(AppCommand::OpenPath(eight));
    h.run();
    h.get_by_label("Optimal moves").click();
    run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Failed(_))
    });
    let OracleStatus::Failed(why) = h.state().windows.oracle.status() else {
        unreachable!()
    };
    assert!(why.contains("memory limit"), "{why}");
    h.get_by_label(&format!("No oracle: {why}"));
    // Another puzzle (a 2 x 3 board, 360 states): the oracle is made again, within the limit.
    let small = dir.path().join("small.txt");
    std::fs::write(&small, "1 2 3\n4 0 5\n").unwrap();
    h.state_mut().push(AppCommand::OpenPath(small));
    h.run();
    run_until(&mut h, |app| {
        app.windows.oracle.status() == OracleStatus::Ready(Distance::Exact(1))
    });
}

/// The oracle describes the position the canvas draws: the solution's playback after k
/// moves (not the puzzle's start), and says so while the timeline shows a search moment.
#[test]
fn the_oracle_follows_the_solutions_playback() {
    use puzzlelab::app::oracle::OracleStatus;
    use puzzlelab::app::{ShownMoment, TimelineCommand};
    use puzzlelab::puzzles::oracle::Distance;
    // Klondike: 9 jumps from the start.
    let mut h = solved_at_full_speed();
    h.get_by_label("Optimal moves").click();
    run_until(&mut h, |app| {
        matches!(
            app.windows.oracle.status(),
            OracleStatus::Ready(Distance::Exact(_))
        )
    });
    // At the run's end the board shows the goal.
    assert_eq!(h.state().shown_moment(), ShownMoment::Solution(9));
    assert_eq!(
        h.state().windows.oracle.status(),
        OracleStatus::Ready(Distance::Exact(0))
    );
    for k in [0, 3, 7] {
        h.state_mut().push(AppCommand::ShowStep(k));
        h.run();
        run_until(&mut h, |app| {
            app.windows.oracle.status() == OracleStatus::Ready(Distance::Exact(9 - k as u32))
        });
        h.get_by_label(&format!("At move {k} of the solution's playback."));
        h.get_by_label("Hint").click();
        h.run();
        let arrows = h.state().windows.oracle.arrows();
        assert_eq!(arrows.len(), 1, "the hint's arrow at move {k}");
        // The arrow starts at the marker's square at move k of the solution.
        let at = h.state().result().unwrap().path[k].cell;
        assert_eq!(
            arrows[0].from,
            (at.col as f32 + 0.5, at.row as f32 + 0.5),
            "move {k}"
        );
        h.get_by_label("Hint").click();
        h.run();
    }
    // Scrubbed back: the canvas shows a search moment; the statistics say which figures
    // are of that moment and which of the final run, and the playback bar says the
    // solution is not found yet there.
    let len = h.state().timeline_len();
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(len / 2)));
    run_until(&mut h, |app| app.marks().stats.expanded as usize == len / 2);
    h.run();
    assert_eq!(h.state().shown_moment(), ShownMoment::Search);
    h.get_by_label("Final run");
    h.get_by_label(&format!("At this moment (expansion {} of {len})", len / 2));
    h.get_by_label(&format!(
        "Timeline at expansion {} of {len}: the solution is not found yet at this moment",
        len / 2
    ));
    assert!(
        h.query_by_label("move 9 of 9").is_none(),
        "the playback bar does not describe the end while scrubbed"
    );
}

/// Step from idle starts the search paused after its first expansion and says so; the
/// pause message follows the panel's count.
#[test]
fn stepping_from_idle_says_paused_with_the_panels_count() {
    let mut h = harness(Settings::default());
    h.get_by_label("Step").click();
    run_until(&mut h, |app| app.marks().stats.expanded >= 1);
    h.run();
    let text = h.state().status().text.clone();
    assert!(
        text.starts_with("Paused after 1 expansion:"),
        "stepping from idle: {text}"
    );
    h.get_by_label("Step").click();
    run_until(&mut h, |app| app.marks().stats.expanded >= 2);
    h.run();
    let expanded = h.state().marks().stats.expanded;
    assert_eq!(
        h.state().status().text,
        format!(
            "Paused after {expanded} expansions: Step (S) expands one state, Resume (Space) goes on."
        )
    );
}

/// Undoing back to the file's contents leaves nothing unsaved.
#[test]
fn undoing_back_to_the_file_is_not_an_unsaved_edit() {
    let mut h = harness(Settings::default());
    open_maze(&mut h);
    assert!(!h.state().is_modified());
    click_cell(&mut h, Cell::new(0, 1));
    assert!(h.state().is_modified());
    h.state_mut().push(AppCommand::Undo);
    h.run();
    assert!(!h.state().is_modified(), "back to the file's contents");
    h.state_mut().push(AppCommand::Redo);
    h.run();
    assert!(h.state().is_modified());
}

/// The shipped terrain maze in the window: A* and Dijkstra find 45, BFS does not claim
/// optimality, IDA* is not offered, and the legend shows the terrain (also after an edit
/// and its undo).
#[test]
fn the_terrain_maze_in_the_window_is_never_falsely_optimal() {
    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        900.0,
    );
    open_maze(&mut h);
    let (kind, terrain) = puzzles::shipped()
        .find(|(_, s)| s.file == "maze-terrain.txt")
        .unwrap();
    h.state_mut().push(AppCommand::OpenShipped(kind, terrain));
    h.run();
    for round in 0..2 {
        assert!(
            !h.state()
                .puzzle()
                .algorithms()
                .contains(&Algorithm::IdaStar)
        );
        for (algorithm, cost, optimal) in [
            (Algorithm::AStar, Some(45.0), true),
            (Algorithm::Dijkstra, Some(45.0), true),
            (Algorithm::Bfs, None, false),
        ] {
            h.state_mut().push(AppCommand::SetAlgorithm(algorithm));
            h.state_mut().push(AppCommand::Start);
            h.step();
            run_until(&mut h, |app| app.result().is_some());
            let r = h.state().result().unwrap();
            assert_eq!(r.optimal, optimal, "{algorithm} round {round}");
            if let Some(cost) = cost {
                assert_eq!(r.cost, cost, "{algorithm} round {round}");
            }
        }
        // An edit and its undo give the file's maze back, facts and all.
        click_cell(&mut h, Cell::new(0, 1));
        h.state_mut().push(AppCommand::Undo);
        h.run();
    }
}

/// A watched run's live curve draws the closed set as the states expanded, as the finished
/// run's recording does (it drew the states reached, frontier included, so the line jumped
/// when the run ended).
#[test]
fn the_live_closed_set_curve_is_the_states_expanded() {
    let mut h = harness_sized(Settings::default(), 1400.0);
    h.state_mut().push(AppCommand::SetSpeed(5000.0, false));
    h.run();
    h.get_by_label("Start").click();
    h.step();
    run_until(&mut h, |app| {
        app.marks().samples.len() > 3 || app.result().is_some()
    });
    let view = h.state().marks();
    assert!(view.samples.len() > 1);
    assert!(
        view.samples.iter().all(|s| s[2] == s[0]),
        "{:?}",
        view.samples
    );
}

/// A puzzle replaced while its type's view was put aside is news to that view when it comes
/// back: an intersection selected in the car maze's view, then another type, then a car
/// maze opened (which brings that view back with the new puzzle): the selection is
/// forgotten, not shown on the new puzzle.
#[test]
fn a_view_put_aside_learns_that_its_puzzle_was_replaced() {
    use puzzlelab::app::ViewRead;
    use puzzlelab::ui::views::car_maze::Command as CarMazeCommand;
    let selected = |h: &Harness<'static, PuzzleLabApp>| {
        let app = h.state();
        let view = app.type_view().expect("a view");
        view.canvas_extras(&ViewRead::read(app), None).selected
    };
    let (t, shipped) = puzzles::shipped()
        .find(|(t, _)| t.name == "car-maze")
        .unwrap();
    let mut h = harness(Settings::default());
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.state_mut()
        .push_view(CarMazeCommand::Select(Cell::new(0, 0)));
    h.run();
    assert_eq!(selected(&h), Some(Cell::new(0, 0)));
    let klotski = puzzles::type_by_name("klotski").unwrap();
    h.state_mut().push(AppCommand::SelectType(klotski));
    h.run();
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, "car-maze");
    assert_eq!(
        selected(&h),
        None,
        "the selection was on the puzzle replaced"
    );
}
