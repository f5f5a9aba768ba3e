//! Best-first search on a binary heap, shared by Dijkstra, A* and greedy best-first: they differ
//! only in the priority `f = a * g + b * h` and in whether a closed state is reopened when a cheaper path
//! to it turns up. Goals are detected when expanded, which is what makes Dijkstra and A*
//! optimal.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::tree::{NO_PARENT, NodeId, Tree};
use super::{CancelToken, Cost, Observer, Outcome, Problem, SearchResult, Stats};

/// An entry of the open list. The heap is a max-heap, so `Ord` is reversed: the smallest `f`
/// comes first, ties go to the larger `g` (the smaller `h`: the deeper state), then to the
/// newest entry. 24 bytes, so the heap stays compact.
pub(super) struct Entry {
    pub f: Cost,
    pub g: Cost,
    pub seq: u32,
    pub id: NodeId,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then_with(|| self.g.total_cmp(&other.g))
            .then_with(|| self.seq.cmp(&other.seq))
    }
}

/// How an algorithm orders and treats its open list.
pub(super) struct Policy {
    /// The priority is `g_weight * g + h_weight * h` for path cost `g` and heuristic `h`;
    /// smaller is expanded first.
    pub g_weight: Cost,
    /// See `g_weight`.
    pub h_weight: Cost,
    /// Whether the heuristic is consulted at all (Dijkstra does not).
    pub uses_heuristic: bool,
    /// Whether a closed state is reopened when a cheaper path to it is found (A*, whose
    /// heuristic may be admissible without being consistent).
    pub reopen: bool,
    /// Whether successors are Jump Point Search's jump points
    /// ([`Problem::jump_successors`]) instead of the ordinary successors.
    pub jump: bool,
}

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    cancel: &CancelToken,
    policy: &Policy,
) -> SearchResult<P::State, P::Move> {
    let heuristic = |state: &P::State| {
        if policy.uses_heuristic {
            problem.heuristic(state)
        } else {
            0.0
        }
    };
    let silent = observer.is_silent();
    let mut tree = Tree::new(problem);
    let mut stats = Stats::default();
    let mut open = BinaryHeap::new();
    let mut closed: Vec<bool> = Vec::new();
    let mut seq: u32 = 0;
    for state in starts {
        let Some(id) = tree.add_root(state) else {
            continue;
        };
        let h = heuristic(&tree.node(id).state);
        observer.generated(&tree.node(id).state);
        open.push(Entry {
            f: policy.h_weight * h,
            g: 0.0,
            seq,
            id,
        });
        seq = seq.wrapping_add(1);
    }
    stats.max_frontier = open.len() as u64;
    let mut successors = Vec::new();
    while let Some(entry) = open.pop() {
        let node = tree.node(entry.id);
        if entry.g > node.g || closed.get(entry.id as usize) == Some(&true) {
            continue; // stale entry: a cheaper path to this state was queued since
        }
        if cancel.is_cancelled() {
            return tree.finish(Outcome::Cancelled, None, stats);
        }
        let (state, g, depth) = (node.state.clone(), node.g, node.depth);
        if problem.is_goal(&state) {
            return tree.finish(Outcome::Found, Some(entry.id), stats);
        }
        if closed.len() <= entry.id as usize {
            closed.resize(tree.len(), false);
        }
        closed[entry.id as usize] = true;
        stats.expanded += 1;
        stats.max_depth = stats.max_depth.max(depth);
        stats.max_closed = tree.len() as u64;
        if !silent {
            observer.expanded(&state, depth, &stats);
        }
        successors.clear();
        if policy.jump {
            let parent = tree.node(entry.id).parent;
            let parent = (parent != NO_PARENT).then(|| &tree.node(parent).state);
            problem.jump_successors(&state, parent, &mut successors);
        } else {
            problem.successors(&state, &mut successors);
        }
        for successor in successors.drain(..) {
            stats.generated += 1;
            let g_new = g + successor.cost;
            let child = match tree.insert(successor.state, entry.id, successor.mv.clone(), g_new) {
                Ok(child) => child,
                Err(child) => {
                    let is_closed = closed.get(child as usize) == Some(&true);
                    if g_new >= tree.node(child).g || (is_closed && !policy.reopen) {
                        continue;
                    }
                    tree.relink(child, entry.id, successor.mv, g_new);
                    if is_closed {
                        closed[child as usize] = false;
                    }
                    child
                }
            };
            let child_state = &tree.node(child).state;
            let h = heuristic(child_state);
            if !silent {
                observer.generated(child_state);
            }
            open.push(Entry {
                f: policy.g_weight * g_new + policy.h_weight * h,
                g: g_new,
                seq,
                id: child,
            });
            seq = seq.wrapping_add(1);
        }
        stats.frontier = open.len() as u64;
        stats.max_frontier = stats.max_frontier.max(stats.frontier);
    }
    tree.finish(Outcome::NotFound, None, stats)
}
