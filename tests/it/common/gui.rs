//! What the UI tests share: a harness around the whole app, running frames until a
//! condition holds, and clicking squares of the canvas and widgets by label.

use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{PuzzleLabApp, Settings};
use puzzlelab::puzzles::Cell;
use puzzlelab::ui::CANVAS_LABEL;

pub fn harness(settings: Settings) -> Harness<'static, PuzzleLabApp> {
    harness_sized(settings, 800.0)
}

/// A harness whose window is `height` points high (the side panel scrolls in lower ones).
/// A large grid's texture catches up with a search over a few frames (each has a time
/// budget), so `run` may take more than kittest's default 4 steps to settle.
pub fn harness_sized(settings: Settings, height: f32) -> Harness<'static, PuzzleLabApp> {
    harness_at(1200.0, height, settings)
}

/// The whole app in a window of `width` x `height` points.
pub fn harness_at(width: f32, height: f32, settings: Settings) -> Harness<'static, PuzzleLabApp> {
    super::temp_cache();
    Harness::builder()
        .with_size(egui::vec2(width, height))
        // A big grid's shrunk copy is made a band of rows a frame (about 70 frames for a
        // 2048 x 2048 maze in a debug build), so `run` allows that many.
        .with_max_steps(160)
        .build_ui_state(
            |ui, app: &mut PuzzleLabApp| app.frame_ui(ui),
            PuzzleLabApp::new(settings),
        )
}

/// Runs frames until `done` holds, failing after 20 s so a bug cannot hang the suite.
pub fn run_until(h: &mut Harness<'static, PuzzleLabApp>, done: impl Fn(&PuzzleLabApp) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done(h.state()) {
        assert!(
            Instant::now() < deadline,
            "timed out; status: {:?}",
            h.state().status()
        );
        h.step();
        std::thread::sleep(Duration::from_millis(2));
    }
    h.step();
}

/// The app on its first puzzle, searched at full speed to the end (and one frame more).
pub fn solved_at_full_speed() -> Harness<'static, PuzzleLabApp> {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    h
}

/// The screen position of the centre of `cell` on the canvas, computed the way the canvas
/// lays out the grid (square cells, centred; a board of pieces inside a margin).
pub fn cell_pos(h: &Harness<'static, PuzzleLabApp>, cell: Cell) -> egui::Pos2 {
    let mut rect = h.get_by_label(CANVAS_LABEL).rect();
    let picture = h.state().puzzle().picture();
    let (rows, cols) = (picture.rows as f32, picture.cols as f32);
    // A board of pieces keeps a margin of 0.3 squares for its exit.
    let board = picture
        .squares
        .iter()
        .any(|s| matches!(s, puzzlelab::puzzles::Square::Piece { .. }));
    if board {
        let fit = (rect.width() / cols).min(rect.height() / rows);
        rect = rect.shrink(fit * 0.3);
    } else if picture.squares.len() > puzzlelab::ui::TEXTURE_SQUARES {
        // A large grid keeps a margin for its start and goal markers.
        rect = rect.shrink(puzzlelab::ui::MARKER_MARGIN);
    }
    let side = (rect.width() / cols).min(rect.height() / rows);
    let origin = rect.center() - egui::vec2(side * cols, side * rows) / 2.0;
    origin
        + egui::vec2(
            (cell.col as f32 + 0.5) * side,
            (cell.row as f32 + 0.5) * side,
        )
}

pub fn click_cell(h: &mut Harness<'static, PuzzleLabApp>, cell: Cell) {
    let pos = cell_pos(h, cell);
    click_at(h, pos);
}

/// Hovers, presses and releases the primary button at `pos`, a frame each.
pub fn click_at(h: &mut Harness<'static, PuzzleLabApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.run();
    h.drag_at(pos);
    h.run();
    h.drop_at(pos);
    h.run();
}

/// Presses the primary button at `from`, drags to `to` in `steps` frames (1: in one frame),
/// and releases there.
pub fn drag_between(
    h: &mut Harness<'static, PuzzleLabApp>,
    from: egui::Pos2,
    to: egui::Pos2,
    steps: usize,
) {
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for i in 1..=steps {
        h.drag_at(from + (to - from) * (i as f32 / steps as f32));
        h.run();
    }
    h.drop_at(to);
    h.run();
}

/// Opens the puzzle file `path` as File > Open does and runs frames until it is read (the
/// file is read on a background thread, which a loaded machine may keep waiting for longer
/// than a bounded `run`), failing after 20 s.
pub fn open_path(h: &mut Harness<'static, PuzzleLabApp>, path: std::path::PathBuf) {
    h.state_mut()
        .push(puzzlelab::app::AppCommand::OpenPath(path));
    h.step();
    run_until(h, |app| !app.status().text.starts_with("Opening"));
    h.run();
}

/// Opens a copy of the shipped puzzle file `file` (in a temporary folder, returned, so that
/// the test never writes the shipped one) with `algorithm` chosen, at full speed.
pub fn open_copy_at_full_speed(
    h: &mut Harness<'static, PuzzleLabApp>,
    file: &str,
    algorithm: puzzlelab::search::Algorithm,
) -> tempfile::TempDir {
    use puzzlelab::app::AppCommand;
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join(std::path::Path::new(file).file_name().unwrap());
    std::fs::write(&path, std::fs::read_to_string(file).unwrap()).unwrap();
    open_path(h, path);
    h.state_mut().push(AppCommand::SetAlgorithm(algorithm));
    h.state_mut().push(AppCommand::SetSpeed(60.0, true));
    h.run();
    dir
}

/// Clicks the widget labelled `label`, scrolling the panel it is in to show it first.
pub fn click_label(h: &mut Harness<'static, PuzzleLabApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
}

/// Turns the mouse wheel by `dy` points (negative scrolls down) where the pointer is, and
/// runs frames for the smooth scroll to finish.
pub fn wheel(h: &mut Harness<'static, PuzzleLabApp>, dy: f32) {
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, dy),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(10);
}

/// Writes a 5 x 4 Moving AI map `tiny.map` (a wall across its second row) into `dir`, and
/// a scenario `tiny.map.scen` with the problems of the first two lines of `TINY_PROBLEMS`
/// and, with `third`, the third; returns the scenario's path.
pub fn write_tiny_scenario(dir: &std::path::Path, third: bool) -> std::path::PathBuf {
    std::fs::write(
        dir.join("tiny.map"),
        "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.....\n.....\n",
    )
    .unwrap();
    let count = if third { 3 } else { 2 };
    let problems: Vec<&str> = TINY_PROBLEMS.lines().take(count).collect();
    let scen = dir.join("tiny.map.scen");
    std::fs::write(&scen, format!("version 1\n{}\n", problems.join("\n"))).unwrap();
    scen
}

/// The tiny map's problems: to (4, 0) costing 4, to (4, 3) costing 6.41421356 (one diagonal
/// round the wall's end), to (0, 3) costing 3.
pub const TINY_PROBLEMS: &str = "0\ttiny.map\t5\t4\t0\t0\t4\t0\t4
0\ttiny.map\t5\t4\t0\t0\t4\t3\t6.41421356
0\ttiny.map\t5\t4\t0\t0\t0\t3\t3";

/// Ticks Optimal moves (the state space explored) and opens the Heuristic window, then runs
/// frames until its measure is done.
pub fn measure_heuristic_in_window(h: &mut Harness<'static, PuzzleLabApp>) {
    click_label(h, "Optimal moves");
    run_until(h, |app| app.windows.oracle.space().is_some());
    h.run();
    click_label(h, "Heuristic...");
    run_until(h, |app| app.windows.heuristic_window.measured.is_some());
    h.run();
}

/// Opens the shipped puzzle `file` as the puzzle list does, with `algorithm` chosen and the
/// Learn window open: where the Learn panel's tests start a lesson.
pub fn open_for_learning(
    h: &mut Harness<'static, PuzzleLabApp>,
    file: &str,
    algorithm: puzzlelab::search::Algorithm,
) {
    use puzzlelab::app::AppCommand;
    let (t, shipped) = puzzlelab::puzzles::shipped()
        .find(|(_, s)| s.file == file)
        .unwrap_or_else(|| panic!("{file} is shipped"));
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.state_mut().push(AppCommand::SetAlgorithm(algorithm));
    h.state_mut().windows.learn.open = true;
    h.run();
}

/// [`open_for_learning`], then the lesson's run started and waited for to its end (at the
/// speed the harness's settings give), with one more frame for what follows the result.
pub fn learn_to_the_end(
    h: &mut Harness<'static, PuzzleLabApp>,
    file: &str,
    algorithm: puzzlelab::search::Algorithm,
) {
    use puzzlelab::app::AppCommand;
    open_for_learning(h, file, algorithm);
    h.state_mut().push(AppCommand::Start);
    run_until(h, |app| app.result().is_some());
    h.run();
}

/// A lesson as a teacher gives it, where the Learn panel's layout tests start: the app in a
/// 1024 x 640 window on the shipped `file`, `algorithm` chosen and the Learn panel open, its
/// run finished at full speed, the timeline at moment `at` (when given; else the run's
/// end), then classroom mode switched on by F2.
pub fn lesson_at_1024_by_640(
    file: &str,
    algorithm: puzzlelab::search::Algorithm,
    at: Option<usize>,
) -> Harness<'static, PuzzleLabApp> {
    use puzzlelab::app::{AppCommand, TimelineCommand};
    let mut h = harness_at(
        1024.0,
        640.0,
        Settings {
            full_speed: true,
            ..Settings::default()
        },
    );
    learn_to_the_end(&mut h, file, algorithm);
    if let Some(at) = at {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(at)));
        h.run();
    }
    h.key_press(egui::Key::F2);
    h.run();
    h.run();
    assert!(h.state().settings().classroom, "F2 turns classroom mode on");
    h
}

/// The figures at the end of a run that found its goal, where a search tests the goal as
/// it reaches a state (breadth-first) or as it takes one off the open list (best-first):
/// the figures shown are the report's, the statistics' frontier is the Learn panel's open
/// list and the label says so, and reached = expanded + frontier + 1 (the goal returned is
/// reached and on neither set). `what` names the run in the failure messages.
pub fn assert_found_end_figures(h: &Harness<'static, PuzzleLabApp>, what: &str) {
    use egui_kittest::kittest::Queryable as _;
    let report = h.state().result().expect("the run ended").clone();
    assert!(report.solved, "{what}");
    let s = &h.state().marks().stats;
    assert_eq!(
        s, &report.stats,
        "{what}: the figures shown are the report's"
    );
    let list = h.state().learn_open_list().expect("the open list shown");
    assert_eq!(list.len() as u64, s.frontier, "{what}: {s:?}");
    h.get_by_label(&format!(
        "Open list: {}",
        puzzlelab::app::count(s.frontier, "state")
    ));
    assert_eq!(
        s.expanded + s.frontier + 1,
        s.max_closed,
        "{what}: the goal is reached, neither expanded nor waiting"
    );
    assert!(s.max_frontier >= s.frontier, "{what}: {s:?}");
}
