//! Issue 47 in the window: the Learn window follows the timeline's moment (the lit line's
//! values, the caption, the open list with the next state marked), the canvas writes g on
//! the squares reached with arrows to their parents, and classroom mode is driven by keys.

use eframe::egui;
use egui_kittest::kittest::Queryable;
use puzzlelab::app::learn::Numbers;
use puzzlelab::app::{AppCommand, Settings, TimelineCommand};
use puzzlelab::puzzles;
use puzzlelab::search::Algorithm;

use crate::common::gui::{harness, learn_to_the_end};

/// A* on the shipped small maze, run at full speed to its end, the Learn window open.
fn astar_on_the_small_maze() -> egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp> {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    learn_to_the_end(&mut h, "maze-small.txt", Algorithm::AStar);
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
    // The line lit is the expansion's: its loop over the successors.
    assert_eq!(
        puzzlelab::search::pseudocode::pseudocode(Algorithm::AStar).line(moment.step),
        Some(6),
        "for each successor s of n"
    );
    // Back three and forward three: the same moment, the same caption.
    for by in [-1, -1, -1, 1, 1, 1] {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Step(by)));
        h.run();
    }
    assert_eq!(h.state().learn_moment().unwrap().1, moment);
    h.get_by_label(&caption);
}

/// Issue 56 item 10: every square reached carries its number and arrow, the frontier's and
/// the start's too, and an arrow starts past its own square's number and ends before its
/// parent's (neither covers the other).
#[test]
fn the_canvas_writes_g_and_parent_arrows_on_the_squares_reached() {
    use puzzlelab::app::Mark;
    let mut h = astar_on_the_small_maze();
    h.state_mut().windows.learn.numbers = Numbers::G;
    h.state_mut().windows.learn.arrows = true;
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(12)));
    h.run();
    // Twelve expansions: twelve squares closed and the frontier's, each marked (the maze's
    // squares are large).
    let marks = h.state().marks();
    let (rows, cols) = marks.dims();
    let frontier = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| puzzles::Cell::new(r, c)))
        .filter(|&c| marks.mark(c) == Mark::Frontier)
        .count();
    assert!(frontier > 0);
    assert_eq!(h.state().windows.learn.painted, 12 + frontier);
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(0)));
    h.run();
    assert_eq!(h.state().windows.learn.painted, 1, "the start, with its 0");
    // The number (three digits at most, as drawn) and the arrows apart, at any side drawn.
    use puzzlelab::ui::{LEARN_ARROW_FROM, LEARN_ARROW_LENGTH, LEARN_MIN_SIDE};
    for side in [LEARN_MIN_SIDE, 30.0, 60.0] {
        let width = h.ctx.fonts_mut(|f| {
            f.layout_no_wrap(
                "888".into(),
                egui::FontId::proportional(side * 0.32),
                egui::Color32::BLACK,
            )
            .size()
            .x
        });
        assert!(width / 2.0 < LEARN_ARROW_FROM * side, "{side}: {width}");
        let tip = LEARN_ARROW_FROM + LEARN_ARROW_LENGTH;
        assert!(
            (1.0 - tip) * side > width / 2.0,
            "{side}: the tip on the parent's number"
        );
    }
}

#[test]
fn classroom_mode_is_driven_by_keys_alone() {
    let mut h = astar_on_the_small_maze();
    h.key_press(egui::Key::F2);
    h.run();
    assert!(h.state().settings().classroom);
    assert!((h.ctx.zoom_factor() - 1.5).abs() < 1e-6);
    // The Learn panel open, the window has no room for the side panels: F3 says so
    // rather than tick a fold that changes nothing on screen (the walk 56's finding D).
    h.key_press(egui::Key::F3);
    h.run();
    assert!(!h.state().settings().panels_folded);
    let status = &h.state().status().text;
    assert!(status.contains("No room for the side panels"), "{status}");
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

/// Micro-steps, one event at a time through three expansions and back: every event lights
/// the line of its step (take, goal test, each push, in the run's order) at the moment of
/// its own expansion (the state `n` the values name and the canvas outlines), and coming
/// back gives the same moment.
#[test]
fn micro_steps_go_through_each_event_and_back() {
    use puzzlelab::search::pseudocode::{Step, pseudocode};
    let mut h = astar_on_the_small_maze();
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(4)));
    h.run();
    let (recording, start) = h.state().learn_moment().unwrap();
    let code = pseudocode(Algorithm::AStar);
    // The reference, from the algorithm's definition: take, test, then one push a successor;
    // the events of expansion j (from 0) belong to moment j + 1, whose n it expands.
    let mut expected = Vec::new();
    for j in 4..7 {
        expected.push((j + 1, Step::Take));
        expected.push((j + 1, Step::GoalTest));
        for _ in recording.pushed(Some(j)) {
            expected.push((j + 1, Step::Push));
        }
    }
    let mut seen = Vec::new();
    let mut first = None;
    for _ in 0..expected.len() {
        h.key_press(egui::Key::Period);
        h.run();
        let (_, m) = h.state().learn_moment().unwrap();
        seen.push((m.position, m.step));
        first.get_or_insert(m.clone());
        // The lit line is the step's line of the pseudo-code, and the window shows it.
        h.get_by_label_contains(code.lines[code.line(m.step).unwrap()].trim());
        // The state the values name is the one expanded at this moment.
        let n = recording.expansion(m.position - 1).unwrap().place.unwrap();
        h.get_by_label_contains(&format!(
            "moment {} of {} · n = ({}, {})",
            m.position, m.len, n.cell.row, n.cell.col
        ));
    }
    assert_eq!(seen, expected);
    // Back to the first event: the same moment as when it was first shown.
    for _ in 1..expected.len() {
        h.key_press(egui::Key::Comma);
        h.run();
    }
    assert_eq!(h.state().learn_moment().unwrap().1, first.unwrap());
    // One more back: before the take, the previous expansion's last push.
    h.key_press(egui::Key::Comma);
    h.run();
    let (_, back) = h.state().learn_moment().unwrap();
    assert_eq!((back.position, back.step), (start.position, Step::Push));
}

/// Predict mode scores a wrong click and a right one, and says why.
#[test]
fn predict_mode_scores_a_right_and_a_wrong_click() {
    let mut h = astar_on_the_small_maze();
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(3)));
    h.run();
    // Predict mode is the Learn window's; the window is closed so that it covers no square.
    h.state_mut().windows.learn.predict = true;
    h.state_mut().windows.learn.open = false;
    h.run();
    let (_, m) = h.state().learn_moment().unwrap();
    let next = m.next.unwrap().place.unwrap().cell;
    // A wall square is never next.
    let wrong = puzzlelab::puzzles::Cell::new(1, 1);
    assert_ne!(wrong, next);
    crate::common::gui::click_cell(&mut h, wrong);
    h.run();
    assert_eq!(h.state().windows.learn.score, (0, 1));
    let (good, text) = h.state().windows.learn.verdict.clone().unwrap();
    assert!(!good && text.contains("not on the frontier"), "{text}");
    crate::common::gui::click_cell(&mut h, next);
    h.run();
    assert_eq!(h.state().windows.learn.score, (1, 2));
    assert!(h.state().windows.learn.verdict.clone().unwrap().0);
    assert_eq!(
        h.state().learn_moment().unwrap().1.position,
        4,
        "on to the next"
    );
}

/// Every algorithm, on the small maze and on an 8-puzzle board: at each moment of its run the
/// step is the one the algorithm's definition says (the start before any expansion, an
/// expansion after each, the goal found at the end; within an expansion: the take, the goal
/// test, one push a successor put on the frontier), and its line of the pseudo-code says so.
#[test]
fn every_algorithm_lights_the_line_of_each_step() {
    use puzzlelab::app::learn::{Ending, Moment};
    use puzzlelab::runs::recording::TraceRecorder;
    use puzzlelab::search::CancelToken;
    use puzzlelab::search::pseudocode::{Step, pseudocode};
    let maze = puzzles::load_file(std::path::Path::new("puzzles/maze-small.txt"), None).unwrap();
    let board = puzzles::parse("1 2 3\n4 5 6\n0 7 8\n", Some("sliding")).unwrap();
    for puzzle in [maze.as_ref(), board.as_ref()] {
        for algorithm in puzzle.algorithms() {
            let mut recorder = if puzzle.puzzle_type().name == "sliding" {
                TraceRecorder::with_boards(1 << 26)
            } else {
                TraceRecorder::new(1 << 26)
            };
            let report = puzzle
                .solve(algorithm, &mut recorder, &CancelToken::new())
                .unwrap();
            recorder.finish();
            let code = pseudocode(algorithm);
            let len = recorder.expansions();
            let ending = Ending::Ended(report.outcome);
            for position in 0..=len {
                let m = Moment::at(&recorder, position, None, ending);
                let expected = match position {
                    p if p == len && report.solved => Step::Found,
                    p if p == len => Step::Failed,
                    0 => Step::Start,
                    _ => Step::Expand,
                };
                assert_eq!(m.step, expected, "{algorithm:?} at {position}");
                assert!(!m.caption().is_empty());
                if position > 0 {
                    let events = Moment::events(m.pushed);
                    let steps: Vec<Step> = (0..events)
                        .map(|e| Moment::at(&recorder, position, Some(e), ending).step)
                        .collect();
                    let mut reference = vec![Step::Take, Step::GoalTest];
                    reference.extend(std::iter::repeat_n(Step::Push, m.pushed));
                    assert_eq!(steps, reference, "{algorithm:?} at {position}");
                    for step in steps {
                        let line = code.lines[code.line(step).unwrap()].to_lowercase();
                        let says = match step {
                            Step::Take => line.contains("pop()") || line.contains("f <- g + h"),
                            Step::GoalTest => line.contains("goal"),
                            _ => line.contains("push") || line.contains("bounded-dfs(s"),
                        };
                        assert!(says, "{algorithm:?} {step:?}: {line}");
                    }
                }
            }
        }
    }
}

/// In classroom mode the arrows drive the run on the sliding puzzle too: Left steps the
/// timeline back and slides no tile (it slid one and threw the lesson's run away: "Search
/// stopped: the puzzle was edited", found walking the app as a teacher). Outside classroom
/// mode the arrows slide tiles, as before.
#[test]
fn classroom_arrows_drive_the_run_on_the_sliding_puzzle() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    learn_to_the_end(&mut h, "sliding-8-easy-6.txt", Algorithm::AStar);
    h.key_press(egui::Key::F2);
    h.run();
    assert!(h.state().settings().classroom);
    let before = h.state().learn_moment().expect("a moment").1.position;
    assert!(before > 0);
    h.key_press(egui::Key::ArrowLeft);
    h.run();
    assert!(h.state().result().is_some(), "{:?}", h.state().status());
    let after = h.state().learn_moment().expect("a moment").1.position;
    assert_eq!(after, before - 1);
}
