//! The "Learn" panel (View > Learn, or the palette), docked at the right of the canvas: the algorithm's pseudo-code with the
//! line of the timeline's moment lit and its values beside it, why the next state is next,
//! the open list at that moment (the next state marked; a click on a row pins that state on
//! the canvas), and what the canvas writes on the squares. The caption under the canvas says
//! the same moment in plain words (see [`caption_ui`]).

use eframe::egui::{self, RichText};

use crate::app::learn::{Ending, LearnCommand, Moment, Numbers, square};
use crate::app::{AppCommand, Panel, TimelineCommand, WindowCommand};
use crate::runs::open_list::is_expansion;
use crate::search::pseudocode::pseudocode;

/// The most rows of the open list shown (the rest are counted).
const MAX_ROWS: usize = 60;

/// The Learn panel's usual width, in points.
pub(crate) const LEARN_WIDTH: f32 = 400.0;

/// The Learn panel's least width, in points.
pub(crate) const LEARN_MIN: f32 = 260.0;

/// The Learn panel, at the right of the canvas while open (docked, so that it never covers
/// the canvas it explains; in classroom mode it stays when the side panels fold), at most
/// `max` points wide (never under its least width).
pub(crate) fn learn_panel_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, max: f32) {
    if !app.windows.learn.open {
        return;
    }
    let max = max.max(LEARN_MIN);
    // Each mode keeps its own width: narrowed beside the side panel outside classroom mode,
    // the panel is not left narrow in a lesson (its open list's type with it).
    let id = if app.settings.classroom {
        "learn_panel_lesson"
    } else {
        "learn_panel"
    };
    // A lesson keeps its usual width where the window has room: a frame laid out before
    // classroom mode's scale took effect does not leave it narrow.
    let least = if app.settings.classroom {
        LEARN_WIDTH.min(max)
    } else {
        LEARN_MIN
    };
    egui::Panel::right(id)
        .resizable(true)
        .default_size(LEARN_WIDTH.min(max))
        .min_size(least)
        .max_size(max)
        .show(ui, |ui| {
            // The algorithm and the micro-steps share the heading's row (they wrap under it
            // when it is full): the code and the open list below get the height.
            ui.horizontal_wrapped(|ui| {
                ui.heading("Learn");
                if ui
                    .button("Close")
                    .on_hover_text("close the Learn panel")
                    .clicked()
                {
                    app.push(AppCommand::Window(WindowCommand::Learn(false)));
                }
                if let Some((_, m)) = app.learn_moment() {
                    micro_steps_ui(app, ui, &m);
                }
                ui.label(RichText::new(app.run_algorithm().label()).strong());
            });
            let height = ui.available_height();
            egui::ScrollArea::both()
                .id_salt("learn scroll")
                .show(ui, |ui| body_ui(app, ui, height));
        });
}

/// The panel's body, `height` points in sight (below its heading).
fn body_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, height: f32) {
    // A lesson (classroom mode) puts Predict and the open list right under the code, the
    // options last.
    let lesson = app.settings.classroom;
    if !lesson {
        numbers_ui(app, ui);
        ui.separator();
    }
    let algorithm = app.run_algorithm();
    let code = pseudocode(algorithm);
    let moment = app.learn_moment();
    let lit = moment.as_ref().and_then(|(_, m)| code.line(m.step));
    let highlight = ui.visuals().selection.bg_fill;
    // The code's type as large as the panel's width holds its longest line, never cut.
    let longest = code
        .lines
        .iter()
        .map(|l| l.chars().count() + 4)
        .max()
        .unwrap_or(1);
    let font = fitted_monospace(ui, longest);
    // A lesson's code leaves room under it for the first rows of the open list (at
    // 1024 x 640 it left two, the walk 56's finding B).
    let font = if lesson {
        fitted_to_height(ui, font, code.lines.len(), height)
    } else {
        font
    };
    // The lines set solid, as a listing is (the font's own leading keeps them apart).
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing.y = 0.0;
        for (i, line) in code.lines.iter().enumerate() {
            let text = RichText::new(format!("{:>2}  {line}", i + 1)).font(font.clone());
            let text = if Some(i) == lit {
                text.background_color(highlight).strong()
            } else {
                text
            };
            ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
        }
    });
    let code_end = ui.cursor().top();
    match &moment {
        Some((_, m)) => {
            ui.label(m.values());
        }
        None => {
            ui.label(RichText::new("Start a search: the lit line follows it.").weak());
        }
    }
    if lesson {
        // Predict above the open list: its switch does not move as the list grows under a
        // running search, and a guess's verdict is in sight beside the rows guessed from.
        ui.separator();
        predict_ui(app, ui);
        ui.separator();
        let rows = open_list_ui(app, ui, moment);
        keep_under_code(ui, rows.map_or(0.0, |r| r - code_end));
        ui.separator();
        ui.label(RichText::new(code.why_next).italics());
        numbers_ui(app, ui);
        return;
    }
    ui.label(RichText::new(code.why_next).italics());
    predict_ui(app, ui);
    ui.separator();
    open_list_ui(app, ui, moment);
}

/// The monospace font, at most the style's size, at which `chars` characters fit the
/// width left in `ui` (at least 8 points).
fn fitted_monospace(ui: &egui::Ui, chars: usize) -> egui::FontId {
    let style = egui::TextStyle::Monospace.resolve(ui.style());
    let probe = egui::FontId::monospace(10.0);
    let per_char = ui.fonts_mut(|f| f.glyph_width(&probe, 'M')) / 10.0;
    let room = ui.available_width() - 8.0;
    let fits = room / (per_char * chars as f32).max(1.0);
    egui::FontId::monospace(fits.clamp(8.0, style.size))
}

/// The space between the open list's columns and rows, in points (the rows striped).
const TABLE_SPACING: egui::Vec2 = egui::vec2(10.0, 2.0);

/// The type size, at most the body's, at which the open list's columns (`titles` and
/// `rows`, the state in monospace) fit the width left in `ui` side by side, never cut (at
/// least 7 points).
fn fitted_table_size(ui: &egui::Ui, titles: &[&str; 7], rows: &[[String; 7]]) -> f32 {
    let body = egui::TextStyle::Body.resolve(ui.style()).size;
    let probe = 10.0;
    let width = |text: &str, column: usize| {
        let font = if column == 1 {
            egui::FontId::monospace(probe)
        } else {
            egui::FontId::proportional(probe)
        };
        ui.fonts_mut(|f| {
            f.layout_no_wrap(text.to_owned(), font, egui::Color32::WHITE)
                .size()
                .x
        })
    };
    // The widest cell of each column at the probe's size (text widths scale with the size).
    let columns: f32 = (0..titles.len())
        .map(|c| {
            (std::iter::once(titles[c]).chain(rows.iter().map(|r| r[c].as_str())))
                .map(|t| width(t, c))
                .fold(0.0, f32::max)
        })
        .sum();
    let gaps = TABLE_SPACING.x * (titles.len() - 1) as f32 + 8.0;
    let room = (ui.available_width() - gaps).max(1.0);
    (probe * room / columns.max(1.0)).clamp(7.0, body)
}

/// The micro-steps: back and forward one event (take the state off the frontier, the goal
/// test, each successor put on), through the expansions; two buttons in the row of `ui`.
fn micro_steps_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, m: &Moment) {
    let back = ui
        .add_enabled(
            m.position > 0 || m.event.is_some(),
            egui::Button::new("< event"),
        )
        .on_hover_text("one micro-step back: a push, the goal test, the take");
    let forward = ui
        .add_enabled(
            m.position < m.len || (m.event.is_some()),
            egui::Button::new("event >"),
        )
        .on_hover_text("one micro-step forward: take the state, test it, push each successor");
    if back.clicked() {
        app.push(AppCommand::Learn(LearnCommand::MicroStep(false)));
    }
    if forward.clicked() {
        app.push(AppCommand::Learn(LearnCommand::MicroStep(true)));
    }
}

/// Predict mode: its switch, its score and what the last guess was told.
fn predict_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let mut predict = app.windows.learn.predict;
    ui.checkbox(&mut predict, "Predict the next state")
        .on_hover_text("click the square you think is expanded next; the run waits for you");
    if predict != app.windows.learn.predict {
        app.push(AppCommand::Learn(LearnCommand::Predict(predict)));
    }
    if !app.windows.learn.predict {
        return;
    }
    let (right, tries) = app.windows.learn.score;
    ui.label(format!("Score: {right} right of {tries}."));
    if app.windows.learn.is_waiting() {
        ui.label(RichText::new("Waiting for the run to expand its next state…").weak());
    } else if let Some((good, text)) = &app.windows.learn.verdict {
        let colour = if *good {
            egui::Color32::from_rgb(30, 140, 60)
        } else {
            egui::Color32::from_rgb(200, 40, 40)
        };
        ui.label(RichText::new(text).color(colour));
    } else {
        let hint = match app.learn_moment() {
            Some((r, _)) if r.has_boards() => {
                "Click the board in the open list you think comes next."
            }
            Some(_) => "Click the square (or the open list's row) you think comes next.",
            // Every state is guessed in the open list; a grid's on the canvas too (a board's
            // canvas takes no guess): true before the run says which it is.
            None => {
                "Start a run, then guess the state it expands next: click its row in the open \
                 list (on a grid, its square on the canvas too)."
            }
        };
        ui.label(RichText::new(hint).weak());
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
        if numbers != app.windows.learn.numbers {
            app.push(AppCommand::Window(WindowCommand::LearnNumbers(numbers)));
        }
        let mut arrows = app.windows.learn.arrows;
        ui.checkbox(&mut arrows, "arrows to parents");
        if arrows != app.windows.learn.arrows {
            app.push(AppCommand::Window(WindowCommand::LearnArrows(arrows)));
        }
    })
    .response
    .on_hover_text("written where a square is large enough to read: zoom in on a large grid");
}

/// The open list at the moment, in the algorithm's order, the next state marked.
fn open_list_ui(
    app: &mut Panel<'_>,
    ui: &mut egui::Ui,
    moment: Option<(
        std::sync::Arc<crate::runs::recording::TraceRecorder>,
        Moment,
    )>,
) -> Option<f32> {
    let (recording, m) = moment?;
    let (algorithm, tie_break) = app.run_rules();
    // Built by the frame's work for the moment shown (see `AppState::tick_learn`).
    let list = (app.windows.learn).built_open_list(
        &recording,
        m.open_list_moment(),
        algorithm,
        tie_break,
    )?;
    let list = match list {
        Ok(list) => list,
        Err(why) => {
            ui.label(RichText::new(why.to_string()).weak());
            return None;
        }
    };
    ui.label(
        RichText::new(format!(
            "Open list: {}",
            crate::app::count(list.len() as u64, "state")
        ))
        .strong(),
    );
    // In Predict mode the next state is not given away; a click on a row is a guess.
    let predict = app.windows.learn.predict;
    let next = (m.next.as_ref())
        .map(|e| e.index)
        .filter(|_| !predict && m.event.is_none());
    // At the newest moment of a run going on (paused after a step) its next expansion is not
    // recorded yet: the list's first, in the order the algorithm takes its states, is next.
    let head_is_next =
        m.next.is_none() && m.ending == Ending::Running && !predict && m.event.is_none();
    let value =
        |v: Option<f32>| v.map_or("-".to_owned(), |v| crate::search::format_cost(f64::from(v)));
    // Each row's cells as written: the marker, the state, g, h, f, depth and parent.
    let rows: Vec<[String; 7]> = (list.iter().take(MAX_ROWS).enumerate())
        .map(|(row, entry)| {
            let is_next = next.is_some_and(|j| is_expansion(&recording, entry, j))
                || (head_is_next && row == 0);
            let name = match (entry.place, entry.board) {
                (Some(place), _) => square(place),
                (None, Some(k)) => recording
                    .generated_picture(k)
                    .map_or("a board".to_owned(), |b| b.board_line()),
                (None, None) => "?".to_owned(),
            };
            let parent = match (entry.parent, entry.parent_expansion) {
                (Some(parent), _) => square(parent),
                (None, Some(j)) => format!("n of moment {}", j + 1),
                (None, None) => "start".to_owned(),
            };
            [
                (if is_next { "next >" } else { "" }).to_owned(),
                name,
                value(entry.g),
                value(entry.h),
                value(entry.f(algorithm)),
                entry.depth.to_string(),
                parent,
            ]
        })
        .collect();
    let titles = ["", "state", "g", "h", "f", "depth", "parent"];
    let size = fitted_table_size(ui, &titles, &rows);
    let text = |t: &str| RichText::new(t).size(size);
    // Where the rows a lesson keeps in sight end: the titles' row and the first
    // `ROWS_IN_SIGHT`, each as high as its type and the spacing.
    let row = ui.fonts_mut(|f| f.row_height(&egui::FontId::proportional(size))) + TABLE_SPACING.y;
    let in_sight = ui.cursor().top() + row * (1 + list.len().min(ROWS_IN_SIGHT)) as f32;
    let mut pin = None;
    let mut guess = None;
    // Rows as high as their type (not a button's height): more of the list in sight.
    egui::Grid::new("open list")
        .striped(true)
        .min_col_width(0.0)
        .min_row_height(0.0)
        .spacing(TABLE_SPACING)
        .show(ui, |ui| {
            for title in titles {
                ui.label(text(title).weak());
            }
            ui.end_row();
            for (row, (entry, cells)) in list.iter().zip(&rows).enumerate() {
                let hover = if predict {
                    "guess that this state is expanded next"
                } else if entry.place.is_some() {
                    "pin this state on the canvas"
                } else {
                    "a board on the frontier"
                };
                ui.label(text(&cells[0]));
                let link = ui.add(egui::Link::new(
                    RichText::new(&cells[1]).monospace().size(size),
                ));
                if link.on_hover_text(hover).clicked() {
                    if predict {
                        guess = Some(row);
                    } else {
                        pin = entry.place.map(|p| p.cell);
                    }
                }
                for cell in &cells[2..] {
                    ui.label(text(cell));
                }
                ui.end_row();
            }
        });
    if let Some(row) = guess {
        app.push(AppCommand::Learn(LearnCommand::GuessEntry(row)));
    }
    if list.len() > MAX_ROWS {
        ui.label(RichText::new(format!("and {} more", list.len() - MAX_ROWS)).weak());
    }
    if let Some(cell) = pin {
        app.push(AppCommand::Timeline(TimelineCommand::PinCell(Some(cell))));
    }
    Some(in_sight)
}

/// The rows of the open list a lesson keeps in sight under the code.
const ROWS_IN_SIGHT: usize = 6;

/// The key under which a lesson's frame keeps the height from the code's end to the open
/// list's rows in sight, for the next frame's code size.
const UNDER_CODE: &str = "learn under code";

/// Keeps `under` (the height from the code's end to the open list's rows in sight) for the
/// next frame, asking for that frame when it changed.
fn keep_under_code(ui: &egui::Ui, under: f32) {
    let id = egui::Id::unique(UNDER_CODE);
    let before = ui.data(|d| d.get_temp::<f32>(id));
    if before.is_none_or(|b| (b - under).abs() > 0.5) {
        ui.data_mut(|d| d.insert_temp(id, under));
        ui.ctx().request_repaint();
    }
}

/// `font`, made smaller (down to 9 points) where its `lines` would leave less than the
/// last frame's height under the code in the `height` in sight.
fn fitted_to_height(ui: &egui::Ui, font: egui::FontId, lines: usize, height: f32) -> egui::FontId {
    let under = ui
        .data(|d| d.get_temp::<f32>(egui::Id::unique(UNDER_CODE)))
        .unwrap_or(0.0);
    let probe = egui::FontId::monospace(10.0);
    let per_point = ui.fonts_mut(|f| f.row_height(&probe)) / 10.0;
    let room = height - under - 4.0;
    let fits = room / (per_point * lines.max(1) as f32);
    egui::FontId::monospace(fits.min(font.size).max(9.0))
}

/// The caption under the canvas: the moment of the run in one sentence (shown while the
/// Learn window is open, and in classroom mode).
pub(crate) fn caption_ui(app: &Panel<'_>, ui: &mut egui::Ui) {
    let text = match app.learn_moment() {
        Some((_, m)) => m.caption(),
        None => "Press Start: each step of the search is told here.".to_owned(),
    };
    // Whole on its one line: the type as large as the width holds it, down to 7/10 of the
    // body's size; beyond that (classroom type beside both side panels) on two lines,
    // never cut (a caption cut says half the moment, the walk's W12).
    let (size, fits) = fitted_caption_size(ui, &text);
    let label = egui::Label::new(RichText::new(text).strong().size(size));
    ui.add(if fits { label.truncate() } else { label.wrap() });
}

/// The type size, at most the body's and at least [`CAPTION_LEAST`] of it, at which `text`
/// fits the width left in `ui` on one line, and whether it fits at that size.
fn fitted_caption_size(ui: &egui::Ui, text: &str) -> (f32, bool) {
    let body = egui::TextStyle::Body.resolve(ui.style()).size;
    let probe = 10.0;
    let width = ui.fonts_mut(|f| {
        f.layout_no_wrap(
            text.to_owned(),
            egui::FontId::proportional(probe),
            egui::Color32::WHITE,
        )
        .size()
        .x
    });
    let room = (ui.available_width() - 2.0).max(1.0);
    let fitted = probe * room / width.max(1.0);
    (
        fitted.clamp(body * CAPTION_LEAST, body),
        fitted >= body * CAPTION_LEAST,
    )
}

/// The least share of the body's type size the caption is written at.
const CAPTION_LEAST: f32 = 0.7;
