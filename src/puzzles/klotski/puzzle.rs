//! Klotski as a search problem (`Problem`), a space the oracle explores (`Explorable`) and a `Puzzle` of the app.

use crate::puzzles::{Cell, Picture, PuzzleType, Report, Square, Watcher, solve_on_boards};
use crate::search::{
    Algorithm, CancelToken, Cost, Interrupt, Problem, ProblemFacts, SearchError, Successor,
};

use super::*;

impl Problem for Klotski {
    type State = KlotskiState;
    type Move = Slide;

    fn start_states(&self) -> Vec<KlotskiState> {
        vec![self.canonical(&self.anchors)]
    }

    fn is_goal(&self, state: &KlotskiState) -> Result<bool, Interrupt> {
        Ok(usize::from(state[self.target]) == self.goal.row * self.cols + self.goal.col)
    }

    fn successors(
        &self,
        state: &KlotskiState,
        out: &mut Vec<Successor<KlotskiState, Slide>>,
    ) -> Result<(), Interrupt> {
        let n = self.pieces.len();
        let mut targets = Vec::new();
        for i in 0..n {
            self.reachable(&state[..n], i, &mut targets);
            for &to in &targets {
                let mut next = *state;
                next[i] = to;
                out.push(Successor {
                    state: self.canonical(&next[..n]),
                    mv: Slide {
                        letter: self.pieces[i].letter,
                        from: self.anchor_cell(state[i]),
                        to: self.anchor_cell(to),
                    },
                    cost: 1.0,
                });
            }
        }
        Ok(())
    }

    /// Unit metric: the Manhattan distance of the target's anchor to the goal (each move
    /// shifts the target by at most one cell). Piece metric: 1 until the target is home.
    /// Both never overestimate.
    fn heuristic(&self, state: &KlotskiState) -> Result<Cost, Interrupt> {
        let (r, c) = self.anchor_cell(state[self.target]);
        let d = usize::from(r).abs_diff(self.goal.row) + usize::from(c).abs_diff(self.goal.col);
        Ok(match self.metric {
            Metric::Unit => d as Cost,
            Metric::Piece => Cost::from(u8::from(d > 0)),
        })
    }

    fn facts(&self) -> ProblemFacts {
        ProblemFacts::with_heuristic()
    }
}

impl Slide {
    /// The slide as a value: the piece whose anchor (a cell of it) is at `from` goes to `to`.
    pub(super) fn motion(&self) -> crate::puzzles::Motion {
        let cell = |(r, c): (u8, u8)| Cell::new(usize::from(r), usize::from(c));
        crate::puzzles::Motion::between(cell(self.from), cell(self.to))
    }
}

impl crate::puzzles::oracle::Explorable for Klotski {
    fn motion(
        &self,
        _state: &Self::State,
        mv: &Slide,
        _next: &Self::State,
    ) -> Option<crate::puzzles::Motion> {
        Some(mv.motion())
    }

    fn same_rules(&self, other: &Self) -> bool {
        (
            self.rows,
            self.cols,
            &self.pieces,
            self.target,
            self.goal,
            self.metric,
        ) == (
            other.rows,
            other.cols,
            &other.pieces,
            other.target,
            other.goal,
            other.metric,
        )
    }

    fn at_state(&self, state: &KlotskiState) -> Self {
        let anchors = state[..self.pieces.len()].to_vec();
        Klotski {
            initial: anchors.clone(),
            anchors,
            undo: Vec::new(),
            redo: Vec::new(),
            drag: super::drag::Drag::default(),
            ..self.clone()
        }
    }

    fn at_origin(&self) -> Self {
        let mut origin = self.clone();
        origin.reset();
        origin
    }

    fn metric_name(&self) -> String {
        match self.metric {
            Metric::Unit => "cell moves".into(),
            Metric::Piece => "piece moves".into(),
        }
    }

    /// The move named with the letter of the piece at its anchor on `position`'s board:
    /// a state keeps interchangeable pieces sorted, so its slot's letter may be the other
    /// piece of the same shape ("h(3,1) down" where the board shows g).
    fn move_label(&self, position: &Self, mv: &Slide) -> String {
        let (r, c) = mv.from;
        let anchor = usize::from(r) * self.cols + usize::from(c);
        let on_board = (0..position.pieces.len())
            .filter(|&i| usize::from(position.anchors[i]) == anchor)
            .find(|&i| Some(position.pieces[i].class) == self.class_of(mv.letter))
            .map(|i| position.pieces[i].letter);
        Slide {
            letter: on_board.unwrap_or(mv.letter),
            ..*mv
        }
        .to_string()
    }
}

impl crate::puzzles::HandPlay for Klotski {
    fn moves_played(&self) -> usize {
        self.undo.len()
    }

    fn motion_from(&self, before: &dyn crate::puzzles::Puzzle) -> Option<crate::puzzles::Motion> {
        let before = before.model::<Self>()?;
        if before.anchors.len() != self.anchors.len() || before.cols != self.cols {
            return None;
        }
        let mut moved = (0..self.anchors.len()).filter(|&i| before.anchors[i] != self.anchors[i]);
        let (i, None) = (moved.next()?, moved.next()) else {
            return None;
        };
        let cell = |a: u8| Cell::new(usize::from(a) / self.cols, usize::from(a) % self.cols);
        Some(crate::puzzles::Motion::between(
            cell(before.anchors[i]),
            cell(self.anchors[i]),
        ))
    }
}

impl crate::puzzles::RandomLayouts for Klotski {
    /// The same board, target, goal and metric, and as many empty cells: the other pieces
    /// taken off, then single cells and 1 x 2 and 2 x 1 blocks dropped at random free cells
    /// until only that many cells are empty.
    fn random_layout(&self, seed: u64) -> Option<Box<dyn crate::puzzles::Puzzle>> {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut layout = crate::puzzles::oracle::Explorable::at_origin(self);
        let free = |k: &Klotski| {
            (0..k.rows * k.cols)
                .filter(|&i| k.slot_at(Cell::new(i / k.cols, i % k.cols)).is_none())
                .count()
        };
        let empty = free(self);
        layout.clear_pieces().ok()?;
        let mut cells: Vec<usize> = (0..self.rows * self.cols).collect();
        cells.shuffle(&mut rng);
        for i in cells {
            if free(&layout) <= empty {
                break;
            }
            let cell = Cell::new(i / self.cols, i % self.cols);
            let mut shapes = [Shape::Wide, Shape::Tall, Shape::Single];
            shapes.shuffle(&mut rng);
            if rng.random_bool(0.5) {
                shapes.sort_by_key(|s| *s == Shape::Single);
            }
            for shape in shapes {
                let (h, w) = shape.size();
                // Never fill cells that must stay empty.
                if free(&layout) < empty + h * w {
                    continue;
                }
                if layout.apply_tool(Tool::Place(shape), cell).is_ok() {
                    break;
                }
            }
        }
        Some(Box::new(layout))
    }
}

impl crate::puzzles::Model for Klotski {
    fn capabilities(&self) -> crate::puzzles::Capabilities<'_> {
        crate::puzzles::Capabilities {
            hand_play: Some(self),
            random_layouts: Some(self),
            ..Default::default()
        }
    }

    const TYPE: &'static PuzzleType = &TYPE;

    fn picture(&self) -> Picture {
        self.picture_of(&self.anchors)
    }

    fn heuristic_name(&self) -> String {
        match self.metric {
            Metric::Unit => "target's Manhattan distance to its goal".into(),
            Metric::Piece => "1 until the target is home".into(),
        }
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
        let n = self.pieces.len();
        let mut report = solve_on_boards(
            self,
            &TYPE,
            algorithm,
            watcher,
            cancel,
            |s| self.picture_of(&s[..n]),
            |_, mv| mv.motion(),
        )?;
        report.notes.push(format!(
            "metric: {} ({})",
            self.metric.name(),
            match self.metric {
                Metric::Unit => "one piece moves one cell",
                Metric::Piece => "one piece moves any distance",
            }
        ));
        Ok(report)
    }

    fn options(&self) -> Vec<crate::puzzles::PuzzleOption> {
        vec![crate::puzzles::PuzzleOption::new(
            "metric",
            "unit|piece",
            "count a move as one cell (unit) or any distance (piece)",
        )]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match (name, Metric::from_name(value)) {
            ("metric", Some(metric)) => {
                self.set_metric(metric);
                Ok(())
            }
            _ => Err(format!("unknown {name} `{value}` (known: unit, piece)")),
        }
    }

    /// A press on a piece starts a drag of that piece.
    fn stroke_value(&self, cell: Cell) -> Option<u8> {
        self.slot_at(cell).map(|i| i as u8)
    }

    /// Dragging piece `value` onto `cell` next to it moves it there, if the move is legal;
    /// in the `piece` metric the cells of one drag are one move.
    fn paint(&mut self, cell: Cell, value: u8) -> bool {
        let slot = usize::from(value);
        if slot >= self.pieces.len() || self.slot_at(cell) == Some(slot) {
            return false;
        }
        // The piece cell next to `cell` in the direction of the drag.
        let mask = self.masks[slot][usize::from(self.anchors[slot])];
        let neighbours = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        neighbours.into_iter().any(|(dr, dc): (isize, isize)| {
            let (Some(r), Some(c)) = (
                cell.row.checked_add_signed(dr),
                cell.col.checked_add_signed(dc),
            ) else {
                return false;
            };
            r < self.rows
                && c < self.cols
                && mask & (1 << (r * self.cols + c)) != 0
                && self.drag_move(Cell::new(r, c), cell)
        })
    }

    /// A new drag: in the `piece` metric its cells are one move (see
    /// [`Klotski::drag_move`]).
    fn begin_stroke(&mut self) {
        self.end_drag();
    }

    fn to_text(&self) -> String {
        let mut text = format!(
            "target: {}\ngoal: {} {}\n",
            self.pieces[self.target].letter, self.goal.row, self.goal.col
        );
        let distinct = self.distinct_letters();
        if !distinct.is_empty() {
            let letters: Vec<String> = distinct.iter().map(char::to_string).collect();
            text += &format!("distinct: {}\n", letters.join(" "));
        }
        if self.metric != Metric::Unit {
            text += &format!("metric: {}\n", self.metric.name());
        }
        let picture = crate::puzzles::Model::picture(self);
        for row in picture.squares.chunks(self.cols) {
            for square in row {
                text.push(match square {
                    Square::Piece { id, .. } => self.pieces[usize::from(*id)].letter,
                    _ => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!(KlotskiJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            rows: self.rows,
            cols: self.cols,
            pieces: self.to_layout_cells(),
            target: self.pieces[self.target].letter,
            goal: self.goal,
            distinct: self.distinct_letters(),
            metric: self.metric,
        })
    }
}
