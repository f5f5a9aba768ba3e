//! Bidirectional breadth-first search: one breadth-first search forward from the start states
//! and one backward from the goal states (through [`super::Backward::predecessors`]), each expanding a
//! whole layer in turn, the side with the smaller frontier first. Every state generated is
//! looked up in the other side's tree; once a layer that met the other side is complete, the
//! shortest joined path is the answer, a least-cost one on unit costs. On a grid it expands
//! roughly half the area of one breadth-first search.

use super::limits::Budget;
use super::tree::{NodeId, Tree};
use super::{Backward, Cost, Observer, Outcome, Problem, SearchResult, Stats};

const FRONTIER: &str = "the frontier (the next layers)";

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    backward: &dyn Backward<P::State, P::Move>,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let mut stats = Stats::default();
    let mut trees = match (Tree::new(problem, budget), Tree::new(problem, budget)) {
        (Ok(forward), Ok(backward)) => [forward, backward],
        (Err(stopped), _) | (_, Err(stopped)) => return stopped,
    };
    let mut layers: [Vec<NodeId>; 2] = [Vec::new(), Vec::new()];
    for (side, roots) in [starts, backward.goal_states()].into_iter().enumerate() {
        if let Err(outcome) = trees[side].make_room(budget, roots.len()) {
            return trees[0].finish_stopped(&trees[1], outcome, stats);
        }
        for state in roots {
            if let Some(id) = trees[side].add_root(state) {
                observer.generated(&trees[side].node(id).state);
                if let Err(outcome) = budget.reserve(&mut layers[side], 1, FRONTIER) {
                    return trees[0].finish_stopped(&trees[1], outcome, stats);
                }
                layers[side].push(id);
            }
        }
    }
    // A start state that is a goal: the trees meet at once.
    let met = layers[0]
        .iter()
        .find_map(|&id| Some((id, trees[1].find(&trees[0].node(id).state)?)));
    stats.frontier = (layers[0].len() + layers[1].len()) as u64;
    stats.max_frontier = stats.frontier;
    if let Some((f, b)) = met {
        return trees[0].finish_joined(f, &trees[1], b, stats);
    }
    let mut successors = Vec::new();
    // The best meeting so far: (cost, forward node, backward node).
    let mut best: Option<(Cost, NodeId, NodeId)> = None;
    while !layers[0].is_empty() && !layers[1].is_empty() {
        let side = usize::from(layers[1].len() < layers[0].len());
        let other = 1 - side;
        let layer = std::mem::take(&mut layers[side]);
        let mut next = Vec::new();
        // The states on the frontier while the layer is expanded: the rest of the layer, the
        // next layer so far and the other side's layer, so that a watcher paused on an
        // expansion reads reached = expanded + frontier.
        let waiting = |left: usize, next: &Vec<NodeId>, layers: &[Vec<NodeId>; 2]| {
            (left + next.len() + layers[other].len()) as u64
        };
        for (k, &id) in layer.iter().enumerate() {
            // The observer's pace (a pause) before the stop is looked at: a stop seen while
            // it waits ends the run with the expansions told, none more. Its figures are
            // those expansions' whole: this state still waits on the frontier.
            stats.frontier = waiting(layer.len() - k, &next, &layers);
            stats.max_closed = (trees[0].len() + trees[1].len()) as u64;
            observer.before_expansion(&stats);
            if let Err(outcome) = budget.check() {
                return trees[0].finish_stopped(&trees[1], outcome, stats);
            }
            let node = trees[side].node(id);
            let (state, g, depth) = (node.state.clone(), node.g, node.depth);
            stats.expanded += 1;
            stats.max_depth = stats.max_depth.max(depth);
            let left = layer.len() - k - 1;
            stats.frontier = waiting(left, &next, &layers);
            stats.max_closed = (trees[0].len() + trees[1].len()) as u64;
            observer.expanded(&state, depth, &stats);
            if side == 0 && observer.wants_scores() {
                observer.scored(&state, g, None, trees[0].parent_state(id));
            }
            let toward = (side == 1).then_some(backward);
            if let Err(interrupt) =
                super::neighbours_toward(problem, toward, &state, &mut successors)
            {
                let outcome = budget.interrupted(interrupt);
                return trees[0].finish_stopped(&trees[1], outcome, stats);
            }
            if let Err(outcome) = trees[side]
                .make_room(budget, successors.len())
                .and_then(|()| budget.reserve(&mut next, successors.len(), FRONTIER))
            {
                return trees[0].finish_stopped(&trees[1], outcome, stats);
            }
            for successor in successors.drain(..) {
                stats.generated += 1;
                let Ok(child) =
                    trees[side].insert(successor.state, id, successor.mv, g + successor.cost)
                else {
                    continue;
                };
                let child_state = &trees[side].node(child).state;
                observer.generated(child_state);
                if let Some(there) = trees[other].find(child_state) {
                    let cost = trees[side].node(child).g + trees[other].node(there).g;
                    if best.is_none_or(|(c, ..)| cost < c) {
                        let (f, b) = if side == 0 {
                            (child, there)
                        } else {
                            (there, child)
                        };
                        best = Some((cost, f, b));
                    }
                }
                next.push(child);
            }
            stats.frontier = waiting(left, &next, &layers);
            stats.max_frontier = stats.max_frontier.max(stats.frontier);
        }
        layers[side] = next;
        stats.frontier = (layers[0].len() + layers[1].len()) as u64;
        stats.max_frontier = stats.max_frontier.max(stats.frontier);
        stats.max_closed = (trees[0].len() + trees[1].len()) as u64;
        if let Some((_, f, b)) = best {
            return trees[0].finish_joined(f, &trees[1], b, stats);
        }
    }
    stats.max_closed = (trees[0].len() + trees[1].len()) as u64;
    trees[0].finish(Outcome::NotFound, None, stats)
}
