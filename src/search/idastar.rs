//! IDA*, iterative-deepening A* (Korf, 1985): depth-first searches bounded by `g + h`, the
//! bound raised each iteration to the least `g + h` that exceeded it. With an admissible
//! heuristic the first goal found is reached by a least-cost path. Memory is the current path
//! only (no closed set), so it suits puzzles whose state spaces do not fit in memory, such as
//! the 15-puzzle. The depth-first search uses an explicit stack (no recursion limit) and
//! skips the move straight back to the previous state.
//!
//! A problem with a dense state numbering ([`super::ProblemCapabilities::dense`], a grid) is small enough
//! for a transposition table: within an iteration a state reached again at no smaller `g` is
//! not searched again (its first visit searched everything the second could reach within the
//! bound). That keeps each iteration linear in the number of states instead of exponential,
//! and makes a search with no solution end.

use std::time::Instant;

use super::claimed::{Audit, Pruned};
use super::layers::Iteration;
use super::limits::Budget;
use super::{Cost, DenseIndex, Observer, Outcome, Problem, SearchResult, Stats, Successor};

const STACK: &str = "the depth-first stack";

/// Slack for comparing floating-point costs with the bound.
const EPSILON: Cost = 1e-9;

struct Frame<S, M> {
    /// Successors of the frame's state, tried in order.
    successors: Vec<Successor<S, M>>,
    next: usize,
    g: Cost,
    /// The frame's state's heuristic (for the audit of a claimed heuristic).
    h: Cost,
}

/// How one bounded depth-first search ended.
enum Bounded<S, M> {
    Found(Vec<S>, Vec<M>, Cost),
    /// Cancelled, or stopped at a limit.
    Stopped(Outcome),
    /// No goal within the bound; the least `g + h` seen above it (infinite if none).
    Exhausted(Cost),
}

pub(super) fn search<P: Problem + ?Sized>(
    problem: &P,
    starts: Vec<P::State>,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let mut stats = Stats::default();
    let finish = |outcome, states, moves, cost, stats| SearchResult {
        outcome,
        states,
        moves,
        cost,
        optimal: false,
        algorithm: super::Algorithm::IdaStar,
        stats,
        message: None,
        error: None,
        tables: Default::default(),
    };
    let mut threshold = Cost::INFINITY;
    for s in &starts {
        match problem.heuristic(s) {
            Ok(h) => threshold = threshold.min(h),
            Err(interrupt) => {
                let outcome = budget.interrupted(interrupt);
                return finish(outcome, Vec::new(), Vec::new(), 0.0, stats);
            }
        }
    }
    // A heuristic only claimed admissible is checked as A* checks it: each move's drop in
    // `h`, `h` at the goal, and one step past the states the last iteration cut off.
    let mut audit = Audit::new(problem, true);
    let mut pruned = Pruned::default();
    let mut table: Option<Vec<Cost>> = None;
    let dense = problem.capabilities().dense;
    if let Some(n) = dense.map(|d| d.dense_size()) {
        let bytes = (n as u64).saturating_mul(std::mem::size_of::<Cost>() as u64);
        if let Err(outcome) = budget.charge(bytes, "the transposition table") {
            return finish(outcome, Vec::new(), Vec::new(), 0.0, stats);
        }
        table = Some(vec![Cost::INFINITY; n]);
    }
    // Korf's table: each iteration's bound, expansions, generations and time.
    let mut iterations: Vec<Iteration> = Vec::new();
    let close = |iterations: &mut Vec<Iteration>, stats: &Stats, started: Instant| {
        let (expanded, generated) = iterations
            .iter()
            .fold((0, 0), |(e, g), i| (e + i.expanded, g + i.generated));
        iterations.push(Iteration {
            bound: stats.threshold,
            expanded: stats.expanded - expanded,
            generated: stats.generated - generated,
            ms: started.elapsed().as_secs_f64() * 1000.0,
            predicted: None,
            kre: None,
        });
    };
    loop {
        stats.iterations += 1;
        stats.threshold = threshold;
        let started = Instant::now();
        observer.iteration(stats.iterations, threshold);
        if let Some(t) = &mut table {
            t.fill(Cost::INFINITY);
        }
        let mut next = Cost::INFINITY;
        let mut ended = None;
        pruned.clear();
        for start in &starts {
            let mut search = Search {
                audit: &mut audit,
                pruned: &mut pruned,
                table: &mut table,
                dense,
            };
            match bounded(
                problem,
                start,
                threshold,
                observer,
                budget,
                &mut stats,
                &mut search,
            ) {
                Bounded::Found(states, moves, cost) => {
                    audit.goal_of_iteration(problem, cost, &pruned, budget, &|s| {
                        problem.heuristic(s)
                    });
                    ended = Some(if budget.interruption.is_some() {
                        // The problem failed in the audit's look past the goal.
                        (Outcome::ScriptError, Vec::new(), Vec::new(), 0.0)
                    } else {
                        (Outcome::Found, states, moves, cost)
                    });
                    break;
                }
                Bounded::Stopped(outcome) => {
                    ended = Some((outcome, Vec::new(), Vec::new(), 0.0));
                    break;
                }
                Bounded::Exhausted(above) => next = next.min(above),
            }
        }
        close(&mut iterations, &stats, started);
        if ended.is_none() && !next.is_finite() {
            ended = Some((Outcome::NotFound, Vec::new(), Vec::new(), 0.0));
        }
        if let Some((outcome, states, moves, cost)) = ended {
            let mut result = finish(outcome, states, moves, cost, stats);
            result.tables.iterations = iterations;
            return result;
        }
        threshold = next;
    }
}

/// What one iteration's depth-first searches share: the audit of a claimed heuristic, the
/// states cut off at the bound (kept for the audit), and the transposition table (least `g`
/// per dense state index this iteration), if the problem has one.
struct Search<'a, S> {
    audit: &'a mut Audit,
    pruned: &'a mut Pruned<S>,
    table: &'a mut Option<Vec<Cost>>,
    /// The numbering the table is indexed by (`Some` when the table is).
    dense: Option<&'a dyn DenseIndex<S>>,
}

impl<S: Clone> Search<'_, S> {
    /// The audit's look at a state new on the path, of heuristic `h` reached at `g`: the move
    /// from its parent (`g` and `h` there, if any), and the state kept if the bound `cut` it.
    fn look<P: Problem<State = S> + ?Sized>(
        &mut self,
        problem: &P,
        parent: Option<(Cost, Cost)>,
        state: &S,
        g: Cost,
        h: Cost,
        cut: bool,
    ) {
        if let Some((g_parent, h_parent)) = parent {
            self.audit.edge(problem, h_parent, g - g_parent, h);
        }
        if cut {
            self.pruned.cut(g + h, g, || state.clone());
        }
    }
}

impl<S> Search<'_, S> {
    /// Whether `state`, reached at `g`, is to be searched this iteration: always without a
    /// transposition table; with one, when it was not reached before at a cost of `g` or
    /// less (within `slack`), and then `g` is its cost now.
    fn improves(&mut self, state: &S, g: Cost, slack: Cost) -> bool {
        let (Some(t), Some(dense)) = (self.table.as_mut(), self.dense) else {
            return true;
        };
        let i = dense.dense_index(state);
        if g >= t[i] - slack {
            return false;
        }
        t[i] = g;
        true
    }
}

/// The bytes of one frame of the depth-first path: the frame, its state on the path, its
/// move and its slot among the spare lists.
fn frame_bytes<S, M>() -> usize {
    std::mem::size_of::<Frame<S, M>>()
        + std::mem::size_of::<S>()
        + std::mem::size_of::<M>()
        + std::mem::size_of::<Vec<Successor<S, M>>>()
}

/// Tells `observer` of the expansion of `path`'s last state, at `depth`, with its `g` and
/// `h` (and its parent on the path, when the observer wants scores).
fn tell_expansion<S>(
    observer: &mut dyn Observer<S>,
    path: &[S],
    depth: u64,
    g: Cost,
    h: Cost,
    stats: &Stats,
) {
    let state = &path[path.len() - 1];
    observer.path_push(state);
    observer.expanded(state, depth, stats);
    if observer.wants_scores() {
        let parent = path.len().checked_sub(2).and_then(|i| path.get(i));
        observer.scored(state, g, Some(h), parent);
    }
}

/// One depth-first search from `start` bounded by `threshold` on `g + h`.
fn bounded<P: Problem + ?Sized>(
    problem: &P,
    start: &P::State,
    threshold: Cost,
    observer: &mut dyn Observer<P::State>,
    budget: &mut Budget,
    stats: &mut Stats,
    search: &mut Search<'_, P::State>,
) -> Bounded<P::State, P::Move> {
    if !search.improves(start, 0.0, 0.0) {
        return Bounded::Exhausted(Cost::INFINITY);
    }
    let mut path: Vec<P::State> = vec![start.clone()];
    let mut moves: Vec<P::Move> = Vec::new();
    let mut stack: Vec<Frame<P::State, P::Move>> = Vec::new();
    let mut above = Cost::INFINITY;
    // Successor lists of popped frames, reused so that an expansion allocates nothing.
    let mut spare: Vec<Vec<Successor<P::State, P::Move>>> = Vec::new();
    // Successors generated and not yet tried: the depth-first frontier.
    let mut pending: u64 = 0;
    let mut g = 0.0;
    let silent = observer.is_silent();
    // Bytes of successor lists charged to the budget this call, given back when it returns.
    let mut held: u64 = 0;
    let frame_bytes = frame_bytes::<P::State, P::Move>();
    loop {
        // `path`'s last state is new on the path: test it, then expand it.
        let state = &path[path.len() - 1];
        // A call cut short ends the run (what this call holds is not given back).
        let h = match problem.heuristic(state) {
            Ok(h) => h,
            Err(interrupt) => return Bounded::Stopped(budget.interrupted(interrupt)),
        };
        let f = g + h;
        let depth = moves.len() as u64;
        let cut = f > threshold + EPSILON;
        if search.audit.watching() {
            let parent = stack.last().map(|p| (p.g, p.h));
            search.look(problem, parent, state, g, h, cut);
        }
        // The goal test of a state within the bound.
        let is_goal = match if cut {
            Ok(false)
        } else {
            problem.is_goal(state)
        } {
            Ok(is_goal) => is_goal,
            Err(interrupt) => return Bounded::Stopped(budget.interrupted(interrupt)),
        };
        if cut {
            above = above.min(f);
            path.pop();
            moves.pop();
        } else if is_goal {
            search.audit.at_goal(problem, h);
            budget.release(held);
            return Bounded::Found(path, moves, g);
        } else {
            // The observer's pace (a pause) before the stop is looked at: a stop seen while
            // it waits ends the run with the expansions told, none more.
            if let Err(outcome) = budget.paced(observer, silent, stats) {
                return Bounded::Stopped(outcome);
            }
            stats.expanded += 1;
            stats.max_depth = stats.max_depth.max(depth);
            stats.max_closed = stats.max_closed.max(path.len() as u64);
            if !silent {
                tell_expansion(observer, &path, depth, g, f - g, stats);
            }
            let mut successors = spare.pop().unwrap_or_default();
            successors.clear();
            let capacity = successors.capacity();
            if let Err(interrupt) = problem.successors(state, &mut successors) {
                return Bounded::Stopped(budget.interrupted(interrupt));
            }
            // Successor lists are kept (on the stack or spare) for the whole iteration.
            let grown = (successors.capacity() - capacity)
                * std::mem::size_of::<Successor<P::State, P::Move>>();
            if let Err(outcome) = budget.charge((grown + frame_bytes) as u64, STACK) {
                budget.release(held);
                return Bounded::Stopped(outcome);
            }
            held += (grown + frame_bytes) as u64;
            // Never straight back to the previous state.
            if path.len() >= 2 {
                let previous = &path[path.len() - 2];
                successors.retain(|s| s.state != *previous);
            }
            stats.generated += successors.len() as u64;
            pending += successors.len() as u64;
            stats.frontier = pending;
            stats.max_frontier = stats.max_frontier.max(pending);
            stack.push(Frame {
                successors,
                next: 0,
                g,
                h,
            });
        }
        // Take the next untried successor, backing up over exhausted frames.
        loop {
            let Some(frame) = stack.last_mut() else {
                budget.release(held);
                return Bounded::Exhausted(above);
            };
            if frame.next < frame.successors.len() {
                let successor = frame.successors[frame.next].clone();
                frame.next += 1;
                pending -= 1;
                let g_new = frame.g + successor.cost;
                if !search.improves(&successor.state, g_new, EPSILON) {
                    continue; // reached before this iteration at no greater cost
                }
                g = g_new;
                if !silent {
                    observer.generated(&successor.state);
                    if observer.wants_scores() {
                        match problem.heuristic(&successor.state) {
                            Ok(h) => observer.scored_generated(g_new, Some(h)),
                            Err(i) => return Bounded::Stopped(budget.interrupted(i)),
                        }
                    }
                }
                path.push(successor.state);
                moves.push(successor.mv);
                break;
            }
            // The frame's state is the path's last: both leave.
            if let Some(done) = stack.pop() {
                spare.push(done.successors);
                budget.release(frame_bytes as u64);
                held -= frame_bytes as u64;
            }
            if !silent {
                observer.path_pop();
            }
            path.pop();
            moves.pop();
        }
    }
}
