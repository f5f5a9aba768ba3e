//! The whole reachable state space of a problem as an explicit graph: every state numbered in
//! breadth-first order from the start states, its successors, its distance from the start and
//! its distance to the nearest goal. The oracle of the app's play-by-hand modes, the
//! `states` subcommand's distance profiles and the state-graph exports are built on it.
//!
//! Distances count moves (each edge is 1, whatever the move's cost), so on unit-cost puzzles
//! they are the least costs. Exploring runs under the [`super::Limits`] of its
//! [`CancelToken`], like a search: it stops before an allocation that would cross the
//! memory budget and reports what filled it.

use std::hash::Hash;
use std::io::{self, Write};

use rustc_hash::FxHashMap;

use super::layered_count::{self, Workers};
use super::limits::Budget;
use super::{CancelToken, Outcome, Problem, Stats, Successor, limit_message};

/// A distance that is not one: the state cannot reach a goal (a dead end).
pub const UNREACHABLE: u32 = u32::MAX;

/// How often (in states numbered) exploring reports its progress.
const PROGRESS_EVERY: usize = 4096;

/// Why a state space could not be explored whole.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the state space could not be explored whole ({states} states so far): {message}")]
pub struct ExploreError {
    /// Why it stopped: cancelled, a memory or time limit, or the problem's error
    /// ([`Outcome::ScriptError`]).
    pub outcome: Outcome,
    /// States numbered when it stopped.
    pub states: u64,
    /// What filled the memory or the time, and what to try; or the problem's error.
    pub message: String,
    /// The problem's error, for [`Outcome::ScriptError`] ([`super::Interrupt::Failed`]).
    pub error: Option<super::ProblemError>,
}

/// A problem's reachable state space: states `0..len()` in breadth-first order from the
/// start states (so node 0 is the first start state), each with its successors (distinct
/// nodes, in the order the problem lists them), its distance in moves from the nearest start
/// and to the nearest goal ([`UNREACHABLE`] for a dead end).
#[derive(Clone, Debug)]
pub struct StateGraph<S> {
    states: Vec<S>,
    index: FxHashMap<S, u32>,
    /// `offsets[i]..offsets[i + 1]` are node `i`'s successors in `targets`.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    goals: Vec<bool>,
    from_start: Vec<u32>,
    to_goal: Vec<u32>,
    starts: usize,
    peak_memory_bytes: u64,
}

/// The shape of a state space in numbers: how many states lie at each distance from the start
/// and from the goals, the dead ends, and the farthest states.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Profile {
    /// States reachable from the start (the start included).
    pub states: u64,
    /// Distinct moves between them (edges of the state graph).
    pub edges: u64,
    /// Goal states among them.
    pub goals: u64,
    /// `distance_profile[d]`: how many states are `d` moves from the nearest start.
    pub distance_profile: Vec<u64>,
    /// `goal_distance_profile[d]`: how many states are `d` moves from the nearest goal
    /// (dead ends are not counted).
    pub goal_distance_profile: Vec<u64>,
    /// Reachable states from which no goal can be reached.
    pub dead_ends: u64,
    /// A state farthest from the start (the first in breadth-first order).
    pub farthest: u32,
    /// Its distance from the start.
    pub farthest_distance: u32,
    /// A state farthest from the goals among those that can reach one (the hardest position
    /// to solve in the space), if any can.
    pub hardest: Option<u32>,
    /// Its distance to the nearest goal.
    pub hardest_distance: u32,
}

impl<S: Clone + Eq + Hash> StateGraph<S> {
    /// Explores every state reachable from `problem`'s start states, numbering them in
    /// breadth-first order, then finds each one's distance to the nearest goal by a
    /// breadth-first search of the reversed graph from every goal. `progress` is called now
    /// and then with the number of states numbered so far.
    ///
    /// # Errors
    /// [`ExploreError`] when `cancel` is cancelled, the time limit passes, or the graph would
    /// grow past the memory budget (or beyond 2³² − 2 states or edges).
    pub fn explore<P: Problem<State = S> + ?Sized>(
        problem: &P,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Self, ExploreError> {
        Self::explore_with(cancel, progress, |graph, budget, progress| {
            graph.build(problem, budget, progress)
        })
    }

    /// [`StateGraph::explore`] on the threads of `workers`: each slice of the breadth-first
    /// queue is expanded in parallel (each worker's share bound as the problem's calls
    /// need), then numbered in order on this thread,
    /// so the graph is the one [`StateGraph::explore`] makes, node for node.
    ///
    /// # Errors
    /// As [`StateGraph::explore`].
    pub fn explore_in_layers<P>(
        problem: &P,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(u64),
        workers: Workers<'_>,
    ) -> Result<Self, ExploreError>
    where
        P: Problem<State = S> + Sync + ?Sized,
        S: Send + Sync,
    {
        Self::explore_with(cancel, progress, |graph, budget, progress| {
            graph.build_in_layers(problem, budget, progress, cancel, workers)
        })
    }

    /// An empty graph built by `build` under the limits of `cancel`.
    fn explore_with(
        cancel: &CancelToken,
        progress: &mut dyn FnMut(u64),
        build: impl FnOnce(&mut Self, &mut Budget, &mut dyn FnMut(u64)) -> Result<(), Outcome>,
    ) -> Result<Self, ExploreError> {
        let mut budget = Budget::new(cancel);
        let mut graph = StateGraph {
            states: Vec::new(),
            index: FxHashMap::default(),
            offsets: vec![0],
            targets: Vec::new(),
            goals: Vec::new(),
            from_start: Vec::new(),
            to_goal: Vec::new(),
            starts: 0,
            peak_memory_bytes: 0,
        };
        let built = build(&mut graph, &mut budget, progress);
        graph.peak_memory_bytes = budget.peak();
        match built {
            Ok(()) => Ok(graph),
            Err(outcome) => {
                // States are numbered breadth-first: those numbered and not yet expanded
                // are the frontier.
                let expanded = graph.offsets.len() as u64 - 1;
                let reached = graph.states.len() as u64;
                let stats = Stats {
                    expanded,
                    frontier: reached.saturating_sub(expanded),
                    max_closed: reached,
                    ..Stats::default()
                };
                let message = limit_message(outcome, &budget, &stats, cancel)
                    .unwrap_or_else(|| "it was cancelled".to_owned());
                let error = match budget.interruption {
                    Some(super::Interrupt::Failed(e)) if outcome == Outcome::ScriptError => Some(e),
                    _ => None,
                };
                Err(ExploreError {
                    outcome,
                    states: graph.states.len() as u64,
                    message,
                    error,
                })
            }
        }
    }

    fn build<P: Problem<State = S> + ?Sized>(
        &mut self,
        problem: &P,
        budget: &mut Budget,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), Outcome> {
        for s in problem.start_states() {
            let own = problem.state_heap_bytes(&s) as u64;
            self.number(s, 0, own, budget)?;
        }
        self.starts = self.states.len();
        let mut successors: Vec<Successor<S, P::Move>> = Vec::new();
        let mut node = 0;
        while node < self.states.len() {
            budget.check()?;
            if node % PROGRESS_EVERY == 0 {
                progress(self.states.len() as u64);
            }
            successors.clear();
            if let Err(interrupt) = problem.successors(&self.states[node], &mut successors) {
                return Err(budget.interrupted(interrupt));
            }
            let count = successors.len();
            self.link(
                problem,
                node,
                count,
                successors.drain(..).map(|s| s.state),
                budget,
            )?;
            node += 1;
        }
        progress(self.states.len() as u64);
        budget.reserve(&mut self.goals, self.states.len(), "the goal flags")?;
        for s in &self.states {
            let goal = problem.is_goal(s).map_err(|i| budget.interrupted(i))?;
            self.goals.push(goal);
        }
        self.distances_to_goal(budget)
    }

    /// [`StateGraph::build`], each slice of the queue expanded on the threads of `workers`.
    fn build_in_layers<P>(
        &mut self,
        problem: &P,
        budget: &mut Budget,
        progress: &mut dyn FnMut(u64),
        cancel: &CancelToken,
        workers: Workers<'_>,
    ) -> Result<(), Outcome>
    where
        P: Problem<State = S> + Sync + ?Sized,
        S: Send + Sync,
    {
        for s in problem.start_states() {
            let own = problem.state_heap_bytes(&s) as u64;
            self.number(s, 0, own, budget)?;
        }
        self.starts = self.states.len();
        let mut node = 0;
        while node < self.states.len() {
            budget.check_now()?;
            progress(self.states.len() as u64);
            // Every state of the slice is numbered already: numbering their successors in
            // order numbers them as the plain walk does.
            let end = self.states.len().min(node + layered_count::SLICE);
            let found = layered_count::in_parallel(&self.states[node..end], cancel, workers, |s| {
                layered_count::successor_states(problem, s)
            });
            budget.check_now()?;
            for successors in found {
                let successors = successors.map_err(|i| budget.interrupted(i))?;
                let count = successors.len();
                self.link(problem, node, count, successors, budget)?;
                node += 1;
            }
        }
        progress(self.states.len() as u64);
        budget.reserve(&mut self.goals, self.states.len(), "the goal flags")?;
        let goals =
            layered_count::in_parallel(&self.states, cancel, workers, |s| problem.is_goal(s));
        budget.check_now()?;
        for goal in goals {
            self.goals.push(goal.map_err(|i| budget.interrupted(i))?);
        }
        self.distances_to_goal(budget)
    }

    /// Numbers the `count` successors of `node` (the next node to link) and records its edges
    /// to them, each once.
    fn link<P: Problem<State = S> + ?Sized>(
        &mut self,
        problem: &P,
        node: usize,
        count: usize,
        successors: impl IntoIterator<Item = S>,
        budget: &mut Budget,
    ) -> Result<(), Outcome> {
        let depth = self.from_start[node] + 1;
        let first = self.targets.len();
        budget.reserve(&mut self.targets, count, "the state graph's edges")?;
        for s in successors {
            let own = problem.state_heap_bytes(&s) as u64;
            let target = self.number(s, depth, own, budget)?;
            if !self.targets[first..].contains(&target) {
                self.targets.push(target);
            }
        }
        let end = u32::try_from(self.targets.len()).map_err(|_| Outcome::MemoryLimit)?;
        budget.reserve(&mut self.offsets, 1, "the state graph's edges")?;
        self.offsets.push(end);
        Ok(())
    }

    /// The number of `state`, numbering it at `depth` if it is new.
    fn number(
        &mut self,
        state: S,
        depth: u32,
        own: u64,
        budget: &mut Budget,
    ) -> Result<u32, Outcome> {
        if let Some(&i) = self.index.get(&state) {
            return Ok(i);
        }
        let i = u32::try_from(self.states.len())
            .ok()
            .filter(|&i| i < UNREACHABLE - 1)
            .ok_or(Outcome::MemoryLimit)?;
        budget.reserve(&mut self.index, 1, "the index of states")?;
        budget.reserve(&mut self.states, 1, "the list of states")?;
        budget.reserve(&mut self.from_start, 1, "the distances from the start")?;
        // The heap bytes of the state's two copies, in the index and the list.
        budget.charge(2 * own, "the states (their own bytes)")?;
        self.index.insert(state.clone(), i);
        self.states.push(state);
        self.from_start.push(depth);
        Ok(i)
    }

    /// Breadth-first search of the reversed graph from every goal.
    fn distances_to_goal(&mut self, budget: &mut Budget) -> Result<(), Outcome> {
        let n = self.states.len();
        // The reversed graph in the same compressed form: predecessors of each node.
        let mut rev_offsets: Vec<u32> = Vec::new();
        budget.reserve(&mut rev_offsets, n + 1, "the reversed state graph")?;
        rev_offsets.resize(n + 1, 0);
        for &t in &self.targets {
            rev_offsets[t as usize + 1] += 1;
        }
        for i in 0..n {
            rev_offsets[i + 1] += rev_offsets[i];
        }
        let mut fill = rev_offsets.clone();
        let mut sources: Vec<u32> = Vec::new();
        budget.reserve(&mut sources, self.targets.len(), "the reversed state graph")?;
        sources.resize(self.targets.len(), 0);
        for from in 0..n {
            for &t in self.successors(from as u32) {
                sources[fill[t as usize] as usize] = from as u32;
                fill[t as usize] += 1;
            }
        }
        drop(fill);
        budget.reserve(&mut self.to_goal, n, "the distances to the goal")?;
        self.to_goal.resize(n, UNREACHABLE);
        let mut queue = std::collections::VecDeque::new();
        budget.reserve(&mut queue, n, "the queue of states to expand")?;
        for i in 0..n {
            if self.goals[i] {
                self.to_goal[i] = 0;
                queue.push_back(i as u32);
            }
        }
        while let Some(node) = queue.pop_front() {
            budget.check()?;
            let d = self.to_goal[node as usize] + 1;
            let range =
                rev_offsets[node as usize] as usize..rev_offsets[node as usize + 1] as usize;
            for &p in &sources[range] {
                if self.to_goal[p as usize] == UNREACHABLE {
                    self.to_goal[p as usize] = d;
                    queue.push_back(p);
                }
            }
        }
        Ok(())
    }
}

impl<S: Eq + Hash> StateGraph<S> {
    /// The number of states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether there are no states (the problem has no start state).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The number of edges (distinct moves between states).
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The state numbered `node`; `None` past the end.
    pub fn state(&self, node: u32) -> Option<&S> {
        self.states.get(node as usize)
    }

    /// The number of `state`, if it is reachable.
    pub fn node_of(&self, state: &S) -> Option<u32> {
        self.index.get(state).copied()
    }

    /// The successors of `node` (none past the end).
    pub fn successors(&self, node: u32) -> &[u32] {
        let i = node as usize;
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.targets[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Whether `node` is a goal state.
    pub fn is_goal(&self, node: u32) -> bool {
        self.goals.get(node as usize).copied().unwrap_or(false)
    }

    /// The nodes of the start states (`0..n`).
    pub fn start_nodes(&self) -> std::ops::Range<u32> {
        0..self.starts as u32
    }

    /// The distance in moves of `node` from the nearest start state.
    pub fn from_start(&self, node: u32) -> Option<u32> {
        self.from_start.get(node as usize).copied()
    }

    /// The distance in moves of `node` to the nearest goal; `None` for a dead end or past
    /// the end.
    pub fn to_goal(&self, node: u32) -> Option<u32> {
        self.to_goal
            .get(node as usize)
            .copied()
            .filter(|&d| d != UNREACHABLE)
    }

    /// The most bytes the exploration held at once, as counted against its memory limit.
    pub fn peak_memory_bytes(&self) -> u64 {
        self.peak_memory_bytes
    }

    /// The distance profiles, dead ends and farthest states (one pass over the nodes).
    pub fn profile(&self) -> Profile {
        let mut p = Profile {
            states: self.len() as u64,
            edges: self.edge_count() as u64,
            ..Profile::default()
        };
        for node in 0..self.len() {
            let d = self.from_start[node];
            bump(&mut p.distance_profile, d);
            if d > p.farthest_distance {
                p.farthest_distance = d;
                p.farthest = node as u32;
            }
            p.goals += u64::from(self.goals[node]);
            match self.to_goal[node] {
                UNREACHABLE => p.dead_ends += 1,
                g => {
                    bump(&mut p.goal_distance_profile, g);
                    if p.hardest.is_none() || g > p.hardest_distance {
                        p.hardest = Some(node as u32);
                        p.hardest_distance = g;
                    }
                }
            }
        }
        p
    }

    /// Writes the graph as GraphML (the XML graph format of yEd, Gephi and NetworkX): a
    /// directed graph whose nodes `n0`, `n1`, … carry `label` (from `label_of`),
    /// `from_start` and `to_goal` (−1 for a dead end) and `goal`, and whose edges are the
    /// moves.
    ///
    /// # Errors
    /// The I/O error of writing.
    pub fn write_graphml(
        &self,
        out: &mut dyn Write,
        label_of: &dyn Fn(u32) -> String,
    ) -> io::Result<()> {
        writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
        writeln!(
            out,
            r#"<graphml xmlns="http://graphml.graphdrawing.org/xmlns">"#
        )?;
        for (id, ty) in [
            ("label", "string"),
            ("from_start", "int"),
            ("to_goal", "int"),
            ("goal", "boolean"),
        ] {
            writeln!(
                out,
                r#"  <key id="{id}" for="node" attr.name="{id}" attr.type="{ty}"/>"#
            )?;
        }
        writeln!(out, r#"  <graph id="states" edgedefault="directed">"#)?;
        for node in 0..self.len() as u32 {
            let to_goal = self.to_goal(node).map_or(-1, i64::from);
            writeln!(
                out,
                r#"    <node id="n{node}"><data key="label">{}</data><data key="from_start">{}</data><data key="to_goal">{to_goal}</data><data key="goal">{}</data></node>"#,
                xml_escape(&label_of(node)),
                self.from_start[node as usize],
                self.is_goal(node)
            )?;
        }
        for from in 0..self.len() as u32 {
            for &to in self.successors(from) {
                writeln!(out, r#"    <edge source="n{from}" target="n{to}"/>"#)?;
            }
        }
        writeln!(out, "  </graph>\n</graphml>")
    }

    /// Writes the edges as CSV: a header `source,target`, then a line per move between node
    /// numbers (those of [`StateGraph::write_graphml`] without the `n`).
    ///
    /// # Errors
    /// The I/O error of writing.
    pub fn write_edge_csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "source,target")?;
        for from in 0..self.len() as u32 {
            for &to in self.successors(from) {
                writeln!(out, "{from},{to}")?;
            }
        }
        Ok(())
    }
}

fn bump(profile: &mut Vec<u64>, d: u32) {
    let d = d as usize;
    if profile.len() <= d {
        profile.resize(d + 1, 0);
    }
    profile[d] += 1;
}

/// `text` with XML's special characters escaped.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            c => out.push(c),
        }
    }
    out
}
