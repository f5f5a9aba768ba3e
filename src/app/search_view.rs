//! What the canvas shows of a search: each square's mark (frontier or closed), the state being
//! expanded, the depth-first path, and the statistics so far.

use crate::puzzles::{Cell, Puzzle};
use crate::search::Stats;
use crate::solver::Progress;

/// The search's mark on a square.
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

/// The search as the canvas shows it, built from the solver's progress events.
#[derive(Clone, Debug, Default)]
pub struct SearchView {
    rows: usize,
    cols: usize,
    /// `marks[row * cols + col]`.
    marks: Vec<Mark>,
    /// Squares marked [`Mark::Frontier`] now.
    pub frontier_squares: usize,
    /// Squares marked [`Mark::Closed`] now.
    pub closed_squares: usize,
    /// The square of the state expanded last.
    pub current: Option<Cell>,
    /// The depth-first search's current path, start first.
    pub path: Vec<Cell>,
    /// Depth of the state expanded last.
    pub depth: u64,
    /// Statistics so far.
    pub stats: Stats,
}

impl SearchView {
    /// An empty view sized for `puzzle`.
    pub fn for_puzzle(puzzle: &dyn Puzzle) -> Self {
        let picture = puzzle.picture();
        Self {
            rows: picture.rows,
            cols: picture.cols,
            marks: vec![Mark::None; picture.rows * picture.cols],
            ..Self::default()
        }
    }

    /// The mark on `cell` (none outside the grid).
    pub fn mark(&self, cell: Cell) -> Mark {
        if cell.row < self.rows && cell.col < self.cols {
            self.marks[cell.row * self.cols + cell.col]
        } else {
            Mark::None
        }
    }

    fn set(&mut self, cell: Cell, mark: Mark) {
        if cell.row >= self.rows || cell.col >= self.cols {
            return;
        }
        let slot = &mut self.marks[cell.row * self.cols + cell.col];
        match *slot {
            Mark::Frontier => self.frontier_squares -= 1,
            Mark::Closed => self.closed_squares -= 1,
            Mark::None => {}
        }
        *slot = mark;
        match mark {
            Mark::Frontier => self.frontier_squares += 1,
            Mark::Closed => self.closed_squares += 1,
            Mark::None => {}
        }
    }

    /// Applies one progress event: expanded squares become closed, generated ones join the
    /// frontier unless already closed.
    pub fn apply(&mut self, progress: &Progress) {
        for &cell in &progress.expanded {
            self.set(cell, Mark::Closed);
        }
        for &cell in &progress.generated {
            if self.mark(cell) == Mark::None {
                self.set(cell, Mark::Frontier);
            }
        }
        self.current = progress.current.or(self.current);
        if let Some(path) = &progress.path {
            self.path.clone_from(path);
        }
        self.depth = progress.depth;
        self.stats = progress.stats.clone();
    }
}
