//! The script's sandbox: a rhai engine with limits on every call (operations, call depth,
//! string, array and map sizes), no output, and the run's stop and time limit checked from
//! rhai's progress callback; errors said with their line and column.

use std::cell::RefCell;
use std::time::Instant;

use rhai::{Dynamic, Engine, EvalAltResult, Position};

use crate::search::CancelToken;

/// Operations a single call of a script function may take.
pub const MAX_OPERATIONS: u64 = 5_000_000;
/// How deep script functions may call each other.
pub const MAX_CALL_LEVELS: usize = 64;
/// The longest string a script may make, in bytes.
pub const MAX_STRING: usize = 1 << 20;
/// The most elements an array may hold.
pub const MAX_ARRAY: usize = 1 << 20;
/// The most entries a map may hold.
pub const MAX_MAP: usize = 1 << 16;

/// What went wrong in a script, and where (1-based line and column, when known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// The line.
    pub line: Option<usize>,
    /// The column.
    pub column: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: {}", self.message),
            (Some(l), None) => write!(f, "line {l}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl ScriptError {
    /// An error at `position`.
    pub fn at(position: Position, message: impl Into<String>) -> Self {
        Self {
            line: position.line(),
            column: position.position(),
            message: message.into(),
        }
    }

    /// The error as a puzzle file's format error (with its line and column).
    pub fn format_error(&self) -> crate::puzzles::FormatError {
        crate::puzzles::FormatError {
            line: self.line,
            column: self.column,
            field: None,
            message: self.message.clone(),
            in_program: true,
        }
    }
}

/// rhai's message without the " (line L, position C)" it appends (said by the location).
fn bare(message: &str) -> String {
    message
        .rfind(" (line ")
        .map_or(message, |i| &message[..i])
        .to_owned()
}

/// The error of a parse, located.
pub fn parse_error(e: &rhai::ParseError) -> ScriptError {
    ScriptError::at(e.position(), bare(&e.to_string()))
}

/// Why a call ended early.
pub enum Failure {
    /// The run was stopped or reached its time limit: not the script's fault.
    Stopped,
    /// The script failed.
    Error(ScriptError),
}

/// The error of a call of `function`, located at the innermost place it happened; a stop
/// asked by the run is [`Failure::Stopped`].
pub fn eval_error(function: &str, e: &EvalAltResult) -> Failure {
    let mut e = e;
    let mut trail = vec![function.to_owned()];
    let mut position = e.position();
    while let EvalAltResult::ErrorInFunctionCall(name, _, inner, _) = e {
        if trail.last() != Some(name) {
            trail.push(name.clone());
        }
        e = inner;
        if !e.position().is_none() {
            position = e.position();
        }
    }
    if let EvalAltResult::ErrorTerminated(..) = e {
        return Failure::Stopped;
    }
    let message = match e {
        EvalAltResult::ErrorTooManyOperations(_) => format!(
            "the call took more than {MAX_OPERATIONS} operations (an endless loop?)"
        ),
        _ => bare(&e.to_string()),
    };
    Failure::Error(ScriptError::at(
        position,
        format!("in {}: {message}", trail.join(" > ")),
    ))
}

/// The run a script's calls belong to on this thread: its stop flag and deadline.
struct Current {
    cancel: CancelToken,
    deadline: Option<Instant>,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// While alive, the script calls on this thread end when `cancel` is stopped or its time
/// limit passes (checked from rhai's progress callback).
pub struct RunGuard {
    previous: Option<Current>,
}

impl RunGuard {
    /// Binds the calls on this thread to `cancel`, from now.
    pub fn enter(cancel: &CancelToken) -> Self {
        let deadline = cancel
            .limits()
            .timeout
            .and_then(|t| Instant::now().checked_add(t));
        let current = Current {
            cancel: cancel.clone(),
            deadline,
        };
        Self {
            previous: CURRENT.with(|c| c.replace(Some(current))),
        }
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// Whether the run of this thread's calls was stopped or is past its time limit.
pub fn run_stopped() -> bool {
    CURRENT.with(|c| {
        c.borrow().as_ref().is_some_and(|c| {
            c.cancel.is_cancelled() || c.deadline.is_some_and(|d| Instant::now() >= d)
        })
    })
}

/// A sandboxed engine: the limits above, no `print` or `debug` output, no `eval`, and the
/// progress callback that ends a call when the run stops; `parameters` are variables every
/// function sees.
pub fn sandbox(parameters: &[(String, i64)]) -> Engine {
    let mut engine = Engine::new();
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(128, 64)
        .set_max_string_size(MAX_STRING)
        .set_max_array_size(MAX_ARRAY)
        .set_max_map_size(MAX_MAP)
        .on_print(|_| {})
        .on_debug(|_, _, _| {})
        .on_progress(|operations| {
            (operations % 4096 == 0 && run_stopped()).then(|| Dynamic::from("stopped"))
        });
    engine.disable_symbol("eval");
    if !parameters.is_empty() {
        let mut module = rhai::Module::new();
        for (name, value) in parameters {
            module.set_var(name.as_str(), *value);
        }
        engine.register_global_module(module.into());
    }
    engine
}

/// Whether the code of `source` names `cost` (a move's cost: `cost: 2`, `"cost": 2`,
/// `m.cost`), outside comments (`//`, `/* */`, nested as rhai nests them) and outside text
/// other than the key `"cost"` itself. Without it every move costs 1, and breadth-first
/// search's answers are optimal.
pub fn names_cost(source: &str) -> bool {
    let bytes = source.as_bytes();
    let mut i = 0;
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let mut depth = 0usize;
                while i < bytes.len() {
                    if bytes[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if bytes[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            quote @ (b'"' | b'`' | b'\'') => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if quote == b'"' && bytes.get(start..i) == Some(b"cost".as_slice()) {
                    return true;
                }
                i += 1;
            }
            b if word(b) => {
                let start = i;
                while i < bytes.len() && word(bytes[i]) {
                    i += 1;
                }
                if &bytes[start..i] == b"cost" {
                    return true;
                }
            }
            _ => i += 1,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::names_cost;

    #[test]
    fn a_cost_is_named_in_code_only() {
        assert!(names_cost("fn moves(s) { [#{ label: \"a\", to: 1, cost: 2 }] }"));
        assert!(names_cost("let m = #{ \"cost\": 2 };"));
        assert!(names_cost("m.cost = 3;"));
        assert!(!names_cost("// each move may have a cost\nfn moves(s) { [] }"));
        assert!(!names_cost("/* a cost /* nested */ cost */ let x = 1;"));
        assert!(!names_cost("let label = \"the cost of it\"; let t = `cost ${1}`;"));
        assert!(!names_cost("let costs = 1; let unit_cost_free = 2;"));
        assert!(!names_cost("let s = \"a \\\" cost\";"));
    }
}
