//! The fast core's dual boards (see `pattern_db::dual`): the dual squares of the board and
//! of its mirror image, and their labels' Manhattan distances, kept up to date move by move,
//! and the dual estimate read from them.

use super::Core;

impl Core<'_, '_> {
    /// The dual estimate, plain then reflected, stopping at the first above `limit`.
    #[inline]
    pub(super) fn h_dual(&self, limit: u32) -> u32 {
        let db = self.shape.db;
        debug_assert_eq!(self.dual_manhattan[0], db.dual_manhattan(&self.duals[0]));
        let plain = db.dual_sum_from(&self.duals[0], self.blank, limit, self.dual_manhattan[0]);
        if plain > limit {
            return plain;
        }
        match &self.shape.mirror {
            Some((square, _)) => {
                debug_assert_eq!(self.dual_manhattan[1], db.dual_manhattan(&self.duals[1]));
                let blank = square[usize::from(self.blank)];
                plain.max(db.dual_sum_from(&self.duals[1], blank, limit, self.dual_manhattan[1]))
            }
            None => plain,
        }
    }

    /// The dual squares after tile `t` slid from square `from` to square `to` (the blank's):
    /// the label of `to` now stands on `t`'s goal square, the label of `from` on the
    /// blank's; the same in the mirror image.
    #[inline]
    pub(super) fn slide_duals(&mut self, t: u8, from: u8, to: u8) {
        let shape = self.shape;
        let db = shape.db;
        let z = db.home(0);
        let label = |s: u8| usize::from(shape.label_at[usize::from(s)]);
        let (l_to, l_from) = (label(to), label(from));
        self.set_dual(0, l_to, db.home(t));
        self.set_dual(0, l_from, z);
        if let Some((square, tile)) = &shape.mirror {
            let (m_to, m_from) = (
                label(square[usize::from(to)]),
                label(square[usize::from(from)]),
            );
            self.set_dual(1, m_to, db.home(tile[usize::from(t)]));
            self.set_dual(1, m_from, z);
        }
    }

    /// Puts label `l` of dual board `k` (0 plain, 1 mirrored) on square `to`, its Manhattan
    /// distance moved with it.
    #[inline]
    fn set_dual(&mut self, k: usize, l: usize, to: u8) {
        let from = std::mem::replace(&mut self.duals[k][l], to);
        if self.shape.grouped[l] {
            let distance = &self.shape.distance[l];
            self.dual_manhattan[k] = self.dual_manhattan[k] + u32::from(distance[usize::from(to)])
                - u32::from(distance[usize::from(from)]);
        }
    }
}
