//! The room the Learn panel leaves the canvas, and what the panel keeps in sight, at
//! 1024 x 640 (the walk of issue 56).

use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, Settings};
use puzzlelab::search::Algorithm;
use puzzlelab::ui::CANVAS_LABEL;

use crate::common::gui::{click_label, harness_at, open_path, run_until};

type Harness = egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp>;

/// Fails unless the canvas is at least 40 % of the window's width.
fn assert_canvas_share(h: &Harness, what: &str) {
    let window = h.ctx.content_rect();
    let canvas = h.get_by_label(CANVAS_LABEL).rect();
    assert!(
        canvas.width() >= 0.4 * window.width(),
        "{what}: the canvas {canvas:?} in a window of {window:?}"
    );
}

/// Walk 56, finding A: outside classroom mode at 1024 x 640, with the Learn panel and a
/// script's editor open, the canvas kept 9 % of the width and the playback bar was cut.
/// The canvas keeps 40 % in every mode: the two take turns beside it, the switch under
/// the canvas choosing.
#[test]
fn learn_and_the_editor_take_turns_outside_classroom_mode() {
    let mut h = harness_at(1024.0, 640.0, Settings::default());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("water-jugs.rhai");
    std::fs::copy("puzzles/water-jugs.rhai", &path).unwrap();
    open_path(&mut h, path);
    h.state_mut().push(AppCommand::SetAlgorithm(Algorithm::Bfs));
    click_label(&mut h, "Edit script");
    h.run_steps(4);
    h.state_mut().windows.learn.open = true;
    h.run();
    h.run();
    assert!(!h.state().settings().classroom);
    assert_canvas_share(&h, "the Learn panel shown");
    h.get_by_label_contains("Start a search: the lit line")
        .rect();
    h.get_by_label("Editor").click();
    h.run();
    h.run();
    assert!(h.query_by_label("Script editor").is_some());
    assert_canvas_share(&h, "the editor shown");
    // The playback bar whole under the canvas.
    let window = h.ctx.content_rect();
    let names = puzzlelab::ui::TIMELINE_BUTTONS.map(|(_, name)| name);
    for label in names.iter().chain([&puzzlelab::ui::SCRUBBER_LABEL]) {
        let r = h.get_by_label(label).rect();
        assert!(window.contains_rect(r), "{label}: {r:?}");
    }
}

/// Walk 56, finding A: with the Learn panel open and the side panel shown outside
/// classroom mode at 1024 x 640, the canvas got 34 % of the width; it keeps 40 %.
#[test]
fn learn_beside_the_side_panel_leaves_the_canvas_40_percent() {
    let mut h = harness_at(1024.0, 640.0, Settings::default());
    h.state_mut().windows.learn.open = true;
    h.run();
    h.run();
    assert!(h.query_by_label("Start").is_some());
    assert_canvas_share(&h, "the side panel and the Learn panel shown");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    assert_canvas_share(&h, "after a run");
}

/// Walk 56, finding B: in a lesson at 1024 x 640 with Predict on, the open list showed two
/// rows under the code. The code, Predict's lines and the open list's first five rows are
/// in sight together, above the status bar, the code's type at least 9 points.
#[test]
fn a_lesson_with_predict_on_keeps_code_and_five_rows_in_sight() {
    use eframe::egui::accesskit::Role;
    use puzzlelab::app::learn::LearnCommand;
    let mut h =
        crate::common::gui::lesson_at_1024_by_640("sliding-8-easy-6.txt", Algorithm::Bfs, Some(50));
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Predict(true)));
    h.run();
    h.run();
    let list = h.state().learn_open_list().expect("an open list");
    assert!(list.len() >= 5, "{}", list.len());
    let panel_top = h.get_by_label("Close").rect().bottom();
    let status = h.get_by_label(&h.state().status().text).rect().top();
    let code = puzzlelab::search::pseudocode::pseudocode(Algorithm::Bfs);
    for (i, line) in code.lines.iter().enumerate() {
        let r = h.get_by_label(&format!("{:>2}  {line}", i + 1)).rect();
        assert!(
            r.top() >= panel_top && r.bottom() <= status,
            "{line}: {r:?}"
        );
        assert!(r.height() >= 10.0, "{line}: {r:?} too small to read");
    }
    let predict = h.get_by_label("Predict the next state").rect();
    assert!(predict.bottom() <= status, "{predict:?}");
    let (recording, _) = h.state().learn_moment().unwrap();
    for entry in list.iter().take(5) {
        let board = entry.board.expect("a board on the list");
        let name = recording.generated_picture(board).unwrap().board_line();
        let r = h.get_by_role_and_label(Role::Link, &name).rect();
        assert!(
            r.top() >= predict.bottom() && r.bottom() <= status,
            "row {name} out of sight: {r:?}, the status bar at {status}"
        );
    }
}
