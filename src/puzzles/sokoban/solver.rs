//! Sokoban's answers from the fast solver ([`super::fast`]) as reports like the generic
//! search's, and the command line's default: optimal A* under a short budget, then the fast
//! solver in the time left.

use std::time::{Duration, Instant};

use super::board::Push;
use super::{Metric, Sokoban, TYPE, fast};
use crate::puzzles::{Model, Report, Watcher};
use crate::search::{Algorithm, CancelToken, Cost, Limits, Outcome, SearchError, Stats};

/// The longest optimal A* runs before [`Sokoban::solve_default`] hands a level to the fast
/// solver (or a tenth of the time limit, if that is shorter).
pub const OPTIMAL_BUDGET: Duration = Duration::from_secs(2);

impl Sokoban {
    /// Solves the position with the fast solver ([`fast::solve`]), in the `pushes` metric's
    /// push graph whatever the metric (its answer is solved, not proved optimal, in either),
    /// under the limits of `cancel`.
    ///
    /// # Errors
    /// [`SearchError::Unsolvable`] for a level seen unsolvable without a search.
    pub fn solve_fast(&self, cancel: &CancelToken) -> Result<Report, SearchError> {
        if let Some(reason) = self.board.unsolvable.clone() {
            return Err(SearchError::Unsolvable(reason));
        }
        let options = fast::Options {
            packing: self.packing,
            weight: self.weight,
            corrals: self.pi_corrals,
            order: self.order,
            corral_deadlocks: self.corral_deadlocks,
            tunnels: self.tunnels,
            goal_macros: self.goal_macros,
        };
        let run = fast::solve(&self.board, &self.position, options, cancel);
        let found = run.outcome == Outcome::Found;
        let stats = Stats {
            expanded: run.expanded,
            generated: run.generated,
            max_closed: run.stored,
            elapsed_ms: run.elapsed.as_secs_f64() * 1000.0,
            peak_memory_bytes: run.peak_bytes,
            ..Stats::default()
        };
        let mut report = Report {
            puzzle_type: TYPE.name,
            algorithm: Algorithm::Greedy,
            outcome: run.outcome,
            solved: false,
            optimal: false,
            cost: 0.0,
            moves: Vec::new(),
            lurd: None,
            path: Vec::new(),
            boards: Vec::new(),
            motions: Vec::new(),
            stats,
            iterations: Vec::new(),
            per_f: Vec::new(),
            notes: vec![format!(
                "fast solver (best-first on the packing order and the matching bound; dead \
                 squares, freeze, bipartite and corral deadlocks, PI-corrals, tunnel and goal \
                 macros, a transposition table): {} positions expanded, {} stored, {:.0} \
                 expanded a second",
                run.expanded,
                run.stored,
                run.expanded as f64 / run.elapsed.as_secs_f64().max(1e-9)
            )],
            message: None,
            error: None,
        };
        if found {
            self.fill_answer(&mut report, &run.pushes);
        } else {
            report.message = Some(match run.outcome {
                Outcome::NotFound => "no solution: every position reachable without a \
                                      deadlock was searched"
                    .into(),
                Outcome::Timeout => format!(
                    "stopped at the time limit of {:.1} s ({} positions expanded); try a \
                     longer time limit",
                    cancel.limits().timeout.unwrap_or_default().as_secs_f64(),
                    run.expanded
                ),
                Outcome::MemoryLimit => format!(
                    "stopped at the memory budget of {} ({} positions stored)",
                    crate::search::limits::format_bytes(cancel.limits().max_memory),
                    run.stored
                ),
                _ => "stopped".into(),
            });
        }
        Ok(report)
    }

    /// Puts the answer `pushes` (legal from the position) into `report`: its moves, motions,
    /// boards, LURD and cost in the metric, "solved, not proved optimal".
    fn fill_answer(&self, report: &mut Report, pushes: &[Push]) {
        let Some((lurd, states)) = self.lurd_of(pushes) else {
            report.outcome = Outcome::NotFound;
            report.message =
                Some("internal error: the fast solver's answer does not replay".into());
            return;
        };
        let moves = lurd.chars().count();
        report.solved = true;
        report.cost = match self.metric {
            Metric::Pushes => pushes.len() as Cost,
            Metric::Moves => moves as Cost,
        };
        report.moves = pushes.iter().map(Push::to_string).collect();
        report.motions = pushes.iter().map(Self::motion_of).collect();
        report.boards = states.iter().map(|s| self.picture_of(s)).collect();
        report.stats.max_depth = pushes.len() as u64;
        report.notes.push(format!(
            "{} (solved, not proved optimal)",
            super::pushes_and_moves(pushes.len(), moves)
        ));
        report.notes.push(format!("lurd: {lurd}"));
        report.lurd = Some(lurd);
    }

    /// The command line's default (see the module's doc): in the `pushes` metric, A* for
    /// at most [`OPTIMAL_BUDGET`] (or a tenth of the time limit), its answer optimal; if it
    /// has not finished, the fast solver in the time left, the report's first note saying
    /// which. In the `moves` metric, A*.
    pub(super) fn solve_default_here(
        &self,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        if self.metric == Metric::Moves {
            return Model::solve(self, Algorithm::AStar, watcher, cancel);
        }
        let started = Instant::now();
        let limits = cancel.limits();
        let budget = limits
            .timeout
            .map_or(OPTIMAL_BUDGET, |t| (t / 10).min(OPTIMAL_BUDGET));
        let trial = cancel.sharing_flag(Limits {
            timeout: Some(budget),
            ..limits
        });
        let first = Model::solve(self, Algorithm::AStar, watcher, &trial)?;
        let stopped = matches!(first.outcome, Outcome::Timeout | Outcome::MemoryLimit);
        if !stopped || cancel.is_cancelled() {
            return Ok(first);
        }
        let rest = Limits {
            timeout: limits.timeout.map(|t| t.saturating_sub(started.elapsed())),
            ..limits
        };
        let mut report = self.solve_fast(&cancel.sharing_flag(rest))?;
        report.notes.insert(
            0,
            format!(
                "optimal A* did not finish within {:.1} s ({} positions expanded); the fast \
                 solver answered (choose -a astar to wait for the optimum)",
                budget.as_secs_f64(),
                first.stats.expanded
            ),
        );
        report.stats.expanded += first.stats.expanded;
        report.stats.elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        Ok(report)
    }
}
