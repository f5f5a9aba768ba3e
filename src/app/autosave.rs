//! Crash-safe work: the app's settings and work (each type's puzzle with its file name and
//! unsaved mark, the search settings, the theme, the recent files, the results) are written
//! to a state file of their own within [`AUTOSAVE_AFTER`] of a change, atomically (a
//! temporary file beside it, flushed to disk, then renamed over it), so a crash or a
//! `kill -9` loses at most that much and never leaves a torn file. A state file that does
//! not parse is set aside (`work.json.bad-<seconds since 1970>`) and the app starts afresh,
//! saying so in the status bar.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui;

use super::job::Job;
use super::{PuzzleLabApp, Settings};
use crate::search::CancelToken;

/// The longest a change waits before it is written: a crash loses at most this much work.
pub const AUTOSAVE_AFTER: Duration = Duration::from_secs(2);

/// How long the app waits after the last change before writing, so a drag writes once when
/// it pauses rather than every frame (within [`AUTOSAVE_AFTER`] of the first change all the
/// same).
const QUIET: Duration = Duration::from_millis(500);

/// The environment variable that moves the state file's folder (tests use a temporary one).
pub const STATE_DIR_VAR: &str = "PUZZLELAB_STATE_DIR";

/// The state file: `work.json` in `$PUZZLELAB_STATE_DIR`, else in the user's data folder
/// (`~/.local/share/puzzlelab/` on Linux); `None` when there is none.
pub fn state_path() -> Option<PathBuf> {
    let dir = match std::env::var_os(STATE_DIR_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => dirs::data_dir()?.join("puzzlelab"),
    };
    Some(dir.join("work.json"))
}

/// What reading the state file found: the settings, or none (no file, or one set aside),
/// and a line for the status bar when a file was set aside.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The settings read, if the file was there and whole.
    pub settings: Option<Settings>,
    /// Why the app starts afresh, when the file was there but could not be read.
    pub notice: Option<String>,
}

/// Reads the state file at `path`. A file that cannot be parsed is renamed to
/// `<name>.bad-<seconds since 1970>` beside it (kept for the user to look at, never read
/// again), and the notice says so; a missing file is no notice.
pub fn load(path: &Path) -> Loaded {
    remove_leftovers(path);
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded::default(),
        Err(e) => {
            return Loaded {
                settings: None,
                notice: Some(format!(
                    "The saved work in {} could not be read ({e}); starting afresh.",
                    path.display()
                )),
            };
        }
    };
    match serde_json::from_slice::<Settings>(&text) {
        Ok(settings) => Loaded {
            settings: Some(settings),
            notice: None,
        },
        Err(e) => {
            let seconds = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let mut aside = path.as_os_str().to_owned();
            aside.push(format!(".bad-{seconds}"));
            let aside = PathBuf::from(aside);
            let moved = std::fs::rename(path, &aside);
            Loaded {
                settings: None,
                notice: Some(match moved {
                    Ok(()) => format!(
                        "The saved work could not be read ({e}): it was set aside as {} and \
                         the app starts afresh.",
                        aside.display()
                    ),
                    Err(m) => format!(
                        "The saved work in {} could not be read ({e}) nor set aside ({m}); \
                         the app starts afresh.",
                        path.display()
                    ),
                }),
            }
        }
    }
}

/// Removes the temporary files of writes to `path` that a crash cut short (see
/// [`write_atomically`]): they are never read, only in the way.
fn remove_leftovers(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!(".{}.tmp-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes `bytes` to `path` atomically: into a temporary file in the same folder, flushed to
/// disk, then renamed over `path`. A crash at any moment leaves either the old file or the
/// new one whole (a leftover temporary file is overwritten by the next write).
///
/// # Errors
/// The operating system's error from creating the folder, writing, flushing or renaming.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map_or_else(|| "state".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The app's writer of its state file: when the work changed, and the write under way.
pub struct Autosave {
    path: PathBuf,
    /// When the first change not yet written was seen, and the last one.
    changed: Option<(Instant, Instant)>,
    /// What the last frame saw, to notice a change: the puzzle's revision and the results.
    seen: (u64, usize),
    writing: Option<Job<Result<(), String>>>,
    /// The last write's error, said once.
    failed: bool,
}

impl Autosave {
    /// A writer of the state file at `path`.
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            changed: None,
            seen: (0, 0),
            writing: None,
            failed: false,
        }
    }

    /// The state file written.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl PuzzleLabApp {
    /// Writes the work to `path` from now on, within [`AUTOSAVE_AFTER`] of each change (the
    /// window does this with [`state_path`]; tests with a temporary file).
    pub fn enable_autosave(&mut self, path: PathBuf) {
        self.autosave = Some(Autosave::new(path));
    }

    /// Whether the autosave has work not written yet (a change, or a write under way).
    pub fn autosave_pending(&self) -> bool {
        self.autosave
            .as_ref()
            .is_some_and(|a| a.changed.is_some() || a.writing.is_some())
    }

    /// At the end of each frame: notes a change (input that may edit, a command, an edit, a
    /// new result), and once the work has been quiet for a moment, or [`AUTOSAVE_AFTER`]
    /// has passed since the first change, hands a copy of the settings to a job that
    /// writes them atomically. Work proportional to the state happens only then (the
    /// puzzle's JSON is remade only after an edit).
    pub(super) fn autosave_tick(&mut self, ctx: &egui::Context, commands: bool) {
        let Some(autosave) = &mut self.autosave else {
            return;
        };
        let now = Instant::now();
        let input = ctx.input(|i| {
            i.events.iter().any(|e| {
                matches!(
                    e,
                    egui::Event::PointerButton { .. }
                        | egui::Event::Key { .. }
                        | egui::Event::Text(_)
                        | egui::Event::Paste(_)
                        | egui::Event::MouseWheel { .. }
                )
            })
        });
        let seen = (self.revision, self.results.len());
        if input || commands || seen != autosave.seen {
            autosave.seen = seen;
            autosave.changed = Some(match autosave.changed {
                Some((first, _)) => (first, now),
                None => (now, now),
            });
        }
        if let Some(job) = &mut autosave.writing {
            match job.poll(|()| {}) {
                None => {}
                Some(result) => {
                    autosave.writing = None;
                    let error = match result {
                        Ok(Ok(())) => None,
                        Ok(Err(e)) => Some(e),
                        Err(e) => Some(e.to_string()),
                    };
                    let first_failure = error.is_some() && !autosave.failed;
                    autosave.failed = error.is_some();
                    if let Some(e) = error.filter(|_| first_failure) {
                        let shown = autosave.path.display().to_string();
                        self.set_error(format!("Could not keep the work in {shown}: {e}"));
                    }
                }
            }
        }
        let Some(autosave) = &mut self.autosave else {
            return;
        };
        let Some((first, last)) = autosave.changed else {
            return;
        };
        let due = now - last >= QUIET || now - first >= AUTOSAVE_AFTER - QUIET;
        if !due || autosave.writing.is_some() {
            // Frames come back to write it in time even if nothing else happens.
            ctx.request_repaint_after(QUIET / 2);
            return;
        }
        autosave.changed = None;
        let path = autosave.path.clone();
        let settings = self.settings_to_save().clone();
        let job = Job::start("autosave", CancelToken::new(), self.waker(), move |_| {
            let bytes = serde_json::to_vec(&settings).map_err(|e| e.to_string())?;
            write_atomically(&path, &bytes).map_err(|e| e.to_string())
        });
        if let Some(autosave) = &mut self.autosave {
            match job {
                Ok(job) => autosave.writing = Some(job),
                Err(e) => {
                    self.status = super::Status {
                        text: format!("Could not start keeping the work: {e}"),
                        is_error: true,
                    }
                }
            }
        }
        ctx.request_repaint_after(QUIET);
    }
}
