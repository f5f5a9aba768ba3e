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
        ui.label("The board has nothing to edit: press Start (Space) to watch the search.");
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

    fn about(&self) -> &'static str {
        "Sam Loyd's \"Back from the Klondike\" (1898): start on the heart in the middle. \
         Each move goes exactly as many squares as the number you stand on, in one of the 8 \
         compass directions; the goal is to land just off the board (the orange squares \
         round the ring). Press Start to watch the search; breadth-first finds the fewest \
         moves. Source: the Klondike article and its grid.txt (seeds/000)."
    }

    fn legend(&self, app: &PuzzleLabApp) -> Vec<(egui::Color32, String)> {
        use crate::ui::canvas::{GOAL, NUMBER, START};
        let mut entries = vec![
            super::entry(START, "start: the heart in the middle (ringed)"),
            super::entry(NUMBER, "square: jump this many squares"),
            super::entry(GOAL, "goal: just off the board"),
        ];
        entries.extend(super::search_legend(app));
        entries
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
