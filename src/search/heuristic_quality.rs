//! How good a heuristic is, measured against the exact least cost to a goal (h*) over a
//! whole explored state space ([`StateGraph`]): admissibility (h <= h* on every state),
//! consistency (h(s) <= c(s, s') + h(s') on every edge), the mean of h, of h* and of h / h*,
//! the states where h is exact, and the first violations found, to open and look at.
//!
//! h* is a cost, not a count of moves: diagonal steps and terrain count, by Dijkstra's
//! algorithm run backwards from every goal over the explored edges. States from which no goal
//! is reachable (dead ends) have no h* and are counted apart.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::Hash;

use serde::Serialize;

use super::space::StateGraph;
use super::{CancelToken, Cost, Outcome, Problem, Successor};

/// The most violations of each kind kept as examples.
pub const MAX_EXAMPLES: usize = 10;

/// Bins of h* (and of h, on the same scale) in [`Quality::histogram`].
pub const HISTOGRAM_BINS: usize = 24;

/// Two costs closer than this (relative to their size) count as equal: sums of diagonal
/// steps (sqrt 2) reach the same cost along different paths with different rounding.
const TOLERANCE: f64 = 1e-9;

/// A state where the heuristic overestimates, or any state as an example: its node in the
/// graph, h and h*.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StateExample {
    /// The state's node number in the [`StateGraph`].
    pub node: u32,
    /// The heuristic's estimate.
    pub h: Cost,
    /// The least cost to a goal.
    pub hstar: Cost,
}

/// An edge along which the heuristic drops by more than the move costs: h(from) > cost +
/// h(to).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EdgeExample {
    /// The node the move leaves.
    pub from: u32,
    /// The node the move reaches.
    pub to: u32,
    /// The move's cost.
    pub cost: Cost,
    /// h at `from`.
    pub h_from: Cost,
    /// h at `to`.
    pub h_to: Cost,
}

/// One bin of the histogram of h against h*: the states whose h* falls in bin `hstar_bin`
/// and h in bin `h_bin` (bins of width [`Quality::bin_width`] from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HistogramCell {
    /// The bin of h*.
    pub hstar_bin: u16,
    /// The bin of h.
    pub h_bin: u16,
    /// States in the cell.
    pub states: u64,
}

/// A heuristic measured against exact distances (see the module documentation). Means are
/// over the states from which a goal is reachable (goals included); `mean_h_over_hstar` over
/// those with h* > 0.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Quality {
    /// States from which a goal is reachable (the ones measured).
    pub states: u64,
    /// States from which no goal is reachable, counted apart.
    pub dead_ends: u64,
    /// Moves (edges) checked for consistency, between measured states.
    pub edges: u64,
    /// Whether h <= h* on every measured state.
    pub admissible: bool,
    /// Whether h(s) <= c(s, s') + h(s') on every checked edge.
    pub consistent: bool,
    /// The mean of h.
    pub mean_h: f64,
    /// The mean of h*.
    pub mean_hstar: f64,
    /// The mean of h / h* over the states with h* > 0 (1 for a perfect heuristic).
    pub mean_h_over_hstar: f64,
    /// States where h = h*, goals included.
    pub exact_states: u64,
    /// States where h > h*.
    pub inadmissible_states: u64,
    /// Edges where h(s) > c(s, s') + h(s').
    pub inconsistent_edges: u64,
    /// Up to [`MAX_EXAMPLES`] overestimated states, the largest overestimates first.
    pub inadmissible: Vec<StateExample>,
    /// Up to [`MAX_EXAMPLES`] inconsistent edges, the largest drops first.
    pub inconsistent: Vec<EdgeExample>,
    /// The width of a histogram bin, in cost units.
    pub bin_width: f64,
    /// The histogram of h against h* (non-empty cells only).
    pub histogram: Vec<HistogramCell>,
    /// h* - h for every node of the graph (by node number); `NaN` for dead ends. For a
    /// picture's tint. Empty for a sample.
    #[serde(skip)]
    pub gap: Vec<f32>,
    /// `Some(n)` when the figures are over `n` sampled states (with h* from an optimal
    /// solver), not a whole space: admissible and consistent then mean "on the sample".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampled: Option<u64>,
}

/// The least cost from every node of `graph` to a goal, by Dijkstra's algorithm backwards
/// from the goals; `Cost::INFINITY` where none is reachable. The move costs come from
/// `problem`'s successors (the graph keeps no costs). `Err` when `cancel` is cancelled.
///
/// # Errors
/// [`Outcome::Cancelled`] when `cancel` is cancelled; [`Outcome::MemoryLimit`] when the
/// tables would pass the memory limit of `cancel` (checked before they are made).
pub fn exact_costs<P: Problem + ?Sized>(
    problem: &P,
    graph: &StateGraph<P::State>,
    cancel: &CancelToken,
) -> Result<Vec<Cost>, Outcome>
where
    P::State: Clone + Eq + Hash,
{
    let n = graph.len();
    // Sizes checked before anything is allocated, beside the graph's own: the reversed
    // edges (a list a node, 12 bytes an edge), the costs, the estimates and the tint (20
    // bytes a node).
    let needed = n as u64 * (24 + 20) + graph.edge_count() as u64 * 12;
    if needed.saturating_add(graph.peak_memory_bytes()) > cancel.limits().max_memory {
        return Err(Outcome::MemoryLimit);
    }
    // The reversed edges with their costs, as lists by target.
    let mut incoming: Vec<Vec<(u32, Cost)>> = vec![Vec::new(); n];
    let mut successors = Vec::new();
    for node in 0..n as u32 {
        if node % 4096 == 0 && cancel.is_cancelled() {
            return Err(Outcome::Cancelled);
        }
        for (to, cost) in edges(problem, graph, node, &mut successors) {
            incoming[to as usize].push((node, cost));
        }
    }
    let mut cost = vec![Cost::INFINITY; n];
    let mut open = BinaryHeap::new();
    for node in 0..n as u32 {
        if graph.is_goal(node) {
            cost[node as usize] = 0.0;
            open.push(Reverse((Ordered(0.0), node)));
        }
    }
    let mut popped = 0u64;
    while let Some(Reverse((Ordered(c), node))) = open.pop() {
        popped += 1;
        if popped.is_multiple_of(4096) && cancel.is_cancelled() {
            return Err(Outcome::Cancelled);
        }
        if c > cost[node as usize] {
            continue;
        }
        for &(from, step) in &incoming[node as usize] {
            let through = c + step;
            if through < cost[from as usize] {
                cost[from as usize] = through;
                open.push(Reverse((Ordered(through), from)));
            }
        }
    }
    Ok(cost)
}

/// The explored edges out of `node` with their costs (successors outside the graph are
/// skipped); `buffer` is scratch space.
fn edges<P: Problem + ?Sized>(
    problem: &P,
    graph: &StateGraph<P::State>,
    node: u32,
    buffer: &mut Vec<Successor<P::State, P::Move>>,
) -> Vec<(u32, Cost)>
where
    P::State: Clone + Eq + Hash,
{
    buffer.clear();
    if let Some(state) = graph.state(node)
        && problem.successors(state, buffer).is_err()
    {
        // Its successors were explored once; cut short now, it has none to measure.
        buffer.clear();
    }
    buffer
        .iter()
        .filter_map(|s| Some((graph.node_of(&s.state)?, s.cost)))
        .collect()
}

/// Measures `problem`'s heuristic against the exact costs over `graph` (explored from one of
/// `problem`'s positions, with the same rules).
///
/// # Errors
/// As [`exact_costs`]; the outcome of an [`super::Interrupt`] of the problem's heuristic
/// ([`Outcome::ScriptError`] for its error).
pub fn measure<P: Problem + ?Sized>(
    problem: &P,
    graph: &StateGraph<P::State>,
    cancel: &CancelToken,
) -> Result<Quality, Outcome>
where
    P::State: Clone + Eq + Hash,
{
    let hstar = exact_costs(problem, graph, cancel)?;
    let n = graph.len();
    let h: Vec<Cost> = (0..n as u32)
        .map(|node| graph.state(node).map_or(Ok(0.0), |s| problem.heuristic(s)))
        .collect::<Result<_, _>>()
        .map_err(|interrupt| interrupt.outcome())?;
    let max_hstar = hstar
        .iter()
        .copied()
        .filter(|c| c.is_finite())
        .fold(0.0, f64::max);
    let mut tally = Tally::new(max_hstar);
    tally.quality.gap = vec![f32::NAN; n];
    let mut successors = Vec::new();
    for node in 0..n as u32 {
        if node % 4096 == 0 && cancel.is_cancelled() {
            return Err(Outcome::Cancelled);
        }
        let (hs, hn) = (hstar[node as usize], h[node as usize]);
        if !hs.is_finite() {
            tally.quality.dead_ends += 1;
            continue;
        }
        tally.quality.gap[node as usize] = (hs - hn) as f32;
        tally.state(node, hn, hs);
        for (to, cost) in edges(problem, graph, node, &mut successors) {
            if hstar[to as usize].is_finite() {
                tally.edge(node, to, cost, hn, h[to as usize]);
            }
        }
    }
    Ok(tally.finish())
}

/// The figures of a [`Quality`] gathered state by state and edge by edge (over a whole space,
/// or over sampled states: [`Tally::sampled`]).
#[derive(Clone, Debug)]
pub struct Tally {
    quality: Quality,
    sum_h: f64,
    sum_hstar: f64,
    sum_ratio: f64,
    ratios: u64,
    cells: std::collections::BTreeMap<(u16, u16), u64>,
}

impl Tally {
    /// An empty tally whose histogram spans h* from 0 to `max_hstar`.
    pub fn new(max_hstar: Cost) -> Self {
        Self {
            quality: Quality {
                admissible: true,
                consistent: true,
                bin_width: (max_hstar / HISTOGRAM_BINS as f64).max(1.0).ceil(),
                ..Quality::default()
            },
            sum_h: 0.0,
            sum_hstar: 0.0,
            sum_ratio: 0.0,
            ratios: 0,
            cells: Default::default(),
        }
    }

    /// Counts a state (`node` names it in the examples) with estimate `h` and least cost
    /// to a goal `hstar` (finite).
    pub fn state(&mut self, node: u32, h: Cost, hstar: Cost) {
        let q = &mut self.quality;
        q.states += 1;
        self.sum_h += h;
        self.sum_hstar += hstar;
        if hstar > 0.0 {
            self.sum_ratio += h / hstar;
            self.ratios += 1;
        }
        if !above(h, hstar) && !above(hstar, h) {
            q.exact_states += 1;
        }
        let bin = |c: Cost| ((c / q.bin_width).floor().max(0.0) as usize).min(u16::MAX as usize);
        *self
            .cells
            .entry((bin(hstar) as u16, bin(h) as u16))
            .or_default() += 1;
        if above(h, hstar) {
            q.inadmissible_states += 1;
            keep(&mut q.inadmissible, StateExample { node, h, hstar }, |e| {
                e.h - e.hstar
            });
        }
    }

    /// Counts a move of cost `cost` from `from` (estimate `h_from`) to `to` (`h_to`).
    pub fn edge(&mut self, from: u32, to: u32, cost: Cost, h_from: Cost, h_to: Cost) {
        let q = &mut self.quality;
        q.edges += 1;
        if above(h_from, cost + h_to) {
            q.inconsistent_edges += 1;
            keep(
                &mut q.inconsistent,
                EdgeExample {
                    from,
                    to,
                    cost,
                    h_from,
                    h_to,
                },
                |e| e.h_from - e.cost - e.h_to,
            );
        }
    }

    /// Marks the figures as taken over `n` sampled states (see [`Quality::sampled`]).
    pub fn sampled(&mut self, n: u64) {
        self.quality.sampled = Some(n);
    }

    /// The figures.
    pub fn finish(mut self) -> Quality {
        let q = &mut self.quality;
        q.admissible = q.inadmissible_states == 0;
        q.consistent = q.inconsistent_edges == 0;
        if q.states > 0 {
            q.mean_h = self.sum_h / q.states as f64;
            q.mean_hstar = self.sum_hstar / q.states as f64;
        }
        if self.ratios > 0 {
            q.mean_h_over_hstar = self.sum_ratio / self.ratios as f64;
        }
        q.histogram = self
            .cells
            .into_iter()
            .map(|((hstar_bin, h_bin), states)| HistogramCell {
                hstar_bin,
                h_bin,
                states,
            })
            .collect();
        self.quality
    }
}

/// Whether cost `a` is above `b` by more than rounding.
fn above(a: Cost, b: Cost) -> bool {
    a > b + TOLERANCE * b.abs().max(1.0)
}

/// Keeps `example` among the [`MAX_EXAMPLES`] largest by `size`, largest first.
fn keep<T: Copy>(list: &mut Vec<T>, example: T, size: impl Fn(&T) -> f64) {
    let at = list.partition_point(|e| size(e) >= size(&example));
    if at < MAX_EXAMPLES {
        list.insert(at, example);
        list.truncate(MAX_EXAMPLES);
    }
}

/// A cost ordered totally (costs are never NaN), for the priority queue.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ordered(Cost);

impl Eq for Ordered {}

impl PartialOrd for Ordered {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ordered {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
