//! The whole-space count on the threads of a `rayon` pool: breadth-first by
//! layers. Each layer's states are expanded in parallel (the goal test and the successors of
//! each, in slices of [`SLICE`] states), then merged on the calling thread into the set of
//! states reached, in the layer's order, so the count is the plain breadth-first count's
//! ([`super::count_reachable`]) exactly. The memory budget and the time limit are held as
//! there; the problem's own calls are bound on each worker by the caller's `bind`.

use rayon::prelude::*;

use super::limits::Budget;
use super::{CancelToken, Interrupt, Outcome, Problem, StateCount, Successor};

/// States expanded between two merges (and two checks of Stop and the time limit): bounds
/// the successors held outside the set of states reached.
pub(super) const SLICE: usize = 4096;

/// States one worker expands in a row, under one binding of `bind`.
const CHUNK: usize = 64;

/// Work run on a worker thread, with the thread bound as its caller wants it.
pub type Bind<'a> = dyn Fn(&mut dyn FnMut()) + Sync + 'a;

/// The threads a search by layers runs on, and how each binds its share of the work.
#[derive(Clone, Copy)]
pub struct Workers<'a> {
    /// The pool whose threads expand the states.
    pub pool: &'a rayon::ThreadPool,
    /// Runs each worker's share of the work (binding the thread as the problem's calls
    /// need, for example to the run's limits).
    pub bind: &'a Bind<'a>,
}

/// `each` of `items`, in order, on the threads of `workers`, [`CHUNK`] items a worker at a
/// time under its binding; fewer (a prefix of them, in order) when `cancel` was cancelled
/// meanwhile.
pub(super) fn in_parallel<S: Sync, T: Send>(
    items: &[S],
    cancel: &CancelToken,
    workers: Workers<'_>,
    each: impl Fn(&S) -> T + Sync,
) -> Vec<T> {
    let bind = workers.bind;
    let parts: Vec<Vec<T>> = workers.pool.install(|| {
        items
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut out = Vec::with_capacity(chunk.len());
                bind(&mut || {
                    for item in chunk {
                        if cancel.is_cancelled() {
                            return;
                        }
                        out.push(each(item));
                    }
                });
                out
            })
            .collect()
    });
    let mut all = Vec::with_capacity(items.len());
    for part in parts {
        let whole = part.len() == CHUNK;
        all.extend(part);
        if !whole && all.len() < items.len() {
            break;
        }
    }
    all
}

/// The successors of `state` (their states, in the problem's order).
///
/// # Errors
/// The problem's [`Interrupt`] when they were cut short.
pub(super) fn successor_states<P: Problem + ?Sized>(
    problem: &P,
    state: &P::State,
) -> Result<Vec<P::State>, Interrupt> {
    let mut out: Vec<Successor<P::State, P::Move>> = Vec::new();
    problem.successors(state, &mut out)?;
    Ok(out.into_iter().map(|s| s.state).collect())
}

/// A state's expansion: whether it is a goal, and its successors (either cut short by an
/// interrupt: a stop, or the problem's error).
type Expansion<S> = (Result<bool, Interrupt>, Result<Vec<S>, Interrupt>);

/// What a count by layers has merged: the states reached, those of them on the next layer,
/// how many states were expanded and how many of them were goals.
struct Reached<S> {
    seen: rustc_hash::FxHashSet<S>,
    next: Vec<S>,
    expanded: u64,
    goals: u64,
}

/// Merges the expansions of a slice of states into `reached`, in order: their goals counted,
/// each successor not reached before added to the states reached and the next layer, under
/// the memory budget.
fn merge<P: Problem + ?Sized>(
    problem: &P,
    found: Vec<Expansion<P::State>>,
    reached: &mut Reached<P::State>,
    budget: &mut Budget,
) -> Result<(), Outcome> {
    for (goal, successors) in found {
        // Counted as the plain count does: a state whose successors were cut short was
        // expanded, the states after it in the slice were not.
        reached.expanded += 1;
        reached.goals += u64::from(goal.map_err(|i| budget.interrupted(i))?);
        let successors = successors.map_err(|i| budget.interrupted(i))?;
        budget.reserve(
            &mut reached.seen,
            successors.len(),
            "the set of states reached",
        )?;
        budget.reserve(
            &mut reached.next,
            successors.len(),
            "the queue of states to expand",
        )?;
        for s in successors {
            // Two copies of each new state: in the set and on the queue.
            let bytes = 2 * problem.state_heap_bytes(&s) as u64;
            if reached.seen.insert(s.clone()) {
                reached.next.push(s);
                budget.charge(bytes, "the states reached (their own bytes)")?;
            }
        }
    }
    Ok(())
}

/// Counts every state reachable from `problem`'s start states, and the goals among them, as
/// [`super::count_reachable`] does, expanding each breadth-first layer on the threads of
/// `workers` (each worker's share bound as `workers` says, for example to the run's limits,
/// as the problem's calls need them).
pub fn count_reachable_in_layers<P>(
    problem: &P,
    cancel: &CancelToken,
    workers: Workers<'_>,
) -> StateCount
where
    P: Problem + Sync + ?Sized,
    P::State: Send + Sync,
{
    let started = std::time::Instant::now();
    let mut budget = Budget::new(cancel);
    let mut merged_so_far = Reached {
        seen: rustc_hash::FxHashSet::default(),
        next: Vec::new(),
        expanded: 0,
        goals: 0,
    };
    let mut layer: Vec<P::State> = Vec::new();
    let stopped = (|| {
        for s in problem.start_states() {
            budget.reserve(&mut merged_so_far.seen, 1, "the set of states reached")?;
            budget.reserve(&mut layer, 1, "the queue of states to expand")?;
            if merged_so_far.seen.insert(s.clone()) {
                layer.push(s);
            }
        }
        while !layer.is_empty() {
            // A slice's expansions merged while the next slice of the layer is expanded (one
            // worker merges, the others expand): merged on the calling thread between the
            // slices, they left every worker idle meanwhile. In the same order as one by one.
            let mut expanded_slice: Option<Vec<Expansion<P::State>>> = None;
            for slice in layer.chunks(SLICE) {
                budget.check_now()?;
                let (found, merged) = workers.pool.install(|| {
                    rayon::join(
                        || {
                            in_parallel(slice, cancel, workers, |state| {
                                (problem.is_goal(state), successor_states(problem, state))
                            })
                        },
                        || match expanded_slice.take() {
                            Some(found) => merge(problem, found, &mut merged_so_far, &mut budget),
                            None => Ok(()),
                        },
                    )
                });
                merged?;
                // Stopped during the slice: the states expanded are not all known.
                budget.check_now()?;
                expanded_slice = Some(found);
            }
            if let Some(found) = expanded_slice {
                merge(problem, found, &mut merged_so_far, &mut budget)?;
            }
            layer = std::mem::take(&mut merged_so_far.next);
        }
        Ok(())
    })()
    .err();
    let Reached {
        seen,
        next,
        expanded,
        goals,
    } = merged_so_far;
    let tally = super::count::Tally {
        states: seen.len() as u64,
        goals,
        expanded,
        frontier: (layer.len() + next.len()) as u64,
    };
    StateCount::ended(&tally, started, stopped, &budget, cancel)
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng, rngs::StdRng};

    use super::*;

    /// A random graph of `n` nodes from a seed: each node's successors are a few random nodes
    /// (so some are unreachable), every seventh a goal.
    struct RandomGraph {
        edges: Vec<Vec<u32>>,
    }

    impl RandomGraph {
        fn new(seed: u64, n: u32) -> Self {
            let mut rng = StdRng::seed_from_u64(seed);
            let edges = (0..n)
                .map(|_| {
                    let degree = rng.random_range(1..4);
                    (0..degree).map(|_| rng.random_range(0..n)).collect()
                })
                .collect();
            Self { edges }
        }
    }

    impl Problem for RandomGraph {
        type State = u32;
        type Move = u32;

        fn start_states(&self) -> Vec<u32> {
            vec![0]
        }

        fn is_goal(&self, state: &u32) -> Result<bool, Interrupt> {
            Ok(state % 7 == 3)
        }

        fn successors(
            &self,
            state: &u32,
            out: &mut Vec<Successor<u32, u32>>,
        ) -> Result<(), Interrupt> {
            for &to in &self.edges[*state as usize] {
                out.push(Successor {
                    state: to,
                    mv: to,
                    cost: 1.0,
                });
            }
            Ok(())
        }
    }

    /// The layered count on two threads equals the plain breadth-first count, states and
    /// goals, on seeded random graphs, and every worker's share ran under `bind`.
    #[test]
    fn the_layered_count_is_the_plain_count() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool of two");
        for seed in 0..40 {
            let graph = RandomGraph::new(seed, 9000);
            let plain = super::super::count_reachable(&graph, &CancelToken::new());
            let bound = std::sync::atomic::AtomicUsize::new(0);
            let bind = |work: &mut dyn FnMut()| {
                bound.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                work();
            };
            let workers = Workers {
                pool: &pool,
                bind: &bind,
            };
            let layered = count_reachable_in_layers(&graph, &CancelToken::new(), workers);
            assert_eq!(
                (layered.states, layered.goals, layered.stopped),
                (plain.states, plain.goals, plain.stopped),
                "seed {seed}"
            );
            let chunks = (plain.states as usize).div_ceil(CHUNK);
            assert!(bound.into_inner() >= chunks, "seed {seed}");
        }
    }

    /// The widest breadth-first layer of `graph` from node 0.
    fn widest_layer(graph: &RandomGraph) -> usize {
        let mut seen = vec![false; graph.edges.len()];
        seen[0] = true;
        let (mut layer, mut widest) = (vec![0u32], 1);
        while !layer.is_empty() {
            let mut next = Vec::new();
            for &n in &layer {
                for &to in &graph.edges[n as usize] {
                    if !std::mem::replace(&mut seen[to as usize], true) {
                        next.push(to);
                    }
                }
            }
            widest = widest.max(next.len());
            layer = next;
        }
        widest
    }

    /// On layers of several slices, each slice merged while the next is expanded, the count
    /// is still the plain count, states and goals.
    #[test]
    fn layers_of_several_slices_count_as_the_plain_count() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool of two");
        let workers = Workers {
            pool: &pool,
            bind: &|w| w(),
        };
        for seed in 0..4 {
            let graph = RandomGraph::new(seed, 200_000);
            assert!(widest_layer(&graph) > 3 * SLICE, "seed {seed}");
            let plain = super::super::count_reachable(&graph, &CancelToken::new());
            let layered = count_reachable_in_layers(&graph, &CancelToken::new(), workers);
            assert_eq!(
                (layered.states, layered.goals, layered.stopped),
                (plain.states, plain.goals, plain.stopped),
                "seed {seed}"
            );
        }
    }

    /// A cancelled count stops with the states reached so far, as the plain count does.
    #[test]
    fn a_cancelled_count_says_so() {
        let cancel = CancelToken::new();
        cancel.cancel();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool");
        let workers = Workers {
            pool: &pool,
            bind: &|w| w(),
        };
        let count = count_reachable_in_layers(&RandomGraph::new(1, 100), &cancel, workers);
        assert_eq!(count.stopped, Some(Outcome::Cancelled));
        assert_eq!(count.states, 1);
    }
}
