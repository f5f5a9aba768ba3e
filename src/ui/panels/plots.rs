//! The run's live plots: frontier and closed set against expansions, the states per depth
//! layer or per iteration, the race's lanes, Korf's per-f table.

use eframe::egui::{self, Color32, RichText};

use crate::app::{AppCommand, AppState, Panel, WindowCommand};

/// Live plots of the run: frontier and closed-set sizes against states expanded, and the
/// states expanded per depth layer (or, for IDA*, per iteration).
pub(in crate::ui) fn plots_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let mut open_tree = false;
    plots_body_ui(app, ui, &mut open_tree);
    if open_tree {
        app.push(AppCommand::Window(WindowCommand::TreeWindow(true)));
    }
}

fn plots_body_ui(app: &AppState, ui: &mut egui::Ui, open_tree: &mut bool) {
    let view = app.marks();
    egui::CollapsingHeader::new("Plots")
        .id_salt("plots")
        .default_open(true)
        .show(ui, |ui| {
            // A race plots its lanes, not the single run it replaced.
            if let Some(race) = app.race() {
                race_plots_ui(race, ui);
                return;
            }
            // A finished run is drawn from its recording (every expansion is there, however
            // fast it ran); a live one from the snapshots it sent.
            let track = app
                .timeline()
                .and_then(|t| t.track.as_ref())
                .filter(|_| !app.is_running());
            let samples: &[[f64; 3]] = track.map_or(&view.samples, |t| t.sizes());
            // At most MAX_POINTS points a line (the last sample always): a frame's plotting
            // stays small however long the run.
            let every = samples.len().div_ceil(MAX_POINTS).max(1);
            let column = |i: usize| -> Vec<[f64; 2]> {
                let mut points: Vec<[f64; 2]> = samples
                    .iter()
                    .step_by(every)
                    .map(|s| [s[0], s[i]])
                    .collect();
                if let Some(last) = samples.last()
                    && points.last().is_some_and(|p| p[0] != last[0])
                {
                    points.push([last[0], last[i]]);
                }
                points
            };
            if !view.iteration_nodes.is_empty() {
                // IDA*'s frontier is its path, remade each iteration: a line of it against
                // the expansions would be a saw of wedges. Its figure is the bars below.
                ui.label(
                    RichText::new(
                        "IDA* keeps no open list or closed set, only the path it is on: see the \
                         states expanded per iteration.",
                    )
                    .weak(),
                );
            } else {
                let (frontier, closed) = (column(1), column(2));
                let at = app
                    .is_scrubbed()
                    .then(|| app.timeline().map(|t| t.target as f64))
                    .flatten();
                run_plot("sizes plot", view.id, 130.0)
                    .legend(egui_plot::Legend::default().position(egui_plot::Corner::LeftTop))
                    .x_axis_label("states expanded")
                    .show(ui, |plot| {
                        plot.line(egui_plot::Line::new("frontier", frontier).color(FRONTIER_PLOT));
                        plot.line(egui_plot::Line::new("closed set", closed).color(CLOSED_PLOT));
                        if let Some(at) = at {
                            plot.vline(
                                egui_plot::VLine::new("timeline position", at).color(Color32::GRAY),
                            );
                        }
                    });
            }
            let (counts, name, axis) = if view.iteration_nodes.is_empty() {
                (&view.layers, "states per depth", "depth")
            } else {
                (
                    &view.iteration_nodes,
                    "states per iteration",
                    "IDA* iteration",
                )
            };
            if counts.len() > 1 {
                let first = usize::from(!view.iteration_nodes.is_empty());
                // At most MAX_BARS bars: a search 200,000 layers deep is binned, so a frame's
                // work does not grow with the depth.
                let width = counts.len().div_ceil(MAX_BARS);
                let bars = counts
                    .chunks(width)
                    .enumerate()
                    .map(|(b, chunk)| {
                        let centre = (b * width + first) as f64 + (width as f64 - 1.0) / 2.0;
                        let total: u64 = chunk.iter().sum();
                        egui_plot::Bar::new(centre, total as f64).width(width as f64 * 0.9)
                    })
                    .collect();
                let axis = if width > 1 {
                    format!("{axis} (bars of {width})")
                } else {
                    axis.to_owned()
                };
                run_plot("layers plot", view.id, 110.0)
                    .x_axis_label(axis)
                    .show(ui, |plot| {
                        plot.bar_chart(egui_plot::BarChart::new(name, bars).color(CLOSED_PLOT));
                    });
            }
            if let Some(report) = app.result().filter(|r| !r.per_f.is_empty()) {
                per_f_plot_ui(ui, view.id, report);
            }
            if ui
                .button("Search tree...")
                .on_hover_text(
                    "the expanded states as a tree, by order of expansion and depth or g; \
                     click a node to go to its expansion",
                )
                .clicked()
            {
                *open_tree = true;
            }
        });
}

/// The colours of a race's lanes in its plots, in the order of the lanes.
const LANE_COLORS: [Color32; 4] = [
    crate::ui::palette::START,
    crate::ui::palette::GOAL,
    crate::ui::palette::FRONTIER,
    crate::ui::palette::DFS_PATH,
];

/// A lane's lines in a race's plots: its name, its colour, its frontier against its states
/// expanded, and its states expanded per depth.
struct LaneLines {
    label: String,
    color: Color32,
    frontier: Vec<[f64; 2]>,
    layers: Vec<[f64; 2]>,
}

/// A race's plots: each lane's frontier against its states expanded (from its recording
/// once it has finished, as a single run's; live, from the figures it sent), and each
/// lane's states expanded per depth, a line a lane.
fn race_plots_ui(race: &crate::app::race::Race, ui: &mut egui::Ui) {
    let Some(first) = race.lanes.first() else {
        return;
    };
    let run = first.marks.id;
    let thin = |points: Vec<[f64; 2]>| -> Vec<[f64; 2]> {
        let every = points.len().div_ceil(MAX_POINTS).max(1);
        let last = points.last().copied();
        let mut kept: Vec<[f64; 2]> = points.into_iter().step_by(every).collect();
        if let Some(last) = last
            && kept.last() != Some(&last)
        {
            kept.push(last);
        }
        kept
    };
    let lanes: Vec<LaneLines> = race
        .lanes
        .iter()
        .zip(LANE_COLORS.iter().cycle())
        .map(|(lane, &color)| {
            let recorded = lane
                .track
                .as_ref()
                .map(|t| t.sizes())
                .filter(|s| lane.result.is_some() && !s.is_empty());
            let samples = recorded.unwrap_or(&lane.marks.samples);
            let frontier = thin(samples.iter().map(|s| [s[0], s[1]]).collect());
            let layers = thin(
                (lane.marks.layers.iter().enumerate())
                    .map(|(d, &n)| [d as f64, n as f64])
                    .collect(),
            );
            LaneLines {
                label: lane.label(),
                color,
                frontier,
                layers,
            }
        })
        .collect();
    run_plot("race sizes plot", run, 130.0)
        .legend(egui_plot::Legend::default().position(egui_plot::Corner::LeftTop))
        .x_axis_label("states expanded")
        .y_axis_label("frontier")
        .show(ui, |plot| {
            for l in &lanes {
                plot.line(egui_plot::Line::new(l.label.clone(), l.frontier.clone()).color(l.color));
            }
        });
    if lanes.iter().any(|l| l.layers.len() > 1) {
        run_plot("race layers plot", run, 110.0)
            .legend(egui_plot::Legend::default().position(egui_plot::Corner::RightTop))
            .x_axis_label("depth")
            .y_axis_label("states expanded")
            .show(ui, |plot| {
                for l in &lanes {
                    plot.line(
                        egui_plot::Line::new(l.label.clone(), l.layers.clone()).color(l.color),
                    );
                }
            });
    }
}

/// Korf's table of a finished best-first run: the states expanded per f value, binned into
/// at most [`MAX_BARS`] bars once per run (kept in the UI's memory, so a frame's work does
/// not grow with the number of f values).
fn per_f_plot_ui(ui: &mut egui::Ui, run: u64, report: &crate::puzzles::Report) {
    let id = egui::Id::unique(("per f bars", run));
    let cached: Option<std::sync::Arc<(Vec<[f64; 2]>, f64)>> = ui.data(|d| d.get_temp(id));
    let binned = cached.unwrap_or_else(|| {
        let layers = &report.per_f;
        let (lo, hi) = (
            layers.first().map_or(0.0, |l| l.f),
            layers.last().map_or(0.0, |l| l.f),
        );
        let width = ((hi - lo) / MAX_BARS as f64).max(1.0);
        let mut bars: Vec<[f64; 2]> = Vec::new();
        for l in layers {
            let centre = lo + ((l.f - lo) / width).floor() * width + width / 2.0;
            match bars.last_mut() {
                Some(b) if (b[0] - centre).abs() < 1e-9 => b[1] += l.expanded as f64,
                _ => bars.push([centre, l.expanded as f64]),
            }
        }
        let made = std::sync::Arc::new((bars, width));
        ui.data_mut(|d| d.insert_temp(id, made.clone()));
        made
    });
    let (bars, width) = (&binned.0, binned.1);
    let axis = if width > 1.0 {
        format!("f = g + h (bars of {width:.1})")
    } else {
        "f = g + h".to_owned()
    };
    let bars = bars
        .iter()
        .map(|&[x, y]| egui_plot::Bar::new(x, y).width(width * 0.9))
        .collect();
    run_plot("per f plot", run, 110.0)
        .x_axis_label(axis)
        .show(ui, |plot| {
            plot.bar_chart(
                egui_plot::BarChart::new("states expanded per f (Korf's table)", bars)
                    .color(FRONTIER_PLOT),
            );
        });
}

/// A plot of the run whose view is `run`, `height` points high: one per run (so each starts
/// fitted to its data) and fixed (no pan or zoom: the wheel scrolls the panel).
fn run_plot(name: &str, run: u64, height: f32) -> egui_plot::Plot<'static> {
    egui_plot::Plot::new((name, run))
        .height(height)
        .allow_scroll(false)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_boxed_zoom(false)
}

/// The most bars the layers plot draws.
const MAX_BARS: usize = 120;
/// The most points a line of the sizes plot draws.
const MAX_POINTS: usize = 400;

/// Plot colours, the canvas's frontier and closed-set colours.
const FRONTIER_PLOT: Color32 = crate::ui::palette::FRONTIER;
const CLOSED_PLOT: Color32 = crate::ui::palette::CLOSED;
