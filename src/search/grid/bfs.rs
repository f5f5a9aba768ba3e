//! Breadth-first search on a unit grid's flat tables (see [`super`]): a byte a square, the
//! move that reached it; the queue of squares layer by layer, watched or not.

use super::*;

/// Breadth-first search on the grid, goals detected when generated (as
/// [`crate::search::bfs`]). Watched, it tells `observer` the same events with the same figures
/// as [`crate::search::bfs`] (each state made from its square by [`DenseIndex::dense_state`]): the expansion with the
/// frontier less the state taken off, its score (`g` = depth, the parent), each state put on
/// the frontier (with its `g`, if scores are wanted), the goal too before the search ends
/// at it; checked event by event against it in the tests.
pub(in crate::search) fn bfs<P: Problem + ?Sized>(
    problem: &P,
    dense: &dyn DenseIndex<P::State>,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let silent = observer.is_silent();
    let stats = Stats::default();
    let links = match byte_table(grid.rows * grid.cols, !silent, budget) {
        Ok(t) => t,
        Err(outcome) => return finish(problem, dense, grid, |_| 0, outcome, None, stats),
    };
    let mut run = BfsRun {
        silent,
        links,
        queue: Vec::new(),
        reached: 0,
        block: GridBlock::new(grid.rows, grid.cols),
        stats,
    };
    let started = bfs_starts(dense, grid, starts, observer, budget, &mut run);
    let ((outcome, goal), run) = match started {
        Ok(()) => bfs_layers(dense, grid, observer, budget, run),
        Err(end) => (end, run),
    };
    // Expansions not yet told are told before the search returns, whatever it returns.
    if !run.block.is_empty() {
        observer.grid_block(&run.block);
    }
    let mut stats = run.stats;
    stats.max_closed = stats.max_closed.max(run.reached);
    let links = run.links;
    finish(
        problem,
        dense,
        grid,
        |s| u32::from(links[s]),
        outcome,
        goal,
        stats,
    )
}

/// How a breadth-first search on the grid ended: the outcome and, when found, the goal square.
type BfsEnd = (Outcome, Option<usize>);

/// What [`bfs`] keeps while it runs, and hands to [`finish`] however it ends.
struct BfsRun {
    /// Whether no one watches the states go by ([`Observer::is_silent`]).
    silent: bool,
    /// The move that reached each square (see [`LINK_BITS`]); 0 unreached.
    links: Vec<u8>,
    /// The squares put on the frontier, in order: one layer (depth) after another.
    queue: Vec<u32>,
    /// Squares reached.
    reached: u64,
    /// Expansions not yet told, for an observer that takes them a block at a time (see
    /// `Observer::grid_block_len`).
    block: GridBlock,
    stats: Stats,
}

/// Puts the start squares on [`bfs`]'s frontier (each once), telling the observer; `Err`
/// when a start is the goal or the queue is over the budget.
fn bfs_starts<S>(
    dense: &dyn DenseIndex<S>,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    observer: &mut dyn Observer<S>,
    budget: &mut Budget,
    run: &mut BfsRun,
) -> Result<(), BfsEnd> {
    let BfsRun {
        silent,
        links,
        queue,
        reached,
        stats,
        ..
    } = run;
    budget
        .reserve(queue, starts.len(), OPEN_LIST)
        .map_err(|outcome| (outcome, None))?;
    for &s in starts {
        if links[s] != 0 {
            continue;
        }
        links[s] = ROOT as u8;
        *reached += 1;
        if s == grid.goal {
            // Returned, never queued, as in the general search.
            stats.frontier = queue.len() as u64;
            return Err((Outcome::Found, Some(s)));
        }
        if !*silent && let Some(state) = dense.dense_state(s) {
            observer.generated(&state);
            if observer.wants_scores() {
                observer.scored_generated(0.0, None);
            }
        }
        queue.push(s as u32);
    }
    stats.max_frontier = queue.len() as u64;
    Ok(())
}

/// [`bfs`]'s loop: expands the squares of the queue layer by layer from its starts until the
/// goal is generated, the queue is empty or the budget stops it; gives back `run` with
/// how it ended. (`run` is taken and given back whole so that its figures are the loop's own
/// locals, as fast as before the split.)
#[inline(always)]
fn bfs_layers<S>(
    dense: &dyn DenseIndex<S>,
    grid: &UnitGrid<'_>,
    observer: &mut dyn Observer<S>,
    budget: &mut Budget,
    run: BfsRun,
) -> (BfsEnd, BfsRun) {
    let BfsRun {
        silent,
        mut links,
        mut queue,
        mut reached,
        mut block,
        mut stats,
    } = run;
    let mut block_len = 0;
    // The queue holds one layer (depth) after another: `layer_end` is where the layer of
    // squares at `depth` ends.
    let (mut head, mut depth, mut layer_end) = (0, 0u64, queue.len());
    let mut next = [(0, 0, 0, 0); 4];
    let end = 'search: {
        while head < queue.len() {
            if head == layer_end {
                depth += 1;
                layer_end = queue.len();
            }
            if !silent && block.is_empty() {
                block_len = observer.grid_block_len();
                if block_len > 0 {
                    let mut before = stats.clone();
                    before.frontier = (queue.len() - head) as u64;
                    before.max_closed = reached;
                    block.restart(before);
                }
            }
            // Told one by one, the observer's pace (a pause) comes before the stop is looked
            // at: a stop seen while it waits ends the run with the expansions told. Its
            // figures are the expansions told, whole: the square taken next still waits.
            stats.frontier = (queue.len() - head) as u64;
            stats.max_closed = reached;
            if let Err(outcome) = budget.paced(observer, silent || block_len > 0, &stats) {
                break 'search (outcome, None);
            }
            let at = queue[head] as usize;
            let (r, c) = (at / grid.cols, at % grid.cols);
            head += 1;
            stats.expanded += 1;
            stats.max_depth = stats.max_depth.max(depth);
            let blocked = block_len > 0;
            if blocked {
                block.expanded.push(pack_square(r, c));
                block.depth.push(u32::try_from(depth).unwrap_or(u32::MAX));
                let parent = parent_cell(grid, u32::from(links[at]), r, c);
                block
                    .parent
                    .push(parent.map_or(NO_SQUARE, |(r, c)| pack_square(r, c)));
            } else if !silent {
                watch_expansion(
                    dense, grid, &links, at, depth, &mut stats, head, &queue, observer,
                );
            }
            let count = moves(grid, r, c, &mut next);
            if blocked {
                block.successors.push(count as u8);
            }
            // Room for four whatever the count: the unwatched loop below copies four.
            if let Err(outcome) = budget.reserve(&mut queue, 4, OPEN_LIST) {
                if blocked {
                    block.generated_end.push(block.generated.len() as u32);
                }
                break 'search (outcome, None);
            }
            if silent {
                if let Some(goal) = queue_unwatched(
                    grid,
                    &mut links,
                    &mut queue,
                    &next[..count],
                    head,
                    &mut stats,
                    &mut reached,
                ) {
                    break 'search (Outcome::Found, Some(goal));
                }
                continue;
            }
            for &(child, d, child_r, child_c) in &next[..count] {
                stats.generated += 1;
                if links[child] != 0 {
                    continue;
                }
                links[child] = d + 1;
                reached += 1;
                // The goal too is told as put on the frontier, as in the general search.
                if blocked {
                    block.generated.push(pack_square(child_r, child_c));
                } else if !silent && let Some(state) = dense.dense_state(child) {
                    observer.generated(&state);
                    if observer.wants_scores() {
                        observer.scored_generated((depth + 1) as Cost, None);
                    }
                }
                if child == grid.goal {
                    // The goal is returned, never queued, as in the general search.
                    stats.frontier = (queue.len() - head) as u64;
                    if blocked {
                        block.generated_end.push(block.generated.len() as u32);
                    }
                    break 'search (Outcome::Found, Some(child));
                }
                queue.push(child as u32);
            }
            stats.frontier = (queue.len() - head) as u64;
            stats.max_frontier = stats.max_frontier.max(stats.frontier);
            if blocked {
                block.generated_end.push(block.generated.len() as u32);
                if block.len() >= block_len {
                    observer.grid_block(&block);
                    block.restart(Stats::default());
                    block_len = 0;
                }
            }
        }
        (Outcome::NotFound, None)
    };
    let run = BfsRun {
        silent,
        links,
        queue,
        reached,
        block,
        stats,
    };
    (end, run)
}

/// Puts the successors `next` of the square just expanded on [`bfs`]'s queue, unwatched:
/// with no branch on whether each was reached before (on a random grid that branch is a coin
/// toss, and its mispredictions were the loop's largest cost). The same squares in the same
/// order, with the same figures, as the watched loop. `Some(goal)` when one of them is the
/// goal (the loop then ends, the goal returned and never queued, as in the general search).
/// The queue has room for four more.
#[inline(always)]
fn queue_unwatched(
    grid: &UnitGrid<'_>,
    links: &mut [u8],
    queue: &mut Vec<u32>,
    next: &[Step],
    head: usize,
    stats: &mut Stats,
    reached: &mut u64,
) -> Option<usize> {
    let base = queue.len();
    let mut fresh_children = [0u32; 4];
    let mut k = 0;
    for (i, &(child, d, _, _)) in next.iter().enumerate() {
        let old = links[child];
        let fresh = old == 0;
        links[child] = if fresh { d + 1 } else { old };
        if fresh & (child == grid.goal) {
            stats.generated += i as u64 + 1;
            *reached += k as u64 + 1;
            stats.frontier = (base + k - head) as u64;
            return Some(child);
        }
        fresh_children[k & 3] = child as u32;
        k += usize::from(fresh);
    }
    stats.generated += next.len() as u64;
    *reached += k as u64;
    queue.extend_from_slice(&fresh_children);
    queue.truncate(base + k);
    stats.frontier = (queue.len() - head) as u64;
    stats.max_frontier = stats.max_frontier.max(stats.frontier);
    None
}

/// Tells `observer` of the expansion of square `at` at `depth` (and its score, if wanted),
/// with the frontier less the state taken off (`queue[head..]`), as [`crate::search::bfs`] does.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn watch_expansion<S>(
    dense: &dyn DenseIndex<S>,
    grid: &UnitGrid<'_>,
    links: &[u8],
    at: usize,
    depth: u64,
    stats: &mut Stats,
    head: usize,
    queue: &[u32],
    observer: &mut dyn Observer<S>,
) {
    let Some(state) = dense.dense_state(at) else {
        return;
    };
    stats.frontier = (queue.len() - head) as u64;
    observer.expanded(&state, depth, stats);
    if observer.wants_scores() {
        let parent = parent_square(grid, u32::from(links[at]), at)
            .and_then(|square| dense.dense_state(square));
        observer.scored(&state, depth as Cost, None, parent.as_ref());
    }
}
