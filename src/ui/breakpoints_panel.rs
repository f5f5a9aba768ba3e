//! The details panel's "Breakpoints": the conditions that pause a live run at the first
//! expansion that meets them (the pinned state generated or expanded, f going down along a
//! move, a state expanded again, g, depth or the frontier passing a value). Changes reach a
//! running search at its next expansion.

use eframe::egui;

use crate::app::{AppCommand, Panel, timeline::Pinned};

/// Draws the section.
pub(super) fn breakpoints_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let before = app.runs.breakpoints;
    let mut b = before;
    // The pinned state: the one pinned on the timeline now, else the one kept from the run
    // before.
    let pinned_now = app.timeline().and_then(|t| t.pinned).and_then(|p| match p {
        Pinned::Place(place) => Some(place),
        Pinned::Expansion(_) => None,
    });
    egui::CollapsingHeader::new("Breakpoints")
        .id_salt("breakpoints")
        .default_open(b.any())
        .show(ui, |ui| {
            if let Some(place) = pinned_now {
                b.pinned = Some(place);
            }
            match b.pinned {
                Some(p) => ui.label(format!(
                    "Pinned state: row {}, column {}.",
                    p.cell.row, p.cell.col
                )),
                None => ui.label(
                    egui::RichText::new(
                        "Pin a square (Pin squares on the timeline, then click it) to break on \
                         its state.",
                    )
                    .weak(),
                ),
            };
            ui.label("Pause the run when");
            ui.add_enabled_ui(b.pinned.is_some(), |ui| {
                ui.checkbox(&mut b.pinned_generated, "the pinned state is generated");
                ui.checkbox(&mut b.pinned_expanded, "the pinned state is expanded");
            });
            ui.checkbox(&mut b.f_decrease, "f goes down along a move")
                .on_hover_text(
                    "an inconsistency of the heuristic seen: f of a state below its parent's",
                );
            ui.checkbox(&mut b.reexpansion, "a state is expanded again")
                .on_hover_text("for puzzles whose states are squares");
            limit_ui(ui, "g passes", &mut b.g_above, 10.0);
            let mut depth = b.depth_above.map(|d| d as f64);
            limit_ui(ui, "the depth passes", &mut depth, 10.0);
            b.depth_above = depth.map(|d| d as u64);
            let mut frontier = b.frontier_above.map(|d| d as f64);
            limit_ui(ui, "the frontier passes", &mut frontier, 100.0);
            b.frontier_above = frontier.map(|d| d as u64);
        });
    if b != before {
        app.push(AppCommand::SetBreakpoints(b));
    }
}

/// A checkbox turning a limit on or off, and its value.
fn limit_ui(ui: &mut egui::Ui, label: &str, limit: &mut Option<f64>, default: f64) {
    ui.horizontal(|ui| {
        let mut on = limit.is_some();
        let checkbox = ui.checkbox(&mut on, label);
        if checkbox.changed() {
            *limit = on.then_some(limit.unwrap_or(default));
        }
        if let Some(value) = limit {
            // Named by its checkbox, for a screen reader.
            ui.add(egui::DragValue::new(value).range(0.0..=1e9).speed(1.0))
                .labelled_by(checkbox.id);
        }
    });
}
