//! The car maze as a search problem (`Problem`), a space the oracle explores (`Explorable`) and a `Puzzle` of the app.

use crate::puzzles::{
    Cell, Picture, Place, PuzzleType, Report, Side, Square, Watcher, solve_on_places,
};
use crate::search::{
    Algorithm, CancelToken, Cost, Interrupt, Problem, ProblemFacts, SearchError, Successor,
};

use super::*;

impl Problem for CarMaze {
    type State = CarState;
    type Move = Drive;

    fn start_states(&self) -> Vec<CarState> {
        vec![self.position]
    }

    fn is_goal(&self, state: &CarState) -> Result<bool, Interrupt> {
        Ok(state.at == self.exit)
    }

    fn successors(
        &self,
        state: &CarState,
        out: &mut Vec<Successor<CarState, Drive>>,
    ) -> Result<(), Interrupt> {
        for heading in Side::ALL {
            if let Some(next) = self.drive(*state, heading) {
                out.push(Successor {
                    state: next,
                    mv: Drive {
                        heading,
                        to: next.at,
                    },
                    cost: 1.0,
                });
            }
        }
        Ok(())
    }

    /// Manhattan distance to the exit: every move goes one intersection, so it never
    /// overestimates.
    fn heuristic(&self, state: &CarState) -> Result<Cost, Interrupt> {
        Ok((state.at.row.abs_diff(self.exit.row) + state.at.col.abs_diff(self.exit.col)) as Cost)
    }

    fn facts(&self) -> ProblemFacts {
        ProblemFacts::with_heuristic()
    }
}

impl crate::puzzles::oracle::Explorable for CarMaze {
    fn same_rules(&self, other: &Self) -> bool {
        (self.rows, self.cols, &self.turns, self.exit)
            == (other.rows, other.cols, &other.turns, other.exit)
    }

    fn at_state(&self, state: &CarState) -> Self {
        CarMaze {
            position: *state,
            driven: Vec::new(),
            ..self.clone()
        }
    }

    fn opened_at(&self, state: &CarState) -> Self {
        CarMaze {
            start: *state,
            ..self.at_state(state)
        }
    }

    fn at_origin(&self) -> Self {
        self.at_state(&self.start)
    }

    fn place_of_state(&self, state: &CarState) -> Option<Place> {
        Some(Place {
            cell: Self::picture_cell(state.at),
            side: Some(state.from),
        })
    }
}

/// The car is driven by hand; its moves are steps of the marker, not animated slides.
impl crate::puzzles::HandPlay for CarMaze {
    fn moves_played(&self) -> usize {
        self.driven.len()
    }
}

impl crate::puzzles::Model for CarMaze {
    fn capabilities(&self) -> crate::puzzles::Capabilities<'_> {
        crate::puzzles::Capabilities {
            hand_play: Some(self),
            ..Default::default()
        }
    }

    const TYPE: &'static PuzzleType = &TYPE;

    /// The grid with a border of one square, where the exit and the way in are drawn.
    fn picture(&self) -> Picture {
        let (rows, cols) = (self.rows + 2, self.cols + 2);
        let mut squares = vec![Square::Void; rows * cols];
        for r in 0..self.rows {
            for c in 0..self.cols {
                squares[(r + 1) * cols + c + 1] = Square::Junction(self.turns[r * self.cols + c]);
            }
        }
        let exit = Self::picture_cell(self.exit);
        squares[exit.row * cols + exit.col] = Square::Goal;
        let (dr, dc) = self.start.from.delta();
        let way_in = Spot {
            row: self.start.at.row + dr as i32,
            col: self.start.at.col + dc as i32,
        };
        if !self.inside(way_in) {
            let cell = Self::picture_cell(way_in);
            squares[cell.row * cols + cell.col] = Square::Start;
        }
        Picture {
            rows,
            cols,
            squares,
            start: Some(Self::picture_cell(self.position.at)),
            board: false,
            goal_area: Vec::new(),
        }
    }

    fn heuristic_name(&self) -> String {
        "Manhattan distance to the exit".into()
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
        solve_on_places(self, &TYPE, algorithm, watcher, cancel, |s| Place {
            cell: Self::picture_cell(s.at),
            side: Some(s.from),
        })
    }

    /// Intersections are edited with the turn editor, not painted.
    fn stroke_value(&self, _cell: Cell) -> Option<u8> {
        None
    }

    fn paint(&mut self, _cell: Cell, _value: u8) -> bool {
        false
    }

    fn to_text(&self) -> String {
        let mut text: String = self
            .rows_json()
            .iter()
            .map(|row| row.join(", ") + "\n")
            .collect();
        text += &format!(
            "start: {} {} {}\nexit: {} {}\n",
            self.start.at.row,
            self.start.at.col,
            self.start.from.letter(),
            self.exit.row,
            self.exit.col
        );
        text
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!(CarMazeJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            rows: self.rows_json(),
            start: Some(StartJson {
                row: self.start.at.row,
                col: self.start.at.col,
                side: self.start.from,
            }),
            exit: Some(self.exit),
        })
    }
}
