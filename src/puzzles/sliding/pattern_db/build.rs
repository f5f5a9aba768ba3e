//! Building a group's table: the layered breadth-first search over (placement of the group's
//! tiles, region of the blank) on every core, the packing of its distances into 4-bit excesses
//! over the Manhattan distance, and the plain 0-1 search the tests check it against.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use super::{Bytes, MAX_GROUP, MAX_SQUARES, PdbError, Table, placements, rank, unrank};

/// The squares of a board next to each square, as bit masks.
fn neighbour_masks(rows: usize, cols: usize) -> [u32; MAX_SQUARES] {
    let mut adj = [0u32; MAX_SQUARES];
    for (s, mask) in adj.iter_mut().enumerate().take(rows * cols) {
        let (r, c) = (s / cols, s % cols);
        if r > 0 {
            *mask |= 1 << (s - cols);
        }
        if r + 1 < rows {
            *mask |= 1 << (s + cols);
        }
        if c > 0 {
            *mask |= 1 << (s - 1);
        }
        if c + 1 < cols {
            *mask |= 1 << (s + 1);
        }
    }
    adj
}

/// The squares of `free` connected to `from` (which is in `free`).
#[inline]
fn region(from: u32, free: u32, adj: &[u32; MAX_SQUARES]) -> u32 {
    let mut reached = 1u32 << from;
    let mut edge = reached;
    while edge != 0 {
        let mut grown = 0;
        let mut e = edge;
        while e != 0 {
            grown |= adj[e.trailing_zeros() as usize];
            e &= e - 1;
        }
        edge = grown & free & !reached;
        reached |= edge;
    }
    reached
}

/// The bytes a group's build holds at its peak: the visited bits over (placement, blank
/// square), a byte per placement, and two consecutive layers of 4-byte states (measured on
/// the 8-tile group of the 15-puzzle: 3.4 GB resident at the peak, so two layers hold about
/// 1.1 states a placement; 1.25 is allowed).
pub(super) fn build_bytes(n: usize, k: usize) -> u64 {
    let states = placements(n, k + 1) as u64;
    let entries = placements(n, k) as u64;
    states / 8 + entries + 5 * entries.max(1024)
}

/// Why [`layered_table`] stopped.
pub(super) enum BuildFailure {
    Stopped(PdbError),
    Memory,
}

/// States expanded per parallel task.
const CHUNK: usize = 1 << 14;

/// One group's table, packed ([`layered_table`], then [`pack`]): the group `tiles` for the
/// board `rows x cols` and `goal`, the blank ending on any square with `any_blank`.
///
/// # Errors
/// What `stop` answered, or [`PdbError::MemoryLimit`] with the build's `(needed, budget)`
/// when the memory is not there.
#[allow(clippy::too_many_arguments)]
pub(super) fn packed_table(
    rows: usize,
    cols: usize,
    goal: &[u8],
    tiles: &[u8],
    any_blank: bool,
    stop: &(dyn Fn() -> Option<PdbError> + Sync),
    progress: &mut dyn FnMut(f64),
    (needed, budget): (u64, u64),
) -> Result<Table, PdbError> {
    let memory = || PdbError::MemoryLimit { needed, budget };
    let dist =
        layered_table(rows, cols, goal, tiles, any_blank, stop, progress).map_err(|e| match e {
            BuildFailure::Stopped(e) => e,
            BuildFailure::Memory => memory(),
        })?;
    pack(rows, cols, goal, tiles, &dist).ok_or_else(memory)
}

/// One table to build with [`packed_table`]: its goal, its tiles (in the table's order), and
/// whether the blank may end on any square.
pub(super) struct TablePlan {
    pub(super) goal: Vec<u8>,
    pub(super) tiles: Vec<u8>,
    pub(super) any_blank: bool,
}

/// The tables of `plans`, built one after another by [`packed_table`] for the board
/// `rows x cols`; `progress` gets the fraction of all their entries done.
///
/// # Errors
/// As [`packed_table`]: nothing is kept of the tables built before the error.
pub(super) fn packed_tables(
    rows: usize,
    cols: usize,
    plans: &[TablePlan],
    stop: &(dyn Fn() -> Option<PdbError> + Sync),
    progress: &mut dyn FnMut(f64),
    limits: (u64, u64),
) -> Result<Vec<Table>, PdbError> {
    let n = rows * cols;
    let total: usize = plans.iter().map(|p| placements(n, p.tiles.len())).sum();
    let mut done = 0;
    let mut built = Vec::with_capacity(plans.len());
    for plan in plans {
        let weight = placements(n, plan.tiles.len());
        built.push(packed_table(
            rows,
            cols,
            &plan.goal,
            &plan.tiles,
            plan.any_blank,
            stop,
            &mut |f| progress((done as f64 + f * weight as f64) / total as f64),
            limits,
        )?);
        done += weight;
    }
    progress(1.0);
    Ok(built)
}

/// One group's moves to the goal (its tiles at home, the blank in its goal square's region, or
/// with `any_blank` on any square) for every placement of its tiles (a byte each, by
/// [`rank`]), by the layered breadth-first search over (placement, blank region) described
/// in the module documentation. `stop` is asked between tasks whether to give up;
/// `progress` gets an estimate of the fraction done: the states expanded over the states
/// reached plus, for the placements not reached yet, as many states a placement as so far.
pub(super) fn layered_table(
    rows: usize,
    cols: usize,
    goal: &[u8],
    tiles: &[u8],
    any_blank: bool,
    stop: &(dyn Fn() -> Option<PdbError> + Sync),
    progress: &mut dyn FnMut(f64),
) -> Result<Vec<u8>, BuildFailure> {
    let n = rows * cols;
    let k = tiles.len();
    if k == 0 || k > MAX_GROUP || k >= n {
        return Ok(vec![0; placements(n, k)]);
    }
    let adj = neighbour_masks(rows, cols);
    let full: u32 = (1u32 << n) - 1;
    let home = |t: u8| goal.iter().position(|&g| g == t).unwrap_or(0) as u8;
    let states = placements(n, k + 1);
    let entries = placements(n, k);
    let free_count = n - k;
    let visited = filled(states.div_ceil(64), || AtomicU64::new(0))?;
    let dist = filled(entries, || AtomicU8::new(u8::MAX))?;

    let mut start = [0u8; MAX_GROUP];
    for (i, &t) in tiles.iter().enumerate() {
        start[i] = home(t);
    }
    let start_mask = start[..k].iter().fold(0u32, |m, &s| m | 1 << s);
    let state_index = |placement_rank: usize, mask: u32, rep: u32| {
        placement_rank * free_count + (rep - (mask & ((1u32 << rep) - 1)).count_ones()) as usize
    };
    let start_rank = rank(&start[..k], n);
    // The goal: the group's tiles at home, the blank in its goal square's region, or with
    // `any_blank` in any region (one start a region).
    let blank_home = (!any_blank).then(|| home(0));
    let mut firsts = Vec::new();
    for rep in blank_regions(full & !start_mask, blank_home, &adj) {
        let first = state_index(start_rank, start_mask, rep);
        visited[first / 64].fetch_or(1 << (first % 64), Ordering::Relaxed);
        firsts.push(first as u32);
    }
    dist[start_rank].store(0, Ordering::Relaxed);
    let reached = AtomicUsize::new(1);
    let (mut discovered, mut expanded) = (firsts.len(), 0usize);
    let failed = AtomicBool::new(false);
    let mut layer: Vec<Vec<u32>> = vec![firsts];
    let mut depth: u8 = 0;
    while layer.iter().any(|v| !v.is_empty()) {
        if let Some(e) = stop() {
            return Err(BuildFailure::Stopped(e));
        }
        let next_depth = depth.checked_add(1).ok_or(BuildFailure::Memory)?;
        let tasks: Vec<&[u32]> = layer.iter().flat_map(|v| v.chunks(CHUNK)).collect();
        let next: Vec<Vec<u32>> = tasks
            .par_iter()
            .map(|task| {
                let mut out = Vec::new();
                if failed.load(Ordering::Relaxed) {
                    return out;
                }
                if stop().is_some() {
                    failed.store(true, Ordering::Relaxed);
                    return out;
                }
                let mut new_entries = 0usize;
                let mut squares = [0u8; MAX_GROUP + 1];
                for &index in task.iter() {
                    let index = index as usize;
                    let (placement_rank, slot) = (index / free_count, index % free_count);
                    unrank(placement_rank, n, &mut squares[..k]);
                    let mask = squares[..k].iter().fold(0u32, |m, &s| m | 1 << s);
                    let free = full & !mask;
                    // The blank's square is the slot-th free square.
                    let mut f = free;
                    for _ in 0..slot {
                        f &= f - 1;
                    }
                    let blank_region = region(f.trailing_zeros(), free, &adj);
                    for i in 0..k {
                        let from = squares[i];
                        let mut targets = adj[usize::from(from)] & blank_region;
                        while targets != 0 {
                            let to = targets.trailing_zeros() as u8;
                            targets &= targets - 1;
                            squares[i] = to;
                            let moved_mask = mask ^ (1 << from) ^ (1 << to);
                            let moved_free = full & !moved_mask;
                            let rep = region(u32::from(from), moved_free, &adj).trailing_zeros();
                            let moved_rank = rank(&squares[..k], n);
                            let next_index = state_index(moved_rank, moved_mask, rep);
                            let bit = 1u64 << (next_index % 64);
                            let old = visited[next_index / 64].fetch_or(bit, Ordering::Relaxed);
                            if old & bit == 0 {
                                out.push(next_index as u32);
                                if dist[moved_rank]
                                    .compare_exchange(
                                        u8::MAX,
                                        next_depth,
                                        Ordering::Relaxed,
                                        Ordering::Relaxed,
                                    )
                                    .is_ok()
                                {
                                    new_entries += 1;
                                }
                            }
                        }
                        squares[i] = from;
                    }
                }
                reached.fetch_add(new_entries, Ordering::Relaxed);
                out
            })
            .collect();
        if failed.load(Ordering::Relaxed) {
            return Err(BuildFailure::Stopped(stop().unwrap_or(PdbError::Cancelled)));
        }
        expanded += layer.iter().map(Vec::len).sum::<usize>();
        discovered += next.iter().map(Vec::len).sum::<usize>();
        progress(fraction_done(
            expanded,
            discovered,
            reached.load(Ordering::Relaxed),
            entries,
        ));
        layer = next;
        depth = next_depth;
    }
    drop(visited);
    Ok(dist.into_iter().map(AtomicU8::into_inner).collect())
}

/// A table of `len` entries, each `fill()`; [`BuildFailure::Memory`] when the memory is not
/// there.
fn filled<T>(len: usize, fill: impl FnMut() -> T) -> Result<Vec<T>, BuildFailure> {
    let mut table = Vec::new();
    table
        .try_reserve_exact(len)
        .map_err(|_| BuildFailure::Memory)?;
    table.resize_with(len, fill);
    Ok(table)
}

/// The first square of each region of the `free` squares where the blank may end: the region
/// of square `blank_home`, or with `None` every region.
fn blank_regions(free: u32, blank_home: Option<u8>, adj: &[u32; MAX_SQUARES]) -> Vec<u32> {
    let mut firsts = Vec::new();
    let mut unseen = match blank_home {
        Some(home) => region(u32::from(home), free, adj),
        None => free,
    };
    while unseen != 0 {
        let reach = region(unseen.trailing_zeros(), free, adj);
        firsts.push(reach.trailing_zeros());
        unseen &= !reach;
    }
    firsts
}

/// An estimate of the fraction of [`layered_table`]'s search done: the states `expanded` over
/// the states `discovered` plus, for the `entries` not `reached` yet, as many states a
/// placement as so far.
fn fraction_done(expanded: usize, discovered: usize, reached: usize, entries: usize) -> f64 {
    let placed = reached.max(1);
    let unplaced = entries.saturating_sub(placed) as f64;
    let estimate = discovered as f64 + unplaced * discovered as f64 / placed as f64;
    (expanded as f64 / estimate).min(1.0)
}

/// A group's table from its distances: the excess over the group's Manhattan distance,
/// halved, 4 bits an entry when every excess fits; `None` when the table's memory is not
/// there.
pub(super) fn pack(
    rows: usize,
    cols: usize,
    goal: &[u8],
    tiles: &[u8],
    dist: &[u8],
) -> Option<Table> {
    let (n, k) = (rows * cols, tiles.len());
    let home: Vec<u8> = tiles
        .iter()
        .map(|&t| goal.iter().position(|&g| g == t).unwrap_or(0) as u8)
        .collect();
    let manhattan = |r: usize| {
        let mut squares = [0u8; MAX_GROUP];
        unrank(r, n, &mut squares[..k]);
        squares[..k]
            .iter()
            .zip(&home)
            .map(|(&s, &h)| {
                let (s, h) = (usize::from(s), usize::from(h));
                ((s / cols).abs_diff(h / cols) + (s % cols).abs_diff(h % cols)) as u32
            })
            .sum::<u32>()
    };
    let excess: Vec<u8> = dist
        .par_iter()
        .enumerate()
        .map(|(r, &d)| (u32::from(d).saturating_sub(manhattan(r)) / 2).min(255) as u8)
        .collect();
    if excess.iter().all(|&e| e <= 15) {
        let mut bytes = Bytes::zeroed(Table::len_for(4, excess.len()))?;
        bytes
            .par_iter_mut()
            .zip(excess.par_chunks(2))
            .for_each(|(byte, pair)| *byte = pair[0] | pair.get(1).map_or(0, |&hi| hi << 4));
        Some(Table { bits: 4, bytes })
    } else {
        Some(Table {
            bits: 8,
            bytes: Bytes::copied(&excess)?,
        })
    }
}

/// One group's moves to the goal (its tiles at home, the blank on its goal square, or with
/// `any_blank` on any square) for every placement of its tiles, by the plain 0-1
/// breadth-first search over (placement, blank square), one
/// state at a time: the slow
/// reference that [`group_distances`] is checked against in the tests.
#[doc(hidden)]
pub fn reference_distances(
    rows: usize,
    cols: usize,
    goal: &[u8],
    tiles: &[u8],
    any_blank: bool,
) -> Vec<u8> {
    let n = rows * cols;
    let k = tiles.len();
    let home = |t: u8| goal.iter().position(|&g| g == t).unwrap_or(0) as u8;
    let start: Vec<u8> = tiles.iter().map(|&t| home(t)).collect();
    let mut dist = vec![u8::MAX; placements(n, k + 1)];
    let mut table = vec![u8::MAX; placements(n, k)];
    // The goal: the group's tiles at home, the blank on its goal square (or any other).
    let mut queue = std::collections::VecDeque::new();
    let blanks: Vec<u8> = if any_blank {
        (0..n as u8).filter(|s| !start.contains(s)).collect()
    } else {
        vec![home(0)]
    };
    for blank in blanks {
        let mut first = start.clone();
        first.push(blank);
        dist[rank(&first, n)] = 0;
        queue.push_back(first);
    }
    let adj = neighbour_masks(rows, cols);
    while let Some(squares) = queue.pop_front() {
        let d = dist[rank(&squares, n)];
        let entry = &mut table[rank(&squares[..k], n)];
        *entry = (*entry).min(d);
        let blank = squares[k];
        let mut near = adj[usize::from(blank)];
        while near != 0 {
            let q = near.trailing_zeros() as u8;
            near &= near - 1;
            let mut next = squares.clone();
            let moved = next[..k].iter().position(|&s| s == q);
            if let Some(j) = moved {
                next[j] = blank;
            }
            next[k] = q;
            let cost = u8::from(moved.is_some());
            let slot = &mut dist[rank(&next, n)];
            if d + cost < *slot {
                *slot = d + cost;
                if cost == 0 {
                    queue.push_front(next);
                } else {
                    queue.push_back(next);
                }
            }
        }
    }
    table
}

/// One group's moves to the goal for every placement of its tiles, by rank, as the builder
/// computes them (exposed for the tests).
#[doc(hidden)]
pub fn group_distances(
    rows: usize,
    cols: usize,
    goal: &[u8],
    tiles: &[u8],
    any_blank: bool,
) -> Vec<u8> {
    layered_table(rows, cols, goal, tiles, any_blank, &|| None, &mut |_| {}).unwrap_or_default()
}

/// The squares the blank can reach from its goal square when `tiles` are on their goal
/// squares (a bit mask of row-major squares). A group *walls the blank off* when some square
/// free of its tiles is not in this region.
pub fn blank_region(rows: usize, cols: usize, goal: &[u8], tiles: &[u8]) -> u32 {
    let n = rows * cols;
    let adj = neighbour_masks(rows, cols);
    let home = |t: u8| goal.iter().position(|&g| g == t).unwrap_or(0) as u32;
    let mask = tiles.iter().fold(0u32, |m, &t| m | 1 << home(t));
    let full: u32 = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    region(home(0), full & !mask, &adj)
}
