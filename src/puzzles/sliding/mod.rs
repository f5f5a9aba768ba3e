//! The sliding tile puzzle (`003_8abc547d8a6c7682.txt`): numbered tiles on a `rows x cols`
//! board (2 to 8 on each side) with one blank; a move slides a tile next to the blank into it.
//! The goal is, by default, the tiles in reading order with the blank last: the tile at row
//! `i`, column `j` is `i * cols + j + 1` (the article's formula is off by one; this one is
//! right), the blank at the bottom-right.
//!
//! Text format: lines starting with `#` are comments; one row per line of numbers separated
//! by spaces, `0` for the blank; optionally a line `goal:` followed by a block of the same
//! shape giving the goal. Coordinates are (row, column), 0-based from the top-left.
//!
//! JSON format: `{"type": "sliding", "version": 1, "tiles": [[1, 2, 3], [4, 5, 6], [7, 8, 0]],
//! "goal": [[...]]}` (`goal` optional).
//!
//! Solvability (Johnson and Story, 1879): a slide swaps the blank with a tile, so it flips the
//! parity of the permutation taking the board to the goal (the blank counted as a tile) and
//! moves the blank one square, flipping the parity of its Manhattan distance to its goal
//! square. A board is solvable exactly when the two parities agree.

use std::fmt;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

pub mod bench;
mod capabilities;
mod fast;
pub mod forecast;
mod format;
mod heuristic;
pub mod ida;
pub mod pattern_db;
mod puzzle;
pub mod quality;
pub mod stratified;

use super::{
    Cell, FormatError, Picture, Puzzle, PuzzleType, Report, Side, Square, Watcher, json_body,
    solve_on_boards,
};
use crate::search::{
    Algorithm, CancelToken, Cost, Outcome, Problem, SearchError, StateCount, Successor,
};
use ida as tile_ida;
use pattern_db::{PatternDb, PdbSet};

use format::SlidingJson;
pub use heuristic::TileHeuristic;

/// The registry entry of the sliding tile puzzle.
pub static TYPE: PuzzleType = PuzzleType {
    name: "sliding",
    label: "Sliding tiles",
    sniff: |text| {
        let mut rows = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#') && *l != "goal:")
            .peekable();
        // At least one row, and nothing but numbers: a maze whose every row starts with a
        // wall (`#`, a comment here) is not a board of tiles.
        let numbers_only = rows.peek().is_some()
            && rows.all(|l| l.split_whitespace().all(|w| w.parse::<u8>().is_ok()));
        if numbers_only { 1.0 } else { 0.0 }
    },
    text_hint: "rows of tile numbers",
    parse_text: |text| Ok(Box::new(Sliding::from_text(text)?)),
    from_json: |value| Ok(Box::new(Sliding::from_json(value)?)),
    json_version: 1,
    shipped: &[
        shipped!("sliding-8-hardest-a.txt"),
        shipped!("sliding-8-hardest-b.txt"),
        shipped!("sliding-8-easy-6.txt"),
        shipped!("sliding-8-easy-12.txt"),
        shipped!("sliding-15-easy.txt"),
        shipped!("sliding-15-korf-1.txt"),
        shipped!("sliding-15-korf-2.txt"),
        shipped!("sliding-15-korf-3.txt"),
        shipped!("sliding-24-walk-40.txt"),
        shipped!("sliding-24-random.txt"),
    ],
};

/// How long `solve` with no algorithm named tries optimal IDA* on boards above 16 squares
/// before it falls back to weighted A* ([`Puzzle::solve_default`]).
pub const OPTIMAL_BUDGET: std::time::Duration = std::time::Duration::from_secs(5);

/// The smallest side of a board.
pub const MIN_SIDE: usize = 2;
/// The largest side of a board.
pub const MAX_SIDE: usize = 8;
/// Boards with at most this many squares offer the searches that keep every state (BFS,
/// DFS, Dijkstra) and count their states by search; larger ones do not fit in memory.
pub const SMALL_BOARD: usize = 9;

/// A state: the tile on each square in row-major order (0 the blank; squares past
/// `rows * cols` hold 0), and the blank's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    tiles: [u8; 64],
    blank: u8,
}

/// A move: `tile` slides one square in direction `to` (into the blank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slide {
    /// The tile that moves.
    pub tile: u8,
    /// The direction it moves in.
    pub to: Side,
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.tile, self.to.word())
    }
}

/// A sliding tile puzzle: the board being played, the goal, the heuristic, and the moves
/// played (for undo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sliding {
    rows: usize,
    cols: usize,
    /// The board being played, row-major, 0 the blank.
    tiles: Vec<u8>,
    goal: Vec<u8>,
    /// `home[tile]`: the tile's goal square (row-major index).
    home: Vec<u8>,
    heuristic: TileHeuristic,
    /// Boards before each move played, newest last.
    undo: Vec<Vec<u8>>,
    /// The pattern databases for this board and goal, once built or loaded.
    pdb: PdbSlot,
    /// How the fast IDA* core searches, when set by hand (else [`tile_ida::Options::default`]).
    core: Option<tile_ida::Options>,
}

/// Shared pattern databases, one per [`PdbSet`] (quick, 7-8). They are derived data: puzzles
/// compare equal whatever they hold.
#[derive(Clone, Default)]
struct PdbSlot(Vec<Arc<PatternDb>>);

impl PdbSlot {
    fn get(&self, set: PdbSet) -> Option<&Arc<PatternDb>> {
        self.0.iter().find(|db| db.set() == set)
    }
}

impl PartialEq for PdbSlot {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for PdbSlot {}

impl fmt::Debug for PdbSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [] => f.write_str("no PatternDb"),
            dbs => write!(
                f,
                "PatternDb({:?})",
                dbs.iter().map(|db| db.group_sizes()).collect::<Vec<_>>()
            ),
        }
    }
}

/// Why a board cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unsolvable: the tiles are an {permutation} permutation of the goal while the blank is an \
     {blank} number of moves from its goal square; every slide changes both parities, so they \
     can never agree as the goal needs"
)]
pub struct Unsolvable {
    /// `"odd"` or `"even"`.
    pub permutation: &'static str,
    /// `"odd"` or `"even"`.
    pub blank: &'static str,
}

fn parity_word(odd: bool) -> &'static str {
    if odd { "odd" } else { "even" }
}

impl Sliding {
    /// The solved `rows x cols` board with the default goal.
    ///
    /// # Errors
    /// [`FormatError`] when a side is outside 2 to 8.
    pub fn solved(rows: usize, cols: usize) -> Result<Self, FormatError> {
        let goal = default_goal(rows, cols);
        Self::new(rows, cols, goal.clone(), goal)
    }

    fn new(rows: usize, cols: usize, tiles: Vec<u8>, goal: Vec<u8>) -> Result<Self, FormatError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&rows) || !(MIN_SIDE..=MAX_SIDE).contains(&cols) {
            return Err(FormatError::new(format!(
                "the board is {rows} x {cols}; each side must be {MIN_SIDE} to {MAX_SIDE}"
            )));
        }
        for (what, board) in [("board", &tiles), ("goal", &goal)] {
            let mut seen = vec![false; rows * cols];
            for &t in board.iter() {
                let slot = seen.get_mut(usize::from(t)).ok_or_else(|| {
                    FormatError::new(format!(
                        "the {what} has tile {t}; a {rows} x {cols} board numbers its tiles \
                         1 to {} and 0 for the blank",
                        rows * cols - 1
                    ))
                })?;
                if std::mem::replace(slot, true) {
                    return Err(FormatError::new(format!("the {what} has tile {t} twice")));
                }
            }
        }
        let mut home = vec![0; rows * cols];
        for (square, &t) in goal.iter().enumerate() {
            home[usize::from(t)] = square as u8;
        }
        Ok(Self {
            rows,
            cols,
            tiles,
            goal,
            home,
            heuristic: TileHeuristic::default(),
            undo: Vec::new(),
            pdb: PdbSlot::default(),
            core: None,
        })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The tile on `cell` (0 for the blank), or `None` off the board.
    pub fn tile_at(&self, cell: Cell) -> Option<u8> {
        (cell.row < self.rows && cell.col < self.cols)
            .then(|| self.tiles[cell.row * self.cols + cell.col])
    }

    /// The tiles, row-major (0 the blank).
    pub fn tiles_row_major(&self) -> Vec<u8> {
        self.tiles.clone()
    }

    /// The blank's square, row-major (0 the top-left).
    pub fn blank_square(&self) -> usize {
        self.tiles.iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// The heuristic A*, IDA* and greedy use.
    pub fn heuristic_kind(&self) -> TileHeuristic {
        self.heuristic
    }

    /// Chooses the heuristic A*, IDA* and greedy use.
    pub fn set_heuristic(&mut self, heuristic: TileHeuristic) {
        self.heuristic = heuristic;
    }

    /// The goal, row-major, 0 the blank.
    pub fn goal(&self) -> &[u8] {
        &self.goal
    }

    /// Attaches a pattern database for the heuristic that reads its set
    /// ([`TileHeuristic::PatternDb`] or [`TileHeuristic::PatternDb78`]), replacing one of the
    /// same set. Returns false (and attaches nothing) if it was built for another board or
    /// goal.
    pub fn attach_pattern_db(&mut self, db: Arc<PatternDb>) -> bool {
        let fits = db.fits(self.rows, self.cols, &self.goal);
        if fits {
            self.pdb.0.retain(|old| old.set() != db.set());
            self.pdb.0.push(db);
        }
        fits
    }

    /// Whether the pattern database the chosen heuristic reads is attached (false for a
    /// heuristic that reads none).
    pub fn has_pattern_db(&self) -> bool {
        self.attached_db().is_some()
    }

    /// The pattern database the chosen heuristic reads, if attached. A database of groups
    /// picked by hand ([`PatternDb::build_groups`]) serves [`TileHeuristic::PatternDb`] while
    /// its own set is not attached.
    pub fn attached_db(&self) -> Option<&Arc<PatternDb>> {
        let set = self.pdb_set()?;
        self.pdb.get(set).or_else(|| {
            (self.heuristic == TileHeuristic::PatternDb)
                .then(|| self.pdb.get(PdbSet::Custom))
                .flatten()
        })
    }

    /// The set of pattern databases the chosen heuristic reads on this board, if any.
    pub fn pdb_set(&self) -> Option<PdbSet> {
        self.heuristic.pdb_set(self.rows, self.cols)
    }

    /// Whether the chosen heuristic's pattern databases can be built for this board (the
    /// quick set up to 16 squares, the 7-8 on 4 x 4, the 6-6-6-6 on 5 x 5). True for a
    /// heuristic that reads none.
    pub fn pattern_db_possible(&self) -> bool {
        self.pdb_set()
            .is_none_or(|set| set.groups(self.rows, self.cols, &self.goal).is_some())
    }

    /// The number of moves played since loading or scrambling (undone moves not counted).
    pub fn moves_played(&self) -> usize {
        self.undo.len()
    }

    /// Whether the board shows the goal.
    pub fn is_solved(&self) -> bool {
        self.tiles == self.goal
    }

    /// Checks that the board can reach the goal (see the module docs).
    ///
    /// # Errors
    /// [`Unsolvable`] with the two parities that disagree.
    pub fn check_solvable(&self) -> Result<(), Unsolvable> {
        // Parity of the permutation taking the board to the goal: count its cycles.
        let n = self.tiles.len();
        let mut seen = vec![false; n];
        let mut transpositions = 0;
        for start in 0..n {
            let mut at = start;
            let mut length: usize = 0;
            while !seen[at] {
                seen[at] = true;
                at = usize::from(self.home[usize::from(self.tiles[at])]);
                length += 1;
            }
            transpositions += length.saturating_sub(1);
        }
        let blank = self.tiles.iter().position(|&t| t == 0).unwrap_or(0);
        let blank_home = usize::from(self.home[0]);
        let distance = (blank / self.cols).abs_diff(blank_home / self.cols)
            + (blank % self.cols).abs_diff(blank_home % self.cols);
        let (odd_permutation, odd_blank) = (transpositions % 2 == 1, distance % 2 == 1);
        if odd_permutation == odd_blank {
            Ok(())
        } else {
            Err(Unsolvable {
                permutation: parity_word(odd_permutation),
                blank: parity_word(odd_blank),
            })
        }
    }

    /// Slides the tile on `cell` into the blank if they are neighbours. Returns whether a
    /// tile moved.
    pub fn slide(&mut self, cell: Cell) -> bool {
        let Some(blank) = self.tiles.iter().position(|&t| t == 0) else {
            return false;
        };
        let (br, bc) = (blank / self.cols, blank % self.cols);
        if cell.row >= self.rows
            || cell.col >= self.cols
            || cell.row.abs_diff(br) + cell.col.abs_diff(bc) != 1
        {
            return false;
        }
        self.undo.push(self.tiles.clone());
        self.tiles.swap(blank, cell.row * self.cols + cell.col);
        true
    }

    /// Slides the tile that moves in direction `to` into the blank (the arrow keys), if there
    /// is one. Returns whether a tile moved.
    pub fn slide_toward(&mut self, to: Side) -> bool {
        let Some(blank) = self.tiles.iter().position(|&t| t == 0) else {
            return false;
        };
        // The tile moving `to` stands on the opposite side of the blank.
        let (dr, dc) = to.opposite().delta();
        let (Some(r), Some(c)) = (
            (blank / self.cols).checked_add_signed(dr),
            (blank % self.cols).checked_add_signed(dc),
        ) else {
            return false;
        };
        self.slide(Cell::new(r, c))
    }

    /// Takes back the last move played. Returns whether there was one.
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some(previous) => {
                self.tiles = previous;
                true
            }
            None => false,
        }
    }

    /// Scrambles the board from the goal by a random walk of `moves` slides (never straight
    /// back), seeded. Returns the walk's moves in order, so it can be played backwards.
    pub fn scramble_walk(&mut self, moves: usize, seed: u64) -> Vec<Slide> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut board = self.board_of(&self.goal);
        let mut walk = Vec::with_capacity(moves);
        let mut successors = Vec::new();
        let mut previous: Option<Board> = None;
        for _ in 0..moves {
            successors.clear();
            self.slides(&board, &mut successors);
            successors.retain(|s| Some(s.state) != previous);
            let Some(pick) = successors.get(rng.random_range(0..successors.len().max(1))) else {
                break;
            };
            previous = Some(board);
            board = pick.state;
            walk.push(pick.mv);
        }
        self.tiles = board.tiles[..self.rows * self.cols].to_vec();
        self.undo.clear();
        walk
    }

    /// Sets the board to a uniformly random solvable arrangement, seeded.
    pub fn scramble_uniform(&mut self, seed: u64) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut tiles = self.goal.clone();
        tiles.shuffle(&mut rng);
        self.tiles = tiles;
        if self.check_solvable().is_err() {
            // Swapping two tiles (not the blank) flips the permutation's parity.
            let (a, b) = {
                let mut non_blank = (0..self.tiles.len()).filter(|&i| self.tiles[i] != 0);
                (non_blank.next().unwrap_or(0), non_blank.next().unwrap_or(0))
            };
            self.tiles.swap(a, b);
        }
        self.undo.clear();
    }

    /// How the fast IDA* core searches this board (by default [`tile_ida::Options::default`]:
    /// every core, no dual lookups).
    pub fn core_options(&self) -> tile_ida::Options {
        self.core.unwrap_or_default()
    }

    /// Sets how the fast IDA* core searches this board (the command line's `--dual on` and
    /// `--threads 1`).
    pub fn set_core_options(&mut self, options: tile_ida::Options) {
        self.core = Some(options);
    }

    /// The step `mv` from `board` as a value: the tile beside the blank moves onto it, one
    /// square in its direction.
    pub(crate) fn motion_of(&self, board: &Board, mv: &Slide) -> crate::puzzles::Motion {
        let cols = self.cols.max(1);
        let blank = Cell::new(
            usize::from(board.blank) / cols,
            usize::from(board.blank) % cols,
        );
        let (dr, dc) = mv.to.delta();
        let from = Cell::new(
            blank.row.saturating_add_signed(-dr),
            blank.col.saturating_add_signed(-dc),
        );
        crate::puzzles::Motion {
            from,
            by: (dr as i32, dc as i32),
        }
    }

    fn board_of(&self, tiles: &[u8]) -> Board {
        let mut board = Board {
            tiles: [0; 64],
            blank: 0,
        };
        board.tiles[..tiles.len()].copy_from_slice(tiles);
        board.blank = tiles.iter().position(|&t| t == 0).unwrap_or(0) as u8;
        board
    }

    fn picture_of(&self, board: &Board) -> Picture {
        let n = self.rows * self.cols;
        Picture {
            rows: self.rows,
            cols: self.cols,
            squares: (0..n)
                // The gap is a hole in the tray: nothing is drawn there, so a tile sliding
                // into it shows no light square around it.
                .map(|i| match board.tiles[i] {
                    0 => Square::Void,
                    t => Square::Tile {
                        number: t,
                        home: usize::from(self.home[usize::from(t)]) == i,
                    },
                })
                .collect(),
            start: None,
            board: false,
            goal_area: Vec::new(),
        }
    }
}

/// The default goal: tiles in reading order, the blank last.
fn default_goal(rows: usize, cols: usize) -> Vec<u8> {
    let n = rows * cols;
    (1..n).map(|t| t as u8).chain([0]).collect()
}
