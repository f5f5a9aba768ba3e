//! The panels of the window: menu bar, side panel, status bar and the puzzle canvas. Each
//! `*_ui` function draws one part and pushes [`AppCommand`]s; nothing changes the app's state
//! until the commands are applied at the end of the frame.

mod canvas;
pub mod views;

use eframe::egui::{self, Color32, RichText};

use std::path::PathBuf;

use crate::app::{AppCommand, PuzzleLabApp, Settings, race};
use crate::puzzles;
use crate::search::{Algorithm, Weight};

pub use canvas::{
    CANVAS_LABEL, GridTexture, LEGEND, TEXTURE_SQUARES, canvas_is_texture, canvas_ui,
};

/// Opens the window. `file` is a puzzle to open instead of the remembered one.
///
/// # Errors
/// eframe's error when no window can be created.
pub fn run_gui(file: Option<PathBuf>) -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("puzzlelab")
            .with_inner_size([1200.0, 800.0])
            .with_min_inner_size([640.0, 480.0])
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "puzzlelab",
        options,
        Box::new(move |cc| {
            let settings = cc
                .storage
                .and_then(|s| eframe::get_value::<Settings>(s, eframe::APP_KEY))
                .unwrap_or_default();
            let mut app = PuzzleLabApp::new(settings);
            app.repaint = Some(cc.egui_ctx.clone());
            if let Some(path) = file {
                app.apply(AppCommand::OpenPath(path));
            }
            Ok(Box::new(app))
        }),
    )
}

impl eframe::App for PuzzleLabApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame_ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, self.settings_to_save());
    }
}

impl PuzzleLabApp {
    /// Draws the whole window into `ui` and runs the frame's logic: the app's work before
    /// drawing, the panels (which push commands), then the commands applied.
    /// [`eframe::App::ui`] calls this; so do the UI tests.
    pub fn frame_ui(&mut self, ui: &mut egui::Ui) {
        if self.type_view().is_none() {
            self.install_views(views::REGISTRY);
        }
        self.begin_frame(ui.ctx());
        app_ui(self, ui);
        self.end_frame(ui.ctx());
    }
}

/// Draws the whole window.
fn app_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    egui::Panel::top("menu_bar").show(ui, |ui| menu_bar_ui(app, ui));
    egui::Panel::bottom("status_bar").show(ui, |ui| status_bar_ui(app, ui));
    egui::Panel::left("side_panel")
        .resizable(true)
        .default_size(300.0)
        .min_size(260.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| side_panel_ui(app, ui));
        });
    egui::CentralPanel::default().show(ui, |ui| {
        if app.race.is_some() {
            race_panes_ui(app, ui);
        } else {
            playback_ui(app, ui);
            searching_board_ui(app, ui);
            canvas_ui(app, ui);
        }
    });
    let ctx = ui.ctx().clone();
    app.with_view(|view, app| view.windows_ui(app, &ctx));
    undo_shortcuts(app, ui);
}

/// Ctrl+Z undoes, Ctrl+Y and Ctrl+Shift+Z redo (the app's history or the view's own).
fn undo_shortcuts(app: &mut PuzzleLabApp, ui: &egui::Ui) {
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    let undo = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Z);
    let redo = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Y);
    let redo_shift = egui::KeyboardShortcut::new(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    let (u, r) = ui.input_mut(|i| {
        // The longer shortcut first, so Ctrl+Shift+Z is not taken for Ctrl+Z.
        let r = i.consume_shortcut(&redo_shift) || i.consume_shortcut(&redo);
        (i.consume_shortcut(&undo), r)
    });
    if u {
        app.push(AppCommand::Undo);
    }
    if r {
        app.push(AppCommand::Redo);
    }
}

fn menu_bar_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui.button("Open…").clicked() {
                app.push(AppCommand::OpenDialog);
            }
            if ui.button("Save").clicked() {
                app.push(AppCommand::Save);
            }
            if ui.button("Save as…").clicked() {
                app.push(AppCommand::SaveDialog);
            }
            ui.separator();
            if ui.button("Export canvas as PNG…").clicked() {
                app.push(AppCommand::ExportCanvasDialog);
            }
            let solved = app.result().is_some_and(|r| r.solved);
            if ui
                .add_enabled(solved, egui::Button::new("Export solution moves…"))
                .clicked()
            {
                app.push(AppCommand::ExportMovesDialog);
            }
        });
        ui.menu_button("Puzzles", |ui| {
            for (puzzle_type, shipped) in puzzles::shipped() {
                if ui
                    .button(format!("{} — {}", puzzle_type.label, shipped.file))
                    .clicked()
                {
                    app.push(AppCommand::OpenShipped(puzzle_type, shipped));
                }
            }
        });
        if let Some(path) = &app.settings.path {
            ui.separator();
            ui.label(RichText::new(path.display().to_string()).weak());
        }
    });
}

fn status_bar_ui(app: &PuzzleLabApp, ui: &mut egui::Ui) {
    let status = app.status();
    let text = RichText::new(&status.text);
    if status.is_error {
        ui.label(text.color(Color32::from_rgb(200, 40, 40)));
    } else {
        ui.label(text);
    }
}

fn side_panel_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    ui.heading("Puzzle");
    let current = app.puzzle.puzzle_type().name;
    for puzzle_type in puzzles::TYPES {
        if ui
            .radio(current == puzzle_type.name, puzzle_type.label)
            .clicked()
        {
            app.push(AppCommand::SelectType(puzzle_type));
        }
    }
    ui.separator();
    app.with_view(|view, app| view.tools_ui(app, ui));
    ui.separator();
    ui.heading("Search");
    algorithm_ui(app, ui);
    controls_ui(app, ui);
    speed_ui(app, ui);
    ui.separator();
    stats_ui(app, ui);
    legend_ui(ui);
    if !app.view().samples.is_empty() {
        plots_ui(app, ui);
    }
    if app.result().is_some_and(|r| r.solved) {
        ui.separator();
        solution_ui(app, ui);
    }
    ui.separator();
    race_ui(app, ui);
    if !app.results.is_empty() {
        ui.separator();
        results_ui(app, ui);
    }
}

/// Race mode's controls: which algorithms race (2 to 4), start, stop, close.
fn race_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    egui::CollapsingHeader::new("Race algorithms")
        .id_salt("race")
        .default_open(app.race.is_some())
        .show(ui, |ui| {
            ui.label("Pick 2 to 4; they run side by side at the same speed.");
            ui.horizontal_wrapped(|ui| {
                for algorithm in app.puzzle.algorithms() {
                    let mut chosen = app.race_choice.iter().any(|a| a.same_kind(algorithm));
                    if ui.checkbox(&mut chosen, algorithm.name()).changed() {
                        app.commands.push(AppCommand::RaceToggle(algorithm));
                    }
                }
            });
            ui.horizontal(|ui| {
                let running = app.race().is_some_and(race::Race::is_running);
                let count = app.race_choice.len();
                if ui
                    .add_enabled(
                        race::RACERS.contains(&count) && !running,
                        egui::Button::new("Start race"),
                    )
                    .clicked()
                {
                    app.commands.push(AppCommand::StartRace);
                }
            });
        });
}

/// The race: one pane per algorithm, side by side, each with its live statistics and its own
/// canvas of the search.
fn race_panes_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    if app.race.is_none() {
        return;
    }
    let mut cache = app.picture_cache.take();
    let puzzle_picture = canvas::cached_picture(app, &mut cache);
    let Some(race) = app.race.as_ref() else {
        return;
    };
    let n = race.lanes.len();
    ui.horizontal(|ui| {
        if race.is_running() {
            if ui.button("Stop race").clicked() {
                app.commands.push(AppCommand::StopRace);
            }
        } else if ui.button("Close race").clicked() {
            app.commands.push(AppCommand::CloseRace);
        }
        ui.label(format!("{n} algorithms at the same speed"));
    });
    ui.separator();
    let revision = app.revision;
    let textures_id = egui::Id::unique("race textures");
    let mut textures: Vec<Option<GridTexture>> = ui
        .data_mut(|d| d.remove_temp(textures_id))
        .unwrap_or_default();
    textures.resize_with(n, || None);
    let budget = app.work_budget / n as u32;
    ui.columns(n, |columns| {
        for (i, (lane, ui)) in race.lanes.iter().zip(columns.iter_mut()).enumerate() {
            ui.heading(lane.algorithm.label());
            let stats = &lane.view.stats;
            let state = match (&lane.result, &lane.error) {
                (_, Some(e)) => format!("failed: {e}"),
                (Some(r), _) if r.solved => format!(
                    "solved: cost {}{}",
                    crate::search::format_cost(r.cost),
                    if r.optimal { " (optimal)" } else { "" }
                ),
                (Some(r), _) => format!("{:?}", r.outcome).to_lowercase(),
                (None, None) => "searching…".into(),
            };
            ui.label(RichText::new(state).strong());
            ui.label(format!(
                "expanded {}  frontier {}  closed {}  depth {}",
                stats.expanded, stats.frontier, stats.max_closed, lane.view.depth
            ));
            let (response, painter) =
                ui.allocate_painter(ui.available_size(), egui::Sense::hover());
            let label = format!("race pane {}", lane.algorithm.name());
            response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, label.clone()));
            let result = lane.result.as_ref();
            let picture = match (result.and_then(|r| r.boards.last()), &lane.view.board) {
                (Some(last), _) => last,
                (None, Some(board)) => board,
                (None, None) => puzzle_picture,
            };
            let scene = canvas::Scene {
                picture: std::borrow::Cow::Borrowed(picture),
                view: &lane.view,
                result,
                shown: result.map_or(0, |r| r.moves.len()),
                transition: None,
                sliding: None,
                selected: None,
                ghost: None,
                zoom: 1.0,
                pan: egui::Vec2::ZERO,
                cluster: None,
                revision,
                budget,
            };
            let mut texture = textures.get_mut(i).and_then(Option::take);
            canvas::paint_scene(&painter, response.rect, &scene, &mut texture);
            if let Some(slot) = textures.get_mut(i) {
                *slot = texture;
            }
        }
    });
    app.picture_cache = cache;
    ui.data_mut(|d| d.insert_temp(textures_id, textures));
}

/// The session's results table: a row per finished run, newest last, with export and clear.
fn results_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    let n = app.results.len();
    egui::CollapsingHeader::new(format!(
        "Results ({n} run{})",
        if n == 1 { "" } else { "s" }
    ))
    .id_salt("results")
    .default_open(false)
    .show(ui, |ui| {
        egui::ScrollArea::both()
            .max_height(200.0)
            .id_salt("results table")
            .show(ui, |ui| {
                egui::Grid::new("results grid")
                    .striped(true)
                    .num_columns(6)
                    .show(ui, |ui| {
                        for title in [
                            "algorithm",
                            "solved",
                            "cost",
                            "expanded",
                            "peak closed",
                            "ms",
                        ] {
                            ui.label(RichText::new(title).strong());
                        }
                        ui.end_row();
                        for r in &app.results {
                            ui.label(&r.algorithm).on_hover_text(format!(
                                "{}{}",
                                r.puzzle,
                                if r.heuristic.is_empty() {
                                    String::new()
                                } else {
                                    format!(", heuristic: {}", r.heuristic)
                                }
                            ));
                            ui.label(match (r.solved, r.optimal) {
                                (true, true) => "optimal",
                                (true, false) => "yes",
                                (false, _) => r.outcome.as_str(),
                            });
                            ui.label(if r.solved {
                                crate::search::format_cost(r.cost)
                            } else {
                                "-".into()
                            });
                            ui.label(r.expanded.to_string());
                            ui.label(r.peak_closed.to_string());
                            ui.label(format!("{:.1}", r.time_ms));
                            ui.end_row();
                        }
                    });
            });
        ui.horizontal(|ui| {
            if ui
                .button("Export results…")
                .on_hover_text("CSV or JSON, by the file's extension")
                .clicked()
            {
                app.commands.push(AppCommand::ExportDialog);
            }
            if ui.button("Clear results").clicked() {
                app.commands.push(AppCommand::ClearResults);
            }
        });
    });
}

/// "Rows" and "Columns" fields for a board now `size` (rows, columns), each side within
/// `sides`. Returns the new size when the user changed it.
pub(crate) fn size_ui(
    ui: &mut egui::Ui,
    size: (usize, usize),
    sides: std::ops::RangeInclusive<usize>,
) -> Option<(usize, usize)> {
    let (mut rows, mut cols) = size;
    let label = ui.label("Rows");
    ui.add(egui::DragValue::new(&mut rows).range(sides.clone()))
        .labelled_by(label.id);
    let label = ui.label("Columns");
    ui.add(egui::DragValue::new(&mut cols).range(sides))
        .labelled_by(label.id);
    ((rows, cols) != size).then_some((rows, cols))
}

fn algorithm_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    let mut chosen = app.algorithm();
    egui::ComboBox::from_label("Algorithm")
        .selected_text(chosen.label())
        .width(190.0)
        .show_ui(ui, |ui| {
            for algorithm in app.puzzle.algorithms() {
                let is_chosen = chosen.same_kind(algorithm);
                if ui.selectable_label(is_chosen, algorithm.label()).clicked() && !is_chosen {
                    chosen = algorithm;
                }
            }
        });
    if let Algorithm::WeightedAStar(weight) = chosen {
        let mut w = weight.value();
        let response = ui.add(
            egui::Slider::new(&mut w, 1.0..=5.0)
                .step_by(0.1)
                .text("weight w (g + w·h)"),
        );
        if response.changed()
            && let Some(weight) = Weight::new(w)
        {
            chosen = Algorithm::WeightedAStar(weight);
        }
    }
    if chosen != app.algorithm() {
        app.push(AppCommand::SetAlgorithm(chosen));
    }
    let optimal = if app.puzzle.guarantees_optimal(chosen) {
        "finds a least-cost solution"
    } else {
        "may find a costlier solution"
    };
    ui.label(RichText::new(optimal).weak());
}

fn controls_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        if app.is_running() {
            if ui.button("Stop").clicked() {
                app.push(AppCommand::Stop);
            }
            if app.is_paused() {
                if ui.button("Resume").clicked() {
                    app.push(AppCommand::Resume);
                }
            } else if ui.button("Pause").clicked() {
                app.push(AppCommand::Pause);
            }
        } else if ui.button("Start").clicked() {
            app.push(AppCommand::Start);
        }
        if ui
            .button("Step")
            .on_hover_text("Expand one state, then pause")
            .clicked()
        {
            app.push(AppCommand::Step);
        }
    });
}

fn speed_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    let (mut speed, mut full) = (app.settings.speed, app.settings.full_speed);
    let slider = ui.add_enabled(
        !full,
        egui::Slider::new(&mut speed, 1.0..=5000.0)
            .logarithmic(true)
            .suffix(" /s")
            .text("speed"),
    );
    let check = ui.checkbox(&mut full, "Full speed");
    if slider.changed() || check.changed() {
        app.push(AppCommand::SetSpeed(speed, full));
    }
    memory_limit_ui(app, ui);
}

/// The memory budget of each search, in MiB (a setting; the default is half of the memory
/// this process may use).
fn memory_limit_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
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
            app.settings.memory_limit_mib = Some(mib);
        }
        if app.settings.memory_limit_mib.is_some()
            && ui
                .small_button("Default")
                .on_hover_text("Go back to half of the memory available")
                .clicked()
        {
            app.settings.memory_limit_mib = None;
        }
    });
}

fn stats_ui(app: &PuzzleLabApp, ui: &mut egui::Ui) {
    let view = app.view();
    let stats = &view.stats;
    ui.heading("Statistics");
    egui::Grid::new("stats")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            let mut row = |name: &str, value: String| {
                ui.label(name);
                ui.label(value);
                ui.end_row();
            };
            row("States expanded", stats.expanded.to_string());
            row("States generated", stats.generated.to_string());
            row(
                "Frontier (places now)",
                view.frontier_places_reported.to_string(),
            );
            row("Peak frontier", stats.max_frontier.to_string());
            row("Closed set", stats.max_closed.to_string());
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
                row("Time", format!("{elapsed:.2} ms"));
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

/// Live plots of the run: frontier and closed-set sizes against states expanded, and the
/// states expanded per depth layer (or, for IDA*, per iteration).
fn plots_ui(app: &PuzzleLabApp, ui: &mut egui::Ui) {
    let view = app.view();
    egui::CollapsingHeader::new("Plots")
        .id_salt("plots")
        .default_open(true)
        .show(ui, |ui| {
            let column =
                |i: usize| -> Vec<[f64; 2]> { view.samples.iter().map(|s| [s[0], s[i]]).collect() };
            let (frontier, closed) = (column(1), column(2));
            egui_plot::Plot::new("sizes plot")
                .height(130.0)
                .legend(egui_plot::Legend::default())
                .x_axis_label("states expanded")
                .allow_scroll(false)
                .show(ui, |plot| {
                    plot.line(egui_plot::Line::new("frontier", frontier).color(FRONTIER_PLOT));
                    plot.line(egui_plot::Line::new("closed set", closed).color(CLOSED_PLOT));
                });
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
                egui_plot::Plot::new("layers plot")
                    .height(110.0)
                    .x_axis_label(axis)
                    .allow_scroll(false)
                    .show(ui, |plot| {
                        plot.bar_chart(egui_plot::BarChart::new(name, bars).color(CLOSED_PLOT));
                    });
            }
        });
}

/// The most bars the layers plot draws.
const MAX_BARS: usize = 400;

/// Plot colours, the canvas's frontier and closed-set colours.
const FRONTIER_PLOT: Color32 = Color32::from_rgb(120, 200, 120);
const CLOSED_PLOT: Color32 = Color32::from_rgb(110, 160, 230);

fn legend_ui(ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        for (color, meaning) in LEGEND {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, color);
            ui.label(RichText::new(meaning).small());
        }
    });
}

/// While a board puzzle (sliding blocks or tiles) is searched, the canvas shows the state
/// being expanded; this line above it says how deep that state is.
fn searching_board_ui(app: &PuzzleLabApp, ui: &mut egui::Ui) {
    let view = app.view();
    if app.is_running() && view.board.is_some() {
        ui.label(
            RichText::new(format!(
                "Expanding a state at depth {} (deepest so far {}); {} states expanded",
                view.depth, view.stats.max_depth, view.stats.expanded
            ))
            .strong(),
        );
        ui.separator();
    }
}

/// The playback controls of a solution, in a bar above the canvas so they stay in sight:
/// First / Back / Next / Last, the move counter, Play and its speed.
fn playback_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    let Some(report) = app.result().filter(|r| r.solved) else {
        return;
    };
    let total = report.moves.len();
    let shown = app.shown_moves();
    ui.horizontal(|ui| {
        let mut go = |ui: &mut egui::Ui, label: &str, enabled: bool, to: usize| {
            if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                app.commands.push(AppCommand::ShowStep(to));
            }
        };
        go(ui, "First", shown > 0, 0);
        go(ui, "Back", shown > 0, shown.saturating_sub(1));
        go(ui, "Next", shown < total, shown + 1);
        go(ui, "Last", shown < total, total);
        ui.label(format!("move {shown} of {total}"));
        ui.separator();
        let playing = app.is_playing();
        let label = if playing { "Pause playback" } else { "Play" };
        if ui
            .add_enabled(total > 0, egui::Button::new(label))
            .clicked()
        {
            app.commands.push(AppCommand::Play(!playing));
        }
        ui.add(
            egui::Slider::new(
                &mut app.settings.playback_rate,
                0.5..=crate::app::MAX_PLAYBACK_RATE,
            )
            .logarithmic(true)
            .suffix(" moves/s")
            .text("playback"),
        )
        .on_hover_text(
            "From half a move a second to 100,000: fast rates play several moves a frame",
        );
    });
    ui.separator();
}

fn solution_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    let Some(report) = app.result() else {
        return;
    };
    let shown = app.shown_moves();
    ui.heading("Solution");
    for note in &report.notes {
        ui.label(note);
    }
    // Only the rows in view are laid out, so a solution of 200,000 moves scrolls smoothly.
    let row_height = ui.spacing().interact_size.y;
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .max_height(240.0)
        .id_salt("moves")
        .show_rows(ui, row_height, report.moves.len(), |ui, rows| {
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
