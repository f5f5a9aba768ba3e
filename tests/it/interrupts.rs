//! A problem that cuts a call short (issue 57, item 4): an error of its own code, or a stop
//! it saw, returned from `successors`, `is_goal` or `heuristic` as an `Interrupt`, ends every
//! algorithm's run there: an error as `script_error` with its message and line, a stop as a
//! stop, never as "not found", with the expansions made so far and no call after it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use puzzlelab::search::space::StateGraph;
use puzzlelab::search::{
    self, Algorithm, Backward, CancelToken, Cost, Interrupt, Limits, NoObserver, Outcome, Problem,
    ProblemCapabilities, ProblemError, ProblemFacts, Successor,
};

/// The last state, the goal.
const LEN: u32 = 40;
/// The call that is cut short (the first is 1).
const AT: u64 = 4;

/// Which of the problem's calls is cut short.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Call {
    Successors,
    IsGoal,
    Heuristic,
}

/// The states 0 to [`LEN`], each leading to the next two (cost 1), the goal the last; the
/// call `call` numbered [`AT`] returns `interrupt`, and every call is counted.
struct Chain {
    call: Call,
    interrupt: Interrupt,
    successors: AtomicU64,
    predecessors: AtomicU64,
    goal_tests: AtomicU64,
    heuristics: AtomicU64,
}

impl Chain {
    fn new(call: Call, interrupt: Interrupt) -> Self {
        Self {
            call,
            interrupt,
            successors: AtomicU64::new(0),
            predecessors: AtomicU64::new(0),
            goal_tests: AtomicU64::new(0),
            heuristics: AtomicU64::new(0),
        }
    }

    /// Counts a call of `call`; `Err` for the one cut short.
    fn count(&self, call: Call, counter: &AtomicU64) -> Result<(), Interrupt> {
        let n = counter.fetch_add(1, Ordering::Relaxed) + 1;
        if call == self.call && n == AT {
            return Err(self.interrupt.clone());
        }
        Ok(())
    }

    /// The expansions made: forward (`successors`) and backward (`predecessors`).
    fn expansions(&self) -> u64 {
        self.successors.load(Ordering::Relaxed) + self.predecessors.load(Ordering::Relaxed)
    }

    /// The calls made of the kind cut short.
    fn calls_of_the_kind(&self) -> u64 {
        match self.call {
            Call::Successors => &self.successors,
            Call::IsGoal => &self.goal_tests,
            Call::Heuristic => &self.heuristics,
        }
        .load(Ordering::Relaxed)
    }
}

fn steps(from: u32, by: &[i64]) -> impl Iterator<Item = u32> {
    by.iter()
        .filter_map(move |d| u32::try_from(i64::from(from) + d).ok())
        .filter(|&n| n <= LEN)
}

impl Problem for Chain {
    type State = u32;
    type Move = i64;

    fn start_states(&self) -> Vec<u32> {
        vec![0]
    }

    fn is_goal(&self, n: &u32) -> Result<bool, Interrupt> {
        self.count(Call::IsGoal, &self.goal_tests)?;
        Ok(*n == LEN)
    }

    fn successors(&self, n: &u32, out: &mut Vec<Successor<u32, i64>>) -> Result<(), Interrupt> {
        self.count(Call::Successors, &self.successors)?;
        for state in steps(*n, &[1, 2]) {
            let mv = i64::from(state) - i64::from(*n);
            out.push(Successor {
                state,
                mv,
                cost: 1.0,
            });
        }
        Ok(())
    }

    /// The moves left at two squares a move: admissible and consistent.
    fn heuristic(&self, n: &u32) -> Result<Cost, Interrupt> {
        self.count(Call::Heuristic, &self.heuristics)?;
        Ok(Cost::from((LEN - n).div_ceil(2)))
    }

    fn facts(&self) -> ProblemFacts {
        ProblemFacts {
            suits_iterative_deepening: true,
            ..ProblemFacts::with_heuristic()
        }
    }

    fn capabilities(&self) -> ProblemCapabilities<'_, u32, i64> {
        ProblemCapabilities {
            backward: Some(self),
            ..ProblemCapabilities::default()
        }
    }
}

impl Backward<u32, i64> for Chain {
    fn goal_states(&self) -> Vec<u32> {
        vec![LEN]
    }

    fn predecessors(&self, n: &u32, out: &mut Vec<Successor<u32, i64>>) {
        self.predecessors.fetch_add(1, Ordering::Relaxed);
        for state in steps(*n, &[-1, -2]) {
            out.push(Successor {
                state,
                mv: i64::from(*n) - i64::from(state),
                cost: 1.0,
            });
        }
    }

    /// As the heuristic forward: both sides of bidirectional A* then expand by turns.
    fn heuristic_from_start(&self, n: &u32) -> Cost {
        Cost::from(n.div_ceil(2))
    }
}

/// The algorithms that call `call` of the problem (Jump Point Search and JPS+ need a grid's
/// jump points, which only the maze has).
fn algorithms(call: Call) -> Vec<Algorithm> {
    Algorithm::ALL
        .into_iter()
        .filter(|a| !matches!(a, Algorithm::Jps | Algorithm::JpsPlus))
        .filter(|a| match call {
            Call::Successors => true,
            // The bidirectional searches stop where their trees meet.
            Call::IsGoal => !matches!(
                a,
                Algorithm::BidirectionalBfs | Algorithm::BidirectionalAStar
            ),
            Call::Heuristic => a.needs_heuristic(),
        })
        .collect()
}

fn failure() -> Interrupt {
    Interrupt::Failed(ProblemError {
        line: Some(7),
        column: Some(3),
        message: "in moves: the state broke".into(),
    })
}

/// Runs `algorithm` on a chain cut short at `call`'s [`AT`]th call by `interrupt`.
fn run(
    algorithm: Algorithm,
    call: Call,
    interrupt: Interrupt,
    cancel: &CancelToken,
) -> (Chain, search::SearchResult<u32, i64>) {
    let chain = Chain::new(call, interrupt);
    let result = search::run(&chain, algorithm, &mut NoObserver, cancel)
        .unwrap_or_else(|e| panic!("{algorithm}: {e}"));
    (chain, result)
}

/// Asserts the run ended at the call cut short: none of its kind after it, and the
/// expansions made are the run's (the expansion cut short counted).
fn assert_ended_there(what: &str, chain: &Chain, result: &search::SearchResult<u32, i64>) {
    assert_eq!(
        chain.calls_of_the_kind(),
        AT,
        "{what}: no call after the one cut short"
    );
    assert_eq!(
        result.stats.expanded,
        chain.expansions(),
        "{what}: its expansions"
    );
    assert!(
        result.states.is_empty() && result.moves.is_empty(),
        "{what}: no path"
    );
    assert!(!result.optimal && result.cost == 0.0, "{what}");
}

#[test]
fn a_successor_error_ends_every_algorithms_run_with_that_error_and_its_expansions() {
    for algorithm in algorithms(Call::Successors) {
        let (chain, result) = run(algorithm, Call::Successors, failure(), &CancelToken::new());
        let what = format!("{algorithm}");
        assert_eq!(result.outcome, Outcome::ScriptError, "{what}: {result:?}");
        assert_ended_there(&what, &chain, &result);
        assert_eq!(
            result.message.as_deref(),
            Some("stopped at a script error: line 7, column 3: in moves: the state broke"),
            "{what}"
        );
        let Interrupt::Failed(e) = failure() else {
            unreachable!()
        };
        assert_eq!(result.error, Some(e), "{what}");
    }
}

#[test]
fn a_stop_seen_in_successors_ends_every_algorithms_run_as_stopped() {
    for algorithm in algorithms(Call::Successors) {
        let (chain, result) = run(
            algorithm,
            Call::Successors,
            Interrupt::stopped(Outcome::Cancelled),
            &CancelToken::new(),
        );
        let what = format!("{algorithm}");
        assert_eq!(result.outcome, Outcome::Cancelled, "{what}: {result:?}");
        assert_ended_there(&what, &chain, &result);
        assert_eq!(result.message, None, "{what}");
        assert_eq!(result.error, None, "{what}");
    }
}

/// A limit of the run that ended one of the problem's calls: the run ends at that limit,
/// and its message says the limit and what the problem says it ended.
#[test]
fn a_limit_seen_in_successors_ends_the_run_at_it_in_the_problems_words() {
    let limits = Limits {
        timeout: Some(Duration::from_secs(60)),
        max_memory: 64 << 20,
        ..Limits::default()
    };
    for algorithm in algorithms(Call::Successors) {
        for (outcome, said) in [
            (
                Outcome::Timeout,
                "stopped at the time limit of 60.0 s: the call ran past it",
            ),
            (
                Outcome::MemoryLimit,
                "stopped at the memory limit of 64 MiB: the call ran past it",
            ),
        ] {
            let stop = Interrupt::Stopped {
                outcome,
                why: Some("the call ran past it".into()),
            };
            let cancel = CancelToken::with_limits(limits);
            let (chain, result) = run(algorithm, Call::Successors, stop, &cancel);
            let what = format!("{algorithm} {outcome:?}");
            assert_eq!(result.outcome, outcome, "{what}: {result:?}");
            assert_ended_there(&what, &chain, &result);
            assert_eq!(result.message.as_deref(), Some(said), "{what}");
        }
    }
}

/// The goal test and the heuristic cut short as the successors are.
#[test]
fn a_goal_test_or_heuristic_cut_short_ends_every_algorithms_run_there() {
    for call in [Call::IsGoal, Call::Heuristic] {
        for algorithm in algorithms(call) {
            let what = format!("{algorithm} {call:?}");
            let (chain, result) = run(algorithm, call, failure(), &CancelToken::new());
            assert_eq!(result.outcome, Outcome::ScriptError, "{what}: {result:?}");
            assert_ended_there(&what, &chain, &result);
            assert!(result.error.is_some(), "{what}");
            let stop = Interrupt::stopped(Outcome::Cancelled);
            let (chain, result) = run(algorithm, call, stop, &CancelToken::new());
            assert_eq!(result.outcome, Outcome::Cancelled, "{what}: {result:?}");
            assert_ended_there(&what, &chain, &result);
        }
    }
}

/// The whole-space count and the state graph end at the problem's error too, with it.
#[test]
fn the_count_and_the_state_graph_end_at_the_problems_error() {
    for call in [Call::Successors, Call::IsGoal] {
        let chain = Chain::new(call, failure());
        let count = search::count_reachable(&chain, &CancelToken::new());
        assert_eq!(
            count.stopped,
            Some(Outcome::ScriptError),
            "{call:?}: {count:?}"
        );
        let message = count.message.unwrap_or_default();
        assert!(message.contains("line 7, column 3: in moves"), "{message}");
        assert_eq!(chain.calls_of_the_kind(), AT, "{call:?}");
        let chain = Chain::new(call, failure());
        let explored = StateGraph::explore(&chain, &CancelToken::new(), &mut |_| {});
        let Err(e) = explored else {
            panic!("{call:?}: the exploration went on past the error");
        };
        assert_eq!(e.outcome, Outcome::ScriptError, "{call:?}");
        assert!(e.message.contains("the state broke"), "{e:?}");
        assert_eq!(e.error.map(|e| e.line), Some(Some(7)), "{call:?}");
    }
}
