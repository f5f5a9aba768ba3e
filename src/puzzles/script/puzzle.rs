//! A puzzle script as a search problem (`Problem`), a space the oracle explores
//! (`Explorable`) and a `Model` of the app. A call of the script that fails, or that the
//! run's Stop or one of its limits ended, returns that to the engine as an
//! [`Interrupt`](crate::search::Interrupt) (from `moves`, `is_goal` and `heuristic` alike):
//! the run ends there, with the error and its line, or stopped.

use crate::puzzles::oracle::{self, Explorable, Oracle, OracleError};
use crate::puzzles::{Cell, Picture, PuzzleType, Report, Watcher, solve_on_boards};
use crate::search::space::ExploreError;
use crate::search::{
    self, Algorithm, CancelToken, ClaimedHeuristic, Cost, Interrupt, Outcome, Problem,
    ProblemCapabilities, ProblemFacts, SearchError, Successor,
};

use super::*;

impl Problem for Script {
    /// The state in its canonical encoding.
    type State = State;
    /// The move's label.
    type Move = String;

    /// Its encoded bytes.
    fn state_heap_bytes(&self, state: &State) -> usize {
        state.len()
    }

    fn start_states(&self) -> Vec<State> {
        vec![self.here().into()]
    }

    /// `is_goal(state)`; its error, or the limit of the run that ended it, as the
    /// [`Interrupt`].
    fn is_goal(&self, state: &State) -> Result<bool, Interrupt> {
        self.goal_of(state).map_err(Failure::into_interrupt)
    }

    /// `moves(state)`; its error, or the limit of the run that ended it, as the
    /// [`Interrupt`].
    fn successors(
        &self,
        state: &State,
        out: &mut Vec<Successor<State, String>>,
    ) -> Result<(), Interrupt> {
        let began = std::time::Instant::now();
        let moves = self.moves_of(state);
        let nanos = u64::try_from(began.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.compiled.rate.add(nanos);
        for (mv, state, cost) in moves.map_err(Failure::into_interrupt)? {
            if cost != 1.0 {
                self.watch.non_unit.store(true, Ordering::Relaxed);
            }
            out.push(Successor { state, mv, cost });
        }
        Ok(())
    }

    /// `heuristic(state)` (0 when the script defines none); its error, or the limit of the
    /// run that ended it, as the [`Interrupt`].
    fn heuristic(&self, state: &State) -> Result<Cost, Interrupt> {
        if !self.compiled.meta.has_heuristic {
            return Ok(0.0);
        }
        self.heuristic_of(state).map_err(Failure::into_interrupt)
    }

    /// A heuristic when the script defines one, with IDA* then (a script's space can be too
    /// large for a closed set, and IDA* keeps only its path; it skips only the move straight
    /// back, so a space of many transpositions is searched again by every path); admissible
    /// only when the script says so (`const ADMISSIBLE = true`) and the claim was not
    /// withdrawn; unit costs when the script names no `cost` and no move of a run cost other
    /// than 1.
    fn facts(&self) -> ProblemFacts {
        let meta = &self.compiled.meta;
        ProblemFacts {
            has_heuristic: meta.has_heuristic,
            admissible: meta.admissible && !self.withdrawn && !self.watch.is_contradicted(),
            unit_costs: !meta.mentions_cost && !self.watch.non_unit.load(Ordering::Relaxed),
            suits_iterative_deepening: meta.has_heuristic,
            too_large_for_exhaustive_search: None,
        }
    }

    /// The script's admissibility is its word, which A* checks as it goes.
    fn capabilities(&self) -> ProblemCapabilities<'_, State, String> {
        ProblemCapabilities {
            claimed: Some(self),
            ..ProblemCapabilities::default()
        }
    }
}

impl ClaimedHeuristic for Script {
    fn heuristic_contradicted(&self, why: String) {
        self.watch.contradict(why);
    }
}

impl Script {
    /// Runs `work` with the script's calls on this thread bound to `cancel`: its Stop, time
    /// limit and memory budget end a long call (which returns that to the engine as an
    /// [`Interrupt`]).
    fn bound<T>(&self, cancel: &CancelToken, work: impl FnOnce() -> T) -> T {
        self.watch.take_contradiction();
        let _guard = call_limits::RunGuard::enter(cancel);
        work()
    }
}

/// Runs `work` on the workers of a search on several threads, if they could be started: each
/// worker's share of the work runs with the calls on its thread bound as they are on this one
/// (this run's Stop, time limit and memory budget, the call limits in force).
fn in_layers<T>(work: impl FnOnce(Option<search::Workers<'_>>) -> T) -> T {
    let binding = call_limits::Binding::current();
    let bind = |share: &mut dyn FnMut()| {
        let _bound = binding.enter();
        share();
    };
    work(call_limits::workers().map(|pool| search::Workers { pool, bind: &bind }))
}

impl Explorable for Script {
    fn same_rules(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.compiled, &other.compiled)
    }

    fn at_state(&self, state: &State) -> Self {
        Self {
            origin: Some(state.clone()),
            position: None,
            played: Vec::new(),
            ..self.clone()
        }
    }

    fn at_origin(&self) -> Self {
        Self {
            position: None,
            played: Vec::new(),
            ..self.clone()
        }
    }
}

/// The rate of the script's expansions so far (the calls of `moves` in searches, on each
/// thread: a search on two cores expands about twice as many a second), and the space
/// its `space_estimate()` says.
impl crate::puzzles::capabilities::Reach for Script {
    fn states_per_second(&self) -> Option<f64> {
        let (expansions, nanos) = self.compiled.rate.totals();
        (expansions > 0 && nanos > 0).then(|| expansions as f64 / (nanos as f64 / 1e9))
    }

    fn estimated_states(&self) -> Option<f64> {
        self.compiled.meta.space_estimate
    }

    /// A breadth-first count from the position, stopped at `time`.
    fn measure(&self, time: std::time::Duration) {
        let limits = search::Limits {
            timeout: Some(time),
            ..Default::default()
        };
        let _ = crate::puzzles::Model::count_states(self, &CancelToken::with_limits(limits));
    }
}

impl crate::puzzles::HandPlay for Script {
    fn moves_played(&self) -> usize {
        self.played.len()
    }
}

impl crate::puzzles::Model for Script {
    const TYPE: &'static PuzzleType = &TYPE;

    fn capabilities(&self) -> crate::puzzles::Capabilities<'_> {
        crate::puzzles::Capabilities {
            hand_play: Some(self),
            reach: Some(self),
            ..Default::default()
        }
    }

    fn picture(&self) -> Picture {
        self.picture_of(self.here())
    }

    fn withdraw_admissibility(&mut self) -> bool {
        let claimed = self.compiled.meta.admissible && !self.withdrawn;
        self.withdrawn = true;
        claimed
    }

    fn heuristic_name(&self) -> String {
        match (
            self.compiled.meta.has_heuristic,
            self.compiled.meta.admissible,
        ) {
            (false, _) => "none".into(),
            (true, true) => "the script's heuristic (declared admissible)".into(),
            (true, false) => "the script's heuristic (not declared admissible)".into(),
        }
    }

    fn default_algorithm(&self) -> Algorithm {
        let meta = &self.compiled.meta;
        if meta.has_heuristic && meta.admissible {
            Algorithm::AStar
        } else if meta.mentions_cost {
            Algorithm::Dijkstra
        } else {
            Algorithm::Bfs
        }
    }

    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        let report = self.bound(cancel, || {
            solve_on_boards(
                self,
                &TYPE,
                algorithm,
                watcher,
                cancel,
                |s| self.picture_of(s),
                |_, _| crate::puzzles::Motion::between(Cell::new(0, 0), Cell::new(0, 0)),
            )
        });
        let mut report = report?;
        if let Some(why) = self.watch.take_contradiction()
            && report.outcome != Outcome::ScriptError
        {
            report.optimal = false;
            report.notes.push(format!(
                "the script declares its heuristic ADMISSIBLE, but {why}; so the answer is \
                 not guaranteed optimal"
            ));
        }
        if let Some(note) = self.source_note() {
            report.notes.push(format!("source: {note}"));
        }
        Ok(report)
    }

    fn count_states(&self, cancel: &CancelToken) -> search::StateCount {
        // Layer by layer on every core, each worker's calls bound to this run as this
        // thread's are (its Stop, time limit and memory budget).
        self.bound(cancel, || {
            in_layers(|workers| match workers {
                Some(workers) => search::count_reachable_in_layers(self, cancel, workers),
                None => search::count_reachable(self, cancel),
            })
        })
    }

    fn oracle(
        &self,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Box<dyn Oracle>, OracleError> {
        // The space is explored on a copy of the script at its origin; a call that fails
        // ends the exploration with its error.
        let oracle = self.bound(cancel, || {
            let progress = &mut |n| progress(&format!("exploring: {n} states"));
            oracle::explore_by(self, |origin| {
                in_layers(|workers| match workers {
                    Some(workers) => search::space::StateGraph::explore_in_layers(
                        origin, cancel, progress, workers,
                    ),
                    None => search::space::StateGraph::explore(origin, cancel, progress),
                })
            })
        });
        // A script error is the oracle's failure (the count is tried instead), a stop or a
        // limit its stop.
        oracle.map_err(|e| match e {
            OracleError::Stopped(ExploreError { error: Some(e), .. }) => {
                OracleError::Failed(format!("script error: {e}"))
            }
            e => e,
        })
    }

    fn options(&self) -> Vec<crate::puzzles::PuzzleOption> {
        options_of(self.parameters())
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let value: i64 = value
            .parse()
            .map_err(|_| format!("--set {name} takes a whole number, not `{value}`"))?;
        self.set_parameter(name, value)
    }

    /// The picture is the script's drawing, not edited by hand.
    fn stroke_value(&self, _cell: Cell) -> Option<u8> {
        None
    }

    fn paint(&mut self, _cell: Cell, _value: u8) -> bool {
        false
    }

    fn to_text(&self) -> String {
        self.source().to_owned()
    }

    /// The state, as the script's value (`#{boat_left: true, c: 3, m: 3}`), on a line.
    fn position_text(&self) -> String {
        self.state_text() + "\n"
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!(ScriptJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            script: self.source().to_owned(),
            parameters: self
                .parameters()
                .iter()
                .map(|p| (p.name.clone(), p.value))
                .collect(),
        })
    }
}
