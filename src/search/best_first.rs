//! Best-first search on a binary heap, shared by Dijkstra, A* and greedy best-first: they differ
//! only in the priority `f = a * g + b * h` and in whether a closed state is reopened when a cheaper path
//! to it turns up. Goals are detected when expanded, which is what makes Dijkstra and A*
//! optimal. The heap's entries order as [`super::order`] says (its [`Entry`] and
//! [`TieKeys`]).

use std::collections::BinaryHeap;

use super::layers::PerF;
use super::limits::Budget;
use super::order::{Entry, TieKeys};
use super::tree::{NodeId, Tree};
use super::{Cost, Interrupt, Observer, Outcome, Problem, SearchResult, Stats, Successor};

/// What the open list is called when it fills the memory budget.
pub(super) const OPEN_LIST: &str = "the frontier (open list)";
/// What the closed flags are called when they fill the memory budget.
pub(super) const CLOSED_FLAGS: &str = "the closed set";

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
}

/// The audit reads an entry's node and priority (A*'s: the state's own `h` is its
/// priority less `g`).
impl super::claimed::Queued for Entry {
    fn queued(&self) -> (NodeId, Cost) {
        (self.id, self.f())
    }
}

impl Policy {
    /// The heuristic of `state` if the priority consults it, else 0.
    fn heuristic<P: Problem + ?Sized>(
        &self,
        problem: &P,
        state: &P::State,
    ) -> Result<Cost, Interrupt> {
        if self.uses_heuristic {
            problem.heuristic(state)
        } else {
            Ok(0.0)
        }
    }

    /// Whether the priority is A*'s, `g + h`.
    fn is_astar(&self) -> bool {
        self.uses_heuristic && self.g_weight == 1.0 && self.h_weight == 1.0
    }
}

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
    policy: &Policy,
) -> SearchResult<P::State, P::Move> {
    search_with_jumps(problem, starts, observer, budget, policy, None)
}

/// A successor function in place of [`Problem::successors`]: Jump Point Search's scan or
/// JPS+'s read of its jump distances, given the state and the state it was reached from
/// (`None` at a start).
pub(super) type Jumps<'a, S, M> = &'a dyn Fn(&S, Option<&S>, &mut Vec<Successor<S, M>>);

/// [`search`], with jump points (`jumps`: JPS's or JPS+'s successor function) in place of
/// the ordinary successors.
pub(super) fn search_with_jumps<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
    policy: &Policy,
    jumps: Option<Jumps<'_, P::State, P::Move>>,
) -> SearchResult<P::State, P::Move> {
    let mut per_f = PerF::default();
    let mut result = search_counting(problem, starts, observer, budget, policy, jumps, &mut per_f);
    result.tables.per_f = per_f.finish();
    result
}

/// Puts the start states on `tree` and the open list, each with its priority, telling the
/// observer of each; `Err` when the budget stops it or the problem's heuristic is cut short
/// (its [`super::Interrupt`] kept on the budget).
#[allow(clippy::too_many_arguments)]
fn add_roots<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
    policy: &Policy,
    tree: &mut Tree<'_, P>,
    open: &mut BinaryHeap<Entry>,
    keys: &mut TieKeys,
) -> Result<(), Outcome> {
    tree.make_room(budget, starts.len())?;
    budget.reserve(open, starts.len(), OPEN_LIST)?;
    for state in starts {
        let Some(id) = tree.add_root(state) else {
            continue;
        };
        let state = &tree.node(id).state;
        let h = policy
            .heuristic(problem, state)
            .map_err(|i| budget.interrupted(i))?;
        observer.generated(state);
        if observer.wants_scores() {
            observer.scored_generated(0.0, policy.uses_heuristic.then_some(h));
        }
        open.push(keys.entry(policy.h_weight * h, 0.0, id));
    }
    Ok(())
}

/// [`search`], each expansion counted in `per_f` by its open-list priority.
fn search_counting<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
    policy: &Policy,
    jumps: Option<Jumps<'_, P::State, P::Move>>,
    per_f: &mut PerF,
) -> SearchResult<P::State, P::Move> {
    let heuristic = |state: &P::State| policy.heuristic(problem, state);
    let silent = observer.is_silent();
    let mut audit = super::claimed::Audit::new(problem, policy.is_astar());
    let mut stats = Stats::default();
    let mut tree = match Tree::new(problem, budget) {
        Ok(tree) => tree,
        Err(stopped) => return stopped,
    };
    let mut open = BinaryHeap::new();
    let mut keys = TieKeys::new(budget.tie_break());
    let mut closed: Vec<bool> = Vec::new();
    // The states closed now (expanded and not reopened since): the frontier is every other
    // state reached, however many entries of the open list stand for it (a state reached
    // again more cheaply has a stale entry besides its new one).
    let mut closed_count: u64 = 0;
    let roots = add_roots(
        problem, starts, observer, budget, policy, &mut tree, &mut open, &mut keys,
    );
    stats.frontier = tree.len() as u64;
    // The starts put on the frontier before a failed one count in its peak too.
    stats.max_frontier = stats.frontier;
    if let Err(outcome) = roots {
        return tree.finish(outcome, None, stats);
    }
    let mut successors = Vec::new();
    while let Some(entry) = open.pop() {
        let node = tree.node(entry.id);
        if closed.get(entry.id as usize) == Some(&true) {
            continue; // stale entry: the state was expanded from a cheaper one
        }
        let (state, g, depth) = (node.state.clone(), node.g, node.depth);
        // A run ending at this goal test (a goal, a test that failed) took the state off and
        // never expands it: on neither set, reached = expanded + frontier + 1, as in BFS.
        // (The frontier counts it until then: tree.len() - closed_count, as each iteration
        // leaves it.)
        let is_goal = problem.is_goal(&state);
        stats.frontier -= u64::from(is_goal != Ok(false));
        let is_goal = match is_goal {
            Ok(is_goal) => is_goal,
            Err(interrupt) => return tree.finish(budget.interrupted(interrupt), None, stats),
        };
        if is_goal {
            audit.goal(problem, &tree, entry.id, &open, &closed, budget, &heuristic);
            if budget.interruption.is_some() {
                // The problem failed in the audit's look past the goal.
                return tree.finish(Outcome::ScriptError, None, stats);
            }
            return tree.finish(Outcome::Found, Some(entry.id), stats);
        }
        // The stop and limits looked at after the observer's pace (a goal taken off is
        // returned, stop or not): a stop seen while paused ends the run before this one.
        // (The frontier is as the last iteration left it, the state taken off counted.)
        stats.max_closed = tree.len() as u64;
        if let Err(outcome) = budget.paced(observer, silent, &stats) {
            return tree.finish(outcome, None, stats);
        }
        if closed.len() <= entry.id as usize {
            let more = tree.len() - closed.len();
            if let Err(outcome) = budget.reserve(&mut closed, more, CLOSED_FLAGS) {
                return tree.finish(outcome, None, stats);
            }
            closed.resize(tree.len(), false);
        }
        closed[entry.id as usize] = true;
        closed_count += 1;
        stats.expanded += 1;
        // The states on the frontier without the one taken off it, as a watcher paused on
        // this expansion should read them: reached = closed + frontier.
        stats.frontier = tree.len() as u64 - closed_count;
        per_f.count(entry.f());
        stats.max_depth = stats.max_depth.max(depth);
        successors.clear();
        // The expansion told (and scored), its successors, and room for them; a call of the
        // problem cut short ends the run there.
        let expanded = (|| {
            if !silent {
                observer.expanded(&state, depth, &stats);
                if observer.wants_scores() {
                    let h = policy
                        .uses_heuristic
                        .then(|| heuristic(&state))
                        .transpose()?;
                    observer.scored(&state, g, h, tree.parent_state(entry.id));
                }
            }
            let Some(jumps) = jumps else {
                return problem.successors(&state, &mut successors);
            };
            jumps(&state, tree.parent_state(entry.id), &mut successors);
            Ok(())
        })()
        .map_err(|interrupt| budget.interrupted(interrupt))
        .and_then(|()| tree.make_room(budget, successors.len()))
        .and_then(|()| budget.reserve(&mut open, successors.len(), OPEN_LIST));
        if let Err(outcome) = expanded {
            return tree.finish(outcome, None, stats);
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
                        closed_count -= 1;
                    }
                    child
                }
            };
            let child_state = &tree.node(child).state;
            let h = match heuristic(child_state) {
                Ok(h) => h,
                Err(interrupt) => {
                    stats.frontier = tree.len() as u64 - closed_count;
                    return tree.finish(budget.interrupted(interrupt), None, stats);
                }
            };
            audit.edge(problem, entry.f() - g, successor.cost, h);
            if !silent {
                observer.generated(child_state);
                if observer.wants_scores() {
                    observer.scored_generated(g_new, policy.uses_heuristic.then_some(h));
                }
            }
            open.push(keys.entry(policy.g_weight * g_new + policy.h_weight * h, g_new, child));
        }
        stats.frontier = tree.len() as u64 - closed_count;
        stats.max_frontier = stats.max_frontier.max(stats.frontier);
    }
    tree.finish(Outcome::NotFound, None, stats)
}
