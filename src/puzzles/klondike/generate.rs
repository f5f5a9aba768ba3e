//! Generating Klondike boards in Loyd's style, the question Jamis Buck's article ends on
//! ("How might we randomly generate these Klondike-style puzzles?"): a round board of digits
//! 1 to 9 with goal squares just outside its rim and the start at the centre, whose shortest
//! solution is long and, if asked, unique.
//!
//! The search is simulated annealing from seeded random restarts: change one digit at a time,
//! keep every improvement and some worsenings (fewer as the temperature falls). A board is
//! scored by its whole distance profile, not by its solution length alone, since that is flat
//! almost everywhere (most digit changes leave it as it is): the length first, then how few
//! shortest solutions there are, then the mean distance to the rim of the squares the start
//! reaches, which rises before the length does.

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Compass, Klondike, Spot};
use crate::puzzles::Cell;
use crate::search::CancelToken;

/// The smallest and largest board diameters (squares across the ring, goals not counted).
pub const SIZES: std::ops::RangeInclusive<usize> = 5..=41;

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Request {
    /// Board squares across the ring (Loyd's board: 21), odd sizes centre the start exactly.
    pub size: usize,
    /// The least number of jumps the shortest solution must take.
    pub min_length: usize,
    /// Whether the shortest solution must be the only one of its length.
    pub unique: bool,
    /// The seed: the same seed (and request) gives the same board.
    pub seed: u64,
    /// How long to try before giving the best board found.
    pub budget: Duration,
}

/// A board found, with what it was scored on.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The board.
    pub board: Klondike,
    /// The number of jumps of its shortest solutions.
    pub length: usize,
    /// How many shortest solutions there are.
    pub solutions: u64,
    /// Whether it meets the request (if not, it is the best found in the time).
    pub meets: bool,
    /// Boards scored.
    pub evaluated: u64,
    /// Restarts made.
    pub restarts: u64,
    /// Wall-clock time taken.
    pub elapsed: Duration,
}

/// The round board's shape and, for each square, digit and direction, where a jump lands.
struct Shape {
    rows: usize,
    cols: usize,
    spots: Vec<Spot>,
    /// Board squares (indices into `spots`).
    board: Vec<usize>,
    start: usize,
    /// `land[(square * 8 + dir) * 9 + digit - 1]`: the square a jump lands on, or `NONE`.
    land: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// The score's weights beside 100 a jump of the shortest solution: the logarithm of the
/// number of shortest solutions, the mean depth of the squares reached before the goal, and
/// the mean distance to the goal of the squares the start reaches.
const WEIGHT_WAYS: f64 = 12.0;
const WEIGHT_REACH: f64 = 3.0;
/// The weight of the number of shortest solutions once the length asked for is reached.
const WEIGHT_WAYS_LONG: f64 = 60.0;
const WEIGHT_MEAN: f64 = 10.0;
/// Digit changes tried in the first restart (each restart doubles it, up to 16 times as
/// many: easy requests end in a short anneal, hard ones get long ones), and the starting
/// temperature (in score units).
const STEPS: u32 = 20_000;
const HOT: f64 = 60.0;

impl Shape {
    fn new(size: usize) -> Shape {
        let n = size + 2;
        let centre = (n as f64 - 1.0) / 2.0;
        let radius = size as f64 / 2.0;
        let inside = |r: isize, c: isize| {
            let (dr, dc) = (r as f64 - centre, c as f64 - centre);
            r >= 0 && c >= 0 && (dr * dr + dc * dc).sqrt() <= radius
        };
        let mut spots = vec![Spot::Off; n * n];
        for r in 0..n as isize {
            for c in 0..n as isize {
                let i = r as usize * n + c as usize;
                if inside(r, c) {
                    spots[i] = Spot::Jump(1);
                } else if (-1..=1).any(|dr| (-1..=1).any(|dc| inside(r + dr, c + dc))) {
                    spots[i] = Spot::Goal;
                }
            }
        }
        let board: Vec<usize> = (0..n * n)
            .filter(|&i| matches!(spots[i], Spot::Jump(_)))
            .collect();
        let mut land = vec![NONE; n * n * 8 * 9];
        // One board whose square `i` takes each digit in turn (a jump depends only on the
        // digit it starts from and on which squares are on the board).
        let mut probe = Klondike {
            rows: n,
            cols: n,
            spots: spots.clone(),
            start: Cell::new(n / 2, n / 2),
        };
        for &i in &board {
            for digit in 1..=9u8 {
                probe.spots[i] = Spot::Jump(digit);
                for (d, dir) in Compass::ALL.into_iter().enumerate() {
                    if let Some(to) = probe.jump(Cell::new(i / n, i % n), dir) {
                        land[(i * 8 + d) * 9 + usize::from(digit) - 1] =
                            (to.row * n + to.col) as u32;
                    }
                }
            }
            probe.spots[i] = spots[i];
        }
        Shape {
            rows: n,
            cols: n,
            spots,
            board,
            start: (n / 2) * n + n / 2,
            land,
        }
    }

    fn klondike(&self, digits: &[u8]) -> Klondike {
        let mut spots = self.spots.clone();
        for &i in &self.board {
            spots[i] = Spot::Jump(digits[i]);
        }
        Klondike {
            rows: self.rows,
            cols: self.cols,
            spots,
            start: Cell::new(self.start / self.cols, self.start % self.cols),
        }
    }
}

/// A board's score: (length, −solutions, reach) compared in that order, folded into one
/// number for the annealing's acceptance test.
#[derive(Clone, Copy, Debug, Default)]
struct Score {
    length: usize,
    solutions: u64,
    value: f64,
}

/// Breadth-first search from the start with the number of shortest paths to each square.
struct Scorer {
    /// The length asked for.
    min_length: usize,
    /// Distance to the nearest goal of each square (the backward search), `u32::MAX` if none.
    to_goal: Vec<u32>,
    /// Predecessors of each square in a compressed list: `pred_start[j]..pred_start[j + 1]`.
    pred_start: Vec<u32>,
    preds: Vec<u32>,
    depth: Vec<u32>,
    ways: Vec<u64>,
    layer: Vec<usize>,
    next: Vec<usize>,
}

impl Scorer {
    /// The mean distance to the nearest goal of the squares the start reaches (dead ends
    /// counted as the farthest), which rises while the solution's length stays the same.
    fn mean_to_goal(&mut self, shape: &Shape, digits: &[u8]) -> f64 {
        let cells = self.depth.len();
        self.pred_start.iter_mut().for_each(|p| *p = 0);
        let edge =
            |i: usize, dir: usize| shape.land[(i * 8 + dir) * 9 + usize::from(digits[i]) - 1];
        for &i in &shape.board {
            for dir in 0..8 {
                let j = edge(i, dir);
                if j != NONE {
                    self.pred_start[j as usize + 1] += 1;
                }
            }
        }
        for j in 0..cells {
            self.pred_start[j + 1] += self.pred_start[j];
        }
        self.preds.resize(self.pred_start[cells] as usize, 0);
        let mut fill = self.pred_start.clone();
        for &i in &shape.board {
            for dir in 0..8 {
                let j = edge(i, dir);
                if j != NONE {
                    self.preds[fill[j as usize] as usize] = i as u32;
                    fill[j as usize] += 1;
                }
            }
        }
        self.to_goal.iter_mut().for_each(|d| *d = u32::MAX);
        self.layer.clear();
        for (i, spot) in shape.spots.iter().enumerate() {
            if *spot == Spot::Goal {
                self.to_goal[i] = 0;
                self.layer.push(i);
            }
        }
        let mut d = 0;
        while !self.layer.is_empty() {
            self.next.clear();
            for &j in &self.layer {
                for &p in &self.preds[self.pred_start[j] as usize..self.pred_start[j + 1] as usize]
                {
                    if self.to_goal[p as usize] == u32::MAX {
                        self.to_goal[p as usize] = d + 1;
                        self.next.push(p as usize);
                    }
                }
            }
            std::mem::swap(&mut self.layer, &mut self.next);
            d += 1;
        }
        let far = f64::from(d + 1);
        let (mut sum, mut n) = (0.0, 0u32);
        for &i in &shape.board {
            if self.depth[i] != u32::MAX {
                n += 1;
                sum += match self.to_goal[i] {
                    u32::MAX => far,
                    g => f64::from(g),
                };
            }
        }
        sum / f64::from(n.max(1))
    }

    fn score(&mut self, shape: &Shape, digits: &[u8]) -> Score {
        let mut s = self.forward(shape, digits);
        s.value += self.mean_to_goal(shape, digits) * WEIGHT_MEAN;
        s
    }

    fn forward(&mut self, shape: &Shape, digits: &[u8]) -> Score {
        self.depth.iter_mut().for_each(|d| *d = u32::MAX);
        self.ways.iter_mut().for_each(|w| *w = 0);
        self.layer.clear();
        self.layer.push(shape.start);
        self.depth[shape.start] = 0;
        self.ways[shape.start] = 1;
        let (mut reached, mut depth_sum) = (0u64, 0u64);
        let mut d = 0u32;
        while !self.layer.is_empty() {
            let goals: u64 = self
                .layer
                .iter()
                .filter(|&&i| shape.spots[i] == Spot::Goal)
                .map(|&i| self.ways[i])
                .sum();
            if goals > 0 {
                let length = d as usize;
                // More squares reached before the goal, and farther out, make a harder board.
                let reach = depth_sum as f64 / reached.max(1) as f64;
                // Past the length asked for, a unique solution counts for more than length.
                let ways = (goals as f64).ln();
                let value = if length >= self.min_length {
                    self.min_length as f64 * 100.0 + (length - self.min_length) as f64 * 20.0
                        - ways * WEIGHT_WAYS_LONG
                } else {
                    length as f64 * 100.0 - ways * WEIGHT_WAYS
                } + reach * WEIGHT_REACH;
                return Score {
                    length,
                    solutions: goals,
                    value,
                };
            }
            self.next.clear();
            for &i in &self.layer {
                reached += 1;
                depth_sum += u64::from(d);
                let digit = usize::from(digits[i]);
                for dir in 0..8 {
                    let j = shape.land[(i * 8 + dir) * 9 + digit - 1];
                    if j == NONE {
                        continue;
                    }
                    let j = j as usize;
                    if self.depth[j] == u32::MAX {
                        self.depth[j] = d + 1;
                        self.next.push(j);
                    }
                    if self.depth[j] == d + 1 {
                        self.ways[j] = self.ways[j].saturating_add(self.ways[i]);
                    }
                }
            }
            std::mem::swap(&mut self.layer, &mut self.next);
            d += 1;
        }
        // No way out: worse than any solvable board, but still graded by how much it reaches.
        Score {
            length: 0,
            solutions: 0,
            value: -1000.0 + reached as f64,
        }
    }
}

/// Generates a board for `request`, stopping early when `cancel` is cancelled or its time
/// limit passes (then the best board so far is returned, marked as not meeting the request).
/// `progress` gets the best (length, solutions) so far after each restart.
pub fn generate(
    request: &Request,
    cancel: &CancelToken,
    progress: &mut dyn FnMut(usize, u64),
) -> Generated {
    let started = Instant::now();
    let size = request.size.clamp(*SIZES.start(), *SIZES.end());
    let shape = Shape::new(size);
    let mut rng = StdRng::seed_from_u64(request.seed);
    let cells = shape.rows * shape.cols;
    let mut scorer = Scorer {
        min_length: request.min_length,
        to_goal: vec![u32::MAX; cells],
        pred_start: vec![0; cells + 1],
        preds: Vec::new(),
        depth: vec![u32::MAX; cells],
        ways: vec![0; cells],
        layer: Vec::new(),
        next: Vec::new(),
    };
    let meets = |s: &Score| s.length >= request.min_length && (!request.unique || s.solutions == 1);
    let deadline = started + request.budget;
    let mut best: Option<(Score, Vec<u8>)> = None;
    let (mut evaluated, mut restarts) = (0u64, 0u64);
    let max_digit = (size / 2).clamp(1, 9) as u8;
    'restarts: loop {
        restarts += 1;
        let mut digits = vec![1u8; cells];
        for &i in &shape.board {
            digits[i] = rng.random_range(1..=max_digit);
        }
        let mut current = scorer.score(&shape, &digits);
        let mut local_best = (current, digits.clone());
        let steps = STEPS << (restarts - 1).min(4);
        for step in 0..steps {
            if step % 1024 == 0 && (cancel.is_cancelled() || Instant::now() >= deadline) {
                break 'restarts;
            }
            let temperature = HOT * (1.0 - f64::from(step) / f64::from(steps)) + 0.5;
            let i = shape.board[rng.random_range(0..shape.board.len())];
            let old = digits[i];
            let new = rng.random_range(1..=max_digit);
            if new == old {
                continue;
            }
            digits[i] = new;
            let score = scorer.score(&shape, &digits);
            evaluated += 1;
            let delta = score.value - current.value;
            if delta >= 0.0 || rng.random::<f64>() < (delta / temperature).exp() {
                current = score;
                if score.value > local_best.0.value {
                    local_best = (score, digits.clone());
                }
            } else {
                digits[i] = old;
            }
            if meets(&current) {
                local_best = (current, digits.clone());
                best = Some(local_best.clone());
                break 'restarts;
            }
        }
        // Polish: the best single-digit change, over every square and digit, until none helps.
        let (mut polished, mut digits) = local_best.clone();
        loop {
            let mut step: Option<(Score, usize, u8)> = None;
            for &i in &shape.board {
                let old = digits[i];
                for new in (1..=max_digit).filter(|&d| d != old) {
                    digits[i] = new;
                    let score = scorer.score(&shape, &digits);
                    evaluated += 1;
                    let top = step.map_or(polished.value, |(s, _, _)| s.value);
                    if score.value > top {
                        step = Some((score, i, new));
                    }
                }
                digits[i] = old;
            }
            let Some((score, i, new)) = step else {
                break;
            };
            digits[i] = new;
            polished = score;
            if meets(&polished) {
                break;
            }
        }
        local_best = (polished, digits);
        if meets(&local_best.0) {
            best = Some(local_best);
            break;
        }
        let better = best
            .as_ref()
            .is_none_or(|(b, _)| (meets(&local_best.0), local_best.0.value) > (meets(b), b.value));
        if better {
            best = Some(local_best);
        }
        if let Some((b, _)) = &best {
            progress(b.length, b.solutions);
        }
    }
    let (score, digits) = best.unwrap_or_else(|| {
        let digits = vec![1u8; cells];
        (scorer.score(&shape, &digits), digits)
    });
    Generated {
        board: shape.klondike(&digits),
        length: score.length,
        solutions: score.solutions,
        meets: meets(&score),
        evaluated,
        restarts,
        elapsed: started.elapsed(),
    }
}
