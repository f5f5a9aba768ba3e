//! The script editor brings a new error's line into view (the walk of issue 56, finding C).

use eframe::egui;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::Settings;

use crate::common::gui::{click_label, harness, open_path};

/// Walk 56, finding C: Ctrl+S marked an error on a line out of the editor's view, and the
/// editor did not scroll to it. The marked line is brought into view when the error comes.
#[test]
fn a_new_errors_line_is_scrolled_into_view() {
    let mut h = harness(Settings::default());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missionaries.rhai");
    std::fs::copy("puzzles/missionaries.rhai", &path).unwrap();
    open_path(&mut h, path);
    click_label(&mut h, "Edit script");
    h.run_steps(4);
    // The error on line 3, the cursor (and the editor's view) at the end, 120 lines down.
    let mut broken =
        "fn start() { 0 }\nfn is_goal(s) { s == 1 }\nfn moves(s) { let 5 = s; [] }\n".to_owned();
    for i in 0..120 {
        broken.push_str(&format!("// comment {i}\n"));
    }
    h.get_by_label("Script text").focus();
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(2);
    h.get_by_label("Script text").type_text(&broken);
    h.run_steps(4);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(6);
    assert!(h.state().status().is_error, "{:?}", h.state().status());
    let top = h.get_by_label("Save and reload").rect().bottom();
    let window = h.ctx.content_rect();
    let marked = h.get_by_label("Marked line 3").rect();
    assert!(
        marked.top() >= top && marked.bottom() <= window.bottom(),
        "the marked line {marked:?} in view, below {top} in {window:?}"
    );
}
