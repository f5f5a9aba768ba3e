//! Jump Point Search (Harabor and Grastien, "Online Graph Pruning for Pathfinding on Grid
//! Maps", AAAI 2011): A* on a uniform-cost 8-connected grid whose successors are jump points.
//! From each state only the directions the pruning rules keep are scanned, in straight or
//! diagonal lines, until a square where an optimal path may turn (a forced neighbour) or a
//! goal; the squares in between are never put on the open list. The puzzle scans
//! ([`super::JumpPoints::jump_successors`]); this module orders the jump points as A* does. With an
//! admissible heuristic the solution has the least cost, like A*'s.

use super::best_first::{self, Policy};
use super::limits::Budget;
use super::{JumpPoints, Observer, Problem, SearchResult};

/// A* over jump points: JPS+ orders its jump points by the same policy.
pub(super) const POLICY: Policy = Policy {
    g_weight: 1.0,
    h_weight: 1.0,
    uses_heuristic: true,
    reopen: true,
};

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    jump_points: &dyn JumpPoints<P::State, P::Move>,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let scan = |state: &P::State, parent: Option<&P::State>, out: &mut Vec<_>| {
        jump_points.jump_successors(state, parent, out);
    };
    best_first::search_with_jumps(problem, starts, observer, budget, &POLICY, Some(&scan))
}
