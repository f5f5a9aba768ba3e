//! The grid maze of the "Solving Puzzles" article (`003_8abc547d8a6c7682.txt`), grown into a
//! grid-search workbench: squares are blocked or free with a terrain cost from 1 to 9 (paid on
//! entering the square); a path runs from the start square to the nearest of one or more goal
//! squares, moving in 4 directions, or in 8 with diagonals (cost `sqrt(2)` times the terrain
//! cost), optionally cutting corners past a blocked square. In percolation mode (also from
//! the article) the path runs from any free square of the top row to any of the bottom row
//! (or left column to right column).
//!
//! Plain-text format: optional `key: value` lines, then one line per row: `#` blocked, `.`
//! free (cost 1), `1`-`9` free with that terrain cost, `S` start (at most once), `G` goal
//! (any number). Missing ones default to the top-left and bottom-right corners. Lines starting
//! with `;` are comments. The keys: `moves: 4|8`, `corner-cutting: yes|no`,
//! `heuristic: manhattan|euclidean|octile|chebyshev|zero`,
//! `percolation: off|top-bottom|left-right`. A Moving AI `.map` file (see [`movingai`]) is
//! read as well.
//!
//! JSON format: `{"type": "maze", "version": 1, "rows": ["S.#", "..G"], "moves": 8, ...}`
//! where `rows` uses the characters of the text format and the other keys are optional.

pub mod commands;
mod edit;
mod format;
pub mod generate;
mod jump;
pub mod movingai;
pub mod percolation;
mod puzzle;
pub mod terrain;

use std::fmt;

use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng as _};
use serde::{Deserialize, Serialize};

use super::{
    Cell, FormatError, PuzzleType, Report, check_rectangle, json_body, rows_alphabet_score,
    text_rows,
};
use crate::search::Cost;
pub use terrain::Terrain;

/// The registry entry of the grid maze.
pub static TYPE: PuzzleType = PuzzleType {
    name: "maze",
    label: "Grid maze",
    sniff,
    text_hint: "`#` `.` `S` `G`",
    parse_text: |text| Ok(Box::new(Maze::from_text(text)?)),
    from_json: |value| Ok(Box::new(Maze::from_json(value)?)),
    json_version: 1,
    shipped: &[
        shipped!("maze-small.txt"),
        shipped!("maze-rooms.txt"),
        shipped!("maze-no-path.txt"),
        shipped!("maze-random-40.json"),
        shipped!("maze-terrain.txt"),
        shipped!("maze-octile-goals.txt"),
        shipped!("maze-percolation.txt"),
    ],
};

fn sniff(text: &str) -> f64 {
    if movingai::looks_like_map(text) {
        return 1.0;
    }
    // `key: value` settings lines are not grid rows.
    let grid = text_rows(text)
        .into_iter()
        .map(|(_, row)| row)
        .filter(|row| !row.contains(':'));
    rows_alphabet_score(grid, "#.SG123456789")
}

/// The smallest side of a maze.
pub const MIN_SIDE: usize = 2;
/// The largest side of a maze read from a file or resized in the GUI.
pub const MAX_SIDE: usize = 4096;
/// The largest side of a maze resized in the GUI.
pub const MAX_EDIT_SIDE: usize = 2048;
/// The highest terrain cost.
pub const MAX_COST: u8 = 9;
/// Grids with at most this many squares, all of cost 1, offer IDA*: without a closed set it
/// reaches a grid's squares by exponentially many paths, and terrain costs multiply the
/// number of distinct bounds (iterations), so it is a tool for watching small uniform grids.
pub const IDA_MAX_SQUARES: usize = 64 * 64;

/// Which neighbours a square has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Connectivity {
    /// Up, down, left and right.
    #[default]
    #[serde(rename = "4")]
    Four,
    /// The four and the diagonals.
    #[serde(rename = "8")]
    Eight,
}

/// The heuristics for A* and its relatives on a grid: distances from a square to the nearest
/// goal, for `dr` rows and `dc` columns apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GridHeuristic {
    /// `dr + dc`: exact on an empty 4-connected grid; overestimates with diagonals.
    #[default]
    Manhattan,
    /// `sqrt(dr^2 + dc^2)`: admissible for both connectivities, weaker than the others.
    Euclidean,
    /// `max + (sqrt(2) - 1) * min`: exact on an empty 8-connected grid.
    Octile,
    /// `max(dr, dc)`: admissible for both, as if diagonals cost 1.
    Chebyshev,
    /// 0: A* becomes Dijkstra's algorithm.
    Zero,
}

impl GridHeuristic {
    /// Every heuristic, in the order the GUI lists them.
    pub const ALL: [GridHeuristic; 5] = [
        GridHeuristic::Manhattan,
        GridHeuristic::Euclidean,
        GridHeuristic::Octile,
        GridHeuristic::Chebyshev,
        GridHeuristic::Zero,
    ];

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GridHeuristic::Manhattan => "manhattan",
            GridHeuristic::Euclidean => "euclidean",
            GridHeuristic::Octile => "octile",
            GridHeuristic::Chebyshev => "chebyshev",
            GridHeuristic::Zero => "zero",
        }
    }

    /// Reads a name (see [`GridHeuristic::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The distance estimate for squares `dr` rows and `dc` columns apart.
    pub fn distance(self, dr: usize, dc: usize) -> Cost {
        let (dr, dc) = (dr as Cost, dc as Cost);
        match self {
            GridHeuristic::Manhattan => dr + dc,
            GridHeuristic::Euclidean => dr.hypot(dc),
            GridHeuristic::Octile => dr.max(dc) + (std::f64::consts::SQRT_2 - 1.0) * dr.min(dc),
            GridHeuristic::Chebyshev => dr.max(dc),
            GridHeuristic::Zero => 0.0,
        }
    }

    /// Whether it never overestimates the cost on a grid of this connectivity (terrain costs
    /// are at least 1, so only the geometry matters).
    pub fn is_admissible(self, connectivity: Connectivity) -> bool {
        !(self == GridHeuristic::Manhattan && connectivity == Connectivity::Eight)
    }

    /// The natural heuristic for a connectivity: Manhattan for 4, octile for 8.
    pub fn natural(connectivity: Connectivity) -> Self {
        match connectivity {
            Connectivity::Four => GridHeuristic::Manhattan,
            Connectivity::Eight => GridHeuristic::Octile,
        }
    }
}

impl fmt::Display for GridHeuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Percolation mode: which opposite sides a path must connect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Percolation {
    /// Off: from the start square to the nearest goal square.
    #[default]
    Off,
    /// From any free square of the top row to any free square of the bottom row.
    TopBottom,
    /// From any free square of the left column to any free square of the right column.
    LeftRight,
}

impl Percolation {
    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            Percolation::Off => "off",
            Percolation::TopBottom => "top-bottom",
            Percolation::LeftRight => "left-right",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        [
            Percolation::Off,
            Percolation::TopBottom,
            Percolation::LeftRight,
        ]
        .into_iter()
        .find(|p| p.name() == name)
    }
}

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
    /// One row down and one column right.
    DownRight,
    /// One row up and one column right.
    UpRight,
    /// One row up and one column left.
    UpLeft,
    /// One row down and one column left.
    DownLeft,
}

impl Dir {
    /// The 4-connected moves in the order successors are generated: the article's
    /// backtracking order (down, right, up, left), which sends depth-first search towards the
    /// bottom-right goal.
    pub const FOUR: [Dir; 4] = [Dir::Down, Dir::Right, Dir::Up, Dir::Left];
    /// The 8-connected moves: the four, then the diagonals.
    pub const ALL: [Dir; 8] = [
        Dir::Down,
        Dir::Right,
        Dir::Up,
        Dir::Left,
        Dir::DownRight,
        Dir::UpRight,
        Dir::UpLeft,
        Dir::DownLeft,
    ];

    /// (row, column) change of the move.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Down => (1, 0),
            Dir::Right => (0, 1),
            Dir::Up => (-1, 0),
            Dir::Left => (0, -1),
            Dir::DownRight => (1, 1),
            Dir::UpRight => (-1, 1),
            Dir::UpLeft => (-1, -1),
            Dir::DownLeft => (1, -1),
        }
    }

    /// The direction of a (row, column) change whose parts are -1, 0 or 1 (not both 0).
    pub fn from_delta(dr: isize, dc: isize) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.delta() == (dr, dc))
    }

    /// Whether the move is diagonal.
    pub fn is_diagonal(self) -> bool {
        let (dr, dc) = self.delta();
        dr != 0 && dc != 0
    }

    /// The length of the move: 1 straight, `sqrt(2)` diagonal.
    pub fn length(self) -> Cost {
        if self.is_diagonal() {
            std::f64::consts::SQRT_2
        } else {
            1.0
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
            Dir::DownRight => "down-right",
            Dir::UpRight => "up-right",
            Dir::UpLeft => "up-left",
            Dir::DownLeft => "down-left",
        })
    }
}

/// A grid maze: `rows x cols` squares, each blocked or free with a terrain cost, a start
/// square and one or more goal squares (always free), and the movement rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze {
    rows: usize,
    cols: usize,
    /// Square `row * cols + col`: 0 blocked, 1 to [`MAX_COST`] the cost of entering. The
    /// [`Terrain`] keeps whether every square costs 1, whatever changes it.
    cost: Terrain,
    start: Cell,
    /// At least one; no duplicates; never the start.
    goals: Vec<Cell>,
    connectivity: Connectivity,
    corner_cutting: bool,
    heuristic: GridHeuristic,
    percolation: Percolation,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MazeJson {
    #[serde(rename = "type")]
    puzzle_type: String,
    version: u32,
    rows: Vec<String>,
    #[serde(default)]
    moves: Connectivity,
    #[serde(default)]
    corner_cutting: bool,
    #[serde(default)]
    heuristic: Option<GridHeuristic>,
    #[serde(default)]
    percolation: Percolation,
}

impl Maze {
    /// An empty (all free) maze with the start at the top-left and the goal at the
    /// bottom-right, 4-connected. Sides are clamped to [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub fn new(rows: usize, cols: usize) -> Self {
        let rows = rows.clamp(MIN_SIDE, MAX_SIDE);
        let cols = cols.clamp(MIN_SIDE, MAX_SIDE);
        Self {
            rows,
            cols,
            cost: Terrain::open(rows * cols),
            start: Cell::new(0, 0),
            goals: vec![Cell::new(rows - 1, cols - 1)],
            connectivity: Connectivity::Four,
            corner_cutting: false,
            heuristic: GridHeuristic::Manhattan,
            percolation: Percolation::Off,
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

    /// The first goal square.
    pub fn goal(&self) -> Cell {
        self.goals[0]
    }

    /// Every goal square (at least one); a path ends at the nearest.
    pub fn goals(&self) -> &[Cell] {
        &self.goals
    }

    /// 4- or 8-connected moves.
    pub fn connectivity(&self) -> Connectivity {
        self.connectivity
    }

    /// Whether a diagonal move may pass one blocked square beside it (it may never pass
    /// between two).
    pub fn corner_cutting(&self) -> bool {
        self.corner_cutting
    }

    /// The heuristic A* and its relatives use.
    pub fn heuristic_kind(&self) -> GridHeuristic {
        self.heuristic
    }

    /// The percolation mode.
    pub fn percolation(&self) -> Percolation {
        self.percolation
    }

    /// Chooses 4- or 8-connected moves. A heuristic that would overestimate with the new
    /// moves (Manhattan with diagonals) gives way to the natural one for them; it can be
    /// chosen again afterwards with [`Maze::set_heuristic`]. Returns whether the moves changed.
    pub fn set_connectivity(&mut self, connectivity: Connectivity) -> bool {
        let old = std::mem::replace(&mut self.connectivity, connectivity);
        // The heuristic that went with the old moves (octile for 8 directions, Manhattan for
        // 4) follows them; one no longer admissible gives way too.
        if self.heuristic == GridHeuristic::natural(old)
            || !self.heuristic.is_admissible(connectivity)
        {
            self.heuristic = GridHeuristic::natural(connectivity);
        }
        old != connectivity
    }

    /// Allows or forbids cutting corners. Returns whether it changed.
    pub fn set_corner_cutting(&mut self, allowed: bool) -> bool {
        std::mem::replace(&mut self.corner_cutting, allowed) != allowed
    }

    /// Chooses the heuristic. Returns whether it changed.
    pub fn set_heuristic(&mut self, heuristic: GridHeuristic) -> bool {
        std::mem::replace(&mut self.heuristic, heuristic) != heuristic
    }

    /// Chooses the percolation mode. Leaving it frees the start and goal squares again.
    /// Returns whether it changed.
    pub fn set_percolation(&mut self, mode: Percolation) -> bool {
        let changed = std::mem::replace(&mut self.percolation, mode) != mode;
        self.keep_ends_free();
        changed
    }

    pub(crate) fn index(&self, cell: Cell) -> usize {
        cell.row * self.cols + cell.col
    }

    /// The square of a search state: the row in the high 16 bits, the column in the low
    /// (no division on the search's hot path; sides are at most [`MAX_SIDE`]).
    pub(crate) fn cell(&self, state: u32) -> Cell {
        Cell::new((state >> 16) as usize, (state & 0xFFFF) as usize)
    }

    /// The search state of the square at (row, column).
    pub(crate) fn state_at(row: usize, col: usize) -> u32 {
        ((row << 16) | col) as u32
    }

    fn contains(&self, cell: Cell) -> bool {
        cell.row < self.rows && cell.col < self.cols
    }

    /// Whether `cell` is blocked (cells outside the maze count as blocked).
    pub fn is_blocked(&self, cell: Cell) -> bool {
        self.cost_at(cell) == 0
    }

    /// The terrain cost of entering `cell`: 0 when blocked or outside, else 1 to
    /// [`MAX_COST`].
    pub fn cost_at(&self, cell: Cell) -> u8 {
        if self.contains(cell) {
            self.cost.get(self.index(cell))
        } else {
            0
        }
    }

    /// Whether the square at (row, column) is free; signed, so neighbours of the border can
    /// be asked about.
    pub(crate) fn free_at(&self, row: isize, col: isize) -> bool {
        row >= 0
            && col >= 0
            && (row as usize) < self.rows
            && (col as usize) < self.cols
            && self.cost.get(row as usize * self.cols + col as usize) != 0
    }

    /// Whether every free square costs 1 (O(1): see [`Terrain`]). The fast searches trust
    /// it: BFS's optimality, the flat-table grid searches, IDA* and Jump Point Search.
    pub fn is_uniform(&self) -> bool {
        self.cost.is_uniform()
    }

    /// The squares, row-major (values as in [`Maze::cost_at`]).
    pub fn terrain(&self) -> &Terrain {
        &self.cost
    }

    /// Whether `cell` must stay free: the start or a goal (outside percolation mode).
    fn is_end(&self, cell: Cell) -> bool {
        self.percolation == Percolation::Off && (cell == self.start || self.goals.contains(&cell))
    }

    /// The squares of the percolating clusters: free squares connected (with this maze's
    /// moves) both to a free square of the first side and to one of the opposite side of the
    /// percolation mode (top and bottom when the mode is off). Row-major, one flag a square.
    pub fn percolating_cluster(&self) -> Vec<bool> {
        percolation::spanning_cluster(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::Puzzle as _;
    use crate::search::{self, Outcome};
    use crate::search::{Algorithm, Problem as _};

    #[test]
    fn open_maze_takes_manhattan_moves() {
        let maze = Maze::new(5, 7);
        let result = search::solve(&maze, Algorithm::Bfs).unwrap();
        assert_eq!(result.outcome, Outcome::Found);
        assert_eq!(result.cost, 10.0);
    }

    #[test]
    fn uniformity_follows_every_edit() {
        let mut maze = Maze::new(6, 6);
        assert!(maze.is_uniform());
        maze.set_cost(Cell::new(2, 3), 5);
        maze.set_cost(Cell::new(4, 1), 3);
        assert!(!maze.is_uniform());
        maze.set_cost(Cell::new(2, 3), 1);
        assert!(!maze.is_uniform());
        maze.resize(3, 3);
        assert!(maze.is_uniform(), "the heavy square fell outside");
        maze.set_cost(Cell::new(1, 1), 9);
        maze.resize(5, 5);
        assert!(!maze.is_uniform());
        maze.set_cost(Cell::new(1, 1), 0);
        assert!(maze.is_uniform());
        maze.set_cost(Cell::new(1, 1), 4);
        maze.clear();
        assert!(maze.is_uniform());
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

    #[test]
    fn settings_and_terrain_round_trip_through_text() {
        let text = "moves: 8\ncorner-cutting: yes\nheuristic: chebyshev\nS.9\n#2G\n..G\n";
        let maze = Maze::from_text(text).unwrap();
        assert_eq!(maze.connectivity(), Connectivity::Eight);
        assert!(maze.corner_cutting());
        assert_eq!(maze.heuristic_kind(), GridHeuristic::Chebyshev);
        assert_eq!(maze.cost_at(Cell::new(0, 2)), 9);
        assert_eq!(maze.goals().len(), 2);
        assert_eq!(maze.to_text(), text);
        let json = Maze::from_json(maze.to_json()).unwrap();
        assert_eq!(json, maze);
    }

    #[test]
    fn diagonals_obey_the_corner_rule() {
        // The diagonal from (0, 0) to (1, 1) passes one blocked square.
        let mut maze = Maze::from_text("moves: 8\nS#\n.G\n").unwrap();
        let mut out = Vec::new();
        let start = maze.start_states()[0];
        maze.successors(&start, &mut out).unwrap();
        assert!(!out.iter().any(|s| s.mv == Dir::DownRight));
        maze.set_corner_cutting(true);
        out.clear();
        maze.successors(&start, &mut out).unwrap();
        let diagonal = out.iter().find(|s| s.mv == Dir::DownRight).unwrap();
        assert!((diagonal.cost - std::f64::consts::SQRT_2).abs() < 1e-12);
    }
}
