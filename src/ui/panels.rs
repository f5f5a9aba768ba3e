//! The side panel's search sections (algorithm, controls, speed, memory limit, statistics,
//! plots, legend, solution list) and the central panel's playback bar.

use eframe::egui::{self, Color32, RichText};

use crate::app::{AppCommand, AppState, Panel, SettingCommand, WindowCommand};

/// The memory budget of each search, in MiB (a setting; the default is half of the memory
/// this process may use).
pub(super) fn memory_limit_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    use crate::search::limits::{MIB, default_memory_budget, format_bytes};
    let default_mib = default_memory_budget() / MIB;
    let mut mib = app.settings.memory_limit_mib.unwrap_or(default_mib);
    ui.horizontal(|ui| {
        ui.label("Memory limit");
        let drag = ui
            .add(
                egui::DragValue::new(&mut mib)
                    .range(16..=1024 * 1024)
                    .speed(16.0)
                    .suffix(" MiB"),
            )
            .on_hover_text(format!(
                "A search stops, with a message, before its closed set, frontier and stacks \
                 would use more than this. Default: half of the memory available, {}.",
                format_bytes(default_memory_budget())
            ));
        if drag.changed() {
            app.push(AppCommand::Setting(SettingCommand::MemoryLimit(Some(mib))));
        }
        if app.settings.memory_limit_mib.is_some()
            && ui
                .small_button("Default")
                .on_hover_text("Go back to half of the memory available")
                .clicked()
        {
            app.push(AppCommand::Setting(SettingCommand::MemoryLimit(None)));
        }
    });
}

/// Which of the states of equal priority the best-first searches expand first (a setting;
/// see [`crate::search::TieBreak`]). Applies from the next run.
pub(super) fn tie_break_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    use crate::search::TieBreak;
    let chosen = app.settings.tie_break;
    egui::ComboBox::from_label("Equal f: expand")
        .selected_text(chosen.label())
        .show_ui(ui, |ui| {
            for t in TieBreak::ALL {
                if ui.selectable_label(t == chosen, t.label()).clicked() {
                    app.push(AppCommand::Setting(SettingCommand::TieBreak(t)));
                }
            }
        })
        .response
        .on_hover_text(
            "Among states of equal priority f on the open list (Dijkstra, A*, weighted A*, \
             greedy, JPS, bidirectional A*), which is expanded first. The cost found does not \
             change; the number of states expanded can, a lot (larger g first is the default).",
        );
}

/// What the Statistics panel says during a race instead of figures.
pub const RACE_STATS_NOTE: &str =
    "A race is on: each algorithm's figures are in its pane of the race.";

/// The run's statistics. While the timeline is scrubbed back, the figures of that moment
/// (expanded, frontier, closed set of places, depth) come first under "At this moment", and
/// the figures that do not move with the timeline under "Final run".
pub(super) fn stats_ui(app: &AppState, ui: &mut egui::Ui) {
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
             expanded ones (the closed set) and the frontier's. IDA* remembers only the path \
             it stands on: the longest such path"
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

/// Live plots of the run: frontier and closed-set sizes against states expanded, and the
/// states expanded per depth layer (or, for IDA*, per iteration).
pub(super) fn plots_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
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
    super::palette::START,
    super::palette::GOAL,
    super::palette::FRONTIER,
    super::palette::DFS_PATH,
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
const FRONTIER_PLOT: Color32 = super::palette::FRONTIER;
const CLOSED_PLOT: Color32 = super::palette::CLOSED;

/// The legend of the puzzle on screen: what each colour on the canvas means, only the
/// entries that can appear now (see [`crate::app::TypeView::legend`]).
pub(super) fn legend_ui(app: &Panel<'_>, ui: &mut egui::Ui) {
    let Some(mut entries) = app
        .type_view()
        .map(|v| v.legend(&crate::app::ViewRead::read(app)))
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
            super::palette::MOVE_BETTER,
            "arrow: a move one closer to the goal",
        ),
        (
            crate::puzzles::oracle::Rating::Neutral,
            super::palette::MOVE_NEUTRAL,
            "arrow: a move that leaves the distance",
        ),
        (
            crate::puzzles::oracle::Rating::Worse,
            super::palette::MOVE_WORSE,
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
                let color = super::palette::themed(color, dark);
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
    use super::palette::{CLOSED, FREE, heat_color};
    use crate::app::ShadeKind;
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

/// The bar above the canvas, one row high whatever it holds, so the canvas never moves:
/// while a board puzzle is searched, the depth of the state being expanded; otherwise the
/// playback controls of the solution (First / Back / Next / Last, the move counter, Play
/// and its speed), disabled until there is one.
pub(super) fn playback_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    super::rows::fixed_row(ui, "playback row", |row| playback_row_ui(app, row));
    ui.separator();
}

fn playback_row_ui(app: &mut Panel<'_>, row: &mut egui::Ui) {
    let view = app.marks();
    if app.is_scrubbed() {
        // The timeline shows a moment before the run's end: the solution is not found yet.
        // Out of the expansions recorded so far (the recording grows while the search
        // goes on).
        let text = format!(
            "Timeline at expansion {} of {}{}: the solution is not found yet at this moment",
            app.timeline()
                .map_or(0, |t| t.target.min(app.timeline_len())),
            app.timeline_len(),
            if app.is_running() {
                " (the search goes on)"
            } else {
                ""
            }
        );
        row.label(RichText::new(text).strong());
    } else if app.is_running() && view.board.is_some() {
        row.label(
            RichText::new(format!(
                "Expanding a state at depth {} (deepest so far {}); {} states expanded",
                view.depth, view.stats.max_depth, view.stats.expanded
            ))
            .strong(),
        );
    } else {
        playback_controls_ui(app, row);
    }
}

/// What the playback bar's move counter says until there is a solution.
const NO_SOLUTION: &str = "no solution yet";

/// The width the playback row's full controls take (the four names, the counter at its
/// widest, Play, the speed slider and its value), in points: a narrower centre column (800 x
/// 600 with the details panel open) gets the compact ones.
fn full_playback_width(ui: &egui::Ui, counter: &str) -> f32 {
    use super::rows::{text_width, widest};
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
        super::rows::symbol_button(ui, enabled, short, name).on_hover_text(name)
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
        super::rows::steady_label(ui, text, &[longest.as_str()])
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, name));
    } else {
        let longest = format!("move {total} of {total}");
        let texts = [longest.as_str(), NO_SOLUTION];
        if solved {
            super::rows::steady_label(ui, counter, &texts);
        } else {
            super::rows::steady_label(ui, RichText::new(NO_SOLUTION).weak(), &texts);
        }
        ui.separator();
    }
    let playing = app.is_playing();
    let label = if playing { "Pause playback" } else { "Play" };
    let button = if compact {
        // As wide as "Pause", so the slider beside it does not move.
        let width =
            super::rows::widest(ui, &["Play", "Pause"]) + 2.0 * ui.spacing().button_padding.x;
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
            super::toolbar::speed_text(rate)
        ));
    if slider.changed() {
        app.push(AppCommand::Setting(SettingCommand::PlaybackRate(chosen)));
    }
}

pub(super) fn solution_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
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
