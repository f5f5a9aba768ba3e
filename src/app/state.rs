//! The app's state in named parts: the work on screen, the run and its recording, the
//! settings, the windows, the canvas, the edit bookkeeping, the frame's clock, the
//! background work. Panels read all of it and change only the window's own parts (see
//! [`super::Panel`]); everything else changes through commands ([`AppCommand`]) and the
//! frame's work.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use eframe::egui;

use super::{
    AppCommand, DialogKind, GifJob, PaintStroke, Run, Settings, Status, Transition, ViewRegistry,
    autosave, commands, files, heuristic_measure, job, oracle, pick_algorithm, race, search_tree,
    space_layout, view, workspace,
};
use crate::puzzles::{self, Cell, Motion, Picture, Puzzle};
use crate::runs::results::ResultRow;
use crate::search::Algorithm;

/// The app's state: what the window shows and what the user is doing with it.
pub struct AppState {
    /// The work on screen: the puzzle and everything that belongs to it (its file's text,
    /// undo history, algorithm, last search, timeline, marks); swapped whole when the type
    /// changes (see [`workspace`]).
    pub(crate) work: workspace::Workspace,
    /// The other types' workspaces, by type name.
    pub(crate) workspaces: HashMap<&'static str, workspace::Workspace>,
    /// Persisted settings.
    pub(crate) settings: Settings,
    /// The running search, the race, the results and the breakpoints.
    pub runs: Runs,
    /// The solution's playback.
    pub(crate) playback: Playback,
    /// The windows beside the canvas and what they work on.
    pub windows: Windows,
    /// The canvas's pointer and picture.
    pub(crate) canvas: CanvasState,
    /// What edits of the puzzle leave behind to check and to ask.
    pub(crate) edits: Edits,
    /// The frame's clock and work budget.
    pub(crate) frame: FrameClock,
    /// Files and jobs in the background.
    pub(crate) io: Io,
    /// The status bar.
    pub(crate) status: Status,
    /// Commands collected during the frame.
    pub(crate) commands: Vec<AppCommand>,
    /// The link to the views of the puzzle types, kept beside the state (see
    /// [`super::PuzzleLabApp`]).
    pub(crate) views: ViewLink,
}

/// The run and what it leaves: the running search, the race, the results table and the
/// breakpoints the runs pause at.
#[derive(Default)]
pub struct Runs {
    /// The running search, if any.
    pub(super) current: Option<Run>,
    /// Whether the status line says the search is paused, to be kept in step with the
    /// figures that arrive after the pause (see `run::paused_text`).
    pub(super) paused_status: bool,
    /// The race on screen, if any.
    pub(crate) race: Option<race::Race>,
    /// The algorithms chosen for the next race, in the order chosen.
    pub(crate) race_choice: Vec<Algorithm>,
    /// One row per finished run this session, oldest first.
    pub(crate) results: Vec<ResultRow>,
    /// The breakpoints the next runs (and the running one) pause at: those of the type on
    /// screen (each type's workspace keeps its own while put aside; a pin is dropped with
    /// the puzzle it was set on, or when the puzzle no longer has its square).
    pub breakpoints: crate::runs::breakpoints::Breakpoints,
}

impl Playback {
    /// The position the playback made for `key`, if it made one for that moment.
    pub(super) fn position_at(&self, key: oracle::PositionKey) -> Option<&dyn Puzzle> {
        (self.position.as_ref())
            .filter(|(k, _)| *k == key)
            .map(|(_, p)| p.as_ref())
    }
}

/// The solution's playback on the canvas.
#[derive(Default)]
pub struct Playback {
    /// The move being animated on the canvas, if any.
    pub(super) transition: Option<Transition>,
    /// Whether the solution is being played back automatically.
    pub(super) playing: bool,
    /// When playback last advanced (the frame clock, seconds); `None` until it first does.
    pub(super) played_at: Option<f64>,
    /// The position the solution's playback shows, made once per moment (see
    /// [`super::ShownMoment::Solution`]), for the oracle.
    pub(super) position: Option<(oracle::PositionKey, Box<dyn Puzzle>)>,
}

/// The windows beside the canvas: the panels change their fields directly.
#[derive(Default)]
pub struct Windows {
    /// The optimal-move oracle of the puzzle on screen (see [`oracle`]).
    pub oracle: oracle::OracleState,
    /// The "State space" window (see [`space_layout`]).
    pub space_window: space_layout::SpaceWindow,
    /// The "Heuristic" window (see [`heuristic_measure`]).
    pub heuristic_window: heuristic_measure::HeuristicWindow,
    /// The "Search tree" window (see [`search_tree`]).
    pub tree_window: search_tree::TreeWindow,
    /// The "Learn" window (see [`super::learn`]).
    pub learn: super::learn::LearnWindow,
    /// Whether the GIF export window is open.
    pub gif_window: bool,
    /// The GIF export's colours and options, from the export window until a path is chosen.
    pub(crate) gif_request: Option<(
        Box<crate::runs::animation::GifColors>,
        crate::runs::animation::GifOptions,
    )>,
    /// The GIF being written, if any.
    pub(crate) gif_job: Option<Arc<GifJob>>,
    /// The path field shown when no file dialog can be: what it is for and its text.
    pub(crate) path_prompt: Option<(DialogKind, String)>,
}

/// The canvas's own state: the pointer on it and its pictures.
#[derive(Default)]
pub struct CanvasState {
    /// The square of the picture under the pointer in the last frame, if any.
    pub(crate) hover: Option<Cell>,
    /// The pointer stroke in progress on the canvas.
    pub(crate) stroke: Option<PaintStroke>,
    /// Where the canvas was drawn last frame, in points (for pictures of it).
    pub(crate) rect: Option<egui::Rect>,
    /// The picture of the puzzle at an edit count, for puzzles drawn from a cache.
    pub(crate) picture_cache: Option<(u64, Arc<Picture>)>,
    /// The picture before the last move played by hand and when it was played, so the canvas
    /// can slide the moved piece or tile into place.
    pub(crate) edit_slide: Option<(Picture, Option<Motion>, f64)>,
}

/// What edits of the puzzle leave behind: the edit count, checks due, questions pending.
pub struct Edits {
    /// Whether the app's undo history covers the puzzle on screen (see
    /// [`super::OwnUndo`]).
    pub(crate) uses_app_undo: bool,
    /// Whether File > Save goes to the view on screen (see
    /// [`super::SavesItself`]).
    pub(crate) view_saves: bool,
    /// Counts edits of the puzzle, so drawings of it can be cached.
    pub(crate) revision: u64,
    /// Whether the puzzle changed since it was last written into the settings.
    pub(super) puzzle_dirty: bool,
    /// Whether an edit this frame may have brought the puzzle back to its saved text (see
    /// `AppState::check_saved`).
    pub(super) saved_check_due: bool,
    /// A command that would replace the puzzle, waiting for an answer about unsaved edits.
    pub(super) asking: Option<Box<AppCommand>>,
    /// Whether that question is about the run on screen only (a state opened from the State
    /// space window over a run; the puzzle has no unsaved edits).
    pub(super) asking_run: bool,
    /// A command to carry out once the puzzle is saved (Save chosen, file asked for).
    pub(super) after_save: Option<Box<AppCommand>>,
}

/// The frame's clock and how much work a frame may do.
pub struct FrameClock {
    /// The UI clock at the start of this frame, in seconds.
    pub(super) now: f64,
    /// When the last frame began (wall clock), to size this frame's work.
    pub(super) started: Option<Instant>,
    /// How long this frame may spend on incremental work, all of it together: see
    /// [`super::MIN_WORK_BUDGET`] and [`AppState::work_deadline`].
    pub(crate) work_budget: Duration,
    /// Whether the last frame asked for the next after a pause (a full-speed run's pace).
    pub(super) paced: bool,
    /// How to wake the UI from another thread.
    pub(crate) repaint: Option<egui::Context>,
}

/// Files and jobs in the background: dialogs, reads, writes, the autosave.
pub struct Io {
    /// Messages from background work (picture exports) for the status bar.
    pub(super) notice_tx: Sender<Status>,
    pub(super) notice_rx: Receiver<Status>,
    /// Files being written on jobs (exports), each ending with a status line.
    pub(super) writes: Vec<job::Job<Status>>,
    /// File dialogs, each shown on a job (it blocks its thread while open), till answered.
    pub(super) dialogs: Vec<job::Job<Option<files::DialogAnswer>>>,
    /// A puzzle file being read and parsed on its own thread, and its path.
    pub(super) opening: Option<(PathBuf, files::Opening)>,
    /// The remembered puzzle being made again on a job (see
    /// [`AppState::restore_in_background`]), and its file.
    pub(super) restoring: Option<(Option<PathBuf>, files::Restoring)>,
    /// The writer of the state file, when the work is kept (see [`autosave`]).
    pub(super) autosave: Option<autosave::Autosave>,
}

/// The state's link to the views of the puzzle types, which live beside it.
#[derive(Default)]
pub struct ViewLink {
    /// The UI's registry of views (which type's view opens a file itself).
    pub(crate) registry: Option<ViewRegistry>,
    /// What the view of the puzzle on screen is asked to do, oldest first (see
    /// [`view::ViewRequest`]).
    pub(crate) requests: VecDeque<view::ViewRequest>,
    /// The views' background work, which the app runs for them (see
    /// [`super::view_work`]).
    pub(crate) work: super::view_work::ViewWork,
}

impl AppState {
    /// An app restored from `settings`: their puzzle if it still parses, otherwise the
    /// first type's default puzzle.
    pub fn new(mut settings: Settings) -> Self {
        // The thread that makes the app draws it: a remembered script's start() is bounded.
        crate::puzzles::call_limits::limit_this_thread(
            crate::puzzles::call_limits::CallLimits::time(super::UI_CALL_LIMIT),
        );
        let results = std::mem::take(&mut settings.results);
        let mut status = Status {
            text: "Pick a puzzle and an algorithm, then press Start.".into(),
            is_error: false,
        };
        let restored = settings
            .puzzle_json
            .as_deref()
            .map(|json| puzzles::parse(json, None));
        let mut retry = None;
        let puzzle = match restored {
            Some(Ok(p)) => p,
            Some(Err(e)) => {
                // Made again off this thread, where its code may take longer (a script's
                // slow start()); the placeholder is not the remembered puzzle's file.
                status = Status {
                    text: format!("Restoring the remembered puzzle in the background (here: {e})…"),
                    is_error: false,
                };
                retry = settings
                    .puzzle_json
                    .clone()
                    .map(|json| (json, settings.path.take()));
                puzzles::TYPES[0].default_puzzle()
            }
            None => puzzles::TYPES[0].default_puzzle(),
        };
        let modified = settings
            .workspaces
            .get(puzzle.puzzle_type().name)
            .is_some_and(|w| w.modified);
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
        let (notice_tx, notice_rx) = mpsc::channel();
        let mut app = Self {
            work,
            workspaces: HashMap::new(),
            settings,
            runs: Runs {
                results,
                ..Runs::default()
            },
            playback: Playback::default(),
            windows: Windows::default(),
            canvas: CanvasState::default(),
            edits: Edits {
                uses_app_undo: true,
                view_saves: false,
                revision: 0,
                puzzle_dirty: false,
                saved_check_due: false,
                asking: None,
                asking_run: false,
                after_save: None,
            },
            frame: FrameClock {
                now: 0.0,
                started: None,
                work_budget: super::MIN_WORK_BUDGET,
                paced: false,
                repaint: None,
            },
            io: Io {
                notice_tx,
                notice_rx,
                writes: Vec::new(),
                dialogs: Vec::new(),
                opening: None,
                restoring: None,
                autosave: None,
            },
            status,
            commands: Vec::new(),
            views: ViewLink::default(),
        };
        if let Some((json, path)) = retry {
            app.restore_in_background(json, path);
        }
        app
    }
}
