//! JPS+ (Harabor and Grastien, "Improving Jump Point Search", ICAPS 2014; S. Rabin's JPS+ in
//! *Game AI Pro 2*, 2015): Jump Point Search whose jumps are read from a table computed once
//! per map instead of scanned at every expansion.
//!
//! For every free square and each of the 8 directions the table ([`JumpDistances`]) holds how
//! far the scan of [`super::jump`] would go: a positive `d` when it stops at a jump point `d`
//! steps away (moving straight: a square with a forced neighbour; moving diagonally: a square
//! from which a straight scan finds one), `-w` (0 or less) when it runs into a wall after `w`
//! free steps. The rules are the octile JPS's: uniform cost, 8 directions, no corner cutting.
//!
//! The goal is not in the table. The maze's search (through [`OctileMap::jump_plus_lines`],
//! with any number of goals) checks it on every line it reads ("goal in the way"): a straight
//! line through a goal within its reach stops there; a diagonal line whose quadrant holds a
//! goal stops, within its reach, at the square level with the goal's row or column (from
//! which a straight line leads to the goal). Those extra stops are jump points a scanning JPS
//! might skip; they never remove one, so the costs found are the least ones
//! (`tests/it/octile.rs` holds them to a plain Dijkstra).
//!
//! The search on bit rows (one goal) reads the table's jump points alone and, before it
//! reads the lines of a state it expands, looks for the goal in sight ([`goal_in_sight`]: the
//! diagonal towards it then a straight line, free by the table), stopping there when it is,
//! as Warthog's JPS+ does. No stop is then needed on the lines: the last turn of a shortest
//! path in JPS's diagonal-first form before the goal is a jump point from which the goal is
//! in sight. On a map of open rooms (Moving AI's den009d) a problem whose goal is in sight of
//! its start ends at its first expansion (57 of that file's 200).

use super::{MOVES, NO_DIRECTION, OctileMap, Steps, Successor, direction};

/// The jump distances of every square of an [`OctileMap`] in the 8 directions of [`MOVES`]
/// (down, right, up, left, down-right, up-right, up-left, down-left), indexed by the square's
/// bit, with the time it took to compute them.
#[derive(Clone, Debug)]
pub struct JumpDistances {
    /// Per bit of the map, the distance in each direction (see the module's documentation);
    /// 0 for blocked squares and the border.
    distances: Vec<[i16; 8]>,
    /// Per bit of the map, which of its 8 neighbours are free: bit `k` for direction `k` of
    /// [`MOVES`].
    around: Vec<u8>,
    /// The directions [`super::pruned_directions`] keeps, as bits of [`MOVES`]' indices, by
    /// the direction a square was reached in (its index, or [`NO_DIRECTION`]) and its
    /// [`JumpDistances::around`]: the pruning as two loads.
    prune: Box<[[u8; 256]; 9]>,
    /// How long the table took to compute, milliseconds.
    built_ms: f64,
}

impl JumpDistances {
    /// The table of `map` (whose diagonal moves must not cut corners: the rule the table
    /// encodes), computed in one sweep per direction.
    pub(super) fn new(map: &OctileMap) -> Self {
        let started = std::time::Instant::now();
        let mut distances = vec![[0i16; 8]; map.slots()];
        let s = map.stride as isize;
        let free = |i: isize| map.free(i as usize);
        // Each square's distance in direction (dr, dc) follows from the next square's, so
        // the rows (and the squares of a row) are visited from the far end of the direction.
        let order = |d: isize, n: usize| -> Vec<usize> {
            if d > 0 {
                (0..n).rev().collect()
            } else {
                (0..n).collect()
            }
        };
        for (k, &(dr, dc)) in MOVES.iter().enumerate() {
            let d = dr * s + dc;
            let diagonal = k >= 4;
            let (ahead_r, ahead_c) = (direction(dr, 0), direction(0, dc));
            // One side of a straight line, and the other as its negation.
            let side = dc * s + dr;
            for r in order(dr, map.rows) {
                for c in order(dc, map.cols) {
                    let i = map.index(r, c) as isize;
                    if !free(i) {
                        continue;
                    }
                    let t = i + d;
                    let value = if diagonal {
                        if !(free(t) && free(i + dr * s) && free(i + dc)) {
                            0
                        } else {
                            let next = &distances[t as usize];
                            if next[ahead_r] > 0 || next[ahead_c] > 0 {
                                1
                            } else {
                                further(next[k])
                            }
                        }
                    } else if !free(t) {
                        0
                    } else if (free(t + side) && !free(t + side - d))
                        || (free(t - side) && !free(t - side - d))
                    {
                        1
                    } else {
                        further(distances[t as usize][k])
                    };
                    distances[i as usize][k] = value;
                }
            }
        }
        let mut around = vec![0u8; map.slots()];
        for r in 0..map.rows {
            for c in 0..map.cols {
                let i = map.index(r, c) as isize;
                for (k, &(dr, dc)) in MOVES.iter().enumerate() {
                    if free(i + dr * s + dc) {
                        around[i as usize] |= 1 << k;
                    }
                }
            }
        }
        let mut prune = Box::new([[0u8; 256]; 9]);
        for (arrived, masks) in prune.iter_mut().enumerate() {
            let arrived = MOVES.get(arrived).copied();
            for (mask, kept) in masks.iter_mut().enumerate() {
                let free = |dr: isize, dc: isize| mask >> direction(dr, dc) & 1 != 0;
                super::pruned_directions(arrived, free, |(dr, dc)| *kept |= 1 << direction(dr, dc));
            }
        }
        Self {
            distances,
            around,
            prune,
            built_ms: super::super::duration_ms(started.elapsed()),
        }
    }

    /// The bytes the table of a `rows` x `cols` map takes (a search charges them to its
    /// memory budget before it builds one).
    pub fn bytes_for(rows: usize, cols: usize) -> u64 {
        let stride = (cols + 128).div_ceil(64) * 64;
        let slots = (rows as u64 + 2).saturating_mul(stride as u64);
        slots.saturating_mul(std::mem::size_of::<[i16; 8]>() as u64 + 1)
    }

    /// How long the table took to compute, milliseconds.
    pub fn built_ms(&self) -> f64 {
        self.built_ms
    }

    /// The distance from square (row, column) of `map` in direction (dr, dc) as the table
    /// holds it: `d > 0`, a jump point `d` steps away; `-w <= 0`, a wall after `w` free steps.
    /// 0 for a blocked square or one outside the grid.
    pub fn distance(&self, map: &OctileMap, row: usize, col: usize, dr: isize, dc: isize) -> i32 {
        let unit = |d: isize| (-1..=1).contains(&d);
        if !map.is_free(row, col) || !unit(dr) || !unit(dc) || (dr, dc) == (0, 0) {
            return 0;
        }
        // A map other than the table's may be larger: no distance there.
        self.distances
            .get(map.index(row, col))
            .map_or(0, |d| i32::from(d[direction(dr, dc)]))
    }
}

/// The distance one step further back along a line whose next square has `next`.
#[inline]
fn further(next: i16) -> i16 {
    if next > 0 { next + 1 } else { next - 1 }
}

/// Pushes the jump points reachable from bit `i` (square `here`), reached moving in
/// direction `arrived` (an index of [`MOVES`], or [`NO_DIRECTION`] at the start), onto `out`,
/// each with the cost of the line to it, its square and the line's direction: the table's
/// jump points only, no goal in the way (the search looks for the goal in sight instead,
/// [`goal_in_sight`]).
#[inline]
pub(super) fn successors(
    map: &OctileMap,
    table: &JumpDistances,
    i: usize,
    here: (usize, usize),
    arrived: u8,
    out: &mut Vec<Successor>,
) {
    let s = map.stride as isize;
    let (r, c) = (here.0 as isize, here.1 as isize);
    lines(table, i, here, arrived, &[], |k, dr, dc, steps| {
        let j = (i as isize + steps * (dr * s + dc)) as usize;
        let square = ((r + dr * steps) as usize, (c + dc * steps) as usize);
        let cost = if k >= 4 {
            Steps::diagonal(steps as u32)
        } else {
            Steps::straight(steps as u32)
        };
        out.push((j, cost, square, k as u8));
    });
}

/// The goal seen from bit `i` (square `here`): when the octile line from `here` to `goal`
/// (the diagonal towards the goal, then straight along its row or column) is free, read from
/// the table (whose diagonal steps never cut a corner), the bit where the line bends (`i`
/// itself when the line is straight, the goal's when it is diagonal); else `None`.
///
/// The line costs the octile distance, the heuristic: a search that expands `here` at the
/// least `f` of its open list has then found the goal at the least cost, `f` (every path
/// through another entry costs at least that entry's `f`, the heuristic being consistent), so
/// it may stop there instead of putting the line's squares on the open list and taking them
/// off again, as Warthog's JPS+ does when the target is in sight.
#[inline]
pub(super) fn goal_in_sight(
    map: &OctileMap,
    table: &JumpDistances,
    i: usize,
    here: (usize, usize),
    goal: (usize, usize),
) -> Option<usize> {
    let s = map.stride as isize;
    let (to_r, to_c) = (
        goal.0 as isize - here.0 as isize,
        goal.1 as isize - here.1 as isize,
    );
    let (dr, dc) = (to_r.signum(), to_c.signum());
    let (across, along) = (to_r.abs().min(to_c.abs()), to_r.abs().max(to_c.abs()));
    let mut bend = i;
    if across > 0 {
        let step = dr * s + dc;
        if !free_ahead(table, i, direction(dr, dc), step, across) {
            return None;
        }
        bend = (i as isize + across * step) as usize;
    }
    if along > across {
        let (sr, sc) = if to_r.abs() > to_c.abs() {
            (dr, 0)
        } else {
            (0, dc)
        };
        if !free_ahead(table, bend, direction(sr, sc), sr * s + sc, along - across) {
            return None;
        }
    }
    Some(bend)
}

/// Whether the `steps` moves from bit `i` in direction `k` of [`MOVES`] (`step` bits each)
/// are all free, by the table: a line's distance says how far it is free (to its jump point,
/// read on from there, or to its wall).
#[inline]
fn free_ahead(
    table: &JumpDistances,
    mut i: usize,
    k: usize,
    step: isize,
    mut steps: isize,
) -> bool {
    loop {
        let d = isize::from(table.distances[i][k]);
        if d <= 0 {
            return -d >= steps;
        }
        if d >= steps {
            return true;
        }
        steps -= d;
        i = (i as isize + d * step) as usize;
    }
}

/// The lines JPS+ follows from bit `i` (square `here`), reached moving in direction
/// `arrived` (an index of [`MOVES`], or [`NO_DIRECTION`] at a start): for each direction
/// [`super::pruned_directions`] keeps, in the order of [`MOVES`], `emit(k, dr, dc, steps)`
/// with the direction's index and the number of steps to the line's end: the nearest of
/// `goals` on it (or level with it, for a diagonal line into its quadrant) within reach, else
/// the jump point the table gives; nothing when the line runs into a wall.
#[inline]
fn lines(
    table: &JumpDistances,
    i: usize,
    here: (usize, usize),
    arrived: u8,
    goals: &[(usize, usize)],
    mut emit: impl FnMut(usize, isize, isize, isize),
) {
    let row = &table.distances[i];
    let mut kept =
        table.prune[usize::from(arrived.min(NO_DIRECTION))][usize::from(table.around[i])];
    let (r, c) = (here.0 as isize, here.1 as isize);
    while kept != 0 {
        let k = kept.trailing_zeros() as usize;
        kept &= kept - 1;
        let (dr, dc) = MOVES[k];
        let d = isize::from(row[k]);
        let reach = d.abs();
        let mut steps = if d > 0 { d } else { isize::MAX };
        for &(gr, gc) in goals {
            let (to_r, to_c) = (gr as isize - r, gc as isize - c);
            let stop = if k >= 4 {
                // The goal's quadrant: stop level with it.
                (to_r.signum() == dr && to_c.signum() == dc).then(|| to_r.abs().min(to_c.abs()))
            } else {
                // The goal on the line.
                let (along, across, forward) = if dr != 0 {
                    (to_r, to_c, dr)
                } else {
                    (to_c, to_r, dc)
                };
                (across == 0 && along.signum() == forward).then_some(along.abs())
            };
            if let Some(stop) = stop.filter(|&k| k <= reach) {
                steps = steps.min(stop);
            }
        }
        if steps != isize::MAX {
            emit(k, dr, dc, steps);
        }
    }
}

impl OctileMap {
    /// JPS+'s successors of square `here` reached from square `from` (`None` at a start),
    /// read from the map's [`JumpDistances`] (none when it has none, or `here` is not a free
    /// square): for each line, its direction (dr, dc), its number of steps and the square it
    /// ends on, the nearest of `goals` when one is in its way. The maze's JPS+ in the app.
    pub fn jump_plus_lines(
        &self,
        here: (usize, usize),
        from: Option<(usize, usize)>,
        goals: &[(usize, usize)],
        mut emit: impl FnMut((isize, isize), usize, (usize, usize)),
    ) {
        let Some(table) = self.jumps.as_ref() else {
            return;
        };
        if !self.is_free(here.0, here.1) {
            return;
        }
        let arrived = from.map(|(pr, pc)| {
            (
                (here.0 as isize - pr as isize).signum(),
                (here.1 as isize - pc as isize).signum(),
            )
        });
        let arrived = arrived
            .filter(|&d| d != (0, 0))
            .map_or(NO_DIRECTION, |(dr, dc)| direction(dr, dc) as u8);
        let (r, c) = (here.0 as isize, here.1 as isize);
        let i = self.index(here.0, here.1);
        lines(table, i, here, arrived, goals, |_, dr, dc, steps| {
            let square = ((r + dr * steps) as usize, (c + dc * steps) as usize);
            emit((dr, dc), steps as usize, square);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direction table is [`MOVES`] inverted.
    #[test]
    fn directions_index_the_moves() {
        for (k, &(dr, dc)) in MOVES.iter().enumerate() {
            assert_eq!(direction(dr, dc), k);
        }
    }
}
