//! Editing a maze: its squares blocked or free and their terrain cost, the start and goals
//! moved, random fills, inverting, clearing and resizing, a grid set whole; the start and
//! goals kept free through every edit.

use super::*;

impl Maze {
    /// Blocks or frees `cell` (freeing at cost 1). The start and goal squares stay free.
    /// Returns whether the maze changed.
    pub fn set_blocked(&mut self, cell: Cell, blocked: bool) -> bool {
        self.set_cost(cell, u8::from(!blocked))
    }

    /// Sets the terrain cost of `cell`: 0 blocks it, 1 to [`MAX_COST`] frees it with that
    /// cost (higher values are clamped). The start and goal squares stay free at cost 1 (the
    /// text format marks them `S` and `G`, which cost 1). Returns whether the maze changed.
    pub fn set_cost(&mut self, cell: Cell, cost: u8) -> bool {
        let cost = cost.min(MAX_COST);
        if !self.contains(cell) || self.is_end(cell) {
            return false;
        }
        let i = self.index(cell);
        self.cost.set(i, cost).is_some_and(|old| old != cost)
    }

    /// Moves the start to `cell`, which must be free and not a goal. Returns whether it moved.
    pub fn move_start(&mut self, cell: Cell) -> bool {
        if !self.contains(cell) || self.is_blocked(cell) || self.goals.contains(&cell) {
            return false;
        }
        let moved = std::mem::replace(&mut self.start, cell) != cell;
        self.keep_ends_free();
        moved
    }

    /// Moves goal number `i` (see [`Maze::goals`]) to `to`, which must be free, not the start
    /// and not another goal. Returns whether it moved.
    pub fn move_goal(&mut self, i: usize, to: Cell) -> bool {
        let Some(&from) = self.goals.get(i) else {
            return false;
        };
        if from == to
            || !self.contains(to)
            || self.is_blocked(to)
            || to == self.start
            || self.goals.contains(&to)
        {
            return false;
        }
        self.goals[i] = to;
        self.keep_ends_free();
        true
    }

    /// Adds a goal at `cell` (a free square, not the start), or removes the goal there if
    /// it is not the only one. Returns whether the goals changed.
    pub fn toggle_goal(&mut self, cell: Cell) -> bool {
        if let Some(i) = self.goals.iter().position(|&g| g == cell) {
            if self.goals.len() == 1 {
                return false;
            }
            self.goals.remove(i);
            return true;
        }
        if !self.contains(cell) || self.is_blocked(cell) || cell == self.start {
            return false;
        }
        self.goals.push(cell);
        self.keep_ends_free();
        true
    }

    /// Blocks each square other than the start and goals with probability `density`
    /// (0 to 1), drawing from a generator seeded with `seed`: the same seed gives the same maze.
    /// Free squares keep cost 1.
    pub fn randomize(&mut self, density: f64, seed: u64) {
        let mut rng = StdRng::seed_from_u64(seed);
        let density = density.clamp(0.0, 1.0);
        self.cost.fill_with(|_| u8::from(!rng.random_bool(density)));
        self.keep_ends_free();
    }

    /// Inverts every square (the article's "revert"): blocked squares become free at cost 1,
    /// free ones blocked; the start and goals stay free.
    pub fn invert(&mut self) {
        self.cost.fill_with(|c| u8::from(c == 0));
        self.keep_ends_free();
    }

    /// Frees every square at cost 1.
    pub fn clear(&mut self) {
        self.cost.fill_with(|_| 1);
    }

    /// Changes the size, keeping the squares that stay inside; a start or goal that falls
    /// outside moves back to its corner. Sides are clamped to [`MIN_SIDE`]..=[`MAX_SIDE`].
    pub fn resize(&mut self, rows: usize, cols: usize) {
        let rows = rows.clamp(MIN_SIDE, MAX_SIDE);
        let cols = cols.clamp(MIN_SIDE, MAX_SIDE);
        let mut cost = vec![1; rows * cols];
        for r in 0..rows.min(self.rows) {
            for c in 0..cols.min(self.cols) {
                cost[r * cols + c] = self.cost.get(r * self.cols + c);
            }
        }
        let fits = |cell: Cell| cell.row < rows && cell.col < cols;
        let start = if fits(self.start) {
            self.start
        } else {
            Cell::new(0, 0)
        };
        let mut goals: Vec<Cell> = self
            .goals
            .iter()
            .copied()
            .filter(|&g| fits(g) && g != start)
            .collect();
        if goals.is_empty() {
            goals.push(if start == Cell::new(rows - 1, cols - 1) {
                Cell::new(0, 0)
            } else {
                Cell::new(rows - 1, cols - 1)
            });
        }
        self.rows = rows;
        self.cols = cols;
        self.cost = Terrain::from_costs(cost);
        self.start = start;
        self.goals = goals;
        self.keep_ends_free();
    }

    /// Replaces the squares with `cost` (row-major, `rows * cols` entries, values as in
    /// [`Maze::cost_at`]), keeping the movement rules, and places the start and the goal.
    /// Used by the maze generators and the Moving AI import.
    pub(crate) fn set_grid(
        &mut self,
        rows: usize,
        cols: usize,
        cost: Vec<u8>,
        start: Cell,
        goal: Cell,
    ) {
        debug_assert_eq!(cost.len(), rows * cols);
        self.rows = rows;
        self.cols = cols;
        self.cost = Terrain::from_costs(cost);
        self.start = start;
        self.goals = vec![goal];
        self.keep_ends_free();
    }

    /// The start and goal squares are free at cost 1, as the text format's `S` and `G`
    /// (outside percolation mode, where they are not marked).
    pub(super) fn keep_ends_free(&mut self) {
        if self.percolation != Percolation::Off {
            return;
        }
        for cell in std::iter::once(self.start).chain(self.goals.clone()) {
            let i = self.index(cell);
            if self.cost.get(i) != 1 {
                self.cost.set(i, 1);
            }
        }
    }
}
