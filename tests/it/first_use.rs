//! What a first-time user meets (issue 15): a layout that fits a 1024 x 640 window, work kept
//! per puzzle type and across restarts, a question before unsaved edits are dropped, the
//! keyboard, the legend and the explanations. Driven headless with egui_kittest.

use crate::common::gui::*;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings, UnsavedChoice};
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::{self, Cell, Puzzle as _};
use puzzlelab::ui::CANVAS_LABEL;

/// The app in a 1024 x 640 window.
fn small_window(settings: Settings) -> Harness<'static, PuzzleLabApp> {
    crate::common::temp_cache();
    Harness::builder()
        .with_size(egui::vec2(1024.0, 640.0))
        .with_max_steps(64)
        .build_ui_state(
            |ui, app: &mut PuzzleLabApp| app.frame_ui(ui),
            PuzzleLabApp::new(settings),
        )
}

fn select_type(h: &mut Harness<'static, PuzzleLabApp>, name: &str) {
    let t = puzzles::TYPES.iter().find(|t| t.name == name).unwrap();
    h.state_mut().push(AppCommand::SelectType(t));
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, name);
}

fn the_maze(h: &Harness<'static, PuzzleLabApp>) -> Maze {
    h.state()
        .puzzle()
        .as_any()
        .downcast_ref::<Maze>()
        .expect("a maze on screen")
        .clone()
}

/// Whether the widget labelled `label` is drawn wholly inside the window.
fn in_sight(h: &Harness<'static, PuzzleLabApp>, label: &str) -> bool {
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1024.0, 640.0));
    let rect = h.get_by_label(label).rect();
    window.contains_rect(rect)
}

#[test]
fn the_toolbar_canvas_and_side_panel_fit_1024_by_640_for_every_type() {
    let mut h = small_window(Settings::default());
    for t in puzzles::TYPES {
        select_type(&mut h, t.name);
        for label in ["Start", "Step", "Full speed", "Fit", t.label] {
            assert!(in_sight(&h, label), "{label} out of sight for {}", t.name);
        }
        let canvas = h.get_by_label(CANVAS_LABEL).rect();
        assert!(
            canvas.width() > 350.0 && canvas.height() > 400.0,
            "canvas {canvas:?} for {}",
            t.name
        );
        assert!(in_sight(&h, "How this puzzle works"), "{}", t.name);
    }
}

#[test]
fn the_canvas_keeps_its_place_when_a_run_starts_and_ends() {
    let mut h = small_window(Settings {
        full_speed: false,
        speed: 5.0,
        ..Settings::default()
    });
    select_type(&mut h, "klotski");
    let before = h.get_by_label(CANVAS_LABEL).rect();
    h.get_by_label("Start").click();
    h.run_steps(3);
    assert!(h.state().is_running());
    assert_eq!(h.get_by_label(CANVAS_LABEL).rect(), before);
    // The Step button keeps its place too: Start became Stop, Pause came alive.
    h.get_by_label("Stop").click();
    h.run_steps(3);
    assert!(!h.state().is_running());
    assert_eq!(h.get_by_label(CANVAS_LABEL).rect(), before);
}

#[test]
fn picking_another_type_keeps_each_types_work() {
    let mut h = small_window(Settings::default());
    select_type(&mut h, "maze");
    let cell = Cell::new(1, 1);
    let was = the_maze(&h).is_blocked(cell);
    click_cell(&mut h, cell);
    assert_ne!(the_maze(&h).is_blocked(cell), was);
    assert!(h.state().can_undo());
    assert!(h.state().is_modified());
    assert!(h.state().title().contains('*'), "{}", h.state().title());
    select_type(&mut h, "klotski");
    select_type(&mut h, "maze");
    // The edit and its undo history came back with the maze.
    assert_ne!(the_maze(&h).is_blocked(cell), was);
    assert!(h.state().can_undo());
    h.state_mut().push(AppCommand::Undo);
    h.run();
    assert_eq!(the_maze(&h).is_blocked(cell), was);
}

#[test]
fn each_types_puzzle_is_kept_across_restarts() {
    let mut h = small_window(Settings::default());
    select_type(&mut h, "maze");
    let cell = Cell::new(1, 1);
    let was = the_maze(&h).is_blocked(cell);
    click_cell(&mut h, cell);
    select_type(&mut h, "sliding");
    let saved = h.state_mut().settings_to_save().clone();
    let json = serde_json::to_string(&saved).unwrap();
    let restored: Settings = serde_json::from_str(&json).unwrap();
    let mut h = small_window(restored);
    assert_eq!(h.state().puzzle().puzzle_type().name, "sliding");
    select_type(&mut h, "maze");
    assert_ne!(
        the_maze(&h).is_blocked(cell),
        was,
        "the maze's edit is back"
    );
    assert!(h.state().is_modified());
}

#[test]
fn opening_over_unsaved_edits_asks_save_discard_or_cancel() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    select_type(&mut h, "maze");
    let cell = Cell::new(1, 1);
    let was = the_maze(&h).is_blocked(cell);
    click_cell(&mut h, cell);
    let (t, shipped) = puzzles::shipped()
        .into_iter()
        .find(|(t, _)| t.name == "maze")
        .unwrap();
    // Cancel keeps the edits.
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.get_by_label("Unsaved edits");
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.state().unsaved_question().is_none());
    assert_ne!(the_maze(&h).is_blocked(cell), was);
    // Save writes the file, then opens.
    let path = dir.path().join("edited.json");
    h.state_mut().push(AppCommand::SaveTo(path.clone()));
    h.run();
    assert!(!h.state().is_modified());
    assert!(h.state().title().starts_with("edited.json"));
    click_cell(&mut h, Cell::new(2, 2));
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.get_by_label("Save").click();
    h.run();
    let saved = puzzles::load_file(&path, None).unwrap();
    assert_ne!(
        saved
            .as_any()
            .downcast_ref::<Maze>()
            .unwrap()
            .is_blocked(Cell::new(2, 2)),
        the_maze(&h).is_blocked(Cell::new(2, 2)),
        "the second edit was saved and the shipped maze opened"
    );
    assert!(!h.state().is_modified());
    // Discard drops them.
    click_cell(&mut h, cell);
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.state_mut()
        .push(AppCommand::AnswerUnsaved(UnsavedChoice::Discard));
    h.run();
    assert!(!h.state().is_modified());
    assert!(h.state().unsaved_question().is_none());
    // Discard then an open that fails: the edits stay, still marked unsaved, so the next
    // open asks again.
    click_cell(&mut h, cell);
    h.state_mut()
        .push(AppCommand::OpenPath(dir.path().join("no-such-file.txt")));
    h.run();
    h.state_mut()
        .push(AppCommand::AnswerUnsaved(UnsavedChoice::Discard));
    h.run();
    assert!(h.state().status().is_error);
    assert!(h.state().is_modified());
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    assert!(h.state().unsaved_question().is_some());
}

#[test]
fn the_keyboard_starts_pauses_steps_stops_and_fits() {
    let mut h = small_window(Settings {
        speed: 2.0,
        ..Settings::default()
    });
    select_type(&mut h, "maze");
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    assert!(h.state().is_running() && !h.state().is_paused());
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    assert!(h.state().is_paused());
    let before = h.state().marks().stats.expanded;
    h.key_press(egui::Key::S);
    run_until(&mut h, |app| app.marks().stats.expanded > before);
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(!h.state().is_running());
    let centre = h.get_by_label(CANVAS_LABEL).rect().center();
    h.hover_at(centre);
    h.run();
    wheel(&mut h, 400.0);
    assert!(h.state().canvas_zoom().0 > 1.5);
    h.key_press(egui::Key::F);
    h.run();
    assert_eq!(h.state().canvas_zoom().0, 1.0);
    // The tooltips name the keys.
    h.get_by_label("Step").hover();
    h.run();
    assert!(h.query_by_label_contains("S or Right arrow").is_some());
}

#[test]
fn the_legend_lists_what_can_appear_for_each_type() {
    let mut h = small_window(Settings::default());
    let expect = [
        ("klondike", "goal: just off the board"),
        ("maze", "wall"),
        ("klotski", "the block to bring to the goal"),
        ("sliding", "tile on its own square"),
        ("rush-hour", "the red car A, to get out"),
    ];
    for (name, entry) in expect {
        select_type(&mut h, name);
        assert!(h.query_by_label(entry).is_some(), "{name}: {entry}");
    }
    // Search entries appear only once the canvas draws them: before a run, no closed set,
    // frontier, solution or depth-first path (issue 56: the legend listed them all).
    select_type(&mut h, "maze");
    assert!(h.query_by_label("solution").is_none());
    assert!(h.query_by_label("depth-first path (the stack)").is_none());
    assert!(
        h.query_by_label("frontier: reached, not yet expanded")
            .is_none()
    );
    assert!(h.query_by_label("percolating cluster").is_none());
}

#[test]
fn the_frontier_statistic_counts_states_on_board_puzzles() {
    let mut h = small_window(Settings {
        speed: 20.0,
        ..Settings::default()
    });
    select_type(&mut h, "klotski");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.marks().stats.expanded >= 3);
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    let frontier = h.state().marks().stats.frontier;
    assert!(frontier > 0);
    assert!(h.query_by_label("Frontier").is_some());
    assert!(h.query_by_label("Frontier (places now)").is_none());
}

/// Opens the shipped `puzzles/maze-small.txt` and solves it at full speed.
fn solve_small_maze(h: &mut Harness<'static, PuzzleLabApp>) {
    h.state_mut().push(AppCommand::SetSpeed(60.0, true));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/maze-small.txt");
    h.state_mut().push(AppCommand::OpenPath(path));
    h.run();
    h.get_by_label("Start").click();
    run_until(h, |app| app.result().is_some_and(|r| r.solved));
}

/// Writes `text` as a puzzle file in `dir` and opens it.
fn open_text(
    h: &mut Harness<'static, PuzzleLabApp>,
    dir: &std::path::Path,
    name: &str,
    text: &str,
) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    h.state_mut().push(AppCommand::OpenPath(path));
    h.run();
}

/// One step (S) makes a whole expansion, its successors and their goal tests included: on a
/// one-move maze it solves the puzzle, said in the singular.
#[test]
fn one_move_is_said_in_the_singular() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_text(&mut h, dir.path(), "one-move.txt", "SG.\n...\n");
    h.key_press(egui::Key::S);
    run_until(&mut h, |app| app.result().is_some());
    let status = &h.state().status().text;
    // Counted in the maze's metric, steps.
    assert!(status.starts_with("Solved: 1 step,"), "{status}");
}

/// Two expansions by Step, with a pause between them: the run's time leaves the pause out,
/// and the pause counted holds at least the wait made while paused (a sleep lasts at least
/// its length, however loaded the machine: no bound on the run's own time).
#[test]
fn a_runs_time_excludes_its_pauses() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_text(&mut h, dir.path(), "two-moves.txt", "S.G\n...\n");
    h.key_press(egui::Key::S);
    run_until(&mut h, |app| app.marks().stats.expanded >= 1);
    assert!(h.state().result().is_none(), "{:?}", h.state().status());
    std::thread::sleep(std::time::Duration::from_millis(300));
    h.key_press(egui::Key::S);
    run_until(&mut h, |app| app.result().is_some());
    let status = &h.state().status().text;
    assert!(status.starts_with("Solved: 2 steps,"), "{status}");
    let stats = &h.state().result().unwrap().stats;
    assert!(
        stats.paused_ms >= 300.0,
        "the pause left out of the run's time: {} ms",
        stats.paused_ms
    );
    assert!(stats.elapsed_ms >= 0.0, "{stats:?}");
}

#[test]
fn pausing_says_paused_and_an_edit_replaces_an_old_message() {
    let mut h = small_window(Settings {
        speed: 2.0,
        ..Settings::default()
    });
    select_type(&mut h, "maze");
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    h.key_press(egui::Key::Space);
    h.run_steps(2);
    assert!(
        h.state().status().text.starts_with("Paused"),
        "{:?}",
        h.state().status()
    );
    h.key_press(egui::Key::Escape);
    run_until(&mut h, |app| !app.is_running() && app.result().is_some());
    h.state_mut()
        .push(AppCommand::OpenPath("/no/such/file.txt".into()));
    h.run();
    assert!(h.state().status().is_error, "{:?}", h.state().status());
    click_cell(&mut h, Cell::new(1, 1));
    assert!(!h.state().status().is_error);
    assert!(h.state().status().text.starts_with("Edited"));
}

/// Opens the results table and scrolls the details panel to show it.
fn open_results(h: &mut Harness<'static, PuzzleLabApp>) {
    click_label(h, "Results (1 run)");
    h.run();
    h.get_by_label("Clear results").scroll_to_me();
    h.run();
}

#[test]
fn results_name_algorithms_as_the_list_does_show_the_puzzle_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    open_text(&mut h, dir.path(), "tiny.txt", "S..\n..G\n");
    h.state_mut().push(AppCommand::SetAlgorithm(
        puzzlelab::search::Algorithm::AStar,
    ));
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    open_results(&mut h);
    // The table names the puzzle (its file and type) and says "A*", as the algorithm list
    // does (the toolbar's list shows it too).
    assert!(h.query_by_label("tiny.txt (Grid maze)").is_some());
    assert!(h.query_by_label("A*").is_some());
    assert!(h.query_by_label("astar").is_none());
    // The race's checkboxes use the same names.
    h.get_by_label("Race algorithms").click();
    h.run();
    assert!(h.query_by_label("Breadth-first").is_some());
    assert!(h.query_by_label("bfs").is_none());
    let saved = h.state_mut().settings_to_save().clone();
    let restored: Settings = serde_json::from_str(&serde_json::to_string(&saved).unwrap()).unwrap();
    let mut h = small_window(restored);
    h.run();
    open_results(&mut h);
    assert!(h.query_by_label("tiny.txt (Grid maze)").is_some());
    // Clicking a header sorts by it.
    h.get_by_label("puzzle").click();
    h.run();
    assert!(h.query_by_label("puzzle ^").is_some());
    h.get_by_label("puzzle ^").click();
    h.run();
    assert!(h.query_by_label("puzzle v").is_some());
}

#[test]
fn full_speed_ticked_during_a_race_reaches_the_lanes() {
    use puzzlelab::search::Algorithm;
    let mut h = small_window(Settings {
        speed: 1.0,
        ..Settings::default()
    });
    select_type(&mut h, "maze");
    for a in [Algorithm::Bfs, Algorithm::AStar] {
        h.state_mut().push(AppCommand::RaceToggle(a));
    }
    h.state_mut().push(AppCommand::StartRace);
    h.run_steps(2);
    assert!(h.state().race().is_some_and(|r| r.is_running()));
    h.get_by_label("Full speed").click();
    run_until(&mut h, |app| app.race().is_some_and(|r| !r.is_running()));
}

/// During a race the Statistics panel does not show the single run's figures from before it
/// (they passed for the race's: issue 44's newcomer walk); it points to the race's panes, and
/// once the race is closed the run's figures are back.
#[test]
fn the_statistics_panel_shows_no_earlier_run_during_a_race() {
    use puzzlelab::search::Algorithm;
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    select_type(&mut h, "maze");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    assert!(h.query_by_label("States generated").is_some());
    for a in [Algorithm::Bfs, Algorithm::AStar] {
        h.state_mut().push(AppCommand::RaceToggle(a));
    }
    h.state_mut().push(AppCommand::StartRace);
    run_until(&mut h, |app| app.race().is_some_and(|r| !r.is_running()));
    assert!(h.query_by_label(puzzlelab::ui::RACE_STATS_NOTE).is_some());
    assert!(h.query_by_label("States generated").is_none());
    h.state_mut().push(AppCommand::CloseRace);
    h.run();
    assert!(h.query_by_label(puzzlelab::ui::RACE_STATS_NOTE).is_none());
    assert!(h.query_by_label("States generated").is_some());
}

#[test]
fn going_back_from_8_to_4_directions_restores_the_4_connected_heuristic() {
    use puzzlelab::puzzles::maze::{Connectivity, GridHeuristic};
    let mut maze = Maze::new(5, 5);
    let natural4 = maze.heuristic_kind();
    maze.set_connectivity(Connectivity::Eight);
    assert_eq!(
        maze.heuristic_kind(),
        GridHeuristic::natural(Connectivity::Eight)
    );
    maze.set_connectivity(Connectivity::Four);
    assert_eq!(maze.heuristic_kind(), natural4);
}

fn maze_view<'a>(
    h: &'a Harness<'static, PuzzleLabApp>,
) -> &'a puzzlelab::ui::views::maze::MazeView {
    h.state()
        .type_view()
        .and_then(|v| v.as_any().downcast_ref())
        .expect("the maze's view")
}

#[test]
fn the_seed_field_shows_the_seed_of_the_grid_on_screen() {
    let mut h = small_window(Settings::default());
    select_type(&mut h, "maze");
    click_label(&mut h, "Random");
    h.run();
    let seed = maze_view(&h).settings().random_seed;
    let first = the_maze(&h);
    // Random again from the same seed: the same grid, the same seed shown.
    click_label(&mut h, "Random");
    h.run();
    assert_eq!(maze_view(&h).settings().random_seed, seed);
    assert_eq!(the_maze(&h).to_text(), first.to_text());
    assert!(h.state().status().text.contains(&format!("seed {seed}")));
    // Next seed moves on and makes that seed's grid.
    click_label(&mut h, "Next seed");
    h.run();
    assert_eq!(maze_view(&h).settings().random_seed, seed + 1);
    assert_ne!(the_maze(&h).to_text(), first.to_text());
}

#[test]
fn the_percolating_cluster_shows_only_in_percolation_mode() {
    use puzzlelab::puzzles::maze::Percolation;
    use puzzlelab::ui::views::maze::Command as MazeCommand;
    let mut h = small_window(Settings::default());
    select_type(&mut h, "maze");
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            MazeCommand::Percolation(Percolation::TopBottom),
        )));
    h.run();
    assert!(maze_view(&h).cluster().is_some());
    assert!(h.query_by_label("percolating cluster").is_some());
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            MazeCommand::Percolation(Percolation::Off),
        )));
    h.run_steps(2);
    assert!(maze_view(&h).cluster().is_none());
    assert!(h.query_by_label("percolating cluster").is_none());
}

/// A maze of free squares, `rows` x `cols`, start top left, goal bottom right, opened.
fn open_free_maze(
    h: &mut Harness<'static, PuzzleLabApp>,
    dir: &std::path::Path,
    rows: usize,
    cols: usize,
) {
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push(match (r, c) {
                (0, 0) => 'S',
                _ if (r, c) == (rows - 1, cols - 1) => 'G',
                _ => '.',
            });
        }
        text.push('\n');
    }
    open_text(h, dir, "free.txt", &text);
}

#[test]
fn a_brisk_drag_that_starts_on_the_start_moves_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_free_maze(&mut h, dir.path(), 12, 12);
    let (from, to) = (Cell::new(0, 0), Cell::new(5, 7));
    // The press and a long move arrive in the same frame.
    h.drag_at(cell_pos(&h, from));
    h.hover_at(cell_pos(&h, to));
    h.run();
    h.drop_at(cell_pos(&h, to));
    h.run();
    let maze = the_maze(&h);
    assert_eq!(maze.start(), to);
    let walls = (0..12)
        .flat_map(|r| (0..12).map(move |c| Cell::new(r, c)))
        .filter(|&c| maze.is_blocked(c))
        .count();
    assert_eq!(walls, 0, "the drag painted walls");
}

#[test]
fn a_fast_stroke_paints_every_square_on_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_free_maze(&mut h, dir.path(), 12, 12);
    let (from, to) = (Cell::new(2, 1), Cell::new(9, 10));
    h.hover_at(cell_pos(&h, from));
    h.run();
    h.drag_at(cell_pos(&h, from));
    h.run();
    // One frame sees the pointer jump across the grid.
    h.hover_at(cell_pos(&h, to));
    h.run();
    h.drop_at(cell_pos(&h, to));
    h.run();
    let maze = the_maze(&h);
    let painted = (0..12)
        .flat_map(|r| (0..12).map(move |c| Cell::new(r, c)))
        .filter(|&c| maze.is_blocked(c))
        .count();
    // A diagonal line 7 rows by 9 columns: 10 squares, each touching the next.
    assert_eq!(painted, 10);
    assert!(maze.is_blocked(from) && maze.is_blocked(to));
}

#[test]
fn a_right_or_middle_drag_only_pans() {
    use puzzlelab::ui::views::{maze::Brush, maze::Command as MazeCommand};
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_free_maze(&mut h, dir.path(), 12, 12);
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            MazeCommand::Brush(Brush::Goals),
        )));
    h.run();
    let goals = the_maze(&h).goals().to_vec();
    for button in [egui::PointerButton::Secondary, egui::PointerButton::Middle] {
        let (a, b) = (cell_pos(&h, Cell::new(4, 4)), cell_pos(&h, Cell::new(6, 8)));
        h.hover_at(a);
        h.run();
        // Zoomed in, so there is room to pan.
        wheel(&mut h, 400.0);
        let pan = h.state().canvas_zoom().1;
        let press = |pressed, pos| egui::Event::PointerButton {
            pos,
            button,
            pressed,
            modifiers: egui::Modifiers::NONE,
        };
        h.event(press(true, a));
        h.run();
        for t in [0.3, 0.6, 1.0] {
            h.event(egui::Event::PointerMoved(a.lerp(b, t)));
            h.run();
        }
        h.event(press(false, b));
        h.run();
        assert_eq!(
            the_maze(&h).goals(),
            goals.as_slice(),
            "{button:?} added a goal"
        );
        assert_ne!(h.state().canvas_zoom().1, pan, "{button:?} panned");
        h.key_press(egui::Key::F);
        h.run();
    }
}

/// Solves the small maze in a window `height` points high, turns the wheel over the point
/// `at` finds, and checks that the details panel scrolled (rather than what is under it).
fn wheel_scrolls_the_details_panel(
    height: f32,
    at: fn(&Harness<'static, PuzzleLabApp>) -> egui::Pos2,
) {
    let mut h = harness_sized(Settings::default(), height);
    solve_small_maze(&mut h);
    let heading = h.get_by_label("Statistics").rect();
    h.hover_at(at(&h));
    h.run();
    wheel(&mut h, -100.0);
    let moved = heading.top() - h.get_by_label("Statistics").rect().top();
    assert!(moved > 30.0, "the panel scrolled {moved} points");
}

#[test]
fn the_wheel_over_the_solution_list_scrolls_the_details_panel() {
    // 1,100 points high: the list's first rows are in sight at the bottom of the panel
    // (below the statistics, breakpoints, legend and three plots), which scrolls on.
    wheel_scrolls_the_details_panel(1100.0, |h| {
        let first_move = h.get_by_label_contains("1. ").rect();
        assert!(first_move.bottom() < 1080.0, "{first_move:?}");
        first_move.center()
    });
}

#[test]
fn hovering_over_a_searched_square_gives_g_h_f_its_order_and_its_parent() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    open_text(&mut h, dir.path(), "row.txt", "S...G\n#####\n");
    assert_eq!(h.state().puzzle().puzzle_type().name, "maze");
    h.state_mut().push(AppCommand::SetAlgorithm(
        puzzlelab::search::Algorithm::AStar,
    ));
    h.run();
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    // A* with Manhattan distance: (0, 1) is 1 from the start and 3 from the goal; it is
    // expanded second, reached from the start to its left.
    h.hover_at(cell_pos(&h, Cell::new(0, 1)));
    h.run();
    h.get_by_label_contains(
        "row 0, column 1 · terrain cost 1 · expanded (closed set) · g 1, h 3, f 4 · expanded #2 \
         · reached from row 0, column 0 (right)",
    );
    h.hover_at(cell_pos(&h, Cell::new(0, 0)));
    h.run();
    h.get_by_label_contains("expanded #1 · a start");
}

/// The app at 1024 x 640 with a fixed memory limit (the default depends on the machine),
/// for snapshots.
fn snapshot_window() -> Harness<'static, PuzzleLabApp> {
    small_window(Settings {
        memory_limit_mib: Some(4096),
        ..Settings::default()
    })
}

/// Compares the canvas alone (no statistics, times or paths around it) with the snapshot
/// `name`.
fn canvas_snapshot(h: &mut Harness<'static, PuzzleLabApp>, name: &str) {
    let rect = h.get_by_label(CANVAS_LABEL).rect();
    let image = h.render().expect("the harness renders");
    let ppp = h.ctx.pixels_per_point();
    let (x, y) = ((rect.left() * ppp) as u32, (rect.top() * ppp) as u32);
    let (w, h) = ((rect.width() * ppp) as u32, (rect.height() * ppp) as u32);
    let canvas = image::imageops::crop_imm(&image, x, y, w, h).to_image();
    egui_kittest::image_snapshot(&canvas, name);
}

#[test]
fn klotski_pieces_show_their_letters_without_seams() {
    let mut h = snapshot_window();
    select_type(&mut h, "klotski");
    h.run();
    canvas_snapshot(&mut h, "klotski_letters");
}

#[test]
fn a_searched_goal_keeps_its_colour_and_grid_lines_one_width() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = snapshot_window();
    // An odd size, so squares fall between pixels; the goal is reached as the frontier grows.
    open_free_maze(&mut h, dir.path(), 13, 17);
    h.state_mut().push(AppCommand::SetSpeed(60.0, true));
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    canvas_snapshot(&mut h, "maze_searched_goal");
}

#[test]
fn a_tile_sliding_during_playback_shows_no_light_band() {
    // Frames 50 ms apart, so one lands part way through the 0.2 s slide.
    crate::common::temp_cache();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1024.0, 640.0))
        .with_max_steps(64)
        .with_step_dt(0.05)
        .build_ui_state(
            |ui, app: &mut PuzzleLabApp| app.frame_ui(ui),
            PuzzleLabApp::new(Settings {
                memory_limit_mib: Some(4096),
                ..Settings::default()
            }),
        );
    select_type(&mut h, "sliding");
    h.state_mut().push(AppCommand::SetSpeed(60.0, true));
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some_and(|r| r.solved));
    h.state_mut().push(AppCommand::ShowStep(0));
    h.run();
    // One move forward slides its tile: a frame part way along.
    h.state_mut().push(AppCommand::ShowStep(1));
    h.step();
    h.step();
    assert!(h.state().transition().is_some(), "caught mid-slide");
    canvas_snapshot(&mut h, "sliding_mid_move");
}

#[test]
fn klotski_editing_during_playback_edits_the_position_shown() {
    use puzzlelab::puzzles::klotski::Tool;
    use puzzlelab::ui::views::klotski::Command as KlotskiCommand;
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    select_type(&mut h, "klotski");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some_and(|r| r.solved));
    h.state_mut().push(AppCommand::ShowStep(3));
    h.run();
    let shown = h.state().result().unwrap().boards[3].clone();
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            KlotskiCommand::Tool(Some(Tool::Remove)),
        )));
    h.run();
    assert_eq!(h.state().puzzle().picture(), shown);
    // A square shown empty is empty to the editor too: placing a single block there works.
    let empty = (0..shown.rows)
        .flat_map(|r| (0..shown.cols).map(move |c| Cell::new(r, c)))
        .find(|&c| shown.get(c) == Some(puzzles::Square::Free))
        .unwrap();
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            KlotskiCommand::Tool(Some(Tool::Place(
                puzzlelab::puzzles::klotski::Shape::Single,
            ))),
        )));
    h.run();
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            KlotskiCommand::Edit(empty),
        )));
    h.run();
    assert!(!h.state().status().is_error, "{:?}", h.state().status());
    assert!(matches!(
        h.state().puzzle().picture().get(empty),
        Some(puzzles::Square::Piece { .. })
    ));
}

#[test]
fn without_a_file_dialog_a_path_field_opens_the_file() {
    let mut h = small_window(Settings::default());
    h.state_mut()
        .push(AppCommand::AskPath(puzzlelab::app::DialogKind::Open));
    h.run();
    h.get_by_label_contains("No file dialog could be shown");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/maze-small.txt");
    assert!(h.get_by_label("File path:").is_focused());
    h.get_by_label("File path:")
        .type_text(&path.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, "maze");
    assert!(h.query_by_label("File path:").is_none(), "the field closes");
}

#[test]
fn a_scenario_goes_to_problem_n_and_runs_all_with_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let scen = write_tiny_scenario(dir.path(), true);
    let mut h = small_window(Settings::default());
    select_type(&mut h, "maze");
    let side_panel = h.get_by_label("How this puzzle works").rect().width();
    h.state_mut().push(AppCommand::OpenPath(scen));
    h.run();
    // Go to problem 3: a click on the problem field makes it a text field; type 3, Enter.
    click_label(&mut h, "Problem");
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Problem").type_text("3");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(the_maze(&h).goal(), Cell::new(3, 0));
    // Run all, in the background, ends with the command line's summary.
    click_label(&mut h, "Run all");
    run_until(&mut h, |app| app.status().text.contains("3 of 3 match"));
    // In the panel and in the status bar.
    assert_eq!(
        h.query_all_by_label_contains("3 of 3 match (within 1e-4)")
            .count(),
        2
    );
    // The scenario's controls did not widen the side panel.
    assert_eq!(
        h.get_by_label("How this puzzle works").rect().width(),
        side_panel
    );
}

#[test]
fn the_percolation_window_opens_inside_the_canvas() {
    use puzzlelab::ui::views::maze::Command as MazeCommand;
    let mut h = small_window(Settings::default());
    select_type(&mut h, "maze");
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            MazeCommand::ExperimentWindow(true),
        )));
    h.run();
    h.run();
    let canvas = h.get_by_label(CANVAS_LABEL).rect();
    let title = h.get_by_label("Percolation experiment").rect();
    assert!(canvas.contains_rect(title), "{title:?} outside {canvas:?}");
}

#[test]
fn play_keeps_its_width_and_the_speed_slider_reaches_a_million() {
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    solve_small_maze(&mut h);
    h.get_by_label("First").click();
    h.run();
    let play = h.get_by_label("Play").rect();
    h.get_by_label("Play").click();
    h.step();
    h.step();
    assert!(h.state().is_playing());
    assert_eq!(h.get_by_label("Pause playback").rect(), play);
    // The speed slider's right end is a million expansions a second.
    h.state_mut().push(AppCommand::SetSpeed(5.0, false));
    h.run();
    let slider = h
        .query_all_by_label("speed")
        .map(|n| n.rect())
        .max_by(|a, b| a.width().total_cmp(&b.width()))
        .unwrap();
    let end = egui::pos2(slider.right() - 1.0, slider.center().y);
    h.drag_at(end);
    h.run();
    h.drop_at(end);
    h.run();
    assert_eq!(h.state().settings().speed, 1_000_000.0);
}

#[test]
fn a_restart_opens_the_side_panel_scrolled_to_the_top() {
    let mut h = small_window(Settings::default());
    select_type(&mut h, "maze");
    let top = h.get_by_label("Puzzle").rect().top();
    let over_panel = h.get_by_label("Grid maze").rect().center();
    h.hover_at(over_panel);
    h.run();
    wheel(&mut h, -300.0);
    assert!(
        h.get_by_label("Puzzle").rect().top() < top,
        "the panel scrolled"
    );
    // egui's memory, as eframe would restore it, in a new window.
    let memory = h.ctx.memory(|m| m.clone());
    let settings = h.state_mut().settings_to_save().clone();
    crate::common::temp_cache();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1024.0, 640.0))
        .with_context_setup(move |ctx| ctx.memory_mut(|m| *m = memory))
        .build_ui_state(
            |ui, app: &mut PuzzleLabApp| app.frame_ui(ui),
            PuzzleLabApp::new(settings),
        );
    h.run();
    assert_eq!(h.get_by_label("Puzzle").rect().top(), top);
}

#[test]
fn the_wheel_over_a_plot_scrolls_the_details_panel() {
    // Over the first plot, just under its header (in a window tall enough for the header
    // and that point to show below the statistics, breakpoints and legend).
    wheel_scrolls_the_details_panel(760.0, |h| {
        h.get_by_label("Plots").rect().center() + egui::vec2(0.0, 70.0)
    });
}

#[test]
fn a_click_pressed_and_released_within_one_frame_edits_the_square() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_free_maze(&mut h, dir.path(), 12, 12);
    let cell = Cell::new(4, 6);
    let pos = cell_pos(&h, cell);
    h.hover_at(pos);
    h.run();
    // As a real mouse click often arrives: both events before the next frame. (In the real
    // window under Xvfb such a click stopped editing while strokes required the primary
    // button to be down; this harness still sees the button down in that frame, so the
    // test guards the path rather than reproducing that failure.)
    h.drag_at(pos);
    h.drop_at(pos);
    h.run();
    assert!(the_maze(&h).is_blocked(cell));
    assert!(h.state().title().contains('*'));
    // The menu bar's file name carries the title's mark too (the title bar may be out of
    // sight).
    h.get_by_label_contains("free.txt *");
}

/// A puzzle file is read and parsed on a job: a FIFO whose writer comes late holds up no
/// frame (the window says it is opening and keeps the puzzle on screen), and the puzzle
/// opens once it is written.
#[cfg(unix)]
#[test]
fn a_file_that_is_slow_to_read_holds_up_no_frame() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("slow.txt");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let mut h = harness(Settings::default());
    let before = h.state().puzzle().to_text();
    h.state_mut().push(AppCommand::OpenPath(fifo.clone()));
    // No writer yet: the job's thread waits in `open`; each frame still ends.
    for _ in 0..5 {
        h.step();
    }
    assert!(
        h.state().status().text.starts_with("Opening"),
        "{}",
        h.state().status().text
    );
    assert_eq!(h.state().puzzle().to_text(), before);
    let maze = "S..\n.#.\n..G\n";
    std::fs::write(&fifo, maze).unwrap();
    for _ in 0..400 {
        h.step();
        if h.state().status().text.starts_with("Opened") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(
        h.state().status().text.starts_with("Opened"),
        "{}",
        h.state().status().text
    );
    assert_eq!(h.state().puzzle().puzzle_type().name, "maze");
    assert!(h.state().puzzle().to_text().starts_with("S.."));
}

/// Quick clicks on one square after another, each moved to, pressed and released within
/// one frame (as xdotool's `mousemove X Y click 1` arrives in the real window): each paints
/// the square clicked, and none touches the square clicked before. (Under Xvfb, xdotool's
/// `mousemove X Y click 1` once seemed to show the opposite: the X server had not reported
/// the move, the status bar still named the old square, so the click landed there.)
#[test]
fn quick_clicks_on_squares_one_after_another_each_paint_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_free_maze(&mut h, dir.path(), 12, 12);
    let cells = [
        Cell::new(5, 6),
        Cell::new(5, 7),
        Cell::new(8, 7),
        Cell::new(2, 2),
    ];
    for (n, &cell) in cells.iter().enumerate() {
        let pos = cell_pos(&h, cell);
        h.event(egui::Event::PointerMoved(pos));
        h.drag_at(pos);
        h.drop_at(pos);
        h.run();
        for &earlier in &cells[..=n] {
            assert!(
                the_maze(&h).is_blocked(earlier),
                "after click {n}: {earlier:?} is not a wall"
            );
        }
        // The pointer rests a moment before the next click.
        h.run();
    }
}

/// The hover's distances and the distance map count from the start on screen: after the start
/// is dragged elsewhere (the same rules, so the explored space is kept), not from the square
/// the space was explored from.
#[test]
fn hover_distances_and_the_distance_map_follow_the_start_when_it_moves() {
    use puzzlelab::app::oracle::OracleStatus;
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_free_maze(&mut h, dir.path(), 12, 12);
    click_label(&mut h, "Distances");
    h.run();
    click_label(&mut h, "Optimal moves");
    run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
    });
    let from_start = |h: &mut Harness<'static, PuzzleLabApp>, cell: Cell| -> String {
        h.hover_at(cell_pos(h, cell));
        h.run();
        let node = h.get_by_label_contains("to the nearest goal");
        let ak = egui_kittest::kittest::NodeT::accesskit_node(&node);
        let text = ak.label().or_else(|| ak.value()).unwrap_or_default();
        text.split("; ").nth(1).unwrap_or_default().to_owned()
    };
    let first = from_start(&mut h, Cell::new(0, 1));
    assert!(first.starts_with("1 "), "{first}");
    let (from, to) = (Cell::new(0, 0), Cell::new(5, 7));
    let (a, b) = (cell_pos(&h, from), cell_pos(&h, to));
    drag_between(&mut h, a, b, 4);
    assert_eq!(the_maze(&h).start(), to);
    run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
    });
    let next_to = from_start(&mut h, Cell::new(5, 8));
    assert!(next_to.starts_with("1 "), "{next_to}");
    let old = from_start(&mut h, from);
    assert!(!old.starts_with("0 ") && !old.starts_with("1 "), "{old}");
    let heat = h.state_mut().windows.oracle.heat().expect("a distance map");
    let at = |cell| heat.iter().find(|(c, _)| *c == cell).map(|(_, d)| *d);
    assert_eq!(at(to), Some(0.0), "the start on screen is nearest");
    assert!(at(from).is_some_and(|d| d > 0.0));
}

/// The grid maze's first puzzle solved at full speed by `algorithm`, at 1024 x 640.
fn solved_grid_maze(algorithm: puzzlelab::search::Algorithm) -> Harness<'static, PuzzleLabApp> {
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    h.run();
    h.get_by_label("Grid maze").click();
    h.run();
    h.state_mut().push(AppCommand::SetAlgorithm(algorithm));
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some_and(|r| r.solved));
    h
}

/// At the last move of a maze's playback the oracle stands on the goal and says so; before,
/// a maze's start could not be put on a goal square, so the oracle was handed the start and
/// said "Optimal from here: 28 steps" beside "At move 28 of the solution's playback".
#[test]
fn the_oracle_at_the_playbacks_last_move_says_solved() {
    use puzzlelab::app::oracle::OracleStatus;
    use puzzlelab::puzzles::oracle::Distance;
    let mut h = solved_grid_maze(puzzlelab::search::Algorithm::AStar);
    let moves = h.state().result().unwrap().moves.len();
    click_label(&mut h, "Distances");
    h.run();
    click_label(&mut h, "Optimal moves");
    for (shown, left) in [(moves, 0), (moves - 1, 1), (moves, 0)] {
        h.state_mut().push(AppCommand::ShowStep(shown));
        run_until(&mut h, |app| {
            app.windows.oracle.status() == OracleStatus::Ready(Distance::Exact(left as u32))
        });
    }
    h.get_by_label("Solved.");
}

/// Scrubbed back, "States reached" at the moment counts what the final figure counts: the
/// expanded states and the frontier's (it said the expanded alone); at the end it meets the
/// run's own figure.
#[test]
fn states_reached_at_a_moment_counts_the_closed_set_and_the_frontier() {
    use puzzlelab::app::TimelineCommand;
    let mut h = solved_grid_maze(puzzlelab::search::Algorithm::Bfs);
    let len = h.state().timeline_len();
    let last = h.state().result().unwrap().stats.clone();
    for position in [0, 1, 2, len / 2, len - 1, len] {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(position)));
        h.run();
        let now = &h.state().marks().stats;
        assert_eq!(now.expanded, position as u64);
        // At the end, the goal breadth-first search returned: reached, never queued.
        assert_eq!(
            now.max_closed,
            now.expanded + now.frontier + u64::from(position == len),
            "at expansion {position}"
        );
    }
    assert_eq!(h.state().marks().stats.max_closed, last.max_closed);
}

/// The toolbar keeps its places whatever algorithm is chosen: a longer name ("IDA*
/// (iterative deepening)") pushed Full speed, Fit and Details aside, and a click aimed at the
/// checkbox missed it.
#[test]
fn the_toolbar_keeps_its_places_whatever_the_algorithm() {
    use puzzlelab::search::Algorithm;
    let mut h = small_window(Settings::default());
    h.get_by_label("Grid maze").click();
    h.run();
    let mut places = Vec::new();
    for algorithm in [Algorithm::Bfs, Algorithm::Dijkstra, Algorithm::IdaStar] {
        h.state_mut().push(AppCommand::SetAlgorithm(algorithm));
        h.run();
        assert_eq!(h.state().algorithm(), algorithm);
        places.push((
            h.get_by_label("Full speed").rect(),
            h.get_by_label("Details").rect(),
        ));
    }
    assert!(places.windows(2).all(|w| w[0] == w[1]), "{places:?}");
}
