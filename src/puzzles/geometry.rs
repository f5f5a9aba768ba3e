//! Where things are on a puzzle's picture: a [`Cell`] (row, column; origin at the top-left,
//! rows growing downwards), a [`Side`] of a square, and a [`Place`] (a square, or one of its
//! sides).

use super::*;

/// A square of a grid: (row, column), 0-based, row 0 at the top, column 0 at the left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// Row, counted from the top.
    pub row: usize,
    /// Column, counted from the left.
    pub col: usize,
}

impl Cell {
    /// The cell at `row`, `col`.
    pub const fn new(row: usize, col: usize) -> Self {
        Self { row, col }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// A side of a square, also a direction of travel on the grid (up is towards row 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The top side; travelling up (towards row 0).
    Up,
    /// The bottom side; travelling down.
    Down,
    /// The left side; travelling left (towards column 0).
    Left,
    /// The right side; travelling right.
    Right,
}

impl Side {
    /// All four sides.
    pub const ALL: [Side; 4] = [Side::Up, Side::Down, Side::Left, Side::Right];

    /// The side across the square.
    pub fn opposite(self) -> Side {
        match self {
            Side::Up => Side::Down,
            Side::Down => Side::Up,
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    /// (row, column) change of one step in this direction.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Side::Up => (-1, 0),
            Side::Down => (1, 0),
            Side::Left => (0, -1),
            Side::Right => (0, 1),
        }
    }

    /// Position in [`Side::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter name: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Side::Up => 'U',
            Side::Down => 'D',
            Side::Left => 'L',
            Side::Right => 'R',
        }
    }

    /// Reads a one-letter name, either case.
    pub fn from_letter(c: char) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|s| s.letter() == c.to_ascii_uppercase())
    }

    /// The lower-case word: `up`, `down`, `left` or `right`.
    pub fn word(self) -> &'static str {
        match self {
            Side::Up => "up",
            Side::Down => "down",
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// Where the canvas shows a state: a square of the puzzle's picture and, for puzzles whose
/// states are (square, side entered from), that side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Place {
    /// The square.
    #[serde(flatten)]
    pub cell: Cell,
    /// The side of the square the state is about, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
}

impl From<Cell> for Place {
    fn from(cell: Cell) -> Self {
        Self { cell, side: None }
    }
}
