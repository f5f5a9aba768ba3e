//! Sokoban: the collection's level list (number, title, boxes) with previous and next, the
//! move metric, and play by hand (arrow keys walk and push, a click walks to a square by a
//! shortest walk, Ctrl+Z undoes), with the moves and pushes played and their LURD.

use std::any::Any;

use eframe::egui::{self, RichText};

use super::Entry;
use crate::app::{CanvasExtras, CapabilityKind, Description, FrameWork, ViewCapability, ViewDraw};
use crate::app::{Pointer, TypeView, ViewCommand, ViewRead, ViewWrite};
use crate::puzzles::Cell;
use crate::puzzles::sokoban::{self, Dir, Metric, Sokoban};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &sokoban::TYPE,
    make: |_| Box::new(SokobanView),
    claims: super::claims_none,
    new: &[],
    commands: &[],
};

/// Sokoban's view (its state is all in the model).
struct SokobanView;

/// Sokoban's commands.
pub enum Command {
    /// Count moves with this metric.
    Metric(Metric),
    /// Open this level of the collection (its number in the file).
    Level(usize),
    /// One step (or push) of the player by hand.
    Step(Dir),
    /// Walk the player to this square by a shortest walk.
    WalkTo(Cell),
}

fn level<'a>(app: &'a ViewRead<'_>) -> Option<&'a Sokoban> {
    app.model::<Sokoban>()
}

impl SokobanView {
    /// The level list: previous / next, and each level a row to pick.
    fn levels_ui(app: &mut ViewDraw<'_>, ui: &mut egui::Ui, s: &Sokoban) {
        let levels = s.levels();
        let number = s.level_number();
        ui.horizontal(|ui| {
            let previous = s.level_after(-1);
            let next = s.level_after(1);
            if ui
                .add_enabled(previous.is_some(), egui::Button::new("Previous level"))
                .clicked()
                && let Some(n) = previous
            {
                app.push_view(Command::Level(n));
            }
            if ui
                .add_enabled(next.is_some(), egui::Button::new("Next level"))
                .clicked()
                && let Some(n) = next
            {
                app.push_view(Command::Level(n));
            }
        });
        let title = s.collection_title().unwrap_or("Levels");
        ui.label(format!("{title}: level {number} of {}", levels.len()));
        egui::ScrollArea::vertical()
            .id_salt("sokoban levels")
            .max_height(160.0)
            .show(ui, |ui| {
                for l in &levels {
                    let text = match &l.title {
                        Some(t) => format!("{}. {t} ({} boxes)", l.number, l.boxes),
                        None => format!("{}. ({} boxes)", l.number, l.boxes),
                    };
                    if ui.selectable_label(l.number == number, text).clicked() && l.number != number
                    {
                        app.push_view(Command::Level(l.number));
                    }
                }
            });
        for e in s.refused() {
            ui.label(RichText::new(format!("Refused: {e}")).color(ui.visuals().error_fg_color));
        }
    }
}

impl TypeView for SokobanView {
    fn type_name(&self) -> &'static str {
        sokoban::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        let Some(s) = level(&app.as_read()).cloned() else {
            return;
        };
        Self::levels_ui(app, ui, &s);
        let choices = [
            (Metric::Pushes, "pushes", "a push costs 1, walking is free"),
            (Metric::Moves, "moves", "every step costs 1, pushes too"),
        ];
        if let Some(m) = super::choice_ui(ui, "Count", s.metric(), &choices) {
            app.push_view(Command::Metric(m));
        }
        ui.horizontal(|ui| super::undo_redo_ui(app, ui, "Ctrl+Z: a step or a push"));
        ui.label("Arrow keys walk and push; a click walks to a square.");
        ui.label(format!(
            "Played: {} moves, {} pushes",
            s.moves_by_hand(),
            s.pushes_by_hand()
        ));
        if !s.lurd_by_hand().is_empty() {
            ui.label(RichText::new(format!("LURD: {}", s.lurd_by_hand())).monospace());
        }
        if s.is_solved() {
            ui.label(RichText::new("Solved!").strong());
        }
        super::oracle_ui(app, ui);
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        let Some(command) = command.take::<Command>() else {
            return;
        };
        match command {
            Command::Metric(metric) => {
                app.edit_model(|s: &mut Sokoban| {
                    s.set_metric(metric);
                    true
                });
            }
            Command::Level(number) => {
                let mut refused = None;
                app.pose_problem(|s: &mut Sokoban| match s.set_level(number) {
                    Ok(()) => true,
                    Err(e) => {
                        refused = Some(e);
                        false
                    }
                });
                if let Some(e) = refused {
                    app.set_error(e);
                }
            }
            Command::Step(dir) => Self::play(app, |s| s.step(dir).is_some()),
            Command::WalkTo(cell) => Self::play(app, |s| s.walk_to(cell)),
        }
    }

    fn pointer(&mut self, app: &mut ViewDraw<'_>, pointer: Pointer) -> bool {
        if let Pointer::Click(cell) = pointer {
            app.push_view(Command::WalkTo(cell));
        }
        true
    }

    fn canvas_extras(&self, app: &ViewRead<'_>, hover: Option<Cell>) -> CanvasExtras<'_> {
        CanvasExtras {
            hover_text: hover.and_then(|cell| self.hover_text(app, cell)),
            ..CanvasExtras::default()
        }
    }

    fn describe(&self, _app: &ViewRead<'_>) -> Description {
        let about = "Sokoban (Hiroyuki Imabayashi, 1982): the warehouse keeper pushes every box onto a \
         goal. Walking into a box pushes it one square if the square behind it is free; \
         boxes are never pulled. Arrow keys walk and push, a click walks to a square; \
         shaded squares are dead (a box there can never reach a goal). Open an .xsb \
         collection and pick a level in the list.";
        let legend = {
            use crate::ui::palette::{BLOCKED, GOAL, START, TARGET, TRAY};
            vec![
                super::entry(crate::ui::palette::piece_color(3), "box"),
                super::entry(TARGET, "box on a goal"),
                super::entry(GOAL, "goal"),
                super::entry(START, "the player (ring)"),
                super::entry(BLOCKED, "wall"),
                super::entry(TRAY, "floor"),
                super::entry(
                    crate::ui::palette::terrain_color(4),
                    "dead square: a box here can never reach a goal",
                ),
            ]
        };
        Description {
            about,
            legend,
            standing_error: None,
        }
    }

    fn capability(&mut self, kind: CapabilityKind) -> Option<ViewCapability<'_>> {
        crate::lend_capabilities!(self, kind; FrameWork)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl SokobanView {
    /// A line about the square `cell` under the pointer, for the status bar.
    fn hover_text(&self, app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        // The board shown (a solution played back), which a move by hand acts on.
        let s = app.shown_model::<Sokoban>()?;
        let square = s.square_of(cell)?;
        let b = s.board();
        let what = match b.ground(square) {
            sokoban::board::Ground::Wall => "wall",
            sokoban::board::Ground::Outside => return None,
            sokoban::board::Ground::Sealed => "a box sealed off on its goal",
            sokoban::board::Ground::Inside if b.is_dead(square) => {
                "dead square: a box here can never reach a goal"
            }
            sokoban::board::Ground::Inside if b.is_goal(square) => "goal",
            sokoban::board::Ground::Inside => "floor",
        };
        Some(format!(
            "row {}, column {}: {what}",
            cell.row + 1,
            cell.col + 1
        ))
    }
}

impl FrameWork for SokobanView {
    fn tick(&mut self, app: &mut ViewWrite<'_>, ctx: &egui::Context) {
        // Arrow keys walk and push, unless a text field has the keyboard or classroom mode
        // gives them to the run; taken before the panels, so Right is not also the toolbar's
        // Step.
        if ctx.egui_wants_keyboard_input() || app.settings().classroom {
            return;
        }
        let keys = [
            (egui::Key::ArrowUp, Dir::Up),
            (egui::Key::ArrowDown, Dir::Down),
            (egui::Key::ArrowLeft, Dir::Left),
            (egui::Key::ArrowRight, Dir::Right),
        ];
        for (key, dir) in keys {
            if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, key)) {
                Self::play(app, |s| s.step(dir).is_some());
            }
        }
    }
}

impl SokobanView {
    /// Plays a move by hand (an edit the app's undo takes back), sliding the box it
    /// pushed, if any.
    fn play(app: &mut ViewWrite<'_>, play: impl FnOnce(&mut Sokoban) -> bool) {
        if !app.take_shown_board() {
            return;
        }
        let before = app.puzzle().clone_box();
        if app.edit_model(play)
            && let Some(s) = app.model::<Sokoban>()
        {
            // A move played is not an edit of the level (the file keeps its start).
            let text = format!(
                "Played {} by hand; Ctrl+Z undoes.",
                crate::app::count(s.moves_by_hand(), "move")
            );
            app.set_status(text);
        }
        if app.puzzle().picture() != before.picture() {
            app.slide_from(before.as_ref());
        }
    }
}
