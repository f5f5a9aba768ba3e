//! One iteration of the fast core on every core of `rayon`'s pool: the shallow tree, then its
//! subtrees handed out in order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use super::transpositions::Transpositions;
use super::{Answer, Core, SHALLOW, SUBTREES, Shape, Shared, Subtree};
use crate::search::{Outcome, Stats};

/// One iteration on every core: the shallow tree grown until it has [`SUBTREES`] leaves, then
/// the subtrees searched on every thread of the pool. Returns the merged answer.
///
/// Each thread takes the next subtree in the shallow tree's order (one counter), so the
/// subtrees are searched in the order one core would search them: in the last iteration the
/// threads between them search the subtrees before the solution's, and little after it. (A
/// split of the list in halves, as `par_iter` makes, had the second thread start half-way
/// down, and generated about a tenth more states on Korf's 100.) The calling thread, a thread
/// of the pool, starts at once; the others join as they wake.
pub(super) fn iterate(
    shape: &Shape<'_>,
    shared: &Shared<'_>,
    tiles: &[u8],
    bound: u32,
    last: &[u32; SHALLOW],
) -> Answer {
    let mut root = Core::new(shape, shared, tiles);
    root.bound = bound;
    // Grow the shallow tree a level at a time, from the depth whose parents the last
    // iteration expanded an eighth of SUBTREES of (each has about two successors, and an
    // iteration grows about four times): each growth searches the tree again from the
    // start, which from depth 1 took an eighth of the parallel iterations' time with 256
    // subtrees and dual lookups. Only the last growth's counts
    // are kept.
    let mut subtrees = Vec::new();
    let mut depth = (1..SHALLOW)
        .find(|&d| last[d - 1] as usize * 8 >= SUBTREES)
        .unwrap_or(1)
        .clamp(1, bound.max(1) as usize) as u32;
    loop {
        subtrees.clear();
        root.stats = Stats::default();
        root.shallow = [0; SHALLOW];
        root.unreported = (0, 0);
        root.next_bound = u32::MAX;
        root.path.clear();
        let found = root.collect(0, u8::MAX, depth, &mut subtrees);
        if found || root.stopped.is_some() {
            let path = (found && root.stopped.is_none()).then(|| std::mem::take(&mut root.path));
            return root.into_answer(path);
        }
        if subtrees.len() >= SUBTREES || subtrees.is_empty() || depth >= bound {
            break;
        }
        depth += 1;
    }
    root.report();
    // This thread's transposition table goes back to it, for its share of the subtrees.
    root.transpositions = Transpositions::none();
    let next = AtomicUsize::new(0);
    // One worker per thread: it walks from the start board to each subtree it takes, and
    // back, so the views are updated move by move instead of built again.
    let worker = || {
        let mut core = Core::new(shape, shared, tiles);
        core.bound = bound;
        let mut path = None;
        while let Some(subtree) = subtrees.get(next.fetch_add(1, Ordering::Relaxed)) {
            if shared.done.load(Ordering::Relaxed) || core.stopped.is_some() {
                break;
            }
            if core.search_subtree(subtree) {
                if core.stopped.is_none() {
                    shared.done.store(true, Ordering::Relaxed);
                    path = Some(std::mem::take(&mut core.path));
                }
                break;
            }
        }
        core.report();
        core.into_answer(path)
    };
    // This thread starts at once; the others join as they wake, and a helper job that no
    // thread has taken by the end runs here and finds nothing left (a broadcast waits for
    // every thread to wake, which cost about 0.1 ms an iteration).
    let answers = Mutex::new(Vec::new());
    rayon::scope(|s| {
        for _ in 1..rayon::current_num_threads() {
            s.spawn(|_| {
                let answer = worker();
                answers
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(answer);
            });
        }
        let answer = worker();
        answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(answer);
    });
    let per_thread = answers.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut merged = Answer {
        path: None,
        stats: root.stats,
        next_bound: root.next_bound,
        stopped: None,
        shallow: root.shallow,
    };
    for a in per_thread {
        merged.stats.expanded += a.stats.expanded;
        merged.stats.generated += a.stats.generated;
        merged.stats.max_depth = merged.stats.max_depth.max(a.stats.max_depth);
        merged.stats.max_frontier = merged.stats.max_frontier.max(a.stats.max_frontier);
        merged.next_bound = merged.next_bound.min(a.next_bound);
        for (m, c) in merged.shallow.iter_mut().zip(a.shallow) {
            *m += c;
        }
        if merged.path.is_none() {
            merged.path = a.path;
        }
        // A worker that stopped because another found the solution is no failure.
        if matches!(a.stopped, Some(Outcome::Timeout)) {
            merged.stopped = Some(Outcome::Timeout);
        }
    }
    if merged.path.is_none() && shared.cancel.is_cancelled() {
        merged.stopped = Some(Outcome::Cancelled);
    }
    if merged.path.is_some() {
        merged.stopped = None;
    }
    merged
}

impl Core<'_, '_> {
    /// Searches `subtree` from the start board this worker stands on: slides along the
    /// subtree's path, searches below, and (unless a solution was found or the search must
    /// stop, when true is returned and `self.path` holds the whole path) slides back.
    fn search_subtree(&mut self, subtree: &Subtree) -> bool {
        let mut undos = Vec::with_capacity(subtree.path.len());
        for &q in &subtree.path {
            undos.push(self.slide(q));
        }
        debug_assert_eq!(self.blank, subtree.blank);
        debug_assert_eq!(self.board, subtree.board);
        self.path.clear();
        self.path.extend_from_slice(&subtree.path);
        self.pending = 0;
        self.cut = 0;
        if self.search(subtree.path.len() as u32, subtree.previous) {
            return true;
        }
        for undo in undos.into_iter().rev() {
            self.unslide(undo);
        }
        false
    }
}
