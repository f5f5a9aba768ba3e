//! A small transposition table for each worker thread (Reinefeld and Marsland, "Enhanced
//! iterative-deepening search", IEEE PAMI 1994): the states expanded in the current iteration
//! and the fewest moves they were reached in, so that a state reached again by as many moves or
//! more is not searched twice. With parent-move pruning, IDA*'s tree on the 15-puzzle still
//! holds many such duplicates (the shortest are two 12-move paths round a 2 x 2 block, and
//! the 7-8 tables let most longer ones through too).
//!
//! Why it stays optimal: a state's subtree within the bound, searched from `g'` moves, holds
//! every path that the same state's subtree from `g >= g'` moves would search, each ending no
//! later; so the skipped subtree would find no solution and note no lower next bound than the
//! one searched (it is searched to the end, or is still being searched on the current path, or
//! the solution was found). The table is direct-mapped and lossy: a newer state overwrites an
//! older one on its slot, which only costs a search skipped.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of each worker thread's table: 16,384 of 32 bytes (512 KB, within a core's cache).
/// On Korf's 100 (one core, no dual lookups) an unbounded table took the states generated
/// from 36,800 to 29,300 an instance; 2^12 slots to 30,500, 2^14 to 29,600, 2^16 to 29,400.
const SLOTS: usize = 1 << 14;

/// The table is read and written only for states at least this many moves under the bound.
/// Deeper ones are most of the expansions, but their slots are overwritten before they come
/// again: on Korf's 100 (with and without dual lookups) and on two of the 24-puzzles, 20 and
/// 30 skipped as many states as 0, and the deeper reads and writes only cost time.
pub(super) const MIN_MOVES_LEFT: u32 = 20;

#[derive(Clone, Copy, Default)]
struct Slot {
    /// The board: tile `t` on square `s` adds `t << (5 s)` (25 squares at most).
    key: u128,
    /// The iteration the slot was written in ([`new_stamp`]); 0 for an empty slot.
    stamp: u64,
    /// The moves from the start the state was expanded at.
    g: u32,
}

/// Stamps for iterations, unique over every search in the process (so no slot written by an
/// earlier iteration or an earlier search is ever read as current).
static NEXT_STAMP: AtomicU64 = AtomicU64::new(1);

/// A fresh stamp for one iteration of one search.
pub(super) fn new_stamp() -> u64 {
    NEXT_STAMP.fetch_add(1, Ordering::Relaxed)
}

thread_local! {
    /// Each thread's slots, lent to one search at a time.
    static SLOTS_OF_THREAD: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
}

/// This thread's table, lent for one stamp (an iteration) and given back when dropped.
pub(super) struct Transpositions {
    slots: Vec<Slot>,
    stamp: u64,
}

impl Transpositions {
    /// Borrows this thread's table for the iteration stamped `stamp`, allocating it on the
    /// thread's first use. Without the memory (or while another search on this thread holds
    /// the table) the table is empty, and [`Transpositions::seen`] always says no.
    pub(super) fn lend(stamp: u64) -> Self {
        let mut slots = SLOTS_OF_THREAD.with(|t| t.take());
        if slots.len() != SLOTS && slots.try_reserve_exact(SLOTS).is_ok() {
            slots.resize(SLOTS, Slot::default());
        }
        Self { slots, stamp }
    }

    /// An empty table that never answers (for the tests' plain runs).
    pub(super) fn none() -> Self {
        Self {
            slots: Vec::new(),
            stamp: 0,
        }
    }

    /// Whether the board `key` was expanded earlier in this iteration at most `g` moves from
    /// the start; when not, records it at `g`.
    #[inline]
    pub(super) fn seen(&mut self, key: u128, g: u32) -> bool {
        if self.slots.is_empty() {
            return false;
        }
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        let i = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (SLOTS - 1);
        let slot = &mut self.slots[i];
        if slot.stamp == self.stamp && slot.key == key && slot.g <= g {
            return true;
        }
        *slot = Slot {
            key,
            stamp: self.stamp,
            g,
        };
        false
    }
}

impl Drop for Transpositions {
    fn drop(&mut self) {
        if self.slots.len() == SLOTS {
            let slots = std::mem::take(&mut self.slots);
            SLOTS_OF_THREAD.with(|t| *t.borrow_mut() = slots);
        }
    }
}

/// The key of a board of at most 25 squares (`board[s]` the tile on square `s`).
pub(super) fn key_of(board: &[u8]) -> u128 {
    board
        .iter()
        .enumerate()
        .map(|(s, &t)| u128::from(t) << (5 * s))
        .sum()
}

/// How a key changes when tile `t` slides from square `from` to square `to`.
#[inline]
pub(super) fn slid(key: u128, t: u8, from: u8, to: u8) -> u128 {
    key.wrapping_sub(u128::from(t) << (5 * u32::from(from)))
        .wrapping_add(u128::from(t) << (5 * u32::from(to)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_the_moves_and_the_table_answers_by_moves() {
        let board = [1u8, 0, 2, 3];
        let after = [0u8, 1, 2, 3];
        let key = key_of(&board);
        assert_eq!(slid(key, 1, 0, 1), key_of(&after));
        assert_eq!(slid(slid(key, 1, 0, 1), 1, 1, 0), key);
        let stamp = new_stamp();
        let mut table = Transpositions::lend(stamp);
        assert!(!table.seen(key, 5));
        assert!(table.seen(key, 5));
        assert!(table.seen(key, 7));
        assert!(!table.seen(key, 3), "fewer moves: searched again");
        assert!(!table.seen(key_of(&after), 3));
        drop(table);
        let mut next = Transpositions::lend(new_stamp());
        assert!(!next.seen(key, 9), "a new iteration starts empty");
        assert!(!Transpositions::none().seen(key, 9));
    }
}
