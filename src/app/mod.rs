//! The eframe application: the state behind the window, the commands that change it, and the
//! per-frame logic (drain the solver's events, draw the panels, apply the commands).

pub mod autosave;
mod commands;
mod edits;
pub mod export;
pub mod file_watch;
mod files;
pub mod heuristic_measure;
pub mod job;
pub mod learn;
pub mod oracle;
pub mod race;
mod run;
mod search_marks;
pub mod search_tree;
mod settings;
mod shell;
pub mod space_layout;
mod state;
pub mod timeline;
mod view;
pub mod view_capabilities;
pub mod view_work;
mod windows;
mod words;
mod workspace;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use eframe::egui;

pub use commands::UNDO_LIMIT;
pub use files::{DialogKind, GifJob};
pub use search_marks::{COARSE_BLOCKS, Mark, SearchMarks, Shade, ShadeKind, Whole};
pub use settings::{
    MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_RECENT, MAX_TYPE_ENTRIES, MAX_VIEW_BYTES, RecentFile,
    Settings, Theme,
};
pub use shell::{Panel, PuzzleLabApp};
pub use state::{AppState, CanvasState, Runs, Windows};
pub use timeline::{Pinned, Timeline, TimelineCommand, Track};
pub use view::{
    AppAccess, CanvasExtras, Description, Drawing, Pointer, TypeView, ViewCommand, ViewContext,
    ViewDraw, ViewRead, ViewRegistry, ViewWrite,
};
pub use view_capabilities::{
    CapabilityKind, FollowsPuzzle, FrameWork, KeepsSettings, OpensFiles, OwnPanels, OwnUndo,
    SavesItself, ViewCapability,
};
pub use view_work::{WorkContext, WorkOrder};
pub use windows::{CanvasCommand, OracleCommand, SettingCommand, WindowCommand};
pub use words::{count, count_in, sentence};
pub use workspace::{SavedWorkspace, UnsavedChoice};

use crate::puzzles::{Cell, Motion, Picture, Puzzle, PuzzleType, Report, Shipped};
use crate::search::{Algorithm, Limits, limits};
use crate::solver::SolverHandle;
/// The least and the most time a frame spends on incremental work, counted from the frame's
/// start and shared by everything it does: taking the solver's events, moving the timeline,
/// writing marks into the picture and making its shrunk copy; the rest waits for the next
/// frame. Within these bounds it is a quarter of the time since the last frame: when drawing
/// is slow (software rendering) a frame does more, so the picture keeps up with the search.
/// The most keeps a frame under 16 ms on the frame benchmark (`cargo bench --bench frame`).
const MIN_WORK_BUDGET: Duration = Duration::from_millis(3);
const MAX_WORK_BUDGET: Duration = Duration::from_millis(8);
/// The most a frame works once a full-speed search has ended and the picture still catches
/// up with its recording: half the time since the last frame, up to this. Nothing else is
/// under way then, and where drawing is slow (software rendering, about 100 ms a frame) the
/// usual 8 ms a frame left the final picture seconds behind the end.
const CATCH_UP_BUDGET: Duration = Duration::from_millis(40);
/// The time since a paced frame counts as this (a display's frame) for the work budget.
const PACED_FRAME_AS: Duration = Duration::from_millis(16);
/// The most time one call of a puzzle's own code (a puzzle script's `is_goal`, `moves`,
/// `draw`, its top level and `start()`) may take on the window's thread: a call past it ends
/// with an error that says so, and the frame goes on. Searches, the oracle and reloads call
/// the script on threads of their own, under their own limits (each call at most
/// [`crate::puzzles::call_limits::CALL_TIME`] there).
pub const UI_CALL_LIMIT: Duration = Duration::from_millis(100);
/// How many rows of the results table are kept across restarts (the newest).
pub const KEPT_RESULTS: usize = 2000;
/// The fastest solution playback, in moves a second.
pub const MAX_PLAYBACK_RATE: f64 = 100_000.0;

/// Something the user asked for. Panels push commands; [`AppState::apply`] carries them
/// out at the end of the frame.
#[derive(Debug)]
#[must_use]
pub enum AppCommand {
    /// Switch to a puzzle type's workspace (its puzzle as left, or its first shipped one).
    SelectType(&'static PuzzleType),
    /// Open a shipped puzzle.
    OpenShipped(&'static PuzzleType, &'static Shipped),
    /// Open state `n` of the oracle's explored space as the puzzle (after asking about
    /// unsaved edits).
    OpenState(u32),
    /// Put this generated puzzle on screen, saying this in the status bar (after asking
    /// about unsaved edits).
    OpenGenerated(Box<dyn Puzzle>, String),
    /// Show the file dialog to open a puzzle.
    OpenDialog,
    /// Open the puzzle file at this path (in the workspace of its type).
    OpenPath(PathBuf),
    /// Put this puzzle, read from the file at this path, on screen in the workspace of its
    /// type (after asking about the unsaved edits of the puzzle it replaces there).
    OpenRead(Box<dyn Puzzle>, PathBuf),
    /// Open a file of File > Open Recent (taken off the list, with a message, if it is gone).
    OpenRecent(PathBuf),
    /// Empty File > Open Recent.
    ClearRecent,
    /// Save to the current file, or ask for one.
    Save,
    /// Ask for a file and save to it.
    SaveDialog,
    /// Ask for a file and save to it, offering this file name (a puzzle whose own kind of
    /// file the view knows: a script's `.rhai`).
    SaveDialogNamed(String),
    /// Save to this path.
    SaveTo(PathBuf),
    /// Choose the algorithm.
    SetAlgorithm(Algorithm),
    /// Start a search (stopping any running one).
    Start,
    /// Stop the running search.
    Stop,
    /// Pause the running search.
    Pause,
    /// Resume a paused search.
    Resume,
    /// Expand one state (starting a paused search if none runs).
    Step,
    /// Change the animation speed (expansions per second) and the full-speed switch.
    SetSpeed(f64, bool),
    /// Pause the runs at these breakpoints (the running one from its next expansion).
    SetBreakpoints(crate::runs::breakpoints::Breakpoints),
    /// Set one of the puzzle's options to a value, as an edit (see [`Puzzle::set_option`]).
    SetOption(String, String),
    /// Paint a value on a square (see [`Puzzle::paint`]).
    Paint(Cell, u8),
    /// Show the solution up to this many moves.
    ShowStep(usize),
    /// Play the solution back automatically (true) or stop playing it (false).
    Play(bool),
    /// Write the results table to this file (CSV if it ends in `.csv`, else JSON).
    ExportResults(PathBuf),
    /// Ask where to export the results table.
    ExportDialog,
    /// Forget the results table.
    ClearResults,
    /// Race mode: add this algorithm to the race, or take it out.
    RaceToggle(Algorithm),
    /// Race mode: start the chosen algorithms together.
    StartRace,
    /// Race the chosen algorithm against itself, once per tie-breaking policy.
    StartTieRace,
    /// Race mode: stop every lane still running.
    StopRace,
    /// Race mode: close the race panes and go back to the single canvas.
    CloseRace,
    /// Save a picture of the canvas as PNG at this path (taken from the next frame).
    ExportCanvas(PathBuf),
    /// Ask where to save a picture of the canvas.
    ExportCanvasDialog,
    /// Write the solution's moves as text to this path.
    ExportMoves(PathBuf),
    /// Ask where to write the solution's moves.
    ExportMovesDialog,
    /// Write the last run's recording to this path as a Posthoc search trace (JSON), on a
    /// background thread.
    ExportTrace(PathBuf),
    /// Ask where to write the last run's search trace.
    ExportTraceDialog,
    /// Write the explored state graph to this path (GraphML, or CSV edges for `.csv`), on
    /// a background thread.
    ExportGraph(PathBuf),
    /// Ask where to write the explored state graph.
    ExportGraphDialog,
    /// Ask where to write the last run as an animated GIF in these colours, with these
    /// options.
    ExportGifDialog(
        Box<crate::runs::animation::GifColors>,
        crate::runs::animation::GifOptions,
    ),
    /// Write the last run as an animated GIF to this path (as last asked for), on a
    /// background thread.
    ExportGif(PathBuf),
    /// Take back the last edit (the app's history, or the view's own undo).
    Undo,
    /// Make again the last edit taken back.
    Redo,
    /// Zoom the canvas to fit the whole puzzle.
    FitView,
    /// A command of the view of the puzzle on screen (see [`ViewCommand`]).
    View(ViewCommand),
    /// The answer to "save the unsaved edits?" asked before replacing the puzzle.
    AnswerUnsaved(UnsavedChoice),
    /// No file dialog could be shown: ask for a path in a text field instead.
    AskPath(DialogKind),
    /// Close the path field without using it.
    CancelPath,
    /// A command of the timeline of the finished run (see [`TimelineCommand`]).
    Timeline(TimelineCommand),
    /// A command of the Learn window (see [`learn::LearnCommand`]).
    Learn(learn::LearnCommand),
    /// A change of a window beside the canvas (see [`WindowCommand`]).
    Window(WindowCommand),
    /// A change of a setting (see [`SettingCommand`]).
    Setting(SettingCommand),
    /// A change of the canvas's view or pointer (see [`CanvasCommand`]).
    Canvas(CanvasCommand),
    /// A change of the optimal-move oracle (see [`OracleCommand`]).
    Oracle(OracleCommand),
    /// Say this in the status bar, as an error (a panel's failure to make a command).
    SayError(String),
}

/// A message shown in the status bar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// Whether it reports an error.
    pub is_error: bool,
}

/// A pointer stroke on the canvas: what it paints and where it painted last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaintStroke {
    /// The value painted, or `None` when the stroke began on a square that cannot be edited.
    pub value: Option<u8>,
    /// The square painted last, so a drag paints each square once.
    pub last: Option<Cell>,
    /// Whether the stroke's first change was recorded for undo (a stroke undoes at once).
    pub recorded: bool,
    /// Whether the type's view took the stroke (see [`TypeView::pointer`]).
    pub by_view: bool,
    /// For a stroke that grabbed a piece of a board of sliding pieces: where it was
    /// grabbed, in (rows, columns) from the piece's top-left square. The piece follows the
    /// pointer, keeping that square under it, as far as its legal slides take it.
    pub grab: Option<(usize, usize)>,
}

/// A running search and the UI's knowledge of it.
struct Run {
    handle: SolverHandle,
    is_paused: bool,
    /// The search's own figures at its last progress event.
    stats: crate::search::Stats,
    /// A board puzzle's board of the state expanded last, at the last progress event.
    board: Option<crate::puzzles::Picture>,
}

/// Which moment of the puzzle the canvas draws, so that every readout can say what it
/// describes (see [`AppState::shown_moment`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShownMoment {
    /// The puzzle as it is (edited, played by hand).
    Puzzle,
    /// The solution's playback after this many moves.
    Solution(usize),
    /// A state of the search: the one being expanded, or the timeline's moment.
    Search,
}

/// A move of the solution being animated: from one shown position to the next.
#[derive(Clone, Copy, Debug)]
struct Transition {
    from: usize,
    to: usize,
    /// UI clock when it began, in seconds.
    started: f64,
}

impl AppState {
    /// Which moment of the puzzle the canvas draws: a state of the search (while a board
    /// puzzle's search runs, after it ended at a script error, or the timeline is
    /// scrubbed back; with the Learn panel open, at a micro-step and at the end of a run
    /// that found no solution), the solution's playback
    /// (once a solution is found), or the puzzle as it is.
    pub fn shown_moment(&self) -> ShownMoment {
        let board_search = self.work.marks.board.is_some() && self.is_running();
        // A board search that ended at a script error shows the state whose expansion
        // failed (its last moment), not the start.
        let script_error = self.work.marks.board.is_some()
            && (self.work.result.as_ref())
                .is_some_and(|r| r.outcome == crate::search::Outcome::ScriptError);
        // The Learn panel names the board of the moment it tells ("n = the board shown"):
        // the canvas shows it at the last moment of a run stopped or ended without a
        // solution, and at a micro-step, not the puzzle's own board or the solution's.
        let lesson = self.windows.learn.open
            && self.work.marks.board.is_some()
            && self.runs.race.is_none()
            && ((self.work.result.as_ref()).is_some_and(|r| !r.solved)
                || self.learn_moment().is_some_and(|(_, m)| m.event.is_some()));
        if self.is_scrubbed() || board_search || script_error || lesson {
            return ShownMoment::Search;
        }
        match &self.work.result {
            Some(r) if r.solved && self.runs.race.is_none() => {
                ShownMoment::Solution(self.work.shown_moves.min(r.moves.len()))
            }
            _ => ShownMoment::Puzzle,
        }
    }

    /// The key of the position the oracle assesses: the puzzle, or the playback's moment.
    /// The position the canvas shows: the solution's playback at its move, when it is made
    /// (the oracle on), else the puzzle itself. What the windows about positions measure.
    pub fn shown_puzzle(&self) -> &dyn Puzzle {
        (self.playback.position_at(self.shown_position_key())).unwrap_or(self.work.puzzle.as_ref())
    }

    fn shown_position_key(&self) -> oracle::PositionKey {
        let moment = match self.shown_moment() {
            ShownMoment::Solution(k) => k + 1,
            ShownMoment::Puzzle | ShownMoment::Search => 0,
        };
        oracle::PositionKey {
            revision: self.edits.revision,
            moment,
        }
    }

    /// Makes the position the solution's playback shows at `key` (from the puzzle and the
    /// solution's first moves), once per moment; nothing for the puzzle itself.
    fn make_playback_position(&mut self, key: oracle::PositionKey) {
        if key.moment == 0
            || self
                .playback
                .position
                .as_ref()
                .is_some_and(|(k, _)| *k == key)
        {
            return;
        }
        let position = (self.work.result.as_ref())
            .and_then(|r| r.moves.get(..key.moment - 1))
            .and_then(|played| self.work.puzzle.after_moves(played));
        self.playback.position = position.map(|p| (key, p));
    }

    /// The puzzle on screen.
    pub fn puzzle(&self) -> &dyn Puzzle {
        self.work.puzzle.as_ref()
    }

    /// The picture of the puzzle on screen as it is: made once per edit by the frame's work
    /// ([`AppState::refresh_picture`]; a large maze is costly to picture), or made here when
    /// the puzzle was edited since.
    pub fn puzzle_picture(&self) -> Arc<Picture> {
        match &self.canvas.picture_cache {
            Some((revision, picture)) if *revision == self.edits.revision => picture.clone(),
            _ => Arc::new(self.work.puzzle.picture()),
        }
    }

    /// Pictures the puzzle on screen again if it was edited since it was last pictured (see
    /// [`AppState::puzzle_picture`]).
    pub(crate) fn refresh_picture(&mut self) {
        let revision = self.edits.revision;
        if (self.canvas.picture_cache.as_ref()).is_none_or(|(r, _)| *r != revision) {
            self.canvas.picture_cache = Some((revision, Arc::new(self.work.puzzle.picture())));
        }
    }

    /// The puzzle on screen as the model `M` (a view's own type), if it is one.
    pub fn model<M: Puzzle + std::any::Any>(&self) -> Option<&M> {
        self.work.puzzle.model::<M>()
    }

    /// The chosen algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.work.algorithm
    }

    /// The persisted settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The result of the last finished search.
    pub fn result(&self) -> Option<&Report> {
        self.work.result.as_ref()
    }

    /// The results table's rows: one per finished run this session, oldest first.
    pub fn results(&self) -> &[crate::runs::results::ResultRow] {
        &self.runs.results
    }

    /// The search's marks and figures at the position shown (the timeline's cursor).
    pub fn marks(&self) -> &SearchMarks {
        &self.work.marks
    }

    /// The status bar's message.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Whether a search is running (paused or not).
    pub fn is_running(&self) -> bool {
        self.runs
            .current
            .as_ref()
            .is_some_and(|r| !r.handle.is_stopping())
    }

    /// Whether a file is being read to be opened (File > Open, a dropped file, Open Recent).
    pub fn is_opening(&self) -> bool {
        self.io.opening.is_some()
    }

    /// Whether the running search is paused.
    pub fn is_paused(&self) -> bool {
        self.runs.current.as_ref().is_some_and(|r| r.is_paused)
    }

    /// How many moves of the solution are shown on the canvas.
    pub fn shown_moves(&self) -> usize {
        self.work.shown_moves
    }

    /// The race on screen, if any.
    pub fn race(&self) -> Option<&race::Race> {
        self.runs.race.as_ref()
    }

    /// Whether the solution is being played back automatically.
    pub fn is_playing(&self) -> bool {
        self.playback.playing
    }

    /// The move being animated on the canvas: the shown positions it goes between and how far
    /// it has got (0 to 1, exclusive).
    pub fn transition(&self) -> Option<(usize, usize, f32)> {
        let t = self.playback.transition?;
        let done = (self.frame.now - t.started) / self.transition_seconds();
        (done < 1.0).then_some((t.from, t.to, done.max(0.0) as f32))
    }

    /// How long one move's animation takes, in seconds: shorter when playing back fast.
    fn transition_seconds(&self) -> f64 {
        (0.8 / self.settings.playback_rate.max(0.1)).min(0.3)
    }

    /// The move played by hand being animated: the picture before it, the move as a value
    /// (see [`Puzzle::motion_from`]) and how far it has got (0 to 1, exclusive).
    pub fn edit_transition(&self) -> Option<(&Picture, Option<Motion>, f32)> {
        let (before, motion, started) = self.canvas.edit_slide.as_ref()?;
        let done = (self.frame.now - started) / self.transition_seconds();
        (done < 1.0).then_some((before, *motion, done.max(0.0) as f32))
    }

    /// Starts animating the move played by hand from `before` to the puzzle on screen.
    pub(crate) fn slide_from(&mut self, before: &dyn Puzzle) {
        let hand = self.work.puzzle.capabilities().hand_play;
        let motion = hand.and_then(|h| h.motion_from(before));
        self.canvas.edit_slide = Some((before.picture(), motion, self.frame.now));
    }

    /// Queues a command of the view of the puzzle on screen (see [`ViewCommand`]).
    pub fn push_view(&mut self, command: impl std::any::Any + Send) {
        self.commands
            .push(AppCommand::View(ViewCommand::new(command)));
    }

    /// Queues a command, to be applied at the end of the frame.
    pub fn push(&mut self, command: AppCommand) {
        self.commands.push(command);
    }

    /// When this frame's incremental work stops, counted from the frame's start (see
    /// [`MIN_WORK_BUDGET`]); work that starts after it still gets a sixteenth of the budget,
    /// so each part of the frame moves on a little.
    pub(crate) fn work_deadline(&self) -> std::time::Instant {
        let now = std::time::Instant::now();
        let floor = now + self.frame.work_budget / 16;
        self.frame
            .started
            .map_or(now + self.frame.work_budget, |started| {
                started + self.frame.work_budget
            })
            .max(floor)
    }

    /// The frame's work before anything is drawn: playback, the solver's and the race's
    /// events, file dialogs' answers, background builds, dropped files. The ui layer calls
    /// this first in each frame, then draws, then calls [`AppState::end_frame`].
    pub fn begin_frame(&mut self, ctx: &egui::Context) {
        if self.frame.repaint.is_none() {
            self.frame.repaint = Some(ctx.clone());
        }
        // The window's thread: no user code runs here without a time limit.
        crate::puzzles::call_limits::limit_this_thread(
            crate::puzzles::call_limits::CallLimits::time(UI_CALL_LIMIT),
        );
        if ctx.input(|i| i.viewport().close_requested()) {
            self.stop_all_for_exit();
        }
        self.frame.now = ctx.input(|i| i.time);
        let started = std::time::Instant::now();
        let since_last = (self.frame.started.map(|last| started - last)).map(|t| {
            if self.frame.paced {
                t.min(PACED_FRAME_AS)
            } else {
                t
            }
        });
        self.frame.work_budget = since_last
            .map_or(MIN_WORK_BUDGET, |t| t / 4)
            .clamp(MIN_WORK_BUDGET, MAX_WORK_BUDGET);
        if self.is_catching_up() {
            let more = since_last.map_or(MIN_WORK_BUDGET, |t| (t / 2).min(CATCH_UP_BUDGET));
            self.frame.work_budget = self.frame.work_budget.max(more);
        }
        self.frame.started = Some(started);
        self.tick_playback(ctx);
        self.receive_events();
        self.receive_race();
        self.tick_timeline(ctx);
        self.tick_learn();
        self.receive_dialogs();
        self.receive_opened(ctx);
        self.receive_restored(ctx);
        self.receive_dropped_files(ctx);
        let (wake, limits) = (self.waker(), self.limits());
        self.windows.oracle.hidden = self.shown_moment() == ShownMoment::Search;
        let key = self.shown_position_key();
        if self.windows.oracle.enabled {
            self.make_playback_position(key);
        }
        let shown = self.playback.position_at(key);
        self.windows
            .oracle
            .tick(self.work.puzzle.as_ref(), shown, key, limits, &wake);
        if self.windows.oracle.enabled && self.windows.oracle.show_map {
            self.windows.oracle.make_heat();
        }
        self.windows
            .space_window
            .tick(&self.windows.oracle, &wake, ctx);
        self.windows.heuristic_window.tick(
            &self.windows.oracle,
            self.work.puzzle.as_ref(),
            limits,
            &wake,
        );
        if (self.windows.gif_job.as_ref())
            .is_some_and(|job| job.finished.load(std::sync::atomic::Ordering::Relaxed))
        {
            // Written, failed or stopped: its outcome comes to the status bar.
            self.windows.gif_job = None;
        }
        self.withdraw_refuted_claim();
        let caught_up = (self.work.timeline.as_ref())
            .and_then(|t| t.track.as_ref())
            .is_none_or(Track::is_caught_up);
        let settled = (!self.is_running() || self.is_paused()) && caught_up;
        let recording = self.timeline_recording().cloned();
        let result = self.work.result.as_ref();
        self.windows.tree_window.tick(
            recording.as_ref(),
            || search_tree::Solution {
                places: result.map(|r| r.path.clone()).unwrap_or_default(),
                depth_first: result.is_some_and(|r| r.solved && r.algorithm == Algorithm::IdaStar),
            },
            settled,
            &wake,
            ctx,
        );
        match self.windows.space_window.poll_generated() {
            Some(Ok(command)) => self.commands.push(command),
            Some(Err(why)) => self.set_error(why),
            None => {}
        }
    }

    /// The frame's work after it is drawn and its commands applied (see
    /// [`PuzzleLabApp::end_frame`]): the autosave, and the next frame asked for.
    fn after_commands(&mut self, ctx: &egui::Context, commands: bool) {
        self.check_saved();
        self.autosave_tick(ctx, commands);
        if self.runs.current.as_ref().is_some_and(|r| !r.is_paused) {
            // The worker wakes us on progress, at full speed at most once a
            // `FULL_SPEED_FRAME`; this keeps the elapsed time ticking too.
            ctx.request_repaint_after(if self.settings.full_speed {
                crate::solver::FULL_SPEED_FRAME
            } else {
                Duration::from_millis(100)
            });
        }
        self.frame.paced = self.settings.full_speed
            && (self.runs.current.as_ref())
                .is_some_and(|r| !r.is_paused && !r.handle.search_ended());
    }

    pub(crate) fn set_status(&mut self, text: impl Into<String>) {
        self.status = Status {
            text: text.into(),
            is_error: false,
        };
    }

    pub(crate) fn set_error(&mut self, text: impl Into<String>) {
        self.status = Status {
            text: text.into(),
            is_error: true,
        };
    }

    /// The solver speed from the settings.
    pub(crate) fn speed(&self) -> f64 {
        if self.settings.full_speed {
            f64::INFINITY
        } else {
            self.settings.speed.max(0.1)
        }
    }

    /// The limits searches run under: the memory budget and tie-breaking policy from the
    /// settings, no time limit (Stop ends a search at any moment).
    pub fn limits(&self) -> Limits {
        let mut limits = Limits {
            tie_break: self.settings.tie_break,
            ..Limits::default()
        };
        if let Some(mib) = self.settings.memory_limit_mib {
            limits.max_memory = mib.saturating_mul(limits::MIB).max(limits::MIN_MEMORY);
        }
        limits
    }

    /// The puzzle on screen, to change derived data that no result depends on (such as an
    /// attached pattern database); edits go through [`AppState::edit_puzzle`].
    pub(crate) fn puzzle_mut(&mut self) -> &mut dyn Puzzle {
        self.work.puzzle.as_mut()
    }

    /// The canvas's zoom (1 fits the puzzle) and pan (squares from the centre).
    pub fn canvas_zoom(&self) -> (f32, egui::Vec2) {
        (self.work.zoom, self.work.pan)
    }

    /// Picks the algorithm again after a change of the puzzle's rules: the one chosen if it
    /// still applies, else the puzzle's default.
    pub(crate) fn repick_algorithm(&mut self) {
        self.work.algorithm = pick_algorithm(self.work.puzzle.as_ref(), Some(self.work.algorithm));
    }

    /// The UI clock at the start of this frame, in seconds.
    pub(crate) fn now(&self) -> f64 {
        self.frame.now
    }

    /// Calls `wake` from another thread to draw the next frame (no-op before the first frame).
    pub(crate) fn waker(&self) -> Arc<dyn Fn() + Send + Sync> {
        match self.frame.repaint.clone() {
            Some(ctx) => Arc::new(move || ctx.request_repaint()),
            None => Arc::new(|| {}),
        }
    }
}

/// The seed a generator uses when asked: the one in the field, unless that seed already made
/// what is on screen (`used`); then the next one, written back into the field. So the field
/// always shows the seed of the board on screen, and asking again makes a new board.
pub fn seed_to_use(field: &mut u64, used: &mut Option<u64>) -> u64 {
    if *used == Some(*field) {
        *field = field.wrapping_add(1);
    }
    *used = Some(*field);
    *field
}

/// `wanted` if it applies to `puzzle`, otherwise the puzzle's default algorithm.
fn pick_algorithm(puzzle: &dyn Puzzle, wanted: Option<Algorithm>) -> Algorithm {
    wanted
        .filter(|a| puzzle.algorithms().iter().any(|b| b.same_kind(*a)))
        .unwrap_or_else(|| puzzle.default_algorithm())
}
