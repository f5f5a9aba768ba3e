//! Forecasts of IDA*'s expansions for the sliding tile puzzle with pattern databases.
//!
//! **Korf, Reid and Edelkamp** ("Time complexity of iterative-deepening-A*", AIJ 129, 2001;
//! KRE): an iteration with bound `d` expands about `sum over i of N(i) P(d - i)` states, where
//! `N(i)` is the number of nodes at depth `i` of the brute-force tree (the blank never moving
//! straight back) and `P(v)` the fraction of states in the equilibrium distribution whose
//! estimate is at most `v`, sampled here from random states (among the values of `v`'s
//! parity: a state's estimate has the parity of its moves left, as `d - i` does). With a
//! consistent heuristic a node within the bound has every ancestor within it, so these are
//! the nodes expanded, **averaged over random start states for a fixed bound**.
//!
//! For one start and its own bounds that average misleads with strong heuristics: the nodes a
//! few moves from the start have estimates near the start's, far from equilibrium. So the
//! forecast given for each iteration ([`Forecast::expansions`]) conditions on the start, as
//! Zahavi, Felner, Burch and Holte's CDP does ("Predicting the performance of IDA* using
//! conditional distributions", JAIR 37, 2010): the tree is grown level by level as counts of
//! (blank square, square it came from, how the last two moves changed the estimate,
//! estimate), a node within the bound gives each of its moves' children the estimate changes
//! sampled for that square, move, history and estimate, and the nodes within the bound are
//! summed.
//! The first levels of the iteration are searched (CDP's radius), not forecast.
//! [`Forecast::kre_expansions`] gives KRE's figure.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::pattern_db::{MAX_SQUARES, PatternDb};

/// Estimate changes a move can make that are kept apart (a consistent estimate changes by
/// one; an inconsistent one may jump further).
const DELTAS: usize = 9;
const MID: i64 = (DELTAS / 2) as i64;

/// Highest estimate tracked.
const MAX_H: usize = 160;

/// The histories a node is told apart by: how the last two moves changed the estimate
/// (`2 * (the one before went up) + (the last went up)`), and [`UNKNOWN`] where they are not
/// both known.
const HISTORIES: usize = 5;
const UNKNOWN: usize = 4;

/// The history after a move that went `up` (or down), from history `before`.
fn after(before: usize, up: bool) -> usize {
    if before == UNKNOWN {
        UNKNOWN
    } else {
        (before & 1) * 2 + usize::from(up)
    }
}

/// The history of the last two changes, where known (`Some(true)`: up).
fn history(before: Option<bool>, last: Option<bool>) -> usize {
    match (before, last) {
        (Some(b), Some(l)) => usize::from(b) * 2 + usize::from(l),
        _ => UNKNOWN,
    }
}

/// Samples of one (square, move, estimate) cell below which the cell borrows the pooled
/// changes of every square and move at that estimate.
const MIN_CELL: u64 = 24;

/// The sampled distributions behind the forecasts, for one database and board.
#[derive(Clone, Debug, PartialEq)]
pub struct Forecast {
    rows: usize,
    cols: usize,
    /// KRE: `at_most[v]`, the fraction of random states of `v`'s parity whose estimate is at
    /// most `v`.
    at_most: Vec<f64>,
    /// CDP: for (blank square, move index 0..4, history of the last two changes (see
    /// [`HISTORIES`]), estimate), the odds of each estimate change (index `change + MID`),
    /// from the samples of that cell or, where it has too few, of every square and move at
    /// the nearest estimate sampled.
    odds: Vec<[f64; DELTAS]>,
}

/// The square `s`'s neighbour in direction `d` (up, down, left, right) on a `rows x cols`
/// board, if any.
fn neighbour(rows: usize, cols: usize, s: usize, d: usize) -> Option<usize> {
    let (r, c) = (s / cols, s % cols);
    match d {
        0 => (r > 0).then(|| s - cols),
        1 => (r + 1 < rows).then(|| s + cols),
        2 => (c > 0).then(|| s - 1),
        _ => (c + 1 < cols).then(|| s + 1),
    }
}

impl Forecast {
    /// Samples `samples` states (seeded by `seed`) for `db`'s estimate ([`PatternDb::estimate`]:
    /// plain, or the larger of plain and reflected): a third random states (a 400-move random
    /// walk from the goal) for KRE's distribution; a third descents from random states, each
    /// move down the estimate three times in four where one goes down (as the nodes within
    /// an iteration's bound are reached), the changes of every move recorded at each step; a
    /// third short walks from the goal, kept for estimates below 15 only (states reached
    /// from the goal have more moves down than others of their estimate).
    pub fn sample(db: &PatternDb, samples: usize, seed: u64) -> Self {
        let (rows, cols) = db.shape();
        let n = rows * cols;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut random_h = vec![0u64; MAX_H + 1];
        let mut changes = vec![[0u64; DELTAS]; n * 4 * HISTORIES * (MAX_H + 1)];
        let mut pooled = vec![[0u64; DELTAS]; MAX_H + 1];
        let goal: Vec<u8> = db.goal().to_vec();
        let mut record = |blank: usize, d: usize, last: usize, h: usize, child: i64| {
            let change = (child - h as i64 + MID).clamp(0, DELTAS as i64 - 1) as usize;
            for l in [last, UNKNOWN] {
                changes[((blank * 4 + d) * HISTORIES + l) * (MAX_H + 1) + h][change] += 1;
            }
            pooled[h][change] += 1;
        };
        for k in 0..samples {
            // Three kinds of sample: a random state (KRE's distribution, and the changes at
            // it); a descent from one, mostly down the estimate (as the nodes of an
            // iteration's tree are reached), its changes recorded at every step; a short
            // walk from the goal, for the estimates near 0 only.
            let kind = k % 3;
            let walk = match kind {
                2 => k / 3 % 31,
                _ => 400,
            };
            let mut tiles = goal.clone();
            let mut blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
            let (mut previous, mut before) = (usize::MAX, usize::MAX);
            for _ in 0..walk {
                let options: Vec<usize> = (0..4)
                    .filter_map(|d| neighbour(rows, cols, blank, d))
                    .filter(|&q| q != previous)
                    .collect();
                let q = options[rng.random_range(0..options.len())];
                tiles.swap(blank, q);
                before = previous;
                previous = blank;
                blank = q;
            }
            let mut h = (db.estimate(&tiles) as usize).min(MAX_H);
            if kind == 0 {
                random_h[h] += 1;
            }
            if kind == 2 && h >= 15 {
                continue;
            }
            // How the walk's last two moves changed the estimate.
            let mut last = if before == usize::MAX {
                UNKNOWN
            } else {
                tiles.swap(blank, previous);
                let parent = db.estimate(&tiles);
                tiles.swap(previous, before);
                let grandparent = db.estimate(&tiles);
                tiles.swap(previous, before);
                tiles.swap(blank, previous);
                history(Some(grandparent <= parent), Some(parent as usize <= h))
            };
            let steps = if kind == 1 { 1 + k / 3 % 60 } else { 1 };
            for _ in 0..steps {
                let mut kids: Vec<(usize, usize, i64)> = Vec::with_capacity(4);
                for d in 0..4 {
                    let Some(q) = neighbour(rows, cols, blank, d) else {
                        continue;
                    };
                    if q == previous {
                        continue;
                    }
                    tiles.swap(blank, q);
                    let child = i64::from(db.estimate(&tiles));
                    tiles.swap(blank, q);
                    record(blank, d, last, h, child);
                    kids.push((q, d, child));
                }
                if kind != 1 || kids.is_empty() || h == 0 {
                    break;
                }
                let down: Vec<&(usize, usize, i64)> =
                    kids.iter().filter(|k| k.2 < h as i64).collect();
                let &(q, _, child) = if !down.is_empty() && rng.random_bool(0.75) {
                    down[rng.random_range(0..down.len())]
                } else {
                    &kids[rng.random_range(0..kids.len())]
                };
                tiles.swap(blank, q);
                last = after(last, child >= h as i64);
                h = (child.max(0) as usize).min(MAX_H);
                previous = blank;
                blank = q;
            }
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
        let odds = changes
            .iter()
            .enumerate()
            .map(|(i, cell)| {
                let h = i % (MAX_H + 1);
                let counts = if cell.iter().sum::<u64>() >= MIN_CELL {
                    *cell
                } else {
                    (0..=MAX_H)
                        .flat_map(|off| [h.checked_sub(off), h.checked_add(off)])
                        .flatten()
                        .filter_map(|v| pooled.get(v))
                        .find(|c| c.iter().sum::<u64>() > 0)
                        .copied()
                        .unwrap_or([0, 0, 0, 0, 0, 1, 0, 0, 0])
                };
                let total = counts.iter().sum::<u64>().max(1) as f64;
                counts.map(|c| c as f64 / total)
            })
            .collect();
        Self {
            rows,
            cols,
            at_most,
            odds,
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

    /// The odds of the estimate changes of a move in direction `d` from square `s` at
    /// estimate `h` after the history `last` of changes (see [`HISTORIES`]), index
    /// `change + MID`.
    fn change_odds(&self, s: usize, d: usize, last: usize, h: usize) -> &[f64; DELTAS] {
        &self.odds[((s * 4 + d) * HISTORIES + last) * (MAX_H + 1) + h.min(MAX_H)]
    }

    /// The forecast of the expansions of an iteration with bound `bound` from the board
    /// `tiles` (row-major, 0 the blank) under `db`'s estimate: the first `radius` levels of
    /// the iteration's tree are searched (as CDP does, so that the start's own neighbourhood
    /// is counted, not forecast), and from the nodes at that depth the tree is grown by the
    /// sampled changes (see the module documentation); the nodes within the bound are
    /// summed (goals apart).
    pub fn expansions(&self, db: &PatternDb, tiles: &[u8], bound: u32, radius: usize) -> f64 {
        let n = self.rows * self.cols;
        let Some(blank) = tiles.iter().position(|&t| t == 0) else {
            return 0.0;
        };
        if n > MAX_SQUARES || tiles.len() != n {
            return 0.0;
        }
        let width = MAX_H + 1;
        let cells = n * 5 * HISTORIES * width;
        let mut level = vec![0.0f64; cells];
        // The search of the first levels: each node at depth `radius` within the bound seeds
        // the grown tree.
        let mut board = tiles.to_vec();
        let mut searched = 0.0;
        let h = db.estimate(&board);
        let mut seed = |s: usize, from: usize, last: usize, v: u32| {
            level[((s * 5 + from) * HISTORIES + last) * width + (v as usize).min(MAX_H)] += 1.0;
        };
        self.search_levels(
            db,
            &mut board,
            blank,
            4,
            (None, None),
            h,
            0,
            bound,
            radius,
            &mut searched,
            &mut seed,
        );
        let mut expanded = searched;
        for depth in radius..=bound as usize {
            let limit = (bound as usize).saturating_sub(depth).min(MAX_H);
            let mut next = vec![0.0f64; cells];
            let mut any = false;
            for s in 0..n {
                for from in 0..5 {
                    for last in 0..HISTORIES {
                        let base = ((s * 5 + from) * HISTORIES + last) * width;
                        for v in 1..=limit {
                            let c = level[base + v];
                            if c < 1e-12 {
                                continue;
                            }
                            expanded += c;
                            for d in 0..4 {
                                let Some(q) = self.step(s, from, d) else {
                                    continue;
                                };
                                let odds = self.change_odds(s, d, last, v);
                                for (k, &p) in odds.iter().enumerate() {
                                    let child = v as i64 + k as i64 - MID;
                                    if p > 0.0 && (0..=MAX_H as i64).contains(&child) {
                                        let went = after(last, child >= v as i64);
                                        let to = ((q * 5 + back(d)) * HISTORIES + went) * width;
                                        next[to + child as usize] += c * p;
                                        any = true;
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if !any {
                break;
            }
            level = next;
        }
        expanded
    }

    /// The depth-first search of the first `radius` levels of an iteration with bound
    /// `bound`: counts the states expanded above depth `radius` in `searched` and hands each
    /// node at depth `radius` within the bound (not a goal) to `seed` as (blank square,
    /// direction it came from, history of the last two changes, estimate); `changes` are the
    /// last two changes so far (`Some(true)`: up).
    #[allow(clippy::too_many_arguments)]
    fn search_levels(
        &self,
        db: &PatternDb,
        board: &mut [u8],
        blank: usize,
        from: usize,
        changes: (Option<bool>, Option<bool>),
        h: u32,
        depth: usize,
        bound: u32,
        radius: usize,
        searched: &mut f64,
        seed: &mut dyn FnMut(usize, usize, usize, u32),
    ) {
        if depth as u32 + h > bound || h == 0 {
            return;
        }
        if depth == radius {
            seed(blank, from, history(changes.0, changes.1), h);
            return;
        }
        *searched += 1.0;
        for d in 0..4 {
            let Some(q) = self.step(blank, from, d) else {
                continue;
            };
            board.swap(blank, q);
            let child = db.estimate(board);
            let went = (changes.1, Some(child >= h));
            self.search_levels(
                db,
                board,
                q,
                back(d),
                went,
                child,
                depth + 1,
                bound,
                radius,
                searched,
                seed,
            );
            board.swap(blank, q);
        }
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
