//! The board's fixed facts as the fast core reads them ([`Shape`]): the tables, each
//! square's neighbours and distances, the mirror maps.

use super::*;

/// The board's fixed facts, shared by every worker: the tables, the squares' neighbours and
/// distances, the mirror maps.
pub(super) struct Shape<'a> {
    pub(super) db: &'a PatternDb,
    pub(super) n: usize,
    /// `distance[t][s]`: tile `t`'s Manhattan distance from square `s` to its goal square.
    pub(super) distance: [[u8; MAX_SQUARES]; MAX_SQUARES],
    /// `blank_distance[s]`: the Manhattan distance from square `s` to the blank's goal square,
    /// whose parity is the parity of the moves left.
    pub(super) blank_distance: [u8; MAX_SQUARES],
    pub(super) neighbours: [[u8; 4]; MAX_SQUARES],
    pub(super) neighbour_count: [u8; MAX_SQUARES],
    /// Square and tile maps of the mirror image, where the board has one.
    pub(super) mirror: Option<([u8; MAX_SQUARES], [u8; MAX_SQUARES])>,
    /// `label_at[s]`: the tile whose goal square is `s` (0 for the blank's).
    pub(super) label_at: [u8; MAX_SQUARES],
    /// `grouped[t]`: whether tile `t` is in a group (its dual Manhattan distance counts).
    pub(super) grouped: [bool; MAX_SQUARES],
    pub(super) options: Options,
}

impl<'a> Shape<'a> {
    pub(super) fn new(db: &'a PatternDb, options: Options) -> Self {
        let (rows, cols) = db.shape();
        let n = rows * cols;
        let mut distance = [[0u8; MAX_SQUARES]; MAX_SQUARES];
        for t in 0..n as u8 {
            for s in 0..n as u8 {
                distance[usize::from(t)][usize::from(s)] = db.distance(s, db.home(t)) as u8;
            }
        }
        let mut blank_distance = [0u8; MAX_SQUARES];
        for s in 0..n as u8 {
            blank_distance[usize::from(s)] = db.distance(s, db.home(0)) as u8;
        }
        let mut neighbours = [[0u8; 4]; MAX_SQUARES];
        let mut neighbour_count = [0u8; MAX_SQUARES];
        for s in 0..n {
            let (r, c) = (s / cols, s % cols);
            let mut add = |q: usize| {
                neighbours[s][usize::from(neighbour_count[s])] = q as u8;
                neighbour_count[s] += 1;
            };
            if r > 0 {
                add(s - cols);
            }
            if c > 0 {
                add(s - 1);
            }
            if c + 1 < cols {
                add(s + 1);
            }
            if r + 1 < rows {
                add(s + cols);
            }
        }
        Self {
            db,
            n,
            distance,
            blank_distance,
            neighbours,
            neighbour_count,
            mirror: db.reflection().map(|r| (r.square, r.tile)),
            label_at: {
                let mut label_at = [0u8; MAX_SQUARES];
                for (s, &t) in db.goal().iter().enumerate().take(n) {
                    label_at[s] = t;
                }
                label_at
            },
            grouped: {
                let mut grouped = [false; MAX_SQUARES];
                for &t in db.groups().flatten() {
                    grouped[usize::from(t) % MAX_SQUARES] = true;
                }
                grouped
            },
            options,
        }
    }

    /// Rounds an estimate from a state whose blank is on `blank` up to the parity of the moves
    /// left.
    #[inline]
    pub(super) fn to_parity(&self, h: u32, blank: u8) -> u32 {
        h + ((h ^ u32::from(self.blank_distance[usize::from(blank)])) & 1)
    }
}
