//! The sliding view's pattern databases, built (or loaded from the disk cache) on a
//! named background thread that reports its progress over a channel, and kept in memory once
//! ready so that every board of the same size and goal shares them.

use std::sync::Arc;

use crate::app::job::Job;
use crate::puzzles::sliding::pattern_db::{PatternDb, PdbError, PdbSet};
use crate::search::CancelToken;

struct Build {
    rows: usize,
    cols: usize,
    goal: Vec<u8>,
    set: PdbSet,
    job: Job<Result<PatternDb, PdbError>, f64>,
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

    /// Starts building (or loading) the database of `set` for this board and goal on a
    /// background thread, unless one is ready or being built; a build for another board or
    /// set is cancelled.
    ///
    /// # Errors
    /// The error of spawning the thread.
    pub fn start(
        &mut self,
        rows: usize,
        cols: usize,
        goal: &[u8],
        set: PdbSet,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> std::io::Result<()> {
        if self.ready_for(rows, cols, goal, set).is_some()
            || self.progress_for(rows, cols, goal, set).is_some()
        {
            return Ok(());
        }
        // A build for another board or set is dropped, which stops it.
        self.building = None;
        let thread_goal = goal.to_vec();
        let job = Job::start("pattern-db", CancelToken::new(), wake, move |cx| {
            PatternDb::load_or_build_set(
                rows,
                cols,
                &thread_goal,
                set,
                &cx.cancel,
                &mut |fraction| cx.progress(fraction),
            )
        })?;
        self.building = Some(Build {
            rows,
            cols,
            goal: goal.to_vec(),
            set,
            job,
            progress: 0.0,
        });
        Ok(())
    }

    /// Stops the running build (its thread sees the cancel within a fraction of a second)
    /// and keeps it from starting again by itself until [`PatternBuilds::resume`]. False when
    /// none was running.
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

    /// Takes the build's messages: `Some` with its outcome when it has just finished (the
    /// error as text: the build's own, or its thread's end without an answer).
    pub fn poll(&mut self) -> Option<Result<Arc<PatternDb>, String>> {
        let build = self.building.as_mut()?;
        let progress = &mut build.progress;
        let done = build.job.poll(|f| *progress = f)?;
        self.building = None;
        Some(match done {
            Ok(Ok(db)) => {
                let db = Arc::new(db);
                self.ready.push(db.clone());
                Ok(db)
            }
            Ok(Err(e)) => Err(e.to_string()),
            Err(e) => Err(e.to_string()),
        })
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
        builds
            .start(5, 5, &goal, PdbSet::Six, Arc::new(|| {}))
            .unwrap();
        assert!(builds.progress_for(5, 5, &goal, PdbSet::Six).is_some());
        assert!(builds.stop(), "a build was running");
        assert!(builds.is_stopped(5, 5, &goal, PdbSet::Six));
        assert!(!builds.is_stopped(4, 4, &goal[..16], PdbSet::Six));
        assert!(builds.progress_for(5, 5, &goal, PdbSet::Six).is_none());
        assert!(builds.poll().is_none(), "nothing to report once stopped");
        assert!(!builds.stop(), "nothing left to stop");
        builds.resume();
        assert!(!builds.is_stopped(5, 5, &goal, PdbSet::Six));
        assert!(builds.ready_for(5, 5, &goal, PdbSet::Six).is_none());
    }
}
