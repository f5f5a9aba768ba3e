//! The search context on bit rows (`puzzlelab::search::octile`): A* and Jump Point Search
//! against a plain Dijkstra written here and against the general search (the same costs to
//! 1e-9; not the same expansions, as its ties are exact), one context reused across maps and
//! searches.

use std::collections::BinaryHeap;

use puzzlelab::puzzles::Cell;
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::maze::movingai::{ScenarioProblem, parse_map};
use puzzlelab::search::octile::{OctileAlgorithm, OctileMap, OctileSearch, pruned_directions};
use puzzlelab::search::{self, Algorithm, CancelToken, Limits, Outcome, TieBreak};

const SQRT2: f64 = std::f64::consts::SQRT_2;

/// A small seeded generator (SplitMix64), so that the grids need no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random grid: `free[r][c]`.
pub fn random_grid(
    rng: &mut Rng,
    rows: usize,
    cols: usize,
    walls_percent: usize,
) -> Vec<Vec<bool>> {
    (0..rows)
        .map(|_| (0..cols).map(|_| rng.below(100) >= walls_percent).collect())
        .collect()
}

/// The least costs from `start` to every square by a plain Dijkstra over the grid's rules:
/// 8 moves, diagonal `sqrt(2)`, a diagonal needing both squares beside it free (or, with
/// corner cutting, one of them).
pub fn dijkstra(free: &[Vec<bool>], corner_cutting: bool, start: (usize, usize)) -> Vec<Vec<f64>> {
    let (rows, cols) = (free.len(), free[0].len());
    let ok = |r: isize, c: isize| {
        r >= 0
            && c >= 0
            && (r as usize) < rows
            && (c as usize) < cols
            && free[r as usize][c as usize]
    };
    let mut dist = vec![vec![f64::INFINITY; cols]; rows];
    let mut heap = BinaryHeap::new();
    dist[start.0][start.1] = 0.0;
    heap.push((std::cmp::Reverse(0u64), start));
    while let Some((std::cmp::Reverse(bits), (r, c))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > dist[r][c] {
            continue;
        }
        for dr in -1isize..=1 {
            for dc in -1isize..=1 {
                let (nr, nc) = (r as isize + dr, c as isize + dc);
                if (dr, dc) == (0, 0) || !ok(nr, nc) {
                    continue;
                }
                let diagonal = dr != 0 && dc != 0;
                if diagonal {
                    let beside = (
                        ok(r as isize + dr, c as isize),
                        ok(r as isize, c as isize + dc),
                    );
                    let allowed = if corner_cutting {
                        beside.0 || beside.1
                    } else {
                        beside.0 && beside.1
                    };
                    if !allowed {
                        continue;
                    }
                }
                let nd = d + if diagonal { SQRT2 } else { 1.0 };
                let (nr, nc) = (nr as usize, nc as usize);
                if nd < dist[nr][nc] {
                    dist[nr][nc] = nd;
                    heap.push((std::cmp::Reverse(nd.to_bits()), (nr, nc)));
                }
            }
        }
    }
    dist
}

/// The grid as a Moving AI map, read as the maze the general search runs on.
pub fn maze_of(free: &[Vec<bool>], corner_cutting: bool) -> Maze {
    let mut text = format!(
        "type octile\nheight {}\nwidth {}\nmap\n",
        free.len(),
        free[0].len()
    );
    for row in free {
        text.extend(row.iter().map(|&f| if f { '.' } else { '@' }));
        text.push('\n');
    }
    let mut maze = parse_map(&text).expect("a map");
    maze.set_corner_cutting(corner_cutting);
    maze
}

pub fn free_squares(free: &[Vec<bool>]) -> Vec<(usize, usize)> {
    let mut squares = Vec::new();
    for (r, row) in free.iter().enumerate() {
        for (c, &f) in row.iter().enumerate() {
            if f {
                squares.push((r, c));
            }
        }
    }
    squares
}

/// Checks a path of A* (square by square) or JPS (jump point to jump point, straight or
/// diagonal lines) on the grid: from start to goal over free squares, its cost the sum of its
/// steps.
pub fn check_path(free: &[Vec<bool>], path: &[(usize, usize)], cost: f64) {
    let mut sum = 0.0;
    for pair in path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (dr, dc) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
        assert!(
            dr == 0 || dc == 0 || dr == dc,
            "{a:?} -> {b:?} is not a line"
        );
        let steps = dr.max(dc);
        let (sr, sc) = (
            (b.0 as isize - a.0 as isize).signum(),
            (b.1 as isize - a.1 as isize).signum(),
        );
        for k in 0..=steps as isize {
            let (r, c) = (
                (a.0 as isize + sr * k) as usize,
                (a.1 as isize + sc * k) as usize,
            );
            assert!(free[r][c], "the path crosses the wall at {r},{c}");
        }
        sum += if dr != 0 && dc != 0 { SQRT2 } else { 1.0 } * steps as f64;
    }
    assert!(
        (sum - cost).abs() < 1e-9,
        "the path's steps add up to {sum}, not {cost}"
    );
}

fn token(tie_break: TieBreak) -> CancelToken {
    CancelToken::with_limits(Limits {
        tie_break,
        ..Limits::default()
    })
}

#[test]
fn astar_and_jps_on_bit_rows_agree_with_dijkstra_and_the_general_search() {
    let cases: u64 = std::env::var("DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let seed: u64 = std::env::var("DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48);
    let mut rng = Rng(seed);
    let mut context = OctileSearch::new();
    let mut runs = 0;
    for case in 0..cases {
        let (rows, cols) = (2 + rng.below(40), 2 + rng.below(70));
        let walls = rng.below(45);
        let free = random_grid(&mut rng, rows, cols, walls);
        let squares = free_squares(&free);
        if squares.is_empty() {
            continue;
        }
        let corner_cutting = case % 3 == 0;
        let map = OctileMap::new(rows, cols, corner_cutting, |r, c| free[r][c])
            .unwrap()
            .with_jump_distances();
        let maze = maze_of(&free, corner_cutting);
        let tie_break = TieBreak::ALL[case as usize % 4];
        let cancel = token(tie_break);
        for _ in 0..6 {
            let start = squares[rng.below(squares.len())];
            let goal = squares[rng.below(squares.len())];
            let want = dijkstra(&free, corner_cutting, start)[goal.0][goal.1];
            let problem = ScenarioProblem {
                line: 1,
                bucket: 0,
                start: Cell::new(start.0, start.1),
                goal: Cell::new(goal.0, goal.1),
                optimal: want,
            };
            let general = maze.with_problem(&problem);
            let mut algorithms = vec![(OctileAlgorithm::AStar, Algorithm::AStar)];
            if !corner_cutting {
                algorithms.push((OctileAlgorithm::Jps, Algorithm::Jps));
                algorithms.push((OctileAlgorithm::JpsPlus, Algorithm::JpsPlus));
            }
            for (fast, plain) in algorithms {
                let what = format!("case {case} {fast:?} {tie_break:?} {start:?} -> {goal:?}");
                let run = context.run(&map, fast, start, goal, &cancel);
                let reference =
                    search::run_reference(&general, plain, &mut search::NoObserver, &cancel)
                        .unwrap();
                assert_eq!(run.outcome, reference.outcome, "{what}");
                if want.is_finite() {
                    assert_eq!(run.outcome, Outcome::Found, "{what}");
                    assert!(
                        (run.cost - want).abs() < 1e-9,
                        "{what}: {} vs {want}",
                        run.cost
                    );
                    assert!((run.cost - reference.cost).abs() < 1e-9, "{what}");
                    assert_eq!(run.path.first(), Some(&start));
                    assert_eq!(run.path.last(), Some(&goal));
                    check_path(&free, &run.path, run.cost);
                } else {
                    assert_eq!(run.outcome, Outcome::NotFound, "{what}");
                }
                runs += 1;
            }
        }
    }
    assert!(runs > cases, "{runs} runs");
}

/// Ties among equal f are true ties (costs as whole straight and diagonal steps), broken
/// towards the larger g: on an open grid A* expands the squares of one shortest path and no
/// more, where the general search (floating-point sums) expands more.
#[test]
fn on_an_open_grid_astar_expands_only_a_shortest_path() {
    let (rows, cols) = (60, 90);
    let map = OctileMap::new(rows, cols, false, |_, _| true).unwrap();
    let free = vec![vec![true; cols]; rows];
    let maze = maze_of(&free, false);
    let mut context = OctileSearch::new();
    let cancel = CancelToken::new();
    let mut rng = Rng(3);
    let (mut fast, mut general) = (0, 0);
    for _ in 0..20 {
        let start = (rng.below(rows), rng.below(cols));
        let goal = (rng.below(rows), rng.below(cols));
        let run = context.run(&map, OctileAlgorithm::AStar, start, goal, &cancel);
        let moves = start.0.abs_diff(goal.0).max(start.1.abs_diff(goal.1)) as u64;
        assert_eq!(run.stats.expanded, moves, "{start:?} -> {goal:?}");
        let problem = ScenarioProblem {
            line: 1,
            bucket: 0,
            start: Cell::new(start.0, start.1),
            goal: Cell::new(goal.0, goal.1),
            optimal: run.cost,
        };
        let plain = search::solve(&maze.with_problem(&problem), Algorithm::AStar).unwrap();
        assert!((plain.cost - run.cost).abs() < 1e-9);
        fast += run.stats.expanded;
        general += plain.stats.expanded;
    }
    assert!(
        fast < general,
        "{fast} expansions, the general search {general}"
    );
}

#[test]
fn a_context_serves_maps_of_other_sizes_and_wrong_squares() {
    let mut context = OctileSearch::new();
    let cancel = CancelToken::new();
    let open = OctileMap::new(3, 5, false, |_, _| true).unwrap();
    let run = context.run(&open, OctileAlgorithm::AStar, (0, 0), (2, 4), &cancel);
    assert!((run.cost - (2.0 * SQRT2 + 2.0)).abs() < 1e-12);
    let walled = OctileMap::new(9, 2, false, |r, _| r != 4).unwrap();
    for algorithm in [OctileAlgorithm::AStar, OctileAlgorithm::Jps] {
        let run = context.run(&walled, algorithm, (0, 0), (8, 1), &cancel);
        assert_eq!(run.outcome, Outcome::NotFound);
        // A blocked or outside square has no path; the start on the goal costs nothing.
        let run = context.run(&walled, algorithm, (4, 0), (0, 0), &cancel);
        assert_eq!(run.outcome, Outcome::NotFound);
        let run = context.run(&walled, algorithm, (0, 0), (99, 0), &cancel);
        assert_eq!(run.outcome, Outcome::NotFound);
        let run = context.run(&walled, algorithm, (5, 1), (5, 1), &cancel);
        assert_eq!(
            (run.outcome, run.cost, run.stats.expanded),
            (Outcome::Found, 0.0, 0)
        );
    }
    assert!(OctileMap::new(0, 5, false, |_, _| true).is_none());
    assert!(OctileMap::new(5, 1 << 20, false, |_, _| true).is_none());
}

#[test]
fn a_search_stops_at_the_memory_limit_with_the_general_message() {
    let mut context = OctileSearch::new();
    let cancel = CancelToken::with_limits(Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    });
    let map = OctileMap::new(600, 600, false, |_, _| true).unwrap();
    let run = context.run(&map, OctileAlgorithm::AStar, (0, 0), (599, 599), &cancel);
    assert_eq!(run.outcome, Outcome::MemoryLimit);
    assert!(run.message.unwrap().contains("memory limit of 1 MiB"));
}

/// Reached straight, a square keeps a side (and the diagonal between it and the square
/// ahead) only when the side is forced: free, with the square behind it blocked (Harabor and
/// Grastien's rules of 2012 without corner cutting, as Warthog's); a free side whose square
/// behind is free is reached as cheaply from the parent's row.
#[test]
fn a_square_reached_straight_keeps_only_its_forced_sides() {
    let directions = |arrived, blocked: &[(isize, isize)]| {
        let mut kept = Vec::new();
        pruned_directions(
            Some(arrived),
            |dr, dc| !blocked.contains(&(dr, dc)),
            |d| kept.push(d),
        );
        kept
    };
    // Moving up, the square behind the left side blocked: left is forced, right is not.
    assert_eq!(
        directions((-1, 0), &[(1, -1)]),
        vec![(-1, -1), (0, -1), (-1, 0)]
    );
    // Moving right in the open: straight on only; a wall behind the lower side forces it.
    assert_eq!(directions((0, 1), &[]), vec![(0, 1)]);
    assert_eq!(directions((0, 1), &[(1, -1)]), vec![(1, 1), (1, 0), (0, 1)]);
    // A forced side whose diagonal is blocked keeps the side alone.
    assert_eq!(directions((0, 1), &[(1, -1), (1, 1)]), vec![(1, 0), (0, 1)]);
}

/// The maze's Jump Point Search scans on the bit rows too (one scanner, issue 57), where a
/// scan stops at any of several goal squares, or at the far line in percolation mode: on
/// random uniform 8-connected grids without corner cutting, JPS, JPS+ (goal squares only)
/// and A* through the general search find the least cost a plain Dijkstra finds from every
/// start to the nearest goal.
#[test]
fn the_mazes_jps_on_bit_rows_finds_the_least_cost_to_several_goals() {
    let mut rng = Rng(57);
    let mut runs = 0;
    for case in 0..80 {
        let (rows, cols) = (2 + rng.below(24), 2 + rng.below(30));
        let walls = rng.below(40);
        let free = random_grid(&mut rng, rows, cols, walls);
        let squares = free_squares(&free);
        if squares.len() < 2 {
            continue;
        }
        let percolation = ["off", "top-bottom", "left-right"][case % 3];
        let start = squares[rng.below(squares.len())];
        let goals: Vec<(usize, usize)> = (0..1 + rng.below(4))
            .map(|_| squares[rng.below(squares.len())])
            .filter(|&g| g != start)
            .collect();
        if percolation == "off" && goals.is_empty() {
            continue;
        }
        let mut text = format!(
            "moves: 8\ncorner-cutting: no\nheuristic: octile\npercolation: {percolation}\n"
        );
        for (r, row) in free.iter().enumerate() {
            for (c, &f) in row.iter().enumerate() {
                text.push(match (f, percolation) {
                    (false, _) => '#',
                    (true, "off") if (r, c) == start => 'S',
                    (true, "off") if goals.contains(&(r, c)) => 'G',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        let maze = Maze::from_text(&text).expect("a maze");
        // The sources and targets of the least cost: the start and the goals, or the near
        // and far lines of free squares.
        let line = |at: &dyn Fn(usize, usize) -> bool| -> Vec<(usize, usize)> {
            squares.iter().copied().filter(|&(r, c)| at(r, c)).collect()
        };
        let (sources, targets) = match percolation {
            "off" => (vec![start], goals.clone()),
            "top-bottom" => (line(&|r, _| r == 0), line(&|r, _| r == rows - 1)),
            _ => (line(&|_, c| c == 0), line(&|_, c| c == cols - 1)),
        };
        let want = sources
            .iter()
            .map(|&s| {
                let dist = dijkstra(&free, false, s);
                targets
                    .iter()
                    .map(|&(r, c)| dist[r][c])
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(f64::INFINITY, f64::min);
        let mut algorithms = vec![Algorithm::AStar, Algorithm::Jps];
        if percolation == "off" {
            algorithms.push(Algorithm::JpsPlus);
        }
        for algorithm in algorithms {
            let what = format!("case {case} {algorithm:?} {percolation}\n{text}");
            match search::solve(&maze, algorithm) {
                Ok(run) if want.is_finite() => {
                    assert_eq!(run.outcome, Outcome::Found, "{what}");
                    assert!(
                        (run.cost - want).abs() < 1e-9,
                        "{what}: {} vs {want}",
                        run.cost
                    );
                }
                Ok(run) => assert_eq!(run.outcome, Outcome::NotFound, "{what}"),
                Err(e) => assert!(!want.is_finite() && sources.is_empty(), "{what}: {e}"),
            }
            runs += 1;
        }
    }
    assert!(runs > 150, "{runs} runs");
}
