//! Klotski: the move metric; playing by hand (drag a piece) with undo, redo and reset; and
//! the layout editor (place, remove, target, goal, size, clear) with its own undo.

use std::any::Any;

use eframe::egui::{self, RichText};

use super::Entry;
use crate::app::{
    AppAccess, CanvasExtras, Pointer, TypeView, ViewCommand, ViewContext, ViewRead, ViewWrite,
};
use crate::app::{CapabilityKind, Description, FollowsPuzzle, OwnUndo, ViewCapability, ViewDraw};
use crate::puzzles::Cell;
use crate::puzzles::klotski::{self, EditError, Klotski, Metric, Shape, Tool};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &klotski::TYPE,
    make: |_| Box::new(KlotskiView::default()),
    claims: super::claims_none,
    new: &[],
    commands: &[],
};

/// How many layout edits can be taken back.
const EDIT_HISTORY: usize = 100;

/// Klotski's view: the editor's tool and the layouts before each edit.
#[derive(Default)]
struct KlotskiView {
    /// The editor's tool; `None` when playing by hand.
    tool: Option<Tool>,
    /// Layouts before each layout edit, newest last (at most [`EDIT_HISTORY`]).
    layout_history: Vec<Klotski>,
    /// Layout edits taken back, newest last: (the puzzle the undo left, the layout it took
    /// back). One is made again only while the puzzle is still the one its undo left.
    layout_future: Vec<(Klotski, Klotski)>,
}

/// Klotski's commands.
pub enum Command {
    /// Count moves with this metric.
    Metric(Metric),
    /// Take back the last move played.
    Undo,
    /// Play again the last move taken back.
    Redo,
    /// Put the pieces back where they were loaded.
    Reset,
    /// Choose what a click on the board does; `None` plays (drags pieces).
    Tool(Option<Tool>),
    /// Apply the chosen editor tool at this cell.
    Edit(Cell),
    /// Change the board to (rows, columns).
    Resize(usize, usize),
    /// Remove every piece but the target.
    Clear,
    /// Take back the last layout edit.
    UndoEdit,
}

fn klotski(app: &ViewContext<impl AppAccess>) -> Option<&Klotski> {
    app.model::<Klotski>()
}

/// Edits the puzzle if it is Klotski; `edit` says whether it changed.
fn edit(app: &mut ViewWrite<'_>, edit: impl FnOnce(&mut Klotski) -> bool) -> bool {
    app.edit_model::<Klotski>(edit)
}

impl KlotskiView {
    /// Klotski: the move metric, and playing by hand with undo, redo and reset.
    fn panel_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        let Some(puzzle) = klotski(app) else {
            return;
        };
        let metric = puzzle.metric();
        let choices = [
            (
                Metric::Unit,
                "cell moves",
                "one piece moves one cell (116 for the classic)",
            ),
            (
                Metric::Piece,
                "piece moves",
                "one piece moves any distance (81 for the classic)",
            ),
        ];
        if let Some(m) = super::choice_ui(ui, "Count", metric, &choices) {
            app.push_view(Command::Metric(m));
        }
        let tool = self.tool;
        match super::mode_ui(ui, tool.is_some()) {
            Some(true) => app.push_view(Command::Tool(Some(Tool::Place(Shape::Single)))),
            Some(false) => app.push_view(Command::Tool(None)),
            None => {}
        }
        if let Some(tool) = tool {
            self.editor_ui(app, ui, tool);
            return;
        }
        let Some(puzzle) = klotski(app) else {
            return;
        };
        ui.label("Drag a piece to slide it.");
        let played = puzzle.moves_played();
        let solved = puzzle.is_solved();
        let (undo, redo) = (puzzle.can_undo(), puzzle.can_redo());
        ui.horizontal(|ui| {
            if ui.add_enabled(undo, egui::Button::new("Undo")).clicked() {
                app.push_view(Command::Undo);
            }
            if ui.add_enabled(redo, egui::Button::new("Redo")).clicked() {
                app.push_view(Command::Redo);
            }
            if ui
                .add_enabled(played > 0 || redo, egui::Button::new("Reset"))
                .clicked()
            {
                app.push_view(Command::Reset);
            }
        });
        // A line of its own: the metric's longer name must not widen the panel.
        if let Some(played) = super::played_text(app) {
            ui.label(played);
        }
        if solved {
            ui.label(RichText::new("Solved!").strong());
        }
        super::oracle_ui(app, ui);
    }

    /// Klotski's layout editor: a tool per click (place a shape, remove, choose the target or its
    /// goal), the board size, and Clear.
    fn editor_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui, tool: Tool) {
        let Some(puzzle) = klotski(app) else {
            return;
        };
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        let hint = "click a free cell: the piece's top-left cell goes there";
        let places = Shape::ALL.map(|shape| (Tool::Place(shape), shape.label(), hint));
        let others = [
            (Tool::Remove, "Remove", "click a piece to remove it"),
            (
                Tool::Target,
                "Target",
                "click a piece to make it the target",
            ),
            (
                Tool::Goal,
                "Goal",
                "click where the target's top-left cell must end",
            ),
        ];
        // Both rows are drawn every frame (`or`, not `or_else`).
        let chosen = super::tools_row_ui(ui, Some("Place"), tool, &places)
            .or(super::tools_row_ui(ui, None, tool, &others));
        if let Some(chosen) = chosen {
            app.push_view(Command::Tool(Some(chosen)));
        }
        ui.horizontal(|ui| {
            if let Some((rows, cols)) = crate::ui::size_ui(ui, (rows, cols), 1..=klotski::MAX_SIDE)
            {
                app.push_view(Command::Resize(rows, cols));
            }
            if ui
                .button("Clear")
                .on_hover_text("remove every piece but the target")
                .clicked()
            {
                app.push_view(Command::Clear);
            }
        });
        let can_undo = !self.layout_history.is_empty();
        if ui
            .add_enabled(can_undo, egui::Button::new("Undo edit"))
            .on_hover_text("Ctrl+Z; Ctrl+Y makes it again")
            .clicked()
        {
            app.push_view(Command::UndoEdit);
        }
    }

    /// Applies a layout edit, keeping the layout before it for "Undo edit", and reports a
    /// refused one in the status bar.
    fn edit_layout(
        &mut self,
        app: &mut ViewWrite<'_>,
        change: impl FnOnce(&mut Klotski) -> Result<(), EditError>,
    ) {
        let mut refused = None;
        let mut before = None;
        edit(app, |k| {
            let previous = k.clone();
            match change(k) {
                Ok(()) => {
                    before = Some(previous);
                    true
                }
                Err(e) => {
                    refused = Some(e);
                    false
                }
            }
        });
        if let Some(previous) = before {
            if self.layout_history.len() >= EDIT_HISTORY {
                self.layout_history.remove(0);
            }
            self.layout_history.push(previous);
            self.layout_future.clear();
        }
        if let Some(e) = refused {
            app.set_error(format!("Edit refused: {e}."));
        }
    }

    /// Takes back the last layout edit (the editor's Undo edit, and Ctrl+Z while editing),
    /// saying so in the status bar.
    fn undo_layout(&mut self, app: &mut ViewWrite<'_>) {
        let Some(previous) = self.layout_history.pop() else {
            app.set_status("Nothing to undo: no layout edit to take back.");
            return;
        };
        let mut undone = None;
        edit(app, |k| {
            undone = Some(std::mem::replace(k, previous.clone()));
            true
        });
        if let Some(undone) = undone {
            self.layout_future.push((previous, undone));
        }
        app.set_status("Undid the layout edit; Ctrl+Y makes it again.");
    }

    /// Makes again the last layout edit taken back (Ctrl+Y while editing), if the puzzle is
    /// still the one its undo left.
    fn redo_layout(&mut self, app: &mut ViewWrite<'_>) {
        let current = klotski(app).cloned();
        let Some((left, _)) = self.layout_future.last() else {
            app.set_status("Nothing to redo: no layout edit was taken back.");
            return;
        };
        if current.as_ref() != Some(left) {
            self.layout_future.clear();
            app.set_status("Nothing to redo: the layout changed since the undo.");
            return;
        }
        let Some((left, redone)) = self.layout_future.pop() else {
            return;
        };
        edit(app, |k| {
            *k = redone;
            true
        });
        self.layout_history.push(left);
        app.set_status("Made the layout edit again.");
    }
}

impl TypeView for KlotskiView {
    fn type_name(&self) -> &'static str {
        klotski::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        self.panel_ui(app, ui);
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        let Some(command) = command.take::<Command>() else {
            return;
        };
        match command {
            Command::Metric(metric) => {
                edit(app, |k| {
                    k.set_metric(metric);
                    true
                });
            }
            Command::Undo => self.undo(app),
            Command::Redo => self.redo(app),
            Command::Reset => {
                edit(app, |k| {
                    k.reset();
                    true
                });
            }
            Command::Tool(tool) => {
                // Editing starts from what is shown: a solution played back part way is
                // played on the board first (undoable), so clicks edit the position seen.
                let shown = app.shown_moves();
                let moves = app
                    .result()
                    .filter(|r| r.solved && self.tool.is_none() && tool.is_some() && shown > 0)
                    .map(|r| r.moves[..shown.min(r.moves.len())].to_vec());
                if let Some(moves) = moves {
                    edit(app, |k| k.play_moves(&moves));
                }
                self.tool = tool;
            }
            Command::Edit(cell) => {
                if let Some(tool) = self.tool {
                    self.edit_layout(app, |k| k.apply_tool(tool, cell));
                }
            }
            Command::Resize(rows, cols) => self.edit_layout(app, |k| k.resize(rows, cols)),
            Command::Clear => self.edit_layout(app, Klotski::clear_pieces),
            Command::UndoEdit => self.undo_layout(app),
        }
    }

    fn pointer(&mut self, app: &mut ViewDraw<'_>, pointer: Pointer) -> bool {
        // In the editor a click applies the tool and nothing paints; in play a drag moves
        // the piece (the canvas's painting).
        if self.tool.is_none() {
            return false;
        }
        if let Pointer::Click(cell) = pointer {
            app.push_view(Command::Edit(cell));
        }
        true
    }

    fn canvas_extras(&self, app: &ViewRead<'_>, hover: Option<Cell>) -> CanvasExtras<'_> {
        CanvasExtras {
            ghost: match (self.tool, hover) {
                (Some(Tool::Place(shape)), Some(cell)) => Some((cell, shape.size())),
                _ => None,
            },
            hover_text: hover.and_then(|cell| self.hover_text(app, cell)),
            ..CanvasExtras::default()
        }
    }

    fn describe(&self, app: &ViewRead<'_>) -> Description {
        let about = "Klotski: slide the blocks, one square at a time, without lifting them, until the \
         big red block reaches the goal at the bottom. Blocks of the same shape are \
         interchangeable, so the search counts layouts up to them. In \"play by hand\" drag \
         a block; in \"edit layout\" click to place or remove blocks. The letters name the \
         blocks in the solution's moves. Source: the Klotski article.";
        let legend = {
            use crate::puzzles::Square;
            use crate::ui::palette::{TARGET, TRAY};
            // The colour of each shape of block on the board (the board is small).
            let mut classes: Vec<u8> = Vec::new();
            for square in app.puzzle().picture().squares {
                if let Square::Piece {
                    class,
                    target: false,
                    ..
                } = square
                    && !classes.contains(&class)
                {
                    classes.push(class);
                }
            }
            let mut entries = vec![super::entry(TARGET, "the block to bring to the goal")];
            for (i, class) in classes.into_iter().enumerate() {
                let meaning = if i == 0 {
                    "blocks of one shape (interchangeable)"
                } else {
                    "blocks of another shape"
                };
                entries.push(super::entry(
                    crate::ui::palette::piece_color(class),
                    meaning,
                ));
            }
            entries.extend([
                super::entry(TRAY, "empty square"),
                super::entry(
                    TARGET.gamma_multiply(0.8),
                    "goal: the outlined squares (a bar on the edge marks the exit)",
                ),
            ]);
            entries
        };
        Description {
            about,
            legend,
            standing_error: None,
        }
    }

    fn capability(&mut self, kind: CapabilityKind) -> Option<ViewCapability<'_>> {
        crate::lend_capabilities!(self, kind; OwnUndo, FollowsPuzzle)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl KlotskiView {
    /// A line about the square `cell` under the pointer, for the status bar.
    fn hover_text(&self, app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        let letter = app.shown_model::<Klotski>()?.piece_at(cell)?;
        Some(format!("piece {letter}"))
    }
}

impl OwnUndo for KlotskiView {
    /// In the layout editor, takes back the last layout edit; in play, the last move.
    fn undo(&mut self, app: &mut ViewWrite<'_>) {
        if self.tool.is_some() {
            self.undo_layout(app);
        } else if edit(app, Klotski::undo) {
            app.set_status("Took back a move; Ctrl+Y plays it again.");
        } else if self.layout_history.is_empty() {
            app.set_status("Nothing to undo: no move played.");
        } else {
            app.set_status(
                "Nothing to undo: no move played (layout edits are undone in \"edit layout\").",
            );
        }
    }

    /// In the layout editor, makes again the last layout edit taken back; in play, plays
    /// again the last move taken back.
    fn redo(&mut self, app: &mut ViewWrite<'_>) {
        if self.tool.is_some() {
            self.redo_layout(app);
        } else if edit(app, Klotski::redo) {
            app.set_status("Played the move again.");
        } else {
            app.set_status("Nothing to redo: no move was taken back.");
        }
    }
}

impl FollowsPuzzle for KlotskiView {
    fn puzzle_replaced(&mut self) {
        self.layout_history.clear();
        self.layout_future.clear();
    }
}
