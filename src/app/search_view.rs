//! What the canvas shows of a search: each place's mark (frontier or closed), the state being
//! expanded, the depth-first path, and the statistics so far.
//!
//! The marks come from one source only: the run's recording, replayed by its
//! [`super::Track`] to the position shown (the live run's head, or a moment scrubbed back
//! to). Progress events add only the search's own figures ([`SearchView::take_figures`]).

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
pub struct SearchView {
    rows: usize,
    cols: usize,
    /// `marks[(row * cols + col) * 5 + slot]`, slot 4 for the square, 0-3 for its sides in
    /// the order of [`Side::ALL`].
    marks: Vec<Mark>,
    /// Places marked [`Mark::Frontier`] now.
    pub frontier_places: usize,
    /// Places marked [`Mark::Closed`] now.
    pub closed_places: usize,
    /// [`SearchView::frontier_places`] at the last position the replay arrived at (it moves
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
    /// Counts the changes to what the view shows, so drawings of it can be cached.
    pub revision: u64,
    /// Identifies this view among all made (a new run makes a new view), so a drawing
    /// updated from [`SearchView::changed`] knows it follows the same view.
    pub id: u64,
    /// The squares (row-major index) whose marks changed, in order, since the view was made,
    /// less the first [`SearchView::changes_forgotten`]: `changed[k]` is change number
    /// `changes_forgotten + k`. A drawing that has shown the first `n` changes redraws only
    /// those after (see [`SearchView::changes_since`]). In a run each square's mark changes at
    /// most twice (none, frontier, closed); a replay that goes back and forth adds more, and
    /// forgets those drawn ([`SearchView::forget_drawn_changes`]).
    pub changed: Vec<u32>,
    /// How many of the first changes were forgotten once drawn.
    pub changes_forgotten: usize,
    /// How many changes the drawing of this view has shown, as the canvas last said after
    /// drawing ([`SearchView::note_drawn`]): those may be forgotten.
    pub changes_drawn: usize,
    /// A colouring of the marks by square (a heat map, or the marks off a branch dimmed), set
    /// by the timeline.
    pub shade: Option<std::sync::Arc<Shade>>,
    /// The branch of the search tree drawn over the marks (the pinned state's path from a
    /// start), start first.
    pub branch: Vec<Place>,
}

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

/// The next [`SearchView::id`].
static NEXT_VIEW_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The most samples kept for the plots.
pub const MAX_SAMPLES: usize = 4096;

impl SearchView {
    /// An empty view sized for `puzzle`.
    pub fn for_puzzle(puzzle: &dyn Puzzle) -> Self {
        let (rows, cols) = puzzle.dims();
        Self::with_dims(rows, cols)
    }

    /// An empty view of a picture of `rows` x `cols` squares.
    pub fn with_dims(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            marks: vec![Mark::None; rows * cols * SLOTS],
            id: NEXT_VIEW_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            ..Self::default()
        }
    }

    /// Whether the view shows nothing and fits a picture of `dims` (rows, columns).
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

    /// Rows and columns of the picture the view is for.
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

    /// The number of changes made since the view was made (forgotten ones included).
    pub fn changes_end(&self) -> usize {
        self.changes_forgotten + self.changed.len()
    }

    /// The changes from number `from` on (see [`SearchView::changed`]); `None` if some of
    /// them were forgotten, or `from` is past the last.
    pub fn changes_since(&self, from: usize) -> Option<&[u32]> {
        self.changed
            .get(from.checked_sub(self.changes_forgotten)?..)
    }

    /// Records that a drawing of the view `view_id` has shown its first `changes` changes
    /// (the canvas calls it after drawing; a drawing never writes into the view). Ignored
    /// for another view's drawing.
    pub fn note_drawn(&mut self, view_id: u64, changes: usize) {
        if view_id == self.id {
            self.changes_drawn = changes;
        }
    }

    /// Forgets the changes its drawing has shown ([`SearchView::changes_drawn`]): a replay
    /// going back and forth keeps only those not drawn yet, without redrawing anything.
    pub fn forget_drawn_changes(&mut self) {
        let drawn = self.changes_drawn.min(self.changes_end());
        if let Some(n) = drawn.checked_sub(self.changes_forgotten).filter(|&n| n > 0) {
            self.changed.drain(..n);
            self.changes_forgotten = drawn;
        }
    }

    /// Starts the list of changes afresh as a new view (a new [`SearchView::id`]) whose
    /// changes are its marked squares: drawings redraw it whole. For a replay that went back
    /// and forth until its list of changes outgrew the picture, and for a new shading.
    pub fn restart_changes(&mut self) {
        let squares = self.rows * self.cols;
        self.changed = (0..squares)
            .filter(|&i| {
                self.marks[i * SLOTS..(i + 1) * SLOTS]
                    .iter()
                    .any(|&m| m != Mark::None)
            })
            .map(|i| i as u32)
            .collect();
        self.changes_forgotten = 0;
        self.changes_drawn = 0;
        self.id = NEXT_VIEW_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.revision += 1;
    }

    /// Takes every mark off (a new [`SearchView::id`], no changes), keeping the statistics
    /// and plots: a replay starts from here.
    pub fn clear_marks(&mut self) {
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
    /// [`SearchView::restart_changes`]): it does when nothing draws the view, so nothing is
    /// forgotten.
    pub fn has_long_changes(&self) -> bool {
        self.changed.len() > 4 * self.rows * self.cols + 65_536
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
        self.samples.push([
            stats.expanded as f64,
            stats.frontier as f64,
            stats.max_closed as f64,
        ]);
        if self.samples.len() > MAX_SAMPLES {
            let thinned = self.samples.iter().step_by(2).copied().collect();
            self.samples = thinned;
        }
        self.layers.clone_from(&progress.layers);
        self.iteration_nodes.clone_from(&progress.iteration_nodes);
    }
}
