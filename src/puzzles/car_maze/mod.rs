//! The car maze of Daniel Sobral's "A Puzzle" (2009, `004_d1cf9a46ddd0579a.txt`): a grid of
//! intersections where arrows say which way a car entering from one side may leave. A state is
//! (intersection, side entered from); a move drives out through an allowed side to the
//! neighbouring intersection, which it enters from the opposite side. The goal is to leave the
//! grid at a given position just outside it.
//!
//! Text format (the article's, extended): one line per row of intersections, separated by
//! commas. Each intersection is `OUTS: PATHS`: the sides a car may leave through (`U`, `D`, `L`,
//! `R`), then undirected edges, each two sides; every edge `XY` with `Y` among the outgoing
//! sides lets a car entering from `X` leave through `Y`. A one-way turn that this cannot say is
//! written `X>Y`. Optional lines `start: ROW COL SIDE` (the intersection the car enters and the
//! side it enters from; default `0 0 L`) and `exit: ROW COL` (a position just outside the grid;
//! default right of the last row). Rows and columns are 0-based from the top-left; lines
//! starting with `;` or `#` are comments.
//!
//! JSON format: `{"type": "car-maze", "version": 1, "rows": [["DR: DR", ...], ...],
//! "start": {"row": 1, "col": 0, "side": "left"}, "exit": {"row": 3, "col": 5}}`.

mod format;
mod puzzle;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Cell, FormatError, PuzzleType, Side, json_body};

use format::{CarMazeJson, StartJson, content_lines};

/// The registry entry of the car maze.
pub static TYPE: PuzzleType = PuzzleType {
    name: "car-maze",
    label: "Car maze",
    sniff: |text| {
        let rows: Vec<&str> = content_lines(text).map(|(_, l)| l).collect();
        let grid_rows = rows
            .iter()
            .filter(|l| !l.starts_with("start:") && !l.starts_with("exit:"))
            .count();
        let fitting = rows
            .iter()
            .filter(|l| {
                l.starts_with("start:")
                    || l.starts_with("exit:")
                    || (l.contains(':') && l.chars().all(|c| "UDLRudlr:, >".contains(c)))
            })
            .count();
        if grid_rows == 0 {
            0.0
        } else {
            fitting as f64 / rows.len() as f64
        }
    },
    text_hint: "`OUTS: PATHS` intersections",
    parse_text: |text| Ok(Box::new(CarMaze::from_text(text)?)),
    from_json: |value| Ok(Box::new(CarMaze::from_json(value)?)),
    json_version: 1,
    shipped: &[shipped!("car-maze.txt")],
};

/// The largest number of rows or columns of intersections.
pub const MAX_SIDE: usize = 256;

/// The bit of a turn set that lets a car entering from `from` leave through `to`.
pub fn turn_bit(from: Side, to: Side) -> u16 {
    1 << (from.index() * 4 + to.index())
}

/// A position on or just outside the grid: (row, column), which may be -1 or one past the end
/// for the exit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Spot {
    /// Row, from the top; -1 is just above the grid.
    pub row: i32,
    /// Column, from the left; -1 is just left of the grid.
    pub col: i32,
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// A state: the car at an intersection (or at the exit), having entered from `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CarState {
    /// Where the car is.
    pub at: Spot,
    /// The side of that intersection the car entered from.
    pub from: Side,
}

/// A move: drive out through side `heading` to the intersection `to`. Shown as the article
/// prints its answer: `right to (1,1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Drive {
    /// The direction driven.
    pub heading: Side,
    /// Where the car arrives.
    pub to: Spot,
}

impl fmt::Display for Drive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} to {}", self.heading.word(), self.to)
    }
}

/// A car maze: `rows x cols` intersections, each a set of allowed turns, a start and an exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarMaze {
    rows: usize,
    cols: usize,
    /// `turns[row * cols + col]`, bits as in [`turn_bit`].
    turns: Vec<u16>,
    start: CarState,
    exit: Spot,
    /// Where the car is when playing by hand (the start until a move is driven); searches
    /// start here.
    position: CarState,
    /// Positions before each move driven by hand, newest last.
    driven: Vec<CarState>,
}

impl CarMaze {
    /// Number of rows of intersections.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns of intersections.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Where the car starts, and the side it enters from.
    pub fn start(&self) -> CarState {
        self.start
    }

    /// Where the car is when playing by hand, and the side it entered from.
    pub fn position(&self) -> CarState {
        self.position
    }

    /// The number of moves driven by hand since the start (undone ones not counted).
    pub fn moves_driven(&self) -> usize {
        self.driven.len()
    }

    /// Drives the car by hand from its position out through `heading`, if that turn is
    /// allowed. Returns whether it moved.
    pub fn drive_by_hand(&mut self, heading: Side) -> bool {
        let Some(next) = self.drive(self.position, heading) else {
            return false;
        };
        self.driven
            .push(std::mem::replace(&mut self.position, next));
        true
    }

    /// Drives the car toward picture square `cell` if it is next to the car's square.
    /// Returns whether it moved.
    pub fn drive_toward(&mut self, cell: Cell) -> bool {
        let here = Self::picture_cell(self.position.at);
        let heading = Side::ALL.into_iter().find(|s| {
            let (dr, dc) = s.delta();
            here.row.checked_add_signed(dr) == Some(cell.row)
                && here.col.checked_add_signed(dc) == Some(cell.col)
        });
        heading.is_some_and(|h| self.drive_by_hand(h))
    }

    /// Takes back the last move driven by hand. Returns whether there was one.
    pub fn undo_drive(&mut self) -> bool {
        let Some(previous) = self.driven.pop() else {
            return false;
        };
        self.position = previous;
        true
    }

    /// Puts the car back at the start.
    pub fn reset_drive(&mut self) {
        self.position = self.start;
        self.driven.clear();
    }

    /// Whether the car has reached the exit.
    pub fn is_solved(&self) -> bool {
        self.position.at == self.exit
    }

    /// The position just outside the grid the car must reach.
    pub fn exit(&self) -> Spot {
        self.exit
    }

    fn inside(&self, at: Spot) -> bool {
        at.row >= 0 && at.col >= 0 && (at.row as usize) < self.rows && (at.col as usize) < self.cols
    }

    fn just_outside(&self, at: Spot) -> bool {
        let (r, c) = (at.row, at.col);
        let (rows, cols) = (self.rows as i32, self.cols as i32);
        let row_in = (0..rows).contains(&r);
        let col_in = (0..cols).contains(&c);
        (row_in && (c == -1 || c == cols)) || (col_in && (r == -1 || r == rows))
    }

    /// The turns allowed at the intersection at `cell` (0 outside the grid); bits as in
    /// [`turn_bit`].
    pub fn turns(&self, cell: Cell) -> u16 {
        if cell.row < self.rows && cell.col < self.cols {
            self.turns[cell.row * self.cols + cell.col]
        } else {
            0
        }
    }

    /// Replaces the turns of the intersection at `cell`. Returns whether anything changed.
    pub fn set_turns(&mut self, cell: Cell, turns: u16) -> bool {
        if cell.row >= self.rows || cell.col >= self.cols {
            return false;
        }
        let slot = &mut self.turns[cell.row * self.cols + cell.col];
        // A turn back out through the side it came in is not a turn.
        let turns = Side::ALL
            .into_iter()
            .fold(turns, |t, s| t & !turn_bit(s, s));
        let changed = *slot != turns;
        *slot = turns;
        changed
    }

    /// Where the car goes from `state` by leaving through `heading`, if the turn is allowed
    /// and it stays on the grid or reaches the exit.
    pub fn drive(&self, state: CarState, heading: Side) -> Option<CarState> {
        if !self.inside(state.at) {
            return None;
        }
        let cell = Cell::new(state.at.row as usize, state.at.col as usize);
        if self.turns(cell) & turn_bit(state.from, heading) == 0 {
            return None;
        }
        let (dr, dc) = heading.delta();
        let at = Spot {
            row: state.at.row + dr as i32,
            col: state.at.col + dc as i32,
        };
        (self.inside(at) || at == self.exit).then_some(CarState {
            at,
            from: heading.opposite(),
        })
    }

    /// The square of the picture showing `at` (the picture has a border of one square).
    fn picture_cell(at: Spot) -> Cell {
        Cell::new((at.row + 1) as usize, (at.col + 1) as usize)
    }

    /// The intersection shown at picture square `cell`, if any.
    pub fn intersection_at(&self, cell: Cell) -> Option<Cell> {
        let inner = Cell::new(cell.row.checked_sub(1)?, cell.col.checked_sub(1)?);
        (inner.row < self.rows && inner.col < self.cols).then_some(inner)
    }
}

#[cfg(test)]
mod tests {
    use super::format::{parse_intersection, write_intersection};
    use super::*;

    #[test]
    fn the_articles_edge_rule() {
        // "RLD: RD LD": leave right when entering from below; leave left when entering from
        // below; leave down when entering from the right or the left.
        let turns = parse_intersection("RLD: RD LD", 1, "x").unwrap();
        let expected = turn_bit(Side::Down, Side::Right)
            | turn_bit(Side::Down, Side::Left)
            | turn_bit(Side::Right, Side::Down)
            | turn_bit(Side::Left, Side::Down);
        assert_eq!(turns, expected);
    }

    #[test]
    fn every_turn_set_round_trips_through_text() {
        for turns in 0..=u16::MAX {
            let clean = Side::ALL
                .into_iter()
                .fold(turns, |t, s| t & !turn_bit(s, s));
            if clean != turns {
                continue;
            }
            let text = write_intersection(turns);
            assert_eq!(parse_intersection(&text, 1, "x"), Ok(turns), "{text}");
        }
    }
}
