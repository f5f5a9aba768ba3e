//! Issue 56's minor false things, from the walks: a later message ("Saved ...") hid a red
//! script error that still stood; the legends listed kinds of cell, and search marks, that
//! the canvas did not draw.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings};
use puzzlelab::puzzles::script::Script;

use crate::common::gui::{harness, open_path, run_until};

/// The app with the script `text` opened from a file in a temporary folder.
fn open_script(text: &str) -> (Harness<'static, PuzzleLabApp>, tempfile::TempDir) {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("walk.rhai");
    std::fs::write(&path, text).unwrap();
    open_path(&mut h, path);
    h.run_steps(4);
    assert!(
        h.state().model::<Script>().is_some(),
        "{:?}",
        h.state().status()
    );
    (h, dir)
}

/// A script whose `is_goal` returns a number: an error at the state on screen (line 3).
const GOAL_A_NUMBER: &str =
    "fn start() { 1 }\nfn moves(n) { [#{ label: \"+1\", to: n + 1 }] }\nfn is_goal(n) { 7 }\n";

/// Whether a widget's label or value contains `text`.
fn shown(h: &Harness<'static, PuzzleLabApp>, text: &str) -> bool {
    h.query_all_by_label_contains("").any(|n| {
        let ak = egui_kittest::kittest::NodeT::accesskit_node(&n);
        (ak.label().or_else(|| ak.value())).is_some_and(|l| l.contains(text))
    })
}

/// A save (File > Save As) after a script error: the status bar says "Saved ..." and keeps
/// the error in sight, in red, as long as it stands. Before, "Saved ..." replaced it.
#[test]
fn a_save_leaves_a_standing_script_error_in_the_status_bar() {
    let (mut h, dir) = open_script(GOAL_A_NUMBER);
    let said = "Script error at the state on screen: line 3";
    assert!(h.state().status().is_error, "{:?}", h.state().status());
    assert!(h.state().status().text.starts_with(said));
    let copy = dir.path().join("copy.rhai");
    h.state_mut().push(AppCommand::SaveTo(copy.clone()));
    h.run_steps(3);
    let status = h.state().status().clone();
    assert!(
        status.text.starts_with("Saved ") && !status.is_error,
        "{status:?}"
    );
    let (standing, _) = puzzlelab::ui::status_shown(h.state().state(), h.state().type_view());
    let standing = standing.expect("the error still stands");
    assert!(standing.starts_with(said), "{standing}");
    assert!(shown(&h, said), "the status bar shows the error");
    assert!(shown(&h, "Saved "), "and the save");
    // Fixed (a script whose goal test answers), nothing stands any more.
    let fixed = GOAL_A_NUMBER.replace("{ 7 }", "{ n == 3 }");
    std::fs::write(&copy, &fixed).unwrap();
    open_path(&mut h, copy);
    h.run_steps(4);
    let (standing, status) = puzzlelab::ui::status_shown(h.state().state(), h.state().type_view());
    assert_eq!(standing, None, "{status:?}");
    assert!(!shown(&h, said));
}

/// The script's legend lists only the kinds of cell its drawing on screen has: here the
/// state drawn as text (one number). Before, it listed empty cells, walls and 'target'
/// cells besides.
#[test]
fn a_scripts_legend_lists_only_the_cells_drawn() {
    let (h, _dir) = open_script(
        "fn start() { 1 }\nfn moves(n) { [#{ label: \"+1\", to: n + 1 }].filter(|m| m.to <= 3) }\n\
         fn is_goal(n) { n == 3 }\n",
    );
    assert!(h.query_by_label("a number of the drawing").is_some());
    for absent in [
        "an empty cell of the script's drawing",
        "a wall (#) of the drawing",
        "a cell the drawing colours 'target'",
    ] {
        assert!(h.query_by_label(absent).is_none(), "{absent} is listed");
    }
    // A drawing with walls and a target lists them.
    let (h, _dir) = open_script(
        "fn start() { 1 }\nfn moves(n) { [] }\nfn is_goal(n) { false }\n\
         fn draw(n) { [[\"#\", \"\", #{ text: \"T\", colour: \"target\" }]] }\n",
    );
    for listed in [
        "an empty cell of the script's drawing",
        "a wall (#) of the drawing",
        "a cell the drawing colours 'target'",
    ] {
        assert!(h.query_by_label(listed).is_some(), "{listed} is not listed");
    }
    assert!(h.query_by_label("a number of the drawing").is_none());
}

/// A grid's legend lists the search's marks only once the canvas draws them: no closed set
/// or frontier before a run, both after it, and the solution once found.
#[test]
fn a_mazes_legend_lists_the_search_marks_only_when_drawn() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    let (t, shipped) = puzzlelab::puzzles::shipped()
        .find(|(_, s)| s.file == "maze-small.txt")
        .expect("maze-small.txt is shipped");
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run_steps(4);
    for absent in [
        "closed: expanded",
        "frontier: reached, not yet expanded",
        "solution",
    ] {
        assert!(h.query_by_label(absent).is_none(), "{absent} before a run");
    }
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run_steps(4);
    assert!(h.query_by_label("closed: expanded").is_some());
    assert!(h.query_by_label("solution").is_some());
}
