//! What the canvas shows of a search: each place's mark (frontier or closed), the state being
//! expanded, the depth-first path, and the statistics so far.
//!
//! The marks come from one source only: the run's recording, replayed by its
//! [`super::Track`] to the position shown (the live run's head, or a moment scrubbed back
//! to). Progress events add only the search's own figures ([`SearchMarks::take_figures`]).

use crate::puzzles::{Cell, Picture, Place, Puzzle, Side};
use crate::search::Stats;
use crate::solver::Progress;

/// The search's mark on a place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mark {
    /// Not reached.
    #[default]
    None,
    /// On the frontier (open list).
    Frontier,
    /// Expanded (in the closed set).
    Closed,
}

/// Places per square: the square itself and its four sides.
const SLOTS: usize = 5;

/// The search as the canvas shows it: marks replayed from the run's recording, figures from
/// the solver's progress events.
#[derive(Clone, Debug, Default)]
pub struct SearchMarks {
    rows: usize,
    cols: usize,
    /// `marks[(row * cols + col) * 5 + slot]`, slot 4 for the square, 0-3 for its sides in
    /// the order of [`Side::ALL`].
    marks: Vec<Mark>,
    /// Places marked [`Mark::Frontier`] now.
    pub frontier_places: usize,
    /// Places marked [`Mark::Closed`] now.
    pub closed_places: usize,
    /// [`SearchMarks::frontier_places`] at the last position the replay arrived at (it moves
    /// over several frames; in between the count is a mix of two).
    pub frontier_places_reported: usize,
    /// The place of the state expanded last.
    pub current: Option<Place>,
    /// The depth-first search's current path, start first.
    pub path: Vec<Place>,
    /// Depth of the state expanded last.
    pub depth: u64,
    /// Statistics so far.
    pub stats: Stats,
    /// The picture of the state expanded last, for board puzzles.
    pub board: Option<Picture>,
    /// (states expanded, frontier size, closed-set size) at each progress report, for the
    /// plots; thinned to every other point when it grows past [`MAX_SAMPLES`].
    pub samples: Vec<[f64; 3]>,
    /// States expanded at each depth (index = depth).
    pub layers: Vec<u64>,
    /// IDA*: states expanded in each iteration (index = iteration - 1).
    pub iteration_nodes: Vec<u64>,
    /// The run reports its figures alone, recording no state (a fast core).
    pub unrecorded: bool,
    /// Counts the changes to what the marks show, so drawings of it can be cached.
    pub revision: u64,
    /// Identifies these marks among all made (a new run makes new ones), so a drawing
    /// updated from [`SearchMarks::changed`] knows it follows the same marks.
    pub id: u64,
    /// The squares (row-major index) whose marks changed, in order, since the marks were made,
    /// less the first [`SearchMarks::changes_forgotten`]: `changed[k]` is change number
    /// `changes_forgotten + k`. A drawing that has shown the first `n` changes redraws only
    /// those after (see [`SearchMarks::changes_since`]). In a run each square's mark changes at
    /// most twice (none, frontier, closed); a replay that goes back and forth adds more, and
    /// forgets those drawn ([`SearchMarks::forget_drawn_changes`]).
    pub changed: Vec<u32>,
    /// How many of the first changes were forgotten once drawn.
    pub changes_forgotten: usize,
    /// How many changes the drawing of these marks has shown, as the canvas last said after
    /// drawing ([`SearchMarks::note_drawn`]): those may be forgotten.
    pub changes_drawn: usize,
    /// A colouring of the marks by square (a heat map, or the marks off a branch dimmed), set
    /// by the timeline.
    pub shade: Option<std::sync::Arc<Shade>>,
    /// The branch of the search tree drawn over the marks (the pinned state's path from a
    /// start), start first.
    pub branch: Vec<Place>,
    /// After [`SearchMarks::restart_changes`]: the next square to look at for a mark to list
    /// as a change, until all are looked at ([`SearchMarks::rescan`]).
    rescan_from: Option<usize>,
    /// The marks being set whole to a run's end state, a band of rows at a time (see
    /// [`SearchMarks::begin_whole`]): drawings draw its coarse picture at once, then the rows
    /// as they are set, instead of following [`SearchMarks::changed`].
    pub whole: Option<Whole>,
}

/// Marks being set whole to a run's end state read from its recording's index (see
/// [`SearchMarks::begin_whole`]), a band of rows a frame: the end's coarse picture is known
/// at once, its exact rows from the top as they are set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Whole {
    /// Rows set to the end state, from the top; the rows below still show an earlier
    /// moment of the same run (drawings do not show them).
    pub rows: usize,
    /// The side of the coarse picture's blocks, in squares (a power of two).
    pub block: usize,
    /// The end's mark on the top-left square of each `block` x `block` block, row-major.
    pub coarse: std::sync::Arc<Vec<Mark>>,
}

impl Whole {
    /// The coarse picture's size in blocks: (rows, columns).
    pub fn coarse_dims(&self, (rows, cols): (usize, usize)) -> (usize, usize) {
        let b = self.block.max(1);
        (rows.div_ceil(b), cols.div_ceil(b))
    }
}

/// The most blocks of a coarse end picture (see [`Whole`]): made in one frame whatever the
/// grid's size.
pub const COARSE_BLOCKS: usize = 1 << 16;

/// How the canvas colours the marks of each square (`levels[row * cols + col]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Shade {
    /// What the levels mean.
    pub kind: ShadeKind,
    /// Per square: 0 for none; for a heat map 1 (least) to 255 (most), for a branch 1 on it.
    pub levels: Vec<u8>,
}

/// What a [`Shade`]'s levels mean.
#[derive(Clone, Debug, PartialEq)]
pub enum ShadeKind {
    /// The closed set coloured by a quantity of each square's first expansion, from `min`
    /// (level 1) to `max` (level 255).
    Heat {
        /// The quantity.
        quantity: crate::runs::recording::Quantity,
        /// Its least value, at level 1.
        min: f64,
        /// Its greatest value, at level 255.
        max: f64,
    },
    /// Only the squares of a branch (level 1) keep their mark's colour; the rest fade.
    Branch,
}

/// The next [`SearchMarks::id`].
static NEXT_VIEW_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The most samples kept for the plots.
pub const MAX_SAMPLES: usize = 4096;

impl SearchMarks {
    /// Empty marks sized for `puzzle`.
    pub fn for_puzzle(puzzle: &dyn Puzzle) -> Self {
        let (rows, cols) = puzzle.dims();
        Self::with_dims(rows, cols)
    }

    /// Empty marks of a picture of `rows` x `cols` squares.
    pub fn with_dims(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            marks: vec![Mark::None; rows * cols * SLOTS],
            id: NEXT_VIEW_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            ..Self::default()
        }
    }

    /// Makes these empty marks of a picture of `rows` x `cols` squares, as
    /// [`SearchMarks::with_dims`] does (a new id), keeping the marks' memory when the size is
    /// the same: clearing 4 million squares' marks takes 2 ms where allocating them anew
    /// took 10 (measured on the frame benchmark's Start).
    pub fn renew(&mut self, rows: usize, cols: usize) {
        let mut marks = std::mem::take(&mut self.marks);
        if (self.rows, self.cols) == (rows, cols) {
            marks.fill(Mark::None);
        } else {
            marks = vec![Mark::None; rows * cols * SLOTS];
        }
        *self = Self {
            rows,
            cols,
            marks,
            id: NEXT_VIEW_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            ..Self::default()
        };
    }

    /// Whether the marks show nothing and fit a picture of `dims` (rows, columns).
    pub fn is_blank_for(&self, dims: (usize, usize)) -> bool {
        (self.rows, self.cols) == dims
            && self.frontier_places == 0
            && self.closed_places == 0
            && self.current.is_none()
            && self.path.is_empty()
            && self.stats.expanded == 0
            && self.board.is_none()
            && self.samples.is_empty()
    }

    fn slot(&self, place: Place) -> Option<usize> {
        let Place { cell, side } = place;
        (cell.row < self.rows && cell.col < self.cols).then(|| {
            (cell.row * self.cols + cell.col) * SLOTS + side.map_or(SLOTS - 1, Side::index)
        })
    }

    /// The mark on `place` (none outside the grid).
    pub fn mark(&self, place: impl Into<Place>) -> Mark {
        self.slot(place.into())
            .map_or(Mark::None, |slot| self.marks[slot])
    }

    /// The marks on the four sides of `cell`, in the order of [`Side::ALL`].
    pub fn side_marks(&self, cell: Cell) -> [Mark; 4] {
        Side::ALL.map(|side| {
            self.mark(Place {
                cell,
                side: Some(side),
            })
        })
    }

    /// Rows and columns of the picture the marks are for.
    pub fn dims(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// Applies one change of a replayed recording (see [`crate::runs::recording::Change`]).
    pub fn replay(&mut self, place: Place, change: crate::runs::recording::Change) {
        use crate::runs::recording::Change;
        let mark = match change {
            Change::Close => Mark::Closed,
            Change::Open if self.mark(place) == Mark::None => Mark::Frontier,
            Change::Unclose { was_open: true } => Mark::Frontier,
            Change::Unclose { was_open: false } => Mark::None,
            Change::Unopen if self.mark(place) == Mark::Frontier => Mark::None,
            Change::Open | Change::Unopen => return,
        };
        self.set(place, mark);
    }

    /// The number of changes made since the marks were made (forgotten ones included).
    pub fn changes_end(&self) -> usize {
        self.changes_forgotten + self.changed.len()
    }

    /// The changes from number `from` on (see [`SearchMarks::changed`]); `None` if some of
    /// them were forgotten, or `from` is past the last.
    pub fn changes_since(&self, from: usize) -> Option<&[u32]> {
        self.changed
            .get(from.checked_sub(self.changes_forgotten)?..)
    }

    /// Records that a drawing of the marks `view_id` has shown its first `changes` changes
    /// (the canvas calls it after drawing; a drawing never writes into the marks). Ignored
    /// for other marks' drawing.
    pub fn note_drawn(&mut self, view_id: u64, changes: usize) {
        if view_id == self.id {
            self.changes_drawn = changes;
        }
    }

    /// Forgets the changes its drawing has shown ([`SearchMarks::changes_drawn`]): a replay
    /// going back and forth keeps only those not drawn yet, without redrawing anything.
    ///
    /// The changes drawn are dropped once they are half the list or more, so each frame's
    /// forgetting does not move the whole list (millions of changes after a long seek): the
    /// work is a constant amount per change.
    pub fn forget_drawn_changes(&mut self) {
        let drawn = self.changes_drawn.min(self.changes_end());
        if let Some(n) = drawn.checked_sub(self.changes_forgotten).filter(|&n| n > 0)
            && 2 * n >= self.changed.len()
        {
            self.changed.drain(..n);
            self.changes_forgotten = drawn;
        }
    }

    /// Starts the list of changes afresh as new marks (a new [`SearchMarks::id`]) whose
    /// changes are its marked squares: drawings redraw it whole. For a replay that went back
    /// and forth until its list of changes outgrew the picture, and for a new shading.
    ///
    /// The marked squares are listed by [`SearchMarks::rescan`] over the next frames, a part
    /// of the picture at a time, so no frame looks at every square; a change made meanwhile
    /// is listed as it happens as well (a square may be listed twice, which draws the same).
    pub fn restart_changes(&mut self) {
        self.whole = None;
        self.changed = Vec::new();
        self.rescan_from = Some(0);
        self.changes_forgotten = 0;
        self.changes_drawn = 0;
        self.id = NEXT_VIEW_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.revision += 1;
    }

    /// Lists the marked squares after [`SearchMarks::restart_changes`] as changes, from where
    /// the last call stopped, until `deadline` (a block of squares at least); returns whether
    /// every square is looked at.
    pub fn rescan(&mut self, deadline: Option<std::time::Instant>) -> bool {
        /// Squares looked at between two looks at the clock.
        const BLOCK: usize = 1 << 16;
        let squares = self.rows * self.cols;
        while let Some(from) = self.rescan_from {
            let to = (from + BLOCK).min(squares);
            let marks = self.marks.get(from * SLOTS..to * SLOTS).unwrap_or_default();
            self.changed.extend(
                (marks.chunks_exact(SLOTS).enumerate())
                    .filter(|(_, slots)| slots.iter().any(|&m| m != Mark::None))
                    .map(|(i, _)| (from + i) as u32),
            );
            self.rescan_from = (to < squares).then_some(to);
            if to < squares {
                self.revision += 1;
            }
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                break;
            }
        }
        self.rescan_from.is_none()
    }

    /// Starts setting the marks whole to the end state of `recording` (a finished run's, every
    /// chunk in): a new [`SearchMarks::id`] with no changes, and the end's coarse picture, one
    /// square looked at in each block of at most [`COARSE_BLOCKS`] (work that does not grow
    /// with the grid). [`SearchMarks::set_whole_rows`] then sets the rows from the top. For a
    /// jump over more expansions than the picture has squares: replaying them would write
    /// each square's marks several times over, frame after frame.
    pub fn begin_whole(&mut self, recording: &crate::runs::recording::TraceRecorder) {
        let (rows, cols) = (self.rows, self.cols);
        let mut block = 1;
        while rows.div_ceil(block) * cols.div_ceil(block) > COARSE_BLOCKS {
            block *= 2;
        }
        let coarse = (0..rows.div_ceil(block))
            .flat_map(|by| (0..cols.div_ceil(block)).map(move |bx| (by * block, bx * block)))
            .map(|(r, c)| match recording.reached_square(r, c) {
                Some(true) => Mark::Closed,
                Some(false) => Mark::Frontier,
                None => Mark::None,
            })
            .collect();
        self.rescan_from = None;
        self.changed = Vec::new();
        self.changes_forgotten = 0;
        self.changes_drawn = 0;
        // The state expanded and the depth-first path of the moment left are not the end's.
        self.current = None;
        self.path.clear();
        self.id = NEXT_VIEW_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.revision += 1;
        self.whole = Some(Whole {
            rows: 0,
            block,
            coarse: std::sync::Arc::new(coarse),
        });
    }

    /// Whether the marks are being set whole and some rows are not set yet.
    pub fn is_setting_whole(&self) -> bool {
        self.whole.as_ref().is_some_and(|w| w.rows < self.rows)
    }

    /// Sets the next rows of marks being set whole (see [`SearchMarks::begin_whole`]) to
    /// `recording`'s end state, up to row `to`: their places' marks and the counts, no
    /// change listed (drawings draw the rows set). Work proportional to the rows' squares.
    pub fn set_whole_rows(&mut self, recording: &crate::runs::recording::TraceRecorder, to: usize) {
        let Some(from) = self.whole.as_ref().map(|w| w.rows) else {
            return;
        };
        let to = to.clamp(from, self.rows);
        let slots = from * self.cols * SLOTS..to * self.cols * SLOTS;
        for mark in &mut self.marks[slots] {
            match std::mem::take(mark) {
                Mark::Frontier => self.frontier_places -= 1,
                Mark::Closed => self.closed_places -= 1,
                Mark::None => {}
            }
        }
        let (cols, marks) = (self.cols, &mut self.marks);
        let (mut frontier, mut closed) = (0, 0);
        recording.reached_in_rows(from..to, |row, col, side, is_closed| {
            if col >= cols {
                return;
            }
            let slot = (row * cols + col) * SLOTS + side.map_or(SLOTS - 1, Side::index);
            if is_closed {
                marks[slot] = Mark::Closed;
                closed += 1;
            } else {
                marks[slot] = Mark::Frontier;
                frontier += 1;
            }
        });
        self.frontier_places += frontier;
        self.closed_places += closed;
        if let Some(whole) = &mut self.whole {
            whole.rows = to;
        }
        self.revision += 1;
    }

    /// Takes every mark off (a new [`SearchMarks::id`], no changes), keeping the statistics
    /// and plots: a replay starts from here.
    pub fn clear_marks(&mut self) {
        self.whole = None;
        self.rescan_from = None;
        self.marks.fill(Mark::None);
        self.frontier_places = 0;
        self.closed_places = 0;
        self.changed.clear();
        self.changes_forgotten = 0;
        self.changes_drawn = 0;
        self.id = NEXT_VIEW_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.revision += 1;
    }

    /// Whether the list of changes has grown past a few times the picture's squares (see
    /// [`SearchMarks::restart_changes`]): it does when nothing draws the marks, so nothing is
    /// forgotten.
    pub fn has_long_changes(&self) -> bool {
        let drawn = self.changes_drawn.saturating_sub(self.changes_forgotten);
        self.changed.len().saturating_sub(drawn) > 4 * self.rows * self.cols + 65_536
    }

    fn set(&mut self, place: Place, mark: Mark) {
        let Some(slot) = self.slot(place) else {
            return;
        };
        match self.marks[slot] {
            Mark::Frontier => self.frontier_places -= 1,
            Mark::Closed => self.closed_places -= 1,
            Mark::None => {}
        }
        if self.marks[slot] != mark {
            self.changed.push((slot / SLOTS) as u32);
        }
        self.marks[slot] = mark;
        match mark {
            Mark::Frontier => self.frontier_places += 1,
            Mark::Closed => self.closed_places += 1,
            Mark::None => {}
        }
    }

    /// Takes the plots' figures from a progress event: a sample of its statistics, the layers
    /// and the iterations. The marks and the statistics shown are not touched: they are the
    /// timeline's, at the position shown (see [`super::Track::seek`]).
    pub fn take_figures(&mut self, progress: &Progress) {
        self.revision += 1;
        let stats = &progress.stats;
        // The closed set: the states expanded, as a finished run's recording counts it (the
        // statistics' "States reached" adds the frontier's).
        self.samples.push([
            stats.expanded as f64,
            stats.frontier as f64,
            stats.expanded as f64,
        ]);
        if self.samples.len() > MAX_SAMPLES {
            let thinned = self.samples.iter().step_by(2).copied().collect();
            self.samples = thinned;
        }
        self.layers.clone_from(&progress.layers);
        self.iteration_nodes.clone_from(&progress.iteration_nodes);
        self.unrecorded |= progress.unrecorded;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::Cell;
    use crate::runs::recording::Change;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The marked squares listed a block at a time after a restart (with changes made
    /// meanwhile) are the squares a plain scan of the marks finds, under a new id.
    #[test]
    fn a_restart_lists_the_marked_squares_over_several_calls() {
        let mut rng = StdRng::seed_from_u64(3);
        let (rows, cols) = (700, 500);
        let mut marks = SearchMarks::with_dims(rows, cols);
        let mut mark_some = |marks: &mut SearchMarks, n: usize| {
            for _ in 0..n {
                let cell = Cell::new(rng.random_range(0..rows), rng.random_range(0..cols));
                let change = if rng.random_bool(0.5) {
                    Change::Open
                } else {
                    Change::Close
                };
                marks.replay(Place::from(cell), change);
            }
        };
        mark_some(&mut marks, 50_000);
        let id = marks.id;
        marks.restart_changes();
        assert_ne!(marks.id, id);
        let mut calls = 0;
        while !marks.rescan(Some(std::time::Instant::now())) {
            calls += 1;
            mark_some(&mut marks, 100);
        }
        assert!(calls >= 5, "{calls} calls for {} squares", rows * cols);
        let mut listed: Vec<u32> = marks.changed.clone();
        listed.sort_unstable();
        listed.dedup();
        let plain: Vec<u32> = (0..rows * cols)
            .filter(|&i| (0..SLOTS).any(|s| marks.marks[i * SLOTS + s] != Mark::None))
            .map(|i| i as u32)
            .collect();
        assert_eq!(listed, plain);
        assert!(marks.rescan(None), "nothing more to list");
    }
}
