//! What a canvas shows ([`Scene`]) and where: the grid's place in a rectangle, the sizes that
//! decide how a picture is drawn (a texture past [`TEXTURE_SQUARES`] squares, a board of
//! pieces with a margin for its exit), and the squares on a line between two squares.

use std::borrow::Cow;

use eframe::egui::{Rect, Vec2, vec2};

use crate::app::SearchMarks;
use crate::puzzles::{Cell, Picture, PieceMove, Report, Square};

/// Grids with more squares than this are drawn as a texture, one pixel a square, instead of
/// a shape a square.
pub const TEXTURE_SQUARES: usize = 96 * 96;

/// The margin around a large grid drawn as a texture, in points: room for the start and goal
/// markers at its corners.
pub const MARKER_MARGIN: f32 = 6.0;

/// The margin around a board of pieces, in squares of the fitted board: room for its exit.
pub(crate) const BOARD_MARGIN: f32 = 0.3;

/// The grid's place in `rect` at `zoom` (1 fits the whole grid) and `pan` (squares from the
/// centre), and the side of a square in points.
pub(crate) fn grid_rect(rect: Rect, rows: f32, cols: f32, zoom: f32, pan: Vec2) -> (Rect, f32) {
    let fit = (rect.width() / cols).min(rect.height() / rows);
    let side = (fit * zoom).max(0.01);
    let grid = Rect::from_center_size(rect.center() + pan * side, vec2(side * cols, side * rows));
    (grid, side)
}

/// What a canvas shows: a picture of the puzzle, a search's marks on it, and a solution with
/// the playback position. The main canvas and each race pane paint one.
pub(crate) struct Scene<'a> {
    /// The picture to draw (a sliding piece already taken off it).
    pub picture: Cow<'a, Picture>,
    /// The search's marks: closed set, frontier, current state, depth-first path.
    pub marks: &'a SearchMarks,
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
    /// Whether the picture is a board of sliding pieces (see [`super::scene::is_board`]),
    /// found once a frame by the caller.
    pub board: bool,
    /// The puzzle's edit count, for caching a texture of the picture.
    pub revision: u64,
    /// When this frame stops writing the search's marks into a grid's texture and making its
    /// shrunk copy (the frame's work deadline); the rest waits for the next frame. At least
    /// one chunk of marks is written each frame.
    pub deadline: std::time::Instant,
}

/// The squares on the straight line from `from` to `to`, both included, each a neighbour of
/// the one before (Bresenham's line algorithm).
pub(crate) fn line(from: Cell, to: Cell) -> Vec<Cell> {
    let (mut r, mut c) = (from.row as i64, from.col as i64);
    let (r1, c1) = (to.row as i64, to.col as i64);
    let (dr, dc) = ((r1 - r).abs(), -(c1 - c).abs());
    let (sr, sc) = (if r < r1 { 1 } else { -1 }, if c < c1 { 1 } else { -1 });
    let mut err = dr + dc;
    let mut cells = Vec::with_capacity((dr - dc) as usize + 1);
    loop {
        cells.push(Cell::new(r as usize, c as usize));
        if r == r1 && c == c1 {
            return cells;
        }
        let e2 = 2 * err;
        if e2 >= dc {
            err += dc;
            r += sr;
        }
        if e2 <= dr {
            err += dr;
            c += sc;
        }
    }
}

/// The radius of the start and goal markers over a grid drawn as a texture, `side` points a
/// square: half a square, and at least 4 points so a marker stays visible and grabbable.
pub(crate) fn marker_radius(side: f32) -> f32 {
    (side * 0.5).max(4.0)
}

/// Whether `picture` is a board (of sliding pieces, or [`Picture::board`]): its empty squares are drawn
/// as a tray and its exit outside its edge. Boards are small; the scan stops at
/// [`TEXTURE_SQUARES`] squares.
pub(crate) fn is_board(picture: &Picture) -> bool {
    picture.squares.len() <= TEXTURE_SQUARES
        && (picture.board
            || picture
                .squares
                .iter()
                .any(|s| matches!(s, Square::Piece { .. })))
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
