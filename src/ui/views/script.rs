//! Puzzle scripts: the panel shows the script's description and source, its parameters as
//! controls, and the moves of the state on screen as buttons that play them by hand; the
//! canvas draws the script's `draw(state)`.

use std::any::Any;

use eframe::egui;

use super::Entry;
use crate::app::{TypeView, ViewCommand, ViewRead, ViewWrite};
use crate::puzzles::Cell;
use crate::puzzles::script::{self, Script};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &script::TYPE,
    make: |_| Box::new(ScriptView::default()),
    claims: super::claims_none,
};

/// The most moves listed as buttons.
const MAX_LISTED: usize = 60;

/// The view of puzzle scripts: the moves of the state on screen, made again when the puzzle
/// changes.
#[derive(Default)]
struct ScriptView {
    /// The puzzle's revision the moves were listed at, and the list (label and cost) or the
    /// script's error.
    listed: Option<(u64, Listed)>,
}

/// The moves listed (label and cost), or the script's error.
type Listed = Result<Vec<(String, f64)>, String>;

/// The view's commands.
enum Command {
    /// Play the move with this label.
    Play(String),
    /// Set a parameter.
    SetParameter(String, i64),
    /// Back to the position the script was loaded at.
    Reset,
}

impl ScriptView {
    /// The script's parameters as number fields.
    fn parameters_ui(app: &mut ViewWrite<'_>, ui: &mut egui::Ui) {
        let Some(parameters) = app.model::<Script>().map(|s| s.parameters().to_vec()) else {
            return;
        };
        for p in parameters {
            let mut value = p.value;
            ui.horizontal(|ui| {
                let label = ui.label(format!("Parameter {}", p.name));
                ui.add(egui::DragValue::new(&mut value).range(p.min..=p.max))
                    .labelled_by(label.id)
                    .on_hover_text(format!("from {} to {}; default {}", p.min, p.max, p.default));
            });
            if value != p.value {
                app.push_view(Command::SetParameter(p.name.clone(), value));
            }
        }
    }

    /// The moves of the state on screen, as buttons.
    fn moves_ui(&mut self, app: &mut ViewWrite<'_>, ui: &mut egui::Ui) {
        let revision = app.revision();
        if self.listed.as_ref().is_none_or(|(r, _)| *r != revision) {
            let moves = app
                .model::<Script>()
                .map(|s| s.moves_here().map_err(|e| e.to_string()))
                .unwrap_or_else(|| Ok(Vec::new()));
            self.listed = Some((revision, moves));
        }
        let Some((_, listed)) = &self.listed else {
            return;
        };
        match listed {
            Err(e) => {
                ui.label(
                    egui::RichText::new(format!("Script error: {e}"))
                        .color(crate::ui::palette::MOVE_WORSE),
                );
            }
            Ok(moves) if moves.is_empty() => {
                ui.label("No move from here.");
            }
            Ok(moves) => {
                ui.label("Play a move:");
                let mut chosen = None;
                ui.horizontal_wrapped(|ui| {
                    for (label, cost) in moves.iter().take(MAX_LISTED) {
                        let button = ui.button(label);
                        let button = if *cost == 1.0 {
                            button
                        } else {
                            button.on_hover_text(format!("costs {cost}"))
                        };
                        if button.clicked() {
                            chosen = Some(label.clone());
                        }
                    }
                });
                if moves.len() > MAX_LISTED {
                    ui.label(format!("… and {} more", moves.len() - MAX_LISTED));
                }
                if let Some(label) = chosen {
                    app.push_view(Command::Play(label));
                }
            }
        }
    }
}

impl TypeView for ScriptView {
    fn type_name(&self) -> &'static str {
        script::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewWrite<'_>, ui: &mut egui::Ui) {
        let Some((name, description, source, state, solved, draw_error)) =
            app.model::<Script>().map(|s| {
            (
                s.name(),
                s.description().map(str::to_owned),
                s.source_note().map(str::to_owned),
                s.state_text(),
                s.is_solved(),
                s.draw_error(),
            )
        }) else {
            return;
        };
        ui.label(egui::RichText::new(name).strong());
        if let Some(description) = description {
            ui.label(description);
        }
        if let Some(source) = source {
            ui.label(egui::RichText::new(format!("Source: {source}")).weak());
        }
        Self::parameters_ui(app, ui);
        ui.separator();
        ui.label(format!("State: {state}"));
        if let Some(e) = draw_error {
            ui.label(
                egui::RichText::new(format!("draw failed, the state is shown as text: {e}"))
                    .color(crate::ui::palette::MOVE_WORSE),
            );
        }
        if solved {
            ui.label(egui::RichText::new("A goal state!").strong());
        }
        self.moves_ui(app, ui);
        ui.horizontal(|ui| {
            super::undo_redo_ui(app, ui, "Ctrl+Z: take back a move");
            if ui
                .button("Reset")
                .on_hover_text("back to the script's start")
                .clicked()
            {
                app.push_view(Command::Reset);
            }
        });
        if let Some(played) = super::played_text(app) {
            ui.label(played);
        }
        super::oracle_ui(app, ui);
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        let Some(command) = command.take::<Command>() else {
            return;
        };
        match command {
            Command::Play(label) => {
                app.edit_model(|s: &mut Script| s.play(&label));
            }
            Command::SetParameter(name, value) => {
                let mut error = None;
                app.edit_model(|s: &mut Script| match s.set_parameter(&name, value) {
                    Ok(()) => true,
                    Err(e) => {
                        error = Some(e);
                        false
                    }
                });
                if let Some(e) = error {
                    app.set_error(format!("Script error: {e}"));
                }
            }
            Command::Reset => {
                app.edit_model(|s: &mut Script| s.reset());
            }
        }
    }

    fn hover_text(&self, _app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        Some(format!("row {}, column {}", cell.row + 1, cell.col + 1))
    }

    fn about(&self) -> &'static str {
        "A puzzle written as a script (a .rhai file): start(), moves(state) and \
         is_goal(state), with an optional heuristic(state) and draw(state). Press Start to \
         watch any algorithm search it, or play its moves by hand with the buttons below. \
         docs/formats.md describes the contract."
    }

    fn legend(&self, app: &ViewRead<'_>) -> Vec<(egui::Color32, String)> {
        use crate::ui::palette::{BLOCKED, NUMBER, TARGET, TRAY};
        let mut entries = vec![
            super::entry(TRAY, "an empty cell of the script's drawing"),
            super::entry(BLOCKED, "a wall (#) of the drawing"),
            super::entry(NUMBER, "a number of the drawing"),
            super::entry(TARGET, "a cell the drawing colours 'target'"),
        ];
        if app.result().is_some_and(|r| r.solved) {
            entries.push(super::entry(
                crate::ui::palette::SOLUTION,
                "a solution was found: the timeline plays it",
            ));
        }
        entries
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
