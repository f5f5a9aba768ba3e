//! The canvas's legend: each colour that can appear now and what it means.

use eframe::egui::{self, Color32};

use crate::app::{AppState, Panel};

/// The legend of the puzzle on screen: what each colour on the canvas means, only the
/// entries that can appear now (see [`crate::app::TypeView::describe`]).
pub(in crate::ui) fn legend_ui(app: &Panel<'_>, ui: &mut egui::Ui) {
    let Some(mut entries) = app
        .type_view()
        .map(|v| v.describe(&crate::app::ViewRead::read(app)).legend)
    else {
        return;
    };
    shaded_legend(app, &mut entries);
    // The oracle's arrows, when drawn.
    let arrows = app.windows.oracle.arrows();
    let shown = |r: crate::puzzles::oracle::Rating| arrows.iter().any(|a| a.rating == r);
    for (rating, color, meaning) in [
        (
            crate::puzzles::oracle::Rating::Better,
            crate::ui::palette::MOVE_BETTER,
            "arrow: a move one closer to the goal",
        ),
        (
            crate::puzzles::oracle::Rating::Neutral,
            crate::ui::palette::MOVE_NEUTRAL,
            "arrow: a move that leaves the distance",
        ),
        (
            crate::puzzles::oracle::Rating::Worse,
            crate::ui::palette::MOVE_WORSE,
            "arrow: a move farther from the goal",
        ),
    ] {
        if shown(rating) {
            entries.push((color, meaning.to_owned()));
        }
    }
    egui::CollapsingHeader::new("Legend")
        .id_salt("legend")
        .default_open(true)
        .show(ui, |ui| {
            let dark = ui.visuals().dark_mode;
            for (color, meaning) in entries {
                // As the canvas draws it in this theme.
                let color = crate::ui::palette::themed(color, dark);
                ui.horizontal(|ui| {
                    let size = egui::vec2(16.0, 16.0);
                    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
                    ui.painter().rect_filled(rect, 2.0, color);
                    ui.painter().rect_stroke(
                        rect,
                        2.0,
                        egui::Stroke::new(1.0, Color32::from_gray(90)),
                        egui::StrokeKind::Inside,
                    );
                    ui.add(egui::Label::new(meaning).wrap());
                });
            }
        });
}

/// The legend's entries for the timeline's "Colour by" and "Only the branch", as the canvas
/// draws them: the closed set coloured by a quantity replaces the closed set's entry with
/// the colours of its least and greatest values; a branch adds the faded marks off it.
fn shaded_legend(app: &AppState, entries: &mut Vec<(Color32, String)>) {
    use crate::app::ShadeKind;
    use crate::ui::palette::{CLOSED, FREE, heat_color};
    // A race's panes draw their lanes' own marks, unshaded.
    let Some(shade) = app.marks().shade.as_ref().filter(|_| app.race().is_none()) else {
        return;
    };
    match shade.kind {
        ShadeKind::Heat { quantity, min, max } => {
            let name = match quantity {
                crate::runs::recording::Quantity::Order => "expansion order",
                q => q.label(),
            };
            let value = |v: f64| {
                if v.fract() == 0.0 {
                    format!("{v:.0}")
                } else {
                    format!("{v:.2}")
                }
            };
            let heat = [
                (
                    heat_color(1),
                    format!("closed, coloured by {name}: least, {}", value(min)),
                ),
                (
                    heat_color(255),
                    format!("closed, coloured by {name}: greatest, {}", value(max)),
                ),
            ];
            match entries.iter().position(|(c, _)| *c == CLOSED) {
                Some(i) => {
                    entries.splice(i..=i, heat);
                }
                None => entries.extend(heat),
            }
        }
        ShadeKind::Branch => {
            entries.push((
                CLOSED.lerp_to_gamma(FREE, 0.8),
                "marks off the branch, faded".to_owned(),
            ));
        }
    }
}
