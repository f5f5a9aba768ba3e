//! Sam Loyd's "Back from the Klondike": nothing to edit; the panel says how to play.

use std::any::Any;

use eframe::egui;

use super::Entry;
use crate::app::{PuzzleLabApp, TypeView, ViewCommand};
use crate::puzzles::Cell;
use crate::puzzles::klondike::{self, Klondike, Spot};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    name: klondike::TYPE.name,
    make: |_| Box::new(KlondikeView),
    claims: super::claims_none,
};

/// The Klondike puzzle's view.
struct KlondikeView;

impl TypeView for KlondikeView {
    fn type_name(&self) -> &'static str {
        klondike::TYPE.name
    }

    fn tools_ui(&mut self, _app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
        ui.label(
            egui::RichText::new(
                "From the heart, jump as many squares as the number you stand on, in a \
                 straight line (8 directions), and land just off the board. Press Start.",
            )
            .weak(),
        );
    }

    fn apply(&mut self, _app: &mut PuzzleLabApp, _command: ViewCommand) {}

    fn hover_text(&self, app: &PuzzleLabApp, cell: Cell) -> Option<String> {
        let board = app.puzzle().as_any().downcast_ref::<Klondike>()?;
        Some(match board.spot(cell)? {
            Spot::Off => "off the board".to_owned(),
            Spot::Goal => "a goal: just outside the ring".to_owned(),
            Spot::Jump(n) => format!("jump {n}"),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
