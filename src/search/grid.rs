//! Breadth-first search and A* for problems that are a grid of unit-cost squares (see
//! [`super::ProblemCapabilities::unit_grid`]), run when no one watches the states go by: one
//! flat table indexed by square in place of the search tree and its nodes (a byte a square for BFS: the move that
//! reached it; four bytes for A*: that move, the closed flag and `g`, kept in tiles of 32 x 32
//! squares), allocated zeroed so the pages of squares never reached are never touched, A*'s
//! open list a [`BucketQueue`], and the moves computed from the grid instead of successor
//! lists. It expands the same states in the same order as the general
//! [`super::bfs`] and [`super::best_first`] searches (the same goal tests, the same open-list
//! entries pushed in the same order), so every statistic is the same; only the time differs.

mod bfs;

pub(super) use bfs::bfs;

use super::best_first::OPEN_LIST;
use super::bucket_queue::BucketQueue;
use super::grid_block::{GridBlock, NO_SQUARE, pack_square};
use super::layers::PerF;
use super::limits::Budget;
use super::order::{Arrival, Prefer};
use super::{
    Algorithm, Cost, DenseIndex, Observer, Outcome, Problem, SearchResult, Stats, UnitGrid,
};

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
    dense: &dyn DenseIndex<P::State>,
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
            .filter_map(|&s| dense.dense_state(s))
            .collect();
        let mut successors = Vec::new();
        for pair in states.windows(2) {
            successors.clear();
            // A unit grid's successors are not cut short; a move not found is left out.
            if problem.successors(&pair[0], &mut successors).is_err() {
                successors.clear();
            }
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
        error: None,
        tables: Default::default(),
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
    dense: &dyn DenseIndex<P::State>,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let mut per_f = PerF::default();
    let mut result = astar_counting(problem, dense, grid, starts, budget, &mut per_f);
    result.tables.per_f = per_f.finish();
    result
}

fn astar_counting<P: Problem + ?Sized>(
    problem: &P,
    dense: &dyn DenseIndex<P::State>,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    budget: &mut Budget,
    per_f: &mut PerF,
) -> SearchResult<P::State, P::Move> {
    let mut stats = Stats::default();
    let mut t = match TileTable::new(grid, budget) {
        Ok(t) => t,
        Err(outcome) => return finish(problem, dense, grid, |_| 0, outcome, None, stats),
    };
    let mut reached = 0u64;
    let done = |t: &TileTable, outcome, goal, mut stats: Stats, reached: u64| {
        stats.max_closed = stats.max_closed.max(reached);
        let link = |s: usize| t.get(s / grid.cols, s % grid.cols) & LINK_BITS;
        finish(problem, dense, grid, link, outcome, goal, stats)
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
    // A successor with its parent's `f` is pushed to the front bucket: under the rule of the
    // larger `g`, then first in, first out, the first of them is the very next entry out (its
    // `h` is below the bucket's smallest), under last in, first out alone the last of them;
    // under any other rule none is held. That one is held back instead of going through the queue: `held`, counted in the
    // frontier.
    let rule = super::order::rule(budget.tie_break());
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
            // Taken off and returned, on neither set, as in the general search.
            stats.frontier = reached - closed - 1;
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
            match (rule.g, rule.arrival) {
                (Some(Prefer::Larger), Arrival::Oldest) if f_new == f && held.is_none() => {
                    held = Some(child)
                }
                (None, Arrival::Newest) if f_new == f => {
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
