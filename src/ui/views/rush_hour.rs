//! Rush Hour: the move metric; playing by hand (drag a vehicle along its length; Ctrl+Z
//! undoes); and the layout editor (place cars and trucks, remove, rotate, lengthen, shorten,
//! walls, board size).

use std::any::Any;

use eframe::egui::{self, RichText};

use super::Entry;
use crate::app::{
    AppAccess, CanvasExtras, Pointer, TypeView, ViewCommand, ViewContext, ViewRead, ViewWrite,
};
use crate::app::{Description, ViewDraw};
use crate::puzzles::Cell;
use crate::puzzles::rush_hour::{self, EditError, Metric, RushHour};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &rush_hour::TYPE,
    make: |_| Box::new(RushHourView::default()),
    claims: super::claims_none,
    new: &[],
    commands: &[],
};

/// What a click on the board does in the layout editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Place a vehicle of this length (2 a car, 3 a truck), horizontal or not, its top-left
    /// end on the cell clicked.
    Place(u8, bool),
    /// Remove the vehicle clicked.
    Remove,
    /// Turn the vehicle clicked about its top-left end.
    Rotate,
    /// Make the vehicle clicked one cell longer (1) or shorter (-1).
    Grow(i8),
    /// Make the cell clicked a wall, or free it.
    Wall,
}

/// Rush Hour's view: the editor's tool (`None` when playing by hand).
#[derive(Default)]
struct RushHourView {
    tool: Option<Tool>,
}

/// Rush Hour's commands.
pub enum Command {
    /// Count moves with this metric.
    Metric(Metric),
    /// Choose what a click on the board does; `None` plays (drags vehicles).
    Tool(Option<Tool>),
    /// Apply the editor's tool at this cell.
    Edit(Cell),
    /// A board of this side, keeping what fits.
    Resize(usize),
}

fn board(app: &ViewContext<impl AppAccess>) -> Option<&RushHour> {
    app.model::<RushHour>()
}

/// Edits the puzzle if it is Rush Hour, reporting a refused edit in the status bar.
fn edit(app: &mut ViewWrite<'_>, change: impl FnOnce(&mut RushHour) -> Result<(), EditError>) {
    let mut refused = None;
    app.edit_model(|b: &mut RushHour| match change(b) {
        Ok(()) => true,
        Err(e) => {
            refused = Some(e);
            false
        }
    });
    if let Some(e) = refused {
        app.set_error(format!("Edit refused: {e}."));
    }
}

impl RushHourView {
    fn editor_ui(app: &mut ViewDraw<'_>, ui: &mut egui::Ui, tool: Tool, side: usize) {
        let places = [
            (
                Tool::Place(2, true),
                "car across",
                "a horizontal car of 2 cells: click where its left end goes",
            ),
            (
                Tool::Place(2, false),
                "car down",
                "a vertical car of 2 cells: click where its top end goes",
            ),
            (
                Tool::Place(3, true),
                "truck across",
                "a horizontal truck of 3 cells: click where its left end goes",
            ),
            (
                Tool::Place(3, false),
                "truck down",
                "a vertical truck of 3 cells: click where its top end goes",
            ),
        ];
        let others = [
            (Tool::Remove, "Remove", "click a vehicle to remove it"),
            (Tool::Rotate, "Rotate", "click a vehicle to turn it"),
            (Tool::Grow(1), "Longer", "click a vehicle to add a cell"),
            (
                Tool::Grow(-1),
                "Shorter",
                "click a vehicle to take a cell off",
            ),
            (
                Tool::Wall,
                "Wall",
                "click a cell to make it a wall, or free it",
            ),
        ];
        // Both rows are drawn every frame (`or`, not `or_else`).
        let chosen = super::tools_row_ui(ui, Some("Place"), tool, &places)
            .or(super::tools_row_ui(ui, None, tool, &others));
        if let Some(chosen) = chosen {
            app.push_view(Command::Tool(Some(chosen)));
        }
        ui.horizontal(|ui| {
            let mut n = side;
            let label = ui.label("Side");
            ui.add(egui::DragValue::new(&mut n).range(rush_hour::MIN_SIDE..=rush_hour::MAX_SIDE))
                .labelled_by(label.id);
            if n != side {
                app.push_view(Command::Resize(n));
            }
        });
    }
}

impl TypeView for RushHourView {
    fn type_name(&self) -> &'static str {
        rush_hour::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        let Some(board) = board(app) else {
            return;
        };
        let (metric, solved, side) = (board.metric(), board.is_solved(), board.side());
        let choices = [
            (
                Metric::Moves,
                "moves",
                "a vehicle sliding any distance is one move",
            ),
            (
                Metric::Steps,
                "steps",
                "a vehicle sliding one cell is one move",
            ),
        ];
        if let Some(m) = super::choice_ui(ui, "Count", metric, &choices) {
            app.push_view(Command::Metric(m));
        }
        let tool = self.tool;
        match super::mode_ui(ui, tool.is_some()) {
            Some(true) => app.push_view(Command::Tool(Some(Tool::Place(2, true)))),
            Some(false) => app.push_view(Command::Tool(None)),
            None => {}
        }
        ui.horizontal(|ui| super::undo_redo_ui(app, ui, "Ctrl+Z: a slide or an edit"));
        match tool {
            Some(tool) => Self::editor_ui(app, ui, tool, side),
            None => {
                ui.label("Drag a vehicle along its length; the red car A leaves on the right.");
                if let Some(played) = super::played_text(app) {
                    ui.label(played);
                }
                if solved {
                    ui.label(RichText::new("Solved!").strong());
                }
                super::oracle_ui(app, ui);
            }
        }
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        let Some(command) = command.take::<Command>() else {
            return;
        };
        match command {
            Command::Metric(metric) => edit(app, |b| {
                b.set_metric(metric);
                Ok(())
            }),
            Command::Tool(tool) => self.tool = tool,
            Command::Edit(cell) => match self.tool {
                Some(Tool::Place(len, horizontal)) => edit(app, |b| b.place(cell, len, horizontal)),
                Some(Tool::Remove) => edit(app, |b| b.remove_at(cell)),
                Some(Tool::Rotate) => edit(app, |b| b.reshape_at(cell, true, 0)),
                Some(Tool::Grow(by)) => edit(app, |b| b.reshape_at(cell, false, by)),
                Some(Tool::Wall) => edit(app, |b| b.toggle_wall(cell)),
                None => {}
            },
            Command::Resize(side) => edit(app, |b| b.resize(side)),
        }
    }

    fn pointer(&mut self, app: &mut ViewDraw<'_>, pointer: Pointer) -> bool {
        // In the editor a click applies the tool; in play a drag slides the vehicle (the
        // canvas's painting).
        if self.tool.is_none() {
            return false;
        }
        if let Pointer::Click(cell) = pointer {
            app.push_view(Command::Edit(cell));
        }
        true
    }

    fn canvas_extras(&self, app: &ViewRead<'_>, hover: Option<Cell>) -> CanvasExtras<'_> {
        let ghost = match (self.tool, hover) {
            (Some(Tool::Place(len, horizontal)), Some(cell)) => {
                let len = usize::from(len);
                Some((cell, if horizontal { (1, len) } else { (len, 1) }))
            }
            _ => None,
        };
        CanvasExtras {
            ghost,
            hover_text: hover.and_then(|cell| self.hover_text(app, cell)),
            ..CanvasExtras::default()
        }
    }

    fn describe(&self, _app: &ViewRead<'_>) -> Description {
        let about = "Rush Hour (Nob Yoshigahara): cars and trucks slide along their length on a 6 by 6 \
         lot; get the red car A out through the exit on the right. In \"play\" drag a \
         vehicle; in \"edit layout\" place vehicles and walls. The hardest shipped layout \
         needs 49 moves (Fogleman's database of all 6 by 6 puzzles).";
        let legend = {
            use crate::ui::palette::{BLOCKED, TARGET, TRAY};
            vec![
                super::entry(TARGET, "the red car A, to get out"),
                super::entry(crate::ui::palette::piece_color(2), "cars (2 squares long)"),
                super::entry(
                    crate::ui::palette::piece_color(3),
                    "trucks (3 squares long)",
                ),
                super::entry(BLOCKED, "wall"),
                super::entry(TRAY, "empty square"),
                super::entry(
                    TARGET.gamma_multiply(0.8),
                    "the exit (right edge, red car's row)",
                ),
            ]
        };
        Description {
            about,
            legend,
            standing_error: None,
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl RushHourView {
    /// A line about the square `cell` under the pointer, for the status bar.
    fn hover_text(&self, app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        // The board shown (a solution played back), which a drag moves.
        let board = app.shown_model::<RushHour>()?;
        if board.is_wall(cell) {
            return Some("wall".to_owned());
        }
        let v = board.vehicles()[board.vehicle_at(cell)?];
        Some(format!(
            "{} {}, {} cells, {}",
            if v.letter == 'A' {
                "red car"
            } else {
                "vehicle"
            },
            v.letter,
            v.len,
            if v.horizontal { "across" } else { "down" }
        ))
    }
}
