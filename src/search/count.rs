//! The whole-space count: every state reachable from a problem's start states, and the goals
//! among them, by a plain breadth-first walk under the run's limits (the count on several
//! threads is [`super::count_reachable_in_layers`]).

use serde::Serialize;

use super::limits::Budget;
use super::{CancelToken, Outcome, Problem, Stats, duration_ms, limit_message};

/// The size of a reachable state space.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StateCount {
    /// States reachable from the start states (the start states included); only those found
    /// so far when the count stopped early.
    pub states: u64,
    /// How many of them are goal states.
    pub goals: u64,
    /// Wall-clock time of the count in milliseconds.
    pub elapsed_ms: f64,
    /// Why the count stopped before the whole space was counted (cancelled, a limit, or the
    /// problem's error: [`Outcome::ScriptError`]); `None` when it is complete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Outcome>,
    /// For a count stopped at a limit, what filled the memory or the time; for one ended by
    /// the problem's error, the error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Counts every state reachable from `problem`'s start states by breadth-first search, and
/// the goal states among them (goals are expanded too), under the [`Limits`] of `cancel`.
/// Stops early, with the counts so far and [`StateCount::stopped`] set, when `cancel` is
/// cancelled, a limit is reached or the problem cuts a call short (a [`super::Interrupt`]).
pub fn count_reachable<P: Problem + ?Sized>(problem: &P, cancel: &CancelToken) -> StateCount {
    let started = std::time::Instant::now();
    let mut budget = Budget::new(cancel);
    let mut seen = rustc_hash::FxHashSet::default();
    let mut queue = std::collections::VecDeque::new();
    let mut goals = 0;
    let mut expanded = 0;
    let stopped = (|| {
        for s in problem.start_states() {
            budget.reserve(&mut seen, 1, "the set of states reached")?;
            budget.reserve(&mut queue, 1, "the queue of states to expand")?;
            if seen.insert(s.clone()) {
                queue.push_back(s);
            }
        }
        let mut successors = Vec::new();
        while let Some(state) = queue.pop_front() {
            budget.check()?;
            expanded += 1;
            let goal = problem.is_goal(&state).map_err(|i| budget.interrupted(i))?;
            goals += u64::from(goal);
            successors.clear();
            if let Err(interrupt) = problem.successors(&state, &mut successors) {
                return Err(budget.interrupted(interrupt));
            }
            budget.reserve(&mut seen, successors.len(), "the set of states reached")?;
            budget.reserve(
                &mut queue,
                successors.len(),
                "the queue of states to expand",
            )?;
            for s in successors.drain(..) {
                // Two copies of each new state: in the set and on the queue.
                let bytes = 2 * problem.state_heap_bytes(&s.state) as u64;
                if seen.insert(s.state.clone()) {
                    queue.push_back(s.state);
                    budget.charge(bytes, "the states reached (their own bytes)")?;
                }
            }
        }
        Ok(())
    })()
    .err();
    let tally = Tally {
        states: seen.len() as u64,
        goals,
        expanded,
        frontier: queue.len() as u64,
    };
    StateCount::ended(&tally, started, stopped, &budget, cancel)
}

/// What a count found when it ended: the states reached and the goals among them, the
/// states expanded, and those reached but not expanded.
pub(super) struct Tally {
    pub states: u64,
    pub goals: u64,
    pub expanded: u64,
    pub frontier: u64,
}

impl StateCount {
    /// The count of `tally`, begun at `started`, ended by `stopped` (`None`: complete) under
    /// `budget`, the run's limits in `cancel` (for the message of a limit reached).
    pub(super) fn ended(
        tally: &Tally,
        started: std::time::Instant,
        stopped: Option<Outcome>,
        budget: &Budget,
        cancel: &CancelToken,
    ) -> StateCount {
        let stats = Stats {
            expanded: tally.expanded,
            max_closed: tally.states,
            frontier: tally.frontier,
            ..Stats::default()
        };
        StateCount {
            states: tally.states,
            goals: tally.goals,
            elapsed_ms: duration_ms(started.elapsed()),
            stopped,
            message: stopped.and_then(|o| limit_message(o, budget, &stats, cancel)),
        }
    }
}
