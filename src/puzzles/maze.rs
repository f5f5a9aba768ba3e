//! The grid maze of the "Solving Puzzles" article (`003_8abc547d8a6c7682.txt`): squares are
//! free or blocked, a path runs from a start square (top-left by default) to a goal square
//! (bottom-right by default) through free squares, moving up, down, left or right at cost 1.
//!
//! Plain-text format: one line per row, `#` blocked, `.` free, `S` start, `G` goal (each at
//! most once; missing ones default to the corners). Lines starting with `;` are comments.
//!
//! JSON format: `{"type": "maze", "version": 1, "rows": ["S.#", "..G"], ...}` where `rows` uses
//! the same characters as the text format.

use std::any::Any;
use std::fmt;

use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng as _};
use serde::{Deserialize, Serialize};

use super::{
    Cell, FormatError, Picture, Puzzle, PuzzleType, Report, Shipped, Square, Watcher,
    alphabet_score, applicable, check_rectangle, json_body, solve_on_places, text_rows,
};
use crate::search::{Algorithm, CancelToken, Cost, Problem, SearchError, Successor};

/// The registry entry of the grid maze.
pub static TYPE: PuzzleType = PuzzleType {
    name: "maze",
    label: "Grid maze",
    sniff: |text| alphabet_score(text, "#.SG"),
    parse_text: |text| Ok(Box::new(Maze::from_text(text)?)),
    from_json: |value| Ok(Box::new(Maze::from_json(value)?)),
    json_version: 1,
    shipped: &[
        Shipped {
            file: "maze-small.txt",
            text: include_str!("../../puzzles/maze-small.txt"),
        },
        Shipped {
            file: "maze-rooms.txt",
            text: include_str!("../../puzzles/maze-rooms.txt"),
        },
        Shipped {
            file: "maze-no-path.txt",
            text: include_str!("../../puzzles/maze-no-path.txt"),
        },
        Shipped {
            file: "maze-random-40.json",
            text: include_str!("../../puzzles/maze-random-40.json"),
        },
    ],
};

/// The smallest side of a maze.
pub const MIN_SIDE: usize = 2;
/// The largest side of a maze read from a file.
pub const MAX_SIDE: usize = 4096;
/// The largest side of a maze resized in the GUI.
pub const MAX_EDIT_SIDE: usize = 200;

/// A move in a maze: one square in a compass direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// One row down.
    Down,
    /// One column right.
    Right,
    /// One row up.
    Up,
    /// One column left.
    Left,
}

impl Dir {
    /// The order in which successors are generated: the article's backtracking order
    /// (down, right, up, left), which sends depth-first search towards the bottom-right goal.
    pub const ALL: [Dir; 4] = [Dir::Down, Dir::Right, Dir::Up, Dir::Left];

    fn delta(self) -> (isize, isize) {
        match self {
            Dir::Down => (1, 0),
            Dir::Right => (0, 1),
            Dir::Up => (-1, 0),
            Dir::Left => (0, -1),
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dir::Down => "down",
            Dir::Right => "right",
            Dir::Up => "up",
            Dir::Left => "left",
        })
    }
}

/// A grid maze: `rows x cols` squares, each free or blocked, with a start and a goal square
/// that are always free.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze {
    rows: usize,
    cols: usize,
    /// `blocked[row * cols + col]`.
    blocked: Vec<bool>,
    start: Cell,
    goal: Cell,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MazeJson {
    #[serde(rename = "type")]
    puzzle_type: String,
    version: u32,
    rows: Vec<String>,
}

impl Maze {
    /// An empty (all free) maze with the start at the top-left and the goal at the
    /// bottom-right. Sides are clamped to [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub fn new(rows: usize, cols: usize) -> Self {
        let rows = rows.clamp(MIN_SIDE, MAX_SIDE);
        let cols = cols.clamp(MIN_SIDE, MAX_SIDE);
        Self {
            rows,
            cols,
            blocked: vec![false; rows * cols],
            start: Cell::new(0, 0),
            goal: Cell::new(rows - 1, cols - 1),
        }
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

    /// The goal square.
    pub fn goal(&self) -> Cell {
        self.goal
    }

    fn index(&self, cell: Cell) -> usize {
        cell.row * self.cols + cell.col
    }

    fn cell(&self, index: u32) -> Cell {
        let index = index as usize;
        Cell::new(index / self.cols, index % self.cols)
    }

    fn contains(&self, cell: Cell) -> bool {
        cell.row < self.rows && cell.col < self.cols
    }

    /// Whether `cell` is blocked (cells outside the maze count as blocked).
    pub fn is_blocked(&self, cell: Cell) -> bool {
        !self.contains(cell) || self.blocked[self.index(cell)]
    }

    /// Blocks or frees `cell`. The start and goal squares stay free. Returns whether the maze
    /// changed.
    pub fn set_blocked(&mut self, cell: Cell, blocked: bool) -> bool {
        if !self.contains(cell) || cell == self.start || cell == self.goal {
            return false;
        }
        let i = self.index(cell);
        let changed = self.blocked[i] != blocked;
        self.blocked[i] = blocked;
        changed
    }

    /// Blocks each square other than the start and goal with probability `density`
    /// (0 to 1), drawing from a generator seeded with `seed`: the same seed gives the same maze.
    pub fn randomize(&mut self, density: f64, seed: u64) {
        let mut rng = StdRng::seed_from_u64(seed);
        let density = density.clamp(0.0, 1.0);
        for b in &mut self.blocked {
            *b = rng.random_bool(density);
        }
        self.keep_ends_free();
    }

    /// Inverts every square (the article's "revert"); the start and goal stay free.
    pub fn invert(&mut self) {
        for b in &mut self.blocked {
            *b = !*b;
        }
        self.keep_ends_free();
    }

    /// Frees every square.
    pub fn clear(&mut self) {
        self.blocked.fill(false);
    }

    /// Changes the size, keeping the squares that stay inside; a start or goal that falls
    /// outside moves back to its corner. Sides are clamped to [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub fn resize(&mut self, rows: usize, cols: usize) {
        let rows = rows.clamp(MIN_SIDE, MAX_SIDE);
        let cols = cols.clamp(MIN_SIDE, MAX_SIDE);
        let mut blocked = vec![false; rows * cols];
        for r in 0..rows.min(self.rows) {
            for c in 0..cols.min(self.cols) {
                blocked[r * cols + c] = self.blocked[r * self.cols + c];
            }
        }
        let fits = |cell: Cell| cell.row < rows && cell.col < cols;
        let start = if fits(self.start) {
            self.start
        } else {
            Cell::new(0, 0)
        };
        let mut goal = if fits(self.goal) {
            self.goal
        } else {
            Cell::new(rows - 1, cols - 1)
        };
        if goal == start {
            goal = if start == Cell::new(rows - 1, cols - 1) {
                Cell::new(0, 0)
            } else {
                Cell::new(rows - 1, cols - 1)
            };
        }
        *self = Self {
            rows,
            cols,
            blocked,
            start,
            goal,
        };
        self.keep_ends_free();
    }

    fn keep_ends_free(&mut self) {
        let (s, g) = (self.index(self.start), self.index(self.goal));
        self.blocked[s] = false;
        self.blocked[g] = false;
    }

    /// Parses the plain-text format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] with the line and column of an unknown character or a second `S`/`G`,
    /// the line of a ragged row, or for an empty or oversized grid.
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        Self::from_rows(&text_rows(text))
    }

    fn from_rows(rows: &[(usize, &str)]) -> Result<Self, FormatError> {
        let (height, width) = check_rectangle(rows, MAX_SIDE)?;
        if height < MIN_SIDE || width < MIN_SIDE {
            return Err(FormatError::new(format!(
                "the grid is {height} x {width}; a maze needs at least {MIN_SIDE} x {MIN_SIDE}"
            )));
        }
        let mut blocked = Vec::with_capacity(height * width);
        let (mut start, mut goal) = (None, None);
        for (r, &(line, row)) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let here = Cell::new(r, c);
                let place = |slot: &mut Option<Cell>, what: &str| {
                    if slot.replace(here).is_some() {
                        Err(FormatError::at(
                            line,
                            Some(c + 1),
                            format!("a second {what} square"),
                        ))
                    } else {
                        Ok(())
                    }
                };
                match ch {
                    '#' => {}
                    '.' => {}
                    'S' => place(&mut start, "start")?,
                    'G' => place(&mut goal, "goal")?,
                    other => {
                        return Err(FormatError::at(
                            line,
                            Some(c + 1),
                            format!("unknown character {other:?} (use # . S G)"),
                        ));
                    }
                }
                blocked.push(ch == '#');
            }
        }
        let start = start.unwrap_or(Cell::new(0, 0));
        let goal = goal.unwrap_or(Cell::new(height - 1, width - 1));
        if start == goal {
            return Err(FormatError::new(
                "the start and the goal are on the same square; mark them with S and G",
            ));
        }
        let mut maze = Self {
            rows: height,
            cols: width,
            blocked,
            start,
            goal,
        };
        maze.keep_ends_free();
        Ok(maze)
    }

    /// Reads the JSON format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] for a JSON object of the wrong shape, or rows as in
    /// [`Maze::from_text`] (with the row number as the line).
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: MazeJson = json_body(value)?;
        let rows: Vec<(usize, &str)> = body
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| (i + 1, r.as_str()))
            .collect();
        Self::from_rows(&rows).map_err(|e| FormatError {
            field: Some("rows".into()),
            ..e
        })
    }

    fn row_strings(&self) -> Vec<String> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let cell = Cell::new(r, c);
                        if cell == self.start {
                            'S'
                        } else if cell == self.goal {
                            'G'
                        } else if self.blocked[self.index(cell)] {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

impl Problem for Maze {
    /// The index `row * cols + col` of the square the path has reached.
    type State = u32;
    type Move = Dir;

    fn start_states(&self) -> Vec<u32> {
        vec![self.index(self.start) as u32]
    }

    fn is_goal(&self, state: &u32) -> bool {
        *state as usize == self.index(self.goal)
    }

    fn successors(&self, state: &u32, out: &mut Vec<Successor<u32, Dir>>) {
        let here = self.cell(*state);
        for dir in Dir::ALL {
            let (dr, dc) = dir.delta();
            let (Some(row), Some(col)) = (
                here.row.checked_add_signed(dr),
                here.col.checked_add_signed(dc),
            ) else {
                continue;
            };
            let next = Cell::new(row, col);
            if !self.is_blocked(next) {
                out.push(Successor {
                    state: self.index(next) as u32,
                    mv: dir,
                    cost: 1.0,
                });
            }
        }
    }

    /// Manhattan distance to the goal: admissible and consistent for 4-connected unit moves.
    fn heuristic(&self, state: &u32) -> Cost {
        let here = self.cell(*state);
        (here.row.abs_diff(self.goal.row) + here.col.abs_diff(self.goal.col)) as Cost
    }

    fn has_heuristic(&self) -> bool {
        true
    }
}

impl Puzzle for Maze {
    fn puzzle_type(&self) -> &'static PuzzleType {
        &TYPE
    }

    fn picture(&self) -> Picture {
        let mut squares: Vec<Square> = self
            .blocked
            .iter()
            .map(|&b| if b { Square::Blocked } else { Square::Free })
            .collect();
        squares[self.index(self.start)] = Square::Start;
        squares[self.index(self.goal)] = Square::Goal;
        Picture {
            rows: self.rows,
            cols: self.cols,
            squares,
            start: Some(self.start),
            goal_area: Vec::new(),
        }
    }

    fn algorithms(&self) -> Vec<Algorithm> {
        applicable(self)
    }

    fn heuristic_name(&self) -> String {
        "Manhattan distance to the goal".into()
    }

    fn default_algorithm(&self) -> Algorithm {
        Algorithm::AStar
    }

    fn guarantees_optimal(&self, algorithm: Algorithm) -> bool {
        algorithm.is_optimal_for(self)
    }

    fn count_states(&self, cancel: &CancelToken) -> crate::search::StateCount {
        crate::search::count_reachable(self, cancel)
    }

    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        solve_on_places(self, &TYPE, algorithm, watcher, cancel, |s| {
            self.cell(*s).into()
        })
    }

    fn stroke_value(&self, cell: Cell) -> Option<u8> {
        (self.contains(cell) && cell != self.start && cell != self.goal)
            .then(|| u8::from(!self.is_blocked(cell)))
    }

    fn paint(&mut self, cell: Cell, value: u8) -> bool {
        self.set_blocked(cell, value != 0)
    }

    fn to_text(&self) -> String {
        let mut text = self.row_strings().join("\n");
        text.push('\n');
        text
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!(MazeJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            rows: self.row_strings(),
        })
    }

    fn clone_box(&self) -> Box<dyn Puzzle> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{self, Outcome};

    #[test]
    fn open_maze_takes_manhattan_moves() {
        let maze = Maze::new(5, 7);
        let result = search::solve(&maze, Algorithm::Bfs).unwrap();
        assert_eq!(result.outcome, Outcome::Found);
        assert_eq!(result.cost, 10.0);
    }

    #[test]
    fn resize_keeps_squares_and_moves_goal_inside() {
        let mut maze = Maze::from_text("S.#\n#..\n..G\n").unwrap();
        maze.resize(2, 2);
        assert_eq!(maze.goal(), Cell::new(1, 1));
        assert!(maze.is_blocked(Cell::new(1, 0)));
        maze.resize(4, 4);
        assert_eq!(maze.rows(), 4);
        assert!(maze.is_blocked(Cell::new(1, 0)));
        assert!(!maze.is_blocked(Cell::new(3, 3)));
    }

    #[test]
    fn invert_keeps_ends_free() {
        let mut maze = Maze::new(3, 3);
        maze.invert();
        assert!(!maze.is_blocked(maze.start()));
        assert!(!maze.is_blocked(maze.goal()));
        assert!(maze.is_blocked(Cell::new(1, 1)));
    }

    #[test]
    fn random_is_reproducible() {
        let (mut a, mut b) = (Maze::new(20, 20), Maze::new(20, 20));
        a.randomize(0.3, 7);
        b.randomize(0.3, 7);
        assert_eq!(a, b);
        b.randomize(0.3, 8);
        assert_ne!(a, b);
    }
}
