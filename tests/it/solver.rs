//! The background solver thread: full-speed runs, stop, pause and single step, and a panic in a
//! search becoming an error event.

use std::sync::Arc;
use std::time::{Duration, Instant};

use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::{self, Cell, Picture, Puzzle, PuzzleType, Report, Watcher};
use puzzlelab::runs::recording::TraceRecorder;
use puzzlelab::search::{Algorithm, CancelToken, Limits, Outcome, SearchError};
use puzzlelab::solver::{Command, Event, SolverHandle};

fn no_wake() -> Arc<dyn Fn() + Send + Sync> {
    Arc::new(|| {})
}

/// Collects events until `done` says so; gives up (failing the test) after 10 s so a bug
/// cannot hang the suite.
fn collect_until(handle: &mut SolverHandle, mut done: impl FnMut(&Event) -> bool) -> Vec<Event> {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut events = Vec::new();
    loop {
        for event in handle.drain(Duration::from_millis(5)) {
            let stop = done(&event);
            events.push(event);
            if stop {
                return events;
            }
        }
        assert!(Instant::now() < deadline, "the solver did not answer");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The run's recording as the app's store makes it: every progress event's chunk appended.
fn store_of(events: &[Event], rows: usize, cols: usize) -> TraceRecorder {
    let mut store = TraceRecorder::store(rows, cols);
    for event in events {
        if let Event::Progress(p) = event {
            store.append(p.chunk.clone());
        }
    }
    store
}

/// Breadth-first search at full speed on a seeded 700 x 700 random grid (a quarter walls):
/// its handle, and the grid's rows and columns.
fn full_speed_bfs_on_a_large_grid(
    wake: Arc<dyn Fn() + Send + Sync>,
) -> (SolverHandle, usize, usize) {
    let mut maze = Maze::new(700, 700);
    maze.randomize(0.25, 3);
    let (rows, cols) = maze.dims();
    let handle = SolverHandle::spawn(
        Box::new(maze),
        Algorithm::Bfs,
        f64::INFINITY,
        false,
        Limits::default(),
        wake,
    )
    .unwrap();
    (handle, rows, cols)
}

fn finished(events: &[Event]) -> &Report {
    match events.last() {
        Some(Event::Finished(report)) => report,
        other => panic!("expected a final report, got {other:?}"),
    }
}

/// The solver never waits for the window: a full-speed search whose events nobody takes
/// still runs to its end (a bounded channel once made it wait after eight events), sending
/// only a few events beyond full chunks meanwhile; taken afterwards, the events hold the
/// whole recording.
#[test]
fn full_speed_search_runs_to_its_end_while_the_window_takes_nothing() {
    let (mut handle, rows, cols) = full_speed_bfs_on_a_large_grid(no_wake());
    let deadline = Instant::now() + Duration::from_secs(60);
    while !handle.search_ended() {
        assert!(
            Instant::now() < deadline,
            "the search waited for the window"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let events = collect_until(&mut handle, |e| matches!(e, Event::Finished(_)));
    let report = finished(&events);
    let progress = events.len() - 1;
    let full_chunks = (report.stats.expanded / puzzlelab::solver::MAX_CHUNK_EXPANSIONS) as usize;
    assert!(
        progress <= puzzlelab::solver::MAX_IN_FLIGHT + full_chunks + 2,
        "{progress} progress events for {} expansions",
        report.stats.expanded
    );
    let store = store_of(&events, rows, cols);
    assert!(store.stopped().is_none(), "{:?}", store.stopped());
    assert_eq!(store.expansions() as u64, report.stats.expanded);
}

/// A wake that notes when it is called.
type Wakes = Arc<std::sync::Mutex<Vec<Instant>>>;
fn noting_wake() -> (Arc<dyn Fn() + Send + Sync>, Wakes) {
    let wakes: Wakes = Arc::default();
    let seen = Arc::clone(&wakes);
    let wake = Arc::new(move || seen.lock().unwrap().push(Instant::now()));
    (wake, wakes)
}

/// At full speed the solver wakes the window at most about once a frame (the window draws a
/// frame each `FRAME` while a run goes), not for each of its many chunks; the last event
/// always wakes it. A grid's breadth-first search is told in blocks there: its layers and
/// its recording, written in the buffers the window gives back, are whole. At a finite
/// speed every event wakes the window.
#[test]
fn full_speed_wakes_the_window_once_a_frame_and_records_every_expansion() {
    let (wake, wakes) = noting_wake();
    let (mut handle, rows, cols) = full_speed_bfs_on_a_large_grid(wake);
    let mut store = TraceRecorder::store(rows, cols);
    let mut events = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    let report = loop {
        assert!(Instant::now() < deadline, "the solver did not answer");
        match handle.next_event() {
            Some(Event::Progress(p)) => {
                let spent = store.append(p.chunk.clone());
                handle.recycle([spent]);
                events.push(p);
            }
            Some(Event::Finished(report)) => break report,
            Some(other) => panic!("{other:?}"),
            None => std::thread::sleep(Duration::from_millis(1)),
        }
    };
    let wakes = wakes.lock().unwrap().clone();
    // The last wake is the final event's, whenever it comes; the others a frame apart (the
    // times noted here, a little after the solver's own, may be closer by a preemption).
    assert!(!wakes.is_empty());
    let steady = &wakes[..wakes.len() - 1];
    for pair in steady.windows(2) {
        assert!(
            pair[1] - pair[0] >= puzzlelab::solver::FRAME / 2,
            "two wakes {:?} apart",
            pair[1] - pair[0]
        );
    }
    assert!(wakes.len() <= events.len() + 1);
    assert!(store.stopped().is_none(), "{:?}", store.stopped());
    assert_eq!(store.expansions() as u64, report.stats.expanded);
    let last = events.last().unwrap();
    assert_eq!(last.layers.iter().sum::<u64>(), report.stats.expanded);
    assert_eq!(last.layers.len() as u64, report.stats.max_depth + 1);
    assert_eq!(last.stats.expanded, report.stats.expanded);

    let (wake, wakes) = noting_wake();
    let mut handle = SolverHandle::spawn(
        Box::new(Maze::from_text("S...\n.##.\n...G\n").unwrap()),
        Algorithm::Bfs,
        400.0,
        false,
        Limits::default(),
        wake,
    )
    .unwrap();
    let events = collect_until(&mut handle, |e| matches!(e, Event::Finished(_)));
    assert_eq!(wakes.lock().unwrap().len(), events.len());
}

#[test]
fn full_speed_run_reports_progress_and_the_result() {
    let klondike = puzzles::type_by_name("klondike").unwrap().default_puzzle();
    let (rows, cols) = klondike.dims();
    let mut handle = SolverHandle::spawn(
        klondike,
        Algorithm::Bfs,
        f64::INFINITY,
        false,
        Limits::default(),
        no_wake(),
    )
    .unwrap();
    let events = collect_until(&mut handle, |e| matches!(e, Event::Finished(_)));
    let report = finished(&events);
    assert_eq!(report.cost, 9.0);
    assert!(handle.is_finished());
    // Every expansion reaches the UI, batched: the chunks make the whole recording.
    let expanded: u64 = events
        .iter()
        .map(|e| match e {
            Event::Progress(p) => p.expanded_count,
            _ => 0,
        })
        .sum();
    assert_eq!(expanded, report.stats.expanded);
    let store = store_of(&events, rows, cols);
    assert!(store.stopped().is_none(), "{:?}", store.stopped());
    assert_eq!(store.expansions() as u64, report.stats.expanded);
}

#[test]
fn stop_cancels_a_slow_run() {
    let maze = Box::new(Maze::new(100, 100));
    let mut handle = SolverHandle::spawn(
        maze,
        Algorithm::Bfs,
        20.0,
        false,
        Limits::default(),
        no_wake(),
    )
    .unwrap();
    collect_until(&mut handle, |e| matches!(e, Event::Progress(_)));
    handle.stop();
    let events = collect_until(&mut handle, |e| matches!(e, Event::Finished(_)));
    let report = finished(&events);
    assert_eq!(report.outcome, Outcome::Cancelled);
    assert!(report.stats.expanded < 100);
}

#[test]
fn paused_run_expands_one_state_per_step() {
    let maze = Box::new(Maze::new(30, 30));
    let mut handle = SolverHandle::spawn(
        maze,
        Algorithm::AStar,
        f64::INFINITY,
        true,
        Limits::default(),
        no_wake(),
    )
    .unwrap();
    let expanded_of = |e: &Event| match e {
        Event::Progress(p) => Some(p.stats.expanded),
        _ => None,
    };
    // Paused before the first expansion returns: it is shown, and nothing more happens.
    collect_until(&mut handle, |e| expanded_of(e) == Some(1));
    for step in 2..=4 {
        handle.send(Command::Step);
        let events = collect_until(&mut handle, |e| expanded_of(e).is_some());
        assert_eq!(expanded_of(events.last().unwrap()), Some(step));
    }
    std::thread::sleep(Duration::from_millis(100));
    assert!(
        handle.drain(Duration::from_millis(5)).is_empty(),
        "still paused"
    );
    handle.send(Command::Resume);
    let events = collect_until(&mut handle, |e| matches!(e, Event::Finished(_)));
    assert_eq!(finished(&events).cost, 58.0);
}

#[test]
fn speed_can_change_during_a_run() {
    let maze = Box::new(Maze::new(20, 20));
    let mut handle = SolverHandle::spawn(
        maze,
        Algorithm::Bfs,
        5.0,
        false,
        Limits::default(),
        no_wake(),
    )
    .unwrap();
    collect_until(&mut handle, |e| matches!(e, Event::Progress(_)));
    handle.send(Command::SetSpeed(f64::INFINITY));
    let events = collect_until(&mut handle, |e| matches!(e, Event::Finished(_)));
    assert_eq!(finished(&events).cost, 38.0);
}

#[test]
fn depth_first_progress_records_the_current_path() {
    let maze = Box::new(Maze::new(6, 6));
    let mut handle = SolverHandle::spawn(
        maze,
        Algorithm::Dfs,
        1000.0,
        false,
        Limits::default(),
        no_wake(),
    )
    .unwrap();
    let events = collect_until(&mut handle, |e| matches!(e, Event::Finished(_)));
    let store = store_of(&events, 6, 6);
    let last = store.expansions();
    assert!(last > 3);
    for k in [1, last / 2, last] {
        let path = store.depth_first_path(k, usize::MAX);
        assert_eq!(path[0].cell, Cell::new(0, 0), "at {k}");
        assert_eq!(
            path.len(),
            store.expansion(k - 1).unwrap().depth as usize + 1
        );
    }
}

/// A puzzle whose search panics, to check the app survives it.
#[derive(Clone, Debug)]
struct Exploding;

impl Puzzle for Exploding {
    fn puzzle_type(&self) -> &'static PuzzleType {
        puzzles::type_by_name("maze").unwrap()
    }
    fn picture(&self) -> Picture {
        Maze::new(2, 2).picture()
    }
    fn algorithms(&self) -> Vec<Algorithm> {
        vec![Algorithm::Bfs]
    }
    fn heuristic_name(&self) -> String {
        "none".into()
    }
    fn default_algorithm(&self) -> Algorithm {
        Algorithm::Bfs
    }
    fn guarantees_optimal(&self, _: Algorithm) -> bool {
        true
    }
    fn refusal(&self, _: Algorithm) -> Option<SearchError> {
        None
    }
    fn solve(
        &self,
        _: Algorithm,
        _: &mut dyn Watcher,
        _: &CancelToken,
    ) -> Result<Report, SearchError> {
        panic!("boom")
    }
    fn solve_default(
        &self,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        self.solve(Algorithm::Bfs, watcher, cancel)
    }
    fn count_states(&self, _: &CancelToken) -> puzzlelab::search::StateCount {
        panic!("boom")
    }
    fn dims(&self) -> (usize, usize) {
        (2, 2)
    }
    fn oracle(
        &self,
        _: &CancelToken,
        _: &mut dyn FnMut(&str),
    ) -> Result<Box<dyn puzzlelab::puzzles::oracle::Oracle>, puzzlelab::puzzles::oracle::OracleError>
    {
        Err(puzzlelab::puzzles::oracle::OracleError::Unsupported)
    }
    fn capabilities(&self) -> puzzlelab::puzzles::Capabilities<'_> {
        puzzlelab::puzzles::Capabilities::default()
    }
    fn preparation(&mut self) -> Option<&mut dyn puzzlelab::puzzles::Preparation> {
        None
    }
    fn options(&self) -> Vec<puzzlelab::puzzles::PuzzleOption> {
        vec![]
    }
    fn set_option(&mut self, name: &str, _: &str) -> Result<(), String> {
        Err(format!("no option {name}"))
    }
    fn stroke_value(&self, _: Cell) -> Option<u8> {
        None
    }
    fn paint(&mut self, _: Cell, _: u8) -> bool {
        false
    }
    fn to_text(&self) -> String {
        String::new()
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    fn clone_box(&self) -> Box<dyn Puzzle> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

#[test]
fn a_panicking_search_becomes_an_error_event() {
    let mut handle = SolverHandle::spawn(
        Box::new(Exploding),
        Algorithm::Bfs,
        10.0,
        false,
        Limits::default(),
        no_wake(),
    )
    .unwrap();
    let events = collect_until(&mut handle, |e| matches!(e, Event::Failed(_)));
    match events.last() {
        Some(Event::Failed(message)) => assert!(message.contains("boom"), "{message}"),
        other => panic!("{other:?}"),
    }
    assert!(handle.is_finished());
}
