//! Puzzle types: each module holds one puzzle's model, rules, file formats and heuristic, and
//! plugs into the rest of the program through the object-safe [`Puzzle`] trait (from the
//! [`Model`] it implements), its optional [`capabilities`] and one entry in [`TYPES`] (the
//! registry, `registry.rs`, which also declares the types' modules). This file and `model.rs`
//! are the shared contract: they name no type.
//!
//! Coordinates everywhere are [`Cell`]s: (row, column), 0-based, origin at the top-left, rows
//! growing downwards.

/// A [`Shipped`] entry for the file `puzzles/NAME`, its text built into the program.
macro_rules! shipped {
    ($file:literal) => {
        $crate::puzzles::Shipped {
            file: $file,
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/", $file)),
        }
    };
}

pub mod oracle;

mod adapters;
pub mod batch;
pub mod call_limits;
pub mod capabilities;
mod files;
mod geometry;
mod model;
mod picture;
mod registry;

pub use adapters::*;
pub use batch::{Bench, Generator, TypeCapabilities};
pub use capabilities::{
    Capabilities, HandPlay, HeuristicSampling, IterationForecasts, Preparation, PrepareError,
    RandomLayouts, SampledQuality,
};
pub use files::*;
pub use geometry::*;
pub use model::Model;
pub use picture::*;
pub use registry::*;

use std::any::Any;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::search::{
    self, Algorithm, CancelToken, Cost, Observer, Outcome, Problem, SearchError, Stats, Successor,
};

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
    /// The solution as every step of the player in LURD (lowercase walks, uppercase
    /// pushes), for a type whose moves are pushes that leave the walks between them out;
    /// `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lurd: Option<String>,
    /// The places of the solution's states, start first (one more than there are moves);
    /// empty for board puzzles.
    pub path: Vec<Place>,
    /// The pictures of the solution's states, start first, for board puzzles (whose states
    /// have no place); empty otherwise.
    #[serde(skip)]
    pub boards: Vec<Picture>,
    /// Each move of the solution as a value ([`Motion`]) for board puzzles, made by the type
    /// from its own move; empty otherwise (a marker's moves follow from `path`, see
    /// [`Report::motion`]).
    #[serde(skip)]
    pub motions: Vec<Motion>,
    /// Statistics of the run.
    pub stats: Stats,
    /// IDA*: each iteration's bound, states expanded and generated, time and forecast
    /// (Korf's table; see [`crate::search::layers`]); empty for other runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<crate::search::layers::Iteration>,
    /// The best-first searches (A*, Dijkstra, ...): states expanded per f value, in
    /// increasing f; empty for other runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_f: Vec<crate::search::layers::FLayer>,
    /// Extra findings specific to the puzzle (for example how many shortest solutions exist).
    pub notes: Vec<String>,
    /// For a run that stopped at a limit: what filled the memory or the time, and what to try
    /// (see [`search::SearchResult::message`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// For a run that ended at an error of the puzzle's own code ([`Outcome::ScriptError`]):
    /// the error, with its line and column in the puzzle's text (the message says it too).
    #[serde(skip)]
    pub error: Option<FormatError>,
}

impl Report {
    /// Move `i` of the solution (0-based) as a value: the piece it slides on a board puzzle,
    /// or the marker's step or jump from place `i` of the path to place `i + 1`. `None` past
    /// the last move.
    pub fn motion(&self, i: usize) -> Option<Motion> {
        if let Some(&motion) = self.motions.get(i) {
            return Some(motion);
        }
        let pair = self.path.get(i..i + 2)?;
        Some(Motion::between(pair[0].cell, pair[1].cell))
    }
}

/// A puzzle as the front ends see it: something to draw, edit, save and solve. Each puzzle
/// type implements [`Model`] on its own type and gets this trait from the one generic
/// adapter (a blanket implementation for every [`Model`]), which supplies what all types do
/// alike; the per-type methods' defaults are [`Model`]'s. [`solve_on_places`] does the work
/// of [`Puzzle::solve`].
pub trait Puzzle: Send + Sync + fmt::Debug {
    /// The registry entry of this puzzle's type.
    fn puzzle_type(&self) -> &'static PuzzleType;

    /// What the puzzle looks like now.
    fn picture(&self) -> Picture;

    /// The size of [`Puzzle::picture`]: (rows, columns).
    fn dims(&self) -> (usize, usize);

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

    /// Withdraws the claim that the heuristic is admissible, after it was measured
    /// overestimating (h > h*, the Heuristic window) on a state: from then on
    /// [`Puzzle::guarantees_optimal`] is false for the algorithms whose optimality rests on
    /// it. Returns whether there was a declared claim to withdraw: only a type whose claim is
    /// a declaration (a user's program that says `const ADMISSIBLE = true`) has one; the built-in
    /// heuristics are proven admissible, and the default does nothing.
    fn withdraw_admissibility(&mut self) -> bool {
        false
    }

    /// Why the puzzle provably has no solution, found without searching (a board of tiles
    /// board of the wrong parity), or `None` (the default) when a search must tell: the
    /// reason [`Puzzle::solve`] gives as [`SearchError::Unsolvable`] before any search.
    fn unsolvable(&self) -> Option<String> {
        None
    }

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
    /// default ([`Model::solve_default`]) with [`Puzzle::default_algorithm`]. A type may do
    /// better (on large boards, optimal IDA* under a time budget, then weighted A*).
    ///
    /// # Errors
    /// As [`Puzzle::solve`].
    fn solve_default(
        &self,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError>;

    /// Counts the states reachable from the start and the solved ones among them (see
    /// [`search::count_reachable`]).
    fn count_states(&self, cancel: &CancelToken) -> search::StateCount;

    /// The player's companion for this puzzle (see [`oracle`]): the optimal distance from
    /// any position reached by playing, and each move rated. Types with a small state space
    /// explore it whole (under the limits of `cancel`); `progress` gets a line saying how far
    /// the preparation is ([`Model::oracle`] explores the whole space by default).
    ///
    /// # Errors
    /// [`oracle::OracleError`]: no oracle for this type, a space too large, or a limit.
    fn oracle(
        &self,
        _cancel: &CancelToken,
        _progress: &mut dyn FnMut(&str),
    ) -> Result<Box<dyn oracle::Oracle>, oracle::OracleError>;

    /// How this puzzle counts moves, in the plural ("moves", "steps", "cell moves",
    /// "jumps"): the word for its solution's length and its distances. The default is
    /// "moves".
    fn metric_label(&self) -> String {
        "moves".to_owned()
    }

    /// The capabilities this puzzle offers beyond the core contract (see [`capabilities`]):
    /// hand play, random layouts, heuristic sampling, forecasts; none by default
    /// ([`Model::capabilities`]).
    fn capabilities(&self) -> Capabilities<'_>;

    /// The work its searches need first, for types that have some (see [`Preparation`]);
    /// `None` by default ([`Model::preparation`]).
    fn preparation(&mut self) -> Option<&mut dyn Preparation>;

    /// Whether `other` plays by the same rules as this puzzle, whatever its position (see
    /// [`oracle::Explorable::same_rules`]): false for a puzzle of another type. What was
    /// worked out of this puzzle's rules (its explored space, a measure of its heuristic)
    /// holds for `other` only then. The default, for a puzzle that cannot tell: never (what
    /// was worked out is worked out again).
    fn same_rules_as(&self, _other: &dyn Puzzle) -> bool {
        false
    }

    /// The position the moves played by hand started from (see [`HandPlay::moves_played`]):
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
    fn options(&self) -> Vec<PuzzleOption>;

    /// Sets option `name` (one of [`Puzzle::options`]) to `value`.
    ///
    /// # Errors
    /// A message naming the values allowed when `value` is not one of them.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String>;

    /// The value a pointer stroke starting on `cell` paints (see [`Puzzle::paint`]), or `None`
    /// when that square cannot be edited.
    fn stroke_value(&self, cell: Cell) -> Option<u8>;

    /// Paints `value` (from [`Puzzle::stroke_value`]) onto `cell`. Returns whether the puzzle
    /// changed.
    fn paint(&mut self, cell: Cell, value: u8) -> bool;

    /// A new pointer stroke begins: its paints (a piece dragged by hand) are one move where
    /// the puzzle's metric counts a slide of any distance as one (a metric of whole-piece
    /// moves). Types without such a metric ignore it (the default).
    fn begin_stroke(&mut self) {}

    /// The puzzle in its plain-text format.
    fn to_text(&self) -> String;

    /// The position as text for a listing (the `states` command's farthest and hardest
    /// states, a heuristic's examples): by default the puzzle's file text
    /// ([`Puzzle::to_text`]); a type whose file is a program (a user's rules) gives the
    /// state alone.
    fn position_text(&self) -> String {
        self.to_text()
    }

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
    /// The search is about to count and expand a state, and looks at its stop right after
    /// this returns (see [`search::Observer::before_expansion`]): a watcher that paces the
    /// search waits here. `stats` are the figures of the expansions told, each whole (its
    /// successors generated and queued).
    fn before_expansion(&mut self, _stats: &Stats) {}
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
    /// The state just reported by [`Watcher::generated`], scored: the path cost `g` it was put
    /// on the frontier with and its heuristic `h` (see [`search::Observer::scored_generated`]).
    /// Called only when [`Watcher::wants_scores`] says so.
    fn scored_generated(&mut self, _g: Cost, _h: Option<Cost>) {}
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
    /// Whether the picture of each state put on the frontier of a puzzle whose states are
    /// boards is wanted ([`Watcher::generated_board`]; the open list of a recording).
    fn wants_generated_boards(&self) -> bool {
        false
    }
    /// The picture of the board about to be reported put on the frontier
    /// ([`Watcher::generated`] with no place).
    fn generated_board(&mut self, _picture: Picture) {}
    /// The board just reported as expanded (a puzzle whose states are boards), scored: its
    /// path cost `g` and heuristic `h` (`None` for algorithms that use none). Called only
    /// when [`Watcher::wants_scores`] says so.
    fn scored_board(&mut self, _g: Cost, _h: Option<Cost>) {}
    /// Whether every method above does nothing, so the search may skip calling them (see
    /// [`search::Observer::is_silent`]). The default is false.
    fn is_silent(&self) -> bool {
        false
    }
    /// Whether this watcher takes a search's figures alone ([`Watcher::figures`]) in place of
    /// its states: a search too large to watch state by state (IDA* on the 24-puzzle with its
    /// pattern databases) then runs on a fast core. The default is false.
    fn takes_figures(&self) -> bool {
        false
    }
    /// A search that reports no states went on: its figures so far (states expanded and
    /// generated, IDA* iteration and bound, time), a few dozen times a second. Returns true
    /// while the search is to hold (paused); it is asked again a few milliseconds later.
    fn figures(&mut self, _stats: &Stats) -> bool {
        false
    }
    /// How many expansions of a grid's breadth-first search this watcher takes at a time as
    /// one [`search::GridBlock`] ([`Watcher::grid_block`]); 0 (the default) for the calls
    /// above one by one. Asked before each block (see [`search::Observer::grid_block_len`]).
    fn grid_block_len(&self) -> usize {
        0
    }
    /// Expansions of a grid's breadth-first search, many at a time: a square's row and
    /// column are its place's. The default tells them one by one
    /// ([`tell_grid_block`]).
    fn grid_block(&mut self, block: &search::GridBlock) {
        tell_grid_block(self, block);
    }
}

/// Tells `watcher` the events of `block` one by one, as the search tells them when it makes
/// no block: each expansion (scored, if [`Watcher::wants_scores`]) and the states it put on
/// the frontier (a square at its row and column; `g` its depth, no `h`).
pub fn tell_grid_block<W: Watcher + ?Sized>(watcher: &mut W, block: &search::GridBlock) {
    let place = |(row, col): (usize, usize)| Place::from(Cell::new(row, col));
    let scores = watcher.wants_scores();
    for event in block.events() {
        match event {
            search::GridEvent::Expanded {
                square,
                depth,
                parent,
                stats,
            } => {
                watcher.expanded(Some(place(square)), depth, &stats);
                if scores {
                    watcher.scored(place(square), depth as Cost, None, parent.map(place));
                }
            }
            search::GridEvent::Generated { square, g } => {
                watcher.generated(Some(place(square)));
                if scores {
                    watcher.scored_generated(g, None);
                }
            }
        }
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
/// Owned: a type's fixed options borrow their words ([`PuzzleOption::new`]); a type whose
/// options depend on the puzzle (a program's own parameters) makes them per call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleOption {
    /// Its name, as in `--set metric=piece`.
    pub name: Cow<'static, str>,
    /// The values it takes, for help and errors (for example `unit|piece`, or `1..9` for a
    /// range).
    pub values: Cow<'static, str>,
    /// What it does.
    pub help: Cow<'static, str>,
}

impl PuzzleOption {
    /// An option of fixed words: its `name`, the `values` it takes, and what it does (`help`).
    pub const fn new(name: &'static str, values: &'static str, help: &'static str) -> Self {
        Self {
            name: Cow::Borrowed(name),
            values: Cow::Borrowed(values),
            help: Cow::Borrowed(help),
        }
    }
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
    /// The plain-text format's telltale characters, for the message when no type fits a
    /// text (for example `` `#` `.` `S` `G` ``).
    pub text_hint: &'static str,
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
