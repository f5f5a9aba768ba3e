//! The frontier counts distinct states (issue 44, item 2): a state reached again more cheaply
//! leaves a stale entry on a best-first search's open list, which the frontier figure must not
//! count, so that states reached = closed + frontier. Checked at every expansion (the figures a
//! watcher reads) against a model of the open and closed sets kept from the observer's events,
//! and at the end, for every algorithm with a closed set, on the shipped files and on seeded
//! random grids and boards.

use std::collections::HashSet;
use std::hash::Hash;
use std::path::Path;

use puzzlelab::puzzles::maze::{Connectivity, GridHeuristic, Maze};
use puzzlelab::puzzles::sliding::Sliding;
use puzzlelab::puzzles::{self, NoWatcher, Place, Watcher};
use puzzlelab::search::{self, Algorithm, CancelToken, Observer, Outcome, Problem, Stats};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// The algorithms whose figures obey reached = closed + frontier: all but depth-first search
/// (whose frontier is its untried successors, not yet reached) and IDA* (no closed set).
fn with_closed_sets<P: Problem>(problem: &P) -> Vec<Algorithm> {
    Algorithm::ALL
        .into_iter()
        .filter(|a| !matches!(a, Algorithm::Dfs | Algorithm::IdaStar) && a.applies_to(problem))
        .collect()
}

/// A watcher's books: the states put on the frontier and not yet expanded since, and the
/// states expanded and not put back since (a reopened state moves back to the frontier).
struct Books<S> {
    open: HashSet<S>,
    closed: HashSet<S>,
    /// Whether a closed state went back on the frontier (A* reopening it): then expanded
    /// counts it twice and only reached = closed + frontier holds.
    reopened: bool,
    /// Whether the search is bidirectional: its two trees are not told apart here, so only
    /// the sums are checked.
    two_sided: bool,
    checked: u64,
    what: String,
}

impl<S> Books<S> {
    fn new(what: String, two_sided: bool) -> Self {
        Self {
            open: HashSet::new(),
            closed: HashSet::new(),
            reopened: false,
            two_sided,
            checked: 0,
            what,
        }
    }

    /// The figures against the books; `returned` states were reached and are on neither
    /// set (breadth-first search's goal, returned when generated, never queued).
    fn check(&self, stats: &Stats, when: &str, returned: u64) {
        let what = &self.what;
        if !self.two_sided {
            assert_eq!(
                stats.frontier,
                self.open.len() as u64,
                "{what} {when}: the frontier is not the states on it"
            );
            assert_eq!(
                stats.max_closed,
                (self.open.len() + self.closed.len()) as u64 + returned,
                "{what} {when}: reached is not closed + frontier"
            );
        }
        if !self.reopened {
            assert_eq!(
                stats.expanded + stats.frontier + returned,
                stats.max_closed,
                "{what} {when}: expanded + frontier is not reached"
            );
        }
    }
}

impl<S: Clone + Eq + Hash> Observer<S> for Books<S> {
    fn generated(&mut self, state: &S) {
        if self.closed.remove(state) {
            self.reopened = true;
        }
        self.open.insert(state.clone());
    }

    fn expanded(&mut self, state: &S, _depth: u64, stats: &Stats) {
        if !self.open.remove(state) && !self.two_sided {
            // A start expanded without being generated would be a bug of its own.
            assert!(self.closed.is_empty(), "{}: expanded unseen", self.what);
        }
        self.closed.insert(state.clone());
        self.check(stats, &format!("at expansion {}", stats.expanded), 0);
        self.checked += 1;
    }
}

/// Runs every algorithm with a closed set on `problem`, watched by [`Books`] and unwatched
/// (the flat grid searches), and checks the figures at every expansion and at the end.
/// Returns how many runs re-expanded a state.
fn check_every_algorithm<P: Problem>(problem: &P, name: &str) -> usize
where
    P::State: std::fmt::Debug,
{
    let mut reopening = 0;
    for algorithm in with_closed_sets(problem) {
        let what = format!("{name} {algorithm}");
        let two_sided = matches!(
            algorithm,
            Algorithm::BidirectionalAStar | Algorithm::BidirectionalBfs
        );
        let mut books = Books::new(what.clone(), two_sided);
        let watched = search::run(problem, algorithm, &mut books, &CancelToken::new()).unwrap();
        assert_eq!(books.checked, watched.stats.expanded, "{what}");
        // A one-sided search that found a goal returned it (breadth-first search when it
        // generated it, told as put on as the recording's states are; a best-first one when
        // it took it off the open list): reached, on neither set.
        let mut returned = 0;
        if !two_sided
            && watched.outcome == Outcome::Found
            && let Some(goal) = watched.states.last()
        {
            books.open.remove(goal);
            returned = 1;
        }
        books.check(&watched.stats, "at the end", returned);
        reopening += usize::from(books.reopened);
        // (Breadth-first search's last figure counts the successors generated up to the goal
        // it stopped at, which its peak, taken after whole expansions, does not.)
        let peak_after_expansions = algorithm == Algorithm::Bfs;
        assert!(
            (peak_after_expansions || watched.stats.max_frontier >= watched.stats.frontier)
                && watched.stats.max_frontier <= watched.stats.max_closed,
            "{what}: peak frontier {} against {} reached",
            watched.stats.max_frontier,
            watched.stats.max_closed
        );
        let unwatched = search::solve(problem, algorithm).unwrap();
        let s = &unwatched.stats;
        assert_eq!(unwatched.outcome, watched.outcome, "{what}");
        assert_eq!(
            (s.expanded, s.frontier, s.max_frontier, s.max_closed),
            (
                watched.stats.expanded,
                watched.stats.frontier,
                watched.stats.max_frontier,
                watched.stats.max_closed
            ),
            "{what}: the unwatched run's figures differ"
        );
    }
    reopening
}

/// The issue's two cases, through the puzzles' own solve (the command line's path): A* on the
/// hardest 8-puzzle reported 3,835 expanded + 2,113 on the frontier against 5,816 reached, and
/// on the octile maze with three goals 60 + 26 against 82. The goal taken off the open list
/// and returned is reached, neither expanded nor on the frontier (issue 56): + 1.
#[test]
fn the_issues_runs_add_up() {
    for file in [
        "puzzles/sliding-8-hardest-a.txt",
        "puzzles/maze-octile-goals.txt",
    ] {
        let puzzle = puzzles::load_file(Path::new(file), None).unwrap();
        let report = puzzle
            .solve(Algorithm::AStar, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert!(report.solved, "{file}");
        let s = &report.stats;
        assert_eq!(
            s.expanded + s.frontier + 1,
            s.max_closed,
            "{file}: {} expanded + {} on the frontier + the goal against {} reached",
            s.expanded,
            s.frontier,
            s.max_closed
        );
    }
}

/// A watcher of a puzzle (places or boards), as the app's solver thread is: the figures it is
/// given add up at every expansion.
#[test]
fn a_watcher_reads_figures_that_add_up() {
    struct Sums(u64, String);
    impl Watcher for Sums {
        fn expanded(&mut self, _: Option<Place>, _: u64, stats: &Stats) {
            assert_eq!(
                stats.expanded + stats.frontier,
                stats.max_closed,
                "{} at expansion {}",
                self.1,
                stats.expanded
            );
            self.0 += 1;
        }
    }
    for file in [
        "puzzles/sliding-8-hardest-a.txt",
        "puzzles/maze-octile-goals.txt",
        "puzzles/maze-terrain.txt",
    ] {
        let puzzle = puzzles::load_file(Path::new(file), None).unwrap();
        for algorithm in [
            Algorithm::AStar,
            Algorithm::Dijkstra,
            Algorithm::Greedy,
            Algorithm::WeightedAStar(search::Weight::new(2.0).unwrap()),
        ] {
            let mut sums = Sums(0, format!("{file} {algorithm}"));
            let report = puzzle
                .solve(algorithm, &mut sums, &CancelToken::new())
                .unwrap();
            assert_eq!(sums.0, report.stats.expanded, "{file} {algorithm}");
        }
    }
}

#[test]
fn the_shipped_grids_and_boards_add_up_for_every_algorithm() {
    for file in [
        "puzzles/maze-octile-goals.txt",
        "puzzles/maze-terrain.txt",
        "puzzles/maze-small.txt",
        "puzzles/maze-rooms.txt",
        "puzzles/maze-no-path.txt",
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let maze = Maze::from_text(&text).unwrap();
        check_every_algorithm(&maze, file);
    }
    let text = std::fs::read_to_string("puzzles/sliding-8-hardest-a.txt").unwrap();
    let board = Sliding::from_text(&text).unwrap();
    check_every_algorithm(&board, "sliding-8-hardest-a");
}

/// A random grid: blocked squares, terrain costs 1 to 9, a start and one to three goals.
fn random_grid(rng: &mut StdRng, rows: usize, cols: usize) -> String {
    let mut squares: Vec<char> = (0..rows * cols)
        .map(|_| match rng.random_range(0..10) {
            0..=2 => '#',
            3..=5 => '.',
            _ => char::from(b'1' + rng.random_range(0..9u8)),
        })
        .collect();
    let n = squares.len();
    squares[rng.random_range(0..n)] = 'S';
    for _ in 0..rng.random_range(1..=3) {
        let at = rng.random_range(0..n);
        if squares[at] != 'S' {
            squares[at] = 'G';
        }
    }
    if !squares.contains(&'G') {
        let at = (squares.iter().position(|&c| c == 'S').unwrap() + 1) % n;
        squares[at] = 'G';
    }
    squares
        .chunks(cols)
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect()
}

#[test]
fn seeded_random_grids_add_up_for_every_algorithm_and_heuristic() {
    let mut rng = StdRng::seed_from_u64(44);
    let mut reopening = 0;
    for case in 0..24 {
        let (rows, cols) = (rng.random_range(3..14), rng.random_range(3..14));
        let text = random_grid(&mut rng, rows, cols);
        let mut maze = Maze::from_text(&text).unwrap();
        if case % 2 == 1 {
            maze.set_connectivity(Connectivity::Eight);
        }
        // Manhattan with diagonals overestimates: A* then reopens states, and the books
        // still balance.
        for h in [
            GridHeuristic::Manhattan,
            GridHeuristic::Octile,
            GridHeuristic::Zero,
        ] {
            maze.set_heuristic(h);
            reopening += check_every_algorithm(&maze, &format!("case {case} {h:?}\n{text}"));
        }
    }
    // Unit-cost grids, which the unwatched BFS and A* run on flat tables.
    for seed in 0..8 {
        let mut maze = Maze::new(24, 24);
        maze.randomize(0.3, seed);
        check_every_algorithm(&maze, &format!("random 24 x 24, seed {seed}"));
    }
    assert!(
        reopening > 0,
        "no run reopened a state: the case is not tested"
    );
}

#[test]
fn seeded_random_boards_add_up_for_every_algorithm() {
    for (rows, cols, seeds) in [(2, 3, 0..6), (3, 3, 0..4)] {
        for seed in seeds {
            let mut board = Sliding::solved(rows, cols).unwrap();
            board.scramble_uniform(seed);
            check_every_algorithm(&board, &format!("{rows} x {cols} seed {seed}"));
        }
    }
}

/// A search stopped at a limit reports figures that add up too (they are in its message).
#[test]
fn a_stopped_search_adds_up() {
    use puzzlelab::search::Limits;
    let text = std::fs::read_to_string("puzzles/sliding-8-hardest-a.txt").unwrap();
    let board = Sliding::from_text(&text).unwrap();
    let cancel = CancelToken::with_limits(Limits {
        max_memory: 200_000,
        ..Limits::default()
    });
    let result = search::run(&board, Algorithm::AStar, &mut search::NoObserver, &cancel).unwrap();
    assert_eq!(result.outcome, Outcome::MemoryLimit);
    let s = &result.stats;
    assert!(s.expanded > 0);
    assert!(s.expanded + s.frontier <= s.max_closed, "{s:?}");
}

/// An observer that stops its search (through `cancel`) at the expansion numbered `at`.
struct StopAt {
    at: u64,
    seen: u64,
    cancel: CancelToken,
}

impl<S> Observer<S> for StopAt {
    fn expanded(&mut self, _state: &S, _depth: u64, _stats: &Stats) {
        if self.seen == self.at {
            self.cancel.cancel();
        }
        self.seen += 1;
    }
}

/// A search stopped at any moment (Stop in the app, before the first expansion too) ends
/// with figures that add up: the state taken off the frontier when the stop was seen, not
/// expanded, counts with the frontier.
#[test]
fn a_search_stopped_at_any_expansion_adds_up() {
    let text = std::fs::read_to_string("puzzles/maze-rooms.txt").unwrap();
    let rooms = Maze::from_text(&text).unwrap();
    let text = std::fs::read_to_string("puzzles/klondike.txt").unwrap();
    let klondike = puzzles::klondike::Klondike::from_text(&text).unwrap();
    let board =
        Sliding::from_text(&std::fs::read_to_string("puzzles/sliding-8-hardest-a.txt").unwrap())
            .unwrap();
    fn stop_each<P: Problem>(problem: &P, name: &str, wrong: &mut Vec<String>) {
        for algorithm in with_closed_sets(problem) {
            // `None`: stopped before the first expansion (Stop while paused at the start).
            for at in [None, Some(0), Some(1), Some(2), Some(5), Some(37)] {
                let cancel = CancelToken::new();
                if at.is_none() {
                    cancel.cancel();
                }
                let at = at.unwrap_or(u64::MAX);
                let mut stop = StopAt {
                    at,
                    seen: 0,
                    cancel: cancel.clone(),
                };
                let r = search::run(problem, algorithm, &mut stop, &cancel).unwrap();
                if r.outcome != Outcome::Cancelled {
                    continue; // it ended first
                }
                let s = &r.stats;
                if s.expanded + s.frontier != s.max_closed {
                    wrong.push(format!(
                        "{name} {algorithm} stopped at expansion {at} (u64::MAX: before the first): {} + {} against {}",
                        s.expanded, s.frontier, s.max_closed
                    ));
                }
            }
        }
    }
    let mut wrong = Vec::new();
    stop_each(&rooms, "maze-rooms", &mut wrong);
    stop_each(&klondike, "klondike", &mut wrong);
    stop_each(&board, "8-puzzle", &mut wrong);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
