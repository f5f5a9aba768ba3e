//! The fast solver's feature-space order, after Shoham's FESS ("The FESS algorithm: a feature
//! based approach to single-agent search", IEEE CoG 2020; Festival's solver): every position
//! is filed in a cell of a feature space by its features (here two of FESS's four: the goals
//! packed in the packing order, [`super::packing`], and the player's connectivity,
//! [`super::board::Board::regions`]), and the search takes its cells in turn, round robin,
//! each time expanding the best position of the next cell. So no one region of the space
//! holds the search for long, as a single best-first order does when its bound leads it into
//! a dead end it cannot see.
//!
//! Within a cell, positions come by their weight, then by the matching bound, then the
//! newest first. A position's weight is its parent's plus 0 for a push an advisor proposes
//! (one that packs one more goal in the order, or joins two of the player's areas: FESS's
//! packing and connectivity advisors) and 1 for any other push, as FESS weighs its moves.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// A position's features: (goals packed in the order, the player's areas).
pub type Features = (u32, u32);

/// One cell's positions: (weight, bound) reversed (the least first), then the node.
type Queue = BinaryHeap<(Reverse<(u32, u32)>, u32)>;

/// The positions waiting, by cell (see the module's doc).
#[derive(Default)]
pub struct Cells {
    /// Each cell's place in `queues`, by its features.
    index: HashMap<Features, usize>,
    /// Each cell's positions: the least (weight, bound) first, among equals the newest.
    queues: Vec<Queue>,
    /// The cell taken last.
    cursor: usize,
    /// Positions waiting in all cells.
    len: usize,
}

impl Cells {
    /// Files position `id` of `weight` and `bound` in the cell of `features`.
    pub fn push(&mut self, features: Features, weight: u32, bound: u32, id: u32) {
        let next = self.queues.len();
        let cell = *self.index.entry(features).or_insert(next);
        if cell == next {
            self.queues.push(BinaryHeap::new());
        }
        self.queues[cell].push((Reverse((weight, bound)), id));
        self.len += 1;
    }

    /// The best position of the next cell that holds one, in turn.
    pub fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        loop {
            self.cursor = (self.cursor + 1) % self.queues.len();
            if let Some((_, id)) = self.queues[self.cursor].pop() {
                self.len -= 1;
                return Some(id);
            }
        }
    }

    /// Positions waiting.
    pub fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::Cells;

    #[test]
    fn cells_are_taken_in_turn_and_each_gives_its_least_weight_first() {
        let mut cells = Cells::default();
        cells.push((0, 1), 3, 9, 1);
        cells.push((0, 1), 0, 20, 2);
        cells.push((1, 1), 5, 0, 3);
        cells.push((0, 1), 0, 20, 4);
        let order: Vec<u32> = std::iter::from_fn(|| cells.pop()).collect();
        // The cells in turn from the second; in (0, 1) weight 0 before 3, the newest of
        // equals first.
        assert_eq!(order, vec![3, 4, 2, 1]);
        assert_eq!((cells.len(), cells.queues.len()), (0, 2));
    }
}
