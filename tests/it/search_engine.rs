//! The engine's algorithms: each on small known problems, agreement with the `pathfinding`
//! crate on random grids, legality of every solution, and cancellation.

use std::collections::HashSet;

use proptest::prelude::*;
use puzzlelab::puzzles::Cell;
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::search::{self, Algorithm, CancelToken, NoObserver, Observer, Outcome, Problem};

fn maze(text: &str) -> Maze {
    Maze::from_text(text).expect("test maze parses")
}

/// Replays a solution's moves from the start and checks every one is a legal successor, that
/// the costs add up and that the last state is a goal.
fn assert_legal<P: Problem>(problem: &P, result: &search::SearchResult<P::State, P::Move>)
where
    P::State: std::fmt::Debug,
{
    assert_eq!(result.outcome, Outcome::Found);
    assert_eq!(result.states.len(), result.moves.len() + 1);
    assert!(problem.start_states().contains(&result.states[0]));
    let mut cost = 0.0;
    for (i, mv) in result.moves.iter().enumerate() {
        let mut successors = Vec::new();
        problem
            .successors(&result.states[i], &mut successors)
            .unwrap();
        let step = successors
            .iter()
            .find(|s| s.state == result.states[i + 1] && s.mv.to_string() == mv.to_string())
            .unwrap_or_else(|| panic!("move {i} ({mv}) is not legal"));
        cost += step.cost;
    }
    assert!((cost - result.cost).abs() < 1e-9);
    assert!(problem.is_goal(result.states.last().unwrap()).unwrap());
}

const WINDING: &str = "\
S.#.....
.##.###.
....#...
###.#.##
....#...
.####.#.
......#G
";

#[test]
fn every_algorithm_solves_a_winding_maze_legally() {
    let m = maze(WINDING);
    for algorithm in Algorithm::ALL.into_iter().filter(|a| a.applies_to(&m)) {
        let result = search::solve(&m, algorithm).unwrap();
        assert_legal(&m, &result);
        assert_eq!(result.algorithm, algorithm);
        assert_eq!(result.optimal, algorithm.is_optimal_for(&m), "{algorithm}");
    }
}

#[test]
fn optimal_algorithms_agree_on_the_winding_maze() {
    let m = maze(WINDING);
    let costs: Vec<f64> = [Algorithm::Bfs, Algorithm::Dijkstra, Algorithm::AStar]
        .into_iter()
        .map(|a| search::solve(&m, a).unwrap().cost)
        .collect();
    assert_eq!(costs, vec![costs[0]; 3]);
    // Shortest path counted by hand: down the left, across row 2, down column 3, and round.
    let oracle =
        pathfinding::prelude::bfs(&Cell::new(0, 0), |c| neighbours(&m, *c), |c| *c == m.goal())
            .unwrap();
    assert_eq!(costs[0], (oracle.len() - 1) as f64);
}

#[test]
fn dfs_explores_in_the_articles_order() {
    // In an open 3x3 grid, backtracking goes down first, then right: down, down, right, right.
    let m = Maze::new(3, 3);
    let result = search::solve(&m, Algorithm::Dfs).unwrap();
    let moves: Vec<String> = result.moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["down", "down", "right", "right"]);
}

#[test]
fn statistics_are_counted() {
    let m = Maze::new(4, 4);
    let result = search::solve(&m, Algorithm::Bfs).unwrap();
    let s = &result.stats;
    assert!(s.expanded > 0 && s.expanded <= 16);
    assert!(s.generated >= s.expanded);
    assert!(s.max_frontier >= 1);
    assert!(s.max_closed <= 16 && s.max_closed >= s.expanded);
    assert_eq!(
        s.max_depth, 5,
        "BFS reaches depth 5 before generating the goal at 6"
    );
}

#[test]
fn greedy_and_astar_need_a_heuristic() {
    struct Line;
    impl Problem for Line {
        type State = u8;
        type Move = u8;
        fn start_states(&self) -> Vec<u8> {
            vec![0]
        }
        fn is_goal(&self, s: &u8) -> Result<bool, search::Interrupt> {
            Ok(*s == 5)
        }
        fn successors(
            &self,
            s: &u8,
            out: &mut Vec<search::Successor<u8, u8>>,
        ) -> Result<(), search::Interrupt> {
            if *s < 5 {
                out.push(search::Successor {
                    state: s + 1,
                    mv: 1,
                    cost: 1.0,
                });
            }
            Ok(())
        }
    }
    assert_eq!(
        search::solve(&Line, Algorithm::AStar).unwrap_err(),
        search::SearchError::NeedsHeuristic(Algorithm::AStar)
    );
    assert_eq!(search::solve(&Line, Algorithm::Dfs).unwrap().cost, 5.0);
}

#[test]
fn a_cancelled_search_says_so() {
    struct CancelAfter(u64, CancelToken);
    impl<S> Observer<S> for CancelAfter {
        fn expanded(&mut self, _: &S, _: u64, stats: &search::Stats) {
            if stats.expanded >= self.0 {
                self.1.cancel();
            }
        }
    }
    let m = Maze::new(100, 100);
    for algorithm in Algorithm::ALL.into_iter().filter(|a| a.applies_to(&m)) {
        let cancel = CancelToken::new();
        let mut observer = CancelAfter(10, cancel.clone());
        let result = search::run(&m, algorithm, &mut observer, &cancel).unwrap();
        assert_eq!(result.outcome, Outcome::Cancelled, "{algorithm}");
        assert_eq!(result.stats.expanded, 10, "{algorithm}");
        assert!(result.moves.is_empty());
    }
}

#[test]
fn no_path_explores_the_whole_region() {
    let m = maze("S.#.\n..#.\n###.\n...G\n");
    for algorithm in Algorithm::ALL.into_iter().filter(|a| a.applies_to(&m)) {
        let result = search::run(&m, algorithm, &mut NoObserver, &CancelToken::new()).unwrap();
        assert_eq!(result.outcome, Outcome::NotFound, "{algorithm}");
        if algorithm == Algorithm::IdaStar {
            // Every iteration searches the region again, each state once (its transposition
            // table), until no bound is left to raise.
            assert!(result.stats.expanded >= 4, "{algorithm}");
            assert_eq!(
                result.stats.max_closed, 4,
                "{algorithm}: a path of 4 states at most"
            );
        } else if matches!(
            algorithm,
            Algorithm::BidirectionalBfs | Algorithm::BidirectionalAStar
        ) {
            // Both sides search until one has nothing left: the start's region (4 squares)
            // or the goal's (7).
            assert!((4..=11).contains(&result.stats.expanded), "{algorithm}");
        } else {
            assert_eq!(result.stats.expanded, 4, "{algorithm}");
        }
        assert!(!result.optimal);
    }
}

fn neighbours(m: &Maze, c: Cell) -> Vec<Cell> {
    let mut out = Vec::new();
    let candidates = [
        (c.row + 1, c.col),
        (c.row, c.col + 1),
        (c.row.wrapping_sub(1), c.col),
        (c.row, c.col.wrapping_sub(1)),
    ];
    for (r, col) in candidates {
        let n = Cell::new(r, col);
        if r < m.rows() && col < m.cols() && !m.is_blocked(n) {
            out.push(n);
        }
    }
    out
}

fn grid_text(rows: usize, cols: usize, blocked: &[bool]) -> String {
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push(if blocked[r * cols + c] { '#' } else { '.' });
        }
        text.push('\n');
    }
    text
}

/// Rebuilds depth-first search's current path from its pushes and pops, and checks it at every
/// expansion: it starts at a start state, each step is a legal move, it ends at the state being
/// expanded, and its length is that state's depth plus one — the engine's own path to it.
struct PathWatcher<'a> {
    maze: &'a Maze,
    path: Vec<u32>,
    expansions: u64,
}

impl Observer<u32> for PathWatcher<'_> {
    fn path_push(&mut self, state: &u32) {
        self.path.push(*state);
    }

    fn path_pop(&mut self) {
        assert!(self.path.pop().is_some(), "a pop with an empty path");
    }

    fn expanded(&mut self, state: &u32, depth: u64, _stats: &search::Stats) {
        self.expansions += 1;
        assert_eq!(
            self.path.last(),
            Some(state),
            "the path ends at the expanded state"
        );
        assert_eq!(
            self.path.len() as u64,
            depth + 1,
            "the path is as long as the depth"
        );
        assert!(self.maze.start_states().contains(&self.path[0]));
        for pair in self.path.windows(2) {
            let mut successors = Vec::new();
            self.maze.successors(&pair[0], &mut successors).unwrap();
            assert!(
                successors.iter().any(|s| s.state == pair[1]),
                "each step is a move"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The depth-first path a watcher rebuilds from the engine's changes is the engine's path
    /// at every step, for depth-first search and IDA*.
    #[test]
    fn the_rebuilt_depth_first_path_is_the_engines(
        rows in 2usize..12,
        cols in 2usize..12,
        blocked in proptest::collection::vec(proptest::bool::weighted(0.25), 12 * 12),
    ) {
        let m = maze(&grid_text(rows, cols, &blocked[..rows * cols]));
        for algorithm in [Algorithm::Dfs, Algorithm::IdaStar] {
            let mut watcher = PathWatcher { maze: &m, path: Vec::new(), expansions: 0 };
            let result = search::run(&m, algorithm, &mut watcher, &CancelToken::new()).unwrap();
            prop_assert_eq!(watcher.expansions, result.stats.expanded);
            if result.outcome == Outcome::NotFound && algorithm == Algorithm::Dfs {
                prop_assert!(watcher.path.is_empty(), "every push was popped");
            }
        }
    }

    /// BFS, Dijkstra and A* agree with the `pathfinding` crate's BFS on the optimal cost over
    /// random grids, and agree on "no path"; DFS and greedy find a legal path exactly when one
    /// exists.
    #[test]
    fn algorithms_agree_with_pathfinding(
        rows in 2usize..14,
        cols in 2usize..14,
        blocked in proptest::collection::vec(proptest::bool::weighted(0.3), 14 * 14),
    ) {
        let m = maze(&grid_text(rows, cols, &blocked[..rows * cols]));
        let oracle = pathfinding::prelude::bfs(&m.start(), |c| neighbours(&m, *c), |c| *c == m.goal());
        for algorithm in Algorithm::ALL.into_iter().filter(|a| a.applies_to(&m)) {
            let result = search::solve(&m, algorithm).unwrap();
            match &oracle {
                Some(path) => {
                    assert_legal(&m, &result);
                    if algorithm.is_optimal_for(&m) {
                        prop_assert_eq!(result.cost, (path.len() - 1) as f64, "{}", algorithm);
                    }
                    let distinct: HashSet<_> = result.states.iter().collect();
                    prop_assert_eq!(distinct.len(), result.states.len(), "a path never repeats a state");
                }
                None => prop_assert_eq!(result.outcome, Outcome::NotFound, "{}", algorithm),
            }
        }
    }
}

#[test]
fn idastar_is_offered_only_where_it_suits() {
    // Small uniform grids: offered, and optimal.
    let m = maze(WINDING);
    assert!(Algorithm::IdaStar.applies_to(&m));
    let ida = search::solve(&m, Algorithm::IdaStar).unwrap();
    assert_eq!(ida.cost, search::solve(&m, Algorithm::Bfs).unwrap().cost);
    // Large grids, or grids with terrain costs, would take IDA* exponentially long.
    let large = Maze::new(100, 100);
    assert!(!Algorithm::IdaStar.applies_to(&large));
    let refused = search::solve(&large, Algorithm::IdaStar).unwrap_err();
    assert!(
        matches!(
            &refused,
            search::SearchError::Unsuited { algorithm: Algorithm::IdaStar, reason }
                if reason.contains("exponentially many paths")
        ),
        "{refused}"
    );
    let mut terrain = maze(WINDING);
    terrain.set_cost(Cell::new(0, 1), 4);
    assert!(!Algorithm::IdaStar.applies_to(&terrain));
}

#[test]
fn weighted_astar_stays_within_its_bound_and_is_optimal_at_weight_one() {
    use search::Weight;
    let m = maze(WINDING);
    let best = search::solve(&m, Algorithm::AStar).unwrap().cost;
    let one = search::solve(&m, Algorithm::WeightedAStar(Weight::new(1.0).unwrap())).unwrap();
    assert!(one.optimal);
    assert_eq!(one.cost, best);
    for w in [1.5, 2.0, 5.0] {
        let weight = Weight::new(w).unwrap();
        let result = search::solve(&m, Algorithm::WeightedAStar(weight)).unwrap();
        assert_eq!(result.outcome, Outcome::Found);
        assert!(!result.optimal, "w = {w} is not guaranteed optimal");
        assert!(
            result.cost <= w * best,
            "w = {w}: {} > {w} x {best}",
            result.cost
        );
        assert_legal(&m, &result);
    }
    assert_eq!(Weight::new(0.5), None);
    assert_eq!(Weight::new(11.0), None);
    // The name is what is serialized; a weight is not part of it.
    let json = serde_json::to_string(&Algorithm::WeightedAStar(Weight::new(3.0).unwrap())).unwrap();
    assert_eq!(json, "\"wastar\"");
    let back: Algorithm = serde_json::from_str(&json).unwrap();
    assert_eq!(back, Algorithm::WeightedAStar(Weight::DEFAULT));
    assert!(serde_json::from_str::<Algorithm>("\"nope\"").is_err());
}

#[test]
fn tie_breaking_changes_the_expansions_not_the_cost() {
    use puzzlelab::search::{Limits, TieBreak};
    // An open 60 x 60 grid: every state on a shortest path has the same f.
    let open = Maze::new(60, 60);
    let run = |algorithm: Algorithm, t: TieBreak| {
        let cancel = CancelToken::with_limits(Limits {
            tie_break: t,
            ..Limits::default()
        });
        let r = search::run(&open, algorithm, &mut NoObserver, &cancel).unwrap();
        assert_legal(&open, &r);
        assert_eq!(r.stats.tie_break, Some(t), "{algorithm} records its policy");
        r
    };
    for algorithm in [
        Algorithm::AStar,
        Algorithm::Dijkstra,
        Algorithm::WeightedAStar(search::Weight::DEFAULT),
        Algorithm::BidirectionalAStar,
    ] {
        let costs: Vec<f64> = TieBreak::ALL
            .iter()
            .map(|&t| run(algorithm, t).cost)
            .collect();
        assert!(costs.iter().all(|&c| c == 118.0), "{algorithm}: {costs:?}");
    }
    // A*: ties to the larger g expand the path only; to the smaller g, the whole grid.
    let high = run(Algorithm::AStar, TieBreak::HighG).stats.expanded;
    let low = run(Algorithm::AStar, TieBreak::LowG).stats.expanded;
    assert_eq!(high, 118);
    assert!(low > 3000, "{low}");
    // Searches without an open list record none.
    let bfs = search::solve(&open, Algorithm::Bfs).unwrap();
    assert_eq!(bfs.stats.tie_break, None);
}

/// An observer that is not silent, so that `search::run` takes the general search.
struct Watching;
impl Observer<u32> for Watching {}

#[test]
fn the_flat_grid_search_expands_exactly_what_the_general_one_does() {
    use puzzlelab::search::{Limits, TieBreak};
    for (side, density, seed) in [
        (20, 0.25, 1),
        (31, 0.3, 2),
        (64, 0.35, 3),
        (50, 0.45, 4),
        (40, 0.0, 5),
    ] {
        let mut m = Maze::new(side, side);
        m.randomize(density, seed);
        assert!(
            m.capabilities().unit_grid.is_some(),
            "a plain grid offers the flat search"
        );
        for algorithm in [Algorithm::Bfs, Algorithm::AStar] {
            for t in TieBreak::ALL {
                let cancel = CancelToken::with_limits(Limits {
                    tie_break: t,
                    ..Limits::default()
                });
                let fast = search::run(&m, algorithm, &mut NoObserver, &cancel).unwrap();
                let general = search::run_reference(&m, algorithm, &mut Watching, &cancel).unwrap();
                let what = format!("{side} {density} {seed} {algorithm} {t:?}");
                assert_eq!(fast.outcome, general.outcome, "{what}");
                assert_eq!(fast.cost, general.cost, "{what}");
                assert_eq!(fast.states, general.states, "{what}");
                let (a, b) = (&fast.stats, &general.stats);
                assert_eq!(
                    (
                        a.expanded,
                        a.generated,
                        a.max_frontier,
                        a.max_closed,
                        a.max_depth
                    ),
                    (
                        b.expanded,
                        b.generated,
                        b.max_frontier,
                        b.max_closed,
                        b.max_depth
                    ),
                    "{what}"
                );
                assert_eq!(a.tie_break, b.tie_break);
                if fast.outcome == Outcome::Found {
                    assert_legal(&m, &fast);
                }
            }
        }
    }
    // Terrain, several goals, 8 moves or another heuristic: the general search only.
    let mut m = maze("S.\n.G\n");
    m.set_connectivity(puzzlelab::puzzles::maze::Connectivity::Eight);
    assert!(m.capabilities().unit_grid.is_none());
}

/// Everything a watcher is told, in order: what the app's solver records and shows.
#[derive(Debug, PartialEq)]
enum Told {
    Expanded(u32, u64, [u64; 6]),
    Scored(u32, u64, Option<u32>),
    Generated(u32),
    GeneratedScore(u64, Option<u64>),
}

/// An observer that writes down every event with the figures it came with, and stops the
/// search (through `cancel`) after `stop_after` expansions. With `block_len` > 0 it takes a
/// grid's breadth-first expansions that many at a time and writes down the events each block
/// stands for (`states`: the state of each row-major square).
struct Log {
    told: Vec<Told>,
    scores: bool,
    stop_after: Option<(u64, CancelToken)>,
    block_len: usize,
    states: Vec<u32>,
    cols: usize,
    blocks: usize,
}

impl Observer<u32> for Log {
    fn expanded(&mut self, s: &u32, depth: u64, st: &search::Stats) {
        let figures = [
            st.expanded,
            st.generated,
            st.frontier,
            st.max_frontier,
            st.max_closed,
            st.max_depth,
        ];
        self.told.push(Told::Expanded(*s, depth, figures));
        if let Some((k, cancel)) = &self.stop_after
            && st.expanded >= *k
        {
            cancel.cancel();
        }
    }
    fn wants_scores(&self) -> bool {
        self.scores
    }
    fn scored(&mut self, s: &u32, g: search::Cost, h: Option<search::Cost>, p: Option<&u32>) {
        assert!(h.is_none());
        self.told.push(Told::Scored(*s, g as u64, p.copied()));
    }
    fn generated(&mut self, s: &u32) {
        self.told.push(Told::Generated(*s));
    }
    fn scored_generated(&mut self, g: search::Cost, h: Option<search::Cost>) {
        self.told
            .push(Told::GeneratedScore(g as u64, h.map(|h| h as u64)));
    }
    fn grid_block_len(&self) -> usize {
        self.block_len
    }
    fn grid_block(&mut self, block: &search::GridBlock) {
        assert!(block.len() <= self.block_len && !block.is_empty());
        self.blocks += 1;
        let (states, cols) = (std::mem::take(&mut self.states), self.cols);
        let state = |(r, c): (usize, usize)| states[r * cols + c];
        // The figures summed at once are those told with the last expansion.
        let last = block.events().filter_map(|e| match e {
            search::GridEvent::Expanded { stats, .. } => Some(stats),
            search::GridEvent::Generated { .. } => None,
        });
        assert_eq!(last.last(), Some(block.last_stats()));
        for event in block.events() {
            match event {
                search::GridEvent::Expanded {
                    square,
                    depth,
                    parent,
                    stats,
                } => {
                    let (s, p) = (state(square), parent.map(state));
                    self.expanded(&s, depth, &stats);
                    if self.scores {
                        self.scored(&s, depth as search::Cost, None, p.as_ref());
                    }
                }
                search::GridEvent::Generated { square, g } => {
                    let s = state(square);
                    self.generated(&s);
                    if self.scores {
                        self.scored_generated(g, None);
                    }
                }
            }
        }
        self.states = states;
    }
}

/// The flat grid breadth-first search, watched (the app's full speed takes it), tells a
/// watcher exactly what the plain breadth-first search tells it, event by event with the
/// same figures, and ends the same, on seeded random grids (a goal found, walled off, at the
/// start), with and without scores, run whole or stopped part-way; told one by one or in
/// blocks of expansions of several lengths (a block stopped part-way is told whole: the
/// plain search is then stopped after the same expansion).
#[test]
fn the_watched_flat_grid_search_tells_what_the_plain_one_does() {
    let mut cases = Vec::new();
    for (side, density, seed) in [
        (12, 0.2, 1),
        (25, 0.3, 2),
        (40, 0.35, 3),
        (30, 0.45, 4),
        (18, 0.0, 5),
        (33, 0.4, 6),
    ] {
        let mut m = Maze::new(side, side);
        m.randomize(density, seed);
        cases.push(m);
    }
    cases.push(maze("S#G\n.#.\n...\n"));
    cases.push(maze("S.#\n.##\n#.G\n"));
    for (i, m) in cases.iter().enumerate() {
        assert!(m.capabilities().unit_grid.is_some());
        let (rows, cols) = (m.rows(), m.cols());
        let states: Vec<u32> = (0..rows * cols)
            .map(|s| search::DenseIndex::dense_state(m, s).unwrap())
            .collect();
        for (scores, block_len) in [false, true]
            .into_iter()
            .flat_map(|s| [0, 1, 3, 64].map(|b| (s, b)))
        {
            for stop_after in [None, Some(1), Some(7), Some(60)] {
                let run = |reference: bool, stop_after: Option<u64>| {
                    let cancel = CancelToken::new();
                    let mut log = Log {
                        told: Vec::new(),
                        scores,
                        stop_after: stop_after.map(|k| (k, cancel.clone())),
                        block_len: if reference { 0 } else { block_len },
                        states: states.clone(),
                        cols,
                        blocks: 0,
                    };
                    let result = if reference {
                        search::run_reference(m, Algorithm::Bfs, &mut log, &cancel)
                    } else {
                        search::run(m, Algorithm::Bfs, &mut log, &cancel)
                    }
                    .unwrap();
                    if reference || block_len == 0 {
                        assert_eq!(log.blocks, 0);
                    } else {
                        assert!(log.blocks > 0 || result.stats.expanded == 0);
                    }
                    (log.told, result)
                };
                let (fast, fast_result) = run(false, stop_after);
                // Stopped inside a block, the flat search ends after the block's last
                // expansion: the plain one is stopped there too.
                let stopped_at = stop_after.map(|_| fast_result.stats.expanded.max(1));
                let (plain, plain_result) = run(true, stopped_at);
                let what = format!(
                    "grid {i}, scores {scores}, blocks of {block_len}, stopped after {stop_after:?}"
                );
                if block_len <= 1 {
                    assert_eq!(stopped_at, stop_after.map(|k| k.min(stopped_at.unwrap())));
                }
                assert!(!plain.is_empty(), "{what}");
                assert_eq!(fast.len(), plain.len(), "{what}");
                for (k, (a, b)) in fast.iter().zip(&plain).enumerate() {
                    assert_eq!(a, b, "{what}: event {k}");
                }
                // Two searches ran: the flat one keeps a byte a square, not a tree.
                assert_ne!(
                    fast_result.stats.peak_memory_bytes, plain_result.stats.peak_memory_bytes,
                    "{what}"
                );
                assert_eq!(fast_result.outcome, plain_result.outcome, "{what}");
                assert_eq!(fast_result.states, plain_result.states, "{what}");
                let (a, b) = (&fast_result.stats, &plain_result.stats);
                assert_eq!(
                    (
                        a.expanded,
                        a.generated,
                        a.frontier,
                        a.max_frontier,
                        a.max_closed
                    ),
                    (
                        b.expanded,
                        b.generated,
                        b.frontier,
                        b.max_frontier,
                        b.max_closed
                    ),
                    "{what}"
                );
            }
        }
    }
}

/// Paused on an expansion, a watcher reads figures that add up: the states reached are the
/// ones expanded (this one included) and the ones waiting on the frontier (this one not).
#[test]
fn breadth_first_figures_add_up_at_every_expansion() {
    struct Sums(u64);
    impl Observer<u32> for Sums {
        fn expanded(&mut self, _: &u32, _: u64, stats: &search::Stats) {
            assert_eq!(
                stats.expanded + stats.frontier,
                stats.max_closed,
                "after {} expansions",
                stats.expanded
            );
            self.0 += 1;
        }
    }
    for seed in 1..=8 {
        let mut m = Maze::new(30, 30);
        m.randomize(0.3, seed);
        let mut sums = Sums(0);
        let watched = search::run(&m, Algorithm::Bfs, &mut sums, &CancelToken::new()).unwrap();
        assert_eq!(sums.0, watched.stats.expanded);
        assert!(sums.0 > 10, "seed {seed}: {}", sums.0);
        // At the end too, the goal (when found) reached and never queued; the same in the
        // unwatched flat search.
        let unwatched = search::solve(&m, Algorithm::Bfs).unwrap();
        for result in [&watched, &unwatched] {
            let s = &result.stats;
            assert_eq!(
                s.expanded + s.frontier + u64::from(result.outcome == search::Outcome::Found),
                s.max_closed,
                "seed {seed}, {:?}",
                result.outcome
            );
        }
    }
}
