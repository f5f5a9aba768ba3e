//! Klotski and its relatives (`002_6d7bc12a9da3d476.txt`): rigid pieces slide on a
//! rectangular board (up to 10 x 10) until a target piece reaches its goal position. A piece is
//! any set of orthogonally connected cells, so L-shaped pieces work too. Pieces of the same
//! shape are interchangeable when states are compared (as the article's hashed grids make
//! them), unless named `distinct`.
//!
//! Two move metrics ([`Metric`]): `unit`, one piece moves one cell (the article's count: the
//! classic layout takes 116 moves), and `piece`, one piece moves any distance, turning corners,
//! through free cells (Martin Gardner's count, Scientific American, February 1964: 81 moves).
//!
//! Text format: comment lines start with `#`; `target: A` names the target piece, `goal: R C`
//! gives the (row, column) of its anchor when solved, `distinct: b c` names pieces that must be
//! told apart; then one line per row, each letter a piece (all cells with that letter), `.`
//! empty. A piece's anchor is its first cell in reading order (top row first, then left to
//! right); coordinates are 0-based from the top-left.
//!
//! JSON format: `{"type": "klotski", "version": 1, "rows": 5, "cols": 4, "pieces": {"A":
//! [{"row": 0, "col": 1}, ...], ...}, "target": "A", "goal": {"row": 3, "col": 1},
//! "distinct": []}`.

mod drag;
mod edit;
use edit::is_connected;
mod format;
use format::{KlotskiJson, Layout};
mod puzzle;

pub use edit::{EditError, Shape, Tool};

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Cell, FormatError, Picture, PuzzleType, Square, json_body};

/// The registry entry of Klotski.
pub static TYPE: PuzzleType = PuzzleType {
    name: "klotski",
    label: "Klotski (sliding blocks)",
    sniff: |text| {
        let has_target = text.lines().any(|l| l.trim_start().starts_with("target:"));
        if has_target { 1.0 } else { 0.0 }
    },
    text_hint: "a `target:` line",
    parse_text: |text| Ok(Box::new(Klotski::from_text(text)?)),
    from_json: |value| Ok(Box::new(Klotski::from_json(value)?)),
    json_version: 1,
    shipped: &[
        shipped!("klotski-classic.txt"),
        shipped!("klotski-zhi-hui-ruo-ding.txt"),
        shipped!("klotski-qi-tou-bing-jin.txt"),
        shipped!("klotski-jiang-yong-cao-ying.txt"),
        shipped!("klotski-bing-fen-san-lu.txt"),
        shipped!("klotski-feng-hui-lu-zhuan.txt"),
        shipped!("klotski-pennant.txt"),
    ],
};

/// The largest side of a board.
pub const MAX_SIDE: usize = 10;
/// The most pieces on a board (a state packs one byte per piece into 32 bytes).
pub const MAX_PIECES: usize = 32;
const NO_PIECE: u8 = u8::MAX;

/// How moves are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// One piece moves one cell.
    #[default]
    Unit,
    /// One piece moves any distance, turning corners, through free cells.
    Piece,
}

impl Metric {
    /// The command-line name: `unit` or `piece`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Unit => "unit",
            Metric::Piece => "piece",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(name: &str) -> Option<Metric> {
        [Metric::Unit, Metric::Piece]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// A state: the anchor cell index (`row * cols + col`) of every piece, pieces in class order
/// and, within a class of interchangeable pieces, sorted; unused slots hold 255.
pub type KlotskiState = [u8; MAX_PIECES];

/// One piece of the layout.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    letter: char,
    /// Pieces with the same class are interchangeable.
    class: u8,
    /// Cells relative to the anchor, (row, column) offsets; the anchor is (0, 0).
    offsets: Vec<(i8, i8)>,
}

/// A move: the piece with anchor `from` (shown by its letter) goes to anchor `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slide {
    letter: char,
    from: (u8, u8),
    to: (u8, u8),
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (fr, fc) = self.from;
        let (tr, tc) = self.to;
        let word = match (i16::from(tr) - i16::from(fr), i16::from(tc) - i16::from(fc)) {
            (1, 0) => Some("down"),
            (-1, 0) => Some("up"),
            (0, 1) => Some("right"),
            (0, -1) => Some("left"),
            _ => None,
        };
        match word {
            Some(w) => write!(f, "{}({fr},{fc}) {w}", self.letter),
            None => write!(f, "{}({fr},{fc}) to ({tr},{tc})", self.letter),
        }
    }
}

/// A Klotski board: pieces, a target and its goal, the metric, and the position being played
/// (with undo and redo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Klotski {
    rows: usize,
    cols: usize,
    pieces: Vec<Piece>,
    target: usize,
    /// The target's anchor cell when solved.
    goal: Cell,
    metric: Metric,
    /// Anchor index of each piece in the position on the board, in piece order.
    anchors: Vec<u8>,
    /// The position as loaded, for Reset.
    initial: Vec<u8>,
    undo: Vec<Vec<u8>>,
    redo: Vec<Vec<u8>>,
    /// The drag by hand in progress (see [`Klotski::drag_move`]).
    drag: drag::Drag,
    /// `masks[piece][anchor]`: the cells the piece covers at that anchor as a bit set
    /// (bit `row * cols + col`), or 0 where it does not fit on the board.
    masks: Vec<Vec<u128>>,
}

impl Klotski {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The class (shape group of interchangeable pieces) of the piece lettered `letter`.
    fn class_of(&self, letter: char) -> Option<u8> {
        self.pieces
            .iter()
            .find(|p| p.letter == letter)
            .map(|p| p.class)
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The move metric.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Changes the move metric.
    pub fn set_metric(&mut self, metric: Metric) {
        self.metric = metric;
    }

    /// The number of moves played since loading (undone moves not counted).
    pub fn moves_played(&self) -> usize {
        self.undo.len()
    }

    /// Whether the position on the board is solved.
    pub fn is_solved(&self) -> bool {
        usize::from(self.anchors[self.target]) == self.goal.row * self.cols + self.goal.col
    }

    /// The letter of the piece covering `cell`, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<char> {
        self.slot_at(cell).map(|i| self.pieces[i].letter)
    }

    fn slot_at(&self, cell: Cell) -> Option<usize> {
        if cell.row >= self.rows || cell.col >= self.cols {
            return None;
        }
        let bit = 1u128 << (cell.row * self.cols + cell.col);
        (0..self.pieces.len()).find(|&i| self.masks[i][usize::from(self.anchors[i])] & bit != 0)
    }

    fn occupancy(&self, anchors: &[u8]) -> u128 {
        anchors
            .iter()
            .enumerate()
            .filter(|(_, a)| **a != NO_PIECE)
            .fold(0, |occ, (i, &a)| occ | self.masks[i][usize::from(a)])
    }

    /// The anchor one cell from `anchor` in direction (dr, dc), if on the board.
    fn step(&self, anchor: u8, dr: isize, dc: isize) -> Option<u8> {
        let (r, c) = (
            usize::from(anchor) / self.cols,
            usize::from(anchor) % self.cols,
        );
        let (r, c) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
        (r < self.rows && c < self.cols).then(|| (r * self.cols + c) as u8)
    }

    /// Anchors piece `i` can reach by one move under the current metric from `anchors`.
    fn reachable(&self, anchors: &[u8], i: usize, out: &mut Vec<u8>) {
        let start = anchors[i];
        let others = self.occupancy(anchors) & !self.masks[i][usize::from(start)];
        let fits = |a: u8| {
            let m = self.masks[i][usize::from(a)];
            m != 0 && m & others == 0
        };
        out.clear();
        let deltas = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        match self.metric {
            Metric::Unit => {
                for (dr, dc) in deltas {
                    if let Some(a) = self.step(start, dr, dc).filter(|&a| fits(a)) {
                        out.push(a);
                    }
                }
            }
            Metric::Piece => {
                // Breadth-first over the piece's own positions, the others standing still.
                let mut seen = vec![false; self.rows * self.cols];
                seen[usize::from(start)] = true;
                let mut queue = std::collections::VecDeque::from([start]);
                while let Some(at) = queue.pop_front() {
                    for (dr, dc) in deltas {
                        if let Some(a) = self.step(at, dr, dc)
                            && !seen[usize::from(a)]
                            && fits(a)
                        {
                            seen[usize::from(a)] = true;
                            out.push(a);
                            queue.push_back(a);
                        }
                    }
                }
            }
        }
    }

    /// Puts `anchors` (in piece order) into canonical form: interchangeable pieces sorted.
    fn canonical(&self, anchors: &[u8]) -> KlotskiState {
        let mut state = [NO_PIECE; MAX_PIECES];
        state[..anchors.len()].copy_from_slice(anchors);
        let mut start = 0;
        while start < self.pieces.len() {
            let class = self.pieces[start].class;
            let end = (start..self.pieces.len())
                .find(|&i| self.pieces[i].class != class)
                .unwrap_or(self.pieces.len());
            state[start..end].sort_unstable();
            start = end;
        }
        state
    }

    fn anchor_cell(&self, anchor: u8) -> (u8, u8) {
        (
            (usize::from(anchor) / self.cols) as u8,
            (usize::from(anchor) % self.cols) as u8,
        )
    }

    /// Plays a move of piece `slot` to `to` on the board, recording it for undo.
    fn play(&mut self, slot: usize, to: u8) {
        self.undo.push(self.anchors.clone());
        self.redo.clear();
        self.anchors[slot] = to;
    }

    /// Whether a move played can be taken back ([`Klotski::undo`]).
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether a move taken back can be played again ([`Klotski::redo`]).
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Takes back the last move played. Returns whether there was one.
    pub fn undo(&mut self) -> bool {
        self.end_drag();
        let Some(previous) = self.undo.pop() else {
            return false;
        };
        self.redo
            .push(std::mem::replace(&mut self.anchors, previous));
        true
    }

    /// Plays again the last move taken back. Returns whether there was one.
    pub fn redo(&mut self) -> bool {
        self.end_drag();
        let Some(next) = self.redo.pop() else {
            return false;
        };
        self.undo.push(std::mem::replace(&mut self.anchors, next));
        true
    }

    /// Plays `moves` (named as a solution names them) from the position on the board, each
    /// recorded for undo. Returns whether any was played: none is when one is not legal.
    pub fn play_moves(&mut self, moves: &[String]) -> bool {
        self.end_drag();
        let Ok(states) = super::replay(self, moves) else {
            return false;
        };
        for state in states.iter().skip(1) {
            self.undo.push(self.anchors.clone());
            self.anchors = state[..self.pieces.len()].to_vec();
        }
        self.redo.clear();
        !moves.is_empty()
    }

    /// Puts the pieces back where they were loaded and forgets the moves played.
    pub fn reset(&mut self) {
        self.end_drag();
        self.anchors.clone_from(&self.initial);
        self.undo.clear();
        self.redo.clear();
    }

    /// Moves the piece covering `from` one cell so that it covers `to`, an orthogonal
    /// neighbour of `from`, if that move is legal. Returns whether the piece moved.
    pub fn drag(&mut self, from: Cell, to: Cell) -> bool {
        let Some(slot) = self.slot_at(from) else {
            return false;
        };
        let (dr, dc) = (
            to.row as isize - from.row as isize,
            to.col as isize - from.col as isize,
        );
        if dr.abs() + dc.abs() != 1 {
            return false;
        }
        let Some(target) = self.step(self.anchors[slot], dr, dc) else {
            return false;
        };
        let mask = self.masks[slot][usize::from(target)];
        let others =
            self.occupancy(&self.anchors) & !self.masks[slot][usize::from(self.anchors[slot])];
        if mask == 0 || mask & others != 0 {
            return false;
        }
        self.play(slot, target);
        true
    }

    fn picture_of(&self, anchors: &[u8]) -> Picture {
        let mut squares = vec![Square::Free; self.rows * self.cols];
        for (i, piece) in self.pieces.iter().enumerate() {
            let Some(&a) = anchors.get(i).filter(|a| **a != NO_PIECE) else {
                continue;
            };
            let (r, c) = self.anchor_cell(a);
            for &(dr, dc) in &piece.offsets {
                let row = (i16::from(r) + i16::from(dr)) as usize;
                let col = (i16::from(c) + i16::from(dc)) as usize;
                squares[row * self.cols + col] = Square::Piece {
                    id: i as u8,
                    class: piece.class,
                    target: i == self.target,
                    letter: u8::try_from(piece.letter).unwrap_or(0),
                };
            }
        }
        let goal = usize::from((self.goal.row * self.cols + self.goal.col) as u8);
        let goal_mask = self.masks[self.target][goal];
        Picture {
            rows: self.rows,
            cols: self.cols,
            squares,
            start: None,
            board: false,
            goal_area: (0..self.rows * self.cols)
                .filter(|i| goal_mask & (1 << i) != 0)
                .map(|i| Cell::new(i / self.cols, i % self.cols))
                .collect(),
        }
    }

    fn to_layout_cells(&self) -> BTreeMap<char, Vec<Cell>> {
        let picture = self.picture_of(&self.anchors);
        let mut cells: BTreeMap<char, Vec<Cell>> = BTreeMap::new();
        for (i, square) in picture.squares.iter().enumerate() {
            if let Square::Piece { id, .. } = square {
                cells
                    .entry(self.pieces[usize::from(*id)].letter)
                    .or_default()
                    .push(Cell::new(i / self.cols, i % self.cols));
            }
        }
        cells
    }

    fn distinct_letters(&self) -> Vec<char> {
        // Pieces alone in their class that share a shape with another piece were named
        // distinct (the target is alone by rule).
        self.pieces
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                *i != self.target
                    && self.pieces.iter().enumerate().any(|(j, q)| {
                        j != *i && j != self.target && q.offsets == p.offsets && q.class != p.class
                    })
                    && self.pieces.iter().filter(|q| q.class == p.class).count() == 1
            })
            .map(|(_, p)| p.letter)
            .collect()
    }
}

/// The lowest anchor at which a piece of `offsets` fits on a `rows x cols` board, the one
/// nearest the middle column among those.
fn best_goal(offsets: &[(i8, i8)], rows: usize, cols: usize) -> Cell {
    (0..rows * cols)
        .filter(|&a| piece_mask(offsets, a, rows, cols) != 0)
        .map(|a| Cell::new(a / cols, a % cols))
        .max_by_key(|c| {
            // Twice the piece's middle column, compared with twice the board's.
            let middle = offsets
                .iter()
                .map(|&(_, dc)| 2 * (c.col as isize + isize::from(dc)) + 1)
                .sum::<isize>()
                / offsets.len().max(1) as isize;
            (
                c.row,
                std::cmp::Reverse(middle.abs_diff(cols as isize)),
                std::cmp::Reverse(c.col),
            )
        })
        .unwrap_or(Cell::new(0, 0))
}

/// The cells covered by a piece with `offsets` anchored at cell index `anchor`, or 0 if it
/// does not fit on a `rows x cols` board.
fn piece_mask(offsets: &[(i8, i8)], anchor: usize, rows: usize, cols: usize) -> u128 {
    let (r, c) = ((anchor / cols) as isize, (anchor % cols) as isize);
    let mut mask = 0u128;
    for &(dr, dc) in offsets {
        let (row, col) = (r + isize::from(dr), c + isize::from(dc));
        if row < 0 || col < 0 || row as usize >= rows || col as usize >= cols {
            return 0;
        }
        mask |= 1 << (row as usize * cols + col as usize);
    }
    mask
}
