//! The differential net: every algorithm, under every tie-breaking policy, on the fast
//! flat-table paths (no one watching) and the general search (watched), against a plain
//! reference written here from the rules as the README states them.
//!
//! - Grid mazes: random sizes, walls, terrain costs 1-9, 4 or 8 directions, corner cutting,
//!   one to three goals, percolation, every heuristic; made from the text format, from JSON,
//!   and by random edit / undo / redo sequences followed by a save and load. The reference is
//!   a Dijkstra over the characters of the grid.
//! - Sliding tile boards (2 x 2 to 3 x 3): a breadth-first search over the blank's moves.
//! - Klotski and Rush Hour random layouts, Klondike and the car maze: a breadth-first search
//!   over the type's successors (the rules), independent of the search algorithms.
//!
//! Each answer is a legal path whose cost adds up; a run that says optimal has the
//! reference's least cost; A* with an admissible heuristic and Dijkstra always claim and
//! find it; a puzzle with no path is never "solved". A smaller sample goes through the
//! command line's JSON and the app's solver thread.
//!
//! `DIFF_CASES` and `DIFF_SEED` run a longer or another campaign by hand (release builds:
//! `DIFF_CASES=20000 cargo test --release --test it differential`).

use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use puzzlelab::puzzles::{self, Cell, NoWatcher, Place, Puzzle, Report, Watcher};
use puzzlelab::search::{
    Algorithm, CancelToken, Cost, Limits, Outcome, Problem, SearchError, TieBreak,
};
use puzzlelab::solver::{Event, SolverHandle};

const EPS: Cost = 1e-9;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn runner(default_cases: u64, salt: u64) -> TestRunner {
    TestRunner::new(Config {
        cases: env_number("DIFF_CASES", default_cases) as u32,
        rng_seed: RngSeed::Fixed(env_number("DIFF_SEED", 20_261_125) ^ salt),
        failure_persistence: None,
        ..Config::default()
    })
}

// ---------------------------------------------------------------------------------------
// The grid maze's rules, written out again (README: "Grid mazes").

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Perc {
    Off,
    TopBottom,
    LeftRight,
}

/// A maze as its text file says it: squares (0 blocked, else the cost of entering), the
/// start, the goals and the movement rules.
#[derive(Clone, Debug)]
struct Grid {
    rows: usize,
    cols: usize,
    cost: Vec<u8>,
    start: Cell,
    goals: Vec<Cell>,
    eight: bool,
    cutting: bool,
    heuristic: &'static str,
    perc: Perc,
}

impl Grid {
    fn at(&self, r: isize, c: isize) -> u8 {
        if r < 0 || c < 0 || r as usize >= self.rows || c as usize >= self.cols {
            0
        } else {
            self.cost[r as usize * self.cols + c as usize]
        }
    }

    /// The cost of the move from `a` to `b`, or `None` if it is not a move.
    fn step(&self, a: Cell, b: Cell) -> Option<Cost> {
        let (dr, dc) = (
            b.row as isize - a.row as isize,
            b.col as isize - a.col as isize,
        );
        let (r, c) = (a.row as isize, a.col as isize);
        let enter = self.at(r + dr, c + dc);
        if enter == 0 || dr.abs() > 1 || dc.abs() > 1 || (dr == 0 && dc == 0) {
            return None;
        }
        if dr != 0 && dc != 0 {
            if !self.eight {
                return None;
            }
            let beside = (self.at(r, c + dc) != 0, self.at(r + dr, c) != 0);
            let allowed = if self.cutting {
                beside.0 || beside.1
            } else {
                beside.0 && beside.1
            };
            if !allowed {
                return None;
            }
            return Some(Cost::from(enter) * std::f64::consts::SQRT_2);
        }
        Some(Cost::from(enter))
    }

    fn sources(&self) -> Vec<Cell> {
        let free = |c: &Cell| self.cost[c.row * self.cols + c.col] != 0;
        match self.perc {
            Perc::Off => vec![self.start],
            Perc::TopBottom => (0..self.cols)
                .map(|c| Cell::new(0, c))
                .filter(free)
                .collect(),
            Perc::LeftRight => (0..self.rows)
                .map(|r| Cell::new(r, 0))
                .filter(free)
                .collect(),
        }
    }

    fn is_target(&self, cell: Cell) -> bool {
        match self.perc {
            Perc::Off => self.goals.contains(&cell),
            Perc::TopBottom => cell.row == self.rows - 1,
            Perc::LeftRight => cell.col == self.cols - 1,
        }
    }

    /// The least cost from a source to a target (Dijkstra), `None` if there is no path.
    fn least_cost(&self) -> Option<Cost> {
        #[derive(PartialEq)]
        struct Entry(Cost, Cell);
        impl Eq for Entry {}
        impl PartialOrd for Entry {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for Entry {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                other.0.total_cmp(&self.0)
            }
        }
        let mut best: HashMap<Cell, Cost> = HashMap::new();
        let mut open = BinaryHeap::new();
        for s in self.sources() {
            best.insert(s, 0.0);
            open.push(Entry(0.0, s));
        }
        while let Some(Entry(g, cell)) = open.pop() {
            if g > best[&cell] {
                continue;
            }
            if self.is_target(cell) {
                return Some(g);
            }
            for dr in -1isize..=1 {
                for dc in -1isize..=1 {
                    let (r, c) = (cell.row as isize + dr, cell.col as isize + dc);
                    if r < 0 || c < 0 {
                        continue;
                    }
                    let next = Cell::new(r as usize, c as usize);
                    if let Some(step) = self.step(cell, next) {
                        let g2 = g + step;
                        if best.get(&next).is_none_or(|&b| g2 < b - EPS) {
                            best.insert(next, g2);
                            open.push(Entry(g2, next));
                        }
                    }
                }
            }
        }
        None
    }

    /// Whether the heuristic never overestimates here: every one but Manhattan with
    /// diagonals; in percolation mode it counts rows to cross, always admissible.
    fn admissible(&self) -> bool {
        self.perc != Perc::Off || !(self.heuristic == "manhattan" && self.eight)
    }

    fn text(&self) -> String {
        let mut text = String::new();
        if self.eight {
            text.push_str("moves: 8\n");
        }
        if self.cutting {
            text.push_str("corner-cutting: yes\n");
        }
        text.push_str(&format!("heuristic: {}\n", self.heuristic));
        match self.perc {
            Perc::Off => {}
            Perc::TopBottom => text.push_str("percolation: top-bottom\n"),
            Perc::LeftRight => text.push_str("percolation: left-right\n"),
        }
        text.push_str(&self.rows_text().join("\n"));
        text.push('\n');
        text
    }

    fn rows_text(&self) -> Vec<String> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let cell = Cell::new(r, c);
                        let ends = self.perc == Perc::Off;
                        match self.cost[r * self.cols + c] {
                            _ if ends && cell == self.start => 'S',
                            _ if ends && self.goals.contains(&cell) => 'G',
                            0 => '#',
                            1 => '.',
                            n => char::from(b'0' + n),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn json(&self) -> serde_json::Value {
        let perc = match self.perc {
            Perc::Off => "off",
            Perc::TopBottom => "top-bottom",
            Perc::LeftRight => "left-right",
        };
        serde_json::json!({
            "type": "maze", "version": 1, "rows": self.rows_text(),
            "moves": if self.eight { "8" } else { "4" },
            "corner_cutting": self.cutting, "heuristic": self.heuristic, "percolation": perc,
        })
    }

    /// The rule of painting a square: the start and goals stay free at cost 1, as their
    /// `S` and `G` say (outside percolation mode); costs above 9 are 9.
    fn paint(&mut self, cell: Cell, value: u8) {
        let end = self.perc == Perc::Off && (cell == self.start || self.goals.contains(&cell));
        if end {
            return;
        }
        self.cost[cell.row * self.cols + cell.col] = value.min(9);
    }
}

const HEURISTICS: [&str; 5] = ["manhattan", "euclidean", "octile", "chebyshev", "zero"];

fn grid_strategy() -> impl Strategy<Value = Grid> {
    (
        2usize..14,
        2usize..14,
        proptest::collection::vec((0u8..10, 0u8..3), 14 * 14),
        any::<(u16, u16, u16, u16)>(),
        (any::<bool>(), any::<bool>(), 0usize..5, 0u8..6, 1usize..4),
    )
        .prop_map(
            |(rows, cols, squares, ends, (eight, cutting, h, perc, n_goals))| {
                // A square is blocked one time in four, costs 1 half the time, else 2-9.
                let cost = squares[..rows * cols]
                    .iter()
                    .map(|&(v, kind)| match kind {
                        0 if v < 8 => 0,
                        1 => 1,
                        _ => v.clamp(1, 9),
                    })
                    .collect();
                let n = rows * cols;
                let start = ends.0 as usize % n;
                let mut goals = Vec::new();
                for k in 0..n_goals {
                    let g = [ends.1, ends.2, ends.3][k] as usize % n;
                    if g != start && !goals.contains(&g) {
                        goals.push(g);
                    }
                }
                if goals.is_empty() {
                    goals.push((start + 1) % n);
                }
                let cell = |i: usize| Cell::new(i / cols, i % cols);
                let perc = match perc {
                    4 => Perc::TopBottom,
                    5 => Perc::LeftRight,
                    _ => Perc::Off,
                };
                let mut grid = Grid {
                    rows,
                    cols,
                    cost,
                    start: cell(start),
                    goals: goals.into_iter().map(cell).collect(),
                    eight,
                    cutting,
                    heuristic: HEURISTICS[h],
                    perc,
                };
                if perc == Perc::Off {
                    for c in std::iter::once(grid.start).chain(grid.goals.clone()) {
                        let i = c.row * cols + c.col;
                        grid.cost[i] = 1;
                    }
                }
                grid
            },
        )
}

/// One edit of a random sequence: paint a square, undo, or redo.
#[derive(Clone, Debug)]
enum Edit {
    Paint(usize, u8),
    Undo,
    Redo,
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    proptest::collection::vec(
        prop_oneof![
            3 => (0usize..196, 0u8..10).prop_map(|(i, v)| Edit::Paint(i, v)),
            1 => Just(Edit::Undo),
            1 => Just(Edit::Redo),
        ],
        0..12,
    )
}

/// Applies `edits` to the puzzle and to the written-out grid alike, with an undo history
/// of whole copies (as the app keeps one).
fn edit_both(puzzle: &mut Box<dyn Puzzle>, grid: &mut Grid, edits: &[Edit]) {
    let mut undo: Vec<(Box<dyn Puzzle>, Grid)> = Vec::new();
    let mut redo: Vec<(Box<dyn Puzzle>, Grid)> = Vec::new();
    for edit in edits {
        match edit {
            Edit::Paint(i, v) => {
                let i = i % (grid.rows * grid.cols);
                let cell = Cell::new(i / grid.cols, i % grid.cols);
                let before = (puzzle.clone_box(), grid.clone());
                if puzzle.paint(cell, *v) {
                    undo.push(before);
                    redo.clear();
                }
                grid.paint(cell, *v);
            }
            Edit::Undo => {
                if let Some((p, g)) = undo.pop() {
                    redo.push((std::mem::replace(puzzle, p), std::mem::replace(grid, g)));
                }
            }
            Edit::Redo => {
                if let Some((p, g)) = redo.pop() {
                    undo.push((std::mem::replace(puzzle, p), std::mem::replace(grid, g)));
                }
            }
        }
    }
}

/// A watcher that watches, so the general search runs instead of the flat tables.
struct Watching;

impl Watcher for Watching {}

/// How many (puzzle, algorithm, policy, path) runs a check made.
#[derive(Default)]
struct Tally {
    runs: std::cell::Cell<u64>,
}

/// Runs every algorithm under every tie-breaking policy, unwatched and watched, and checks
/// each answer against `least` (the reference's least cost, `None` for no path), the
/// admissibility of the heuristic and the legality of the path (`step` gives the cost of a
/// move between two places, `None` for no move).
fn check_all(
    puzzle: &dyn Puzzle,
    least: Option<Cost>,
    admissible: bool,
    step: &dyn Fn(&Place, &Place) -> Option<Cost>,
    tally: &Tally,
) -> Result<(), TestCaseError> {
    for algorithm in puzzle.algorithms() {
        let policies: &[TieBreak] = if algorithm.has_open_list() {
            &TieBreak::ALL
        } else {
            &[TieBreak::HighG]
        };
        for &tie_break in policies {
            for watched in [false, true] {
                let cancel = CancelToken::with_limits(Limits {
                    tie_break,
                    timeout: Some(Duration::from_secs(20)),
                    ..Limits::default()
                });
                let report = if watched {
                    puzzle.solve(algorithm, &mut Watching, &cancel)
                } else {
                    puzzle.solve(algorithm, &mut NoWatcher, &cancel)
                };
                let report = match report {
                    Ok(report) => report,
                    // Refused as unsolvable before searching: right only with no path.
                    Err(SearchError::Unsolvable(why)) if least.is_none() => {
                        let _ = why;
                        continue;
                    }
                    Err(e) => return Err(TestCaseError::fail(format!("{algorithm}: {e}"))),
                };
                tally.runs.set(tally.runs.get() + 1);
                let what = format!(
                    "{algorithm} ({}, {})",
                    tie_break.name(),
                    if watched { "watched" } else { "flat" }
                );
                check_report(&report, least, admissible, step, &what)?;
            }
        }
    }
    Ok(())
}

fn check_report(
    report: &Report,
    least: Option<Cost>,
    admissible: bool,
    step: &dyn Fn(&Place, &Place) -> Option<Cost>,
    what: &str,
) -> Result<(), TestCaseError> {
    prop_assert!(report.outcome != Outcome::Timeout, "{what} timed out");
    let Some(least) = least else {
        prop_assert!(!report.solved, "{what} solved a puzzle with no path");
        prop_assert_eq!(report.outcome, Outcome::NotFound, "{}", what);
        return Ok(());
    };
    prop_assert!(
        report.solved,
        "{what} found no path; the least cost is {least}"
    );
    if !report.path.is_empty() {
        let mut total = 0.0;
        for pair in report.path.windows(2) {
            let cost = step(&pair[0], &pair[1]);
            prop_assert!(
                cost.is_some(),
                "{what}: {:?} -> {:?} is no move",
                pair[0],
                pair[1]
            );
            total += cost.unwrap_or_default();
        }
        prop_assert!(
            (total - report.cost).abs() < 1e-6,
            "{what}: the path's moves add up to {total}, the report says {}",
            report.cost
        );
    }
    prop_assert!(
        report.cost >= least - 1e-6,
        "{what}: cost {} below the least {least}",
        report.cost
    );
    if report.optimal {
        prop_assert!(
            (report.cost - least).abs() < 1e-6,
            "{what} says optimal with cost {}; the least is {least}",
            report.cost
        );
    }
    let must_be_optimal = report.algorithm == Algorithm::Dijkstra
        || (report.algorithm == Algorithm::AStar && admissible);
    if must_be_optimal {
        prop_assert!(report.optimal, "{what} does not claim optimality");
    }
    Ok(())
}

fn maze_step(grid: &Grid) -> impl Fn(&Place, &Place) -> Option<Cost> + '_ {
    move |a, b| grid.step(a.cell, b.cell)
}

fn check_grid(puzzle: &dyn Puzzle, grid: &Grid, tally: &Tally) -> Result<(), TestCaseError> {
    // The puzzle read is the grid written: nothing lost or invented on the way in.
    prop_assert_eq!(
        puzzles::parse(&grid.text(), Some("maze"))
            .map(|p| p.to_text())
            .ok(),
        Some(puzzle.to_text()),
        "the puzzle differs from the grid written"
    );
    let least = grid.least_cost();
    check_all(puzzle, least, grid.admissible(), &maze_step(grid), tally)
}

#[test]
fn every_algorithm_finds_the_least_cost_on_random_mazes() {
    let tally = Tally::default();
    let puzzles_checked = std::cell::Cell::new(0u64);
    runner(48, 1)
        .run(&(grid_strategy(), edits()), |(grid, edits)| {
            // Read from text, from JSON, and edited then saved and loaded.
            let text = puzzles::parse(&grid.text(), Some("maze")).expect("the grid parses");
            check_grid(text.as_ref(), &grid, &tally)?;
            let from_json = (puzzles::type_by_name("maze").unwrap().from_json)(grid.json())
                .expect("the JSON parses");
            prop_assert_eq!(from_json.to_text(), text.to_text());
            let mut edited = text;
            let mut model = grid.clone();
            edit_both(&mut edited, &mut model, &edits);
            check_grid(edited.as_ref(), &model, &tally)?;
            let saved = puzzles::parse(&edited.to_text(), Some("maze")).expect("saved maze");
            check_grid(saved.as_ref(), &model, &tally)?;
            puzzles_checked.set(puzzles_checked.get() + 3);
            Ok(())
        })
        .unwrap();
    eprintln!(
        "differential net, mazes: {} puzzles, {} runs",
        puzzles_checked.get(),
        tally.runs.get()
    );
    assert!(
        tally.runs.get() > 1000,
        "the net ran {} runs",
        tally.runs.get()
    );
}

/// The shipped terrain maze: every algorithm and policy finds 45 or does not say optimal.
#[test]
fn the_shipped_terrain_maze_costs_45() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/maze-terrain.txt"
    ))
    .unwrap();
    let puzzle = puzzles::parse(&text, Some("maze")).unwrap();
    let grid = grid_from_text(&text);
    assert_eq!(grid.least_cost(), Some(45.0));
    let tally = Tally::default();
    check_all(puzzle.as_ref(), Some(45.0), true, &maze_step(&grid), &tally).unwrap();
    let astar = puzzle
        .solve(Algorithm::AStar, &mut NoWatcher, &CancelToken::new())
        .unwrap();
    assert_eq!((astar.cost, astar.optimal), (45.0, true));
    // Undo after an edit gives the file's maze back, facts and all.
    let mut edited = puzzle.clone_box();
    let before = edited.clone_box();
    edited.paint(Cell::new(0, 0), 1);
    let edited = before;
    let bfs = edited
        .solve(Algorithm::Bfs, &mut NoWatcher, &CancelToken::new())
        .unwrap();
    assert!(
        !bfs.optimal || bfs.cost == 45.0,
        "BFS says optimal at {}",
        bfs.cost
    );
    assert!(
        !edited.algorithms().contains(&Algorithm::IdaStar),
        "IDA* is offered as if every square cost 1"
    );
}

/// Reads a maze file written in the plain-text format (4-connected unless `moves: 8`).
fn grid_from_text(text: &str) -> Grid {
    let mut grid = Grid {
        rows: 0,
        cols: 0,
        cost: Vec::new(),
        start: Cell::new(0, 0),
        goals: Vec::new(),
        eight: false,
        cutting: false,
        heuristic: "manhattan",
        perc: Perc::Off,
    };
    for line in text
        .lines()
        .filter(|l| !l.starts_with(';') && !l.is_empty())
    {
        if let Some((key, value)) = line.split_once(':') {
            match (key.trim(), value.trim()) {
                ("moves", "8") => grid.eight = true,
                ("corner-cutting", "yes") => grid.cutting = true,
                _ => {}
            }
            continue;
        }
        grid.cols = line.chars().count();
        for (c, ch) in line.chars().enumerate() {
            let here = Cell::new(grid.rows, c);
            grid.cost.push(match ch {
                '#' => 0,
                'S' => {
                    grid.start = here;
                    1
                }
                'G' => {
                    grid.goals.push(here);
                    1
                }
                '.' => 1,
                d => d as u8 - b'0',
            });
        }
        grid.rows += 1;
    }
    grid
}

// ---------------------------------------------------------------------------------------
// Sliding tiles: the blank swaps with a tile beside it.

fn sliding_distance(rows: usize, cols: usize, board: &[u8]) -> Option<u64> {
    let goal: Vec<u8> = (1..(rows * cols) as u8).chain(std::iter::once(0)).collect();
    let mut seen: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert(board.to_vec(), 0);
    queue.push_back(board.to_vec());
    while let Some(b) = queue.pop_front() {
        let d = seen[&b];
        if b == goal {
            return Some(d);
        }
        let blank = b.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / cols, blank % cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(blank - cols);
        }
        if r + 1 < rows {
            next.push(blank + cols);
        }
        if c > 0 {
            next.push(blank - 1);
        }
        if c + 1 < cols {
            next.push(blank + 1);
        }
        for n in next {
            let mut b2 = b.clone();
            b2.swap(blank, n);
            if !seen.contains_key(&b2) {
                seen.insert(b2.clone(), d + 1);
                queue.push_back(b2);
            }
        }
    }
    None
}

#[test]
fn every_algorithm_finds_the_least_moves_on_random_sliding_boards() {
    let tally = Tally::default();
    runner(24, 2)
        .run(
            &(2usize..4, 2usize..4, any::<u64>()),
            |(rows, cols, seed)| {
                // A random arrangement: solvable or not, the reference says which.
                let n = rows * cols;
                let mut tiles: Vec<u8> = (0..n as u8).collect();
                let mut s = seed;
                for i in (1..n).rev() {
                    s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    tiles.swap(i, (s >> 33) as usize % (i + 1));
                }
                let text = format!(
                    "{}\n",
                    tiles
                        .chunks(cols)
                        .map(|row| row.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
                        .collect::<Vec<_>>()
                        .join("\n")
                );
                let puzzle = puzzles::parse(&text, Some("sliding")).expect("the board parses");
                let least = sliding_distance(rows, cols, &tiles).map(|d| d as Cost);
                let unit = |_: &Place, _: &Place| Some(1.0);
                if least.is_none() {
                    // Refused before searching, as unsolvable.
                    let r = puzzle.solve(Algorithm::Bfs, &mut NoWatcher, &CancelToken::new());
                    prop_assert!(r.is_err() || r.is_ok_and(|r| !r.solved));
                    return Ok(());
                }
                check_all(puzzle.as_ref(), least, true, &unit, &tally)?;
                let astar = puzzle
                    .solve(Algorithm::AStar, &mut NoWatcher, &CancelToken::new())
                    .unwrap();
                prop_assert_eq!(astar.moves.len() as Cost, astar.cost);
                Ok(())
            },
        )
        .unwrap();
    eprintln!("differential net, sliding tiles: {} runs", tally.runs.get());
    assert!(tally.runs.get() > 100);
}

// ---------------------------------------------------------------------------------------
// Board puzzles: a breadth-first search over the type's own successors.

fn bfs_distance<P: Problem>(problem: &P) -> Option<Cost> {
    let mut seen = std::collections::HashSet::new();
    let mut queue = VecDeque::new();
    for s in problem.start_states() {
        if seen.insert(s.clone()) {
            queue.push_back((s, 0u64));
        }
    }
    let mut out = Vec::new();
    while let Some((s, d)) = queue.pop_front() {
        if problem.is_goal(&s).unwrap() {
            return Some(d as Cost);
        }
        out.clear();
        problem.successors(&s, &mut out).unwrap();
        for n in out.drain(..) {
            if seen.insert(n.state.clone()) {
                queue.push_back((n.state, d + 1));
            }
        }
    }
    None
}

fn reference(puzzle: &dyn Puzzle) -> Option<Cost> {
    use puzzlelab::puzzles::{car_maze, klondike, klotski, rush_hour, script};
    let any = puzzle.as_any();
    if let Some(p) = any.downcast_ref::<script::Script>() {
        bfs_distance(p)
    } else if let Some(p) = any.downcast_ref::<klotski::Klotski>() {
        bfs_distance(p)
    } else if let Some(p) = any.downcast_ref::<rush_hour::RushHour>() {
        bfs_distance(p)
    } else if let Some(p) = any.downcast_ref::<car_maze::CarMaze>() {
        bfs_distance(p)
    } else if let Some(p) = any.downcast_ref::<klondike::Klondike>() {
        bfs_distance(p)
    } else {
        panic!("no reference for {}", puzzle.puzzle_type().name)
    }
}

/// Whether [`reference`] knows `puzzle`'s type.
fn has_reference(puzzle: &dyn Puzzle) -> bool {
    use puzzlelab::puzzles::{car_maze, klondike, klotski, rush_hour, script};
    let any = puzzle.as_any();
    any.is::<script::Script>()
        || any.is::<klotski::Klotski>()
        || any.is::<rush_hour::RushHour>()
        || any.is::<car_maze::CarMaze>()
        || any.is::<klondike::Klondike>()
}

#[test]
fn every_algorithm_finds_the_least_moves_on_board_puzzles() {
    let tally = Tally::default();
    let unit = |_: &Place, _: &Place| Some(1.0);
    let mut boards: Vec<Box<dyn Puzzle>> = Vec::new();
    // Every type with a breadth-first reference: its random layouts if it makes them, else
    // its shipped puzzle.
    // The grids and the sliding tiles have differential tests of their own above.
    for t in puzzles::TYPES {
        let base = t.default_puzzle();
        if !has_reference(base.as_ref()) {
            continue;
        }
        match base.capabilities().random_layouts {
            Some(maker) => {
                for seed in 0..env_number("DIFF_LAYOUTS", 3) {
                    boards.extend(maker.random_layout(seed));
                }
            }
            // Every shipped puzzle of a type without random layouts (each puzzle script).
            None => boards.extend(
                puzzles::shipped()
                    .filter(|(s, _)| s.name == t.name)
                    .filter_map(|(_, s)| puzzles::parse(s.text, Some(t.name)).ok()),
            ),
        }
    }
    for puzzle in &boards {
        let least = reference(puzzle.as_ref());
        check_all(puzzle.as_ref(), least, true, &unit, &tally).unwrap();
    }
    eprintln!(
        "differential net, board puzzles: {} puzzles, {} runs",
        boards.len(),
        tally.runs.get()
    );
    assert!(tally.runs.get() > 50);
}

// ---------------------------------------------------------------------------------------
// The same answers through the command line's JSON and the app's solver thread.

#[test]
fn the_command_line_and_the_solver_thread_give_the_same_answers() {
    let dir = tempfile::tempdir().unwrap();
    let cases = std::cell::Cell::new(0);
    runner(6, 3)
        .run(&grid_strategy(), |grid| {
            let path = dir.path().join(format!("maze-{}.txt", cases.get()));
            cases.set(cases.get() + 1);
            std::fs::write(&path, grid.text()).unwrap();
            let least = grid.least_cost();
            let puzzle = puzzles::parse(&grid.text(), Some("maze")).unwrap();
            for algorithm in [Algorithm::AStar, Algorithm::Bfs, Algorithm::Dijkstra] {
                if !puzzle.algorithms().contains(&algorithm) {
                    continue;
                }
                let (code, out, err) = crate::common::puzzlelab(&[
                    "solve",
                    path.to_str().unwrap(),
                    "--algorithm",
                    algorithm.name(),
                    "--tie-break",
                    "lifo",
                    "--json",
                ]);
                prop_assert!(code == 0 || code == 1, "exit {code}: {err}");
                let json: serde_json::Value = serde_json::from_str(&out).unwrap();
                let solved = json["solved"].as_bool().unwrap();
                let optimal = json["optimal"].as_bool().unwrap();
                let cost = json["cost"].as_f64().unwrap();
                prop_assert_eq!(solved, least.is_some(), "CLI {}", algorithm);
                if let (true, Some(least)) = (optimal, least) {
                    prop_assert!(
                        (cost - least).abs() < 1e-6,
                        "CLI {algorithm}: {cost} vs {least}"
                    );
                }
                let report = solve_on_thread(puzzle.clone_box(), algorithm);
                check_report(
                    &report,
                    least,
                    grid.admissible(),
                    &maze_step(&grid),
                    &format!("solver thread {algorithm}"),
                )?;
            }
            Ok(())
        })
        .unwrap();
}

fn solve_on_thread(puzzle: Box<dyn Puzzle>, algorithm: Algorithm) -> Report {
    let mut handle = SolverHandle::spawn(
        puzzle,
        algorithm,
        f64::INFINITY,
        false,
        Limits::default(),
        Arc::new(|| {}),
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        for event in handle.drain(Duration::from_millis(5)) {
            match event {
                Event::Finished(report) => return report,
                Event::Failed(e) => panic!("the solver failed: {e}"),
                _ => {}
            }
        }
        assert!(Instant::now() < deadline, "the solver did not answer");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Each move of a board puzzle's solution as a value ([`Report::motion`]) slides the same
/// piece along the same route as comparing the pictures before and after it finds (the plain
/// reference, `Picture::moved_piece`), forward and, reversed, back.
pub(crate) fn assert_motions_match_the_pictures(report: &Report) {
    assert!(report.solved, "{:?}", report.outcome);
    assert_eq!(report.boards.len(), report.moves.len() + 1);
    assert_eq!(report.motions.len(), report.moves.len());
    for (i, pair) in report.boards.windows(2).enumerate() {
        let motion = report.motion(i).expect("a motion for every move");
        let forward = pair[0].moved_piece(&pair[1]);
        assert!(
            forward.is_some(),
            "move {i} ({}) moves one piece",
            report.moves[i]
        );
        assert_eq!(
            pair[0].piece_move(motion),
            forward,
            "move {i}: {}",
            report.moves[i]
        );
        let back = motion.reversed().expect("a motion that stays on the board");
        assert_eq!(
            pair[1].piece_move(back),
            pair[1].moved_piece(&pair[0]),
            "move {i} back: {}",
            report.moves[i]
        );
    }
}

#[test]
fn moves_as_values_match_the_pictures_on_every_shipped_board_puzzle() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut checked = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let small_sliding = name.starts_with("sliding-8") || name == "sliding-15-easy.txt";
        if !(name.starts_with("klotski") || name.starts_with("rush-hour") || small_sliding) {
            continue;
        }
        let puzzle = puzzles::load_file(&path, None).unwrap();
        for algorithm in [Algorithm::Bfs, Algorithm::AStar] {
            if puzzle.refusal(algorithm).is_some() {
                continue;
            }
            let report = puzzle
                .solve(algorithm, &mut NoWatcher, &CancelToken::new())
                .unwrap();
            assert_motions_match_the_pictures(&report);
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked} solutions checked");
}

/// Moves played by hand (random strokes through `Puzzle::paint`, as the canvas makes them)
/// are animated from the move as a value (`Puzzle::motion_from`): the same piece and route
/// as comparing the pictures before and after finds, on Klotski, Rush Hour and sliding tiles.
#[test]
fn hand_moves_as_values_match_the_pictures() {
    use rand::{Rng as _, SeedableRng as _, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(29);
    for file in [
        "klotski-classic.txt",
        "klotski-pennant.txt",
        "rush-hour-first.txt",
        "rush-hour-walls.txt",
        "sliding-8-hardest-a.txt",
        "sliding-15-easy.txt",
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(file);
        let mut puzzle = puzzles::load_file(&path, None).unwrap();
        let (rows, cols) = puzzle.dims();
        let mut moves = 0;
        for _ in 0..4000 {
            let cell = Cell::new(rng.random_range(0..rows), rng.random_range(0..cols));
            let value = rng.random_range(0..16);
            let before = puzzle.clone_box();
            if !puzzle.paint(cell, value) {
                continue;
            }
            let (was, is) = (before.picture(), puzzle.picture());
            let Some(reference) = was.moved_piece(&is) else {
                continue;
            };
            let hand = puzzle.capabilities().hand_play;
            let motion = hand.and_then(|h| h.motion_from(before.as_ref()));
            assert_eq!(
                motion.and_then(|m| was.piece_move(m)),
                Some(reference),
                "{file}: {cell:?} {value}"
            );
            moves += 1;
        }
        assert!(moves >= 20, "{file}: {moves} hand moves");
    }
}
