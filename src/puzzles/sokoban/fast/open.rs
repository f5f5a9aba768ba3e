//! The fast solver's open list, in one of three orders ([`Order`]): one greedy best-first
//! order, FESS's feature cells taken in turn ([`super::super::fess`]), or both at once,
//! taken alternately.
//!
//! Alternation: Röger and Helmert, "The More, the Merrier: Combining Heuristic Estimators
//! for Satisficing Planning" (ICAPS 2010; Fast Downward's alternation open list): every
//! position generated goes into both lists, and the search expands the best of each in
//! turn, a position taken from one skipped when the other gave it first. Where one order
//! is led astray (FESS's cells spread over a level whose bound leads straight home, or the
//! greedy order held in a dead end it cannot see), the other still makes its way, at half
//! its own speed at worst.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::super::fess::Cells;

/// The order of the fast solver's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// One best-first order: the goals left to pack, then the order by the bound; among
    /// equals the position made last first.
    Greedy,
    /// FESS's feature cells taken in turn ([`super::super::fess`]).
    Fess,
    /// Both, expanding from each in turn (see the module's doc).
    Alternate,
}

/// What the open list orders a position by.
pub(super) struct Key {
    /// Goals left to pack in the packing order.
    pub(super) unpacked: u32,
    /// The order by the bound (the bound, or the weighted sum of the options' weight).
    pub(super) order: u32,
    /// The matching bound.
    pub(super) bound: u32,
    /// The player's areas (the board's regions).
    pub(super) regions: u32,
    /// FESS's weight of the position ([`super::super::fess`]).
    pub(super) weight: u32,
}

impl Key {
    /// The start's key: `unpacked` goals left to pack, bound `h`, `regions` areas.
    pub(super) fn of_root(unpacked: u32, h: u32, regions: u32) -> Key {
        Key {
            unpacked,
            order: h,
            bound: h,
            regions,
            weight: 0,
        }
    }
}

/// The greedy order's heap: (goals left to pack, order by the bound) reversed, the node.
type Heap = BinaryHeap<(Reverse<(u32, u32)>, u32)>;

/// The open list (see the module's doc).
pub(super) struct Open {
    greedy: Option<Heap>,
    fess: Option<Cells>,
    /// Under alternation, whether the greedy list gives the next position.
    greedy_turn: bool,
    /// Under alternation, the nodes taken from either list, one bit each.
    taken: Vec<u64>,
    /// Boxes of the level (FESS's packed count is `k` less the goals left).
    k: u32,
}

impl Open {
    /// An empty open list in `order`, for a level of `k` boxes.
    pub(super) fn new(order: Order, k: usize) -> Open {
        Open {
            greedy: (order != Order::Fess).then(Heap::new),
            fess: (order != Order::Greedy).then(Cells::default),
            greedy_turn: true,
            taken: Vec::new(),
            k: k as u32,
        }
    }

    /// Whether FESS's cells are among the lists (they need the player's areas counted).
    pub(super) fn counts_regions(&self) -> bool {
        self.fess.is_some()
    }

    /// Files node `id` by `key` in every list.
    pub(super) fn push(&mut self, key: &Key, id: u32) {
        if let Some(heap) = &mut self.greedy {
            heap.push((Reverse((key.unpacked, key.order)), id));
        }
        if let Some(cells) = &mut self.fess {
            let features = (self.k - key.unpacked, key.regions);
            cells.push(features, key.weight, key.bound, id);
        }
    }

    /// The next node to expand: under alternation from each list in turn, never one node
    /// twice; `None` when all are empty.
    pub(super) fn pop(&mut self) -> Option<u32> {
        match (&mut self.greedy, &mut self.fess) {
            (Some(heap), None) => heap.pop().map(|(_, id)| id),
            (None, Some(cells)) => cells.pop(),
            (Some(_), Some(_)) => self.pop_alternate(),
            (None, None) => None,
        }
    }

    fn pop_alternate(&mut self) -> Option<u32> {
        let (Some(heap), Some(cells)) = (&mut self.greedy, &mut self.fess) else {
            return None;
        };
        loop {
            let id = if self.greedy_turn {
                heap.pop().map(|(_, id)| id).or_else(|| cells.pop())
            } else {
                cells.pop().or_else(|| heap.pop().map(|(_, id)| id))
            }?;
            let (word, bit) = (id as usize / 64, 1u64 << (id % 64));
            if word >= self.taken.len() {
                self.taken.resize(word + 1, 0);
            }
            if self.taken[word] & bit != 0 {
                continue;
            }
            self.taken[word] |= bit;
            self.greedy_turn = !self.greedy_turn;
            return Some(id);
        }
    }

    /// Positions waiting (counted in each list).
    pub(super) fn len(&self) -> usize {
        self.greedy.as_ref().map_or(0, BinaryHeap::len) + self.fess.as_ref().map_or(0, Cells::len)
    }

    /// The bytes the lists hold (about).
    pub(super) fn bytes(&self) -> u64 {
        self.len() as u64 * 12 + self.taken.len() as u64 * 8
    }
}

#[cfg(test)]
mod tests {
    use super::{Key, Open, Order};

    fn key(unpacked: u32, bound: u32) -> Key {
        Key {
            unpacked,
            order: bound,
            bound,
            regions: 1,
            weight: 0,
        }
    }

    #[test]
    fn alternation_takes_each_lists_best_in_turn_and_never_one_node_twice() {
        let mut open = Open::new(Order::Alternate, 2);
        // Greedy order: node 2 (bound 1), then 1 (bound 5), then 3 (bound 9). FESS's cells:
        // node 1 alone in the cell of 0 packed, 2 and 3 in the cell of 1 packed.
        open.push(&key(2, 5), 1);
        open.push(&key(1, 1), 2);
        open.push(&key(1, 9), 3);
        let order: Vec<u32> = std::iter::from_fn(|| open.pop()).collect();
        // Greedy gives 2; FESS's next cell (its cursor starts past the first: the cell of 1
        // packed) gives 2 again, skipped, then its other cell 1; greedy's 1 is taken, so 3.
        assert_eq!(order, vec![2, 1, 3]);
        assert_eq!(open.len(), 0);
        let mut greedy = Open::new(Order::Greedy, 2);
        greedy.push(&key(2, 5), 1);
        greedy.push(&key(1, 1), 2);
        assert!(!greedy.counts_regions());
        assert_eq!(
            std::iter::from_fn(|| greedy.pop()).collect::<Vec<_>>(),
            [2, 1]
        );
    }
}
