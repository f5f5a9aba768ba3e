//! The "Learn" panel (View > Learn, or the palette), docked at the right of the canvas: the algorithm's pseudo-code with the
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

/// The Learn panel, at the right of the canvas while open (docked, so that it never covers
/// the canvas it explains; in classroom mode it stays when the side panels fold).
pub(crate) fn learn_panel_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    if !app.windows.learn.open {
        return;
    }
    egui::Panel::right("learn_panel")
        .resizable(true)
        .default_size(400.0)
        .min_size(260.0)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading("Learn");
                if ui
                    .button("Close")
                    .on_hover_text("close the Learn panel")
                    .clicked()
                {
                    app.windows_mut().learn.open = false;
                }
            });
            egui::ScrollArea::both()
                .id_salt("learn scroll")
                .show(ui, |ui| body_ui(app, ui));
        });
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
        let text = if Some(i) == lit {
            text.background_color(highlight).strong()
        } else {
            text
        };
        // A line of code is never wrapped: the window scrolls sideways if it must.
        ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
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
    if let Some((_, m)) = &moment {
        micro_steps_ui(app, ui, m);
    }
    predict_ui(app, ui);
    ui.separator();
    open_list_ui(app, ui, moment);
}

/// The micro-steps: back and forward one event (take the state off the frontier, the goal
/// test, each successor put on), through the expansions.
fn micro_steps_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, m: &Moment) {
    ui.horizontal(|ui| {
        let back = ui
            .add_enabled(
                m.position > 0 || m.event.is_some(),
                egui::Button::new("< event"),
            )
            .on_hover_text("one micro-step back: a push, the goal test, the take");
        let forward = ui
            .add_enabled(m.next.is_some(), egui::Button::new("event >"))
            .on_hover_text("one micro-step forward: take the state, test it, push each successor");
        if back.clicked() {
            micro_step(app, m, false);
        }
        if forward.clicked() {
            micro_step(app, m, true);
        }
        if let Some(e) = m.event {
            ui.label(format!(
                "event {} of {}",
                e + 1,
                Moment::events(m.next_pushes)
            ));
        }
    });
}

/// Moves the moment one micro-step forward or back: within the next expansion's events,
/// and past its last (first) one to the next (previous) expansion on the timeline.
pub(crate) fn micro_step(app: &mut Panel<'_>, m: &Moment, forward: bool) {
    let events = Moment::events(m.next_pushes);
    let at = m.position;
    // After the last push of an expansion comes the next one's take (the moment between
    // them shows the same as that last push); before a take, the previous expansion's last
    // push.
    let before = (Some((at.wrapping_sub(1), Moment::events(m.pushed) - 1)), -1);
    let (event, step) = match (forward, m.event) {
        (true, None) if m.next.is_some() => (Some((at, 0)), 0),
        (true, Some(e)) if e + 1 < events => (Some((at, e + 1)), 0),
        (true, Some(_)) if at + 1 < m.len => (Some((at + 1, 0)), 1),
        (true, Some(_)) => (None, 1),
        (false, Some(e)) if e > 0 => (Some((at, e - 1)), 0),
        (false, _) if at > 0 => before,
        (false, Some(_)) => (None, 0),
        _ => return,
    };
    app.windows_mut().learn.event = event;
    if step != 0 {
        app.push(AppCommand::Timeline(TimelineCommand::Step(step)));
    }
}

/// Predict mode: its switch, its score and what the last guess was told.
fn predict_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let mut predict = app.windows.learn.predict;
    ui.checkbox(&mut predict, "Predict the next state")
        .on_hover_text("click the square you think is expanded next; the timeline waits");
    if predict != app.windows.learn.predict {
        let learn = &mut app.windows_mut().learn;
        learn.predict = predict;
        learn.score = (0, 0);
        learn.verdict = None;
        learn.event = None;
        if predict && app.learn_moment().is_some_and(|(_, m)| m.next.is_none()) {
            app.push(AppCommand::Timeline(TimelineCommand::Seek(0)));
        }
    }
    if !predict {
        return;
    }
    let (right, tries) = app.windows.learn.score;
    ui.label(format!("Score: {right} right of {tries}."));
    if let Some((good, text)) = &app.windows.learn.verdict {
        let colour = if *good {
            egui::Color32::from_rgb(30, 140, 60)
        } else {
            egui::Color32::from_rgb(200, 40, 40)
        };
        ui.label(RichText::new(text).color(colour));
    } else {
        ui.label(RichText::new("Click the square you think comes next.").weak());
    }
}

/// Predict mode: `cell` is the user's guess of the state expanded next. Right, the timeline
/// moves on one expansion; wrong, it stays; either way the score counts it and the window
/// says why the next state is next (from the open list).
pub(crate) fn guess(app: &mut Panel<'_>, cell: crate::puzzles::Cell) {
    let Some((recording, m)) = app.learn_moment() else {
        return;
    };
    let algorithm = app.run_algorithm();
    let why_next = pseudocode(algorithm).why_next;
    let Some(next) = m.next.clone() else {
        app.windows_mut().learn.verdict =
            Some((false, "The run is over: no state comes next.".into()));
        return;
    };
    let Some(place) = next.place else {
        return;
    };
    let tie_break = app.limits().tie_break;
    let list =
        app.windows_mut()
            .learn
            .open_list(&recording, (m.position, None), algorithm, tie_break);
    let right = place.cell == cell;
    let learn = &mut app.windows_mut().learn;
    learn.score = (learn.score.0 + u32::from(right), learn.score.1 + 1);
    learn.event = None;
    let next_text = format!("{}{}", square(place), scores(&next));
    learn.verdict = Some(if right {
        (true, format!("Right: {next_text} is next. {why_next}"))
    } else {
        let yours = list.ok().and_then(|l| {
            l.iter().find(|e| e.place.cell == cell).map(|e| {
                format!(
                    "({}, {}) is on the frontier{}",
                    cell.row,
                    cell.col,
                    crate::app::learn::scores_of(e.g, e.h)
                )
            })
        });
        let yours =
            yours.unwrap_or_else(|| format!("({}, {}) is not on the frontier", cell.row, cell.col));
        (
            false,
            format!("Not that one: {yours}. Next is {next_text}. {why_next}"),
        )
    });
    if right {
        app.push(AppCommand::Timeline(TimelineCommand::Step(1)));
    }
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
    let list = app.windows_mut().learn.open_list(
        &recording,
        (m.position, m.pushes()),
        algorithm,
        tie_break,
    );
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
