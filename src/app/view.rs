//! The view of one puzzle type: its side-panel tools, its canvas input and extras, its own
//! commands and state. Each type implements [`TypeView`] in its own module under
//! `src/ui/views/`, and a line of that folder's registry maps the type to its view; the app
//! holds the view of the puzzle on screen and never names a concrete type.

use std::any::Any;

use eframe::egui;

use super::view_capabilities::{CapabilityKind, ViewCapability};
use super::{AppCommand, AppState};
use crate::puzzles::Cell;

/// A command of one type's view, queued like every [`super::AppCommand`] and applied at the
/// end of the frame by the view of the puzzle on screen ([`TypeView::apply`]), which knows
/// its concrete type. A command of another type's view is ignored.
pub struct ViewCommand(pub Box<dyn Any + Send>);

impl ViewCommand {
    /// Wraps a view's own command.
    pub fn new(command: impl Any + Send) -> Self {
        Self(Box::new(command))
    }

    /// The command as the view's own command type `C`, if it is one (a command of another
    /// type's view is not).
    pub fn take<C: Any>(self) -> Option<C> {
        self.0.downcast::<C>().ok().map(|c| *c)
    }
}

impl std::fmt::Debug for ViewCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ViewCommand(..)")
    }
}

/// What the app's state asks of the view of the puzzle on screen. The view is kept beside the
/// state, not in it ([`super::PuzzleLabApp`]): the state leaves these requests while it
/// carries out a command, and the app serves them, in order, as soon as the command is done.
#[derive(Debug)]
pub enum ViewRequest {
    /// Apply one of the view's own commands ([`TypeView::apply`]).
    Apply(ViewCommand),
    /// Take back the last move or edit ([`super::OwnUndo::undo`]).
    Undo,
    /// Play again the last move or edit taken back ([`super::OwnUndo::redo`]).
    Redo,
    /// Save what the view edits, in place of the app's File > Save ([`super::SavesItself::save`]).
    Save,
    /// Save what the view edits to this file, in place of the app's File > Save As
    /// ([`super::SavesItself::save_as`]).
    SaveAs(std::path::PathBuf),
    /// Open this file in the view of the type named ([`super::OpensFiles::open_path`]); once it is
    /// open without an error, the file goes on File > Open Recent under that type.
    Open(std::path::PathBuf, &'static str),
    /// Apply this command, sent by the background work of the view of the type named (see
    /// [`super::view_work`]).
    Deliver(&'static str, ViewCommand),
}

/// How a pointer touches the canvas, in puzzle-picture squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointer {
    /// A button went down on this square (the first square of a stroke).
    Press(Cell),
    /// A held button moved onto this square (a later square of the stroke).
    Drag(Cell),
    /// A click (press and release without a drag) on this square.
    Click(Cell),
}

/// What a view adds to the canvas's picture of the puzzle.
#[derive(Clone, Debug, Default)]
pub struct CanvasExtras<'a> {
    /// A square to outline as selected.
    pub selected: Option<Cell>,
    /// A block of squares to outline as a preview of what a click would do (an editor's
    /// piece): its top-left square and its size in (rows, columns).
    pub ghost: Option<(Cell, (usize, usize))>,
    /// Squares to tint (row-major flags), such as a percolating cluster.
    pub tint: Option<&'a [bool]>,
    /// A line about the square under the pointer, for the status bar.
    pub hover_text: Option<String>,
}

/// What a view says of its puzzle: shown at the top of the side panel and in the legend.
#[derive(Clone, Debug)]
pub struct Description {
    /// "How this puzzle works": its rules and goal, how to edit and play it in the window,
    /// and the source of the rules.
    pub about: &'static str,
    /// The legend of the canvas: each colour that can appear now and what it means, in the
    /// order shown.
    pub legend: Vec<(egui::Color32, String)>,
    /// The puzzle's error that stands now, if one does (a script's error at the state on
    /// screen, its failed reload, the error that ended the run shown): the status bar keeps
    /// it in sight, in red, beside any later message (a save, a move played), until it is
    /// fixed.
    pub standing_error: Option<String>,
}

/// One puzzle type's part of the window: its tools, its canvas input and what it adds to
/// the canvas, its description, and its own commands. Its drawing methods ([`tools_ui`],
/// [`pointer`], the docked panel and windows of [`super::OwnPanels`]) read the app and send
/// commands ([`ViewDraw`]); the app applies them between frames ([`TypeView::apply`], with a
/// [`ViewWrite`]). Everything else a view may do is an opt-in capability
/// ([`TypeView::capability`]).
///
/// [`tools_ui`]: TypeView::tools_ui
/// [`pointer`]: TypeView::pointer
pub trait TypeView: Send {
    /// The [`crate::puzzles::PuzzleType::name`] of the type this view draws.
    fn type_name(&self) -> &'static str;

    /// The type's section of the side panel: its tools and settings, which send commands.
    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui);

    /// Applies one of the view's own commands (others are ignored): the app calls it
    /// between frames, with the state to change.
    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand);

    /// Pointer input on the canvas. Returns whether the view took it; if not, the canvas
    /// paints: a stroke paints the value [`crate::puzzles::Puzzle::stroke_value`] gives its
    /// first square onto each square it passes.
    fn pointer(&mut self, _app: &mut ViewDraw<'_>, _pointer: Pointer) -> bool {
        false
    }

    /// What the view adds to the canvas and to the status bar's line about the square under
    /// the pointer (`hover`).
    fn canvas_extras(&self, _app: &ViewRead<'_>, _hover: Option<Cell>) -> CanvasExtras<'_> {
        CanvasExtras::default()
    }

    /// How this puzzle works, and the legend of the canvas as it is now.
    fn describe(&self, app: &ViewRead<'_>) -> Description;

    /// The view as one of its opt-in capabilities (see [`super::view_capabilities`]), if it
    /// has that one; the default: none. A view answers with itself:
    /// `CapabilityKind::OwnUndo => Some(ViewCapability::OwnUndo(self))`.
    fn capability(&mut self, _kind: CapabilityKind) -> Option<ViewCapability<'_>> {
        None
    }

    /// The view itself, so tests can look at a type's state.
    fn as_any(&self) -> &dyn Any;
}

/// Makes the view of the type named (see [`ViewRegistry::make`]).
pub type MakeView = fn(&str, Option<&serde_json::Value>) -> Option<Box<dyn TypeView>>;

/// How the app finds views: the UI layer installs its registry (`ui::views::REGISTRY`) in
/// the app, which otherwise never names a view.
#[derive(Clone, Copy)]
pub struct ViewRegistry {
    /// The view of the type named, made with its kept settings (see [`super::KeepsSettings`]);
    /// `None` for a type without a view.
    pub make: MakeView,
    /// The type whose view opens this file itself ([`super::OpensFiles::open_path`]), if any.
    pub claims: fn(&std::path::Path) -> Option<&'static str>,
}

/// What a type's view may see and do of the app: a narrow face of [`AppState`] that the
/// app hands to [`TypeView`]'s methods, for reading (`ViewContext<&AppState>`, see
/// [`ViewRead`]) or also changing (`ViewContext<&mut AppState>`, see [`ViewWrite`]). A
/// view reads its own type's model, the settings, the oracle and the run's state; it edits
/// through [`ViewContext::edit_model`], queues commands and sets the status line. Everything
/// else of the app stays out of its reach.
pub struct ViewContext<A> {
    app: A,
}

/// Either kind of [`ViewContext`]: for a view's helpers that only read and are called from
/// both kinds of methods (`fn board(app: &ViewContext<impl AppAccess>) -> Option<&Board>`).
pub trait AppAccess: std::borrow::Borrow<AppState> {}

impl AppAccess for &AppState {}
impl AppAccess for &mut AppState {}
impl AppAccess for Drawing<'_> {}

/// What drawing code holds of the app: the state to read, and the queue of the frame's
/// commands to send into (applied at the end of the frame). It changes nothing else.
pub struct Drawing<'a> {
    app: &'a AppState,
    commands: &'a mut Vec<AppCommand>,
}

impl std::borrow::Borrow<AppState> for Drawing<'_> {
    fn borrow(&self) -> &AppState {
        self.app
    }
}

/// A view's context for drawing (its tools, its canvas input, its panels and windows): it
/// reads the app and sends commands, and writes nothing.
pub type ViewDraw<'a> = ViewContext<Drawing<'a>>;

impl<'a> ViewDraw<'a> {
    /// The context of `app` to read, sending commands into `commands`.
    pub fn draw(app: &'a AppState, commands: &'a mut Vec<AppCommand>) -> Self {
        ViewContext {
            app: Drawing { app, commands },
        }
    }

    /// Sends a command of the app, applied at the end of the frame.
    pub fn push(&mut self, command: AppCommand) {
        self.app.commands.push(command);
    }

    /// Sends one of the view's own commands, applied at the end of the frame by
    /// [`TypeView::apply`].
    pub fn push_view(&mut self, command: impl Any + Send) {
        self.push(AppCommand::View(ViewCommand::new(command)));
    }
}

/// A view's read-only context (for drawing extras, hover lines and the legend).
pub type ViewRead<'a> = ViewContext<&'a AppState>;

/// A view's context for its tools, input, commands and frame work.
pub type ViewWrite<'a> = ViewContext<&'a mut AppState>;

impl<'a> ViewRead<'a> {
    /// The context of `app`, to read.
    pub fn read(app: &'a AppState) -> Self {
        ViewContext { app }
    }
}

impl<'a> ViewWrite<'a> {
    /// The context of `app`, to read and change.
    pub fn write(app: &'a mut AppState) -> Self {
        ViewContext { app }
    }
}

impl<A: std::borrow::Borrow<AppState>> ViewContext<A> {
    fn app(&self) -> &AppState {
        self.app.borrow()
    }

    /// The read-only context (for the read-only parts of a view, called from its others).
    pub fn as_read(&self) -> ViewRead<'_> {
        ViewContext::read(self.app())
    }

    /// The puzzle on screen.
    pub fn puzzle(&self) -> &dyn crate::puzzles::Puzzle {
        self.app().puzzle()
    }

    /// The puzzle on screen as the model `M` (the view's own type), if it is one.
    pub fn model<M: crate::puzzles::Puzzle + Any>(&self) -> Option<&M> {
        self.app().model::<M>()
    }

    /// The board the canvas shows as the model `M`: the solution's playback at its move
    /// (once made, for a type played by hand, see [`AppState::shown_puzzle`]), else the
    /// puzzle on screen. What the pointer's hover names: a move by hand acts on it.
    pub fn shown_model<M: crate::puzzles::Puzzle + Any>(&self) -> Option<&M> {
        self.app().shown_puzzle().model::<M>()
    }

    /// The shipped puzzle file the puzzle on screen was opened as, if it was (see
    /// [`AppState::shipped_file`]).
    pub fn shipped_file(&self) -> Option<&'static str> {
        self.app().shipped_file()
    }

    /// The persisted settings.
    pub fn settings(&self) -> &super::Settings {
        &self.app().settings
    }

    /// The puzzle's edit count: what is derived from the puzzle is remade when it changes.
    pub fn revision(&self) -> u64 {
        self.app().edits.revision
    }

    /// The player's oracle (optimal moves, the state space).
    pub fn oracle(&self) -> &super::oracle::OracleState {
        &self.app().windows.oracle
    }

    /// The picture of a board puzzle's moment on screen when it is not the puzzle as it is:
    /// the state of the search the canvas shows ([`super::ShownMoment::Search`]: the one
    /// being expanded, or the timeline's moment), or the solution's playback at its move
    /// ([`super::ShownMoment::Solution`]); `None` for the puzzle itself, and for a type whose
    /// runs keep no pictures (a maze's squares are marked instead).
    pub fn shown_board(&self) -> Option<&crate::puzzles::Picture> {
        let app = self.app();
        match app.shown_moment() {
            super::ShownMoment::Search => app.marks().board.as_ref(),
            super::ShownMoment::Solution(k) => app
                .result()
                .and_then(|r| r.boards.get(k.min(r.boards.len().saturating_sub(1)))),
            super::ShownMoment::Puzzle => None,
        }
    }

    /// The result of the last finished search.
    pub fn result(&self) -> Option<&crate::puzzles::Report> {
        self.app().result()
    }

    /// The chosen algorithm.
    pub fn algorithm(&self) -> crate::search::Algorithm {
        self.app().algorithm()
    }

    /// Which moment of the puzzle the canvas draws (see [`AppState::shown_moment`]).
    pub fn shown_moment(&self) -> super::ShownMoment {
        self.app().shown_moment()
    }

    /// How many moves of the solution the canvas shows.
    pub fn shown_moves(&self) -> usize {
        self.app().shown_moves()
    }

    /// The figures of the run as shown (live, or at the timeline's position).
    pub fn run_stats(&self) -> &crate::search::Stats {
        self.app().shown_stats()
    }

    /// Whether a search is running.
    pub fn is_running(&self) -> bool {
        self.app().is_running()
    }

    /// The search's marks as the canvas draws them (squares closed and on the frontier, the
    /// state being expanded, the depth-first path).
    pub fn marks(&self) -> &super::SearchMarks {
        self.app().marks()
    }

    /// Whether the canvas draws the solution of the last run: one was found, and the timeline
    /// is not at a moment before it was (see [`AppState::is_scrubbed`]).
    pub fn shows_solution(&self) -> bool {
        let app = self.app();
        app.result().is_some_and(|r| r.solved) && !app.is_scrubbed()
    }

    /// Whether a square of the picture the canvas draws now satisfies `is`: the search's or
    /// the playback's board (see [`ViewContext::shown_board`]), else the puzzle's own picture
    /// (as last pictured: no call of the puzzle's code). What a legend lists only when drawn.
    pub fn draws_square(&self, is: impl Fn(&crate::puzzles::Square) -> bool) -> bool {
        match self.shown_board() {
            Some(board) => board.squares.iter().any(is),
            None => self.app().puzzle_picture().squares.iter().any(is),
        }
    }

    /// Whether Undo has something to take back.
    pub fn can_undo(&self) -> bool {
        self.app().can_undo()
    }

    /// Whether Redo has something to play again.
    pub fn can_redo(&self) -> bool {
        self.app().can_redo()
    }

    /// The limits searches and background work run under.
    pub fn limits(&self) -> crate::search::Limits {
        self.app().limits()
    }

    /// The UI clock at the start of this frame, in seconds.
    pub fn now(&self) -> f64 {
        self.app().now()
    }

    /// A function that wakes the UI (for background work to call when it has news).
    pub fn waker(&self) -> std::sync::Arc<dyn Fn() + Send + Sync> {
        self.app().waker()
    }

    /// Where the canvas was drawn last frame, in points.
    pub fn canvas_rect(&self) -> Option<egui::Rect> {
        self.app().canvas.rect
    }

    /// Whether the view's background work `key` runs (see [`ViewContext::start_work`]).
    pub fn is_working(&self, key: &str) -> bool {
        self.app().is_working(key)
    }

    /// Whether the view's background work `key` was asked to stop.
    pub fn work_stopped(&self, key: &str) -> bool {
        self.app().work_stopped(key)
    }
}

impl<A: std::borrow::BorrowMut<AppState>> ViewContext<A> {
    fn app_mut(&mut self) -> &mut AppState {
        self.app.borrow_mut()
    }

    /// Queues one of the view's own commands, applied at the end of the frame by
    /// [`TypeView::apply`].
    pub fn push_view(&mut self, command: impl Any + Send) {
        self.app_mut().push_view(command);
    }

    /// Queues a command of the app.
    pub fn push(&mut self, command: super::AppCommand) {
        self.app_mut().push(command);
    }

    /// Sets the status line.
    pub fn set_status(&mut self, text: impl Into<String>) {
        self.app_mut().set_status(text);
    }

    /// Sets the status line as an error.
    pub fn set_error(&mut self, text: impl Into<String>) {
        self.app_mut().set_error(text);
    }

    /// Edits the puzzle on screen as the model `M` (see [`AppState::edit_model`]):
    /// stops a search, records the undo step, marks the puzzle changed.
    pub fn edit_model<M: crate::puzzles::Puzzle + Any>(
        &mut self,
        edit: impl FnOnce(&mut M) -> bool,
    ) -> bool {
        self.app_mut().edit_model(edit)
    }

    /// Sets the problem the puzzle poses as the model `M` (see [`AppState::pose_problem`]):
    /// an edit that leaves an unedited puzzle unedited.
    pub fn pose_problem<M: crate::puzzles::Puzzle + Any>(
        &mut self,
        pose: impl FnOnce(&mut M) -> bool,
    ) -> bool {
        self.app_mut().pose_problem(pose)
    }

    /// Changes the model `M` in place without an undo step or a change of the file (for data
    /// derived from it that no result depends on, such as an attached pattern database, or
    /// a generation animated square by square that ends in one edit); `changed` says whether
    /// the picture changed, so drawings of it are remade.
    pub fn touch_model<M: crate::puzzles::Puzzle + Any, T>(
        &mut self,
        changed: bool,
        touch: impl FnOnce(&mut M) -> T,
    ) -> Option<T> {
        let app = self.app_mut();
        let out = app.puzzle_mut().model_mut::<M>().map(touch);
        if changed && out.is_some() {
            app.edits.revision += 1;
        }
        out
    }

    /// Puts `puzzle` on screen in place of the one there (a new layout, a scramble, a map
    /// opened by the view), as the file at `path` if it was opened from one.
    pub fn replace_puzzle(
        &mut self,
        puzzle: Box<dyn crate::puzzles::Puzzle>,
        path: Option<std::path::PathBuf>,
    ) {
        self.app_mut().replace_puzzle(puzzle, path);
    }

    /// After an edit made through [`ViewContext::touch_model`] that a search result no
    /// longer describes: the result and the search's picture are forgotten.
    pub fn after_edit(&mut self) {
        self.app_mut().after_edit();
    }

    /// Chooses the algorithm again when the chosen one no longer applies to the puzzle.
    pub fn repick_algorithm(&mut self) {
        self.app_mut().repick_algorithm();
    }

    /// Before a move by hand (a key's): the board the canvas shows becomes the puzzle while
    /// it shows a solution played back (see [`AppState::take_shown_board`]). Returns
    /// whether the move may go on (false: the status says why not).
    pub fn take_shown_board(&mut self) -> bool {
        self.app_mut().take_shown_board()
    }

    /// Slides the piece a hand move moved from where it was in `before` (the canvas
    /// animates it).
    pub fn slide_from(&mut self, before: &dyn crate::puzzles::Puzzle) {
        self.app_mut().slide_from(before);
    }

    /// The seed of the settings' field for a generator of the view's (see
    /// [`super::seed_to_use`]: the next one when the field's made what is on screen, as
    /// `used` says), written back into the field. For a view's own command, applied at the
    /// end of the frame.
    pub fn next_seed(&mut self, used: &mut Option<u64>) -> u64 {
        super::seed_to_use(&mut self.app_mut().settings.seed, used)
    }

    /// Hands the app background work of the view's (see [`super::view_work`]): the app
    /// starts it, keeps it, and hands what it sends back as the view's own commands, in the
    /// frames after; it replaces the view's work of the same name.
    ///
    /// # Errors
    /// The operating system's error when its thread cannot be spawned.
    pub fn start_work(&mut self, order: super::WorkOrder) -> std::io::Result<()> {
        self.app_mut().start_work(order)
    }

    /// Asks the view's work `key` to stop; what it had when it stopped still comes.
    pub fn stop_work(&mut self, key: &str) {
        self.app_mut().stop_work(key);
    }

    /// Stops the view's work `key` and forgets it: nothing more of it comes.
    pub fn forget_work(&mut self, key: &str) {
        self.app_mut().forget_work(key);
    }

    /// Waits at most `wait` for the view's work `key` to end (work that usually ends within
    /// a frame): its answer is then applied right after the command being applied.
    pub fn wait_for_work(&mut self, key: &str, wait: std::time::Duration) {
        self.app_mut().wait_for_work(key, wait);
    }
}
