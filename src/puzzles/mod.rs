//! Puzzle types: each module holds one puzzle's model, rules, file formats and heuristic, and
//! plugs into the rest of the program through the object-safe [`Puzzle`] trait and one entry
//! in [`TYPES`].
//!
//! Coordinates everywhere are [`Cell`]s: (row, column), 0-based, origin at the top-left, rows
//! growing downwards.

/// The [`Puzzle`] methods every puzzle type implements alike (it implements
/// [`search::Problem`], [`oracle::Explorable`] and `Clone`): `guarantees_optimal` by
/// [`Algorithm::is_optimal_for`], `refusal` by [`Algorithm::refusal`], `clone_box`, `as_any`,
/// `as_any_mut`, `origin` by [`oracle::Explorable::at_origin`] and `after_moves` by [`replay`]
/// and [`oracle::Explorable::at_state`]. Invoked inside each `impl Puzzle`.
macro_rules! puzzle_plumbing {
    () => {
        fn guarantees_optimal(&self, algorithm: $crate::search::Algorithm) -> bool {
            algorithm.is_optimal_for(self)
        }

        fn refusal(
            &self,
            algorithm: $crate::search::Algorithm,
        ) -> Option<$crate::search::SearchError> {
            algorithm.refusal(self)
        }

        fn clone_box(&self) -> Box<dyn $crate::puzzles::Puzzle> {
            Box::new(self.clone())
        }

        fn as_any(&self) -> &dyn std::any::Any {
            self
        }

        fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
            self
        }

        fn metric_label(&self) -> String {
            $crate::puzzles::oracle::Explorable::metric_name(self)
        }

        fn origin(&self) -> Box<dyn $crate::puzzles::Puzzle> {
            Box::new($crate::puzzles::oracle::Explorable::at_origin(self))
        }

        fn after_moves(&self, moves: &[String]) -> Option<Box<dyn $crate::puzzles::Puzzle>> {
            let states = $crate::puzzles::replay(self, moves).ok()?;
            let last = states.last()?;
            Some(Box::new($crate::puzzles::oracle::Explorable::at_state(
                self, last,
            )))
        }
    };
}

/// A [`Shipped`] entry for the file `puzzles/NAME`, its text built into the program.
/// [`Puzzle::oracle`] for a type whose whole state space is explored (it implements
/// [`oracle::Explorable`]). Invoked inside its `impl Puzzle`.
macro_rules! oracle_by_exploring {
    () => {
        fn oracle(
            &self,
            cancel: &$crate::search::CancelToken,
            progress: &mut dyn FnMut(&str),
        ) -> Result<Box<dyn $crate::puzzles::oracle::Oracle>, $crate::puzzles::oracle::OracleError>
        {
            $crate::puzzles::oracle::explore_counting(self, cancel, progress)
        }
    };
}

macro_rules! shipped {
    ($file:literal) => {
        $crate::puzzles::Shipped {
            file: $file,
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/", $file)),
        }
    };
}

pub mod car_maze;
pub mod klondike;
pub mod klotski;
pub mod maze;
pub mod oracle;
pub mod pattern_db;
pub mod rush_hour;
pub mod sliding;
pub mod tile_ida;

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::search::{
    self, Algorithm, CancelToken, Cost, Observer, Outcome, Problem, SearchError, Stats, Successor,
};

/// A square of a grid: (row, column), 0-based, row 0 at the top, column 0 at the left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// Row, counted from the top.
    pub row: usize,
    /// Column, counted from the left.
    pub col: usize,
}

impl Cell {
    /// The cell at `row`, `col`.
    pub const fn new(row: usize, col: usize) -> Self {
        Self { row, col }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// A side of a square, also a direction of travel on the grid (up is towards row 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The top side; travelling up (towards row 0).
    Up,
    /// The bottom side; travelling down.
    Down,
    /// The left side; travelling left (towards column 0).
    Left,
    /// The right side; travelling right.
    Right,
}

impl Side {
    /// All four sides.
    pub const ALL: [Side; 4] = [Side::Up, Side::Down, Side::Left, Side::Right];

    /// The side across the square.
    pub fn opposite(self) -> Side {
        match self {
            Side::Up => Side::Down,
            Side::Down => Side::Up,
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    /// (row, column) change of one step in this direction.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Side::Up => (-1, 0),
            Side::Down => (1, 0),
            Side::Left => (0, -1),
            Side::Right => (0, 1),
        }
    }

    /// Position in [`Side::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter name: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Side::Up => 'U',
            Side::Down => 'D',
            Side::Left => 'L',
            Side::Right => 'R',
        }
    }

    /// Reads a one-letter name, either case.
    pub fn from_letter(c: char) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|s| s.letter() == c.to_ascii_uppercase())
    }

    /// The lower-case word: `up`, `down`, `left` or `right`.
    pub fn word(self) -> &'static str {
        match self {
            Side::Up => "up",
            Side::Down => "down",
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// Where the canvas shows a state: a square of the puzzle's picture and, for puzzles whose
/// states are (square, side entered from), that side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Place {
    /// The square.
    #[serde(flatten)]
    pub cell: Cell,
    /// The side of the square the state is about, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
}

impl From<Cell> for Place {
    fn from(cell: Cell) -> Self {
        Self { cell, side: None }
    }
}

/// How one square of a puzzle looks, for drawing. The engine decides what a square is; the GUI
/// decides the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
}

impl Picture {
    /// The square at `cell`, or `None` outside the picture.
    pub fn get(&self, cell: Cell) -> Option<Square> {
        (cell.row < self.rows && cell.col < self.cols)
            .then(|| self.squares[cell.row * self.cols + cell.col])
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

    /// How one piece moved between this picture and `next`, for animating the move: the piece
    /// that is not where it was (pieces are matched by class and cells, since interchangeable
    /// pieces may swap ids), and its route through cells free here. `None` when the pictures
    /// differ by other than one piece's move, or have different sizes.
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
        let shift = |cells: &[Cell], dr: isize, dc: isize| -> Option<Vec<Cell>> {
            cells
                .iter()
                .map(|c| {
                    let (r, col) = (c.row.checked_add_signed(dr)?, c.col.checked_add_signed(dc)?);
                    (r < self.rows && col < self.cols).then(|| Cell::new(r, col))
                })
                .collect()
        };
        let (dr, dc) = (
            to[0].row as isize - from[0].row as isize,
            to[0].col as isize - from[0].col as isize,
        );
        if shift(from, dr, dc).as_deref() != Some(&to[..]) {
            return None;
        }
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
                    && shift(from, next.0, next.1).is_some_and(|cells| open(&cells))
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
            square: *square,
            cells: from.clone(),
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

/// The result of solving a puzzle, in the terms every front end shows: moves as text, the
/// solution as the cells it visits, and the run's statistics.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The puzzle type's command-line name (see [`PuzzleType::name`]).
    #[serde(rename = "type")]
    pub puzzle_type: &'static str,
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// How the run ended.
    pub outcome: Outcome,
    /// Whether a solution was found.
    pub solved: bool,
    /// Whether the solution is guaranteed to have the least cost.
    pub optimal: bool,
    /// The solution's total cost (0 when not solved).
    pub cost: Cost,
    /// The moves of the solution, as the puzzle names them.
    pub moves: Vec<String>,
    /// The places of the solution's states, start first (one more than there are moves);
    /// empty for board puzzles.
    pub path: Vec<Place>,
    /// The pictures of the solution's states, start first, for board puzzles (whose states
    /// have no place); empty otherwise.
    #[serde(skip)]
    pub boards: Vec<Picture>,
    /// Statistics of the run.
    pub stats: Stats,
    /// Extra findings specific to the puzzle (for example how many shortest solutions exist).
    pub notes: Vec<String>,
    /// For a run that stopped at a limit: what filled the memory or the time, and what to try
    /// (see [`search::SearchResult::message`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// A puzzle as the front ends see it: something to draw, edit, save and solve. Each puzzle
/// type implements it once; [`solve_on_places`] does the work of [`Puzzle::solve`].
pub trait Puzzle: Send + Sync + fmt::Debug {
    /// The registry entry of this puzzle's type.
    fn puzzle_type(&self) -> &'static PuzzleType;

    /// What the puzzle looks like now.
    fn picture(&self) -> Picture;

    /// The size of [`Puzzle::picture`]: (rows, columns). The default draws the picture.
    fn dims(&self) -> (usize, usize) {
        let p = self.picture();
        (p.rows, p.cols)
    }

    /// The algorithms that apply to this puzzle (those needing a heuristic only if it has one).
    fn algorithms(&self) -> Vec<Algorithm>;

    /// What A*, IDA*, weighted A* and greedy use as the heuristic here, for tables and
    /// reports (for example "Manhattan distance").
    fn heuristic_name(&self) -> String;

    /// The fastest algorithm that guarantees an optimal answer for this puzzle.
    fn default_algorithm(&self) -> Algorithm;

    /// Whether `algorithm` is guaranteed to find a least-cost solution of this puzzle (see
    /// [`Algorithm::is_optimal_for`]).
    fn guarantees_optimal(&self, algorithm: Algorithm) -> bool;

    /// Why `algorithm` cannot run on this puzzle, or `None` when it can (see
    /// [`Algorithm::refusal`]). Front ends ask before any costly preparation (such as building
    /// pattern databases).
    fn refusal(&self, algorithm: Algorithm) -> Option<SearchError>;

    /// Solves the puzzle, reporting the search to `watcher`.
    ///
    /// # Errors
    /// As [`search::run`].
    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError>;

    /// Solves the puzzle as the command line does when the user names no algorithm: by
    /// default with [`Puzzle::default_algorithm`]. A type may do better (sliding tiles on
    /// boards above 16 squares try optimal IDA* under a time budget, then weighted A*).
    ///
    /// # Errors
    /// As [`Puzzle::solve`].
    fn solve_default(
        &self,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        self.solve(self.default_algorithm(), watcher, cancel)
    }

    /// Counts the states reachable from the start and the solved ones among them (see
    /// [`search::count_reachable`]).
    fn count_states(&self, cancel: &CancelToken) -> search::StateCount;

    /// The player's companion for this puzzle (see [`oracle`]): the optimal distance from
    /// any position reached by playing, and each move rated. Types with a small state space
    /// explore it whole (under the limits of `cancel`); `progress` gets a line saying how far
    /// the preparation is. The default has none.
    ///
    /// # Errors
    /// [`oracle::OracleError`]: no oracle for this type, a space too large, or a limit.
    fn oracle(
        &self,
        _cancel: &CancelToken,
        _progress: &mut dyn FnMut(&str),
    ) -> Result<Box<dyn oracle::Oracle>, oracle::OracleError> {
        Err(oracle::OracleError::Unsupported)
    }

    /// Whether [`Puzzle::random_layout`] makes layouts for this type.
    fn makes_random_layouts(&self) -> bool {
        false
    }

    /// A random layout of the same kind as this puzzle (its board size, metric and kinds of
    /// pieces), from `seed` (the same seed, the same layout); `None` for types that make none
    /// (see [`oracle::hardest_of_random`]).
    fn random_layout(&self, _seed: u64) -> Option<Box<dyn Puzzle>> {
        None
    }

    /// The number of moves played by hand since the position was loaded (undone moves not
    /// counted), for types played by hand; `None` (the default) for the others.
    fn moves_played(&self) -> Option<usize> {
        None
    }

    /// How this puzzle counts moves, in the plural ("moves", "steps", "cell moves",
    /// "jumps"): the word for its solution's length and its distances. The default is
    /// "moves".
    fn metric_label(&self) -> String {
        "moves".to_owned()
    }

    /// The position the moves played by hand started from (see [`Puzzle::moves_played`]):
    /// the puzzle as loaded, scrambled or last edited, with no move played. For types not
    /// played by hand, the puzzle itself (the default).
    fn origin(&self) -> Box<dyn Puzzle> {
        self.clone_box()
    }

    /// This puzzle after `moves` (named as in [`Report::moves`]) played from its position,
    /// as a position of its own (no move played): what a solution's playback shows after
    /// that many moves. `None` if a move is not legal there, and for types that do not
    /// replay moves (the default).
    fn after_moves(&self, _moves: &[String]) -> Option<Box<dyn Puzzle>> {
        None
    }

    /// The settings this type takes from the command line (`--set NAME=VALUE`, or
    /// `--NAME VALUE` for the common ones), each with its values and help.
    fn options(&self) -> &'static [PuzzleOption] {
        &[]
    }

    /// Work a search of this puzzle needs first, done by the command line before it solves
    /// (the GUI does it in the background): sliding tiles load or build their pattern
    /// databases, choosing them when `defaults` says the user chose no heuristic and the board
    /// is large. `progress` gets the fraction done (0 to 1); `cancel` carries the limits.
    ///
    /// # Errors
    /// A [`pattern_db::PdbError`]: a limit reached, or a failed build.
    fn prepare(
        &mut self,
        _defaults: bool,
        _cancel: &CancelToken,
        _progress: &mut dyn FnMut(f64),
    ) -> Result<(), pattern_db::PdbError> {
        Ok(())
    }

    /// Sets option `name` (one of [`Puzzle::options`]) to `value`.
    ///
    /// # Errors
    /// A message naming the values allowed when `value` is not one of them.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        Err(format!("unknown option `{name}` `{value}`"))
    }

    /// The value a pointer stroke starting on `cell` paints (see [`Puzzle::paint`]), or `None`
    /// when that square cannot be edited.
    fn stroke_value(&self, cell: Cell) -> Option<u8>;

    /// Paints `value` (from [`Puzzle::stroke_value`]) onto `cell`. Returns whether the puzzle
    /// changed.
    fn paint(&mut self, cell: Cell, value: u8) -> bool;

    /// The puzzle in its plain-text format.
    fn to_text(&self) -> String;

    /// The puzzle in its JSON format (with `"type"` and `"version"` fields).
    fn to_json(&self) -> serde_json::Value;

    /// A copy of the puzzle, to hand to the solver thread.
    fn clone_box(&self) -> Box<dyn Puzzle>;

    /// For the GUI's puzzle-specific controls.
    fn as_any(&self) -> &dyn Any;

    /// For the GUI's puzzle-specific controls.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl Clone for Box<dyn Puzzle> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// What a front end hears of a search, in puzzle-independent terms: the [`Place`] of each
/// state for puzzles whose states are positions on the picture, and, when asked for, the whole
/// picture of a state for puzzles whose states are boards. Every method has an empty default.
pub trait Watcher {
    /// A state was expanded, `depth` moves from the start; `place` is `None` for board puzzles.
    fn expanded(&mut self, _place: Option<Place>, _depth: u64, _stats: &Stats) {}
    /// The place just reported expanded, scored: path cost `g`, heuristic `h` (`None` when
    /// the algorithm uses none) and the place it was reached from (see
    /// [`search::Observer::scored`]). Called only when [`Watcher::wants_scores`] says so.
    fn scored(&mut self, _place: Place, _g: Cost, _h: Option<Cost>, _parent: Option<Place>) {}
    /// Whether [`Watcher::scored`] is wanted (the default: no).
    fn wants_scores(&self) -> bool {
        false
    }
    /// A state was added to the frontier.
    fn generated(&mut self, _place: Option<Place>) {}
    /// A place joined the end of the current path (depth-first search and IDA*; see
    /// [`search::Observer::path_push`]).
    fn path_push(&mut self, _place: Place) {}
    /// The last place of the current path left it.
    fn path_pop(&mut self) {}
    /// Whether the picture of the next state expanded is wanted: making one costs time, so it
    /// is made only when this says so.
    fn wants_board(&self) -> bool {
        false
    }
    /// The picture of the state about to be reported as expanded.
    fn board(&mut self, _picture: Picture) {}
    /// The board just reported as expanded (a puzzle whose states are boards), scored: its
    /// path cost `g` and heuristic `h` (`None` for algorithms that use none). Called only
    /// when [`Watcher::wants_scores`] says so.
    fn scored_board(&mut self, _g: Cost, _h: Option<Cost>) {}
    /// Whether every method above does nothing, so the search may skip calling them (see
    /// [`search::Observer::is_silent`]). The default is false.
    fn is_silent(&self) -> bool {
        false
    }
}

/// A watcher that ignores everything, for headless runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoWatcher;

impl Watcher for NoWatcher {
    fn is_silent(&self) -> bool {
        true
    }
}

/// A setting of a puzzle type, declared by the type ([`Puzzle::options`]) and applied by it
/// ([`Puzzle::set_option`]); the command line parses them generically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleOption {
    /// Its name, as in `--set metric=piece`.
    pub name: &'static str,
    /// The values it takes, for help and errors (for example `unit|piece`).
    pub values: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// A puzzle file shipped in `puzzles/` and built into the program.
#[derive(Clone, Copy, Debug)]
pub struct Shipped {
    /// File name inside `puzzles/`.
    pub file: &'static str,
    /// The file's contents.
    pub text: &'static str,
}

/// A registry entry: how to recognise, read and create one type of puzzle.
#[derive(Debug)]
pub struct PuzzleType {
    /// Command-line name, also the `"type"` field of the JSON format.
    pub name: &'static str,
    /// Name shown in the GUI.
    pub label: &'static str,
    /// How much a plain-text file looks like this type, from 0 (not at all) to 1 (every
    /// character fits); the best score of at least 0.5 picks the type when none is given.
    pub sniff: fn(&str) -> f64,
    /// Parses the plain-text format.
    pub parse_text: fn(&str) -> Result<Box<dyn Puzzle>, FormatError>,
    /// Reads the JSON format (the `"type"` and `"version"` fields already checked).
    pub from_json: fn(serde_json::Value) -> Result<Box<dyn Puzzle>, FormatError>,
    /// The JSON format version this build writes and reads.
    pub json_version: u32,
    /// Puzzle files of this type shipped in `puzzles/`; the first opens when the type is picked.
    pub shipped: &'static [Shipped],
}

impl PuzzleType {
    /// The puzzle that opens when this type is picked: the first shipped file.
    ///
    /// # Panics
    /// If the shipped file does not parse, which the tests rule out.
    pub fn default_puzzle(&self) -> Box<dyn Puzzle> {
        match (self.parse_text)(self.shipped[0].text) {
            Ok(puzzle) => puzzle,
            Err(e) => panic!("shipped puzzle {} is broken: {e}", self.shipped[0].file),
        }
    }
}

/// Every puzzle type. Adding a type means adding its module and one line here.
pub static TYPES: &[&PuzzleType] = &[
    &klondike::TYPE,
    &maze::TYPE,
    &car_maze::TYPE,
    &klotski::TYPE,
    &sliding::TYPE,
    &rush_hour::TYPE,
];

/// The puzzle type with command-line name `name`.
pub fn type_by_name(name: &str) -> Option<&'static PuzzleType> {
    TYPES.iter().copied().find(|t| t.name == name)
}

/// Every shipped puzzle, with its type.
pub fn shipped() -> impl Iterator<Item = (&'static PuzzleType, &'static Shipped)> {
    TYPES
        .iter()
        .flat_map(|t| t.shipped.iter().map(move |s| (*t, s)))
}

/// The largest puzzle file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// What is wrong with a puzzle's text: a message, and where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", location(*line, *column, field.as_deref()))]
pub struct FormatError {
    /// 1-based line, if the error is tied to one.
    pub line: Option<usize>,
    /// 1-based column (in characters), if the error is tied to one.
    pub column: Option<usize>,
    /// The JSON field, if the error is tied to one.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

fn location(line: Option<usize>, column: Option<usize>, field: Option<&str>) -> String {
    match (field, line, column) {
        (Some(f), Some(l), Some(c)) => format!("field `{f}`, entry {l}, column {c}: "),
        (Some(f), Some(l), None) => format!("field `{f}`, entry {l}: "),
        (Some(f), None, _) => format!("field `{f}`: "),
        (None, Some(l), Some(c)) => format!("line {l}, column {c}: "),
        (None, Some(l), None) => format!("line {l}: "),
        (None, None, _) => String::new(),
    }
}

impl FormatError {
    /// An error with no location.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            line: None,
            column: None,
            field: None,
            message: message.into(),
        }
    }

    /// An error at a 1-based line and, optionally, column.
    pub fn at(line: usize, column: Option<usize>, message: impl Into<String>) -> Self {
        Self {
            line: Some(line),
            column,
            ..Self::new(message)
        }
    }

    /// An error in a JSON field.
    pub fn in_field(field: &str, message: impl Into<String>) -> Self {
        Self {
            field: Some(field.to_owned()),
            ..Self::new(message)
        }
    }
}

/// A puzzle file that could not be read: which file, and why.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error(
        "{path}: the file is larger than the limit of {} MiB ({bytes} bytes or more)",
        MAX_FILE_BYTES / (1024 * 1024)
    )]
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        bytes: u64,
    },
    /// The file's contents are not a puzzle.
    #[error("{path}: {source}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong with it.
        source: FormatError,
    },
}

/// How long a file that is not a regular file (a FIFO, a device, standard input) may take to
/// be read to the end before it is refused.
pub const NON_REGULAR_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Reads the file at `path` (`-` for standard input) as UTF-8 text, at most
/// [`MAX_FILE_BYTES`]: the bytes are counted as they are read, so devices such as `/dev/zero`
/// are refused too. A file that is not a regular file is read on a helper thread and refused
/// if it has not ended within [`NON_REGULAR_READ_TIMEOUT`] (a FIFO with no writer).
///
/// # Errors
/// [`LoadError`] naming the file: it cannot be read, is too large, does not end in time, or
/// is not UTF-8.
pub fn read_text_file(path: &Path) -> Result<String, LoadError> {
    let name = if path == Path::new("-") {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    };
    let io = |source| LoadError::Io {
        path: name.clone(),
        source,
    };
    let data = if path == Path::new("-") {
        read_with_timeout(None).map_err(io)?
    } else {
        let meta = std::fs::metadata(path).map_err(io)?;
        if meta.is_file() {
            if meta.len() > MAX_FILE_BYTES {
                return Err(LoadError::TooLarge {
                    path: name,
                    bytes: meta.len(),
                });
            }
            read_capped(std::fs::File::open(path).map_err(io)?).map_err(io)?
        } else if meta.is_dir() {
            return Err(io(std::io::Error::other("this is a folder, not a file")));
        } else {
            read_with_timeout(Some(path.to_path_buf())).map_err(io)?
        }
    };
    if data.len() as u64 > MAX_FILE_BYTES {
        return Err(LoadError::TooLarge {
            path: name,
            bytes: data.len() as u64,
        });
    }
    String::from_utf8(data).map_err(|e| LoadError::Format {
        path: name.clone(),
        source: FormatError::new(format!(
            "the file is not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )),
    })
}

/// Reads `source` to its end or to one byte past [`MAX_FILE_BYTES`], whichever comes first.
fn read_capped(source: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut data = Vec::new();
    source.take(MAX_FILE_BYTES + 1).read_to_end(&mut data)?;
    Ok(data)
}

/// Reads the file at `path` (standard input for `None`) on a helper thread, capped as
/// [`read_capped`] does, waiting at most [`NON_REGULAR_READ_TIMEOUT`].
fn read_with_timeout(path: Option<std::path::PathBuf>) -> std::io::Result<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("file-read".into())
        .spawn(move || {
            let data = match path {
                // Opening a FIFO blocks until a writer comes: that is inside the timeout too.
                Some(p) => std::fs::File::open(p).and_then(read_capped),
                None => read_capped(std::io::stdin().lock()),
            };
            let _ = tx.send(data);
        })?;
    rx.recv_timeout(NON_REGULAR_READ_TIMEOUT)
        .unwrap_or_else(|_| {
            Err(std::io::Error::other(format!(
                "not a regular file, and it did not reach its end within {} s",
                NON_REGULAR_READ_TIMEOUT.as_secs()
            )))
        })
}

/// Reads the puzzle in the file at `path` (`-` for standard input). `type_name` forces a
/// type (see [`PuzzleType::name`]); otherwise the type is taken from a JSON file's `"type"`
/// field or detected from a text file's characters.
///
/// # Errors
/// [`LoadError`] naming the file, for a file that cannot be read, is too large, is not UTF-8,
/// or does not parse (see [`read_text_file`] and [`parse`]).
pub fn load_file(path: &Path, type_name: Option<&str>) -> Result<Box<dyn Puzzle>, LoadError> {
    let text = read_text_file(path)?;
    parse(&text, type_name).map_err(|source| LoadError::Format {
        path: path.display().to_string(),
        source,
    })
}

/// Parses a puzzle from text: JSON if it starts with `{`, otherwise a plain-text format.
/// `type_name` forces a type; without it JSON says its type and plain text is sniffed.
///
/// # Errors
/// [`FormatError`] for empty text, an unknown or undetectable type, malformed JSON (with its
/// line and column), a wrong format version, or the type's own parse errors.
pub fn parse(text: &str, type_name: Option<&str>) -> Result<Box<dyn Puzzle>, FormatError> {
    let forced = match type_name {
        Some(name) => Some(type_by_name(name).ok_or_else(|| unknown_type(name))?),
        None => None,
    };
    let trimmed = text.trim_start_matches('\u{feff}');
    if trimmed.trim().is_empty() {
        return Err(FormatError::new("the file is empty"));
    }
    if trimmed.trim_start().starts_with('{') {
        return parse_json(trimmed, forced);
    }
    let puzzle_type = match forced {
        Some(t) => t,
        None => TYPES
            .iter()
            .copied()
            .map(|t| (t, (t.sniff)(trimmed)))
            .filter(|(_, score)| *score >= 0.5)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(t, _)| t)
            .ok_or_else(|| {
                FormatError::new(
                    "cannot tell the puzzle type from this text; \
                     name it with --type (maze: `#` `.` `S` `G`; klondike: `_` `x` digits; \
                     car-maze: `OUTS: PATHS` intersections)",
                )
            })?,
    };
    (puzzle_type.parse_text)(trimmed)
}

fn unknown_type(name: &str) -> FormatError {
    let known: Vec<&str> = TYPES.iter().map(|t| t.name).collect();
    FormatError::in_field(
        "type",
        format!("unknown puzzle type `{name}` (known: {})", known.join(", ")),
    )
}

fn parse_json(
    text: &str,
    forced: Option<&'static PuzzleType>,
) -> Result<Box<dyn Puzzle>, FormatError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        // serde_json's message ends with its own " at line L column C": said once, up front.
        let message = e.to_string();
        let message = message
            .rfind(" at line ")
            .map_or(message.as_str(), |i| &message[..i]);
        FormatError::at(
            e.line(),
            Some(e.column()),
            format!("invalid JSON: {message}"),
        )
    })?;
    let declared = value.get("type").and_then(|t| t.as_str());
    let puzzle_type = match (declared, forced) {
        (Some(name), _) => type_by_name(name).ok_or_else(|| unknown_type(name))?,
        (None, Some(t)) => t,
        (None, None) => return Err(FormatError::in_field("type", "missing")),
    };
    if let Some(t) = forced
        && t.name != puzzle_type.name
    {
        return Err(FormatError::in_field(
            "type",
            format!("the file holds a {}, not a {}", puzzle_type.name, t.name),
        ));
    }
    match value.get("version").map(|v| v.as_u64()) {
        None => return Err(FormatError::in_field("version", "missing")),
        Some(Some(v)) if v == u64::from(puzzle_type.json_version) => {}
        Some(_) => {
            return Err(FormatError::in_field(
                "version",
                format!("this build reads version {}", puzzle_type.json_version),
            ));
        }
    }
    (puzzle_type.from_json)(value)
}

/// Deserializes a puzzle's JSON body, turning serde's message into a [`FormatError`] that
/// names the field's path (for example `pieces.A[0].row`).
pub(crate) fn json_body<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, FormatError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        if path == "." {
            FormatError::new(format!("invalid puzzle: {message}"))
        } else {
            FormatError::in_field(&path, message)
        }
    })
}

/// Splits plain text into its non-empty lines, with 1-based line numbers, skipping lines that
/// start with `;` (comments).
pub(crate) fn text_rows(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim_end()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with(';'))
        .collect()
}

/// The fraction of the non-blank characters of `text`'s rows (see [`text_rows`]) that are in
/// `alphabet`: a [`PuzzleType::sniff`] for grid formats.
pub(crate) fn alphabet_score(text: &str, alphabet: &str) -> f64 {
    rows_alphabet_score(text_rows(text).into_iter().map(|(_, row)| row), alphabet)
}

/// [`alphabet_score`] of the given rows alone (a format whose settings lines must not count).
pub(crate) fn rows_alphabet_score<'a>(rows: impl Iterator<Item = &'a str>, alphabet: &str) -> f64 {
    let (mut fits, mut total) = (0usize, 0usize);
    for row in rows {
        for c in row.chars().filter(|c| !c.is_whitespace()) {
            total += 1;
            fits += usize::from(alphabet.contains(c));
        }
    }
    if total == 0 {
        0.0
    } else {
        fits as f64 / total as f64
    }
}

/// Checks that a grid of text rows is rectangular and not too large; returns (rows, columns).
pub(crate) fn check_rectangle(
    rows: &[(usize, &str)],
    max_side: usize,
) -> Result<(usize, usize), FormatError> {
    let Some(&(_, first)) = rows.first() else {
        return Err(FormatError::new("the file is empty"));
    };
    let width = first.chars().count();
    for &(line, row) in rows {
        let n = row.chars().count();
        if n != width {
            return Err(FormatError::at(
                line,
                None,
                format!("ragged row: {n} characters where the first row has {width}"),
            ));
        }
    }
    if rows.len() > max_side || width > max_side {
        return Err(FormatError::new(format!(
            "the grid is {} x {}; at most {max_side} x {max_side} is supported",
            rows.len(),
            width
        )));
    }
    Ok((rows.len(), width))
}

/// Runs `algorithm` on a puzzle whose states map to places on its picture, translating states
/// to places for `observer` and for the [`Report`]. This is the body of most
/// [`Puzzle::solve`]s.
///
/// # Errors
/// As [`search::run`].
pub fn solve_on_places<P: Problem + ?Sized>(
    problem: &P,
    puzzle_type: &'static PuzzleType,
    algorithm: Algorithm,
    watcher: &mut dyn Watcher,
    cancel: &CancelToken,
    place_of: impl Fn(&P::State) -> Place,
) -> Result<Report, SearchError> {
    let mut adapter = PlaceObserver {
        inner: watcher,
        place_of: &place_of,
    };
    let result = search::run(problem, algorithm, &mut adapter, cancel)?;
    Ok(Report {
        puzzle_type: puzzle_type.name,
        algorithm,
        outcome: result.outcome,
        solved: result.outcome == Outcome::Found,
        optimal: result.optimal,
        cost: result.cost,
        moves: result.moves.iter().map(ToString::to_string).collect(),
        path: result.states.iter().map(&place_of).collect(),
        boards: Vec::new(),
        stats: result.stats,
        notes: algorithm_notes(algorithm),
        message: result.message,
    })
}

/// The algorithms of [`Algorithm::ALL`] that apply to `problem`.
pub fn applicable<P: Problem + ?Sized>(problem: &P) -> Vec<Algorithm> {
    Algorithm::ALL
        .into_iter()
        .filter(|a| a.applies_to(problem))
        .collect()
}

struct PlaceObserver<'a, F> {
    inner: &'a mut dyn Watcher,
    place_of: &'a F,
}

impl<S, F: Fn(&S) -> Place> Observer<S> for PlaceObserver<'_, F> {
    fn expanded(&mut self, state: &S, depth: u64, stats: &Stats) {
        self.inner
            .expanded(Some((self.place_of)(state)), depth, stats);
    }

    fn generated(&mut self, state: &S) {
        self.inner.generated(Some((self.place_of)(state)));
    }

    fn scored(&mut self, state: &S, g: Cost, h: Option<Cost>, parent: Option<&S>) {
        let parent = parent.map(|p| (self.place_of)(p));
        self.inner.scored((self.place_of)(state), g, h, parent);
    }

    fn wants_scores(&self) -> bool {
        self.inner.wants_scores()
    }

    fn path_push(&mut self, state: &S) {
        self.inner.path_push((self.place_of)(state));
    }

    fn path_pop(&mut self) {
        self.inner.path_pop();
    }

    fn is_silent(&self) -> bool {
        self.inner.is_silent()
    }
}

/// Writes `puzzle` to `path` atomically: into a temporary file beside it, then renamed over
/// it, so a crash never leaves a half-written file. A `.json` extension writes the JSON format,
/// anything else the plain-text format.
///
/// # Errors
/// The I/O error of writing, syncing or renaming.
pub fn save_file(puzzle: &dyn Puzzle, path: &Path) -> std::io::Result<()> {
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let text = if is_json {
        let mut json =
            serde_json::to_string_pretty(&puzzle.to_json()).map_err(std::io::Error::other)?;
        json.push('\n');
        json
    } else {
        puzzle.to_text()
    };
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "puzzle".into());
    let tmp = path.with_file_name(format!(".{file_name}.tmp"));
    {
        use std::io::Write as _;
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Runs `algorithm` on a puzzle whose states are whole boards, giving `watcher` the picture of
/// an expanded state when it asks for one, and the [`Report`] the picture of every state of
/// the solution (in [`Report::boards`]).
///
/// # Errors
/// As [`search::run`].
pub fn solve_on_boards<P: Problem + ?Sized>(
    problem: &P,
    puzzle_type: &'static PuzzleType,
    algorithm: Algorithm,
    watcher: &mut dyn Watcher,
    cancel: &CancelToken,
    picture_of: impl Fn(&P::State) -> Picture,
) -> Result<Report, SearchError> {
    let mut adapter = BoardObserver {
        inner: watcher,
        picture_of: &picture_of,
    };
    let result = search::run(problem, algorithm, &mut adapter, cancel)?;
    Ok(Report {
        puzzle_type: puzzle_type.name,
        algorithm,
        outcome: result.outcome,
        solved: result.outcome == Outcome::Found,
        optimal: result.optimal,
        cost: result.cost,
        moves: result.moves.iter().map(ToString::to_string).collect(),
        path: Vec::new(),
        boards: result.states.iter().map(&picture_of).collect(),
        stats: result.stats,
        notes: algorithm_notes(algorithm),
        message: result.message,
    })
}

struct BoardObserver<'a, F> {
    inner: &'a mut dyn Watcher,
    picture_of: &'a F,
}

impl<S, F: Fn(&S) -> Picture> Observer<S> for BoardObserver<'_, F> {
    fn expanded(&mut self, state: &S, depth: u64, stats: &Stats) {
        if self.inner.wants_board() {
            self.inner.board((self.picture_of)(state));
        }
        self.inner.expanded(None, depth, stats);
    }

    fn generated(&mut self, _state: &S) {
        self.inner.generated(None);
    }

    fn scored(&mut self, _state: &S, g: Cost, h: Option<Cost>, _parent: Option<&S>) {
        self.inner.scored_board(g, h);
    }

    fn wants_scores(&self) -> bool {
        self.inner.wants_scores()
    }

    fn is_silent(&self) -> bool {
        self.inner.is_silent()
    }
}

/// What a report says of the algorithm beyond its name: weighted A*'s weight and bound.
fn algorithm_notes(algorithm: Algorithm) -> Vec<String> {
    match algorithm {
        Algorithm::WeightedAStar(w) => vec![format!(
            "weight {} (priority g + {} h; with a consistent heuristic the cost is at most {} times the least)",
            w.value(),
            w.value(),
            w.value()
        )],
        _ => Vec::new(),
    }
}

/// Replays `moves` (as named by `Display`) from the start state of `problem`, checking each is
/// a legal successor. Returns the states visited, start first, or the index of the first move
/// that is not legal. Tests and the GUI's playback use it.
pub fn replay<P: Problem + ?Sized>(problem: &P, moves: &[String]) -> Result<Vec<P::State>, usize> {
    let Some(mut at) = problem.start_states().into_iter().next() else {
        return Err(0);
    };
    let mut states = vec![at.clone()];
    let mut successors: Vec<Successor<P::State, P::Move>> = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        successors.clear();
        problem.successors(&at, &mut successors);
        let Some(next) = successors.iter().find(|s| s.mv.to_string() == *mv) else {
            return Err(i);
        };
        at = next.state.clone();
        states.push(at.clone());
    }
    Ok(states)
}
