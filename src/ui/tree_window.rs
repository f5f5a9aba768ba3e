//! The "Search tree" window: the run's expanded states as a tree (see
//! [`crate::app::search_tree`]), shown as far as the timeline's cursor, so that scrubbing
//! grows it; a click on a node seeks the timeline to its expansion.

use eframe::egui::{self, Color32, RichText, Sense, vec2};

use crate::app::search_tree::{MAX_TREE_NODES, TREE_IMAGE, nearest_node};
use crate::app::{AppCommand, Panel, TimelineCommand, WindowCommand};

/// The tree's accessible label (tests find it by this).
pub const TREE_LABEL: &str = "search tree";

/// Draws the window if it is open.
pub(crate) fn tree_window_ui(app: &mut Panel<'_>, ctx: &egui::Context) {
    if !app.windows.tree_window.open {
        return;
    }
    let mut open = true;
    let canvas = app.canvas.rect.unwrap_or(egui::Rect::from_min_size(
        egui::pos2(300.0, 80.0),
        vec2(760.0, 420.0),
    ));
    egui::Window::new("Search tree")
        .open(&mut open)
        .default_pos(canvas.min + vec2(0.0, canvas.height() * 0.35))
        .default_size(vec2(canvas.width().max(400.0), 300.0))
        .show(ctx, |ui| body_ui(app, ui));
    if !open {
        app.push(AppCommand::Window(WindowCommand::TreeWindow(false)));
    }
}

fn body_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        ui.label("Down:");
        let mut by_g = app.windows.tree_window.by_g;
        ui.radio_value(&mut by_g, false, "depth");
        ui.radio_value(&mut by_g, true, "g (path cost)");
        if by_g != app.windows.tree_window.by_g {
            app.push(AppCommand::Window(WindowCommand::TreeByG(by_g)));
        }
    });
    if app.windows.tree_window.is_drawing() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("Drawing the tree...");
        });
    }
    let Some(layout) = app.windows.tree_window.layout.clone() else {
        if !app.windows.tree_window.is_drawing() {
            ui.label(if app.is_running() && !app.is_paused() {
                "The tree is drawn when the run ends or pauses."
            } else {
                "Run a search: its expanded states are drawn here as a tree."
            });
        }
        return;
    };
    let drawn = layout.positions.len();
    let mut caption = format!(
        "Across: the order of expansion; down: {} (0 to {}); colour: f from {:.1} (dark blue) \
         to {:.1} (yellow){}.",
        if layout.by_g { "g" } else { "depth" },
        layout.y_max,
        layout.f_range.0,
        layout.f_range.1,
        if layout.branch.len() > 1 {
            "; vermillion: the solution's branch"
        } else {
            ""
        }
    );
    if layout.total > drawn {
        caption += &format!(
            " The first {MAX_TREE_NODES} of {} expansions are drawn.",
            layout.total
        );
    }
    if !layout.joined {
        caption += " This puzzle's states are boards, not squares: they are not joined to \
                    their parents.";
    }
    ui.label(RichText::new(caption).small());
    // The frame's work makes the texture as the layout comes.
    let Some(id) = (app.windows.tree_window.texture.as_ref()).map(egui::TextureHandle::id) else {
        return;
    };
    let aspect = TREE_IMAGE[1] as f32 / TREE_IMAGE[0] as f32;
    let width = ui.available_width().max(200.0);
    let (rect, response) =
        ui.allocate_exact_size(vec2(width, width * aspect), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, TREE_LABEL));
    // As far as the timeline's cursor: the expansions shown so far.
    let shown = app.timeline().map_or(drawn, |t| t.target).min(drawn);
    let upto = if drawn <= 1 || shown >= drawn {
        1.0
    } else {
        layout.positions[shown.saturating_sub(1)][0] + 0.002
    };
    let mut clip = rect;
    clip.max.x = rect.min.x + rect.width() * upto;
    ui.painter().rect_filled(rect, 0.0, Color32::from_gray(18));
    ui.painter().image(
        id,
        clip,
        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(upto, 1.0)),
        Color32::WHITE,
    );
    let to_fraction = |p: egui::Pos2| {
        [
            (p.x - rect.min.x) / rect.width(),
            (p.y - rect.min.y) / rect.height(),
        ]
    };
    let hovered = response
        .hover_pos()
        .and_then(|p| nearest_node(&layout, to_fraction(p), 0.02));
    let text = match hovered.and_then(|k| app.timeline_recording().and_then(|r| r.expansion(k))) {
        Some(e) => {
            let q = layout.positions[e.index];
            let centre = rect.min + vec2(q[0] * rect.width(), q[1] * rect.height());
            ui.painter()
                .circle_stroke(centre, 5.0, egui::Stroke::new(2.0, Color32::WHITE));
            let f = e.f().map_or_else(String::new, |f| format!(", f {f:.1}"));
            let g = e.g.map_or_else(String::new, |g| format!(", g {g:.1}"));
            format!(
                "Expansion {}: depth {}{g}{f}. Click to go there on the timeline.",
                e.index + 1,
                e.depth
            )
        }
        None => "Hover a node for its figures; click it to go to its expansion.".to_owned(),
    };
    ui.label(RichText::new(text).small());
    if response.clicked()
        && let Some(k) = hovered
    {
        app.push(AppCommand::Timeline(TimelineCommand::Seek(k + 1)));
    }
}
