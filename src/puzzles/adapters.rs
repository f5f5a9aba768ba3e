//! Running the engine's searches on a puzzle: states turned into places or pictures for the
//! watcher and the [`Report`], the algorithms that apply, and replaying moves.

use super::*;

/// Runs `algorithm` on a puzzle whose states map to places on its picture, translating states
/// to places for `observer` and for the [`Report`]. This is the body of most
/// [`Puzzle::solve`]s.
///
/// # Errors
/// As [`search::run`].
pub fn solve_on_places<P: Problem + ?Sized>(
    problem: &P,
    puzzle_type: &'static PuzzleType,
    algorithm: Algorithm,
    watcher: &mut dyn Watcher,
    cancel: &CancelToken,
    place_of: impl Fn(&P::State) -> Place,
) -> Result<Report, SearchError> {
    let mut adapter = PlaceObserver {
        inner: watcher,
        place_of: &place_of,
    };
    let result = search::run(problem, algorithm, &mut adapter, cancel)?;
    Ok(Report {
        puzzle_type: puzzle_type.name,
        algorithm,
        outcome: result.outcome,
        solved: result.outcome == Outcome::Found,
        optimal: result.optimal,
        cost: result.cost,
        moves: result.moves.iter().map(ToString::to_string).collect(),
        lurd: None,
        path: result.states.iter().map(&place_of).collect(),
        boards: Vec::new(),
        motions: Vec::new(),
        stats: result.stats,
        iterations: result.tables.iterations,
        per_f: result.tables.per_f,
        notes: algorithm_notes(algorithm),
        message: result.message,
        error: result.error.as_ref().map(program_error),
    })
}

/// The algorithms of [`Algorithm::ALL`] that apply to `problem`.
pub fn applicable<P: Problem + ?Sized>(problem: &P) -> Vec<Algorithm> {
    Algorithm::ALL
        .into_iter()
        .filter(|a| a.applies_to(problem))
        .collect()
}

struct PlaceObserver<'a, F> {
    inner: &'a mut dyn Watcher,
    place_of: &'a F,
}

impl<S, F: Fn(&S) -> Place> Observer<S> for PlaceObserver<'_, F> {
    fn expanded(&mut self, state: &S, depth: u64, stats: &Stats) {
        self.inner
            .expanded(Some((self.place_of)(state)), depth, stats);
    }

    fn before_expansion(&mut self, stats: &Stats) {
        self.inner.before_expansion(stats);
    }

    fn generated(&mut self, state: &S) {
        self.inner.generated(Some((self.place_of)(state)));
    }

    fn scored_generated(&mut self, g: Cost, h: Option<Cost>) {
        self.inner.scored_generated(g, h);
    }

    fn scored(&mut self, state: &S, g: Cost, h: Option<Cost>, parent: Option<&S>) {
        let parent = parent.map(|p| (self.place_of)(p));
        self.inner.scored((self.place_of)(state), g, h, parent);
    }

    fn wants_scores(&self) -> bool {
        self.inner.wants_scores()
    }

    fn path_push(&mut self, state: &S) {
        self.inner.path_push((self.place_of)(state));
    }

    fn path_pop(&mut self) {
        self.inner.path_pop();
    }

    fn is_silent(&self) -> bool {
        self.inner.is_silent()
    }

    fn grid_block_len(&self) -> usize {
        self.inner.grid_block_len()
    }

    /// A grid's square is the place at its row and column (see [`Problem::unit_grid`]), so
    /// the block goes on as it is.
    fn grid_block(&mut self, block: &search::GridBlock) {
        self.inner.grid_block(block);
    }
}

/// Runs `algorithm` on a puzzle whose states are whole boards, giving `watcher` the picture of
/// an expanded state when it asks for one, and the [`Report`] the picture of every state of
/// the solution (in [`Report::boards`]) and each move as a value (in [`Report::motions`], by
/// `motion_of(state before, move)`).
///
/// # Errors
/// As [`search::run`].
pub fn solve_on_boards<P: Problem + ?Sized>(
    problem: &P,
    puzzle_type: &'static PuzzleType,
    algorithm: Algorithm,
    watcher: &mut dyn Watcher,
    cancel: &CancelToken,
    picture_of: impl Fn(&P::State) -> Picture,
    motion_of: impl Fn(&P::State, &P::Move) -> Motion,
) -> Result<Report, SearchError> {
    let mut adapter = BoardObserver {
        inner: watcher,
        picture_of: &picture_of,
    };
    let result = search::run(problem, algorithm, &mut adapter, cancel)?;
    Ok(Report {
        puzzle_type: puzzle_type.name,
        algorithm,
        outcome: result.outcome,
        solved: result.outcome == Outcome::Found,
        optimal: result.optimal,
        cost: result.cost,
        moves: result.moves.iter().map(ToString::to_string).collect(),
        lurd: None,
        path: Vec::new(),
        boards: result.states.iter().map(&picture_of).collect(),
        motions: result
            .states
            .iter()
            .zip(&result.moves)
            .map(|(state, mv)| motion_of(state, mv))
            .collect(),
        stats: result.stats,
        iterations: result.tables.iterations,
        per_f: result.tables.per_f,
        notes: algorithm_notes(algorithm),
        message: result.message,
        error: result.error.as_ref().map(program_error),
    })
}

struct BoardObserver<'a, F> {
    inner: &'a mut dyn Watcher,
    picture_of: &'a F,
}

impl<S, F: Fn(&S) -> Picture> Observer<S> for BoardObserver<'_, F> {
    fn expanded(&mut self, state: &S, depth: u64, stats: &Stats) {
        if self.inner.wants_board() {
            self.inner.board((self.picture_of)(state));
        }
        self.inner.expanded(None, depth, stats);
    }

    fn before_expansion(&mut self, stats: &Stats) {
        self.inner.before_expansion(stats);
    }

    fn generated(&mut self, state: &S) {
        if self.inner.wants_generated_boards() {
            self.inner.generated_board((self.picture_of)(state));
        }
        self.inner.generated(None);
    }

    fn scored_generated(&mut self, g: Cost, h: Option<Cost>) {
        self.inner.scored_generated(g, h);
    }

    fn scored(&mut self, _state: &S, g: Cost, h: Option<Cost>, _parent: Option<&S>) {
        self.inner.scored_board(g, h);
    }

    fn wants_scores(&self) -> bool {
        self.inner.wants_scores()
    }

    fn is_silent(&self) -> bool {
        self.inner.is_silent()
    }
}

/// The error of a puzzle's own code that ended a run ([`search::ProblemError`]) as the
/// report's located error: the program's failure, with its line and column.
pub fn program_error(e: &search::ProblemError) -> FormatError {
    FormatError {
        line: e.line,
        column: e.column,
        in_program: true,
        ..FormatError::new(e.message.clone())
    }
}

/// What a report says of the algorithm beyond its name: weighted A*'s weight and bound.
fn algorithm_notes(algorithm: Algorithm) -> Vec<String> {
    match algorithm {
        Algorithm::WeightedAStar(w) => vec![format!(
            "weight {} (priority g + {} h; with a consistent heuristic the cost is at most {} times the least)",
            w.value(),
            w.value(),
            w.value()
        )],
        _ => Vec::new(),
    }
}

/// Replays `moves` (as named by `Display`) from the start state of `problem`, checking each is
/// a legal successor. Returns the states visited, start first, or the index of the first move
/// that is not legal. Tests and the GUI's playback use it.
pub fn replay<P: Problem + ?Sized>(problem: &P, moves: &[String]) -> Result<Vec<P::State>, usize> {
    let Some(mut at) = problem.start_states().into_iter().next() else {
        return Err(0);
    };
    let mut states = vec![at.clone()];
    let mut successors: Vec<Successor<P::State, P::Move>> = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        successors.clear();
        if problem.successors(&at, &mut successors).is_err() {
            return Err(i);
        }
        let Some(next) = successors.iter().find(|s| s.mv.to_string() == *mv) else {
            return Err(i);
        };
        at = next.state.clone();
        states.push(at.clone());
    }
    Ok(states)
}
