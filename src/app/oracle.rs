//! The player's companion in the window: the optimal distance from the position on screen,
//! kept current after every move and undo, a hint (one optimal move) and every move rated.
//!
//! The oracle is made on a background thread named `oracle-build` (exploring the state space,
//! or loading pattern databases), with its progress shown; an oracle that searches (the
//! 15-puzzle) assesses each new position on a thread named `oracle`, the previous one
//! cancelled, while the window shows the heuristic's "at least N".

use std::sync::Arc;

use super::job::Job;
use crate::puzzles::oracle::{Assessment, Distance, Oracle, OracleError, Rating, Space};
use crate::puzzles::{Cell, Motion, Picture, Puzzle};
use crate::search::{CancelToken, Limits};

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

    /// The frame's work: takes the build's and the search's messages, and assesses the
    /// position when it changed. `puzzle` is the puzzle being edited and played (the oracle
    /// is made for it); `shown` the position the canvas draws when that is another (a
    /// solution's playback), and `key` names the position assessed.
    pub fn tick(
        &mut self,
        puzzle: &dyn Puzzle,
        shown: Option<&dyn Puzzle>,
        key: PositionKey,
        limits: Limits,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) {
        // Ticked or not, what the oracle knows follows the puzzle on screen.
        self.follow_puzzle(puzzle, key.revision);
        if !self.enabled {
            if self.build.is_some() || self.pending.is_some() {
                self.stop();
            }
            return;
        }
        self.poll_build(key);
        if self.error.is_some()
            && let Some(at) = self.error_revision
            && at != key
        {
            self.retry();
        }
        if self.build.is_some() || self.error.is_some() {
            return;
        }
        let Some(oracle) = self.oracle.clone() else {
            self.start_build(puzzle, key, limits, wake);
            return;
        };
        self.poll_pending();
        // A build just made the oracle: its facts about the puzzle are derived now.
        self.follow_puzzle(puzzle, key.revision);
        if self.revision == Some(key) {
            return;
        }
        self.revision = Some(key);
        let is_origin =
            shown.is_none() && puzzle.capabilities().hand_play.map(|h| h.moves_played()) == Some(0);
        let puzzle = shown.unwrap_or(puzzle);
        self.assessment = None;
        self.partial = None;
        self.arrows.clear();
        self.pending = None;
        if oracle.is_instant() {
            match oracle.assess(puzzle, &CancelToken::new()) {
                Some(a) => self.set_assessment(puzzle.picture(), is_origin, a),
                None if self.rebuilt_for == Some(key) => {
                    self.error = Some("this position is not in the explored space".into());
                    self.error_revision = Some(key);
                }
                // The rules changed since the oracle was made: make it again.
                None => self.start_build(puzzle, key, limits, wake),
            }
            return;
        }
        self.lower_bound = oracle.lower_bound(puzzle);
        if self.lower_bound.is_none() && self.rebuilt_for != Some(key) {
            // Not a position of this oracle's puzzle: the rules changed.
            self.start_build(puzzle, key, limits, wake);
            return;
        }
        let position = puzzle.clone_box();
        let spawned = Job::start(
            "oracle",
            CancelToken::with_limits(limits),
            wake.clone(),
            move |cx| {
                if let Some(d) = oracle.distance(position.as_ref(), &cx.cancel) {
                    cx.progress(d);
                }
                oracle.assess(position.as_ref(), &cx.cancel)
            },
        );
        match spawned {
            Ok(job) => self.pending = Some(Pending { key, job }),
            Err(e) => self.error = Some(format!("could not start the oracle's search: {e}")),
        }
        self.pending_picture = Some(puzzle.picture());
        self.pending_origin = is_origin;
    }

    /// The one place where what the oracle knows is made to describe the puzzle on screen
    /// (`revision` its edit count): a puzzle of another type, or one the oracle does not
    /// know (other rules: another maze, a wall painted, another board), drops the oracle
    /// and everything derived from it (the explored space, the distances from the start, the
    /// distance map, the assessment); for a puzzle it knows (a move played, the start
    /// dragged within the space) the distances from the start are derived again. Once per
    /// edit, whether the oracle is ticked or not, so no readout (the hover, the State space
    /// window) ever describes a puzzle no longer on screen.
    fn follow_puzzle(&mut self, puzzle: &dyn Puzzle, revision: u64) {
        let type_name = puzzle.puzzle_type().name;
        if self.type_name != type_name {
            self.reset();
            self.type_name = type_name;
        }
        if self.oracle.is_none()
            && let Some((of, at)) = &mut self.built_of
            && *at != revision
        {
            *at = revision;
            if !of.same_rules_as(puzzle) {
                // Started for rules no longer on screen: its work (or its failure) does not
                // describe this puzzle. Stopped, and started again for these when ticked.
                self.stop();
                self.built_of = None;
                self.retry();
            }
        }
        if self.origin_revision == Some(revision) {
            return;
        }
        let Some(oracle) = self.oracle.clone() else {
            return;
        };
        let known = match oracle.space() {
            Some(space) => space.node_of(puzzle).is_some(),
            None => oracle.lower_bound(puzzle).is_some(),
        };
        let built_for_it = self.rebuilt_for.map(|k| k.revision) == Some(revision);
        if !known && !built_for_it {
            // Made for other rules: made again for these when ticked (see `tick`).
            self.reset();
            self.type_name = type_name;
            return;
        }
        // The origin changes with every edit that is not a move (a scramble, a load).
        self.origin_revision = Some(revision);
        self.from_origin = oracle.space().map_or(FromOrigin::Unknown, |space| {
            FromOrigin::of(space, puzzle.origin().as_ref())
        });
        if oracle.is_instant() {
            self.origin_distance = oracle
                .assess(puzzle.origin().as_ref(), &CancelToken::new())
                .and_then(|a| a.distance.exact());
        } else if puzzle.capabilities().hand_play.map(|h| h.moves_played()) == Some(0) {
            // A new origin: its distance comes with its assessment.
            self.origin_distance = None;
        }
    }

    fn set_assessment(&mut self, picture: Picture, origin: bool, assessment: Assessment) {
        if origin {
            self.origin_distance = assessment.distance.exact();
        }
        // From a dead end no move leads anywhere useful: the panel says so, no arrows.
        self.arrows = if assessment.distance == Distance::DeadEnd {
            Vec::new()
        } else {
            assessment
                .moves
                .iter()
                .filter_map(|m| arrow(&picture, m.motion?, m.rating))
                .collect()
        };
        self.assessment = Some(assessment);
    }

    fn poll_pending(&mut self) {
        let Some(p) = self.pending.as_mut() else {
            return;
        };
        if self.revision != Some(p.key) {
            self.pending = None;
            return;
        }
        // The distance, once known, replaces the lower bound until the moves are rated.
        let partial = &mut self.partial;
        let Some(answer) = p.job.poll(|d| *partial = Some(d)) else {
            return;
        };
        self.pending = None;
        match answer {
            Ok(full) => {
                if let (Some(a), Some(picture)) = (full, self.pending_picture.take()) {
                    let origin = self.pending_origin;
                    self.set_assessment(picture, origin, a);
                }
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    fn start_build(
        &mut self,
        puzzle: &dyn Puzzle,
        revision: PositionKey,
        limits: Limits,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) {
        self.stop();
        self.oracle = None;
        self.assessment = None;
        self.arrows.clear();
        self.revision = None;
        self.origin_revision = None;
        self.rebuilt_for = Some(revision);
        let puzzle: Arc<dyn Puzzle> = Arc::from(puzzle.clone_box());
        self.built_of = Some((puzzle.clone(), revision.revision));
        let spawned = Job::start(
            "oracle-build",
            CancelToken::with_limits(limits),
            wake.clone(),
            move |cx| {
                // Progress lines at most every 50 ms.
                let mut last = std::time::Instant::now();
                puzzle.oracle(&cx.cancel, &mut |line| {
                    if last.elapsed().as_millis() >= 50 {
                        last = std::time::Instant::now();
                        cx.progress(line.to_owned());
                    }
                })
            },
        );
        match spawned {
            Ok(job) => {
                self.build = Some(Build {
                    job,
                    progress: "starting".to_owned(),
                });
            }
            Err(e) => self.error = Some(format!("could not start the oracle: {e}")),
        }
    }

    fn poll_build(&mut self, revision: PositionKey) {
        let Some(build) = self.build.as_mut() else {
            return;
        };
        let progress = &mut build.progress;
        let Some(done) = build.job.poll(|line| *progress = line) else {
            return;
        };
        self.build = None;
        self.error_lasting = matches!(
            done,
            Ok(Err(OracleError::TooLarge(_) | OracleError::Unsupported))
        );
        match done
            .map_err(|e| e.to_string())
            .and_then(|r| r.map_err(|e| e.to_string()))
        {
            Ok(oracle) => {
                // The oracle itself says which puzzles it knows from now on.
                self.built_of = None;
                self.oracle = Some(Arc::from(oracle));
                self.generation += 1;
                self.rebuilt_for = Some(revision);
            }
            Err(e) => {
                self.error = Some(e);
                self.error_revision = Some(revision);
            }
        }
    }

    /// Cancels the oracle's preparation (the panel's Stop); the error says so.
    pub fn cancel_build(&mut self) {
        if self.build.is_some() {
            self.stop();
            self.error = Some("stopped".to_owned());
        }
    }

    /// Forgets a failure so the next frame tries again.
    pub fn retry(&mut self) {
        self.error = None;
        self.error_revision = None;
        self.error_lasting = false;
        self.rebuilt_for = None;
        self.revision = None;
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
