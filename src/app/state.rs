//! The state group: the app's state in named parts (the work on screen, the run and its
//! recording, the settings, the windows, the canvas, the edit bookkeeping, the frame's
//! clock, the background work) and its reads (the puzzle, its picture, the settings, the
//! result, the marks, the status, the limits), the status line and the command queue
//! ([`AppState::push`]); it applies no command. Panels read all of it and change only the window's own parts (see
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
use super::{SearchMarks, ViewCommand};
use crate::puzzles::{self, Cell, Motion, Picture, Puzzle, Report};
use crate::runs::results::ResultRow;
use crate::search::{Algorithm, Limits, limits};

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
    /// The question asked at a close request while a view has unsaved edits a restart
    /// would not bring back (see [`super::SavesItself::unkept_edits`]): what would be lost.
    pub quit_question: Option<String>,
    /// Quit without asking again: the answer "Quit without saving" was given.
    pub quit_anyway: bool,
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
    /// Whether the stroke in progress was refused (the board shown could not be taken as
    /// the puzzle, see [`AppState::take_shown_board`]): its paints change nothing.
    pub(crate) stroke_refused: bool,
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
    /// Whether this frame answers a close request the app goes along with: everything was
    /// stopped, and nothing more is done or drawn (the window closes after it).
    pub(crate) closing: bool,
}

/// Files and jobs in the background: dialogs, reads, writes, the autosave.
pub struct Io {
    /// Messages from background work (picture exports) for the status bar.
    pub(super) notice_tx: Sender<Status>,
    pub(super) notice_rx: Receiver<Status>,
    /// Files being written on jobs (exports), each ending with a status line.
    pub(super) writes: Vec<job::Job<Status>>,
    /// File dialogs, each shown on a job (it blocks its thread while open), till answered.
    pub(super) dialogs: Vec<job::Job<files::DialogAnswer>>,
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
                closing: false,
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

    /// The puzzle on screen.
    pub fn puzzle(&self) -> &dyn Puzzle {
        self.work.puzzle.as_ref()
    }

    /// The shipped puzzle file the puzzle on screen was opened as (it has no file of its
    /// own on disk until saved), if it was.
    pub fn shipped_file(&self) -> Option<&'static str> {
        self.work.shipped
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

    /// The race on screen, if any.
    pub fn race(&self) -> Option<&race::Race> {
        self.runs.race.as_ref()
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
