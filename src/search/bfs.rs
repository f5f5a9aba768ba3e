//! Breadth-first search: expands states in order of depth, so on unit costs the first goal
//! reached is a shortest solution. Goals are detected when generated (and told to the
//! observer as put on the frontier, the run ending there).

use std::collections::VecDeque;

use super::limits::Budget;
use super::tree::Tree;
use super::{Observer, Outcome, Problem, SearchResult, Stats};

const FRONTIER: &str = "the frontier (the queue of states to expand)";

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let silent = observer.is_silent();
    let mut stats = Stats::default();
    let mut tree = match Tree::new(problem, budget) {
        Ok(tree) => tree,
        Err(stopped) => return stopped,
    };
    let mut frontier = VecDeque::new();
    if let Err(outcome) = tree
        .make_room(budget, starts.len())
        .and_then(|()| budget.reserve(&mut frontier, starts.len(), FRONTIER))
    {
        return tree.finish(outcome, None, stats);
    }
    for state in starts {
        let Some(id) = tree.add_root(state) else {
            continue;
        };
        let state = &tree.node(id).state;
        match problem.is_goal(state) {
            Ok(false) => {}
            // The goal (or a start whose goal test failed) is reached, never put on the
            // frontier (the test comes first, as the pseudo-code's line 2): the frontier
            // counts the states queued, so reached = expanded + frontier + 1 here.
            Ok(true) => {
                stats.frontier = frontier.len() as u64;
                return tree.finish(Outcome::Found, Some(id), stats);
            }
            Err(interrupt) => {
                stats.frontier = frontier.len() as u64;
                return tree.finish(budget.interrupted(interrupt), None, stats);
            }
        }
        observer.generated(state);
        if observer.wants_scores() {
            observer.scored_generated(0.0, None);
        }
        frontier.push_back(id);
    }
    stats.max_frontier = frontier.len() as u64;
    let mut successors = Vec::new();
    while let Some(id) = frontier.pop_front() {
        if !silent {
            // The observer's pace (a pause) comes before the stop is looked at, so a stop
            // seen while it waits ends the run with the expansions told, none more. Its
            // figures are those expansions' whole, as a stop here ends with them: the state
            // taken off still waits on the frontier.
            stats.frontier = frontier.len() as u64 + 1;
            stats.max_closed = tree.len() as u64;
            observer.before_expansion(&stats);
        }
        if let Err(outcome) = budget.check() {
            // Stopped before expanding it: the state taken off still counts with the
            // frontier (before the first expansion too), so reached = expanded + frontier.
            stats.frontier = frontier.len() as u64 + 1;
            return tree.finish(outcome, None, stats);
        }
        let node = tree.node(id);
        let (state, g, depth) = (node.state.clone(), node.g, node.depth);
        stats.expanded += 1;
        // The frontier without the state taken off it, so that a watcher paused on this
        // expansion reads expanded + frontier = reached.
        stats.frontier = frontier.len() as u64;
        stats.max_depth = stats.max_depth.max(depth);
        stats.max_closed = tree.len() as u64;
        if !silent {
            observer.expanded(&state, depth, &stats);
            if observer.wants_scores() {
                observer.scored(&state, g, None, tree.parent_state(id));
            }
        }
        successors.clear();
        if let Err(interrupt) = problem.successors(&state, &mut successors) {
            // Cut short by the problem: the state was expanded, none of its successors
            // counts, so reached = expanded + frontier still.
            return tree.finish(budget.interrupted(interrupt), None, stats);
        }
        if let Err(outcome) = tree
            .make_room(budget, successors.len())
            .and_then(|()| budget.reserve(&mut frontier, successors.len(), FRONTIER))
        {
            return tree.finish(outcome, None, stats);
        }
        for successor in successors.drain(..) {
            stats.generated += 1;
            let Ok(child) = tree.insert(successor.state, id, successor.mv, g + successor.cost)
            else {
                continue;
            };
            let is_goal = match problem.is_goal(&tree.node(child).state) {
                Ok(is_goal) => is_goal,
                Err(interrupt) => {
                    // The state reached whose goal test failed was never put on the
                    // frontier: reached = expanded + frontier + 1.
                    stats.frontier = frontier.len() as u64;
                    return tree.finish(budget.interrupted(interrupt), None, stats);
                }
            };
            if !silent {
                // The goal too is told as put on the frontier, with its score: the last,
                // partial expansion's successors are all recorded, the goal with its `g`
                // and parent as every state reached (the open list at the run's end is
                // the frontier the figures count).
                observer.generated(&tree.node(child).state);
                if observer.wants_scores() {
                    observer.scored_generated(tree.node(child).g, None);
                }
            }
            if is_goal {
                // The goal is returned, never put on the frontier: the frontier is the
                // queue as the run leaves it (the Learn panel's open list at the end), and
                // reached = expanded + frontier + 1, the goal.
                stats.frontier = frontier.len() as u64;
                return tree.finish(Outcome::Found, Some(child), stats);
            }
            frontier.push_back(child);
        }
        stats.frontier = frontier.len() as u64;
        stats.max_frontier = stats.max_frontier.max(stats.frontier);
    }
    tree.finish(Outcome::NotFound, None, stats)
}
