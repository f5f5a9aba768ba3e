//! A* (Hart, Nilsson and Raphael, 1968): expands states in order of `g + h`. With an
//! admissible heuristic the first goal expanded is reached by a least-cost path; closed states
//! are reopened when a cheaper path turns up, so this holds even for an inconsistent heuristic.

use super::best_first::{self, Policy};
use super::limits::Budget;
use super::{Observer, Problem, SearchResult};

const POLICY: Policy = Policy {
    g_weight: 1.0,
    h_weight: 1.0,
    uses_heuristic: true,
    reopen: true,
};

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    best_first::search(problem, starts, observer, budget, &POLICY)
}
