//! Sam Loyd's "Back from the Klondike" (1898), as described in Jamis Buck's article
//! (`000_0293362bcdbcc458.txt`). Start on the centre square; a move goes exactly N squares in
//! one of the eight compass directions, where N is the digit on the square you stand on. Every
//! square passed over and landed on must be on the board, except that the last move may land
//! on a goal square just outside the ring. The published shortest solution has 9 moves
//! (sw sw ne ne ne sw sw sw nw, or ending se), and there are exactly two.
//!
//! Plain-text format (the article's `grid.txt`): one line per row, `_` off the board, `x` a
//! goal square, `1`-`9` a board square with its jump length. The start is the centre square
//! (row `rows / 2`, column `cols / 2`).
//!
//! JSON format: `{"type": "klondike", "version": 1, "grid": ["__x__", ...],
//! "start": {"row": 11, "col": 11}}` (`start` optional, default the centre).

pub mod commands;
pub mod generate;

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{
    Cell, FormatError, Picture, PuzzleType, Report, Square, Watcher, alphabet_score,
    check_rectangle, json_body, solve_on_places, text_rows,
};
use crate::search::{
    Algorithm, CancelToken, Cost, Interrupt, Outcome, Problem, ProblemFacts, SearchError, Successor,
};

/// The registry entry of the Klondike puzzle.
pub static TYPE: PuzzleType = PuzzleType {
    name: "klondike",
    label: "Back from the Klondike",
    sniff: |text| alphabet_score(text, "_xX123456789"),
    text_hint: "`_` `x` digits",
    parse_text: |text| Ok(Box::new(Klondike::from_text(text)?)),
    from_json: |value| Ok(Box::new(Klondike::from_json(value)?)),
    json_version: 1,
    shipped: &[shipped!("klondike.txt")],
};

/// The largest side of a Klondike board.
pub const MAX_SIDE: usize = 1024;

/// One of the eight compass directions of a jump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compass {
    /// North (up).
    N,
    /// North-east.
    Ne,
    /// East (right).
    E,
    /// South-east.
    Se,
    /// South (down).
    S,
    /// South-west.
    Sw,
    /// West (left).
    W,
    /// North-west.
    Nw,
}

impl Compass {
    /// All eight directions, clockwise from north.
    pub const ALL: [Compass; 8] = [
        Compass::N,
        Compass::Ne,
        Compass::E,
        Compass::Se,
        Compass::S,
        Compass::Sw,
        Compass::W,
        Compass::Nw,
    ];

    /// (row, column) change of one square in this direction; rows grow southwards.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Compass::N => (-1, 0),
            Compass::Ne => (-1, 1),
            Compass::E => (0, 1),
            Compass::Se => (1, 1),
            Compass::S => (1, 0),
            Compass::Sw => (1, -1),
            Compass::W => (0, -1),
            Compass::Nw => (-1, -1),
        }
    }
}

impl fmt::Display for Compass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compass::N => "n",
            Compass::Ne => "ne",
            Compass::E => "e",
            Compass::Se => "se",
            Compass::S => "s",
            Compass::Sw => "sw",
            Compass::W => "w",
            Compass::Nw => "nw",
        })
    }
}

/// A square of the Klondike grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// Off the board (`_`).
    Off,
    /// A goal square outside the ring (`x`).
    Goal,
    /// A board square with its jump length, 1 to 9.
    Jump(u8),
}

/// A Klondike board: a grid of [`Spot`]s and the start square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Klondike {
    rows: usize,
    cols: usize,
    /// `spots[row * cols + col]`.
    spots: Vec<Spot>,
    start: Cell,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KlondikeJson {
    #[serde(rename = "type")]
    puzzle_type: String,
    version: u32,
    grid: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<Cell>,
}

impl Klondike {
    /// Parses the article's `grid.txt` format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] with the line and column of an unknown character, the line of a ragged
    /// row, for an empty or oversized grid, or when the centre square is not a board square.
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        Self::from_rows(&text_rows(text), None)
    }

    fn from_rows(rows: &[(usize, &str)], start: Option<Cell>) -> Result<Self, FormatError> {
        let (height, width) = check_rectangle(rows, MAX_SIDE)?;
        let mut spots = Vec::with_capacity(height * width);
        for &(line, row) in rows {
            for (c, ch) in row.chars().enumerate() {
                spots.push(match ch {
                    '_' => Spot::Off,
                    'x' | 'X' => Spot::Goal,
                    '1'..='9' => Spot::Jump(ch as u8 - b'0'),
                    other => {
                        return Err(FormatError::at(
                            line,
                            Some(c + 1),
                            format!("unknown character {other:?} (use _ x 1-9)"),
                        ));
                    }
                });
            }
        }
        let start = start.unwrap_or(Cell::new(height / 2, width / 2));
        let puzzle = Self {
            rows: height,
            cols: width,
            spots,
            start,
        };
        match puzzle.spot(start) {
            Some(Spot::Jump(_)) => Ok(puzzle),
            _ => Err(FormatError::new(format!(
                "the start square {start} is not a board square with a digit"
            ))),
        }
    }

    /// Reads the JSON format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] for a JSON object of the wrong shape, or a grid as in
    /// [`Klondike::from_text`].
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: KlondikeJson = json_body(value)?;
        let rows: Vec<(usize, &str)> = body
            .grid
            .iter()
            .enumerate()
            .map(|(i, r)| (i + 1, r.as_str()))
            .collect();
        Self::from_rows(&rows, body.start).map_err(|e| FormatError {
            field: Some("grid".into()),
            ..e
        })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The start square.
    pub fn start(&self) -> Cell {
        self.start
    }

    /// The spot at `cell`, or `None` outside the grid.
    pub fn spot(&self, cell: Cell) -> Option<Spot> {
        (cell.row < self.rows && cell.col < self.cols).then(|| self.spots[self.index(cell)])
    }

    fn index(&self, cell: Cell) -> usize {
        cell.row * self.cols + cell.col
    }

    fn cell(&self, index: u32) -> Cell {
        let index = index as usize;
        Cell::new(index / self.cols, index % self.cols)
    }

    /// Where a jump from `from` in `dir` lands, if it is legal: every square passed over must
    /// be a board square, and the landing square a board or goal square.
    pub fn jump(&self, from: Cell, dir: Compass) -> Option<Cell> {
        let Some(Spot::Jump(n)) = self.spot(from) else {
            return None;
        };
        let (dr, dc) = dir.delta();
        let mut at = from;
        for step in 1..=n {
            at = Cell::new(
                at.row.checked_add_signed(dr)?,
                at.col.checked_add_signed(dc)?,
            );
            match self.spot(at)? {
                Spot::Jump(_) => {}
                Spot::Goal if step == n => {}
                Spot::Goal | Spot::Off => return None,
            }
        }
        Some(at)
    }

    /// Counts the shortest solutions by breadth-first search, counting for each square the
    /// number of shortest move sequences reaching it. Returns `(moves, count)`, or `None` when
    /// no goal can be reached. The article reports 9 moves and two solutions.
    pub fn count_shortest_solutions(&self) -> Option<(usize, u64)> {
        let n = self.spots.len();
        let mut depth = vec![usize::MAX; n];
        let mut ways = vec![0u64; n];
        let start = self.index(self.start);
        depth[start] = 0;
        ways[start] = 1;
        let mut layer = vec![start];
        let mut d = 0;
        while !layer.is_empty() {
            let goals: u64 = layer
                .iter()
                .filter(|&&i| self.spots[i] == Spot::Goal)
                .map(|&i| ways[i])
                .sum();
            if goals > 0 {
                return Some((d, goals));
            }
            let mut next = Vec::new();
            for &i in &layer {
                for dir in Compass::ALL {
                    let Some(to) = self.jump(self.cell(i as u32), dir) else {
                        continue;
                    };
                    let j = self.index(to);
                    if depth[j] == usize::MAX {
                        depth[j] = d + 1;
                        next.push(j);
                    }
                    if depth[j] == d + 1 {
                        ways[j] = ways[j].saturating_add(ways[i]);
                    }
                }
            }
            layer = next;
            d += 1;
        }
        None
    }

    fn grid_strings(&self) -> Vec<String> {
        self.spots
            .chunks(self.cols)
            .map(|row| {
                row.iter()
                    .map(|s| match s {
                        Spot::Off => '_',
                        Spot::Goal => 'x',
                        Spot::Jump(n) => char::from(b'0' + n),
                    })
                    .collect()
            })
            .collect()
    }
}

impl Problem for Klondike {
    /// The index `row * cols + col` of the square reached.
    type State = u32;
    type Move = Compass;

    fn start_states(&self) -> Vec<u32> {
        vec![self.index(self.start) as u32]
    }

    fn is_goal(&self, state: &u32) -> Result<bool, Interrupt> {
        Ok(self.spots[*state as usize] == Spot::Goal)
    }

    fn successors(
        &self,
        state: &u32,
        out: &mut Vec<Successor<u32, Compass>>,
    ) -> Result<(), Interrupt> {
        let from = self.cell(*state);
        for dir in Compass::ALL {
            if let Some(to) = self.jump(from, dir) {
                out.push(Successor {
                    state: self.index(to) as u32,
                    mv: dir,
                    cost: 1.0,
                });
            }
        }
        Ok(())
    }

    /// `ceil(d / 9)` where `d` is the Chebyshev distance to the nearest goal square: a jump
    /// moves at most 9 squares, so this never overestimates, and it changes by at most 1 per
    /// move, so it is consistent.
    fn heuristic(&self, state: &u32) -> Result<Cost, Interrupt> {
        let here = self.cell(*state);
        let nearest = self
            .spots
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == Spot::Goal)
            .map(|(i, _)| {
                let goal = self.cell(i as u32);
                here.row.abs_diff(goal.row).max(here.col.abs_diff(goal.col))
            })
            .min()
            .unwrap_or(0);
        Ok(nearest.div_ceil(9) as Cost)
    }

    fn facts(&self) -> ProblemFacts {
        ProblemFacts::with_heuristic()
    }
}

impl super::oracle::Explorable for Klondike {
    fn same_rules(&self, other: &Self) -> bool {
        (self.rows, self.cols, &self.spots) == (other.rows, other.cols, &other.spots)
    }

    fn at_state(&self, state: &u32) -> Self {
        Klondike {
            start: self.cell(*state),
            ..self.clone()
        }
    }

    fn place_of_state(&self, state: &u32) -> Option<super::Place> {
        Some(self.cell(*state).into())
    }

    fn state_at_cell(&self, cell: Cell) -> Option<u32> {
        self.spot(cell).map(|_| self.index(cell) as u32)
    }

    fn metric_name(&self) -> String {
        "jumps".into()
    }
}

impl crate::puzzles::Model for Klondike {
    const TYPE: &'static PuzzleType = &TYPE;

    fn picture(&self) -> Picture {
        let squares = self
            .spots
            .iter()
            .map(|s| match s {
                Spot::Off => Square::Void,
                Spot::Goal => Square::Goal,
                Spot::Jump(n) => Square::Number(*n),
            })
            .collect();
        Picture {
            rows: self.rows,
            cols: self.cols,
            squares,
            start: Some(self.start),
            board: false,
            goal_area: Vec::new(),
        }
    }

    fn heuristic_name(&self) -> String {
        "⌈Chebyshev distance to the ring ÷ 9⌉".into()
    }

    fn default_algorithm(&self) -> Algorithm {
        Algorithm::Bfs
    }

    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        let mut report = solve_on_places(self, &TYPE, algorithm, watcher, cancel, |s| {
            self.cell(*s).into()
        })?;
        if report.outcome != Outcome::Cancelled
            && let Some((moves, count)) = self.count_shortest_solutions()
        {
            report
                .notes
                .push(shortest_solutions_note(count, moves as u64));
        }
        Ok(report)
    }

    /// Clicking a board square cycles its digit 1, 2, ..., 9, 1.
    fn stroke_value(&self, cell: Cell) -> Option<u8> {
        match self.spot(cell)? {
            Spot::Jump(n) => Some(n % 9 + 1),
            Spot::Off | Spot::Goal => None,
        }
    }

    fn paint(&mut self, cell: Cell, value: u8) -> bool {
        let Some(Spot::Jump(old)) = self.spot(cell) else {
            return false;
        };
        let value = value.clamp(1, 9);
        let i = self.index(cell);
        self.spots[i] = Spot::Jump(value);
        old != value
    }

    fn to_text(&self) -> String {
        let mut text = self.grid_strings().join("\n");
        text.push('\n');
        text
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!(KlondikeJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            grid: self.grid_strings(),
            start: Some(self.start),
        })
    }
}

/// The note on how many shortest solutions there are: "2 shortest solutions of 9 moves
/// exist", "1 shortest solution of 10 moves exists".
fn shortest_solutions_note(count: u64, moves: u64) -> String {
    let plural = |n: u64, word: &str| {
        if n == 1 {
            format!("1 {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    format!(
        "{} of {} exist{}",
        plural(count, "shortest solution"),
        plural(moves, "move"),
        if count == 1 { "s" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::shortest_solutions_note;

    #[test]
    fn the_count_of_shortest_solutions_agrees_with_its_verb() {
        assert_eq!(
            shortest_solutions_note(1, 10),
            "1 shortest solution of 10 moves exists"
        );
        assert_eq!(
            shortest_solutions_note(2, 9),
            "2 shortest solutions of 9 moves exist"
        );
        assert_eq!(
            shortest_solutions_note(3, 1),
            "3 shortest solutions of 1 move exist"
        );
    }
}
