//! What a puzzle looks like: each square's content ([`Square`]), the [`Picture`] every view
//! draws, a move as a value ([`Motion`]: which piece or marker, how far) and the route of one
//! piece's move on a picture ([`PieceMove`]).

use super::*;

/// How one square of a puzzle looks, for drawing. The engine decides what a square is; the GUI
/// decides the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Square {
    /// Not part of the board (the corners around Klondike's round board).
    Void,
    /// A free square.
    Free,
    /// A blocked square (a wall).
    Blocked,
    /// A free square with a terrain cost from 2 to 9 (the cost of entering it).
    Terrain(u8),
    /// A square holding a number (Klondike's jump lengths).
    Number(u8),
    /// A start square.
    Start,
    /// A goal square.
    Goal,
    /// A junction of roads: bit `from * 4 + to` (sides indexed as in [`Side::ALL`]) is set when
    /// a car entering from side `from` may leave through side `to`.
    Junction(u16),
    /// A numbered tile of the sliding tile puzzle; `home` when it stands on its goal square.
    Tile {
        /// The tile's number.
        number: u8,
        /// Whether it is on its goal square.
        home: bool,
    },
    /// A cell of a sliding piece: `id` tells pieces apart, `class` groups pieces of the same
    /// shape (drawn alike), `target` marks the piece to bring home.
    Piece {
        /// Which piece.
        id: u8,
        /// Its class of interchangeable pieces.
        class: u8,
        /// Whether it is the target piece.
        target: bool,
        /// The letter that names it in moves (ASCII), or 0 for none.
        letter: u8,
    },
}

/// What a puzzle looks like: `rows * cols` squares in row-major order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// The squares, row by row from the top (`squares[row * cols + col]`).
    pub squares: Vec<Square>,
    /// The start square, marked on top of whatever it holds.
    pub start: Option<Cell>,
    /// Squares outlined as the goal area (where Klotski's target must end).
    pub goal_area: Vec<Cell>,
    /// Whether the picture is drawn as a board even when it holds no piece: a type whose
    /// states are drawn boards (a puzzle script's `draw`) says so, so that a state with no
    /// piece left (Lights Out with every light off) keeps the look and the scale of the
    /// others. Pictures with pieces are drawn as boards anyway.
    pub board: bool,
}

impl Picture {
    /// The square at `cell`, or `None` outside the picture.
    pub fn get(&self, cell: Cell) -> Option<Square> {
        (cell.row < self.rows && cell.col < self.cols)
            .then(|| self.squares[cell.row * self.cols + cell.col])
    }

    /// The board as text, one line a row, its cells a space apart and right-aligned to
    /// the widest: tiles and numbers by number, pieces by letter (or number), `#` a wall,
    /// `_` an empty square (the sliding blank, [`Square::Void`], or a free square). The
    /// one way a board is written in words (the timeline's details; the Learn panel's open
    /// list writes it on one line, [`Picture::board_line`]).
    pub fn board_text(&self) -> String {
        let cell = |s: &Square| match *s {
            Square::Tile { number, .. } | Square::Number(number) => number.to_string(),
            Square::Piece { letter, .. } if letter != 0 => char::from(letter).to_string(),
            Square::Piece { id, .. } => id.to_string(),
            Square::Blocked => "#".to_owned(),
            _ => "_".to_owned(),
        };
        let cells: Vec<String> = self.squares.iter().map(cell).collect();
        let width = cells.iter().map(String::len).max().unwrap_or(1);
        (cells.chunks(self.cols.max(1)))
            .map(|row| {
                (row.iter())
                    .map(|c| format!("{c:>width$}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The board as [`Picture::board_text`] writes it, its rows on one line a ` / ` apart
    /// (`4 1 2 / _ 5 3 / 7 8 6`): a board a row of the Learn panel's open list.
    pub fn board_line(&self) -> String {
        self.board_text().replace('\n', " / ")
    }

    /// The cells of each piece (by [`Square::Piece`] id), with the piece's square.
    fn pieces(&self) -> BTreeMap<u8, (Square, Vec<Cell>)> {
        let mut pieces: BTreeMap<u8, (Square, Vec<Cell>)> = BTreeMap::new();
        for (i, &square) in self.squares.iter().enumerate() {
            if let Square::Piece { id, .. } | Square::Tile { number: id, .. } = square {
                let cell = Cell::new(i / self.cols, i % self.cols);
                pieces
                    .entry(id)
                    .or_insert((square, Vec::new()))
                    .1
                    .push(cell);
            }
        }
        pieces
    }

    /// How one piece moved between this picture and `next`, found by comparing them: the
    /// piece that is not where it was (pieces are matched by class and cells, since
    /// interchangeable pieces may swap ids), and its route through cells free here. `None`
    /// when the pictures differ by other than one piece's move, or have different sizes. The
    /// app never uses it (moves are values: [`Picture::piece_move`]); it is the plain
    /// reference the tests hold those against.
    pub fn moved_piece(&self, next: &Picture) -> Option<PieceMove> {
        if (self.rows, self.cols) != (next.rows, next.cols) {
            return None;
        }
        let class_of = |square: Square| match square {
            Square::Piece { class, target, .. } => (class, target),
            Square::Tile { number, .. } => (number, false),
            _ => (0, false),
        };
        let key = |(square, cells): &(Square, Vec<Cell>)| (class_of(*square), cells.clone());
        let before: Vec<_> = self.pieces().into_values().collect();
        let after: Vec<_> = next.pieces().into_values().collect();
        let after_keys: BTreeSet<_> = after.iter().map(key).collect();
        let before_keys: BTreeSet<_> = before.iter().map(key).collect();
        let mut gone = before.iter().filter(|p| !after_keys.contains(&key(p)));
        let mut came = after.iter().filter(|p| !before_keys.contains(&key(p)));
        let ((square, from), (_, to)) = (gone.next()?, came.next()?);
        if gone.next().is_some() || came.next().is_some() || from.len() != to.len() {
            return None;
        }
        let (dr, dc) = (
            to[0].row as isize - from[0].row as isize,
            to[0].col as isize - from[0].col as isize,
        );
        if self.shifted(from, dr, dc).as_deref() != Some(&to[..]) {
            return None;
        }
        self.slide(*square, from, (dr, dc))
    }

    /// The move `motion` on this picture: the piece covering `motion.from` (a piece or a tile)
    /// and its route to where the motion takes it through squares free here. `None` when no
    /// piece covers `motion.from` or the piece cannot get there. The motion comes from the
    /// puzzle's own move ([`crate::puzzles::Report::motion`], the oracle's rated moves): no
    /// two pictures are compared to find it.
    pub fn piece_move(&self, motion: Motion) -> Option<PieceMove> {
        let square = self.get(motion.from)?;
        let (Square::Piece { id, .. } | Square::Tile { number: id, .. }) = square else {
            return None;
        };
        let (_, cells) = self.pieces().remove(&id)?;
        let by = (motion.by.0 as isize, motion.by.1 as isize);
        self.shifted(&cells, by.0, by.1)?;
        self.slide(square, &cells, by)
    }

    /// `cells` moved by (`dr`, `dc`), if all stay on the picture.
    fn shifted(&self, cells: &[Cell], dr: isize, dc: isize) -> Option<Vec<Cell>> {
        cells
            .iter()
            .map(|c| {
                let (r, col) = (c.row.checked_add_signed(dr)?, c.col.checked_add_signed(dc)?);
                (r < self.rows && col < self.cols).then(|| Cell::new(r, col))
            })
            .collect()
    }

    /// The piece `square` covering `from` slid by (`dr`, `dc`): its route one cell at a time
    /// through squares free here (or its own), found breadth-first over displacements.
    fn slide(&self, square: Square, from: &[Cell], (dr, dc): (isize, isize)) -> Option<PieceMove> {
        // Breadth-first over displacements through cells free here or the piece's own.
        let open = |cells: &[Cell]| {
            cells.iter().all(|c| {
                // Free, or void: the sliding puzzle's gap.
                matches!(self.get(*c), Some(Square::Free | Square::Void)) || from.contains(c)
            })
        };
        let mut parent: BTreeMap<(isize, isize), (isize, isize)> = BTreeMap::new();
        let mut queue = VecDeque::from([(0isize, 0isize)]);
        parent.insert((0, 0), (0, 0));
        while let Some(at) = queue.pop_front() {
            if at == (dr, dc) {
                break;
            }
            for (sr, sc) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let next = (at.0 + sr, at.1 + sc);
                if !parent.contains_key(&next)
                    && self
                        .shifted(from, next.0, next.1)
                        .is_some_and(|cells| open(&cells))
                {
                    parent.insert(next, at);
                    queue.push_back(next);
                }
            }
        }
        let mut route = vec![(dr, dc)];
        let mut at = (dr, dc);
        while at != (0, 0) {
            at = *parent.get(&at)?;
            route.push(at);
        }
        route.reverse();
        Some(PieceMove {
            square,
            cells: from.to_vec(),
            route,
        })
    }
}

/// One piece's move between two pictures (see [`Picture::moved_piece`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceMove {
    /// The piece's square, as in the first picture.
    pub square: Square,
    /// The cells it covers in the first picture.
    pub cells: Vec<Cell>,
    /// Its displacements (rows, columns) one cell at a time from (0, 0) to where it ends,
    /// each a legal position; both ends included.
    pub route: Vec<(isize, isize)>,
}

/// A move as a value, as a picture shows it: the piece (or marker) covering square `from`
/// before the move goes `by` (rows, columns) squares. Each puzzle type makes it from its own
/// typed move (a Klotski slide, a Rush Hour vehicle's slide, a tile's step, a marker's step or
/// jump); the text of a move is for display only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Motion {
    /// A square the moving piece covers before the move (for a marker: its square).
    pub from: Cell,
    /// How far it goes: (rows down, columns right); negative up or left.
    pub by: (i32, i32),
}

impl Motion {
    /// The motion from `from` to `to`.
    pub fn between(from: Cell, to: Cell) -> Motion {
        Motion {
            from,
            by: (
                to.row as i32 - from.row as i32,
                to.col as i32 - from.col as i32,
            ),
        }
    }

    /// Where the square `from` ends: `None` off the top or left edge.
    pub fn to(self) -> Option<Cell> {
        Some(Cell::new(
            self.from.row.checked_add_signed(self.by.0 as isize)?,
            self.from.col.checked_add_signed(self.by.1 as isize)?,
        ))
    }

    /// The same move played back: from where this one ends, the other way.
    pub fn reversed(self) -> Option<Motion> {
        Some(Motion {
            from: self.to()?,
            by: (-self.by.0, -self.by.1),
        })
    }
}
