//! Issue 56, items 6 to 8 in the window: the Learn panel says only true things. Micro-steps
//! are told at the moment of their own expansion, and the canvas, the open list and the
//! caption show the run as it was at that event; Predict mode's clicks are guesses and
//! nothing else, scored by the app; a run stopped by the user is said to be stopped.

use egui_kittest::kittest::Queryable;
use puzzlelab::app::learn::{Ending, LearnCommand, Moment};
use puzzlelab::app::{AppCommand, Mark, Settings, TimelineCommand};
use puzzlelab::puzzles::{self, Cell, Place};
use puzzlelab::runs::recording::TraceRecorder;
use puzzlelab::search::pseudocode::{Step, pseudocode};
use puzzlelab::search::{Algorithm, CancelToken, TieBreak};

use crate::common::gui::{
    click_cell, harness, learn_to_the_end, lesson_at_1024_by_640, open_for_learning, run_until,
};

/// The app on the shipped small maze with `algorithm` chosen and the Learn panel open.
fn small_maze(
    algorithm: Algorithm,
    full_speed: bool,
) -> egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp> {
    let mut h = harness(Settings {
        full_speed,
        ..Settings::default()
    });
    open_for_learning(&mut h, "maze-small.txt", algorithm);
    h
}

/// The squares the canvas marks as frontier: at a micro-step, the marks of that event.
fn frontier_on_canvas(app: &puzzlelab::app::PuzzleLabApp) -> Vec<Place> {
    let micro = app.micro_step_marks(usize::MAX);
    let marks = micro.as_ref().unwrap_or(app.marks());
    let (rows, cols) = marks.dims();
    let mut places: Vec<Place> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| Place::from(Cell::new(r, c))))
        .filter(|&p| marks.mark(p) == Mark::Frontier)
        .collect();
    places.sort();
    places
}

/// Item 7: at every moment of an A* run and every micro-step of it, the events are those of
/// the expansion the moment names (n), the open list holds exactly the squares the canvas
/// marks as frontier, and the caption counts the states that expansion put on the frontier
/// as a recording made apart from the app's says.
#[test]
fn each_micro_step_is_told_at_its_own_moment_and_the_canvas_agrees() {
    let mut h = small_maze(Algorithm::AStar, true);
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    // The same run recorded apart, in one piece.
    let maze = puzzles::load_file(std::path::Path::new("puzzles/maze-small.txt"), None).unwrap();
    let mut apart = TraceRecorder::new(1 << 26);
    maze.solve(Algorithm::AStar, &mut apart, &CancelToken::new())
        .unwrap();
    apart.finish();
    let (_, end) = h.state().learn_moment().unwrap();
    assert_eq!(end.len, apart.expansions());
    let mut pushes_told = 0;
    for position in 0..=end.len {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(position)));
        h.state_mut().windows.learn.event = None;
        h.run();
        let (recording, m) = h.state().learn_moment().unwrap();
        assert_eq!(m.position, position);
        let successors = position
            .checked_sub(1)
            .map_or(0, |j| apart.pushed(Some(j)).count());
        if m.step == Step::Expand {
            let e = apart.expansion(position - 1).unwrap();
            let n = e.place.unwrap().cell;
            let caption = m.caption();
            assert!(
                caption.starts_with(&format!("Expanding ({}, {})", n.row, n.col))
                    && caption.ends_with(&format!(
                        "; {} put on the frontier.",
                        puzzlelab::app::count(successors as u64, "state")
                    )),
                "at {position}: {caption}"
            );
            pushes_told += successors;
        }
        for event in (0..Moment::events(successors)).map(Some).chain([None]) {
            if position == 0 && event.is_some() {
                continue;
            }
            h.state_mut().windows.learn.event = event.map(|e| (position, e));
            let (_, m) = h.state().learn_moment().unwrap();
            if let Some(e) = event {
                let n = apart.expansion(position - 1).unwrap().place.unwrap();
                assert_eq!(m.expanded.as_ref().and_then(|x| x.place), Some(n));
                let caption = m.caption();
                let told = match e {
                    0 => format!("Taking ({}, {}) off the frontier", n.cell.row, n.cell.col),
                    1 => format!("Goal test: ({}, {}) is", n.cell.row, n.cell.col),
                    _ => {
                        let (s, _, _) = apart.pushed(Some(position - 1)).nth(e - 2).unwrap();
                        format!("Putting ({}, {}) on the frontier", s.cell.row, s.cell.col)
                    }
                };
                assert!(caption.starts_with(&told), "{position}/{e}: {caption}");
            }
            let list = h
                .state_mut()
                .windows
                .learn
                .open_list(
                    &recording,
                    m.open_list_moment(),
                    Algorithm::AStar,
                    TieBreak::default(),
                )
                .unwrap();
            let mut listed: Vec<Place> = list.iter().filter_map(|e| e.place).collect();
            listed.sort();
            // The goal the run took off the frontier and returned keeps its mark on the
            // canvas (reached, it carries its number) but is on no open list (walk W9).
            let mut on_canvas = frontier_on_canvas(h.state());
            if m.step == Step::Found && event.is_none() {
                let goal = *h.state().result().unwrap().path.last().unwrap();
                on_canvas.retain(|&p| p != goal);
            }
            assert_eq!(listed, on_canvas, "moment {position}, event {event:?}");
        }
    }
    assert!(pushes_told > 0, "the captions count the states put on");
}

/// Item 6: in Predict mode, during a paused run as after one, a click on the canvas is a
/// guess and nothing else: the puzzle is not edited, the run is kept, and the app scores
/// the guess once the run has expanded the state it is about.
#[test]
fn predict_mode_guesses_during_a_paused_run_without_editing() {
    let mut h = small_maze(Algorithm::AStar, false);
    // A run started paused: it expands its first state, then waits.
    h.state_mut().push(AppCommand::Step);
    run_until(&mut h, |app| {
        app.learn_moment().is_some_and(|(_, m)| m.position >= 1)
    });
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Predict(true)));
    h.run();
    let text = h.state().puzzle().to_text();
    // A free square next to the start that is not on the frontier: (0, 2).
    let wrong = Cell::new(0, 2);
    click_cell(&mut h, wrong);
    run_until(&mut h, |app| !app.windows.learn.is_waiting());
    h.run();
    assert_eq!(
        h.state().puzzle().to_text(),
        text,
        "the click painted no wall"
    );
    assert!(h.state().timeline().is_some(), "the run is kept");
    assert_eq!(h.state().windows.learn.score, (0, 1));
    let (good, verdict) = h.state().windows.learn.verdict.clone().unwrap();
    assert!(!good && verdict.contains("Not that one"), "{verdict}");
    // The state the run expanded next, guessed: right.
    let (recording, m) = h.state().learn_moment().unwrap();
    let next = recording.expansion(m.position).unwrap().place.unwrap().cell;
    click_cell(&mut h, next);
    run_until(&mut h, |app| !app.windows.learn.is_waiting());
    h.run();
    assert_eq!(h.state().windows.learn.score, (1, 2));
    assert!(h.state().windows.learn.verdict.clone().unwrap().0);
    assert_eq!(h.state().puzzle().to_text(), text);
    h.get_by_label("Score: 1 right of 2.");
}

/// Item 8: a run stopped by the user is said to be stopped, with no line of the
/// pseudo-code lit (not `return failure`).
#[test]
fn a_stopped_run_is_told_as_stopped_with_no_line_lit() {
    let mut h = small_maze(Algorithm::Bfs, false);
    h.state_mut().push(AppCommand::Step);
    run_until(&mut h, |app| {
        app.learn_moment().is_some_and(|(_, m)| m.position >= 1)
    });
    h.state_mut().push(AppCommand::Step);
    h.run();
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let (_, m) = h.state().learn_moment().unwrap();
    assert_eq!(
        m.ending,
        Ending::Ended(puzzlelab::search::Outcome::Cancelled)
    );
    assert_eq!(m.step, Step::Stopped);
    assert_eq!(pseudocode(Algorithm::Bfs).line(m.step), None);
    let caption = m.caption();
    assert!(
        caption.starts_with("You stopped the run after"),
        "{caption}"
    );
    assert!(!caption.contains("without reaching"), "{caption}");
    h.get_by_label(&caption);
}

/// Item 11: on an easy 8-puzzle run in the window, the Learn panel has an open list (the
/// boards on the frontier, each with its g, h and f, the next one marked) and the caption
/// gives f = g + h, as on a grid.
#[test]
fn an_8_puzzle_run_has_an_open_list_and_scores_in_its_caption() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    learn_to_the_end(&mut h, "sliding-8-easy-6.txt", Algorithm::AStar);
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(2)));
    h.run();
    let (recording, m) = h.state().learn_moment().unwrap();
    let caption = m.caption();
    assert!(
        caption.starts_with("Expanding the board shown: f = ")
            && caption.contains(" = g 1 + h ")
            && !caption.contains("; 0 states"),
        "{caption}"
    );
    h.get_by_label(&caption);
    let list = h
        .state_mut()
        .windows
        .learn
        .open_list(
            &recording,
            m.open_list_moment(),
            Algorithm::AStar,
            TieBreak::default(),
        )
        .expect("an open list of boards");
    assert!(list.len() >= 2, "{list:?}");
    assert!(
        list.iter()
            .all(|e| e.board.is_some() && e.g.is_some() && e.h.is_some())
    );
    h.get_by_label_contains("Open list: ");
    h.get_by_label("next >");
}

/// Item 9: at 1024 x 640 in classroom mode (F2), the Learn panel open, the canvas, the
/// pseudo-code and the open list are all on screen side by side, none over another, and
/// nothing is cut: every line of code, the open list's head and the speed control lie
/// inside the window.
#[test]
fn a_lesson_fits_a_1024_by_640_window_in_classroom_mode() {
    use puzzlelab::ui::CANVAS_LABEL;
    let mut h = lesson_at_1024_by_640("maze-small.txt", Algorithm::AStar, Some(12));
    assert!(
        h.ctx.zoom_factor() > 1.2,
        "still large type: {}",
        h.ctx.zoom_factor()
    );
    if std::env::var("LESSON_SHOT").is_ok() {
        h.render().unwrap().save("/tmp/lesson.png").unwrap();
    }
    let window = h.ctx.content_rect();
    let canvas = h.get_by_label(CANVAS_LABEL).rect();
    assert!(
        canvas.width() > 200.0 && canvas.height() > 120.0,
        "{canvas:?}"
    );
    let inside = |r: eframe::egui::Rect, what: &str| {
        assert!(
            window.contains_rect(r),
            "{what} cut: {r:?} in a window of {window:?}"
        );
        assert!(
            !r.intersects(canvas),
            "{what} over the canvas: {r:?}, {canvas:?}"
        );
    };
    let code = pseudocode(Algorithm::AStar);
    for (i, line) in code.lines.iter().enumerate() {
        let label = format!("{:>2}  {line}", i + 1);
        inside(h.get_by_label(&label).rect(), &label);
    }
    inside(
        h.get_by_label_contains("Open list: ").rect(),
        "the open list",
    );
    inside(h.get_by_label("next >").rect(), "the open list's head");
    let speed = h.get_by_label("speed").rect();
    assert!(
        window.contains_rect(speed),
        "the speed control cut: {speed:?}"
    );
}

/// Item 6 on a board puzzle: a click on the canvas in Predict mode moves no tile (it says
/// to guess in the open list), and a guess of an open list's row is scored.
#[test]
fn predict_mode_on_the_8_puzzle_guesses_rows_and_moves_no_tile() {
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    open_for_learning(&mut h, "sliding-8-easy-12.txt", Algorithm::AStar);
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Predict(true)));
    h.run();
    let (_, m) = h.state().learn_moment().unwrap();
    assert_eq!(m.position, 0, "Predict starts the finished run again");
    let text = h.state().puzzle().to_text();
    // The blank's neighbour: a click that would slide a tile.
    click_cell(&mut h, Cell::new(0, 1));
    assert_eq!(h.state().puzzle().to_text(), text, "no tile moved");
    assert_eq!(h.state().windows.learn.score, (0, 0));
    let (_, said) = h.state().windows.learn.verdict.clone().unwrap();
    assert!(said.contains("open list"), "{said}");
    // The open list's head is the board expanded next (A*'s order): right.
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::GuessEntry(0)));
    h.run();
    assert_eq!(h.state().windows.learn.score, (1, 1));
    assert_eq!(h.state().learn_moment().unwrap().1.position, 1);
    // A row past the head, wrong: the timeline stays.
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::GuessEntry(1)));
    h.run();
    assert_eq!(h.state().windows.learn.score, (1, 2));
    assert_eq!(h.state().learn_moment().unwrap().1.position, 1);
    // The verdict says where the guess stands on the open list (the walk's W8).
    let (_, said) = h.state().windows.learn.verdict.clone().unwrap();
    assert!(
        said.contains(", row 2 of ") && said.contains(" on the open list."),
        "{said}"
    );
}

/// Walk report W19: a lesson's board-puzzle run stopped by the user, at its last moment,
/// shows on the canvas the board the Learn panel names ("n = the board shown"), the
/// recording's last expansion, not the start.
#[test]
fn a_stopped_board_run_shows_its_last_expanded_board_at_its_last_moment() {
    stopped_board_run_shows_its_last_board(false);
}

/// W19 as the walk met it: a guess in Predict mode during the run, the run resumed, then
/// stopped and the timeline sent back to follow the run's end.
#[test]
fn a_board_run_guessed_resumed_and_stopped_shows_its_last_board_at_its_end() {
    stopped_board_run_shows_its_last_board(true);
}

fn stopped_board_run_shows_its_last_board(predict: bool) {
    let mut h = harness(Settings {
        speed: 40.0,
        ..Settings::default()
    });
    open_for_learning(&mut h, "sliding-8-easy-12.txt", Algorithm::AStar);
    let start = h.state().puzzle().picture();
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.marks().stats.expanded >= 8);
    if predict {
        h.state_mut()
            .push(AppCommand::Learn(LearnCommand::Predict(true)));
        h.run();
        h.state_mut()
            .push(AppCommand::Learn(LearnCommand::GuessEntry(2)));
        h.run();
        h.state_mut().push(AppCommand::Resume);
        for _ in 0..30 {
            h.step();
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| !app.is_running());
    for _ in 0..5 {
        h.run();
    }
    if predict {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Follow));
        for _ in 0..5 {
            h.run();
        }
    }
    let (recording, m) = h.state().learn_moment().expect("a moment");
    assert_eq!(m.position, m.len, "the last moment");
    let want = recording.board_at(m.position - 1).expect("its board");
    assert_ne!(want.squares, start.squares, "a board after the start");
    assert_eq!(
        h.state().shown_moment(),
        puzzlelab::app::ShownMoment::Search
    );
    let shown = h.state().marks().board.clone().expect("a board drawn");
    assert_eq!(
        shown.squares, want.squares,
        "the board of moment {}",
        m.position
    );
}

/// Item 9's remainder: at 1024 x 640 in classroom mode the open list has room to teach
/// from. On a maze and an easy 8-puzzle, breadth-first and A*, at the goal test (a
/// micro-step: its values said at their longest) of the expansion whose list is longest,
/// the first five rows of the open list (all of them when it holds fewer: the small maze's
/// frontier holds 2 at most then) lie in the Learn panel above the status bar, whole and at a
/// type size read from the back of a room, beside a canvas left uncovered.
#[test]
fn a_lessons_open_list_shows_five_rows_at_1024_by_640() {
    use eframe::egui::accesskit::Role;
    use puzzlelab::ui::CANVAS_LABEL;
    for (file, algorithm, least) in [
        ("maze-small.txt", Algorithm::Bfs, 2),
        ("maze-small.txt", Algorithm::AStar, 2),
        ("sliding-8-easy-6.txt", Algorithm::Bfs, 5),
        ("sliding-8-easy-6.txt", Algorithm::AStar, 5),
    ] {
        let mut h = lesson_at_1024_by_640(file, algorithm, None);
        let (recording, end) = h.state().learn_moment().unwrap();
        let during = |p: usize| {
            let list = puzzlelab::runs::open_list::open_list_during(
                &recording,
                p - 1,
                Some(0),
                algorithm,
                TieBreak::default(),
            );
            list.unwrap().len()
        };
        let at = (1..=end.len).max_by_key(|&p| (during(p), p)).unwrap();
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(at)));
        h.run();
        h.state_mut().windows.learn.event = Some((at, 1));
        h.run();
        h.run();
        let what = format!("{file}, {algorithm:?}, moment {at}, event 2");
        if let Ok(dir) = std::env::var("LESSON_SHOT") {
            let name = format!("{file}-{algorithm:?}-{at}");
            h.render()
                .unwrap()
                .save(format!("{dir}/{name}.png"))
                .unwrap();
        }
        let (recording, _) = h.state().learn_moment().unwrap();
        let list = h.state().learn_open_list().expect("an open list");
        assert!(list.len() >= least, "{what}: {list:?}");
        let window = h.ctx.content_rect();
        let canvas = h.get_by_label(CANVAS_LABEL).rect();
        let panel = h.get_by_label("Learn").rect();
        let status = (h.get_by_label(&h.state().status().text).rect()).top();
        assert!(panel.left() >= canvas.right(), "{what}: the canvas covered");
        for (row, entry) in list.iter().take(5).enumerate() {
            let name = match (entry.place, entry.board) {
                (Some(place), _) => puzzlelab::app::learn::square(place),
                (_, Some(k)) => recording.generated_picture(k).unwrap().board_line(),
                _ => unreachable!("{what}: an entry with no state"),
            };
            let cell = h.get_by_role_and_label(Role::Link, &name).rect();
            assert!(
                cell.top() > panel.bottom()
                    && cell.bottom() <= status
                    && cell.left() >= panel.left()
                    && cell.right() <= window.right() - 16.0,
                "{what}: row {row} ({name}) out of sight: {cell:?}, the panel from {panel:?}, \
                 the status bar at {status}"
            );
            // The type of a row at least 9 points: a line at least 11 points high.
            assert!(
                cell.height() >= 11.0,
                "{what}: row {row} ({name}) too small to read: {cell:?}"
            );
        }
    }
}

/// The walk's W4 and W9: at the end of a run that found its goal, the goal is on no open
/// list, as the pseudo-code lit says. Breadth-first returns the goal at its goal test
/// (line 8) before it would put it on: the list is the frontier before it, and the values
/// say the goal was not put on. A* takes the goal off the frontier (line 5) and returns it
/// at line 6: the list is the frontier without it. On the small maze and an easy 8-puzzle.
#[test]
fn the_goal_a_run_returns_is_on_no_open_list_at_its_end() {
    use puzzlelab::runs::open_list::open_list_at;
    for (file, algorithm) in [
        ("maze-small.txt", Algorithm::Bfs),
        ("maze-small.txt", Algorithm::AStar),
        ("sliding-8-easy-6.txt", Algorithm::Bfs),
        ("sliding-8-easy-6.txt", Algorithm::AStar),
    ] {
        let mut h = harness(Settings {
            full_speed: true,
            ..Settings::default()
        });
        learn_to_the_end(&mut h, file, algorithm);
        h.run();
        let what = format!("{file}, {algorithm:?}");
        let (recording, m) = h.state().learn_moment().unwrap();
        assert_eq!((m.step, m.position), (Step::Found, m.len), "{what}");
        // Every state the run put on and did not take, the goal among them.
        let all = open_list_at(&recording, m.len, algorithm, TieBreak::default()).unwrap();
        let list = h.state().learn_open_list().expect("the list shown");
        assert_eq!(list.len() + 1, all.len(), "{what}");
        let gone: Vec<_> = all.iter().filter(|e| !list.contains(e)).collect();
        let name = |e: &puzzlelab::runs::open_list::OpenEntry| match (e.place, e.board) {
            (Some(p), _) => puzzlelab::app::learn::square(p),
            (_, Some(k)) => recording.generated_picture(k).unwrap().board_line(),
            _ => unreachable!(),
        };
        let goal = match h.state().result().unwrap().path.last() {
            Some(&p) if file.starts_with("maze") => puzzlelab::app::learn::square(p),
            _ => "1 2 3 / 4 5 6 / 7 8 _".to_owned(),
        };
        assert_eq!(gone.len(), 1, "{what}: {gone:?}");
        assert_eq!(name(gone[0]), goal, "{what}");
        h.get_by_label(&format!(
            "Open list: {}",
            puzzlelab::app::count(list.len() as u64, "state")
        ));
        if algorithm == Algorithm::Bfs {
            let values = m.values();
            assert!(
                values.ends_with(&format!(
                    "{} put on the frontier, then successor {} is a goal",
                    puzzlelab::app::count(m.pushed as u64 - 1, "state"),
                    m.pushed
                )),
                "{what}: {values}"
            );
        }
    }
}

/// The walk's W6: at the newest moment of a paused run (a lesson steps live) the run's next
/// expansion is not recorded yet and no row was marked; the open list's first row, in the
/// algorithm's order, is marked `next >`, and it is the state the run then expands.
#[test]
fn the_next_state_is_marked_at_a_paused_runs_newest_moment() {
    use eframe::egui::accesskit::Role;
    let mut h = small_maze(Algorithm::AStar, false);
    for p in 1..=2 {
        h.state_mut().push(AppCommand::Step);
        run_until(&mut h, |app| {
            app.learn_moment().is_some_and(|(_, m)| m.position >= p)
        });
    }
    h.run();
    let (_, m) = h.state().learn_moment().unwrap();
    assert_eq!((m.position, m.len), (2, 2));
    assert!(m.next.is_none(), "not recorded yet");
    let list = h.state().learn_open_list().expect("the list shown");
    assert!(list.len() >= 2, "{list:?}");
    let head = puzzlelab::app::learn::square(list[0].place.unwrap());
    let marker = h.get_by_label("next >").rect();
    let cell = h.get_by_role_and_label(Role::Link, &head).rect();
    assert!(
        (marker.center().y - cell.center().y).abs() < 4.0,
        "`next >` at {marker:?}, the first row's state at {cell:?}"
    );
    h.state_mut().push(AppCommand::Step);
    run_until(&mut h, |app| {
        app.learn_moment().is_some_and(|(_, m)| m.position >= 3)
    });
    let (recording, _) = h.state().learn_moment().unwrap();
    assert_eq!(recording.expansion(2).unwrap().place, list[0].place);
}

/// The walk's W17 and W5's addendum: in a lesson at 1024 x 640 the Predict switch and its
/// verdict are above the open list: a list growing under a running search does not move
/// the switch (a click meant for it landed on a row), and a wrong guess's verdict is in
/// sight without scrolling.
#[test]
fn predict_and_its_verdict_stay_above_a_lessons_open_list() {
    let mut h = lesson_at_1024_by_640("sliding-8-easy-6.txt", Algorithm::Bfs, None);
    let (_, end) = h.state().learn_moment().unwrap();
    for at in [1, end.len / 2, end.len] {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(at)));
        h.run();
        let switch = h.get_by_label("Predict the next state").rect();
        let list = h.get_by_label_contains("Open list: ").rect();
        assert!(
            switch.bottom() <= list.top(),
            "moment {at}: {switch:?} {list:?}"
        );
    }
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Predict(true)));
    h.run();
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::GuessEntry(1)));
    h.run();
    h.run();
    let (good, said) = h.state().windows.learn.verdict.clone().unwrap();
    assert!(!good, "{said}");
    let verdict = h.get_by_label(&said).rect();
    let status = (h.get_by_label(&h.state().status().text).rect()).top();
    let list = h.get_by_label_contains("Open list: ").rect();
    assert!(
        verdict.bottom() <= status && verdict.bottom() <= list.top(),
        "the verdict out of sight: {verdict:?}, the status bar at {status}, the list at {list:?}"
    );
}
