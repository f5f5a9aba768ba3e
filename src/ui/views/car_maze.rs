//! The car maze: play by hand (click the intersection next to the car to drive there, with
//! the optimal-move oracle), or click an intersection to select it and edit its turns.

use std::any::Any;

use eframe::egui;

use super::Entry;
use crate::app::{
    AppAccess, CanvasExtras, Pointer, TypeView, ViewCommand, ViewContext, ViewRead, ViewWrite,
};
use crate::app::{CapabilityKind, Description, FollowsPuzzle, ViewCapability, ViewDraw};
use crate::puzzles::car_maze::{self, CarMaze, turn_bit};
use crate::puzzles::{Cell, Side};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &car_maze::TYPE,
    make: |_| Box::new(CarMazeView::default()),
    claims: super::claims_none,
    new: &[],
    commands: &[],
};

/// The car maze's view: the selected intersection (a square of the picture).
#[derive(Default)]
struct CarMazeView {
    selected: Option<Cell>,
    /// Whether clicks drive the car (play by hand) rather than select intersections.
    playing: bool,
}

/// The car maze view's commands.
pub enum Command {
    /// Select the intersection at this picture square.
    Select(Cell),
    /// Set the turns of the intersection at this picture square (bits as in
    /// [`car_maze::turn_bit`]).
    SetTurns(Cell, u16),
    /// Play by hand (true) or edit turns.
    Play(bool),
    /// Drive the car to the intersection at this picture square, next to it.
    Drive(Cell),
    /// Put the car back at the start.
    Reset,
}

fn maze(app: &ViewContext<impl AppAccess>) -> Option<&CarMaze> {
    app.model::<CarMaze>()
}

impl CarMazeView {
    /// Playing by hand: the moves driven, Undo, Reset, and the oracle.
    fn play_ui(app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        let Some(maze) = maze(app) else {
            return;
        };
        ui.label("Click the intersection next to the car to drive there.");
        let (driven, solved) = (maze.moves_driven(), maze.is_solved());
        ui.horizontal(|ui| {
            super::undo_redo_ui(app, ui, "Ctrl+Z: take back a move");
            if ui
                .button("Reset")
                .on_hover_text("the car back at the start")
                .clicked()
            {
                app.push_view(Command::Reset);
            }
            ui.label(format!(
                "{} driven",
                crate::app::count(driven as u64, "move")
            ));
        });
        if solved {
            ui.label(egui::RichText::new("Out of the maze!").strong());
        }
        super::oracle_ui(app, ui);
    }
}

impl TypeView for CarMazeView {
    fn type_name(&self) -> &'static str {
        car_maze::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        if let Some(editing) = super::mode_ui(ui, !self.playing) {
            app.push_view(Command::Play(!editing));
        }
        if self.playing {
            Self::play_ui(app, ui);
            return;
        }
        let Some(maze) = maze(app) else {
            return;
        };
        let Some((picture_cell, cell)) = self
            .selected
            .and_then(|s| Some((s, maze.intersection_at(s)?)))
        else {
            ui.label("Click an intersection to edit its turns.");
            return;
        };
        let turns = maze.turns(cell);
        ui.label(format!(
            "Turns at intersection ({}, {})",
            cell.row, cell.col
        ));
        let mut edited = turns;
        egui::Grid::new("turns").num_columns(4).show(ui, |ui| {
            for from in Side::ALL {
                ui.label(format!("enter from {}:", from.word()));
                for to in Side::ALL.into_iter().filter(|&to| to != from) {
                    let mut allowed = edited & turn_bit(from, to) != 0;
                    if ui
                        .checkbox(&mut allowed, to.word())
                        .on_hover_text(format!(
                            "entering from {}, leave {}",
                            from.word(),
                            to.word()
                        ))
                        .changed()
                    {
                        edited ^= turn_bit(from, to);
                    }
                }
                ui.end_row();
            }
        });
        if edited != turns {
            app.push_view(Command::SetTurns(picture_cell, edited));
        }
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        let Some(command) = command.take::<Command>() else {
            return;
        };
        match command {
            Command::Select(cell) => self.selected = Some(cell),
            Command::Play(playing) => {
                self.playing = playing;
                self.selected = None;
            }
            Command::Drive(cell) => {
                let moved = app.edit_model(|m: &mut CarMaze| m.drive_toward(cell));
                if !moved {
                    app.set_status("The car cannot drive there: pick a square next to it that its turns allow.");
                }
            }
            Command::Reset => {
                app.edit_model(|m: &mut CarMaze| {
                    let moved = m.moves_driven() > 0;
                    m.reset_drive();
                    moved
                });
            }
            Command::SetTurns(cell, turns) => {
                app.edit_model(|m: &mut CarMaze| {
                    m.intersection_at(cell)
                        .is_some_and(|at| m.set_turns(at, turns))
                });
            }
        }
    }

    fn pointer(&mut self, app: &mut ViewDraw<'_>, pointer: Pointer) -> bool {
        // A press drives the car (playing) or selects the square for the turn editor.
        if let Pointer::Press(cell) = pointer {
            if self.playing {
                app.push_view(Command::Drive(cell));
                return true;
            }
            app.push_view(Command::Select(cell));
        }
        false
    }

    fn canvas_extras(&self, app: &ViewRead<'_>, hover: Option<Cell>) -> CanvasExtras<'_> {
        CanvasExtras {
            selected: self.selected,
            hover_text: hover.and_then(|cell| self.hover_text(app, cell)),
            ..CanvasExtras::default()
        }
    }

    fn describe(&self, app: &ViewRead<'_>) -> Description {
        let about = "A car drives through a grid of intersections. Arrows at each intersection say \
         which ways a car entering from one side may leave, so a state is an intersection \
         and the side it was entered from. Get from the entry on the left to the exit on \
         the right. In play by hand, click the intersection next to the car to drive there \
         (Optimal moves shows how far the exit is and hints); in edit layout, click an \
         intersection to edit its turns. Source: the car maze article \
         and its text format.";
        let legend = {
            use crate::ui::palette::{FREE, GOAL, START};
            let mut entries = vec![
                super::entry(START, "entry: the car starts here"),
                super::entry(GOAL, "exit: the car leaves here"),
                super::entry(
                    FREE,
                    "intersection (a wedge on a side: a state entered from that side)",
                ),
            ];
            entries.extend(super::search_legend(app));
            entries
        };
        Description {
            about,
            legend,
            standing_error: None,
        }
    }

    fn capability(&mut self, kind: CapabilityKind) -> Option<ViewCapability<'_>> {
        crate::lend_capabilities!(self, kind; FollowsPuzzle)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl CarMazeView {
    /// A line about the square `cell` under the pointer, for the status bar.
    fn hover_text(&self, app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        let at = maze(app)?.intersection_at(cell)?;
        // The status bar's "row, column" counts squares of the picture, which has a border of
        // one square; the maze's own coordinates, as its file and "Turns at" give them, are
        // named as such.
        Some(format!(
            "intersection ({}, {}) of the maze (row, column without the border)",
            at.row, at.col
        ))
    }
}

impl FollowsPuzzle for CarMazeView {
    fn puzzle_replaced(&mut self) {
        self.selected = None;
    }
}
