//! The fast core's search: the board's fixed facts, a worker's search with its incremental
//! views, the shallow tree handed out to the workers, and the iteration loop.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::view::View;
use super::{Iteration, Options, Progress, TileSolution};
use crate::puzzles::sliding::pattern_db::{MAX_SQUARES, PatternDb};
use crate::search::{CancelToken, Cost, Outcome, Stats};

mod duals;
mod iterations;
mod lookahead;
mod parallel;
mod shape;
mod transpositions;

pub(super) use iterations::run;
use shape::Shape;
use transpositions::Transpositions;

/// Expansions between two looks at the clock and the progress callback.
const CHECK_EVERY: u64 = 1 << 16;

/// Expansions between two looks at whether another worker has found a solution or the search
/// was stopped: two relaxed loads. Every 64 rather than 1,024: the other worker stops sooner
/// after a solution, and Korf's 100 with dual lookups generate 17,100 states an instance
/// instead of 17,400, in the same time.
const PEEK_EVERY: u64 = 1 << 6;

/// Subtrees handed to the workers each iteration, at least (the shallow tree is grown a level
/// at a time until it has this many leaves, searched again from the start each time). With
/// dual lookups on Korf's 100, 128 took 0.35-0.36 s, 64 0.36 s and 256 0.40-0.45 s, the
/// growth costing more than the finer hand-out saved.
const SUBTREES: usize = 128;

/// The depths whose expansions an iteration counts, for the next one's shallow tree.
const SHALLOW: usize = 32;

/// What a worker shares with the others: the solution flag and the running totals.
struct Shared<'a> {
    cancel: &'a CancelToken,
    deadline: Option<Instant>,
    /// Set when a worker has found a solution within the bound, or the search must stop.
    done: AtomicBool,
    expanded: AtomicU64,
    generated: AtomicU64,
    iteration: u64,
    /// The iteration's stamp for the transposition tables.
    stamp: u64,
    bound: u32,
    progress: &'a (dyn Fn(&Progress) + Sync),
}

/// One worker's search: the board, both views and the counts.
struct Core<'a, 's> {
    shape: &'s Shape<'a>,
    shared: &'s Shared<'s>,
    board: [u8; MAX_SQUARES],
    blank: u8,
    views: Vec<View>,
    /// The dual squares of the board and of its mirror image ([`PatternDb::dual_squares`]),
    /// kept up to date with dual lookups.
    duals: [[u8; MAX_SQUARES]; 2],
    /// The Manhattan distances of the groups' labels on `duals[0]` and `duals[1]`
    /// ([`PatternDb::dual_manhattan`]), kept up to date with them.
    dual_manhattan: [u32; 2],
    bound: u32,
    next_bound: u32,
    path: Vec<u8>,
    stats: Stats,
    /// Expansions and generations not yet added to the shared totals.
    unreported: (u64, u64),
    /// The estimate that cut the last state tested off (0 when it was expanded), for the
    /// pathmax of its parent.
    cut: u32,
    pending: u64,
    stopped: Option<Outcome>,
    /// `shallow[g]`: the states expanded `g` moves from the start, for `g` below
    /// [`SHALLOW`] (where the next iteration's shallow tree is cut).
    shallow: [u32; SHALLOW],
    /// The board's key for the transposition table ([`transpositions::key_of`]).
    key: u128,
    transpositions: Transpositions,
}

/// A leaf of the shallow tree: a subtree's root, handed to a worker.
struct Subtree {
    board: [u8; MAX_SQUARES],
    blank: u8,
    /// The blank's square before the last move (`u8::MAX` at the start).
    previous: u8,
    /// The blank's squares from the start to here.
    path: Vec<u8>,
}

impl<'a, 's> Core<'a, 's> {
    fn new(shape: &'s Shape<'a>, shared: &'s Shared<'s>, tiles: &[u8]) -> Self {
        let n = shape.n;
        let mut board = [0u8; MAX_SQUARES];
        board[..n].copy_from_slice(&tiles[..n]);
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
        let mut views = vec![View::new(shape.db, tiles, &shape.distance)];
        let mut duals = [shape.db.dual_squares(|s| tiles[s]), [0; MAX_SQUARES]];
        if let Some(r) = shape.db.reflection() {
            let mirrored = r.apply(tiles);
            views.push(View::new(shape.db, &mirrored[..n], &shape.distance));
            duals[1] = shape.db.dual_squares(|s| mirrored[s]);
        }
        Self {
            shape,
            shared,
            board,
            blank,
            views,
            dual_manhattan: duals.map(|d| shape.db.dual_manhattan(&d)),
            duals,
            bound: 0,
            next_bound: u32::MAX,
            path: Vec::with_capacity(256),
            stats: Stats::default(),
            unreported: (0, 0),
            cut: 0,
            pending: 0,
            stopped: None,
            shallow: [0; SHALLOW],
            key: transpositions::key_of(&board[..n]),
            transpositions: if shape.options.transpositions {
                Transpositions::lend(shared.stamp)
            } else {
                Transpositions::none()
            },
        }
    }

    /// The plain and reflected estimate, as kept up to date by the moves; the reflected one
    /// only where the plain one is at most `limit` (its stale groups looked up then).
    #[inline]
    fn h_views(&mut self, limit: u32) -> u32 {
        let plain = self.views[0].sum;
        if plain > limit || self.views.len() < 2 {
            return plain;
        }
        let (db, n) = (self.shape.db, self.shape.n);
        let view = &mut self.views[1];
        while view.stale != 0 {
            let g = view.stale.trailing_zeros() as usize;
            view.stale &= view.stale - 1;
            let value = view.entry(db, g, n);
            view.sum = view.sum - view.value[g] + value;
            view.value[g] = value;
        }
        plain.max(view.sum)
    }

    /// The full estimate of the current board (views, and the dual where chosen).
    fn h_full(&mut self) -> u32 {
        let mut h = self.h_views(u32::MAX);
        if self.shape.options.dual {
            h = h.max(self.h_dual(u32::MAX));
        }
        self.shape.to_parity(h, self.blank)
    }

    /// Moves tile `t` (in view `v`'s names) to square `to` in that view; returns the group's
    /// old (Manhattan, value) for [`Core::unmove_in_view`].
    #[inline]
    fn move_in_view(&mut self, v: usize, t: u8, to: u8) -> (u32, u32) {
        let (db, n) = (self.shape.db, self.shape.n);
        let view = &mut self.views[v];
        let g = usize::from(view.group_of[usize::from(t)]);
        let old = (view.manhattan[g], view.value[g]);
        view.shift(t, to, &self.shape.distance);
        let value = view.entry(db, g, n);
        view.value[g] = value;
        view.sum = view.sum - old.1 + value;
        old
    }

    /// Moves tile `t` (in the mirrored view's names) to square `to` in that view without
    /// looking its group up (the group goes stale, see [`Core::h_views`]); returns the
    /// group's old (Manhattan, value, stale) for [`Core::unmove_lazily`].
    #[inline]
    fn move_lazily(&mut self, t: u8, to: u8) -> (u32, u32, bool) {
        let view = &mut self.views[1];
        let g = usize::from(view.group_of[usize::from(t)]);
        let old = (view.manhattan[g], view.value[g], view.stale & (1 << g) != 0);
        view.shift(t, to, &self.shape.distance);
        view.stale |= 1 << g;
        old
    }

    #[inline]
    fn unmove_lazily(&mut self, t: u8, back: u8, old: (u32, u32, bool)) {
        self.unmove_in_view(1, t, back, (old.0, old.1));
        let view = &mut self.views[1];
        let g = usize::from(view.group_of[usize::from(t)]);
        view.stale = (view.stale & !(1 << g)) | (u32::from(old.2) << g);
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

    /// Slides the tile on `q` into the blank's square; returns what [`Core::unslide`] needs.
    #[inline]
    fn slide(&mut self, q: u8) -> Undo {
        let blank = self.blank;
        let t = self.board[usize::from(q)];
        self.board[usize::from(blank)] = t;
        self.board[usize::from(q)] = 0;
        self.blank = q;
        self.key = transpositions::slid(self.key, t, q, blank);
        if self.shape.options.dual {
            self.slide_duals(t, q, blank);
        }
        let plain = self.move_in_view(0, t, blank);
        let mirror = match (&self.shape.mirror, self.views.len() > 1) {
            (Some((square, tile)), true) => {
                let (mt, to, back) = (
                    tile[usize::from(t)],
                    square[usize::from(blank)],
                    square[usize::from(q)],
                );
                Some((mt, back, self.move_lazily(mt, to)))
            }
            _ => None,
        };
        Undo {
            t,
            from: q,
            to: blank,
            plain,
            mirror,
        }
    }

    #[inline]
    fn unslide(&mut self, undo: Undo) {
        if let Some((mt, back, old)) = undo.mirror {
            self.unmove_lazily(mt, back, old);
        }
        self.unmove_in_view(0, undo.t, undo.from, undo.plain);
        self.board[usize::from(undo.from)] = undo.t;
        self.board[usize::from(undo.to)] = 0;
        self.blank = undo.to;
        self.key = transpositions::slid(self.key, undo.t, undo.to, undo.from);
        if self.shape.options.dual {
            self.slide_duals(undo.t, undo.to, undo.from);
        }
    }

    /// The bound test of a state `g` moves from the start: `Some(true)` when it is a goal,
    /// `Some(false)` when it is cut off (the next bound noted), `None` when it is to be
    /// expanded.
    #[inline]
    fn test(&mut self, g: u32) -> Option<bool> {
        let h = self.h_views(self.bound.saturating_sub(g));
        let f = g + h;
        if f > self.bound {
            self.next_bound = self.next_bound.min(g + self.shape.to_parity(h, self.blank));
            self.cut = h;
            return Some(false);
        }
        if h == 0 {
            return Some(true);
        }
        if self.shape.options.dual {
            let d = self.h_dual(self.bound - g);
            if g + d > self.bound {
                self.next_bound = self.next_bound.min(g + self.shape.to_parity(d, self.blank));
                self.cut = d;
                return Some(false);
            }
        }
        None
    }

    /// Counts an expansion, and now and then looks at the other workers, the cancel flag and
    /// the clock. True when the search must stop.
    #[inline]
    fn count_expansion(&mut self, g: u32) -> bool {
        self.stats.expanded += 1;
        self.unreported.0 += 1;
        self.stats.max_depth = self.stats.max_depth.max(u64::from(g));
        if let Some(count) = self.shallow.get_mut(g as usize) {
            *count += 1;
        }
        if self.stats.expanded.is_multiple_of(PEEK_EVERY) {
            // Two flag loads: another worker's solution, and Stop (within a millisecond).
            if self.shared.done.load(Ordering::Relaxed) {
                self.stopped.get_or_insert(Outcome::Cancelled);
                return true;
            }
            if self.shared.cancel.is_cancelled() {
                self.stopped = Some(Outcome::Cancelled);
                self.shared.done.store(true, Ordering::Relaxed);
                return true;
            }
        }
        if self.stats.expanded.is_multiple_of(CHECK_EVERY) {
            self.report();
            let shared = self.shared;
            let why = if shared.deadline.is_some_and(|d| Instant::now() >= d) {
                Some(Outcome::Timeout)
            } else {
                None
            };
            if let Some(why) = why {
                self.stopped = Some(why);
                shared.done.store(true, Ordering::Relaxed);
                return true;
            }
            (shared.progress)(&Progress {
                iteration: shared.iteration,
                bound: shared.bound,
                expanded: shared.expanded.load(Ordering::Relaxed),
                generated: shared.generated.load(Ordering::Relaxed),
            });
        }
        false
    }

    /// The bound test and the expansion of the current state, `g` moves from the start, the
    /// blank having come from `previous`: `Err(found or must stop)` when it is not expanded,
    /// else `Ok((neighbours, successors generated))`, the expansion and the successors
    /// counted.
    #[inline]
    fn expand(&mut self, g: u32, previous: u8) -> Result<(usize, u64), bool> {
        if let Some(found) = self.test(g) {
            return Err(found);
        }
        self.open(g, previous)
    }

    /// The expansion of the current state, known to be within the bound and not the goal:
    /// as [`Core::expand`] after its bound test.
    #[inline]
    fn open(&mut self, g: u32, previous: u8) -> Result<(usize, u64), bool> {
        if self.count_expansion(g) {
            return Err(true);
        }
        let count = usize::from(self.shape.neighbour_count[usize::from(self.blank)]);
        let generated = count as u64 - u64::from(previous != u8::MAX);
        self.stats.generated += generated;
        self.unreported.1 += generated;
        Ok((count, generated))
    }

    /// This worker's answer, with `path` (the solution, if it found one).
    fn into_answer(self, path: Option<Vec<u8>>) -> Answer {
        Answer {
            path,
            stats: self.stats,
            next_bound: self.next_bound,
            stopped: self.stopped,
            shallow: self.shallow,
        }
    }

    /// Adds this worker's unreported counts to the shared totals.
    fn report(&mut self) {
        self.shared
            .expanded
            .fetch_add(self.unreported.0, Ordering::Relaxed);
        self.shared
            .generated
            .fetch_add(self.unreported.1, Ordering::Relaxed);
        self.unreported = (0, 0);
    }

    /// The bounded depth-first search below the current board, `g` moves from the start,
    /// the blank having come from `previous` (or `u8::MAX` at the start). True when a goal
    /// was found or the search must stop.
    fn search(&mut self, g: u32, previous: u8) -> bool {
        match self.test(g) {
            Some(found) => found,
            None => self.search_below(g, previous),
        }
    }

    /// [`Core::search`] of a state known to be within the bound and not the goal.
    fn search_below(&mut self, g: u32, previous: u8) -> bool {
        // Expanded already this iteration from as few moves or fewer: nothing new below.
        if g + transpositions::MIN_MOVES_LEFT <= self.bound && self.transpositions.seen(self.key, g)
        {
            self.cut = 0;
            return false;
        }
        let (count, generated) = match self.open(g, previous) {
            Ok(counts) => counts,
            Err(stop) => return stop,
        };
        self.pending += generated;
        self.stats.max_frontier = self.stats.max_frontier.max(self.pending);
        if self.shape.options.dual {
            return self.search_looking_ahead(g, previous, count, generated);
        }
        let b = usize::from(self.blank);
        let blank = self.blank;
        for i in 0..count {
            let q = self.shape.neighbours[b][i];
            if q == previous {
                continue;
            }
            self.pending -= 1;
            let undo = self.slide(q);
            self.path.push(q);
            self.cut = 0;
            if self.search(g + 1, blank) {
                return true;
            }
            self.path.pop();
            self.unslide(undo);
            // Bidirectional pathmax (Felner, Zahavi et al.): a group's entry is the least
            // over the blank's regions, so now and then inconsistent, and a successor's
            // estimate less one move bounds this state's too. When that cuts this state off,
            // its other successors are skipped (and not counted as generated).
            if self.pathmax_cuts(g, blank) {
                let skipped = self.successors_after(b, i, count, previous);
                self.stats.generated -= skipped;
                self.unreported.1 -= skipped;
                self.pending -= skipped;
                return false;
            }
        }
        self.cut = 0;
        false
    }

    /// The successors of the state whose blank is on `b` that come after its `i`-th
    /// neighbour, the parent's square `previous` left out.
    #[inline]
    fn successors_after(&self, b: usize, i: usize, count: usize, previous: u8) -> u64 {
        self.shape.neighbours[b][i + 1..count]
            .iter()
            .filter(|&&q| q != previous)
            .count() as u64
    }

    /// Bidirectional pathmax from the successor just searched (whose estimate, or its
    /// subtree's, is `self.cut`) to the state `g` moves from the start whose blank is on
    /// `blank`: true when that successor's estimate less one move cuts the state off (the
    /// next bound noted, `self.cut` set to the state's raised estimate).
    #[inline]
    fn pathmax_cuts(&mut self, g: u32, blank: u8) -> bool {
        let cut = self.cut;
        if cut > 1 && g + cut - 1 > self.bound {
            self.next_bound = self
                .next_bound
                .min(g + self.shape.to_parity(cut - 1, blank));
            self.cut = cut - 1;
            return true;
        }
        false
    }

    /// The shallow tree: like [`Core::search`] down to `depth` moves, the states there
    /// handed out as subtrees instead of searched. True when a goal was found above that
    /// depth (the path is then the solution).
    fn collect(&mut self, g: u32, previous: u8, depth: u32, out: &mut Vec<Subtree>) -> bool {
        if g == depth {
            out.push(Subtree {
                board: self.board,
                blank: self.blank,
                previous,
                path: self.path.clone(),
            });
            return false;
        }
        let count = match self.expand(g, previous) {
            Ok((count, _)) => count,
            Err(stop) => return stop,
        };
        let b = usize::from(self.blank);
        let blank = self.blank;
        for i in 0..count {
            let q = self.shape.neighbours[b][i];
            if q == previous {
                continue;
            }
            let undo = self.slide(q);
            self.path.push(q);
            if self.collect(g + 1, blank, depth, out) {
                return true;
            }
            self.path.pop();
            self.unslide(undo);
        }
        false
    }
}

/// What [`Core::slide`] changed.
struct Undo {
    /// The tile that slid, from the square `from` to the blank's square `to`.
    t: u8,
    from: u8,
    to: u8,
    plain: (u32, u32),
    mirror: Option<(u8, u8, (u32, u32, bool))>,
}

/// A worker's answer for one subtree.
struct Answer {
    path: Option<Vec<u8>>,
    stats: Stats,
    next_bound: u32,
    stopped: Option<Outcome>,
    /// The states expanded at each depth below [`SHALLOW`].
    shallow: [u32; SHALLOW],
}
