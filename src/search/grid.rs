//! Breadth-first search and A* for problems that are a grid of unit-cost squares (see
//! [`Problem::unit_grid`]), run when no one watches the states go by: one flat table indexed by
//! square in place of the search tree and its nodes (a byte a square for BFS: the move that
//! reached it; four bytes for A*: that move, the closed flag and `g`, kept in tiles of 32 x 32
//! squares), allocated zeroed so the pages of squares never reached are never touched, A*'s
//! open list a [`BucketQueue`], and the moves computed from the grid instead of successor
//! lists. It expands the same states in the same order as the general
//! [`super::bfs`] and [`super::best_first`] searches (the same goal tests, the same open-list
//! entries pushed in the same order), so every statistic is the same; only the time differs.

use super::best_first::OPEN_LIST;
use super::bucket_queue::BucketQueue;
use super::grid_block::{GridBlock, NO_SQUARE, pack_square};
use super::layers::PerF;
use super::limits::Budget;
use super::{Algorithm, Cost, Observer, Outcome, Problem, SearchResult, Stats, TieBreak, UnitGrid};

const TABLE: &str = "the grid search's table (a square's move, closed flag and cost)";

/// How a square was reached, in the low bits of its table entry: 0 unreached, `1 + d` by move
/// `d` of [`UnitGrid::deltas`] from the square that move started on, [`ROOT`] a start.
const LINK_BITS: u32 = 0b111;
const ROOT: u32 = 5;
/// A* only: the square is closed (expanded, not reopened since).
const CLOSED: u32 = 0b1000;
/// A* only: `g` is stored above the link and the closed flag.
const G_SHIFT: u32 = 4;

/// Whether these searches take `grid`: `g` (less than the number of squares) must fit above
/// the flags of a 32-bit entry and be exact as the `f32` that [`super::best_first`]'s tie
/// keys hold (2^24 squares at most), and a square's row and column must fit in 16 bits each
/// (A*'s open list holds them packed).
pub(super) fn fits(grid: &UnitGrid<'_>) -> bool {
    grid.rows <= 1 << 16
        && grid.cols <= 1 << 16
        && grid.rows * grid.cols <= 1 << 24
        && grid.cost.len() == grid.rows * grid.cols
        && grid.goal < grid.cost.len()
}

/// A*'s table: an entry a square, in tiles of 32 x 32 squares (4 KB of 4-byte entries, a
/// page) allocated zeroed when first written, so a search that reaches few squares of a big
/// grid neither clears nor touches the rest (clearing a whole 1024 x 1024 table, and the
/// cache misses of a row-major one whose rows are a page each, were most of A*'s time there).
struct TileTable {
    /// Row-major tiles; `None` until an entry of the tile is written.
    tiles: Vec<Option<Box<[u32]>>>,
    /// Tiles a row of tiles.
    across: usize,
}

impl TileTable {
    const SHIFT: usize = 5;
    const MASK: usize = (1 << Self::SHIFT) - 1;

    /// The table for `grid`, every entry 0; the memory of all its tiles is charged to
    /// `budget` at once (the most it can come to).
    fn new(grid: &UnitGrid<'_>, budget: &mut Budget) -> Result<Self, Outcome> {
        let across = grid.cols.div_ceil(1 << Self::SHIFT);
        let count = grid.rows.div_ceil(1 << Self::SHIFT) * across;
        budget.charge((count as u64) << (2 * Self::SHIFT + 2), TABLE)?;
        Ok(Self {
            tiles: vec![None; count],
            across,
        })
    }

    /// The tile and the place in it of the square at row `r`, column `c`.
    #[inline]
    fn place(&self, r: usize, c: usize) -> (usize, usize) {
        (
            (r >> Self::SHIFT) * self.across + (c >> Self::SHIFT),
            (r & Self::MASK) << Self::SHIFT | c & Self::MASK,
        )
    }

    /// The entry of the square at row `r`, column `c`.
    #[inline]
    fn get(&self, r: usize, c: usize) -> u32 {
        let (tile, at) = self.place(r, c);
        match self.tiles.get(tile) {
            Some(Some(tile)) => tile.get(at).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// The entry of the square at row `r`, column `c`, to write (`None` off the grid).
    #[inline]
    fn get_mut(&mut self, r: usize, c: usize) -> Option<&mut u32> {
        let (tile, at) = self.place(r, c);
        self.tiles
            .get_mut(tile)?
            .get_or_insert_with(|| vec![0; 1 << (2 * Self::SHIFT)].into_boxed_slice())
            .get_mut(at)
    }
}

/// BFS's table: a byte a square, zeroed (unreached) at the start. Watched (`written`), its
/// zeros are written at once: a page of a zeroed allocation is first the system's shared
/// page of zeros when read, and the write that follows must then flush it from every
/// processor's address cache, interrupting the window's thread each time (a tenth of the
/// app's full-speed search once); unwatched, pages never reached are never touched.
fn byte_table(n: usize, written: bool, budget: &mut Budget) -> Result<Vec<u8>, Outcome> {
    budget.charge(n as u64, TABLE)?;
    if !written {
        return Ok(vec![0; n]);
    }
    let mut table = Vec::new();
    table
        .try_reserve_exact(n)
        .map_err(|_| Outcome::MemoryLimit)?;
    table.resize(n, 0);
    Ok(table)
}

/// A square a move reaches: its index, the move's index in [`UnitGrid::deltas`], its row
/// and its column.
type Step = (usize, u8, usize, usize);

/// The squares a move leaves the square at row `r`, column `c` for (free squares only), in
/// the problem's order.
#[inline(always)]
fn moves(grid: &UnitGrid<'_>, r: usize, c: usize, out: &mut [Step; 4]) -> usize {
    let mut count = 0;
    if r > 0 && c > 0 && r + 1 < grid.rows && c + 1 < grid.cols {
        // Inside the border every step stays on the grid: no bounds to test, and whether
        // the square is free is counted rather than branched on (obstacles are random).
        for (d, &(dr, dc)) in grid.deltas.iter().enumerate() {
            let (nr, nc) = (r.wrapping_add_signed(dr), c.wrapping_add_signed(dc));
            let next = nr * grid.cols + nc;
            let free = grid.cost.get(next).is_some_and(|&x| x != 0);
            if let Some(slot) = out.get_mut(count) {
                *slot = (next, d as u8, nr, nc);
            }
            count += usize::from(free);
        }
        return count;
    }
    let (r, c) = (r as isize, c as isize);
    for (d, &(dr, dc)) in grid.deltas.iter().enumerate() {
        let (nr, nc) = (r + dr, c + dc);
        if nr < 0 || nc < 0 || nr as usize >= grid.rows || nc as usize >= grid.cols {
            continue;
        }
        let (nr, nc) = (nr as usize, nc as usize);
        let next = nr * grid.cols + nc;
        if grid.cost[next] != 0 {
            out[count] = (next, d as u8, nr, nc);
            count += 1;
        }
    }
    count
}

/// The result of a run: the path to `goal`, followed back through the links `link(square)`
/// (see [`LINK_BITS`]), its states and moves rebuilt through the problem; or none.
fn finish<P: Problem + ?Sized>(
    problem: &P,
    grid: &UnitGrid<'_>,
    link: impl Fn(usize) -> u32,
    outcome: Outcome,
    goal: Option<usize>,
    stats: Stats,
) -> SearchResult<P::State, P::Move> {
    let mut states = Vec::new();
    let mut moves = Vec::new();
    let mut cost = 0.0;
    if let (Outcome::Found, Some(goal)) = (outcome, goal) {
        let mut squares = vec![goal];
        let mut at = goal;
        while let Some(parent) = parent_square(grid, link(at), at) {
            at = parent;
            squares.push(at);
        }
        squares.reverse();
        states = squares
            .iter()
            .filter_map(|&s| problem.grid_state(s))
            .collect();
        let mut successors = Vec::new();
        for pair in states.windows(2) {
            successors.clear();
            problem.successors(&pair[0], &mut successors);
            if let Some(s) = successors.iter().find(|s| s.state == pair[1]) {
                moves.push(s.mv.clone());
                cost += s.cost;
            }
        }
    }
    SearchResult {
        outcome,
        states,
        moves,
        cost,
        optimal: false,
        algorithm: Algorithm::Bfs,
        stats,
        message: None,
        tables: Default::default(),
    }
}

/// Breadth-first search on the grid, goals detected when generated (as [`super::bfs`]).
/// Watched, it tells `observer` the same events with the same figures as [`super::bfs`]
/// (each state made from its square by [`Problem::grid_state`]): the expansion with the
/// frontier less the state taken off, its score (`g` = depth, the parent), each state put on
/// the frontier (with its `g`, if scores are wanted), the goal too before the search ends
/// at it; checked event by event against it in the tests.
pub(super) fn bfs<P: Problem + ?Sized>(
    problem: &P,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let silent = observer.is_silent();
    let stats = Stats::default();
    let links = match byte_table(grid.rows * grid.cols, !silent, budget) {
        Ok(t) => t,
        Err(outcome) => return finish(problem, grid, |_| 0, outcome, None, stats),
    };
    let mut run = BfsRun {
        silent,
        links,
        queue: Vec::new(),
        reached: 0,
        block: GridBlock::new(grid.rows, grid.cols),
        stats,
    };
    let started = bfs_starts(problem, grid, starts, observer, budget, &mut run);
    let ((outcome, goal), run) = match started {
        Ok(()) => bfs_layers(problem, grid, observer, budget, run),
        Err(end) => (end, run),
    };
    // Expansions not yet told are told before the search returns, whatever it returns.
    if !run.block.is_empty() {
        observer.grid_block(&run.block);
    }
    let mut stats = run.stats;
    stats.max_closed = stats.max_closed.max(run.reached);
    let links = run.links;
    finish(problem, grid, |s| u32::from(links[s]), outcome, goal, stats)
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
fn bfs_starts<P: Problem + ?Sized>(
    problem: &P,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    observer: &mut dyn Observer<P::State>,
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
            stats.frontier = queue.len() as u64 + 1;
            return Err((Outcome::Found, Some(s)));
        }
        if !*silent && let Some(state) = problem.grid_state(s) {
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
fn bfs_layers<P: Problem + ?Sized>(
    problem: &P,
    grid: &UnitGrid<'_>,
    observer: &mut dyn Observer<P::State>,
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
            // at: a stop seen while it waits ends the run with the expansions told.
            if let Err(outcome) = budget.paced(observer, silent || block_len > 0) {
                stats.frontier = (queue.len() - head) as u64;
                break 'search (outcome, None);
            }
            let at = queue[head] as usize;
            let (r, c) = (at / grid.cols, at % grid.cols);
            head += 1;
            stats.expanded += 1;
            stats.max_depth = stats.max_depth.max(depth);
            stats.max_closed = reached;
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
                    problem, grid, &links, at, depth, &mut stats, head, &queue, observer,
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
                } else if !silent && let Some(state) = problem.grid_state(child) {
                    observer.generated(&state);
                    if observer.wants_scores() {
                        observer.scored_generated((depth + 1) as Cost, None);
                    }
                }
                if child == grid.goal {
                    // The goal counts with the frontier, as in the general search.
                    stats.frontier = (queue.len() - head) as u64 + 1;
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
/// goal (the loop then ends, the goal counted with the frontier as in the general search).
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
            stats.frontier = (base + k - head) as u64 + 1;
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
/// with the frontier less the state taken off (`queue[head..]`), as [`super::bfs`] does.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn watch_expansion<P: Problem + ?Sized>(
    problem: &P,
    grid: &UnitGrid<'_>,
    links: &[u8],
    at: usize,
    depth: u64,
    stats: &mut Stats,
    head: usize,
    queue: &[u32],
    observer: &mut dyn Observer<P::State>,
) {
    let Some(state) = problem.grid_state(at) else {
        return;
    };
    stats.frontier = (queue.len() - head) as u64;
    observer.expanded(&state, depth, stats);
    if observer.wants_scores() {
        let parent = parent_square(grid, u32::from(links[at]), at)
            .and_then(|square| problem.grid_state(square));
        observer.scored(&state, depth as Cost, None, parent.as_ref());
    }
}

/// The square that square `at` was reached from by the move its table entry `link` names
/// (see [`LINK_BITS`]); `None` for a start (or no move).
fn parent_square(grid: &UnitGrid<'_>, link: u32, at: usize) -> Option<usize> {
    parent_cell(grid, link, at / grid.cols, at % grid.cols).map(|(r, c)| r * grid.cols + c)
}

/// The row and column of the square that the square at row `r`, column `c` was reached from
/// by the move its table entry `link` names; `None` for a start (or no move).
#[inline]
fn parent_cell(grid: &UnitGrid<'_>, link: u32, r: usize, c: usize) -> Option<(usize, usize)> {
    let &(dr, dc) = grid
        .deltas
        .get(((link & LINK_BITS) as usize).wrapping_sub(1))?;
    Some((r.checked_add_signed(-dr)?, c.checked_add_signed(-dc)?))
}

/// A* on the grid with the Manhattan distance to the goal, goals detected when expanded (as
/// [`super::best_first`], whose order of open-list entries its [`BucketQueue`] reproduces).
pub(super) fn astar<P: Problem + ?Sized>(
    problem: &P,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let mut per_f = PerF::default();
    let mut result = astar_counting(problem, grid, starts, budget, &mut per_f);
    result.tables.per_f = per_f.finish();
    result
}

fn astar_counting<P: Problem + ?Sized>(
    problem: &P,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    budget: &mut Budget,
    per_f: &mut PerF,
) -> SearchResult<P::State, P::Move> {
    let mut stats = Stats::default();
    let mut t = match TileTable::new(grid, budget) {
        Ok(t) => t,
        Err(outcome) => return finish(problem, grid, |_| 0, outcome, None, stats),
    };
    let mut reached = 0u64;
    let done = |t: &TileTable, outcome, goal, mut stats: Stats, reached: u64| {
        stats.max_closed = stats.max_closed.max(reached);
        let link = |s: usize| t.get(s / grid.cols, s % grid.cols) & LINK_BITS;
        finish(problem, grid, link, outcome, goal, stats)
    };
    let (goal_r, goal_c) = (grid.goal / grid.cols, grid.goal % grid.cols);
    let h = |r: usize, c: usize| (r.abs_diff(goal_r) + c.abs_diff(goal_c)) as u32;
    let mut open = BucketQueue::new(budget.tie_break());
    if let Err(outcome) = budget.reserve(&mut open, starts.len(), OPEN_LIST) {
        return done(&t, outcome, None, stats, reached);
    }
    for &s in starts {
        let (r, c) = (s / grid.cols, s % grid.cols);
        match t.get_mut(r, c) {
            Some(entry) if *entry == 0 => *entry = ROOT,
            _ => continue,
        }
        reached += 1;
        open.push(h(r, c), 0, (r << 16 | c) as u32);
    }
    // Squares closed now (expanded, not reopened since): the frontier is every other square
    // reached, whatever stale entries of the open list stand for them too.
    let mut closed = 0u64;
    stats.frontier = reached;
    stats.max_frontier = reached;
    // A successor with its parent's `f` is pushed to the front bucket: under the larger-`g`
    // policy the first of them is the very next entry out (its `h` is below the bucket's
    // smallest, and its class first in, first out), under last in, first out the last of
    // them. That one is held back instead of going through the queue: `held`, counted in the
    // frontier.
    let policy = budget.tie_break();
    let mut held: Option<u32> = None;
    let mut next = [(0, 0, 0, 0); 4];
    while let Some(packed) = held.take().or_else(|| open.pop()) {
        let (r, c) = ((packed >> 16) as usize, (packed & 0xffff) as usize);
        let at = r * grid.cols + c;
        // Every square on the queue was reached (its tile exists): reading needs no write.
        let entry = t.get(r, c);
        if entry & CLOSED != 0 {
            continue;
        }
        if let Err(outcome) = budget.check() {
            return done(&t, outcome, None, stats, reached);
        }
        if at == grid.goal {
            return done(&t, Outcome::Found, Some(at), stats, reached);
        }
        if let Some(entry) = t.get_mut(r, c) {
            *entry |= CLOSED;
        }
        closed += 1;
        let g = entry >> G_SHIFT;
        let f = g + h(r, c);
        stats.expanded += 1;
        per_f.count(Cost::from(f));
        stats.max_depth = stats.max_depth.max(u64::from(g));
        stats.max_closed = reached;
        let count = moves(grid, r, c, &mut next);
        if let Err(outcome) = budget.reserve(&mut open, count, OPEN_LIST) {
            return done(&t, outcome, None, stats, reached);
        }
        for &(_, d, r, c) in &next[..count] {
            stats.generated += 1;
            let g_new = g + 1;
            let Some(entry) = t.get_mut(r, c) else {
                continue;
            };
            if *entry == 0 {
                reached += 1;
            } else if g_new >= *entry >> G_SHIFT {
                continue;
            } else if *entry & CLOSED != 0 {
                closed -= 1;
            }
            // New, or a cheaper path to a reached square (reopened if closed, as A* does).
            *entry = g_new << G_SHIFT | (u32::from(d) + 1);
            let (f_new, child) = (g_new + h(r, c), (r << 16 | c) as u32);
            match policy {
                TieBreak::HighG if f_new == f && held.is_none() => held = Some(child),
                TieBreak::Lifo if f_new == f => {
                    if let Some(earlier) = held.replace(child) {
                        open.push(f, g_new, earlier);
                    }
                }
                _ => open.push(f_new, g_new, child),
            }
        }
        stats.frontier = reached - closed;
        stats.max_frontier = stats.max_frontier.max(stats.frontier);
    }
    done(&t, Outcome::NotFound, None, stats, reached)
}
