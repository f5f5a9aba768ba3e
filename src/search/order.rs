//! The one definition of the order in which states leave the frontier (open list) of the
//! best-first searches: the least priority `f` first; among equal `f`, the run's
//! [`TieBreak`] policy read as a [`TieRule`] (the larger or smaller `g`, or none); then the
//! order the entries were put on (first in, first out, or last in, first out, as the rule
//! says).
//!
//! Every open list reads it here: [`first_out`] is the order as a comparison (the plain
//! definition: the Learn panel's re-derivation in `runs/open_list.rs` sorts by it);
//! [`TieKeys`] makes an [`Entry`] whose [`Entry::rank`] is the same order as one number (the
//! binary heaps of [`super::best_first`], [`super::bidirectional_astar`] and
//! [`super::octile`] compare it); [`rule`] is what [`super::bucket_queue`] lays its buckets out
//! by (and what the grid's A* reads to hold back its next entry). A new tie policy is a new [`TieBreak`] and its line in [`rule`]; the tests
//! below hold the rank to [`first_out`], and each open list's own test holds it to the same
//! comparison.

use std::cmp::Ordering;

use super::tree::NodeId;
use super::{Cost, TieBreak};

/// Which `g` comes out first among entries of equal `f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefer {
    /// The larger path cost (the deeper state).
    Larger,
    /// The smaller path cost.
    Smaller,
}

/// Which entry comes out first among entries equal in `f` and in what the rule compares
/// before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// The entry put on the open list first (first in, first out).
    Oldest,
    /// The entry put on the open list last (last in, first out).
    Newest,
}

/// A tie policy as what it compares: `g` (if at all), then the entries' arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TieRule {
    /// Which `g` first; `None` when `g` does not decide.
    pub g: Option<Prefer>,
    /// Then which arrival first.
    pub arrival: Arrival,
}

/// The rule of `policy`: the only place a [`TieBreak`] is read as an order.
pub fn rule(policy: TieBreak) -> TieRule {
    match policy {
        TieBreak::HighG => TieRule {
            g: Some(Prefer::Larger),
            arrival: Arrival::Oldest,
        },
        TieBreak::LowG => TieRule {
            g: Some(Prefer::Smaller),
            arrival: Arrival::Oldest,
        },
        TieBreak::Fifo => TieRule {
            g: None,
            arrival: Arrival::Oldest,
        },
        TieBreak::Lifo => TieRule {
            g: None,
            arrival: Arrival::Newest,
        },
    }
}

/// What the order reads of an entry of the open list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// The priority (at least 0; infinity for an entry that goes last).
    pub f: Cost,
    /// The path cost from a start (at least 0; compared as an `f32`, as the entries keep it).
    pub g: Cost,
    /// The order it was put on the open list in (0 for the first).
    pub arrival: u64,
}

/// Whether `a` leaves the open list before `b` ([`Ordering::Less`]) or after under
/// `policy`: the least `f`, then the policy's rule. Entries of one open list differ in
/// `arrival`, so the order is total.
pub fn first_out(policy: TieBreak, a: &Key, b: &Key) -> Ordering {
    let rule = rule(policy);
    let g = |k: &Key| k.g as f32 + 0.0;
    a.f.total_cmp(&b.f)
        .then_with(|| match rule.g {
            Some(Prefer::Larger) => g(b).total_cmp(&g(a)),
            Some(Prefer::Smaller) => g(a).total_cmp(&g(b)),
            None => Ordering::Equal,
        })
        .then_with(|| match rule.arrival {
            Arrival::Oldest => a.arrival.cmp(&b.arrival),
            Arrival::Newest => b.arrival.cmp(&a.arrival),
        })
}

/// An entry of a binary heap's open list. The heap is a max-heap, so `Ord` is reversed: the
/// entry of the larger [`Entry::rank`] comes out first, which is the entry [`first_out`]
/// puts first. (First in, first out among equal `g` took weighted A* through a 24-puzzle in
/// 40,000 expansions where last in, first out took 174,000.) `f` is kept as its bits: for
/// non-negative floats the bits order as the numbers do, so comparing is integer work (the
/// heap's comparisons are most of a grid search's time).
///
/// An entry made stale by a cheaper path to its state is recognised by the state being
/// closed when it comes out: the cheaper entry has the same `h` and a smaller `g`, so it comes
/// out first (or, for greedy search, the state is expanded once with its best `g` either way).
pub(super) struct Entry {
    f_bits: u64,
    tie: u64,
    /// The node this entry is for.
    pub id: NodeId,
}

/// The tie keys of one run's entries, by its [`TieBreak`] policy's [`TieRule`]: the larger
/// key comes out first among entries of equal `f`. When `g` decides, the key is `g` (as
/// `f32` bits, exact below 2^24; flipped for the smaller `g` first) in its high half and, in
/// its low half, the entry's arrival (counted down for the older first); else the arrival
/// alone.
pub(super) struct TieKeys {
    rule: TieRule,
    /// Entries made so far: their arrival.
    made: u32,
}

impl TieKeys {
    /// The keys of a new run under `policy`.
    pub fn new(policy: TieBreak) -> Self {
        Self {
            rule: rule(policy),
            made: 0,
        }
    }

    /// The entry with priority `f` for a node reached at cost `g` (both at least 0).
    #[inline]
    pub fn entry(&mut self, f: Cost, g: Cost, id: NodeId) -> Entry {
        // `+ 0.0` turns a -0.0 into 0.0, whose bits order correctly.
        let g_bits = u64::from((g as f32 + 0.0).to_bits());
        self.made = self.made.saturating_add(1);
        let arrival = match self.rule.arrival {
            Arrival::Oldest => u32::MAX - self.made,
            Arrival::Newest => self.made,
        };
        let tie = match self.rule.g {
            Some(Prefer::Larger) => g_bits << 32 | u64::from(arrival),
            Some(Prefer::Smaller) => (g_bits ^ u64::from(u32::MAX)) << 32 | u64::from(arrival),
            None => u64::from(arrival),
        };
        Entry {
            f_bits: (f + 0.0).to_bits(),
            tie,
            id,
        }
    }
}

impl Entry {
    /// The priority.
    pub fn f(&self) -> Cost {
        Cost::from_bits(self.f_bits)
    }

    /// The entry's place in the order as one number, larger first out: the entries order as
    /// their ranks do (one comparison of two words instead of a tuple's).
    #[inline]
    pub fn rank(&self) -> u128 {
        u128::from(!self.f_bits) << 64 | u128::from(self.tie)
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        (other.f_bits, self.tie).cmp(&(self.f_bits, other.tie))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// `n` random keys (small integer `f` and `g <= f`, many ties; now and then an `f`
    /// with a fraction), arrivals 0, 1, 2, ...
    pub fn random_keys(seed: u64, n: usize) -> Vec<Key> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..n)
            .map(|k| {
                let f = f64::from(rng.random_range(0..6u32));
                let f = if rng.random_bool(0.05) { f + 0.5 } else { f };
                let g = f64::from(rng.random_range(0..=f as u32));
                Key {
                    f,
                    g,
                    arrival: k as u64,
                }
            })
            .collect()
    }

    /// The arrivals of `keys` in the order [`first_out`] takes them.
    pub fn reference(policy: TieBreak, keys: &[Key]) -> Vec<u64> {
        let mut sorted = keys.to_vec();
        sorted.sort_by(|a, b| first_out(policy, a, b));
        sorted.iter().map(|k| k.arrival).collect()
    }

    /// The heap's entries, made in arrival order, come out as [`first_out`] says, under
    /// every policy.
    #[test]
    fn the_heaps_rank_is_the_first_out_order() {
        for policy in TieBreak::ALL {
            for seed in 0..20 {
                let keys = random_keys(seed, 300);
                let mut tie_keys = TieKeys::new(policy);
                let mut heap: std::collections::BinaryHeap<Entry> = keys
                    .iter()
                    .map(|k| tie_keys.entry(k.f, k.g, k.arrival as NodeId))
                    .collect();
                let mut out = Vec::new();
                while let Some(e) = heap.pop() {
                    out.push(u64::from(e.id));
                }
                assert_eq!(out, reference(policy, &keys), "{policy:?} seed {seed}");
            }
        }
    }

    /// The rule reads each policy as its name says.
    #[test]
    fn each_policy_reads_as_its_name_says() {
        let old_deep = Key {
            f: 4.0,
            g: 3.0,
            arrival: 0,
        };
        let new_shallow = Key {
            f: 4.0,
            g: 1.0,
            arrival: 1,
        };
        let less_f = Key {
            f: 3.0,
            g: 0.0,
            arrival: 2,
        };
        for policy in TieBreak::ALL {
            assert_eq!(first_out(policy, &less_f, &old_deep), Ordering::Less);
        }
        let first = |p| first_out(p, &old_deep, &new_shallow);
        assert_eq!(first(TieBreak::HighG), Ordering::Less);
        assert_eq!(first(TieBreak::LowG), Ordering::Greater);
        assert_eq!(first(TieBreak::Fifo), Ordering::Less);
        assert_eq!(first(TieBreak::Lifo), Ordering::Greater);
    }
}
