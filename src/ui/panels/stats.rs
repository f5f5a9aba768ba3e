//! The run's figures: live, at the timeline's moment, or of the finished run.

use eframe::egui::{self, RichText};

use crate::app::AppState;

/// What the Statistics panel says during a race instead of figures.
pub const RACE_STATS_NOTE: &str =
    "A race is on: each algorithm's figures are in its pane of the race.";

/// The run's statistics. While the timeline is scrubbed back, the figures of that moment
/// (expanded, frontier, closed set of places, depth) come first under "At this moment", and
/// the figures that do not move with the timeline under "Final run".
pub(in crate::ui) fn stats_ui(app: &AppState, ui: &mut egui::Ui) {
    ui.heading("Statistics");
    if app.race().is_some() {
        // The marks here are the single run's from before the race: its figures would pass
        // for the race's.
        ui.label(RACE_STATS_NOTE);
        return;
    }
    if app.is_scrubbed()
        && let Some(report) = app.result()
    {
        scrubbed_stats_ui(app, report, ui);
        return;
    }
    let view = app.marks();
    let stats = app.shown_stats();
    egui::Grid::new("stats")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let mut row = |name: &str, value: String| {
                let label = ui.label(name);
                if let Some(help) = term_help(name) {
                    label.on_hover_text(help);
                }
                ui.label(value);
                ui.end_row();
            };
            row("States expanded", stats.expanded.to_string());
            row("States generated", stats.generated.to_string());
            row("Frontier", stats.frontier.to_string());
            row("Peak frontier", stats.max_frontier.to_string());
            row("States reached", stats.max_closed.to_string());
            row("Depth", format!("{} (max {})", view.depth, stats.max_depth));
            if stats.iterations > 0 {
                row("IDA* iteration", stats.iterations.to_string());
                row("IDA* bound (g + h)", format!("{}", stats.threshold));
            }
            let elapsed = match app.result() {
                Some(r) => r.stats.elapsed_ms,
                None => stats.elapsed_ms,
            };
            if let Some(r) = app.result() {
                row("Time", crate::search::format_ms(elapsed));
                row(
                    "Peak memory",
                    crate::search::limits::format_bytes(r.stats.peak_memory_bytes),
                );
            }
            if let Some(r) = app.result().filter(|r| r.solved) {
                row("Solution cost", crate::search::format_cost(r.cost));
                row(
                    "Optimal",
                    if r.optimal { "yes" } else { "not guaranteed" }.into(),
                );
            }
        });
}

/// What a statistic's name means, in words a newcomer knows (its tooltip).
fn term_help(name: &str) -> Option<&'static str> {
    Some(match name {
        "States expanded" => "States taken off the frontier and whose moves were tried",
        "States generated" => "States reached by a move, counted each time (repeats too)",
        "Frontier" => {
            "States reached but not yet expanded, waiting their turn (the open list), now. \
             IDA* keeps no open list: its frontier is the successors generated along the \
             path it stands on and not yet searched"
        }
        "Peak frontier" => {
            "The most states ever waiting on the frontier at once (for IDA*, successors \
             generated along its path and not yet searched)"
        }
        "States reached" => {
            "States the search has reached and remembers, so that it knows a repeat: the \
             expanded ones (the closed set) and the frontier's, and the goal a run returns, \
             on neither (breadth-first search returns it as soon as it is reached, the \
             best-first searches when they take it off the frontier). IDA* remembers only \
             the path it stands on: the longest such path"
        }
        "Depth" => "Moves from the start of the state being expanded (and the deepest so far)",
        _ => return None,
    })
}

/// The statistics while the timeline shows an earlier moment than the run's end: that
/// moment's figures, then the final run's, each group labelled.
fn scrubbed_stats_ui(app: &AppState, report: &crate::puzzles::Report, ui: &mut egui::Ui) {
    let view = app.marks();
    let (now, last) = (&view.stats, &report.stats);
    let grid = |ui: &mut egui::Ui, id: &str, rows: Vec<(&str, String)>| {
        egui::Grid::new(id)
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for (name, value) in rows {
                    ui.label(name);
                    ui.label(value);
                    ui.end_row();
                }
            });
    };
    ui.label(
        RichText::new(format!(
            "At this moment (expansion {} of {})",
            now.expanded, last.expanded
        ))
        .strong(),
    );
    let mut moment = vec![
        ("States expanded", now.expanded.to_string()),
        ("Frontier", now.frontier.to_string()),
    ];
    if view.board.is_none() {
        moment.push(("States reached", now.max_closed.to_string()));
    }
    moment.push(("Depth", view.depth.to_string()));
    grid(ui, "stats-moment", moment);
    ui.label(RichText::new("Final run").strong());
    let mut fin = vec![
        ("States expanded", last.expanded.to_string()),
        ("States generated", last.generated.to_string()),
        ("Peak frontier", last.max_frontier.to_string()),
        ("States reached", last.max_closed.to_string()),
        ("Max depth", last.max_depth.to_string()),
        ("Time", crate::search::format_ms(last.elapsed_ms)),
        (
            "Peak memory",
            crate::search::limits::format_bytes(last.peak_memory_bytes),
        ),
    ];
    if report.solved {
        fin.push(("Solution cost", crate::search::format_cost(report.cost)));
        fin.push((
            "Optimal",
            if report.optimal {
                "yes"
            } else {
                "not guaranteed"
            }
            .into(),
        ));
    }
    grid(ui, "stats-final", fin);
}
