//! Pattern databases for the sliding tile puzzle, built (or loaded from the disk cache) on a
//! named background thread that reports its progress over a channel, and kept in memory once
//! ready so that every board of the same size and goal shares them.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};

use crate::puzzles::sliding::pattern_db::{PatternDb, PdbError, PdbSet};
use crate::search::CancelToken;

enum Message {
    Progress(f64),
    Done(Result<PatternDb, PdbError>),
}

struct Build {
    rows: usize,
    cols: usize,
    goal: Vec<u8>,
    set: PdbSet,
    rx: Receiver<Message>,
    cancel: CancelToken,
    progress: f64,
}

/// The pattern databases ready, and the one being built.
#[derive(Default)]
pub(crate) struct PatternBuilds {
    ready: Vec<Arc<PatternDb>>,
    building: Option<Build>,
}

impl Drop for PatternBuilds {
    fn drop(&mut self) {
        if let Some(b) = &self.building {
            b.cancel.cancel();
        }
    }
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
        if let Some(old) = self.building.take() {
            old.cancel.cancel();
        }
        let (tx, rx) = mpsc::channel();
        let cancel = CancelToken::new();
        let (thread_cancel, thread_goal) = (cancel.clone(), goal.to_vec());
        std::thread::Builder::new()
            .name("pattern-db".into())
            .spawn(move || {
                let mut report = |fraction| {
                    let _ = tx.send(Message::Progress(fraction));
                    wake();
                };
                let result = PatternDb::load_or_build_set(
                    rows,
                    cols,
                    &thread_goal,
                    set,
                    &thread_cancel,
                    &mut report,
                );
                let _ = tx.send(Message::Done(result));
                wake();
            })?;
        self.building = Some(Build {
            rows,
            cols,
            goal: goal.to_vec(),
            set,
            rx,
            cancel,
            progress: 0.0,
        });
        Ok(())
    }

    /// Takes the build's messages: `Some` with its outcome when it has just finished.
    pub fn poll(&mut self) -> Option<Result<Arc<PatternDb>, PdbError>> {
        let build = self.building.as_mut()?;
        while let Ok(message) = build.rx.try_recv() {
            match message {
                Message::Progress(f) => build.progress = f,
                Message::Done(result) => {
                    self.building = None;
                    return Some(result.map(|db| {
                        let db = Arc::new(db);
                        self.ready.push(db.clone());
                        db
                    }));
                }
            }
        }
        None
    }
}
