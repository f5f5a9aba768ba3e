//! Rush Hour (Nob Yoshigahara's traffic-jam puzzle, also sold as "Unblock Me"). An n x n
//! board (6 x 6 in the original) holds vehicles of length 2 or more, each lying along a row
//! (horizontal) or a column (vertical) and sliding only along it, and optionally fixed walls.
//! The red car `A` is horizontal and must reach the exit on the right edge of its row: the
//! puzzle is solved when its right end stands on the last column.
//!
//! Two move metrics: `moves` (a vehicle slides any distance through free cells = 1, as players
//! and Michael Fogleman's solver count; the default) and `steps` (one cell = 1).
//!
//! Plain-text format, as in Michael Fogleman's solver (<https://github.com/fogleman/rush>): one
//! row per line, `.` (or `o`) an empty cell, `x` a wall, capital letters vehicles, `A` the red
//! car. Lines starting with `;` are comments; an optional first line `metric: steps` picks the
//! metric.
//!
//! JSON format: `{"type": "rush-hour", "version": 1, "board": ["..B...", ...],
//! "metric": "moves"}` (`metric` optional).

mod edit;
mod hand;
mod puzzle;

pub use edit::EditError;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Cell, FormatError, Picture, Puzzle, PuzzleType, Square, json_body, text_rows};
use crate::search::Problem;

/// The registry entry of Rush Hour.
pub static TYPE: PuzzleType = PuzzleType {
    name: "rush-hour",
    label: "Rush Hour",
    sniff,
    text_hint: "`.` `o` `x` and letters, the red car `A`",
    parse_text: |text| Ok(Box::new(RushHour::from_text(text)?)),
    from_json: |value| Ok(Box::new(RushHour::from_json(value)?)),
    json_version: 1,
    shipped: &[
        shipped!("rush-hour-first.txt"),
        shipped!("rush-hour-fogleman-49.txt"),
        shipped!("rush-hour-walls.txt"),
    ],
};

/// The smallest and largest side of a board.
pub const MIN_SIDE: usize = 3;
/// See [`MIN_SIDE`].
pub const MAX_SIDE: usize = 10;

/// At most one vehicle per capital letter.
pub const MAX_VEHICLES: usize = 26;

/// A state: each vehicle's position along its axis (the column of a horizontal vehicle's left
/// end, the row of a vertical vehicle's top end), by vehicle index; unused entries are 0.
pub type RushState = [u8; MAX_VEHICLES];

/// How moves are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// A vehicle slides any distance = 1 move.
    #[default]
    Moves,
    /// A vehicle slides one cell = 1 move.
    Steps,
}

impl Metric {
    /// The command-line name: `moves` or `steps`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Moves => "moves",
            Metric::Steps => "steps",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(name: &str) -> Option<Metric> {
        [Metric::Moves, Metric::Steps]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// A vehicle: its letter, length and axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vehicle {
    /// Its letter (`A` the red car).
    pub letter: char,
    /// Its length in cells (2 or more).
    pub len: u8,
    /// Whether it lies along a row.
    pub horizontal: bool,
    /// The row of a horizontal vehicle, the column of a vertical one.
    pub line: u8,
}

/// A move: vehicle `letter` slides `by` cells (positive: right or down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    /// The vehicle's letter.
    pub letter: char,
    /// Whether the vehicle is horizontal.
    pub horizontal: bool,
    /// Cells moved: positive right or down, negative left or up.
    pub by: i8,
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match (self.horizontal, self.by > 0) {
            (true, true) => "right",
            (true, false) => "left",
            (false, true) => "down",
            (false, false) => "up",
        };
        write!(f, "{} {word} {}", self.letter, self.by.unsigned_abs())
    }
}

/// A Rush Hour board: its side, walls, vehicles (index 0 the red car) and their positions.
#[derive(Clone, Debug)]
pub struct RushHour {
    side: usize,
    /// Wall cells, row-major bit `row * side + col`.
    walls: u128,
    vehicles: Vec<Vehicle>,
    positions: RushState,
    metric: Metric,
    /// The slides played by hand ([`RushHour::slide`]): the board they started from and
    /// their count in the metric; kept only while the layout (side, walls, vehicles and
    /// metric) stays that board's.
    hand: Option<Box<hand::Hand>>,
}

/// Boards are equal when their layouts and positions are (the hand play's record aside).
impl PartialEq for RushHour {
    fn eq(&self, other: &Self) -> bool {
        (
            self.side,
            self.walls,
            &self.vehicles,
            self.positions,
            self.metric,
        ) == (
            other.side,
            other.walls,
            &other.vehicles,
            other.positions,
            other.metric,
        )
    }
}

impl Eq for RushHour {}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RushHourJson {
    #[serde(rename = "type")]
    puzzle_type: String,
    version: u32,
    board: Vec<String>,
    #[serde(default)]
    metric: Metric,
}

/// How much `text` looks like a Rush Hour board: 1 when every row is made of `.`, `o`, `x`
/// and capital letters and an `A` is among them (Klotski's files, which name a `target:`,
/// are not).
fn sniff(text: &str) -> f64 {
    let rows = text_rows(text);
    let board = rows
        .iter()
        .filter(|(_, row)| !row.trim_start().starts_with("metric:"));
    let mut has_a = false;
    for (_, row) in board {
        for c in row.chars() {
            has_a |= c == 'A';
            if !(c == '.' || c == 'o' || c == 'x' || c.is_ascii_uppercase()) {
                return 0.0;
            }
        }
    }
    if has_a && !rows.is_empty() { 1.0 } else { 0.0 }
}

impl RushHour {
    /// Parses the plain-text format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] with the line and column of an unknown character, a ragged row, a board
    /// that is not square or is out of range ([`MIN_SIDE`] to [`MAX_SIDE`]), a vehicle of
    /// length 1, a bent or diagonal vehicle, a letter used for two vehicles, a vertical `A`,
    /// or no `A`.
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        let mut metric = Metric::Moves;
        let mut rows = Vec::new();
        for (line, row) in text_rows(text) {
            if let Some(name) = row.trim_start().strip_prefix("metric:") {
                metric = Metric::from_name(name.trim()).ok_or_else(|| {
                    FormatError::at(line, None, "the metric is `moves` or `steps`")
                })?;
                continue;
            }
            rows.push((line, row));
        }
        Self::from_rows(&rows, metric)
    }

    /// Reads the JSON format (see the module docs).
    ///
    /// # Errors
    /// As [`RushHour::from_text`], the line counted within `board`.
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: RushHourJson = json_body(value)?;
        if body.board.len() > MAX_SIDE {
            return Err(FormatError::in_field(
                "board",
                format!("at most {MAX_SIDE} rows"),
            ));
        }
        let rows: Vec<(usize, &str)> = body
            .board
            .iter()
            .enumerate()
            .map(|(i, r)| (i + 1, r.as_str()))
            .collect();
        Self::from_rows(&rows, body.metric)
            .map_err(|e| FormatError::in_field("board", e.to_string()))
    }

    fn from_rows(rows: &[(usize, &str)], metric: Metric) -> Result<Self, FormatError> {
        let side = rows.len();
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
            return Err(FormatError::new(format!(
                "the board has {side} rows; boards are from {MIN_SIDE} x {MIN_SIDE} to \
                 {MAX_SIDE} x {MAX_SIDE}"
            )));
        }
        let mut walls = 0u128;
        // Each letter's cells, and the line of its first cell.
        let mut cells: Vec<(char, Vec<Cell>, usize)> = Vec::new();
        for (r, &(line, row)) in rows.iter().enumerate() {
            let width = row.chars().count();
            if width != side {
                return Err(FormatError::at(
                    line,
                    None,
                    format!("the row has {width} cells; the board is {side} x {side}"),
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '.' | 'o' => {}
                    'x' => walls |= 1 << (r * side + c),
                    'A'..='Z' => match cells.iter_mut().find(|(l, _, _)| *l == ch) {
                        Some((_, list, _)) => list.push(Cell::new(r, c)),
                        None => cells.push((ch, vec![Cell::new(r, c)], line)),
                    },
                    _ => {
                        return Err(FormatError::at(
                            line,
                            Some(c + 1),
                            format!(
                                "unexpected `{ch}`: use `.` empty, `x` wall, capital letters \
                                 for vehicles"
                            ),
                        ));
                    }
                }
            }
        }
        cells.sort_by_key(|(l, _, _)| *l);
        if cells.first().is_none_or(|(l, _, _)| *l != 'A') {
            return Err(FormatError::new("there is no red car `A`"));
        }
        let mut board = RushHour {
            side,
            walls,
            vehicles: Vec::new(),
            positions: [0; MAX_VEHICLES],
            metric,
            hand: None,
        };
        for (letter, list, line) in cells {
            let (vehicle, position) = vehicle_of(letter, &list)
                .map_err(|message| FormatError::at(line, Some(list[0].col + 1), message))?;
            if letter == 'A' && !vehicle.horizontal {
                return Err(FormatError::at(
                    line,
                    Some(list[0].col + 1),
                    "the red car `A` must be horizontal (it leaves to the right)",
                ));
            }
            board.positions[board.vehicles.len()] = position;
            board.vehicles.push(vehicle);
        }
        Ok(board)
    }

    /// An empty board of `side` x `side` with the red car at the left of the third row.
    ///
    /// # Errors
    /// [`EditError::Size`] outside [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub fn empty(side: usize) -> Result<Self, EditError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
            return Err(EditError::Size);
        }
        let red = Vehicle {
            letter: 'A',
            len: 2,
            horizontal: true,
            line: ((side - 1) / 2) as u8,
        };
        Ok(RushHour {
            side,
            walls: 0,
            vehicles: vec![red],
            positions: [0; MAX_VEHICLES],
            metric: Metric::Moves,
            hand: None,
        })
    }

    /// The board's side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The vehicles, the red car first.
    pub fn vehicles(&self) -> &[Vehicle] {
        &self.vehicles
    }

    /// The move metric.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Counts moves with `metric`.
    pub fn set_metric(&mut self, metric: Metric) {
        self.metric = metric;
    }

    /// Whether the red car stands at the exit.
    pub fn is_solved(&self) -> bool {
        self.is_goal(&self.positions) == Ok(true)
    }

    /// The cells of vehicle `i` at position `pos`.
    fn cells_at(&self, i: usize, pos: u8) -> impl Iterator<Item = Cell> + use<> {
        let v = self.vehicles[i];
        (0..v.len).map(move |k| {
            let along = usize::from(pos + k);
            if v.horizontal {
                Cell::new(usize::from(v.line), along)
            } else {
                Cell::new(along, usize::from(v.line))
            }
        })
    }

    fn bit(&self, cell: Cell) -> u128 {
        1 << (cell.row * self.side + cell.col)
    }

    /// The occupied cells (walls and vehicles) of `state`, as a bit set.
    fn occupied(&self, state: &RushState) -> u128 {
        let mut bits = self.walls;
        for (i, &pos) in state.iter().enumerate().take(self.vehicles.len()) {
            for cell in self.cells_at(i, pos) {
                bits |= self.bit(cell);
            }
        }
        bits
    }

    /// The vehicle covering `cell` now, if any.
    pub fn vehicle_at(&self, cell: Cell) -> Option<usize> {
        (0..self.vehicles.len()).find(|&i| self.cells_at(i, self.positions[i]).any(|c| c == cell))
    }

    /// Whether `cell` is a wall.
    pub fn is_wall(&self, cell: Cell) -> bool {
        cell.row < self.side && cell.col < self.side && self.walls & self.bit(cell) != 0
    }

    /// How far vehicle `i` can slide from `state` each way: (cells back, cells forward).
    fn room(&self, state: &RushState, occupied: u128, i: usize) -> (u8, u8) {
        let v = self.vehicles[i];
        let pos = usize::from(state[i]);
        let free = |along: usize| {
            let cell = if v.horizontal {
                Cell::new(usize::from(v.line), along)
            } else {
                Cell::new(along, usize::from(v.line))
            };
            occupied & self.bit(cell) == 0
        };
        let back = (0..pos).rev().take_while(|&a| free(a)).count();
        let end = pos + usize::from(v.len);
        let forward = (end..self.side).take_while(|&a| free(a)).count();
        (back as u8, forward as u8)
    }

    /// Slides vehicle `i` by `by` cells if the way is free. Returns whether it moved.
    pub fn slide(&mut self, i: usize, by: i8) -> bool {
        if i >= self.vehicles.len() || by == 0 {
            return false;
        }
        let (back, forward) = self.room(&self.positions, self.occupied(&self.positions), i);
        let fits = if by > 0 {
            by.unsigned_abs() <= forward
        } else {
            by.unsigned_abs() <= back
        };
        if fits {
            let origin = super::oracle::Explorable::at_origin(self);
            let played = self.moves_played_by_hand();
            self.positions[i] = self.positions[i].saturating_add_signed(by);
            let step = self.slide_cost(by.unsigned_abs());
            self.hand = Some(Box::new(hand::Hand {
                origin,
                played: played + step,
                stroke: None,
            }));
        }
        fits
    }

    /// The layout as text (see the module docs).
    fn board_rows(&self) -> Vec<String> {
        let picture = self.picture();
        picture
            .squares
            .chunks(self.side)
            .map(|row| {
                row.iter()
                    .map(|s| match s {
                        Square::Blocked => 'x',
                        Square::Piece { id, .. } => self.vehicles[usize::from(*id)].letter,
                        _ => '.',
                    })
                    .collect()
            })
            .collect()
    }

    fn picture_of(&self, state: &RushState) -> Picture {
        let n = self.side;
        let mut squares = vec![Square::Free; n * n];
        for (k, square) in squares.iter_mut().enumerate() {
            if self.walls & (1 << k) != 0 {
                *square = Square::Blocked;
            }
        }
        for (i, v) in self.vehicles.iter().enumerate() {
            for cell in self.cells_at(i, state[i]) {
                squares[cell.row * n + cell.col] = Square::Piece {
                    id: i as u8,
                    class: v.len,
                    target: i == 0,
                    letter: u8::try_from(v.letter).unwrap_or(0),
                };
            }
        }
        let red = self.vehicles[0];
        let goal_area = (n - usize::from(red.len)..n)
            .map(|c| Cell::new(usize::from(red.line), c))
            .collect();
        Picture {
            rows: n,
            cols: n,
            squares,
            start: None,
            board: false,
            goal_area,
        }
    }

    /// Vehicles standing between the red car and the exit in `state`, and walls there.
    fn blockers(&self, state: &RushState) -> usize {
        let red = self.vehicles[0];
        let from = usize::from(state[0] + red.len);
        let row = usize::from(red.line);
        let mut seen = 0u32;
        let mut walls = 0;
        for col in from..self.side {
            let cell = Cell::new(row, col);
            if self.walls & self.bit(cell) != 0 {
                walls += 1;
                continue;
            }
            for (i, &pos) in state.iter().enumerate().take(self.vehicles.len()).skip(1) {
                if self.cells_at(i, pos).any(|c| c == cell) {
                    seen |= 1 << i;
                }
            }
        }
        seen.count_ones() as usize + walls
    }
}

/// A vehicle from its letter's cells (row-major order), and its position along its line.
fn vehicle_of(letter: char, cells: &[Cell]) -> Result<(Vehicle, u8), String> {
    if cells.len() < 2 {
        return Err(format!(
            "vehicle `{letter}` has one cell; vehicles are 2 cells long or more"
        ));
    }
    let horizontal = cells.iter().all(|c| c.row == cells[0].row);
    let vertical = cells.iter().all(|c| c.col == cells[0].col);
    let straight =
        |along: &dyn Fn(&Cell) -> usize| cells.windows(2).all(|w| along(&w[1]) == along(&w[0]) + 1);
    let (line, pos) = if horizontal && straight(&|c| c.col) {
        (cells[0].row, cells[0].col)
    } else if vertical && straight(&|c| c.row) {
        (cells[0].col, cells[0].row)
    } else {
        return Err(format!(
            "vehicle `{letter}` is not one straight row or column of adjacent cells \
             (bent, diagonal, or the letter is used twice)"
        ));
    };
    let vehicle = Vehicle {
        letter,
        len: cells.len() as u8,
        horizontal,
        line: line as u8,
    };
    Ok((vehicle, pos as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Algorithm;
    use crate::search::{self, Outcome};

    #[test]
    fn a_blocked_red_car_leaves_after_its_blocker() {
        let board = RushHour::from_text("..B...\n..B...\nAAB...\n......\n......\n......\n")
            .expect("parses");
        let result = search::solve(&board, Algorithm::Bfs).expect("runs");
        assert_eq!(result.outcome, Outcome::Found);
        assert_eq!(result.cost, 2.0);
    }

    #[test]
    fn sliding_by_hand_follows_the_drag() {
        let mut board =
            RushHour::from_text("......\n......\nAA....\n......\n......\n......\n").unwrap();
        assert!(board.paint(Cell::new(2, 3), 0));
        assert_eq!(board.vehicle_at(Cell::new(2, 3)), Some(0));
        assert!(!board.paint(Cell::new(3, 3), 0), "off the car's row");
    }

    #[test]
    fn edits_place_rotate_grow_and_remove() {
        let mut board = RushHour::empty(6).unwrap();
        board.place(Cell::new(0, 3), 3, false).unwrap();
        assert_eq!(board.vehicles().len(), 2);
        assert_eq!(
            board.place(Cell::new(1, 3), 2, false),
            Err(EditError::NoRoom)
        );
        board.reshape_at(Cell::new(1, 3), true, 0).unwrap();
        assert!(board.vehicles()[1].horizontal);
        board.reshape_at(Cell::new(0, 3), false, -1).unwrap();
        assert_eq!(board.vehicles()[1].len, 2);
        board.toggle_wall(Cell::new(5, 5)).unwrap();
        assert!(board.is_wall(Cell::new(5, 5)));
        board.remove_at(Cell::new(0, 4)).unwrap();
        assert_eq!(board.vehicles().len(), 1);
        assert_eq!(board.remove_at(Cell::new(2, 0)), Err(EditError::RedCar));
        let again = RushHour::from_text(&board.to_text()).unwrap();
        assert_eq!(again, board);
    }
}
