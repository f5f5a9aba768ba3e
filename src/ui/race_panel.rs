//! Race mode (several algorithms on the same puzzle, side by side) and the session's results
//! table.

use eframe::egui::{self, RichText};

use super::texture::GridTexture;
use crate::app::{AppCommand, AppState, Panel, race};
use crate::runs::results::ResultRow;

/// Race mode's controls: which algorithms race (2 to 4), start, stop, close.
pub(super) fn race_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    egui::CollapsingHeader::new("Race algorithms")
        .id_salt("race")
        .default_open(app.runs.race.is_some())
        .show(ui, |ui| {
            ui.label("Pick 2 to 4; they run side by side at the same speed.");
            ui.horizontal_wrapped(|ui| {
                for algorithm in app.work.puzzle.algorithms() {
                    let mut chosen = app.runs.race_choice.iter().any(|a| a.same_kind(algorithm));
                    if ui.checkbox(&mut chosen, algorithm.label()).changed() {
                        app.push(AppCommand::RaceToggle(algorithm));
                    }
                }
            });
            ui.horizontal(|ui| {
                let running = app.race().is_some_and(race::Race::is_running);
                let count = app.runs.race_choice.len();
                if ui
                    .add_enabled(
                        race::RACERS.contains(&count) && !running,
                        egui::Button::new("Start race"),
                    )
                    .clicked()
                {
                    app.push(AppCommand::StartRace);
                }
            });
            let algorithm = app.algorithm();
            let running = app.race().is_some_and(race::Race::is_running);
            if ui
                .add_enabled(
                    algorithm.has_open_list() && !running,
                    egui::Button::new("Race the tie-breaking policies"),
                )
                .on_hover_text(format!(
                    "{} four times side by side: ties to the larger g, the smaller g, first in \
                     and last in",
                    algorithm.label()
                ))
                .on_disabled_hover_text("For algorithms with an open list (A*, Dijkstra, …)")
                .clicked()
            {
                app.push(AppCommand::StartTieRace);
            }
        });
}

/// The race: one pane per algorithm, side by side, each with its live statistics and its own
/// canvas of the search.
pub(super) fn race_panes_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    if app.runs.race.is_none() {
        return;
    }
    let puzzle_picture = app.puzzle_picture();
    let Some(race) = app.runs.race.as_ref() else {
        return;
    };
    let n = race.lanes.len();
    let mut sent = None;
    ui.horizontal(|ui| {
        if race.is_running() {
            if ui.button("Stop race").clicked() {
                sent = Some(AppCommand::StopRace);
            }
        } else if ui.button("Close race").clicked() {
            sent = Some(AppCommand::CloseRace);
        }
        ui.label(format!("{n} algorithms at the same speed"));
    });
    ui.separator();
    let revision = app.edits.revision;
    let textures_id = egui::Id::unique("race textures");
    let mut textures: Vec<Option<GridTexture>> = ui
        .data_mut(|d| d.remove_temp(textures_id))
        .unwrap_or_default();
    textures.resize_with(n, || None);
    let deadline = app.work_deadline();
    ui.columns(n, |columns| {
        for (i, (lane, ui)) in race.lanes.iter().zip(columns.iter_mut()).enumerate() {
            ui.heading(lane.label());
            let stats = &lane.marks.stats;
            let state = match (&lane.result, &lane.error) {
                (_, Some(e)) => format!("failed: {e}"),
                (Some(r), _) if r.solved => format!(
                    "solved: cost {}{}",
                    crate::search::format_cost(r.cost),
                    if r.optimal { " (optimal)" } else { "" }
                ),
                (Some(r), _) => r.outcome.label().to_owned(),
                (None, None) => "searching…".into(),
            };
            ui.label(RichText::new(state).strong());
            ui.label(format!(
                "expanded {}  frontier {}  reached {}  depth {}",
                stats.expanded, stats.frontier, stats.max_closed, lane.marks.depth
            ));
            let (response, painter) =
                ui.allocate_painter(ui.available_size(), egui::Sense::hover());
            let label = match lane.tie_break {
                Some(t) => format!("race pane {} {}", lane.algorithm.name(), t.name()),
                None => format!("race pane {}", lane.algorithm.name()),
            };
            response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, label.clone()));
            let result = lane.result.as_ref();
            let picture = match (result.and_then(|r| r.boards.last()), &lane.marks.board) {
                (Some(last), _) => last,
                (None, Some(board)) => board,
                (None, None) => &*puzzle_picture,
            };
            let scene = super::scene::Scene {
                picture: std::borrow::Cow::Borrowed(picture),
                marks: &lane.marks,
                result,
                shown: result.map_or(0, |r| r.moves.len()),
                transition: None,
                sliding: None,
                selected: None,
                ghost: None,
                zoom: 1.0,
                pan: egui::Vec2::ZERO,
                cluster: None,
                board: super::scene::is_board(picture),
                revision,
                // The frame's work time left, shared among the panes still to draw.
                deadline: {
                    let now = std::time::Instant::now();
                    now + deadline.saturating_duration_since(now) / (n - i) as u32
                },
            };
            let mut texture = textures.get_mut(i).and_then(Option::take);
            super::paint::paint_scene(&painter, response.rect, &scene, &mut texture);
            if let Some(slot) = textures.get_mut(i) {
                *slot = texture;
            }
        }
    });
    // Each pane's drawn changes go back to its lane's marks after drawing.
    if let Some(command) = sent {
        app.push(command);
    }
    for (lane, texture) in textures.iter().enumerate() {
        if let Some((id, changes)) = texture.as_ref().map(GridTexture::drawn) {
            app.push(AppCommand::Canvas(
                crate::app::CanvasCommand::LaneMarksDrawn(lane, id, changes),
            ));
        }
    }
    ui.data_mut(|d| d.insert_temp(textures_id, textures));
}

/// The results table: a row per finished run (kept across restarts), in full-width columns
/// sorted by the header clicked last (click again to reverse), with export and clear.
pub(super) fn results_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let n = app.runs.results.len();
    egui::CollapsingHeader::new(format!(
        "Results ({n} run{})",
        if n == 1 { "" } else { "s" }
    ))
    .id_salt("results")
    .default_open(false)
    .show(ui, |ui| {
        // Solid scroll bars: a floating one is drawn only while the pointer is over the table
        // (the scroll area reads the style of the `ui` it is shown in).
        ui.scope(|ui| {
            ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
            results_table_ui(app, ui);
        });
        ui.horizontal(|ui| {
            if ui
                .button("Export results…")
                .on_hover_text("CSV or JSON, by the file's extension")
                .clicked()
            {
                app.push(AppCommand::ExportDialog);
            }
            if ui.button("Clear results").clicked() {
                app.push(AppCommand::ClearResults);
            }
        });
    });
}

/// The table's columns: title, and how two rows compare by it.
type Compare = fn(&ResultRow, &ResultRow) -> std::cmp::Ordering;
const COLUMNS: [(&str, Compare); 7] = [
    ("puzzle", |a, b| a.puzzle.cmp(&b.puzzle)),
    ("algorithm", |a, b| {
        a.algorithm_label().cmp(&b.algorithm_label())
    }),
    ("outcome", |a, b| {
        (a.solved, a.optimal).cmp(&(b.solved, b.optimal))
    }),
    ("cost", |a, b| a.cost.total_cmp(&b.cost)),
    ("expanded", |a, b| a.expanded.cmp(&b.expanded)),
    // The Statistics panel's "States reached" (the export's "peak closed"): the closed set
    // and the frontier, which the Legend's "closed" (expanded) is not.
    ("reached", |a, b| a.peak_closed.cmp(&b.peak_closed)),
    ("ms", |a, b| a.time_ms.total_cmp(&b.time_ms)),
];

/// The sort order: a column and whether it ascends (`None`: the order the runs ended).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Sort(Option<(usize, bool)>);

fn results_table_ui(app: &AppState, ui: &mut egui::Ui) {
    let sort_id = egui::Id::unique("results sort");
    let mut sort: Sort = ui.data(|d| d.get_temp(sort_id)).unwrap_or_default();
    let mut order: Vec<usize> = (0..app.runs.results.len()).collect();
    if let Some((column, ascending)) = sort.0 {
        let compare = COLUMNS[column].1;
        order.sort_by(|&i, &j| {
            let o = compare(&app.runs.results[i], &app.runs.results[j]);
            if ascending { o } else { o.reverse() }
        });
    }
    let row_height = ui.spacing().interact_size.y;
    // The side panel is narrower than the table: its cells keep their text on one line (a
    // wrapped name overflowed its row), and the scroll bar under it stays in sight, the cue
    // that more columns lie to the right.
    egui::ScrollArea::horizontal()
        .id_salt("results scroll")
        .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
        .show(ui, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            egui_extras::TableBuilder::new(ui)
                .id_salt("results table")
                .striped(true)
                .resizable(true)
                .max_scroll_height(220.0)
                .columns(egui_extras::Column::auto().at_least(40.0), COLUMNS.len())
                .header(row_height, |mut header| {
                    for (i, (title, _)) in COLUMNS.iter().enumerate() {
                        header.col(|ui| {
                            let arrow = match sort.0 {
                                Some((c, true)) if c == i => " ^",
                                Some((c, false)) if c == i => " v",
                                _ => "",
                            };
                            if ui
                                .button(RichText::new(format!("{title}{arrow}")).strong())
                                .on_hover_text("Sort by this column; click again to reverse")
                                .clicked()
                            {
                                sort.0 = match sort.0 {
                                    Some((c, asc)) if c == i => Some((i, !asc)),
                                    _ => Some((i, true)),
                                };
                            }
                        });
                    }
                })
                .body(|body| {
                    body.rows(row_height, order.len(), |mut row| {
                        let Some(r) = order
                            .get(row.index())
                            .and_then(|&i| app.runs.results.get(i))
                        else {
                            return;
                        };
                        row.col(|ui| {
                            ui.label(&r.puzzle);
                        });
                        row.col(|ui| {
                            let ties = crate::search::TieBreak::from_name(&r.tie_break);
                            let label = match ties {
                                Some(t) if t != crate::search::TieBreak::default() => {
                                    format!("{} ({})", r.algorithm_label(), t.name())
                                }
                                _ => r.algorithm_label(),
                            };
                            let mut hover = if r.heuristic.is_empty() {
                                "no heuristic".to_owned()
                            } else {
                                format!("heuristic: {}", r.heuristic)
                            };
                            if let Some(t) = ties {
                                hover += &format!("; ties: {}", t.label());
                            }
                            ui.label(label).on_hover_text(hover);
                        });
                        row.col(|ui| {
                            // Solved (optimal or not), or why the run ended without a solution.
                            let said = match (r.solved, r.optimal) {
                                (true, true) => "solved, optimal".to_owned(),
                                (true, false) => "solved".to_owned(),
                                (false, _) => r.outcome.replace('_', " "),
                            };
                            let label = ui.label(said);
                            if !r.message.is_empty() {
                                label.on_hover_text(&r.message);
                            }
                        });
                        row.col(|ui| {
                            ui.label(if r.solved {
                                crate::search::format_cost(r.cost)
                            } else {
                                "-".into()
                            });
                        });
                        row.col(|ui| {
                            ui.label(r.expanded.to_string());
                        });
                        row.col(|ui| {
                            ui.label(r.peak_closed.to_string());
                        });
                        row.col(|ui| {
                            ui.label(format!("{:.1}", r.time_ms));
                        });
                    });
                });
        });
    ui.data_mut(|d| d.insert_temp(sort_id, sort));
}
