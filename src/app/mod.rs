//! The eframe application: the state behind the window, the commands that change it, and the
//! per-frame logic (drain the solver's events, draw the panels, apply the commands).

pub mod autosave;
mod commands;
pub mod export;
mod files;
pub mod heuristic_measure;
pub mod job;
pub mod oracle;
pub mod race;
mod run;
mod search_marks;
pub mod search_tree;
mod settings;
pub mod space_layout;
pub mod timeline;
mod view;
mod words;
mod workspace;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

use eframe::egui;

pub use commands::UNDO_LIMIT;
pub use files::{DialogKind, GifJob};
pub use search_marks::{Mark, SearchMarks, Shade, ShadeKind};
pub use settings::{
    MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_RECENT, MAX_TYPE_ENTRIES, MAX_VIEW_BYTES, RecentFile,
    Settings, Theme,
};
pub use timeline::{Pinned, Timeline, TimelineCommand, Track};
pub use view::{
    AppAccess, CanvasExtras, Pointer, TypeView, ViewCommand, ViewContext, ViewRead, ViewRegistry,
    ViewWrite,
};
pub use words::{count, count_in, sentence};
pub use workspace::{SavedWorkspace, UnsavedChoice};

use crate::puzzles::{self, Cell, Motion, Picture, Puzzle, PuzzleType, Report, Shipped};
use crate::runs::results::ResultRow;
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
/// How many rows of the results table are kept across restarts (the newest).
pub const KEPT_RESULTS: usize = 2000;
/// The fastest solution playback, in moves a second.
pub const MAX_PLAYBACK_RATE: f64 = 100_000.0;

/// Something the user asked for. Panels push commands; [`PuzzleLabApp::apply`] carries them
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
/// describes (see [`PuzzleLabApp::shown_moment`]).
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

/// The application.
pub struct PuzzleLabApp {
    /// The work on screen: the puzzle and everything that belongs to it (its file's text,
    /// undo history, algorithm, last search, timeline, marks); swapped whole when the type
    /// changes (see [`workspace`]).
    pub(crate) work: workspace::Workspace,
    /// Persisted settings.
    pub(crate) settings: Settings,
    /// The running search, if any.
    run: Option<Run>,
    /// The GIF export's colours and options, from the export window until a path is chosen.
    gif_request: Option<(
        Box<crate::runs::animation::GifColors>,
        crate::runs::animation::GifOptions,
    )>,
    /// The GIF being written, if any.
    pub(crate) gif_job: Option<Arc<GifJob>>,
    /// Whether the GIF export window is open.
    pub(crate) gif_window: bool,
    /// The move being animated on the canvas, if any.
    transition: Option<Transition>,
    /// Whether the solution is being played back automatically.
    playing: bool,
    /// When playback last advanced (the frame clock, seconds); `None` until it first does.
    played_at: Option<f64>,
    /// The UI clock at the start of this frame, in seconds.
    now: f64,
    /// When the last frame began (wall clock), to size this frame's work.
    frame_started: Option<std::time::Instant>,
    /// How long this frame may spend on incremental work, all of it together: see
    /// [`MIN_WORK_BUDGET`] and [`PuzzleLabApp::work_deadline`].
    pub(crate) work_budget: Duration,
    /// Whether the last frame asked for the next after a pause (a full-speed run's pace).
    paced: bool,
    /// The picture before the last move played by hand and when it was played, so the canvas
    /// can slide the moved piece or tile into place.
    pub(crate) edit_slide: Option<(Picture, Option<Motion>, f64)>,
    /// The square of the picture under the pointer in the last frame, if any.
    pub(crate) hover: Option<Cell>,
    /// Whether the status line says the search is paused, to be kept in step with the
    /// figures that arrive after the pause (see `run::paused_text`).
    paused_status: bool,
    /// Where the canvas was drawn last frame, in points (for pictures of it).
    pub(crate) canvas_rect: Option<egui::Rect>,
    /// Messages from background work (picture exports) for the status bar.
    notice_tx: Sender<Status>,
    notice_rx: Receiver<Status>,
    /// Files being written on jobs (exports), each ending with a status line.
    writes: Vec<job::Job<Status>>,
    /// The race on screen, if any.
    pub(crate) race: Option<race::Race>,
    /// The optimal-move oracle of the puzzle on screen (see [`oracle`]).
    pub oracle: oracle::OracleState,
    /// The position the solution's playback shows, made once per moment (see
    /// [`ShownMoment::Solution`]), for the oracle.
    playback_position: Option<(oracle::PositionKey, Box<dyn Puzzle>)>,
    /// The "State space" window (see [`space_layout`]).
    pub space_window: space_layout::SpaceWindow,
    /// The "Heuristic" window (see [`heuristic_measure`]).
    pub heuristic_window: heuristic_measure::HeuristicWindow,
    /// The breakpoints the next runs (and the running one) pause at: those of the type on
    /// screen (each type's workspace keeps its own while put aside; a pin is dropped with
    /// the puzzle it was set on, or when the puzzle no longer has its square).
    pub breakpoints: crate::runs::breakpoints::Breakpoints,
    /// The "Search tree" window (see [`search_tree`]).
    pub tree_window: search_tree::TreeWindow,
    /// The algorithms chosen for the next race, in the order chosen.
    pub(crate) race_choice: Vec<Algorithm>,
    /// One row per finished run this session, oldest first.
    pub(crate) results: Vec<ResultRow>,
    /// The status bar.
    pub(crate) status: Status,
    /// The writer of the state file, when the work is kept (see [`autosave`]).
    autosave: Option<autosave::Autosave>,
    /// File dialogs, each shown on a job (it blocks its thread while open), till answered.
    dialogs: Vec<job::Job<Option<files::DialogAnswer>>>,
    /// A puzzle file being read and parsed on its own thread, and its path.
    opening: Option<(PathBuf, files::Opening)>,
    /// The pointer stroke in progress on the canvas.
    pub(crate) stroke: Option<PaintStroke>,
    /// Commands collected during the frame.
    pub(crate) commands: Vec<AppCommand>,
    /// How to wake the UI from another thread.
    pub(crate) repaint: Option<egui::Context>,
    /// Whether the app's undo history covers the puzzle on screen (see
    /// [`TypeView::uses_app_undo`]).
    uses_app_undo: bool,
    /// The UI's registry of views.
    views: Option<ViewRegistry>,
    /// Whether the view is taken out to run (see [`PuzzleLabApp::with_view`]).
    view_out: bool,
    /// Counts edits of the puzzle, so drawings of it can be cached.
    pub(crate) revision: u64,
    /// Whether the puzzle changed since it was last written into the settings.
    puzzle_dirty: bool,
    /// The picture of the puzzle at an edit count, for puzzles drawn from a cache.
    pub(crate) picture_cache: Option<(u64, Picture)>,
    /// The other types' workspaces, by type name.
    workspaces: std::collections::HashMap<&'static str, workspace::Workspace>,
    /// Whether an edit this frame may have brought the puzzle back to `saved_text` (see
    /// `PuzzleLabApp::check_saved`).
    saved_check_due: bool,
    /// A command that would replace the puzzle, waiting for an answer about unsaved edits.
    asking: Option<Box<AppCommand>>,
    /// A command to carry out once the puzzle is saved (Save chosen, file asked for).
    after_save: Option<Box<AppCommand>>,
    /// The path field shown when no file dialog can be: what it is for and its text.
    pub(crate) path_prompt: Option<(DialogKind, String)>,
}

impl PuzzleLabApp {
    /// An app restored from `settings`: their puzzle if it still parses, otherwise the
    /// first type's default puzzle.
    pub fn new(mut settings: Settings) -> Self {
        let results = std::mem::take(&mut settings.results);
        let mut status = Status {
            text: "Pick a puzzle and an algorithm, then press Start.".into(),
            is_error: false,
        };
        let restored = settings
            .puzzle_json
            .as_deref()
            .map(|json| puzzles::parse(json, None));
        let puzzle = match restored {
            Some(Ok(p)) => p,
            Some(Err(e)) => {
                status = Status {
                    text: format!("The remembered puzzle could not be restored: {e}"),
                    is_error: true,
                };
                puzzles::TYPES[0].default_puzzle()
            }
            None => puzzles::TYPES[0].default_puzzle(),
        };
        let modified = settings
            .workspaces
            .get(puzzle.puzzle_type().name)
            .is_some_and(|w| w.modified);
        let (notice_tx, notice_rx) = mpsc::channel();
        let algorithm = pick_algorithm(puzzle.as_ref(), settings.algorithm);
        let saved_text = if modified {
            None
        } else {
            commands::comparable_text(puzzle.as_ref())
        };
        let type_name = puzzle.puzzle_type().name;
        let history = (settings.workspaces.get(type_name))
            .map(|w| workspace::restored_history(&w.history, type_name))
            .unwrap_or_default();
        let mut work = workspace::Workspace::new(puzzle, algorithm);
        work.history = history;
        work.modified = modified;
        work.saved_text = saved_text;
        // A shipped puzzle, as shipped, is named by its file (it has no path of its own).
        if settings.path.is_none() && !modified {
            work.shipped = workspace::shipped_file_of(work.puzzle.as_ref());
        }
        Self {
            settings,
            work,
            run: None,
            gif_request: None,
            gif_job: None,
            gif_window: false,
            transition: None,
            playing: false,
            played_at: None,
            now: 0.0,
            frame_started: None,
            work_budget: MIN_WORK_BUDGET,
            paced: false,
            edit_slide: None,
            results,
            race: None,
            race_choice: Vec::new(),
            hover: None,
            canvas_rect: None,
            notice_tx,
            notice_rx,
            writes: Vec::new(),
            status,
            dialogs: Vec::new(),
            autosave: None,
            opening: None,
            stroke: None,
            commands: Vec::new(),
            repaint: None,
            uses_app_undo: true,
            views: None,
            view_out: false,
            revision: 0,
            oracle: oracle::OracleState::default(),
            playback_position: None,
            paused_status: false,
            space_window: space_layout::SpaceWindow::default(),
            heuristic_window: heuristic_measure::HeuristicWindow::default(),
            breakpoints: Default::default(),
            tree_window: Default::default(),
            puzzle_dirty: false,
            picture_cache: None,
            workspaces: std::collections::HashMap::new(),
            saved_check_due: false,
            asking: None,
            after_save: None,
            path_prompt: None,
        }
    }

    /// Which moment of the puzzle the canvas draws: a state of the search (while a board
    /// puzzle's search runs, or the timeline is scrubbed back), the solution's playback
    /// (once a solution is found), or the puzzle as it is.
    pub fn shown_moment(&self) -> ShownMoment {
        let board_search = self.work.marks.board.is_some() && self.is_running();
        if self.is_scrubbed() || board_search {
            return ShownMoment::Search;
        }
        match &self.work.result {
            Some(r) if r.solved && self.race.is_none() => {
                ShownMoment::Solution(self.work.shown_moves.min(r.moves.len()))
            }
            _ => ShownMoment::Puzzle,
        }
    }

    /// The key of the position the oracle assesses: the puzzle, or the playback's moment.
    fn shown_position_key(&self) -> oracle::PositionKey {
        let moment = match self.shown_moment() {
            ShownMoment::Solution(k) => k + 1,
            ShownMoment::Puzzle | ShownMoment::Search => 0,
        };
        oracle::PositionKey {
            revision: self.revision,
            moment,
        }
    }

    /// Makes the position the solution's playback shows at `key` (from the puzzle and the
    /// solution's first moves), once per moment; nothing for the puzzle itself.
    fn make_playback_position(&mut self, key: oracle::PositionKey) {
        if key.moment == 0
            || self
                .playback_position
                .as_ref()
                .is_some_and(|(k, _)| *k == key)
        {
            return;
        }
        let position = (self.work.result.as_ref())
            .and_then(|r| r.moves.get(..key.moment - 1))
            .and_then(|played| self.work.puzzle.after_moves(played));
        self.playback_position = position.map(|p| (key, p));
    }

    /// The puzzle on screen.
    pub fn puzzle(&self) -> &dyn Puzzle {
        self.work.puzzle.as_ref()
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

    /// The search's marks and figures at the position shown (the timeline's cursor).
    pub fn marks(&self) -> &SearchMarks {
        &self.work.marks
    }

    /// Records how many changes of the marks `view_id` the canvas has drawn (see
    /// [`SearchMarks::note_drawn`]).
    pub(crate) fn note_drawn(&mut self, view_id: u64, changes: usize) {
        self.work.marks.note_drawn(view_id, changes);
    }

    /// The status bar's message.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Whether a search is running (paused or not).
    pub fn is_running(&self) -> bool {
        self.run.as_ref().is_some_and(|r| !r.handle.is_stopping())
    }

    /// Whether a file is being read to be opened (File > Open, a dropped file, Open Recent).
    pub fn is_opening(&self) -> bool {
        self.opening.is_some()
    }

    /// Whether the running search is paused.
    pub fn is_paused(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.is_paused)
    }

    /// How many moves of the solution are shown on the canvas.
    pub fn shown_moves(&self) -> usize {
        self.work.shown_moves
    }

    /// The race on screen, if any.
    pub fn race(&self) -> Option<&race::Race> {
        self.race.as_ref()
    }

    /// Whether the solution is being played back automatically.
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// The move being animated on the canvas: the shown positions it goes between and how far
    /// it has got (0 to 1, exclusive).
    pub fn transition(&self) -> Option<(usize, usize, f32)> {
        let t = self.transition?;
        let done = (self.now - t.started) / self.transition_seconds();
        (done < 1.0).then_some((t.from, t.to, done.max(0.0) as f32))
    }

    /// How long one move's animation takes, in seconds: shorter when playing back fast.
    fn transition_seconds(&self) -> f64 {
        (0.8 / self.settings.playback_rate.max(0.1)).min(0.3)
    }

    /// The move played by hand being animated: the picture before it, the move as a value
    /// (see [`Puzzle::motion_from`]) and how far it has got (0 to 1, exclusive).
    pub fn edit_transition(&self) -> Option<(&Picture, Option<Motion>, f32)> {
        let (before, motion, started) = self.edit_slide.as_ref()?;
        let done = (self.now - started) / self.transition_seconds();
        (done < 1.0).then_some((before, *motion, done.max(0.0) as f32))
    }

    /// Starts animating the move played by hand from `before` to the puzzle on screen.
    pub(crate) fn slide_from(&mut self, before: &dyn Puzzle) {
        let hand = self.work.puzzle.capabilities().hand_play;
        let motion = hand.and_then(|h| h.motion_from(before));
        self.edit_slide = Some((before.picture(), motion, self.now));
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
        let floor = now + self.work_budget / 16;
        self.frame_started
            .map_or(now + self.work_budget, |started| started + self.work_budget)
            .max(floor)
    }

    /// The frame's work before anything is drawn: playback, the solver's and the race's
    /// events, file dialogs' answers, background builds, dropped files. The ui layer calls
    /// this first in each frame, then draws, then calls [`PuzzleLabApp::end_frame`].
    pub fn begin_frame(&mut self, ctx: &egui::Context) {
        if self.repaint.is_none() {
            self.repaint = Some(ctx.clone());
        }
        self.now = ctx.input(|i| i.time);
        let started = std::time::Instant::now();
        let since_last = (self.frame_started.map(|last| started - last))
            .map(|t| if self.paced { t.min(PACED_FRAME_AS) } else { t });
        self.work_budget = since_last
            .map_or(MIN_WORK_BUDGET, |t| t / 4)
            .clamp(MIN_WORK_BUDGET, MAX_WORK_BUDGET);
        if self.is_catching_up() {
            let more = since_last.map_or(MIN_WORK_BUDGET, |t| (t / 2).min(CATCH_UP_BUDGET));
            self.work_budget = self.work_budget.max(more);
        }
        self.frame_started = Some(started);
        self.tick_playback(ctx);
        self.receive_events();
        self.receive_race();
        self.tick_timeline(ctx);
        self.receive_dialogs();
        self.receive_opened(ctx);
        self.receive_dropped_files(ctx);
        let (wake, limits) = (self.waker(), self.limits());
        self.oracle.hidden = self.shown_moment() == ShownMoment::Search;
        let key = self.shown_position_key();
        if self.oracle.enabled {
            self.make_playback_position(key);
        }
        let shown = (self.playback_position.as_ref())
            .filter(|(k, _)| *k == key)
            .map(|(_, p)| p.as_ref());
        self.oracle
            .tick(self.work.puzzle.as_ref(), shown, key, limits, &wake);
        self.space_window.tick(&self.oracle, &wake);
        self.heuristic_window
            .tick(&self.oracle, self.work.puzzle.as_ref(), limits, &wake);
        let caught_up = (self.work.timeline.as_ref())
            .and_then(|t| t.track.as_ref())
            .is_none_or(Track::is_caught_up);
        let settled = (!self.is_running() || self.is_paused()) && caught_up;
        let recording = self.timeline_recording().cloned();
        let result = self.work.result.as_ref();
        self.tree_window.tick(
            recording.as_ref(),
            || search_tree::Solution {
                places: result.map(|r| r.path.clone()).unwrap_or_default(),
                depth_first: result.is_some_and(|r| r.solved && r.algorithm == Algorithm::IdaStar),
            },
            settled,
            &wake,
        );
        match self.space_window.poll_generated() {
            Some(Ok(command)) => self.commands.push(command),
            Some(Err(why)) => self.set_error(why),
            None => {}
        }
        self.with_view(|view, app| view.tick(app, ctx));
    }

    /// The frame's work after it is drawn: the commands pushed while drawing are applied.
    pub fn end_frame(&mut self, ctx: &egui::Context) {
        let commands = !self.commands.is_empty();
        if commands {
            // The commands change what the next frame shows: draw it right away.
            ctx.request_repaint();
        }
        self.run_pending_commands();
        self.autosave_tick(ctx, commands);
        if self.run.as_ref().is_some_and(|r| !r.is_paused) {
            // The worker wakes us on progress, at full speed at most once a
            // `FULL_SPEED_FRAME`; this keeps the elapsed time ticking too.
            ctx.request_repaint_after(if self.settings.full_speed {
                crate::solver::FULL_SPEED_FRAME
            } else {
                Duration::from_millis(100)
            });
        }
        self.paced = self.settings.full_speed
            && (self.run.as_ref()).is_some_and(|r| !r.is_paused && !r.handle.search_ended());
    }

    fn run_pending_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            self.apply(command);
        }
        self.check_saved();
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

    /// Installs the UI's registry of views, and the view of the puzzle on screen.
    pub fn install_views(&mut self, registry: ViewRegistry) {
        self.views = Some(registry);
        self.sync_view();
    }

    /// The view of the puzzle on screen, if the UI installed views.
    pub fn type_view(&self) -> Option<&dyn TypeView> {
        self.work.type_view.as_deref()
    }

    /// The puzzle on screen, to change derived data that no result depends on (such as an
    /// attached pattern database); edits go through [`PuzzleLabApp::edit_puzzle`].
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
        self.now
    }

    /// Calls `wake` from another thread to draw the next frame (no-op before the first frame).
    pub(crate) fn waker(&self) -> Arc<dyn Fn() + Send + Sync> {
        match self.repaint.clone() {
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
