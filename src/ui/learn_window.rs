//! The "Learn" window (View > Learn, or the palette): the algorithm's pseudo-code with the
//! line of the timeline's moment lit and its values beside it, why the next state is next,
//! the open list at that moment (the next state marked; a click on a row pins that state on
//! the canvas), and what the canvas writes on the squares. The caption under the canvas says
//! the same moment in plain words (see [`caption_ui`]).

use eframe::egui::{self, RichText};

use crate::app::learn::{Moment, Numbers, scores, square};
use crate::app::{AppCommand, Panel, TimelineCommand};
use crate::search::pseudocode::pseudocode;

/// The most rows of the open list shown (the rest are counted).
const MAX_ROWS: usize = 60;

/// The window, when open.
pub(crate) fn learn_window_ui(app: &mut Panel<'_>, ctx: &egui::Context) {
    let mut open = app.windows.learn.open;
    if !open {
        return;
    }
    egui::Window::new("Learn")
        .open(&mut open)
        .default_width(440.0)
        .default_height(520.0)
        .vscroll(true)
        .show(ctx, |ui| body_ui(app, ui));
    app.windows_mut().learn.open = open;
}

fn body_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    numbers_ui(app, ui);
    ui.separator();
    let algorithm = app.run_algorithm();
    let code = pseudocode(algorithm);
    let moment = app.learn_moment();
    ui.label(RichText::new(algorithm.label()).strong());
    let lit = moment.as_ref().map(|(_, m)| code.line(m.step));
    let highlight = ui.visuals().selection.bg_fill;
    for (i, line) in code.lines.iter().enumerate() {
        let text = RichText::new(format!("{:>2}  {line}", i + 1)).monospace();
        if Some(i) == lit {
            ui.label(text.background_color(highlight).strong())
                .on_hover_text("the line of the moment shown");
        } else {
            ui.label(text);
        }
    }
    match &moment {
        Some((_, m)) => {
            ui.label(values(m));
        }
        None => {
            ui.label(RichText::new("Start a search: the lit line follows it.").weak());
        }
    }
    ui.label(RichText::new(code.why_next).italics());
    ui.separator();
    open_list_ui(app, ui, moment);
}

/// What the canvas writes on each square reached, and the arrows to parents.
fn numbers_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        ui.label("On the squares reached:");
        let mut numbers = app.windows.learn.numbers;
        for choice in Numbers::ALL {
            ui.radio_value(&mut numbers, choice, choice.label());
        }
        app.windows_mut().learn.numbers = numbers;
        let mut arrows = app.windows.learn.arrows;
        ui.checkbox(&mut arrows, "arrows to parents");
        app.windows_mut().learn.arrows = arrows;
    })
    .response
    .on_hover_text("written where a square is large enough to read: zoom in on a large grid");
}

/// The values of the moment beside the lit line.
fn values(m: &Moment) -> String {
    let mut parts = vec![format!("moment {} of {}", m.position, m.len)];
    if let Some(e) = &m.expanded {
        let n = e
            .place
            .map_or("n".to_owned(), |p| format!("n = {}", square(p)));
        parts.push(format!("{n}{}", scores(e)));
        parts.push(format!("depth {}", e.depth));
        parts.push(format!("{} put on the frontier", m.pushed));
        if e.iteration > 0 {
            parts.push(format!("iteration {}", e.iteration));
        }
    }
    parts.join(" · ")
}

/// The open list at the moment, in the algorithm's order, the next state marked.
fn open_list_ui(
    app: &mut Panel<'_>,
    ui: &mut egui::Ui,
    moment: Option<(
        std::sync::Arc<crate::runs::recording::TraceRecorder>,
        Moment,
    )>,
) {
    let Some((recording, m)) = moment else {
        return;
    };
    let (algorithm, tie_break) = (app.run_algorithm(), app.limits().tie_break);
    let list = app
        .windows_mut()
        .learn
        .open_list(&recording, m.position, algorithm, tie_break);
    let list = match list {
        Ok(list) => list,
        Err(why) => {
            ui.label(RichText::new(why.to_string()).weak());
            return;
        }
    };
    ui.label(
        RichText::new(format!(
            "Open list: {}",
            crate::app::count(list.len() as u64, "state")
        ))
        .strong(),
    );
    let next = m.next.as_ref().and_then(|e| e.place);
    let mut pin = None;
    egui::Grid::new("open list").striped(true).show(ui, |ui| {
        for title in ["", "state", "g", "h", "f", "depth", "parent"] {
            ui.label(RichText::new(title).weak());
        }
        ui.end_row();
        let value =
            |v: Option<f32>| v.map_or("-".to_owned(), |v| crate::search::format_cost(f64::from(v)));
        for entry in list.iter().take(MAX_ROWS) {
            let is_next = Some(entry.place) == next;
            ui.label(if is_next { "next >" } else { "" });
            if ui
                .link(square(entry.place))
                .on_hover_text("pin this state on the canvas")
                .clicked()
            {
                pin = Some(entry.place.cell);
            }
            ui.label(value(entry.g));
            ui.label(value(entry.h));
            ui.label(value(entry.f(algorithm)));
            ui.label(entry.depth.to_string());
            ui.label(entry.parent.map_or("start".to_owned(), square));
            ui.end_row();
        }
    });
    if list.len() > MAX_ROWS {
        ui.label(RichText::new(format!("and {} more", list.len() - MAX_ROWS)).weak());
    }
    if let Some(cell) = pin {
        app.push(AppCommand::Timeline(TimelineCommand::PinCell(Some(cell))));
    }
}

/// The caption under the canvas: the moment of the run in one sentence (shown while the
/// Learn window is open, and in classroom mode).
pub(crate) fn caption_ui(app: &Panel<'_>, ui: &mut egui::Ui) {
    let text = match app.learn_moment() {
        Some((_, m)) => m.caption(),
        None => "Press Start: each step of the search is told here.".to_owned(),
    };
    ui.add(egui::Label::new(RichText::new(text).strong()).truncate());
}
