//! Planning tasks (PDDL): the heuristic, the task's size, the facts true in the state shown
//! (grouped by predicate) and the plan found, step by step; the canvas is the state's fact
//! table (a square a fact), and hovering a square names its fact.

use std::any::Any;

use eframe::egui::{self, RichText};

use super::Entry;
use crate::app::{AppAccess, ShownMoment, TypeView, ViewCommand, ViewContext, ViewRead, ViewWrite};
use crate::app::{CanvasExtras, Description, ViewDraw};
use crate::puzzles::Cell;
use crate::puzzles::planning::graph::RelaxedGraph;
use crate::puzzles::planning::heuristics::Heuristic;
use crate::puzzles::planning::{self, Planning};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &planning::TYPE,
    make: |_| Box::new(PlanningView::default()),
    claims: super::claims_none,
    new: &[],
    commands: &[],
};

/// The most facts listed in the side panel at once (the rest are counted).
const LISTED_FACTS: usize = 400;

/// Which moment a [`Shown`] was worked out for: the puzzle's revision, the moment's kind and
/// step (see [`crate::app::ShownMoment`]), and the run's figures at it (a search's moments
/// differ in them).
type MomentKey = (u64, u8, usize, u64, u64);

/// How often the state shown is worked out again while a search runs, in seconds (the
/// relaxed planning graph is linear in the task's size: not every frame).
const RUNNING_REFRESH: f64 = 0.25;

/// The most names listed for one layer of the relaxed planning graph.
const LISTED_PER_LAYER: usize = 12;

/// The state shown, worked out once per change of the moment on screen.
struct Shown {
    key: MomentKey,
    /// When it was worked out (the UI clock, seconds).
    at: f64,
    /// What the state is, for the captions: "the start", "step 3 of the plan", ...
    what: String,
    /// The facts true, by name, in the picture's order.
    facts: Vec<String>,
    /// The facts the last step added and deleted (a plan's step only).
    added: Vec<String>,
    deleted: Vec<String>,
    /// The relaxed planning graph of the state, when its section is open.
    graph: Option<RelaxedGraph>,
}

/// The planning view: the state shown, kept between frames.
#[derive(Default)]
struct PlanningView {
    shown: Option<Shown>,
    /// Whether the relaxed planning graph's section was open last frame.
    graph_open: bool,
}

/// The planning view's commands.
pub enum Command {
    /// Search with this heuristic.
    Heuristic(Heuristic),
}

fn task(app: &ViewContext<impl AppAccess>) -> Option<&Planning> {
    app.model::<Planning>()
}

impl PlanningView {
    /// Works out the state shown when the moment on screen changed: the search's state, the
    /// plan's step, or the puzzle itself (read from the picture the canvas shows, so the
    /// panel and the canvas tell the same state).
    fn refresh(&mut self, app: &ViewContext<impl AppAccess>) {
        let Some(puzzle) = task(app) else {
            self.shown = None;
            return;
        };
        let (kind, step) = match app.shown_moment() {
            ShownMoment::Puzzle => (0, 0),
            ShownMoment::Solution(k) => (1, k),
            ShownMoment::Search => (2, 0),
        };
        let stats = app.run_stats();
        let key = (app.revision(), kind, step, stats.expanded, stats.generated);
        if let Some(s) = &self.shown {
            let fresh = s.key == key
                || (app.is_running() && app.now() - s.at < RUNNING_REFRESH && s.key.1 == kind);
            if fresh && (s.graph.is_some() || !self.graph_open) {
                return;
            }
        }
        let state = app
            .shown_board()
            .and_then(|b| puzzle.state_of_picture(b))
            .unwrap_or_else(|| puzzle.state().clone());
        let names = |facts: &[u32]| -> Vec<String> {
            facts
                .iter()
                .map(|&f| puzzle.task().facts[f as usize].clone())
                .collect()
        };
        let plan: &[String] = app.result().filter(|r| r.solved).map_or(&[], |r| &r.moves);
        let last = (kind == 1 && step > 0)
            .then(|| plan.get(step - 1))
            .flatten()
            .and_then(|name| puzzle.task().operators.iter().find(|o| o.name == *name));
        let (added, deleted) =
            last.map_or((Vec::new(), Vec::new()), |o| (names(&o.add), names(&o.del)));
        let what = match kind {
            1 if step == 0 => "the start of the plan".to_owned(),
            1 => format!("the state after step {step} of the plan"),
            2 if app.is_running() => "the state being expanded".to_owned(),
            2 => "the state of the search's moment shown".to_owned(),
            _ => "the puzzle's state".to_owned(),
        };
        self.shown = Some(Shown {
            key,
            at: app.now(),
            what,
            facts: puzzle
                .true_facts(&state)
                .into_iter()
                .map(str::to_owned)
                .collect(),
            added,
            deleted,
            graph: self.graph_open.then(|| puzzle.relaxed_graph(&state)),
        });
    }

    /// The side panel's tools; the heuristic picked, if another than the current.
    fn tools(&mut self, app: &ViewRead<'_>, ui: &mut egui::Ui) -> Option<Heuristic> {
        let puzzle = task(app)?;
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
        let chosen = (chosen != current).then_some(chosen);
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
            return chosen;
        };
        if !shown.added.is_empty() || !shown.deleted.is_empty() {
            ui.label(format!(
                "Last step: + {}; - {}",
                if shown.added.is_empty() {
                    "nothing".to_owned()
                } else {
                    shown.added.join(" ")
                },
                if shown.deleted.is_empty() {
                    "nothing".to_owned()
                } else {
                    shown.deleted.join(" ")
                },
            ));
        }
        ui.label(format!(
            "True in {}: {} facts",
            shown.what,
            shown.facts.len()
        ));
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
        let section = egui::CollapsingHeader::new("Relaxed planning graph of the state shown")
            .id_salt("planning-graph-section")
            .show(ui, |ui| graph_ui(ui, puzzle, shown));
        self.graph_open = section.body_returned.is_some();
        chosen
    }
}

/// `n` and `word`, plural unless `n` is 1: "1 fact", "3 facts".
fn count(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The relaxed planning graph's section: what h^max and h^FF read, layer by layer.
fn graph_ui(ui: &mut egui::Ui, puzzle: &Planning, shown: &Shown) {
    let Some(graph) = &shown.graph else {
        // Worked out at the next frame (the section was just opened).
        ui.label("Working out the graph…");
        ui.ctx().request_repaint();
        return;
    };
    let t = puzzle.task();
    let fact = |f: u32| t.facts[f as usize].as_str();
    match (graph.hmax, graph.hff) {
        (Some(hmax), Some(hff)) => {
            let plan = graph.relaxed_plan.as_ref().map_or(0, Vec::len);
            ui.label(format!(
                "Of {}: h^max = {hmax} (the dearest goal fact's layer cost); h^FF = {hff} (a \
                 relaxed plan of {}, marked with >)",
                shown.what,
                count(plan, "action")
            ));
        }
        _ => {
            let names: Vec<&str> = graph.unreached_goals.iter().map(|&g| fact(g)).collect();
            ui.label(
                RichText::new(format!(
                    "Of {}: a dead end, h infinite: even ignoring deletes, no plan reaches {}",
                    shown.what,
                    names.join(" ")
                ))
                .color(ui.visuals().warn_fg_color),
            );
        }
    }
    let relaxed: &[u32] = graph.relaxed_plan.as_deref().unwrap_or(&[]);
    egui::ScrollArea::vertical()
        .id_salt("planning-graph")
        .max_height(220.0)
        .show(ui, |ui| {
            for (i, layer) in graph.layers.iter().enumerate() {
                ui.label(
                    RichText::new(format!(
                        "Layer {i} · cost {}: {} new, {} applicable",
                        layer.cost,
                        count(layer.facts.len(), "fact"),
                        count(layer.operators.len(), "action")
                    ))
                    .strong(),
                );
                let goals: Vec<&str> = layer
                    .facts
                    .iter()
                    .filter(|f| t.goal.contains(f))
                    .map(|&f| fact(f))
                    .collect();
                let chosen: Vec<&str> = layer
                    .operators
                    .iter()
                    .filter(|op| relaxed.contains(op))
                    .map(|&op| t.operators[op as usize].name.as_str())
                    .collect();
                let mut lines: Vec<String> =
                    goals.iter().map(|g| format!("* {g} (goal)")).collect();
                lines.extend(chosen.iter().map(|a| format!("> {a}")));
                let others = layer.facts.len() - goals.len();
                lines.extend(
                    layer
                        .facts
                        .iter()
                        .filter(|f| !t.goal.contains(f))
                        .take(LISTED_PER_LAYER.saturating_sub(lines.len()))
                        .map(|&f| format!("  {}", fact(f))),
                );
                let listed = lines.len() - goals.len() - chosen.len();
                for line in lines {
                    ui.label(RichText::new(line).monospace());
                }
                if others > listed {
                    ui.label(format!("  … and {} more facts", others - listed));
                }
            }
        });
}

impl TypeView for PlanningView {
    fn type_name(&self) -> &'static str {
        planning::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        self.refresh(app);
        if let Some(chosen) = self.tools(&app.as_read(), ui) {
            app.push_view(Command::Heuristic(chosen));
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

    fn canvas_extras(&self, app: &ViewRead<'_>, hover: Option<Cell>) -> CanvasExtras<'_> {
        CanvasExtras {
            hover_text: hover.and_then(|cell| self.hover_text(app, cell)),
            ..CanvasExtras::default()
        }
    }

    fn describe(&self, _app: &ViewRead<'_>) -> Description {
        let about = "Planning tasks in PDDL, the language of the International Planning Competitions: \
         open a problem file (its domain is found beside it), pick a heuristic and a search, \
         and watch the states it expands. Each square of the canvas is a fact, a row per \
         predicate; lit squares are true in the state, outlined ones are the goal. h^max is \
         admissible (A* finds optimal plans); h^add and h^FF guide greedy search faster.";
        let legend = {
            use crate::ui::palette::{TRAY, piece_color};
            vec![
                super::entry(piece_color(0), "a true fact (a colour per predicate)"),
                super::entry(TRAY, "a false fact"),
                super::entry(crate::ui::palette::TARGET, "outlined: a goal fact"),
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

impl PlanningView {
    /// A line about the square `cell` under the pointer, for the status bar.
    fn hover_text(&self, app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        let puzzle = task(app)?;
        let f = puzzle.fact_at(cell)?;
        let name = &puzzle.task().facts[f as usize];
        let goal = puzzle.task().goal.contains(&f);
        let on = self
            .shown
            .as_ref()
            .is_some_and(|s| s.facts.iter().any(|x| x == name));
        let layer = self
            .shown
            .as_ref()
            .and_then(|s| s.graph.as_ref())
            .map(|g| match g.layer_of_fact(f) {
                Some(i) => format!(
                    "; relaxed graph layer {i} (h^max cost {})",
                    g.layers[i].cost
                ),
                None => "; never reached, even ignoring deletes".to_owned(),
            })
            .unwrap_or_default();
        Some(format!(
            "{name}: {}{}{layer}",
            if on { "true" } else { "false" },
            if goal { " (a goal fact)" } else { "" }
        ))
    }
}
