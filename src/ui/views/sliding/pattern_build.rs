//! The sliding view's pattern databases, built (or loaded from the disk cache) by the app's
//! background work for the view ([`crate::app::view_work`], named [`BUILDING`]), whose
//! progress and result come back as the view's commands, and kept in memory once ready so
//! that every board of the same size and goal shares them.

use std::sync::Arc;

use crate::app::WorkOrder;
use crate::puzzles::sliding::pattern_db::{PatternDb, PdbSet};
use crate::search::CancelToken;

use super::Command;

/// The view's name for the build's work.
pub(crate) const BUILDING: &str = "pattern-db";

struct Build {
    rows: usize,
    cols: usize,
    goal: Vec<u8>,
    set: PdbSet,
    progress: f64,
}

/// The pattern databases ready, and the one being built.
#[derive(Default)]
pub(crate) struct PatternBuilds {
    ready: Vec<Arc<PatternDb>>,
    building: Option<Build>,
    /// The board, goal and set whose build was stopped by hand: not started again by itself.
    stopped: Option<(usize, usize, Vec<u8>, PdbSet)>,
}

impl PatternBuilds {
    /// A ready database of `set` for this board and goal.
    pub fn ready_for(
        &self,
        rows: usize,
        cols: usize,
        goal: &[u8],
        set: PdbSet,
    ) -> Option<Arc<PatternDb>> {
        self.ready
            .iter()
            .find(|db| db.fits(rows, cols, goal) && db.set() == set)
            .cloned()
    }

    /// The progress (0 to 1) of the build of `set` for this board and goal, if one is
    /// running.
    pub fn progress_for(&self, rows: usize, cols: usize, goal: &[u8], set: PdbSet) -> Option<f64> {
        self.building
            .as_ref()
            .filter(|b| (b.rows, b.cols, b.goal.as_slice(), b.set) == (rows, cols, goal, set))
            .map(|b| b.progress)
    }

    /// The work that builds (or loads) the database of `set` for this board and goal, for
    /// the app to run ([`crate::app::ViewContext::start_work`], in place of a build for
    /// another board or set), unless one is ready or being built: its progress comes back as
    /// [`Command::PdbProgress`], its result as [`Command::PdbBuilt`].
    pub fn start(
        &mut self,
        rows: usize,
        cols: usize,
        goal: &[u8],
        set: PdbSet,
    ) -> Option<WorkOrder> {
        if self.ready_for(rows, cols, goal, set).is_some()
            || self.progress_for(rows, cols, goal, set).is_some()
        {
            return None;
        }
        let thread_goal = goal.to_vec();
        let order = WorkOrder::new(
            BUILDING,
            "pattern-db",
            CancelToken::new(),
            move |cx| {
                let built = PatternDb::load_or_build_set(
                    rows,
                    cols,
                    &thread_goal,
                    set,
                    cx.cancel,
                    &mut |fraction| cx.send(Command::PdbProgress(fraction)),
                );
                Command::PdbBuilt(built.map(Arc::new).map_err(|e| e.to_string()))
            },
            |e| Command::PdbBuilt(Err(e.to_string())),
        );
        self.building = Some(Build {
            rows,
            cols,
            goal: goal.to_vec(),
            set,
            progress: 0.0,
        });
        Some(order)
    }

    /// Forgets the build being started: its work could not start.
    pub fn not_started(&mut self) {
        self.building = None;
    }

    /// Stops the running build (the view has the app forget its work, whose thread sees the
    /// cancel within a fraction of a second) and keeps it from starting again by itself until
    /// [`PatternBuilds::resume`]. False when none was running.
    pub fn stop(&mut self) -> bool {
        let Some(build) = self.building.take() else {
            return false;
        };
        self.stopped = Some((build.rows, build.cols, build.goal, build.set));
        true
    }

    /// Whether the build of `set` for this board and goal was stopped by hand.
    pub fn is_stopped(&self, rows: usize, cols: usize, goal: &[u8], set: PdbSet) -> bool {
        self.stopped
            .as_ref()
            .is_some_and(|(r, c, g, s)| (*r, *c, g.as_slice(), *s) == (rows, cols, goal, set))
    }

    /// Lets a stopped build start again.
    pub fn resume(&mut self) {
        self.stopped = None;
    }

    /// The running build's progress, 0 to 1.
    pub fn progress(&mut self, fraction: f64) {
        if let Some(build) = &mut self.building {
            build.progress = fraction;
        }
    }

    /// The running build's outcome (the error as text: the build's own, or its thread's end
    /// without an answer): a database built is kept. `None` when no build runs (one
    /// stopped by hand tells nothing).
    pub fn finished(
        &mut self,
        done: Result<Arc<PatternDb>, String>,
    ) -> Option<Result<Arc<PatternDb>, String>> {
        self.building.take()?;
        if let Ok(db) = &done {
            self.ready.push(db.clone());
        }
        Some(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_build_ends_and_does_not_start_again_by_itself() {
        // A temporary cache, so the 24-puzzle's tables are built, not loaded.
        let dir = tempfile::tempdir().unwrap();
        crate::puzzles::sliding::pattern_db::set_cache_dir(dir.path().to_path_buf());
        let goal: Vec<u8> = (1..25).chain([0]).collect();
        let mut builds = PatternBuilds::default();
        assert!(builds.start(5, 5, &goal, PdbSet::Six).is_some());
        assert!(builds.progress_for(5, 5, &goal, PdbSet::Six).is_some());
        assert!(builds.stop(), "a build was running");
        assert!(builds.is_stopped(5, 5, &goal, PdbSet::Six));
        assert!(!builds.is_stopped(4, 4, &goal[..16], PdbSet::Six));
        assert!(builds.progress_for(5, 5, &goal, PdbSet::Six).is_none());
        let late = Err("stopped".to_owned());
        assert!(
            builds.finished(late).is_none(),
            "nothing to report once stopped"
        );
        assert!(!builds.stop(), "nothing left to stop");
        builds.resume();
        assert!(!builds.is_stopped(5, 5, &goal, PdbSet::Six));
        assert!(builds.ready_for(5, 5, &goal, PdbSet::Six).is_none());
    }
}
