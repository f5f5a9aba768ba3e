//! The maze generators, one function each, carving passages through a [`Recorder`] (which
//! keeps every step for the animation): binary tree, sidewinder, Aldous-Broder, Wilson,
//! hunt-and-kill, growing tree (recursive backtracker at its newest end), Kruskal, Prim,
//! Eller, recursive division, and the braiding of dead ends.

use rand::Rng;
use rand::seq::{IndexedRandom as _, SliceRandom as _};

use super::*;

pub(super) fn all_cells(p: &Passages) -> impl Iterator<Item = Cell> + use<> {
    let (rows, cols) = (p.rows, p.cols);
    (0..rows).flat_map(move |r| (0..cols).map(move |c| Cell::new(r, c)))
}

/// The neighbours of `cell` whose `visited` flag (indexed row * cols + col) is `wanted`.
pub(super) fn neighbours_where(
    p: &Passages,
    cell: Cell,
    visited: &[bool],
    wanted: bool,
) -> Vec<Cell> {
    p.neighbours(cell)
        .into_iter()
        .filter(|n| visited[n.row * p.cols + n.col] == wanted)
        .collect()
}

pub(super) fn random_cell(p: &Passages, rng: &mut impl Rng) -> Cell {
    Cell::new(rng.random_range(0..p.rows), rng.random_range(0..p.cols))
}

pub(super) fn binary_tree(rec: &mut Recorder, rng: &mut impl Rng) {
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

pub(super) fn sidewinder(rec: &mut Recorder, rng: &mut impl Rng) {
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

pub(super) fn aldous_broder(rec: &mut Recorder, rng: &mut impl Rng) {
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

pub(super) fn wilson(rec: &mut Recorder, rng: &mut impl Rng) {
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

pub(super) fn hunt_and_kill(rec: &mut Recorder, rng: &mut impl Rng) {
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
pub(super) fn growing_tree(rec: &mut Recorder, rng: &mut impl Rng, newest: f64) {
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

pub(super) fn kruskal(rec: &mut Recorder, rng: &mut impl Rng) {
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

pub(super) fn prim(rec: &mut Recorder, rng: &mut impl Rng) {
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

pub(super) fn eller(rec: &mut Recorder, rng: &mut impl Rng) {
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

pub(super) fn recursive_division(rec: &mut Recorder, rng: &mut impl Rng) {
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

pub(super) fn braid_dead_ends(rec: &mut Recorder, rng: &mut impl Rng, fraction: f64) {
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
