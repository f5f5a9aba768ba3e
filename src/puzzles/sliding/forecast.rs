//! Korf, Reid and Edelkamp's formula for IDA*'s expansions on the sliding tile puzzle with
//! pattern databases ("Time complexity of iterative-deepening-A*", AIJ 129, 2001; KRE): an
//! iteration with bound `d` expands about `sum over i of N(i) P(d - i)`, where `N(i)` is the
//! number of nodes at depth `i` of the brute-force tree (the blank never moving straight
//! back) and `P(v)` the fraction of states in the equilibrium distribution whose estimate is
//! at most `v`, sampled here from random states (among the values of `v`'s parity: a state's
//! estimate has the parity of its moves left, as `d - i` does). With a consistent heuristic a
//! node within the bound has every ancestor within it, so these are the nodes expanded,
//! **averaged over random start states for a fixed bound**.
//!
//! For one start and its own bounds that average misleads with strong heuristics (the nodes
//! a few moves from the start have estimates near the start's, far from equilibrium: on
//! Korf's 100 with the 7-8 databases the formula is about 200 times the actual expansions).
//! The forecast given beside each iteration is therefore [`super::stratified`]'s, which
//! samples the iteration's own tree; this one is reported beside it as `kre`.
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::pattern_db::PatternDb;

/// Highest estimate tracked.
const MAX_H: usize = 160;

/// The equilibrium distribution of the estimate behind KRE's formula, for one database and
/// board.
#[derive(Clone, Debug, PartialEq)]
pub struct Forecast {
    rows: usize,
    cols: usize,
    /// `at_most[v]`, the fraction of random states of `v`'s parity whose estimate is at most
    /// `v`.
    at_most: Vec<f64>,
}
/// The square `s`'s neighbour in direction `d` (up, down, left, right) on a `rows x cols`
/// board, if any.
pub(super) fn neighbour(rows: usize, cols: usize, s: usize, d: usize) -> Option<usize> {
    let (r, c) = (s / cols, s % cols);
    match d {
        0 => (r > 0).then(|| s - cols),
        1 => (r + 1 < rows).then(|| s + cols),
        2 => (c > 0).then(|| s - 1),
        _ => (c + 1 < cols).then(|| s + 1),
    }
}

impl Forecast {
    /// Samples `samples` random states (seeded by `seed`; each a random walk of 400 or 401
    /// moves from `db`'s goal, the blank never moving straight back, so that both parities
    /// of the estimate are sampled) for the distribution of `db`'s
    /// estimate ([`PatternDb::estimate`]: plain, or the larger of plain and reflected).
    pub fn sample(db: &PatternDb, samples: usize, seed: u64) -> Self {
        let (rows, cols) = db.shape();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut random_h = vec![0u64; MAX_H + 1];
        let goal: Vec<u8> = db.goal().to_vec();
        for k in 0..samples {
            let mut tiles = goal.clone();
            let mut blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
            let mut previous = usize::MAX;
            for _ in 0..400 + k % 2 {
                let options: Vec<usize> = (0..4)
                    .filter_map(|d| neighbour(rows, cols, blank, d))
                    .filter(|&q| q != previous)
                    .collect();
                let q = options[rng.random_range(0..options.len())];
                tiles.swap(blank, q);
                previous = blank;
                blank = q;
            }
            random_h[(db.estimate(&tiles) as usize).min(MAX_H)] += 1;
        }
        let mut at_most = vec![0.0; MAX_H + 1];
        for parity in 0..2 {
            let mass: u64 = random_h.iter().skip(parity).step_by(2).sum();
            let mut acc = 0;
            for v in (parity..=MAX_H).step_by(2) {
                acc += random_h[v];
                at_most[v] = if mass > 0 {
                    acc as f64 / mass as f64
                } else {
                    1.0
                };
            }
        }
        Self {
            rows,
            cols,
            at_most,
        }
    }

    /// KRE's `P(v)`: the fraction of random states (of `v`'s parity) with estimate at most `v`.
    pub fn at_most(&self, v: i64) -> f64 {
        match usize::try_from(v) {
            Err(_) => 0.0,
            Ok(v) => self.at_most.get(v).copied().unwrap_or(1.0),
        }
    }

    /// The nodes at each depth `0..=depth` of the brute-force tree from a board whose blank
    /// is on square `blank` (row-major), the blank never moving straight back.
    pub fn tree_nodes(&self, blank: usize, depth: usize) -> Vec<f64> {
        let n = self.rows * self.cols;
        // count[s * 5 + p]: nodes with the blank on s that came from direction p (4: none).
        let mut count = vec![0.0f64; n * 5];
        if let Some(c) = count.get_mut(blank * 5 + 4) {
            *c = 1.0;
        }
        let mut nodes = vec![count.iter().sum()];
        for _ in 0..depth {
            let mut next = vec![0.0f64; n * 5];
            for s in 0..n {
                for from in 0..5 {
                    let c = count[s * 5 + from];
                    if c == 0.0 {
                        continue;
                    }
                    for d in 0..4 {
                        if let Some(q) = self.step(s, from, d) {
                            next[q * 5 + back(d)] += c;
                        }
                    }
                }
            }
            count = next;
            nodes.push(count.iter().sum());
        }
        nodes
    }

    /// The move in direction `d` from square `s` entered from direction `from` (4: the
    /// root), unless it leaves the board or goes straight back.
    fn step(&self, s: usize, from: usize, d: usize) -> Option<usize> {
        // Entered from direction `from` means the previous square lies that way.
        (from != d).then(|| neighbour(self.rows, self.cols, s, d))?
    }

    /// KRE's forecast of the expansions of an iteration with bound `bound` from a board whose
    /// blank is on square `blank`: `sum over i of N(i) P(bound - i)`.
    pub fn kre_expansions(&self, blank: usize, bound: u32) -> f64 {
        self.tree_nodes(blank, bound as usize)
            .iter()
            .enumerate()
            .map(|(i, &nodes)| nodes * self.at_most(i64::from(bound) - i as i64))
            .sum()
    }
}

/// The direction a move in direction `d` came from, seen from the square it reaches.
fn back(d: usize) -> usize {
    match d {
        0 => 1,
        1 => 0,
        2 => 3,
        _ => 2,
    }
}
