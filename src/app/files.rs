//! The files group: opening and saving puzzles, native file dialogs on their own threads,
//! dropped files and File > Open Recent. Holds the commands `OpenPath`'s last step,
//! `OpenRecent`, `ClearRecent`, `AskPath`, the dialogs (`OpenDialog`, `SaveDialog`,
//! `SaveDialogNamed` and the export dialogs), `Save` and `SaveTo`, and opening a shipped
//! puzzle or a state of the space once its workspace is chosen (the exports themselves are
//! the exports group, `export.rs`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize};

use eframe::egui;

use super::job::Job;
use super::view::ViewRequest;
use super::{AppCommand, AppState, Settings, Status};
use crate::puzzles::{self, PuzzleType, Shipped};
use crate::search::CancelToken;

/// The job reading and parsing a puzzle file (see [`AppState::open_in_background`]).
pub(super) type Opening = Job<Result<Box<dyn puzzles::Puzzle>, puzzles::LoadError>>;

/// The remembered puzzle being parsed again on a job (see
/// [`AppState::restore_in_background`]).
pub(super) type Restoring = Job<Result<Box<dyn puzzles::Puzzle>, puzzles::FormatError>>;

/// What a file dialog's thread answered.
pub(super) struct DialogAnswer {
    kind: DialogKind,
    chosen: Chosen,
}

/// What came of a file dialog.
enum Chosen {
    /// This path was chosen.
    Path(PathBuf),
    /// It was cancelled.
    Cancelled,
    /// No dialog could be shown (no desktop portal: it gave up at once).
    NoDialog,
}

/// A GIF being written on its thread: frames done of the total, whether it ended, and the
/// flag that stops it.
#[derive(Debug, Default)]
pub struct GifJob {
    /// Frames written.
    pub done: AtomicUsize,
    /// Frames to write.
    pub total: AtomicUsize,
    /// Whether the thread has ended (written, failed or stopped).
    pub finished: AtomicBool,
    /// Set to stop it.
    pub cancel: AtomicBool,
}

/// Which file dialog to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialogKind {
    /// Open a puzzle.
    Open,
    /// Save the puzzle.
    Save,
    /// Export the results table.
    Export,
    /// Save a picture of the canvas.
    Canvas,
    /// Write the solution's moves.
    Moves,
    /// Write the last run's search trace.
    Trace,
    /// Write the last run as an animated GIF.
    Gif,
    /// Write the explored state graph (GraphML, or CSV edges).
    Graph,
    /// Open a Moving AI map or scenario (the maze's Moving AI section).
    OpenMap,
}

/// One kind of file dialog, a row of [`DIALOGS`]: everything the app says and does about it.
struct DialogRow {
    kind: DialogKind,
    /// The path field's button.
    verb: &'static str,
    /// The path field's heading.
    title: &'static str,
    /// The dialog's filters: a name and its extensions.
    filters: &'static [(&'static str, &'static [&'static str])],
    /// The file name a save dialog offers; `None` for a dialog that picks a file to open.
    file_name: Option<&'static str>,
    /// The command that does it with the path chosen.
    command: fn(PathBuf) -> AppCommand,
}

const PUZZLE_FILES: &[(&str, &[&str])] = &[
    (
        "Puzzle files",
        &["txt", "json", "map", "scen", "rhai", "pddl"],
    ),
    ("All files", &["*"]),
];

/// The file dialogs, in the order of [`DialogKind`]'s variants.
const DIALOGS: [DialogRow; 9] = [
    DialogRow {
        kind: DialogKind::Open,
        verb: "Open",
        title: "Open a puzzle",
        filters: PUZZLE_FILES,
        file_name: None,
        command: AppCommand::OpenPath,
    },
    DialogRow {
        kind: DialogKind::Save,
        verb: "Save",
        title: "Save the puzzle",
        filters: PUZZLE_FILES,
        file_name: Some("puzzle.json"),
        command: AppCommand::SaveTo,
    },
    DialogRow {
        kind: DialogKind::Export,
        verb: "Export results",
        title: "Export the results table",
        filters: &[("CSV", &["csv"]), ("JSON", &["json"])],
        file_name: Some("results.csv"),
        command: AppCommand::ExportResults,
    },
    DialogRow {
        kind: DialogKind::Canvas,
        verb: "Save picture",
        title: "Save a picture of the canvas",
        filters: &[("PNG", &["png"])],
        file_name: Some("canvas.png"),
        command: AppCommand::ExportCanvas,
    },
    DialogRow {
        kind: DialogKind::Moves,
        verb: "Write moves",
        title: "Write the solution's moves",
        filters: &[("Text", &["txt"])],
        file_name: Some("solution.txt"),
        command: AppCommand::ExportMoves,
    },
    DialogRow {
        kind: DialogKind::Trace,
        verb: "Write trace",
        title: "Write the search trace",
        filters: &[("JSON", &["json"])],
        file_name: Some("search.trace.json"),
        command: AppCommand::ExportTrace,
    },
    DialogRow {
        kind: DialogKind::Gif,
        verb: "Write GIF",
        title: "Write the search as a GIF",
        filters: &[("GIF", &["gif"])],
        file_name: Some("search.gif"),
        command: AppCommand::ExportGif,
    },
    DialogRow {
        kind: DialogKind::Graph,
        verb: "Write graph",
        title: "Write the state graph",
        filters: &[("GraphML", &["graphml"]), ("CSV edge list", &["csv"])],
        file_name: Some("states.graphml"),
        command: AppCommand::ExportGraph,
    },
    DialogRow {
        kind: DialogKind::OpenMap,
        verb: "Open",
        title: "Open a Moving AI map or scenario",
        filters: &[
            ("Moving AI maps and scenarios", &["map", "scen"]),
            ("All files", &["*"]),
        ],
        file_name: None,
        command: AppCommand::OpenPath,
    },
];

impl DialogKind {
    /// Its row of [`DIALOGS`].
    fn row(self) -> &'static DialogRow {
        let row = &DIALOGS[self as usize];
        debug_assert_eq!(row.kind, self, "DIALOGS is in the order of DialogKind");
        row
    }

    /// What the path is for, as the path field's button says.
    pub fn verb(self) -> &'static str {
        self.row().verb
    }

    /// What the dialog asks for: its title, and the path field's heading.
    pub fn title(self) -> &'static str {
        self.row().title
    }

    /// The command that does it with `path`.
    pub fn command(self, path: PathBuf) -> AppCommand {
        (self.row().command)(path)
    }
}

/// A dialog that answers "no file" faster than this could not be shown at all (a person
/// takes longer to cancel one).
const NO_DIALOG: std::time::Duration = std::time::Duration::from_millis(250);

impl AppState {
    pub(super) fn save_to(&mut self, path: &Path) {
        match puzzles::save_file(self.work.puzzle.as_ref(), path) {
            Ok(()) => {
                self.settings.path = Some(path.to_owned());
                let type_name = self.work.puzzle.puzzle_type().name;
                self.settings.note_recent(path, type_name);
                self.remember_saved();
                self.set_status(format!("Saved {}.", path.display()));
                if let Some(command) = self.edits.after_save.take() {
                    self.apply(*command);
                }
            }
            Err(e) => {
                // What waited for the save does not happen: the edits are still unsaved.
                self.edits.after_save = None;
                self.set_error(format!("Could not save {}: {e}", path.display()));
            }
        }
    }

    /// Shows a native file dialog on its own thread (it blocks while open), so the window
    /// keeps painting; the answer comes back over a channel.
    pub(super) fn spawn_dialog(&mut self, kind: DialogKind) {
        self.spawn_dialog_named(kind, None);
    }

    /// [`AppState::spawn_dialog`], a save dialog offering `name` in place of its own.
    pub(super) fn spawn_dialog_named(&mut self, kind: DialogKind, name: Option<String>) {
        let dir = self
            .settings
            .path
            .as_ref()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .or_else(|| std::env::current_dir().ok().map(|d| d.join("puzzles")));
        let spawned = Job::start("file-dialog", CancelToken::new(), self.waker(), move |_| {
            let row = kind.row();
            let mut dialog = row.filters.iter().fold(
                rfd::FileDialog::new().set_title(row.title),
                |d, (name, extensions)| d.add_filter(*name, extensions),
            );
            if let Some(dir) = dir.filter(|d| d.is_dir()) {
                dialog = dialog.set_directory(dir);
            }
            let asked = std::time::Instant::now();
            let path = match name.as_deref().or(row.file_name) {
                Some(name) => dialog.set_file_name(name).save_file(),
                None => dialog.pick_file(),
            };
            let chosen = match path {
                Some(path) => Chosen::Path(path),
                None if asked.elapsed() < NO_DIALOG => Chosen::NoDialog,
                None => Chosen::Cancelled,
            };
            DialogAnswer { kind, chosen }
        });
        match spawned {
            Ok(job) => self.io.dialogs.push(job),
            Err(e) => self.set_error(format!("Could not open the file dialog: {e}")),
        }
    }

    /// Starts reading and parsing the puzzle file at `path` on a job (a file of up to
    /// [`puzzles::MAX_FILE_BYTES`], or a FIFO waited on for seconds, never holds up a
    /// frame); the window says so meanwhile. Opening another file drops this one's job.
    pub(super) fn open_in_background(&mut self, path: PathBuf) {
        let reading = path.clone();
        let job = Job::start("open-file", CancelToken::new(), self.waker(), move |_| {
            puzzles::load_file(&reading, None)
        });
        match job {
            Ok(job) => {
                self.set_status(format!("Opening {}…", path.display()));
                self.io.opening = Some((path, job));
            }
            Err(e) => self.set_error(format!("Could not open {}: {e}", path.display())),
        }
    }

    /// Takes the puzzle a file's job read, once it is ready: it replaces the puzzle of its
    /// type (see [`AppCommand::OpenRead`]), or the status bar says why it could not be
    /// opened.
    pub(super) fn receive_opened(&mut self, ctx: &egui::Context) {
        let Some((path, job)) = &mut self.io.opening else {
            return;
        };
        let Some(result) = job.poll(|()| {}) else {
            // Frames go on while the file is read (it is usually a matter of milliseconds).
            ctx.request_repaint();
            return;
        };
        let path = path.clone();
        self.io.opening = None;
        match result {
            // In the workspace of its type, after asking about the unsaved edits of the
            // puzzle it replaces there.
            Ok(Ok(p)) => self.open_in_its_workspace(AppCommand::OpenRead(p, path)),
            Ok(Err(e)) => self.set_error(format!("Could not open: {e}")),
            Err(e) => self.set_error(format!("Could not open {}: {e}", path.display())),
        }
    }

    /// Parses the remembered puzzle `json` (of the file `path`, if it has one) again on a
    /// job, each call of its own code under its default limits (at most
    /// [`puzzles::call_limits::CALL_TIME`]): when the window's
    /// thread could not make it at start within [`super::UI_CALL_LIMIT`] a call (a script
    /// whose `start()` is slow), or at all. The puzzle on screen meanwhile is a placeholder.
    pub(super) fn restore_in_background(&mut self, json: String, path: Option<PathBuf>) {
        let job = Job::start("restore", CancelToken::new(), self.waker(), move |_| {
            puzzles::parse(&json, None)
        });
        match job {
            Ok(job) => self.io.restoring = Some((path, job)),
            Err(e) => self.set_error(format!("The remembered puzzle could not be restored: {e}")),
        }
    }

    /// Takes the remembered puzzle once its job made it: it replaces the placeholder (in
    /// the workspace of its type), or the status bar says why it could not be restored.
    pub(super) fn receive_restored(&mut self, ctx: &egui::Context) {
        let Some((_, job)) = &mut self.io.restoring else {
            return;
        };
        let Some(result) = job.poll(|()| {}) else {
            // The window goes on meanwhile; frames come back to take the answer.
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
            return;
        };
        let Some((path, _)) = self.io.restoring.take() else {
            return;
        };
        match result {
            Ok(Ok(p)) => {
                let command = match path {
                    Some(path) => AppCommand::OpenRead(p, path),
                    None => AppCommand::OpenGenerated(p, "Restored the remembered puzzle.".into()),
                };
                self.open_in_its_workspace(command);
            }
            Ok(Err(e)) => {
                self.set_error(format!("The remembered puzzle could not be restored: {e}"))
            }
            Err(e) => self.set_error(format!("The remembered puzzle could not be restored: {e}")),
        }
    }

    pub(super) fn receive_dialogs(&mut self) {
        // Dialogs answered: a path chosen, or (no dialog could be shown) a field to type one.
        let mut answers = Vec::new();
        self.io.dialogs.retain_mut(|job| match job.poll(|()| {}) {
            None => true,
            Some(answer) => {
                answers.extend(answer.ok());
                false
            }
        });
        for DialogAnswer { kind, chosen } in answers {
            self.commands.push(match chosen {
                Chosen::Path(path) => AppCommand::DialogAnswered(kind, Some(path)),
                Chosen::Cancelled => AppCommand::DialogAnswered(kind, None),
                Chosen::NoDialog => AppCommand::AskPath(kind),
            });
        }
        while let Ok(notice) = self.io.notice_rx.try_recv() {
            self.status = notice;
        }
        // Writes under way: each says how it ended in the status bar.
        let mut ended = Vec::new();
        self.io.writes.retain_mut(|job| match job.poll(|()| {}) {
            None => true,
            Some(Ok(notice)) => {
                ended.push(notice);
                false
            }
            Some(Err(e)) => {
                ended.push(Status {
                    text: format!("Could not write the file: {e}"),
                    is_error: true,
                });
                false
            }
        });
        if let Some(notice) = ended.pop() {
            self.status = notice;
        }
    }

    pub(super) fn receive_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.commands.push(AppCommand::OpenPath(path));
        }
    }

    /// Writes the puzzle into the settings, if it changed since last time.
    pub(super) fn remember_puzzle(&mut self) {
        if std::mem::take(&mut self.edits.puzzle_dirty) {
            self.settings.puzzle_json = Some(self.work.puzzle.to_json().to_string());
        }
    }

    /// The settings as they would be saved now (the puzzle written in).
    pub fn settings_to_save(&mut self) -> &Settings {
        self.remember_puzzle();
        self.remember_workspaces();
        let skip = self.runs.results.len().saturating_sub(super::KEPT_RESULTS);
        self.settings.results = self.runs.results[skip..].to_vec();
        &self.settings
    }

    /// Opens a file of File > Open Recent, or takes it off the list if it is gone.
    pub(super) fn open_recent(&mut self, path: PathBuf) {
        if path.exists() {
            self.open_file(path);
        } else {
            self.settings.forget_recent(&path);
            self.set_error(format!(
                "{} is no longer there: taken off Open Recent.",
                path.display()
            ));
        }
    }

    /// Empties File > Open Recent.
    pub(super) fn clear_recent(&mut self) {
        self.settings.recent.clear();
        self.set_status("Open Recent is empty.");
    }

    /// A file dialog's answer (or the path field's): a path chosen is used as the dialog's
    /// kind says, a Save's by the view while it saves itself (the script editor writes its
    /// own text to it, and the status bar says so once it is written); a cancel says that
    /// nothing was written, and what waited for a save (a quit, an open) does not happen.
    pub(super) fn dialog_answered(&mut self, kind: DialogKind, path: Option<PathBuf>) {
        match path {
            // (A save something waits for, an open after "save the unsaved edits?", saves
            // the puzzle as File > Save does then.)
            Some(path)
                if kind == DialogKind::Save
                    && self.edits.view_saves
                    && self.edits.after_save.is_none() =>
            {
                self.ask_view(ViewRequest::SaveAs(path));
            }
            Some(path) => self.apply(kind.command(path)),
            None => {
                if kind == DialogKind::Save {
                    self.edits.after_save = None;
                }
                self.set_status(format!("{}: cancelled, no file chosen.", kind.verb()));
            }
        }
    }

    /// The path field shown (no file dialog could be), by what it is for.
    pub fn path_field(&self) -> Option<DialogKind> {
        self.windows.path_prompt.as_ref().map(|(kind, _)| *kind)
    }

    /// Shows the path field (no file dialog could be shown), starting in the current file's folder.
    pub(super) fn ask_path(&mut self, kind: DialogKind) {
        let start = self
            .settings
            .path
            .as_ref()
            .and_then(|p| p.parent())
            .map(|d| format!("{}/", d.display()))
            .unwrap_or_default();
        // The modal says why it asks; the status bar keeps what it said.
        self.windows.path_prompt = Some((kind, start));
    }

    /// Saves to the current file, or asks for one.
    pub(super) fn save(&mut self) {
        if self.edits.view_saves {
            self.ask_view(ViewRequest::Save);
            return;
        }
        match self.settings.path.clone() {
            Some(path) => self.save_to(&path),
            None => self.spawn_dialog(DialogKind::Save),
        }
    }

    /// Opens a shipped puzzle, without asking about unsaved edits.
    pub(super) fn open_shipped(&mut self, t: &'static PuzzleType, shipped: &'static Shipped) {
        match (t.parse_text)(shipped.text) {
            Ok(p) => {
                self.replace_puzzle(p, None);
                self.work.shipped = Some(shipped.file);
                self.set_status(format!("Opened {}.", shipped.file));
            }
            Err(e) => self.set_error(format!("{}: {e}", shipped.file)),
        }
    }

    /// Opens state `node` of the oracle's space as the puzzle on screen, without asking
    /// about unsaved edits.
    pub(super) fn open_state(&mut self, node: u32) {
        let Some(space) = self.windows.oracle.space() else {
            return;
        };
        let (Some(puzzle), Some(to_goal)) = (space.puzzle_at(node), Some(space.to_goal(node)))
        else {
            return;
        };
        let metric = self.windows.oracle.metric();
        // A state whose file text is the puzzle's (a puzzle script's states all are: the file
        // is the rules) stays bound to the file; another board is a new puzzle, with none.
        let path =
            (self.settings.path.clone()).filter(|_| puzzle.to_text() == self.work.puzzle.to_text());
        self.replace_puzzle(puzzle, path);
        self.set_status(match to_goal {
            Some(d) => {
                format!(
                    "Opened state {node} of the state space: {} from the goal.",
                    super::count_in(d, &metric)
                )
            }
            None => format!("Opened state {node} of the state space: no way to the goal from it."),
        });
    }

    /// Opens the puzzle file at `path` (in the view that claims it, if one does), without
    /// asking about unsaved edits. The file is read and parsed on a job; the
    /// puzzle replaces the one on screen when it is ready (see
    /// [`AppState::open_in_background`]).
    pub(super) fn open_path(&mut self, path: PathBuf) {
        if self.view_claims(&path) {
            self.open_in_view(&path);
            return;
        }
        self.open_in_background(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dialog_kind_has_its_own_row_with_a_filter_for_its_file() {
        let kinds = [
            DialogKind::Open,
            DialogKind::Save,
            DialogKind::Export,
            DialogKind::Canvas,
            DialogKind::Moves,
            DialogKind::Trace,
            DialogKind::Gif,
            DialogKind::Graph,
            DialogKind::OpenMap,
        ];
        assert_eq!(kinds.len(), DIALOGS.len());
        for kind in kinds {
            let row = kind.row();
            assert_eq!(row.kind, kind);
            assert!(!row.filters.is_empty(), "{kind:?}");
            // A save dialog offers a name its first filter accepts.
            if let Some(name) = row.file_name {
                let extension = name.rsplit('.').next().unwrap_or_default();
                assert!(row.filters[0].1.contains(&extension), "{kind:?}: {name}");
            }
            let path = PathBuf::from("x");
            let command = kind.command(path.clone());
            let expected = match kind {
                DialogKind::Open => AppCommand::OpenPath(path),
                DialogKind::Save => AppCommand::SaveTo(path),
                DialogKind::Export => AppCommand::ExportResults(path),
                DialogKind::Canvas => AppCommand::ExportCanvas(path),
                DialogKind::Moves => AppCommand::ExportMoves(path),
                DialogKind::Trace => AppCommand::ExportTrace(path),
                DialogKind::Gif => AppCommand::ExportGif(path),
                DialogKind::Graph => AppCommand::ExportGraph(path),
                DialogKind::OpenMap => AppCommand::OpenPath(path),
            };
            assert_eq!(format!("{command:?}"), format!("{expected:?}"));
        }
    }
}
