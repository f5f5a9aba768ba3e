//! Bidirectional A*: A* forward from the start states with [`Problem::heuristic`], and A*
//! backward from the goal states (through [`super::Backward::predecessors`]) with
//! [`super::Backward::heuristic_from_start`], each step expanding from the side with the smaller open
//! list. Every state generated is looked up in the other side's tree, and the cheapest joined
//! path found so far, of cost `mu`, is kept. The search stops when `mu` is no more than the
//! least `f` on either open list (Pohl, 1971): with admissible heuristics no cheaper path
//! can then exist. Closed states are reopened when a cheaper path turns up, as in A*.

use std::collections::BinaryHeap;

use super::best_first::{CLOSED_FLAGS, OPEN_LIST};
use super::limits::Budget;
use super::order::{Entry, TieKeys};
use super::tree::{NodeId, Tree};
use super::{
    Backward, Cost, Interrupt, Observer, Outcome, Problem, SearchResult, Stats, Successor,
};

/// Slack for comparing floating-point costs.
const EPSILON: Cost = 1e-9;

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
    let mut open = [BinaryHeap::new(), BinaryHeap::new()];
    let mut keys = TieKeys::new(budget.tie_break());
    let mut closed: [Vec<bool>; 2] = [Vec::new(), Vec::new()];
    // The states closed now on each side (expanded, not reopened since): a side's frontier is
    // every other state it reached, however many open-list entries stand for each.
    let mut closed_count = [0u64; 2];
    let frontier_of = |trees: &[Tree<'_, P>; 2], closed_count: &[u64; 2]| {
        (trees[0].len() + trees[1].len()) as u64 - closed_count[0] - closed_count[1]
    };
    if let Err(outcome) = add_roots(
        problem, backward, starts, observer, budget, &mut trees, &mut open, &mut keys,
    ) {
        return trees[0].finish_stopped(&trees[1], outcome, stats);
    }
    stats.frontier = frontier_of(&trees, &closed_count);
    stats.max_frontier = stats.frontier;
    // The cheapest meeting so far: (cost, forward node, backward node).
    let mut best: Option<(Cost, NodeId, NodeId)> = open[0]
        .iter()
        .find_map(|e| Some((0.0, e.id, trees[1].find(&trees[0].node(e.id).state)?)));
    let mut successors = Vec::new();
    loop {
        drop_stale(&mut open[0], &closed[0]);
        drop_stale(&mut open[1], &closed[1]);
        let (Some(front), Some(back)) = (open[0].peek(), open[1].peek()) else {
            break;
        };
        if let Some((mu, ..)) = best
            && mu <= front.f().max(back.f()) + EPSILON
        {
            break;
        }
        // The observer's pace (a pause) before the stop is looked at: a stop seen while it
        // waits ends the run with the expansions told, none more. Its figures are those
        // expansions' whole (the frontier as the last expansion left it).
        stats.max_closed = (trees[0].len() + trees[1].len()) as u64;
        observer.before_expansion(&stats);
        if let Err(outcome) = budget.check() {
            return trees[0].finish_stopped(&trees[1], outcome, stats);
        }
        let side = usize::from(open[1].len() < open[0].len());
        let other = 1 - side;
        let Some(entry) = open[side].pop() else {
            break; // not reached: both open lists were peeked above
        };
        let node = trees[side].node(entry.id);
        let (state, g, depth) = (node.state.clone(), node.g, node.depth);
        if closed[side].len() <= entry.id as usize {
            let more = trees[side].len() - closed[side].len();
            if let Err(outcome) = budget.reserve(&mut closed[side], more, CLOSED_FLAGS) {
                return trees[0].finish_stopped(&trees[1], outcome, stats);
            }
            closed[side].resize(trees[side].len(), false);
        }
        closed[side][entry.id as usize] = true;
        closed_count[side] += 1;
        stats.expanded += 1;
        // Both frontiers without the state taken off, as a watcher paused here should read
        // them: reached = closed + frontier.
        stats.frontier = frontier_of(&trees, &closed_count);
        stats.max_depth = stats.max_depth.max(depth);
        observer.expanded(&state, depth, &stats);
        let toward = (side == 1).then_some(backward);
        let expanded = (|| {
            // Scores of the forward search only: the backward one counts from the goals.
            if side == 0 && observer.wants_scores() {
                let h = problem.heuristic(&state)?;
                observer.scored(&state, g, Some(h), trees[0].parent_state(entry.id));
            }
            super::neighbours_toward(problem, toward, &state, &mut successors)
        })()
        .map_err(|interrupt| budget.interrupted(interrupt))
        .and_then(|()| trees[side].make_room(budget, successors.len()))
        .and_then(|()| budget.reserve(&mut open[side], successors.len(), OPEN_LIST));
        if let Err(outcome) = expanded {
            return trees[0].finish_stopped(&trees[1], outcome, stats);
        }
        for successor in successors.drain(..) {
            stats.generated += 1;
            let g_new = g + successor.cost;
            let Some(child) = insert_or_improve(
                &mut trees[side],
                &mut closed[side],
                &mut closed_count[side],
                successor,
                entry.id,
                g_new,
            ) else {
                continue;
            };
            let child_state = &trees[side].node(child).state;
            observer.generated(child_state);
            if let Some(there) = trees[other].find(child_state) {
                let cost = g_new + trees[other].node(there).g;
                if best.is_none_or(|(mu, ..)| cost < mu) {
                    let (f, b) = if side == 0 {
                        (child, there)
                    } else {
                        (there, child)
                    };
                    best = Some((cost, f, b));
                }
            }
            let h = match heuristic(problem, backward, side, child_state) {
                Ok(h) => h,
                Err(interrupt) => {
                    stats.frontier = frontier_of(&trees, &closed_count);
                    let outcome = budget.interrupted(interrupt);
                    return trees[0].finish_stopped(&trees[1], outcome, stats);
                }
            };
            if side == 0 && observer.wants_scores() {
                observer.scored_generated(g_new, Some(h));
            }
            open[side].push(keys.entry(g_new + h, g_new, child));
        }
        stats.frontier = frontier_of(&trees, &closed_count);
        stats.max_frontier = stats.max_frontier.max(stats.frontier);
    }
    stats.max_closed = (trees[0].len() + trees[1].len()) as u64;
    match best {
        Some((_, f, b)) => trees[0].finish_joined(f, &trees[1], b, stats),
        None => trees[0].finish(Outcome::NotFound, None, stats),
    }
}

/// Puts the start states on the forward side's tree and open list and the goal states on the
/// backward side's, telling the observer of each; `Err` when the budget stops it.
#[allow(clippy::too_many_arguments)]
fn add_roots<P: Problem + ?Sized>(
    problem: &P,
    backward: &dyn Backward<P::State, P::Move>,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
    trees: &mut [Tree<'_, P>; 2],
    open: &mut [BinaryHeap<Entry>; 2],
    keys: &mut TieKeys,
) -> Result<(), Outcome> {
    for (side, roots) in [starts, backward.goal_states()].into_iter().enumerate() {
        trees[side].make_room(budget, roots.len())?;
        for state in roots {
            if let Some(id) = trees[side].add_root(state) {
                let h = heuristic(problem, backward, side, &trees[side].node(id).state)
                    .map_err(|interrupt| budget.interrupted(interrupt))?;
                observer.generated(&trees[side].node(id).state);
                // Scores of the forward search only: the backward one counts from the goals.
                if side == 0 && observer.wants_scores() {
                    observer.scored_generated(0.0, Some(h));
                }
                budget.reserve(&mut open[side], 1, OPEN_LIST)?;
                open[side].push(keys.entry(h, 0.0, id));
            }
        }
    }
    Ok(())
}

/// The heuristic of `side`: toward the goals forward (0), toward the starts backward (1).
///
/// # Errors
/// The problem's [`Interrupt`] when its heuristic was cut short.
#[inline(always)]
fn heuristic<P: Problem + ?Sized>(
    problem: &P,
    backward: &dyn Backward<P::State, P::Move>,
    side: usize,
    state: &P::State,
) -> Result<Cost, Interrupt> {
    if side == 0 {
        problem.heuristic(state)
    } else {
        Ok(backward.heuristic_from_start(state))
    }
}

/// Pops the entries off the top of `open` whose state is already closed (expanded from a
/// cheaper entry).
#[inline(always)]
fn drop_stale(open: &mut BinaryHeap<Entry>, closed: &[bool]) {
    while let Some(top) = open.peek() {
        if closed.get(top.id as usize) != Some(&true) {
            break;
        }
        open.pop();
    }
}

/// Adds `successor`, reached at cost `g_new` from node `parent`, to one side's `tree`: a new
/// node, or a node already there relinked to `parent` (and reopened if it was closed) when
/// this path is cheaper. `None` when it is not.
#[inline(always)]
fn insert_or_improve<P: Problem + ?Sized>(
    tree: &mut Tree<'_, P>,
    closed: &mut [bool],
    closed_count: &mut u64,
    successor: Successor<P::State, P::Move>,
    parent: NodeId,
    g_new: Cost,
) -> Option<NodeId> {
    match tree.insert(successor.state, parent, successor.mv.clone(), g_new) {
        Ok(child) => Some(child),
        Err(child) => {
            if g_new >= tree.node(child).g {
                return None;
            }
            tree.relink(child, parent, successor.mv, g_new);
            if let Some(c) = closed.get_mut(child as usize)
                && *c
            {
                *c = false;
                *closed_count -= 1;
            }
            Some(child)
        }
    }
}
