//! The "State space" window: the explored space of the puzzle on screen in numbers, its
//! distance histogram, its state graph (laid out on a background thread; a click opens the
//! state clicked), and buttons that open its hardest, farthest or a random position.

use eframe::egui::{self, Color32, RichText, Sense, vec2};

use crate::app::space_layout::{self, IMAGE_SIZE, MAX_DRAWN_STATES};
use crate::app::{AppCommand, Panel, WindowCommand};

/// The graph's accessible label (tests find it by this).
pub const GRAPH_LABEL: &str = "state graph";

/// Draws the window if it is open.
pub(crate) fn space_window_ui(app: &mut Panel<'_>, ctx: &egui::Context) {
    if !app.windows.space_window.open {
        return;
    }
    let mut open = true;
    // It opens over the canvas, no taller than it (it scrolls), so it never runs off the
    // bottom of a small window.
    let canvas = app.canvas.rect.unwrap_or(egui::Rect::from_min_size(
        egui::pos2(300.0, 80.0),
        vec2(760.0, 560.0),
    ));
    egui::Window::new("State space")
        .open(&mut open)
        .default_pos(canvas.min)
        .default_size(vec2(760.0, canvas.height().min(560.0)))
        .max_height(canvas.height())
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| body_ui(app, ui));
        });
    if !open {
        app.push(AppCommand::Window(WindowCommand::SpaceWindow(false)));
    }
}

fn body_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let metric = app.windows.oracle.metric();
    random_layout_ui(app, ui);
    let (Some(space), Some(profile)) = (
        app.windows.oracle.space(),
        app.windows.space_window.profile.clone(),
    ) else {
        explore_space_ui(app, ui, "the state space is drawn");
        return;
    };
    let current = space.node_of(app.shown_puzzle());
    ui.label(format!(
        "{} states, {} moves between them, {} solved, {} dead ends (no way to the goal).",
        profile.states, profile.edges, profile.goals, profile.dead_ends
    ));
    ui.label(format!(
        "Farthest from the start: {}. Hardest: {} from the goal.",
        crate::app::count_in(profile.farthest_distance, &metric),
        crate::app::count_in(profile.hardest_distance, &metric)
    ));
    let mut open = None;
    let mut export = false;
    ui.horizontal_wrapped(|ui| {
        if let Some(hardest) = profile.hardest
            && ui
                .button("Open the hardest position")
                .on_hover_text("the state farthest from the goal")
                .clicked()
        {
            open = Some(hardest);
        }
        if ui
            .button("Open the farthest from the start")
            .on_hover_text("the state the most moves from where the space was explored")
            .clicked()
        {
            open = Some(profile.farthest);
        }
        if ui
            .button("Export graph...")
            .on_hover_text("GraphML (yEd, Gephi, NetworkX), or a CSV edge list for a .csv name")
            .clicked()
        {
            export = true;
        }
    });
    let mut window = app.windows.space_window.random;
    let mut random = false;
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Random position at least");
        ui.add(egui::DragValue::new(&mut window.min_distance).range(0..=profile.hardest_distance))
            .labelled_by(label.id);
        ui.label(format!("{metric} from the goal,"));
        let label = ui.label("seed");
        ui.add(egui::DragValue::new(&mut window.seed))
            .labelled_by(label.id);
        // The app draws the random state (see `SpaceWindow::random_state`).
        random = ui.button("Open random").clicked();
    });
    if let Some(d) = current.and_then(|n| space.to_goal(n)) {
        ui.label(format!(
            "The position on the board: {} from the goal (ringed in the graph).",
            crate::app::count_in(d, &metric)
        ));
    }
    if window != app.windows.space_window.random {
        app.push(AppCommand::Window(WindowCommand::SpaceRandom(window)));
    }
    if random {
        app.push(AppCommand::Window(WindowCommand::OpenRandomState));
    }
    histogram_ui(ui, &profile, &metric);
    // The hovered state's readout sits above the graph, in a row kept for it, so it is in
    // view whenever the graph is; the graph fills what is left of the window.
    let height = ui.spacing().interact_size.y;
    let (readout, _) = ui.allocate_exact_size(vec2(ui.available_width(), height), Sense::hover());
    let hovered = graph_ui(app, ui, current, &mut open);
    let text = match hovered.zip(app.windows.oracle.space()) {
        Some((node, space)) => {
            let to_goal = space.to_goal(node).map_or_else(
                || "no way to the goal".to_owned(),
                |d| format!("{d} to the goal"),
            );
            RichText::new(format!(
                "State {node}: {} from the start, {to_goal}. Click to open it.",
                space.distance_from_start(node).unwrap_or(0)
            ))
        }
        None if app.windows.space_window.layout.is_some() => {
            RichText::new("Hover a state of the graph for its distances; click to open it.").weak()
        }
        None => RichText::new(""),
    };
    let mut row = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(readout)
            .layout(egui::Layout::left_to_right(egui::Align::Center)),
    );
    row.add(egui::Label::new(text).truncate());
    if let Some(node) = open {
        app.push(AppCommand::OpenState(node));
    }
    if export {
        app.push(AppCommand::ExportGraphDialog);
    }
}

/// For types that make random layouts: a random layout whose hardest position is at least
/// N moves from the goal, made and explored on a background thread.
fn random_layout_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    if app.puzzle().capabilities().random_layouts.is_none() {
        return;
    }
    let metric = app.puzzle().metric_label();
    ui.horizontal_wrapped(|ui| {
        let window = &app.windows.space_window;
        let (mut min, mut seed) = (window.layout_min, window.layout_seed);
        let label = ui.label("Random layout at least");
        ui.add(egui::DragValue::new(&mut min).range(1..=1000))
            .labelled_by(label.id);
        ui.label(format!("{metric} from the goal,"));
        let label = ui.label("seed");
        ui.add(egui::DragValue::new(&mut seed))
            .labelled_by(label.id);
        if (min, seed) != (window.layout_min, window.layout_seed) {
            app.push(AppCommand::Window(WindowCommand::LayoutChoice(min, seed)));
        }
        if app.windows.space_window.is_generating() {
            ui.spinner();
            if ui.button("Stop").clicked() {
                app.push(AppCommand::Window(WindowCommand::StopGenerating));
            }
        } else if ui
            .button("Generate layout")
            .on_hover_text(format!(
                "random layouts like this one, each explored whole; opens the hardest position \
                 of the first one far enough (at most {} s)",
                space_layout::GENERATE_BUDGET.as_secs()
            ))
            .clicked()
        {
            app.push(AppCommand::Window(WindowCommand::GenerateLayout));
        }
    });
    ui.separator();
}

/// How many states lie at each distance from the start and from the goal, the distances in
/// `metric` (the oracle's: "jumps", "moves").
fn histogram_ui(ui: &mut egui::Ui, profile: &crate::search::space::Profile, metric: &str) {
    let bars = |counts: &[u64], offset: f64| -> Vec<egui_plot::Bar> {
        counts
            .iter()
            .enumerate()
            .map(|(d, &n)| egui_plot::Bar::new(d as f64 + offset, n as f64).width(0.45))
            .collect()
    };
    egui_plot::Plot::new("distance histogram")
        .height(140.0)
        .allow_scroll(false)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_boxed_zoom(false)
        .legend(egui_plot::Legend::default().position(egui_plot::Corner::RightTop))
        .x_axis_label(format!("distance ({metric})"))
        .show(ui, |plot| {
            plot.bar_chart(
                egui_plot::BarChart::new("from the start", bars(&profile.distance_profile, -0.22))
                    .color(crate::ui::palette::CLOSED),
            );
            plot.bar_chart(
                egui_plot::BarChart::new("to the goal", bars(&profile.goal_distance_profile, 0.22))
                    .color(crate::ui::palette::GOAL),
            );
        });
}

/// The state graph as an image fitted to the window's width, the position on the board
/// ringed. Returns the state under the pointer; a click puts it in `open`.
fn graph_ui(
    app: &mut Panel<'_>,
    ui: &mut egui::Ui,
    current: Option<u32>,
    open: &mut Option<u32>,
) -> Option<u32> {
    let window = &app.windows.space_window;
    let Some(layout) = &window.layout else {
        if window.is_laying_out() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Laying out the state graph...");
            });
        } else if window
            .profile
            .as_ref()
            .is_some_and(|p| p.states as usize > MAX_DRAWN_STATES)
        {
            ui.label(format!(
                "The graph is drawn for spaces of up to {MAX_DRAWN_STATES} states."
            ));
        }
        return None;
    };
    ui.label(
        RichText::new(
            "Columns: distance from the start. Colour: distance to the goal (yellow near, \
             purple far; orange solved, grey dead ends). Vermillion: an optimal solution.",
        )
        .small(),
    );
    // The frame's work makes the texture as the layout comes.
    let texture = window.texture.as_ref()?;
    // As wide as the window, unless that is taller than the window shows below here.
    let aspect = IMAGE_SIZE[1] as f32 / IMAGE_SIZE[0] as f32;
    let below = ui.clip_rect().bottom() - ui.cursor().top() - ui.spacing().item_spacing.y;
    let width = ui.available_width().min(below / aspect).max(200.0);
    let size = vec2(width, width * aspect);
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, GRAPH_LABEL));
    ui.painter().image(
        texture.id(),
        rect,
        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
        Color32::WHITE,
    );
    // Between fractions of the image (see `space_layout::image_fraction`) and the screen.
    let screen_from_image = egui::emath::RectTransform::from_to(
        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
        rect,
    );
    let to_screen = |p: [f32; 2]| {
        let [fx, fy] = space_layout::image_fraction(p);
        screen_from_image * egui::pos2(fx, fy)
    };
    if let Some(node) = current
        && let Some(&p) = layout.positions.get(node as usize)
    {
        ui.painter()
            .circle_stroke(to_screen(p), 7.0, egui::Stroke::new(2.5, Color32::WHITE));
    }
    let f = screen_from_image.inverse() * response.hover_pos()?;
    let p = space_layout::position_at_fraction([f.x, f.y]);
    let node = space_layout::nearest(layout, p, 0.02)?;
    if let Some(&q) = layout.positions.get(node as usize) {
        ui.painter().circle_stroke(
            to_screen(q),
            5.0,
            egui::Stroke::new(2.0, Color32::from_rgb(86, 180, 233)),
        );
    }
    if response.clicked() {
        *open = Some(node);
    }
    Some(node)
}

/// What a window that needs the explored state space shows before it is explored: why, and
/// a button that explores it (the side panel's Optimal moves, which not every type's panel
/// shows: the final walk of 8 December found a planning task told to tick a box it did not
/// have). `then` says what follows the exploration.
pub(super) fn explore_space_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, then: &str) {
    ui.label(format!(
        "The state space is not explored yet: explore it (as Optimal moves does), and {then}."
    ));
    if ui
        .button("Explore the state space")
        .on_hover_text("the same as ticking Optimal moves")
        .clicked()
    {
        app.push(AppCommand::Oracle(crate::app::OracleCommand::Enable(true)));
    }
}
