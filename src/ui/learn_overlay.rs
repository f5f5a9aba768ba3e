//! The Learn window's marks on the canvas, while it is open: on each square the search
//! reached by the moment shown (closed, being expanded, or on the frontier), its `g`, `h` or
//! `f` written, and an arrow to the square it was reached from (starting past the number,
//! so that neither covers the other); at a micro-step, a ring on the state taken and one on
//! the successor put on the frontier. Numbers are dark on a light plate, legible on every
//! square's colour (and over the solution's line) (the start's dark blue too). Only the squares in sight are visited, and only when they are large
//! enough to read, so a frame's work is bounded by the canvas's size, not the grid's.

use eframe::egui::{self, Color32, Pos2, Rect, Stroke, emath};

use crate::app::AppState;
use crate::app::learn::{Note, Numbers};
use crate::puzzles::Cell;

/// The least size of a square, in points, that gets a number or an arrow.
pub const MIN_SIDE: f32 = 18.0;

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
    // The micro-step of the moment shown only (one kept for another position is not).
    if learn.open
        && let Some((_, m)) = app.learn_moment()
        && m.event.is_some()
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
    let ink = Color32::from_black_alpha(235);
    let plate_fill = Color32::from_rgba_unmultiplied(255, 255, 255, 225);
    let arrow = Stroke::new((side * 0.06).max(1.0), Color32::from_rgb(200, 40, 40));
    // The frontier's states at this moment (micro-step included), and the closed set's.
    let notes = app.learn_notes();
    let algorithm = app.run_algorithm();
    let mut marked = 0;
    for row in span(a.y, b.y, rows) {
        for col in span(a.x, b.x, cols) {
            let cell = Cell::new(row, col);
            let Some(Note { g, h, parent }) = notes.at(cell) else {
                continue;
            };
            let at = centre(cell);
            if let Some(v) = learn.numbers.of(g, h, algorithm) {
                let text = crate::search::format_cost(f64::from(v));
                // On a light plate of its own: the solution's line under it never strikes
                // through the digits, and they keep their contrast on every square in either
                // theme (a halo of four copies read as white digits on light blue).
                let galley = painter.layout_no_wrap(text, font.clone(), ink);
                let plate = Rect::from_center_size(at, galley.size());
                let d = (side * 0.03).max(1.0);
                painter.rect_filled(plate.expand(d), d, plate_fill);
                painter.galley(plate.min, galley, ink);
            }
            if learn.arrows
                && let Some(parent) = parent.filter(|p| p.cell != cell)
            {
                // From past the number to the parent's edge: one square's worth, pointing.
                let to = (centre(parent.cell) - at).normalized();
                painter.arrow(at + to * side * ARROW_FROM, to * side * ARROW_LENGTH, arrow);
            }
            marked += 1;
        }
    }
    marked
}

/// Where a parent arrow starts, in squares from its square's centre: past the number (whose
/// half width is under 0.2 of a square for numbers of up to three digits).
pub const ARROW_FROM: f32 = 0.3;

/// How long a parent arrow is, in squares: it ends short of the parent's number.
pub const ARROW_LENGTH: f32 = 0.32;
