//! The workspaces group (`SelectType`, `OpenShipped`, `OpenState`, `OpenGenerated`, `OpenRead`,
//! `OpenPath`, `AnswerUnsaved`): each puzzle type keeps its own puzzle, file, undo history,
//! last search and solution while the app runs, and its puzzle across restarts, so picking
//! another type never throws work away. Opening a file over unsaved edits asks first.

use std::path::PathBuf;

use eframe::egui;
use serde::{Deserialize, Serialize};

use super::{AppCommand, AppState, SearchMarks};
use crate::puzzles::{self, Puzzle, PuzzleType, Report};
use crate::search::Algorithm;

/// A puzzle type's work: the one on screen ([`AppState::work`]) and those put aside while
/// another type is on screen. Switching type swaps it whole.
pub(crate) struct Workspace {
    /// The puzzle.
    pub(crate) puzzle: Box<dyn Puzzle>,
    /// The file it was opened from or saved to, while put aside (the one on screen's is
    /// [`super::Settings::path`], which is persisted).
    path: Option<PathBuf>,
    /// The shipped puzzle it is (its file name, as the Puzzles menu says), when it was
    /// opened from the Puzzles menu rather than a file: it names the puzzle in the results
    /// table and the title.
    pub(crate) shipped: Option<&'static str>,
    /// The breakpoints of this type's runs, while put aside (the ones on screen's are
    /// [`AppState::breakpoints`]): each type keeps its own.
    breakpoints: crate::runs::breakpoints::Breakpoints,
    /// Whether the puzzle has edits not saved to a file: it differs from `saved_text` (see
    /// [`AppState::matches_saved`]).
    pub(crate) modified: bool,
    /// The puzzle's text format as last opened or saved, to tell whether edits (and their
    /// undoing) leave it as it was; `None` when unknown or too large to compare.
    pub(crate) saved_text: Option<String>,
    /// The algorithm chosen for this puzzle.
    pub(crate) algorithm: Algorithm,
    /// What the last or current search has shown: closed set, frontier, path.
    pub(crate) marks: SearchMarks,
    /// The result of the last search.
    pub(crate) result: Option<Report>,
    /// The timeline of the last finished run or race, replaying its recording.
    pub(crate) timeline: Option<super::Timeline>,
    /// How many moves of the solution are shown.
    pub(crate) shown_moves: usize,
    /// Puzzles before each edit (types using the app's undo), newest last.
    pub(crate) history: Vec<Box<dyn Puzzle>>,
    /// Puzzles undone, to redo, newest last.
    pub(crate) future: Vec<Box<dyn Puzzle>>,
    /// Canvas zoom: 1 fits the puzzle; more magnifies.
    pub(crate) zoom: f32,
    /// Canvas pan, in squares from the centred position.
    pub(crate) pan: egui::Vec2,
    /// How many times its puzzle was replaced (opened, reset, resized): the view of its type
    /// forgets what it knew of the old puzzle when this changes (see
    /// [`super::FollowsPuzzle`]).
    pub(crate) replaced: u64,
    /// Whether its puzzle is written in [`super::Settings::workspaces`] already (a puzzle put
    /// aside does not change, so it is written once).
    written: bool,
}

impl Workspace {
    /// A fresh workspace for `puzzle`, not yet searched, with `algorithm` chosen.
    pub(crate) fn new(puzzle: Box<dyn Puzzle>, algorithm: Algorithm) -> Workspace {
        let marks = SearchMarks::for_puzzle(puzzle.as_ref());
        Workspace {
            puzzle,
            path: None,
            shipped: None,
            breakpoints: Default::default(),
            modified: false,
            saved_text: None,
            algorithm,
            marks,
            result: None,
            timeline: None,
            shown_moves: 0,
            history: Vec::new(),
            future: Vec::new(),
            zoom: 1.0,
            pan: egui::Vec2::ZERO,
            replaced: 0,
            written: false,
        }
    }
}

/// A type's puzzle as kept across restarts (in [`super::Settings::workspaces`]).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedWorkspace {
    /// The puzzle in its JSON format; empty for the type on screen, whose puzzle is
    /// [`super::Settings::puzzle_json`] (not written twice).
    pub puzzle_json: String,
    /// The file it was opened from or saved to.
    pub path: Option<PathBuf>,
    /// Whether it has edits not saved to that file.
    pub modified: bool,
    /// The undo history kept across restarts (and crashes): the last `HISTORY_KEPT`
    /// positions before an edit, oldest first, each in the puzzle's JSON format; none of a
    /// puzzle of more than `HISTORY_SQUARES` squares.
    #[serde(default)]
    pub history: Vec<String>,
}

/// The most undo steps of a workspace kept across restarts.
pub const HISTORY_KEPT: usize = 20;

/// The largest puzzle (in squares) whose undo history is kept across restarts: bigger ones
/// would make each write of the state file slow (20 copies of a large grid).
pub const HISTORY_SQUARES: usize = 16_384;

/// `history`'s last [`HISTORY_KEPT`] positions in their JSON format, oldest first; none for
/// a puzzle larger than [`HISTORY_SQUARES`].
fn kept_history(history: &[Box<dyn Puzzle>]) -> Vec<String> {
    let skip = history.len().saturating_sub(HISTORY_KEPT);
    history[skip..]
        .iter()
        .filter(|p| {
            let (rows, cols) = p.dims();
            rows * cols <= HISTORY_SQUARES
        })
        .map(|p| p.to_json().to_string())
        .collect()
}

/// The positions of a kept history (see [`SavedWorkspace::history`]) that still parse as
/// puzzles of `type_name`, oldest first.
pub(super) fn restored_history(history: &[String], type_name: &str) -> Vec<Box<dyn Puzzle>> {
    history
        .iter()
        .filter_map(|json| puzzles::parse(json, None).ok())
        .filter(|p| p.puzzle_type().name == type_name)
        .collect()
}

/// The shipped puzzle `puzzle` is, as it was shipped (the same text), if it is one: its
/// file name. A puzzle restored from the state file is named by this.
pub(super) fn shipped_file_of(puzzle: &dyn Puzzle) -> Option<&'static str> {
    let puzzle_type = puzzle.puzzle_type();
    let dims = puzzle.dims();
    let mut text = None;
    puzzle_type.shipped.iter().find_map(|shipped| {
        let candidate = (puzzle_type.parse_text)(shipped.text).ok()?;
        if candidate.dims() != dims {
            return None;
        }
        let text = text.get_or_insert_with(|| puzzle.to_text());
        (candidate.to_text() == *text).then_some(shipped.file)
    })
}

/// What to do with unsaved edits before a command that would replace the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnsavedChoice {
    /// Save them (to the puzzle's file, or one asked for), then go on.
    Save,
    /// Drop them and go on.
    Discard,
    /// Keep them and do not go on.
    Cancel,
}

impl AppState {
    /// Switches to the workspace of `puzzle_type`: the one on screen is put aside whole, and
    /// the type's own comes back as it was left (or, the first time, its puzzle kept from
    /// the last session, or its first shipped puzzle).
    pub(super) fn switch_type(&mut self, puzzle_type: &'static PuzzleType) {
        let old = self.work.puzzle.puzzle_type().name;
        if puzzle_type.name == old {
            return;
        }
        self.stop_run();
        // A question about the unsaved edits of the puzzle put aside (or the open waiting for
        // its save) belongs to it: answered later it would act on the puzzle then on
        // screen (a Save wrote the other type's file, then replaced its puzzle). The user
        // moved on: it is dropped, the edits kept.
        self.edits.asking = None;
        self.edits.after_save = None;
        self.runs.race = None;
        self.canvas.stroke = None;
        self.canvas.edit_slide = None;
        self.playback.transition = None;
        self.playback.playing = false;
        let kept = self.take_workspace(puzzle_type.default_puzzle());
        self.workspaces.insert(old, kept);
        if let Some(ws) = self.workspaces.remove(puzzle_type.name) {
            self.put_workspace(ws);
            self.set_status(format!("Back to {}.", puzzle_type.label));
            return;
        }
        let saved = self.settings.workspaces.get(puzzle_type.name).cloned();
        match saved.map(|s| (puzzles::parse(&s.puzzle_json, None), s)) {
            Some((Ok(puzzle), saved)) if puzzle.puzzle_type().name == puzzle_type.name => {
                let shipped = (saved.path.is_none() && !saved.modified)
                    .then(|| shipped_file_of(puzzle.as_ref()))
                    .flatten();
                self.replace_puzzle(puzzle, saved.path);
                self.work.shipped = shipped;
                self.work.history = restored_history(&saved.history, puzzle_type.name);
                if saved.modified {
                    // Its file's text is not known: any change counts as unsaved.
                    self.work.modified = true;
                    self.work.saved_text = None;
                }
                self.set_status(format!("Opened {} as you left it.", puzzle_type.label));
            }
            _ => {
                self.replace_puzzle(puzzle_type.default_puzzle(), None);
                self.work.shipped = Some(puzzle_type.shipped[0].file);
                self.set_status(format!(
                    "Opened {} ({}).",
                    puzzle_type.label, puzzle_type.shipped[0].file
                ));
            }
        }
    }

    /// Takes the workspace on screen out of the app, leaving `placeholder` on screen until
    /// another is put there.
    fn take_workspace(&mut self, placeholder: Box<dyn Puzzle>) -> Workspace {
        let algorithm = self.work.algorithm;
        let mut ws = std::mem::replace(&mut self.work, Workspace::new(placeholder, algorithm));
        ws.path = self.settings.path.take();
        ws.breakpoints = std::mem::take(&mut self.runs.breakpoints);
        ws.written = false;
        ws
    }

    fn put_workspace(&mut self, mut ws: Workspace) {
        self.settings.path = ws.path.take();
        self.runs.breakpoints = std::mem::take(&mut ws.breakpoints);
        self.work = ws;
        self.edits.revision += 1;
        self.edits.puzzle_dirty = true;
        self.canvas.picture_cache = None;
    }

    /// Writes each type's puzzle into the settings, to keep them across restarts: those put
    /// aside once each (eframe saves every 30 s: a large maze is not written out again for
    /// nothing); the one on screen has only its file and unsaved mark here, its puzzle being
    /// [`super::Settings::puzzle_json`].
    pub(super) fn remember_workspaces(&mut self) {
        for (name, ws) in &mut self.workspaces {
            if !std::mem::replace(&mut ws.written, true) {
                self.settings.workspaces.insert(
                    (*name).to_owned(),
                    SavedWorkspace {
                        puzzle_json: ws.puzzle.to_json().to_string(),
                        path: ws.path.clone(),
                        modified: ws.modified,
                        history: kept_history(&ws.history),
                    },
                );
            }
        }
        let name = self.work.puzzle.puzzle_type().name;
        self.settings.workspaces.insert(
            name.to_owned(),
            SavedWorkspace {
                puzzle_json: String::new(),
                path: self.settings.path.clone(),
                modified: self.work.modified,
                history: kept_history(&self.work.history),
            },
        );
    }

    /// Whether the puzzle on screen has edits not saved to a file.
    pub fn is_modified(&self) -> bool {
        self.work.modified
    }

    /// The window title: the file name (or the type's name) with a mark for unsaved edits.
    pub fn title(&self) -> String {
        let name = self.run_name();
        let mark = if self.work.modified { " *" } else { "" };
        format!("{name}{mark} - puzzlelab")
    }

    /// Opens what `command` puts on screen in the workspace of its type: a puzzle of another
    /// type first brings that type's workspace on screen, the one on screen being put aside
    /// whole (its puzzle, file, run, pins and timeline untouched, and nothing asked about
    /// it); then the puzzle it replaces there is replaced, after asking about its unsaved
    /// edits (see [`AppState::replace_or_ask`]).
    pub(super) fn open_in_its_workspace(&mut self, command: AppCommand) {
        let target = match &command {
            AppCommand::OpenShipped(t, _) => Some(*t),
            AppCommand::OpenGenerated(p, _) | AppCommand::OpenRead(p, _) => Some(p.puzzle_type()),
            AppCommand::OpenPath(path) => self
                .views
                .registry
                .and_then(|r| (r.claims)(path))
                .and_then(puzzles::type_by_name),
            _ => None,
        };
        if let Some(t) = target {
            self.switch_type(t);
        }
        self.replace_or_ask(command);
    }

    /// Opens the puzzle file at `path`: a file a type's view opens itself (a Moving AI
    /// scenario) in that type's workspace at once; any other is read first (on a job), then
    /// put in its type's workspace (see [`AppState::open_in_its_workspace`]), as its type
    /// is known only once it is read.
    pub(super) fn open_file(&mut self, path: PathBuf) {
        if self
            .views
            .registry
            .is_some_and(|r| (r.claims)(&path).is_some())
        {
            self.open_in_its_workspace(AppCommand::OpenPath(path));
        } else {
            self.open_in_background(path);
        }
    }

    /// Runs `command` (which replaces the puzzle on screen) now, or, over unsaved edits,
    /// keeps it to ask first: Save, Discard or Cancel (see [`AppState::unsaved_question`]).
    pub(super) fn replace_or_ask(&mut self, command: AppCommand) {
        if self.work.modified {
            self.edits.asking_run = false;
            self.edits.asking = Some(Box::new(command));
            // The question is asked in a window; the status bar no longer says "Opening…".
            self.set_status(format!(
                "{} has unsaved edits: Save, Discard or Cancel?",
                self.run_name()
            ));
        } else if matches!(command, AppCommand::OpenState(_)) && self.has_run() {
            // A click on a state in the State space (or Heuristic) window would take the
            // run with it: asked first, as unsaved edits are.
            self.edits.asking_run = true;
            self.edits.asking = Some(Box::new(command));
            self.set_status("Opening that state discards the run on screen: Discard or Cancel?");
        } else {
            self.replace_now(command);
        }
    }

    /// Whether a run is on screen: running, or ended with its result or timeline.
    fn has_run(&self) -> bool {
        self.runs.current.is_some() || self.work.result.is_some() || self.work.timeline.is_some()
    }

    /// Whether the question of [`AppState::unsaved_question`] is about the run on screen
    /// (a state opened from the State space window) rather than unsaved edits.
    pub fn question_is_about_run(&self) -> bool {
        self.edits.asking.is_some() && self.edits.asking_run
    }

    /// The command waiting for an answer about unsaved edits, if any.
    pub fn unsaved_question(&self) -> Option<&AppCommand> {
        self.edits.asking.as_deref()
    }

    /// Answers the question about unsaved edits.
    pub(super) fn answer_unsaved(&mut self, choice: UnsavedChoice) {
        let Some(command) = self.edits.asking.take() else {
            return;
        };
        if std::mem::take(&mut self.edits.asking_run) {
            // The puzzle has nothing unsaved: Save, as Discard, goes on without the run.
            match choice {
                UnsavedChoice::Cancel => self.set_status("Kept the puzzle and its run."),
                UnsavedChoice::Discard | UnsavedChoice::Save => self.replace_now(*command),
            }
            return;
        }
        match choice {
            UnsavedChoice::Cancel => self.set_status("Kept the puzzle and its edits."),
            UnsavedChoice::Discard => self.replace_now(*command),
            UnsavedChoice::Save => match self.settings.path.clone() {
                Some(path) => {
                    self.save_to(&path);
                    if !self.work.modified {
                        self.replace_now(*command);
                    }
                }
                None => {
                    // Asks for a file; the command goes on once it is saved.
                    self.edits.after_save = Some(command);
                    self.spawn_dialog(super::files::DialogKind::Save);
                }
            },
        }
    }

    /// Carries out a command that replaces the puzzle, without asking. (The unsaved mark
    /// goes with the puzzle when it is replaced: an open that fails keeps both.)
    fn replace_now(&mut self, command: AppCommand) {
        match command {
            AppCommand::OpenShipped(t, shipped) => self.open_shipped(t, shipped),
            AppCommand::OpenState(node) => self.open_state(node),
            AppCommand::OpenGenerated(puzzle, status) => {
                self.replace_puzzle(puzzle, None);
                self.set_status(status);
            }
            AppCommand::OpenPath(path) => self.open_path(path),
            AppCommand::OpenRead(puzzle, path) => {
                self.set_status(format!("Opened {}.", path.display()));
                self.settings.note_recent(&path, puzzle.puzzle_type().name);
                self.replace_puzzle(puzzle, Some(path));
            }
            other => self.apply(other),
        }
    }
}
