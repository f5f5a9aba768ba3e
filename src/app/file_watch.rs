//! A file watched for changes from outside, off the window's thread: a [`Job`] named
//! `file-watch` looks at the file's modification time and length every [`POLL_EVERY`] and,
//! when they change, reads it (a regular file of at most the size asked, read capped; a
//! FIFO, a device such as `/dev/zero` or a file too large refused) and reports its text. The
//! window takes the reports once a frame and never waits for the file system.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use super::job::Job;
use crate::search::CancelToken;

/// How often the file is looked at.
pub const POLL_EVERY: Duration = Duration::from_millis(300);

/// What a file's modification time and length were when last looked at.
type Stamp = Option<(SystemTime, u64)>;

/// A file's stamp now, if it can be looked at (one `stat`, links followed).
fn stamp_of(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// The text of the file at `path`, read as [`super::autosave::read_regular_capped`] reads
/// (refusing what is not a regular file), of at most `max` bytes of UTF-8.
///
/// # Errors
/// Why it could not be read, in words.
pub fn read_text(path: &Path, max: u64) -> Result<String, String> {
    let data = super::autosave::read_regular_capped(path, max).map_err(|e| e.to_string())?;
    if data.len() as u64 > max {
        return Err(format!("more than {max} bytes"));
    }
    String::from_utf8(data).map_err(|e| {
        format!(
            "not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// A file watched on a thread of its own; dropping it stops the watching.
pub struct FileWatch {
    path: PathBuf,
    job: Job<(), Result<String, String>>,
}

impl FileWatch {
    /// Starts watching `path` (its stamp now is the one changes are told from); each change
    /// is read as [`read_text`] reads, at most `max` bytes, and `wake` called.
    ///
    /// # Errors
    /// The operating system's error when the thread cannot be spawned.
    pub fn start(
        path: PathBuf,
        max: u64,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> std::io::Result<Self> {
        let watched = path.clone();
        let job = Job::start("file-watch", CancelToken::new(), wake, move |cx| {
            let mut last = stamp_of(&watched);
            while !cx.cancel.is_cancelled() {
                std::thread::sleep(POLL_EVERY);
                let stamp = stamp_of(&watched);
                // A file gone for a moment (an editor's save by rename) is no change.
                if stamp.is_none() || stamp == last {
                    continue;
                }
                last = stamp;
                cx.progress(read_text(&watched, max));
            }
        })?;
        Ok(Self { path, job })
    }

    /// The file watched.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The newest change reported since the last call: the file's text, or why it could
    /// not be read. `None` when nothing changed.
    pub fn poll(&mut self) -> Option<Result<String, String>> {
        let mut newest = None;
        let _ = self.job.poll(|change| newest = Some(change));
        newest
    }
}
