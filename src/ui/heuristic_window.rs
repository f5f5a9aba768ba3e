//! The "Heuristic" window: the heuristic of the puzzle on screen measured against the exact
//! least costs to a goal over the explored space: admissible, consistent, means, exact states,
//! a histogram of h against h*, the states where it overestimates and the moves along which
//! it drops too fast (each opens that state), and a canvas tint of h* - h for grids.

use eframe::egui::{self, Color32, RichText, Sense, vec2};

use crate::app::heuristic_measure::Measured;
use crate::app::{AppCommand, Panel, WindowCommand};
use crate::search::heuristic_quality::{HISTOGRAM_BINS, Quality};
use crate::search::{Algorithm, format_cost};

/// The histogram's accessible label (tests find it by this).
pub const HISTOGRAM_LABEL: &str = "h against h* histogram";

/// Draws the window if it is open.
pub(crate) fn heuristic_window_ui(app: &mut Panel<'_>, ctx: &egui::Context) {
    if !app.windows.heuristic_window.open {
        return;
    }
    let mut open = true;
    let canvas = app.canvas.rect.unwrap_or(egui::Rect::from_min_size(
        egui::pos2(300.0, 80.0),
        vec2(520.0, 520.0),
    ));
    egui::Window::new("Heuristic")
        .open(&mut open)
        .default_pos(canvas.min + vec2(canvas.width() * 0.3, 0.0))
        .default_size(vec2(520.0, canvas.height().min(560.0)))
        .max_height(canvas.height())
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| body_ui(app, ui));
        });
    if !open {
        // The tint is the window's: closed, it goes too (the command says so).
        app.push(AppCommand::Window(WindowCommand::HeuristicWindow(false)));
    }
}

fn body_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let name = app.puzzle().heuristic_name();
    if app.windows.oracle.space().is_none() {
        if app
            .puzzle()
            .capabilities()
            .heuristic_sampling
            .is_some_and(|s| s.samples_heuristic_quality())
        {
            sample_ui(app, ui);
        } else {
            super::space_window::explore_space_ui(app, ui, "the heuristic is measured over it");
        }
        return;
    }
    ui.label(RichText::new(format!("Heuristic: {name}")).strong());
    let window = &app.windows.heuristic_window;
    if window.is_measuring() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("Measuring against the exact costs...");
        });
        return;
    }
    if let Some(why) = &window.failure {
        ui.colored_label(ui.visuals().error_fg_color, format!("No measure: {why}."));
        return;
    }
    let Some(measured) = window.measured.clone() else {
        return;
    };
    let q = &measured.quality;
    // Where a state is, for types whose states are places; else its number.
    let at = |node: u32| match app.windows.oracle.space().and_then(|s| s.place_of(node)) {
        Some(p) => format!("row {}, column {}", p.cell.row, p.cell.col),
        None => format!("state {node}"),
    };
    claim_ui(app, ui, q, &at);
    figures_ui(ui, q);
    histogram_ui(ui, q);
    let open = examples_ui(ui, q, &at);
    if !measured.gaps.is_empty() {
        tint_ui(app, ui, &measured);
    }
    if let Some(node) = open {
        app.push(AppCommand::OpenState(node));
    }
}

/// The measure over random positions, for boards too large to explore: how many, Measure
/// (Stop while it runs, with its progress), then the figures, the histogram and the
/// examples, each opening its position.
fn sample_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    ui.label(RichText::new(format!("Heuristic: {}", app.puzzle().heuristic_name())).strong());
    ui.label(
        "This board's state space is too large to explore: the heuristic is measured over \
         random positions instead, each solved optimally for h* (with the strongest pattern \
         databases at hand; on 5 x 5 each position can take hours).",
    );
    let sample = &app.windows.heuristic_window.sample;
    if sample.is_measuring() {
        let mut stop = false;
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!(
                "Measured {} of {} positions...",
                sample.done, sample.size
            ));
            stop = ui.button("Stop measuring").clicked();
        });
        if stop {
            app.push(AppCommand::Window(WindowCommand::StopSample));
        }
        return;
    }
    let mut start = false;
    let mut size = sample.size;
    ui.horizontal(|ui| {
        let label = ui.label("Positions");
        ui.add(egui::DragValue::new(&mut size).range(1..=10_000))
            .labelled_by(label.id);
        start = ui
            .button("Measure a sample")
            .on_hover_text("solve this many random positions optimally and compare")
            .clicked();
    });
    if size != sample.size {
        app.push(AppCommand::Window(WindowCommand::SampleSize(size)));
    }
    if start {
        app.push(AppCommand::Window(WindowCommand::StartSample));
        return;
    }
    let sample = &app.windows.heuristic_window.sample;
    if let Some(why) = &sample.failure {
        ui.colored_label(ui.visuals().error_fg_color, format!("No measure: {why}."));
    }
    let Some(sampled) = sample.sampled.clone() else {
        return;
    };
    let q = &sampled.quality;
    let (taken, asked) = (q.sampled.unwrap_or(q.states), sampled.asked);
    let stopped = if taken < asked as u64 {
        format!(", stopped after {taken} of {asked}")
    } else {
        String::new()
    };
    ui.label(
        RichText::new(format!(
            "A sample of {taken} random positions (not the whole space{stopped}):"
        ))
        .strong(),
    );
    figures_ui(ui, q);
    histogram_ui(ui, q);
    let at = |node: u32| format!("sampled position {node}");
    if let Some(position) = examples_ui(ui, q, &at).and_then(|n| sampled.positions.get(n as usize))
    {
        app.push(AppCommand::OpenGenerated(
            position.clone_box(),
            "Opened a position of the heuristic's sample.".to_owned(),
        ));
    }
}

/// What the measure says of the puzzle's claim that its heuristic is admissible: it holds
/// over the space explored, or it was found false at a state (and "optimal" withdrawn).
fn claim_ui(app: &Panel<'_>, ui: &mut egui::Ui, q: &Quality, at: &dyn Fn(u32) -> String) {
    let window = &app.windows.heuristic_window;
    if let Some(e) = window.refuted {
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!(
                "Declared admissible, but the claim is false: h = {} > h* = {} at {} (open \
                 it below). \"Optimal\" is withdrawn from the answers that relied on it, \
                 and new runs no longer claim it.",
                format_cost(e.h),
                format_cost(e.hstar),
                at(e.node)
            ),
        );
    } else if q.admissible && app.puzzle().guarantees_optimal(Algorithm::AStar) {
        ui.label(format!(
            "Admissible, as claimed: h <= h* on all {} states explored.",
            q.states
        ));
    }
}

fn figures_ui(ui: &mut egui::Ui, q: &Quality) {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let percent = |part: u64, whole: u64| 100.0 * part as f64 / whole.max(1) as f64;
    egui::Grid::new("heuristic figures")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            ui.label("Admissible (h <= h* everywhere)");
            ui.label(format!(
                "{}: {} states overestimated",
                yes(q.admissible),
                q.inadmissible_states
            ));
            ui.end_row();
            ui.label("Consistent (h <= cost + h' on every move)");
            ui.label(format!(
                "{}: {} of {} moves inconsistent",
                yes(q.consistent),
                q.inconsistent_edges,
                q.edges
            ));
            ui.end_row();
            ui.label("Mean h, mean h*");
            ui.label(format!("{:.2}, {:.2}", q.mean_h, q.mean_hstar));
            ui.end_row();
            ui.label("Mean h / h* (1 is perfect)");
            ui.label(format!("{:.3}", q.mean_h_over_hstar));
            ui.end_row();
            ui.label("Exact (h = h*)");
            ui.label(format!(
                "{} of {} states ({:.1} %)",
                q.exact_states,
                q.states,
                percent(q.exact_states, q.states)
            ));
            ui.end_row();
            ui.label("Not measured");
            ui.label(format!("{} states with no way to a goal", q.dead_ends));
            ui.end_row();
        });
}

/// The states by (h*, h) as a grid of bins, darker where there are more; the diagonal is
/// h = h*, and bins above it (overestimates) are drawn in vermillion.
fn histogram_ui(ui: &mut egui::Ui, q: &Quality) {
    ui.add_space(6.0);
    ui.label(format!(
        "States by h* (across) and h (up), bins of {}; the line is h = h*.",
        q.bin_width
    ));
    let side = ui.available_width().clamp(160.0, 320.0);
    let (rect, response) = ui.allocate_exact_size(vec2(side, side), Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, HISTOGRAM_LABEL));
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, ui.visuals().extreme_bg_color);
    let bins = q
        .histogram
        .iter()
        .map(|c| usize::from(c.hstar_bin.max(c.h_bin)) + 1)
        .max()
        .unwrap_or(1)
        .max(HISTOGRAM_BINS.min(4));
    let cell = side / bins as f32;
    let most = q
        .histogram
        .iter()
        .map(|c| c.states)
        .max()
        .unwrap_or(1)
        .max(1) as f32;
    for c in &q.histogram {
        let shade = ((c.states as f32).ln_1p() / most.ln_1p()).clamp(0.15, 1.0);
        let base = if c.h_bin > c.hstar_bin {
            super::palette::SOLUTION
        } else {
            super::palette::START
        };
        let color =
            Color32::from_rgba_unmultiplied(base.r(), base.g(), base.b(), (shade * 255.0) as u8);
        let min = egui::pos2(
            rect.left() + f32::from(c.hstar_bin) * cell,
            rect.bottom() - (f32::from(c.h_bin) + 1.0) * cell,
        );
        painter.rect_filled(egui::Rect::from_min_size(min, vec2(cell, cell)), 0.0, color);
    }
    painter.line_segment(
        [rect.left_bottom(), rect.right_top()],
        egui::Stroke::new(1.0, ui.visuals().text_color()),
    );
    ui.label(
        RichText::new(format!(
            "Across: h* from 0 to {}; up: h on the same scale. Blue: h <= h*; vermillion: h \
             above h* (overestimates). More solid: more states.",
            bins as f64 * q.bin_width
        ))
        .small(),
    );
    if let Some(pos) = response.hover_pos() {
        let x = ((pos.x - rect.left()) / cell) as u16;
        let y = ((rect.bottom() - pos.y) / cell) as u16;
        let n = q
            .histogram
            .iter()
            .find(|c| c.hstar_bin == x && c.h_bin == y)
            .map_or(0, |c| c.states);
        let w = q.bin_width;
        response.on_hover_text(format!(
            "h* in [{}, {}), h in [{}, {}): {n} states",
            f64::from(x) * w,
            f64::from(x + 1) * w,
            f64::from(y) * w,
            f64::from(y + 1) * w
        ));
    }
}

/// The overestimated states and inconsistent moves as links, `at` naming a state; the state
/// clicked, if one was.
fn examples_ui(ui: &mut egui::Ui, q: &Quality, at: &dyn Fn(u32) -> String) -> Option<u32> {
    let mut open = None;
    if !q.inadmissible.is_empty() {
        ui.add_space(6.0);
        ui.label(RichText::new("Overestimated states, largest first (click to open):").strong());
        for e in &q.inadmissible {
            if ui
                .link(format!(
                    "h {:.2} > h* {:.2}  ({})",
                    e.h,
                    e.hstar,
                    at(e.node)
                ))
                .on_hover_text("open this state on the board")
                .clicked()
            {
                open = Some(e.node);
            }
        }
    }
    if !q.inconsistent.is_empty() {
        ui.add_space(6.0);
        ui.label(
            RichText::new("Inconsistent moves, largest drop first (click to open the state):")
                .strong(),
        );
        for e in &q.inconsistent {
            if ui
                .link(format!(
                    "h {:.2} to {:.2} for a move of cost {:.2}  ({} to {})",
                    e.h_from,
                    e.h_to,
                    e.cost,
                    at(e.from),
                    at(e.to)
                ))
                .on_hover_text("h drops by more than the move costs; open the state it leaves")
                .clicked()
            {
                open = Some(e.from);
            }
        }
    }
    open
}

fn tint_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, measured: &Measured) {
    ui.add_space(6.0);
    let mut tint = app.windows.heuristic_window.tint;
    if ui
        .checkbox(&mut tint, "Tint the canvas with h* - h")
        .on_hover_text(
            "each square by how far the heuristic falls short of the exact cost there: pale \
             where exact, dark blue where far below, vermillion where it overestimates",
        )
        .changed()
    {
        app.push(AppCommand::Window(WindowCommand::HeuristicTint(tint)));
    }
    if app.windows.heuristic_window.tint {
        ui.label(
            RichText::new(format!(
                "Pale: h = h*. Dark blue: h* - h = {:.1}. Vermillion: h > h*.",
                measured.max_gap
            ))
            .small(),
        );
    }
}
