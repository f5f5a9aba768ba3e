//! The forecast of one IDA* iteration's expansions by **stratified sampling** (Chen, "Heuristic
//! sampling: a method for predicting the performance of tree searching programs", SIAM J.
//! Computing 21, 1992), with the node types of Korf, Reid and Edelkamp's analysis as Lelis,
//! Zilles and Holte use them ("Predicting the size of IDA*'s search tree", AIJ 196, 2013).
//!
//! A probe walks the iteration's own tree level by level from the start. At each level it
//! keeps one representative node of each *type* (here: the node's estimate, its parent's
//! estimate and how many moves its blank has) with a weight, the number of the level's nodes
//! of that type it stands for. Each representative within the bound counts as that many
//! expansions; its children within the bound are merged into the next level's types, a
//! child replacing the type's representative with the odds of its weight. The probe's total
//! is an unbiased estimate of the iteration's expansions (Chen's theorem); the forecast is
//! the mean over probes. Unlike the formula of Korf, Reid and Edelkamp
//! ([`super::forecast`]), nothing is assumed of the estimate's distribution: the tree
//! sampled is the one IDA* walks, with the same pruning (the blank never moving straight
//! back; a successor whose estimate exceeds the bound by more than two moves skips the rest
//! of its siblings, as the search's bidirectional pathmax does).

use std::collections::HashMap;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use super::forecast::{Forecast, neighbour};
use super::pattern_db::{MAX_SQUARES, PatternDb};
use crate::search::CancelToken;
use crate::search::layers::Iteration;

/// Fills in the forecasts of a run's IDA* `iterations` from the board `tiles` (row-major, 0
/// the blank) under `db`'s estimate: `predicted` by [`expansions`] with `probes` probes,
/// `kre` by KRE's formula from `kre`'s distribution. Nothing more is filled once `cancel`
/// fires or its time limit ([`crate::search::Limits::timeout`], counted from this call) has
/// passed: returns whether every iteration was forecast.
pub fn forecast_iterations(
    db: &PatternDb,
    kre: &Forecast,
    tiles: &[u8],
    iterations: &mut [Iteration],
    probes: usize,
    cancel: &CancelToken,
) -> bool {
    let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
    let deadline = deadline_of(cancel);
    for it in iterations {
        let bound = it.bound.max(0.0) as u32;
        let Some(predicted) = expansions_until(db, tiles, bound, probes, 1, cancel, deadline)
        else {
            return false;
        };
        it.predicted = Some(predicted);
        it.kre = Some(kre.kre_expansions(blank, bound));
    }
    true
}

/// When the time limit of `cancel` ends, counted from now (`None`: no limit).
fn deadline_of(cancel: &CancelToken) -> Option<Instant> {
    cancel
        .limits()
        .timeout
        .and_then(|t| Instant::now().checked_add(t))
}

/// Whether a forecast must stop: `cancel` fired or `deadline` passed.
fn must_stop(cancel: &CancelToken, deadline: Option<Instant>) -> bool {
    cancel.is_cancelled() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// A representative node of one type at one level of a probe.
#[derive(Clone, Copy)]
struct Node {
    /// The board, row-major, 0 the blank.
    board: [u8; MAX_SQUARES],
    blank: u8,
    /// The blank's square before the last move (`u8::MAX` at the start).
    previous: u8,
    h: u32,
    /// The number of the level's nodes this one stands for.
    weight: f64,
}

/// A node's type: its estimate, its parent's estimate and its blank's number of moves.
type Type = (u32, u32, u8);

/// The forecast of the expansions of IDA*'s iteration with bound `bound` from the board
/// `tiles` (row-major, 0 the blank, as many squares as `db`'s board) under `db`'s estimate
/// ([`PatternDb::estimate`]): the mean of `probes` stratified-sampling probes (seeded by
/// `seed`, run on rayon's threads). A state is counted as expanded when its moves plus its
/// estimate are within the bound and it is not the goal, as the search counts it. 0 for a
/// board of the wrong size, or when `cancel` fires or its time limit passes (counted from
/// this call; checked between probes).
pub fn expansions(
    db: &PatternDb,
    tiles: &[u8],
    bound: u32,
    probes: usize,
    seed: u64,
    cancel: &CancelToken,
) -> f64 {
    expansions_until(db, tiles, bound, probes, seed, cancel, deadline_of(cancel)).unwrap_or(0.0)
}

/// [`expansions`], `None` when `cancel` fires or `deadline` passes before the probes end.
fn expansions_until(
    db: &PatternDb,
    tiles: &[u8],
    bound: u32,
    probes: usize,
    seed: u64,
    cancel: &CancelToken,
    deadline: Option<Instant>,
) -> Option<f64> {
    if must_stop(cancel, deadline) {
        return None;
    }
    let (rows, cols) = db.shape();
    let n = rows * cols;
    let Some(blank) = tiles.iter().position(|&t| t == 0) else {
        return Some(0.0);
    };
    if tiles.len() != n || n > MAX_SQUARES || probes == 0 {
        return Some(0.0);
    }
    let mut board = [0u8; MAX_SQUARES];
    board[..n].copy_from_slice(tiles);
    let root = Node {
        board,
        blank: blank as u8,
        previous: u8::MAX,
        h: db.estimate(tiles),
        weight: 1.0,
    };
    let moves = Moves::new(rows, cols);
    let totals: Vec<f64> = (0..probes)
        .into_par_iter()
        .map(|k| {
            if must_stop(cancel, deadline) {
                return f64::NAN;
            }
            let mut rng = StdRng::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9E37_79B9));
            probe(db, &moves, root, bound, &mut rng)
        })
        .collect();
    if totals.iter().any(|t| t.is_nan()) {
        return None;
    }
    Some(totals.iter().sum::<f64>() / probes as f64)
}

/// Each square's neighbours in the search's order (up, down, left, right).
struct Moves {
    n: usize,
    neighbours: Vec<Vec<u8>>,
}

impl Moves {
    fn new(rows: usize, cols: usize) -> Self {
        let neighbours = (0..rows * cols)
            .map(|s| {
                (0..4)
                    .filter_map(|d| neighbour(rows, cols, s, d))
                    .map(|q| q as u8)
                    .collect()
            })
            .collect();
        Self {
            n: rows * cols,
            neighbours,
        }
    }
}

/// One probe: the weighted count of the expansions of the iteration's tree.
fn probe(db: &PatternDb, moves: &Moves, root: Node, bound: u32, rng: &mut StdRng) -> f64 {
    if root.h > bound {
        return 0.0;
    }
    let mut level = vec![root];
    let mut slots: HashMap<Type, usize> = HashMap::new();
    let mut total = 0.0;
    let mut g = 0;
    while !level.is_empty() {
        let mut next: Vec<Node> = Vec::new();
        slots.clear();
        for node in &level {
            if node.h == 0 {
                continue;
            }
            total += node.weight;
            let blank = usize::from(node.blank);
            for &q in &moves.neighbours[blank] {
                if q == node.previous {
                    continue;
                }
                let mut child = *node;
                child.board.swap(blank, usize::from(q));
                child.blank = q;
                child.previous = node.blank;
                child.h = db.estimate(&child.board[..moves.n]);
                if g + 1 + child.h <= bound {
                    let kind = (
                        child.h,
                        node.h,
                        moves.neighbours[usize::from(q)].len() as u8,
                    );
                    match slots.get(&kind) {
                        Some(&i) => {
                            let slot = &mut next[i];
                            let weight = slot.weight + node.weight;
                            if rng.random::<f64>() * weight < node.weight {
                                *slot = child;
                            }
                            slot.weight = weight;
                        }
                        None => {
                            slots.insert(kind, next.len());
                            next.push(child);
                        }
                    }
                } else if child.h > 1 && g + child.h - 1 > bound {
                    // The search's pathmax cuts this state off: its other moves are skipped.
                    break;
                }
            }
        }
        level = next;
        g += 1;
    }
    total
}
