//! The timeline of a run: its recording (see [`crate::runs::recording`]) replayed onto the canvas's
//! marks to any moment, back and forth, a frame's budget at a time; the state pinned for
//! inspection, its branch, and the heat maps of the closed set.
//!
//! The recording is the run's one record, and the marks' one source: during the run the
//! solver's chunks are appended to it ([`Track::append`]) and the timeline *follows* the head
//! (the live marks are the replay at the last position); a seek stops following, so the run
//! can be scrubbed back while it goes on, and [`super::TimelineCommand::Follow`] returns to the
//! head. At the end nothing is reconciled: the marks already show what the recording holds.
//!
//! A *position* is a number of expansions: at position `k` the marks show the closed set and
//! frontier as they were once the first `k` states were expanded and their successors put on
//! the frontier, the `k`-th state as the current one. Position 0 shows the starts on the
//! frontier; the last position is the run's end.

use std::sync::Arc;
use std::time::Instant;

use super::SearchMarks;
use super::search_marks::{Shade, ShadeKind};
use crate::puzzles::{Cell, Place, Side};
use crate::runs::recording::{Quantity, SpentChunk, TraceRecorder};
use crate::search::Algorithm;

/// Expansions replayed between two looks at the clock.
const CHUNK: usize = 512;
/// The most rows of a finished run's size curve (see [`Track::sizes`]).
pub const PLOT_POINTS: usize = 400;
/// The most expansions looked at to find a depth-first path at a position.
const PATH_SCAN: usize = 1 << 20;

/// The most sets of spent or new buffers a track holds for the solver (see
/// [`Track::take_spent`]): as many as its writer keeps.
const SPENT_KEPT: usize = crate::runs::recording::MAX_SPARE;

/// One run's recording and the position its marks show.
#[derive(Debug)]
pub struct Track {
    recording: Arc<TraceRecorder>,
    /// The position the marks show.
    shown: usize,
    /// Whether the marks must be cleared and the starts put on them before the next seek (a new
    /// track: the marks may hold another run's marks).
    stale: bool,
    /// The algorithm and tie-breaking policy the recording was made with: what the Learn
    /// panel narrates it by, whatever is chosen since.
    rules: (Algorithm, crate::search::TieBreak),
    /// Whether the algorithm searches depth-first (its path is shown at each position).
    depth_first: bool,
    /// The frontier and closed-set sizes after each expansion, thinned (see
    /// [`TraceRecorder::size_curve`]): what the plots draw of a finished run.
    sizes: Vec<[f64; 3]>,
    /// Chunks of the live run taken off the solver's channel and not yet appended (see
    /// [`Track::queue`]): the solver never waits for the window, which appends them at its
    /// own pace, a frame's budget at a time ([`Track::absorb`]).
    pending: std::collections::VecDeque<crate::runs::recording::RecordChunk>,
    /// Whether the run has ended: its size curve is taken once the last chunk is in.
    ended: bool,
    /// The buffers of chunks appended, for the solver to write its next chunks in (see
    /// [`Track::take_spent`]).
    spent: Vec<SpentChunk>,
    /// Whether the marks are being set whole to the run's end (see [`Track::seek`]).
    setting_whole: bool,
}

/// Rows of marks set whole between two looks at the clock (a multiple of the texture's tiles).
const WHOLE_BAND: usize = 64;
/// Pictures with fewer squares than this are replayed to their end, never set whole.
const WHOLE_MIN_SQUARES: usize = 1 << 16;

impl Track {
    /// The track of `recording` (finished, or a live run's store that chunks will be
    /// appended to) for marks to be shown from scratch: the first seek clears it and puts
    /// the starts on it.
    pub fn new(recording: Arc<TraceRecorder>, algorithm: Algorithm) -> Self {
        Self {
            shown: 0,
            stale: true,
            rules: (algorithm, crate::search::TieBreak::default()),
            depth_first: matches!(algorithm, Algorithm::Dfs | Algorithm::IdaStar),
            sizes: Vec::new(),
            pending: std::collections::VecDeque::new(),
            spent: Vec::new(),
            ended: false,
            setting_whole: false,
            recording,
        }
    }

    /// The track of a live run of `algorithm` under `tie_break` on a picture of `rows` x
    /// `cols` squares: an empty store.
    pub fn live(
        rows: usize,
        cols: usize,
        algorithm: Algorithm,
        tie_break: crate::search::TieBreak,
    ) -> Self {
        let mut track = Self::new(Arc::new(TraceRecorder::store(rows, cols)), algorithm);
        track.rules.1 = tie_break;
        track
    }

    /// The algorithm and the tie-breaking policy the recording was made with.
    pub fn rules(&self) -> (Algorithm, crate::search::TieBreak) {
        self.rules
    }

    /// Appends a chunk of the live run's recording (see [`TraceRecorder::append`]); `marks`
    /// follow at the next seek. A chunk that completes the last expansion (the successors it
    /// generated after the chunk before) while `marks` show that expansion takes it back off
    /// them first, so that the next seek replays it whole: else those successors would
    /// never reach the canvas. Work proportional to the chunk (the recording is copied
    /// first only if another holder, such as an export under way, shares it).
    pub fn append(&mut self, chunk: crate::runs::recording::RecordChunk, marks: &mut SearchMarks) {
        let len = self.recording.expansions();
        if chunk.completes_last(len) && self.shown == len && !self.stale {
            self.recording
                .step_back(self.shown, |place, change| marks.replay(place, change));
            self.shown -= 1;
        }
        let spent = Arc::make_mut(&mut self.recording).append(chunk);
        // A few, as many as the solver keeps, while it runs: the rest are freed.
        if !self.ended && self.spent.len() < SPENT_KEPT {
            self.spent.push(spent);
        }
    }

    /// The buffers of the chunks appended since the last call, emptied: given back to the
    /// solver ([`crate::solver::SolverHandle::recycle`]), its next chunks are written in
    /// memory already mapped instead of new pages, each a page fault on the search's thread.
    pub fn take_spent(&mut self) -> Vec<SpentChunk> {
        std::mem::take(&mut self.spent)
    }

    /// Keeps a chunk of the live run's recording to be appended by [`Track::absorb`]: work
    /// that does not depend on the chunk's size, so that taking the solver's events never
    /// holds a frame up.
    pub fn queue(&mut self, chunk: crate::runs::recording::RecordChunk) {
        self.pending.push_back(chunk);
    }

    /// Appends the chunks queued (see [`Track::queue`]), at least one, until `deadline`
    /// passes; returns whether none is left. The last one in, after the run's end, takes the
    /// size curve.
    pub fn absorb(&mut self, marks: &mut SearchMarks, deadline: Instant) -> bool {
        while let Some(chunk) = self.pending.pop_front() {
            self.append(chunk, marks);
            if Instant::now() >= deadline {
                break;
            }
        }
        self.take_sizes_once_whole();
        self.pending.is_empty()
    }

    /// Takes the size curve the plots draw of a finished run (one pass over the recording),
    /// once the run has ended and every chunk is in.
    fn take_sizes_once_whole(&mut self) {
        if self.ended && self.pending.is_empty() && self.sizes.is_empty() {
            self.sizes = self.recording.size_curve(PLOT_POINTS);
        }
    }

    /// Whether every chunk taken from the solver is in the recording.
    pub fn is_caught_up(&self) -> bool {
        self.pending.is_empty()
    }

    /// Once the run has ended: takes the size curve the plots draw of a finished run (one
    /// pass over the recording), once the chunks still queued are in.
    pub fn finish(&mut self) {
        self.ended = true;
        self.spent = Vec::new();
        self.take_sizes_once_whole();
    }

    /// The frontier and closed-set sizes after each expansion, `[expansions, frontier,
    /// closed]`, at most about [`PLOT_POINTS`] rows; empty until [`Track::finish`].
    pub fn sizes(&self) -> &[[f64; 3]] {
        &self.sizes
    }

    /// The recording.
    pub fn recording(&self) -> &Arc<TraceRecorder> {
        &self.recording
    }

    /// The last position: the expansions recorded.
    pub fn len(&self) -> usize {
        self.recording.expansions()
    }

    /// Whether the recording holds no expansion.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position the marks show.
    pub fn shown(&self) -> usize {
        self.shown
    }

    /// Replays the recording onto `marks` towards position `target` (at most the last) until
    /// it gets there or `deadline` passes; returns whether it got there. Each expansion
    /// replayed changes only the marks it changed in the run, so a frame's work follows the
    /// distance moved, never the picture's size.
    pub fn seek(
        &mut self,
        marks: &mut SearchMarks,
        target: usize,
        deadline: Option<Instant>,
    ) -> bool {
        let target = target.min(self.len());
        if self.setting_whole && (target != self.len() || !marks.is_setting_whole()) {
            // Set whole no more (another position, or the marks restarted): half the rows
            // are the end's, so they are made again from the start.
            self.setting_whole = false;
            self.stale = true;
        }
        if self.setting_whole || self.jumps_to_end(marks, target) {
            return self.set_whole(marks, deadline);
        }
        if self.ended && !self.pending.is_empty() && self.end_is_far(marks, target) {
            // The end will be set whole once the last chunks are in: the frame's work goes
            // to taking them in, not to replaying towards a head that moves.
            return false;
        }
        // The marks listed again after a restart of the marks' changes, a part a frame.
        let listed = marks.rescan(deadline);
        if self.stale {
            if self.recording.expansions() == 0 {
                // The starts are known at the first expansion.
                return target == 0;
            }
            marks.clear_marks();
            self.recording
                .sources(|place, change| marks.replay(place, change));
            self.shown = 0;
            self.stale = false;
        } else if self.shown == target {
            self.describe_again(marks);
            return listed;
        }
        let recording = Arc::clone(&self.recording);
        while self.shown != target {
            for _ in 0..CHUNK {
                if self.shown < target {
                    recording.step_forward(self.shown, |place, change| marks.replay(place, change));
                    self.shown += 1;
                } else if self.shown > target {
                    recording.step_back(self.shown, |place, change| marks.replay(place, change));
                    self.shown -= 1;
                } else {
                    break;
                }
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        self.describe(marks);
        marks.forget_drawn_changes();
        if marks.has_long_changes() {
            marks.restart_changes();
        }
        self.shown == target && marks.rescan(deadline)
    }

    /// Whether going to `target` sets the marks whole to the run's end rather than replaying
    /// the expansions between: the run has ended with every chunk in and indexed, `target` is
    /// its end, the picture is large, and the jump replays more expansions than a quarter of
    /// its squares (a replay changes each square's marks up to twice, then draws each
    /// change; setting whole writes each square once, in rows).
    fn jumps_to_end(&self, marks: &SearchMarks, target: usize) -> bool {
        self.ended && self.pending.is_empty() && self.end_is_far(marks, target)
    }

    /// Whether `target` is the recording's end on a large picture of a run recorded whole
    /// and indexed, more expansions away than a quarter of its squares (see
    /// [`Track::jumps_to_end`]).
    fn end_is_far(&self, marks: &SearchMarks, target: usize) -> bool {
        let (rows, cols) = marks.dims();
        let squares = rows * cols;
        let distance = if self.stale {
            target
        } else {
            target.abs_diff(self.shown)
        };
        target == self.len()
            && self.recording.is_indexed()
            && !self.recording.has_boards()
            && self.recording.stopped().is_none()
            && squares >= WHOLE_MIN_SQUARES
            && distance > squares / 4
    }

    /// Sets `marks` whole to the run's end (see [`Track::jumps_to_end`]): the first call
    /// makes its coarse picture (a constant amount of work), each call sets bands of rows
    /// until `deadline` (one at least); returns whether every row is set. The drawing
    /// shows the coarse picture with the rows set over it, never a row of another moment.
    fn set_whole(&mut self, marks: &mut SearchMarks, deadline: Option<Instant>) -> bool {
        let recording = Arc::clone(&self.recording);
        if !self.setting_whole {
            marks.begin_whole(&recording);
            self.setting_whole = true;
            self.stale = false;
        }
        let rows = marks.dims().0;
        while let Some(from) = marks.whole.as_ref().map(|w| w.rows).filter(|&r| r < rows) {
            marks.set_whole_rows(&recording, from + WHOLE_BAND);
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        if marks.is_setting_whole() {
            return false;
        }
        self.setting_whole = false;
        self.shown = self.len();
        self.describe(marks);
        true
    }

    /// The place of the state the recording's last expansion expanded (`None` before the
    /// first, and for states that have no place on the canvas).
    pub fn last_expanded_place(&self) -> Option<Place> {
        let last = self.len().checked_sub(1)?;
        self.recording.expansion(last)?.place
    }

    /// Says the position shown again when the run's end or a Stop took its current state
    /// away while the timeline is scrubbed back (the caption said "Expanding (6, 2)" and the
    /// canvas outlined no square, the walk 56's finding G). At the head the run's figures
    /// stand.
    fn describe_again(&self, marks: &mut SearchMarks) {
        if self.shown >= self.len() {
            return;
        }
        let last = self.shown.checked_sub(1);
        let current = last
            .and_then(|j| self.recording.expansion(j))
            .and_then(|i| i.place);
        if marks.current != current {
            self.describe(marks);
        }
    }

    /// Sets what `marks` say beside its marks for the position shown: the current state (and
    /// its board), its depth, the depth-first path, the counts.
    fn describe(&self, marks: &mut SearchMarks) {
        let rec = &self.recording;
        let last = self.shown.checked_sub(1);
        let info = last.and_then(|j| rec.expansion(j));
        marks.current = info.as_ref().and_then(|i| i.place);
        marks.depth = info.as_ref().map_or(0, |i| u64::from(i.depth));
        marks.stats.expanded = self.shown as u64;
        marks.stats.frontier = match last.and_then(|j| rec.board_frontier(j)) {
            Some(n) => n,
            None => marks.frontier_places as u64,
        };
        marks.frontier_places_reported = marks.frontier_places;
        marks.path = if self.depth_first {
            rec.depth_first_path(self.shown, PATH_SCAN)
        } else {
            Vec::new()
        };
        if rec.has_boards() {
            marks.board = rec.board_at(last.unwrap_or(0));
        } else if self.depth_first {
            // Depth-first searches remember the path they stand on.
            marks.stats.max_closed = marks.path.len() as u64;
        } else {
            // The states reached by then: the expanded (the closed set) and the frontier's,
            // as the run's final figure counts them.
            marks.stats.max_closed = (marks.closed_places + marks.frontier_places) as u64;
        }
        marks.revision += 1;
    }
}

/// The timeline's settings and the position asked for; the tracks it moves are the single
/// run's ([`Timeline::track`]) or each race lane's.
#[derive(Debug)]
pub struct Timeline {
    /// The single run's track (`None` for a race, whose lanes keep theirs).
    pub track: Option<Track>,
    /// The position asked for (expansions); the tracks get there over the next frames.
    pub target: usize,
    /// Whether the position follows the recording's head: the live run as it goes (a seek
    /// stops following; [`TimelineCommand::Follow`] starts again).
    pub follow: bool,
    /// A race's timeline keeps the single run's here, to go back to when the race closes.
    pub parked: Option<Box<Timeline>>,
    /// Whether a click on the canvas pins a square instead of editing the puzzle.
    pub inspecting: bool,
    /// The pinned state: a place, or for board puzzles the position of its expansion.
    pub pinned: Option<Pinned>,
    /// Colour the closed set by this quantity of each square's first expansion.
    pub heat: Option<Quantity>,
    /// Whether only the pinned state's branch (or, with none pinned, the goal's) keeps its
    /// colours.
    pub branch_only: bool,
    /// The shading last given to the marks: (heat, branch only, pinned), so it is remade only
    /// when one of them changes.
    shaded: Option<(Option<Quantity>, bool, Option<Pinned>)>,
}

/// A pinned state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pinned {
    /// A place on the picture.
    Place(Place),
    /// A board puzzle's state, by its expansion (from 0).
    Expansion(usize),
}

impl Timeline {
    /// A timeline at the end of its tracks, `len` expansions long, following their head.
    pub fn new(track: Option<Track>, len: usize) -> Self {
        Self {
            track,
            target: len,
            follow: true,
            parked: None,
            inspecting: false,
            pinned: None,
            heat: None,
            branch_only: false,
            // A run's marks have no shading and no branch: nothing to remake until asked.
            shaded: Some((None, false, None)),
        }
    }

    /// Remakes `marks`' shading if the heat map, the branch setting or the pinned state
    /// changed since it was last made (`solution` is the goal's branch, start first). Work
    /// proportional to the recording, once per change of setting.
    pub fn shade(
        &mut self,
        marks: &mut SearchMarks,
        recording: &TraceRecorder,
        solution: &[Place],
    ) {
        let key = (self.heat, self.branch_only, self.pinned);
        if self.shaded == Some(key) {
            return;
        }
        self.shaded = Some(key);
        let (rows, cols) = marks.dims();
        let pinned_place = match self.pinned {
            Some(Pinned::Place(p)) => Some(p),
            _ => None,
        };
        marks.branch = pinned_place.map_or_else(Vec::new, |p| recording.branch(p));
        marks.revision += 1;
        let shade = if self.branch_only {
            let branch = match pinned_place {
                Some(p) => recording.branch(p),
                None => solution.to_vec(),
            };
            let mut levels = vec![0u8; rows * cols];
            for p in branch {
                if let Some(l) = levels.get_mut(p.cell.row * cols + p.cell.col) {
                    *l = 1;
                }
            }
            Some(Arc::new(Shade {
                kind: ShadeKind::Branch,
                levels,
            }))
        } else {
            self.heat
                .and_then(|q| heat_map(recording, q, rows, cols))
                .map(Arc::new)
        };
        // The branch is an overlay; only a new shading redraws the marks.
        if marks.shade != shade {
            marks.shade = shade;
            marks.restart_changes();
        }
    }
}

/// The heat map of `quantity` over the squares of a `rows` x `cols` picture: each square's
/// level from its earliest first expansion's value (least 1, greatest 255); `None` if no
/// expansion has a value.
pub fn heat_map(
    recording: &TraceRecorder,
    quantity: Quantity,
    rows: usize,
    cols: usize,
) -> Option<Shade> {
    let mut values = vec![f64::NAN; rows * cols];
    let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
    for j in 0..recording.expansions() {
        let Some(info) = recording.expansion(j) else {
            continue;
        };
        let (Some(place), false) = (info.place, info.is_reexpansion) else {
            continue;
        };
        let Some(v) = recording.value(j, quantity) else {
            continue;
        };
        let Some(slot) = (place.cell.row < rows && place.cell.col < cols)
            .then(|| place.cell.row * cols + place.cell.col)
        else {
            continue;
        };
        if values[slot].is_nan() {
            values[slot] = v;
            min = min.min(v);
            max = max.max(v);
        }
    }
    if min > max {
        return None;
    }
    let span = (max - min).max(f64::MIN_POSITIVE);
    let levels = values
        .iter()
        .map(|&v| {
            if v.is_nan() {
                0
            } else {
                1 + ((v - min) / span * 254.0).round().clamp(0.0, 254.0) as u8
            }
        })
        .collect();
    Some(Shade {
        kind: ShadeKind::Heat { quantity, min, max },
        levels,
    })
}

/// The place to pin for a click on `cell`: the square itself, or for puzzles whose states are
/// (square, side entered from) the state of that square expanded first; `None` if none of
/// them was expanded.
pub fn place_at(recording: &TraceRecorder, cell: Cell) -> Option<Place> {
    std::iter::once(Place::from(cell))
        .chain(Side::ALL.into_iter().map(|side| Place {
            cell,
            side: Some(side),
        }))
        .filter_map(|p| Some((recording.first_expansion(p)?, p)))
        .min_by_key(|&(j, _)| j)
        .map(|(_, p)| p)
}
