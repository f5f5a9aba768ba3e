//! A file watched for changes from outside, off the window's thread: the app's work for a
//! view ([`super::view_work`]), on a thread named `file-watch`, looks at the file's
//! modification time and length every [`POLL_EVERY`] and, when they change, reads it (a
//! regular file of at most the size asked, read capped; a FIFO, a device such as `/dev/zero`
//! or a file too large refused) and sends its text to the view. The window takes what it
//! sent once a frame and never waits for the file system.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

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

/// The work that watches the file at `path` for its view (see [`super::WorkOrder`], named
/// `key` by the view): its stamp when the work starts is the one changes are told from; each
/// change is read as [`read_text`] reads, at most `max` bytes, and sent to the view as the
/// command `change` makes of the path and the text (or why it could not be read). The work
/// ends when the app stops or forgets it, sending nothing more.
pub fn watch<C: std::any::Any + Send>(
    key: &'static str,
    path: PathBuf,
    max: u64,
    change: impl Fn(PathBuf, Result<String, String>) -> C + Send + 'static,
) -> super::WorkOrder {
    super::WorkOrder::new(
        key,
        "file-watch",
        CancelToken::new(),
        move |cx| {
            let mut last = stamp_of(&path);
            while !cx.cancel.is_cancelled() {
                std::thread::sleep(POLL_EVERY);
                let stamp = stamp_of(&path);
                // A file gone for a moment (an editor's save by rename) is no change.
                if stamp.is_none() || stamp == last {
                    continue;
                }
                last = stamp;
                cx.send(change(path.clone(), read_text(&path, max)));
            }
        },
        |_| (),
    )
}
