//! A fast IDA* core for the sliding tile puzzle with additive pattern databases (boards of at
//! most 25 squares, up to the 24-puzzle): the search the command line and the benchmarks run
//! when no one watches the states go by, and the app's 24-puzzle search.
//!
//! What makes it fast, after Korf and Felner (AIJ 2002), Felner, Korf and Hanan (JAIR 2004)
//! and Felner, Zahavi, Schaeffer and Holte (IJCAI 2005):
//! - no allocation per node: the board, each tile's square and each group's Manhattan distance
//!   and entry live in fixed arrays, changed by a move and changed back on return;
//! - the heuristic is updated incrementally: a move changes one tile, so only that tile's group
//!   is looked up again (its Manhattan distance by one step, its placement's rank recomputed
//!   from the group's squares), in the plain and in the reflected view;
//! - the reflected lookup: the larger of the sums over the board and its mirror image about
//!   the main diagonal ([`pattern_db::Reflection`]);
//! - dual lookups ([`Options::dual`]): a state that the plain and reflected sums do not cut
//!   off is looked up again through its dual ([`PatternDb::estimate_dual_plain`]), plain and
//!   reflected, and cut off if either says so; every estimate is rounded up to the parity of
//!   the moves left (the blank's Manhattan distance to its goal square);
//! - bidirectional pathmax (a successor's estimate less one move bounds its parent's; Felner,
//!   Zahavi et al., IJCAI 2005), which skips the parent's other successors when it cuts the
//!   parent off: the dual lookups are inconsistent, and so, now and then, is a group's entry
//!   (the least over the blank's regions). With dual lookups every successor is looked up
//!   before any is searched (one level of lookahead, Felner, Zahavi, Holte et al., AIJ 2011),
//!   so a high estimate cuts its parent off before its siblings' subtrees are searched;
//! - the tables in memory advised for transparent huge pages (Linux), so the random reads
//!   into a 250 MB table miss the TLB far less often (about 15 % faster on Korf's 100);
//! - parent-move pruning: the blank never moves straight back;
//! - both cores ([`Options::parallel`]): each iteration expected to expand 5,000 states or
//!   more (the last one's expansions times their growth over the one before) expands the
//!   tree to a shallow depth and hands the subtrees below it to `rayon`; all workers stop once
//!   one finds a solution within the bound (every solution within the bound is optimal).
//!
//! The counts follow [`crate::search`]'s IDA*: a state is *expanded* when it is within the
//! bound and not the goal, and each of its successors but the parent is *generated*.

mod core;
mod view;

use super::pattern_db::PatternDb;
use crate::search::{CancelToken, Outcome, Stats};

pub use crate::search::layers::Iteration;

/// How the fast core searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Look up the dual of each state that the plain and reflected lookups let through (Felner,
    /// Zahavi et al.; admissible, not consistent). Strongest with the database's minus tables
    /// attached ([`PatternDb::load_or_build_dual_tables`]).
    pub dual: bool,
    /// Search each iteration's subtrees on every core of `rayon`'s pool.
    pub parallel: bool,
    /// With `parallel`: an iteration runs on every core once it should expand this many
    /// states (the last iteration's expansions times their growth over the one before);
    /// smaller ones cost more to hand out than they take. 5,000 by default: on Korf's 100,
    /// 2,500 and 10,000 were a little slower, 25,000 a sixth slower, 0 half as slow again.
    pub parallel_from: u64,
}

impl Default for Options {
    /// What pays: every core, no dual lookups. With the minus tables, the dual lookups cut the
    /// states Korf's 100 15-puzzles generate by a third, but each lookup misses the cache
    /// and they cost more time than that saves (README "The 24-puzzle solved optimally").
    fn default() -> Self {
        Self {
            dual: false,
            parallel: true,
            parallel_from: 5_000,
        }
    }
}

/// Where a running search is, for a progress line: the iteration (1-based), its bound, and
/// the states expanded and generated so far over all iterations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The current iteration, 1-based.
    pub iteration: u64,
    /// The current iteration's bound on `g + h`, in moves.
    pub bound: u32,
    /// States expanded so far, all iterations.
    pub expanded: u64,
    /// States generated so far, all iterations.
    pub generated: u64,
}

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
    /// Each iteration's bound and figures, first to last (the last one cut short where the
    /// solution was found or the search stopped).
    pub iterations: Vec<Iteration>,
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

/// Solves the board `tiles` (row-major, 0 the blank, for the board and goal of `db`)
/// optimally by IDA* with `db`'s heuristic (the plain and reflected lookups, on every core:
/// see [`Options::default`]), under the time limit and cancel flag of `cancel`.
///
/// The board must be solvable (same parity as the goal; see
/// [`super::Sliding::check_solvable`]): an unsolvable one runs until stopped.
pub fn solve(db: &PatternDb, tiles: &[u8], cancel: &CancelToken) -> TileSolution {
    solve_with(db, tiles, cancel, Options::default(), &|_| {})
}

/// [`solve`] with the given [`Options`], calling `progress` at the end of each iteration and
/// every 65,536 expansions or so (from any worker thread).
pub fn solve_with(
    db: &PatternDb,
    tiles: &[u8],
    cancel: &CancelToken,
    options: Options,
    progress: &(dyn Fn(&Progress) + Sync),
) -> TileSolution {
    core::run(db, tiles, cancel, options, progress)
}
