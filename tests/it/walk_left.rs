//! Issue 56: the minor false things the second walk left (each held by a test that fails
//! without its fix).

use eframe::egui;
use puzzlelab::app::{AppCommand, Settings};
use puzzlelab::search::Algorithm;

use crate::common::gui::{harness_sized, open_for_learning, run_until};

type Harness = egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp>;

/// The app on the shipped `file` with `algorithm`, its run done at full speed.
fn solved(file: &str, algorithm: Algorithm) -> Harness {
    // Tall enough for the whole side panel (it scrolls in lower windows).
    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        2000.0,
    );
    open_for_learning(&mut h, file, algorithm);
    h.state_mut().windows.learn.open = false;
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    h.run();
    h
}

/// The texts painted last frame that start with `prefix`.
fn painted(h: &Harness, prefix: &str) -> Vec<String> {
    (h.output().shapes.iter())
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Text(text) if text.galley.job.text.starts_with(prefix) => {
                Some(text.galley.job.text.clone())
            }
            _ => None,
        })
        .collect()
}

/// A breadth-first run on a planning task named h^max in its status line ("grounded: ...
/// facts, ... operators; heuristic: h^max"): breadth-first search reads no heuristic.
#[test]
fn a_planning_runs_status_names_a_heuristic_only_when_the_search_uses_one() {
    for (algorithm, named) in [(Algorithm::Bfs, false), (Algorithm::AStar, true)] {
        let h = solved("planning-gripper.pddl", algorithm);
        let status = &h.state().status().text;
        assert!(status.starts_with("Solved"), "{status}");
        assert_eq!(
            status.contains("heuristic"),
            named,
            "{algorithm:?}: {status}"
        );
    }
}

/// At the end of a script's solution played back (16/16 on Guarini's knights; here the
/// water jugs), the side panel's "State:" said the start: it says the state shown.
#[test]
fn a_scripts_side_panel_says_the_state_the_playback_shows() {
    let h = solved("water-jugs.rhai", Algorithm::Bfs);
    let report = h.state().result().unwrap().clone();
    let n = report.moves.len();
    assert!(n > 0);
    assert_eq!(h.state().shown_moves(), n, "the playback at its end");
    let states = painted(&h, "State: ");
    assert_eq!(states.len(), 1, "{states:?}");
    assert!(
        states[0].ends_with(&format!("(after move {n} of the solution)")),
        "{states:?}"
    );
    let script = h
        .state()
        .puzzle()
        .as_any()
        .downcast_ref::<puzzlelab::puzzles::script::Script>();
    let start = script.unwrap().state_text();
    assert_ne!(states[0], format!("State: {start}"), "not the start");
}
