//! What A* sees of a heuristic whose admissibility is only claimed
//! ([`super::ProblemCapabilities::claimed`]: a user's program says so): a goal with `h > 0`,
//! a move after which `h` drops by more than the move's cost (`h(s) > c(s, s') + h(s')`, an
//! inconsistency), and, once a goal is found at cost `C`, one step past the frontier's states
//! reached at less than `C` (the states the heuristic kept from being expanded, those it put
//! furthest past `C` first: an overestimate hides a cheaper solution there). What contradicts
//! the claim goes to [`super::ClaimedHeuristic::heuristic_contradicted`], which withdraws it:
//! the run is then not said optimal.
//!
//! The checks are cheap: one comparison per successor generated during the search (the
//! state's own `h` is its priority less `g`), and at the end at most [`MAX_LOOKED_PAST`]
//! states expanded once more. They are not a proof of admissibility: they catch what the search passes by.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::limits::Budget;
use super::tree::{NodeId, Tree};
use super::{Cost, Interrupt, Problem, format_cost};

/// The most frontier states looked one step past when a goal is found (those of the
/// largest priority): a few percent of a search of some thousands of expansions.
pub const MAX_LOOKED_PAST: usize = 256;

/// The slack of the comparisons, relative to the values compared (float sums of costs).
const SLACK: Cost = 1e-9;

/// Whether `a > b` by more than the float slack.
fn exceeds(a: Cost, b: Cost) -> bool {
    a > b + SLACK * a.abs().max(b.abs()).max(1.0)
}

/// An entry of the open list, as the audit reads it: its node and its priority.
pub(super) trait Queued {
    /// The entry's node and priority.
    fn queued(&self) -> (NodeId, Cost);
}

/// The audit of one run, if the problem's heuristic is claimed admissible (and the run is
/// A*'s, the priority `g + h`).
pub(super) struct Audit {
    /// Whether the run checks the heuristic at all.
    active: bool,
    /// Whether the claim was contradicted already (told once).
    told: bool,
}

impl Audit {
    /// The audit of a run (`astar`: A*'s priority, `g + h`); it checks only when the
    /// problem's admissibility is a claim.
    pub fn new<P: Problem + ?Sized>(problem: &P, astar: bool) -> Self {
        let active = astar
            && problem.capabilities().claimed.is_some()
            && problem.facts().admissible_heuristic();
        Self {
            active,
            told: false,
        }
    }

    /// Whether checks are still wanted (active, nothing told yet).
    pub fn watching(&self) -> bool {
        self.active && !self.told
    }

    fn tell<P: Problem + ?Sized>(&mut self, problem: &P, why: String) {
        if !self.told {
            self.told = true;
            if let Some(claimed) = problem.capabilities().claimed {
                claimed.heuristic_contradicted(why);
            }
        }
    }

    /// A move of cost `cost` from a state of heuristic `h` to one of heuristic `h_next`.
    pub fn edge<P: Problem + ?Sized>(&mut self, problem: &P, h: Cost, cost: Cost, h_next: Cost) {
        if self.watching() && exceeds(h, cost + h_next) {
            self.tell(
                problem,
                format!(
                    "the heuristic was seen inconsistent: h = {} at a state, h = {} one move of \
                     cost {} later",
                    format_cost(h),
                    format_cost(h_next),
                    format_cost(cost)
                ),
            );
        }
    }

    /// A goal reached, of heuristic `h`: more than 0 there contradicts the claim.
    pub fn at_goal<P: Problem + ?Sized>(&mut self, problem: &P, h: Cost) {
        if self.watching() && exceeds(h, 0.0) {
            self.tell(
                problem,
                format!(
                    "h = {} at a goal, where the cost still to pay is 0",
                    format_cost(h)
                ),
            );
        }
    }

    /// A goal found at cost `cost` by IDA*, whose iteration cut `pruned` off at its bound:
    /// those reached below `cost` looked one step past, the furthest past it first.
    pub fn goal_of_iteration<P: Problem + ?Sized>(
        &mut self,
        problem: &P,
        cost: Cost,
        pruned: &Pruned<P::State>,
        budget: &mut Budget,
        heuristic: &dyn Fn(&P::State) -> Result<Cost, Interrupt>,
    ) {
        if !self.watching() {
            return;
        }
        let mut cuts: Vec<&Cut<P::State>> = pruned
            .heap
            .iter()
            .map(|Reverse(c)| c)
            .filter(|c| exceeds(cost, c.g))
            .collect();
        cuts.sort_by(|a, b| b.cmp(a));
        self.look_past(
            problem,
            cost,
            cuts.into_iter().map(|c| (&c.state, c.g)),
            budget,
            heuristic,
        );
    }

    /// The goal `goal` of `tree` found; then the frontier's states reached at less than its
    /// cost (the nodes of the open list's entries, `frontier`, with their priorities, not
    /// `closed`) looked one step past.
    #[allow(clippy::too_many_arguments)]
    pub fn goal<'q, P: Problem + ?Sized, Q: Queued + 'q>(
        &mut self,
        problem: &P,
        tree: &Tree<'_, P>,
        goal: NodeId,
        frontier: impl IntoIterator<Item = &'q Q>,
        closed: &[bool],
        budget: &mut Budget,
        heuristic: &dyn Fn(&P::State) -> Result<Cost, Interrupt>,
    ) {
        if !self.watching() {
            return;
        }
        let cost = tree.node(goal).g;
        match heuristic(&tree.node(goal).state) {
            Ok(h) => self.at_goal(problem, h),
            Err(interrupt) => return cut_short(budget, interrupt),
        }
        // The open states reached below the cost found, those the heuristic put furthest
        // past it first (the likeliest overestimates), each once.
        let mut looked = vec![false; tree.len()];
        let mut candidates: Vec<(NodeId, Cost)> = frontier
            .into_iter()
            .map(Queued::queued)
            .filter(|&(id, _)| {
                let id = id as usize;
                let open = closed.get(id) != Some(&true) && !looked[id];
                looked[id] = true;
                open && exceeds(cost, tree.node(id as NodeId).g)
            })
            .collect();
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
        candidates.truncate(MAX_LOOKED_PAST);
        let states = candidates.into_iter().map(|(id, _)| {
            let node = tree.node(id);
            (&node.state, node.g)
        });
        self.look_past(problem, cost, states, budget, heuristic);
    }

    /// The goal found at cost `cost` and the states `past` (each with its `g`, below `cost`,
    /// those the heuristic put furthest past it first) looked one step past: a cheaper goal
    /// there, or an inconsistent move, withdraws the claim.
    fn look_past<'s, P: Problem + ?Sized>(
        &mut self,
        problem: &P,
        cost: Cost,
        past: impl IntoIterator<Item = (&'s P::State, Cost)>,
        budget: &mut Budget,
        heuristic: &dyn Fn(&P::State) -> Result<Cost, Interrupt>,
    ) where
        P::State: 's,
    {
        let mut successors = Vec::new();
        for (state, g) in past {
            if !self.watching() || budget.check().is_err() {
                return;
            }
            // Asked again: an entry's priority may be a stale one's, of a dearer path.
            let h_here = match heuristic(state) {
                Ok(h) => h,
                Err(interrupt) => return cut_short(budget, interrupt),
            };
            successors.clear();
            if let Err(interrupt) = problem.successors(state, &mut successors) {
                return cut_short(budget, interrupt);
            }
            // A cheaper goal first: that is the stronger word (the claim is false).
            let mut cheaper = None;
            for s in &successors {
                if exceeds(cost, g + s.cost) {
                    match problem.is_goal(&s.state) {
                        Ok(false) => {}
                        Ok(true) => {
                            cheaper = Some(s);
                            break;
                        }
                        Err(interrupt) => return cut_short(budget, interrupt),
                    }
                }
            }
            if let Some(s) = cheaper {
                let why = format!(
                    "a goal at cost {} lies one move past the frontier, below the {} found: the \
                     heuristic overestimates there (h = {} where a move of cost {} reaches the \
                     goal)",
                    format_cost(g + s.cost),
                    format_cost(cost),
                    format_cost(h_here),
                    format_cost(s.cost)
                );
                self.tell(problem, why);
                return;
            }
            for s in successors.drain(..) {
                match heuristic(&s.state) {
                    Ok(h) => self.edge(problem, h_here, s.cost, h),
                    Err(interrupt) => return cut_short(budget, interrupt),
                }
            }
        }
    }
}

/// The audit cut short by the problem ([`Interrupt`]): it ends there; the problem's error
/// ends the run too (the engine reads it from the budget: a found goal is then not
/// reported), a stop ends only the audit (the goal found stands).
fn cut_short(budget: &mut Budget, interrupt: Interrupt) {
    if let Interrupt::Failed(_) = interrupt {
        budget.interrupted(interrupt);
    }
}

/// A state an IDA* iteration cut off at its bound: its `f = g + h`, its `g`, and the order
/// it was cut in (ties of `f` go to the earlier cut).
pub(super) struct Cut<S> {
    f: Cost,
    seq: u64,
    g: Cost,
    state: S,
}

impl<S> PartialEq for Cut<S> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<S> Eq for Cut<S> {}

impl<S> PartialOrd for Cut<S> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<S> Ord for Cut<S> {
    /// By `f`, then the earlier cut first.
    fn cmp(&self, other: &Self) -> Ordering {
        self.f.total_cmp(&other.f).then(other.seq.cmp(&self.seq))
    }
}

/// The states of one IDA* iteration cut off at its bound that the audit would look past: the
/// [`MAX_LOOKED_PAST`] of the largest `f` (IDA*'s counterpart of A*'s frontier at the end).
pub(super) struct Pruned<S> {
    /// A min-heap on `f`: its top is the first to give way to a larger one.
    heap: BinaryHeap<Reverse<Cut<S>>>,
    seq: u64,
}

impl<S> Default for Pruned<S> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }
}

impl<S> Pruned<S> {
    /// Forgets the cuts (a new iteration begins).
    pub fn clear(&mut self) {
        self.heap.clear();
    }

    /// A state cut off at `f = g + h`; `state` is made only when it is kept.
    pub fn cut(&mut self, f: Cost, g: Cost, state: impl FnOnce() -> S) {
        self.seq += 1;
        if self.heap.len() == MAX_LOOKED_PAST {
            match self.heap.peek() {
                Some(Reverse(least)) if least.f.total_cmp(&f) == Ordering::Less => {
                    self.heap.pop();
                }
                _ => return,
            }
        }
        let seq = self.seq;
        self.heap.push(Reverse(Cut {
            f,
            seq,
            g,
            state: state(),
        }));
    }
}
