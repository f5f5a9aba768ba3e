//! Planning tasks (PDDL): the heuristic, the task's size, the facts true in the state shown
//! (grouped by predicate) and the plan found, step by step; the canvas is the state's fact
//! table (a square a fact), and hovering a square names its fact.

use std::any::Any;

use eframe::egui::{self, RichText};

use super::Entry;
use crate::app::{AppAccess, TypeView, ViewCommand, ViewContext, ViewRead, ViewWrite};
use crate::puzzles::Cell;
use crate::puzzles::planning::heuristics::Heuristic;
use crate::puzzles::planning::{self, Planning, State};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &planning::TYPE,
    make: |_| Box::new(PlanningView::default()),
    claims: super::claims_none,
    new: &[],
};

/// The most facts listed in the side panel at once (the rest are counted).
const LISTED_FACTS: usize = 400;

/// The state shown, worked out once per change of the puzzle or of the plan's step shown.
struct Shown {
    /// What it was worked out for: the puzzle's revision and the steps of the plan shown.
    key: (u64, usize),
    /// The facts true, by name, in the picture's order.
    facts: Vec<String>,
    /// The facts the last step added and deleted.
    added: Vec<String>,
    deleted: Vec<String>,
}

/// The planning view: the state shown, kept between frames.
#[derive(Default)]
struct PlanningView {
    shown: Option<Shown>,
}

/// The planning view's commands.
pub enum Command {
    /// Search with this heuristic.
    Heuristic(Heuristic),
}

fn task(app: &ViewContext<impl AppAccess>) -> Option<&Planning> {
    app.model::<Planning>()
}

/// The state after the first `steps` moves of `plan` from `puzzle`'s state (replayed by
/// [`crate::puzzles::replay`]; an illegal move ends the replay before it), and the last
/// step's operator.
fn replay(puzzle: &Planning, plan: &[String], steps: usize) -> (State, Option<u32>) {
    let mut steps = &plan[..steps.min(plan.len())];
    let states = loop {
        match crate::puzzles::replay(puzzle, steps) {
            Ok(states) => break states,
            Err(_) if steps.is_empty() => break Vec::new(),
            Err(i) => steps = &steps[..i],
        }
    };
    let state = states.last().cloned().unwrap_or_else(|| puzzle.state().clone());
    let last = steps.last().and_then(|name| {
        puzzle
            .task()
            .operators
            .iter()
            .position(|o| o.name == *name)
            .map(|op| op as u32)
    });
    (state, last)
}

impl PlanningView {
    /// Works out the state shown when the puzzle or the step shown changed.
    fn refresh(&mut self, app: &ViewWrite<'_>) {
        let Some(puzzle) = task(app) else {
            self.shown = None;
            return;
        };
        let plan: &[String] = app.result().filter(|r| r.solved).map_or(&[], |r| &r.moves);
        let steps = app.shown_moves().min(plan.len());
        let key = (app.revision(), steps);
        if self.shown.as_ref().is_some_and(|s| s.key == key) {
            return;
        }
        let (state, last) = replay(puzzle, plan, steps);
        let names = |facts: &[u32]| -> Vec<String> {
            facts
                .iter()
                .map(|&f| puzzle.task().facts[f as usize].clone())
                .collect()
        };
        let (added, deleted) = last.map_or((Vec::new(), Vec::new()), |op| {
            let o = &puzzle.task().operators[op as usize];
            (names(&o.add), names(&o.del))
        });
        self.shown = Some(Shown {
            key,
            facts: puzzle.true_facts(&state).into_iter().map(str::to_owned).collect(),
            added,
            deleted,
        });
    }
}

impl TypeView for PlanningView {
    fn type_name(&self) -> &'static str {
        planning::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewWrite<'_>, ui: &mut egui::Ui) {
        self.refresh(app);
        let Some(puzzle) = task(app) else {
            return;
        };
        let shared = puzzle.shared();
        let t = puzzle.task();
        ui.label(format!(
            "{} / {}: {} facts, {} operators, {} goal facts{}",
            shared.names_read.0,
            shared.names_read.1,
            t.facts.len(),
            t.operators.len(),
            t.goal.len(),
            if t.unit_costs { "" } else { ", action costs" }
        ));
        let current = puzzle.heuristic_kind();
        let mut chosen = current;
        ui.horizontal(|ui| {
            let label = ui.label("Heuristic");
            egui::ComboBox::from_id_salt("planning-heuristic")
                .selected_text(current.name())
                .show_ui(ui, |ui| {
                    for h in Heuristic::ALL {
                        ui.selectable_value(&mut chosen, h, h.name())
                            .on_hover_text(h.describe());
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text(current.describe());
        });
        if chosen != current {
            app.push_view(Command::Heuristic(chosen));
        }
        if let Some(plan) = app.result().filter(|r| r.solved) {
            let steps = app.shown_moves().min(plan.moves.len());
            ui.label(format!(
                "Plan: {} actions, cost {}; step {steps} of {} shown",
                plan.moves.len(),
                plan.cost,
                plan.moves.len()
            ));
            egui::ScrollArea::vertical()
                .id_salt("planning-plan")
                .max_height(120.0)
                .show_rows(ui, 16.0, plan.moves.len(), |ui, rows| {
                    for i in rows {
                        let text = format!("{:>3}. {}", i + 1, plan.moves[i]);
                        let text = if i + 1 == steps {
                            RichText::new(text).strong()
                        } else {
                            RichText::new(text)
                        };
                        ui.label(text.monospace());
                    }
                });
        }
        let Some(shown) = &self.shown else {
            return;
        };
        if !shown.added.is_empty() || !shown.deleted.is_empty() {
            ui.label(format!(
                "Last step: + {}; − {}",
                if shown.added.is_empty() { "nothing".to_owned() } else { shown.added.join(" ") },
                if shown.deleted.is_empty() { "nothing".to_owned() } else { shown.deleted.join(" ") },
            ));
        }
        ui.label(format!("True in the state shown: {} facts", shown.facts.len()));
        egui::ScrollArea::vertical()
            .id_salt("planning-facts")
            .max_height(200.0)
            .show_rows(ui, 16.0, shown.facts.len().min(LISTED_FACTS), |ui, rows| {
                for i in rows {
                    let fact = &shown.facts[i];
                    let text = if shown.added.contains(fact) {
                        RichText::new(format!("+ {fact}")).strong()
                    } else {
                        RichText::new(format!("  {fact}"))
                    };
                    ui.label(text.monospace());
                }
            });
        if shown.facts.len() > LISTED_FACTS {
            ui.label(format!("… and {} more", shown.facts.len() - LISTED_FACTS));
        }
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        let Some(command) = command.take::<Command>() else {
            return;
        };
        match command {
            Command::Heuristic(h) => {
                let mut refused = None;
                app.edit_model(|p: &mut Planning| {
                    match crate::puzzles::Model::set_option(p, "heuristic", h.name()) {
                        Ok(()) => true,
                        Err(e) => {
                            refused = Some(e);
                            false
                        }
                    }
                });
                if let Some(e) = refused {
                    app.set_error(e);
                }
            }
        }
    }

    fn hover_text(&self, app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        let puzzle = task(app)?;
        let f = puzzle.fact_at(cell)?;
        let name = &puzzle.task().facts[f as usize];
        let goal = puzzle.task().goal.contains(&f);
        let on = self
            .shown
            .as_ref()
            .is_some_and(|s| s.facts.iter().any(|x| x == name));
        Some(format!(
            "{name}: {}{}",
            if on { "true" } else { "false" },
            if goal { " (a goal fact)" } else { "" }
        ))
    }

    fn about(&self) -> &'static str {
        "Planning tasks in PDDL, the language of the International Planning Competitions: \
         open a problem file (its domain is found beside it), pick a heuristic and a search, \
         and watch the states it expands. Each square of the canvas is a fact, a row per \
         predicate; lit squares are true in the state, outlined ones are the goal. h^max is \
         admissible (A* finds optimal plans); h^add and h^FF guide greedy search faster."
    }

    fn legend(&self, _app: &ViewRead<'_>) -> Vec<(egui::Color32, String)> {
        use crate::ui::palette::{TRAY, piece_color};
        vec![
            super::entry(piece_color(0), "a true fact (a colour per predicate)"),
            super::entry(TRAY, "a false fact"),
            super::entry(crate::ui::palette::TARGET, "outlined: a goal fact"),
        ]
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
