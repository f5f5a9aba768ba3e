//! Depth-first backtracking, as in the maze article's recursive search, but iterative with an
//! explicit stack (no recursion-depth limit). A closed set keeps it from revisiting a state, so
//! it ends on any finite state space. The solution it finds is usually long, never guaranteed
//! to be optimal.
//!
//! Each expansion costs O(1) amortised, however deep the search goes: the current path is
//! reported to the observer as changes ([`Observer::path_push`], [`Observer::path_pop`]), never
//! whole. The untried successors of every state on the path share one flat stack, and a
//! successor already reached when it is generated is not kept at all, so a search 16 million
//! states deep holds little more than its closed set.

use super::limits::Budget;
use super::tree::{NodeId, Tree};
use super::{Observer, Outcome, Problem, SearchResult, Stats, Successor};

const STACK: &str = "the depth-first stack";

/// A state on the current path: its node, and where its untried successors begin on the
/// shared stack (they are `pending[base..]` while it is the deepest frame, last one first).
struct Frame {
    id: NodeId,
    base: usize,
}

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
    let mut stack: Vec<Frame> = Vec::new();
    // The untried successors of the states on the path: the depth-first frontier.
    let mut pending: Vec<Successor<P::State, P::Move>> = Vec::new();
    let mut successors = Vec::new();
    for start in starts {
        if let Err(outcome) = tree.make_room(budget, 1) {
            return tree.finish(outcome, None, stats);
        }
        let Some(root) = tree.add_root(start) else {
            continue;
        };
        let mut next = Some(root);
        loop {
            if let Some(id) = next.take() {
                if let Err(outcome) = budget.check() {
                    return tree.finish(outcome, None, stats);
                }
                let node = tree.node(id);
                match problem.is_goal(&node.state) {
                    Ok(false) => {}
                    Ok(true) => return tree.finish(Outcome::Found, Some(id), stats),
                    Err(interrupt) => {
                        return tree.finish(budget.interrupted(interrupt), None, stats);
                    }
                }
                if !silent {
                    // A stop seen while the observer waited (paused) ends the run before
                    // this expansion is counted. Its figures are the expansions told, whole:
                    // the untried successors and this state wait on the frontier.
                    stats.frontier = pending.len() as u64 + 1;
                    stats.max_closed = tree.len() as u64;
                    observer.before_expansion(&stats);
                    if let Err(outcome) = budget.check() {
                        return tree.finish(outcome, None, stats);
                    }
                }
                stats.expanded += 1;
                stats.max_depth = stats.max_depth.max(node.depth);
                stats.max_closed = tree.len() as u64;
                if !silent {
                    observer.path_push(&node.state);
                    observer.expanded(&node.state, node.depth, &stats);
                    if observer.wants_scores() {
                        observer.scored(&node.state, node.g, None, tree.parent_state(id));
                    }
                }
                successors.clear();
                if let Err(interrupt) = problem.successors(&tree.node(id).state, &mut successors) {
                    return tree.finish(budget.interrupted(interrupt), None, stats);
                }
                stats.generated += successors.len() as u64;
                if let Err(outcome) = budget
                    .reserve(&mut pending, successors.len(), STACK)
                    .and_then(|()| budget.reserve(&mut stack, 1, STACK))
                    .and_then(|()| tree.make_room(budget, successors.len()))
                {
                    return tree.finish(outcome, None, stats);
                }
                let base = pending.len();
                // Reversed, so that popping tries them in the order generated. A successor
                // reached already would be skipped when its turn came: it is not kept.
                pending.extend(
                    successors
                        .drain(..)
                        .rev()
                        .filter(|s| tree.find(&s.state).is_none()),
                );
                stack.push(Frame { id, base });
                stats.frontier = pending.len() as u64;
                stats.max_frontier = stats.max_frontier.max(stats.frontier);
            }
            let Some(frame) = stack.last_mut() else {
                break;
            };
            if pending.len() == frame.base {
                stack.pop();
                if !silent {
                    observer.path_pop();
                }
                continue;
            }
            let parent = frame.id;
            let Some(successor) = pending.pop() else {
                continue; // not reached: the frame has untried successors
            };
            let g = tree.node(parent).g + successor.cost;
            let Ok(child) = tree.insert(successor.state, parent, successor.mv, g) else {
                continue;
            };
            if !silent {
                observer.generated(&tree.node(child).state);
                if observer.wants_scores() {
                    observer.scored_generated(g, None);
                }
            }
            next = Some(child);
        }
    }
    tree.finish(Outcome::NotFound, None, stats)
}
