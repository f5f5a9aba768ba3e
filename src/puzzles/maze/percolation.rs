//! Site percolation on a maze (the "Solving Puzzles" article's percolation question): does
//! some free square of the top row connect through free squares to some free square of the
//! bottom row? The search itself is the engine's, multi-source: every free top square is a
//! start state and every free bottom square a goal (see [`Percolation`]). This module adds the
//! percolating cluster, for drawing, and the experiment that estimates how the chance of
//! percolating grows with the fraction of free squares.
//!
//! On an infinite 4-connected square lattice an open-site probability above about 0.5927
//! (Newman and Ziff, 2000) percolates almost surely and below it almost never; on finite grids
//! the curve rises steeply around that value.

use std::collections::VecDeque;

use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng as _};
use serde::Serialize;

use super::{Connectivity, Maze, Percolation};
use crate::search::{self, CancelToken, NoObserver, Outcome};

/// The site-percolation threshold of the square lattice (4-connected), as a fraction of free
/// squares (Newman and Ziff, Phys. Rev. Lett. 85, 2000: 0.59274621).
pub const SQUARE_LATTICE_THRESHOLD: f64 = 0.592_746;

/// Free squares reachable from the free squares of the first side (`first`) or of the
/// opposite side, flooding with the maze's moves.
fn flood(maze: &Maze, first: bool) -> Vec<bool> {
    let (rows, cols) = (maze.rows(), maze.cols());
    let column = maze.percolation() == Percolation::LeftRight;
    let line = match (column, first) {
        (false, true) => 0,
        (false, false) => rows - 1,
        (true, true) => 0,
        (true, false) => cols - 1,
    };
    let mut seen = vec![false; rows * cols];
    let mut queue: VecDeque<u32> = maze.free_line(line, column).into();
    let index = |state: u32| maze.index(maze.cell(state));
    for &s in &queue {
        seen[index(s)] = true;
    }
    let mut out = Vec::new();
    while let Some(state) = queue.pop_front() {
        out.clear();
        maze.neighbours(state, false, &mut out);
        for s in &out {
            if !std::mem::replace(&mut seen[index(s.state)], true) {
                queue.push_back(s.state);
            }
        }
    }
    seen
}

/// The squares connected to both opposite sides of the maze's percolation mode (top and
/// bottom when it is off), row-major.
pub(super) fn spanning_cluster(maze: &Maze) -> Vec<bool> {
    let (a, b) = (flood(maze, true), flood(maze, false));
    a.into_iter().zip(b).map(|(x, y)| x && y).collect()
}

/// One point of the percolation curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CurvePoint {
    /// The probability that a square is free.
    pub open: f64,
    /// The fraction of the random grids that percolated (top to bottom).
    pub fraction: f64,
}

/// The settings of a percolation experiment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Experiment {
    /// Side of the square grids.
    pub side: usize,
    /// Random grids per probability.
    pub trials: usize,
    /// Probabilities from 0 to 1 in this many equal steps (so `steps + 1` points).
    pub steps: usize,
    /// Movement on the grids (4-connected is the classic site percolation).
    pub connectivity: Connectivity,
    /// Seed of the random grids: the same seed gives the same curve.
    pub seed: u64,
}

impl Default for Experiment {
    fn default() -> Self {
        Self {
            side: 48,
            trials: 60,
            steps: 40,
            connectivity: Connectivity::Four,
            seed: 1,
        }
    }
}

/// The smallest side of the experiment's grids.
pub const MIN_EXPERIMENT_SIDE: usize = super::MIN_SIDE;
/// The largest side of the experiment's grids.
pub const MAX_EXPERIMENT_SIDE: usize = 512;
/// The most probability steps of an experiment.
pub const MAX_STEPS: usize = 10_000;
/// The most random grids per probability.
pub const MAX_TRIALS: usize = 100_000;

/// Runs the experiment: for each probability `p` of a square being free, `trials` random
/// `side x side` grids (side, steps and trials clamped to the ranges above), each searched by the engine's breadth-first search from the free top
/// squares to any free bottom square. `progress` hears each finished point; the run stops
/// early (returning the points so far) when `cancel` is cancelled.
pub fn run_experiment(
    experiment: &Experiment,
    cancel: &CancelToken,
    mut progress: impl FnMut(CurvePoint),
) -> Vec<CurvePoint> {
    let side = experiment
        .side
        .clamp(MIN_EXPERIMENT_SIDE, MAX_EXPERIMENT_SIDE);
    let steps = experiment.steps.clamp(1, MAX_STEPS);
    let trials = experiment.trials.clamp(1, MAX_TRIALS);
    let mut rng = StdRng::seed_from_u64(experiment.seed);
    let mut maze = Maze::new(side, side);
    maze.set_percolation(Percolation::TopBottom);
    maze.set_connectivity(experiment.connectivity);
    let mut points = Vec::with_capacity(steps + 1);
    for step in 0..=steps {
        let open = step as f64 / steps as f64;
        let mut percolated = 0;
        for _ in 0..trials {
            if cancel.is_cancelled() {
                return points;
            }
            maze.cost.fill_with(|_| u8::from(rng.random_bool(open)));
            let found = search::run(&maze, search::Algorithm::Bfs, &mut NoObserver, cancel)
                .is_ok_and(|r| r.outcome == Outcome::Found);
            percolated += usize::from(found);
        }
        let point = CurvePoint {
            open,
            fraction: percolated as f64 / trials as f64,
        };
        progress(point);
        points.push(point);
    }
    points
}
