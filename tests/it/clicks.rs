//! Every click on an enabled button acts (issue 56, item 13), however long the frames take:
//! a click whose press and release land in two frames more than egui's 0.8 s click
//! duration apart (a heavy frame under software rendering on a loaded machine) was taken
//! for a long press, and lost.

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings};

use crate::common::gui::run_until;

/// The whole app, each frame `seconds` after the one before (as the clock egui reads says).
fn harness_with_frames_of(seconds: f32, settings: Settings) -> Harness<'static, PuzzleLabApp> {
    crate::common::temp_cache();
    Harness::builder()
        .with_size(egui::vec2(1200.0, 800.0))
        .with_step_dt(seconds)
        .with_max_steps(160)
        .build_ui_state(
            |ui, app: &mut PuzzleLabApp| app.frame_ui(ui),
            PuzzleLabApp::new(settings),
        )
}

/// A hand's click on the widget labelled `label`: the pointer moves onto it (a frame), the
/// button goes down (a frame), and up (the next frame).
fn click_in_two_frames(h: &mut Harness<'static, PuzzleLabApp>, label: &str) {
    let pos = h.get_by_label(label).rect().center();
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    h.step();
}

#[test]
fn start_after_a_finished_run_acts_on_every_click_of_slow_frames() {
    // Frames 1.2 s apart: longer than egui's click duration (0.8 s).
    let mut h = harness_with_frames_of(
        1.2,
        Settings {
            full_speed: true,
            ..Settings::default()
        },
    );
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    for n in 1..=4 {
        let rows = h.state().results().len();
        click_in_two_frames(&mut h, "Start");
        assert!(
            h.state().is_running() || h.state().results().len() > rows,
            "click {n} on Start after a finished run started no run; status: {:?}",
            h.state().status().text
        );
        run_until(&mut h, |app| {
            !app.is_running() && app.results().len() > rows
        });
    }
    // A checkbox too.
    let full = h.state().settings().full_speed;
    click_in_two_frames(&mut h, "Full speed");
    h.run();
    assert_ne!(
        h.state().settings().full_speed,
        full,
        "the click on Full speed was lost"
    );
}
