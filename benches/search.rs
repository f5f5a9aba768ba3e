//! Search speed: this engine against the `pathfinding` crate on the same grids (random and
//! generated mazes, up to 1024x1024), A* against Jump Point Search on an 8-connected grid, the
//! Klondike puzzle, and whole state spaces (the oracle's exploration against `pathfinding`'s
//! `dijkstra_all` and `bfs_reach`). Run with `cargo bench --features bench --bench search`;
//! criterion prints the time per search.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use puzzlelab::puzzles::maze::generate::{Generator, generate};
use puzzlelab::puzzles::maze::{Connectivity, GridHeuristic, Maze};
use puzzlelab::puzzles::{self, Cell};
use puzzlelab::search::{self, Algorithm};

/// A random maze at density 0.25: the first seed from 11 up with a path from corner to corner.
fn random_maze(side: usize) -> Maze {
    let mut maze = Maze::new(side, side);
    for seed in 11.. {
        maze.randomize(0.25, seed);
        if search::solve(&maze, Algorithm::Bfs).unwrap().outcome == search::Outcome::Found {
            break;
        }
    }
    maze
}

/// A perfect maze of `cells x cells` cells (2 * cells + 1 squares a side), braided a little.
fn generated_maze(cells: usize) -> Maze {
    let mut maze = Maze::new(3, 3);
    maze.apply_generated(&generate(
        Generator::RecursiveBacktracker,
        cells,
        cells,
        5,
        0.1,
    ));
    maze
}

fn neighbours(m: &Maze, c: Cell) -> Vec<(Cell, u32)> {
    let mut out = Vec::with_capacity(4);
    let (r, col) = (c.row as isize, c.col as isize);
    for (dr, dc) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
        let (nr, nc) = (r + dr, col + dc);
        if nr < 0 || nc < 0 {
            continue;
        }
        let n = Cell::new(nr as usize, nc as usize);
        if !m.is_blocked(n) {
            out.push((n, 1));
        }
    }
    out
}

/// BFS and A* on `maze` with this engine and with `pathfinding`, which must agree.
fn compare_on(c: &mut Criterion, name: &str, maze: &Maze) {
    let goal = maze.goal();
    let ours = search::solve(maze, Algorithm::Bfs).unwrap();
    assert_eq!(ours.outcome, search::Outcome::Found, "{name}: no path");
    let theirs = pathfinding::prelude::bfs(
        &maze.start(),
        |c| neighbours(maze, *c).into_iter().map(|(n, _)| n),
        |c| *c == goal,
    )
    .unwrap();
    assert_eq!(
        ours.cost as usize,
        theirs.len() - 1,
        "{name}: BFS lengths differ"
    );
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.bench_function("puzzlelab bfs", |b| {
        b.iter(|| search::solve(black_box(maze), Algorithm::Bfs).unwrap().cost)
    });
    group.bench_function("pathfinding bfs", |b| {
        b.iter(|| {
            pathfinding::prelude::bfs(
                &maze.start(),
                |c| neighbours(maze, *c).into_iter().map(|(n, _)| n),
                |c| *c == goal,
            )
            .map(|p| p.len())
        })
    });
    group.bench_function("puzzlelab astar", |b| {
        b.iter(|| {
            search::solve(black_box(maze), Algorithm::AStar)
                .unwrap()
                .cost
        })
    });
    group.bench_function("pathfinding astar", |b| {
        b.iter(|| {
            pathfinding::prelude::astar(
                &maze.start(),
                |c| neighbours(maze, *c),
                |c| (c.row.abs_diff(goal.row) + c.col.abs_diff(goal.col)) as u32,
                |c| *c == goal,
            )
            .map(|p| p.1)
        })
    });
    group.finish();
}

fn grid_search(c: &mut Criterion) {
    compare_on(c, "random 300x300, density 0.25", &random_maze(300));
    compare_on(c, "random 1024x1024, density 0.25", &random_maze(1024));
    compare_on(c, "maze 1023x1023 (511x511 cells)", &generated_maze(511));
}

fn octile(c: &mut Criterion) {
    // 8-connected, no corner cutting: A* against Jump Point Search (and JPS+, its jump
    // distances computed in each run) on an open random grid.
    let mut maze = random_maze(1024);
    maze.set_connectivity(Connectivity::Eight);
    maze.set_heuristic(GridHeuristic::Octile);
    let a = search::solve(&maze, Algorithm::AStar).unwrap();
    let j = search::solve(&maze, Algorithm::Jps).unwrap();
    assert!((a.cost - j.cost).abs() < 1e-6);
    let plus = search::solve(&maze, Algorithm::JpsPlus).unwrap();
    assert!((a.cost - plus.cost).abs() < 1e-6);
    let mut group = c.benchmark_group("octile 1024x1024, density 0.25");
    group.sample_size(10);
    for algorithm in [
        Algorithm::AStar,
        Algorithm::Jps,
        Algorithm::JpsPlus,
        Algorithm::BidirectionalAStar,
    ] {
        group.bench_function(algorithm.name(), |b| {
            b.iter(|| search::solve(black_box(&maze), algorithm).unwrap().cost)
        });
    }
    group.finish();
}

fn klondike(c: &mut Criterion) {
    let klondike = puzzles::type_by_name("klondike").unwrap().default_puzzle();
    let puzzle = klondike
        .as_any()
        .downcast_ref::<puzzles::klondike::Klondike>()
        .unwrap()
        .clone();
    c.bench_function("klondike bfs", |b| {
        b.iter(|| {
            search::solve(black_box(&puzzle), Algorithm::Bfs)
                .unwrap()
                .cost
        })
    });
}

/// The oracle's exploration (every state numbered, its successors, its distance from the start
/// and to the goal) against `pathfinding`: `dijkstra_all` from the 8-puzzle's goal (every
/// state's distance to it, the moves being reversible) and `bfs_reach` over the classic
/// Klotski space (reachability only). Both must find the same spaces.
fn state_space(c: &mut Criterion) {
    use puzzlelab::search::space::StateGraph;
    use puzzlelab::search::{CancelToken, Problem};
    fn successors<P: Problem>(p: &P, s: &P::State) -> Vec<(P::State, u32)> {
        let mut out = Vec::new();
        p.successors(s, &mut out)
            .expect("a board's moves are never cut short");
        out.into_iter().map(|x| (x.state, 1)).collect()
    }
    let eight = puzzles::sliding::Sliding::from_text("1 2 3\n4 5 6\n7 8 0\n").unwrap();
    let goal = eight.start_states().remove(0);
    let ours = StateGraph::explore(&eight, &CancelToken::new(), &mut |_| {}).unwrap();
    let theirs = pathfinding::prelude::dijkstra_all(&goal, |s| successors(&eight, s));
    assert_eq!(ours.len(), theirs.len() + 1, "8-puzzle: the same space");
    assert_eq!(theirs.values().map(|(_, d)| *d).max(), Some(31));
    let mut group = c.benchmark_group("state space, 8-puzzle (181,440 states)");
    group.sample_size(10);
    group.bench_function("puzzlelab explore (both ways)", |b| {
        b.iter(|| {
            StateGraph::explore(black_box(&eight), &CancelToken::new(), &mut |_| {})
                .unwrap()
                .len()
        })
    });
    group.bench_function("pathfinding dijkstra_all", |b| {
        b.iter(|| {
            pathfinding::prelude::dijkstra_all(black_box(&goal), |s| successors(&eight, s)).len()
        })
    });
    group.finish();

    let classic =
        puzzles::klotski::Klotski::from_text(include_str!("../puzzles/klotski-classic.txt"))
            .unwrap();
    let start = classic.start_states().remove(0);
    let ours = StateGraph::explore(&classic, &CancelToken::new(), &mut |_| {}).unwrap();
    let reach = pathfinding::prelude::bfs_reach(start, |s| {
        successors(&classic, s).into_iter().map(|(t, _)| t)
    })
    .count();
    assert_eq!(ours.len(), reach, "Klotski: the same space");
    let mut group = c.benchmark_group("state space, classic Klotski (25,955 states)");
    group.sample_size(20);
    group.bench_function("puzzlelab explore (both ways)", |b| {
        b.iter(|| {
            StateGraph::explore(black_box(&classic), &CancelToken::new(), &mut |_| {})
                .unwrap()
                .len()
        })
    });
    group.bench_function("pathfinding bfs_reach", |b| {
        b.iter(|| {
            pathfinding::prelude::bfs_reach(black_box(start), |s| {
                successors(&classic, s).into_iter().map(|(t, _)| t)
            })
            .count()
        })
    });
    group.finish();
}

criterion_group!(benches, grid_search, octile, klondike, state_space);
criterion_main!(benches);
