//! Depth-first backtracking, as in the maze article's recursive search, but iterative with an
//! explicit stack (no recursion-depth limit). A closed set keeps it from revisiting a state, so
//! it ends on any finite state space. The solution it finds is usually long, never guaranteed
//! to be optimal.
//!
//! Each expansion costs O(1) amortised, however deep the search goes: the current path is
//! reported to the observer as changes ([`Observer::path_push`], [`Observer::path_pop`]), never
//! whole, and popped frames' successor lists are reused.

use super::limits::Budget;
use super::tree::{NodeId, Tree};
use super::{Observer, Outcome, Problem, SearchResult, Stats, Successor};

const STACK: &str = "the depth-first stack";

struct Frame<S, M> {
    id: NodeId,
    successors: Vec<Successor<S, M>>,
    next: usize,
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
    let mut stack: Vec<Frame<P::State, P::Move>> = Vec::new();
    // Successor lists of popped frames, reused so that an expansion allocates nothing.
    let mut spare: Vec<Vec<Successor<P::State, P::Move>>> = Vec::new();
    // Successors generated but not yet tried: the depth-first frontier.
    let mut pending: u64 = 0;
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
                if problem.is_goal(&node.state) {
                    return tree.finish(Outcome::Found, Some(id), stats);
                }
                stats.expanded += 1;
                stats.max_depth = stats.max_depth.max(node.depth);
                stats.max_closed = tree.len() as u64;
                if !silent {
                    observer.path_push(&node.state);
                    observer.expanded(&node.state, node.depth, &stats);
                }
                let mut successors = spare.pop().unwrap_or_default();
                successors.clear();
                let capacity = successors.capacity();
                problem.successors(&tree.node(id).state, &mut successors);
                // Successor lists are kept (on the stack or spare) for the whole run.
                let grown = (successors.capacity() - capacity)
                    * std::mem::size_of::<Successor<P::State, P::Move>>();
                stats.generated += successors.len() as u64;
                pending += successors.len() as u64;
                stats.frontier = pending;
                stats.max_frontier = stats.max_frontier.max(pending);
                let frame = Frame {
                    id,
                    successors,
                    next: 0,
                };
                if let Err(outcome) = budget
                    .charge(grown as u64, STACK)
                    .and_then(|()| budget.reserve(&mut stack, 1, STACK))
                    .and_then(|()| tree.make_room(budget, frame.successors.len()))
                {
                    return tree.finish(outcome, None, stats);
                }
                stack.push(frame);
            }
            let Some(frame) = stack.last_mut() else {
                break;
            };
            if frame.next == frame.successors.len() {
                if let Some(done) = stack.pop() {
                    if let Err(outcome) = budget.reserve(&mut spare, 1, STACK) {
                        return tree.finish(outcome, None, stats);
                    }
                    spare.push(done.successors);
                }
                if !silent {
                    observer.path_pop();
                }
                continue;
            }
            let successor = frame.successors[frame.next].clone();
            frame.next += 1;
            pending -= 1;
            let parent = frame.id;
            let g = tree.node(parent).g + successor.cost;
            let Ok(child) = tree.insert(successor.state, parent, successor.mv, g) else {
                continue;
            };
            if !silent {
                observer.generated(&tree.node(child).state);
            }
            next = Some(child);
        }
    }
    tree.finish(Outcome::NotFound, None, stats)
}
