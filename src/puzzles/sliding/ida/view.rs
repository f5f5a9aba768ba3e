//! One view of the board for the heuristic (plain or mirrored), kept up to date move by move.

use crate::puzzles::sliding::pattern_db::{MAX_GROUP, MAX_SQUARES, PatternDb};

/// One view of the board for the heuristic (plain or mirrored): where each tile is, and each
/// group's Manhattan distance and entry.
#[derive(Clone)]
pub(super) struct View {
    /// `pos[t]`: tile `t`'s square in this view.
    pub(super) pos: [u8; MAX_SQUARES],
    /// `group_of[t]`: the group of tile `t` (unused for the blank).
    pub(super) group_of: [u8; MAX_SQUARES],
    /// Each group's tiles.
    pub(super) tiles: Vec<[u8; MAX_GROUP]>,
    pub(super) lens: Vec<usize>,
    /// `weights[g][i]`: the product of `n - j` over the group's later places `j > i`, so that
    /// the rank is the sum of each place's count times its weight (what
    /// [`crate::puzzles::sliding::pattern_db::rank`] sums by Horner's rule), without a chain
    /// of dependent multiplications.
    weights: Vec<[u32; MAX_GROUP]>,
    pub(super) manhattan: Vec<u32>,
    pub(super) value: Vec<u32>,
    /// The sum of `value`; with groups stale, a sum of values some of which are old.
    pub(super) sum: u32,
    /// Bit `g`: group `g` has moved since its entry was looked up, and its `value` is old
    /// (the mirrored view is looked up only when the plain one lets a state through).
    pub(super) stale: u32,
}

impl View {
    pub(super) fn new(
        db: &PatternDb,
        tiles: &[u8],
        distance: &[[u8; MAX_SQUARES]; MAX_SQUARES],
    ) -> Self {
        let n = {
            let (r, c) = db.shape();
            r * c
        };
        let mut pos = [0u8; MAX_SQUARES];
        for (s, &t) in tiles.iter().enumerate().take(n) {
            pos[usize::from(t) % MAX_SQUARES] = s as u8;
        }
        let mut group_of = [0u8; MAX_SQUARES];
        let mut group_tiles = Vec::new();
        let mut lens = Vec::new();
        for (g, tiles) in db.groups().enumerate() {
            let mut arr = [0u8; MAX_GROUP];
            for (i, &t) in tiles.iter().enumerate().take(MAX_GROUP) {
                arr[i] = t;
                group_of[usize::from(t)] = g as u8;
            }
            group_tiles.push(arr);
            lens.push(tiles.len().min(MAX_GROUP));
        }
        let weights = lens.iter().map(|&len| rank_weights(len, n)).collect();
        let mut view = Self {
            pos,
            group_of,
            tiles: group_tiles,
            lens,
            weights,
            manhattan: Vec::new(),
            value: Vec::new(),
            sum: 0,
            stale: 0,
        };
        for g in 0..view.tiles.len() {
            let m: u32 = view.tiles[g][..view.lens[g]]
                .iter()
                .map(|&t| {
                    u32::from(distance[usize::from(t)][usize::from(view.pos[usize::from(t)])])
                })
                .sum();
            view.manhattan.push(m);
            let v = view.entry(db, g, n);
            view.value.push(v);
            view.sum += v;
        }
        view
    }

    /// Moves tile `t` (in this view's names) to square `to`, its group's Manhattan distance
    /// with it (`distance[t][s]`: tile `t`'s distance from square `s` to its goal square);
    /// returns the group. Its entry is not looked up again ([`View::entry`]).
    #[inline]
    pub(super) fn shift(
        &mut self,
        t: u8,
        to: u8,
        distance: &[[u8; MAX_SQUARES]; MAX_SQUARES],
    ) -> usize {
        let ti = usize::from(t);
        let g = usize::from(self.group_of[ti]);
        let from = std::mem::replace(&mut self.pos[ti], to);
        self.manhattan[g] = self.manhattan[g] + u32::from(distance[ti][usize::from(to)])
            - u32::from(distance[ti][usize::from(from)]);
        g
    }

    /// Group `g`'s entry in this view, looked up for a board of `n` squares: its Manhattan
    /// distance plus twice its stored excess.
    #[inline]
    pub(super) fn entry(&self, db: &PatternDb, g: usize, n: usize) -> u32 {
        self.manhattan[g] + 2 * db.excess(g, self.rank(g, n))
    }

    /// The rank of group `g`'s placement in this view, for a board of `n` squares: the same
    /// as [`crate::puzzles::sliding::pattern_db::rank`] of its tiles' squares (tested).
    #[inline]
    pub(super) fn rank(&self, g: usize, n: usize) -> usize {
        debug_assert!(n <= 64);
        let len = self.lens[g];
        let weights = &self.weights[g];
        let mut used = 0u64;
        let mut r = 0usize;
        for (i, &t) in self.tiles[g][..len].iter().enumerate() {
            let p = self.pos[usize::from(t)];
            let smaller_free = u32::from(p) - (used & ((1u64 << p) - 1)).count_ones();
            r += smaller_free as usize * weights[i] as usize;
            used |= 1u64 << p;
        }
        r
    }
}

/// The weights of [`View::rank`] for a group of `len` tiles on `n` squares: `weights[i]` is the
/// product of `n - j` over `i < j < len`.
fn rank_weights(len: usize, n: usize) -> [u32; MAX_GROUP] {
    let mut weights = [0u32; MAX_GROUP];
    let mut product = 1u32;
    for i in (0..len.min(MAX_GROUP)).rev() {
        weights[i] = product;
        product = product.saturating_mul(n.saturating_sub(i) as u32);
    }
    weights
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::sliding::pattern_db;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// The weighted sum equals the plain rank (Horner's rule) on random placements of groups
    /// of 1 to 8 tiles on 9, 16 and 25 squares.
    #[test]
    fn weighted_rank_equals_the_plain_rank() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for n in [9usize, 16, 25] {
            for _ in 0..2000 {
                let mut squares: Vec<u8> = (0..n as u8).collect();
                squares.shuffle(&mut rng);
                let len = rng.random_range(1..=MAX_GROUP.min(8).min(n - 1));
                let mut pos = [0u8; MAX_SQUARES];
                let mut tiles = [0u8; MAX_GROUP];
                for (t, &s) in squares.iter().enumerate() {
                    pos[t] = s;
                }
                for (i, tile) in tiles.iter_mut().enumerate().take(len) {
                    *tile = (i + 1) as u8;
                }
                let view = View {
                    pos,
                    group_of: [0; MAX_SQUARES],
                    tiles: vec![tiles],
                    lens: vec![len],
                    weights: vec![rank_weights(len, n)],
                    manhattan: vec![0],
                    value: vec![0],
                    sum: 0,
                    stale: 0,
                };
                let placed: Vec<u8> = (1..=len).map(|t| pos[t]).collect();
                assert_eq!(
                    view.rank(0, n),
                    pattern_db::rank(&placed, n),
                    "{placed:?} on {n}"
                );
            }
        }
    }
}
