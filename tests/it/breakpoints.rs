//! Breakpoints on live runs (issue 32): the solver pauses at the first expansion (or
//! generation) that meets a breakpoint, said in the progress event, and goes on when resumed;
//! compared with an unwatched record of the same run's expansions. In the app, a breakpoint
//! on a pinned square stops a BFS there and the status bar says why.

use std::sync::Arc;
use std::time::{Duration, Instant};

use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::{Place, Puzzle, Watcher};
use puzzlelab::runs::breakpoints::Breakpoints;
use puzzlelab::runs::recording::TraceRecorder;
use puzzlelab::search::{Algorithm, CancelToken, Cost, Limits, Stats};
use puzzlelab::solver::{Command, Event, SolverHandle};

/// One expansion: (place, depth, g, h, frontier before it).
type Expansion = (Option<Place>, u64, Cost, Option<Cost>, u64);

/// Every expansion of a run in order, and every generation as the number of expansions
/// before it.
#[derive(Default)]
struct Record {
    expansions: Vec<Expansion>,
    generated: Vec<(Option<Place>, usize)>,
}

impl Watcher for Record {
    fn expanded(&mut self, place: Option<Place>, depth: u64, stats: &Stats) {
        self.expansions
            .push((place, depth, 0.0, None, stats.frontier));
    }
    fn wants_scores(&self) -> bool {
        true
    }
    fn scored(&mut self, _place: Place, g: Cost, h: Option<Cost>, _parent: Option<Place>) {
        if let Some(last) = self.expansions.last_mut() {
            last.2 = g;
            last.3 = h;
        }
    }
    fn generated(&mut self, place: Option<Place>) {
        self.generated.push((place, self.expansions.len()));
    }
}

fn maze() -> Maze {
    Maze::from_text(&std::fs::read_to_string("puzzles/maze-rooms.txt").unwrap()).unwrap()
}

/// Runs `algorithm` on the solver thread at full speed with `breakpoints`; returns the
/// expansions done when the first breakpoint fired and its reason, then resumes and checks
/// that the run ends solved.
fn run_to_break(algorithm: Algorithm, breakpoints: Breakpoints) -> (u64, String) {
    run_to_break_on(maze(), algorithm, breakpoints)
}

/// [`run_to_break`] on `maze`.
fn run_to_break_on(maze: Maze, algorithm: Algorithm, breakpoints: Breakpoints) -> (u64, String) {
    run_to_break_at(maze, algorithm, breakpoints, f64::INFINITY)
}

/// [`run_to_break_on`] at `speed` expansions a second.
fn run_to_break_at(
    maze: Maze,
    algorithm: Algorithm,
    breakpoints: Breakpoints,
    speed: f64,
) -> (u64, String) {
    let mut handle = SolverHandle::spawn_with(
        Box::new(maze),
        algorithm,
        speed,
        false,
        Limits::default(),
        breakpoints,
        Arc::new(|| {}),
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut expanded = 0;
    let mut why = None;
    while why.is_none() {
        assert!(Instant::now() < deadline, "no breakpoint fired");
        match handle.next_event() {
            Some(Event::Progress(p)) => {
                expanded += p.expanded_count;
                why = p.breakpoint;
            }
            Some(other) => panic!("the run ended without pausing: {other:?}"),
            None => std::thread::sleep(Duration::from_millis(1)),
        }
    }
    // Paused: nothing more comes until Resume.
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        !matches!(handle.next_event(), Some(Event::Progress(p)) if p.expanded_count > 0),
        "the run went on while paused"
    );
    // Breakpoints off (a re-expansion would fire again at once), then Resume.
    handle.send(Command::SetBreakpoints(Breakpoints::default()));
    handle.send(Command::Resume);
    loop {
        assert!(Instant::now() < deadline, "the run did not end");
        match handle.next_event() {
            Some(Event::Finished(report)) => {
                assert!(report.solved);
                break;
            }
            Some(Event::Failed(e)) => panic!("{e}"),
            _ => std::thread::sleep(Duration::from_millis(1)),
        }
    }
    (expanded, why.unwrap_or_default())
}

fn record(algorithm: Algorithm) -> Record {
    let mut r = Record::default();
    maze()
        .solve(algorithm, &mut r, &CancelToken::new())
        .unwrap();
    r
}

#[test]
fn breakpoints_fire_at_the_first_expansion_that_meets_them() {
    let bfs = record(Algorithm::Bfs);
    // Depth: the first expansion deeper than 12.
    let first = bfs.expansions.iter().position(|e| e.1 > 12).unwrap() as u64 + 1;
    let (at, why) = run_to_break(
        Algorithm::Bfs,
        Breakpoints {
            depth_above: Some(12),
            ..Breakpoints::default()
        },
    );
    assert_eq!(at, first, "{why}");
    assert!(why.contains("depth 13"), "{why}");
    // The pinned state expanded: the 40th expansion's square.
    let pinned = bfs.expansions[39].0.unwrap();
    let (at, why) = run_to_break(
        Algorithm::Bfs,
        Breakpoints {
            pinned: Some(pinned),
            pinned_expanded: true,
            ..Breakpoints::default()
        },
    );
    assert_eq!(at, 40, "{why}");
    assert!(why.contains("pinned state"), "{why}");
    // The same state generated: during the expansion that first reaches it.
    let reached = bfs
        .generated
        .iter()
        .find(|g| g.0 == Some(pinned))
        .unwrap()
        .1 as u64;
    let (at, why) = run_to_break(
        Algorithm::Bfs,
        Breakpoints {
            pinned: Some(pinned),
            pinned_generated: true,
            ..Breakpoints::default()
        },
    );
    assert_eq!(at, reached, "{why}");
    assert!(why.contains("generated"), "{why}");
    // The frontier passing 30, and g passing 9.5, on A*.
    let astar = record(Algorithm::AStar);
    let first = astar.expansions.iter().position(|e| e.4 > 30).unwrap() as u64 + 1;
    let (at, why) = run_to_break(
        Algorithm::AStar,
        Breakpoints {
            frontier_above: Some(30),
            ..Breakpoints::default()
        },
    );
    assert_eq!(at, first, "{why}");
    let first = astar.expansions.iter().position(|e| e.2 > 9.5).unwrap() as u64 + 1;
    let (at, why) = run_to_break(
        Algorithm::AStar,
        Breakpoints {
            g_above: Some(9.5),
            ..Breakpoints::default()
        },
    );
    assert_eq!(at, first, "{why}");
    assert!(why.contains("g = 10"), "{why}");
    // At a watched pace each expansion goes out before its score is checked: the g limit,
    // which fires on the score, still pauses the run and says so.
    let (at, why) = run_to_break_at(
        maze(),
        Algorithm::AStar,
        Breakpoints {
            g_above: Some(9.5),
            ..Breakpoints::default()
        },
        50.0,
    );
    assert_eq!(at, first, "{why}");
    assert!(why.contains("g = 10"), "{why}");
}

#[test]
fn inconsistency_and_reexpansion_breakpoints_fire_where_the_run_shows_them() {
    // Manhattan distance with diagonal moves is inconsistent: A* sees f go down along a
    // move; IDA* expands states again in every iteration.
    let text = "moves: 8\nheuristic: manhattan\nS.........\n..........\n..........\n.........G";
    let mut handle = SolverHandle::spawn_with(
        Box::new(Maze::from_text(text).unwrap()),
        Algorithm::AStar,
        f64::INFINITY,
        false,
        Limits::default(),
        Breakpoints {
            f_decrease: true,
            ..Breakpoints::default()
        },
        Arc::new(|| {}),
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        assert!(Instant::now() < deadline);
        match handle.next_event() {
            Some(Event::Progress(p)) if p.breakpoint.is_some() => {
                assert!(p.breakpoint.unwrap().contains("f went down"));
                break;
            }
            Some(Event::Finished(_)) => panic!("no inconsistency seen"),
            _ => std::thread::sleep(Duration::from_millis(1)),
        }
    }
    drop(handle);
    // A wall across the way: Manhattan distance falls short, and IDA* iterates.
    let walled = Maze::from_text("S...#....\n..#.#.##.\n..#...#G.\n..#####..\n.........").unwrap();
    let (at, why) = run_to_break_on(
        walled,
        Algorithm::IdaStar,
        Breakpoints {
            reexpansion: true,
            ..Breakpoints::default()
        },
    );
    assert!(at > 1 && why.contains("expanded again"), "{at}: {why}");
}

#[test]
fn a_breakpoint_on_a_pinned_square_stops_a_bfs_there_and_the_status_bar_says_so() {
    use crate::common::gui::{click_cell, click_label, harness, run_until};
    use puzzlelab::app::{AppCommand, Settings};
    let mut h = harness(Settings::default());
    h.run();
    let _dir = crate::common::gui::open_copy_at_full_speed(
        &mut h,
        "puzzles/maze-rooms.txt",
        Algorithm::Bfs,
    );
    // A first run, to pin a square of.
    h.state_mut().push(AppCommand::Start);
    h.run();
    assert_eq!(h.state().algorithm(), Algorithm::Bfs);
    run_until(&mut h, |app| app.result().is_some());
    let bfs = record(Algorithm::Bfs);
    let pinned = bfs.expansions[60].0.unwrap();
    click_label(&mut h, "Pin squares");
    h.run();
    click_cell(&mut h, pinned.cell);
    h.run();
    click_label(&mut h, "Breakpoints");
    h.run();
    click_label(&mut h, "the pinned state is expanded");
    h.run();
    assert!(h.state().runs.breakpoints.pinned_expanded);
    // The second run pauses there.
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| {
        app.status().text.starts_with("Paused at a breakpoint")
    });
    let text = h.state().status().text.clone();
    assert!(
        text.contains(&format!(
            "the pinned state (row {}, column {}) was expanded",
            pinned.cell.row, pinned.cell.col
        )),
        "{text}"
    );
    assert!(h.state().is_paused());
    // The timeline catches up with the run's head: the 61st expansion, the pinned state.
    run_until(&mut h, |app| app.marks().stats.expanded >= 61);
    assert_eq!(h.state().marks().stats.expanded, 61);
    // Resume: the run goes on to the goal.
    h.state_mut().push(AppCommand::Resume);
    run_until(&mut h, |app| app.result().is_some());
    assert!(h.state().result().unwrap().solved);
}

/// Runs `algorithm` on the maze on the solver thread at full speed with `breakpoints`,
/// appending every chunk of the recording to a store as the app does, until the first
/// breakpoint fires (a run that ends first fails); returns the store then, and the reason.
/// Resumes and checks that the run ends solved.
fn store_at_break(algorithm: Algorithm, breakpoints: Breakpoints) -> (TraceRecorder, String) {
    let maze = maze();
    let picture = maze.picture();
    let mut store = TraceRecorder::store(picture.rows, picture.cols);
    let mut handle = SolverHandle::spawn_with(
        Box::new(maze),
        algorithm,
        f64::INFINITY,
        false,
        Limits::default(),
        breakpoints,
        Arc::new(|| {}),
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let why = loop {
        assert!(Instant::now() < deadline, "no breakpoint fired");
        match handle.next_event() {
            Some(Event::Progress(mut p)) => {
                store.append(std::mem::take(&mut p.chunk));
                if let Some(why) = p.breakpoint {
                    break why;
                }
            }
            Some(other) => panic!("the run ended without pausing: {other:?}"),
            None => std::thread::sleep(Duration::from_millis(1)),
        }
    };
    handle.send(Command::SetBreakpoints(Breakpoints::default()));
    handle.send(Command::Resume);
    loop {
        assert!(Instant::now() < deadline, "the run did not end");
        match handle.next_event() {
            Some(Event::Finished(report)) => {
                assert!(report.solved, "resumed, the run ends at its goal");
                break;
            }
            Some(Event::Failed(e)) => panic!("{e}"),
            _ => std::thread::sleep(Duration::from_millis(1)),
        }
    }
    (store, why)
}

/// Item 7 of the Learn walk: a breakpoint pauses at the moment it names with that
/// expansion whole (every successor it puts on the frontier recorded), whether it fired on
/// a state generated (not the expansion's last successor), on a score, or on the goal's own
/// expansion, which pauses there instead of ending the run (Resume then ends it).
#[test]
fn breakpoints_pause_at_the_moment_they_name_with_the_expansion_whole() {
    let bfs = record(Algorithm::Bfs);
    let successors = |r: &Record, k: usize| r.generated.iter().filter(|g| g.1 == k).count();
    // A state generated before the last successor of its expansion.
    let (pinned, reached) = (bfs.generated.windows(2))
        .find(|w| w[0].1 == w[1].1 && w[0].1 > 10)
        .map(|w| (w[0].0.unwrap(), w[0].1))
        .unwrap();
    let (store, why) = store_at_break(
        Algorithm::Bfs,
        Breakpoints {
            pinned: Some(pinned),
            pinned_generated: true,
            ..Breakpoints::default()
        },
    );
    assert!(why.contains("generated"), "{why}");
    assert_eq!(store.expansions(), reached, "{why}");
    assert_eq!(
        store.pushed_count(Some(reached - 1)),
        successors(&bfs, reached),
        "the expansion that generated the pinned state, whole"
    );
    // g passing 9.5 on A*: fired on the expansion's score, before its successors.
    let astar = record(Algorithm::AStar);
    let first = astar.expansions.iter().position(|e| e.2 > 9.5).unwrap() + 1;
    let (store, why) = store_at_break(
        Algorithm::AStar,
        Breakpoints {
            g_above: Some(9.5),
            ..Breakpoints::default()
        },
    );
    assert!(why.contains("g = 10"), "{why}");
    assert_eq!(store.expansions(), first);
    assert!(successors(&astar, first) > 0);
    assert_eq!(
        store.pushed_count(Some(first - 1)),
        successors(&astar, first)
    );
    // The goal's expansion (A* tests a state for the goal as it takes it): paused there.
    let goal = astar.expansions.last().unwrap().0.unwrap();
    let (store, why) = store_at_break(
        Algorithm::AStar,
        Breakpoints {
            pinned: Some(goal),
            pinned_expanded: true,
            ..Breakpoints::default()
        },
    );
    assert!(why.contains("pinned state"), "{why}");
    assert_eq!(store.expansions(), astar.expansions.len());
}
