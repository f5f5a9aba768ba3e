//! One view of the board for the heuristic (plain or mirrored), kept up to date move by move.

use crate::puzzles::sliding::pattern_db::{self, MAX_GROUP, MAX_SQUARES, PatternDb};

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
    pub(super) manhattan: Vec<u32>,
    pub(super) value: Vec<u32>,
    pub(super) sum: u32,
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
        let mut view = Self {
            pos,
            group_of,
            tiles: group_tiles,
            lens,
            manhattan: Vec::new(),
            value: Vec::new(),
            sum: 0,
        };
        for g in 0..view.tiles.len() {
            let m: u32 = view.tiles[g][..view.lens[g]]
                .iter()
                .map(|&t| {
                    u32::from(distance[usize::from(t)][usize::from(view.pos[usize::from(t)])])
                })
                .sum();
            view.manhattan.push(m);
            let v = m + 2 * db.excess(g, view.rank(g, n));
            view.value.push(v);
            view.sum += v;
        }
        view
    }

    #[inline]
    pub(super) fn rank(&self, g: usize, n: usize) -> usize {
        let mut squares = [0u8; MAX_GROUP];
        let len = self.lens[g];
        for (s, &t) in squares.iter_mut().zip(&self.tiles[g][..len]) {
            *s = self.pos[usize::from(t)];
        }
        pattern_db::rank(&squares[..len], n)
    }
}
