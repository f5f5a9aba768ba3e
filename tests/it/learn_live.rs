//! The Learn panel during a paused live run and across runs: the newest moment is whole
//! (a step ends once the expansion's successors are recorded), a guess of an open list's
//! row is judged on the state of the row clicked, Predict mode's score and verdict belong
//! to the run they were made in, and the bar above the canvas says the timeline's position.

use egui_kittest::kittest::Queryable;
use puzzlelab::app::learn::LearnCommand;
use puzzlelab::app::{AppCommand, Settings, TimelineCommand};
use puzzlelab::puzzles::{self, Cell};
use puzzlelab::runs::open_list::is_expansion;
use puzzlelab::runs::recording::TraceRecorder;
use puzzlelab::search::pseudocode::Step;
use puzzlelab::search::{Algorithm, CancelToken, TieBreak};

use crate::common::gui::{click_cell, harness, open_for_learning, run_until};

type Harness = egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp>;

/// The app on the shipped puzzle `file` with A* chosen and the Learn panel open.
fn app_on(file: &str, full_speed: bool) -> Harness {
    let mut h = harness(Settings {
        full_speed,
        ..Settings::default()
    });
    open_for_learning(&mut h, file, Algorithm::AStar);
    h
}

/// Steps the paused run (or starts one paused) until `position` expansions are recorded.
fn step_to(h: &mut Harness, position: usize) {
    h.state_mut().push(AppCommand::Step);
    // After a run ended, Step starts a new one: its moment, not the ended run's last, is
    // waited for (a guess clicked before the new run's first moment is not one).
    run_until(h, |app| {
        app.is_running()
            && app
                .learn_moment()
                .is_some_and(|(_, m)| m.position >= position)
    });
    h.run();
}

/// Defect 2: after each Step of a paused A* run on the small maze, the newest moment holds
/// its expansion's successors (as a recording made apart from the app's says), and the
/// caption counts them, not "0 states put on the frontier".
#[test]
fn a_step_pauses_after_the_expansions_successors_are_recorded() {
    let maze = puzzles::load_file(std::path::Path::new("puzzles/maze-small.txt"), None).unwrap();
    let mut apart = TraceRecorder::new(1 << 26);
    maze.solve(Algorithm::AStar, &mut apart, &CancelToken::new())
        .unwrap();
    apart.finish();
    let mut h = app_on("maze-small.txt", false);
    for position in 1..=3 {
        step_to(&mut h, position);
        let (recording, m) = h.state().learn_moment().unwrap();
        assert_eq!(m.position, position);
        assert_eq!(m.position, m.len, "the newest moment");
        let successors = apart.pushed(Some(position - 1)).count();
        assert!(successors > 0);
        assert_eq!(recording.pushed_count(Some(position - 1)), successors);
        assert_eq!(m.step, Step::Expand);
        let caption = m.caption();
        assert!(
            caption.ends_with(&format!(
                "; {} put on the frontier.",
                puzzlelab::app::count(successors as u64, "state")
            )),
            "at {position}: {caption}"
        );
    }
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
}

/// Defect 1: a guess of an open list's row is judged on the state of the row shown, even
/// where the list the guess is scored against (the moment's whole expansion) orders other
/// states there: at a micro-step (the expansion's state taken, none of its successors on
/// yet), a row whose state differs from the same row of the list after the expansion.
#[test]
fn a_row_guessed_is_judged_on_the_state_shown_in_it() {
    let mut h = app_on("maze-small.txt", true);
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Predict(true)));
    h.run();
    let (recording, end) = h.state().learn_moment().unwrap();
    let (algorithm, tie) = (Algorithm::AStar, TieBreak::default());
    // A moment p and a row r whose state at p's first micro-step is another than after
    // the whole expansion.
    let mut found = None;
    'search: for p in 1..end.len {
        let learn = &mut h.state_mut().windows.learn;
        let shown = learn.open_list(&recording, (p - 1, Some(0)), algorithm, tie);
        let whole = learn.open_list(&recording, (p, None), algorithm, tie);
        let (Ok(shown), Ok(whole)) = (shown, whole) else {
            continue;
        };
        for (r, e) in shown.iter().enumerate() {
            if whole.get(r).is_none_or(|w| w.place != e.place) {
                found = Some((p, r, e.clone()));
                break 'search;
            }
        }
    }
    let (p, r, entry) = found.expect("a row that differs");
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(p)));
    h.run();
    h.state_mut().windows.learn.event = Some((p, 0));
    h.run();
    let listed = h
        .state()
        .learn_open_list()
        .expect("the list shown is built");
    assert_eq!(listed[r], entry, "row {r} shown");
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::GuessEntry(r)));
    h.run();
    assert_eq!(h.state().windows.learn.score.1, 1);
    let (right, said) = h.state().windows.learn.verdict.clone().unwrap();
    assert_eq!(right, is_expansion(&recording, &entry, p), "{said}");
    if !right {
        let place = entry.place.unwrap().cell;
        let yours = format!(
            "Not that one: ({}, {}) is on the frontier",
            place.row, place.col
        );
        assert!(said.starts_with(&yours), "{said}");
    }
}

/// Defect 4: Predict mode's score and verdict belong to their run: a new run, and another
/// puzzle, start with none.
#[test]
fn predict_feedback_does_not_carry_over_to_another_run_or_puzzle() {
    let mut h = app_on("maze-small.txt", false);
    step_to(&mut h, 1);
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Predict(true)));
    h.run();
    let guess = |h: &mut Harness| {
        // (0, 2): a free square next to the start, not on the frontier.
        click_cell(h, Cell::new(0, 2));
        run_until(h, |app| app.windows.learn.score.1 == 1);
        h.run();
        assert_eq!(h.state().windows.learn.score, (0, 1));
        h.get_by_label_contains("Not that one");
    };
    guess(&mut h);
    // A new run.
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
    step_to(&mut h, 1);
    assert_eq!(h.state().windows.learn.score, (0, 0));
    assert_eq!(h.state().windows.learn.verdict, None);
    assert!(h.query_by_label_contains("Not that one").is_none());
    // Another puzzle.
    guess(&mut h);
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
    let (t, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "sliding-8-easy-6.txt")
        .unwrap();
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    assert_eq!(h.state().windows.learn.score, (0, 0));
    assert_eq!(h.state().windows.learn.verdict, None);
    assert!(h.query_by_label_contains("Not that one").is_none());
}

/// Defect 5: after Stop at a moment before the run's end, the bar above the canvas says the
/// timeline's position, as the slider does.
#[test]
fn the_bar_above_the_canvas_says_the_timelines_position_after_stop() {
    let mut h = app_on("maze-small.txt", false);
    step_to(&mut h, 1);
    step_to(&mut h, 2);
    step_to(&mut h, 3);
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(1)));
    h.run();
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let len = h.state().timeline_len();
    assert!(len >= 3, "{len}");
    assert_eq!(h.state().learn_moment().unwrap().1.position, 1);
    h.get_by_label_contains(&format!("Timeline at expansion 1 of {len}:"));
}

/// Defect 1 as the tester met it: an 8-puzzle A* run paused at its newest moment, a row
/// of the open list guessed (scored once the run has made its next expansion): the board
/// judged is the one the row showed, compared by its squares.
#[test]
fn a_row_guessed_in_a_paused_8_puzzle_run_is_judged_on_its_board() {
    let mut h = app_on("sliding-8-easy-12.txt", false);
    step_to(&mut h, 1);
    step_to(&mut h, 2);
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Predict(true)));
    h.run();
    for row in [1, 0] {
        let (recording, m) = h.state().learn_moment().unwrap();
        assert_eq!((m.position, m.len), (m.len, m.len), "the newest moment");
        let listed = h.state().learn_open_list().expect("the list shown");
        let entry = listed[row].clone();
        // Waits for this guess's verdict (the command is applied at the next frame, and a
        // guess at the newest moment is scored once the solver thread has made the next
        // expansion, later on a loaded machine).
        h.state_mut().windows.learn.verdict = None;
        h.state_mut()
            .push(AppCommand::Learn(LearnCommand::GuessEntry(row)));
        run_until(&mut h, |app| app.windows.learn.verdict.is_some());
        h.run();
        let (right, said) = h.state().windows.learn.verdict.clone().unwrap();
        let recording = h.state().timeline_recording().unwrap_or(&recording).clone();
        assert_eq!(
            right,
            is_expansion(&recording, &entry, m.position),
            "{said}"
        );
        if !right {
            let yours = format!(
                "Not that one: that board is on the frontier{}",
                puzzlelab::app::learn::scores_of(entry.g, entry.h)
            );
            assert!(said.starts_with(&yours), "{said}");
        }
        // Back to the newest moment for the next guess.
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Follow));
        h.run();
    }
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
}

/// Item 4 of the Learn walk: with a paused run's timeline scrubbed back, the status bar
/// still tells the run's own expansions ("Paused after 4 expansions"), not the timeline's
/// position, which the bar above the canvas tells.
#[test]
fn the_status_bar_tells_the_runs_own_expansions_while_the_timeline_is_scrubbed() {
    let mut h = app_on("maze-small.txt", false);
    for position in 1..=4 {
        step_to(&mut h, position);
    }
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(3)));
    h.run();
    assert_eq!(h.state().learn_moment().unwrap().1.position, 3);
    assert!(h.state().is_paused());
    let status = h.state().status().text.clone();
    assert!(status.starts_with("Paused after 4 expansions:"), "{status}");
    // ("Timeline at expansion 3 of 4 ...", or in a narrow column "Expansion 3 of 4 ...".)
    h.get_by_label_contains("xpansion 3 of 4 (the search goes on):");
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
}

/// Item 1 of the Learn walk: in Predict mode a guess (a click on the canvas) while the
/// search runs pauses it first, and is scored at the moment it paused at: the verdict names
/// the state the recording expands after that moment.
#[test]
fn a_guess_while_the_search_runs_pauses_it_and_is_scored_at_that_moment() {
    // Slow enough that the run is still going when the click lands, however slow the frames
    // (at 20 expansions a second a machine at a load of 16 finished the run first).
    let mut h = harness(Settings {
        speed: 4.0,
        ..Settings::default()
    });
    open_for_learning(&mut h, "maze-small.txt", Algorithm::AStar);
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| {
        app.learn_moment().is_some_and(|(_, m)| m.position >= 2)
    });
    // Predict mode pauses the run; Resume lets it go on under the student's eyes.
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Predict(true)));
    h.run();
    assert!(h.state().is_paused());
    h.state_mut().push(AppCommand::Resume);
    h.run();
    assert!(h.state().is_running() && !h.state().is_paused());
    // (0, 2): a free square next to the start, never the next state.
    click_cell(&mut h, Cell::new(0, 2));
    run_until(&mut h, |app| app.windows.learn.score.1 == 1);
    assert!(h.state().is_paused(), "the guess paused the run");
    assert_eq!(h.state().windows.learn.score, (0, 1));
    let (recording, m) = h.state().learn_moment().unwrap();
    let next = recording
        .expansion(m.position)
        .expect("the state after the moment");
    let (_, said) = h.state().windows.learn.verdict.clone().unwrap();
    let next = puzzlelab::app::learn::square(next.place.unwrap());
    assert!(said.contains(&format!("Next is {next}")), "{said}");
    // The run stays paused at that moment.
    h.run_steps(5);
    assert!(h.state().is_paused());
    assert_eq!(h.state().learn_moment().unwrap().1.position, m.position);
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
}
