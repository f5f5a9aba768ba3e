//! The [`Problem`] trait, the core every puzzle implements (start states, goal test,
//! successors, heuristic, what it says of its heuristic and costs), and the optional engine
//! capabilities only some problems have ([`ProblemCapabilities`]): a dense numbering of the
//! states, a unit-cost grid, a backward search, Jump Point Search and JPS+, a heuristic whose
//! admissibility is only claimed. An algorithm that needs a capability asks for it
//! ([`Problem::capabilities`]) and is refused ([`super::Algorithm::refusal`]) where it is
//! missing; a fast path that reads one falls back to the plain search without it.

use std::fmt;
use std::hash::Hash;

use super::{Cost, Outcome};

/// One successor of a state: the move that leads there, the state it leads to and its cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Successor<S, M> {
    /// The state reached by the move.
    pub state: S,
    /// The move, as the puzzle names it (for example a compass direction).
    pub mv: M,
    /// The step cost of the move, at least 0.
    pub cost: Cost,
}

/// A state space to search: start states, a goal test, successors and an optional heuristic,
/// what the problem says of them ([`ProblemFacts`]) and the optional capabilities some
/// engines use ([`ProblemCapabilities`]).
///
/// States must be cheap to clone and hash: the engine keeps one copy per reached state in its
/// closed set. Implementors document their own state encoding.
pub trait Problem {
    /// One state of the puzzle.
    type State: Clone + Eq + Hash;
    /// A move label, shown to the user (for example `"sw"` or `"down"`).
    type Move: Clone + fmt::Display;

    /// The start states. Most puzzles have one; several start states make a multi-source
    /// search (the path found starts at whichever is closest).
    fn start_states(&self) -> Vec<Self::State>;

    /// Whether `state` is a goal state.
    ///
    /// # Errors
    /// An [`Interrupt`] when the test was cut short, as for [`Problem::successors`].
    fn is_goal(&self, state: &Self::State) -> Result<bool, Interrupt>;

    /// Pushes the successors of `state` onto `out` (which the caller has cleared).
    ///
    /// # Errors
    /// An [`Interrupt`] when the expansion was cut short: the problem's own code failed
    /// ([`Interrupt::Failed`]), or it saw the run's stop or one of its limits
    /// ([`Interrupt::Stopped`]). The run ends there, with that outcome and the expansions
    /// counted so far, whatever `out` holds; a problem whose expansion cannot fail returns
    /// `Ok(())`.
    fn successors(
        &self,
        state: &Self::State,
        out: &mut Vec<Successor<Self::State, Self::Move>>,
    ) -> Result<(), Interrupt>;

    /// An estimate of the cost from `state` to the nearest goal. It must never overestimate
    /// (be admissible) when [`ProblemFacts::has_heuristic`] and [`ProblemFacts::admissible`]
    /// say so. The default is 0.
    ///
    /// # Errors
    /// An [`Interrupt`] when the estimate was cut short, as for [`Problem::successors`].
    fn heuristic(&self, _state: &Self::State) -> Result<Cost, Interrupt> {
        Ok(0.0)
    }

    /// What the problem says of its heuristic and its costs, which decide the algorithms
    /// that apply and whether a solution found is said optimal. The default
    /// ([`ProblemFacts::default`]): no heuristic, unit costs, no IDA*, small enough for an
    /// exhaustive search.
    fn facts(&self) -> ProblemFacts {
        ProblemFacts::default()
    }

    /// The heap bytes `state` owns beyond its own size (`size_of::<State>()`), which the
    /// memory budget counts for every copy of it a search keeps: 0 (the default) for states
    /// held inline; a type whose states own heap data says its length (a script's state, its
    /// encoded bytes).
    fn state_heap_bytes(&self, _state: &Self::State) -> usize {
        0
    }

    /// The optional capabilities the problem has (a dense numbering, a unit grid, a backward
    /// search, jump points, a claimed heuristic). The default has none: every algorithm that
    /// needs none of them runs, on the plain searches.
    fn capabilities(&self) -> ProblemCapabilities<'_, Self::State, Self::Move> {
        ProblemCapabilities::default()
    }
}

/// Why a problem cut a call short ([`Problem::successors`], [`Problem::is_goal`],
/// [`Problem::heuristic`]): every engine ends the run there, with the expansions made so
/// far, a stop as a stop and an error as an error with its message
/// ([`super::SearchResult::message`], [`super::SearchResult::error`]), never as "no
/// solution"; the counts and the state graph end there too.
#[derive(Clone, Debug, PartialEq)]
pub enum Interrupt {
    /// The problem saw the run's stop or one of its limits (a long call of its own code
    /// ended by it): the run ends with `outcome` ([`Outcome::Cancelled`],
    /// [`Outcome::Timeout`] or [`Outcome::MemoryLimit`]; any other is taken for
    /// [`Outcome::Cancelled`]), its message `why` where the problem says one (which limit
    /// ended which call), else the engine's own.
    Stopped {
        /// How the run ends.
        outcome: Outcome,
        /// What the run's message says, in place of the engine's words.
        why: Option<String>,
    },
    /// The problem's own code (a puzzle script) failed: the run ends with
    /// [`Outcome::ScriptError`] and this error.
    Failed(ProblemError),
}

impl Interrupt {
    /// A stop of the run with `outcome`, in the engine's words.
    pub fn stopped(outcome: Outcome) -> Self {
        Interrupt::Stopped { outcome, why: None }
    }

    /// The outcome the run ends with.
    pub fn outcome(&self) -> Outcome {
        match self {
            Interrupt::Stopped { outcome, .. } => match outcome {
                Outcome::Cancelled | Outcome::Timeout | Outcome::MemoryLimit => *outcome,
                _ => Outcome::Cancelled,
            },
            Interrupt::Failed(_) => Outcome::ScriptError,
        }
    }
}

/// An error of a problem's own code ([`Interrupt::Failed`]), with where its text says it
/// happened (1-based line and column, when known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemError {
    /// The line.
    pub line: Option<usize>,
    /// The column.
    pub column: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// What a problem says of its heuristic and its costs ([`Problem::facts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemFacts {
    /// Whether [`Problem::heuristic`] is informative, so that A* and greedy best-first
    /// apply. Default false.
    pub has_heuristic: bool,
    /// Whether [`Problem::heuristic`] never overestimates (is admissible), so that A* and
    /// its relatives find least-cost solutions. Default true; a grid whose user picked the
    /// Manhattan distance for diagonal moves says false. When this is only the author's
    /// claim, the problem has [`ProblemCapabilities::claimed`] too.
    pub admissible: bool,
    /// Whether every move costs exactly 1, so that breadth-first search is optimal. Default
    /// true.
    pub unit_costs: bool,
    /// Whether IDA* suits this problem: its state space has few transpositions (paths to the
    /// same state other than straight back), so that a search without a closed set does not
    /// revisit states exponentially often. Grids and jump boards do not; the sliding tile
    /// puzzle does. Default false, and IDA* is then not offered.
    pub suits_iterative_deepening: bool,
    /// Why the searches that keep every state without a heuristic (see
    /// [`super::Algorithm::is_exhaustive`]) do not apply, for a state space too large for
    /// memory (for example "the state space is too large for an exhaustive search: N
    /// states"); `None`, the default, when they apply.
    pub too_large_for_exhaustive_search: Option<String>,
}

impl Default for ProblemFacts {
    fn default() -> Self {
        Self {
            has_heuristic: false,
            admissible: true,
            unit_costs: true,
            suits_iterative_deepening: false,
            too_large_for_exhaustive_search: None,
        }
    }
}

impl ProblemFacts {
    /// The facts of a problem with an admissible heuristic and unit costs (the others as
    /// [`ProblemFacts::default`]).
    pub fn with_heuristic() -> Self {
        Self {
            has_heuristic: true,
            ..Self::default()
        }
    }

    /// Whether the heuristic is informative and admissible: A* and its relatives are then
    /// optimal.
    pub fn admissible_heuristic(&self) -> bool {
        self.has_heuristic && self.admissible
    }
}

/// The optional capabilities of a problem ([`Problem::capabilities`]), each `None` when the
/// problem lacks it. Each names what it promises; an engine that reads one trusts it.
pub struct ProblemCapabilities<'a, S, M> {
    /// Every state has a distinct number below a known size: the search finds states by
    /// indexing a table instead of hashing (grids number their squares).
    pub dense: Option<&'a dyn DenseIndex<S>>,
    /// The problem is a grid of unit-cost squares with one goal and the Manhattan distance as
    /// its heuristic, its states numbered by [`ProblemCapabilities::dense`] as row-major
    /// squares (read only together with it): BFS, and A* when unwatched, then run on flat
    /// tables (`search/grid.rs`). The state of the square at row `r`, column `c` must be
    /// shown at that row and column of the puzzle's picture: a [`super::GridBlock`] tells
    /// squares by row and column alone.
    pub unit_grid: Option<UnitGrid<'a>>,
    /// The search can also run backwards from every goal: bidirectional searches need it.
    pub backward: Option<&'a dyn Backward<S, M>>,
    /// Jump Point Search applies (a uniform-cost, 8-connected grid), and JPS+ where
    /// [`JumpPoints::supports_jump_distances`] says so.
    pub jump_points: Option<&'a dyn JumpPoints<S, M>>,
    /// The heuristic's admissibility ([`ProblemFacts::admissible`]) is only its author's
    /// claim: A* checks what it sees of the heuristic and tells what contradicts it (see
    /// `search/claimed.rs`).
    pub claimed: Option<&'a dyn ClaimedHeuristic>,
}

impl<S, M> Default for ProblemCapabilities<'_, S, M> {
    fn default() -> Self {
        Self {
            dense: None,
            unit_grid: None,
            backward: None,
            jump_points: None,
            claimed: None,
        }
    }
}

/// A numbering of every state below [`DenseIndex::dense_size`]
/// ([`ProblemCapabilities::dense`]).
pub trait DenseIndex<S> {
    /// How many numbers there are: every state's number is below it.
    fn dense_size(&self) -> usize;
    /// The number of `state`, below [`DenseIndex::dense_size`], distinct for distinct states.
    fn dense_index(&self, state: &S) -> usize;
    /// The state numbered `index` (the inverse of [`DenseIndex::dense_index`]), `None` for a
    /// number no state has.
    fn dense_state(&self, index: usize) -> Option<S>;
}

/// A search backward from the goals ([`ProblemCapabilities::backward`]).
pub trait Backward<S, M> {
    /// Every goal state.
    fn goal_states(&self) -> Vec<S>;
    /// Pushes onto `out` every state from which a move leads to `state`: each entry's `state`
    /// is that predecessor, `mv` the move from it to `state` and `cost` that move's cost.
    fn predecessors(&self, state: &S, out: &mut Vec<Successor<S, M>>);
    /// An admissible estimate of the cost from the nearest start state to `state`, the
    /// heuristic of a backward search (bidirectional A*). The default is 0.
    fn heuristic_from_start(&self, _state: &S) -> Cost {
        0.0
    }
}

/// Jump Point Search on a uniform-cost, 8-connected grid ([`ProblemCapabilities::jump_points`]),
/// and JPS+ where its jump distances can be computed.
pub trait JumpPoints<S, M> {
    /// Jump Point Search's successor function, built once per run (the grid's bit rows and
    /// goals made for the scans, `search::octile`'s scanner): it pushes the successors of a
    /// state reached from a parent (`None` at a start), the jump points found by scanning in
    /// the directions the pruning rules keep, each with the cost of the straight or diagonal
    /// line to it.
    fn jump_scan(&self) -> JumpFn<'_, S, M>;
    /// Whether JPS+ applies ([`JumpPoints::jump_distances`] is implemented). The default is
    /// false.
    fn supports_jump_distances(&self) -> bool {
        false
    }
    /// The bytes [`JumpPoints::jump_distances`] will take, charged to the run's memory budget
    /// before they are computed. The default is 0.
    fn jump_distances_bytes(&self) -> u64 {
        0
    }
    /// JPS+'s successor function, built once per run: Jump Point Search's successors (as
    /// [`JumpPoints::jump_scan`] describes them, or a superset of jump points that keeps
    /// the least costs) read from jump distances computed here for the whole grid, with the
    /// time that took in milliseconds. Called only when
    /// [`JumpPoints::supports_jump_distances`] is true; `None` (the default) makes JPS+ scan as
    /// JPS does.
    fn jump_distances(&self) -> Option<JumpPlus<'_, S, M>> {
        None
    }
}

/// A heuristic whose admissibility is only claimed ([`ProblemCapabilities::claimed`]).
pub trait ClaimedHeuristic {
    /// What A* saw against the claim, in words: the problem then says its heuristic is not
    /// admissible ([`ProblemFacts::admissible`] false; the run is not said optimal).
    fn heuristic_contradicted(&self, why: String);
}

/// A successor function of JPS or JPS+ ([`JumpPoints::jump_scan`],
/// [`JumpPoints::jump_distances`]): pushes the successors of a state reached from a parent
/// (`None` at a start) onto the vector.
pub type JumpFn<'a, S, M> = Box<dyn Fn(&S, Option<&S>, &mut Vec<Successor<S, M>>) + 'a>;

/// What a problem's JPS+ precomputation gives ([`JumpPoints::jump_distances`]).
pub struct JumpPlus<'a, S, M> {
    /// The successor function reading the jump distances.
    pub successors: JumpFn<'a, S, M>,
    /// How long the jump distances took to compute, milliseconds.
    pub precompute_ms: f64,
}

/// A grid of unit-cost squares (see [`ProblemCapabilities::unit_grid`]).
#[derive(Clone, Copy, Debug)]
pub struct UnitGrid<'a> {
    /// Rows of squares.
    pub rows: usize,
    /// Columns of squares.
    pub cols: usize,
    /// Row-major, `rows * cols` entries: 0 for a blocked square, anything else free; every
    /// move costs 1.
    pub cost: &'a [u8],
    /// The moves, as (row, column) steps, in the order [`Problem::successors`] gives them.
    pub deltas: [(isize, isize); 4],
    /// The goal square (row-major index).
    pub goal: usize,
}
