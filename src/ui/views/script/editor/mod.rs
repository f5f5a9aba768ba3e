//! The script editor docked beside the canvas: the script's text with syntax colouring and
//! line numbers, Save (Ctrl+S) that writes the file and reloads the script, the error of a
//! failed reload with its line marked, and the file watched for saves from outside.
//!
//! A reload that fails keeps the last good version loaded (searchable, drawn); the text in
//! the editor is never thrown away: unsaved text is kept in the view's settings (the state
//! file) under its file's name, and an outside change met by unsaved text asks first.
//!
//! Nothing here touches the file system or waits on the script: the file is watched and
//! read off the window's thread ([`crate::app::file_watch`]), and a save writes the file
//! and a reload compiles the script and runs its `start()` off it too, as the app's work
//! for the view ([`crate::app::view_work`], under a job's limits); their answers come back
//! as the view's commands, within the frame when they come at once, else in a later frame.

use std::path::{Path, PathBuf};
use std::time::Duration;

use eframe::egui;

use crate::app::{ViewWrite, WorkOrder};
use crate::puzzles::script::Script;
use crate::puzzles::{FormatError, Model as _};
use crate::search::CancelToken;

mod panel;

/// The largest script the editor reads from its file, in bytes.
const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// How long a frame waits for a reload's answer before going on without it (a reload of
/// a usual script takes a few milliseconds, and then the frame shows its answer).
pub(super) const RELOAD_WAIT: Duration = Duration::from_millis(50);

/// A script compiled on a job: the script, or the compile's error.
pub(super) type Compiled = Result<Script, FormatError>;

/// The view's name for the work of a save and reload.
const RELOADING: &str = "script-reload";

/// The view's name for the work that watches the script's file.
const WATCHING: &str = "file-watch";

/// What the work of a reload answers: whether it wrote the file (`None`: it was not asked to,
/// or the text to be saved as JSON did not compile; the error: why it could not write) and
/// the script compiled (`None` when the file could not be written).
pub struct ReloadAnswer {
    written: Option<Result<(), String>>,
    compiled: Option<Compiled>,
}

impl std::fmt::Debug for ReloadAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReloadAnswer")
            .field("written", &self.written)
            .field("compiled", &self.compiled.as_ref().map(Result::is_ok))
            .finish()
    }
}

/// What the editor's text is written to before the reload compiles it.
enum Write {
    /// Nothing.
    Nothing,
    /// The file, as the script's text.
    Text(PathBuf),
    /// The file, as JSON (the script inside): only a text that compiles.
    Json(PathBuf),
}

impl Write {
    /// Writes `text` as asked (on the reload's thread).
    fn write(&self, text: &str) -> Option<Result<(), String>> {
        match self {
            Write::Nothing => None,
            Write::Text(path) => Some(write_text(path, text).map_err(|e| e.to_string())),
            // A JSON file takes only a script that compiles: the reload says what is wrong
            // with one that does not.
            Write::Json(path) => {
                let script = Script::from_text(text).ok()?;
                Some(crate::puzzles::save_file(&script, path).map_err(|e| e.to_string()))
            }
        }
    }
}

/// What to do once a reload succeeded or failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum After {
    /// Nothing more.
    Nothing,
    /// The text was saved to the file: a failed reload leaves it saved but not loaded.
    Saved,
    /// There is no file yet: the save dialog asks for one once the script loads.
    AskFile,
}

/// A reload running as the app's work for the view ([`RELOADING`]).
struct Reload {
    /// The file it is of.
    path: Option<PathBuf>,
    /// The text compiled.
    text: String,
    after: After,
}

/// The editor's state.
#[derive(Default)]
pub(super) struct Editor {
    /// Whether the panel is open.
    pub open: bool,
    /// The text in the editor.
    pub text: String,
    /// The text as last read or written (the file's, or the script's source for a script
    /// without a file): the editor has unsaved edits when its text differs.
    pub base: String,
    /// What the editor's text is kept under in the view's settings: the file's path, or
    /// the script's name for one without a file.
    pub key: String,
    /// The file the script was opened from or saved to.
    pub file: Option<PathBuf>,
    /// The shipped script it was opened as, without a file of its own (Save asks for one).
    pub shipped: Option<&'static str>,
    /// Whether `key` and `file` follow the puzzle on screen (false once it was replaced).
    pub synced: bool,
    /// The error of the last save or reload: its place and message.
    pub error: Option<FormatError>,
    /// The loaded script's error on the state on screen (`moves`, `is_goal` or `draw`
    /// failed there), as the side panel found it this frame.
    failed: Option<FormatError>,
    /// The error that ended the last run, if one did.
    run_error: Option<FormatError>,
    /// A line about the last save or reload.
    pub note: Option<String>,
    /// Whether the text typed here was saved but failed to load: the file holds it, the
    /// puzzle the last good version, and an outside change to the file would drop it
    /// unasked.
    unloaded_edit: bool,
    /// The file watched for changes from outside (by the app's work, [`WATCHING`]).
    watched: Option<PathBuf>,
    /// The reload running, if any.
    reload: Option<Reload>,
    /// The file's text changed outside while the editor had unsaved edits: the text on
    /// disk, waiting for the choice between it and the editor's.
    pub conflict: Option<String>,
    /// The colouring of the text as last laid out: the text's hash, the error line, the
    /// theme and the job.
    layout_cache: Option<(u64, Option<usize>, bool, egui::text::LayoutJob)>,
    /// The marked line the text was last scrolled to (none since an error came): a new
    /// error's line is scrolled into view once, the reader then free to scroll away.
    scrolled_to: Option<usize>,
}

/// Whether the file is written as JSON (the script inside), not as the script's text.
fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// Writes `text` to `path` through a temporary file beside it renamed over it, so a failed
/// write leaves the file as it was.
fn write_text(path: &Path, text: &str) -> std::io::Result<()> {
    crate::puzzles::write_atomically(path, text.as_bytes())
}

/// `text` compiled (its top level and `start()` run) with the parameters' values `chosen`
/// where they still apply, each call of the script under the default limits of a thread
/// other than the window's ([`crate::puzzles::call_limits::CALL_TIME`]): what a reload's job
/// does.
pub(super) fn compile_with(text: &str, chosen: &[(String, i64)]) -> Compiled {
    let mut script = Script::from_text(text)?;
    for (parameter, value) in chosen {
        let _ = script.set_option(parameter, &value.to_string());
    }
    Ok(script)
}

/// The file name a script called `name` is offered to be saved as: its name in lower case,
/// words joined by dashes, with `.rhai` ("Coins in a row" is `coins-in-a-row.rhai`).
pub(super) fn file_name_for(name: &str) -> String {
    let words: Vec<String> = name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(8)
        .map(str::to_ascii_lowercase)
        .collect();
    if words.is_empty() {
        "puzzle.rhai".to_owned()
    } else {
        format!("{}.rhai", words.join("-"))
    }
}

/// `path`'s file name, or the whole path.
fn shown(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

impl Editor {
    /// Whether the text differs from the file's (or the script's, without a file).
    pub fn is_dirty(&self) -> bool {
        self.text != self.base
    }

    /// The script's name where an error is located: its file's name, the shipped script's,
    /// or "script" for one with neither.
    pub fn file_name(&self) -> String {
        match (&self.file, self.shipped) {
            (Some(path), _) => shown(path),
            (None, Some(shipped)) => shipped.to_owned(),
            (None, None) => "script".to_owned(),
        }
    }

    /// The editor's heading after "Script editor": the file's name (or the shipped
    /// script's, saying that Save asks for a file), and, where something is not saved,
    /// what: the edits, or the whole script when it has no file (issue 57's walk: a shipped
    /// script and one from disk were both called "unsaved script").
    pub fn file_label(&self) -> String {
        let edits = if self.is_dirty() {
            " (unsaved edits)"
        } else {
            ""
        };
        match (&self.file, self.shipped) {
            (Some(path), _) => format!("{}{edits}", shown(path)),
            (None, Some(shipped)) => {
                format!("{shipped}, shipped{edits}: Save asks where to write it")
            }
            (None, None) => format!("no file yet{edits}: Save asks where to write it"),
        }
    }

    /// The error as `file:line:column: message`.
    pub fn error_text(&self) -> Option<String> {
        self.error.as_ref().map(|e| self.located(e))
    }

    /// Follows the puzzle on screen: its file (or, without one, the shipped script it was
    /// opened as, `shipped`) and source, or the unsaved text kept for it in `drafts` (taken
    /// out of it). Unsaved text of the script followed until now goes into `drafts` first.
    pub fn sync(
        &mut self,
        script: &Script,
        file: Option<PathBuf>,
        shipped: Option<&'static str>,
        drafts: &mut std::collections::BTreeMap<String, String>,
    ) {
        self.shipped = shipped.filter(|_| file.is_none());
        // Text typed here: unsaved, or saved but not loaded (a failed Save As).
        if (self.is_dirty() || self.unloaded_edit) && !self.key.is_empty() {
            drafts.insert(
                std::mem::take(&mut self.key),
                std::mem::take(&mut self.text),
            );
        }
        self.key = file.as_deref().map_or_else(
            || format!("unsaved: {}", script.name()),
            |p| p.display().to_string(),
        );
        self.base = script.source().to_owned();
        self.text = drafts
            .remove(&self.key)
            .unwrap_or_else(|| self.base.clone());
        self.note = self
            .is_dirty()
            .then(|| "Unsaved edits kept from before (Revert drops them).".to_owned());
        self.file = file;
        // A reload of what was followed until now does not describe this.
        self.reload = None;
        self.error = None;
        self.unloaded_edit = false;
        self.conflict = None;
        self.synced = true;
    }

    /// Saves the text and reloads the script: written to its file (as JSON for a `.json`
    /// file, which takes only a script that compiles); without a file, the script replaces
    /// the puzzle once it compiles and the file dialog asks where to save it.
    pub fn save(&mut self, app: &mut ViewWrite<'_>) {
        let Some(path) = self.file.clone() else {
            self.reload(app, None, After::AskFile, Write::Nothing);
            return;
        };
        let write = if is_json(&path) {
            Write::Json(path.clone())
        } else {
            Write::Text(path.clone())
        };
        self.reload(app, Some(path), After::Saved, write);
    }

    /// Saves the text to `path` (Save As), which the script is bound to from now on.
    pub fn save_as(&mut self, app: &mut ViewWrite<'_>, path: PathBuf) {
        self.key = path.display().to_string();
        self.file = Some(path);
        self.save(app);
    }

    /// Has the app write the editor's text as `write` says, then compile it (both off the
    /// window's thread) and, if it compiles and `start()` works, puts it on screen in place
    /// of the script there (the parameters the user set kept where they still apply), as the
    /// file `path`. Otherwise the last good version stays and the error is shown with its
    /// line marked. The answer comes within this frame when the work gives it within
    /// [`RELOAD_WAIT`], else in a later one (the status bar says a reload runs); a reload
    /// asked meanwhile replaces it.
    fn reload(
        &mut self,
        app: &mut ViewWrite<'_>,
        path: Option<PathBuf>,
        after: After,
        write: Write,
    ) {
        // Values the user chose (not the defaults) go on where they still fit.
        let chosen: Vec<(String, i64)> = app
            .model::<Script>()
            .map(|old| {
                old.parameters()
                    .iter()
                    .filter(|p| p.value != p.default)
                    .map(|p| (p.name.clone(), p.value))
                    .collect()
            })
            .unwrap_or_default();
        let text = self.text.clone();
        let compiling = text.clone();
        let order = WorkOrder::new(
            RELOADING,
            "script-reload",
            CancelToken::new(),
            move |_| {
                let written = write.write(&compiling);
                let compiled = match &written {
                    Some(Err(_)) => None,
                    _ => Some(compile_with(&compiling, &chosen)),
                };
                super::Command::Reloaded(ReloadAnswer { written, compiled })
            },
            |e| {
                super::Command::Reloaded(ReloadAnswer {
                    written: None,
                    compiled: Some(Err(FormatError::new(e.to_string()))),
                })
            },
        );
        let name = path
            .as_deref()
            .map_or_else(|| "the script".to_owned(), shown);
        match app.start_work(order) {
            Ok(()) => {
                self.reload = Some(Reload { path, text, after });
                app.set_status(format!("Reloading {name}…"));
                app.wait_for_work(RELOADING, RELOAD_WAIT);
            }
            Err(e) => app.set_error(format!("Could not reload {name}: {e}")),
        }
    }

    /// Takes the running reload's answer (an answer of a reload no longer waited for is
    /// dropped).
    pub fn reloaded(&mut self, app: &mut ViewWrite<'_>, answer: ReloadAnswer) {
        let Some(Reload {
            path,
            text,
            mut after,
        }) = self.reload.take()
        else {
            return;
        };
        let shown_path = path
            .as_deref()
            .map_or_else(|| "the script".to_owned(), shown);
        match answer.written {
            Some(Err(e)) => {
                let path = path.as_deref().map(Path::display);
                let path = path.map_or_else(|| shown_path.clone(), |p| p.to_string());
                app.set_error(format!("Could not save {path}: {e}"));
                return;
            }
            // The file holds the text saved.
            Some(Ok(())) => self.base = text.clone(),
            // Not written (a JSON file's text that does not compile): a reload only.
            None if after == After::Saved => after = After::Nothing,
            None => {}
        }
        let Some(answer) = answer.compiled else {
            return;
        };
        let name = shown_path;
        match answer {
            Ok(script) => {
                self.error = None;
                self.conflict = None;
                // Said as what happened to the file: written (only once its write
                // answered), not written yet (the save dialog asks where), or reloaded.
                let (note, said) = match after {
                    After::Saved => (format!("Saved {name}."), format!("Saved {name}")),
                    After::AskFile => (
                        "Loaded, not saved to a file yet: choose where to save it.".to_owned(),
                        format!("Loaded {name}, not saved to a file yet"),
                    ),
                    After::Nothing => (format!("Reloaded {name}."), format!("Reloaded {name}")),
                };
                self.note = Some(note);
                if path.is_none() {
                    // The script's source is the text now: nothing unsaved to the puzzle.
                    self.base = text;
                }
                if after == After::Saved {
                    self.unloaded_edit = false;
                }
                app.replace_puzzle(Box::new(script), path);
                let script_name = app.model::<Script>().map_or_else(String::new, Script::name);
                app.set_status(format!("{said}: {script_name}."));
                if after == After::AskFile {
                    app.push(crate::app::AppCommand::SaveDialogNamed(file_name_for(
                        &script_name,
                    )));
                }
            }
            Err(e) => {
                self.error = Some(e);
                self.scrolled_to = None;
                self.note = None;
                if after == After::Saved {
                    self.unloaded_edit = true;
                }
                let text = self.error_text().unwrap_or_default();
                app.set_error(format!("{text} (the last good version stays loaded)"));
            }
        }
    }

    /// Follows the file's changes from outside (watched off the window's thread, see
    /// [`FileWatch`]): a change reloads the script, or, over unsaved edits, waits for the
    /// choice between the file's text and the editor's; a file that cannot be read (gone
    /// to a FIFO, a device, too large) is said in the status bar.
    pub fn watch(&mut self, app: &mut ViewWrite<'_>) {
        let Some(path) = self.file.clone().filter(|p| !is_json(p)) else {
            if self.watched.take().is_some() {
                app.forget_work(WATCHING);
            }
            return;
        };
        if self.watched.as_ref() != Some(&path) {
            let order = crate::app::file_watch::watch(
                WATCHING,
                path.clone(),
                MAX_SCRIPT_BYTES,
                super::Command::FileChanged,
            );
            self.watched = app.start_work(order).is_ok().then_some(path);
        }
    }

    /// The watched file changed: its text, or why it could not be read.
    pub fn file_changed(
        &mut self,
        app: &mut ViewWrite<'_>,
        path: PathBuf,
        change: Result<String, String>,
    ) {
        if self.watched.as_ref() != Some(&path) {
            // A change of a file no longer watched.
            return;
        }
        let disk = match change {
            Ok(text) => text,
            Err(e) => {
                app.set_error(format!("Could not read {}: {e}", path.display()));
                return;
            }
        };
        if disk == self.base || disk == self.text {
            // Written by this editor, or to what it holds.
            self.base = disk;
            return;
        }
        if self.is_dirty() || self.unloaded_edit {
            self.conflict = Some(disk);
            app.set_status(format!(
                "{} changed on disk; the editor has unsaved edits: choose which to keep.",
                shown(&path)
            ));
            return;
        }
        self.text = disk.clone();
        self.base = disk;
        self.reload(app, Some(path), After::Nothing, Write::Nothing);
    }

    /// Whether the text is too large to be kept in the view's settings across restarts.
    pub fn too_large_to_keep(&self) -> bool {
        self.is_dirty() && super::kept_bytes(&self.key, &self.text) > super::MAX_KEPT_DRAFTS
    }

    /// The choice after an outside change met unsaved edits: the file's text (`take_file`),
    /// reloaded, or the editor's, kept unsaved.
    pub fn resolve(&mut self, app: &mut ViewWrite<'_>, take_file: bool) {
        let Some(disk) = self.conflict.take() else {
            return;
        };
        self.unloaded_edit = false;
        if take_file {
            self.text = disk.clone();
            self.base = disk;
            let path = self.file.clone();
            self.reload(app, path, After::Nothing, Write::Nothing);
        } else {
            // The file's text is the base now: the editor's stays unsaved until saved.
            self.base = disk;
        }
    }

    /// The line the editor marks: the failed reload's error's, else the loaded script's
    /// error's on the state on screen, else the one that ended the last run.
    fn marked_line(&self) -> Option<usize> {
        [&self.error, &self.failed, &self.run_error]
            .into_iter()
            .find_map(|e| e.as_ref())
            .and_then(|e| e.line)
    }

    /// `e` as `file:line:column: message`.
    fn located(&self, e: &FormatError) -> String {
        let place = match (e.line, e.column) {
            (Some(l), Some(c)) => format!(":{l}:{c}"),
            (Some(l), None) => format!(":{l}"),
            _ => String::new(),
        };
        format!("{}{place}: {}", self.file_name(), e.message)
    }
}

#[cfg(test)]
mod tests {
    use super::file_name_for;

    #[test]
    fn a_script_is_offered_a_file_named_after_it() {
        assert_eq!(file_name_for("Coins in a row"), "coins-in-a-row.rhai");
        assert_eq!(file_name_for("Lights Out 3 x 3"), "lights-out-3-x-3.rhai");
        assert_eq!(file_name_for("  ../é/  "), "puzzle.rhai");
    }
}
