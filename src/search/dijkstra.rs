//! Dijkstra's algorithm (uniform-cost search): expands states in order of path cost `g`, so
//! the first goal expanded is reached by a least-cost path, for any non-negative costs.

use super::best_first::{self, Policy};
use super::limits::Budget;
use super::{Observer, Problem, SearchResult};

const POLICY: Policy = Policy {
    g_weight: 1.0,
    h_weight: 0.0,
    uses_heuristic: false,
    reopen: false,
};

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    best_first::search(problem, starts, observer, budget, &POLICY)
}
