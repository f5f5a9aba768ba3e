//! Editing a Klotski board: the shapes of pieces to place (`Shape`), the editor's tools (`Tool`), resizing and clearing, and why an edit is refused (`EditError`).

use super::super::{Cell, FormatError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::*;

/// The piece shapes the editor places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Shape {
    /// One cell.
    Single,
    /// Two cells side by side (1 row, 2 columns).
    Wide,
    /// Two cells one above the other (2 rows, 1 column).
    Tall,
    /// Four cells in a square (2 x 2).
    Big,
}

impl Shape {
    /// All shapes, smallest first.
    pub const ALL: [Shape; 4] = [Shape::Single, Shape::Wide, Shape::Tall, Shape::Big];

    /// (rows, columns) of the shape.
    pub fn size(self) -> (usize, usize) {
        match self {
            Shape::Single => (1, 1),
            Shape::Wide => (1, 2),
            Shape::Tall => (2, 1),
            Shape::Big => (2, 2),
        }
    }

    /// The label the editor shows: `1x1`, `1x2`, `2x1`, `2x2` (rows x columns).
    pub fn label(self) -> &'static str {
        match self {
            Shape::Single => "1x1",
            Shape::Wide => "1x2",
            Shape::Tall => "2x1",
            Shape::Big => "2x2",
        }
    }
}

/// What a click on the board does in the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tool {
    /// Places a new piece of this shape with its top-left cell on the clicked cell.
    Place(Shape),
    /// Removes the piece covering the clicked cell (not the target).
    Remove,
    /// Makes the piece covering the clicked cell the target.
    Target,
    /// Puts the target's goal anchor on the clicked cell.
    Goal,
}

/// Why an edit of the layout was refused. The layout is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// A new piece would leave the board or cover another piece.
    #[error(
        "a {shape} piece at {cell} does not fit: it would leave the board or cover another piece"
    )]
    DoesNotFit {
        /// The shape's label, as in [`Shape::label`].
        shape: &'static str,
        /// The clicked cell.
        cell: Cell,
    },
    /// The board holds as many pieces as a state can pack.
    #[error("the board already holds {MAX_PIECES} pieces, the most supported")]
    TooManyPieces,
    /// No piece covers the clicked cell.
    #[error("no piece covers {0}")]
    NoPiece(Cell),
    /// The target cannot be removed.
    #[error("the target cannot be removed: make another piece the target first")]
    RemoveTarget,
    /// The target does not fit with its anchor at that cell.
    #[error("the target does not fit on the board with its top-left cell at {0}")]
    GoalDoesNotFit(Cell),
    /// The layout would not be valid (a board size out of range, the target cut off).
    #[error("{0}")]
    Invalid(String),
}

impl Klotski {
    /// Applies an editor tool at `cell` (0-based row and column from the top-left). The
    /// position on the board becomes the layout's starting position (undo history is cleared).
    ///
    /// # Errors
    /// [`EditError`] when the edit is not possible; the layout is left unchanged.
    pub fn apply_tool(&mut self, tool: Tool, cell: Cell) -> Result<(), EditError> {
        let mut cells = self.to_layout_cells();
        let mut target = self.pieces[self.target].letter;
        let mut goal = self.goal;
        match tool {
            Tool::Place(shape) => {
                let (h, w) = shape.size();
                let covered: Vec<Cell> = (0..h)
                    .flat_map(|dr| (0..w).map(move |dc| Cell::new(cell.row + dr, cell.col + dc)))
                    .collect();
                let fits = covered
                    .iter()
                    .all(|c| c.row < self.rows && c.col < self.cols && self.slot_at(*c).is_none());
                if !fits {
                    return Err(EditError::DoesNotFit {
                        shape: shape.label(),
                        cell,
                    });
                }
                if cells.len() >= MAX_PIECES {
                    return Err(EditError::TooManyPieces);
                }
                let letter = ('a'..='z')
                    .chain('A'..='Z')
                    .find(|l| !cells.contains_key(l))
                    .ok_or(EditError::TooManyPieces)?;
                cells.insert(letter, covered);
            }
            Tool::Remove => {
                let letter = self.piece_at(cell).ok_or(EditError::NoPiece(cell))?;
                if letter == target {
                    return Err(EditError::RemoveTarget);
                }
                cells.remove(&letter);
            }
            Tool::Target => {
                let slot = self.slot_at(cell).ok_or(EditError::NoPiece(cell))?;
                target = self.pieces[slot].letter;
                if self.masks[slot][goal.row * self.cols + goal.col] == 0 {
                    goal = self.default_goal(slot);
                }
            }
            Tool::Goal => {
                let fits = cell.row < self.rows
                    && cell.col < self.cols
                    && self.masks[self.target][cell.row * self.cols + cell.col] != 0;
                if !fits {
                    return Err(EditError::GoalDoesNotFit(cell));
                }
                goal = cell;
            }
        }
        self.rebuild(self.rows, self.cols, cells, target, goal)
            .map_err(|e| EditError::Invalid(e.to_string()))
    }

    /// Changes the board to `rows x cols` (each 1 to [`MAX_SIDE`]), dropping the pieces that no
    /// longer fit wholly on it.
    ///
    /// # Errors
    /// [`EditError::Invalid`] for a size out of range or one that cuts the target off.
    pub fn resize(&mut self, rows: usize, cols: usize) -> Result<(), EditError> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(EditError::Invalid(format!(
                "a board is 1 to {MAX_SIDE} cells on each side, not {rows} x {cols}"
            )));
        }
        let mut cells = self.to_layout_cells();
        cells.retain(|_, cs| cs.iter().all(|c| c.row < rows && c.col < cols));
        let target = self.pieces[self.target].letter;
        if !cells.contains_key(&target) {
            return Err(EditError::Invalid(format!(
                "a {rows} x {cols} board cuts the target {target} off"
            )));
        }
        let mut goal = self.goal;
        let shape = &self.pieces[self.target].offsets;
        if goal.row >= rows
            || goal.col >= cols
            || piece_mask(shape, goal.row * cols + goal.col, rows, cols) == 0
        {
            goal = best_goal(shape, rows, cols);
        }
        self.rebuild(rows, cols, cells, target, goal)
            .map_err(|e| EditError::Invalid(e.to_string()))
    }

    /// Removes every piece but the target.
    ///
    /// # Errors
    /// None in practice (the target alone is a valid layout); an error leaves the layout as
    /// it was.
    pub fn clear_pieces(&mut self) -> Result<(), EditError> {
        let mut cells = self.to_layout_cells();
        let target = self.pieces[self.target].letter;
        cells.retain(|&l, _| l == target);
        self.rebuild(self.rows, self.cols, cells, target, self.goal)
            .map_err(|e| EditError::Invalid(e.to_string()))
    }

    /// A goal for piece `slot` as the target: its lowest anchor that fits, nearest the middle.
    fn default_goal(&self, slot: usize) -> Cell {
        best_goal(&self.pieces[slot].offsets, self.rows, self.cols)
    }

    fn rebuild(
        &mut self,
        rows: usize,
        cols: usize,
        cells: BTreeMap<char, Vec<Cell>>,
        target: char,
        goal: Cell,
    ) -> Result<(), FormatError> {
        let distinct = self
            .distinct_letters()
            .into_iter()
            .filter(|l| cells.contains_key(l))
            .collect();
        *self = Self::from_layout(Layout {
            rows,
            cols,
            cells,
            target: Some(target),
            goal: Some(goal),
            distinct,
            metric: self.metric,
        })?;
        Ok(())
    }
}

/// Whether `cells` (sorted) are orthogonally connected.
pub(super) fn is_connected(cells: &[Cell]) -> bool {
    if cells.is_empty() {
        return true;
    }
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for (j, c) in cells.iter().enumerate() {
            if !seen[j] && cells[i].row.abs_diff(c.row) + cells[i].col.abs_diff(c.col) == 1 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|s| *s)
}
