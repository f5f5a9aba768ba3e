//! The grid maze as a search problem (`Problem`), a space the oracle explores (`Explorable`) and a `Puzzle` of the app.

use super::super::{Cell, Picture, PuzzleType, Report, Square, Watcher, solve_on_places};
use crate::search::{
    Algorithm, Backward, CancelToken, Cost, DenseIndex, Interrupt, JumpFn, JumpPlus, JumpPoints,
    Problem, ProblemCapabilities, ProblemFacts, SearchError, Successor, UnitGrid,
};

use super::*;

impl Problem for Maze {
    /// The square the path has reached: its row in the high 16 bits, its column in the low.
    type State = u32;
    type Move = Dir;

    fn start_states(&self) -> Vec<u32> {
        match self.percolation {
            Percolation::Off => vec![Self::state_at(self.start.row, self.start.col)],
            Percolation::TopBottom => self.free_line(0, false),
            Percolation::LeftRight => self.free_line(0, true),
        }
    }

    fn is_goal(&self, state: &u32) -> Result<bool, Interrupt> {
        let cell = self.cell(*state);
        Ok(match self.percolation {
            Percolation::Off if self.goals.len() == 1 => cell == self.goals[0],
            Percolation::Off => self.goals.contains(&cell),
            Percolation::TopBottom => cell.row == self.rows - 1,
            Percolation::LeftRight => cell.col == self.cols - 1,
        })
    }

    fn successors(&self, state: &u32, out: &mut Vec<Successor<u32, Dir>>) -> Result<(), Interrupt> {
        self.neighbours(*state, false, out);
        Ok(())
    }

    /// The chosen [`GridHeuristic`] to the nearest goal (in percolation mode, the rows or
    /// columns still to cross).
    fn heuristic(&self, state: &u32) -> Result<Cost, Interrupt> {
        let cell = self.cell(*state);
        Ok(match self.percolation {
            Percolation::Off => self.distance_to(cell, &self.goals),
            _ => self.percolation_distance(cell, false),
        })
    }

    /// In percolation mode the heuristic counts rows (or columns) still to cross, admissible
    /// whatever distance is chosen; otherwise see [`GridHeuristic::is_admissible`]. Unit costs
    /// on a uniform 4-connected grid; IDA* on uniform grids of at most
    /// [`IDA_MAX_SQUARES`] squares.
    fn facts(&self) -> ProblemFacts {
        ProblemFacts {
            has_heuristic: true,
            admissible: self.percolation != Percolation::Off
                || self.heuristic.is_admissible(self.connectivity),
            unit_costs: self.connectivity == Connectivity::Four && self.is_uniform(),
            suits_iterative_deepening: self.rows * self.cols <= IDA_MAX_SQUARES
                && self.is_uniform(),
            too_large_for_exhaustive_search: None,
        }
    }

    /// Squares numbered row-major; backward search always; the flat-table grid when
    /// 4-connected, every free square costing 1, one goal, no percolation and the Manhattan
    /// distance; Jump Point Search when 8-connected and uniform without corner cutting.
    fn capabilities(&self) -> ProblemCapabilities<'_, u32, Dir> {
        let plain = self.connectivity == Connectivity::Four
            && self.is_uniform()
            && self.percolation == Percolation::Off
            && self.goals.len() == 1
            && self.heuristic == GridHeuristic::Manhattan;
        let deltas = Dir::FOUR.map(Dir::delta);
        let jumps =
            self.connectivity == Connectivity::Eight && !self.corner_cutting && self.is_uniform();
        ProblemCapabilities {
            dense: Some(self),
            unit_grid: plain.then(|| UnitGrid {
                rows: self.rows,
                cols: self.cols,
                cost: self.cost.as_slice(),
                deltas,
                goal: self.index(self.goals[0]),
            }),
            backward: Some(self),
            jump_points: jumps.then_some(self as &dyn JumpPoints<u32, Dir>),
            claimed: None,
        }
    }
}

/// A square's number: its row-major index.
impl DenseIndex<u32> for Maze {
    fn dense_size(&self) -> usize {
        self.rows * self.cols
    }

    fn dense_index(&self, state: &u32) -> usize {
        self.index(self.cell(*state))
    }

    fn dense_state(&self, index: usize) -> Option<u32> {
        (index < self.rows * self.cols)
            .then(|| Self::state_at(index / self.cols, index % self.cols))
    }
}

/// The goal squares (percolation's: the free squares of the far line), the same moves
/// reversed, and the heuristic toward the start.
impl Backward<u32, Dir> for Maze {
    fn goal_states(&self) -> Vec<u32> {
        match self.percolation {
            Percolation::Off => self
                .goals
                .iter()
                .map(|g| Self::state_at(g.row, g.col))
                .collect(),
            Percolation::TopBottom => self.free_line(self.rows - 1, false),
            Percolation::LeftRight => self.free_line(self.cols - 1, true),
        }
    }

    fn predecessors(&self, state: &u32, out: &mut Vec<Successor<u32, Dir>>) {
        self.neighbours(*state, true, out);
    }

    fn heuristic_from_start(&self, state: &u32) -> Cost {
        let cell = self.cell(*state);
        match self.percolation {
            Percolation::Off => self.distance_to(cell, &[self.start]),
            _ => self.percolation_distance(cell, true),
        }
    }
}

/// The maze's scans on its bit rows (`jump.rs`), and JPS+ where there are goal squares.
impl JumpPoints<u32, Dir> for Maze {
    fn jump_scan(&self) -> JumpFn<'_, u32, Dir> {
        jump::jump_scan(self)
    }

    /// Where JPS applies, with goal squares (percolation's goal rows are not squares).
    fn supports_jump_distances(&self) -> bool {
        self.percolation == Percolation::Off
    }

    fn jump_distances(&self) -> Option<JumpPlus<'_, u32, Dir>> {
        jump::jump_plus(self)
    }

    fn jump_distances_bytes(&self) -> u64 {
        crate::search::octile::JumpDistances::bytes_for(self.rows, self.cols)
    }
}

impl crate::puzzles::oracle::Explorable for Maze {
    fn same_rules(&self, other: &Self) -> bool {
        (
            self.rows,
            self.cols,
            &self.cost,
            &self.goals,
            self.connectivity,
            self.corner_cutting,
            self.percolation,
        ) == (
            other.rows,
            other.cols,
            &other.cost,
            &other.goals,
            other.connectivity,
            other.corner_cutting,
            other.percolation,
        )
    }

    /// The maze with its start on the state's square, a goal square included (a position
    /// at the goal is solved: the oracle's answer at a playback's last move).
    fn at_state(&self, state: &u32) -> Self {
        let cell = self.cell(*state);
        let mut at = self.clone();
        if at.percolation == Percolation::Off {
            at.start = cell;
        }
        at
    }

    /// The maze to edit from a state opened from the space: as [`Explorable::at_state`], but
    /// a goal square keeps the start where it was (the editor keeps the start off the goals).
    fn opened_at(&self, state: &u32) -> Self {
        if self.goals.contains(&self.cell(*state)) {
            self.clone()
        } else {
            self.at_state(state)
        }
    }

    fn place_of_state(&self, state: &u32) -> Option<crate::puzzles::Place> {
        Some(self.cell(*state).into())
    }

    fn state_at_cell(&self, cell: Cell) -> Option<u32> {
        (cell.row < self.rows && cell.col < self.cols).then(|| Self::state_at(cell.row, cell.col))
    }

    fn metric_name(&self) -> String {
        "steps".into()
    }
}

impl crate::puzzles::Model for Maze {
    const TYPE: &'static PuzzleType = &TYPE;

    fn picture(&self) -> Picture {
        let mut squares: Vec<Square> = self
            .cost
            .as_slice()
            .iter()
            .map(|&c| match c {
                0 => Square::Blocked,
                1 => Square::Free,
                n => Square::Terrain(n),
            })
            .collect();
        let start = (self.percolation == Percolation::Off).then_some(self.start);
        if let Some(start) = start {
            squares[self.index(start)] = Square::Start;
            for &g in &self.goals {
                squares[self.index(g)] = Square::Goal;
            }
        }
        Picture {
            rows: self.rows,
            cols: self.cols,
            squares,
            start,
            board: false,
            goal_area: Vec::new(),
        }
    }

    fn dims(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn heuristic_name(&self) -> String {
        let what = match self.heuristic {
            GridHeuristic::Manhattan => "Manhattan distance",
            GridHeuristic::Euclidean => "Euclidean distance",
            GridHeuristic::Octile => "octile distance",
            GridHeuristic::Chebyshev => "Chebyshev distance",
            GridHeuristic::Zero => "zero",
        };
        let to = match self.percolation {
            Percolation::Off if self.goals.len() > 1 => " to the nearest goal",
            Percolation::Off => " to the goal",
            Percolation::TopBottom => " (rows to cross)",
            Percolation::LeftRight => " (columns to cross)",
        };
        let admissible = if self.facts().admissible {
            ""
        } else {
            ", not admissible with diagonal moves"
        };
        format!("{what}{to}{admissible}")
    }

    fn default_algorithm(&self) -> Algorithm {
        Algorithm::AStar
    }

    /// A percolation grid whose first row (or column) has no free square.
    fn unsolvable(&self) -> Option<String> {
        if self.percolation == Percolation::Off || !self.start_states().is_empty() {
            return None;
        }
        let side = match self.percolation {
            Percolation::LeftRight => "left column",
            _ => "top row",
        };
        Some(format!(
            "no square of the {side} is free, so the grid does not percolate"
        ))
    }

    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        if let Some(why) = crate::puzzles::Model::unsolvable(self) {
            return Err(SearchError::Unsolvable(why));
        }
        let mut report = solve_on_places(self, &TYPE, algorithm, watcher, cancel, |s| {
            self.cell(*s).into()
        })?;
        if matches!(algorithm, Algorithm::Jps | Algorithm::JpsPlus) {
            jump::unfold_report(&mut report);
        }
        if algorithm == Algorithm::JpsPlus {
            report.notes.push(format!(
                "jump distances of {} squares computed once in {:.3} ms (counted in the time)",
                self.rows * self.cols,
                report.stats.precompute_ms
            ));
        }
        if self.facts().admissible || !algorithm.needs_heuristic() {
            return Ok(report);
        }
        report.notes.push(
            "the Manhattan distance overestimates with diagonal moves, so this cost may not be \
             the least"
                .into(),
        );
        Ok(report)
    }

    fn options(&self) -> Vec<super::super::PuzzleOption> {
        vec![
            super::super::PuzzleOption::new(
                "moves",
                "4|8",
                "move in 4 directions, or 8 with diagonals costing sqrt(2)",
            ),
            super::super::PuzzleOption::new(
                "corner-cutting",
                "yes|no",
                "let a diagonal pass one blocked square beside it",
            ),
            super::super::PuzzleOption::new(
                "heuristic",
                "manhattan|euclidean|octile|chebyshev|zero",
                "the heuristic of A* and its kin",
            ),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match (name, value) {
            ("moves", "4") => self.set_connectivity(Connectivity::Four),
            ("moves", "8") => self.set_connectivity(Connectivity::Eight),
            ("moves", _) => return Err(format!("--moves must be 4 or 8, not {value}")),
            ("corner-cutting", "yes") => self.set_corner_cutting(true),
            ("corner-cutting", "no") => self.set_corner_cutting(false),
            ("corner-cutting", _) => {
                return Err(format!("--corner-cutting must be yes or no, not `{value}`"));
            }
            ("heuristic", _) => match GridHeuristic::from_name(value) {
                Some(h) => self.set_heuristic(h),
                None => {
                    return Err(format!(
                        "unknown grid heuristic `{value}` (known: manhattan, euclidean, \
                         octile, chebyshev, zero)"
                    ));
                }
            },
            _ => return Err(format!("unknown option `{name}`")),
        };
        Ok(())
    }

    fn stroke_value(&self, cell: Cell) -> Option<u8> {
        (self.contains(cell) && !self.is_end(cell)).then(|| u8::from(self.is_blocked(cell)))
    }

    fn paint(&mut self, cell: Cell, value: u8) -> bool {
        self.set_cost(cell, value)
    }

    fn to_text(&self) -> String {
        let mut text = String::new();
        if self.connectivity == Connectivity::Eight {
            text.push_str("moves: 8\n");
        }
        if self.corner_cutting {
            text.push_str("corner-cutting: yes\n");
        }
        if self.heuristic != GridHeuristic::natural(self.connectivity) {
            text.push_str(&format!("heuristic: {}\n", self.heuristic));
        }
        if self.percolation != Percolation::Off {
            text.push_str(&format!("percolation: {}\n", self.percolation.name()));
        }
        text.push_str(&self.row_strings().join("\n"));
        text.push('\n');
        text
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!(MazeJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            rows: self.row_strings(),
            moves: self.connectivity,
            corner_cutting: self.corner_cutting,
            heuristic: Some(self.heuristic),
            percolation: self.percolation,
        })
    }
}

/// The moves and distances the search and the oracle use.
impl Maze {
    /// The successors of square `index` (each move with the terrain cost of the square it
    /// enters); `backward` gives the predecessors instead (the same squares, each move from
    /// there to here with the cost of entering here).
    pub(super) fn neighbours(
        &self,
        state: u32,
        backward: bool,
        out: &mut Vec<Successor<u32, Dir>>,
    ) {
        let here = self.cell(state);
        let (r, c) = (here.row as isize, here.col as isize);
        let dirs: &[Dir] = match self.connectivity {
            Connectivity::Four => &Dir::FOUR,
            Connectivity::Eight => &Dir::ALL,
        };
        let here_cost = Cost::from(self.cost.get(self.index(here)));
        for &dir in dirs {
            let (dr, dc) = dir.delta();
            let (nr, nc) = if backward {
                (r - dr, c - dc)
            } else {
                (r + dr, c + dc)
            };
            if !self.free_at(nr, nc) {
                continue;
            }
            if dir.is_diagonal() {
                // The two squares beside the diagonal: the same pair either way round.
                let beside = (self.free_at(r, nc), self.free_at(nr, c));
                let allowed = if self.corner_cutting {
                    beside.0 || beside.1
                } else {
                    beside.0 && beside.1
                };
                if !allowed {
                    continue;
                }
            }
            let (nr, nc) = (nr as usize, nc as usize);
            let entered = if backward {
                here_cost
            } else {
                Cost::from(self.cost.get(nr * self.cols + nc))
            };
            out.push(Successor {
                state: Self::state_at(nr, nc),
                mv: dir,
                cost: entered * dir.length(),
            });
        }
    }

    /// The heuristic's distance from `cell` to the nearest of `targets`.
    fn distance_to(&self, cell: Cell, targets: &[Cell]) -> Cost {
        if let [t] = targets {
            return self
                .heuristic
                .distance(cell.row.abs_diff(t.row), cell.col.abs_diff(t.col));
        }
        targets
            .iter()
            .map(|t| {
                self.heuristic
                    .distance(cell.row.abs_diff(t.row), cell.col.abs_diff(t.col))
            })
            .fold(Cost::INFINITY, Cost::min)
    }

    /// Rows (or columns) still to cross in percolation mode: each move crosses at most one
    /// at a cost of at least 1. `from_start` measures to the first side instead.
    fn percolation_distance(&self, cell: Cell, from_start: bool) -> Cost {
        if self.heuristic == GridHeuristic::Zero {
            return 0.0;
        }
        let d = match (self.percolation, from_start) {
            (Percolation::TopBottom, false) => self.rows - 1 - cell.row,
            (Percolation::TopBottom, true) => cell.row,
            (Percolation::LeftRight, false) => self.cols - 1 - cell.col,
            (Percolation::LeftRight, true) => cell.col,
            (Percolation::Off, _) => 0,
        };
        d as Cost
    }

    /// The states of the free squares of row `index` or (`column`) column `index`.
    pub(super) fn free_line(&self, index: usize, column: bool) -> Vec<u32> {
        let cells: Vec<Cell> = if column {
            (0..self.rows).map(|r| Cell::new(r, index)).collect()
        } else {
            (0..self.cols).map(|c| Cell::new(index, c)).collect()
        };
        cells
            .into_iter()
            .filter(|&c| !self.is_blocked(c))
            .map(|c| Self::state_at(c.row, c.col))
            .collect()
    }
}
