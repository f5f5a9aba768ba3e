//! Issue 47: the open list at any moment of a recorded run, rebuilt by replaying the
//! recording, against what the run did: the state it marks next is the one the run expanded
//! next, for every algorithm that keeps an open list and every tie-breaking policy, at seeded
//! random moments; and the list's states are the squares the canvas marks as frontier then.

use std::collections::HashSet;

use puzzlelab::puzzles::{self, Puzzle};
use puzzlelab::runs::open_list::{OpenListError, open_list_at};
use puzzlelab::runs::recording::TraceRecorder;
use puzzlelab::search::{Algorithm, CancelToken, Limits, TieBreak};
use rand::{Rng, SeedableRng};

/// A random open maze of `rows x cols` with about a quarter of its squares walls, start at the
/// top left and goal at the bottom right (always free).
fn random_maze(rows: usize, cols: usize, seed: u64) -> Box<dyn Puzzle> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push(match (r, c) {
                (0, 0) => 'S',
                _ if (r, c) == (rows - 1, cols - 1) => 'G',
                _ if rng.random_bool(0.25) => '#',
                _ => '.',
            });
        }
        text.push('\n');
    }
    puzzles::parse(&text, Some("maze")).expect("a maze")
}

fn record(puzzle: &dyn Puzzle, algorithm: Algorithm, tie_break: TieBreak) -> TraceRecorder {
    let mut recorder = TraceRecorder::new(1 << 28);
    let limits = Limits {
        tie_break,
        ..Limits::default()
    };
    puzzle
        .solve(algorithm, &mut recorder, &CancelToken::with_limits(limits))
        .expect("a search");
    recorder.finish();
    recorder
}

#[test]
fn the_marked_next_state_is_the_one_the_run_expanded_next() {
    let algorithms = [
        Algorithm::Bfs,
        Algorithm::Dijkstra,
        Algorithm::AStar,
        Algorithm::Greedy,
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(47);
    let mut checked = 0;
    for seed in 0..6 {
        let maze = random_maze(9, 12, seed);
        for algorithm in algorithms {
            for tie_break in TieBreak::ALL {
                let rec = record(maze.as_ref(), algorithm, tie_break);
                let n = rec.expansions();
                for _ in 0..8 {
                    let moment = rng.random_range(0..n.max(1));
                    let list = open_list_at(&rec, moment, algorithm, tie_break).unwrap();
                    let Some(next) = rec.expansion(moment).and_then(|e| e.place) else {
                        continue;
                    };
                    // Breadth-first tests for the goal when it generates it: the goal is put
                    // on the frontier and never expanded, and nothing else differs.
                    assert_eq!(
                        list.first().and_then(|e| e.place),
                        Some(next),
                        "{algorithm:?} {tie_break:?} seed {seed} at {moment}: {:?}",
                        &list[..list.len().min(4)]
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 500, "only {checked} moments checked");
}

#[test]
fn the_open_list_holds_the_squares_the_replay_marks_as_frontier() {
    let maze = random_maze(10, 10, 7);
    let rec = record(maze.as_ref(), Algorithm::AStar, TieBreak::HighG);
    for moment in [0, 1, 5, rec.expansions() / 2, rec.expansions()] {
        // The timeline's replay: marks changed expansion by expansion.
        let mut frontier = HashSet::new();
        let mut closed = HashSet::new();
        let mut mark = |place, change| {
            use puzzlelab::runs::recording::Change;
            match change {
                Change::Close => {
                    closed.insert(place);
                }
                Change::Open => {
                    frontier.insert(place);
                }
                _ => unreachable!("a forward replay only closes and opens"),
            }
        };
        rec.sources(&mut mark);
        for j in 0..moment {
            rec.step_forward(j, &mut mark);
        }
        let marked: HashSet<_> = frontier.difference(&closed).copied().collect();
        let list = open_list_at(&rec, moment, Algorithm::AStar, TieBreak::HighG).unwrap();
        let listed: HashSet<_> = list.iter().filter_map(|e| e.place).collect();
        assert_eq!(listed, marked, "at {moment}");
        assert_eq!(listed.len(), list.len(), "each state once");
    }
}

#[test]
fn searches_without_one_open_list_say_why() {
    let maze = random_maze(6, 6, 1);
    for algorithm in [
        Algorithm::Dfs,
        Algorithm::IdaStar,
        Algorithm::BidirectionalBfs,
    ] {
        let rec = record(maze.as_ref(), algorithm, TieBreak::HighG);
        let why = open_list_at(&rec, 1, algorithm, TieBreak::HighG).unwrap_err();
        assert!(matches!(why, OpenListError::NoOpenList(_)), "{why}");
    }
}

/// Past [`MAX_REPLAYED`] states put on the frontier the list is refused before any replay
/// (a frame never replays a large run), and up to it the list is given.
#[test]
fn a_large_run_is_refused_at_once() {
    use puzzlelab::runs::open_list::MAX_REPLAYED;
    let mut text = String::new();
    for r in 0..260 {
        for c in 0..260 {
            text.push(match (r, c) {
                (0, 0) => 'S',
                (259, 259) => 'G',
                _ => '.',
            });
        }
        text.push('\n');
    }
    let maze = puzzles::parse(&text, Some("maze")).unwrap();
    let rec = record(maze.as_ref(), Algorithm::Bfs, TieBreak::HighG);
    let end = rec.expansions();
    assert!(rec.pushed_before(end) > MAX_REPLAYED);
    let why = open_list_at(&rec, end, Algorithm::Bfs, TieBreak::HighG).unwrap_err();
    assert!(
        matches!(why, OpenListError::TooLarge(n) if n > MAX_REPLAYED),
        "{why}"
    );
    let early = (0..end)
        .find(|&k| rec.pushed_before(k) > MAX_REPLAYED / 2)
        .unwrap();
    assert!(open_list_at(&rec, early, Algorithm::Bfs, TieBreak::HighG).is_ok());
}
