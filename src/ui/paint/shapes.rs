//! The shapes a scene is painted with: a piece's cells and letter, a tile, a junction's
//! tracks, a wedge on a square's side, a car, and the goal's rectangle.

use eframe::egui::{self, Align2, Color32, FontId, Pos2, Rect, Shape, Stroke, vec2};

use super::super::palette::*;
use crate::puzzles::{Cell, Picture, Side, Square};

/// The part of square `full` a piece cell fills: all of it on the sides where `same(dr, dc)`
/// says the neighbour is the same piece, inset by `inset` elsewhere, so a piece reads as one
/// block and neighbouring pieces stay apart.
pub(super) fn piece_cell_rect(full: Rect, inset: f32, same: impl Fn(isize, isize) -> bool) -> Rect {
    // Toward a cell of the same piece the rect overlaps it a little, so anti-aliased edges
    // leave no seam inside the piece.
    let edge = |dr, dc| if same(dr, dc) { -0.75 } else { inset };
    Rect::from_min_max(
        full.min + vec2(edge(0, -1), edge(-1, 0)),
        full.max - vec2(edge(0, 1), edge(1, 0)),
    )
}

/// The letter that names a piece in the solution's moves, in the middle of its extent
/// `rect` (when squares of `side` points are large enough to read it).
pub(super) fn piece_letter(painter: &egui::Painter, rect: Rect, letter: u8, side: f32) {
    if letter == 0 || side < 14.0 {
        return;
    }
    painter.text(
        rect.center(),
        Align2::CENTER_CENTER,
        char::from(letter),
        FontId::proportional(side * 0.42),
        Color32::from_gray(20),
    );
}

/// A numbered tile filling most of `rect`: a rounded square, sky blue when it stands on its goal
/// square, with its number large in the middle.
pub(super) fn tile_shapes(
    painter: &egui::Painter,
    shapes: &mut Vec<Shape>,
    rect: Rect,
    square: Square,
) {
    let Square::Tile { number, home } = square else {
        return;
    };
    let side = rect.width();
    let fill = if home { TILE_HOME } else { TILE_AWAY };
    shapes.push(Shape::rect_filled(
        rect.shrink(side * 0.04),
        side * 0.1,
        fill,
    ));
    painter.fonts_mut(|fonts| {
        shapes.push(Shape::text(
            fonts,
            rect.center(),
            Align2::CENTER_CENTER,
            number.to_string(),
            FontId::proportional(side * 0.45),
            Color32::from_gray(30),
        ));
    });
}

/// The fill of a piece: the target red, other pieces by their class.
pub(super) fn piece_fill(square: Square) -> Color32 {
    match square {
        Square::Piece { target: true, .. } => TARGET,
        Square::Piece { class, .. } => piece_color(class),
        _ => FREE,
    }
}

/// The square of `picture` nearest the cell-space point `p`.
pub(super) fn cell_from(p: Pos2, picture: &Picture) -> Cell {
    let clamp = |v: f32, n: usize| (v.max(0.0) as usize).min(n.saturating_sub(1));
    Cell::new(clamp(p.y, picture.rows), clamp(p.x, picture.cols))
}

/// The midpoint of `side` of `rect`.
pub(super) fn side_mid(rect: Rect, side: Side) -> Pos2 {
    match side {
        Side::Up => rect.center_top(),
        Side::Down => rect.center_bottom(),
        Side::Left => rect.left_center(),
        Side::Right => rect.right_center(),
    }
}

/// A triangle filling the quarter of `rect` next to `side`.
pub(super) fn wedge(rect: Rect, side: Side, color: Color32) -> Shape {
    let (a, b) = match side {
        Side::Up => (rect.left_top(), rect.right_top()),
        Side::Down => (rect.left_bottom(), rect.right_bottom()),
        Side::Left => (rect.left_top(), rect.left_bottom()),
        Side::Right => (rect.right_top(), rect.right_bottom()),
    };
    Shape::convex_polygon(vec![a, b, rect.center()], color, Stroke::NONE)
}

/// The allowed turns of a junction: a straight arrow between opposite sides, a curved one
/// round a corner, each ending in an arrowhead at the side it leaves through. Bit
/// `from * 4 + to` of `turns` (sides indexed as in [`Side::ALL`]) allows entering from `from`
/// and leaving through `to`.
pub(super) fn junction_shapes(shapes: &mut Vec<Shape>, rect: Rect, turns: u16, width: f32) {
    let color = Color32::from_gray(60);
    let inset = rect.shrink(rect.width() * 0.12);
    for from in Side::ALL {
        for to in Side::ALL {
            if turns & (1 << (from.index() * 4 + to.index())) == 0 {
                continue;
            }
            let (a, b) = (side_mid(inset, from), side_mid(inset, to));
            let end = if to == from.opposite() {
                shapes.push(Shape::line_segment([a, b], Stroke::new(width, color)));
                a
            } else {
                let bezier = egui::epaint::QuadraticBezierShape::from_points_stroke(
                    [a, inset.center(), b],
                    false,
                    Color32::TRANSPARENT,
                    Stroke::new(width, color),
                );
                shapes.push(bezier.into());
                inset.center()
            };
            let dir = (b - end).normalized() * rect.width() * 0.14;
            let normal = vec2(-dir.y, dir.x) * 0.6;
            shapes.push(Shape::convex_polygon(
                vec![b, b - dir + normal, b - dir - normal],
                color,
                Stroke::NONE,
            ));
        }
    }
}

/// A car: an arrow-shaped marker at `at` pointing in `heading`.
pub(super) fn vehicle(at: Pos2, heading: Side, side: f32) -> Shape {
    let (dr, dc) = heading.delta();
    let forward = vec2(dc as f32, dr as f32) * side * 0.32;
    let across = vec2(-forward.y, forward.x) * 0.7;
    Shape::convex_polygon(
        vec![at + forward, at - forward + across, at - forward - across],
        SOLUTION,
        Stroke::new(1.5, Color32::WHITE),
    )
}

/// The top-left and bottom-right squares of `area` when its squares make a whole rectangle
/// (each once), else `None`.
pub(super) fn goal_rectangle(area: &[Cell]) -> Option<(Cell, Cell)> {
    let rows = area.iter().map(|c| c.row);
    let cols = area.iter().map(|c| c.col);
    let (top, bottom) = (rows.clone().min()?, rows.max()?);
    let (left, right) = (cols.clone().min()?, cols.max()?);
    let mut unique = area.to_vec();
    unique.sort();
    unique.dedup();
    let whole = unique.len() == (bottom - top + 1) * (right - left + 1);
    whole.then_some((Cell::new(top, left), Cell::new(bottom, right)))
}
