//! Jump Point Search's scanning on an [`OctileMap`] (Harabor and Grastien, AAAI 2011; no
//! corner cutting), 64 squares a step: the one JPS scanner, of the Moving AI scenarios
//! ([`super::OctileSearch`]) and of the maze's JPS in the app ([`OctileMap::jump_points`],
//! through `search::JumpPoints`). A scan stops at a goal, or at a square with a forced
//! neighbour: moving straight, a free square to one side whose square behind it is blocked;
//! moving diagonally, a square from which a straight scan finds a jump point.

use super::{OctileMap, Steps, Successor};

/// Pushes the jump points reachable from bit `i` (square `here`), reached moving in
/// direction `arrived` (`None` at the start), onto `out`, each with the cost of the line to
/// it, its square and the line's direction.
pub(super) fn successors(
    map: &OctileMap,
    i: usize,
    here: (usize, usize),
    arrived: Option<(isize, isize)>,
    goal: &Goal,
    out: &mut Vec<Successor>,
) {
    each_jump(map, i, here, arrived, goal, |j, (dr, dc), steps, at| {
        let steps = steps as u32;
        let cost = if dr != 0 && dc != 0 {
            Steps::diagonal(steps)
        } else {
            Steps::straight(steps)
        };
        let direction = super::direction(dr, dc) as u8;
        out.push((j, cost, at, direction));
    });
}

/// Calls `found` with each jump point reachable from bit `i` (square `here`), reached moving
/// in direction `arrived` (`None` at the start), in the order of the pruning rule
/// ([`super::pruned_directions`]): its bit, the line's direction (dr, dc), its number of
/// steps and its square.
#[inline]
fn each_jump(
    map: &OctileMap,
    i: usize,
    here: (usize, usize),
    arrived: Option<(isize, isize)>,
    goal: &Goal,
    mut found: impl FnMut(usize, (isize, isize), u64, (usize, usize)),
) {
    let s = map.stride as isize;
    let free = |dr: isize, dc: isize| map.free((i as isize + dr * s + dc) as usize);
    let mut directions = [(0isize, 0isize); 8];
    let mut n = 0;
    let mut push = |d: (isize, isize)| {
        directions[n] = d;
        n += 1;
    };
    super::pruned_directions(arrived, free, &mut push);
    let (r, c) = (here.0 as isize, here.1 as isize);
    for &(dr, dc) in &directions[..n] {
        let from = (i as isize + dr * s + dc) as usize;
        if let Some((j, steps)) = jump(map, from, (r + dr, c + dc), dr, dc, goal) {
            let at = (r + dr * steps as isize, c + dc * steps as isize);
            found(j, (dr, dc), steps, (at.0 as usize, at.1 as usize));
        }
    }
}

/// The goals of Jump Point Search's scans on one map ([`OctileMap::jump_goals`]), made once
/// per search.
pub struct JumpGoals(Goal);

impl OctileMap {
    /// The goals of Jump Point Search's scans on this map: its free squares (row, column)
    /// for which `is_goal` holds.
    pub fn jump_goals(&self, is_goal: impl Fn(usize, usize) -> bool) -> JumpGoals {
        JumpGoals(Goal::squares(self, is_goal))
    }

    /// Jump Point Search's successors of square `here` reached from square `from` (`None` at
    /// a start), scanned on the bit rows: for each jump point, in the order of the pruning
    /// rule, the line's direction (dr, dc), its number of steps and the square it ends on.
    /// None when `here` is not a free square. The maze's JPS in the app.
    pub fn jump_points(
        &self,
        here: (usize, usize),
        from: Option<(usize, usize)>,
        goals: &JumpGoals,
        mut emit: impl FnMut((isize, isize), usize, (usize, usize)),
    ) {
        if !self.is_free(here.0, here.1) {
            return;
        }
        let arrived = from
            .map(|(pr, pc)| {
                (
                    (here.0 as isize - pr as isize).signum(),
                    (here.1 as isize - pc as isize).signum(),
                )
            })
            .filter(|&d| d != (0, 0));
        let i = self.index(here.0, here.1);
        each_jump(
            self,
            i,
            here,
            arrived,
            &goals.0,
            |_, direction, steps, at| {
                emit(direction, steps as usize, at);
            },
        );
    }
}

/// Scans from bit `i` (square `at`, which may be just outside the grid) in direction (dr,
/// dc); the jump point found and how many steps from the square before `i` it lies, or `None`
/// when the scan runs into a wall.
fn jump(
    map: &OctileMap,
    mut i: usize,
    mut at: (isize, isize),
    dr: isize,
    dc: isize,
    goal: &Goal,
) -> Option<(usize, u64)> {
    if dr == 0 || dc == 0 {
        return straight(map, i, at, dr, dc, goal);
    }
    let s = map.stride as isize;
    let (down, across) = (dr * s, dc);
    let mut steps = 1;
    loop {
        if !map.free(i) {
            return None;
        }
        if goal.is(i) {
            return Some((i, steps));
        }
        let bit = |d: isize| (i as isize + d) as usize;
        if straight(map, bit(across), (at.0, at.1 + dc), 0, dc, goal).is_some()
            || straight(map, bit(down), (at.0 + dr, at.1), dr, 0, goal).is_some()
        {
            return Some((i, steps));
        }
        if !(map.free(bit(down)) && map.free(bit(across))) {
            return None;
        }
        i = bit(down + across);
        at = (at.0 + dr, at.1 + dc);
        steps += 1;
    }
}

/// Where a scan stops for a goal: one square, as a bit of the map and of its transposed copy
/// (a scenario's problem), or any number of them as bit rows laid out as the map's (the
/// maze's goals, percolation's far line).
pub(super) enum Goal {
    /// One goal square.
    One {
        /// Its bit of the map.
        bit: usize,
        /// Its bit of the transposed copy.
        tbit: usize,
    },
    /// Goal squares: their bits set, as the map's free squares are.
    Many {
        /// As [`OctileMap`]'s bits.
        bits: Vec<u64>,
        /// As its transposed copy's.
        tbits: Vec<u64>,
    },
}

/// A goal on one of the map's two layouts (its rows, or its transposed copy's), as a row scan
/// reads it.
#[derive(Clone, Copy)]
enum GoalBits<'a> {
    One(usize),
    Many(&'a [u64]),
}

impl GoalBits<'_> {
    /// Bit k: whether square `base + k` is a goal.
    #[inline]
    fn window(self, base: usize) -> u64 {
        match self {
            GoalBits::One(goal) if goal >= base && goal < base + 64 => 1 << (goal - base),
            GoalBits::One(_) => 0,
            GoalBits::Many(bits) => read64(bits, base),
        }
    }
}

impl Goal {
    /// The goal square (row, column) of `map`.
    pub fn new(map: &OctileMap, (row, col): (usize, usize)) -> Self {
        Goal::One {
            bit: map.index(row, col),
            tbit: map.tindex(row, col),
        }
    }

    /// The squares (row, column) of `map` for which `is_goal` holds, its free ones (a scan
    /// stops at no blocked square).
    pub fn squares(map: &OctileMap, is_goal: impl Fn(usize, usize) -> bool) -> Self {
        let mut bits = vec![0; map.bits.len()];
        let mut tbits = vec![0; map.tbits.len()];
        for r in 0..map.rows {
            for c in 0..map.cols {
                if map.is_free(r, c) && is_goal(r, c) {
                    let i = map.index(r, c);
                    bits[i / 64] |= 1 << (i % 64);
                    let t = map.tindex(r, c);
                    tbits[t / 64] |= 1 << (t % 64);
                }
            }
        }
        Goal::Many { bits, tbits }
    }

    /// Whether bit `i` of the map is a goal.
    #[inline]
    fn is(&self, i: usize) -> bool {
        match self {
            Goal::One { bit, .. } => i == *bit,
            Goal::Many { bits, .. } => bits[i / 64] >> (i % 64) & 1 != 0,
        }
    }

    /// The goal on the map's rows.
    #[inline]
    fn rows(&self) -> GoalBits<'_> {
        match self {
            Goal::One { bit, .. } => GoalBits::One(*bit),
            Goal::Many { bits, .. } => GoalBits::Many(bits),
        }
    }

    /// The goal on the transposed copy's rows.
    #[inline]
    fn columns(&self) -> GoalBits<'_> {
        match self {
            Goal::One { tbit, .. } => GoalBits::One(*tbit),
            Goal::Many { tbits, .. } => GoalBits::Many(tbits),
        }
    }
}

/// A straight scan from bit `i` (square `at`) along (dr, dc) (one of them 0): the first
/// square that is the goal or has a forced neighbour (a free square to one side whose square
/// behind is blocked), and how many steps from the square before `i` it lies, or `None` when
/// the scan runs into a wall. Rows are scanned on the map's bits, columns on its transposed
/// copy, 64 squares a step ([`scan_row`]).
#[inline]
fn straight(
    map: &OctileMap,
    i: usize,
    at: (isize, isize),
    dr: isize,
    dc: isize,
    goal: &Goal,
) -> Option<(usize, u64)> {
    if !map.free(i) {
        return None;
    }
    if dr == 0 {
        let (j, distance) = scan_row(&map.bits, map.stride, i, dc > 0, goal.rows())?;
        return Some((j, distance as u64 + 1));
    }
    // A free square is in the grid.
    let (r, c) = (at.0 as usize, at.1 as usize);
    let (_, distance) = scan_row(
        &map.tbits,
        map.tstride,
        map.tindex(r, c),
        dr > 0,
        goal.columns(),
    )?;
    let row = if dr > 0 { r + distance } else { r - distance };
    Some((map.index(row, c), distance as u64 + 1))
}

/// 64 bits of `bits` from bit `at` on: bit k of the answer is bit `at + k`.
#[inline]
fn read64(bits: &[u64], at: usize) -> u64 {
    let (w, s) = (at / 64, at % 64);
    if s == 0 {
        bits[w]
    } else {
        bits[w] >> s | bits[w + 1] << (64 - s)
    }
}

/// A straight scan along a row of `bits` (rows `stride` bits apart) from bit `x`, towards
/// higher bits when `forward`, 64 squares a step: the first square that is blocked (`None`),
/// the `goal`, or has a forced neighbour (a free square in the row above or below whose
/// square behind it is blocked), and its distance from `x`. The rows are read from the
/// map's bits or, for a vertical scan, from its transposed copy.
#[inline]
fn scan_row(
    bits: &[u64],
    stride: usize,
    mut x: usize,
    forward: bool,
    goal: GoalBits<'_>,
) -> Option<(usize, usize)> {
    let start = x;
    loop {
        // Bit k stands for square x + k (forward) or x - 63 + k (backward).
        let (base, behind) = if forward {
            (x, x - 1)
        } else {
            (x - 63, x - 62)
        };
        let free = read64(bits, base);
        let (up, down) = (read64(bits, base - stride), read64(bits, base + stride));
        let (up_behind, down_behind) =
            (read64(bits, behind - stride), read64(bits, behind + stride));
        let forced = (up & !up_behind) | (down & !down_behind);
        let stop = !free | forced | goal.window(base);
        if stop != 0 {
            let at = if forward {
                base + stop.trailing_zeros() as usize
            } else {
                base + 63 - stop.leading_zeros() as usize
            };
            if free >> (at - base) & 1 == 0 {
                return None;
            }
            return Some((at, at.abs_diff(start)));
        }
        x = if forward { x + 64 } else { x - 64 };
    }
}

/// A straight scan as [`straight`] gives it, square by square: the reference its bit rows are
/// tested against.
#[cfg(test)]
fn straight_by_steps(
    map: &OctileMap,
    mut i: usize,
    dr: isize,
    dc: isize,
    goal: &Goal,
) -> Option<(usize, u64)> {
    let s = map.stride as isize;
    let d = dr * s + dc;
    // One side of the line, and the other as its negation.
    let side = dc * s + dr;
    let mut steps = 1;
    loop {
        if !map.free(i) {
            return None;
        }
        if goal.is(i) {
            return Some((i, steps));
        }
        let at = |e: isize| (i as isize + e) as usize;
        if (map.free(at(side)) && !map.free(at(side - d)))
            || (map.free(at(-side)) && !map.free(at(-side - d)))
        {
            return Some((i, steps));
        }
        i = at(d);
        steps += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every straight scan from every square of random maps, on bit rows and square by square.
    #[test]
    fn scans_on_bit_rows_find_what_steps_find() {
        let mut seed = 48u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for case in 0..40 {
            let (rows, cols) = (1 + next() % 150, 1 + next() % 150);
            let walls = next() % 40;
            let free: Vec<bool> = (0..rows * cols).map(|_| next() % 100 >= walls).collect();
            let map = OctileMap::new(rows, cols, false, |r, c| free[r * cols + c]).unwrap();
            let goal_at = (next() % rows, next() % cols);
            // One goal, or (every other case) the squares of a random few columns and rows.
            let goal = if case % 2 == 0 {
                Goal::new(&map, goal_at)
            } else {
                Goal::squares(&map, |r, c| (r * 7 + c * 13) % 23 == goal_at.0 % 23)
            };
            for r in 0..rows {
                for c in 0..cols {
                    for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        let i = map.index(r, c);
                        let at = (r as isize, c as isize);
                        assert_eq!(
                            straight(&map, i, at, dr, dc, &goal),
                            straight_by_steps(&map, i, dr, dc, &goal),
                            "case {case}: ({r}, {c}) along ({dr}, {dc}), goal {goal_at:?}"
                        );
                    }
                }
            }
        }
    }
}
