//! Rows of a fixed height, for the bars around the canvas: whatever a row holds (a longer
//! label, a control that comes and goes), its height stays the same, so the canvas next to
//! it never moves.

use eframe::egui::{self, Align, Layout, Sense, UiBuilder};

/// The height of `n` rows of interactive widgets, with the spacing between them, in points.
pub(crate) fn rows_height(ui: &egui::Ui, n: usize) -> f32 {
    let spacing = ui.spacing();
    n as f32 * spacing.interact_size.y + n.saturating_sub(1) as f32 * spacing.item_spacing.y
}

/// The outer height of a top or bottom panel holding `n` fixed rows: the rows and the
/// panel frame's margins, in points.
pub(crate) fn panel_height(ui: &egui::Ui, n: usize) -> f32 {
    let frame = egui::Frame::side_top_panel(ui.style());
    rows_height(ui, n) + frame.total_margin().sum().y
}

/// One row of the height of an interactive widget across the width `ui` has: `add` lays out
/// its contents left to right. A row wider than that scrolls sideways under the mouse wheel
/// instead of growing the panel it is in. `id` keeps the row's scroll offset.
pub(crate) fn fixed_row<R>(
    ui: &mut egui::Ui,
    id: &'static str,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let height = ui.spacing().interact_size.y;
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(ui.available_width(), height), Sense::hover());
    let mut row = ui.new_child(
        UiBuilder::new()
            .id_salt(id)
            .max_rect(rect)
            .layout(Layout::top_down(Align::Min)),
    );
    row.set_clip_rect(rect.intersect(ui.clip_rect()));
    egui::ScrollArea::horizontal()
        .id_salt(id)
        .auto_shrink([false, true])
        // The wheel scrolls it; a press on it is a click on what is under it (a scroll bar
        // over a row this thin would cover the lower half of its buttons).
        .scroll_source(
            egui::scroll_area::ScrollSource::SCROLL_BAR
                | egui::scroll_area::ScrollSource::MOUSE_WHEEL,
        )
        .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysHidden)
        .max_height(height)
        .show(&mut row, |ui| {
            ui.set_height(height);
            ui.with_layout(Layout::left_to_right(Align::Center), add)
                .inner
        })
        .inner
}

/// A button that shows `symbol` ("|<") and that a screen reader (and a UI test) reads as
/// `name` ("Timeline start").
pub(crate) fn symbol_button(
    ui: &mut egui::Ui,
    enabled: bool,
    symbol: &str,
    name: &str,
) -> egui::Response {
    let response = ui.add_enabled(enabled, egui::Button::new(symbol));
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, name));
    response
}

/// A label that keeps one width whatever its text, so the widgets after it keep their places
/// when it changes ("optimal" / "not optimal"). `texts` are the texts it can show; the width
/// is the widest one's (see [`widest`]).
pub(crate) fn steady_label(
    ui: &mut egui::Ui,
    text: impl Into<egui::WidgetText>,
    texts: &[&str],
) -> egui::Response {
    let width = widest(ui, texts);
    let height = ui.spacing().interact_size.y;
    ui.add_sized(egui::vec2(width, height), egui::Label::new(text).truncate())
}

/// The width of the widest of `texts` in the body font, in points (0 for none).
pub(crate) fn widest(ui: &egui::Ui, texts: &[&str]) -> f32 {
    texts.iter().map(|t| text_width(ui, t)).fold(0.0, f32::max)
}

/// The width of `text` in the body font, in points.
pub(crate) fn text_width(ui: &egui::Ui, text: &str) -> f32 {
    let font = egui::TextStyle::Body.resolve(ui.style());
    ui.fonts_mut(|f| {
        f.layout_no_wrap(text.to_owned(), font, egui::Color32::WHITE)
            .size()
            .x
    })
}
