//! Search speed: this engine against the `pathfinding` crate on the same grids (random and
//! generated mazes, up to 1024x1024), A* against Jump Point Search on an 8-connected grid, and
//! the Klondike puzzle. Run with `cargo bench`; criterion prints the time per search.

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
    // 8-connected, no corner cutting: A* against Jump Point Search on an open random grid.
    let mut maze = random_maze(1024);
    maze.set_connectivity(Connectivity::Eight);
    maze.set_heuristic(GridHeuristic::Octile);
    let a = search::solve(&maze, Algorithm::AStar).unwrap();
    let j = search::solve(&maze, Algorithm::Jps).unwrap();
    assert!((a.cost - j.cost).abs() < 1e-6);
    let mut group = c.benchmark_group("octile 1024x1024, density 0.25");
    group.sample_size(10);
    for algorithm in [
        Algorithm::AStar,
        Algorithm::Jps,
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

criterion_group!(benches, grid_search, octile, klondike);
criterion_main!(benches);
