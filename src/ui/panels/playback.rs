//! The solution's playback (its buttons, counter and rate) and the solution's moves.

use eframe::egui::{self, RichText};

use crate::app::{AppCommand, Panel, SettingCommand};

/// The bar above the canvas, one row high whatever it holds, so the canvas never moves:
/// while a board puzzle is searched, the depth of the state being expanded; otherwise the
/// playback controls of the solution (First / Back / Next / Last, the move counter, Play
/// and its speed), disabled until there is one.
pub(in crate::ui) fn playback_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    crate::ui::rows::fixed_row(ui, "playback row", |row| playback_row_ui(app, row));
    ui.separator();
}

fn playback_row_ui(app: &mut Panel<'_>, row: &mut egui::Ui) {
    let view = app.marks();
    if app.is_scrubbed() {
        // The timeline shows a moment before the run's end: the solution is not found yet.
        // Out of the expansions recorded so far (the recording grows while the search
        // goes on).
        let (at, len) = (
            app.timeline()
                .map_or(0, |t| t.target.min(app.timeline_len())),
            app.timeline_len(),
        );
        let going = if app.is_running() {
            " (the search goes on)"
        } else {
            ""
        };
        let text = format!(
            "Timeline at expansion {at} of {len}{going}: the solution is not found yet at this \
             moment"
        );
        // Where the centre column is narrow (classroom mode's large type) the same in fewer
        // words, in sight whole.
        let text = if crate::ui::rows::text_width(row, &text) > row.available_width() {
            format!("Expansion {at} of {len}{going}: no solution yet")
        } else {
            text
        };
        row.label(RichText::new(text).strong());
    } else if app.is_running() && view.board.is_some() {
        row.label(
            RichText::new(expanding_words(
                view.depth,
                view.stats.max_depth,
                view.stats.expanded,
            ))
            .strong(),
        );
    } else {
        playback_controls_ui(app, row);
    }
}

/// What the playback row says while a board puzzle's search runs: the depth of the state
/// being expanded, the deepest so far and the states expanded (counted in words: "1 state").
fn expanding_words(depth: u64, deepest: u64, expanded: u64) -> String {
    format!(
        "Expanding a state at depth {} (deepest so far {}); {} expanded",
        depth,
        deepest,
        crate::app::count(expanded, "state")
    )
}

/// What the playback bar's move counter says until there is a solution.
const NO_SOLUTION: &str = "no solution yet";

/// The width the playback row's full controls take (the four names, the counter at its
/// widest, Play, the speed slider and its value), in points: a narrower centre column (800 x
/// 600 with the details panel open) gets the compact ones.
fn full_playback_width(ui: &egui::Ui, counter: &str) -> f32 {
    use crate::ui::rows::{text_width, widest};
    let spacing = ui.spacing();
    let (pad, gap) = (2.0 * spacing.button_padding.x, spacing.item_spacing.x);
    let names: f32 = ["First", "Back", "Next", "Last"]
        .iter()
        .map(|t| text_width(ui, t) + pad)
        .sum();
    names
        + widest(ui, &[counter, NO_SOLUTION])
        + 104.0
        + 80.0
        + text_width(ui, "100000 moves/s")
        + 8.0 * gap
}

/// A playback button: its name, or in a compact row a short sign with the name kept for
/// screen readers and the tooltip.
fn playback_button(
    ui: &mut egui::Ui,
    (name, short): (&str, &str),
    compact: bool,
    enabled: bool,
) -> egui::Response {
    if compact {
        crate::ui::rows::symbol_button(ui, enabled, short, name).on_hover_text(name)
    } else {
        ui.add_enabled(enabled, egui::Button::new(name))
    }
}

fn playback_controls_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let total = app
        .result()
        .filter(|r| r.solved)
        .map_or(0, |r| r.moves.len());
    let solved = app.result().is_some_and(|r| r.solved);
    let shown = app.shown_moves();
    let compact =
        ui.available_width() < full_playback_width(ui, &format!("move {total} of {total}"));
    let mut go = |ui: &mut egui::Ui, names: (&str, &str), enabled: bool, to: usize| {
        if playback_button(ui, names, compact, enabled).clicked() {
            app.push(AppCommand::ShowStep(to));
        }
    };
    go(ui, ("First", "|<"), shown > 0, 0);
    go(ui, ("Back", "<"), shown > 0, shown.saturating_sub(1));
    go(ui, ("Next", ">"), shown < total, shown + 1);
    go(ui, ("Last", ">|"), shown < total, total);
    // As wide as its longest text, so Play does not move as the counter grows.
    let counter = format!("move {shown} of {total}");
    if compact {
        let longest = format!("{total}/{total}");
        let (text, name) = if solved {
            (format!("{shown}/{total}"), counter.as_str())
        } else {
            ("-".to_owned(), NO_SOLUTION)
        };
        crate::ui::rows::steady_label(ui, text, &[longest.as_str()])
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, name));
    } else {
        let longest = format!("move {total} of {total}");
        let texts = [longest.as_str(), NO_SOLUTION];
        if solved {
            crate::ui::rows::steady_label(ui, counter, &texts);
        } else {
            crate::ui::rows::steady_label(ui, RichText::new(NO_SOLUTION).weak(), &texts);
        }
        ui.separator();
    }
    let playing = app.is_playing();
    let label = if playing { "Pause playback" } else { "Play" };
    let button = if compact {
        // As wide as "Pause", so the slider beside it does not move.
        let width =
            crate::ui::rows::widest(ui, &["Play", "Pause"]) + 2.0 * ui.spacing().button_padding.x;
        egui::Button::new(if playing { "Pause" } else { "Play" }).min_size(egui::vec2(width, 0.0))
    } else {
        egui::Button::new(label).min_size(egui::vec2(104.0, 0.0))
    };
    let response = ui.add_enabled(total > 0, button);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, total > 0, label));
    if response
        .on_hover_text("Play the solution back move by move")
        .clicked()
    {
        app.push(AppCommand::Play(!playing));
    }
    ui.spacing_mut().slider_width = if compact { 28.0 } else { 80.0 };
    let rate = app.settings.playback_rate;
    let mut chosen = rate;
    let slider = ui
        .add(
            egui::Slider::new(&mut chosen, 0.5..=crate::app::MAX_PLAYBACK_RATE)
                .logarithmic(true)
                .show_value(!compact)
                .suffix(" moves/s"),
        )
        .on_hover_text(format!(
            "Playback speed: {} moves/s (from half a move a second to 100,000: fast rates \
             play several moves a frame)",
            crate::ui::toolbar::speed_text(rate)
        ));
    if slider.changed() {
        app.push(AppCommand::Setting(SettingCommand::PlaybackRate(chosen)));
    }
}

pub(in crate::ui) fn solution_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let Some(report) = app.result() else {
        return;
    };
    let shown = app.shown_moves();
    ui.heading("Solution");
    for note in &report.notes {
        ui.label(crate::app::sentence(note));
    }
    // Only the rows in view are laid out, so a solution of 200,000 moves scrolls smoothly.
    let row_height = ui.spacing().interact_size.y;
    let mut clicked = None;
    // Its scroll bar scrolls it; the wheel scrolls the panel around it. When the move shown
    // changes (playback, the timeline, keys), the list scrolls to put it in the middle.
    const LIST_HEIGHT: f32 = 240.0;
    let mut area = egui::ScrollArea::vertical()
        .max_height(LIST_HEIGHT)
        .scroll_source(egui::scroll_area::ScrollSource::SCROLL_BAR)
        .id_salt("moves");
    // (A list seen for the first time opens at its first move.)
    let seen_id = ui.make_persistent_id("solution list: move shown");
    let seen = ui.data(|d| d.get_temp::<usize>(seen_id));
    if seen != Some(shown) {
        ui.data_mut(|d| d.insert_temp(seen_id, shown));
    }
    if seen.is_some_and(|seen| seen != shown) {
        let pitch = row_height + ui.spacing().item_spacing.y;
        let row = shown.saturating_sub(1) as f32;
        let height = ui.available_height().clamp(row_height, LIST_HEIGHT);
        area = area.vertical_scroll_offset((row * pitch - (height - pitch) / 2.0).max(0.0));
    }
    area.show_rows(ui, row_height, report.moves.len(), |ui, rows| {
        for i in rows {
            let Some(mv) = report.moves.get(i) else {
                break;
            };
            if ui
                .selectable_label(i + 1 == shown, format!("{}. {mv}", i + 1))
                .clicked()
            {
                clicked = Some(i + 1);
            }
        }
    });
    if let Some(step) = clicked {
        app.push(AppCommand::ShowStep(step));
    }
}

#[cfg(test)]
mod tests {
    /// The walk's W11: one state expanded is "1 state", not "1 states".
    #[test]
    fn the_running_row_counts_states_in_words() {
        assert_eq!(
            super::expanding_words(0, 0, 1),
            "Expanding a state at depth 0 (deepest so far 0); 1 state expanded"
        );
        assert!(super::expanding_words(3, 4, 12).ends_with("; 12 states expanded"));
    }
}
