//! JPS+ (Harabor and Grastien, "Improving Jump Point Search", ICAPS 2014): Jump Point Search
//! whose jumps are read from jump distances the puzzle computes once per run for the whole
//! grid ([`super::JumpPoints::jump_distances`]) instead of scanned at every expansion. The
//! search is [`super::jps`]'s A* over jump points ([`super::jps::over_jump_points`]); the time of the precomputation is part of
//! the run's and reported as [`Stats::precompute_ms`](super::Stats::precompute_ms); their
//! memory is charged to the run's budget first ([`super::JumpPoints::jump_distances_bytes`]).
//! The Moving AI scenarios run it on bit rows ([`super::octile`],
//! [`super::octile::JumpDistances`]).

use super::best_first;
use super::limits::Budget;
use super::tree::Tree;
use super::{JumpPoints, Observer, Problem, SearchResult, Stats};

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    jump_points: &dyn JumpPoints<P::State, P::Move>,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let bytes = jump_points.jump_distances_bytes();
    const TABLE: &str = "JPS+'s jump distances";
    if let Err(outcome) = budget.charge(bytes, TABLE) {
        let stopped = match Tree::new(problem, budget) {
            Ok(tree) => tree.finish(outcome, None, Stats::default()),
            Err(stopped) => stopped,
        };
        // The table filled the budget, whatever the tree's table then found.
        budget.exceeded_by = Some(TABLE);
        return stopped;
    }
    let jumps = jump_points.jump_distances();
    // Without jump distances, JPS+ scans as JPS does.
    let scan;
    let successors: best_first::Jumps<'_, P::State, P::Move> = match &jumps {
        Some(j) => &*j.successors,
        None => {
            scan = jump_points.jump_scan();
            &*scan
        }
    };
    let mut result = super::jps::over_jump_points(problem, successors, starts, observer, budget);
    result.stats.precompute_ms = jumps.map_or(0.0, |j| j.precompute_ms);
    result
}
