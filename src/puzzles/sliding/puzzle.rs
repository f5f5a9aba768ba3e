//! The sliding-tile puzzle as the engine and the app see it: its search problem, its oracle
//! and its [`crate::puzzles::Model`] implementation.

use super::*;
use crate::puzzles::Model;
use crate::search::{Interrupt, ProblemFacts};

impl Problem for Sliding {
    type State = Board;
    type Move = Slide;

    fn start_states(&self) -> Vec<Board> {
        vec![self.board_of(&self.tiles)]
    }

    fn is_goal(&self, state: &Board) -> Result<bool, Interrupt> {
        Ok(state.tiles[..self.goal.len()] == self.goal[..])
    }

    /// The slides of the tiles next to the blank ([`Sliding::slides`]): never cut short.
    fn successors(
        &self,
        state: &Board,
        out: &mut Vec<Successor<Board, Slide>>,
    ) -> Result<(), Interrupt> {
        self.slides(state, out);
        Ok(())
    }

    /// See [`TileHeuristic`]; every choice is admissible and consistent.
    fn heuristic(&self, state: &Board) -> Result<Cost, Interrupt> {
        Ok(self.board_heuristic(state))
    }

    /// IDA* suits every board; boards of more than [`SMALL_BOARD`] squares are too large for
    /// an exhaustive search: their states do not fit in memory.
    fn facts(&self) -> ProblemFacts {
        let squares = self.rows * self.cols;
        let too_large = (squares > SMALL_BOARD).then(|| {
            let states = (2..=squares)
                .try_fold(1u64, |acc, k| acc.checked_mul(k as u64))
                .map_or_else(|| "more than 10^19".to_owned(), |f| (f / 2).to_string());
            format!(
                "the state space is too large for an exhaustive search: {states} states \
                 on a {} x {} board",
                self.rows, self.cols
            )
        });
        ProblemFacts {
            suits_iterative_deepening: true,
            too_large_for_exhaustive_search: too_large,
            ..ProblemFacts::with_heuristic()
        }
    }
}

impl crate::puzzles::oracle::Explorable for Sliding {
    fn motion(&self, state: &Board, mv: &Slide, _next: &Board) -> Option<crate::puzzles::Motion> {
        Some(self.motion_of(state, mv))
    }

    fn same_rules(&self, other: &Self) -> bool {
        (self.rows, self.cols, &self.goal) == (other.rows, other.cols, &other.goal)
    }

    fn at_state(&self, state: &Board) -> Self {
        Sliding {
            tiles: state.tiles[..self.rows * self.cols].to_vec(),
            undo: Vec::new(),
            ..self.clone()
        }
    }

    /// The board before the moves played since loading or scrambling.
    fn at_origin(&self) -> Self {
        let mut origin = self.clone();
        while origin.undo() {}
        origin
    }
}

/// The oracle of boards too large to explore (up to 16 squares): IDA* with the pattern
/// databases on the fast core, for the position and for the board after each move.
struct TileOracle {
    /// The puzzle with its pattern databases attached.
    puzzle: Sliding,
}

impl TileOracle {
    /// `puzzle` as a sliding board, if it has the same size and goal.
    fn same_board<'a>(&self, puzzle: &'a dyn Puzzle) -> Option<&'a Sliding> {
        let other = puzzle.model::<Sliding>()?;
        crate::puzzles::oracle::Explorable::same_rules(&self.puzzle, other).then_some(other)
    }

    /// The optimal number of moves from `tiles` (solvable), or `None` if stopped.
    fn optimal_length(&self, tiles: &[u8], cancel: &CancelToken) -> Option<u32> {
        let db = self.puzzle.attached_db()?;
        let run = tile_ida::solve(db, tiles, cancel);
        (run.outcome == Outcome::Found).then_some(run.blank_path.len() as u32)
    }
}

impl crate::puzzles::oracle::Oracle for TileOracle {
    fn is_instant(&self) -> bool {
        false
    }

    fn lower_bound(&self, puzzle: &dyn Puzzle) -> Option<u32> {
        let other = self.same_board(puzzle)?;
        other.check_solvable().ok()?;
        Some(
            self.puzzle
                .board_heuristic(&self.puzzle.board_of(&other.tiles)) as u32,
        )
    }

    fn assess(
        &self,
        puzzle: &dyn Puzzle,
        cancel: &CancelToken,
    ) -> Option<crate::puzzles::oracle::Assessment> {
        use crate::puzzles::oracle::{Assessment, Distance, RatedMove, rate};
        let other = self.same_board(puzzle)?;
        if other.check_solvable().is_err() {
            return Some(Assessment {
                distance: Distance::DeadEnd,
                moves: Vec::new(),
            });
        }
        let distance = Distance::Exact(self.optimal_length(&other.tiles, cancel)?);
        let mut successors = Vec::new();
        let board = self.puzzle.board_of(&other.tiles);
        self.puzzle.slides(&board, &mut successors);
        let mut moves = Vec::with_capacity(successors.len());
        for s in successors {
            let tiles = &s.state.tiles[..self.puzzle.rows * self.puzzle.cols];
            let after = Distance::Exact(self.optimal_length(tiles, cancel)?);
            moves.push(RatedMove {
                label: s.mv.to_string(),
                after,
                rating: rate(distance, after),
                motion: Some(self.puzzle.motion_of(&board, &s.mv)),
            });
        }
        moves.sort_by_key(|m| m.rating);
        Some(Assessment { distance, moves })
    }

    fn distance(
        &self,
        puzzle: &dyn Puzzle,
        cancel: &CancelToken,
    ) -> Option<crate::puzzles::oracle::Distance> {
        let other = self.same_board(puzzle)?;
        if other.check_solvable().is_err() {
            return Some(crate::puzzles::oracle::Distance::DeadEnd);
        }
        self.optimal_length(&other.tiles, cancel)
            .map(crate::puzzles::oracle::Distance::Exact)
    }

    fn metric(&self) -> String {
        "moves".to_owned()
    }
}

impl crate::puzzles::Model for Sliding {
    fn capabilities(&self) -> crate::puzzles::Capabilities<'_> {
        crate::puzzles::Capabilities {
            hand_play: Some(self),
            heuristic_sampling: Some(self),
            forecasts: Some(self),
            ..Default::default()
        }
    }

    fn preparation(&mut self) -> Option<&mut dyn crate::puzzles::Preparation> {
        Some(self)
    }

    const TYPE: &'static PuzzleType = &TYPE;

    fn picture(&self) -> Picture {
        self.picture_of(&self.board_of(&self.tiles))
    }

    fn heuristic_name(&self) -> String {
        self.heuristic.label().into()
    }

    /// A* on small boards, IDA* up to the 15-puzzle's size and on the 24-puzzle once its
    /// 6-6-6-6 pattern databases are attached, and greedy best-first (not optimal) on other
    /// larger boards, where optimal search can take hours: the app's choice, where the search
    /// is watched. The command line does better there ([`Puzzle::solve_default`]).
    fn default_algorithm(&self) -> Algorithm {
        match self.rows * self.cols {
            n if n <= SMALL_BOARD => Algorithm::AStar,
            n if n <= pattern_db::QUICK_MAX_SQUARES => Algorithm::IdaStar,
            _ if self.has_pattern_db() => Algorithm::IdaStar,
            _ => Algorithm::Greedy,
        }
    }

    /// Small boards are counted by search; larger ones by the formula (rows x cols)! / 2
    /// (every solvable arrangement is reachable), saturating at `u64::MAX`.
    fn count_states(&self, cancel: &CancelToken) -> StateCount {
        if self.rows * self.cols <= SMALL_BOARD {
            return crate::search::count_reachable(self, cancel);
        }
        let states = (2..=self.rows * self.cols)
            .try_fold(1u64, |acc, k| acc.checked_mul(k as u64))
            .map_or(u64::MAX, |f| f / 2);
        StateCount {
            states,
            goals: 1,
            ..StateCount::default()
        }
    }

    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        if let Err(reason) = self.check_solvable() {
            return Err(SearchError::Unsolvable(reason.to_string()));
        }
        // Unwatched IDA* with pattern databases runs on the fast core, and so does a
        // 24-puzzle's watched by its figures alone (too many states to watch one by one).
        let by_figures = self.rows * self.cols > pattern_db::QUICK_MAX_SQUARES
            && !watcher.is_silent()
            && watcher.takes_figures();
        let fast_db = self
            .attached_db()
            .filter(|_| algorithm == Algorithm::IdaStar && (watcher.is_silent() || by_figures));
        let mut report = match fast_db {
            Some(db) if by_figures => self.solve_fast_watched(db, watcher, cancel),
            Some(db) => self.solve_fast(db, cancel, &|_| {}),
            None => solve_on_boards(
                self,
                &TYPE,
                algorithm,
                watcher,
                cancel,
                |b| self.picture_of(b),
                |b, mv| self.motion_of(b, mv),
            )?,
        };
        if algorithm.needs_heuristic() {
            let note = match (self.pdb_set(), self.attached_db()) {
                (Some(_), Some(db)) => format!(
                    "heuristic: additive pattern databases {}{}",
                    db.sizes_text(),
                    if db.reflection().is_some() {
                        ", with the reflected lookup"
                    } else {
                        ""
                    }
                ),
                (Some(_), None) => {
                    "heuristic: linear conflict (the pattern database was not ready)".to_owned()
                }
                (None, _) => format!("heuristic: {}", self.heuristic.label()),
            };
            report.notes.push(note);
        }
        Ok(report)
    }

    /// On boards above 16 squares (the 24-puzzle): optimal IDA* first, for at most
    /// [`OPTIMAL_BUDGET`] (or half the time limit, if shorter); if it has not finished,
    /// weighted A* with weight 2 ([`crate::search::Weight::DEFAULT`]; a path at most twice
    /// the least cost) in the time left, the report's first note saying which. Elsewhere
    /// [`Puzzle::default_algorithm`].
    fn solve_default(
        &self,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        if self.rows * self.cols <= pattern_db::QUICK_MAX_SQUARES || self.has_pattern_db() {
            return Model::solve(self, Model::default_algorithm(self), watcher, cancel);
        }
        let started = std::time::Instant::now();
        let limits = cancel.limits();
        let budget = limits
            .timeout
            .map_or(OPTIMAL_BUDGET, |t| (t / 2).min(OPTIMAL_BUDGET));
        let trial = cancel.sharing_flag(crate::search::Limits {
            timeout: Some(budget),
            ..limits
        });
        let mut first = Model::solve(self, Algorithm::IdaStar, watcher, &trial)?;
        if first.outcome != Outcome::Timeout || cancel.is_cancelled() {
            if first.solved {
                first.notes.insert(
                    0,
                    format!(
                        "optimal IDA* finished within its budget of {:.0} s",
                        budget.as_secs_f64()
                    ),
                );
            }
            return Ok(first);
        }
        let rest = crate::search::Limits {
            timeout: limits.timeout.map(|t| t.saturating_sub(started.elapsed())),
            ..limits
        };
        let weight = crate::search::Weight::DEFAULT;
        let mut report = Model::solve(
            self,
            Algorithm::WeightedAStar(weight),
            watcher,
            &cancel.sharing_flag(rest),
        )?;
        let tables = if (self.rows, self.cols) == (5, 5) {
            "; for optimal answers on the 24-puzzle, build its 6-6-6-6 pattern databases once \
             (about 8 minutes, 320 MB on disk: add --heuristic pdb), then every solve uses \
             them"
        } else {
            ""
        };
        report.notes.insert(
            0,
            format!(
                "optimal IDA* did not finish within {:.0} s ({} states expanded); weighted A* \
                 (weight 2) answered instead, with a path at most twice the least length \
                 (choose -a idastar to wait for the optimum){tables}",
                budget.as_secs_f64(),
                first.stats.expanded
            ),
        );
        Ok(report)
    }

    fn options(&self) -> Vec<crate::puzzles::PuzzleOption> {
        vec![crate::puzzles::PuzzleOption::new(
            "heuristic",
            "misplaced|manhattan|linear_conflict|pdb|pdb78",
            "the heuristic (pdb: additive pattern databases, built on first use and cached; \
                   default on boards of 10 to 16 squares; on 5 x 5 Korf and Felner's 6-6-6-6, \
                   about 8 minutes to build once, then the default there; pdb78: the 7-8 \
                   databases of the 15-puzzle, a few minutes to build once, then the default \
                   on 4 x 4)",
        )]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match (name, TileHeuristic::from_name(value)) {
            ("heuristic", Some(h)) => {
                self.set_heuristic(h);
                Ok(())
            }
            _ => Err(format!(
                "unknown heuristic `{value}` (known: misplaced, manhattan, linear_conflict, pdb, pdb78)"
            )),
        }
    }

    /// Boards of at most 9 squares explore their space; up to 16, IDA* with pattern
    /// databases (loaded or built here, `progress` saying how far) searches each position.
    fn oracle(
        &self,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Box<dyn crate::puzzles::oracle::Oracle>, crate::puzzles::oracle::OracleError> {
        use crate::puzzles::oracle::OracleError;
        let squares = self.rows * self.cols;
        if squares <= SMALL_BOARD {
            return crate::puzzles::oracle::explore_counting(self, cancel, progress);
        }
        if squares > pattern_db::QUICK_MAX_SQUARES {
            return Err(OracleError::TooLarge(format!(
                "boards above {} squares are too large for optimal search by hand",
                pattern_db::QUICK_MAX_SQUARES
            )));
        }
        let mut puzzle = self.clone();
        puzzle.undo.clear();
        puzzle
            .prepare(true, cancel, &mut |f| {
                progress(&format!("pattern databases: {:.0} %", f * 100.0));
            })
            .map_err(|e| OracleError::Failed(e.to_string()))?;
        Ok(Box::new(TileOracle { puzzle }))
    }

    /// A board of the wrong parity, with the parities that disagree.
    fn unsolvable(&self) -> Option<String> {
        self.check_solvable().err().map(|e| e.to_string())
    }

    /// A press on a tile next to the blank slides it.
    fn stroke_value(&self, cell: Cell) -> Option<u8> {
        self.tile_at(cell).filter(|&t| t != 0).map(|_| 0)
    }

    fn paint(&mut self, cell: Cell, _value: u8) -> bool {
        self.slide(cell)
    }

    fn to_text(&self) -> String {
        let width = (self.rows * self.cols - 1).to_string().len();
        let block = |tiles: &[u8]| -> String {
            tiles
                .chunks(self.cols)
                .map(|row| {
                    let words: Vec<String> = row.iter().map(|t| format!("{t:>width$}")).collect();
                    words.join(" ") + "\n"
                })
                .collect()
        };
        let mut text = block(&self.tiles);
        if self.goal != default_goal(self.rows, self.cols) {
            text += "goal:\n";
            text += &block(&self.goal);
        }
        text
    }

    fn to_json(&self) -> serde_json::Value {
        let rows = |tiles: &[u8]| tiles.chunks(self.cols).map(<[u8]>::to_vec).collect();
        serde_json::json!(SlidingJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            tiles: rows(&self.tiles),
            goal: (self.goal != default_goal(self.rows, self.cols)).then(|| rows(&self.goal)),
        })
    }
}

impl Sliding {
    /// The heuristic chosen of `state` ([`Problem::heuristic`], which cannot fail).
    pub(super) fn board_heuristic(&self, state: &Board) -> Cost {
        let h = match self.heuristic {
            TileHeuristic::Misplaced => (0..self.goal.len())
                .filter(|&i| state.tiles[i] != 0 && state.tiles[i] != self.goal[i])
                .count() as u32,
            TileHeuristic::Manhattan => self.manhattan(state),
            TileHeuristic::PatternDb | TileHeuristic::PatternDb78 => match self.attached_db() {
                Some(db) => db.estimate(&state.tiles),
                None => self.manhattan(state) + self.linear_conflicts(state),
            },
            TileHeuristic::LinearConflict => self.manhattan(state) + self.linear_conflicts(state),
        };
        Cost::from(h)
    }

    /// Pushes the boards reached by sliding each tile next to the blank of `state` onto
    /// `out`: the successors of [`Problem::successors`], which cannot fail.
    pub(super) fn slides(&self, state: &Board, out: &mut Vec<Successor<Board, Slide>>) {
        let blank = usize::from(state.blank);
        let (br, bc) = (blank / self.cols, blank % self.cols);
        for side in Side::ALL {
            // The tile on `side` of the blank moves the opposite way.
            let (dr, dc) = side.delta();
            let (Some(r), Some(c)) = (br.checked_add_signed(dr), bc.checked_add_signed(dc)) else {
                continue;
            };
            if r >= self.rows || c >= self.cols {
                continue;
            }
            let square = r * self.cols + c;
            let mut next = *state;
            let tile = next.tiles[square];
            next.tiles.swap(square, blank);
            next.blank = square as u8;
            out.push(Successor {
                state: next,
                mv: Slide {
                    tile,
                    to: side.opposite(),
                },
                cost: 1.0,
            });
        }
    }
}
