//! What a lesson's folded side panels leave in reach, and the toolbar's Details while
//! another panel takes its place (the walk of issue 56, findings D and E).

use eframe::egui;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use puzzlelab::app::Settings;
use puzzlelab::search::Algorithm;

use crate::common::gui::{click_label, harness_at, lesson_at_1024_by_640, open_path};

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

/// Walk 56, finding E: with the script's editor open (in the details panel's place), the
/// toolbar's Details lit up and went dark with nothing shown. It is off, and says why.
#[test]
fn details_is_off_while_the_editor_holds_its_place() {
    let mut h = harness_at(1024.0, 640.0, Settings::default());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missionaries.rhai");
    std::fs::copy("puzzles/missionaries.rhai", &path).unwrap();
    open_path(&mut h, path);
    let on = |h: &egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp>| {
        !h.get_by_label("Details").accesskit_node().is_disabled()
    };
    assert!(on(&h), "Details works with the details panel's place free");
    click_label(&mut h, "Edit script");
    h.run_steps(4);
    assert!(h.query_by_label("Script editor").is_some());
    assert!(!on(&h), "Details is off while the editor holds its place");
    h.state_mut().windows.learn.open = true;
    h.run();
    assert!(
        !on(&h),
        "Details is off while the Learn panel holds its place"
    );
}
