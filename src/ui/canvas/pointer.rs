//! Pointer input on the canvas: the view's tools first, then strokes that paint squares and
//! drag pieces, and Predict mode's guesses. Everything is sent as a command.

use eframe::egui::{self, Pos2};

use super::super::scene::line;
use crate::app::{AppCommand, CanvasCommand, PaintStroke, Panel, Pointer, TimelineCommand};
use crate::puzzles::{Cell, Picture, Square};

/// Pointer input on the canvas: the type's view takes it first (an editor's tool, dragging
/// a maze's start); otherwise a press starts a stroke with the value of the square under the
/// pointer and a drag paints that value onto each square it passes. A quick click presses
/// and releases within one frame, so clicks count as well as held buttons.
pub(super) fn pointer_input(
    app: &mut Panel<'_>,
    response: &egui::Response,
    board: bool,
    cell_at: impl Fn(Pos2) -> Option<Cell>,
    press_at: impl Fn(Pos2) -> Option<Cell>,
) {
    // Predict mode (the Learn window): a click guesses the state expanded next, and does
    // nothing else (it never edits the puzzle, during a run or after it).
    if app.windows.learn.predict {
        if response.clicked()
            && let Some(cell) = response.interact_pointer_pos().and_then(&cell_at)
        {
            app.push(AppCommand::Learn(crate::app::learn::LearnCommand::Guess(
                cell,
            )));
        }
        if app.canvas.stroke.is_some() {
            app.push(AppCommand::Canvas(CanvasCommand::StrokeEnd));
        }
        return;
    }
    // While inspecting a finished run, a click pins the state under the pointer instead of
    // editing.
    if app.timeline().is_some_and(|t| t.inspecting) {
        if response.clicked()
            && let Some(cell) = response.interact_pointer_pos().and_then(&cell_at)
        {
            app.push(AppCommand::Timeline(TimelineCommand::PinCell(Some(cell))));
        }
        return;
    }
    // Only the primary button edits: a right or middle drag pans (see `zoom_and_pan`).
    // (Not "the primary button is down": a quick click's press and release can arrive in
    // one frame, when no button is down any more.)
    let other_button = response.ctx.input(|i| {
        i.pointer.button_down(egui::PointerButton::Secondary)
            || i.pointer.button_down(egui::PointerButton::Middle)
    });
    let is_down = response.is_pointer_button_down_on() && !other_button;
    // The frame the button comes up in ends the stroke: the pointer may have moved since the
    // last frame (a quick stroke's last segment, or all of it), and the stroke goes on to
    // where it was released (`interact_pointer_pos` is the release position then).
    // The stroke as this frame leaves it (its changes go to the app as commands, in order
    // with the paints they make).
    let mut stroke = app.canvas.stroke;
    let ending = !is_down && stroke.is_some();
    // A stroke pressed in one frame and moved and released in the next never showed egui a
    // drag, so the response has no interaction position then: the release is where the
    // pointer is.
    let under = response
        .interact_pointer_pos()
        .or_else(|| {
            ending
                .then(|| response.ctx.input(|i| i.pointer.interact_pos()))
                .flatten()
        })
        .and_then(&cell_at);
    // A stroke starts where the button went down, not where the pointer is by the time the
    // frame sees it: a brisk drag that starts on the start square grabs the start.
    let pressed_on = response
        .ctx
        .input(|i| i.pointer.press_origin())
        .or_else(|| response.interact_pointer_pos())
        .and_then(&press_at);
    // A quick click (pressed and released within one frame) is a stroke of one square too;
    // `clicked` is the primary button's.
    if (is_down || response.clicked())
        && stroke.is_none()
        && let Some(cell) = pressed_on
    {
        stroke = Some(start_stroke(app, cell, board));
    }
    // A grabbed piece follows the pointer: its slides toward keeping the grabbed square
    // under the pointer, tried on a copy of the puzzle so several can go in one frame.
    if (is_down || ending)
        && let Some(cell) = under
        && let Some(PaintStroke {
            value: Some(value),
            grab: Some(grab),
            ..
        }) = stroke
    {
        for lead in follow_slides(app.shown_puzzle(), value, grab, cell) {
            app.push(AppCommand::Paint(lead, value));
        }
        if ending {
            app.push(AppCommand::Canvas(CanvasCommand::StrokeEnd));
        }
        return;
    }
    if (is_down || response.clicked() || ending)
        && let Some(cell) = under
        && let Some(stroke) = &mut stroke
        && let Some(last) = stroke.last.filter(|&l| l != cell)
    {
        stroke.last = Some(cell);
        app.push(AppCommand::Canvas(CanvasCommand::StrokeTo(cell)));
        let (by_view, value) = (stroke.by_view, stroke.value);
        // Every square on the line from the last one: a fast stroke leaves no gaps.
        for cell in line(last, cell).into_iter().skip(1) {
            if by_view {
                view_takes(app, Pointer::Drag(cell));
            } else if let Some(value) = value {
                app.push(AppCommand::Paint(cell, value));
            }
        }
    }
    if response.clicked()
        && let Some(cell) = under
    {
        view_takes(app, Pointer::Click(cell));
    }
    if !is_down && stroke.is_some() {
        app.push(AppCommand::Canvas(CanvasCommand::StrokeEnd));
    }
}

/// Whether the view of the puzzle on screen takes `pointer` (see [`crate::app::TypeView::pointer`]).
fn view_takes(app: &mut Panel<'_>, pointer: Pointer) -> bool {
    app.with_view(|view, app| view.pointer(app, pointer))
        .unwrap_or(false)
}

/// A stroke starts on `cell`: the view takes it, or it paints the value its first square
/// gives (on a board of pieces, grabbing the piece under the pointer). Returns the stroke
/// begun (sent to the app before its first paint).
fn start_stroke(app: &mut Panel<'_>, cell: Cell, board: bool) -> PaintStroke {
    // The stroke begins before what the view's press sends, so an edit it makes is the
    // stroke's first (a whole drag undoes at once).
    app.push(AppCommand::Canvas(CanvasCommand::StrokeBegin(cell)));
    let by_view = view_takes(app, Pointer::Press(cell));
    let value = if by_view {
        None
    } else {
        // The board the canvas shows (a solution played back), which the app takes as the
        // puzzle when the stroke begins.
        app.shown_puzzle().stroke_value(cell)
    };
    // Only a board of pieces is pictured here: a large maze is costly to picture.
    let grab = value.filter(|_| board).and_then(|v| {
        let picture = app.shown_puzzle().picture();
        matches!(picture.get(cell), Some(Square::Piece { id, .. }) if id == v)
            .then(|| piece_top_left(&picture, v))
            .flatten()
            .map(|top| (cell.row - top.row, cell.col - top.col))
    });
    let stroke = PaintStroke {
        value,
        last: Some(cell),
        recorded: false,
        by_view,
        grab,
    };
    app.push(AppCommand::Canvas(CanvasCommand::StrokeTakes(stroke)));
    if let Some(value) = value
        && grab.is_none()
    {
        app.push(AppCommand::Paint(cell, value));
    }
    stroke
}

/// The most one-square slides a dragged piece makes in one frame.
const MAX_FOLLOW_SLIDES: usize = 32;

/// The top-left corner of the cells of piece `id` in `picture` (least row, least column).
fn piece_top_left(picture: &Picture, id: u8) -> Option<Cell> {
    let cells = (0..picture.squares.len())
        .filter(|&i| matches!(picture.squares[i], Square::Piece { id: p, .. } if p == id))
        .map(|i| Cell::new(i / picture.cols.max(1), i % picture.cols.max(1)));
    cells.reduce(|a, b| Cell::new(a.row.min(b.row), a.col.min(b.col)))
}

/// The one-square slides that bring piece `id`, grabbed `grab` (rows, columns) from its
/// top-left square, toward the pointer on `pointer`: each is the square to paint (the one
/// the piece's leading edge moves onto; see [`crate::puzzles::Puzzle::paint`]). Slides are
/// tried on a copy of `puzzle`, along the longer way first, then the other; it stops where
/// the piece is under the pointer or can go no closer.
fn follow_slides(
    puzzle: &dyn crate::puzzles::Puzzle,
    id: u8,
    grab: (usize, usize),
    pointer: Cell,
) -> Vec<Cell> {
    let mut probe = puzzle.clone_box();
    let mut slides = Vec::new();
    for _ in 0..MAX_FOLLOW_SLIDES {
        let picture = probe.picture();
        let Some(top) = piece_top_left(&picture, id) else {
            break;
        };
        let want = (
            pointer.row as i64 - grab.0 as i64,
            pointer.col as i64 - grab.1 as i64,
        );
        let (dr, dc) = (want.0 - top.row as i64, want.1 - top.col as i64);
        if (dr, dc) == (0, 0) {
            break;
        }
        let vertical = (dr.signum(), 0);
        let horizontal = (0, dc.signum());
        let tries = if dr.abs() >= dc.abs() {
            [vertical, horizontal]
        } else {
            [horizontal, vertical]
        };
        let moved = tries.into_iter().filter(|&d| d != (0, 0)).find_map(|d| {
            let lead = leading_square(&picture, id, d)?;
            probe.paint(lead, id).then_some(lead)
        });
        match moved {
            Some(lead) => slides.push(lead),
            None => break,
        }
    }
    slides
}

/// The square piece `id` of `picture` moves onto when it slides one square by `d` (rows,
/// columns): next to one of its cells, on its leading edge. `None` off the board.
fn leading_square(picture: &Picture, id: u8, d: (i64, i64)) -> Option<Cell> {
    let is_piece = |r: i64, c: i64| {
        r >= 0
            && c >= 0
            && matches!(
                picture.get(Cell::new(r as usize, c as usize)),
                Some(Square::Piece { id: p, .. }) if p == id
            )
    };
    (0..picture.squares.len()).find_map(|i| {
        let (r, c) = (
            (i / picture.cols.max(1)) as i64,
            (i % picture.cols.max(1)) as i64,
        );
        let (nr, nc) = (r + d.0, c + d.1);
        (is_piece(r, c)
            && !is_piece(nr, nc)
            && nr >= 0
            && nc >= 0
            && (nr as usize) < picture.rows
            && (nc as usize) < picture.cols)
            .then(|| Cell::new(nr as usize, nc as usize))
    })
}
