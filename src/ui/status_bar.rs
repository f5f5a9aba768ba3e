//! The status bar: the GIF export's progress, the status line, and what is under the
//! pointer (the square, its mark, what the search knew of it, what the type's view adds).

use eframe::egui::{self, Color32, RichText};

use super::timeline_bar;
use crate::app::{AppState, Panel};
use crate::puzzles;

/// The status bar: the GIF export's progress, the status line, and on the right what is
/// under the pointer. Neither text runs into the other: the readout takes at most half the
/// bar, the status line the rest; each is cut with "…" and shown whole on hover.
/// The colour of an error in the status bar.
const STATUS_ERROR: Color32 = Color32::from_rgb(200, 40, 40);

/// What the status bar says: the puzzle's standing error (see
/// [`crate::app::Description::standing_error`]) while the status line itself is no error, and
/// the status line. A later message (a save, a move played) never hides a script error that
/// still stands. `view` is the view of the puzzle on screen in `app`.
pub fn status_shown(
    app: &AppState,
    view: Option<&dyn crate::app::TypeView>,
) -> (Option<String>, crate::app::Status) {
    let status = app.status().clone();
    let standing = (!status.is_error)
        .then(|| view.and_then(|v| v.describe(&crate::app::ViewRead::read(app)).standing_error))
        .flatten();
    (standing, status)
}

pub(super) fn status_bar_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let (standing, status) = status_shown(app, app.type_view());
    let mut text = RichText::new(&status.text);
    if status.is_error {
        text = text.color(STATUS_ERROR);
    }
    let readout = app.canvas.hover.and_then(|cell| hover_readout(app, cell));
    ui.horizontal(|ui| {
        timeline_bar::gif_progress_ui(app, ui);
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if let Some(readout) = readout {
                let size = egui::vec2(ui.available_width() * 0.5, ui.available_height());
                ui.allocate_ui_with_layout(
                    size,
                    egui::Layout::right_to_left(egui::Align::Center),
                    |ui| ui.add(egui::Label::new(RichText::new(readout).weak()).truncate()),
                );
                ui.separator();
            }
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                if let Some(error) = &standing {
                    ui.add(egui::Label::new(RichText::new(error).color(STATUS_ERROR)).truncate());
                    ui.separator();
                }
                ui.add(egui::Label::new(text).truncate());
            });
        });
    });
}

/// What the status bar says of the square under the pointer: its row and column, what it
/// holds, the search's mark on it, and what the type's view adds.
fn hover_readout(app: &Panel<'_>, cell: puzzles::Cell) -> Option<String> {
    let (rows, cols) = app.puzzle().dims();
    if cell.row >= rows || cell.col >= cols {
        return None;
    }
    let mut parts = vec![format!("row {}, column {}", cell.row, cell.col)];
    parts.extend(
        app.type_view().and_then(|v| {
            (v.canvas_extras(&crate::app::ViewRead::read(app), Some(cell))).hover_text
        }),
    );
    match app.marks().mark(cell) {
        crate::app::Mark::Closed => parts.push("expanded (closed set)".into()),
        crate::app::Mark::Frontier => parts.push("on the frontier".into()),
        crate::app::Mark::None => {}
    }
    parts.extend(score_text(app, cell));
    Some(parts.join(" · "))
}

/// What the search knew of the state at `cell` when it expanded it: g, h and f, its place in
/// the order of expansion and the square it was reached from. For puzzles whose states are
/// (square, side entered from), the state expanded first.
fn score_text(app: &AppState, cell: puzzles::Cell) -> Option<String> {
    let score = app.expansion_at(cell)?;
    let mut text = match (score.g, score.h) {
        (Some(g), Some(h)) => format!("g {g}, h {h}, f {} · ", g + h),
        (Some(g), None) => format!("g {g} · "),
        _ => String::new(),
    };
    text += &format!("expanded #{}", score.index + 1);
    match score.parent {
        Some(parent) => {
            let (dr, dc) = (
                parent.cell.row as i64 - cell.row as i64,
                parent.cell.col as i64 - cell.col as i64,
            );
            text += &format!(
                " · reached from row {}, column {} ({})",
                parent.cell.row,
                parent.cell.col,
                direction(-dr, -dc)
            );
        }
        None => text += " · a start",
    }
    Some(text)
}

/// The compass word of a move by (`dr`, `dc`) rows and columns, with its length when it
/// is longer than a square ("down", "up-left", "right 3").
pub(super) fn direction(dr: i64, dc: i64) -> String {
    let vertical = match dr.signum() {
        -1 => "up",
        1 => "down",
        _ => "",
    };
    let horizontal = match dc.signum() {
        -1 => "left",
        1 => "right",
        _ => "",
    };
    let word = match (vertical, horizontal) {
        ("", "") => "same square",
        (v, "") => v,
        ("", h) => h,
        (v, h) => return with_length(format!("{v}-{h}"), dr.abs().max(dc.abs())),
    };
    with_length(word.to_owned(), dr.abs().max(dc.abs()))
}

fn with_length(word: String, length: i64) -> String {
    if length > 1 {
        format!("{word} {length}")
    } else {
        word
    }
}
