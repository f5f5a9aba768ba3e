//! Sam Loyd's "Back from the Klondike": the panel says how to play; **Generate** makes a new
//! board in Loyd's style on a background thread; the oracle gives the distances.

use std::any::Any;

use eframe::egui;

use super::Entry;
use crate::app::{CanvasExtras, Description, ViewDraw};
use crate::app::{TypeView, ViewCommand, ViewRead, ViewWrite, WorkOrder};
use crate::puzzles::Cell;
use crate::puzzles::klondike::generate::{Generated, Request, generate};
use crate::puzzles::klondike::{self, Klondike, Spot};
use crate::search::CancelToken;

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &klondike::TYPE,
    make: |_| Box::new(KlondikeView::default()),
    claims: super::claims_none,
    new: &[],
    commands: &[],
};

/// The Klondike puzzle's view: the generator's request (the board being generated is the
/// app's work, [`GENERATING`]).
struct KlondikeView {
    min_length: usize,
    unique: bool,
    seed: u64,
}

impl Default for KlondikeView {
    fn default() -> Self {
        KlondikeView {
            min_length: 10,
            unique: true,
            seed: 1,
        }
    }
}

/// The view's name for the generator's work (see [`WorkOrder`]).
const GENERATING: &str = "generate";

/// The Klondike view's commands.
enum Command {
    /// Generate a board for the request in the panel.
    Generate,
    /// Stop generating.
    StopGenerating,
    /// The generator's board, or why there is none.
    Generated(Result<Generated, String>),
}

/// How long the generator may try before giving its best board.
const GENERATE_BUDGET: std::time::Duration = std::time::Duration::from_secs(60);

impl KlondikeView {
    /// The generator's controls: the least length, unique, the seed, Generate or Stop.
    fn generate_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label("At least");
            ui.add(egui::DragValue::new(&mut self.min_length).range(1..=30))
                .labelled_by(label.id);
            ui.label("jumps");
            ui.checkbox(&mut self.unique, "unique");
        });
        ui.horizontal(|ui| {
            let label = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(label.id);
            if app.is_working(GENERATING) {
                ui.spinner();
                if ui.button("Stop").clicked() {
                    app.push_view(Command::StopGenerating);
                }
            } else if ui
                .button("Generate")
                .on_hover_text(
                    "a new round board whose shortest solution takes at least this many jumps \
                     (and is the only one, if unique); Ctrl+Z brings the old board back",
                )
                .clicked()
            {
                app.push_view(Command::Generate);
            }
        });
    }

    /// Puts the generator's board on screen (an edit: Ctrl+Z brings the old one back).
    fn generated(app: &mut ViewWrite<'_>, done: Result<Generated, String>) {
        let found = match done {
            Ok(found) => found,
            Err(e) => {
                app.set_error(format!("No board generated: {e}"));
                return;
            }
        };
        let status = format!(
            "Generated a board whose shortest solution takes {} jumps ({} of that length){}",
            found.length,
            found.solutions,
            if found.meets {
                String::new()
            } else {
                format!(
                    "; the best found in {} s, short of the request",
                    GENERATE_BUDGET.as_secs()
                )
            }
        );
        app.edit_model(|k: &mut Klondike| {
            *k = found.board;
            true
        });
        app.set_status(status);
    }
}

impl TypeView for KlondikeView {
    fn type_name(&self) -> &'static str {
        klondike::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        ui.label("Press Start (Space) to watch the search.");
        self.generate_ui(app, ui);
        super::oracle_ui(app, ui);
        if app.oracle().space().is_some() {
            ui.label("Hover a square: its distance from the start and to the nearest goal.");
        }
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        let Some(command) = command.take::<Command>() else {
            return;
        };
        match command {
            Command::StopGenerating => app.stop_work(GENERATING),
            Command::Generated(done) => Self::generated(app, done),
            Command::Generate => {
                let request = Request {
                    size: 21,
                    min_length: self.min_length,
                    unique: self.unique,
                    seed: self.seed,
                    budget: GENERATE_BUDGET,
                };
                let order = WorkOrder::new(
                    GENERATING,
                    "klondike-generate",
                    CancelToken::new(),
                    move |cx| Command::Generated(Ok(generate(&request, cx.cancel, &mut |_, _| {}))),
                    |e| Command::Generated(Err(e.to_string())),
                );
                match app.start_work(order) {
                    Ok(()) => app.set_status("Generating a board..."),
                    Err(e) => app.set_status(format!("Could not start the generator: {e}")),
                }
            }
        }
    }

    fn canvas_extras(&self, app: &ViewRead<'_>, hover: Option<Cell>) -> CanvasExtras<'_> {
        CanvasExtras {
            hover_text: hover.and_then(|cell| self.hover_text(app, cell)),
            ..CanvasExtras::default()
        }
    }

    fn describe(&self, app: &ViewRead<'_>) -> Description {
        let about = "Sam Loyd's \"Back from the Klondike\" (1898): start on the heart in the middle. \
         Each move goes exactly as many squares as the number you stand on, in one of the 8 \
         compass directions; the goal is to land just off the board (the orange squares \
         round the ring). Press Start to watch the search; breadth-first finds the fewest \
         moves. Source: the Klondike article.";
        let legend = {
            use crate::ui::palette::{GOAL, NUMBER, START};
            let mut entries = vec![
                super::entry(START, "start: the heart in the middle (ringed)"),
                super::entry(NUMBER, "square: jump this many squares"),
                super::entry(GOAL, "goal: just off the board"),
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

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl KlondikeView {
    /// A line about the square `cell` under the pointer, for the status bar.
    fn hover_text(&self, app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        let board = app.model::<Klondike>()?;
        let what = match board.spot(cell)? {
            Spot::Off => "off the board".to_owned(),
            Spot::Goal => "a goal: just outside the ring".to_owned(),
            Spot::Jump(n) => format!("jump {n}"),
        };
        Some(match super::space_distances(app, cell) {
            Some(d) => format!("{what}; {d}"),
            None => what,
        })
    }
}
