//! The commands every puzzle type shares, applied at the end of the frame, and keeping the
//! type's view in step with them (the editing they lead to, the undo history and replacing
//! the puzzle are the edits group, `edits.rs`).

use std::path::{Path, PathBuf};

use eframe::egui;

use super::files::DialogKind;
use super::view::ViewRequest;
use super::{AppCommand, AppState, Transition, race};
use crate::puzzles::{Puzzle, PuzzleType, Shipped};
use crate::runs::results;
use crate::search::Algorithm;
use crate::solver::Command as SolverCommand;

/// The largest puzzle (in squares) whose text is compared with the file's after each edit
/// (a 512 x 512 grid: a quarter of a megabyte of text, well under a millisecond).
pub(super) const COMPARED_SQUARES: usize = 512 * 512;

/// The text format of `puzzle`, to compare with the file's, for puzzles up to
/// [`COMPARED_SQUARES`] squares; `None` for larger ones (any edit counts as a change).
pub(super) fn comparable_text(puzzle: &dyn Puzzle) -> Option<String> {
    let (rows, cols) = puzzle.dims();
    (rows * cols <= COMPARED_SQUARES).then(|| puzzle.to_text())
}

/// How many edits can be undone.
pub const UNDO_LIMIT: usize = 50;

impl AppState {
    /// Carries out one command now.
    pub fn apply(&mut self, command: AppCommand) {
        match command {
            AppCommand::SelectType(t) => self.switch_type(t),
            // Each type keeps its own puzzle: these open in the workspace of the puzzle's
            // type, asking only about the edits of the puzzle they replace there.
            command @ (AppCommand::OpenShipped(..)
            | AppCommand::OpenState(_)
            | AppCommand::OpenGenerated(..)
            | AppCommand::OpenRead(..)) => self.open_in_its_workspace(command),
            AppCommand::OpenPath(path) => self.open_file(path),
            AppCommand::OpenRecent(path) => self.open_recent(path),
            AppCommand::ClearRecent => self.clear_recent(),
            AppCommand::AnswerUnsaved(choice) => self.answer_unsaved(choice),
            AppCommand::AskPath(kind) => self.ask_path(kind),
            AppCommand::CancelPath => self.windows.path_prompt = None,
            AppCommand::OpenDialog => self.spawn_dialog(DialogKind::Open),
            AppCommand::SaveDialog => self.spawn_dialog(DialogKind::Save),
            AppCommand::SaveDialogNamed(name) => {
                self.spawn_dialog_named(DialogKind::Save, Some(name));
            }
            AppCommand::Save => self.save(),
            AppCommand::SaveTo(path) => self.save_to(&path),
            AppCommand::SetAlgorithm(a) => self.set_algorithm(a),
            AppCommand::Start => self.start(false),
            AppCommand::Stop => self.stop(),
            AppCommand::Pause => self.pause(),
            AppCommand::Resume => self.resume(),
            AppCommand::Step => self.step(),
            AppCommand::SetBreakpoints(breakpoints) => self.set_breakpoints(breakpoints),
            AppCommand::SetSpeed(speed, full) => self.set_speed(speed, full),
            AppCommand::Paint(cell, value) => self.paint(cell, value),
            AppCommand::SetOption(name, value) => {
                self.edit_puzzle(|p| p.set_option(&name, &value).is_ok());
            }
            AppCommand::Undo => self.undo(),
            AppCommand::Redo => self.redo(),
            AppCommand::View(command) => self.ask_view(ViewRequest::Apply(command)),
            AppCommand::FitView => self.fit_view(),
            AppCommand::ExportResults(path) => self.export_results(&path),
            AppCommand::ExportDialog => self.spawn_dialog(DialogKind::Export),
            AppCommand::ClearResults => self.runs.results.clear(),
            AppCommand::RaceToggle(a) => self.race_toggle(a),
            AppCommand::StartRace => self.start_race(),
            AppCommand::StartTieRace => self.start_tie_race(),
            AppCommand::StopRace => self.stop_race(),
            AppCommand::CloseRace => self.close_race(),
            AppCommand::ExportCanvasDialog => self.spawn_dialog(DialogKind::Canvas),
            AppCommand::ExportMovesDialog => self.spawn_dialog(DialogKind::Moves),
            AppCommand::ExportCanvas(path) => self.export_canvas(path),
            AppCommand::ExportMoves(path) => self.export_moves(&path),
            AppCommand::ExportTraceDialog => self.spawn_dialog(DialogKind::Trace),
            AppCommand::ExportGraph(path) => self.export_graph(path),
            AppCommand::ExportGraphDialog => self.spawn_dialog(DialogKind::Graph),
            AppCommand::ExportTrace(path) => self.export_trace(path),
            AppCommand::Timeline(command) => self.apply_timeline(command),
            AppCommand::Learn(command) => self.apply_learn(command),
            AppCommand::Window(command) => self.apply_window(command),
            AppCommand::Setting(command) => self.apply_setting(command),
            AppCommand::Canvas(command) => self.apply_canvas(command),
            AppCommand::Oracle(command) => self.apply_oracle(command),
            AppCommand::SayError(text) => self.set_error(text),
            AppCommand::ExportGifDialog(colors, options) => self.ask_gif_path(colors, options),
            AppCommand::ExportGif(path) => self.export_gif(path),
            AppCommand::ShowStep(n) => self.show_step(n),
            AppCommand::Play(on) => self.play(on),
        }
    }

    /// Opens a file of File > Open Recent, or takes it off the list if it is gone.
    fn open_recent(&mut self, path: PathBuf) {
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
    fn clear_recent(&mut self) {
        self.settings.recent.clear();
        self.set_status("Open Recent is empty.");
    }

    /// Shows the path field (no file dialog could be shown), starting in the current file's folder.
    fn ask_path(&mut self, kind: DialogKind) {
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

    /// Chooses the algorithm (stopping a run of another).
    fn set_algorithm(&mut self, a: Algorithm) {
        if a != self.work.algorithm {
            self.stop_run();
            self.work.algorithm = a;
            self.settings.algorithm = Some(a);
        }
    }

    /// Stops the running search.
    fn stop(&mut self) {
        // Acts at once: the flag is set now, and the window says so in the next
        // frame, with the figures shown at the click; the solver's final report
        // (within about 10 ms) brings the figures at the moment it stopped.
        if let Some(run) = &self.runs.current {
            run.handle.stop();
            self.work.marks.current = None;
            self.set_status(format!(
                "Stopped after {}.",
                super::count(self.run_expansions(), "expansion")
            ));
        }
    }

    /// Pauses the running search.
    fn pause(&mut self) {
        if let Some(run) = &mut self.runs.current {
            run.handle.send(SolverCommand::Pause);
            run.is_paused = true;
            self.runs.paused_status = true;
            let text = super::run::paused_text(self.run_expansions());
            self.set_status(text);
        }
    }

    /// Resumes the paused search.
    fn resume(&mut self) {
        if let Some(run) = &mut self.runs.current {
            run.handle.send(SolverCommand::Resume);
            run.is_paused = false;
            self.runs.paused_status = false;
            self.set_status(format!("Searching with {}…", self.work.algorithm.label()));
        }
    }

    /// Sets the breakpoints of the next runs and the running one.
    fn set_breakpoints(&mut self, breakpoints: crate::runs::breakpoints::Breakpoints) {
        self.runs.breakpoints = breakpoints;
        if let Some(run) = &self.runs.current {
            run.handle.send(SolverCommand::SetBreakpoints(breakpoints));
        }
    }

    /// Sets the animation speed of the running search and the race.
    fn set_speed(&mut self, speed: f64, full: bool) {
        self.settings.speed = speed;
        self.settings.full_speed = full;
        if let Some(run) = &self.runs.current {
            run.handle.send(SolverCommand::SetSpeed(self.speed()));
        }
        // The lanes of a race run at the same speed.
        if let Some(race) = &self.runs.race {
            race.set_speed(self.speed());
        }
    }

    /// Paints `value` on `cell`, as an edit.
    fn paint(&mut self, cell: crate::puzzles::Cell, value: u8) {
        // Puzzles with their own undo slide the painted piece into place instead.
        let before = (!self.edits.uses_app_undo).then(|| self.work.puzzle.clone_box());
        if self.edit_puzzle(|p| p.paint(cell, value))
            && let Some(before) = before
        {
            self.slide_from(before.as_ref());
        }
    }

    /// Zooms the canvas to fit the whole puzzle.
    fn fit_view(&mut self) {
        self.work.zoom = 1.0;
        self.work.pan = egui::Vec2::ZERO;
    }

    /// Adds `a` to the next race, or takes it out.
    fn race_toggle(&mut self, a: Algorithm) {
        if let Some(i) = self.runs.race_choice.iter().position(|b| b.same_kind(a)) {
            self.runs.race_choice.remove(i);
        } else if self.runs.race_choice.len() < *race::RACERS.end() {
            self.runs.race_choice.push(a);
        }
    }

    /// Stops every lane of the race still running.
    fn stop_race(&mut self) {
        if let Some(r) = &self.runs.race {
            r.stop();
        }
    }

    /// Closes the race panes: back to the single run on screen.
    fn close_race(&mut self) {
        // Back to the single run on screen, and its timeline (the race's goes with
        // its panes).
        self.runs.race = None;
        self.work.timeline = self.work.timeline.take().and_then(|t| t.parked.map(|p| *p));
        // The race's lines ("Racing…", "Race over…") no longer describe the screen.
        self.set_status(if self.work.result.is_some() {
            "Race closed: back to the puzzle and its last single run."
        } else {
            "Race closed: back to the puzzle."
        });
    }

    /// Asks where to write the GIF, in these colours and with these options.
    fn ask_gif_path(
        &mut self,
        colors: Box<crate::runs::animation::GifColors>,
        options: crate::runs::animation::GifOptions,
    ) {
        self.windows.gif_request = Some((colors, options));
        self.windows.gif_window = false;
        self.spawn_dialog(DialogKind::Gif);
    }

    /// Shows the solution up to move `n`, sliding one move forward or back.
    fn show_step(&mut self, n: usize) {
        let moves = self.work.result.as_ref().map_or(0, |r| r.moves.len());
        let n = n.min(moves);
        // One move forward or back slides; a jump shows the position at once.
        self.playback.transition = (n.abs_diff(self.work.shown_moves) == 1).then_some(Transition {
            from: self.work.shown_moves,
            to: n,
            started: self.frame.now,
        });
        self.work.shown_moves = n;
    }

    /// Plays the solution back automatically, or stops.
    fn play(&mut self, on: bool) {
        let moves = self.work.result.as_ref().map_or(0, |r| r.moves.len());
        if on && self.work.shown_moves >= moves {
            // Playing from the end starts again from the beginning.
            self.work.shown_moves = 0;
            self.playback.transition = None;
        }
        self.playback.playing = on && moves > 0;
        self.playback.played_at = None;
    }

    /// Expands one state: of the running search (paused first), or of a new one started
    /// paused.
    fn step(&mut self) {
        match &mut self.runs.current {
            Some(run) => {
                if !run.is_paused {
                    run.handle.send(SolverCommand::Pause);
                    run.is_paused = true;
                }
                run.handle.send(SolverCommand::Step);
                self.runs.paused_status = true;
            }
            None => self.start(true),
        }
    }

    /// Writes the results table to `path` (CSV for a `.csv` name, else JSON).
    fn export_results(&mut self, path: &Path) {
        match results::export(&self.runs.results, path) {
            Ok(()) => self.set_status(format!(
                "Exported {} results to {}.",
                self.runs.results.len(),
                path.display()
            )),
            Err(e) => self.set_error(format!("Could not export to {}: {e}", path.display())),
        }
    }

    /// Saves to the current file, or asks for one.
    fn save(&mut self) {
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

    /// Leaves `request` for the view of the puzzle on screen, which serves it once the
    /// command that asked is carried out (see [`super::PuzzleLabApp::apply`]).
    pub(crate) fn ask_view(&mut self, request: ViewRequest) {
        self.views.requests.push_back(request);
    }

    /// Whether a type's view opens `path` itself (see [`super::ViewRegistry::claims`]).
    fn view_claims(&self, path: &Path) -> bool {
        self.views
            .registry
            .is_some_and(|r| (r.claims)(path).is_some())
    }

    /// Opens `path` in the view of the type that claims it.
    fn open_in_view(&mut self, path: &Path) {
        let Some(name) = self.views.registry.and_then(|r| (r.claims)(path)) else {
            return;
        };
        // The view of the type that claims it opens a puzzle of its type, or fails and
        // leaves the old one: either way the view then follows the puzzle on screen. It says
        // why it failed in the status bar, in red; a file it opened goes on File > Open
        // Recent, as any other.
        self.set_status(format!("Opening {}…", path.display()));
        self.ask_view(ViewRequest::Open(path.to_owned(), name));
    }
}
