//! An open list for small integer priorities: a bucket a value of `f`, and in each bucket the
//! entries in classes by the tie-breaking policy, so that pushing and popping cost O(1) instead
//! of the heap's O(log n). Its layout is the policy's [`TieRule`] ([`super::order`]: classes by
//! `g` when the rule compares `g`, in the direction it prefers; each class's list taken at the
//! end the rule's arrival says), so it gives entries in exactly the order of
//! [`super::order::first_out`], the order of [`super::best_first`]'s heap, and a search using
//! it expands what the heap's would.
//!
//! Within a bucket the classes are indexed by `h = f - g` rather than by `g`: for a grid's
//! Manhattan distance `h` is below the number of rows plus columns, while `g` can approach the
//! number of squares.

use std::collections::VecDeque;

use super::TieBreak;
use super::limits::Store;
use super::order::{Arrival, Prefer, TieRule};

/// No entry: the end of a list.
const NIL: u32 = u32::MAX;

/// The entries of one value of `f`.
#[derive(Default)]
struct Bucket {
    /// By `h` for the `g` policies (index `h`), in one class (index 0) otherwise: the first
    /// and the last entry of each class's list in [`BucketQueue::nodes`], [`NIL`] if it is
    /// empty.
    lists: Vec<(u32, u32)>,
    /// The class the next entry comes from (while `len > 0`).
    best: usize,
    /// Entries held.
    len: usize,
}

/// The open list: items (`u32`, a square for a grid) with an integer priority `f` and cost
/// `g <= f`, popped smallest `f` first and among equal `f` in the order of the policy.
/// Pushing an `f` below one already popped is allowed (it costs a bucket per value between).
/// The entries of every class live in one arena as linked lists, popped at the head and
/// pushed at the tail (last in, first out: at the head), freed slots reused first, so a push
/// or a pop touches memory a recent one touched.
pub(super) struct BucketQueue {
    rule: TieRule,
    /// Consecutive values of `f`, from `base` up.
    buckets: VecDeque<Bucket>,
    base: u32,
    /// Emptied buckets, kept for their lists' memory.
    spare: Vec<Bucket>,
    /// The entries: (item, next entry of its list or of the free list).
    nodes: Vec<(u32, u32)>,
    /// The first free slot of `nodes`, [`NIL`] if none.
    free: u32,
    len: usize,
    /// Entries the memory budget has been charged for (see [`Store`]).
    quota: usize,
}

impl BucketQueue {
    /// An empty queue ordering ties by `policy`.
    pub fn new(policy: TieBreak) -> Self {
        Self {
            rule: super::order::rule(policy),
            buckets: VecDeque::new(),
            base: 0,
            spare: Vec::new(),
            nodes: Vec::new(),
            free: NIL,
            len: 0,
            quota: 0,
        }
    }

    /// A slot of `nodes` holding `item` followed by `next`, taken from the free list that
    /// starts at `free` if it has one.
    #[inline]
    fn node(nodes: &mut Vec<(u32, u32)>, free: &mut u32, item: u32, next: u32) -> u32 {
        match nodes.get_mut(*free as usize) {
            Some(slot) => {
                let at = *free;
                *free = slot.1;
                *slot = (item, next);
                at
            }
            None => {
                nodes.push((item, next));
                (nodes.len() - 1) as u32
            }
        }
    }

    fn empty_bucket(&mut self) -> Bucket {
        self.spare.pop().unwrap_or_default()
    }

    /// Makes `buckets` start at or below `f` and reach it.
    #[cold]
    fn make_room(&mut self, f: u32) {
        if self.len == 0 {
            self.spare.extend(self.buckets.drain(..));
            self.base = f;
        }
        for _ in f..self.base {
            let bucket = self.empty_bucket();
            self.buckets.push_front(bucket);
        }
        self.base = self.base.min(f);
        while self.buckets.len() <= (f - self.base) as usize {
            let bucket = self.empty_bucket();
            self.buckets.push_back(bucket);
        }
    }

    /// Adds `item` with priority `f` and cost `g` (at most `f`).
    #[inline]
    pub fn push(&mut self, f: u32, g: u32, item: u32) {
        // Below `base`, `i` wraps around to a large number.
        let mut i = f.wrapping_sub(self.base) as usize;
        if self.len == 0 || i >= self.buckets.len() {
            self.make_room(f);
            i = (f - self.base) as usize;
        }
        let rule = self.rule;
        let class = match rule.g {
            Some(_) => f.saturating_sub(g) as usize,
            None => 0,
        };
        let Some(bucket) = self.buckets.get_mut(i) else {
            return;
        };
        if bucket.lists.len() <= class {
            bucket.lists.resize(class + 1, (NIL, NIL));
        }
        // Classes are by `h = f - g`: the larger `g` first is the smaller class first.
        let before = match rule.g {
            Some(Prefer::Larger) => class < bucket.best,
            Some(Prefer::Smaller) => class > bucket.best,
            None => false,
        };
        if bucket.len == 0 || before {
            bucket.best = class;
        }
        bucket.len += 1;
        self.len += 1;
        let (head, tail) = bucket.lists[class];
        if rule.arrival == Arrival::Newest {
            let at = Self::node(&mut self.nodes, &mut self.free, item, head);
            bucket.lists[class] = (at, if tail == NIL { at } else { tail });
        } else {
            let at = Self::node(&mut self.nodes, &mut self.free, item, NIL);
            bucket.lists[class] = (if head == NIL { at } else { head }, at);
            if let Some(last) = self.nodes.get_mut(tail as usize) {
                last.1 = at;
            }
        }
    }

    /// Takes the next item out, or `None` when the queue is empty.
    #[inline]
    pub fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        while self.buckets.front().is_some_and(|b| b.len == 0) {
            self.spare.extend(self.buckets.pop_front());
            self.base += 1;
        }
        let rule = self.rule;
        let bucket = self.buckets.front_mut()?;
        let list = bucket.lists.get_mut(bucket.best)?;
        let at = list.0;
        let slot = self.nodes.get_mut(at as usize)?;
        let (item, next) = *slot;
        slot.1 = self.free;
        self.free = at;
        *list = if next == NIL {
            (NIL, NIL)
        } else {
            (next, list.1)
        };
        bucket.len -= 1;
        self.len -= 1;
        if bucket.len > 0 && next == NIL {
            // The next non-empty class: classes that come out before the best are empty.
            while bucket.lists.get(bucket.best).is_some_and(|l| l.0 == NIL) {
                match rule.g {
                    Some(Prefer::Larger) => bucket.best += 1,
                    Some(Prefer::Smaller) => match bucket.best.checked_sub(1) {
                        Some(best) => bucket.best = best,
                        None => break,
                    },
                    None => break,
                }
            }
        }
        Some(item)
    }
}

impl Store for BucketQueue {
    fn len(&self) -> usize {
        self.len
    }
    fn capacity(&self) -> usize {
        self.quota
    }
    /// Eight bytes an entry, twice over for the arena's slack.
    fn bytes_for(capacity: usize) -> u64 {
        (capacity as u64).saturating_mul(16)
    }
    fn try_grow(&mut self, additional: usize) -> bool {
        self.quota = self
            .quota
            .saturating_mul(2)
            .max(self.len.saturating_add(additional));
        true
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BinaryHeap;

    use super::super::order::tests::reference;
    use super::super::order::{Entry, Key, TieKeys};
    use super::*;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// Random pushes and pops (priorities never below the last popped, as with a consistent
    /// heuristic, and sometimes below it) come out as from the heap, under every policy.
    #[test]
    fn the_buckets_give_the_heaps_order() {
        for policy in TieBreak::ALL {
            let mut rng = StdRng::seed_from_u64(7);
            let mut queue = BucketQueue::new(policy);
            let mut heap = BinaryHeap::new();
            let mut keys = TieKeys::new(policy);
            let mut floor = 0u32;
            for item in 0..20_000u32 {
                if rng.random_bool(0.45) {
                    let a = queue.pop();
                    let b = heap.pop().map(|e: Entry| e.id);
                    assert_eq!(a, b, "{policy:?} at {item}");
                } else {
                    let f = if rng.random_bool(0.02) {
                        floor.saturating_sub(3)
                    } else {
                        floor + rng.random_range(0..3)
                    };
                    let g = rng.random_range(0..=f);
                    floor = floor.max(f.saturating_sub(1));
                    queue.push(f, g, item);
                    heap.push(keys.entry(f64::from(f), f64::from(g), item));
                }
                assert_eq!(queue.len, heap.len());
            }
            while let Some(e) = heap.pop() {
                assert_eq!(queue.pop(), Some(e.id), "{policy:?} draining");
            }
            assert_eq!(queue.pop(), None);
        }
    }

    /// Everything pushed, then everything popped: the order of
    /// [`super::super::order::first_out`], under every policy.
    #[test]
    fn the_buckets_give_the_first_out_order() {
        for policy in TieBreak::ALL {
            for seed in 0..20 {
                let mut rng = StdRng::seed_from_u64(seed);
                let keys: Vec<Key> = (0..400u64)
                    .map(|arrival| {
                        let f = rng.random_range(0..8u32);
                        let g = rng.random_range(0..=f);
                        Key {
                            f: f64::from(f),
                            g: f64::from(g),
                            arrival,
                        }
                    })
                    .collect();
                let mut queue = BucketQueue::new(policy);
                for k in &keys {
                    queue.push(k.f as u32, k.g as u32, k.arrival as u32);
                }
                let out: Vec<u64> = std::iter::from_fn(|| queue.pop()).map(u64::from).collect();
                assert_eq!(out, reference(policy, &keys), "{policy:?} seed {seed}");
            }
        }
    }
}
