//! The sliding tile puzzle on the fast IDA* core ([`super::ida`]): its answer as a report like
//! the generic search's, and the run watched by its figures alone (the app's 24-puzzle at full
//! speed).

use super::pattern_db::{self, PatternDb};
use super::{Sliding, TYPE, tile_ida};
use crate::puzzles::{Report, Watcher};
use crate::search::{Algorithm, CancelToken, Cost, Outcome};

/// How often a fast IDA* run watched by its figures reports them ([`Watcher::figures`]).
const FIGURES_EVERY: std::time::Duration = std::time::Duration::from_millis(30);

impl Sliding {
    /// IDA* on the fast core ([`tile_ida`]) with `db`, watched by its figures alone
    /// ([`Watcher::figures`]): the core runs on a scoped thread while this one passes its
    /// progress to `watcher` every [`FIGURES_EVERY`], and holds the core's workers while the
    /// watcher says so (the time held is not counted).
    pub(super) fn solve_fast_watched(
        &self,
        db: &PatternDb,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Report {
        use std::sync::Mutex;
        use std::sync::atomic::{AtomicBool, Ordering};
        let latest = Mutex::new(tile_ida::Progress::default());
        let hold = AtomicBool::new(false);
        let started = std::time::Instant::now();
        let mut held = std::time::Duration::ZERO;
        let report_progress = |p: &tile_ida::Progress| {
            if let Ok(mut latest) = latest.lock() {
                *latest = *p;
            }
            while hold.load(Ordering::Relaxed) && !cancel.is_cancelled() {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        };
        let mut report = std::thread::scope(|scope| {
            let core = scope.spawn(|| self.solve_fast(db, cancel, &report_progress));
            let mut last = std::time::Instant::now();
            while !core.is_finished() {
                // The end is seen within a few milliseconds; the figures go out less often.
                std::thread::sleep(std::time::Duration::from_millis(2));
                let since = last.elapsed();
                if since < FIGURES_EVERY {
                    continue;
                }
                last = std::time::Instant::now();
                let p = latest.lock().map(|p| *p).unwrap_or_default();
                let elapsed = started.elapsed().saturating_sub(held);
                let stats = crate::search::Stats {
                    expanded: p.expanded,
                    generated: p.generated,
                    iterations: p.iteration,
                    threshold: Cost::from(p.bound),
                    elapsed_ms: elapsed.as_secs_f64() * 1000.0,
                    ..crate::search::Stats::default()
                };
                let holding = watcher.figures(&stats);
                if holding {
                    held += since;
                }
                hold.store(holding, Ordering::Relaxed);
            }
            hold.store(false, Ordering::Relaxed);
            core.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        report.stats.elapsed_ms = (report.stats.elapsed_ms - held.as_secs_f64() * 1000.0).max(0.0);
        report
    }

    /// IDA* on the fast core ([`tile_ida`]) with `db`, as a report like the generic search's;
    /// `progress` as [`tile_ida::solve_with`]'s.
    pub(super) fn solve_fast(
        &self,
        db: &PatternDb,
        cancel: &CancelToken,
        progress: &(dyn Fn(&tile_ida::Progress) + Sync),
    ) -> Report {
        let run = tile_ida::solve_with(db, &self.tiles, cancel, self.core_options(), progress);
        let found = run.outcome == Outcome::Found;
        let mut board = self.board_of(&self.tiles);
        let mut boards = vec![self.picture_of(&board)];
        let mut moves = Vec::with_capacity(run.blank_path.len());
        let mut motions = Vec::with_capacity(run.blank_path.len());
        let mut successors = Vec::new();
        // Each step is the successor whose blank is on the path's next square.
        for &q in &run.blank_path {
            successors.clear();
            self.slides(&board, &mut successors);
            let Some(step) = successors.iter().find(|s| s.state.blank == q) else {
                break;
            };
            moves.push(step.mv.to_string());
            motions.push(self.motion_of(&board, &step.mv));
            board = step.state;
            boards.push(self.picture_of(&board));
        }
        let message = (run.outcome == Outcome::Timeout).then(|| {
            // The stronger tables, where there are some for this board and they are not in use.
            let stronger =
                if (self.rows, self.cols) == (4, 4) && db.set() != pattern_db::PdbSet::Large {
                    ", or the 7-8 pattern databases (--heuristic pdb78)"
                } else {
                    ""
                };
            format!(
                "stopped at the time limit of {:.1} s ({} states expanded). Try a longer time \
                 limit{stronger}",
                cancel.limits().timeout.unwrap_or_default().as_secs_f64(),
                run.stats.expanded
            )
        });
        let notes = if found {
            vec![format!(
                "fast IDA* core: {:.1} million nodes generated a second",
                run.nodes_per_second() / 1e6
            )]
        } else {
            Vec::new()
        };
        Report {
            puzzle_type: TYPE.name,
            algorithm: Algorithm::IdaStar,
            outcome: run.outcome,
            solved: found,
            optimal: found,
            cost: run.blank_path.len() as Cost,
            moves,
            lurd: None,
            path: Vec::new(),
            boards: if found { boards } else { Vec::new() },
            motions: if found { motions } else { Vec::new() },
            stats: run.stats,
            iterations: run.iterations,
            per_f: Vec::new(),
            notes,
            message,
            error: None,
        }
    }
}
