//! Sokoban as a search problem on the push graph (`Problem`), a space the oracle explores
//! (`Explorable`), played by hand (`HandPlay`) and a `Puzzle` of the app.

use std::sync::Arc;

use crate::puzzles::{Cell, Motion, Picture, PuzzleType, Report, Watcher, solve_on_boards};
use crate::search::{
    Algorithm, CancelToken, Cost, Interrupt, Problem, ProblemFacts, SearchError, Successor,
};

use super::board::{FoundPush, Push, State};
use super::*;

/// The heuristic of a state with no perfect matching of boxes to goals (a dead end, whose
/// true distance is infinite): larger than any real distance, so such states come last.
const DEAD_END: Cost = 1.0e9;

impl Problem for Sokoban {
    type State = State;
    type Move = Push;

    /// The position, its player normalized in the `pushes` metric.
    fn start_states(&self) -> Vec<State> {
        vec![self.search_state(&self.position)]
    }

    fn is_goal(&self, state: &State) -> Result<bool, Interrupt> {
        Ok(self.board.is_solved(state))
    }

    /// Every push the player can walk to: the box goes one square on, onto a free square
    /// that is not dead, leaving no frozen 2 x 2 block off the goals; in the `pushes` metric
    /// only the pushes into a PI-corral when there is one (the option `corrals`). It costs 1
    /// in the `pushes` metric, the walk's steps plus 1 in `moves`.
    fn successors(
        &self,
        state: &State,
        out: &mut Vec<Successor<State, Push>>,
    ) -> Result<(), Interrupt> {
        let mut found: Vec<FoundPush> = Vec::new();
        let pushes = self.metric == Metric::Pushes;
        self.board.pushes(state, pushes, &mut found);
        if pushes && self.pi_corrals {
            // The player on its own square: a state of this metric has it on the top-left
            // square of its region, which reaches the same squares.
            self.board.prune_to_pi_corral(state, &mut found);
        }
        out.extend(found.into_iter().map(|f| Successor {
            cost: match self.metric {
                Metric::Pushes => 1.0,
                Metric::Moves => Cost::from(f.walk + 1),
            },
            state: f.next,
            mv: f.push,
        }));
        Ok(())
    }

    /// The minimum-cost perfect matching of the boxes to the goals on push distances
    /// (see [`super::board::Board::matching_bound`]): never more than the pushes left, so
    /// never more than the moves left either.
    fn heuristic(&self, state: &State) -> Result<Cost, Interrupt> {
        Ok(self
            .board
            .matching_bound(state)
            .map_or(DEAD_END, Cost::from))
    }

    /// Unit costs in the `pushes` metric.
    fn facts(&self) -> ProblemFacts {
        ProblemFacts {
            unit_costs: self.metric == Metric::Pushes,
            ..ProblemFacts::with_heuristic()
        }
    }

    fn state_heap_bytes(&self, state: &State) -> usize {
        state.boxes.len() * std::mem::size_of::<u16>()
    }
}

impl Sokoban {
    /// `position` as a state of the search: its player on the top-left square of its region
    /// in the `pushes` metric, on its own square in `moves`.
    fn search_state(&self, position: &State) -> State {
        match self.metric {
            Metric::Pushes => {
                let boxes = self.board.box_flags(position);
                State {
                    boxes: position.boxes.clone(),
                    player: self.board.normalized(&boxes, usize::from(position.player)) as u16,
                }
            }
            Metric::Moves => position.clone(),
        }
    }

    /// The push `mv` as a value: the box's square and its one-square move.
    pub(super) fn motion_of(mv: &Push) -> Motion {
        Motion {
            from: Cell::new(usize::from(mv.row), usize::from(mv.col)),
            by: mv.dir.delta(),
        }
    }

    /// The push a motion stands for.
    fn push_of(motion: &Motion) -> Option<Push> {
        let dir = Dir::ALL.into_iter().find(|d| d.delta() == motion.by)?;
        Some(Push {
            row: u8::try_from(motion.from.row).ok()?,
            col: u8::try_from(motion.from.col).ok()?,
            dir,
        })
    }

    /// The LURD of `pushes` played from the position (the player on its own square), with
    /// the positions after each push; `None` if one is not legal.
    pub fn lurd_of(&self, pushes: &[Push]) -> Option<(String, Vec<State>)> {
        self.board.lurd_of(&self.position, pushes)
    }

    /// The LURD of a report's solution (its moves, pushes named as [`Push`] writes them),
    /// played from the position; `None` if a move is not a legal push.
    pub fn lurd_of_moves(&self, moves: &[String]) -> Option<String> {
        let pushes: Option<Vec<Push>> = moves.iter().map(|m| Push::parse(m)).collect();
        Some(self.lurd_of(&pushes?)?.0)
    }
}

impl Push {
    /// Reads a push as [`Push`]'s `Display` writes it (`R 4,6`).
    pub fn parse(text: &str) -> Option<Push> {
        let (letter, square) = text.trim().split_once(' ')?;
        let mut letters = letter.chars();
        let (dir, upper) = Dir::from_letter(letters.next()?)?;
        let (row, col) = square.split_once(',')?;
        let (row, col): (u16, u16) = (row.trim().parse().ok()?, col.trim().parse().ok()?);
        (upper && letters.next().is_none()).then_some(())?;
        Some(Push {
            row: u8::try_from(row.checked_sub(1)?).ok()?,
            col: u8::try_from(col.checked_sub(1)?).ok()?,
            dir,
        })
    }
}

impl crate::puzzles::oracle::Explorable for Sokoban {
    fn motion(&self, _state: &State, mv: &Push, _next: &State) -> Option<Motion> {
        Some(Self::motion_of(mv))
    }

    fn same_rules(&self, other: &Self) -> bool {
        (Arc::ptr_eq(&self.board, &other.board) || self.level().rows == other.level().rows)
            && self.metric == other.metric
            && self.pi_corrals == other.pi_corrals
    }

    fn at_state(&self, state: &State) -> Self {
        Sokoban {
            position: state.clone(),
            hand: None,
            ..self.clone()
        }
    }

    /// The level at the position the moves played by hand started from.
    fn at_origin(&self) -> Self {
        Sokoban {
            position: self.origin_position().clone(),
            hand: None,
            ..self.clone()
        }
    }

    fn metric_name(&self) -> String {
        self.metric.name().into()
    }
}

impl crate::puzzles::HandPlay for Sokoban {
    fn moves_played(&self) -> usize {
        self.played_in_metric() as usize
    }

    /// The box pushed by the last step, if it pushed one.
    fn motion_from(&self, before: &dyn crate::puzzles::Puzzle) -> Option<Motion> {
        let before = before.model::<Self>()?;
        if !Arc::ptr_eq(&before.board, &self.board) {
            return None;
        }
        let gone: Vec<u16> = (before.position.boxes.iter())
            .filter(|b| self.position.boxes.binary_search(b).is_err())
            .copied()
            .collect();
        let came: Vec<u16> = (self.position.boxes.iter())
            .filter(|b| before.position.boxes.binary_search(b).is_err())
            .copied()
            .collect();
        let ([from], [to]) = (gone.as_slice(), came.as_slice()) else {
            return None;
        };
        Some(Motion::between(
            self.cell_of(usize::from(*from)),
            self.cell_of(usize::from(*to)),
        ))
    }
}

impl crate::puzzles::Model for Sokoban {
    fn capabilities(&self) -> crate::puzzles::Capabilities<'_> {
        crate::puzzles::Capabilities {
            hand_play: Some(self),
            ..Default::default()
        }
    }

    const TYPE: &'static PuzzleType = &TYPE;

    fn picture(&self) -> Picture {
        self.picture_of(&self.position)
    }

    fn heuristic_name(&self) -> String {
        "minimum-cost matching of boxes to goals on push distances".into()
    }

    fn default_algorithm(&self) -> Algorithm {
        Algorithm::AStar
    }

    fn unsolvable(&self) -> Option<String> {
        self.board.unsolvable.clone()
    }

    /// Runs the search on the push graph, then plays its pushes from the position to spell
    /// them as LURD: the report's boards show the player where it really walks (a state of
    /// the `pushes` metric keeps only its region), its `lurd` is the answer step by step,
    /// and its notes give the LURD and both counts.
    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        if let Some(reason) = self.board.unsolvable.clone() {
            return Err(SearchError::Unsolvable(reason));
        }
        let mut report = solve_on_boards(
            self,
            &TYPE,
            algorithm,
            watcher,
            cancel,
            |s| self.picture_of(s),
            |_, mv| Self::motion_of(mv),
        )?;
        report.notes.push(format!(
            "metric: {} ({})",
            self.metric.name(),
            match self.metric {
                Metric::Pushes => "a push costs 1, walking is free",
                Metric::Moves => "every step costs 1, pushes too",
            }
        ));
        if report.solved {
            let pushes: Option<Vec<Push>> = report.motions.iter().map(Self::push_of).collect();
            if let Some((lurd, states)) = pushes.and_then(|p| self.lurd_of(&p)) {
                let moves = lurd.chars().count();
                report.boards = states.iter().map(|s| self.picture_of(s)).collect();
                report
                    .notes
                    .push(super::pushes_and_moves(report.moves.len(), moves));
                report.notes.push(format!("lurd: {lurd}"));
                report.lurd = Some(lurd);
            }
        }
        Ok(report)
    }

    /// In the `pushes` metric, optimal A* under a short budget, then the fast solver (see
    /// [`Sokoban::solve_fast`]); A* in `moves`.
    fn solve_default(
        &self,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        self.solve_default_here(watcher, cancel)
    }

    fn options(&self) -> Vec<crate::puzzles::PuzzleOption> {
        vec![
            crate::puzzles::PuzzleOption::new(
                "metric",
                "pushes|moves",
                "count pushes alone, walking free (pushes), or every step of the player (moves)",
            ),
            crate::puzzles::PuzzleOption::new(
                "corrals",
                "on|off",
                "in the pushes metric and in the fast solver, search only the pushes into a PI-corral when there is one (on, the default)",
            ),
            crate::puzzles::PuzzleOption::new(
                "packing",
                "on|off",
                "the fast solver searches first the positions with more goals filled in the goal-room packing order (on, the default)",
            ),
            crate::puzzles::PuzzleOption::new(
                "weight",
                "0..100",
                "the fast solver's order after the packing: 0 (the default) the matching bound alone (greedy best-first); W the pushes made plus W times the bound (weighted A*)",
            ),
            crate::puzzles::PuzzleOption::new(
                "order",
                "both|fess|greedy",
                "the fast solver's order: FESS's feature cells (packing, connectivity) taken in turn (fess), one greedy best-first order on the packing and the bound (greedy), or both, expanding from each in turn (both, the default)",
            ),
            crate::puzzles::PuzzleOption::new(
                "deadlocks",
                "corral|simple",
                "the fast solver's deadlock checks: dead squares, freeze, the matching and corral deadlocks (corral, the default; a corral whose boxes alone cannot reach goals), or all but corral deadlocks (simple)",
            ),
            crate::puzzles::PuzzleOption::new(
                "macros",
                "on|off|tunnels|goals",
                "the fast solver's macro pushes: a push into a tunnel taken to its end, and a box pushed next to the goals taken on to the next goal of the packing order (on, the default: both; tunnels or goals: one of them; off: none)",
            ),
            crate::puzzles::PuzzleOption::new(
                "level",
                "N",
                "the level of the collection, 1-based as numbered in the file",
            ),
        ]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "metric" => {
                let metric = Metric::from_name(value)
                    .ok_or_else(|| format!("unknown metric `{value}` (known: pushes, moves)"))?;
                self.set_metric(metric);
                Ok(())
            }
            "corrals" => {
                self.pi_corrals = match value.trim() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("corrals is on or off, not `{value}`")),
                };
                Ok(())
            }
            "packing" => {
                self.packing = match value.trim() {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("packing is on or off, not `{value}`")),
                };
                Ok(())
            }
            "weight" => {
                self.weight = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&w| w <= 100)
                    .ok_or_else(|| {
                        format!("the weight is a whole number from 0 to 100, not `{value}`")
                    })?;
                Ok(())
            }
            "order" => {
                self.order = match value.trim() {
                    "both" => super::fast::Order::Alternate,
                    "fess" => super::fast::Order::Fess,
                    "greedy" => super::fast::Order::Greedy,
                    _ => return Err(format!("order is both, fess or greedy, not `{value}`")),
                };
                Ok(())
            }
            "deadlocks" => {
                self.corral_deadlocks = match value.trim() {
                    "corral" => true,
                    "simple" => false,
                    _ => return Err(format!("deadlocks is corral or simple, not `{value}`")),
                };
                Ok(())
            }
            "macros" => {
                (self.tunnels, self.goal_macros) = match value.trim() {
                    "on" => (true, true),
                    "off" => (false, false),
                    "tunnels" => (true, false),
                    "goals" => (false, true),
                    _ => {
                        return Err(format!(
                            "macros is on, off, tunnels or goals, not `{value}`"
                        ));
                    }
                };
                Ok(())
            }
            "level" => {
                let number: usize = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("the level is a number from 1, not `{value}`"))?;
                self.set_level(number)
            }
            _ => Err(format!(
                "unknown option `{name}` (known: metric, corrals, packing, weight, order, deadlocks, macros, level)"
            )),
        }
    }

    /// Squares are not painted: a click walks (the view's), keys step and push.
    fn stroke_value(&self, _cell: Cell) -> Option<u8> {
        None
    }

    fn paint(&mut self, _cell: Cell, _value: u8) -> bool {
        false
    }

    fn to_text(&self) -> String {
        self.xsb()
    }

    fn to_json(&self) -> serde_json::Value {
        self.json()
    }
}
