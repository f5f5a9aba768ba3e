//! A script's picture: `draw(state)`'s rows of cells (each a string, a number or `#{ text,
//! colour }`), or the state as text when the script does not draw or `draw` fails.

use super::*;

impl Script {
    /// Why `draw(state)` fails on the state on screen, if it does (the picture is then the
    /// state as text).
    pub fn draw_error(&self) -> Option<ScriptError> {
        self.drawing(self.here()).err()
    }

    /// `draw(state)`'s picture, `None` for a script that does not draw.
    pub(super) fn drawing(&self, state: &[u8]) -> Result<Option<Picture>, Error> {
        if !self.compiled.meta.has_draw {
            return Ok(None);
        }
        let c = &self.compiled;
        let value = c
            .call("draw", (encoding::decode(state),))
            .map_err(Failure::into_error)?;
        drawn(&value).map(Some).ok_or_else(|| {
            c.returned(
                "draw",
                "returned no rows of cells: an array of rows, each an array of strings or \
                 #{ text, colour }",
            )
        })
    }

    /// The picture of `state`: `draw(state)`'s rows of cells, or the state as text in one
    /// row (also when `draw` fails).
    pub(super) fn picture_of(&self, state: &[u8]) -> Picture {
        if let Ok(Some(picture)) = self.drawing(state) {
            return picture;
        }
        let text: Vec<char> = encoding::text(state).chars().take(MAX_SIDE).collect();
        let squares = text
            .iter()
            .enumerate()
            .map(|(i, &ch)| cell_square(i, &ch.to_string(), None))
            .collect::<Vec<_>>();
        Picture {
            rows: 1,
            cols: squares.len().max(1),
            squares: if squares.is_empty() {
                vec![Square::Free]
            } else {
                squares
            },
            start: None,
            board: true,
            goal_area: Vec::new(),
        }
    }
}

/// The most rows or columns a drawing has.
const MAX_SIDE: usize = 64;

/// The square of one drawn cell `i`: empty is a free square, `#` a wall, a number up to 255
/// a numbered square, other text a piece showing its first character, coloured by `colour`.
fn cell_square(i: usize, text: &str, colour: Option<&str>) -> Square {
    let text = text.trim();
    match (text, colour) {
        ("" | ".", None) => Square::Free,
        ("#", None) => Square::Blocked,
        _ => {
            if colour.is_none()
                && let Ok(n) = text.parse::<u8>()
            {
                return Square::Number(n);
            }
            let class = colour.map_or(0, colour_class);
            let letter = text
                .chars()
                .next()
                .filter(char::is_ascii_graphic)
                .map_or(0, |c| c as u8);
            Square::Piece {
                id: (i % 250) as u8,
                class,
                target: colour == Some("target"),
                letter,
            }
        }
    }
}

/// The colours a drawing may name, and the class of piece the canvas draws in that colour
/// (class k in the canvas's k-th piece colour: blue, orange, green, purple, cyan, red).
pub const NAMED_COLOURS: [(&str, u8); 16] = [
    ("blue", 0),
    ("navy", 0),
    ("orange", 1),
    ("yellow", 1),
    ("gold", 1),
    ("green", 2),
    ("purple", 3),
    ("violet", 3),
    ("pink", 3),
    ("magenta", 3),
    ("cyan", 4),
    ("teal", 4),
    ("turquoise", 4),
    ("red", 5),
    ("brown", 5),
    ("maroon", 5),
];

/// The class of piece a cell of colour `name` is drawn as: a named colour's
/// ([`NAMED_COLOURS`], any case), or for another name one of the six picked by the name, so
/// that cells of one name share a colour.
pub fn colour_class(name: &str) -> u8 {
    let lower = name.trim().to_ascii_lowercase();
    NAMED_COLOURS.iter().find(|(n, _)| *n == lower).map_or_else(
        || {
            lower
                .bytes()
                .fold(0u8, |h, b| h.wrapping_mul(31).wrapping_add(b))
                % 6
        },
        |&(_, class)| class,
    )
}

/// The picture `draw` returned: rows of cells, each a string, a number or `#{ text,
/// colour }`; `None` when it is not that shape.
fn drawn(value: &Dynamic) -> Option<Picture> {
    let rows = value.read_lock::<rhai::Array>()?;
    let rows: Vec<rhai::Array> = rows
        .iter()
        .take(MAX_SIDE)
        .map(|r| {
            r.read_lock::<rhai::Array>()
                .map(|r| r.iter().take(MAX_SIDE).cloned().collect())
        })
        .collect::<Option<_>>()?;
    let cols = rows.iter().map(Vec::len).max().filter(|&c| c > 0)?;
    let mut squares = Vec::with_capacity(rows.len() * cols);
    for row in &rows {
        for col in 0..cols {
            let i = squares.len();
            let square = match row.get(col) {
                None => Square::Void,
                Some(cell) => {
                    if let Some(map) = cell.read_lock::<Map>() {
                        let text = map
                            .get("text")
                            .map(encoding::show_plain)
                            .unwrap_or_default();
                        let colour = map
                            .get("colour")
                            .or_else(|| map.get("color"))
                            .map(encoding::show_plain);
                        cell_square(i, &text, colour.as_deref())
                    } else {
                        cell_square(i, &encoding::show_plain(cell), None)
                    }
                }
            };
            squares.push(square);
        }
    }
    Some(Picture {
        rows: rows.len(),
        cols,
        squares,
        start: None,
        board: true,
        goal_area: Vec::new(),
    })
}
