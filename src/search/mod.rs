//! The search engine: the [`Problem`] trait every puzzle implements, the algorithms (one module
//! each), the statistics of a run, the [`Observer`] that watches a run, and the [`CancelToken`]
//! that stops one.
//!
//! Nothing here knows about the GUI: the command line, the tests, the benchmarks and the
//! background solver thread all call [`run`].

mod algorithm;
mod astar;
mod best_first;
mod bfs;
mod bidirectional_astar;
mod bidirectional_bfs;
mod bucket_queue;
mod cancel;
mod claimed;
mod count;
mod dfs;
mod dijkstra;
mod greedy;
mod grid;
pub mod grid_block;
pub mod heuristic_quality;
mod idastar;
mod jps;
mod jps_plus;
mod layered_count;
pub mod layers;
pub mod limits;
pub mod octile;
pub mod order;
mod problem;
pub mod pseudocode;
pub mod space;
mod tree;
mod weighted_astar;

pub use algorithm::{Algorithm, Weight};
pub use cancel::CancelToken;
pub use count::{StateCount, count_reachable};
pub use grid_block::{GridBlock, GridEvent};
pub use layered_count::{Bind, Workers, count_reachable_in_layers};
pub use problem::{
    Backward, ClaimedHeuristic, DenseIndex, Interrupt, JumpFn, JumpPlus, JumpPoints, Problem,
    ProblemCapabilities, ProblemError, ProblemFacts, Successor, UnitGrid,
};

use std::time::Duration;

use serde::{Deserialize, Serialize};

use limits::Budget;
pub use limits::{Limits, TieBreak};

/// The cost of a move or a path. Costs are non-negative; most puzzles use 1 per move.
pub type Cost = f64;

/// A cost as people read it: whole costs as they are (`9`), others to four decimals
/// (`33.2426`, a path with diagonals). Files and JSON keep the full number.
pub fn format_cost(cost: Cost) -> String {
    if cost.fract() == 0.0 {
        format!("{cost}")
    } else {
        format!("{cost:.4}")
    }
}

/// A duration in milliseconds as people read it: microseconds below a millisecond (`35 µs`,
/// or `under 1 µs`), milliseconds to one decimal below a second (`12.3 ms`), else seconds
/// (`4.21 s`). A run that took 0.04 ms no longer reads "0.0 ms".
pub fn format_ms(ms: f64) -> String {
    if !ms.is_finite() || ms < 0.0 {
        return "unknown".to_owned();
    }
    if ms < 0.001 {
        "under 1 µs".to_owned()
    } else if ms < 1.0 {
        format!("{:.0} µs", ms * 1000.0)
    } else if ms < 1000.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.2} s", ms / 1000.0)
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A goal state was reached.
    Found,
    /// The whole reachable state space was searched without reaching a goal.
    NotFound,
    /// The run was stopped through its [`CancelToken`] before it ended.
    Cancelled,
    /// The run stopped before it would have crossed its memory budget
    /// ([`Limits::max_memory`]).
    MemoryLimit,
    /// The run reached its time limit ([`Limits::timeout`]).
    Timeout,
    /// The problem's own code (a puzzle written as a script) failed during the run: the run
    /// ended there, and the report's message says what failed and where. Said
    /// `script_error`.
    ScriptError,
}

impl Outcome {
    /// The outcome in words (the JSON's name with spaces: `not found`, `script error`).
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Found => "found",
            Outcome::NotFound => "not found",
            Outcome::Cancelled => "cancelled",
            Outcome::MemoryLimit => "memory limit",
            Outcome::Timeout => "timeout",
            Outcome::ScriptError => "script error",
        }
    }

    /// Whether the run stopped at one of its [`Limits`].
    pub fn is_limit(self) -> bool {
        matches!(self, Outcome::MemoryLimit | Outcome::Timeout)
    }
}

/// Statistics of one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// States taken off the frontier and expanded (their successors generated).
    pub expanded: u64,
    /// Successors generated, counting duplicates that were then discarded.
    pub generated: u64,
    /// The states on the frontier (open list) at the last expansion: distinct states, so
    /// that states reached = closed + frontier (a best-first search's stale entries, left by
    /// a cheaper path to their state, are not counted). At the end of a run that stopped at
    /// a goal test (the goal returned, or a test that failed), the state tested is reached
    /// and counted on neither: reached = closed + frontier + 1 then.
    #[serde(default, skip_serializing)]
    pub frontier: u64,
    /// The most states on the frontier (open list) at once during the run, counted as
    /// [`Stats::frontier`] is.
    pub max_frontier: u64,
    /// The largest size of the closed set (states reached) during the run.
    pub max_closed: u64,
    /// The greatest depth (number of moves from a start state) of an expanded state.
    pub max_depth: u64,
    /// Wall-clock time of the run in milliseconds, including time spent in the observer.
    pub elapsed_ms: f64,
    /// The most memory the run's tables (closed set, frontier, stacks) held at once, in
    /// bytes, as the engine accounts for it against [`Limits::max_memory`].
    #[serde(default)]
    pub peak_memory_bytes: u64,
    /// IDA*: the number of the current (or last) iteration; 0 for other algorithms.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub iterations: u64,
    /// IDA*: the current (or last) iteration's bound on `g + h`; 0 for other algorithms.
    #[serde(default, skip_serializing_if = "is_zero_cost")]
    pub threshold: Cost,
    /// The best-first searches (those with an open list): how it broke ties
    /// ([`Limits::tie_break`]); `None` for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_break: Option<TieBreak>,
    /// JPS+: the time its jump distances took to compute, milliseconds, part of
    /// [`Stats::elapsed_ms`]; 0 for other algorithms.
    #[serde(default, skip_serializing_if = "is_zero_cost")]
    pub precompute_ms: f64,
    /// How long the run waited paused (the app's Pause and Step, a breakpoint), in
    /// milliseconds: left out of [`Stats::elapsed_ms`]; 0 for a run never paused.
    #[serde(default, skip_serializing_if = "is_zero_cost")]
    pub paused_ms: f64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_zero_cost(c: &Cost) -> bool {
    *c == 0.0
}

/// The result of one run of an algorithm on a problem.
#[derive(Clone, Debug)]
pub struct SearchResult<S, M> {
    /// How the run ended.
    pub outcome: Outcome,
    /// The states of the solution, from the start state to the goal state; empty unless found.
    pub states: Vec<S>,
    /// The moves of the solution (`states.len() - 1` of them); empty unless found.
    pub moves: Vec<M>,
    /// The total cost of the solution; 0 unless found.
    pub cost: Cost,
    /// Whether the solution is guaranteed to have the least cost (see
    /// [`Algorithm::is_optimal_for`]).
    pub optimal: bool,
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// Statistics of the run.
    pub stats: Stats,
    /// For a run that stopped at a limit: what filled the memory or the time, and what to
    /// try instead; for one that ended at the problem's error ([`Outcome::ScriptError`]),
    /// the error. `None` otherwise.
    pub message: Option<String>,
    /// For a run that ended at the problem's error ([`Outcome::ScriptError`], an
    /// [`Interrupt::Failed`]): the error, with its line and column. `None` otherwise.
    pub error: Option<ProblemError>,
    /// Korf's tables: expansions per f value (best-first and breadth-first searches) or per
    /// IDA* iteration; empty for the other searches.
    pub tables: layers::Tables,
}

/// Receives what a running search does. Every method has an empty default, so an observer
/// implements only what it needs. The search calls these on its own thread; an observer may
/// block (the solver thread does, to pace an animation).
pub trait Observer<S> {
    /// `state` was taken off the frontier and is being expanded, `depth` moves from a start.
    /// `stats` are the statistics so far.
    fn expanded(&mut self, _state: &S, _depth: u64, _stats: &Stats) {}
    /// The search is about to count and expand a state it took off the frontier (one found
    /// no goal, for the searches that test at expansion), and looks at its stop and limits
    /// right after this returns. An observer that paces the search (the app's pause and
    /// speed) waits here, not in [`Observer::expanded`]: a stop seen while it waits then ends
    /// the run with the expansions told so far, none more. `stats` are the figures of the
    /// expansions told, each whole (its successors generated and queued): the figures a stop
    /// seen here ends the run with, and those of the moment a pause here shows. Not called
    /// for the expansions of a [`GridBlock`], nor by a silent search.
    fn before_expansion(&mut self, _stats: &Stats) {}
    /// The state just reported by [`Observer::expanded`], scored: its path cost `g`, its
    /// heuristic `h` (`None` for algorithms that use none) and the state it was reached from
    /// (`None` for a start). Called only when [`Observer::wants_scores`] says so.
    fn scored(&mut self, _state: &S, _g: Cost, _h: Option<Cost>, _parent: Option<&S>) {}
    /// Whether [`Observer::scored`] is wanted for the next expansion (the default: no).
    fn wants_scores(&self) -> bool {
        false
    }
    /// `state` was added to the frontier.
    fn generated(&mut self, _state: &S) {}
    /// The state just reported by [`Observer::generated`], scored: the path cost `g` it was
    /// put on the frontier with and its heuristic `h` (`None` for algorithms that use none).
    /// Called only when [`Observer::wants_scores`] says so.
    fn scored_generated(&mut self, _g: Cost, _h: Option<Cost>) {}
    /// `state` joined the end of the current path from a start state (depth-first search and
    /// IDA* report their path as these changes, so that following it costs O(1) a step).
    fn path_push(&mut self, _state: &S) {}
    /// The last state of the current path left it (see [`Observer::path_push`]).
    fn path_pop(&mut self) {}
    /// IDA* begins iteration `iteration` (from 1) with this bound on `g + h`.
    fn iteration(&mut self, _iteration: u64, _threshold: Cost) {}
    /// How many expansions of breadth-first search on a [`UnitGrid`] this observer takes at a
    /// time as one [`GridBlock`] ([`Observer::grid_block`]) in place of the calls above; 0
    /// (the default) for those calls. Asked before each block; the figures told are the same
    /// either way ([`GridBlock::events`]).
    fn grid_block_len(&self) -> usize {
        0
    }
    /// Expansions of breadth-first search on a [`UnitGrid`], with the states each put on the
    /// frontier (see [`Observer::grid_block_len`]); told before the search goes on.
    fn grid_block(&mut self, _block: &GridBlock) {}
    /// Whether every method above does nothing, so a search may skip calling them (a
    /// headless run then pays nothing for being observable). The default is false.
    fn is_silent(&self) -> bool {
        false
    }
}

/// An observer that ignores everything, for headless runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl<S> Observer<S> for NoObserver {
    fn is_silent(&self) -> bool {
        true
    }
}

/// Errors that keep a search from starting.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SearchError {
    /// The algorithm needs a heuristic that this puzzle does not have.
    #[error("{0} needs a heuristic, and this puzzle has none")]
    NeedsHeuristic(Algorithm),
    /// The algorithm does not suit this puzzle; the reason says why (see
    /// [`Algorithm::refusal`]).
    #[error("{algorithm} does not suit this puzzle: {reason}")]
    Unsuited {
        /// The algorithm refused.
        algorithm: Algorithm,
        /// Why.
        reason: String,
    },
    /// The puzzle provably has no solution, found without searching (for example a sliding
    /// tile board of the wrong parity); the text says why.
    #[error("{0}")]
    Unsolvable(String),
    /// The problem has no start state.
    #[error("the puzzle has no start state")]
    NoStart,
}

/// Runs `algorithm` on `problem`, reporting to `observer`, under the [`Limits`] of `cancel`
/// and stopping early when `cancel` is cancelled.
///
/// # Errors
/// [`SearchError::NeedsHeuristic`] or [`SearchError::Unsuited`] for an algorithm that does
/// not apply (see [`Algorithm::refusal`]), and [`SearchError::NoStart`] when the problem has no
/// start state. A search that finds no solution is not an error: its
/// [`SearchResult::outcome`] is [`Outcome::NotFound`]; one that stops at a limit ends with
/// [`Outcome::MemoryLimit`] or [`Outcome::Timeout`] and a [`SearchResult::message`].
pub fn run<P: Problem + ?Sized>(
    problem: &P,
    algorithm: Algorithm,
    observer: &mut dyn Observer<P::State>,
    cancel: &CancelToken,
) -> Result<SearchResult<P::State, P::Move>, SearchError> {
    run_with(problem, algorithm, observer, cancel, true)
}

/// [`run`] on the plain searches alone, never a fast path (the flat grid searches): the
/// reference that the differential tests hold each fast path to, event by event.
///
/// # Errors
/// As [`run`].
pub fn run_reference<P: Problem + ?Sized>(
    problem: &P,
    algorithm: Algorithm,
    observer: &mut dyn Observer<P::State>,
    cancel: &CancelToken,
) -> Result<SearchResult<P::State, P::Move>, SearchError> {
    run_with(problem, algorithm, observer, cancel, false)
}

fn run_with<P: Problem + ?Sized>(
    problem: &P,
    algorithm: Algorithm,
    observer: &mut dyn Observer<P::State>,
    cancel: &CancelToken,
    fast: bool,
) -> Result<SearchResult<P::State, P::Move>, SearchError> {
    if let Some(refusal) = algorithm.refusal(problem) {
        return Err(refusal);
    }
    let starts = problem.start_states();
    if starts.is_empty() {
        return Err(SearchError::NoStart);
    }
    let started = std::time::Instant::now();
    let mut budget = Budget::new(cancel);
    let b = &mut budget;
    // Breadth-first search takes the flat table watched too (the app's full speed); A* only
    // when no one watches.
    let capabilities = problem.capabilities();
    let grid = capabilities
        .unit_grid
        .zip(capabilities.dense)
        .filter(|(g, _)| {
            fast && (algorithm == Algorithm::Bfs
                || (algorithm == Algorithm::AStar && observer.is_silent()))
                && grid::fits(g)
        });
    let mut result = match grid {
        Some((g, dense)) => {
            let squares: Vec<usize> = starts
                .iter()
                .map(|s| dense.dense_index(s))
                .filter(|&s| s < g.cost.len())
                .collect();
            if algorithm == Algorithm::Bfs {
                grid::bfs(problem, dense, &g, &squares, observer, b)
            } else {
                grid::astar(problem, dense, &g, &squares, b)
            }
        }
        None => match algorithm {
            Algorithm::Dfs => dfs::search(problem, starts, observer, b),
            Algorithm::Bfs => bfs::search(problem, starts, observer, b),
            Algorithm::Dijkstra => dijkstra::search(problem, starts, observer, b),
            Algorithm::AStar => astar::search(problem, starts, observer, b),
            Algorithm::Greedy => greedy::search(problem, starts, observer, b),
            Algorithm::IdaStar => idastar::search(problem, starts, observer, b),
            Algorithm::WeightedAStar(w) => {
                weighted_astar::search(problem, starts, observer, b, w.value())
            }
            Algorithm::BidirectionalBfs | Algorithm::BidirectionalAStar => {
                let Some(backward) = capabilities.backward else {
                    return Err(missing(algorithm));
                };
                if algorithm == Algorithm::BidirectionalBfs {
                    bidirectional_bfs::search(problem, backward, starts, observer, b)
                } else {
                    bidirectional_astar::search(problem, backward, starts, observer, b)
                }
            }
            Algorithm::Jps | Algorithm::JpsPlus => {
                let Some(jump_points) = capabilities.jump_points else {
                    return Err(missing(algorithm));
                };
                if algorithm == Algorithm::Jps {
                    jps::search(problem, jump_points, starts, observer, b)
                } else {
                    jps_plus::search(problem, jump_points, starts, observer, b)
                }
            }
        },
    };
    result.algorithm = algorithm;
    result.optimal = result.outcome == Outcome::Found && algorithm.is_optimal_for(problem);
    result.stats.elapsed_ms = duration_ms(started.elapsed());
    result.stats.peak_memory_bytes = budget.peak();
    result.stats.tie_break = algorithm.has_open_list().then(|| budget.tie_break());
    result.message = limit_message(result.outcome, &budget, &result.stats, cancel);
    if let Some(Interrupt::Failed(e)) = &budget.interruption
        && result.outcome == Outcome::ScriptError
    {
        result.error = Some(e.clone());
    }
    Ok(result)
}

/// The refusal of an algorithm whose capability the problem lacks: [`Algorithm::refusal`]
/// refuses it before a run starts, so this is only a second line of defence.
fn missing(algorithm: Algorithm) -> SearchError {
    SearchError::Unsuited {
        algorithm,
        reason: "the puzzle lacks the capability it needs".into(),
    }
}

/// What a run that stopped at a limit says: what filled the memory or the time, and what to
/// try instead; one that the problem cut short ([`Budget::interrupted`]), its error, or the
/// limit and the problem's words for what it ended ("stopped at the time limit of 1.0 s: the
/// script's `moves` ran past the run's time limit").
fn limit_message(
    outcome: Outcome,
    budget: &Budget,
    stats: &Stats,
    cancel: &CancelToken,
) -> Option<String> {
    let timeout = || cancel.limits().timeout.unwrap_or_default().as_secs_f64();
    match &budget.interruption {
        Some(Interrupt::Failed(e)) if outcome == Outcome::ScriptError => {
            return Some(format!("stopped at a script error: {e}"));
        }
        Some(Interrupt::Stopped { why: Some(why), .. }) if outcome == Outcome::Timeout => {
            return Some(format!(
                "stopped at the time limit of {:.1} s: {why}",
                timeout()
            ));
        }
        Some(Interrupt::Stopped { why: Some(why), .. }) if outcome == Outcome::MemoryLimit => {
            return Some(format!(
                "stopped at the memory limit of {}: {why}",
                limits::format_bytes(budget.max_bytes())
            ));
        }
        _ => {}
    }
    if !outcome.is_limit() {
        return None;
    }
    let so_far = format!(
        "{} states expanded, {} reached, {} on the frontier",
        stats.expanded, stats.max_closed, stats.frontier
    );
    match outcome {
        Outcome::MemoryLimit => Some(format!(
            "stopped at the memory limit of {}: {} would have grown past it ({so_far}). \
             Try A* or IDA* with a better heuristic, a smaller puzzle, or a larger memory limit",
            limits::format_bytes(budget.max_bytes()),
            budget.exceeded_by.unwrap_or("the search's tables"),
        )),
        Outcome::Timeout => Some(format!(
            "stopped at the time limit of {:.1} s ({so_far}). Try A* or IDA* with a better \
             heuristic, a smaller puzzle, or a longer time limit",
            timeout()
        )),
        _ => None,
    }
}

/// Runs `algorithm` with no observer and no way to cancel: the form the CLI and tests use.
///
/// # Errors
/// As [`run`].
///
/// # Example
/// A problem is its start states, its goal test and its successors (each with the move's
/// cost); a heuristic is optional. Each may cut the run short with an [`Interrupt`] (a
/// problem whose own code can fail, or that sees the run's stop); these cannot, and say
/// `Ok`. Here: from 1 reach 10 by "+1" (cost 1) or "*2" (cost 1).
/// ```
/// use puzzlelab::search::{
///     self, Algorithm, Cost, Interrupt, Outcome, Problem, ProblemFacts, Successor,
/// };
///
/// struct Numbers;
///
/// impl Problem for Numbers {
///     type State = u32;
///     type Move = &'static str;
///     fn start_states(&self) -> Vec<u32> {
///         vec![1]
///     }
///     fn is_goal(&self, n: &u32) -> Result<bool, Interrupt> {
///         Ok(*n == 10)
///     }
///     fn successors(
///         &self,
///         n: &u32,
///         out: &mut Vec<Successor<u32, &'static str>>,
///     ) -> Result<(), Interrupt> {
///         for (state, mv) in [(n + 1, "+1"), (n * 2, "*2")] {
///             if state <= 10 {
///                 out.push(Successor { state, mv, cost: 1.0 as Cost });
///             }
///         }
///         Ok(())
///     }
///     // Admissible and consistent: a state short of 10 is at least one move away.
///     fn heuristic(&self, n: &u32) -> Result<Cost, Interrupt> {
///         Ok(if *n == 10 { 0.0 } else { 1.0 })
///     }
///     fn facts(&self) -> ProblemFacts {
///         ProblemFacts::with_heuristic()
///     }
/// }
///
/// // 1 +1 2 *2 4 +1 5 *2 10: four moves, the fewest.
/// let bfs = search::solve(&Numbers, Algorithm::Bfs).unwrap();
/// assert_eq!(bfs.outcome, Outcome::Found);
/// assert_eq!(bfs.cost, 4.0);
/// // Every optimal algorithm agrees on the cost.
/// for algorithm in [Algorithm::Dijkstra, Algorithm::AStar] {
///     assert_eq!(search::solve(&Numbers, algorithm).unwrap().cost, 4.0);
/// }
/// ```
pub fn solve<P: Problem + ?Sized>(
    problem: &P,
    algorithm: Algorithm,
) -> Result<SearchResult<P::State, P::Move>, SearchError> {
    run(problem, algorithm, &mut NoObserver, &CancelToken::new())
}

/// Pushes the neighbours of `state` in a search's direction: its successors searching forward
/// (`backward` `None`), its predecessors searching backward (bidirectional searches).
///
/// # Errors
/// The problem's [`Interrupt`] when its successors were cut short.
fn neighbours_toward<P: Problem + ?Sized>(
    problem: &P,
    backward: Option<&dyn Backward<P::State, P::Move>>,
    state: &P::State,
    out: &mut Vec<Successor<P::State, P::Move>>,
) -> Result<(), Interrupt> {
    out.clear();
    match backward {
        Some(backward) => {
            backward.predecessors(state, out);
            Ok(())
        }
        None => problem.successors(state, out),
    }
}

fn duration_ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
