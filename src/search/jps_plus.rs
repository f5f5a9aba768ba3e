//! JPS+ (Harabor and Grastien, "Improving Jump Point Search", ICAPS 2014): Jump Point Search
//! whose jumps are read from jump distances the puzzle computes once per run for the whole
//! grid ([`Problem::jump_distances`]) instead of scanned at every expansion. The search is
//! [`super::jps`]'s A* over jump points; the time of the precomputation is part of the run's
//! and reported as [`Stats::precompute_ms`](super::Stats::precompute_ms). The Moving AI
//! scenarios run it on bit rows ([`super::octile`], [`super::octile::JumpDistances`]).

use super::best_first::{self, Policy};
use super::limits::Budget;
use super::{Observer, Problem, SearchResult};

const POLICY: Policy = Policy {
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
    let jumps = problem.jump_distances();
    let mut result = best_first::search_with_jumps(
        problem,
        starts,
        observer,
        budget,
        &POLICY,
        jumps.as_ref().map(|j| &j.successors),
    );
    result.stats.precompute_ms = jumps.map_or(0.0, |j| j.precompute_ms);
    result
}
