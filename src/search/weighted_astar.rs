//! Weighted A* (Pohl, 1970): best-first by `g + w * h` with `w >= 1`. Trading optimality for
//! speed, it expands far fewer states on large problems; with a consistent heuristic its
//! solution costs at most `w` times the least cost. Closed states are not reopened.

use super::best_first::{self, Policy};
use super::limits::Budget;
use super::{Cost, Observer, Problem, SearchResult};

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
    weight: Cost,
) -> SearchResult<P::State, P::Move> {
    let policy = Policy {
        g_weight: 1.0,
        h_weight: weight,
        uses_heuristic: true,
        reopen: false,
    };
    best_first::search(problem, starts, observer, budget, &policy)
}
