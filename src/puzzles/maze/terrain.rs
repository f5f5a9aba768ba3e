//! The squares of a maze and the one fact the fast searches trust about them: whether every
//! free square costs 1.
//!
//! [`Terrain`] is the only way to hold or change a maze's squares, and every way in keeps
//! the count of squares costing more than 1 that [`Terrain::is_uniform`] reads: the count is
//! derived from the squares when they are replaced whole ([`Terrain::from_costs`],
//! [`Terrain::fill_with`]) and updated by the single-square change ([`Terrain::set`]). Debug
//! builds check the count against a fresh scan after every change (on grids up to
//! [`CHECKED_SQUARES`] squares, so that painting a big grid in a debug build stays usable).
//! This is the fix for the shipped terrain maze read as "all squares cost 1" (a parser that
//! replaced the squares without the count), which made A* and BFS claim optimal paths of
//! cost 107 where the least is 45.

/// Debug builds check the cached count after every change on grids of at most this many
/// squares (a scan a change).
pub const CHECKED_SQUARES: usize = 1 << 16;

/// A maze's squares, row-major: 0 blocked, 1 to [`super::MAX_COST`] the cost of entering.
#[derive(Clone, Debug, Default)]
pub struct Terrain {
    cost: Vec<u8>,
    /// How many squares cost more than 1: derived from `cost`, never set from outside.
    heavy: usize,
}

impl PartialEq for Terrain {
    /// Two terrains are equal when their squares are (the count follows from them).
    fn eq(&self, other: &Self) -> bool {
        self.cost == other.cost
    }
}

impl Eq for Terrain {}

impl Terrain {
    /// `squares` squares, all free at cost 1.
    pub fn open(squares: usize) -> Self {
        Self::from_costs(vec![1; squares])
    }

    /// The squares `cost` (row-major; values as in [`super::Maze::cost_at`], higher ones are
    /// clamped to [`super::MAX_COST`]), counting the heavy ones.
    pub fn from_costs(mut cost: Vec<u8>) -> Self {
        for c in &mut cost {
            *c = (*c).min(super::MAX_COST);
        }
        let heavy = count_heavy(&cost);
        Self { cost, heavy }
    }

    /// Sets every square to `f(old cost)`, recounting.
    pub fn fill_with(&mut self, mut f: impl FnMut(u8) -> u8) {
        for c in &mut self.cost {
            *c = f(*c).min(super::MAX_COST);
        }
        self.heavy = count_heavy(&self.cost);
    }

    /// Sets square `i` to `cost` (clamped to [`super::MAX_COST`]); returns the old cost, or
    /// `None` when `i` is outside (nothing changes).
    pub fn set(&mut self, i: usize, cost: u8) -> Option<u8> {
        let cost = cost.min(super::MAX_COST);
        let slot = self.cost.get_mut(i)?;
        let old = std::mem::replace(slot, cost);
        self.heavy = self.heavy + usize::from(cost > 1) - usize::from(old > 1);
        self.debug_check();
        Some(old)
    }

    /// The cost of square `i`; 0 (blocked) outside.
    #[inline]
    pub fn get(&self, i: usize) -> u8 {
        self.cost.get(i).copied().unwrap_or(0)
    }

    /// Every square, row-major.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.cost
    }

    /// The number of squares.
    pub fn len(&self) -> usize {
        self.cost.len()
    }

    /// Whether there are no squares.
    pub fn is_empty(&self) -> bool {
        self.cost.is_empty()
    }

    /// Whether every free square costs 1 (O(1): the kept count).
    #[inline]
    pub fn is_uniform(&self) -> bool {
        self.heavy == 0
    }

    /// Whether every free square costs 1, scanning the squares: the derivation the kept
    /// count must always agree with.
    pub fn scan_is_uniform(&self) -> bool {
        count_heavy(&self.cost) == 0
    }

    /// Debug builds: panics if the kept count disagrees with a scan (on grids up to
    /// [`CHECKED_SQUARES`] squares). Release builds: nothing.
    #[inline]
    pub fn debug_check(&self) {
        #[cfg(debug_assertions)]
        if self.cost.len() <= CHECKED_SQUARES {
            assert_eq!(
                self.heavy,
                count_heavy(&self.cost),
                "the count of squares costing more than 1 went stale"
            );
        }
    }
}

fn count_heavy(cost: &[u8]) -> usize {
    cost.iter().filter(|&&c| c > 1).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_in_keeps_the_count() {
        let mut t = Terrain::from_costs(vec![1, 0, 5, 1]);
        assert!(!t.is_uniform());
        assert_eq!(t.set(2, 1), Some(5));
        assert!(t.is_uniform());
        assert_eq!(t.set(9, 7), None);
        t.set(0, 200);
        assert_eq!(t.get(0), super::super::MAX_COST);
        assert!(!t.is_uniform());
        t.fill_with(|c| u8::from(c == 0));
        assert!(t.is_uniform());
        assert_eq!(t.is_uniform(), t.scan_is_uniform());
        assert_eq!(Terrain::open(3), Terrain::from_costs(vec![1, 1, 1]));
    }
}
