//! The side panel and what opens beside it (issue 56, item 14): its width after a Moving AI
//! scenario, a scenario's map unedited, a state opened from the State space window asking
//! before the run goes, Hint in sight, the panel not scrolling under the pointer when its
//! content grows shorter.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings};

use crate::common::gui::{harness, write_tiny_scenario};

/// Where the side panel ends: the canvas's left edge, in points.
fn side_panel_width(h: &Harness<'static, PuzzleLabApp>) -> f32 {
    h.get_by_label(puzzlelab::ui::CANVAS_LABEL).rect().left()
}

/// A Moving AI scenario widens the side panel for its own lines at most while it is on
/// screen: another type's panel is as wide as before it (it stayed 362 points wide on
/// every type until a restart).
#[test]
fn the_side_panel_narrows_again_after_a_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let scen = write_tiny_scenario(dir.path(), false);
    let mut h = harness(Settings::default());
    h.run();
    let before = side_panel_width(&h);
    h.state_mut().push(AppCommand::OpenPath(scen));
    h.run();
    let with_scenario = side_panel_width(&h);
    let sliding = puzzlelab::puzzles::type_by_name("sliding").unwrap();
    h.state_mut().push(AppCommand::SelectType(sliding));
    h.run();
    let after = side_panel_width(&h);
    eprintln!("before {before} scenario {with_scenario} after {after}");
    assert!(
        (after - before).abs() < 1.0,
        "the side panel was {before} points wide, {with_scenario} with the scenario, {after} on another type"
    );
}

/// Opening a scenario places its first problem on its map: that is not an edit of the map
/// (no `*`, nothing to save), nor is stepping to the next problem.
#[test]
fn opening_a_scenario_leaves_its_map_unedited() {
    let dir = tempfile::tempdir().unwrap();
    let scen = write_tiny_scenario(dir.path(), false);
    let mut h = harness(Settings::default());
    h.state_mut().push(AppCommand::OpenPath(scen));
    h.run();
    assert!(
        h.state().settings().path.is_some(),
        "status: {:?}",
        h.state().status()
    );
    assert!(
        !h.state().is_modified(),
        "the scenario's map is marked edited"
    );
    crate::common::gui::click_label(&mut h, "Next problem");
    h.run();
    assert!(
        !h.state().is_modified(),
        "the next problem marked the map edited"
    );
    let _ = h.get_by_label("Next problem");
}

/// Opening a state from the State space window over a run asks first, as unsaved edits
/// do: Cancel keeps the run, Discard the run opens the state.
#[test]
fn opening_a_state_over_a_run_asks_before_discarding_it() {
    use puzzlelab::app::oracle::OracleStatus;
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    crate::common::gui::click_label(&mut h, "Optimal moves");
    crate::common::gui::run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
            && app.windows.oracle.space().is_some()
    });
    h.state_mut().push(AppCommand::Start);
    crate::common::gui::run_until(&mut h, |app| app.result().is_some());
    h.run();
    let puzzle = h.state().puzzle().to_text();
    // What a click on state 1 in the window pushes.
    h.state_mut().push(AppCommand::OpenState(1));
    h.run();
    assert!(h.state().question_is_about_run(), "no question asked");
    assert!(
        h.state().result().is_some(),
        "the run went before the answer"
    );
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.state().unsaved_question().is_none());
    assert!(h.state().result().is_some(), "Cancel discarded the run");
    assert_eq!(h.state().puzzle().to_text(), puzzle);

    h.state_mut().push(AppCommand::OpenState(1));
    h.run();
    h.get_by_label("Discard the run").click();
    h.run();
    assert!(h.state().result().is_none());
    assert!(
        h.state().status().text.starts_with("Opened state 1"),
        "status: {:?}",
        h.state().status()
    );
}

/// Hint on a puzzle script is in sight: its words right under the switch in an 800-point
/// window, its move marked among the move buttons, and on the canvas where the move names
/// a cell (it was one line below the fold, with nothing marked).
#[test]
fn a_hint_on_a_script_is_in_sight_and_marked_on_its_move() {
    use egui_kittest::kittest::NodeT as _;
    use puzzlelab::app::oracle::OracleStatus;
    let mut h = harness(Settings::default());
    let (t, shipped) = puzzlelab::puzzles::shipped()
        .find(|(_, s)| s.file == "lights-out.rhai")
        .unwrap();
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run_steps(4);
    crate::common::gui::click_label(&mut h, "Optimal moves");
    crate::common::gui::run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
    });
    h.run();
    crate::common::gui::click_label(&mut h, "Hint");
    h.run();
    let hint = h
        .state()
        .windows
        .oracle
        .assessment()
        .and_then(|a| a.hint())
        .map(|m| m.label.clone())
        .expect("the oracle's hint");
    let words = h.get_by_label(&format!("Hint: {hint}")).rect();
    let bottom = h.get_by_label("Optimal moves").rect().bottom();
    assert!(
        words.bottom() < 800.0 - 30.0,
        "the hint's words at {words:?}, out of sight"
    );
    assert!(words.top() > bottom);
    let button = h.get_by_label(&hint);
    assert_eq!(
        button.accesskit_node().toggled(),
        Some(eframe::egui::accesskit::Toggled::True),
        "the hinted move's button is not marked"
    );
    let view = h.state().type_view().unwrap();
    let read = puzzlelab::app::ViewRead::read(h.state());
    assert!(
        view.canvas_extras(&read, None).selected.is_some(),
        "the hinted move's cell is not marked on the canvas"
    );
}

/// The side panel scrolled to its end keeps its place when its content grows shorter (a
/// window closed, a line gone): Hint untoggled takes its line of words away at the end, and
/// the Hint button stays under the pointer (the scroll area pulled the content down, so the
/// next click landed on Optimal moves above it).
#[test]
fn the_side_panel_keeps_its_scrolled_place_when_its_content_shrinks() {
    use puzzlelab::app::oracle::OracleStatus;
    let mut h = crate::common::gui::harness_sized(Settings::default(), 560.0);
    let (t, shipped) = puzzlelab::puzzles::shipped()
        .find(|(_, s)| s.file == "lights-out.rhai")
        .unwrap();
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run_steps(4);
    crate::common::gui::click_label(&mut h, "Optimal moves");
    crate::common::gui::run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
    });
    h.run();
    crate::common::gui::click_label(&mut h, "Hint");
    h.run();
    // To the panel's end, the pointer over it.
    let over = h.get_by_label("Optimal moves").rect().center();
    h.hover_at(over);
    h.run();
    crate::common::gui::wheel(&mut h, -4000.0);
    let hint = h.get_by_label("Hint").rect();
    let optimal = h.get_by_label("Optimal moves").rect();
    assert!(hint.bottom() < 560.0, "Hint in sight at the end: {hint:?}");
    // The hint's words go: the content is a line shorter.
    crate::common::gui::click_at(&mut h, hint.center());
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("Hint: ").is_none(),
        "the hint's words went"
    );
    let moved = h.get_by_label("Hint").rect();
    assert!(
        (moved.top() - hint.top()).abs() < 1.0,
        "Hint moved from {hint:?} to {moved:?} under the pointer"
    );
    let still = h.get_by_label("Optimal moves").rect();
    assert!(
        (still.top() - optimal.top()).abs() < 1.0,
        "{optimal:?} -> {still:?}"
    );
    assert!(
        h.state().windows.oracle.enabled,
        "Optimal moves still ticked"
    );
}
