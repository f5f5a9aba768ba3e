//! The grid maze's side-panel sections (editing, movement, generation, percolation, Moving AI
//! scenarios) and the percolation experiment's window.

use eframe::egui::{self, RichText};

use super::{Brush, Command, MazeView};
use crate::app::{AppCommand, ViewDraw};
use crate::puzzles::maze::generate::{Generator, MAX_CELLS};
use crate::puzzles::maze::percolation::SQUARE_LATTICE_THRESHOLD;
use crate::puzzles::maze::{self, Connectivity, GridHeuristic, Maze, Percolation};

/// What the side panel shows of the maze: its size and movement rules, copied each frame
/// (the squares are not: a frame's work must not grow with the grid).
#[derive(Clone, Copy)]
struct Shown {
    rows: usize,
    cols: usize,
    connectivity: Connectivity,
    corner_cutting: bool,
    heuristic: GridHeuristic,
    percolation: Percolation,
}

impl Shown {
    fn of(maze: &Maze) -> Self {
        Self {
            rows: maze.rows(),
            cols: maze.cols(),
            connectivity: maze.connectivity(),
            corner_cutting: maze.corner_cutting(),
            heuristic: maze.heuristic_kind(),
            percolation: maze.percolation(),
        }
    }
}

/// The grid maze's sections of the side panel.
pub(super) fn maze_ui(view: &mut MazeView, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
    let Some(maze) = super::maze(app).map(Shown::of) else {
        return;
    };
    edit_ui(view, app, ui, &maze);
    ui.separator();
    movement_ui(app, ui, &maze);
    let animating = view.generation_progress().is_some();
    egui::CollapsingHeader::new("Generate a maze")
        .id_salt("generate")
        .open(animating.then_some(true))
        .show(ui, |ui| generate_ui(view, app, ui));
    egui::CollapsingHeader::new("Percolation")
        .id_salt("percolation")
        .default_open(maze.percolation != Percolation::Off)
        .show(ui, |ui| percolation_ui(view, app, ui, &maze));
    egui::CollapsingHeader::new("Moving AI scenario")
        .id_salt("scenario")
        .open(view.scenario_position().is_some().then_some(true))
        .show(ui, |ui| scenario_ui(view, app, ui));
    // Open while the oracle is on: its tick, hints and distance map stay in sight after a
    // switch to another type and back.
    egui::CollapsingHeader::new("Distances")
        .id_salt("distances")
        .open(app.oracle().enabled.then_some(true))
        .show(ui, |ui| crate::ui::views::oracle_ui(app, ui));
}

fn edit_ui(view: &mut MazeView, app: &mut ViewDraw<'_>, ui: &mut egui::Ui, maze: &Shown) {
    ui.label(
        RichText::new(
            "Paint by dragging; drag the start (blue) or a goal (orange) to move it. \
             Scroll to zoom, right-drag to pan.",
        )
        .weak(),
    );
    let brush = view.settings.brush;
    ui.horizontal_wrapped(|ui| {
        ui.label("Brush:");
        for (b, name, tip) in [
            (
                Brush::Walls,
                "Walls",
                "Block squares (or free them, starting on a wall)",
            ),
            (Brush::Terrain(1), "Eraser", "Plain free squares (cost 1)"),
            (Brush::Goals, "Goals", "Click to add a goal or remove one"),
        ] {
            if ui
                .selectable_label(brush == b, name)
                .on_hover_text(tip)
                .clicked()
            {
                app.push_view(Command::Brush(b));
            }
        }
        let terrain = matches!(brush, Brush::Terrain(n) if n > 1);
        if ui
            .selectable_label(terrain, "Terrain")
            .on_hover_text("Paint a terrain cost, paid on entering the square")
            .clicked()
        {
            app.push_view(Command::Brush(Brush::Terrain(5)));
        }
    });
    if let Brush::Terrain(n) = brush
        && n > 1
    {
        let mut cost = n;
        ui.add(egui::Slider::new(&mut cost, 2..=maze::MAX_COST).text("terrain cost"));
        if cost != n {
            app.push_view(Command::Brush(Brush::Terrain(cost)));
        }
    }
    ui.horizontal(|ui| {
        crate::ui::views::undo_redo_ui(app, ui, "Ctrl+Z");
    });
    ui.horizontal(|ui| {
        let sides = maze::MIN_SIDE..=maze::MAX_EDIT_SIDE;
        if let Some((rows, cols)) = crate::ui::size_ui(ui, (maze.rows, maze.cols), sides) {
            app.push_view(Command::Resize(rows, cols));
        }
    });
    ui.add(
        egui::Slider::new(&mut view.settings.density, 0.0..=1.0)
            .fixed_decimals(2)
            .text("density"),
    );
    ui.horizontal(|ui| {
        let label = ui.label("Seed");
        ui.add(egui::DragValue::new(&mut view.settings.random_seed))
            .labelled_by(label.id)
            .on_hover_text("The seed of the random grid: the same seed makes the same grid");
        if ui
            .button("Next seed")
            .on_hover_text("Move the seed on by one and make its random grid")
            .clicked()
        {
            app.push_view(Command::Random { next: true });
        }
    });
    ui.horizontal(|ui| {
        if ui
            .button("Random")
            .on_hover_text("Block each square with the chosen density, from the seed shown")
            .clicked()
        {
            app.push_view(Command::Random { next: false });
        }
        if ui
            .button("Revert")
            .on_hover_text("Invert every square")
            .clicked()
        {
            app.push_view(Command::Invert);
        }
        if ui
            .button("Clear")
            .on_hover_text("Free every square")
            .clicked()
        {
            app.push_view(Command::Clear);
        }
    });
}

fn movement_ui(app: &mut ViewDraw<'_>, ui: &mut egui::Ui, maze: &Shown) {
    ui.horizontal(|ui| {
        ui.label("Moves:");
        for (c, name) in [
            (Connectivity::Four, "4 directions"),
            (Connectivity::Eight, "8 directions"),
        ] {
            if ui.radio(maze.connectivity == c, name).clicked() {
                app.push_view(Command::Connectivity(c));
            }
        }
    });
    let mut cut = maze.corner_cutting;
    let eight = maze.connectivity == Connectivity::Eight;
    if ui
        .add_enabled(eight, egui::Checkbox::new(&mut cut, "Cut corners"))
        .on_hover_text(
            "A diagonal may pass one blocked square beside it (never between two). \
             Diagonals cost sqrt(2) times the terrain cost.",
        )
        .changed()
    {
        app.push_view(Command::CornerCutting(cut));
    }
    let current = maze.heuristic;
    let label = |h: GridHeuristic| {
        if h.is_admissible(maze.connectivity) {
            h.name().to_owned()
        } else {
            format!("{} (not admissible)", h.name())
        }
    };
    egui::ComboBox::from_label("Heuristic")
        .selected_text(label(current))
        .show_ui(ui, |ui| {
            for h in GridHeuristic::ALL {
                if ui.selectable_label(h == current, label(h)).clicked() && h != current {
                    app.push_view(Command::Heuristic(h));
                }
            }
        });
}

fn generate_ui(view: &mut MazeView, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
    let settings = &mut view.settings;
    egui::ComboBox::from_label("Generator")
        .selected_text(settings.generator.label())
        .show_ui(ui, |ui| {
            for g in Generator::ALL {
                ui.selectable_value(&mut settings.generator, g, g.label());
            }
        });
    ui.horizontal(|ui| {
        let label = ui.label("Cell rows");
        ui.add(egui::DragValue::new(&mut settings.cell_rows).range(1..=MAX_CELLS))
            .labelled_by(label.id);
        let label = ui.label("columns");
        ui.add(egui::DragValue::new(&mut settings.cell_cols).range(1..=MAX_CELLS))
            .labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        let label = ui.label("Generator seed");
        ui.add(egui::DragValue::new(&mut settings.generator_seed))
            .labelled_by(label.id);
    });
    ui.add(
        egui::Slider::new(&mut settings.braid, 0.0..=1.0)
            .fixed_decimals(2)
            .text("braid"),
    )
    .on_hover_text("The fraction of dead ends removed, making loops (0: a perfect maze)");
    let generate = ui
        .horizontal(|ui| {
            ui.checkbox(&mut settings.animate, "Animate")
                .on_hover_text("Carve at the search speed (squares per second x 4)");
            ui.button("Generate").clicked()
        })
        .inner;
    if generate {
        app.push_view(Command::Generate);
    }
    if let Some(progress) = view.generation_progress() {
        ui.horizontal(|ui| {
            ui.add(egui::ProgressBar::new(progress).desired_width(160.0));
            if ui.button("Finish").clicked() {
                app.push_view(Command::FinishGeneration);
            }
        });
    }
}

fn percolation_ui(view: &MazeView, app: &mut ViewDraw<'_>, ui: &mut egui::Ui, maze: &Shown) {
    let current = maze.percolation;
    let name = |p: Percolation| match p {
        Percolation::Off => "off (start to goals)",
        Percolation::TopBottom => "top to bottom",
        Percolation::LeftRight => "left to right",
    };
    egui::ComboBox::from_label("Percolation")
        .selected_text(name(current))
        .show_ui(ui, |ui| {
            for p in [
                Percolation::Off,
                Percolation::TopBottom,
                Percolation::LeftRight,
            ] {
                if ui.selectable_label(p == current, name(p)).clicked() && p != current {
                    app.push_view(Command::Percolation(p));
                }
            }
        });
    ui.horizontal(|ui| {
        let mut show = view.show_cluster;
        if ui
            .add_enabled(
                current != Percolation::Off,
                egui::Checkbox::new(&mut show, "Show percolating cluster"),
            )
            .on_hover_text("Free squares joined to both opposite sides")
            .changed()
        {
            app.push_view(Command::ShowCluster(show));
        }
    });
    if ui.button("Percolation experiment…").clicked() {
        app.push_view(Command::ExperimentWindow(true));
    }
}

fn scenario_ui(view: &MazeView, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
    let position = view
        .scenario_position()
        .map(|(name, i, n)| (name.to_owned(), i, n));
    match position {
        None => {
            if ui
                .button("Open Moving AI scenario…")
                .on_hover_text("A .scen file; its map is found beside it or opened before")
                .clicked()
            {
                app.push(AppCommand::OpenMapDialog);
            }
        }
        Some((name, i, n)) => {
            ui.label(RichText::new(format!("Scenario {name}")).strong());
            ui.horizontal(|ui| {
                let label = ui.label("Problem");
                let mut shown = i + 1;
                let field = ui
                    .add(egui::DragValue::new(&mut shown).range(1..=n))
                    .labelled_by(label.id)
                    .on_hover_text("Go to problem N: type it or drag");
                ui.label(format!("of {n}"));
                if field.changed() && shown != i + 1 {
                    app.push_view(Command::ScenarioProblem(shown.saturating_sub(1)));
                }
            });
            // Wrapped: three buttons in one row are wider than the panel, which would grow
            // to hold them and keep that width on every type until a restart.
            ui.horizontal_wrapped(|ui| {
                if ui
                    .add_enabled(i > 0, egui::Button::new("Previous problem"))
                    .clicked()
                {
                    app.push_view(Command::ScenarioProblem(i - 1));
                }
                if ui
                    .add_enabled(i + 1 < n, egui::Button::new("Next problem"))
                    .clicked()
                {
                    app.push_view(Command::ScenarioProblem(i + 1));
                }
                if ui.button("Close scenario").clicked() {
                    app.push_view(Command::CloseScenario);
                }
            });
            run_all_ui(view, app, ui, n);
            if let Some(optimal) = view.scenario_optimal() {
                let verdict = app.result().filter(|r| r.solved).map(|r| {
                    if (r.cost - optimal).abs() <= 1e-4 {
                        format!("computed {:.4}: matches", r.cost)
                    } else {
                        format!("computed {:.4}: differs", r.cost)
                    }
                });
                ui.label(format!(
                    "stated optimal {optimal:.4}{}",
                    verdict.map_or(String::new(), |v| format!("; {v}"))
                ));
            }
        }
    }
}

/// "Run all": every problem with the chosen algorithm, in the background, then a summary
/// like the command line's (matches, states expanded, time).
fn run_all_ui(view: &MazeView, app: &mut ViewDraw<'_>, ui: &mut egui::Ui, total: usize) {
    let run = view.scenario_run();
    ui.horizontal_wrapped(|ui| {
        let running = run.is_some_and(|(_, _, summary)| summary.is_none());
        if running {
            if ui.button("Stop run").clicked() {
                app.push_view(Command::StopAllProblems);
            }
        } else if ui
            .button("Run all")
            .on_hover_text("Search every problem with the chosen algorithm and compare costs")
            .clicked()
        {
            app.push_view(Command::RunAllProblems);
        }
        match run {
            Some((done, matched, None)) => {
                ui.label(format!("{done} of {total} run, {matched} match"));
            }
            Some((_, _, Some(summary))) => {
                ui.add(egui::Label::new(summary.line(total)).wrap());
            }
            None => {}
        }
    });
}

/// The percolation experiment's window: its settings, Run and Stop, and the curve.
pub(super) fn experiment_window(view: &mut MazeView, app: &mut ViewDraw<'_>, ctx: &egui::Context) {
    if !view.experiment_window {
        return;
    }
    let mut open = true;
    let mut window = egui::Window::new("Percolation experiment")
        .open(&mut open)
        .default_size([460.0, 380.0]);
    // It opens over the canvas and stays there: never over the menu bar or the panels.
    if let Some(canvas) = app.canvas_rect() {
        window = window
            .default_pos(canvas.min + egui::vec2(12.0, 12.0))
            .constrain_to(canvas);
    }
    window.show(ctx, |ui| {
        ui.label(
            "For each probability that a square is free, random square grids are searched \
                 (breadth-first, from every free top square to any free bottom square); the \
                 plot shows the fraction that percolate.",
        );
        let s = &mut view.settings;
        ui.horizontal(|ui| {
            let label = ui.label("side");
            ui.add(egui::DragValue::new(&mut s.experiment_side).range(4..=256))
                .labelled_by(label.id);
            let label = ui.label("grids per point");
            ui.add(egui::DragValue::new(&mut s.experiment_trials).range(1..=1000))
                .labelled_by(label.id);
            let label = ui.label("steps");
            ui.add(egui::DragValue::new(&mut s.experiment_steps).range(2..=200))
                .labelled_by(label.id);
        });
        let running = view.experiment.as_ref().is_some_and(|e| e.is_running());
        ui.horizontal(|ui| {
            if running {
                if ui.button("Stop").clicked() {
                    app.push_view(Command::StopExperiment);
                }
            } else if ui.button("Run").clicked() {
                app.push_view(Command::RunExperiment);
            }
            if let Some(e) = &view.experiment {
                ui.add(
                    egui::ProgressBar::new(e.points.len() as f32 / e.expected as f32)
                        .desired_width(260.0)
                        .text(format!(
                            "{} x {} grids, {} per point",
                            e.side, e.side, e.trials
                        )),
                );
            }
        });
        let points: Vec<[f64; 2]> = view
            .experiment_points()
            .unwrap_or_default()
            .iter()
            .map(|p| [p.open, p.fraction])
            .collect();
        egui_plot::Plot::new("percolation plot")
            .height(240.0)
            .include_x(0.0)
            .include_x(1.0)
            .include_y(0.0)
            .include_y(1.0)
            .x_axis_label("probability a square is free")
            .y_axis_label("fraction percolating")
            // Top left: the curve is near 0 there, so the legend never covers it.
            .legend(egui_plot::Legend::default().position(egui_plot::Corner::LeftTop))
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.line(
                    egui_plot::Line::new("percolating", points).color(crate::ui::palette::START),
                );
                plot.vline(
                    egui_plot::VLine::new("threshold 0.5927", SQUARE_LATTICE_THRESHOLD)
                        .color(crate::ui::palette::SOLUTION),
                );
            });
    });
    if !open {
        app.push_view(Command::ExperimentWindow(false));
    }
}
