//! The eframe application: the state behind the window, the commands that change it, and the
//! per-frame logic (drain the solver's events, draw the panels, apply the commands).

pub mod autosave;
mod commands;
mod edits;
pub mod export;
pub mod file_watch;
mod files;
mod frame;
pub mod heuristic_measure;
pub mod job;
pub mod learn;
pub mod oracle;
mod playback;
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
use std::time::Duration;

pub use commands::UNDO_LIMIT;
pub use files::{DialogKind, GifJob};
pub use playback::{ShownMoment, TimelineCommand};
pub use search_marks::{COARSE_BLOCKS, Mark, SearchMarks, Shade, ShadeKind, Whole};
pub use settings::{
    MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_RECENT, MAX_TYPE_ENTRIES, MAX_VIEW_BYTES, RecentFile,
    Settings, Theme,
};
pub use shell::{Panel, PuzzleLabApp};
pub use state::{AppState, CanvasState, Runs, Windows};
pub use timeline::{Pinned, Timeline, Track};
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

use crate::puzzles::{Cell, Puzzle, PuzzleType, Shipped};
use crate::search::Algorithm;
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
    /// Show the file dialog to open a Moving AI map or scenario (a maze).
    OpenMapDialog,
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
    /// A file dialog (or the path field shown in its place) answered: the path chosen, or
    /// `None` when it was cancelled. The path goes where the dialog's kind says (a Save to
    /// the view while it saves itself: the script editor writes its own text), a cancel is
    /// said in the status bar, and what waited for a save does not happen. The file
    /// dialogs' thread sends this, so a test drives it without one.
    DialogAnswered(DialogKind, Option<PathBuf>),
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

/// A move of the solution being animated: from one shown position to the next.
#[derive(Clone, Copy, Debug)]
struct Transition {
    from: usize,
    to: usize,
    /// UI clock when it began, in seconds.
    started: f64,
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
