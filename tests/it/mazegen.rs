//! Maze generators: every one makes a perfect maze (all cells connected, no cycles) before
//! braiding, a seed reproduces a maze, braiding removes dead ends, and the search runs on the
//! generated squares unchanged.

use puzzlelab::puzzles::Cell;
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::maze::generate::{Generator, generate};
use puzzlelab::search::{self, Algorithm, Outcome};

#[test]
fn every_generator_makes_a_perfect_maze() {
    for generator in Generator::ALL {
        for (rows, cols, seed) in [(1, 1, 1), (1, 9, 2), (7, 1, 3), (12, 17, 4), (25, 25, 5)] {
            let g = generate(generator, rows, cols, seed, 0.0);
            assert!(
                g.passages.is_perfect(),
                "{generator} {rows}x{cols}: {} links, connected {}",
                g.passages.link_count(),
                g.passages.is_connected()
            );
            assert_eq!((g.rows, g.cols), (2 * rows + 1, 2 * cols + 1));
        }
    }
}

#[test]
fn squares_match_the_passages() {
    for generator in Generator::ALL {
        let g = generate(generator, 9, 11, 42, 0.0);
        let squares = g.squares();
        let at = |r: usize, c: usize| squares[r * g.cols + c];
        for r in 0..g.rows {
            for c in 0..g.cols {
                let expected = match (r % 2, c % 2) {
                    (1, 1) => 1,
                    (0, 0) => 0,
                    _ if r == 0 || c == 0 || r == g.rows - 1 || c == g.cols - 1 => 0,
                    (0, 1) => u8::from(
                        g.passages
                            .linked(Cell::new(r / 2 - 1, c / 2), Cell::new(r / 2, c / 2)),
                    ),
                    _ => u8::from(
                        g.passages
                            .linked(Cell::new(r / 2, c / 2 - 1), Cell::new(r / 2, c / 2)),
                    ),
                };
                assert_eq!(at(r, c), expected, "{generator} square ({r}, {c})");
            }
        }
    }
}

#[test]
fn a_seed_reproduces_a_maze() {
    for generator in Generator::ALL {
        let a = generate(generator, 15, 15, 9, 0.3);
        let b = generate(generator, 15, 15, 9, 0.3);
        assert_eq!(a.squares(), b.squares(), "{generator}");
        assert_eq!(a.steps, b.steps, "{generator}");
        let c = generate(generator, 15, 15, 10, 0.3);
        assert_ne!(a.squares(), c.squares(), "{generator}");
    }
}

#[test]
fn braiding_removes_dead_ends() {
    for generator in Generator::ALL {
        let perfect = generate(generator, 20, 20, 3, 0.0);
        let full = generate(generator, 20, 20, 3, 1.0);
        let half = generate(generator, 20, 20, 3, 0.5);
        let dead = |g: &puzzlelab::puzzles::maze::generate::Generated| g.passages.dead_ends().len();
        assert_eq!(dead(&full), 0, "{generator}");
        assert!(dead(&half) < dead(&perfect), "{generator}");
        assert!(full.passages.link_count() > perfect.passages.link_count());
        assert!(full.passages.is_connected());
    }
}

#[test]
fn every_algorithm_solves_a_generated_maze() {
    let mut maze = Maze::new(5, 5);
    maze.apply_generated(&generate(Generator::Wilson, 10, 14, 1, 0.0));
    assert_eq!((maze.rows(), maze.cols()), (21, 29));
    assert_eq!(maze.start(), Cell::new(1, 1));
    assert_eq!(maze.goal(), Cell::new(19, 27));
    let bfs = search::solve(&maze, Algorithm::Bfs).unwrap();
    assert_eq!(bfs.outcome, Outcome::Found);
    for algorithm in Algorithm::ALL.into_iter().filter(|a| a.applies_to(&maze)) {
        let result = search::solve(&maze, algorithm).unwrap();
        assert_eq!(result.outcome, Outcome::Found, "{algorithm}");
        // A perfect maze has one path between two cells: every algorithm finds it.
        assert_eq!(result.cost, bfs.cost, "{algorithm}");
    }
}

#[test]
fn animation_steps_rebuild_the_maze_from_the_start_grid() {
    let g = generate(Generator::RecursiveDivision, 6, 6, 2, 0.0);
    // Recursive division starts open and adds walls.
    assert!(
        g.initial.iter().filter(|&&v| v == 1).count()
            > g.squares().iter().filter(|&&v| v == 1).count()
    );
    assert!(g.steps.iter().all(|&(_, v)| v == 0));
    let g = generate(Generator::Kruskal, 6, 6, 2, 0.0);
    assert!(g.initial.iter().all(|&v| v == 0));
    assert!(g.steps.iter().all(|&(_, v)| v == 1));
}

#[test]
fn a_generated_maze_file_reads_back_as_a_maze() {
    // Every row of a generated maze starts with a wall, `#`: it must not pass for anything
    // else (the sliding tiles' format takes `#` lines as comments).
    let mut maze = Maze::new(3, 3);
    maze.apply_generated(&generate(Generator::Eller, 6, 9, 4, 0.0));
    let back =
        puzzlelab::puzzles::parse(&puzzlelab::puzzles::Puzzle::to_text(&maze), None).unwrap();
    assert_eq!(back.puzzle_type().name, "maze");
}
