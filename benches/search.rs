//! Search speed: this engine against the `pathfinding` crate on the same grids, and the
//! Klondike puzzle. Run with `cargo bench`; criterion prints the time per search.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::{self, Cell};
use puzzlelab::search::{self, Algorithm};

fn random_maze(side: usize) -> Maze {
    // Seed 11 at density 0.25 gives a 300x300 maze with a path from corner to corner.
    let mut maze = Maze::new(side, side);
    maze.randomize(0.25, 11);
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

fn grid_search(c: &mut Criterion) {
    let maze = random_maze(300);
    let goal = maze.goal();
    assert!(search::solve(&maze, Algorithm::Bfs).unwrap().outcome == search::Outcome::Found);
    let mut group = c.benchmark_group("maze 300x300, density 0.25");
    group.sample_size(20);
    group.bench_function("puzzlelab bfs", |b| {
        b.iter(|| {
            search::solve(black_box(&maze), Algorithm::Bfs)
                .unwrap()
                .cost
        })
    });
    group.bench_function("pathfinding bfs", |b| {
        b.iter(|| {
            pathfinding::prelude::bfs(
                &maze.start(),
                |c| neighbours(&maze, *c).into_iter().map(|(n, _)| n),
                |c| *c == goal,
            )
            .map(|p| p.len())
        })
    });
    group.bench_function("puzzlelab astar", |b| {
        b.iter(|| {
            search::solve(black_box(&maze), Algorithm::AStar)
                .unwrap()
                .cost
        })
    });
    group.bench_function("pathfinding astar", |b| {
        b.iter(|| {
            pathfinding::prelude::astar(
                &maze.start(),
                |c| neighbours(&maze, *c),
                |c| (c.row.abs_diff(goal.row) + c.col.abs_diff(goal.col)) as u32,
                |c| *c == goal,
            )
            .map(|p| p.1)
        })
    });
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

criterion_group!(benches, grid_search, klondike);
criterion_main!(benches);
