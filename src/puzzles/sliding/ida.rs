//! A fast IDA* core for the sliding tile puzzle with additive pattern databases (boards of at
//! most 16 squares): the search the command line and the benchmarks run when no one watches
//! the states go by.
//!
//! What makes it fast, after Korf and Felner (AIJ 2002) and Felner, Korf and Hanan (JAIR 2004):
//! - no allocation per node: the board, each tile's square and each group's Manhattan distance
//!   and entry live in fixed arrays, changed by a move and changed back on return;
//! - the heuristic is updated incrementally: a move changes one tile, so only that tile's group
//!   is looked up again (its Manhattan distance by one step, its placement's rank recomputed
//!   from the group's squares), in the plain and in the reflected view;
//! - the reflected lookup: the larger of the sums over the board and its mirror image about
//!   the main diagonal ([`pattern_db::Reflection`]);
//! - parent-move pruning: the blank never moves straight back.
//!
//! The counts follow [`crate::search`]'s IDA*: a state is *expanded* when it is within the
//! bound and not the goal, and each of its successors but the parent is *generated*.

use std::time::Instant;

use super::pattern_db::{self, MAX_GROUP, MAX_SQUARES, PatternDb};
use crate::search::{CancelToken, Cost, Outcome, Stats};

/// Expansions between two looks at the cancel flag and the clock.
const CHECK_EVERY: u64 = 1 << 16;

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct TileSolution {
    /// `Found`, or why the search stopped without an answer.
    pub outcome: Outcome,
    /// The blank's square (row-major) after each move of an optimal solution; empty unless
    /// found.
    pub blank_path: Vec<u8>,
    /// The run's figures (expanded, generated, iterations, last bound, time).
    pub stats: Stats,
}

impl TileSolution {
    /// Nodes generated a second.
    pub fn nodes_per_second(&self) -> f64 {
        if self.stats.elapsed_ms > 0.0 {
            self.stats.generated as f64 / (self.stats.elapsed_ms / 1000.0)
        } else {
            0.0
        }
    }
}

/// One view of the board for the heuristic (plain or mirrored): where each tile is, and each
/// group's Manhattan distance and entry.
#[derive(Clone)]
struct View {
    /// `pos[t]`: tile `t`'s square in this view.
    pos: [u8; MAX_SQUARES],
    /// `group_of[t]`: the group of tile `t` (unused for the blank).
    group_of: [u8; MAX_SQUARES],
    /// Each group's tiles.
    tiles: Vec<[u8; MAX_GROUP]>,
    lens: Vec<usize>,
    manhattan: Vec<u32>,
    value: Vec<u32>,
    sum: u32,
}

/// The search: the board, both views, the tables and the counts.
struct Core<'a> {
    db: &'a PatternDb,
    n: usize,
    /// `distance[t][s]`: tile `t`'s Manhattan distance from square `s` to its goal square.
    distance: [[u8; MAX_SQUARES]; MAX_SQUARES],
    neighbours: [[u8; 4]; MAX_SQUARES],
    neighbour_count: [u8; MAX_SQUARES],
    board: [u8; MAX_SQUARES],
    blank: u8,
    views: Vec<View>,
    /// Square and tile maps of the mirror image (identity when there is none).
    mirror_square: [u8; MAX_SQUARES],
    mirror_tile: [u8; MAX_SQUARES],
    bound: u32,
    next_bound: u32,
    path: Vec<u8>,
    stats: Stats,
    pending: u64,
    cancel: &'a CancelToken,
    deadline: Option<Instant>,
    stopped: Option<Outcome>,
}

impl View {
    fn new(db: &PatternDb, tiles: &[u8], distance: &[[u8; MAX_SQUARES]; MAX_SQUARES]) -> Self {
        let n = {
            let (r, c) = db.shape();
            r * c
        };
        let mut pos = [0u8; MAX_SQUARES];
        for (s, &t) in tiles.iter().enumerate().take(n) {
            pos[usize::from(t)] = s as u8;
        }
        let mut group_of = [0u8; MAX_SQUARES];
        let mut group_tiles = Vec::new();
        let mut lens = Vec::new();
        for (g, tiles) in db.groups().enumerate() {
            let mut arr = [0u8; MAX_GROUP];
            for (i, &t) in tiles.iter().enumerate().take(MAX_GROUP) {
                arr[i] = t;
                group_of[usize::from(t)] = g as u8;
            }
            group_tiles.push(arr);
            lens.push(tiles.len().min(MAX_GROUP));
        }
        let mut view = Self {
            pos,
            group_of,
            tiles: group_tiles,
            lens,
            manhattan: Vec::new(),
            value: Vec::new(),
            sum: 0,
        };
        for g in 0..view.tiles.len() {
            let m: u32 = view.tiles[g][..view.lens[g]]
                .iter()
                .map(|&t| {
                    u32::from(distance[usize::from(t)][usize::from(view.pos[usize::from(t)])])
                })
                .sum();
            view.manhattan.push(m);
            let v = m + 2 * db.excess(g, view.rank(g, n));
            view.value.push(v);
            view.sum += v;
        }
        view
    }

    #[inline]
    fn rank(&self, g: usize, n: usize) -> usize {
        let mut squares = [0u8; MAX_GROUP];
        let len = self.lens[g];
        for (s, &t) in squares.iter_mut().zip(&self.tiles[g][..len]) {
            *s = self.pos[usize::from(t)];
        }
        pattern_db::rank(&squares[..len], n)
    }
}

impl Core<'_> {
    /// Moves tile `t` (in view `v`'s names) to square `to` in that view; returns the group's
    /// old (Manhattan, value) for [`Core::unmove`].
    #[inline]
    fn move_in_view(&mut self, v: usize, t: u8, to: u8) -> (u32, u32) {
        let (db, n) = (self.db, self.n);
        let view = &mut self.views[v];
        let ti = usize::from(t);
        let g = usize::from(view.group_of[ti]);
        let from = view.pos[ti];
        let old = (view.manhattan[g], view.value[g]);
        view.pos[ti] = to;
        let m = old.0 + u32::from(self.distance[ti][usize::from(to)])
            - u32::from(self.distance[ti][usize::from(from)]);
        let value = m + 2 * db.excess(g, view.rank(g, n));
        view.manhattan[g] = m;
        view.value[g] = value;
        view.sum = view.sum - old.1 + value;
        old
    }

    #[inline]
    fn unmove_in_view(&mut self, v: usize, t: u8, back: u8, old: (u32, u32)) {
        let view = &mut self.views[v];
        let ti = usize::from(t);
        let g = usize::from(view.group_of[ti]);
        view.pos[ti] = back;
        view.sum = view.sum - view.value[g] + old.1;
        view.manhattan[g] = old.0;
        view.value[g] = old.1;
    }

    #[inline]
    fn h(&self) -> u32 {
        self.views.iter().map(|v| v.sum).max().unwrap_or(0)
    }

    /// The bounded depth-first search below the current board, `g` moves from the start,
    /// the blank having come from `previous` (or `u8::MAX` at the start). True when a goal
    /// was found or the search must stop.
    fn search(&mut self, g: u32, previous: u8) -> bool {
        let h = self.h();
        let f = g + h;
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return false;
        }
        if h == 0 {
            return true;
        }
        self.stats.expanded += 1;
        self.stats.max_depth = self.stats.max_depth.max(u64::from(g));
        if self.stats.expanded.is_multiple_of(CHECK_EVERY) {
            if self.cancel.is_cancelled() {
                self.stopped = Some(Outcome::Cancelled);
                return true;
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped = Some(Outcome::Timeout);
                return true;
            }
        }
        let blank = self.blank;
        let b = usize::from(blank);
        let count = usize::from(self.neighbour_count[b]);
        let generated = count as u64 - u64::from(previous != u8::MAX);
        self.stats.generated += generated;
        self.pending += generated;
        self.stats.max_frontier = self.stats.max_frontier.max(self.pending);
        for i in 0..count {
            let q = self.neighbours[b][i];
            if q == previous {
                continue;
            }
            self.pending -= 1;
            // The tile on `q` slides into the blank's square.
            let t = self.board[usize::from(q)];
            self.board[b] = t;
            self.board[usize::from(q)] = 0;
            self.blank = q;
            let old_plain = self.move_in_view(0, t, blank);
            let old_mirror = (self.views.len() > 1).then(|| {
                let (mt, to) = (
                    self.mirror_tile[usize::from(t)],
                    self.mirror_square[usize::from(blank)],
                );
                (
                    mt,
                    self.mirror_square[usize::from(q)],
                    self.move_in_view(1, mt, to),
                )
            });
            self.path.push(q);
            if self.search(g + 1, blank) {
                return true;
            }
            self.path.pop();
            if let Some((mt, back, old)) = old_mirror {
                self.unmove_in_view(1, mt, back, old);
            }
            self.unmove_in_view(0, t, q, old_plain);
            self.board[usize::from(q)] = t;
            self.board[b] = 0;
            self.blank = blank;
        }
        false
    }
}

/// Solves the board `tiles` (row-major, 0 the blank, for the board and goal of `db`)
/// optimally by IDA* with `db`'s heuristic (with the reflected lookup where the board has
/// one), under the time limit and cancel flag of `cancel`.
///
/// The board must be solvable (same parity as the goal; see
/// [`super::Sliding::check_solvable`]): an unsolvable one runs until stopped.
pub fn solve(db: &PatternDb, tiles: &[u8], cancel: &CancelToken) -> TileSolution {
    let started = Instant::now();
    let (rows, cols) = db.shape();
    let n = rows * cols;
    let mut stats = Stats::default();
    if tiles.len() != n || n > MAX_SQUARES {
        return TileSolution {
            outcome: Outcome::NotFound,
            blank_path: Vec::new(),
            stats,
        };
    }
    let mut distance = [[0u8; MAX_SQUARES]; MAX_SQUARES];
    for t in 1..n as u8 {
        for s in 0..n as u8 {
            distance[usize::from(t)][usize::from(s)] = db.distance(s, db.home(t)) as u8;
        }
    }
    let mut neighbours = [[0u8; 4]; MAX_SQUARES];
    let mut neighbour_count = [0u8; MAX_SQUARES];
    for s in 0..n {
        let (r, c) = (s / cols, s % cols);
        let mut add = |q: usize| {
            neighbours[s][usize::from(neighbour_count[s])] = q as u8;
            neighbour_count[s] += 1;
        };
        if r > 0 {
            add(s - cols);
        }
        if c > 0 {
            add(s - 1);
        }
        if c + 1 < cols {
            add(s + 1);
        }
        if r + 1 < rows {
            add(s + cols);
        }
    }
    let mut board = [0u8; MAX_SQUARES];
    board[..n].copy_from_slice(tiles);
    let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
    let mut views = vec![View::new(db, tiles, &distance)];
    let mut mirror_square = [0u8; MAX_SQUARES];
    let mut mirror_tile = [0u8; MAX_SQUARES];
    if let Some(r) = db.reflection() {
        mirror_square = r.square;
        mirror_tile = r.tile;
        views.push(View::new(db, &r.apply(tiles)[..n], &distance));
    }
    let limits = cancel.limits();
    let mut core = Core {
        db,
        n,
        distance,
        neighbours,
        neighbour_count,
        board,
        blank,
        views,
        mirror_square,
        mirror_tile,
        bound: 0,
        next_bound: 0,
        path: Vec::with_capacity(256),
        stats: Stats::default(),
        pending: 0,
        cancel,
        deadline: limits.timeout.and_then(|t| started.checked_add(t)),
        stopped: None,
    };
    core.bound = core.h();
    let outcome = loop {
        core.stats.iterations += 1;
        core.stats.threshold = Cost::from(core.bound);
        core.next_bound = u32::MAX;
        if core.search(0, u8::MAX) {
            break core.stopped.unwrap_or(Outcome::Found);
        }
        if core.next_bound == u32::MAX {
            break Outcome::NotFound;
        }
        core.bound = core.next_bound;
    };
    stats = core.stats;
    stats.max_closed = stats.max_depth + 1;
    stats.peak_memory_bytes = std::mem::size_of::<Core<'_>>() as u64 + core.path.capacity() as u64;
    stats.elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    TileSolution {
        blank_path: if outcome == Outcome::Found {
            core.path
        } else {
            Vec::new()
        },
        outcome,
        stats,
    }
}
