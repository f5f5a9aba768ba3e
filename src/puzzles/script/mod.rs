//! Puzzle types written as scripts: a `.rhai` file (the sandboxed rhai language) defines a
//! state-space problem in Russell and Norvig's shape, and the script type searches, draws
//! and plays it like the built-in types.
//!
//! The contract (`docs/formats.md` gives an example):
//! - `start()`: the start state, plain data (whole numbers, booleans, characters, strings,
//!   arrays, object maps), compared and hashed through one canonical encoding
//!   ([`encoding`]: maps by sorted key; floats and functions refused);
//! - `moves(state)`: an array of `#{ label: "...", to: next_state }`, each with an optional
//!   `cost` (positive and finite; 1 when absent) and an optional `cell: [row, column]`, the
//!   drawn cell a click plays it from ([`Script::move_at_cell`]);
//! - `is_goal(state)`: a boolean;
//! - optional `heuristic(state)` (non-negative), claimed admissible by `const ADMISSIBLE =
//!   true` (only then do A* and its kin say "optimal");
//! - optional `draw(state)`: rows of cells, each a string or `#{ text, colour }`;
//! - optional `space_estimate()`: about how many states the space holds (a positive number),
//!   for the warning before a run that the space is out of reach at the rate measured
//!   ([`crate::puzzles::capabilities::Reach`]);
//! - optional constants `NAME`, `DESCRIPTION`, `SOURCE` and `PARAMETERS` (for example
//!   `#{ disks: #{ default: 3, min: 1, max: 10 } }`): each parameter is a variable every
//!   function reads, set by `--set disks=8` on the command line.
//!
//! The script is compiled once (its AST kept with its engine); states are kept in their
//! canonical encoding and decoded only to call the script. Errors (syntax, run time, a bad
//! move, a float in a state) are said with their line and column, never a panic.

mod cells;
mod compiled;
mod draw;
pub mod encoding;
mod engine;
mod natives;
mod program;
mod puzzle;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rhai::{Dynamic, Map};
use serde::{Deserialize, Serialize};

use super::{FormatError, Picture, PuzzleOption, PuzzleType, Square, call_limits, json_body};
use compiled::Compiled;
pub use draw::{NAMED_COLOURS, colour_class};
pub use encoding::State;
pub use engine::ScriptError;
use engine::{Failure, ScriptError as Error};

/// The registry entry of puzzle scripts.
pub static TYPE: PuzzleType = PuzzleType {
    name: "script",
    label: "Puzzle script",
    sniff,
    text_hint: "`fn start()` `fn moves(state)` `fn is_goal(state)`",
    parse_text: |text| Ok(Box::new(Script::from_text(text)?)),
    from_json: |value| Ok(Box::new(Script::from_json(value)?)),
    json_version: 1,
    shipped: &[
        shipped!("missionaries.rhai"),
        shipped!("water-jugs.rhai"),
        shipped!("hanoi.rhai"),
        shipped!("wolf-goat-cabbage.rhai"),
        shipped!("eight-queens.rhai"),
        shipped!("lights-out.rhai"),
        shipped!("eight-puzzle.rhai"),
    ],
};

/// How much `text` looks like a puzzle script: the three functions it must define.
fn sniff(text: &str) -> f64 {
    let defines = |f: &str| text.contains(&format!("fn {f}("));
    let found = ["start", "moves", "is_goal"]
        .into_iter()
        .filter(|f| defines(f))
        .count();
    match found {
        3 => 1.0,
        2 => 0.8,
        1 if text.contains("fn ") => 0.6,
        _ => 0.0,
    }
}

/// A parameter a script declares in `PARAMETERS`: a whole number in a range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// Its name, the variable the script's functions read.
    pub name: String,
    /// Its value when not set.
    pub default: i64,
    /// The least value.
    pub min: i64,
    /// The greatest value.
    pub max: i64,
    /// Its value now.
    pub value: i64,
}

/// What the calls of one run noticed of the script, shared by nothing: each copy of a
/// script starts with a clean one. (A call's error or stop is no note here: it is returned
/// to the engine, [`crate::search::Interrupt`].)
#[derive(Debug, Default)]
struct Watch {
    /// Whether a move of the run cost other than 1.
    non_unit: AtomicBool,
    /// What A* saw that contradicts the script's `ADMISSIBLE` claim, if anything (see
    /// [`crate::search::ClaimedHeuristic::heuristic_contradicted`]).
    contradicted: Mutex<Option<String>>,
}

impl Watch {
    /// Notes what contradicts the `ADMISSIBLE` claim (the first thing told).
    fn contradict(&self, why: String) {
        if let Ok(mut slot) = self.contradicted.lock() {
            slot.get_or_insert(why);
        }
    }

    /// Whether the `ADMISSIBLE` claim was contradicted in this run.
    fn is_contradicted(&self) -> bool {
        self.contradicted.lock().is_ok_and(|c| c.is_some())
    }

    /// What contradicted the `ADMISSIBLE` claim in this run, taken (the watch forgets it).
    fn take_contradiction(&self) -> Option<String> {
        self.contradicted.lock().ok().and_then(|mut c| c.take())
    }
}

/// A puzzle written as a script, at a position (its start, or a state reached).
pub struct Script {
    compiled: Arc<Compiled>,
    /// The position it was loaded or opened at (`None`: the script's start).
    origin: Option<State>,
    /// The position now (`None`: the origin).
    position: Option<State>,
    /// The positions before each move played by hand, for undo.
    played: Vec<State>,
    watch: Watch,
    /// Whether the script's claim of an admissible heuristic was withdrawn (it was measured
    /// overestimating; see [`crate::puzzles::Puzzle::withdraw_admissibility`]).
    withdrawn: bool,
}

impl Clone for Script {
    fn clone(&self) -> Self {
        Self {
            compiled: self.compiled.clone(),
            origin: self.origin.clone(),
            position: self.position.clone(),
            played: self.played.clone(),
            watch: Watch::default(),
            withdrawn: self.withdrawn,
        }
    }
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script")
            .field("name", &self.name())
            .field("position", &encoding::text(self.here()))
            .field("played", &self.played.len())
            .finish_non_exhaustive()
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptJson {
    #[serde(rename = "type")]
    puzzle_type: String,
    version: u32,
    script: String,
    #[serde(default)]
    parameters: std::collections::BTreeMap<String, i64>,
}

impl Script {
    /// Compiles a script.
    ///
    /// # Errors
    /// A [`FormatError`] with the line and column of a syntax error, a missing function, a
    /// failing top level or `start()`, or a state that is not plain data.
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        Self::with_values(text, &[]).map_err(|e| e.format_error())
    }

    fn with_values(text: &str, values: &[(String, i64)]) -> Result<Self, Error> {
        Ok(Self {
            compiled: Arc::new(Compiled::new(text, values)?),
            origin: None,
            position: None,
            played: Vec::new(),
            watch: Watch::default(),
            withdrawn: false,
        })
    }

    /// Reads the JSON format: `{"type": "script", "version": 1, "script": "...",
    /// "parameters": {"disks": 8}}`.
    ///
    /// # Errors
    /// A [`FormatError`] for JSON of the wrong shape, or as [`Script::from_text`].
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: ScriptJson = json_body(value)?;
        let values: Vec<(String, i64)> = body.parameters.into_iter().collect();
        Self::with_values(&body.script, &values).map_err(|e| e.format_error())
    }

    /// The script's text.
    pub fn source(&self) -> &str {
        &self.compiled.source
    }

    /// Its `NAME`, or "Puzzle script".
    pub fn name(&self) -> String {
        self.compiled
            .meta
            .name
            .clone()
            .unwrap_or_else(|| TYPE.label.to_owned())
    }

    /// Its `DESCRIPTION`, if any.
    pub fn description(&self) -> Option<&str> {
        self.compiled.meta.description.as_deref()
    }

    /// Its `SOURCE` (where the puzzle and its facts come from), if any.
    pub fn source_note(&self) -> Option<&str> {
        self.compiled.meta.source_note.as_deref()
    }

    /// Its parameters, with their values now.
    pub fn parameters(&self) -> &[Parameter] {
        &self.compiled.meta.parameters
    }

    /// Sets parameter `name` to `value` (the script recompiled, its position back at its
    /// new start).
    ///
    /// # Errors
    /// An unknown parameter, a value outside its range, or an error of the script at that
    /// value.
    pub fn set_parameter(&mut self, name: &str, value: i64) -> Result<(), String> {
        if !self.parameters().iter().any(|p| p.name == name) {
            return Err(format!("unknown parameter `{name}`"));
        }
        let mut values: Vec<(String, i64)> = self
            .parameters()
            .iter()
            .map(|p| (p.name.clone(), p.value))
            .collect();
        for v in &mut values {
            if v.0 == name {
                v.1 = value;
            }
        }
        *self = Self::with_values(self.source(), &values).map_err(|e| e.to_string())?;
        Ok(())
    }

    /// The state on screen.
    pub fn here(&self) -> &[u8] {
        self.position
            .as_deref()
            .or(self.origin.as_deref())
            .unwrap_or(&self.compiled.start)
    }

    /// The state on screen as text.
    pub fn state_text(&self) -> String {
        encoding::text(self.here())
    }

    /// The state reached from the one on screen by the moves labelled `labels` in turn (a
    /// solution's first moves, as played back), as text; `None` when one is not a move
    /// there or the script fails.
    pub fn state_text_after(&self, labels: &[String]) -> Option<String> {
        let mut at: State = self.here().into();
        for label in labels {
            let moves = self.moves_of(&at).ok()?;
            at = moves.into_iter().find(|m| m.0 == *label)?.1;
        }
        Some(encoding::text(&at))
    }

    /// The moves from the state on screen: label, cost and where each leads.
    ///
    /// # Errors
    /// The script's error.
    pub fn moves_here(&self) -> Result<Vec<(String, f64)>, ScriptError> {
        let moves = self.moves_of(self.here()).map_err(Failure::into_error)?;
        Ok(moves
            .into_iter()
            .map(|(label, _, cost)| (label, cost))
            .collect())
    }

    /// Plays the move labelled `label` from the state on screen. Returns whether it was one.
    pub fn play(&mut self, label: &str) -> bool {
        let Ok(moves) = self.moves_of(self.here()) else {
            return false;
        };
        let Some((_, to, _)) = moves.into_iter().find(|m| m.0 == label) else {
            return false;
        };
        self.played.push(self.here().into());
        self.position = Some(to);
        true
    }

    /// Takes back the last move played by hand. Returns whether there was one.
    pub fn take_back(&mut self) -> bool {
        let Some(before) = self.played.pop() else {
            return false;
        };
        self.position = Some(before);
        true
    }

    /// Back to the position the script was loaded or opened at. Returns whether it moved.
    pub fn reset(&mut self) -> bool {
        let moved = self.position.is_some();
        self.position = None;
        self.played.clear();
        moved
    }

    /// Whether the state on screen is a goal (false when the script fails).
    pub fn is_solved(&self) -> bool {
        self.goal_of(self.here()).unwrap_or(false)
    }

    /// Whether the state on screen is a goal, or the script's error.
    ///
    /// # Errors
    /// The script's error (a call past its limits among them: "the script's `is_goal` ran
    /// past its time limit of 100 ms").
    pub fn goal_here(&self) -> Result<bool, ScriptError> {
        self.goal_of(self.here()).map_err(Failure::into_error)
    }

    /// The moves of `state`: label, next state and cost.
    fn moves_of(&self, state: &[u8]) -> Result<Moves, Failure> {
        self.moves_checked(state).map_err(|e| match e {
            Ok(e) => Failure::Error(e),
            Err(f) => f,
        })
    }

    /// [`Script::moves_of`], the script's own errors apart (`Ok`) from a failed call.
    fn moves_checked(&self, state: &[u8]) -> Result<Moves, Result<Error, Failure>> {
        let c = &self.compiled;
        let value = c.call("moves", (encoding::decode(state),)).map_err(Err)?;
        let Some(list) = value.read_lock::<rhai::Array>() else {
            return Err(Ok(c.returned(
                "moves",
                format!(
                    "returned {}, not an array of moves",
                    engine::kind_in_words(value.type_name())
                ),
            )));
        };
        let mut moves = Vec::with_capacity(list.len());
        for (i, item) in list.iter().enumerate() {
            let Some(map) = item.read_lock::<Map>() else {
                return Err(Ok(c.returned(
                    "moves",
                    format!(
                        "move {} is {}, not #{{ label, to, cost }}",
                        i + 1,
                        engine::kind_in_words(item.type_name())
                    ),
                )));
            };
            let label = match map.get("label") {
                Some(l) if l.is_string() => l
                    .read_lock::<rhai::ImmutableString>()
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
                Some(l) => encoding::show(l),
                None => {
                    return Err(Ok(
                        c.returned("moves", format!("move {} has no label", i + 1))
                    ));
                }
            };
            let Some(to) = map.get("to") else {
                return Err(Ok(
                    c.returned("moves", format!("move {label:?} has no `to` state"))
                ));
            };
            let to = c.state_from("moves", to).map_err(|e| {
                Ok(Error {
                    message: format!("{} (move {label:?})", e.message),
                    ..e
                })
            })?;
            let cost = match map.get("cost") {
                None => 1.0,
                Some(v) => match (v.as_int(), v.as_float()) {
                    (Ok(n), _) => n as f64,
                    (_, Ok(x)) => x,
                    _ => f64::NAN,
                },
            };
            if !(cost.is_finite() && cost > 0.0) {
                return Err(Ok(c.returned(
                    "moves",
                    format!("move {label:?} costs {cost}: costs must be positive and finite"),
                )));
            }
            moves.push((label, to, cost));
        }
        Ok(moves)
    }

    /// Whether `state` is a goal.
    fn goal_of(&self, state: &[u8]) -> Result<bool, Failure> {
        let c = &self.compiled;
        let value = c.call("is_goal", (encoding::decode(state),))?;
        value.as_bool().map_err(|kind| {
            Failure::Error(c.returned(
                "is_goal",
                format!(
                    "returned {}, not true or false",
                    engine::kind_in_words(kind)
                ),
            ))
        })
    }

    /// The script's heuristic of `state`.
    fn heuristic_of(&self, state: &[u8]) -> Result<f64, Failure> {
        let c = &self.compiled;
        let value = c.call("heuristic", (encoding::decode(state),))?;
        let h = match (value.as_int(), value.as_float()) {
            (Ok(n), _) => n as f64,
            (_, Ok(x)) => x,
            _ => f64::NAN,
        };
        if h.is_finite() && h >= 0.0 {
            Ok(h)
        } else {
            Err(Failure::Error(c.returned(
                "heuristic",
                format!("returned {value}: a heuristic is a non-negative number"),
            )))
        }
    }
}

/// The moves of a state: label, next state, cost.
type Moves = Vec<(String, State, f64)>;

/// The options of a script's parameters (the command line's `--set NAME=VALUE`), made
/// afresh from them: nothing is kept between calls.
fn options_of(parameters: &[Parameter]) -> Vec<PuzzleOption> {
    parameters
        .iter()
        .map(|p| PuzzleOption {
            name: p.name.clone().into(),
            values: format!("{}..{}", p.min, p.max).into(),
            help: format!("the script's parameter {} (default {})", p.name, p.default).into(),
        })
        .collect()
}
