//! Issue 56, left by the second walk: Stop on a paused run made one more expansion ("Paused
//! after 2 expansions", then Stop: "Stopped after 3"). The solver's pause returned on the
//! stop and the engine went on with the expansion it had paced. The pace now comes before
//! the engine counts an expansion and looks at its stop, for every algorithm of every type:
//! a stop seen while paused ends the run with the expansions the window showed.

use std::time::{Duration, Instant};

use puzzlelab::app::{AppCommand, Settings, TimelineCommand};
use puzzlelab::puzzles::{self, Place, Puzzle, Watcher};
use puzzlelab::runs::recording::TraceRecorder;
use puzzlelab::search::{Algorithm, CancelToken, Limits, Outcome, Stats};
use puzzlelab::solver::{Command, Event, SolverHandle};

use crate::common::gui::{harness, open_for_learning, run_until};

/// One shipped puzzle of each kind of search the engine has: a grid (its flat breadth-first
/// search, JPS, the bidirectional searches), boards (IDA* on tiles), a script, a planning
/// task, and the other types' own states.
const FILES: [&str; 9] = [
    "maze-small.txt",
    "sliding-8-easy-12.txt",
    "missionaries.rhai",
    "planning-gripper.pddl",
    "klondike.txt",
    "rush-hour-first.txt",
    "klotski-classic.txt",
    "car-maze.txt",
    "sokoban-first-steps.xsb",
];

/// The shipped puzzle `file`, parsed.
fn shipped(file: &str) -> Box<dyn Puzzle> {
    let (_, s) = puzzles::shipped()
        .find(|(_, s)| s.file == file)
        .unwrap_or_else(|| panic!("{file} is shipped"));
    puzzles::parse(s.text, None).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// A watcher that stops its run at the pace of expansion `at + 1` (as a user's Stop seen
/// while the app's solver waits there), counting the expansions told.
struct StopAtPace {
    cancel: CancelToken,
    at: u64,
    told: u64,
    /// The figures told at the pace where the run was stopped.
    paced: Option<Stats>,
}

impl Watcher for StopAtPace {
    fn expanded(&mut self, _: Option<Place>, _: u64, stats: &Stats) {
        self.told += 1;
        assert_eq!(stats.expanded, self.told, "the expansions told, in order");
    }

    fn before_expansion(&mut self, stats: &Stats) {
        if self.told == self.at {
            self.paced = Some(stats.clone());
            self.cancel.cancel();
        }
    }
}

/// The engine: for every algorithm of every kind of puzzle, a stop seen at the pace of an
/// expansion ends the run before it, with the expansions told.
#[test]
fn a_stop_seen_at_an_expansions_pace_ends_the_run_before_it() {
    for file in FILES {
        let puzzle = shipped(file);
        for algorithm in puzzle.algorithms() {
            let cancel = CancelToken::new();
            let mut watcher = StopAtPace {
                cancel: cancel.clone(),
                at: 2,
                told: 0,
                paced: None,
            };
            let report = puzzle.solve(algorithm, &mut watcher, &cancel).unwrap();
            if report.outcome == Outcome::Found && watcher.told < 2 {
                continue; // solved before its third expansion: nothing to stop
            }
            assert_eq!(report.outcome, Outcome::Cancelled, "{file} {algorithm:?}");
            assert_eq!(
                (report.stats.expanded, watcher.told),
                (2, 2),
                "{file} {algorithm:?}"
            );
        }
    }
}

/// Issue 57's walk: after Step on Klondike the Statistics panel said "States generated 0,
/// Frontier 0" beside the 4 squares the first expansion put on the frontier: the figures
/// sent with a pause were those told with the last expansion, counted before its
/// successors. The figures told at an expansion's pace (where the app's pause waits) are
/// now those expansions' whole: for every algorithm of every kind of puzzle, the figures a
/// stop seen there ends the run with.
#[test]
fn the_figures_told_at_an_expansions_pace_are_those_a_stop_there_ends_with() {
    for file in FILES {
        let puzzle = shipped(file);
        for algorithm in puzzle.algorithms() {
            for at in [1, 3] {
                let cancel = CancelToken::new();
                let mut watcher = StopAtPace {
                    cancel: cancel.clone(),
                    at,
                    told: 0,
                    paced: None,
                };
                let report = puzzle.solve(algorithm, &mut watcher, &cancel).unwrap();
                let Some(paced) = watcher.paced else {
                    continue; // solved before: nothing paced there
                };
                let what = format!("{file} {algorithm:?} after {at}");
                let s = &report.stats;
                let figures = |s: &Stats| {
                    (
                        s.expanded,
                        s.generated,
                        s.frontier,
                        s.max_frontier,
                        s.max_closed,
                        s.max_depth,
                        s.iterations,
                    )
                };
                assert_eq!(figures(&paced), figures(s), "{what}");
                assert!(paced.generated > 0 || s.expanded == 0, "{what}: {paced:?}");
            }
        }
    }
}

/// Takes the solver's events until `done` says so (failing after 20 s, not hanging).
fn events_until(handle: &mut SolverHandle, mut done: impl FnMut(&Event) -> bool) -> Vec<Event> {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut events = Vec::new();
    loop {
        while let Some(event) = handle.next_event() {
            let end = done(&event);
            events.push(event);
            if end {
                return events;
            }
        }
        assert!(Instant::now() < deadline, "the solver did not answer");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The app's solver thread: a run started paused and stepped to two expansions, then
/// stopped, ends with two expansions in its report and in its recording, for every
/// algorithm of every kind of puzzle.
#[test]
fn stop_on_a_paused_run_ends_it_with_the_expansions_shown() {
    for file in FILES {
        let puzzle = shipped(file);
        let (rows, cols) = puzzle.dims();
        for algorithm in puzzle.algorithms() {
            let mut handle = SolverHandle::spawn(
                puzzle.clone(),
                algorithm,
                f64::INFINITY,
                true,
                Limits::default(),
                std::sync::Arc::new(|| {}),
            )
            .unwrap();
            let shown = |e: &Event| match e {
                Event::Progress(p) => Some(p.stats.expanded),
                _ => None,
            };
            let ended = |e: &Event| matches!(e, Event::Finished(_) | Event::Failed(_));
            let mut events = events_until(&mut handle, |e| shown(e) == Some(1) || ended(e));
            handle.send(Command::Step);
            events.extend(events_until(&mut handle, |e| {
                shown(e) == Some(2) || ended(e)
            }));
            if events.iter().any(ended) {
                continue; // solved within two expansions
            }
            handle.stop();
            events.extend(events_until(&mut handle, ended));
            let Some(Event::Finished(report)) = events.last() else {
                panic!("{file} {algorithm:?}: {:?}", events.last());
            };
            assert_eq!(report.outcome, Outcome::Cancelled, "{file} {algorithm:?}");
            assert_eq!(report.stats.expanded, 2, "{file} {algorithm:?}");
            let mut store = TraceRecorder::store(rows, cols);
            for event in &events {
                if let Event::Progress(p) = event {
                    store.append(p.chunk.clone());
                }
            }
            assert_eq!(store.expansions(), 2, "{file} {algorithm:?}: the recording");
        }
    }
}

/// The window: pause, step twice, Stop: the status line and the timeline say 2, and the
/// recording's last moment is the moment that was on screen.
#[test]
fn the_window_stops_a_paused_run_at_the_moment_shown() {
    for algorithm in [Algorithm::AStar, Algorithm::Bfs, Algorithm::Dfs] {
        let mut h = harness(Settings::default());
        open_for_learning(&mut h, "maze-small.txt", algorithm);
        for position in 1..=2 {
            h.state_mut().push(AppCommand::Step);
            run_until(&mut h, |app| {
                app.learn_moment()
                    .is_some_and(|(_, m)| m.position >= position)
            });
        }
        h.run();
        let status = &h.state().status().text;
        assert!(status.starts_with("Paused after 2 expansions"), "{status}");
        let before = h.state().learn_moment().unwrap().1;
        h.state_mut().push(AppCommand::Stop);
        run_until(&mut h, |app| app.result().is_some());
        h.run();
        assert_eq!(
            h.state().status().text,
            "Stopped after 2 expansions.",
            "{algorithm:?}"
        );
        assert_eq!(h.state().result().unwrap().stats.expanded, 2);
        let (_, m) = h.state().learn_moment().unwrap();
        assert_eq!((m.position, m.len), (2, 2), "{algorithm:?}: the timeline");
        // The last moment is the one that was on screen: its state and its successors.
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(2)));
        h.run();
        let after = h.state().learn_moment().unwrap().1;
        assert_eq!(
            (&after.expanded, after.pushed),
            (&before.expanded, before.pushed),
            "{algorithm:?}"
        );
    }
}

/// Walk 56, finding G: a run stopped while the timeline is scrubbed back lost the canvas's
/// outline of the state being expanded, though the caption still named it ("Expanding
/// (6, 2)…"); it came back once the timeline moved. The outline stays with the moment.
#[test]
fn a_stop_while_scrubbed_back_keeps_the_moments_state_outlined() {
    let mut h = harness(Settings::default());
    open_for_learning(&mut h, "maze-small.txt", Algorithm::Bfs);
    for position in 1..=6 {
        h.state_mut().push(AppCommand::Step);
        run_until(&mut h, |app| {
            app.learn_moment()
                .is_some_and(|(_, m)| m.position >= position)
        });
    }
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(3)));
    h.run();
    let place = |h: &egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp>| {
        let (_, m) = h.state().learn_moment().unwrap();
        (m.position, m.expanded.as_ref().and_then(|e| e.place))
    };
    let (position, expanded) = place(&h);
    assert_eq!(position, 3);
    assert!(expanded.is_some());
    assert_eq!(
        h.state().marks().current,
        expanded,
        "outlined before the stop"
    );
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    assert_eq!(place(&h), (3, expanded), "the moment shown stays");
    assert_eq!(
        h.state().marks().current,
        expanded,
        "the state being expanded is still outlined"
    );
}

/// The second walk of issue 56, finding B: after a Stop at the run's last moment the Learn
/// panel named the state expanded there ("moment 23 of 23 · n = (7, 2)") while the canvas
/// outlined no square. With the panel open, the outline stays on the moment's n; with it
/// closed, a finished run shows no state under way.
#[test]
fn a_stop_at_the_last_moment_keeps_the_learn_panels_state_outlined() {
    let mut h = harness(Settings::default());
    open_for_learning(&mut h, "maze-small.txt", Algorithm::Bfs);
    for position in 1..=5 {
        h.state_mut().push(AppCommand::Step);
        run_until(&mut h, |app| {
            app.learn_moment()
                .is_some_and(|(_, m)| m.position >= position)
        });
    }
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let (_, moment) = h.state().learn_moment().unwrap();
    assert_eq!(moment.position, 5, "the last moment is shown");
    let named = moment.expanded.as_ref().and_then(|e| e.place);
    assert!(named.is_some(), "the panel names a square");
    assert_eq!(h.state().marks().current, named, "the canvas outlines it");
    h.state_mut().windows.learn.open = false;
    h.run();
    assert_eq!(
        h.state().marks().current,
        None,
        "without the panel no state is under way"
    );
}
