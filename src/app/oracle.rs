//! The player's companion in the window: the optimal distance from the position on screen,
//! kept current after every move and undo, a hint (one optimal move) and every move rated.
//!
//! The oracle is made on a background thread named `oracle-build` (exploring the state space,
//! or loading pattern databases), with its progress shown; an oracle that searches (the
//! 15-puzzle) assesses each new position on a thread named `oracle`, the previous one
//! cancelled, while the window shows the heuristic's "at least N".

use std::sync::Arc;

mod work;

use super::job::Job;
use crate::puzzles::oracle::{Assessment, Distance, Oracle, OracleError, Rating, Space};
use crate::puzzles::{Cell, Motion, Picture, Puzzle};

/// Each square with its distance from the start as a fraction of the farthest (see
/// [`OracleState::heat`]).
pub type DistanceMap = Arc<[(Cell, f32)]>;

/// How far each state of the explored space lies from the origin of the moves played by hand
/// (see [`crate::puzzles::Puzzle::origin`]), which is not always the state the space was
/// explored from: a maze's start dragged elsewhere, a state opened from the space keep the
/// space (the same rules).
#[derive(Clone, Debug, Default)]
enum FromOrigin {
    /// Not known: no space, the origin not in it, or a space too large to search again on
    /// the UI thread.
    #[default]
    Unknown,
    /// The origin is the state the space was explored from: its own distances hold.
    Root(u32),
    /// The origin is node `.0`: each node's distance from it by breadth-first search over
    /// the space's moves (`u32::MAX` where it cannot be reached).
    Searched(u32, Arc<[u32]>),
}

impl FromOrigin {
    /// The spaces searched again from another origin: at most this many states (a few
    /// milliseconds, once per origin).
    const SEARCHED_UP_TO: usize = 100_000;

    /// The distances from `origin`'s position over `space`.
    fn of(space: &dyn Space, origin: &dyn Puzzle) -> Self {
        let Some(node) = space.node_of(origin) else {
            return Self::Unknown;
        };
        if space.distance_from_start(node) == Some(0) {
            return Self::Root(node);
        }
        if space.len() > Self::SEARCHED_UP_TO {
            return Self::Unknown;
        }
        let mut distance = vec![u32::MAX; space.len()];
        let mut queue = std::collections::VecDeque::from([node]);
        if let Some(d) = distance.get_mut(node as usize) {
            *d = 0;
        }
        while let Some(at) = queue.pop_front() {
            let next = distance
                .get(at as usize)
                .map_or(u32::MAX, |d| d.saturating_add(1));
            for &s in space.successors(at) {
                if let Some(d) = distance.get_mut(s as usize)
                    && *d == u32::MAX
                {
                    *d = next;
                    queue.push_back(s);
                }
            }
        }
        Self::Searched(node, distance.into())
    }

    /// The origin's node, when known.
    fn node(&self) -> Option<u32> {
        match self {
            Self::Unknown => None,
            Self::Root(node) | Self::Searched(node, _) => Some(*node),
        }
    }
}

/// An arrow on the canvas for a rated move: from the moved piece's centre (or the marker's
/// square) to where it ends, in cell coordinates (column, row; the centre of cell (r, c) is
/// (c + 0.5, r + 0.5)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveArrow {
    /// Where the arrow starts.
    pub from: (f32, f32),
    /// Where it points.
    pub to: (f32, f32),
    /// Whether the move brings the goal closer.
    pub rating: Rating,
}

/// The oracle being made: its job (progress lines while it explores) and the last line.
struct Build {
    job: Job<Result<Box<dyn Oracle>, OracleError>, String>,
    progress: String,
}

/// Which position an assessment is of: the puzzle's edit count and the moment shown (0 the
/// puzzle as it is; `k + 1` its solution's playback after `k` moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PositionKey {
    /// The puzzle's edit count (see `AppState::revision`).
    pub revision: u64,
    /// 0 for the puzzle as it is; `k + 1` for the position after `k` moves of its solution.
    pub moment: usize,
}

/// A position being assessed: its distance comes first (as the job's progress), then every
/// move rated (its result).
struct Pending {
    key: PositionKey,
    job: Job<Option<Assessment>, Distance>,
}

/// The oracle of the puzzle on screen and what it said of the position.
#[derive(Default)]
pub struct OracleState {
    /// Whether the player turned it on.
    pub enabled: bool,
    /// Whether the hint's arrow is drawn.
    pub show_hint: bool,
    /// Whether every move's arrow is drawn, coloured by its rating.
    pub show_all: bool,
    /// Whether the distance map (each place's distance from the start) is drawn.
    pub show_map: bool,
    /// Whether the panel showed the oracle's controls in the frame drawn last (cleared at the
    /// end of each frame, set again by the panel's [`super::OracleCommand::Shown`]): its
    /// marks are drawn on the canvas only then (not while a layout is edited, say).
    pub in_panel: bool,
    /// Whether the canvas shows a state of the search (a running board search, or the
    /// timeline scrubbed back) rather than the position the oracle assessed: its arrows
    /// are not drawn then, and the panel says which position it describes.
    pub hidden: bool,
    /// The distance map of the space of generation `.0` from the origin `.1` (see
    /// [`OracleState::heat`]).
    heat: Option<(u64, Option<u32>, Option<DistanceMap>)>,
    /// The explored space's distances from the origin of the moves played by hand (the
    /// start on screen), for the hover and the distance map: derived here alone, once per
    /// origin.
    from_origin: FromOrigin,
    /// The distance map's farthest distance from the start (its 1), in the oracle's metric.
    heat_far: u32,
    /// The type the oracle was made for.
    type_name: &'static str,
    oracle: Option<Arc<dyn Oracle>>,
    build: Option<Build>,
    /// Why the last build failed.
    error: Option<String>,
    /// The position the error is of: a failure (a limit, a position not in the space)
    /// is tried again once the position changes; a Stop waits for Try again.
    error_revision: Option<PositionKey>,
    /// Whether the error is one trying again cannot mend (no oracle for this type, or a
    /// puzzle too large for one): the panel offers no Try again then.
    error_lasting: bool,
    /// The position the assessment is of.
    revision: Option<PositionKey>,
    /// The puzzle revision `origin_distance` is of.
    origin_revision: Option<u64>,
    assessment: Option<Assessment>,
    arrows: Vec<MoveArrow>,
    lower_bound: Option<u32>,
    /// The distance of the position being searched, once known (its moves not yet rated).
    partial: Option<Distance>,
    pending: Option<Pending>,
    /// The picture of the position being searched, for the arrows of its answer.
    pending_picture: Option<Picture>,
    /// Whether the position being searched has no move played (it is the origin).
    pending_origin: bool,
    /// The distance from the origin: the position the moves played by hand started from
    /// (see [`crate::puzzles::Puzzle::origin`]).
    origin_distance: Option<u32>,
    /// Oracles made so far.
    generation: u64,
    /// Whether the oracle was built for the current rules and still did not know the
    /// position (a rebuild would not help).
    rebuilt_for: Option<PositionKey>,
    /// The puzzle the build running (or the one that failed) was started for, and the
    /// revision it was last compared with the puzzle on screen at: a build for rules no
    /// longer on screen (a script reloaded, a parameter changed, a wall painted) is
    /// stopped and started again for the new ones.
    built_of: Option<(Arc<dyn Puzzle>, u64)>,
}

impl Drop for OracleState {
    fn drop(&mut self) {
        self.stop();
    }
}

/// What the panel shows of the oracle.
#[derive(Clone, Debug, PartialEq)]
pub enum OracleStatus {
    /// Turned off.
    Off,
    /// Being made: the progress line.
    Preparing(String),
    /// It could not be made: why (a limit, a Stop; Try again may mend it).
    Failed(String),
    /// It cannot be made for this puzzle (no oracle for its type, or too large a puzzle):
    /// why. Trying again would fail the same way.
    Unavailable(String),
    /// The distance from the position (exact, a lower bound while searching, or none).
    Ready(Distance),
}

impl OracleState {
    /// Cancels the build and the position's search, if any.
    pub(crate) fn stop(&mut self) {
        // A job dropped is stopped.
        self.build = None;
        self.pending = None;
    }

    /// Turns the oracle off and forgets it.
    pub fn reset(&mut self) {
        self.stop();
        let mut kept = OracleState::default();
        (
            kept.enabled,
            kept.show_hint,
            kept.show_all,
            kept.show_map,
            kept.generation,
        ) = (
            self.enabled,
            self.show_hint,
            self.show_all,
            self.show_map,
            self.generation,
        );
        *self = kept;
    }

    /// What the panel shows.
    pub fn status(&self) -> OracleStatus {
        if !self.enabled {
            return OracleStatus::Off;
        }
        if let Some(b) = &self.build {
            return OracleStatus::Preparing(b.progress.clone());
        }
        if let Some(e) = &self.error {
            return if self.error_lasting {
                OracleStatus::Unavailable(e.clone())
            } else {
                OracleStatus::Failed(e.clone())
            };
        }
        match (&self.assessment, self.partial, self.lower_bound) {
            (Some(a), _, _) => OracleStatus::Ready(a.distance),
            (None, Some(d), _) => OracleStatus::Ready(d),
            (None, None, Some(b)) => OracleStatus::Ready(Distance::AtLeast(b)),
            (None, None, None) => OracleStatus::Preparing("assessing the position".to_owned()),
        }
    }

    /// The assessment of the position on screen, once known.
    pub fn assessment(&self) -> Option<&Assessment> {
        self.assessment.as_ref()
    }

    /// The arrows to draw: the hint's, or every move's (none while the canvas shows a
    /// state of the search rather than the position assessed: see `hidden`).
    pub fn arrows(&self) -> Vec<MoveArrow> {
        if !self.enabled || !self.in_panel || self.hidden {
            return Vec::new();
        }
        if self.show_all {
            return self.arrows.clone();
        }
        if self.show_hint {
            return self
                .arrows
                .iter()
                .find(|a| a.rating == Rating::Better)
                .copied()
                .into_iter()
                .collect();
        }
        Vec::new()
    }

    /// How moves are counted.
    pub fn metric(&self) -> String {
        self.oracle
            .as_ref()
            .map_or_else(|| "moves".to_owned(), |o| o.metric())
    }

    /// The oracle itself, to share with a background job (the state graph's layout).
    pub fn shared(&self) -> Option<Arc<dyn Oracle>> {
        self.oracle.clone()
    }

    /// Counts the oracles made: a new one (new rules) makes what was drawn of the old stale.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The distance map of a space whose states are places: each square with the least
    /// distance from the start (the origin of the moves played by hand, see
    /// [`OracleState::distance_from_origin`]) of the states there, as a fraction of the
    /// farthest (0 the start, 1 the farthest). Made once per space of at most 20,000 states
    /// and origin (here, or by the frame's work while the map is shown); `None` for larger
    /// spaces or boards.
    pub fn heat(&mut self) -> Option<DistanceMap> {
        self.make_heat();
        self.distance_map()
    }

    /// The distance map (see [`OracleState::heat`]) as made for the space and origin of now,
    /// if it is made: what the window draws (the frame's work makes it while it is shown).
    pub fn distance_map(&self) -> Option<DistanceMap> {
        self.oracle.as_deref().and_then(|o| o.space())?;
        let origin = self.from_origin.node();
        match &self.heat {
            Some((generation, at, heat)) if (*generation, *at) == (self.generation, origin) => {
                heat.clone()
            }
            _ => None,
        }
    }

    /// Makes the distance map of the space explored (see [`OracleState::heat`]), unless it
    /// is made already for its origin.
    pub(crate) fn make_heat(&mut self) {
        let Some(space) = self.oracle.as_deref().and_then(|o| o.space()) else {
            return;
        };
        let origin = self.from_origin.node();
        if let Some((generation, at, _)) = &self.heat
            && (*generation, *at) == (self.generation, origin)
        {
            return;
        }
        let heat = (space.len() <= 20_000 && origin.is_some()).then(|| {
            let mut best: std::collections::BTreeMap<Cell, u32> = Default::default();
            for node in 0..space.len() as u32 {
                if let (Some(place), Some(d)) = (
                    space.place_of(node),
                    Self::from_origin_in(&self.from_origin, space, node),
                ) {
                    let e = best.entry(place.cell).or_insert(d);
                    *e = (*e).min(d);
                }
            }
            let far = best.values().copied().max().unwrap_or(1).max(1);
            self.heat_far = far;
            let far = far as f32;
            best.into_iter()
                .map(|(c, d)| (c, d as f32 / far))
                .collect::<Vec<_>>()
                .into()
        });
        self.heat = Some((self.generation, origin, heat));
    }

    /// The distance the distance map colours as farthest (see [`OracleState::heat`]), once
    /// the map is made.
    pub fn heat_far(&self) -> Option<u32> {
        self.heat
            .as_ref()
            .filter(|(g, at, h)| {
                (*g, *at) == (self.generation, self.from_origin.node()) && h.is_some()
            })
            .map(|_| self.heat_far)
    }

    /// The whole state space, once explored.
    pub fn space(&self) -> Option<&dyn Space> {
        self.oracle.as_deref().and_then(|o| o.space())
    }

    /// The distance of `node` of the explored space from the origin of the moves played by
    /// hand (the start on screen), in the oracle's metric: `None` when it cannot be reached
    /// from there, or the distances are not known (no space; a space of over 100,000 states
    /// explored from elsewhere).
    pub fn distance_from_origin(&self, node: u32) -> Option<u32> {
        Self::from_origin_in(&self.from_origin, self.space()?, node)
    }

    fn from_origin_in(from: &FromOrigin, space: &dyn Space, node: u32) -> Option<u32> {
        match from {
            FromOrigin::Unknown => None,
            FromOrigin::Root(_) => space.distance_from_start(node),
            FromOrigin::Searched(_, distance) => distance
                .get(node as usize)
                .copied()
                .filter(|&d| d != u32::MAX),
        }
    }

    /// The distance from the origin of the moves played by hand (the position as loaded,
    /// scrambled or last edited: see [`crate::puzzles::Puzzle::origin`]), once known.
    pub fn start_distance(&self) -> Option<u32> {
        self.origin_distance
    }
}

/// The arrow of the move `motion` on the position pictured by `before`: the piece that
/// moves, from its centre as far as the motion goes; or a marker (the start, a car, a jumper)
/// from its square to where it lands. `None` for a motion off the picture.
pub fn arrow(before: &Picture, motion: Motion, rating: Rating) -> Option<MoveArrow> {
    let centre = |c: Cell| (c.col as f32 + 0.5, c.row as f32 + 0.5);
    let (dx, dy) = (motion.by.1 as f32, motion.by.0 as f32);
    let (x, y) = match before.piece_move(motion) {
        Some(piece) => {
            let n = piece.cells.len().max(1) as f32;
            piece.cells.iter().fold((0.0, 0.0), |(x, y), &c| {
                let (cx, cy) = centre(c);
                (x + cx / n, y + cy / n)
            })
        }
        None => {
            before.get(motion.from)?;
            centre(motion.from)
        }
    };
    Some(MoveArrow {
        from: (x, y),
        to: (x + dx, y + dy),
        rating,
    })
}
