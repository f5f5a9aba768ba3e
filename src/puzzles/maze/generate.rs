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

use rand::rngs::StdRng;
use rand::seq::{IndexedRandom as _, SliceRandom as _};
use rand::{Rng, SeedableRng as _};
use serde::{Deserialize, Serialize};

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

fn all_cells(p: &Passages) -> impl Iterator<Item = Cell> + use<> {
    let (rows, cols) = (p.rows, p.cols);
    (0..rows).flat_map(move |r| (0..cols).map(move |c| Cell::new(r, c)))
}

/// The neighbours of `cell` whose `visited` flag (indexed row * cols + col) is `wanted`.
fn neighbours_where(p: &Passages, cell: Cell, visited: &[bool], wanted: bool) -> Vec<Cell> {
    p.neighbours(cell)
        .into_iter()
        .filter(|n| visited[n.row * p.cols + n.col] == wanted)
        .collect()
}

fn random_cell(p: &Passages, rng: &mut impl Rng) -> Cell {
    Cell::new(rng.random_range(0..p.rows), rng.random_range(0..p.cols))
}

fn binary_tree(rec: &mut Recorder, rng: &mut impl Rng) {
    for cell in all_cells(&rec.passages) {
        let mut options = Vec::with_capacity(2);
        if cell.row > 0 {
            options.push(Cell::new(cell.row - 1, cell.col));
        }
        if cell.col + 1 < rec.passages.cols {
            options.push(Cell::new(cell.row, cell.col + 1));
        }
        if let Some(&n) = options.choose(rng) {
            rec.link(cell, n);
        }
    }
}

fn sidewinder(rec: &mut Recorder, rng: &mut impl Rng) {
    let (rows, cols) = (rec.passages.rows, rec.passages.cols);
    for r in 0..rows {
        let mut run_start = 0;
        for c in 0..cols {
            let at_east = c + 1 == cols;
            let at_north = r == 0;
            let close = at_east || (!at_north && rng.random_bool(0.5));
            if close {
                if !at_north {
                    let m = rng.random_range(run_start..=c);
                    rec.link(Cell::new(r, m), Cell::new(r - 1, m));
                }
                run_start = c + 1;
            } else {
                rec.link(Cell::new(r, c), Cell::new(r, c + 1));
            }
        }
    }
}

fn aldous_broder(rec: &mut Recorder, rng: &mut impl Rng) {
    let cols = rec.passages.cols;
    let mut visited = vec![false; rec.passages.rows * cols];
    let mut cell = random_cell(&rec.passages, rng);
    visited[cell.row * cols + cell.col] = true;
    let mut left = visited.len() - 1;
    while left > 0 {
        let n = *rec
            .passages
            .neighbours(cell)
            .choose(rng)
            .expect("a neighbour");
        if !std::mem::replace(&mut visited[n.row * cols + n.col], true) {
            rec.link(cell, n);
            left -= 1;
        }
        cell = n;
    }
}

fn wilson(rec: &mut Recorder, rng: &mut impl Rng) {
    let cols = rec.passages.cols;
    let count = rec.passages.rows * cols;
    let at = |c: Cell| c.row * cols + c.col;
    let mut in_maze = vec![false; count];
    // Cells not yet in the maze, and where each sits in that list (for O(1) removal).
    let mut outside: Vec<usize> = (0..count).collect();
    let mut place: Vec<usize> = (0..count).collect();
    let mut remove = |i: usize, outside: &mut Vec<usize>| {
        let p = place[i];
        let last = *outside.last().expect("not empty");
        outside.swap_remove(p);
        if last != i {
            place[last] = p;
        }
    };
    let first = rng.random_range(0..count);
    in_maze[first] = true;
    remove(first, &mut outside);
    // Position of each cell on the current walk, plus one (0: not on it).
    let mut on_walk = vec![0usize; count];
    while let Some(&begin) = outside.choose(rng) {
        let mut walk = vec![Cell::new(begin / cols, begin % cols)];
        on_walk[begin] = 1;
        loop {
            let here = *walk.last().expect("not empty");
            let next = *rec
                .passages
                .neighbours(here)
                .choose(rng)
                .expect("a neighbour");
            if in_maze[at(next)] {
                walk.push(next);
                break;
            }
            let pos = on_walk[at(next)];
            if pos > 0 {
                // A loop: erase it.
                for c in walk.drain(pos..) {
                    on_walk[at(c)] = 0;
                }
            } else {
                walk.push(next);
                on_walk[at(next)] = walk.len();
            }
        }
        for pair in walk.windows(2) {
            rec.link(pair[0], pair[1]);
        }
        for c in &walk[..walk.len() - 1] {
            on_walk[at(*c)] = 0;
            in_maze[at(*c)] = true;
            remove(at(*c), &mut outside);
        }
    }
}

fn hunt_and_kill(rec: &mut Recorder, rng: &mut impl Rng) {
    let cols = rec.passages.cols;
    let rows = rec.passages.rows;
    let mut visited = vec![false; rows * cols];
    let mut current = Some(random_cell(&rec.passages, rng));
    visited[current.map_or(0, |c| c.row * cols + c.col)] = true;
    // Rows before this one are all visited: the hunt starts here.
    let mut hunt_row = 0;
    while let Some(cell) = current {
        let fresh = neighbours_where(&rec.passages, cell, &visited, false);
        if let Some(&n) = fresh.choose(rng) {
            rec.link(cell, n);
            visited[n.row * cols + n.col] = true;
            current = Some(n);
            continue;
        }
        current = None;
        'hunt: while hunt_row < rows {
            let mut row_done = true;
            for c in 0..cols {
                let cand = Cell::new(hunt_row, c);
                if visited[hunt_row * cols + c] {
                    continue;
                }
                row_done = false;
                let joined = neighbours_where(&rec.passages, cand, &visited, true);
                if let Some(&n) = joined.choose(rng) {
                    rec.link(cand, n);
                    visited[hunt_row * cols + c] = true;
                    current = Some(cand);
                    break 'hunt;
                }
            }
            if row_done {
                hunt_row += 1;
            } else {
                // Unvisited cells here with no visited neighbour yet: look further down.
                let later = (hunt_row + 1..rows).find_map(|r| {
                    (0..cols).find_map(|c| {
                        let cand = Cell::new(r, c);
                        let joined = neighbours_where(&rec.passages, cand, &visited, true);
                        (!visited[r * cols + c] && !joined.is_empty()).then_some((cand, joined))
                    })
                });
                if let Some((cand, joined)) = later {
                    let n = *joined.choose(rng).expect("not empty");
                    rec.link(cand, n);
                    visited[cand.row * cols + cand.col] = true;
                    current = Some(cand);
                }
                break 'hunt;
            }
        }
    }
}

/// The growing-tree family: `newest` is the chance of continuing from the newest active cell
/// (1.0 is the recursive backtracker), otherwise a random active cell is taken.
fn growing_tree(rec: &mut Recorder, rng: &mut impl Rng, newest: f64) {
    let cols = rec.passages.cols;
    let mut visited = vec![false; rec.passages.rows * cols];
    let first = random_cell(&rec.passages, rng);
    visited[first.row * cols + first.col] = true;
    let mut active = vec![first];
    while !active.is_empty() {
        let i = if newest >= 1.0 || rng.random_bool(newest) {
            active.len() - 1
        } else {
            rng.random_range(0..active.len())
        };
        let cell = active[i];
        let fresh = neighbours_where(&rec.passages, cell, &visited, false);
        match fresh.choose(rng) {
            Some(&n) => {
                rec.link(cell, n);
                visited[n.row * cols + n.col] = true;
                active.push(n);
            }
            None => {
                active.remove(i);
            }
        }
    }
}

/// Union-find over cell indices.
struct Sets(Vec<usize>);

impl Sets {
    fn new(n: usize) -> Self {
        Self((0..n).collect())
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }

    /// Joins the sets of `a` and `b`; false if they were one already.
    fn join(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.root(a), self.root(b));
        self.0[ra] = rb;
        ra != rb
    }
}

fn kruskal(rec: &mut Recorder, rng: &mut impl Rng) {
    let cols = rec.passages.cols;
    let mut edges = Vec::new();
    for cell in all_cells(&rec.passages) {
        if cell.row + 1 < rec.passages.rows {
            edges.push((cell, Cell::new(cell.row + 1, cell.col)));
        }
        if cell.col + 1 < cols {
            edges.push((cell, Cell::new(cell.row, cell.col + 1)));
        }
    }
    edges.shuffle(rng);
    let mut sets = Sets::new(rec.passages.rows * cols);
    for (a, b) in edges {
        if sets.join(a.row * cols + a.col, b.row * cols + b.col) {
            rec.link(a, b);
        }
    }
}

fn prim(rec: &mut Recorder, rng: &mut impl Rng) {
    let cols = rec.passages.cols;
    let count = rec.passages.rows * cols;
    let mut in_maze = vec![false; count];
    let mut queued = vec![false; count];
    let mut frontier = Vec::new();
    let first = random_cell(&rec.passages, rng);
    in_maze[first.row * cols + first.col] = true;
    for n in rec.passages.neighbours(first) {
        queued[n.row * cols + n.col] = true;
        frontier.push(n);
    }
    while !frontier.is_empty() {
        let cell = frontier.swap_remove(rng.random_range(0..frontier.len()));
        let (inside, outside): (Vec<Cell>, Vec<Cell>) = rec
            .passages
            .neighbours(cell)
            .into_iter()
            .partition(|n| in_maze[n.row * cols + n.col]);
        let n = *inside
            .choose(rng)
            .expect("a frontier cell touches the maze");
        rec.link(cell, n);
        in_maze[cell.row * cols + cell.col] = true;
        for o in outside {
            if !std::mem::replace(&mut queued[o.row * cols + o.col], true) {
                frontier.push(o);
            }
        }
    }
}

fn eller(rec: &mut Recorder, rng: &mut impl Rng) {
    let (rows, cols) = (rec.passages.rows, rec.passages.cols);
    // The set label of each cell of the current row; cells of one set are already joined.
    let mut label: Vec<usize> = (0..cols).collect();
    let mut next_label = cols;
    for r in 0..rows {
        let last = r + 1 == rows;
        let mut sets = Sets::new(next_label);
        for c in 0..cols - 1 {
            let (a, b) = (label[c], label[c + 1]);
            if sets.root(a) != sets.root(b) && (last || rng.random_bool(0.5)) {
                sets.join(a, b);
                rec.link(Cell::new(r, c), Cell::new(r, c + 1));
            }
        }
        for l in &mut label {
            *l = sets.root(*l);
        }
        if last {
            break;
        }
        // Each set goes down from at least one of its cells.
        let mut members: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for (c, &l) in label.iter().enumerate() {
            members.entry(l).or_default().push(c);
        }
        let mut below: Vec<Option<usize>> = vec![None; cols];
        for (l, mut cells) in members {
            cells.shuffle(rng);
            let down = 1 + rng.random_range(0..cells.len());
            for &c in &cells[..down] {
                rec.link(Cell::new(r, c), Cell::new(r + 1, c));
                below[c] = Some(l);
            }
        }
        // Relabel compactly: the sets carried down, then a fresh set per other cell.
        let mut fresh = std::collections::HashMap::new();
        for (c, slot) in below.iter().enumerate() {
            label[c] = match slot {
                Some(l) => {
                    let n = fresh.len();
                    *fresh.entry(*l).or_insert(n)
                }
                None => usize::MAX,
            };
        }
        next_label = fresh.len();
        for l in &mut label {
            if *l == usize::MAX {
                *l = next_label;
                next_label += 1;
            }
        }
    }
}

fn recursive_division(rec: &mut Recorder, rng: &mut impl Rng) {
    // Chambers as (row, col, height, width) in cells.
    let mut chambers = vec![(0, 0, rec.passages.rows, rec.passages.cols)];
    while let Some((r, c, h, w)) = chambers.pop() {
        if h < 2 && w < 2 {
            continue;
        }
        let horizontal = h >= 2 && (w < 2 || h > w || (h == w && rng.random_bool(0.5)));
        if horizontal {
            let k = rng.random_range(1..h);
            let gap = rng.random_range(0..w);
            for i in (0..w).filter(|&i| i != gap) {
                rec.unlink(Cell::new(r + k - 1, c + i), Cell::new(r + k, c + i));
            }
            chambers.push((r, c, k, w));
            chambers.push((r + k, c, h - k, w));
        } else {
            let k = rng.random_range(1..w);
            let gap = rng.random_range(0..h);
            for i in (0..h).filter(|&i| i != gap) {
                rec.unlink(Cell::new(r + i, c + k - 1), Cell::new(r + i, c + k));
            }
            chambers.push((r, c, h, k));
            chambers.push((r, c + k, h, w - k));
        }
    }
}

fn braid_dead_ends(rec: &mut Recorder, rng: &mut impl Rng, fraction: f64) {
    if fraction <= 0.0 {
        return;
    }
    let mut dead = rec.passages.dead_ends();
    dead.shuffle(rng);
    for cell in dead {
        if rec.passages.links_of(cell).len() != 1 || !rng.random_bool(fraction) {
            continue;
        }
        let unlinked: Vec<Cell> = rec
            .passages
            .neighbours(cell)
            .into_iter()
            .filter(|&n| !rec.passages.linked(cell, n))
            .collect();
        let dead_too: Vec<Cell> = unlinked
            .iter()
            .copied()
            .filter(|&n| rec.passages.links_of(n).len() == 1)
            .collect();
        let pool = if dead_too.is_empty() {
            &unlinked
        } else {
            &dead_too
        };
        if let Some(&n) = pool.choose(rng) {
            rec.link(cell, n);
        }
    }
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
