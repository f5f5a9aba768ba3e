//! Issue 57's walk: the script editor's heading said "unsaved script" for a script with a
//! file (missionaries.rhai from the puzzle list, a script opened from disk). It names the
//! file (or the shipped script), and says "unsaved" only of what is: the edits not yet
//! written, or a script that has no file yet.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings};
use puzzlelab::puzzles;

use crate::common::gui::{click_label, harness, open_path};

/// Opens the editor with the side panel's Edit script.
fn open_editor(h: &mut Harness<'static, PuzzleLabApp>) {
    click_label(h, "Edit script");
    h.run_steps(4);
    assert!(h.query_by_label("Script editor").is_some());
}

/// Whether any label on screen says "unsaved".
fn says_unsaved(h: &Harness<'static, PuzzleLabApp>) -> bool {
    h.query_by_label_contains("unsaved").is_some()
}

#[test]
fn the_script_editors_heading_names_a_shipped_script() {
    let mut h = harness(Settings::default());
    let (t, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "missionaries.rhai")
        .expect("shipped");
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    open_editor(&mut h);
    h.get_by_label("missionaries.rhai, shipped: Save asks where to write it");
    assert!(!says_unsaved(&h), "nothing typed, nothing unsaved");
}

#[test]
fn the_script_editors_heading_names_a_scripts_file_and_says_when_edits_are_unsaved() {
    let mut h = harness(Settings::default());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missionaries.rhai");
    std::fs::write(
        &path,
        std::fs::read_to_string("puzzles/missionaries.rhai").unwrap(),
    )
    .unwrap();
    open_path(&mut h, path);
    open_editor(&mut h);
    h.get_by_label("missionaries.rhai");
    assert!(!says_unsaved(&h));
    h.get_by_label("Script text").focus();
    h.run_steps(2);
    h.key_press(egui::Key::End);
    h.get_by_label("Script text").type_text(" ");
    h.run_steps(2);
    h.get_by_label("missionaries.rhai (unsaved edits)");
}

#[test]
fn the_script_editors_heading_says_a_new_script_has_no_file_yet() {
    let mut h = harness(Settings::default());
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("New puzzle script").click();
    h.run_steps(4);
    h.get_by_label("no file yet: Save asks where to write it");
}
