//! The puzzle canvas: the grid of squares, the search's marks on it (closed set, frontier,
//! current state, depth-first path), and the solution with the playback position.
//!
//! Two coordinate spaces: *cell space*, where x is the column and y the row (origin at the
//! top-left corner of square (0, 0), one unit per square), and *screen space*. `screen_from_cell`
//! maps the first to the second and its inverse `cell_from_screen` back.

use std::borrow::Cow;

use eframe::egui::{self, Color32, Pos2, Rect, Sense, Vec2, emath, vec2};

use super::paint::paint_scene;
use super::palette::*;
use super::scene::*;
use super::texture::GridTexture;
use crate::app::{AppCommand, AppState, CanvasCommand, Panel, ShownMoment, WindowCommand};
use crate::puzzles::{Cell, Picture, Square};

mod pointer;

use pointer::pointer_input;

/// The accessibility label of the canvas, by which UI tests find it.
pub const CANVAS_LABEL: &str = "puzzle canvas";

/// The largest zoom: squares this many times the size that fits the whole grid.
const MAX_ZOOM: f32 = 256.0;

/// Draws the canvas into the rest of `ui` and turns pointer strokes on it into
/// [`AppCommand::Paint`] commands.
pub fn canvas_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    // Board puzzles show the state being searched, or the solution's state being played back;
    // a piece moving between two shown states is drawn apart, sliding along its route.
    let transition = app.transition();
    let (shown, sliding) = shown_picture(app, transition);
    let cached;
    let picture: Cow<Picture> = match shown {
        Some(picture) => Cow::Owned(picture),
        None => {
            cached = app.puzzle_picture();
            Cow::Borrowed(&*cached)
        }
    };
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, CANVAS_LABEL));
    super::describe::describe_canvas(ui, response.id, app, &picture);
    let (rows, cols) = (picture.rows as f32, picture.cols as f32);
    // A board of pieces keeps a margin around it for its exit.
    // A large grid (a texture) keeps one for the start and goal markers at its corners.
    let board = super::scene::is_board(&picture);
    let area = if board {
        let (_, fit) = grid_rect(response.rect, rows, cols, 1.0, Vec2::ZERO);
        response.rect.shrink(fit * BOARD_MARGIN)
    } else if picture.squares.len() > TEXTURE_SQUARES {
        response.rect.shrink(MARKER_MARGIN)
    } else {
        response.rect
    };
    let (zoom, pan) = zoom_and_pan(app, ui, &response, area, rows, cols);
    let (grid, _) = grid_rect(area, rows, cols, zoom, pan);
    let screen_from_cell =
        emath::RectTransform::from_to(Rect::from_min_size(Pos2::ZERO, vec2(cols, rows)), grid);
    let cell_from_screen = screen_from_cell.inverse();
    let cell_at = |pos: Pos2| {
        let p = cell_from_screen * pos;
        (p.x >= 0.0 && p.y >= 0.0 && p.x < cols && p.y < rows)
            .then(|| Cell::new(p.y as usize, p.x as usize))
    };
    // A press near a start or goal marker grabs that square, however small: on a large grid
    // the marker is drawn far wider than its square.
    let mut texture = take_texture(ui.ctx(), TEXTURE_ID);
    let side = grid.width() / cols;
    let reach = marker_radius(side) + 2.0;
    let markers: Vec<Cell> = texture
        .as_ref()
        .filter(|_| marker_radius(side) > side * 0.5)
        .map(|t| t.markers.iter().map(|&(cell, _)| cell).collect())
        .unwrap_or_default();
    let press_at = |pos: Pos2| {
        let centre =
            |c: &Cell| screen_from_cell * Pos2::new(c.col as f32 + 0.5, c.row as f32 + 0.5);
        markers
            .iter()
            .filter(|c| centre(c).distance(pos) <= reach)
            .min_by(|a, b| centre(a).distance(pos).total_cmp(&centre(b).distance(pos)))
            .copied()
            .or_else(|| cell_at(pos))
    };
    pointer_input(app, &response, board, cell_at, press_at);
    let hover = response.hover_pos().and_then(cell_at);
    if app.canvas.rect != Some(response.rect) || app.canvas.hover != hover {
        app.push(AppCommand::Canvas(CanvasCommand::Drawn(
            response.rect,
            hover,
        )));
    }
    let oracle = &app.windows.oracle;
    let heat = if oracle.enabled && oracle.in_panel && oracle.show_map {
        oracle.distance_map()
    } else {
        None
    };
    let read = app.view_read();
    let extras = (app.type_view())
        .map(|view| view.canvas_extras(&read, hover))
        .unwrap_or_default();
    // At a micro-step of the Learn window, the marks as they were at that event.
    let micro = app.micro_step_marks(TEXTURE_SQUARES);
    let scene = Scene {
        picture,
        marks: micro.as_ref().unwrap_or(app.marks()),
        // Before the run's end on the timeline, the solution is not found yet.
        result: app.result().filter(|_| !app.is_scrubbed()),
        shown: app.shown_moves(),
        transition,
        sliding,
        selected: extras.selected,
        ghost: extras.ghost,
        zoom,
        pan,
        cluster: extras.tint,
        board,
        revision: app.edits.revision,
        deadline: app.work_deadline(),
    };
    paint_scene(&painter, area, &scene, &mut texture);
    if let Some(heat) = heat {
        paint_heat(&painter, &screen_from_cell, &heat, &scene.picture);
    }
    if let Some((gaps, max_gap)) = app.windows.heuristic_window.tint() {
        paint_gaps(&painter, &screen_from_cell, gaps, max_gap, &scene.picture);
    }
    let marked = super::learn_overlay::paint(
        app,
        &painter,
        &screen_from_cell,
        response.rect,
        (scene.picture.rows, scene.picture.cols),
    );
    drop(scene);
    // The drawing's changes shown go back to the marks as a command of this frame, not
    // written into it while drawing.
    if let Some((id, changes)) = texture.as_ref().map(GridTexture::drawn) {
        app.push(AppCommand::Canvas(CanvasCommand::MarksDrawn(id, changes)));
    }
    paint_arrows(
        &painter,
        &screen_from_cell,
        grid.width() / cols,
        &app.windows.oracle.arrows(),
    );
    if app.windows.learn.painted != marked {
        app.push(AppCommand::Window(WindowCommand::LearnPainted(marked)));
    }
    ui.data_mut(|d| d.insert_temp(egui::Id::unique(TEXTURE_ID), texture));
}

/// The oracle's distance map: each square tinted by its distance from the start (cividis,
/// reversed: yellow near, dark blue far), see [`crate::app::oracle::OracleState::heat`]; the
/// start and the goals of `picture` keep the colours they are drawn in.
fn paint_heat(
    painter: &egui::Painter,
    screen_from_cell: &emath::RectTransform,
    heat: &[(Cell, f32)],
    picture: &Picture,
) {
    let cells = heat.iter().map(|&(cell, t)| (cell, heat_map_color(t)));
    paint_cells(painter, screen_from_cell, cells, picture);
}

/// The heuristic window's tint: each square by h* - h there (see
/// [`crate::app::heuristic_measure`]): pale where the heuristic is exact, darker blue the
/// farther below, vermillion where it overestimates; the start and goals keep their colours.
fn paint_gaps(
    painter: &egui::Painter,
    screen_from_cell: &emath::RectTransform,
    gaps: &[(Cell, f32)],
    max_gap: f32,
    picture: &Picture,
) {
    let cells = gaps.iter().map(|&(cell, gap)| {
        let color = if gap < -1e-4 {
            super::palette::SOLUTION.gamma_multiply(0.85)
        } else {
            super::palette::gap_color(gap / max_gap)
        };
        (cell, color)
    });
    paint_cells(painter, screen_from_cell, cells, picture);
}

/// Fills each square of `cells` with its colour, but the start and the goals of `picture`.
fn paint_cells(
    painter: &egui::Painter,
    screen_from_cell: &emath::RectTransform,
    cells: impl Iterator<Item = (Cell, Color32)>,
    picture: &Picture,
) {
    let marked = |cell: Cell| {
        picture.start == Some(cell)
            || picture.goal_area.contains(&cell)
            || matches!(picture.get(cell), Some(Square::Start | Square::Goal))
    };
    for (cell, color) in cells.filter(|(c, _)| !marked(*c)) {
        let min = *screen_from_cell * Pos2::new(cell.col as f32, cell.row as f32);
        let max = *screen_from_cell * Pos2::new(cell.col as f32 + 1.0, cell.row as f32 + 1.0);
        painter.rect_filled(Rect::from_min_max(min, max), 0.0, color);
    }
}

/// The oracle's arrows (see [`crate::app::oracle::MoveArrow`]), `side` points a square.
/// Arrows leaving one point in one direction (a block that can slide one or two cells) are
/// drawn side by side, not over each other.
fn paint_arrows(
    painter: &egui::Painter,
    screen_from_cell: &emath::RectTransform,
    side: f32,
    arrows: &[crate::app::oracle::MoveArrow],
) {
    use crate::puzzles::oracle::Rating;
    let width = (side * 0.12).clamp(2.0, 6.0);
    let head = (side * 0.35).clamp(6.0, 24.0);
    let outline = egui::Stroke::new(1.5, Color32::WHITE);
    // Each arrow's screen ends and direction, and its (origin, direction) key for stacking.
    let placed: Vec<_> = arrows
        .iter()
        .filter_map(|a| {
            let from = *screen_from_cell * Pos2::new(a.from.0, a.from.1);
            let to = *screen_from_cell * Pos2::new(a.to.0, a.to.1);
            let dir = (to - from).normalized();
            (dir.x.is_finite() && dir.y.is_finite()).then_some((a, from, to, dir))
        })
        .collect();
    let key = |from: Pos2, dir: Vec2| {
        (
            (from.x * 2.0).round() as i64,
            (from.y * 2.0).round() as i64,
            (dir.x * 100.0).round() as i64,
            (dir.y * 100.0).round() as i64,
        )
    };
    let keys: Vec<_> = placed.iter().map(|p| key(p.1, p.3)).collect();
    for (&(a, from, to, dir), offset) in placed.iter().zip(side_by_side(&keys)) {
        let normal = vec2(-dir.y, dir.x);
        let shift = normal * offset * (width * 2.5);
        let (from, tip) = (from + shift, to + shift);
        let color = match a.rating {
            Rating::Better => MOVE_BETTER,
            Rating::Neutral => MOVE_NEUTRAL,
            Rating::Worse => MOVE_WORSE,
        };
        let base = tip - dir * head;
        let wing = normal * head * 0.5;
        // A white line under the coloured one: the outline.
        painter.circle_filled(from, width * 1.2 + 1.5, Color32::WHITE);
        painter.line_segment([from, base], egui::Stroke::new(width + 3.0, Color32::WHITE));
        painter.circle_filled(from, width * 1.2, color);
        painter.line_segment([from, base], egui::Stroke::new(width, color));
        painter.add(egui::Shape::convex_polygon(
            vec![tip, base + wing, base - wing],
            color,
            outline,
        ));
    }
}

/// Where each of a list of arrows goes across its direction, in arrow widths from its
/// line: arrows of equal `keys` (same origin, same direction) are spread evenly about the
/// line (-0.5 and 0.5 for two), a lone arrow stays on it (0).
fn side_by_side<K: PartialEq>(keys: &[K]) -> Vec<f32> {
    keys.iter()
        .enumerate()
        .map(|(i, k)| {
            let stack = keys.iter().filter(|o| *o == k).count();
            let place = keys[..i].iter().filter(|o| *o == k).count();
            place as f32 - (stack as f32 - 1.0) / 2.0
        })
        .collect()
}

/// The picture the canvas shows instead of the puzzle as it is, if any: a moment of the run,
/// the solution's playback, or a move played by hand; and the piece sliding between two
/// shown states (`transition`, see [`AppState::transition`]) with how far it has got.
/// `None` for the puzzle as it is (pictured once per edit, see [`AppState::puzzle_picture`]).
fn shown_picture(
    app: &AppState,
    transition: Option<(usize, usize, f32)>,
) -> (Option<Picture>, Option<(crate::puzzles::PieceMove, f32)>) {
    let mut sliding = None;
    // The moment the app says the canvas shows (what every readout and the Learn panel
    // describe, see [`AppState::shown_moment`]) is the one drawn: the canvas makes no choice
    // of its own. `None`: the puzzle as it is, from the picture cache (a maze, whose large
    // grids are costly to picture, is pictured once per edit).
    let solution = app.result().filter(|r| !r.boards.is_empty());
    let mut shown: Option<Picture> = match (app.shown_moment(), solution) {
        // A moment of the search: the state expanded then (a maze's is marked instead).
        (ShownMoment::Search, _) => app.marks().board.clone(),
        (ShownMoment::Solution(_), Some(report)) => {
            let last = report.boards.len() - 1;
            Some(match transition {
                Some((from, to, t)) if from.max(to) <= last => {
                    // One move forward or back: the report's move as a value says which
                    // piece slides where (a jump of several moves just cuts).
                    let motion = match to.checked_sub(from) {
                        Some(1) => report.motion(from),
                        _ if from == to + 1 => report.motion(to).and_then(|m| m.reversed()),
                        _ => None,
                    };
                    sliding = motion
                        .and_then(|m| report.boards[from].piece_move(m))
                        .map(|m| (m, t));
                    report.boards[from].clone()
                }
                _ => report.boards[app.shown_moves().min(last)].clone(),
            })
        }
        // The puzzle as it is, pictured once per edit (large grids are costly to picture).
        _ if app.edit_transition().is_none() => None,
        _ => {
            // A move played by hand slides into place too.
            let now = app.work.puzzle.picture();
            Some(match app.edit_transition() {
                Some((before, motion, t)) => match motion.and_then(|m| before.piece_move(m)) {
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
        // What the moving piece leaves behind: an empty square of the board, or for a tile
        // the tray's hole (no light band around a sliding tile).
        let left = if matches!(m.square, Square::Tile { .. }) {
            Square::Void
        } else {
            Square::Free
        };
        for cell in &m.cells {
            picture.squares[cell.row * picture.cols + cell.col] = left;
        }
    }
    (shown, sliding)
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

/// What the canvas's texture (a large grid, see [`canvas_is_texture`]) showed in the last
/// frame, read by `read`; `None` when the canvas drew no texture.
pub fn with_canvas_texture<R>(
    ctx: &egui::Context,
    read: impl FnOnce(&GridTexture) -> R,
) -> Option<R> {
    ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<Option<GridTexture>>(egui::Id::unique(TEXTURE_ID))
            .as_ref()
            .map(read)
    })
}

/// Scrolling over the canvas zooms about the pointer; dragging with the right or middle
/// button pans. Double-clicking with the right button fits the grid again. Returns the zoom
/// and pan this frame draws with; a change goes to the app as a command.
fn zoom_and_pan(
    app: &mut Panel<'_>,
    ui: &egui::Ui,
    response: &egui::Response,
    area: Rect,
    rows: f32,
    cols: f32,
) -> (f32, Vec2) {
    let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
    let before = app.canvas_zoom();
    let (mut zoom_now, mut pan_now) = before;
    let (zoom, pan) = (&mut zoom_now, &mut pan_now);
    if let Some(pointer) = response
        .hover_pos()
        .filter(|_| scroll != 0.0 || pinch != 1.0)
    {
        let factor = (scroll * 0.002).exp() * pinch;
        let (_, side) = grid_rect(area, rows, cols, *zoom, *pan);
        let center = area.center();
        // The point of the grid under the pointer, in squares from the grid's centre.
        let under = (pointer - center) / side - *pan;
        *zoom = (*zoom * factor).clamp(1.0, MAX_ZOOM);
        let (_, new_side) = grid_rect(area, rows, cols, *zoom, Vec2::ZERO);
        *pan = (pointer - center) / new_side - under;
    }
    if response.dragged_by(egui::PointerButton::Secondary)
        || response.dragged_by(egui::PointerButton::Middle)
    {
        let (_, side) = grid_rect(area, rows, cols, *zoom, *pan);
        *pan += response.drag_delta() / side;
    }
    if response.double_clicked_by(egui::PointerButton::Secondary) || *zoom <= 1.0 {
        *zoom = 1.0;
        *pan = Vec2::ZERO;
    }
    if (zoom_now, pan_now) != before {
        app.push(AppCommand::Canvas(CanvasCommand::Zoom(zoom_now, pan_now)));
    }
    (zoom_now, pan_now)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance between two colours in RGB, 0 to about 441.
    fn distance(a: Color32, b: Color32) -> f32 {
        let d = |x: u8, y: u8| (f32::from(x) - f32::from(y)).powi(2);
        (d(a.r(), b.r()) + d(a.g(), b.g()) + d(a.b(), b.b())).sqrt()
    }

    #[test]
    fn the_oracle_arrows_share_no_colour_with_the_marks_or_the_target() {
        let marks = [
            FRONTIER, SOLUTION, TARGET, CLOSED, CURRENT, DFS_PATH, START, GOAL, TRAY, BRANCH,
        ];
        for arrow in [MOVE_BETTER, MOVE_NEUTRAL, MOVE_WORSE] {
            for mark in marks {
                assert!(
                    distance(arrow, mark) > 60.0,
                    "arrow {arrow:?} too near mark {mark:?}"
                );
            }
        }
        assert!(distance(MOVE_BETTER, MOVE_WORSE) > 100.0);
    }

    #[test]
    fn arrows_from_one_point_in_one_direction_sit_side_by_side() {
        assert_eq!(side_by_side(&[1, 2, 1, 3]), vec![-0.5, 0.0, 0.5, 0.0]);
        assert_eq!(side_by_side(&[7, 7, 7]), vec![-1.0, 0.0, 1.0]);
    }

    #[test]
    fn heat_maps_have_no_colour_near_the_frontier() {
        for k in 0..=100 {
            let t = k as f32 / 100.0;
            let c = heat_map_color(t);
            assert!(distance(c, FRONTIER) > 60.0, "{t}: {c:?}");
            let level = 1 + (k * 254 / 100) as u8;
            let c = heat_color(level);
            assert!(distance(c, FRONTIER) > 60.0, "level {level}: {c:?}");
        }
    }
}
