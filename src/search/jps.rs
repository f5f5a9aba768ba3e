//! Jump Point Search (Harabor and Grastien, "Online Graph Pruning for Pathfinding on Grid
//! Maps", AAAI 2011): A* on a uniform-cost 8-connected grid whose successors are jump points.
//! From each state only the directions the pruning rules keep are scanned, in straight or
//! diagonal lines, until a square where an optimal path may turn (a forced neighbour) or a
//! goal; the squares in between are never put on the open list. The puzzle's scan is built
//! once per run ([`super::JumpPoints::jump_scan`], on bit rows by `search::octile`'s one
//! scanner); this module orders the jump points as A* does, and so does JPS+
//! ([`super::jps_plus`]), through [`over_jump_points`]. With an admissible heuristic the
//! solution has the least cost, like A*'s.

use super::best_first::{self, Policy};
use super::limits::Budget;
use super::{JumpPoints, Observer, Problem, SearchResult};

/// A* over jump points.
const POLICY: Policy = Policy {
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
    let scan = jump_points.jump_scan();
    over_jump_points(problem, &*scan, starts, observer, budget)
}

/// A* over the jump points `successors` gives (JPS's scan, JPS+'s distances): the one
/// search of both.
pub(super) fn over_jump_points<P: Problem + ?Sized>(
    problem: &P,
    successors: best_first::Jumps<'_, P::State, P::Move>,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    best_first::search_with_jumps(problem, starts, observer, budget, &POLICY, Some(successors))
}
