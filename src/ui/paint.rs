//! Painting a scene: squares, pieces, tiles, junctions and cars, the search's marks, the
//! solution and the pieces sliding between positions; a large grid goes through its texture.

use eframe::egui::{
    self, Align2, Color32, FontId, Pos2, Rect, Shape, Stroke, StrokeKind, emath, pos2, vec2,
};
use emath::GuiRounding as _;

use super::palette::*;
use super::scene::*;
use super::texture::{GridTexture, shaded_mark_color};
use crate::puzzles::{Cell, Picture, Place, Side, Square};

mod shapes;

use shapes::*;

/// Paints `scene` into `rect`: square cells, the grid centred (then zoomed and panned). A
/// large grid is drawn as a texture, kept in `texture` between frames. The scene is painted
/// in layers, bottom to top, each its own function: the squares (from the texture, or one by
/// one in view), a piece sliding between positions, the editor's overlays and the goal, the
/// pieces' letters, the search's marks (branch, path, state under way), the solution.
pub(crate) fn paint_scene(
    painter: &egui::Painter,
    rect: Rect,
    scene: &Scene,
    texture: &mut Option<GridTexture>,
) {
    let g = Geometry::new(painter, rect, scene);
    let as_texture = paint_texture(painter, &g, scene, texture);
    let mut letters = if as_texture {
        Vec::new()
    } else {
        paint_squares(painter, &g, scene, rect)
    };
    paint_sliding(painter, &g, scene, &mut letters);
    paint_overlays(painter, &g, scene);
    for (rect, letter) in letters {
        piece_letter(painter, rect, letter, g.side);
    }
    // On a texture of small squares the path is in its pixels already.
    let in_pixels = as_texture && g.side < 6.0;
    paint_marks(painter, &g, scene, in_pixels);
    paint_solution(painter, &g, scene, in_pixels);
}

/// Where the scene's squares fall on the screen, and the widths drawn at this zoom.
struct Geometry {
    /// The grid's rectangle on the screen.
    grid: Rect,
    /// A square's side, in points.
    side: f32,
    screen_from_cell: emath::RectTransform,
    /// The gap between squares (a pixel once squares are 6 points or more).
    gap: f32,
    pixels_per_point: f32,
    /// A thin line at this zoom.
    thin: f32,
}

impl Geometry {
    fn new(painter: &egui::Painter, rect: Rect, scene: &Scene) -> Self {
        let picture: &Picture = &scene.picture;
        let (rows, cols) = (picture.rows as f32, picture.cols as f32);
        let (grid, side) = grid_rect(rect, rows, cols, scene.zoom, scene.pan);
        Self {
            grid,
            side,
            screen_from_cell: emath::RectTransform::from_to(
                Rect::from_min_size(Pos2::ZERO, vec2(cols, rows)),
                grid,
            ),
            gap: if side >= 6.0 { 1.0 } else { 0.0 },
            pixels_per_point: painter.pixels_per_point(),
            thin: (side * 0.08).clamp(1.0, 3.0),
        }
    }

    /// The square at `cell` on the screen.
    fn cell_rect(&self, cell: Cell) -> Rect {
        Rect::from_min_size(
            self.screen_from_cell * pos2(cell.col as f32, cell.row as f32),
            vec2(self.side, self.side),
        )
    }

    fn center(&self, cell: Cell) -> Pos2 {
        self.cell_rect(cell).center()
    }

    /// Where a place is drawn: its square's middle, or near the side it is about.
    fn place_pos(&self, place: Place) -> Pos2 {
        match place.side {
            None => self.center(place.cell),
            Some(s) => {
                let (dr, dc) = s.delta();
                self.center(place.cell) + vec2(dc as f32, dr as f32) * self.side * 0.3
            }
        }
    }
}

/// The squares of a large grid, from its texture (and the start's and goals' markers, which
/// stay visible however small a square is); returns whether the texture drew them.
fn paint_texture(
    painter: &egui::Painter,
    g: &Geometry,
    scene: &Scene,
    texture: &mut Option<GridTexture>,
) -> bool {
    let as_texture = scene.picture.squares.len() > TEXTURE_SQUARES
        && texture
            .get_or_insert_with(GridTexture::default)
            .is_plain(scene);
    match texture.as_mut().filter(|_| as_texture) {
        Some(t) => {
            t.update(painter.ctx(), scene);
            // Squares smaller than a pixel are drawn from a shrunk copy, not sampled.
            let id = t.texture_for(painter.ctx(), g.side * g.pixels_per_point, scene.deadline);
            let whole = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
            match t.coarse_end() {
                // Marks set whole to a run's end: its coarse picture, with the rows painted
                // exactly over it from the top (never a row of another moment).
                Some((coarse, done)) => {
                    painter.image(coarse, g.grid, whole, Color32::WHITE);
                    if done > 0.0 {
                        let mut top = g.grid;
                        top.max.y = top.min.y + top.height() * done;
                        let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, done));
                        painter.image(id, top, uv, Color32::WHITE);
                    }
                }
                None => {
                    painter.image(id, g.grid, whole, Color32::WHITE);
                }
            }
            // A square may be far smaller than a pixel: the start and the goals keep a
            // marker of at least 6 points across.
            for &(cell, color) in &t.markers {
                let radius = marker_radius(g.side);
                painter.circle(
                    g.center(cell),
                    radius,
                    color,
                    Stroke::new(1.0, Color32::from_gray(20)),
                );
            }
        }
        None => *texture = None,
    }
    as_texture
}

/// The squares in view, one by one; returns each piece's extent and letter, to name it once
/// in its middle above everything else.
fn paint_squares(
    painter: &egui::Painter,
    g: &Geometry,
    scene: &Scene,
    rect: Rect,
) -> Vec<(Rect, u8)> {
    let picture: &Picture = &scene.picture;
    let clip = painter.clip_rect().intersect(rect);
    let first = cell_from(g.screen_from_cell.inverse() * clip.min, picture);
    let last = cell_from(g.screen_from_cell.inverse() * clip.max, picture);
    let (row_range, col_range) = (
        first.row..(last.row + 1).min(picture.rows),
        first.col..(last.col + 1).min(picture.cols),
    );
    let tray = themed(TRAY, painter.ctx().theme() == egui::Theme::Dark);
    let mut shapes = Vec::with_capacity(row_range.len() * col_range.len() + 16);
    let mut pieces: Vec<(u8, Rect, u8)> = Vec::new();
    for row in row_range {
        for col in col_range.clone() {
            let cell = Cell::new(row, col);
            square_shapes(painter, g, scene, cell, tray, &mut shapes, &mut pieces);
        }
    }
    painter.extend(shapes);
    pieces
        .into_iter()
        .map(|(_, rect, letter)| (rect, letter))
        .collect()
}

/// The shapes of the square at `cell`, and its piece's extent in `pieces` (id, extent,
/// letter). A board of sliding pieces draws its empty squares as a dim `tray`, inset as the
/// pieces are, so the pieces stand out.
fn square_shapes(
    painter: &egui::Painter,
    g: &Geometry,
    scene: &Scene,
    cell: Cell,
    tray: Color32,
    shapes: &mut Vec<Shape>,
    pieces: &mut Vec<(u8, Rect, u8)>,
) {
    let picture: &Picture = &scene.picture;
    let (marks, board, side, thin) = (scene.marks, scene.board, g.side, g.thin);
    let (row, col) = (cell.row, cell.col);
    let cell_rect = |cell: Cell| g.cell_rect(cell);
    let square = picture.squares[row * picture.cols + col];
    // Snapped to physical pixels, the gap one pixel wide: grid lines of one width at any
    // zoom, never blurred into two.
    let rect = if g.gap > 0.0 {
        let pixel = 1.0 / g.pixels_per_point;
        let snapped = cell_rect(cell).round_to_pixels(g.pixels_per_point);
        Rect::from_min_max(snapped.min, snapped.max - vec2(pixel, pixel))
    } else {
        cell_rect(cell)
    };
    let marked = shaded_mark_color(marks, row * picture.cols + col, marks.mark(cell));
    match square {
        Square::Void => {}
        Square::Free if board => {
            let rect = cell_rect(cell).shrink(side * 0.05);
            shapes.push(Shape::rect_filled(rect, side * 0.06, tray));
        }
        Square::Free => {
            let base = match scene.cluster {
                Some(c) if c[row * picture.cols + col] => CLUSTER,
                _ => FREE,
            };
            shapes.push(Shape::rect_filled(rect, 0.0, marked.unwrap_or(base)));
        }
        Square::Blocked if board => {
            // A wall of the board: darker than the tray, crossed.
            let wall = cell_rect(cell).shrink(side * 0.05);
            shapes.push(Shape::rect_filled(wall, side * 0.06, BLOCKED));
            let stroke = Stroke::new(thin, Color32::from_gray(110));
            let inner = wall.shrink(side * 0.2);
            shapes.push(Shape::line_segment(
                [inner.left_top(), inner.right_bottom()],
                stroke,
            ));
            shapes.push(Shape::line_segment(
                [inner.right_top(), inner.left_bottom()],
                stroke,
            ));
        }
        Square::Blocked => shapes.push(Shape::rect_filled(rect, 0.0, BLOCKED)),
        Square::Terrain(cost) => {
            let fill = terrain_color(cost);
            let fill = marked.map_or(fill, |m| fill.lerp_to_gamma(m, 0.55));
            shapes.push(Shape::rect_filled(rect, 0.0, fill));
        }
        Square::Start | Square::Goal => {
            // The start and the goals keep their colour; the search's mark on them is
            // a ring inside.
            let fill = if square == Square::Start { START } else { GOAL };
            shapes.push(Shape::rect_filled(rect, 0.0, fill));
            if let Some(mark) = marked {
                shapes.push(Shape::rect_stroke(
                    rect.shrink(side * 0.15),
                    0.0,
                    Stroke::new(thin, mark),
                    StrokeKind::Inside,
                ));
            }
        }
        Square::Number(n) => {
            shapes.push(Shape::circle_filled(
                rect.center(),
                side * 0.46,
                marked.unwrap_or(NUMBER),
            ));
            if side >= 10.0 {
                painter.fonts_mut(|fonts| {
                    shapes.push(Shape::text(
                        fonts,
                        rect.center(),
                        Align2::CENTER_CENTER,
                        n.to_string(),
                        FontId::proportional(side * 0.55),
                        Color32::from_gray(30),
                    ));
                });
            }
        }
        Square::Tile { .. } => tile_shapes(painter, shapes, cell_rect(cell), square),
        Square::Piece { id, letter, .. } => {
            match pieces.iter_mut().find(|p| p.0 == id) {
                Some(p) => p.1 = p.1.union(cell_rect(cell)),
                None => pieces.push((id, cell_rect(cell), letter)),
            }
            // Cells of one piece join up; a gap separates different pieces.
            let same = |dr: isize, dc: isize| {
                let other = row
                    .checked_add_signed(dr)
                    .zip(col.checked_add_signed(dc))
                    .and_then(|(r, c)| picture.get(Cell::new(r, c)));
                matches!(other, Some(Square::Piece { id: o, .. }) if o == id)
            };
            let rect = piece_cell_rect(cell_rect(cell), side * 0.05, same);
            shapes.push(Shape::rect_filled(rect, 0.0, piece_fill(square)));
        }
        Square::Junction(turns) => {
            shapes.push(Shape::rect_filled(rect, side * 0.08, FREE));
            // States (junction, side entered from): a wedge on that side.
            for (entry, mark) in Side::ALL.into_iter().zip(marks.side_marks(cell)) {
                if let Some(color) = shaded_mark_color(marks, row * picture.cols + col, mark) {
                    shapes.push(wedge(rect, entry, color));
                }
            }
            junction_shapes(shapes, rect, turns, thin);
        }
    }
}

/// The piece or tile moving between two positions, part way along its route (eased at both
/// ends); its letter joins `letters`.
fn paint_sliding(
    painter: &egui::Painter,
    g: &Geometry,
    scene: &Scene,
    letters: &mut Vec<(Rect, u8)>,
) {
    let Some((m, t)) = &scene.sliding else {
        return;
    };
    let side = g.side;
    let eased = t * t * (3.0 - 2.0 * t);
    let along = eased * (m.route.len() - 1) as f32;
    let i = (along as usize).min(m.route.len().saturating_sub(2));
    let (a, b) = (m.route[i], m.route[(i + 1).min(m.route.len() - 1)]);
    let f = along - i as f32;
    let offset = vec2(
        a.1 as f32 + (b.1 - a.1) as f32 * f,
        a.0 as f32 + (b.0 - a.0) as f32 * f,
    ) * side;
    for cell in &m.cells {
        let same = |dr: isize, dc: isize| {
            let (r, c) = (cell.row as isize + dr, cell.col as isize + dc);
            m.cells
                .iter()
                .any(|o| o.row as isize == r && o.col as isize == c)
        };
        if matches!(m.square, Square::Tile { .. }) {
            let mut tile = Vec::new();
            tile_shapes(
                painter,
                &mut tile,
                g.cell_rect(*cell).translate(offset),
                m.square,
            );
            painter.extend(tile);
            continue;
        }
        let rect = piece_cell_rect(g.cell_rect(*cell), side * 0.05, same).translate(offset);
        painter.rect_filled(rect, 0.0, piece_fill(m.square));
    }
    if let Square::Piece { letter, .. } = m.square
        && let Some(extent) = m
            .cells
            .iter()
            .map(|&c| g.cell_rect(c))
            .reduce(|a, b| a.union(b))
    {
        letters.push((extent.translate(offset), letter));
    }
}

/// The editor's shape under the pointer and the selected square, the start (when it stands
/// on another square), the goal area and a board's exit.
fn paint_overlays(painter: &egui::Painter, g: &Geometry, scene: &Scene) {
    let picture: &Picture = &scene.picture;
    let (side, thin) = (g.side, g.thin);
    // The editor's shape under the pointer, where a click would place it.
    if let Some((cell, (h, w))) = scene.ghost {
        let rect = Rect::from_min_size(
            g.cell_rect(cell).min,
            vec2(side * w as f32, side * h as f32),
        );
        painter.rect_stroke(
            rect.shrink(side * 0.05),
            side * 0.08,
            Stroke::new(thin * 1.5, SELECTED),
            StrokeKind::Inside,
        );
    }
    if let Some(cell) = scene.selected {
        painter.rect_stroke(
            g.cell_rect(cell),
            side * 0.08,
            Stroke::new(thin * 1.5, SELECTED),
            StrokeKind::Inside,
        );
    }
    if let Some(start) = picture.start
        && picture.get(start) != Some(Square::Start)
    {
        painter.circle_stroke(g.center(start), side * 0.48, Stroke::new(thin * 1.5, START));
    }
    // The goal area in one outline where it is a whole rectangle (a target place, an
    // exit); else each square on its own (goal squares that lie apart: one box round them
    // would outline the squares between as goals too).
    let goal = Stroke::new(thin * 1.5, TARGET.gamma_multiply(0.8));
    let outline = |area: Rect| {
        painter.rect_stroke(
            area.shrink(side * 0.08),
            side * 0.1,
            goal,
            StrokeKind::Inside,
        );
    };
    if let Some(area) = goal_rectangle(&picture.goal_area) {
        let (a, b) = (area.0, area.1);
        outline(g.cell_rect(a).union(g.cell_rect(b)));
    } else {
        for &cell in &picture.goal_area {
            outline(g.cell_rect(cell));
        }
    }
    if scene.board {
        exit_marker(painter, picture, &|cell| g.cell_rect(cell), side);
    }
}

/// The search's marks drawn as lines and outlines: the pinned branch (a line at any zoom:
/// one pixel a square of a large grid is too thin to see), the depth-first path (unless it
/// is `in_pixels` of the texture) and the state being expanded.
fn paint_marks(painter: &egui::Painter, g: &Geometry, scene: &Scene, in_pixels: bool) {
    let (marks, thin) = (scene.marks, g.thin);
    if marks.branch.len() > 1 {
        let points: Vec<Pos2> = marks.branch.iter().map(|&p| g.place_pos(p)).collect();
        painter.add(Shape::line(points, Stroke::new(thin * 2.0, BRANCH)));
    }
    if !marks.path.is_empty() && !in_pixels {
        let points: Vec<Pos2> = marks.path.iter().map(|&p| g.place_pos(p)).collect();
        painter.add(Shape::line(points, Stroke::new(thin * 1.5, DFS_PATH)));
    }
    if let Some(current) = marks.current {
        let rect = g.cell_rect(current.cell);
        match current.side {
            None => {
                painter.rect_stroke(
                    rect,
                    0.0,
                    Stroke::new(thin * 1.5, CURRENT),
                    StrokeKind::Inside,
                );
            }
            Some(entry) => {
                painter.add(wedge(rect, entry, CURRENT));
            }
        }
    }
}

/// The solution of puzzles whose states have places, as a path of arrows up to the move
/// shown (none when the path is `in_pixels` of the texture), the landing squares of jumps
/// numbered, and the marker on the shown state. Board puzzles show it as their pictures.
fn paint_solution(painter: &egui::Painter, g: &Geometry, scene: &Scene, in_pixels: bool) {
    let Some(report) = scene.result.filter(|r| r.solved && !r.path.is_empty()) else {
        return;
    };
    let side = g.side;
    let center = |cell: Cell| g.center(cell);
    let shown = scene.shown.min(report.path.len() - 1);
    let stroke = Stroke::new((side * 0.12).clamp(2.0, 5.0), SOLUTION);
    let arrows = if in_pixels {
        &report.path[..0]
    } else {
        &report.path[..=shown]
    };
    let clip = painter.clip_rect();
    for pair in arrows.windows(2) {
        let (from, to) = (center(pair[0].cell), center(pair[1].cell));
        if !clip.expand(side).contains(from) && !clip.expand(side).contains(to) {
            continue; // out of view
        }
        let head = (to - from).normalized() * (side * 0.35).min((to - from).length() * 0.5);
        painter.line_segment([from, to], stroke);
        painter.arrow(to - head, head, stroke);
    }
    // Number each landing square of a path of jumps, so one that doubles back stays
    // readable; a path of single steps reads well enough as it is (told by its first
    // moves, so that a long solution costs no scan a frame).
    let jumps = || {
        report.path.windows(2).take(64).any(|p| {
            let (a, b) = (p[0].cell, p[1].cell);
            a.row.abs_diff(b.row).max(a.col.abs_diff(b.col)) > 1
        })
    };
    if side >= 14.0 && jumps() {
        for (i, place) in report.path[1..=shown].iter().enumerate() {
            let at = center(place.cell) + vec2(side * 0.32, -side * 0.32);
            painter.circle_filled(at, side * 0.27, SOLUTION);
            painter.text(
                at,
                Align2::CENTER_CENTER,
                (i + 1).to_string(),
                FontId::proportional(side * 0.36),
                Color32::WHITE,
            );
        }
    }
    // The marker stands on the shown state, or moves between two during a transition.
    let marker = match scene.transition {
        Some((from, to, t)) if from.max(to) < report.path.len() => {
            let (a, b) = (report.path[from], report.path[to]);
            let heading = report.path[from.max(to)];
            Some((center(a.cell).lerp(center(b.cell), t), heading))
        }
        _ => report.path.get(shown).map(|&at| (center(at.cell), at)),
    };
    if let Some((pos, at)) = marker {
        match at.side {
            // A state that entered from a side is a vehicle heading away from it.
            Some(entry) => painter.add(vehicle(pos, entry.opposite(), side)),
            None => painter.circle_filled(pos, side * 0.3, SOLUTION),
        };
    }
}

/// The exit of a board of pieces: where its goal area meets the board's edge (the right edge
/// at the target car's row, or the bottom under the goal outline), a bar in the target
/// piece's colour just outside the edge, with an arrow pointing out.
fn exit_marker(
    painter: &egui::Painter,
    picture: &Picture,
    cell_rect: &impl Fn(Cell) -> Rect,
    side: f32,
) {
    let Some(area) = picture
        .goal_area
        .iter()
        .map(|&c| cell_rect(c))
        .reduce(|a, b| a.union(b))
    else {
        return;
    };
    let board = cell_rect(Cell::new(0, 0)).union(cell_rect(Cell::new(
        picture.rows.saturating_sub(1),
        picture.cols.saturating_sub(1),
    )));
    let near = |a: f32, b: f32| (a - b).abs() < side * 0.25;
    let depth = (side * 0.18).max(3.0);
    // The side of the board the goal area touches, with the outward direction.
    let (bar, out) = if near(area.right(), board.right()) {
        (
            Rect::from_min_max(
                pos2(board.right(), area.top() + side * 0.1),
                pos2(board.right() + depth, area.bottom() - side * 0.1),
            ),
            vec2(1.0, 0.0),
        )
    } else if near(area.bottom(), board.bottom()) {
        (
            Rect::from_min_max(
                pos2(area.left() + side * 0.1, board.bottom()),
                pos2(area.right() - side * 0.1, board.bottom() + depth),
            ),
            vec2(0.0, 1.0),
        )
    } else if near(area.left(), board.left()) {
        (
            Rect::from_min_max(
                pos2(board.left() - depth, area.top() + side * 0.1),
                pos2(board.left(), area.bottom() - side * 0.1),
            ),
            vec2(-1.0, 0.0),
        )
    } else if near(area.top(), board.top()) {
        (
            Rect::from_min_max(
                pos2(area.left() + side * 0.1, board.top() - depth),
                pos2(area.right() - side * 0.1, board.top()),
            ),
            vec2(0.0, -1.0),
        )
    } else {
        return;
    };
    painter.rect_filled(bar, depth * 0.3, TARGET.gamma_multiply(0.8));
    // A chevron pointing out, in the bar's middle.
    let c = bar.center();
    let n = vec2(-out.y, out.x) * depth * 0.35;
    let tip = c + out * depth * 0.3;
    let back = c - out * depth * 0.2;
    painter.line(
        vec![back + n, tip, back - n],
        Stroke::new((depth * 0.15).max(1.0), Color32::WHITE),
    );
}
