//! Jump Point Search (Harabor and Grastien, "Online Graph Pruning for Pathfinding on Grid
//! Maps", AAAI 2011): A* on a uniform-cost 8-connected grid whose successors are jump points.
//! From each state only the directions the pruning rules keep are scanned, in straight or
//! diagonal lines, until a square where an optimal path may turn (a forced neighbour) or a
//! goal; the squares in between are never put on the open list. The puzzle scans
//! ([`Problem::jump_successors`]); this module orders the jump points as A* does. With an
//! admissible heuristic the solution has the least cost, like A*'s.

use super::best_first::{self, Policy};
use super::limits::Budget;
use super::{Observer, Problem, SearchResult};

/// A* over jump points: JPS+ orders its jump points by the same policy.
pub(super) const POLICY: Policy = Policy {
    g_weight: 1.0,
    h_weight: 1.0,
    uses_heuristic: true,
    reopen: true,
    jump: true,
};

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    best_first::search(problem, starts, observer, budget, &POLICY)
}
