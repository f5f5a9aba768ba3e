//! The car maze: click an intersection to select it, then edit the turns allowed there.

use std::any::Any;

use eframe::egui;

use super::Entry;
use crate::app::{CanvasExtras, Pointer, PuzzleLabApp, TypeView, ViewCommand};
use crate::puzzles::car_maze::{self, CarMaze, turn_bit};
use crate::puzzles::{Cell, Side};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    name: car_maze::TYPE.name,
    make: |_| Box::new(CarMazeView::default()),
    claims: super::claims_none,
};

/// The car maze's view: the selected intersection (a square of the picture).
#[derive(Default)]
struct CarMazeView {
    selected: Option<Cell>,
}

/// The car maze view's commands.
pub enum Command {
    /// Select the intersection at this picture square.
    Select(Cell),
    /// Set the turns of the intersection at this picture square (bits as in
    /// [`car_maze::turn_bit`]).
    SetTurns(Cell, u16),
}

fn maze(app: &PuzzleLabApp) -> Option<&CarMaze> {
    app.puzzle().as_any().downcast_ref::<CarMaze>()
}

impl TypeView for CarMazeView {
    fn type_name(&self) -> &'static str {
        car_maze::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
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

    fn apply(&mut self, app: &mut PuzzleLabApp, command: ViewCommand) {
        let Ok(command) = command.0.downcast::<Command>() else {
            return;
        };
        match *command {
            Command::Select(cell) => self.selected = Some(cell),
            Command::SetTurns(cell, turns) => {
                app.edit_puzzle(|p| {
                    p.as_any_mut()
                        .downcast_mut::<CarMaze>()
                        .and_then(|m| Some((m.intersection_at(cell)?, m)))
                        .is_some_and(|(at, m)| m.set_turns(at, turns))
                });
            }
        }
    }

    fn pointer(&mut self, app: &mut PuzzleLabApp, pointer: Pointer) -> bool {
        // A press selects the square for the turn editor; painting goes on as usual.
        if let Pointer::Press(cell) = pointer {
            app.push_view(Command::Select(cell));
        }
        false
    }

    fn canvas_extras(&self, _app: &PuzzleLabApp, _hover: Option<Cell>) -> CanvasExtras<'_> {
        CanvasExtras {
            selected: self.selected,
            ..CanvasExtras::default()
        }
    }

    fn hover_text(&self, app: &PuzzleLabApp, cell: Cell) -> Option<String> {
        let at = maze(app)?.intersection_at(cell)?;
        Some(format!("intersection ({}, {})", at.row, at.col))
    }

    fn puzzle_replaced(&mut self) {
        self.selected = None;
    }

    fn about(&self) -> &'static str {
        "A car drives through a grid of intersections. Arrows at each intersection say \
         which ways a car entering from one side may leave, so a state is an intersection \
         and the side it was entered from. Get from the entry on the left to the exit on \
         the right. Click an intersection to edit its turns. Source: the car maze article \
         and its text format (seeds/004)."
    }

    fn legend(&self, app: &PuzzleLabApp) -> Vec<(egui::Color32, String)> {
        use crate::ui::canvas::{FREE, GOAL, START};
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
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
