//! Depth-first backtracking, as in the maze article's recursive search, but iterative with an
//! explicit stack (no recursion-depth limit). A closed set keeps it from revisiting a state, so
//! it ends on any finite state space. The solution it finds is usually long, never guaranteed
//! to be optimal.

use super::tree::{NodeId, Tree};
use super::{CancelToken, Observer, Outcome, Problem, SearchResult, Stats, Successor};

struct Frame<S, M> {
    id: NodeId,
    successors: Vec<Successor<S, M>>,
    next: usize,
}

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    cancel: &CancelToken,
) -> SearchResult<P::State, P::Move> {
    let mut tree = Tree::new(problem);
    let mut stats = Stats::default();
    let mut stack: Vec<Frame<P::State, P::Move>> = Vec::new();
    let mut path: Vec<P::State> = Vec::new();
    // Successors generated but not yet tried: the depth-first frontier.
    let mut pending: u64 = 0;
    for start in starts {
        let Some(root) = tree.add_root(start) else {
            continue;
        };
        let mut next = Some(root);
        loop {
            if let Some(id) = next.take() {
                if cancel.is_cancelled() {
                    return tree.finish(Outcome::Cancelled, None, stats);
                }
                let node = tree.node(id);
                let state = node.state.clone();
                if problem.is_goal(&state) {
                    return tree.finish(Outcome::Found, Some(id), stats);
                }
                stats.expanded += 1;
                stats.max_depth = stats.max_depth.max(node.depth);
                stats.max_closed = tree.len() as u64;
                let depth = node.depth;
                path.push(state);
                observer.path(&path);
                let state = &path[path.len() - 1];
                observer.expanded(state, depth, &stats);
                let mut successors = Vec::new();
                problem.successors(state, &mut successors);
                stats.generated += successors.len() as u64;
                pending += successors.len() as u64;
                stats.frontier = pending;
                stats.max_frontier = stats.max_frontier.max(pending);
                stack.push(Frame {
                    id,
                    successors,
                    next: 0,
                });
            }
            let Some(frame) = stack.last_mut() else {
                break;
            };
            if frame.next == frame.successors.len() {
                stack.pop();
                path.pop();
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
            observer.generated(&tree.node(child).state);
            next = Some(child);
        }
    }
    tree.finish(Outcome::NotFound, None, stats)
}
