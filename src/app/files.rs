//! Files: saving the puzzle, native file dialogs on their own threads, dropped files, and
//! exports of the canvas and the solution.

use std::path::{Path, PathBuf};

use eframe::egui;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::job::Job;
use super::{AppCommand, AppState, Settings, Status, export};
use crate::puzzles;
use crate::search::CancelToken;

/// The job reading and parsing a puzzle file (see [`AppState::open_in_background`]).
pub(super) type Opening = Job<Result<Box<dyn puzzles::Puzzle>, puzzles::LoadError>>;

/// The remembered puzzle being parsed again on a job (see
/// [`AppState::restore_in_background`]).
pub(super) type Restoring = Job<Result<Box<dyn puzzles::Puzzle>, puzzles::FormatError>>;

/// What a file dialog answered: the path chosen, or `None` when no dialog could be shown
/// (no desktop portal: it gave up at once). A cancelled dialog sends nothing.
pub(super) struct DialogAnswer {
    kind: DialogKind,
    path: Option<PathBuf>,
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
const DIALOGS: [DialogRow; 8] = [
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

    /// What the path field asks for, as its heading says.
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
    /// Asks for a screenshot of the next frame and saves the canvas's part of it as PNG at
    /// `path`; the outcome comes back to the status bar.
    pub(super) fn export_canvas(&mut self, path: PathBuf) {
        let (Some(ctx), Some(rect)) = (self.frame.repaint.clone(), self.canvas.rect) else {
            self.set_error("Nothing to export yet: the canvas has not been drawn.");
            return;
        };
        let tx = self.io.notice_tx.clone();
        let pixels_per_point = ctx.pixels_per_point();
        let wake = ctx.clone();
        ctx.request_screenshot(move |image| {
            let picture = export::crop(&image, rect, pixels_per_point);
            let notice = match export::write_png(&picture, &path) {
                Ok(()) => Status {
                    text: format!(
                        "Saved a {} x {} picture of the canvas to {}.",
                        picture.size[0],
                        picture.size[1],
                        path.display()
                    ),
                    is_error: false,
                },
                Err(e) => Status {
                    text: format!("Could not save {}: {e}", path.display()),
                    is_error: true,
                },
            };
            let _ = tx.send(notice);
            wake.request_repaint();
        });
        ctx.request_repaint();
    }

    /// Writes the last single run's recording to `path` as a Posthoc search trace on a thread
    /// named `trace-export` (a large run's trace is hundreds of megabytes); the outcome comes
    /// back to the status bar.
    /// Writes the oracle's explored state graph to `path` on a background thread: a CSV
    /// edge list when the name ends in `.csv`, GraphML otherwise (see
    /// [`crate::puzzles::oracle::Space::write_graphml`]).
    pub(super) fn export_graph(&mut self, path: PathBuf) {
        let Some(oracle) = self.windows.oracle.shared().filter(|o| o.space().is_some()) else {
            self.set_error("No state graph to export: tick Optimal moves to explore the space.");
            return;
        };
        let shown = path.display().to_string();
        let is_csv = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        let spawned = self.write_in_background(
            "graph-export",
            path,
            move |out| {
                let Some(space) = oracle.space() else {
                    return Err("the state space is gone".to_owned());
                };
                if is_csv {
                    space.write_edge_csv(out).map_err(|e| e.to_string())?;
                } else {
                    space.write_graphml(out).map_err(|e| e.to_string())?;
                }
                Ok(format!(
                    "Wrote the state graph ({} states) to {shown}.",
                    space.len()
                ))
            },
            || {},
        );
        if let Err(e) = spawned {
            self.set_error(format!("Could not start the export: {e}"));
        } else {
            self.set_status("Writing the state graph...");
        }
    }

    pub(super) fn export_trace(&mut self, path: PathBuf) {
        self.catch_up_recording();
        let (Some(trace), Some(report)) =
            (self.timeline_recording().cloned(), self.work.result.clone())
        else {
            self.set_error("No search to export: run a search first (race lanes are not traced).");
            return;
        };
        if trace.has_boards() {
            self.set_error(
                "No trace to export: this puzzle's states are boards, not places on the picture \
                 (traces are written for puzzles whose states are places).",
            );
            return;
        }
        if trace.is_empty() {
            let why = trace.stopped().unwrap_or("the search expanded nothing");
            self.set_error(format!("No trace to export: {why}."));
            return;
        }
        let shown = path.display().to_string();
        let spawned = self.write_in_background(
            "trace-export",
            path,
            move |out| {
                let written = trace
                    .write_posthoc(&report, out)
                    .map_err(|e| e.to_string())?;
                Ok(format!(
                    "Wrote a search trace of {} to {shown}{}.",
                    super::count(written as u64, "event"),
                    trace
                        .stopped()
                        .map(|why| format!(" (partial: {why})"))
                        .unwrap_or_default()
                ))
            },
            || {},
        );
        match spawned {
            Ok(()) => self.set_status("Writing the search trace…"),
            Err(e) => self.set_error(format!("Could not start writing the trace: {e}")),
        }
    }

    /// Writes a file at `path` on a thread named `thread`, atomically
    /// ([`crate::puzzles::write_atomically_with`]: a failed write leaves no partial file
    /// and removes the temporary one). The status bar then says what `write` returned, or why it
    /// could not write; `finished` runs on the thread at the end either way.
    ///
    /// # Errors
    /// The operating system's error if the thread cannot be spawned.
    fn write_in_background(
        &mut self,
        thread: &'static str,
        path: PathBuf,
        write: impl FnOnce(&mut dyn std::io::Write) -> Result<String, String> + Send + 'static,
        finished: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<()> {
        let job = Job::start(thread, CancelToken::new(), self.waker(), move |_| {
            let written = crate::puzzles::write_atomically_with(&path, |out| {
                write(out).map_err(std::io::Error::other)
            });
            let notice = match written {
                Ok(text) => Status {
                    text,
                    is_error: false,
                },
                Err(e) => Status {
                    text: format!("Could not write {}: {e}", path.display()),
                    is_error: true,
                },
            };
            finished();
            notice
        })?;
        self.io.writes.push(job);
        Ok(())
    }

    /// Writes the last single run as an animated GIF at `path` on a thread named
    /// `gif-export`, with the colours and options asked for ([`AppCommand::ExportGifDialog`]);
    /// its progress is [`AppState::gif_job`], its outcome comes to the status bar.
    pub(super) fn export_gif(&mut self, path: PathBuf) {
        let Some((mut colors, options)) = self.windows.gif_request.take() else {
            self.set_error("No GIF asked for: use File > Export search as GIF… first.");
            return;
        };
        // The last frame shows the run's end, as the canvas does: the solution found.
        colors.solution = (self.work.result.as_ref())
            .filter(|r| r.solved)
            .map(|r| r.path.clone())
            .unwrap_or_default();
        self.catch_up_recording();
        let Some(recording) = self.timeline_recording().cloned() else {
            self.set_error("No recorded run to export: run a search first.");
            return;
        };
        if recording.has_boards() {
            self.set_error("A board puzzle's search has no places to draw as a GIF.");
            return;
        }
        let dims = self.work.marks.dims();
        let job = Arc::new(GifJob::default());
        let shared = Arc::clone(&job);
        let wake = self.frame.repaint.clone();
        let done = Arc::clone(&job);
        let shown = path.display().to_string();
        let spawned = self.write_in_background(
            "gif-export",
            path,
            move |out| {
                let frames = crate::runs::animation::write_gif(
                    &recording,
                    dims,
                    &colors,
                    options,
                    out,
                    |frame, total| {
                        shared.done.store(frame, Ordering::Relaxed);
                        shared.total.store(total, Ordering::Relaxed);
                        if let Some(ctx) = &wake {
                            ctx.request_repaint();
                        }
                    },
                    &shared.cancel,
                )
                .map_err(|e| e.to_string())?;
                Ok(format!(
                    "Wrote a GIF of {} to {shown}.",
                    super::count(frames as u64, "frame")
                ))
            },
            move || done.finished.store(true, Ordering::Relaxed),
        );
        match spawned {
            Ok(()) => {
                self.windows.gif_job = Some(job);
                self.set_status("Writing the GIF…");
            }
            Err(e) => self.set_error(format!("Could not start writing the GIF: {e}")),
        }
    }

    /// Writes the solution's moves, one numbered move a line after a header, to `path`.
    pub(super) fn export_moves(&mut self, path: &Path) {
        let Some(report) = self.work.result.as_ref().filter(|r| r.solved) else {
            self.set_error("No solution to export: solve the puzzle first.");
            return;
        };
        let mut text = format!(
            "# {} solved by {}: {}, cost {}{}\n",
            report.puzzle_type,
            report.algorithm.label(),
            super::count(report.moves.len() as u64, "move"),
            crate::search::format_cost(report.cost),
            if report.optimal { " (optimal)" } else { "" }
        );
        for (i, mv) in report.moves.iter().enumerate() {
            text += &format!("{}. {mv}\n", i + 1);
        }
        match crate::puzzles::write_atomically(path, text.as_bytes()) {
            Ok(()) => self.set_status(format!(
                "Wrote {} to {}.",
                super::count(report.moves.len() as u64, "move"),
                path.display()
            )),
            Err(e) => self.set_error(format!("Could not write {}: {e}", path.display())),
        }
    }

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
            let mut dialog = row
                .filters
                .iter()
                .fold(rfd::FileDialog::new(), |d, (name, extensions)| {
                    d.add_filter(*name, extensions)
                });
            if let Some(dir) = dir.filter(|d| d.is_dir()) {
                dialog = dialog.set_directory(dir);
            }
            let asked = std::time::Instant::now();
            let path = match name.as_deref().or(row.file_name) {
                Some(name) => dialog.set_file_name(name).save_file(),
                None => dialog.pick_file(),
            };
            match path {
                Some(path) => Some(DialogAnswer {
                    kind,
                    path: Some(path),
                }),
                None => (asked.elapsed() < NO_DIALOG).then_some(DialogAnswer { kind, path: None }),
            }
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
                answers.extend(answer.ok().flatten());
                false
            }
        });
        for answer in answers {
            self.commands.push(match answer.path {
                Some(path) => answer.kind.command(path),
                None => AppCommand::AskPath(answer.kind),
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
            };
            assert_eq!(format!("{command:?}"), format!("{expected:?}"));
        }
    }
}
