//! Dual lookups (Felner, Zahavi, Schaeffer and Holte, "Dual lookups in pattern databases",
//! IJCAI 2005; Zahavi, Felner, Holte and Schaeffer, "Duality in permutation state spaces and
//! the dual search algorithm", AIJ 172, 2008), and the *minus tables* that serve the group
//! whose label the blank carries.
//!
//! **Why the dual board is as far.** Name each tile by its goal square. An optimal solution of
//! a board slides the blank along squares `b = q0, q1, …, qk = z` (`z` the blank's goal
//! square). The *dual* board puts label `l` on the goal square of the tile standing on `l`'s
//! goal square now (the inverse permutation). Played backwards, the same swaps of squares
//! `(q(k-1), qk), …, (q0, q1)` take the dual board to the goal, and the label that moves at
//! every swap is `b`'s: in the backward play, label `b` is the blank, and it ends on square
//! `b`. So the dual board is exactly as far from the goal of a puzzle whose blank is label `b`
//! (goal square `b`) and whose tile `z` is the real blank's label.
//!
//! **The lookups.** Each group's labels, on their dual squares, give a placement whose entry
//! never exceeds their moves in the backward play; the groups share no label, so the sum is
//! admissible (not consistent), with two cases:
//! - the group holding label `b` (the blank stands on one of its goal squares) is looked up
//!   without that label, in its minus table for it: the group less that tile, with the
//!   blank's goal on that tile's square ([`PatternDb::build_dual_tables`]). Without minus
//!   tables, its other tiles count their Manhattan distances only.
//! - a group whose goal squares wall `z` off is read from its open table (blank anywhere)
//!   when `b` is outside the wall.

use super::build::{TablePlan, build_bytes, packed_tables};
use super::{MAX_GROUP, MAX_SQUARES, PatternDb, PdbError, placements, rank};
use crate::search::CancelToken;

impl PatternDb {
    /// The dual lookup of a board (`tiles` row-major, 0 the blank), without the reflected
    /// lookup: the sum over the groups described in the module documentation. Admissible; not
    /// consistent.
    pub fn estimate_dual_plain(&self, tiles: &[u8]) -> u32 {
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
        self.dual_sum(&self.dual_squares(|s| tiles[s]), blank, u32::MAX)
    }

    /// The *dual squares* of the board whose square `s` (row-major) holds the tile
    /// `board_at(s)`: `dual[l]` is the goal square of the tile standing on label `l`'s goal
    /// square, the square label `l` stands on in the dual board (`dual[0]`, the blank's label,
    /// included; unused entries 0). The fast IDA* core keeps them up to date move by move
    /// instead (a move changes two labels').
    #[inline]
    pub fn dual_squares(&self, board_at: impl Fn(usize) -> u8) -> [u8; MAX_SQUARES] {
        let mut dual = [0u8; MAX_SQUARES];
        for (l, d) in dual.iter_mut().enumerate().take(self.rows * self.cols) {
            *d = self.home(board_at(usize::from(self.home(l as u8))));
        }
        dual
    }

    /// The dual lookup ([`PatternDb::estimate_dual_plain`]) of a board given by its dual
    /// squares ([`PatternDb::dual_squares`]) and its blank's square `blank`: the one
    /// implementation, which the fast IDA* core calls on its board and its mirror image.
    /// The groups are looked up in order, and the lookups stop once the sum passes `limit`
    /// (the Manhattan distances of every label, then the entries so far): the value is then a
    /// lower bound of the full one, above `limit`.
    #[inline]
    pub fn dual_sum(&self, dual: &[u8; MAX_SQUARES], blank: u8, limit: u32) -> u32 {
        self.dual_sum_from(dual, blank, limit, self.dual_manhattan(dual))
    }

    /// The Manhattan distances of the groups' labels on their dual squares `dual` (see
    /// [`PatternDb::dual_squares`]), each from its dual square to its goal square, summed (the
    /// blank's label and labels in no group count 0). The fast IDA* core keeps this sum up to
    /// date move by move and checks it against this one in debug builds.
    pub fn dual_manhattan(&self, dual: &[u8; MAX_SQUARES]) -> u32 {
        let mut total = 0;
        for g in &self.groups {
            for &t in &g.tiles {
                total += self.distance(dual[usize::from(t)], self.home(t));
            }
        }
        total
    }

    /// [`PatternDb::dual_sum`] given the sum of its labels' Manhattan distances,
    /// `manhattan` ([`PatternDb::dual_manhattan`] of `dual`).
    #[inline]
    pub(crate) fn dual_sum_from(
        &self,
        dual: &[u8; MAX_SQUARES],
        blank: u8,
        limit: u32,
        manhattan: u32,
    ) -> u32 {
        let n = self.rows * self.cols;
        let mut squares = [0u8; MAX_GROUP + 1];
        // `b`: the label of the blank's square, the backward play's blank (0 when the blank
        // stands on its own goal square). The blank's label `z` is then a tile of the
        // backward play, on the square `zq`.
        let z = self.home(0);
        let b = self.goal.get(usize::from(blank)).copied().unwrap_or(0);
        let zq = dual[0];
        let carrier = self.carrier.as_ref().filter(|_| b != 0);
        let carrying = (b != 0)
            .then(|| self.label_group[usize::from(b)])
            .filter(|&g| usize::from(g) < self.groups.len());
        // The Manhattan distances: every group's labels but `b` (which stands on `z`), and
        // `z` (counted with the carrier where there is one, else alone).
        let mut total = manhattan;
        if carrying.is_some() {
            total -= self.distance(z, self.home(b));
        }
        if b != 0 {
            total += self.distance(zq, z);
        }
        for (gi, g) in self.groups.iter().enumerate().rev() {
            if total > limit {
                break;
            }
            let k = g.tiles.len();
            for (square, &t) in squares.iter_mut().zip(&g.tiles) {
                *square = dual[usize::from(t)];
            }
            // The label `b` of this group, if it holds it: not a tile of the backward play.
            let carried =
                (carrying == Some(gi as u8)).then(|| usize::from(self.label_index[usize::from(b)]));
            let excess = match (carried, carrier) {
                // The carrier, counting `z` with its tiles (the `carrier` module): its `i`-th
                // tile stands for `z` when it holds the blank's label, else `z` comes last.
                (Some(i), Some(c)) if c.group == gi => {
                    squares[i] = zq;
                    c.plus[i].excess(rank(&squares[..k], n))
                }
                (None, Some(c)) if c.group == gi => {
                    squares[k] = zq;
                    c.with_z.excess(rank(&squares[..=k], n))
                }
                (None, _) => self.dual_excess(gi, rank(&squares[..k], n), blank),
                (Some(i), _) => {
                    squares.copy_within(i + 1..k, i);
                    self.minus
                        .get(gi)
                        .and_then(|tables| tables.get(i))
                        .map_or(0, |table| table.excess(rank(&squares[..k - 1], n)))
                }
            };
            total += 2 * excess;
        }
        total
    }

    /// Group `g`'s stored excess for the placement of rank `rank` in a dual lookup of a board
    /// whose blank is on square `blank`: played backwards, an optimal solution brings the
    /// group's labels home with the blank ending on `blank`, so a group that walls the blank's
    /// goal square off is read from its open table (the blank on any square) when `blank` is
    /// outside the wall.
    #[inline]
    fn dual_excess(&self, g: usize, rank: usize, blank: u8) -> u32 {
        let group = &self.groups[g];
        match &group.open {
            Some(open) if group.region & (1 << blank) == 0 => open.excess(rank),
            _ => group.table.excess(rank),
        }
    }

    /// The strongest estimate of a board (`tiles` row-major, 0 the blank): the largest of the
    /// plain, reflected, dual and reflected dual lookups, rounded up to the parity of the
    /// moves left (the blank's Manhattan distance to its goal square). Admissible.
    pub fn estimate_with_dual(&self, tiles: &[u8]) -> u32 {
        let n = self.rows * self.cols;
        let mut h = self.estimate(tiles).max(self.estimate_dual_plain(tiles));
        if let Some(r) = &self.reflection {
            h = h.max(self.estimate_dual_plain(&r.apply(&tiles[..n])));
        }
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
        h + ((h ^ self.distance(blank, self.home(0))) & 1)
    }

    /// Whether the minus tables are attached ([`PatternDb::build_dual_tables`]).
    pub fn has_dual_tables(&self) -> bool {
        !self.minus.is_empty()
    }

    /// The goal and tiles of group `g`'s minus table for its `i`-th tile: the goal with that
    /// tile and the blank traded, and the group's other tiles in order.
    pub(super) fn minus_plan(&self, g: usize, i: usize) -> (Vec<u8>, Vec<u8>) {
        let tiles = &self.groups[g].tiles;
        let t = tiles[i];
        let goal = self
            .goal
            .iter()
            .map(|&x| match x {
                0 => t,
                x if x == t => 0,
                x => x,
            })
            .collect();
        let mut rest = tiles.clone();
        rest.remove(i);
        (goal, rest)
    }

    /// The bytes the minus tables of this database take at 4 bits an entry, and the peak of
    /// building the largest of them, for a `n`-square board.
    pub(super) fn minus_bytes(&self) -> (u64, u64) {
        let n = self.rows * self.cols;
        let sizes = self.groups.iter().map(|g| g.tiles.len().saturating_sub(1));
        let tables = self
            .groups
            .iter()
            .map(|g| g.tiles.len() as u64 * placements(n, g.tiles.len() - 1) as u64 / 2)
            .sum();
        (tables, sizes.map(|k| build_bytes(n, k)).max().unwrap_or(0))
    }

    /// Builds the minus tables on every core and attaches them: for each group and each of its
    /// tiles, the moves of the group's other tiles home with the blank's goal on that tile's
    /// square (a group of `k` tiles gets `k` tables of `n! / (n - k + 1)!` entries; 251 MB
    /// for the 7-8 split, 77 MB for the 6-6-6-6). They make the dual lookup of the group
    /// holding the blank's label as strong as the others. `progress` gets the fraction done.
    ///
    /// # Errors
    /// [`PdbError::MemoryLimit`] when the tables and the largest build need more than the
    /// memory limit of `cancel`; [`PdbError::Timeout`] and [`PdbError::Cancelled`] as
    /// [`PatternDb::build_set`]. The database is unchanged on an error.
    pub fn build_dual_tables(
        &mut self,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<(), PdbError> {
        let (tables, build) = self.minus_bytes();
        let needed = self.bytes() + tables + build;
        let budget = cancel.limits().max_memory;
        if needed > budget {
            return Err(PdbError::MemoryLimit { needed, budget });
        }
        let stop = super::stopper(cancel);
        // Every group's tables for each of its tiles, in one list, then split by group.
        let plans: Vec<TablePlan> = (0..self.groups.len())
            .flat_map(|g| (0..self.groups[g].tiles.len()).map(move |i| (g, i)))
            .map(|(g, i)| {
                let (goal, tiles) = self.minus_plan(g, i);
                TablePlan {
                    goal,
                    tiles,
                    any_blank: false,
                }
            })
            .collect();
        let mut built = packed_tables(
            self.rows,
            self.cols,
            &plans,
            &stop,
            progress,
            (needed, budget),
        )?
        .into_iter();
        self.minus = self
            .groups
            .iter()
            .map(|g| built.by_ref().take(g.tiles.len()).collect())
            .collect();
        Ok(())
    }
}
