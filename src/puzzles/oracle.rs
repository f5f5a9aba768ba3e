//! The player's companion: the optimal number of moves from the position on the board, each
//! legal move rated as better, neutral or worse, and the whole state space as a graph.
//!
//! A type whose reachable space fits in memory implements [`Explorable`] and answers
//! [`Puzzle::oracle`] with [`explore`]: a [`StateGraph`] holding every state's distance to
//! the nearest goal, after which every question is a lookup ([`Space`]). A type whose space is
//! too large (the 15-puzzle) answers with an [`Oracle`] of its own that searches each
//! position.

use std::io;

use crate::search::heuristic_quality::{self, Quality};
use crate::search::space::{ExploreError, Profile, StateGraph};
use crate::search::{CancelToken, Outcome, Problem};

use super::{Motion, Place, Puzzle};

/// Why no oracle could be made for a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OracleError {
    /// The puzzle type has no oracle.
    #[error("this puzzle type has no optimal-move oracle")]
    Unsupported,
    /// The state space is too large to explore; the text says how large.
    #[error("{0}")]
    TooLarge(String),
    /// Exploring stopped: cancelled, or a memory or time limit.
    #[error(transparent)]
    Stopped(#[from] ExploreError),
    /// Preparing the oracle failed (for example building pattern databases).
    #[error("{0}")]
    Failed(String),
}

/// A distance in moves to the nearest goal, as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// Exactly this many moves (0: solved).
    Exact(u32),
    /// At least this many; a search is proving the rest.
    AtLeast(u32),
    /// No goal can be reached from here.
    DeadEnd,
}

impl Distance {
    /// The exact distance, if known.
    pub fn exact(self) -> Option<u32> {
        match self {
            Distance::Exact(d) => Some(d),
            _ => None,
        }
    }
}

/// How a move changes the distance to the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rating {
    /// It brings the goal one move closer (an optimal move on unit costs).
    Better,
    /// It leaves the distance as it was.
    Neutral,
    /// It takes the goal farther, or into a dead end.
    Worse,
}

/// One legal move from a position, rated.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedMove {
    /// The move as the solution lists name it.
    pub label: String,
    /// The distance to the goal after the move.
    pub after: Distance,
    /// Closer, as far or farther than before the move.
    pub rating: Rating,
    /// The move as a value, for drawing which piece (or marker) moves where.
    pub motion: Option<Motion>,
}

/// What the oracle says of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    /// The distance from the position to the nearest goal.
    pub distance: Distance,
    /// Every legal move from it, rated; optimal moves first, in the puzzle's order otherwise.
    pub moves: Vec<RatedMove>,
}

impl Assessment {
    /// An optimal next move (the first one that brings the goal closer), if any.
    pub fn hint(&self) -> Option<&RatedMove> {
        self.moves.iter().find(|m| m.rating == Rating::Better)
    }
}

/// Answers "how many moves from here?" for positions of one puzzle (the one it was made for,
/// played on; see [`Puzzle::oracle`]).
pub trait Oracle: Send + Sync {
    /// Whether [`Oracle::assess`] answers at once (a table lookup), so that a front end may
    /// call it on its UI thread; otherwise it searches and belongs on a worker thread.
    fn is_instant(&self) -> bool;

    /// A lower bound on the distance from the position of `puzzle`, found at once (the
    /// heuristic), shown while [`Oracle::assess`] works.
    fn lower_bound(&self, puzzle: &dyn Puzzle) -> Option<u32>;

    /// The distance from the position of `puzzle` and its moves, rated. `None` when `puzzle`
    /// is not a position of this oracle's puzzle (its rules were edited since), or `cancel`
    /// stopped the search.
    fn assess(&self, puzzle: &dyn Puzzle, cancel: &CancelToken) -> Option<Assessment>;

    /// The distance from the position of `puzzle` alone, which a searching oracle finds
    /// before it rates the moves (the default asks [`Oracle::assess`]).
    fn distance(&self, puzzle: &dyn Puzzle, cancel: &CancelToken) -> Option<Distance> {
        self.assess(puzzle, cancel).map(|a| a.distance)
    }

    /// The whole state space, for oracles that hold it.
    fn space(&self) -> Option<&dyn Space> {
        None
    }

    /// How moves are counted (for example "cell moves"), for "optimal: N moves".
    fn metric(&self) -> String;
}

/// A puzzle's whole reachable state space, explored (see [`explore`]): nodes `0..len()`
/// numbered breadth-first from the position it was explored from (node 0).
pub trait Space: Send + Sync {
    /// The distance profiles, dead ends and farthest states.
    fn profile(&self) -> Profile;
    /// The number of states.
    fn len(&self) -> usize;
    /// Whether there are no states.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The successors of `node` (node numbers).
    fn successors(&self, node: u32) -> &[u32];
    /// The distance of `node` from the start, in moves.
    fn distance_from_start(&self, node: u32) -> Option<u32>;
    /// The distance of `node` to the nearest goal; `None` for a dead end.
    fn to_goal(&self, node: u32) -> Option<u32>;
    /// Whether `node` is solved.
    fn is_goal(&self, node: u32) -> bool;
    /// The node of `puzzle`'s position, if it is a position of this space.
    fn node_of(&self, puzzle: &dyn Puzzle) -> Option<u32>;
    /// The puzzle at `node`: this space's puzzle with `node` as its position.
    fn puzzle_at(&self, node: u32) -> Option<Box<dyn Puzzle>>;
    /// Where `node` is on the picture, for puzzles whose states are places (a jump board,
    /// a maze); `None` for whole boards.
    fn place_of(&self, node: u32) -> Option<Place>;
    /// The states at square `cell` of the picture (types whose states are places): at once
    /// where a square holds one state, else by a scan of spaces up to 100,000 states.
    fn nodes_at(&self, cell: super::Cell) -> Vec<u32>;
    /// Writes the state graph as GraphML, each node labelled with its puzzle's text format.
    ///
    /// # Errors
    /// The I/O error of writing.
    fn write_graphml(&self, out: &mut dyn io::Write) -> io::Result<()>;
    /// Writes the state graph's edges as CSV (`source,target`).
    ///
    /// # Errors
    /// The I/O error of writing.
    fn write_edge_csv(&self, out: &mut dyn io::Write) -> io::Result<()>;
    /// The heuristic `puzzle` uses now measured against the exact least costs to a goal over
    /// this space ([`heuristic_quality::measure`]); `None` when `puzzle` does not play by
    /// this space's rules. `Some(Err(Outcome::Cancelled))` when `cancel` is cancelled.
    fn heuristic_quality(
        &self,
        puzzle: &dyn Puzzle,
        cancel: &CancelToken,
    ) -> Option<Result<Quality, Outcome>>;
}

/// A puzzle type whose reachable state space can be explored whole: it says which puzzles
/// share its rules and opens any of its states as a puzzle.
pub trait Explorable: Problem + Clone + Send + Sync + 'static
where
    Self::State: Send + Sync,
{
    /// Whether `other` plays by the same rules (the same board, pieces, goal and move
    /// metric), whatever its position, so that this puzzle's space holds its positions.
    fn same_rules(&self, other: &Self) -> bool;

    /// This puzzle with `state` as the position on the board (and the start of a search).
    fn at_state(&self, state: &Self::State) -> Self;

    /// A puzzle that starts at `state` (a state opened from the state space, such as the
    /// hardest position): the default is [`Explorable::at_state`].
    fn opened_at(&self, state: &Self::State) -> Self {
        self.at_state(state)
    }

    /// This puzzle at the position it was loaded with (before any move played by hand):
    /// the space is explored from there, so that every position played or taken back is
    /// in it. The default is the puzzle as it is.
    fn at_origin(&self) -> Self {
        self.clone()
    }

    /// Where `state` is on the picture, for types whose states are places; `None` (the
    /// default) for whole boards.
    fn place_of_state(&self, _state: &Self::State) -> Option<Place> {
        None
    }

    /// The state whose place is `cell`, for types with one state a square (a jump board, a
    /// maze); `None` (the default) otherwise.
    fn state_at_cell(&self, _cell: super::Cell) -> Option<Self::State> {
        None
    }

    /// The move `mv` from `state` to `next` as a value the picture shows ([`Motion`]). By
    /// default the marker's step or jump from the place of `state` to that of `next` (the
    /// mazes, the car maze, Klondike); a type whose moves slide pieces says which piece.
    fn motion(&self, state: &Self::State, _mv: &Self::Move, next: &Self::State) -> Option<Motion> {
        Some(Motion::between(
            self.place_of_state(state)?.cell,
            self.place_of_state(next)?.cell,
        ))
    }

    /// How moves are counted, for "optimal: N moves" (the default: "moves").
    fn metric_name(&self) -> String {
        "moves".to_owned()
    }

    /// The name of move `mv` as the player reads it on `position`'s board (this puzzle with
    /// the position on screen). The default is the move's own name; a type whose states
    /// forget which of two interchangeable pieces is which (Klotski) names the piece by
    /// its letter on that board.
    fn move_label(&self, _position: &Self, mv: &Self::Move) -> String {
        mv.to_string()
    }
}

/// Explores the reachable state space of `puzzle` (from its position) whole, under the limits
/// of `cancel`, and returns it as an instant [`Oracle`] that also holds the [`Space`].
/// `progress` is called with the states numbered so far.
///
/// # Errors
/// [`OracleError::Stopped`] at a limit or when cancelled; [`OracleError::TooLarge`] when the
/// problem says its space is too large for an exhaustive search.
pub fn explore<P: Explorable + Puzzle>(
    puzzle: &P,
    cancel: &CancelToken,
    progress: &mut dyn FnMut(u64),
) -> Result<Box<dyn Oracle>, OracleError>
where
    P::State: Send + Sync,
{
    explore_by(puzzle, |origin| {
        StateGraph::explore(origin, cancel, progress)
    })
}

/// [`explore`] with the graph explored by `explore` (given the puzzle at its origin), for a
/// type that explores its space its own way ([`StateGraph::explore_in_layers`] on several
/// threads). A puzzle whose calls fail ends the exploration with its error
/// ([`crate::search::Interrupt`]): [`OracleError::Stopped`] with
/// [`Outcome::ScriptError`].
///
/// # Errors
/// As [`explore`].
pub fn explore_by<P: Explorable + Puzzle>(
    puzzle: &P,
    explore: impl FnOnce(&P) -> Result<StateGraph<P::State>, crate::search::space::ExploreError>,
) -> Result<Box<dyn Oracle>, OracleError>
where
    P::State: Send + Sync,
{
    if let Some(why) = puzzle.facts().too_large_for_exhaustive_search {
        return Err(OracleError::TooLarge(why));
    }
    let origin = puzzle.at_origin();
    let graph = explore(&origin);
    Ok(Box::new(Explored {
        puzzle: origin,
        graph: graph?,
    }))
}

/// [`explore`]'s answer: the puzzle as explored and its graph.
struct Explored<P: Explorable>
where
    P::State: Send + Sync,
{
    puzzle: P,
    graph: StateGraph<P::State>,
}

impl<P: Explorable + Puzzle> Explored<P>
where
    P::State: Send + Sync,
{
    /// The position of `puzzle` as a state, if it is of type `P` with the same rules.
    fn position(&self, puzzle: &dyn Puzzle) -> Option<P::State> {
        let other = self.same(puzzle)?;
        other.start_states().into_iter().next()
    }

    /// `puzzle` as a `P`, if it plays by the same rules.
    fn same<'a>(&self, puzzle: &'a dyn Puzzle) -> Option<&'a P> {
        let other = puzzle.model::<P>()?;
        self.puzzle.same_rules(other).then_some(other)
    }

    fn distance(&self, node: Option<u32>) -> Distance {
        match node.and_then(|n| self.graph.to_goal(n)) {
            Some(d) => Distance::Exact(d),
            None => Distance::DeadEnd,
        }
    }
}

impl<P: Explorable + Puzzle> Oracle for Explored<P>
where
    P::State: Send + Sync,
{
    fn is_instant(&self) -> bool {
        true
    }

    fn lower_bound(&self, puzzle: &dyn Puzzle) -> Option<u32> {
        let node = self.graph.node_of(&self.position(puzzle)?)?;
        self.graph.to_goal(node)
    }

    fn assess(&self, puzzle: &dyn Puzzle, _cancel: &CancelToken) -> Option<Assessment> {
        let position = self.same(puzzle)?;
        let state = position.start_states().into_iter().next()?;
        let node = self.graph.node_of(&state)?;
        let distance = self.distance(Some(node));
        let mut successors = Vec::new();
        // Cut short (a script's error or a stop): no assessment.
        self.puzzle.successors(&state, &mut successors).ok()?;
        let mut moves: Vec<RatedMove> = successors
            .into_iter()
            .map(|s| {
                let after = self.distance(self.graph.node_of(&s.state));
                RatedMove {
                    label: self.puzzle.move_label(position, &s.mv),
                    after,
                    rating: rate(distance, after),
                    motion: self.puzzle.motion(&state, &s.mv, &s.state),
                }
            })
            .collect();
        moves.sort_by_key(|m| m.rating);
        Some(Assessment { distance, moves })
    }

    fn space(&self) -> Option<&dyn Space> {
        Some(self)
    }

    fn metric(&self) -> String {
        Explorable::metric_name(&self.puzzle)
    }
}

/// How a move from a position at `before` to one at `after` changes the distance.
pub fn rate(before: Distance, after: Distance) -> Rating {
    use std::cmp::Ordering;
    match (before, after) {
        // From a dead end every move stays in one: none is farther than another.
        (Distance::DeadEnd, Distance::DeadEnd) => Rating::Neutral,
        (_, Distance::DeadEnd) => Rating::Worse,
        (Distance::DeadEnd, _) => Rating::Better,
        (Distance::Exact(b) | Distance::AtLeast(b), Distance::Exact(a) | Distance::AtLeast(a)) => {
            match a.cmp(&b) {
                Ordering::Less => Rating::Better,
                Ordering::Equal => Rating::Neutral,
                Ordering::Greater => Rating::Worse,
            }
        }
    }
}

impl<P: Explorable + Puzzle> Space for Explored<P>
where
    P::State: Send + Sync,
{
    fn profile(&self) -> Profile {
        self.graph.profile()
    }

    fn len(&self) -> usize {
        self.graph.len()
    }

    fn successors(&self, node: u32) -> &[u32] {
        self.graph.successors(node)
    }

    fn distance_from_start(&self, node: u32) -> Option<u32> {
        self.graph.from_start(node)
    }

    fn to_goal(&self, node: u32) -> Option<u32> {
        self.graph.to_goal(node)
    }

    fn is_goal(&self, node: u32) -> bool {
        self.graph.is_goal(node)
    }

    fn node_of(&self, puzzle: &dyn Puzzle) -> Option<u32> {
        self.graph.node_of(&self.position(puzzle)?)
    }

    fn puzzle_at(&self, node: u32) -> Option<Box<dyn Puzzle>> {
        let state = self.graph.state(node)?;
        Some(Box::new(self.puzzle.opened_at(state)))
    }

    fn place_of(&self, node: u32) -> Option<Place> {
        self.puzzle.place_of_state(self.graph.state(node)?)
    }

    fn nodes_at(&self, cell: super::Cell) -> Vec<u32> {
        if let Some(state) = self.puzzle.state_at_cell(cell) {
            return self.graph.node_of(&state).into_iter().collect();
        }
        if self.graph.len() > 100_000 {
            return Vec::new();
        }
        (0..self.graph.len() as u32)
            .filter(|&n| self.place_of(n).is_some_and(|p| p.cell == cell))
            .collect()
    }

    fn write_graphml(&self, out: &mut dyn io::Write) -> io::Result<()> {
        let label = |node: u32| {
            self.graph
                .state(node)
                .map(|s| self.puzzle.opened_at(s).to_text())
                .unwrap_or_default()
        };
        self.graph.write_graphml(out, &label)
    }

    fn write_edge_csv(&self, out: &mut dyn io::Write) -> io::Result<()> {
        self.graph.write_edge_csv(out)
    }

    fn heuristic_quality(
        &self,
        puzzle: &dyn Puzzle,
        cancel: &CancelToken,
    ) -> Option<Result<Quality, Outcome>> {
        let puzzle = self.same(puzzle)?;
        Some(heuristic_quality::measure(puzzle, &self.graph, cancel))
    }
}

/// Whether an exploration error is the user's Stop rather than a limit.
pub fn was_cancelled(error: &OracleError) -> bool {
    matches!(error, OracleError::Stopped(e) if e.outcome == Outcome::Cancelled)
}

/// [`explore`], reporting progress as text ("N states explored").
///
/// # Errors
/// As [`explore`].
pub fn explore_counting<P: Explorable + Puzzle>(
    puzzle: &P,
    cancel: &CancelToken,
    progress: &mut dyn FnMut(&str),
) -> Result<Box<dyn Oracle>, OracleError>
where
    P::State: Send + Sync,
{
    explore(puzzle, cancel, &mut |n| {
        progress(&format!("exploring: {n} states"));
    })
}

/// What [`hardest_of_random`] found.
#[derive(Debug)]
pub struct HardestFound {
    /// The hardest position found: the state farthest from the goal of the best layout.
    pub puzzle: Box<dyn Puzzle>,
    /// Its distance to the goal, in moves.
    pub distance: u32,
    /// Layouts made and explored.
    pub layouts: u64,
    /// Whether it is at least as far as asked.
    pub meets: bool,
    /// Wall-clock time taken.
    pub elapsed: std::time::Duration,
}

/// Random solvable layouts at a chosen minimum optimal length: makes seeded random layouts
/// like `template` ([`Puzzle::random_layout`], seeds `seed`, `seed + 1`, …), explores each
/// whole and takes its hardest position (the state farthest from the goal), until one is at
/// least `min_length` moves from the goal or `budget` runs out (then the farthest found).
/// `progress` gets the layouts tried and the best distance so far.
///
/// # Errors
/// [`OracleError::Unsupported`] for a type that makes no layouts; [`OracleError::Stopped`]
/// when `cancel` is cancelled before any layout was explored.
pub fn hardest_of_random(
    template: &dyn Puzzle,
    min_length: u32,
    seed: u64,
    budget: std::time::Duration,
    cancel: &CancelToken,
    progress: &mut dyn FnMut(u64, u32),
) -> Result<HardestFound, OracleError> {
    let started = std::time::Instant::now();
    let mut best: Option<HardestFound> = None;
    let mut layouts = 0u64;
    let Some(maker) = template.capabilities().random_layouts else {
        return Err(OracleError::Unsupported);
    };
    for i in 0.. {
        if cancel.is_cancelled() || started.elapsed() >= budget {
            break;
        }
        let Some(layout) = maker.random_layout(seed.wrapping_add(i)) else {
            return Err(OracleError::Unsupported);
        };
        layouts += 1;
        let oracle = match layout.oracle(cancel, &mut |_| {}) {
            Ok(o) => o,
            Err(OracleError::Stopped(e)) if e.outcome == Outcome::Cancelled => break,
            // A layout too large for the limits: try another.
            Err(_) => continue,
        };
        let Some(space) = oracle.space() else {
            continue;
        };
        let profile = space.profile();
        let Some(hardest) = profile.hardest else {
            continue;
        };
        let distance = profile.hardest_distance;
        if best.as_ref().is_none_or(|b| distance > b.distance)
            && let Some(puzzle) = space.puzzle_at(hardest)
        {
            best = Some(HardestFound {
                puzzle,
                distance,
                layouts,
                meets: distance >= min_length,
                elapsed: started.elapsed(),
            });
        }
        progress(layouts, best.as_ref().map_or(0, |b| b.distance));
        if best.as_ref().is_some_and(|b| b.meets) {
            break;
        }
    }
    let mut found = best.ok_or_else(|| {
        OracleError::Failed(format!("no solvable layout among the {layouts} made"))
    })?;
    found.layouts = layouts;
    found.elapsed = started.elapsed();
    Ok(found)
}
