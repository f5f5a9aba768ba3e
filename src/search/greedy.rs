//! Greedy best-first search: expands the state that looks closest to a goal by the heuristic
//! alone. Usually fast, never guaranteed to find a least-cost solution.

use super::best_first::{self, Policy};
use super::limits::Budget;
use super::{Observer, Problem, SearchResult};

const POLICY: Policy = Policy {
    g_weight: 0.0,
    h_weight: 1.0,
    uses_heuristic: true,
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
