//! [`super::OctileSearch`]'s open list: a binary max-heap of [`Ranked`] entries, each an
//! [`Entry`]'s [`Entry::rank`] (the order of [`crate::search::order`]) with its square and
//! the direction it was reached in.

use super::super::order::Entry;

/// An open-list entry as its [`Entry::rank`] (in two words, so that the entry takes 24
/// bytes), its square's bit, and its square and the direction it was reached in
/// ([`pack`]), so that an expansion needs no division to find them: the heap compares one
/// 128-bit number.
#[derive(Clone, Copy)]
pub(super) struct Ranked {
    high: u64,
    low: u64,
    pub id: u32,
    pub at: u32,
}

/// The direction of no move (a start), after the 8 of [`MOVES`].
pub(super) const NO_DIRECTION: u8 = 8;

/// A square (each coordinate below [`MAX_OCTILE_SIDE`], 14 bits) and a direction (an index
/// of [`MOVES`], or [`NO_DIRECTION`]) in 32 bits.
#[inline]
pub(super) fn pack((row, col): (usize, usize), direction: u8) -> u32 {
    (row as u32) << 18 | (col as u32) << 4 | u32::from(direction)
}

/// The square and direction of [`pack`].
#[inline]
pub(super) fn unpack(at: u32) -> ((usize, usize), u8) {
    (
        ((at >> 18) as usize, (at >> 4 & 0x3fff) as usize),
        (at & 0xf) as u8,
    )
}

impl Ranked {
    #[inline]
    fn rank(&self) -> u128 {
        u128::from(self.high) << 64 | u128::from(self.low)
    }
}

impl Ranked {
    /// The entry for the square `at` ([`pack`]) with its `entry`'s rank.
    #[inline]
    pub(super) fn new(entry: Entry, at: u32) -> Self {
        let rank = entry.rank();
        Self {
            high: (rank >> 64) as u64,
            low: rank as u64,
            id: entry.id,
            at,
        }
    }
}

/// Adds `entry` to the binary max-heap `heap` (by rank: the larger first out). The entry
/// is kept in registers while its place is found and written once (a heap that reads back
/// the element it has just written stalls on the store).
#[inline(always)]
pub(super) fn heap_push(heap: &mut Vec<Ranked>, entry: Ranked) {
    let rank = entry.rank();
    let mut at = heap.len();
    heap.push(entry);
    while at > 0 {
        let parent = (at - 1) / 2;
        if heap[parent].rank() >= rank {
            break;
        }
        heap[at] = heap[parent];
        at = parent;
    }
    heap[at] = entry;
}

/// Takes the entry of the largest rank off the binary max-heap `heap`: the hole at the top
/// goes down to a leaf by the larger child (one comparison a level), and the last entry
/// goes up from there (it belongs near the bottom), as the standard library's heap does.
#[inline]
pub(super) fn heap_pop(heap: &mut Vec<Ranked>) -> Option<Ranked> {
    let last = heap.pop()?;
    let Some(&top) = heap.first() else {
        return Some(last);
    };
    let n = heap.len();
    let mut at = 0;
    let mut child = 1;
    while child + 1 < n {
        // Without a branch: which child is larger is a coin toss the processor cannot guess.
        child += usize::from(heap[child + 1].rank() > heap[child].rank());
        heap[at] = heap[child];
        at = child;
        child = 2 * at + 1;
    }
    if child + 1 == n {
        heap[at] = heap[child];
        at = child;
    }
    let rank = last.rank();
    while at > 0 {
        let parent = (at - 1) / 2;
        if heap[parent].rank() >= rank {
            break;
        }
        heap[at] = heap[parent];
        at = parent;
    }
    heap[at] = last;
    Some(top)
}

#[cfg(test)]
mod tests {
    use super::super::super::TieBreak;
    use super::super::super::order::TieKeys;
    use super::super::super::order::tests::{random_keys, reference};
    use super::*;

    /// Entries pushed in arrival order, some popped between, come out as
    /// [`crate::search::order::first_out`] says, under every policy.
    #[test]
    fn the_octile_heap_gives_the_first_out_order() {
        for policy in TieBreak::ALL {
            for seed in 0..20 {
                let keys = random_keys(seed, 300);
                let mut tie_keys = TieKeys::new(policy);
                let mut heap = Vec::new();
                for k in &keys {
                    let entry = tie_keys.entry(k.f, k.g, k.arrival as u32);
                    heap_push(&mut heap, Ranked::new(entry, pack((1, 2), 3)));
                }
                let mut out = Vec::new();
                while let Some(e) = heap_pop(&mut heap) {
                    assert_eq!(unpack(e.at), ((1, 2), 3));
                    out.push(u64::from(e.id));
                }
                assert_eq!(out, reference(policy, &keys), "{policy:?} seed {seed}");
            }
        }
    }
}
