//! Maze generation: the algorithms of Jamis Buck's "Mazes for Programmers" (2015), seeded so
//! that a seed reproduces a maze, and a braid setting that removes dead ends.
//!
//! Generators work on a grid of *cells* and carve *passages* between neighbouring cells. The
//! result is drawn in the blocked-square representation a [`Maze`] searches: cell (r, c) is
//! square (2r + 1, 2c + 1), the square between two linked cells is free, every other square
//! (walls and the posts at even coordinates) is blocked; `h x w` cells make a
//! `(2h + 1) x (2w + 1)` maze. Every generator makes a perfect maze (a spanning tree of the
//! cells: all connected, no cycles) before braiding.
//!
//! For animation a generation also lists its square edits in the order they happened, from
//! the starting grid (all blocked for the carving algorithms, all open but the posts and the
//! border for recursive division, which adds walls).

use std::fmt;

use rand::SeedableRng as _;
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

mod algorithms;

use algorithms::*;

use super::Maze;
use crate::puzzles::Cell;

/// The maze generators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Generator {
    /// Each cell links north or east at random: a strong diagonal bias, open top row and
    /// right column.
    BinaryTree,
    /// Row by row, runs of east links closed by one north link from a random run cell.
    Sidewinder,
    /// A random walk that links each cell it enters for the first time: uniform spanning
    /// trees, slow to finish.
    AldousBroder,
    /// Loop-erased random walks until each hits the maze: uniform, slow to start.
    Wilson,
    /// A random walk to a dead end, then a scan for an unvisited cell next to the maze.
    HuntAndKill,
    /// Depth-first with a stack: long winding corridors, few dead ends.
    #[default]
    RecursiveBacktracker,
    /// Randomized Kruskal: random walls removed when they join two separate trees.
    Kruskal,
    /// Randomized Prim: grows from a random frontier cell, many short dead ends.
    Prim,
    /// Growing tree: picks the newest active cell half the time, a random one otherwise.
    GrowingTree,
    /// Eller: one row at a time, tracking which cells are already joined.
    Eller,
    /// Recursive division: walls added to an open field, each with one gap.
    RecursiveDivision,
}

impl Generator {
    /// Every generator, in the book's order.
    pub const ALL: [Generator; 11] = [
        Generator::BinaryTree,
        Generator::Sidewinder,
        Generator::AldousBroder,
        Generator::Wilson,
        Generator::HuntAndKill,
        Generator::RecursiveBacktracker,
        Generator::Kruskal,
        Generator::Prim,
        Generator::GrowingTree,
        Generator::Eller,
        Generator::RecursiveDivision,
    ];

    /// The command-line name (`binary-tree`, `sidewinder`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Generator::BinaryTree => "binary-tree",
            Generator::Sidewinder => "sidewinder",
            Generator::AldousBroder => "aldous-broder",
            Generator::Wilson => "wilson",
            Generator::HuntAndKill => "hunt-and-kill",
            Generator::RecursiveBacktracker => "recursive-backtracker",
            Generator::Kruskal => "kruskal",
            Generator::Prim => "prim",
            Generator::GrowingTree => "growing-tree",
            Generator::Eller => "eller",
            Generator::RecursiveDivision => "recursive-division",
        }
    }

    /// The name shown in the GUI.
    pub fn label(self) -> &'static str {
        match self {
            Generator::BinaryTree => "Binary tree",
            Generator::Sidewinder => "Sidewinder",
            Generator::AldousBroder => "Aldous-Broder",
            Generator::Wilson => "Wilson",
            Generator::HuntAndKill => "Hunt-and-kill",
            Generator::RecursiveBacktracker => "Recursive backtracker",
            Generator::Kruskal => "Kruskal",
            Generator::Prim => "Prim",
            Generator::GrowingTree => "Growing tree",
            Generator::Eller => "Eller",
            Generator::RecursiveDivision => "Recursive division",
        }
    }

    /// Reads a command-line name.
    pub fn from_name(name: &str) -> Option<Generator> {
        Generator::ALL.into_iter().find(|g| g.name() == name)
    }
}

impl fmt::Display for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest number of cells along a side (a 2047-square maze).
pub const MAX_CELLS: usize = 1023;

/// Links between the cells of an `rows x cols` grid of cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passages {
    rows: usize,
    cols: usize,
    /// Bit 0: linked to the cell below; bit 1: linked to the cell on the right.
    links: Vec<u8>,
}

const SOUTH: u8 = 1;
const EAST: u8 = 2;

impl Passages {
    fn new(rows: usize, cols: usize, all_linked: bool) -> Self {
        let mut p = Self {
            rows,
            cols,
            links: vec![0; rows * cols],
        };
        if all_linked {
            for r in 0..rows {
                for c in 0..cols {
                    let mut bits = 0;
                    if r + 1 < rows {
                        bits |= SOUTH;
                    }
                    if c + 1 < cols {
                        bits |= EAST;
                    }
                    p.links[r * cols + c] = bits;
                }
            }
        }
        p
    }

    /// Rows of cells.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of cells.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The neighbouring cells of `cell` (up to four).
    pub fn neighbours(&self, cell: Cell) -> Vec<Cell> {
        let mut out = Vec::with_capacity(4);
        if cell.row > 0 {
            out.push(Cell::new(cell.row - 1, cell.col));
        }
        if cell.row + 1 < self.rows {
            out.push(Cell::new(cell.row + 1, cell.col));
        }
        if cell.col > 0 {
            out.push(Cell::new(cell.row, cell.col - 1));
        }
        if cell.col + 1 < self.cols {
            out.push(Cell::new(cell.row, cell.col + 1));
        }
        out
    }

    /// The bit and cell holding the link between neighbours `a` and `b`.
    fn slot(&self, a: Cell, b: Cell) -> (usize, u8) {
        let (first, second) = if (a.row, a.col) < (b.row, b.col) {
            (a, b)
        } else {
            (b, a)
        };
        let bit = if second.row > first.row { SOUTH } else { EAST };
        (first.row * self.cols + first.col, bit)
    }

    /// Whether neighbouring cells `a` and `b` are linked.
    pub fn linked(&self, a: Cell, b: Cell) -> bool {
        let (i, bit) = self.slot(a, b);
        self.links[i] & bit != 0
    }

    fn set(&mut self, a: Cell, b: Cell, on: bool) {
        let (i, bit) = self.slot(a, b);
        if on {
            self.links[i] |= bit;
        } else {
            self.links[i] &= !bit;
        }
    }

    /// The cells linked to `cell`.
    pub fn links_of(&self, cell: Cell) -> Vec<Cell> {
        self.neighbours(cell)
            .into_iter()
            .filter(|&n| self.linked(cell, n))
            .collect()
    }

    /// The number of links.
    pub fn link_count(&self) -> usize {
        self.links.iter().map(|b| b.count_ones() as usize).sum()
    }

    /// Cells with exactly one link.
    pub fn dead_ends(&self) -> Vec<Cell> {
        (0..self.rows)
            .flat_map(|r| (0..self.cols).map(move |c| Cell::new(r, c)))
            .filter(|&c| self.links_of(c).len() == 1)
            .collect()
    }

    /// Whether every cell can be reached from cell (0, 0) through links.
    pub fn is_connected(&self) -> bool {
        let mut seen = vec![false; self.rows * self.cols];
        let mut stack = vec![Cell::new(0, 0)];
        seen[0] = true;
        let mut count = 1;
        while let Some(cell) = stack.pop() {
            for n in self.links_of(cell) {
                if !std::mem::replace(&mut seen[n.row * self.cols + n.col], true) {
                    count += 1;
                    stack.push(n);
                }
            }
        }
        count == self.rows * self.cols
    }

    /// Whether the links form a spanning tree: connected, and one fewer links than cells, so
    /// no cycles.
    pub fn is_perfect(&self) -> bool {
        self.is_connected() && self.link_count() + 1 == self.rows * self.cols
    }
}

/// A generated maze: its passages, the squares of its maze, and how they came about.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The passages between cells.
    pub passages: Passages,
    /// Rows of squares: `2 * cell rows + 1`.
    pub rows: usize,
    /// Columns of squares: `2 * cell columns + 1`.
    pub cols: usize,
    /// The squares before the first edit (0 blocked, 1 free), row-major.
    pub initial: Vec<u8>,
    /// The square edits in the order the generator made them: (square index, new value).
    pub steps: Vec<(u32, u8)>,
}

impl Generated {
    /// The squares after every edit.
    pub fn squares(&self) -> Vec<u8> {
        let mut squares = self.initial.clone();
        for &(i, v) in &self.steps {
            squares[i as usize] = v;
        }
        squares
    }
}

/// Records the passages and the square edits as a generator links or unlinks cells.
struct Recorder {
    passages: Passages,
    squares: Vec<u8>,
    initial: Vec<u8>,
    steps: Vec<(u32, u8)>,
    cols: usize,
}

impl Recorder {
    fn new(rows: usize, cols: usize, open: bool) -> Self {
        let (sr, sc) = (2 * rows + 1, 2 * cols + 1);
        let mut squares = vec![0u8; sr * sc];
        if open {
            for r in 1..sr - 1 {
                for c in 1..sc - 1 {
                    squares[r * sc + c] = u8::from(r % 2 == 1 || c % 2 == 1);
                }
            }
        }
        Self {
            passages: Passages::new(rows, cols, open),
            initial: squares.clone(),
            squares,
            steps: Vec::new(),
            cols: sc,
        }
    }

    fn put(&mut self, row: usize, col: usize, value: u8) {
        let i = row * self.cols + col;
        if self.squares[i] != value {
            self.squares[i] = value;
            self.steps.push((i as u32, value));
        }
    }

    fn link(&mut self, a: Cell, b: Cell) {
        self.passages.set(a, b, true);
        self.put(2 * a.row + 1, 2 * a.col + 1, 1);
        self.put(a.row + b.row + 1, a.col + b.col + 1, 1);
        self.put(2 * b.row + 1, 2 * b.col + 1, 1);
    }

    fn unlink(&mut self, a: Cell, b: Cell) {
        self.passages.set(a, b, false);
        self.put(a.row + b.row + 1, a.col + b.col + 1, 0);
    }

    fn finish(self) -> Generated {
        let rows = self.squares.len() / self.cols;
        Generated {
            passages: self.passages,
            rows,
            cols: self.cols,
            initial: self.initial,
            steps: self.steps,
        }
    }
}

/// Generates a `rows x cols`-cell maze (each side clamped to 1..=[`MAX_CELLS`]) with
/// `generator`, seeded with `seed`, then braids it: each dead end is removed with probability
/// `braid` (0 keeps the maze perfect, 1 removes every dead end) by linking it to a neighbour,
/// a neighbouring dead end when there is one.
pub fn generate(
    generator: Generator,
    rows: usize,
    cols: usize,
    seed: u64,
    braid: f64,
) -> Generated {
    let rows = rows.clamp(1, MAX_CELLS);
    let cols = cols.clamp(1, MAX_CELLS);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut rec = Recorder::new(rows, cols, generator == Generator::RecursiveDivision);
    if rows * cols == 1 {
        rec.put(1, 1, 1);
    }
    match generator {
        Generator::BinaryTree => binary_tree(&mut rec, &mut rng),
        Generator::Sidewinder => sidewinder(&mut rec, &mut rng),
        Generator::AldousBroder => aldous_broder(&mut rec, &mut rng),
        Generator::Wilson => wilson(&mut rec, &mut rng),
        Generator::HuntAndKill => hunt_and_kill(&mut rec, &mut rng),
        Generator::RecursiveBacktracker => growing_tree(&mut rec, &mut rng, 1.0),
        Generator::Kruskal => kruskal(&mut rec, &mut rng),
        Generator::Prim => prim(&mut rec, &mut rng),
        Generator::GrowingTree => growing_tree(&mut rec, &mut rng, 0.5),
        Generator::Eller => eller(&mut rec, &mut rng),
        Generator::RecursiveDivision => recursive_division(&mut rec, &mut rng),
    }
    braid_dead_ends(&mut rec, &mut rng, braid.clamp(0.0, 1.0));
    rec.finish()
}

impl Maze {
    /// Replaces the squares with a generated maze's, keeping the movement rules and the
    /// heuristic; the start goes to the top-left cell and the goal to the bottom-right one.
    pub fn apply_generated(&mut self, generated: &Generated) {
        let (rows, cols) = (generated.rows, generated.cols);
        self.set_percolation(super::Percolation::Off);
        self.set_grid(
            rows,
            cols,
            generated.squares(),
            Cell::new(1, 1),
            Cell::new(rows - 2, cols - 2),
        );
        if rows * cols == 9 {
            // One cell: the goal needs a square of its own; open the one beside the start.
            self.goals = vec![Cell::new(1, 2)];
            self.keep_ends_free();
        }
    }
}
