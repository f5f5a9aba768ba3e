//! Issue 47 in the window: the Learn window follows the timeline's moment (the lit line's
//! values, the caption, the open list with the next state marked), the canvas writes g on
//! the squares reached with arrows to their parents, and classroom mode is driven by keys.

use eframe::egui;
use egui_kittest::kittest::Queryable;
use puzzlelab::app::learn::Numbers;
use puzzlelab::app::{AppCommand, Settings, TimelineCommand};
use puzzlelab::puzzles;
use puzzlelab::search::Algorithm;

use crate::common::gui::{harness, run_until};

/// A* on the shipped small maze, run at full speed to its end, the Learn window open.
fn astar_on_the_small_maze() -> egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp> {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    let (t, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "maze-small.txt")
        .expect("the small maze is shipped");
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.state_mut()
        .push(AppCommand::SetAlgorithm(Algorithm::AStar));
    h.state_mut().windows.learn.open = true;
    h.run();
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    h
}

#[test]
fn the_learn_window_follows_a_scrubbed_moment() {
    let mut h = astar_on_the_small_maze();
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(5)));
    h.run();
    let (recording, moment) = h.state().learn_moment().expect("a moment");
    assert_eq!(moment.position, 5);
    let done = recording.expansion(4).unwrap();
    let caption = moment.caption();
    let square = done.place.unwrap().cell;
    assert!(
        caption.starts_with(&format!("Expanding ({}, {}): f = ", square.row, square.col)),
        "{caption}"
    );
    // The caption under the canvas, the values beside the lit line, the marked next state.
    h.get_by_label(&caption);
    h.get_by_label_contains("moment 5 of");
    h.get_by_label("next >");
    // The line lit is the expansion's: "n <- frontier.pop()".
    h.get_by_label_contains("n <- frontier.pop()");
    // Back three and forward three: the same moment, the same caption.
    for by in [-1, -1, -1, 1, 1, 1] {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Step(by)));
        h.run();
    }
    assert_eq!(h.state().learn_moment().unwrap().1, moment);
    h.get_by_label(&caption);
}

#[test]
fn the_canvas_writes_g_and_parent_arrows_on_the_squares_reached() {
    let mut h = astar_on_the_small_maze();
    h.state_mut().windows.learn.numbers = Numbers::G;
    h.state_mut().windows.learn.arrows = true;
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(12)));
    h.run();
    // Twelve expansions: twelve squares closed, each marked (the maze's squares are large).
    assert_eq!(h.state().windows.learn.painted, 12);
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(0)));
    h.run();
    assert_eq!(h.state().windows.learn.painted, 0, "nothing reached yet");
}

#[test]
fn classroom_mode_is_driven_by_keys_alone() {
    let mut h = astar_on_the_small_maze();
    h.key_press(egui::Key::F2);
    h.run();
    assert!(h.state().settings().classroom);
    assert!((h.ctx.zoom_factor() - 1.6).abs() < 1e-6);
    h.key_press(egui::Key::F3);
    h.run();
    assert!(h.state().settings().panels_folded);
    assert!(
        h.query_by_label("How this puzzle works").is_none(),
        "the side panel is folded away"
    );
    // The run's ends and steps on the timeline.
    h.key_press(egui::Key::Home);
    h.run();
    assert_eq!(h.state().learn_moment().unwrap().1.position, 0);
    for _ in 0..3 {
        h.key_press(egui::Key::ArrowRight);
        h.run();
    }
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().learn_moment().unwrap().1.position, 2);
    h.key_press(egui::Key::End);
    h.run();
    let (_, end) = h.state().learn_moment().unwrap();
    assert_eq!(end.position, end.len);
    // Speed: + doubles it.
    let speed = h.state().settings().speed;
    h.key_press(egui::Key::Plus);
    h.run();
    assert_eq!(h.state().settings().speed, speed * 2.0);
    h.key_press(egui::Key::F2);
    h.run();
    assert!((h.ctx.zoom_factor() - 1.0).abs() < 1e-6);
}
