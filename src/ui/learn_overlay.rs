//! The Learn window's marks on the canvas, while it is open: on each square the search
//! reached by the moment shown, its `g`, `h` or `f` written, and an arrow to the square it
//! was reached from; at a micro-step, a ring on the state taken and one on the successor put
//! on the frontier. Only the squares in sight are visited, and only when they are large
//! enough to read, so a frame's work is bounded by the canvas's size, not the grid's.

use eframe::egui::{self, Color32, Pos2, Rect, Stroke, emath};

use crate::app::AppState;
use crate::app::learn::Numbers;
use crate::puzzles::Cell;

/// The least size of a square, in points, that gets a number or an arrow.
pub(super) const MIN_SIDE: f32 = 18.0;

/// Paints the numbers and arrows the Learn window asks for on the squares of a `rows` x
/// `cols` picture in sight within `clip`; returns how many squares it marked.
pub(super) fn paint(
    app: &AppState,
    painter: &egui::Painter,
    screen_from_cell: &emath::RectTransform,
    clip: Rect,
    (rows, cols): (usize, usize),
) -> usize {
    let learn = &app.windows.learn;
    let side = screen_from_cell.scale().x;
    let centre = |c: Cell| screen_from_cell * Pos2::new(c.col as f32 + 0.5, c.row as f32 + 0.5);
    if learn.open
        && learn.event.is_some()
        && let Some((_, m)) = app.learn_moment()
    {
        // A micro-step: the state taken off the frontier, and the successor put on.
        let ring = |place: Option<crate::puzzles::Place>, colour| {
            if let Some(p) = place {
                let stroke = Stroke::new((side * 0.12).clamp(1.5, 4.0), colour);
                painter.circle_stroke(centre(p.cell), (side * 0.5).max(4.0), stroke);
            }
        };
        ring(
            m.expanded.and_then(|e| e.place),
            Color32::from_rgb(30, 90, 220),
        );
        ring(
            m.successor.and_then(|s| s.place),
            Color32::from_rgb(240, 140, 0),
        );
    }
    if !learn.open || (learn.numbers == Numbers::Off && !learn.arrows) || side < MIN_SIDE {
        return 0;
    }
    let cell_from_screen = screen_from_cell.inverse();
    let (a, b) = (cell_from_screen * clip.min, cell_from_screen * clip.max);
    let span = |lo: f32, hi: f32, n: usize| {
        (lo.max(0.0).floor() as usize).min(n)..(hi.max(0.0).ceil() as usize).min(n)
    };
    let font = egui::FontId::proportional(side * 0.32);
    let ink = Color32::from_black_alpha(220);
    let arrow = Stroke::new((side * 0.06).max(1.0), Color32::from_rgb(200, 40, 40));
    let mut marked = 0;
    for row in span(a.y, b.y, rows) {
        for col in span(a.x, b.x, cols) {
            let cell = Cell::new(row, col);
            let Some(e) = app.expansion_at(cell) else {
                continue;
            };
            let at = centre(cell);
            if let Some(v) = learn.numbers.value(&e) {
                let text = crate::search::format_cost(f64::from(v));
                painter.text(at, egui::Align2::CENTER_CENTER, text, font.clone(), ink);
            }
            if learn.arrows
                && let Some(parent) = e.parent.filter(|p| p.cell != cell)
            {
                let to = centre(parent.cell);
                let dir = (to - at).normalized() * side * 0.45;
                painter.arrow(at + dir * 0.2, dir * 0.8, arrow);
            }
            marked += 1;
        }
    }
    marked
}
