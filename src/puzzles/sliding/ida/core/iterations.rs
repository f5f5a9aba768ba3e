//! IDA*'s iterations on the fast core: each bound's search (on this thread, or over its
//! subtrees on both cores), the next bound, the forecast of an iteration's size, the
//! progress told and the limits looked at between them.

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Instant;

use super::*;

/// The expansions the next iteration should have: the last iteration's, times its growth
/// over the one before (at least 1); 0 before the first.
fn expected_size(iterations: &[Iteration]) -> u64 {
    match iterations {
        [] => 0,
        [only] => only.expanded,
        [.., before, last] => {
            let growth = last.expanded as f64 / before.expanded.max(1) as f64;
            (last.expanded as f64 * growth.max(1.0)) as u64
        }
    }
}

/// The iterations of IDA* (see [`super::super::solve_with`]).
pub(in crate::puzzles::sliding::ida) fn run(
    db: &PatternDb,
    tiles: &[u8],
    cancel: &CancelToken,
    options: Options,
    progress: &(dyn Fn(&Progress) + Sync),
) -> TileSolution {
    // On every core, the iterations run on a thread of the pool, so that a parallel one starts
    // on this thread at once while the others wake (from outside the pool, every thread had
    // to wake first: Korf's 100 with dual lookups took 0.45 s instead of 0.40 s).
    if options.parallel
        && rayon::current_num_threads() > 1
        && rayon::current_thread_index().is_none()
    {
        return rayon::scope(|_| run_here(db, tiles, cancel, options, progress));
    }
    run_here(db, tiles, cancel, options, progress)
}

/// [`run`] on the calling thread.
fn run_here(
    db: &PatternDb,
    tiles: &[u8],
    cancel: &CancelToken,
    options: Options,
    progress: &(dyn Fn(&Progress) + Sync),
) -> TileSolution {
    let started = Instant::now();
    let (rows, cols) = db.shape();
    let n = rows * cols;
    if tiles.len() != n || n > MAX_SQUARES {
        return TileSolution {
            outcome: Outcome::NotFound,
            blank_path: Vec::new(),
            stats: Stats::default(),
            iterations: Vec::new(),
        };
    }
    let shape = Shape::new(db, options);
    let limits = cancel.limits();
    let deadline = limits.timeout.and_then(|t| started.checked_add(t));
    let parallel = options.parallel && rayon::current_num_threads() > 1;
    let mut stats = Stats::default();
    let mut iterations = Vec::new();
    let mut bound = {
        let shared = shared_for(cancel, deadline, progress, 0, 0);
        Core::new(&shape, &shared, tiles).h_full()
    };
    // The last iteration's expansions by depth, near the start.
    let mut shallow = [0u32; SHALLOW];
    let (outcome, blank_path) = loop {
        let iteration_started = Instant::now();
        let iteration = stats.iterations + 1;
        let shared = shared_for(cancel, deadline, progress, iteration, bound);
        let before = (stats.expanded, stats.generated);
        // Small iterations are not worth the hand-out: the size this one should have, the
        // last one's grown as the one before grew, decides.
        let wide = parallel
            && (options.parallel_from == 0 || expected_size(&iterations) >= options.parallel_from);
        let answer = if wide {
            parallel::iterate(&shape, &shared, tiles, bound, &shallow)
        } else {
            let mut core = Core::new(&shape, &shared, tiles);
            core.bound = bound;
            let found = core.search(0, u8::MAX);
            let path = (found && core.stopped.is_none()).then(|| std::mem::take(&mut core.path));
            core.into_answer(path)
        };
        shallow = answer.shallow;
        stats.iterations = iteration;
        stats.threshold = Cost::from(bound);
        stats.expanded += answer.stats.expanded;
        stats.generated += answer.stats.generated;
        stats.max_depth = stats.max_depth.max(answer.stats.max_depth);
        stats.max_frontier = stats.max_frontier.max(answer.stats.max_frontier);
        iterations.push(Iteration {
            bound: f64::from(bound),
            expanded: stats.expanded - before.0,
            generated: stats.generated - before.1,
            ms: iteration_started.elapsed().as_secs_f64() * 1000.0,
            predicted: None,
            kre: None,
        });
        progress(&Progress {
            iteration,
            bound,
            expanded: stats.expanded,
            generated: stats.generated,
        });
        if let Some(path) = answer.path {
            break (Outcome::Found, path);
        }
        if let Some(why) = answer.stopped {
            break (why, Vec::new());
        }
        if answer.next_bound == u32::MAX {
            break (Outcome::NotFound, Vec::new());
        }
        bound = answer.next_bound;
    };
    stats.max_closed = stats.max_depth + 1;
    // The tables, and each worker's board and path.
    stats.peak_memory_bytes = db.bytes()
        + (std::mem::size_of::<Core<'_, '_>>() + 256) as u64
            * if parallel {
                rayon::current_num_threads() as u64
            } else {
                1
            };
    stats.elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    TileSolution {
        outcome,
        blank_path,
        stats,
        iterations,
    }
}

fn shared_for<'a>(
    cancel: &'a CancelToken,
    deadline: Option<Instant>,
    progress: &'a (dyn Fn(&Progress) + Sync),
    iteration: u64,
    bound: u32,
) -> Shared<'a> {
    Shared {
        cancel,
        deadline,
        done: AtomicBool::new(false),
        expanded: AtomicU64::new(0),
        generated: AtomicU64::new(0),
        iteration,
        stamp: transpositions::new_stamp(),
        bound,
        progress,
    }
}
