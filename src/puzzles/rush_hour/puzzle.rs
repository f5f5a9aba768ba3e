//! Rush Hour as a search problem (`Problem`), a space the oracle explores (`Explorable`) and a `Puzzle` of the app.

use crate::puzzles::{Cell, Picture, PuzzleType, Report, Watcher, solve_on_boards};
use crate::search::{
    Algorithm, CancelToken, Cost, Interrupt, Problem, ProblemFacts, SearchError, Successor,
};

use super::*;

impl Problem for RushHour {
    type State = RushState;
    type Move = Slide;

    fn start_states(&self) -> Vec<RushState> {
        vec![self.positions]
    }

    fn is_goal(&self, state: &RushState) -> Result<bool, Interrupt> {
        Ok(usize::from(state[0] + self.vehicles[0].len) == self.side)
    }

    /// Every vehicle slides along its axis: any distance through free cells (metric
    /// `moves`) or one cell (metric `steps`); each successor costs 1.
    fn successors(
        &self,
        state: &RushState,
        out: &mut Vec<Successor<RushState, Slide>>,
    ) -> Result<(), Interrupt> {
        let occupied = self.occupied(state);
        for (i, v) in self.vehicles.iter().enumerate() {
            let (back, forward) = self.room(state, occupied, i);
            let (back, forward) = match self.metric {
                Metric::Moves => (back, forward),
                Metric::Steps => (back.min(1), forward.min(1)),
            };
            let moves = (1..=back)
                .map(|d| -(d as i8))
                .chain((1..=forward).map(|d| d as i8));
            for by in moves {
                let mut next = *state;
                next[i] = next[i].saturating_add_signed(by);
                out.push(Successor {
                    state: next,
                    mv: Slide {
                        letter: v.letter,
                        horizontal: v.horizontal,
                        by,
                    },
                    cost: 1.0,
                });
            }
        }
        Ok(())
    }

    /// `moves`: each vehicle between the red car and the exit must move at least once, and
    /// the red car too unless it is there. `steps`: the red car's distance to the exit plus
    /// one step for each vehicle in its way. Both never overestimate.
    fn heuristic(&self, state: &RushState) -> Result<Cost, Interrupt> {
        let red = self.vehicles[0];
        let distance = self.side - usize::from(state[0] + red.len);
        let blockers = self.blockers(state);
        Ok(match self.metric {
            Metric::Moves => (blockers + usize::from(distance > 0)) as Cost,
            Metric::Steps => (blockers + distance) as Cost,
        })
    }

    fn facts(&self) -> ProblemFacts {
        ProblemFacts::with_heuristic()
    }
}

impl RushHour {
    /// The slide `mv` from `state` as a value: the vehicle's first cell (its left or top end)
    /// and how far it goes along its line.
    fn motion_of(&self, state: &RushState, mv: &Slide) -> crate::puzzles::Motion {
        let i = self
            .vehicles
            .iter()
            .position(|v| v.letter == mv.letter)
            .unwrap_or_default();
        let (line, at) = (
            self.vehicles.get(i).map_or(0, |v| usize::from(v.line)),
            usize::from(state.get(i).copied().unwrap_or_default()),
        );
        let by = i32::from(mv.by);
        if mv.horizontal {
            crate::puzzles::Motion {
                from: Cell::new(line, at),
                by: (0, by),
            }
        } else {
            crate::puzzles::Motion {
                from: Cell::new(at, line),
                by: (by, 0),
            }
        }
    }
}

impl crate::puzzles::oracle::Explorable for RushHour {
    fn motion(
        &self,
        state: &RushState,
        mv: &Slide,
        _next: &RushState,
    ) -> Option<crate::puzzles::Motion> {
        Some(self.motion_of(state, mv))
    }

    fn same_rules(&self, other: &Self) -> bool {
        (self.side, self.walls, &self.vehicles, self.metric)
            == (other.side, other.walls, &other.vehicles, other.metric)
    }

    fn at_state(&self, state: &RushState) -> Self {
        RushHour {
            positions: *state,
            hand: None,
            ..self.clone()
        }
    }

    /// The board the slides played by hand started from (this board if none was played
    /// since the layout last changed).
    fn at_origin(&self) -> Self {
        RushHour {
            hand: None,
            ..self.hand_record().map_or(self, |hand| &hand.origin).clone()
        }
    }

    fn metric_name(&self) -> String {
        match self.metric {
            Metric::Moves => "moves".into(),
            Metric::Steps => "steps".into(),
        }
    }
}

impl crate::puzzles::HandPlay for RushHour {
    fn moves_played(&self) -> usize {
        self.moves_played_by_hand() as usize
    }

    fn motion_from(&self, before: &dyn crate::puzzles::Puzzle) -> Option<crate::puzzles::Motion> {
        let before = before.model::<Self>()?;
        if before.vehicles != self.vehicles {
            return None;
        }
        let n = self.vehicles.len();
        let mut moved = (0..n).filter(|&i| before.positions[i] != self.positions[i]);
        let (i, None) = (moved.next()?, moved.next()) else {
            return None;
        };
        let v = &self.vehicles[i];
        let by =
            i8::try_from(i16::from(self.positions[i]) - i16::from(before.positions[i])).ok()?;
        let slide = Slide {
            letter: v.letter,
            horizontal: v.horizontal,
            by,
        };
        Some(self.motion_of(&before.positions, &slide))
    }
}

impl crate::puzzles::RandomLayouts for RushHour {
    /// A board of the same side and metric: the red car somewhere on its row, then cars and
    /// trucks (one in four) dropped at random where they fit, none lying across the exit
    /// row (which would block the way out for ever).
    fn random_layout(&self, seed: u64) -> Option<Box<dyn crate::puzzles::Puzzle>> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut board = RushHour::empty(self.side).ok()?;
        board.metric = self.metric;
        let exit_row = usize::from(board.vehicles[0].line);
        board.positions[0] = rng.random_range(0..=(self.side - 2) / 2) as u8;
        let wanted = rng.random_range(self.side + 2..=2 * self.side + 1);
        for _ in 0..wanted * 8 {
            if board.vehicles.len() > wanted {
                break;
            }
            let len = if rng.random_bool(0.25) { 3 } else { 2 };
            let horizontal = rng.random_bool(0.5);
            let cell = Cell::new(
                rng.random_range(0..self.side),
                rng.random_range(0..self.side),
            );
            if horizontal && cell.row == exit_row {
                continue;
            }
            let _ = board.place(cell, len, horizontal);
        }
        Some(Box::new(board))
    }
}

impl crate::puzzles::Model for RushHour {
    fn capabilities(&self) -> crate::puzzles::Capabilities<'_> {
        crate::puzzles::Capabilities {
            hand_play: Some(self),
            random_layouts: Some(self),
            ..Default::default()
        }
    }

    const TYPE: &'static PuzzleType = &TYPE;

    fn picture(&self) -> Picture {
        self.picture_of(&self.positions)
    }

    fn heuristic_name(&self) -> String {
        match self.metric {
            Metric::Moves => "vehicles blocking the red car, plus 1 unless it is out".into(),
            Metric::Steps => "the red car's distance to the exit plus its blockers".into(),
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
        let mut report = solve_on_boards(
            self,
            &TYPE,
            algorithm,
            watcher,
            cancel,
            |s| self.picture_of(s),
            |s, mv| self.motion_of(s, mv),
        )?;
        report.notes.push(format!(
            "metric: {} ({})",
            self.metric.name(),
            match self.metric {
                Metric::Moves => "a vehicle slides any distance",
                Metric::Steps => "a vehicle slides one cell",
            }
        ));
        Ok(report)
    }

    fn options(&self) -> Vec<crate::puzzles::PuzzleOption> {
        vec![crate::puzzles::PuzzleOption::new(
            "metric",
            "moves|steps",
            "count a vehicle's slide as one move whatever its length (moves) or one a cell (steps)",
        )]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match (name, Metric::from_name(value)) {
            ("metric", Some(metric)) => {
                self.set_metric(metric);
                Ok(())
            }
            _ => Err(format!("unknown {name} `{value}` (known: moves, steps)")),
        }
    }

    /// A press on a vehicle starts a drag of it.
    fn stroke_value(&self, cell: Cell) -> Option<u8> {
        self.vehicle_at(cell).map(|i| i as u8)
    }

    /// Dragging vehicle `value` onto `cell` slides it there along its axis, if the way is
    /// free; the slides of one drag (since [`crate::puzzles::Puzzle::begin_stroke`]) count as
    /// one.
    fn paint(&mut self, cell: Cell, value: u8) -> bool {
        let i = usize::from(value);
        let Some(v) = self.vehicles.get(i).copied() else {
            return false;
        };
        let (line, along) = if v.horizontal {
            (cell.row, cell.col)
        } else {
            (cell.col, cell.row)
        };
        if line != usize::from(v.line) {
            return false;
        }
        let pos = usize::from(self.positions[i]);
        let end = pos + usize::from(v.len) - 1;
        let by = if along < pos {
            along as isize - pos as isize
        } else if along > end {
            along as isize - end as isize
        } else {
            return false;
        };
        self.drag_slide(i, by as i8)
    }

    /// A new drag: its slides are one move (see [`RushHour::moves_played_by_hand`]).
    fn begin_stroke(&mut self) {
        self.end_drag();
    }

    fn to_text(&self) -> String {
        let mut text = String::new();
        if self.metric != Metric::Moves {
            text += &format!("metric: {}\n", self.metric.name());
        }
        for row in self.board_rows() {
            text += &row;
            text.push('\n');
        }
        text
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!(RushHourJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            board: self.board_rows(),
            metric: self.metric,
        })
    }
}
