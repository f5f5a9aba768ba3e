//! The frontier (open list) of a recorded run at any moment of its timeline, in the order the
//! algorithm takes its states, rebuilt by a plain replay of the recording: the starts, then
//! for each expansion before the moment, its state taken off and its successors put on (a
//! state put on again with a smaller `g` keeps only its better entry). The state the run
//! expanded next is the recording's next expansion, whatever the order says. A board
//! puzzle's states are its boards (the recording keeps each one put on the frontier), told
//! apart by their squares.

use std::collections::HashMap;

use crate::puzzles::{Place, Square};
use crate::runs::recording::TraceRecorder;
use crate::search::{Algorithm, TieBreak, order};

/// The most states put on the frontier that [`open_list_at`] replays: beyond, it refuses at
/// once (the table is for watching small runs; a frame must not replay millions of entries:
/// this many take about 2 ms).
pub const MAX_REPLAYED: usize = 50_000;

/// A state on the frontier at a moment of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenEntry {
    /// Its place: square (row, column from the top left) and side; `None` for a board
    /// puzzle's state (see `board`).
    pub place: Option<Place>,
    /// A board puzzle's state: its number in the recording's stream of states put on the
    /// frontier, whose board [`TraceRecorder::generated_picture`] gives.
    pub board: Option<usize>,
    /// Its path cost from a start, if the algorithm scores states.
    pub g: Option<f32>,
    /// The heuristic's estimate, if the algorithm uses one.
    pub h: Option<f32>,
    /// The place of the state whose expansion put it there (`None` for a start, and for
    /// boards).
    pub parent: Option<Place>,
    /// The expansion (from 0) that put it there (`None` for a start).
    pub parent_expansion: Option<usize>,
    /// Its depth: moves from a start (the parent's depth plus one).
    pub depth: u32,
    /// The order it was put on the frontier in (0 for the first start).
    pub pushed: usize,
}

impl OpenEntry {
    /// The priority the algorithm orders the frontier by: `g + h` (A*, jump points), `g`
    /// (Dijkstra), `h` (greedy), `g + w * h` (weighted A*); `None` where it keeps a queue or a
    /// stack (breadth-first, depth-first) or the state is not scored.
    pub fn f(&self, algorithm: Algorithm) -> Option<f32> {
        priority(algorithm, self.g, self.h)
    }
}

/// The `f` by which `algorithm` orders its open list, for a state reached with `g` and `h`:
/// `g` for Dijkstra, `h` for greedy, `g + w h` for weighted A*, `g + h` for the rest of the
/// best-first searches; `None` for breadth- and depth-first (no priority), or without the
/// values it needs. The one rule the open list's column and the numbers on the squares read.
pub fn priority(algorithm: Algorithm, g: Option<f32>, h: Option<f32>) -> Option<f32> {
    let h0 = h.unwrap_or(0.0);
    match algorithm {
        Algorithm::Dijkstra => g,
        Algorithm::Greedy => h,
        Algorithm::WeightedAStar(w) => Some(g? + w.value() as f32 * h0),
        Algorithm::Bfs | Algorithm::Dfs => None,
        _ => Some(g? + h0),
    }
}

/// Why [`open_list_at`] gives no list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpenListError {
    /// The algorithm keeps no open list of single states.
    #[error("{0}")]
    NoOpenList(&'static str),
    /// More states were put on the frontier before the moment than [`MAX_REPLAYED`].
    #[error(
        "{0} states were put on the frontier by then: the open list is shown for runs of up \
         to {MAX_REPLAYED}"
    )]
    TooLarge(usize),
}

/// A state's identity on the frontier: its place, or its board's squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key<'a> {
    Place(Place),
    Board(&'a [Square]),
}

/// The frontier of `recording`'s run at `moment` (after `moment` expansions), in the order
/// `algorithm` takes its states under `tie_break`: breadth-first first in, first out;
/// the best-first family as [`order::first_out`] orders them (least priority
/// [`OpenEntry::f`], then the tie-breaking policy's rule).
///
/// # Errors
/// [`OpenListError::NoOpenList`] for depth-first, IDA* and the bidirectional searches, and
/// for a board puzzle's recording without the boards put on the frontier;
/// [`OpenListError::TooLarge`] past [`MAX_REPLAYED`] states put on the frontier.
pub fn open_list_at(
    recording: &TraceRecorder,
    moment: usize,
    algorithm: Algorithm,
    tie_break: TieBreak,
) -> Result<Vec<OpenEntry>, OpenListError> {
    open_list_during(recording, moment, None, algorithm, tie_break)
}

/// The frontier during expansion `moment` (see [`open_list_at`]): with `pushes` given, the
/// state of that expansion is off the frontier and its first `pushes` successors are on it
/// (a micro-step of the run); with `None`, before it is taken. Past the last expansion
/// recorded, with `pushes` given, the state the run takes next is off: the frontier's first
/// in the algorithm's order (a goal taken, which the run returns and records as no
/// expansion).
///
/// # Errors
/// As [`open_list_at`].
pub fn open_list_during(
    recording: &TraceRecorder,
    moment: usize,
    pushes: Option<usize>,
    algorithm: Algorithm,
    tie_break: TieBreak,
) -> Result<Vec<OpenEntry>, OpenListError> {
    match algorithm {
        Algorithm::IdaStar => {
            return Err(OpenListError::NoOpenList(
                "IDA* keeps no open list: only the current path, cut at the bound.",
            ));
        }
        Algorithm::Dfs => {
            return Err(OpenListError::NoOpenList(
                "This depth-first search keeps the untried successors on its stack and records \
                 a state only when it takes it: the next state is the next successor of the \
                 deepest state that has one.",
            ));
        }
        Algorithm::BidirectionalBfs | Algorithm::BidirectionalAStar => {
            return Err(OpenListError::NoOpenList(
                "A bidirectional search keeps two frontiers, one from each end.",
            ));
        }
        _ if recording.has_boards() && !recording.has_generated_boards() => {
            return Err(OpenListError::NoOpenList(
                "This run's recording kept the boards it expanded, not those on its \
                 frontier.",
            ));
        }
        _ => {}
    }
    let moment = moment.min(recording.expansions());
    let replayed = recording.pushed_before(moment + usize::from(pushes.is_some()));
    if replayed > MAX_REPLAYED {
        return Err(OpenListError::TooLarge(replayed));
    }
    let mut open: HashMap<Key<'_>, OpenEntry> = HashMap::new();
    let mut pushed = 0;
    let key = |place: Option<Place>, k: usize| match place {
        Some(p) => Some(Key::Place(p)),
        None => recording.generated_squares(k).map(Key::Board),
    };
    fn put<'a>(open: &mut HashMap<Key<'a>, OpenEntry>, key: Key<'a>, entry: OpenEntry) {
        let better = open.get(&key).is_none_or(|old| match (entry.g, old.g) {
            (Some(new), Some(old)) => new < old,
            _ => false,
        });
        if better {
            open.insert(key, entry);
        }
    }
    for (k, place, g, h) in recording.pushed_states(None) {
        let Some(at) = key(place, k) else { continue };
        let entry = OpenEntry {
            place,
            board: place.is_none().then_some(k),
            g,
            h,
            parent: None,
            parent_expansion: None,
            depth: 0,
            pushed,
        };
        put(&mut open, at, entry);
        pushed += 1;
    }
    let last = moment + usize::from(pushes.is_some());
    for j in 0..last {
        let Some(expansion) = recording.expansion(j) else {
            break;
        };
        let taken = match expansion.place {
            Some(place) => Some(Key::Place(place)),
            None => recording.board_squares(j).map(Key::Board),
        };
        if let Some(taken) = taken {
            open.remove(&taken);
        }
        let on = if j < moment {
            usize::MAX
        } else {
            pushes.unwrap_or(0)
        };
        for (k, place, g, h) in recording.pushed_states(Some(j)).take(on) {
            let Some(at) = key(place, k) else { continue };
            let entry = OpenEntry {
                place,
                board: place.is_none().then_some(k),
                g,
                h,
                parent: expansion.place,
                parent_expansion: Some(j),
                depth: expansion.depth + 1,
                pushed,
            };
            put(&mut open, at, entry);
            pushed += 1;
        }
    }
    let mut list: Vec<OpenEntry> = open.into_values().collect();
    sort(&mut list, algorithm, tie_break);
    if pushes.is_some() && recording.expansion(moment).is_none() && !list.is_empty() {
        list.remove(0);
    }
    Ok(list)
}

/// Whether `entry` (of an open list of `recording`) is the state of expansion `j`: the same
/// place, or a board with the same squares.
pub fn is_expansion(recording: &TraceRecorder, entry: &OpenEntry, j: usize) -> bool {
    match (entry.place, entry.board) {
        (Some(place), _) => recording.expansion(j).and_then(|e| e.place) == Some(place),
        (None, Some(k)) => recording
            .generated_squares(k)
            .is_some_and(|squares| recording.board_squares(j) == Some(squares)),
        (None, None) => false,
    }
}

/// Sorts `list` in the order `algorithm` takes its states (see [`open_list_at`]): by
/// [`order::first_out`], the engines' own order, with an entry's `g` (0 if unscored), its
/// priority ([`OpenEntry::f`], infinity if unscored) and the order it was put on.
fn sort(list: &mut [OpenEntry], algorithm: Algorithm, tie_break: TieBreak) {
    match algorithm {
        Algorithm::Bfs => list.sort_by_key(|e| e.pushed),
        _ => {
            let key = |e: &OpenEntry| order::Key {
                f: f64::from(e.f(algorithm).unwrap_or(f32::INFINITY)),
                g: f64::from(e.g.unwrap_or(0.0)),
                arrival: e.pushed as u64,
            };
            list.sort_by(|a, b| order::first_out(tie_break, &key(a), &key(b)));
        }
    }
}
