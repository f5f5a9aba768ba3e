//! The view of one puzzle type: its side-panel tools, its canvas input and extras, its own
//! commands and state. Each type implements [`TypeView`] in its own module under
//! `src/ui/views/`, and a line of that folder's registry maps the type to its view; the app
//! holds the view of the puzzle on screen and never names a concrete type.

use std::any::Any;

use eframe::egui;

use super::PuzzleLabApp;
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
}

/// One puzzle type's part of the window. The view's methods get the app to read the puzzle
/// as its own type ([`PuzzleLabApp::model`]) and to edit it ([`PuzzleLabApp::edit_model`]).
pub trait TypeView: Send {
    /// The [`crate::puzzles::PuzzleType::name`] of the type this view draws.
    fn type_name(&self) -> &'static str;

    /// Whether the app's undo history (Ctrl+Z, the Undo button) covers this type's edits;
    /// types that keep moves and layouts apart have an undo of their own
    /// ([`TypeView::undo`]).
    fn uses_app_undo(&self) -> bool {
        true
    }

    /// The type's section of the side panel: its tools and settings, which push commands.
    fn tools_ui(&mut self, app: &mut PuzzleLabApp, ui: &mut egui::Ui);

    /// Windows of the type's own, drawn after the panels.
    fn windows_ui(&mut self, _app: &mut PuzzleLabApp, _ctx: &egui::Context) {}

    /// The frame's work before drawing: animations, background work's results.
    fn tick(&mut self, _app: &mut PuzzleLabApp, _ctx: &egui::Context) {}

    /// Applies one of the view's own commands; others are ignored.
    fn apply(&mut self, app: &mut PuzzleLabApp, command: ViewCommand);

    /// Pointer input on the canvas. Returns whether the view took it; if not, the canvas
    /// paints: a stroke paints the value [`crate::puzzles::Puzzle::stroke_value`] gives its
    /// first square onto each square it passes.
    fn pointer(&mut self, _app: &mut PuzzleLabApp, _pointer: Pointer) -> bool {
        false
    }

    /// What the view adds to the canvas; `hover` is the square under the pointer.
    fn canvas_extras(&self, _app: &PuzzleLabApp, _hover: Option<Cell>) -> CanvasExtras<'_> {
        CanvasExtras::default()
    }

    /// A line about the square under the pointer, for the status bar.
    fn hover_text(&self, _app: &PuzzleLabApp, _cell: Cell) -> Option<String> {
        None
    }

    /// "How this puzzle works": its rules and goal, how to edit and play it in the window,
    /// and the source of the rules. Shown at the top of the side panel.
    fn about(&self) -> &'static str;

    /// The legend of the canvas: each colour that can appear now and what it means, in the
    /// order shown.
    fn legend(&self, app: &PuzzleLabApp) -> Vec<(egui::Color32, String)>;

    /// Takes back the last move or edit (types with an undo of their own).
    fn undo(&mut self, _app: &mut PuzzleLabApp) {}

    /// Plays again the last move or edit taken back (types with an undo of their own).
    fn redo(&mut self, _app: &mut PuzzleLabApp) {}

    /// A new puzzle of this type replaced the one on screen (opened, reset, resized): state
    /// about the old one (histories, scrambles, selections) is forgotten.
    fn puzzle_replaced(&mut self) {}

    /// Opens a file this type's view claims (see [`ViewRegistry::claims`]); errors go to
    /// the status bar.
    fn open_path(&mut self, _app: &mut PuzzleLabApp, _path: &std::path::Path) {}

    /// The view's settings to keep across restarts, if it has any.
    fn settings(&self) -> Option<serde_json::Value> {
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
    /// The view of the type named, made with its kept settings (see [`TypeView::settings`]);
    /// `None` for a type without a view.
    pub make: MakeView,
    /// The type whose view opens this file itself ([`TypeView::open_path`]), if any.
    pub claims: fn(&std::path::Path) -> Option<&'static str>,
}
