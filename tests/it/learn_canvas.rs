//! Walk report W19 (issue 56): where the Learn panel or the caption under the canvas names
//! "the board shown", the canvas draws that board: the board the moment's expansion took,
//! read from the recording. Read from what the canvas itself says it draws (its description
//! for a screen reader, made from the picture it paints each frame), at every moment and
//! micro-step of runs paused, stopped and found, on sliding tiles, Klotski and a puzzle
//! script.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings, TimelineCommand};
use puzzlelab::search::Algorithm;

use crate::common::gui::{harness_at, open_for_learning, run_until};

/// The board the canvas says it draws (`4 1 2 / _ 5 3 / 7 8 6`), `None` for none.
fn board_drawn(h: &Harness<'static, PuzzleLabApp>) -> Option<String> {
    let said = h
        .get_by_label(puzzlelab::ui::CANVAS_LABEL)
        .accesskit_node()
        .description()
        .unwrap_or_default();
    let (_, board) = said.split_once("The board shown: ")?;
    Some(board.split('.').next().unwrap_or_default().to_owned())
}

/// Where the moment on screen names "the board shown" (beside the lit line or in the
/// caption), the board the canvas draws is the board its expansion took; `at` names the
/// moment in a failure. Returns whether the moment named it.
fn the_board_named_is_drawn(h: &Harness<'static, PuzzleLabApp>, at: &str) -> bool {
    let (recording, m) = h.state().learn_moment().expect("a moment");
    let (values, caption) = (m.values(), m.caption());
    if !values.contains("the board shown") && !caption.contains("the board shown") {
        return false;
    }
    let want = recording
        .board_at(m.position - 1)
        .expect("the board of the moment's expansion")
        .board_line();
    assert_eq!(
        board_drawn(h).as_deref(),
        Some(want.as_str()),
        "{at}: the panel says \"{values}\" and \"{caption}\""
    );
    true
}

/// Every moment of the run on the timeline and every micro-step of each (all of them when
/// `events`, else the moments alone), checked by [`the_board_named_is_drawn`], then the
/// timeline sent back to the run's end. Returns how many moments named the board shown.
fn every_moment(h: &mut Harness<'static, PuzzleLabApp>, what: &str, events: bool) -> usize {
    let (_, end) = h.state().learn_moment().unwrap();
    let mut named = 0;
    for position in 1..=end.len {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(position)));
        h.state_mut().windows.learn.event = None;
        h.run();
        named += usize::from(the_board_named_is_drawn(
            h,
            &format!("{what}, moment {position}"),
        ));
        let (_, m) = h.state().learn_moment().unwrap();
        let last = if events {
            puzzlelab::app::learn::Moment::events(m.pushed)
        } else {
            0
        };
        for event in 0..last {
            h.state_mut().windows.learn.event = Some((position, event));
            h.run();
            named += usize::from(the_board_named_is_drawn(
                h,
                &format!("{what}, moment {position}, event {}", event + 1),
            ));
        }
    }
    h.state_mut().windows.learn.event = None;
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Follow));
    h.run();
    named
}

/// The app at 1024 x 640 on the shipped `file` with `algorithm` chosen and the Learn panel
/// open, at a lesson's speed (or at full speed).
fn lesson(file: &str, algorithm: Algorithm, full_speed: bool) -> Harness<'static, PuzzleLabApp> {
    let mut h = harness_at(
        1024.0,
        640.0,
        Settings {
            speed: 40.0,
            full_speed,
            ..Settings::default()
        },
    );
    open_for_learning(&mut h, file, algorithm);
    h
}

/// `steps` Steps from the start (the run paused after each), then the live moment checked.
fn stepped(h: &mut Harness<'static, PuzzleLabApp>, steps: u64, what: &str) {
    for k in 1..=steps {
        h.state_mut().push(AppCommand::Step);
        run_until(h, |app| app.marks().stats.expanded >= k);
        h.run();
    }
    assert!(h.state().is_running(), "{what}: paused, not ended");
    assert!(
        the_board_named_is_drawn(h, &format!("{what}, paused after {steps} Steps")),
        "{what}: the paused moment names the board shown"
    );
}

/// The run stopped where it stands, then its last moment checked.
fn stopped(h: &mut Harness<'static, PuzzleLabApp>, what: &str) {
    h.state_mut().push(AppCommand::Stop);
    run_until(h, |app| !app.is_running() && app.result().is_some());
    for _ in 0..3 {
        h.run();
    }
    let (_, m) = h.state().learn_moment().unwrap();
    assert_eq!(m.position, m.len, "{what}: at the run's end");
    assert!(
        the_board_named_is_drawn(h, &format!("{what}, stopped, its last moment")),
        "{what}: the stopped run's last moment names the board shown"
    );
}

/// W19 on the walk's 8-puzzle: paused after Steps, then stopped (the walk's "22 of 22"
/// showing the start board), at every moment and micro-step of the stopped run.
#[test]
fn a_stopped_8_puzzle_lesson_draws_the_board_it_names() {
    let mut h = lesson("sliding-8-easy-12.txt", Algorithm::AStar, false);
    stepped(&mut h, 2, "8-puzzle A*");
    h.state_mut().push(AppCommand::Resume);
    run_until(&mut h, |app| app.marks().stats.expanded >= 6);
    stopped(&mut h, "8-puzzle A*");
    assert!(every_moment(&mut h, "8-puzzle A*, stopped", true) > 6);
}

/// The same on Klotski (pieces, not tiles) and on a puzzle script (a drawn board): paused,
/// stopped, every moment.
#[test]
fn stopped_klotski_and_script_lessons_draw_the_board_they_name() {
    for (file, algorithm) in [
        ("klotski-classic.txt", Algorithm::AStar),
        ("hanoi.rhai", Algorithm::Bfs),
    ] {
        let mut h = lesson(file, algorithm, false);
        stepped(&mut h, 3, file);
        stopped(&mut h, file);
        assert!(every_moment(&mut h, file, false) >= 3, "{file}");
    }
}

/// A run that found its goal: at its moments and micro-steps (the timeline sent back) the
/// board named is drawn; at its end, breadth-first's last expansion (whose successor is the
/// goal) is not called "the board shown" while the canvas shows the solution.
#[test]
fn a_found_8_puzzle_lessons_moments_draw_the_board_they_name() {
    for algorithm in [Algorithm::AStar, Algorithm::Bfs] {
        let mut h = lesson("sliding-8-easy-6.txt", algorithm, true);
        h.state_mut().push(AppCommand::Start);
        run_until(&mut h, |app| app.result().is_some());
        h.run();
        let what = format!("8-puzzle {algorithm:?}, found");
        the_board_named_is_drawn(&h, &format!("{what}, its end"));
        assert!(every_moment(&mut h, &what, true) > 6, "{what}");
        the_board_named_is_drawn(&h, &format!("{what}, its end again"));
    }
}

/// The walk's W18: after a wrong guess the timeline holds the guessed moment, one behind
/// the run (stepped to score the guess); Resume then ran the search on while the canvas and
/// the panel stayed at that moment ("Timeline at expansion 11 of 22"). Resume, and Step,
/// go on with the run on screen: the timeline follows its head again.
#[test]
fn resume_or_step_after_a_wrong_guess_shows_the_run_going_on() {
    use puzzlelab::app::learn::LearnCommand;
    for resume in [true, false] {
        let mut h = lesson("sliding-8-easy-12.txt", Algorithm::AStar, false);
        h.state_mut().push(AppCommand::Start);
        run_until(&mut h, |app| app.marks().stats.expanded >= 6);
        h.state_mut()
            .push(AppCommand::Learn(LearnCommand::Predict(true)));
        h.run();
        h.state_mut()
            .push(AppCommand::Learn(LearnCommand::GuessEntry(2)));
        run_until(&mut h, |app| app.windows.learn.verdict.is_some());
        h.run();
        let (_, guessed) = h.state().learn_moment().unwrap();
        assert!(
            !h.state().windows.learn.verdict.as_ref().unwrap().0,
            "a wrong guess"
        );
        assert!(guessed.position < guessed.len, "the timeline holds, behind");
        let len = guessed.len;
        if resume {
            h.state_mut().push(AppCommand::Resume);
            run_until(&mut h, |app| {
                app.learn_moment().is_some_and(|(_, m)| m.len >= len + 2)
            });
        } else {
            h.state_mut().push(AppCommand::Step);
            run_until(&mut h, |app| {
                app.learn_moment().is_some_and(|(_, m)| m.len > len)
            });
        }
        h.run();
        let (_, m) = h.state().learn_moment().unwrap();
        let what = if resume { "Resume" } else { "Step" };
        assert_eq!(
            m.position, m.len,
            "{what}: the run's newest moment on screen"
        );
        assert!(!h.state().is_scrubbed(), "{what}");
    }
}

/// The app in a 1024 x 640 window in classroom mode, its side panels open (the Learn panel
/// closed), after a full-speed run of `algorithm` on the shipped small maze.
fn classroom_run_at_1024_by_640(algorithm: Algorithm) -> Harness<'static, PuzzleLabApp> {
    let mut h = harness_at(
        1024.0,
        640.0,
        Settings {
            full_speed: true,
            classroom: true,
            ..Settings::default()
        },
    );
    let (t, shipped) = puzzlelab::puzzles::shipped()
        .find(|(_, s)| s.file == "maze-small.txt")
        .unwrap();
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    h.state_mut().push(AppCommand::SetAlgorithm(algorithm));
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    h
}

/// The walk's W12: in classroom mode at 1024 x 640 with the side panels open (the Learn
/// panel closed) the caption under the canvas was cut ("Goal reached after 257 expansions:
/// the path is the chain of p…"). It is painted whole, on two lines if need be.
#[test]
fn a_classroom_caption_beside_open_side_panels_is_whole() {
    let mut h = classroom_run_at_1024_by_640(Algorithm::Bfs);
    h.run();
    assert!(!h.state().windows.learn.open);
    let (_, m) = h.state().learn_moment().unwrap();
    let caption = m.caption();
    assert!(caption.starts_with("Goal reached after"), "{caption}");
    let painted: Vec<bool> = h
        .output()
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            eframe::egui::Shape::Text(text) if text.galley.job.text == caption => {
                Some(text.galley.elided)
            }
            _ => None,
        })
        .collect();
    assert_eq!(painted, vec![false], "the caption painted once, whole");
}

/// Issue 56 item 9, what was left: at 1024 x 640 in classroom mode with the side panels
/// open (the side panel and the details panel, the Learn panel closed) the bar above the
/// canvas and the timeline's rows were cut: their last widgets lay past the centre column's
/// right edge, scrolled out of sight. Every widget of the playback bar and of the timeline's
/// rows lies inside the window and the centre column (the canvas's width), at the run's end
/// and at an earlier moment of its timeline (when the bar above the canvas says so).
#[test]
fn a_classroom_window_with_its_side_panels_open_cuts_neither_bar() {
    use eframe::egui::accesskit::Role;
    use egui_kittest::kittest::NodeT as _;
    use puzzlelab::ui::{CANVAS_LABEL, SCRUBBER_LABEL, TIMELINE_BUTTONS};
    let mut h = classroom_run_at_1024_by_640(Algorithm::AStar);
    h.run();
    assert!(h.state().settings().classroom && !h.state().windows.learn.open);
    for (moment, what) in [(None, "at the run's end"), (Some(5), "at moment 5")] {
        if let Some(at) = moment {
            h.state_mut()
                .push(AppCommand::Timeline(TimelineCommand::Seek(at)));
            h.run();
            h.run();
            assert!(h.state().is_scrubbed(), "{what}");
        }
        if let Ok(dir) = std::env::var("LESSON_SHOT") {
            let name = format!("{dir}/classroom-side-panels-{}.png", moment.unwrap_or(0));
            h.render().unwrap().save(name).unwrap();
        }
        let window = h.ctx.content_rect();
        let canvas = h.get_by_label(CANVAS_LABEL).rect();
        assert!(window.contains_rect(canvas), "{what}: {canvas:?}");
        // The centre column: the canvas's width, and the panel margins beside it.
        let column = canvas.expand2(eframe::egui::vec2(8.5, 0.0));
        let inside = |r: eframe::egui::Rect, name: &str| {
            assert!(
                window.contains_rect(r) && column.left() <= r.left() && r.right() <= column.right(),
                "{what}: {name:?} cut: {r:?}, the centre column {column:?}"
            );
        };
        // Each row's widgets: those of the container of the row's first widget.
        let first_of_rows = [
            if h.state().is_scrubbed() {
                (h.query_by_label_contains("Timeline at expansion 5 of"))
                    .or_else(|| h.query_by_label_contains("Expansion 5 of"))
                    .expect("the bar above the canvas says the moment")
            } else {
                h.get_by_label("First")
            },
            h.get_by_label(TIMELINE_BUTTONS[0].1),
            h.get_by_label("< layer"),
            h.get_by_label("Only the branch"),
        ];
        // (A container has no bounds of its own.)
        let bounds = |node: &egui_kittest::Node<'_>| {
            (node.accesskit_node().bounding_box()).map(|_| node.rect())
        };
        let mut seen = 0;
        for first in first_of_rows {
            let row = first.parent().expect("the row's container");
            for node in row.children_recursive() {
                let ak = node.accesskit_node();
                let Some(rect) = bounds(&node) else {
                    continue;
                };
                if matches!(ak.role(), Role::GenericContainer | Role::ScrollView) {
                    continue;
                }
                let name = ak.label().or_else(|| ak.value()).unwrap_or_default();
                inside(rect, &format!("{:?} {name}", ak.role()));
                seen += 1;
            }
        }
        // The details panel asked for is folded for room, and its button says so.
        let details = h.get_by_label("Details");
        let ak = details.accesskit_node();
        assert!(
            ak.is_disabled() && ak.toggled() != Some(eframe::egui::accesskit::Toggled::True),
            "{what}: Details is off for room"
        );
        assert!(seen >= 16, "{what}: {seen} widgets in the four rows");
        inside(h.get_by_label(SCRUBBER_LABEL).rect(), SCRUBBER_LABEL);
    }
}

/// Walk 56, finding F: the solution's line struck through the numbers on the path's
/// squares, and in the light theme the digits read as white on light blue. Each number
/// stands on a light plate of its own, dark: no pixel of the solution's orange shows
/// between its digits, and its darkest pixels are dark.
#[test]
fn the_numbers_on_the_path_stand_above_the_solutions_line() {
    use puzzlelab::app::Theme;
    let mut h = harness_at(
        1024.0,
        640.0,
        Settings {
            full_speed: true,
            theme: Theme::Light,
            ..Settings::default()
        },
    );
    crate::common::gui::learn_to_the_end(&mut h, "maze-small.txt", Algorithm::Bfs);
    h.run();
    let report = h.state().result().unwrap().clone();
    assert!(report.solved && report.path.len() > 4);
    let image = h.render().unwrap();
    let scale = image.width() as f32 / h.ctx.content_rect().width();
    let canvas = h.get_by_label(puzzlelab::ui::CANVAS_LABEL).rect();
    let picture = h.state().puzzle().picture();
    let side = (canvas.width() / picture.cols as f32).min(canvas.height() / picture.rows as f32);
    for place in &report.path[1..4] {
        let at = crate::common::gui::cell_pos(&h, place.cell);
        let (mut orange, mut darkest) = (0, 255u8);
        let (dx, dy) = ((side * 0.06).max(1.0), (side * 0.1).max(1.0));
        let (x0, x1) = (((at.x - dx) * scale) as u32, ((at.x + dx) * scale) as u32);
        let (y0, y1) = (((at.y - dy) * scale) as u32, ((at.y + dy) * scale) as u32);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let [r, g, b, _] = image.get_pixel(x, y).0;
                if r > 170 && (60..=140).contains(&g) && b < 60 {
                    orange += 1;
                }
                darkest = darkest.min(r.max(g).max(b));
            }
        }
        assert_eq!(
            orange, 0,
            "{place:?}: the solution's line through its number"
        );
        assert!(darkest < 90, "{place:?}: its digits dark ({darkest})");
    }
}
