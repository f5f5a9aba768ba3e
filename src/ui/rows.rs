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
/// (the vertical wheel as well as a sideways one) instead of growing the panel it is in, and an arrow over a fade marks each end past which
/// it has more ([`overflow_cue`]). `id` keeps the row's scroll offset.
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
    // The vertical wheel (the only one most mice have) scrolls the row sideways too.
    row.style_mut().always_scroll_the_only_direction = true;
    let output = egui::ScrollArea::horizontal()
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
        });
    let hidden = Overflow::of(
        output.state.clamped_offset().x,
        output.inner_rect.width(),
        output.content_size.x,
    );
    overflow_cue(&row, output.inner_rect, hidden);
    output.inner
}

/// Which ends of a sideways-scrolling row have more beyond the visible part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Overflow {
    /// Part of the row lies left of the visible part (it has been scrolled).
    left: bool,
    /// Part of the row lies right of the visible part.
    right: bool,
}

impl Overflow {
    /// The ends hidden when a row `content` points wide shows `visible` points of it from
    /// `offset` (points scrolled from its left end); half a point is slack for rounding.
    fn of(offset: f32, visible: f32, content: f32) -> Self {
        Self {
            left: offset > 0.5,
            right: offset + visible < content - 0.5,
        }
    }
}

/// The cue of a row whose scroll bar is hidden: over each end of `rect` (screen points) that
/// `hidden` marks, a fade into the panel's colour and a small arrow pointing that way (the
/// mouse wheel scrolls the row).
fn overflow_cue(ui: &egui::Ui, rect: egui::Rect, hidden: Overflow) {
    const FADE: f32 = 22.0;
    let painter = ui.painter_at(rect);
    let fill = ui.visuals().panel_fill;
    let ink = ui.visuals().strong_text_color();
    for (more, towards) in [(hidden.left, -1.0f32), (hidden.right, 1.0)] {
        if !more {
            continue;
        }
        let outer = if towards > 0.0 {
            rect.right()
        } else {
            rect.left()
        };
        let inner = outer - towards * FADE;
        let mut fade = egui::Mesh::default();
        fade.colored_vertex(egui::pos2(inner, rect.top()), egui::Color32::TRANSPARENT);
        fade.colored_vertex(egui::pos2(outer, rect.top()), fill);
        fade.colored_vertex(egui::pos2(inner, rect.bottom()), egui::Color32::TRANSPARENT);
        fade.colored_vertex(egui::pos2(outer, rect.bottom()), fill);
        fade.add_triangle(0, 1, 2);
        fade.add_triangle(1, 3, 2);
        painter.add(fade);
        let (tip, y) = (outer - towards * 3.0, rect.center().y);
        let back = tip - towards * 6.0;
        // Clockwise on the screen, as the feathering wants.
        let mut arrow = vec![
            egui::pos2(back, y - 5.0),
            egui::pos2(tip, y),
            egui::pos2(back, y + 5.0),
        ];
        if towards < 0.0 {
            arrow.reverse();
        }
        painter.add(egui::Shape::convex_polygon(arrow, ink, egui::Stroke::NONE));
    }
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

#[cfg(test)]
mod tests {
    use super::Overflow;

    #[test]
    fn overflow_marks_the_ends_with_more_beyond_them() {
        let none = Overflow::default();
        // A row that fits: no cue, whatever the rounding.
        assert_eq!(Overflow::of(0.0, 300.0, 300.0), none);
        assert_eq!(Overflow::of(0.0, 300.0, 300.4), none);
        // Wider than the panel, at its left end: more to the right only.
        let right = Overflow {
            left: false,
            right: true,
        };
        assert_eq!(Overflow::of(0.0, 300.0, 420.0), right);
        // Scrolled part-way: both ends; to the right end: the left only.
        let both = Overflow {
            left: true,
            right: true,
        };
        assert_eq!(Overflow::of(60.0, 300.0, 420.0), both);
        let left = Overflow {
            left: true,
            right: false,
        };
        assert_eq!(Overflow::of(120.0, 300.0, 420.0), left);
    }
}
