//! Sokoban (Hiroyuki Imabayashi, Thinking Rabbit, 1982): a warehouse keeper pushes boxes onto
//! goals. The player walks between free squares; walking into a box pushes it one square on
//! when the square behind it is free; boxes are never pulled. A level is solved when every box
//! stands on a goal.
//!
//! Levels are read from XSB/SOK text ([`format`]); a file of many levels is a collection, and
//! the puzzle is one level of it (the option `level`, 1-based, as numbered in the file), the
//! collection kept. Two move metrics: `pushes` (a push costs 1, walking is free; the default)
//! and `moves` (every step costs 1, a push too). The search runs on the push graph
//! ([`board`]): a state is the boxes' squares and the player's reachable region.
//!
//! JSON format: `{"type": "sokoban", "version": 1, "title": "...", "levels": [{"title":
//! "...", "author": "...", "board": ["####", ...]}, ...], "level": 1, "position": ["####",
//! ...], "metric": "pushes"}` (`title`, `author`, `position` and `metric` optional;
//! `position` is the current level as played).

pub mod bench;
pub mod board;
pub mod fast;
mod fess;
pub mod format;
mod hand;
mod macros;
pub mod matching;
pub mod packing;
mod puzzle;
mod solver;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Cell, FormatError, Picture, PuzzleType, Square, json_body};
use board::{Board, Ground, State};
use format::{Collection, Level, LevelError};

pub use board::{Dir, Push};

/// The registry entry of Sokoban.
pub static TYPE: PuzzleType = PuzzleType {
    name: "sokoban",
    label: "Sokoban",
    sniff,
    text_hint: "XSB: `#` `@` `$` `.` `*` `+`",
    parse_text: |text| Ok(Box::new(Sokoban::from_text(text)?)),
    from_json: |value| Ok(Box::new(Sokoban::from_json(value)?)),
    json_version: 1,
    shipped: &[shipped!("sokoban-first-steps.xsb")],
};

/// How moves are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// A push costs 1; walking is free.
    #[default]
    Pushes,
    /// Every step of the player costs 1, a push too.
    Moves,
}

impl Metric {
    /// The command-line name: `pushes` or `moves`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Pushes => "pushes",
            Metric::Moves => "moves",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(name: &str) -> Option<Metric> {
        [Metric::Pushes, Metric::Moves]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// One level of a collection on screen: the collection (shared, never changed), the level's
/// board, its position and the metric, and the moves played by hand.
#[derive(Clone, Debug)]
pub struct Sokoban {
    collection: Arc<Collection>,
    /// The index of the level on screen in `collection.levels`.
    index: usize,
    board: Arc<Board>,
    /// The position: the boxes and the player's own square.
    position: State,
    metric: Metric,
    /// Whether the search prunes to PI-corrals in the `pushes` metric (the option
    /// `corrals`; see [`board::Board::prune_to_pi_corral`]).
    pi_corrals: bool,
    /// Whether the fast solver packs the goals in the packing order first (the option
    /// `packing`; see [`packing`]).
    packing: bool,
    /// The fast solver's weight of the bound (the option `weight`; see
    /// [`fast::Options::weight`]).
    weight: u32,
    /// The fast solver's order (the option `order`, `both`, `fess` or `greedy`; see
    /// [`fast::Options::order`]).
    order: fast::Order,
    /// Whether the fast solver prunes corral deadlocks (the option `deadlocks`, `corral` or
    /// `simple`; see [`board::Board::corral_deadlock`]).
    corral_deadlocks: bool,
    /// Whether the fast solver takes a push into a tunnel on to its end (the option
    /// `macros`: `on` or `tunnels`; see [`macros`]).
    tunnels: bool,
    /// Whether the fast solver takes a box pushed next to the goals on to the next goal of
    /// the packing order (the option `macros`: `on` or `goals`; see [`macros`]).
    goal_macros: bool,
    /// The moves played by hand since the level was opened or edited.
    hand: Option<Box<hand::Hand>>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SokobanJson {
    #[serde(rename = "type")]
    puzzle_type: String,
    version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    levels: Vec<LevelJson>,
    #[serde(default = "first_level")]
    level: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    position: Option<Vec<String>>,
    #[serde(default)]
    metric: Metric,
    /// The XSB text the collection was read from (see [`Collection::source`]), so that a
    /// collection restored from the app's state saves as its file was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source: Option<String>,
}

/// An answer's length as the notes say it: "1 push, 2 moves", "0 pushes, 1 move".
fn pushes_and_moves(pushes: usize, moves: usize) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}",
        plural(pushes, "push", "pushes"),
        plural(moves, "move", "moves")
    )
}

fn first_level() -> usize {
    1
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LevelJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    author: Option<String>,
    board: Vec<String>,
}

/// How much `text` looks like XSB: 1 when it holds a level (well-formed or not) with a
/// player (`@` or `+`) and a box (`$` or `*`) on its board lines.
fn sniff(text: &str) -> f64 {
    let collection = format::read_collection(text);
    if collection.levels.is_empty() && collection.errors.is_empty() {
        return 0.0;
    }
    let board_lines = text
        .lines()
        .filter(|l| l.trim_start().starts_with('#') || l.contains('#'));
    let (mut player, mut boxes) = (false, false);
    for line in board_lines {
        player |= line.contains(['@', '+']);
        boxes |= line.contains(['$', '*']);
    }
    if player && boxes { 1.0 } else { 0.0 }
}

/// A summary of one level of the collection, for the level list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelSummary {
    /// Its number in the file, 1-based.
    pub number: usize,
    /// Its title, if any.
    pub title: Option<String>,
    /// Its boxes.
    pub boxes: usize,
}

impl Sokoban {
    /// Reads XSB text: the first well-formed level of the collection opens (see
    /// [`Sokoban::set_level`]); malformed levels are kept as [`Sokoban::refused`].
    ///
    /// # Errors
    /// [`FormatError`] when no level is well-formed: the first level's fault, with its
    /// number and line.
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        Self::from_collection(format::read_collection(text))
    }

    fn from_collection(collection: Collection) -> Result<Self, FormatError> {
        if collection.levels.is_empty() {
            return Err(match collection.errors.first() {
                Some(e) => level_error(e),
                None => FormatError::new("no Sokoban level (board lines start with `#`)"),
            });
        }
        let board = Arc::new(Board::new(&collection.levels[0]));
        Ok(Sokoban {
            position: board.start.clone(),
            board,
            collection: Arc::new(collection),
            index: 0,
            metric: Metric::Pushes,
            pi_corrals: true,
            packing: true,
            weight: 0,
            order: fast::Order::Alternate,
            corral_deadlocks: true,
            tunnels: true,
            goal_macros: true,
            hand: None,
        })
    }

    /// Reads the JSON format (see the module docs).
    ///
    /// # Errors
    /// As [`Sokoban::from_text`] for the levels, the field named; a `level` that is not one
    /// of them, or a `position` that is not that level's board with its boxes moved.
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: SokobanJson = json_body(value)?;
        let mut collection = Collection {
            title: body.title,
            ..Collection::default()
        };
        if let Some(source) = &body.source {
            // The levels are the source's (the `levels` written beside it say the same).
            let read = format::read_collection(source);
            let boards = |levels: &[Level]| -> Vec<Vec<String>> {
                levels.iter().map(|l| l.rows.clone()).collect()
            };
            let given: Vec<Vec<String>> = (body.levels.iter())
                .map(|l| l.board.iter().map(|r| r.replace(['-', '_'], " ")).collect())
                .collect();
            if boards(&read.levels) != given {
                return Err(FormatError::in_field(
                    "source",
                    "its levels are not the `levels` given",
                ));
            }
            collection.source = read.source;
        }
        for (i, level) in body.levels.iter().enumerate() {
            let number = i + 1;
            if let Err(fault) = format::check_rows(&level.board) {
                return Err(FormatError::in_field(
                    &format!("levels[{i}].board"),
                    format!("level {number}, row {}: {}", fault.row + 1, fault.message),
                ));
            }
            collection.levels.push(Level {
                number,
                title: level.title.clone(),
                author: level.author.clone(),
                rows: level
                    .board
                    .iter()
                    .map(|r| r.replace(['-', '_'], " "))
                    .collect(),
                first_line: 1,
            });
        }
        let mut puzzle = Self::from_collection(collection)
            .map_err(|e| FormatError::in_field("levels", e.message))?;
        puzzle.metric = body.metric;
        puzzle
            .set_level(body.level)
            .map_err(|e| FormatError::in_field("level", e))?;
        if let Some(rows) = body.position {
            let position = puzzle
                .position_from_rows(&rows)
                .map_err(|e| FormatError::in_field("position", e))?;
            puzzle.position = position;
        }
        Ok(puzzle)
    }

    /// The position of `rows` (XSB rows of the level on screen with its boxes and player
    /// moved): the same walls and goals, the boxes and the player inside.
    fn position_from_rows(&self, rows: &[String]) -> Result<State, String> {
        let b = &self.board;
        let mut boxes = Vec::new();
        let mut player = None;
        for s in 0..b.squares() {
            let (r, c) = (s / b.cols, s % b.cols);
            let ch = rows
                .get(r)
                .and_then(|row| row.chars().nth(c))
                .map_or(' ', |ch| if ch == '-' || ch == '_' { ' ' } else { ch });
            let expected = self.square_char(s, &[], None);
            let wall = |c: char| c == '#';
            let goal = |c: char| matches!(c, '.' | '*' | '+');
            if wall(ch) != wall(expected) || goal(ch) != goal(expected) {
                return Err(format!(
                    "row {}, column {}: not this level's walls and goals",
                    r + 1,
                    c + 1
                ));
            }
            let inside = b.ground(s) == Ground::Inside;
            if matches!(ch, '$' | '*') && inside {
                boxes.push(s as u16);
            }
            if matches!(ch, '@' | '+') && inside {
                player = Some(s as u16);
            }
        }
        if boxes.len() != b.start.boxes.len() {
            return Err(format!(
                "{} boxes inside; the level has {}",
                boxes.len(),
                b.start.boxes.len()
            ));
        }
        let player = player.ok_or("no player inside the walls")?;
        if boxes.contains(&player) {
            return Err("the player stands on a box".into());
        }
        Ok(State {
            boxes: boxes.into_boxed_slice(),
            player,
        })
    }

    /// The collection's title, if it has one.
    pub fn collection_title(&self) -> Option<&str> {
        self.collection.title.as_deref()
    }

    /// The well-formed levels of the collection, in file order.
    pub fn levels(&self) -> Vec<LevelSummary> {
        self.collection
            .levels
            .iter()
            .map(|l| LevelSummary {
                number: l.number,
                title: l.title.clone(),
                boxes: l
                    .rows
                    .iter()
                    .flat_map(|r| r.chars())
                    .filter(|&c| c == '$' || c == '*')
                    .count(),
            })
            .collect()
    }

    /// The levels of the collection that were refused, with why.
    pub fn refused(&self) -> &[LevelError] {
        &self.collection.errors
    }

    /// The number (in the file, 1-based) of the level on screen.
    pub fn level_number(&self) -> usize {
        self.collection.levels[self.index].number
    }

    /// The level on screen, as written.
    pub fn level(&self) -> &Level {
        &self.collection.levels[self.index]
    }

    /// Opens level `number` (1-based, as numbered in the file) at its start.
    ///
    /// # Errors
    /// A message when there is no such level, or it was refused (with why).
    pub fn set_level(&mut self, number: usize) -> Result<(), String> {
        if let Some(e) = self.collection.errors.iter().find(|e| e.number == number) {
            return Err(format!("level {number} was refused: {e}"));
        }
        let Some(index) = self
            .collection
            .levels
            .iter()
            .position(|l| l.number == number)
        else {
            let last = self.collection.levels.last().map_or(0, |l| l.number);
            return Err(format!(
                "there is no level {number}; the collection's levels are numbered 1 to {last}"
            ));
        };
        self.index = index;
        self.board = Arc::new(Board::new(&self.collection.levels[index]));
        self.position = self.board.start.clone();
        self.hand = None;
        Ok(())
    }

    /// The number of the well-formed level `by` places after (or before, negative) the one
    /// on screen, if there is one.
    pub fn level_after(&self, by: isize) -> Option<usize> {
        let i = self.index.checked_add_signed(by)?;
        self.collection.levels.get(i).map(|l| l.number)
    }

    /// The move metric.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Counts moves with `metric`.
    pub fn set_metric(&mut self, metric: Metric) {
        self.metric = metric;
    }

    /// The level's board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position: the boxes and the player's own square.
    pub fn position(&self) -> &State {
        &self.position
    }

    /// Whether every box stands on a goal.
    pub fn is_solved(&self) -> bool {
        self.board.is_solved(&self.position)
    }

    /// The cell of square `s`.
    pub fn cell_of(&self, s: usize) -> Cell {
        Cell::new(s / self.board.cols, s % self.board.cols)
    }

    /// The square of `cell`, if it is on the board.
    pub fn square_of(&self, cell: Cell) -> Option<usize> {
        (cell.row < self.board.rows && cell.col < self.board.cols)
            .then(|| cell.row * self.board.cols + cell.col)
    }

    /// The XSB character of square `s` with the boxes `boxes` (sorted) and the player on
    /// `player` (none drawn for `None`).
    fn square_char(&self, s: usize, boxes: &[u16], player: Option<usize>) -> char {
        let b = &self.board;
        let goal = b.is_goal(s);
        let boxed = boxes.binary_search(&(s as u16)).is_ok();
        match b.ground(s) {
            Ground::Wall => '#',
            Ground::Sealed => '*',
            _ if player == Some(s) => {
                if goal {
                    '+'
                } else {
                    '@'
                }
            }
            _ if boxed && goal => '*',
            _ if boxed => '$',
            _ if goal => '.',
            _ => ' ',
        }
    }

    /// The level's rows as XSB with the position `state` (the player on its own square).
    fn rows_of(&self, state: &State) -> Vec<String> {
        let b = &self.board;
        (0..b.rows)
            .map(|r| {
                let row: String = (0..b.cols)
                    .map(|c| {
                        self.square_char(
                            r * b.cols + c,
                            &state.boxes,
                            Some(usize::from(state.player)),
                        )
                    })
                    .collect();
                row.trim_end().to_string()
            })
            .collect()
    }

    /// What `state` looks like: walls, floor (dead squares shaded as rough ground), goals,
    /// boxes (those on goals as targets) and the player as the start mark.
    fn picture_of(&self, state: &State) -> Picture {
        let b = &self.board;
        let mut squares = Vec::with_capacity(b.squares());
        let mut box_id = 0u8;
        for s in 0..b.squares() {
            let boxed = state.boxes.binary_search(&(s as u16)).is_ok();
            let mut piece = |on_goal: bool| {
                box_id = box_id.wrapping_add(1);
                Square::Piece {
                    id: box_id,
                    // Purple: apart from the goals' amber and the player's blue.
                    class: 3,
                    target: on_goal,
                    letter: 0,
                }
            };
            let square = match b.ground(s) {
                Ground::Wall => Square::Blocked,
                Ground::Outside => Square::Void,
                Ground::Sealed => piece(true),
                Ground::Inside if boxed => piece(b.is_goal(s)),
                Ground::Inside if b.is_goal(s) => Square::Goal,
                Ground::Inside if b.is_dead(s) => Square::Terrain(DEAD_SHADE),
                Ground::Inside => Square::Free,
            };
            squares.push(square);
        }
        Picture {
            rows: b.rows,
            cols: b.cols,
            squares,
            start: Some(self.cell_of(usize::from(state.player))),
            board: true,
            goal_area: Vec::new(),
        }
    }

    /// The collection as XSB, the level on screen at its position.
    /// The collection as XSB: the text it was read from, else its levels written out. A
    /// level's start, never the position played by hand: playing is not an edit of the file.
    fn xsb(&self) -> String {
        if let Some(source) = &self.collection.source {
            return source.to_string();
        }
        let mut text = String::new();
        if let Some(title) = &self.collection.title {
            text += &format!("Title: {title}\n\n");
        }
        for level in &self.collection.levels {
            for row in &level.rows {
                text += row;
                text.push('\n');
            }
            if let Some(title) = &level.title {
                text += &format!("Title: {title}\n");
            }
            if let Some(author) = &level.author {
                text += &format!("Author: {author}\n");
            }
            text.push('\n');
        }
        text
    }

    fn json(&self) -> serde_json::Value {
        let levels = self
            .collection
            .levels
            .iter()
            .map(|l| LevelJson {
                title: l.title.clone(),
                author: l.author.clone(),
                board: l.rows.clone(),
            })
            .collect();
        let at_start = self.position == self.board.start;
        serde_json::json!(SokobanJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            title: self.collection.title.clone(),
            levels,
            level: self.index + 1,
            position: (!at_start).then(|| self.rows_of(&self.position)),
            metric: self.metric,
            source: (self.collection.source.as_deref())
                .filter(|s| s.len() <= SOURCE_KEPT_BYTES)
                .map(str::to_owned),
        })
    }
}

/// The longest XSB text a collection's JSON carries as its `source` (256 KiB: Microban's is
/// 16 kB). The app's state holds the puzzle and up to 20 undo steps, each a JSON of its own
/// under the state file's limit; a longer collection is restored from its levels, and saved
/// as them (its comments not kept).
const SOURCE_KEPT_BYTES: usize = 256 * 1024;

/// The terrain shade dead squares are drawn with (a light one).
const DEAD_SHADE: u8 = 4;

/// A refused level as a format error: its line, number and fault.
fn level_error(e: &LevelError) -> FormatError {
    FormatError::at(e.line, None, format!("level {}: {}", e.number, e.message))
}

#[cfg(test)]
mod note_tests {
    #[test]
    fn an_answers_length_is_said_in_the_singular_for_one() {
        assert_eq!(super::pushes_and_moves(1, 2), "1 push, 2 moves");
        assert_eq!(super::pushes_and_moves(0, 1), "0 pushes, 1 move");
        assert_eq!(super::pushes_and_moves(3, 3), "3 pushes, 3 moves");
    }
}
