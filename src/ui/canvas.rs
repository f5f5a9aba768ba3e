//! The puzzle canvas: the grid of squares, the search's marks on it (closed set, frontier,
//! current state, depth-first path), and the solution with the playback position.
//!
//! Two coordinate spaces: *cell space*, where x is the column and y the row (origin at the
//! top-left corner of square (0, 0), one unit per square), and *screen space*. `screen_from_cell`
//! maps the first to the second and its inverse `cell_from_screen` back.

use std::borrow::Cow;

use eframe::egui::{
    self, Align2, Color32, ColorImage, FontId, Pos2, Rect, Sense, Shape, Stroke, StrokeKind,
    TextureHandle, TextureOptions, Vec2, emath, pos2, vec2,
};

use crate::app::{AppCommand, CanvasExtras, Mark, PaintStroke, Pointer, PuzzleLabApp, SearchView};
use crate::puzzles::{Cell, Picture, PieceMove, Place, Report, Side, Square};

/// The accessibility label of the canvas, by which UI tests find it.
pub const CANVAS_LABEL: &str = "puzzle canvas";

const FREE: Color32 = Color32::from_gray(238);
const BLOCKED: Color32 = Color32::from_gray(48);
const NUMBER: Color32 = Color32::from_rgb(250, 240, 214);
const START: Color32 = Color32::from_rgb(46, 160, 80);
const GOAL: Color32 = Color32::from_rgb(228, 180, 40);
const CLOSED: Color32 = Color32::from_rgb(150, 190, 240);
const FRONTIER: Color32 = Color32::from_rgb(160, 225, 160);
const CURRENT: Color32 = Color32::from_rgb(220, 40, 40);
const DFS_PATH: Color32 = Color32::from_rgb(140, 60, 200);
const SOLUTION: Color32 = Color32::from_rgb(210, 30, 120);
const SELECTED: Color32 = Color32::from_rgb(30, 110, 230);
const TARGET: Color32 = Color32::from_rgb(210, 50, 50);
const CLUSTER: Color32 = Color32::from_rgb(120, 200, 215);

/// Grids with more squares than this are drawn as a texture, one pixel a square, instead of
/// a shape a square.
pub const TEXTURE_SQUARES: usize = 96 * 96;

/// The largest zoom: squares this many times the size that fits the whole grid.
const MAX_ZOOM: f32 = 256.0;

/// The colours of the search's marks, with their meaning, for the legend.
pub const LEGEND: [(Color32, &str); 5] = [
    (CLOSED, "closed (expanded)"),
    (FRONTIER, "frontier (open)"),
    (CURRENT, "expanding now"),
    (DFS_PATH, "depth-first path"),
    (SOLUTION, "solution"),
];

/// Draws the canvas into the rest of `ui` and turns pointer strokes on it into
/// [`AppCommand::Paint`] commands.
pub fn canvas_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    // Board puzzles show the state being searched, or the solution's state being played back;
    // a piece moving between two shown states is drawn apart, sliding along its route.
    let transition = app.transition();
    let mut sliding = None;
    // `None`: the puzzle as it is, from the picture cache (a maze, whose large grids are
    // costly to picture, is pictured once per edit).
    let mut shown: Option<Picture> = match (
        app.result().filter(|r| !r.boards.is_empty()),
        &app.view().board,
    ) {
        (Some(report), _) => {
            let last = report.boards.len() - 1;
            Some(match transition {
                Some((from, to, t)) if from.max(to) <= last => {
                    sliding = report.boards[from]
                        .moved_piece(&report.boards[to])
                        .map(|m| (m, t));
                    report.boards[from].clone()
                }
                _ => report.boards[app.shown_moves().min(last)].clone(),
            })
        }
        (None, Some(board)) if app.is_running() => Some(board.clone()),
        // The puzzle as it is, pictured once per edit (large grids are costly to picture).
        _ if app.edit_transition().is_none() => None,
        _ => {
            // A move played by hand slides into place too.
            let now = app.puzzle.picture();
            Some(match app.edit_transition() {
                Some((before, t)) => match before.moved_piece(&now) {
                    Some(m) => {
                        sliding = Some((m, t));
                        before.clone()
                    }
                    None => now,
                },
                None => now,
            })
        }
    };
    if let (Some(picture), Some((m, _))) = (&mut shown, &sliding) {
        for cell in &m.cells {
            picture.squares[cell.row * picture.cols + cell.col] = Square::Free;
        }
    }
    let mut cache = app.picture_cache.take();
    let picture: Cow<Picture> = match shown {
        Some(picture) => Cow::Owned(picture),
        None => Cow::Borrowed(cached_picture(app, &mut cache)),
    };
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, CANVAS_LABEL));
    app.canvas_rect = Some(response.rect);
    let (rows, cols) = (picture.rows as f32, picture.cols as f32);
    zoom_and_pan(app, ui, &response, rows, cols);
    let (grid, _) = grid_rect(response.rect, rows, cols, app.zoom, app.pan);
    let screen_from_cell =
        emath::RectTransform::from_to(Rect::from_min_size(Pos2::ZERO, vec2(cols, rows)), grid);
    let cell_from_screen = screen_from_cell.inverse();
    let cell_at = |pos: Pos2| {
        let p = cell_from_screen * pos;
        (p.x >= 0.0 && p.y >= 0.0 && p.x < cols && p.y < rows)
            .then(|| Cell::new(p.y as usize, p.x as usize))
    };
    pointer_input(app, &response, cell_at);
    let hover = response.hover_pos().and_then(cell_at);
    let mut extras = CanvasExtras::default();
    let view = app.type_view.take();
    if let Some(view) = &view {
        extras = view.canvas_extras(app, hover);
    }
    let mut texture = take_texture(ui.ctx(), TEXTURE_ID);
    let scene = Scene {
        picture,
        view: app.view(),
        result: app.result(),
        shown: app.shown_moves(),
        transition,
        sliding,
        selected: extras.selected,
        ghost: extras.ghost,
        zoom: app.zoom,
        pan: app.pan,
        cluster: extras.tint,
        revision: app.revision,
        budget: app.work_budget,
    };
    paint_scene(&painter, response.rect, &scene, &mut texture);
    drop(scene);
    if app.type_view.is_none() {
        app.type_view = view;
    }
    ui.data_mut(|d| d.insert_temp(egui::Id::unique(TEXTURE_ID), texture));
    app.picture_cache = cache;
}

/// Pointer input on the canvas: the type's view takes it first (an editor's tool, dragging
/// a maze's start); otherwise a press starts a stroke with the value of the square under the
/// pointer and a drag paints that value onto each square it passes. A quick click presses
/// and releases within one frame, so clicks count as well as held buttons.
fn pointer_input(
    app: &mut PuzzleLabApp,
    response: &egui::Response,
    cell_at: impl Fn(Pos2) -> Option<Cell>,
) {
    let view_takes = |app: &mut PuzzleLabApp, pointer: Pointer| {
        let mut took = false;
        app.with_view(|view, app| took = view.pointer(app, pointer));
        took
    };
    let is_down = response.is_pointer_button_down_on();
    let under = response.interact_pointer_pos().and_then(&cell_at);
    if (is_down || response.clicked())
        && let Some(cell) = under
    {
        match &mut app.stroke {
            None => {
                let by_view = view_takes(app, Pointer::Press(cell));
                let value = if by_view {
                    None
                } else {
                    app.puzzle.stroke_value(cell)
                };
                app.stroke = Some(PaintStroke {
                    value,
                    last: Some(cell),
                    recorded: false,
                    by_view,
                });
                if let Some(value) = value {
                    app.push(AppCommand::Paint(cell, value));
                }
            }
            Some(stroke) if stroke.last != Some(cell) => {
                stroke.last = Some(cell);
                let (by_view, value) = (stroke.by_view, stroke.value);
                if by_view {
                    view_takes(app, Pointer::Drag(cell));
                } else if let Some(value) = value {
                    app.push(AppCommand::Paint(cell, value));
                }
            }
            Some(_) => {}
        }
    }
    if response.clicked()
        && let Some(cell) = under
    {
        view_takes(app, Pointer::Click(cell));
    }
    if !is_down {
        app.stroke = None;
    }
}

/// Where the canvas keeps its texture between frames, in egui's memory.
const TEXTURE_ID: &str = "canvas texture";

/// The texture kept under `id` in egui's memory, taken out (put it back when drawn).
pub(crate) fn take_texture(ctx: &egui::Context, id: &str) -> Option<GridTexture> {
    ctx.data_mut(|d| d.remove_temp::<Option<GridTexture>>(egui::Id::unique(id)))
        .flatten()
}

/// Whether the canvas drew the puzzle as a texture (a large grid) in the last frame.
pub fn canvas_is_texture(ctx: &egui::Context) -> bool {
    ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<Option<GridTexture>>(egui::Id::unique(TEXTURE_ID))
            .is_some()
    })
}

/// The puzzle's picture as it is now, pictured once per edit ([`PuzzleLabApp::revision`])
/// and kept in `cache`: a large maze is costly to picture.
pub(crate) fn cached_picture<'a>(
    app: &PuzzleLabApp,
    cache: &'a mut Option<(u64, Picture)>,
) -> &'a Picture {
    let revision = app.revision;
    if cache.as_ref().is_none_or(|(r, _)| *r != revision) {
        *cache = Some((revision, app.puzzle.picture()));
    }
    &cache
        .get_or_insert_with(|| (revision, app.puzzle.picture()))
        .1
}

/// The grid's place in `rect` at `zoom` (1 fits the whole grid) and `pan` (squares from the
/// centre), and the side of a square in points.
fn grid_rect(rect: Rect, rows: f32, cols: f32, zoom: f32, pan: Vec2) -> (Rect, f32) {
    let fit = (rect.width() / cols).min(rect.height() / rows);
    let side = (fit * zoom).max(0.01);
    let grid = Rect::from_center_size(rect.center() + pan * side, vec2(side * cols, side * rows));
    (grid, side)
}

/// Scrolling over the canvas zooms about the pointer; dragging with the right or middle
/// button pans. Double-clicking with the right button fits the grid again.
fn zoom_and_pan(
    app: &mut PuzzleLabApp,
    ui: &egui::Ui,
    response: &egui::Response,
    rows: f32,
    cols: f32,
) {
    let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
    if let Some(pointer) = response
        .hover_pos()
        .filter(|_| scroll != 0.0 || pinch != 1.0)
    {
        let factor = (scroll * 0.002).exp() * pinch;
        let (_, side) = grid_rect(response.rect, rows, cols, app.zoom, app.pan);
        let center = response.rect.center();
        // The point of the grid under the pointer, in squares from the grid's centre.
        let under = (pointer - center) / side - app.pan;
        app.zoom = (app.zoom * factor).clamp(1.0, MAX_ZOOM);
        let (_, new_side) = grid_rect(response.rect, rows, cols, app.zoom, Vec2::ZERO);
        app.pan = (pointer - center) / new_side - under;
    }
    if response.dragged_by(egui::PointerButton::Secondary)
        || response.dragged_by(egui::PointerButton::Middle)
    {
        let (_, side) = grid_rect(response.rect, rows, cols, app.zoom, app.pan);
        app.pan += response.drag_delta() / side;
    }
    if response.double_clicked_by(egui::PointerButton::Secondary) || app.zoom <= 1.0 {
        app.zoom = 1.0;
        app.pan = Vec2::ZERO;
    }
}

/// What a canvas shows: a picture of the puzzle, a search's marks on it, and a solution with
/// the playback position. The main canvas and each race pane paint one.
pub(crate) struct Scene<'a> {
    /// The picture to draw (a sliding piece already taken off it).
    pub picture: Cow<'a, Picture>,
    /// The search's marks: closed set, frontier, current state, depth-first path.
    pub view: &'a SearchView,
    /// The finished search, whose solution is drawn up to `shown` moves.
    pub result: Option<&'a Report>,
    /// How many moves of the solution are shown.
    pub shown: usize,
    /// A move being animated: (from, to, progress 0 to 1).
    pub transition: Option<(usize, usize, f32)>,
    /// A piece sliding along its route, and how far it has got (0 to 1).
    pub sliding: Option<(PieceMove, f32)>,
    /// A square to outline as selected.
    pub selected: Option<Cell>,
    /// A block of squares to outline (top-left square, (rows, columns)): where a click of
    /// an editor would place a piece.
    pub ghost: Option<(Cell, (usize, usize))>,
    /// Zoom: 1 fits the whole grid.
    pub zoom: f32,
    /// Pan, in squares from the centred position.
    pub pan: Vec2,
    /// Squares to tint as the percolating cluster (row-major), if shown.
    pub cluster: Option<&'a [bool]>,
    /// The puzzle's edit count, for caching a texture of the picture.
    pub revision: u64,
    /// How long this frame may spend writing the search's marks into a grid's texture; the
    /// rest waits for the next frame.
    pub budget: std::time::Duration,
}

/// Paints `scene` into `rect`: square cells, the grid centred (then zoomed and panned). A
/// large grid is drawn as a texture, kept in `texture` between frames.
pub(crate) fn paint_scene(
    painter: &egui::Painter,
    rect: Rect,
    scene: &Scene,
    texture: &mut Option<GridTexture>,
) {
    let picture: &Picture = &scene.picture;
    let (rows, cols) = (picture.rows as f32, picture.cols as f32);
    let (grid, side) = grid_rect(rect, rows, cols, scene.zoom, scene.pan);
    let screen_from_cell =
        emath::RectTransform::from_to(Rect::from_min_size(Pos2::ZERO, vec2(cols, rows)), grid);
    let cell_rect = |cell: Cell| {
        Rect::from_min_size(
            screen_from_cell * pos2(cell.col as f32, cell.row as f32),
            vec2(side, side),
        )
    };
    let center = |cell: Cell| cell_rect(cell).center();
    let transition = scene.transition;
    let view = scene.view;
    let gap = if side >= 6.0 { 1.0 } else { 0.0 };
    let thin = (side * 0.08).clamp(1.0, 3.0);
    let as_texture = picture.squares.len() > TEXTURE_SQUARES
        && texture
            .get_or_insert_with(GridTexture::default)
            .is_plain(scene);
    match texture.as_mut().filter(|_| as_texture) {
        Some(t) => {
            let id = t.update(painter.ctx(), scene);
            painter.image(
                id,
                grid,
                Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                Color32::WHITE,
            );
            // A square may be far smaller than a pixel: the start and the goals keep a
            // marker of at least 6 points across.
            for &(cell, color) in &t.markers {
                let radius = (side * 0.5).max(3.0);
                painter.circle(
                    center(cell),
                    radius,
                    color,
                    Stroke::new(1.0, Color32::from_gray(20)),
                );
            }
        }
        None => *texture = None,
    }
    // Only the squares in view are drawn.
    let clip = painter.clip_rect().intersect(rect);
    let first = cell_from(screen_from_cell.inverse() * clip.min, picture);
    let last = cell_from(screen_from_cell.inverse() * clip.max, picture);
    let (row_range, col_range) = if as_texture {
        (0..0, 0..0)
    } else {
        (
            first.row..(last.row + 1).min(picture.rows),
            first.col..(last.col + 1).min(picture.cols),
        )
    };
    let mut shapes = Vec::with_capacity(row_range.len() * col_range.len() + 16);
    for row in row_range {
        for col in col_range.clone() {
            let cell = Cell::new(row, col);
            let square = picture.squares[row * picture.cols + col];
            let rect = cell_rect(cell).shrink(gap * 0.5);
            let marked = mark_color(view.mark(cell));
            match square {
                Square::Void => {}
                Square::Free => {
                    let base = match scene.cluster {
                        Some(c) if c[row * picture.cols + col] => CLUSTER,
                        _ => FREE,
                    };
                    shapes.push(Shape::rect_filled(rect, 0.0, marked.unwrap_or(base)));
                }
                Square::Blocked => shapes.push(Shape::rect_filled(rect, 0.0, BLOCKED)),
                Square::Terrain(cost) => {
                    let fill = terrain_color(cost);
                    let fill = marked.map_or(fill, |m| fill.lerp_to_gamma(m, 0.55));
                    shapes.push(Shape::rect_filled(rect, 0.0, fill));
                }
                Square::Start | Square::Goal => {
                    let fill = if square == Square::Start { START } else { GOAL };
                    shapes.push(Shape::rect_filled(rect, 0.0, marked.unwrap_or(fill)));
                    if marked.is_some() {
                        shapes.push(Shape::rect_filled(rect.shrink(side * 0.2), 0.0, fill));
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
                Square::Tile { .. } => tile_shapes(painter, &mut shapes, cell_rect(cell), square),
                Square::Piece { id, .. } => {
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
                    for (entry, mark) in Side::ALL.into_iter().zip(view.side_marks(cell)) {
                        if let Some(color) = mark_color(mark) {
                            shapes.push(wedge(rect, entry, color));
                        }
                    }
                    junction_shapes(&mut shapes, rect, turns, thin);
                }
            }
        }
    }
    painter.extend(shapes);
    if let Some((m, t)) = &scene.sliding {
        // The moving piece, part way along its route (eased at both ends).
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
                    cell_rect(*cell).translate(offset),
                    m.square,
                );
                painter.extend(tile);
                continue;
            }
            let rect = piece_cell_rect(cell_rect(*cell), side * 0.05, same).translate(offset);
            painter.rect_filled(rect, 0.0, piece_fill(m.square));
        }
    }
    // The editor's shape under the pointer, where a click would place it.
    if let Some((cell, (h, w))) = scene.ghost {
        let rect = Rect::from_min_size(cell_rect(cell).min, vec2(side * w as f32, side * h as f32));
        painter.rect_stroke(
            rect.shrink(side * 0.05),
            side * 0.08,
            Stroke::new(thin * 1.5, SELECTED),
            StrokeKind::Inside,
        );
    }

    if let Some(cell) = scene.selected {
        painter.rect_stroke(
            cell_rect(cell),
            side * 0.08,
            Stroke::new(thin * 1.5, SELECTED),
            StrokeKind::Inside,
        );
    }
    if let Some(start) = picture.start
        && picture.get(start) != Some(Square::Start)
    {
        painter.circle_stroke(center(start), side * 0.48, Stroke::new(thin * 1.5, START));
    }
    if let Some(area) = picture
        .goal_area
        .iter()
        .map(|&c| cell_rect(c))
        .reduce(|a, b| a.union(b))
    {
        painter.rect_stroke(
            area.shrink(side * 0.08),
            side * 0.1,
            Stroke::new(thin * 1.5, TARGET.gamma_multiply(0.8)),
            StrokeKind::Inside,
        );
    }
    // A place with a side is drawn near that side of its square.
    let place_pos = |place: Place| match place.side {
        None => center(place.cell),
        Some(s) => {
            let (dr, dc) = s.delta();
            center(place.cell) + vec2(dc as f32, dr as f32) * side * 0.3
        }
    };
    // On a texture of small squares the path is in its pixels already.
    let path_in_pixels = as_texture && side < 6.0;
    if !view.path.is_empty() && !path_in_pixels {
        let points: Vec<Pos2> = view.path.iter().map(|&p| place_pos(p)).collect();
        painter.add(Shape::line(points, Stroke::new(thin * 1.5, DFS_PATH)));
    }
    if let Some(current) = view.current {
        let rect = cell_rect(current.cell);
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
    // Puzzles whose states have places draw the solution as a path (board puzzles show it as
    // the pictures above).
    if let Some(report) = scene.result.filter(|r| r.solved && !r.path.is_empty()) {
        let shown = scene.shown.min(report.path.len() - 1);
        let stroke = Stroke::new((side * 0.12).clamp(2.0, 5.0), SOLUTION);
        // On a texture the path is drawn in its pixels; arrows only when squares are large.
        let arrows = if as_texture && side < 6.0 {
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
        // readable; a path of single steps reads well enough as it is.
        // (told by its first moves, so that a long solution costs no scan a frame).
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
        let marker = match transition {
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
}

/// The part of square `full` a piece cell fills: all of it on the sides where `same(dr, dc)`
/// says the neighbour is the same piece, inset by `inset` elsewhere, so a piece reads as one
/// block and neighbouring pieces stay apart.
fn piece_cell_rect(full: Rect, inset: f32, same: impl Fn(isize, isize) -> bool) -> Rect {
    let edge = |dr, dc| if same(dr, dc) { 0.0 } else { inset };
    Rect::from_min_max(
        full.min + vec2(edge(0, -1), edge(-1, 0)),
        full.max - vec2(edge(0, 1), edge(1, 0)),
    )
}

/// A numbered tile filling most of `rect`: a rounded square, green when it stands on its goal
/// square, with its number large in the middle.
fn tile_shapes(painter: &egui::Painter, shapes: &mut Vec<Shape>, rect: Rect, square: Square) {
    let Square::Tile { number, home } = square else {
        return;
    };
    let side = rect.width();
    let fill = if home {
        Color32::from_rgb(120, 190, 130)
    } else {
        Color32::from_rgb(235, 205, 150)
    };
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
fn piece_fill(square: Square) -> Color32 {
    match square {
        Square::Piece { target: true, .. } => TARGET,
        Square::Piece { class, .. } => piece_color(class),
        _ => FREE,
    }
}

/// The colour of a class of interchangeable pieces.
fn piece_color(class: u8) -> Color32 {
    const PALETTE: [Color32; 6] = [
        Color32::from_rgb(90, 140, 200),
        Color32::from_rgb(230, 170, 60),
        Color32::from_rgb(110, 180, 120),
        Color32::from_rgb(170, 120, 190),
        Color32::from_rgb(90, 180, 190),
        Color32::from_rgb(200, 130, 110),
    ];
    PALETTE[usize::from(class) % PALETTE.len()]
}

/// The square of `picture` nearest the cell-space point `p`.
fn cell_from(p: Pos2, picture: &Picture) -> Cell {
    let clamp = |v: f32, n: usize| (v.max(0.0) as usize).min(n.saturating_sub(1));
    Cell::new(clamp(p.y, picture.rows), clamp(p.x, picture.cols))
}

/// Whether every square is one a texture shows well: free, blocked, terrain, start or goal.
pub(crate) fn is_plain_grid(picture: &Picture) -> bool {
    picture.squares.iter().all(|s| {
        matches!(
            s,
            Square::Free | Square::Blocked | Square::Terrain(_) | Square::Start | Square::Goal
        )
    })
}

/// A large grid drawn as a texture, one pixel a square. It is remade whole only when the
/// picture changes (an edit); everything else is written into it incrementally — the squares
/// whose search marks changed since the last frame (from [`SearchView::changed`]), the marks
/// of a previous run taken off, the solution's squares as playback moves on or back, and the
/// overlays (depth-first path, current state) — and only the tiles touched are uploaded
/// ([`TextureHandle::set_partial`]). A frame's work follows what changed, not the grid's size.
#[derive(Clone, Default)]
pub struct GridTexture {
    handle: Option<TextureHandle>,
    /// What the whole picture depends on: the puzzle's revision, the cluster overlay, the
    /// size.
    key: Option<(u64, bool, usize, usize)>,
    /// The pixels uploaded, when the texture has one pixel a square (not shrunk to fit).
    image: Option<ColorImage>,
    /// The view drawn ([`SearchView::id`]), its revision, and how many of its changes.
    view: (u64, u64, usize),
    /// Pixels carrying a mark of the view drawn, to clear when another view comes.
    marked: Vec<u32>,
    /// The solution drawn (its path's address and length), and its squares painted, in
    /// order: the first `shown + 1` of its path.
    solution: Option<(usize, usize)>,
    solution_pixels: Vec<u32>,
    /// Whether each pixel is one of `solution_pixels`.
    on_solution: Vec<bool>,
    /// Pixels painted with an overlay colour (path, current state) that must be restored
    /// before the next overlay is drawn.
    overlay: Vec<usize>,
    /// Whether the picture of the puzzle revision `.0` (of `.1` squares) is a plain grid:
    /// found once per edit, not every frame.
    plain: Option<(u64, usize, bool)>,
    /// The start and goal squares with their colours, drawn as markers over the texture.
    markers: Vec<(Cell, Color32)>,
    /// The picture with no search marks, no solution and no overlays, made when a new run
    /// must clear many marks; forgotten when the picture changes.
    base: Option<ColorImage>,
    /// For a texture shrunk to fit: the view, its revision, the solution's position and the
    /// solution it was made for.
    fitted_state: Option<ShownState>,
    /// Whether some of the search's marks wait for the next update (see [`Scene::budget`]).
    behind: bool,
}

/// See [`GridTexture::fitted_state`].
type ShownState = (u64, u64, usize, Option<(usize, usize)>);

/// Side of the square tiles uploaded separately when part of the picture changes.
const TILE: usize = 64;

/// How many marks are written between two looks at the clock.
const MARKS_CHUNK: usize = 4096;

/// The tiles of a texture `cols` pixels wide touched by an update, row-major.
struct DirtyTiles {
    cols: usize,
    tiles_across: usize,
    tiles: Vec<bool>,
}

impl DirtyTiles {
    fn new(cols: usize) -> Self {
        Self {
            cols,
            tiles_across: cols.div_ceil(TILE),
            tiles: Vec::new(),
        }
    }

    /// Marks the tile of pixel `i` (row-major).
    fn mark(&mut self, i: usize) {
        let tile = (i / self.cols / TILE) * self.tiles_across + (i % self.cols) / TILE;
        if self.tiles.len() <= tile {
            self.tiles.resize(tile + 1, false);
        }
        self.tiles[tile] = true;
    }
}

impl GridTexture {
    /// Brings the texture up to date with `scene` and returns its id.
    fn update(&mut self, ctx: &egui::Context, scene: &Scene) -> egui::TextureId {
        let picture: &Picture = &scene.picture;
        let key = (
            scene.revision,
            scene.cluster.is_some(),
            picture.rows,
            picture.cols,
        );
        // A texture shrunk to fit (a grid larger than the backend takes) has no pixel a
        // square to update: it is remade whenever what it shows changes.
        let shown_state = (
            scene.view.id,
            scene.view.revision,
            scene.shown,
            scene
                .result
                .map(|r| (r.path.as_ptr() as usize, r.path.len())),
        );
        if let Some(handle) = &self.handle
            && self.key == Some(key)
        {
            let id = handle.id();
            if self.image.is_some() {
                let deadline = std::time::Instant::now() + scene.budget;
                self.behind = !self.apply_changes(scene, Some(deadline));
                if self.behind {
                    // The rest of the search's marks go into the next frames.
                    ctx.request_repaint();
                }
                return id;
            }
            if self.fitted_state == Some(shown_state) {
                return id;
            }
        }
        self.key = None;
        self.base = None;
        self.behind = false;
        self.fitted_state = Some(shown_state);
        let image = grid_image(scene);
        let max_side = ctx.input(|i| i.max_texture_side);
        let fitted = image.size[0] > max_side || image.size[1] > max_side;
        self.on_solution = vec![false; image.pixels.len()];
        self.marked.clear();
        self.solution = None;
        self.solution_pixels.clear();
        self.overlay.clear();
        self.view = (scene.view.id, 0, 0);
        self.image = Some(image);
        // The view's marks, the solution and the overlays, then one upload of the whole.
        self.apply_changes(scene, None);
        let Some(image) = self.image.take() else {
            return egui::TextureId::default();
        };
        let options = TextureOptions::NEAREST;
        let upload = if fitted {
            fit_texture(image.clone(), max_side)
        } else {
            image.clone()
        };
        match &mut self.handle {
            Some(handle) => handle.set(upload, options),
            None => self.handle = Some(ctx.load_texture("grid", upload, options)),
        }
        self.image = (!fitted).then_some(image);
        self.key = Some(key);
        match &self.handle {
            Some(handle) => handle.id(),
            None => egui::TextureId::default(),
        }
    }

    /// Writes what changed since the last update into the pixels, and uploads the tiles it
    /// touched (none while the texture is being made whole). The search's marks are written
    /// until `deadline`, the rest left for the next call; returns whether all were written.
    fn apply_changes(&mut self, scene: &Scene, deadline: Option<std::time::Instant>) -> bool {
        let Some(image) = &mut self.image else {
            return true;
        };
        let cols = image.size[0];
        let tiles_across = cols.div_ceil(TILE);
        let mut dirty = DirtyTiles::new(cols);
        let on_solution = &mut self.on_solution;
        // Sets pixel `i` to its square's colour (or the solution's) and marks its tile.
        let mut repaint = |i: usize, image: &mut ColorImage, on_solution: &[bool]| {
            let Some(p) = image.pixels.get_mut(i) else {
                return;
            };
            *p = if on_solution.get(i) == Some(&true) {
                SOLUTION
            } else {
                square_pixel(scene, i)
            };
            dirty.mark(i);
        };
        for &i in &self.overlay {
            repaint(i, image, on_solution);
        }
        // Another run's view: its marks come off, one by one if they are few, else by copying
        // the unmarked picture back whole (then uploaded whole).
        let view = scene.view;
        let mut whole = false;
        if self.view.0 != view.id || self.view.2 > view.changed.len() {
            if self.marked.len() > image.pixels.len() / 16 {
                let base = self.base.get_or_insert_with(|| unmarked_image(scene));
                image.pixels.copy_from_slice(&base.pixels);
                for &i in &self.solution_pixels {
                    image.pixels[i as usize] = SOLUTION;
                }
                self.marked.clear();
                self.overlay.clear();
                whole = true;
            }
            for i in std::mem::take(&mut self.marked) {
                repaint(i as usize, image, on_solution);
            }
            self.view = (view.id, 0, 0);
        }
        let mut written = self.view.2;
        for chunk in view.changed[written..].chunks(MARKS_CHUNK) {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                break;
            }
            for &i in chunk {
                self.marked.push(i);
                repaint(i as usize, image, on_solution);
            }
            written += chunk.len();
        }
        let complete = written == view.changed.len();
        self.view = (view.id, view.revision, written);
        // The solution: a new one replaces the old; playback paints or restores the squares
        // between the old and the new position (a solution never visits a square twice).
        let solution = scene
            .result
            .filter(|r| r.solved && !r.path.is_empty())
            .map(|r| &r.path);
        let identity = solution.map(|p| (p.as_ptr() as usize, p.len()));
        if identity != self.solution {
            for i in std::mem::take(&mut self.solution_pixels) {
                on_solution[i as usize] = false;
                repaint(i as usize, image, on_solution);
            }
            self.solution = identity;
        }
        if let Some(path) = solution {
            let want = scene.shown.min(path.len() - 1) + 1;
            while self.solution_pixels.len() > want {
                if let Some(i) = self.solution_pixels.pop() {
                    on_solution[i as usize] = false;
                    repaint(i as usize, image, on_solution);
                }
            }
            for place in &path[self.solution_pixels.len()..want] {
                let i = place.cell.row * cols + place.cell.col;
                if i < on_solution.len() {
                    on_solution[i] = true;
                    self.solution_pixels.push(i as u32);
                    repaint(i, image, on_solution);
                }
            }
        }
        self.overlay = draw_overlays(scene, image);
        for &i in &self.overlay {
            dirty.mark(i);
        }
        let Some(handle) = &mut self.handle else {
            return complete; // being made whole: uploaded at once by the caller
        };
        if self.key.is_none() {
            return complete;
        }
        if whole {
            handle.set(image.clone(), TextureOptions::NEAREST);
            return complete;
        }
        let [w, h] = image.size;
        for (tile, _) in dirty.tiles.iter().enumerate().filter(|(_, d)| **d) {
            let (x0, y0) = ((tile % tiles_across) * TILE, (tile / tiles_across) * TILE);
            if x0 >= w || y0 >= h {
                continue;
            }
            let (tw, th) = (TILE.min(w - x0), TILE.min(h - y0));
            let pixels = (y0..y0 + th)
                .flat_map(|y| image.pixels[y * w + x0..y * w + x0 + tw].iter().copied())
                .collect();
            handle.set_partial(
                [x0, y0],
                ColorImage::new([tw, th], pixels),
                TextureOptions::NEAREST,
            );
        }
        complete
    }

    /// Whether `scene`'s picture is a plain grid (see [`is_plain_grid`]), worked out once per
    /// puzzle revision; the start and goal markers are found at the same time.
    fn is_plain(&mut self, scene: &Scene) -> bool {
        let picture: &Picture = &scene.picture;
        let key = (scene.revision, picture.squares.len());
        if let Some((revision, len, plain)) = self.plain
            && (revision, len) == key
        {
            return plain;
        }
        let plain = is_plain_grid(picture);
        self.plain = Some((key.0, key.1, plain));
        self.markers = picture
            .squares
            .iter()
            .enumerate()
            .filter_map(|(i, square)| {
                let color = match square {
                    Square::Start => START,
                    Square::Goal => GOAL,
                    _ => return None,
                };
                Some((Cell::new(i / picture.cols, i % picture.cols), color))
            })
            .take(1024)
            .collect();
        plain
    }

    /// Whether the last update left some of the search's marks for the next one.
    pub fn is_behind(&self) -> bool {
        self.behind
    }

    /// The pixels last uploaded, when the texture has one pixel a square.
    pub fn pixels(&self) -> Option<&ColorImage> {
        self.image.as_ref()
    }
}

/// The colour of square `i` (row-major) of a plain grid: its kind, its search mark, the
/// percolating cluster.
fn square_pixel(scene: &Scene, i: usize) -> Color32 {
    let picture: &Picture = &scene.picture;
    let mark = scene
        .view
        .mark(Cell::new(i / picture.cols, i % picture.cols));
    square_color(picture, scene.cluster, i, mark)
}

/// The colour of square `i` of a plain grid with search mark `mark`.
fn square_color(picture: &Picture, cluster: Option<&[bool]>, i: usize, mark: Mark) -> Color32 {
    let marked = mark_color(mark);
    match picture.squares[i] {
        Square::Blocked => BLOCKED,
        Square::Start => START,
        Square::Goal => GOAL,
        Square::Terrain(c) => {
            let fill = terrain_color(c);
            marked.map_or(fill, |m| fill.lerp_to_gamma(m, 0.55))
        }
        _ => marked.unwrap_or(match cluster {
            Some(c) if c.get(i) == Some(&true) => CLUSTER,
            _ => FREE,
        }),
    }
}

/// The pixels of a grid with no search marks, without overlays.
fn unmarked_image(scene: &Scene) -> ColorImage {
    let picture: &Picture = &scene.picture;
    let pixels = (0..picture.squares.len())
        .map(|i| square_color(picture, scene.cluster, i, Mark::None))
        .collect();
    ColorImage::new([picture.cols, picture.rows], pixels)
}

/// The pixels of a grid, each square's colour (see [`square_pixel`]), without overlays.
fn grid_image(scene: &Scene) -> ColorImage {
    let picture: &Picture = &scene.picture;
    let pixels = (0..picture.squares.len())
        .map(|i| square_pixel(scene, i))
        .collect();
    ColorImage::new([picture.cols, picture.rows], pixels)
}

/// Paints the search's overlays onto `image`: the depth-first path and the state being
/// expanded. Returns the pixels painted, to be restored before the next overlay.
fn draw_overlays(scene: &Scene, image: &mut ColorImage) -> Vec<usize> {
    let picture: &Picture = &scene.picture;
    let view = scene.view;
    let mut painted = Vec::new();
    let mut put = |place: &Place, color: Color32| {
        let i = place.cell.row * picture.cols + place.cell.col;
        if let Some(p) = image.pixels.get_mut(i) {
            *p = color;
            painted.push(i);
        }
    };
    for place in &view.path {
        put(place, DFS_PATH);
    }
    if let Some(current) = &view.current {
        put(current, CURRENT);
    }
    painted
}

/// `image` shrunk by a whole factor (keeping one pixel of each block) if a side exceeds what
/// the graphics backend takes (`max_side`), so an oversized map still draws.
fn fit_texture(image: ColorImage, max_side: usize) -> ColorImage {
    let [w, h] = image.size;
    let k = w.max(h).div_ceil(max_side.max(1));
    if k <= 1 {
        return image;
    }
    let (sw, sh) = (w.div_ceil(k), h.div_ceil(k));
    let pixels = (0..sh)
        .flat_map(|y| (0..sw).map(move |x| (x * k, y * k)))
        .map(|(x, y)| image.pixels[y * w + x])
        .collect();
    ColorImage::new([sw, sh], pixels)
}

/// The shade of a square with terrain cost `cost` (2 to 9): darker is dearer.
pub(crate) fn terrain_color(cost: u8) -> Color32 {
    let t = f32::from(cost.clamp(2, 9) - 2) / 7.0;
    Color32::from_rgb(222, 206, 170).lerp_to_gamma(Color32::from_rgb(120, 84, 40), t)
}

fn mark_color(mark: Mark) -> Option<Color32> {
    match mark {
        Mark::Closed => Some(CLOSED),
        Mark::Frontier => Some(FRONTIER),
        Mark::None => None,
    }
}

/// The midpoint of `side` of `rect`.
fn side_mid(rect: Rect, side: Side) -> Pos2 {
    match side {
        Side::Up => rect.center_top(),
        Side::Down => rect.center_bottom(),
        Side::Left => rect.left_center(),
        Side::Right => rect.right_center(),
    }
}

/// A triangle filling the quarter of `rect` next to `side`.
fn wedge(rect: Rect, side: Side, color: Color32) -> Shape {
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
fn junction_shapes(shapes: &mut Vec<Shape>, rect: Rect, turns: u16, width: f32) {
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
fn vehicle(at: Pos2, heading: Side, side: f32) -> Shape {
    let (dr, dc) = heading.delta();
    let forward = vec2(dc as f32, dr as f32) * side * 0.32;
    let across = vec2(-forward.y, forward.x) * 0.7;
    Shape::convex_polygon(
        vec![at + forward, at - forward + across, at - forward - across],
        SOLUTION,
        Stroke::new(1.5, Color32::WHITE),
    )
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::solver::Progress;

    fn scene<'a>(picture: &'a Picture, view: &'a SearchView, revision: u64) -> Scene<'a> {
        Scene {
            picture: Cow::Borrowed(picture),
            view,
            result: None,
            shown: 0,
            transition: None,
            sliding: None,
            selected: None,
            ghost: None,
            zoom: 1.0,
            pan: Vec2::ZERO,
            cluster: None,
            revision,
            budget: std::time::Duration::from_millis(3),
        }
    }

    /// The pixels drawn from scratch: squares, the solution shown, the overlays.
    fn full_rebuild(scene: &Scene) -> ColorImage {
        let mut image = grid_image(scene);
        if let Some(report) = scene.result.filter(|r| r.solved && !r.path.is_empty()) {
            let shown = scene.shown.min(report.path.len() - 1);
            for place in &report.path[..=shown] {
                image.pixels[place.cell.row * scene.picture.cols + place.cell.col] = SOLUTION;
            }
        }
        draw_overlays(scene, &mut image);
        image
    }

    /// Incremental updates (marks written as they arrive, tiles uploaded) give the same
    /// pixels as a full rebuild, through random search progress and random edits.
    #[test]
    fn incremental_updates_match_a_full_rebuild() {
        let ctx = egui::Context::default();
        let mut rng = StdRng::seed_from_u64(12);
        // A 300 x 300 grid maze, open but for the start (top-left) and the goal.
        let mut text = String::new();
        for r in 0..300 {
            for c in 0..300 {
                text.push(match (r, c) {
                    (0, 0) => 'S',
                    (299, 299) => 'G',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        let mut maze = crate::puzzles::parse(&text, Some("maze")).expect("a grid maze");
        let mut revision = 0;
        let mut view = SearchView::for_puzzle(maze.as_ref());
        let mut texture = GridTexture::default();
        let place = |rng: &mut StdRng| {
            Place::from(Cell::new(
                rng.random_range(0..300),
                rng.random_range(0..300),
            ))
        };
        for round in 0..60 {
            let many = if round % 20 == 3 { 150_000 } else { 800 };
            if round % 15 == 14 {
                // An edit: the picture changes, the texture is remade whole.
                for _ in 0..50 {
                    let cell = Cell::new(rng.random_range(0..300), rng.random_range(0..300));
                    maze.paint(cell, 1);
                }
                revision += 1;
                view = SearchView::for_puzzle(maze.as_ref());
            }
            if round % 15 == 7 {
                // A new run on the same picture: the old marks come off incrementally.
                view = SearchView::for_puzzle(maze.as_ref());
            }
            let progress = Progress {
                expanded: (0..rng.random_range(0..400))
                    .map(|_| place(&mut rng))
                    .collect(),
                generated: (0..rng.random_range(0..many))
                    .map(|_| place(&mut rng))
                    .collect(),
                current: Some(place(&mut rng)),
                path: rng.random_bool(0.5).then(|| {
                    (0..rng.random_range(0..500))
                        .map(|_| place(&mut rng))
                        .collect()
                }),
                ..Progress::default()
            };
            view.apply(&progress);
            let picture = maze.picture();
            let s = scene(&picture, &view, revision);
            texture.update(&ctx, &s);
            while texture.is_behind() {
                texture.update(&ctx, &s);
            }
            let shown = texture.pixels().expect("one pixel a square");
            assert!(shown.pixels == full_rebuild(&s).pixels, "round {round}");
        }
        // A solution played forward and back, by single moves and by jumps.
        let path: Vec<Place> = (0..2000)
            .map(|k| {
                Place::from(Cell::new(
                    k / 300,
                    if (k / 300) % 2 == 0 {
                        k % 300
                    } else {
                        299 - k % 300
                    },
                ))
            })
            .collect();
        let report = Report {
            puzzle_type: "maze",
            algorithm: crate::search::Algorithm::Bfs,
            outcome: crate::search::Outcome::Found,
            solved: true,
            optimal: true,
            cost: 1999.0,
            moves: vec![String::new(); 1999],
            path,
            boards: Vec::new(),
            stats: crate::search::Stats::default(),
            notes: Vec::new(),
            message: None,
        };
        let view = SearchView::for_puzzle(maze.as_ref());
        let picture = maze.picture();
        for round in 0..40 {
            let mut s = scene(&picture, &view, revision);
            s.result = Some(&report);
            s.shown = if round % 3 == 0 {
                rng.random_range(0..2200)
            } else {
                round * 7
            };
            texture.update(&ctx, &s);
            let shown = texture.pixels().expect("one pixel a square");
            assert!(
                shown.pixels == full_rebuild(&s).pixels,
                "playback round {round}"
            );
        }
    }
}
