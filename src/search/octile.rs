//! A* and Jump Point Search on a uniform-cost 8-connected grid (straight moves cost 1,
//! diagonal ones `sqrt(2)`, the octile distance as the heuristic): the Moving AI benchmarks'
//! rules, with a search context reused across searches.
//!
//! [`OctileMap`] is the map's passability as bit rows, built once per map (with a border of
//! blocked squares, so no move needs a bounds check). [`OctileSearch`] is the context: a slot a
//! square (`g`, parent, and a generation stamp that says whether the slot belongs to the
//! current search, so nothing is cleared between searches) and the open list, both kept from
//! one search to the next. A search whose start is its goal costs no more than a few stores.
//!
//! The searches are the general ones ([`super::astar`], [`super::jps`] on the puzzle's
//! scanning) with the same open-list keys ([`super::order`]'s entries), successor
//! order and reopening, but costs kept as whole straight and diagonal steps ([`Steps`]): ties
//! among equal `f` are then exact, and the tie-breaking policy (by default the larger `g`)
//! decides them, as in Warthog, instead of the rounding of sums. The costs found are the
//! least ones all the same; `tests/it/octile.rs` holds them to a plain Dijkstra and to the
//! general search. JPS+ also stops at the first state it expands from which the goal is in
//! sight ([`jps_plus::goal_in_sight`]), as Warthog's does.

use super::best_first::{CLOSED_FLAGS, OPEN_LIST};
use super::limits::Budget;
use super::order::TieKeys;
use super::{CancelToken, Cost, Outcome, Stats};

mod heap;
mod jps_plus;
mod jump;
mod steps;

use heap::{NO_DIRECTION, Ranked, heap_pop, heap_push, pack, unpack};
use steps::{Steps, octile};

pub use jps_plus::JumpDistances;
pub use jump::JumpGoals;

/// The searches of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OctileAlgorithm {
    /// A* with the octile distance.
    AStar,
    /// Jump Point Search (no corner cutting), A* over jump points.
    Jps,
    /// JPS+: Jump Point Search reading its jumps from the map's [`JumpDistances`] (see
    /// [`OctileMap::with_jump_distances`]) instead of scanning.
    JpsPlus,
}

/// A grid's passability as bit rows: square (row, column) is bit `(row + 1) * stride + 64 +
/// column`, 1 when free; the row above and below the grid and the 64 bits on either side of
/// each row are 0 (blocked), so that a scan may read 64 bits on either side of any square.
#[derive(Clone, Debug)]
pub struct OctileMap {
    rows: usize,
    cols: usize,
    /// Bits from one row to the next: a multiple of 64, at least `cols + 128`.
    stride: usize,
    /// Whether a diagonal move may pass one blocked square beside it.
    corner_cutting: bool,
    bits: Vec<u64>,
    /// The same map transposed (square (row, column) at bit `(column + 1) * tstride + 64 +
    /// row`): vertical scans read it as rows.
    tbits: Vec<u64>,
    tstride: usize,
    /// JPS+'s table, when built ([`OctileMap::with_jump_distances`]).
    jumps: Option<JumpDistances>,
}

/// The largest side an [`OctileMap`] takes (Moving AI maps and the app's mazes are smaller).
pub const MAX_OCTILE_SIDE: usize = 1 << 14;

impl OctileMap {
    /// The map of a `rows` x `cols` grid whose square (row, column) is free when
    /// `free(row, column)`. `None` when a side is 0 or larger than [`MAX_OCTILE_SIDE`].
    pub fn new(
        rows: usize,
        cols: usize,
        corner_cutting: bool,
        free: impl Fn(usize, usize) -> bool,
    ) -> Option<Self> {
        if !(1..=MAX_OCTILE_SIDE).contains(&rows) || !(1..=MAX_OCTILE_SIDE).contains(&cols) {
            return None;
        }
        let stride = (cols + 128).div_ceil(64) * 64;
        let tstride = (rows + 128).div_ceil(64) * 64;
        let mut map = Self {
            rows,
            cols,
            stride,
            corner_cutting,
            bits: vec![0; (rows + 2) * stride / 64],
            tbits: vec![0; (cols + 2) * tstride / 64],
            tstride,
            jumps: None,
        };
        for r in 0..rows {
            for c in 0..cols {
                if free(r, c) {
                    let i = map.index(r, c);
                    map.bits[i / 64] |= 1 << (i % 64);
                    let t = map.tindex(r, c);
                    map.tbits[t / 64] |= 1 << (t % 64);
                }
            }
        }
        Some(map)
    }

    /// The map with JPS+'s jump distances computed ([`JumpDistances`]), which
    /// [`OctileAlgorithm::JpsPlus`] reads. A map whose diagonals cut corners gets none: JPS+'s
    /// rules forbid it, as JPS's do.
    pub fn with_jump_distances(mut self) -> Self {
        if !self.corner_cutting && self.jumps.is_none() {
            self.jumps = Some(JumpDistances::new(&self));
        }
        self
    }

    /// JPS+'s jump distances, when computed ([`OctileMap::with_jump_distances`]).
    pub fn jump_distances(&self) -> Option<&JumpDistances> {
        self.jumps.as_ref()
    }

    /// Rows of the grid.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the grid.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether square (row, column) is free (outside the grid: not).
    pub fn is_free(&self, row: usize, col: usize) -> bool {
        row < self.rows && col < self.cols && self.free(self.index(row, col))
    }

    /// The bit of square (row, column).
    #[inline]
    fn index(&self, row: usize, col: usize) -> usize {
        (row + 1) * self.stride + 64 + col
    }

    /// The bit of square (row, column) in the transposed copy.
    #[inline]
    fn tindex(&self, row: usize, col: usize) -> usize {
        (col + 1) * self.tstride + 64 + row
    }

    /// The (row, column) of bit `i` of a square of the grid.
    #[inline]
    fn coords(&self, i: usize) -> (usize, usize) {
        (i / self.stride - 1, i % self.stride - 64)
    }

    /// Whether bit `i` (of the grid or its border) is a free square.
    #[inline]
    fn free(&self, i: usize) -> bool {
        self.bits[i / 64] >> (i % 64) & 1 != 0
    }

    /// Slots a context needs for this map: one a bit.
    fn slots(&self) -> usize {
        (self.rows + 2) * self.stride
    }
}

/// One square's record in a search context.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The least path cost found so far (valid when `stamp` is the search's), as its
    /// straight and diagonal steps ([`Steps`]).
    g: Steps,
    /// The bit of the square it was reached from; [`NO_PARENT`] for the start.
    parent: u32,
    /// `base` when reached in the current search, `base + 1` when also closed; anything
    /// smaller: not reached (a slot of an earlier search).
    stamp: u32,
}

const NO_PARENT: u32 = u32::MAX;

/// A successor: its bit, the cost of the move (or line) to it, its square, and the
/// direction of the move (its index in [`MOVES`]).
type Successor = (usize, Steps, (usize, usize), u8);

/// A search context: the per-square slots and the open list, kept across searches. One
/// context serves any number of searches, on one map or on maps of the same size (a map of
/// another size makes it start over).
#[derive(Default)]
pub struct OctileSearch {
    slots: Vec<Slot>,
    /// The current search's stamp of a reached square (even; `base + 1` is closed).
    base: u32,
    /// The open list: a binary max-heap by rank ([`heap_push`], [`heap_pop`]).
    open: Vec<Ranked>,
    /// The successors of the state being expanded.
    successors: Vec<Successor>,
    /// Whether runs leave [`OctileRun::path`] empty ([`OctileSearch::without_paths`]).
    no_paths: bool,
    /// Where the last line of the path found bends, when JPS+ saw the goal from the last
    /// state it expanded along a diagonal then a straight line
    /// ([`jps_plus::goal_in_sight`]); `None` when that line is straight.
    bend: Option<usize>,
}

/// What one search found.
#[derive(Clone, Debug, PartialEq)]
pub struct OctileRun {
    /// Found, not found, or stopped at a limit or by the cancel token.
    pub outcome: Outcome,
    /// The least cost from the start to the goal when found, else 0.
    pub cost: Cost,
    /// The squares of the path, (row, column), start to goal (jump points for JPS) when found
    /// (and the context keeps paths: see [`OctileSearch::without_paths`]).
    pub path: Vec<(usize, usize)>,
    /// States expanded and generated, as the general search counts them.
    pub stats: Stats,
    /// What stopped a search at a limit, as the general search says it.
    pub message: Option<String>,
}

impl OctileSearch {
    /// An empty context; its slots are allocated by the first search.
    pub fn new() -> Self {
        Self::default()
    }

    /// The context with runs that give the cost and no path (as `scenario` wants them):
    /// no list of squares is made per search.
    pub fn without_paths(mut self) -> Self {
        self.no_paths = true;
        self
    }

    /// Searches `map` from `start` to `goal` (each (row, column), both free squares) with
    /// `algorithm` under the limits of `cancel` (its memory budget, time limit and
    /// tie-breaking). A start or goal that is not a free square has no path (`NotFound`);
    /// JPS+ on a map without jump distances finds nothing either, and says why in the run's
    /// message.
    pub fn run(
        &mut self,
        map: &OctileMap,
        algorithm: OctileAlgorithm,
        start: (usize, usize),
        goal: (usize, usize),
        cancel: &CancelToken,
    ) -> OctileRun {
        let started = std::time::Instant::now();
        let mut budget = Budget::new(cancel);
        let mut stats = Stats::default();
        let outcome = self.search(map, algorithm, start, goal, &mut budget, &mut stats);
        let found = outcome == Outcome::Found;
        let (cost, path) = if found {
            let g = map.index(goal.0, goal.1);
            let path = if self.no_paths {
                Vec::new()
            } else {
                self.path(map, g)
            };
            (self.slots[g].g.cost(), path)
        } else {
            (0.0, Vec::new())
        };
        stats.elapsed_ms = super::duration_ms(started.elapsed());
        stats.peak_memory_bytes = budget.peak();
        stats.tie_break = Some(budget.tie_break());
        let message = if algorithm == OctileAlgorithm::JpsPlus && map.jumps.is_none() {
            Some(
                "needs the map's jump distances (JPS+), which a map whose diagonals cut \
                 corners has none of"
                    .to_owned(),
            )
        } else {
            super::limit_message(outcome, &budget, &stats, cancel)
        };
        OctileRun {
            outcome,
            cost,
            path,
            message,
            stats,
        }
    }

    /// Makes the slots fit `map` and opens a new generation; `Err` at the memory limit.
    fn prepare(&mut self, map: &OctileMap, budget: &mut Budget) -> Result<(), Outcome> {
        let n = map.slots();
        let bytes = (n as u64).saturating_mul(std::mem::size_of::<Slot>() as u64);
        budget.charge(bytes, CLOSED_FLAGS)?;
        if self.slots.len() != n || self.base >= u32::MAX - 2 {
            self.slots.clear();
            if self.slots.try_reserve_exact(n).is_err() {
                budget.exceeded_by = Some(CLOSED_FLAGS);
                return Err(Outcome::MemoryLimit);
            }
            self.slots.resize(n, Slot::default());
            self.base = 0;
        }
        self.base += 2;
        self.open.clear();
        let open_bytes = (self.open.capacity() * std::mem::size_of::<Ranked>()) as u64;
        budget.charge(open_bytes, OPEN_LIST)
    }

    fn search(
        &mut self,
        map: &OctileMap,
        algorithm: OctileAlgorithm,
        start: (usize, usize),
        goal: (usize, usize),
        budget: &mut Budget,
        stats: &mut Stats,
    ) -> Outcome {
        if !map.is_free(start.0, start.1) || !map.is_free(goal.0, goal.1) {
            return Outcome::NotFound;
        }
        let table = match algorithm {
            OctileAlgorithm::JpsPlus => match map.jumps.as_ref() {
                Some(table) => Some(table),
                None => return Outcome::NotFound,
            },
            _ => None,
        };
        if let Err(outcome) = self.prepare(map, budget) {
            return outcome;
        }
        let (base, closed) = (self.base, self.base + 1);
        self.bend = None;
        let goal_bit = map.index(goal.0, goal.1);
        let goal_at = jump::Goal::new(map, goal);
        let mut keys = TieKeys::new(budget.tie_break());
        let s = map.index(start.0, start.1);
        self.slots[s] = Slot {
            g: Steps::default(),
            parent: NO_PARENT,
            stamp: base,
        };
        if let Err(outcome) = budget.reserve(&mut self.open, 1, OPEN_LIST) {
            return outcome;
        }
        let first = keys.entry(octile(start, goal).cost(), 0.0, s as u32);
        heap_push(
            &mut self.open,
            Ranked::new(first, pack(start, NO_DIRECTION)),
        );
        let mut closed_count: u64 = 0;
        stats.frontier = 1;
        stats.max_frontier = 1;
        let mut reached: u64 = 1;
        while let Some(entry) = heap_pop(&mut self.open) {
            let i = entry.id as usize;
            let slot = self.slots[i];
            if slot.stamp == closed {
                continue; // stale entry: the state was expanded from a cheaper one
            }
            if let Err(outcome) = budget.check() {
                stats.max_closed = reached;
                return outcome;
            }
            if i == goal_bit {
                // Taken off and returned, on neither set, as in the general search.
                stats.frontier = reached - closed_count - 1;
                stats.max_closed = reached;
                return Outcome::Found;
            }
            self.slots[i].stamp = closed;
            closed_count += 1;
            stats.expanded += 1;
            self.successors.clear();
            // The entry's square and direction: those of the slot's parent, as an entry
            // that is not stale is the one its slot's last change pushed.
            let (here, arrived) = unpack(entry.at);
            match algorithm {
                OctileAlgorithm::AStar => neighbours(map, i, here, &mut self.successors),
                OctileAlgorithm::Jps => {
                    let arrived = MOVES.get(usize::from(arrived)).copied();
                    jump::successors(map, i, here, arrived, &goal_at, &mut self.successors);
                }
                OctileAlgorithm::JpsPlus => {
                    if let Some(table) = table {
                        if let Some(bend) = jps_plus::goal_in_sight(map, table, i, here, goal) {
                            // The goal at f, the least on the open list: found.
                            stats.generated += 1;
                            if self.slots[goal_bit].stamp < base {
                                reached += 1;
                            }
                            self.slots[goal_bit] = Slot {
                                g: slot.g.plus(octile(here, goal)),
                                parent: i as u32,
                                stamp: closed,
                            };
                            self.bend = (bend != i && bend != goal_bit).then_some(bend);
                            // The goal returned is on neither set; the square expanded is
                            // closed: reached = expanded + frontier + 1.
                            stats.frontier = reached - closed_count - 1;
                            stats.max_closed = reached;
                            return Outcome::Found;
                        }
                        jps_plus::successors(map, table, i, here, arrived, &mut self.successors);
                    }
                }
            }
            if let Err(outcome) = budget.reserve(&mut self.open, self.successors.len(), OPEN_LIST) {
                stats.max_closed = reached;
                return outcome;
            }
            for &(n, step, square, direction) in &self.successors {
                stats.generated += 1;
                let g_new = slot.g.plus(step);
                let g_cost = g_new.cost();
                let child = &mut self.slots[n];
                if child.stamp >= base {
                    // Reached before: kept unless this path is cheaper (A* reopens a
                    // closed state then, as the general search does).
                    if g_cost >= child.g.cost() {
                        continue;
                    }
                    if child.stamp == closed {
                        closed_count -= 1;
                    }
                } else {
                    reached += 1;
                }
                *child = Slot {
                    g: g_new,
                    parent: i as u32,
                    stamp: base,
                };
                let f = g_new.plus(octile(square, goal)).cost();
                let next = keys.entry(f, g_cost, n as u32);
                heap_push(&mut self.open, Ranked::new(next, pack(square, direction)));
            }
            stats.frontier = reached - closed_count;
            stats.max_frontier = stats.max_frontier.max(stats.frontier);
        }
        stats.max_closed = reached;
        Outcome::NotFound
    }

    /// The squares from the start to bit `at` (the goal), by the parents, with the bend of
    /// the last line when JPS+ saw the goal ([`OctileSearch::bend`]).
    fn path(&self, map: &OctileMap, mut at: usize) -> Vec<(usize, usize)> {
        let mut path = vec![map.coords(at)];
        if let Some(bend) = self.bend {
            path.push(map.coords(bend));
        }
        while self.slots[at].parent != NO_PARENT {
            at = self.slots[at].parent as usize;
            path.push(map.coords(at));
        }
        path.reverse();
        path
    }
}

/// The index in [`MOVES`] of direction (dr, dc), by `(dr + 1) * 3 + dc + 1`; (0, 0) has none.
const DIRECTION: [usize; 9] = [6, 2, 5, 3, usize::MAX, 1, 7, 0, 4];

/// The index in [`MOVES`] of direction (dr, dc) (each -1, 0 or 1, not both 0).
#[inline]
fn direction(dr: isize, dc: isize) -> usize {
    DIRECTION[((dr + 1) * 3 + dc + 1) as usize]
}

/// The moves of the 8-connected grid in the maze's order (down, right, up, left, then the
/// diagonals down-right, up-right, up-left, down-left), as (row, column) changes.
const MOVES: [(isize, isize); 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

/// Jump point search's pruning (Harabor and Grastien, 2011; no corner cutting): calls `push`
/// with the directions to scan from a square, as (row, column) changes, in the maze's order.
/// `arrived` is the direction the square was reached in (each part -1, 0 or 1; `None` at a
/// start) and `free(dr, dc)` whether the square that far away is free. From a start, every
/// free move (a diagonal needs both squares beside it free); reached diagonally, the two
/// straight parts and the diagonal; reached straight, the square ahead and, to either side
/// that is forced (free, the square behind it blocked: Harabor and Grastien's rules of 2012
/// without corner cutting, as Warthog's), the side and the diagonal between it and the
/// square ahead. The one rule of both the maze's scanning and [`OctileMap`]'s.
#[inline]
pub fn pruned_directions(
    arrived: Option<(isize, isize)>,
    free: impl Fn(isize, isize) -> bool,
    mut push: impl FnMut((isize, isize)),
) {
    let Some((dr, dc)) = arrived else {
        for (dr, dc) in MOVES {
            if free(dr, dc) && (dr == 0 || dc == 0 || (free(dr, 0) && free(0, dc))) {
                push((dr, dc));
            }
        }
        return;
    };
    if dr != 0 && dc != 0 {
        let (down, across) = (free(dr, 0), free(0, dc));
        if down {
            push((dr, 0));
        }
        if across {
            push((0, dc));
        }
        if down && across && free(dr, dc) {
            push((dr, dc));
        }
    } else {
        // Moving straight along (dr, dc); (sr, sc) is one side, its negation the other.
        let (sr, sc) = (dc, dr);
        let ahead = free(dr, dc);
        for side in [1, -1] {
            let (pr, pc) = (sr * side, sc * side);
            // A side is forced when the square behind it is blocked: else the parent's
            // row reaches it as cheaply.
            if free(pr, pc) && !free(pr - dr, pc - dc) {
                if ahead && free(dr + pr, dc + pc) {
                    push((dr + pr, dc + pc));
                }
                push((pr, pc));
            }
        }
        if ahead {
            push((dr, dc));
        }
    }
}

/// The free neighbours of bit `i`, each with its move's cost, in the maze's order; a diagonal
/// needs both squares beside it free (without corner cutting) or one of them (with).
#[inline]
fn neighbours(map: &OctileMap, i: usize, here: (usize, usize), out: &mut Vec<Successor>) {
    let stride = map.stride as isize;
    for (k, &(dr, dc)) in MOVES.iter().enumerate() {
        let n = (i as isize + dr * stride + dc) as usize;
        if !map.free(n) {
            continue;
        }
        // A free square is in the grid.
        let square = (
            (here.0 as isize + dr) as usize,
            (here.1 as isize + dc) as usize,
        );
        if k < 4 {
            out.push((n, Steps::straight(1), square, k as u8));
            continue;
        }
        let beside = (
            map.free((i as isize + dc) as usize),
            map.free((i as isize + dr * stride) as usize),
        );
        let allowed = if map.corner_cutting {
            beside.0 || beside.1
        } else {
            beside.0 && beside.1
        };
        if allowed {
            out.push((n, Steps::diagonal(1), square, k as u8));
        }
    }
}
