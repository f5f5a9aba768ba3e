//! What a lesson's folded side panels leave in reach (the walk of issue 56, finding D).

use eframe::egui;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::search::Algorithm;

use crate::common::gui::lesson_at_1024_by_640;

/// Walk 56, finding D: in a lesson at 1024 x 640 the side panel is folded for room; F3
/// ticked "Fold the side panels" and nothing appeared, and the palette had no Edit
/// script. F3 says why the panels stay folded (the setting unchanged), and the palette
/// opens the script's editor.
#[test]
fn a_lesson_on_a_script_reaches_edit_script_and_f3_says_why_not() {
    let mut h = lesson_at_1024_by_640("missionaries.rhai", Algorithm::Bfs, None);
    assert!(h.query_by_label("Edit script").is_none(), "folded for room");
    h.key_press(egui::Key::F3);
    h.run();
    h.run();
    assert!(!h.state().settings().panels_folded);
    let status = h.state().status().text.clone();
    assert!(status.contains("No room for the side panels"), "{status}");
    // The palette's Edit script opens the editor.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::K);
    h.run();
    h.event(egui::Event::Text("Edit script".to_owned()));
    h.run();
    h.key_press(egui::Key::Enter);
    h.run_steps(4);
    assert!(h.query_by_label("Script editor").is_some());
}
