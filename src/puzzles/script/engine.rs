//! The script's sandbox: a rhai engine with limits on every call (operations, call depth,
//! expression depth, string, array and map sizes), no output, and the limits of
//! [`call_limits`] (the run's Stop, time limit and memory budget, the call's own time and
//! memory limits) checked from rhai's progress callback and in `sleep`; errors said with
//! their line and column.

use rhai::{Dynamic, Engine, EvalAltResult, Position};

use crate::puzzles::call_limits::{self, Hit, SleepError};
use crate::search::{Interrupt, Outcome, ProblemError};

/// Operations a single call of a script function may take.
pub const MAX_OPERATIONS: u64 = 5_000_000;
/// How deep script functions may call each other.
pub const MAX_CALL_LEVELS: usize = 64;
/// How deep expressions may nest at the script's top level.
pub const MAX_EXPR_DEPTH: usize = 128;
/// How deep expressions may nest in a function.
pub const MAX_FUNCTION_EXPR_DEPTH: usize = 64;
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
            in_program: true,
            ..crate::puzzles::FormatError::new(self.message.clone())
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
    /// A limit of the run ended it (Stop, the run's time limit, its memory budget: a hit
    /// whose [`Hit::outcome`] is some): not the script's fault; the run ends with that
    /// outcome.
    Stopped(Hit),
    /// The script failed (also by running past a limit of its own call, see
    /// [`call_limits::within`]).
    Error(ScriptError),
}

impl Failure {
    /// The failure as an error of the script, for callers with no run to end: a stop is
    /// said as the limit that ended the call ("the script's `start` ran past the run's time
    /// limit").
    pub fn into_error(self) -> ScriptError {
        match self {
            Failure::Error(e) => e,
            Failure::Stopped(hit) => ScriptError::at(Position::NONE, hit.to_string()),
        }
    }

    /// The failure as the engine's [`Interrupt`], for a call made by a search: the script's
    /// error with its line and column, or the limit of the run that ended the call (which
    /// call it ended said in the run's message: "stopped at the time limit of 1.0 s: the
    /// script's `moves` ran past the run's time limit").
    pub fn into_interrupt(self) -> Interrupt {
        match self {
            Failure::Error(e) => Interrupt::Failed(ProblemError {
                line: e.line,
                column: e.column,
                message: e.message,
            }),
            Failure::Stopped(hit) => {
                let outcome = hit.outcome().unwrap_or(Outcome::Cancelled);
                Interrupt::Stopped {
                    outcome,
                    why: outcome.is_limit().then(|| hit.to_string()),
                }
            }
        }
    }
}

/// The error of a call of `function`, located at the innermost place it happened; a call
/// ended by a limit of the run is [`Failure::Stopped`], one past the call's own limit an
/// error saying which function ran past which limit, where it was.
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
        // Ended from the progress callback or `sleep`, which recorded the limit.
        let hit = call_limits::last_hit().unwrap_or(Hit::Cancelled);
        return match hit.outcome() {
            Some(_) => Failure::Stopped(hit),
            None => Failure::Error(ScriptError::at(position, hit.to_string())),
        };
    }
    let message = match e {
        EvalAltResult::ErrorTooManyOperations(_) => {
            format!("the call took more than {MAX_OPERATIONS} operations (an endless loop?)")
        }
        _ => bare(&e.to_string()),
    };
    Failure::Error(ScriptError::at(
        position,
        format!("in {}: {message}", trail.join(" > ")),
    ))
}

/// The script's `sleep(seconds)` (rhai's own cannot be interrupted, and panics on a huge
/// float): woken by the call's limits, and an error for NaN, infinite, negative or more than
/// a week of seconds.
fn sleep(seconds: f64) -> Result<(), Box<EvalAltResult>> {
    call_limits::sleep(seconds).map_err(|e| {
        Box::new(match e {
            SleepError::Invalid(message) => {
                EvalAltResult::ErrorRuntime(message.into(), Position::NONE)
            }
            SleepError::Limit(_) => EvalAltResult::ErrorTerminated(Dynamic::UNIT, Position::NONE),
        })
    })
}

/// A sandboxed engine: the limits above, no `print` or `debug` output, no `eval`, a `sleep`
/// bound by the call's limits, and the progress callback that ends a call at the limits of
/// [`call_limits`] (the run's Stop, time limit and memory budget; the call's own time and
/// memory limits); `parameters` are variables every function sees.
pub fn sandbox(parameters: &[(String, i64)]) -> Engine {
    let mut engine = Engine::new();
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(MAX_EXPR_DEPTH, MAX_FUNCTION_EXPR_DEPTH)
        .set_max_string_size(MAX_STRING)
        .set_max_array_size(MAX_ARRAY)
        .set_max_map_size(MAX_MAP)
        .on_print(|_| {})
        .on_debug(|_, _, _| {})
        .on_progress(|_| call_limits::check().map(|_| Dynamic::UNIT))
        // No strings interner: rhai's is one table behind a lock shared by every thread that
        // runs the engine, taken for each interpolated string made (every move's label), and
        // a thread that finds it taken sleeps 10 ms; the workers of a parallel count queued
        // on it. Without it each string is its own allocation (the values are the same).
        .set_max_strings_interned(0);
    engine.disable_symbol("eval");
    // Registered functions come before the standard package's: these replace its `sleep`.
    engine.register_fn("sleep", sleep);
    engine.register_fn("sleep", |seconds: i64| sleep(seconds as f64));
    // Array comparison and search on plain data without a call of `==` per element.
    super::natives::register(&mut engine);
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

/// A rhai value's type as a student reads it: "a number" for `i64` and `f64`, "a string",
/// "an array", "a map", "true or false", "nothing" for `()`; other names as they are.
pub(super) fn kind_in_words(type_name: &str) -> &str {
    match type_name {
        "i64" | "i32" | "f64" | "f32" | "int" | "float" => "a number",
        "string" | "ImmutableString" | "&str" => "a string",
        "char" => "a character",
        "bool" => "true or false",
        "array" => "an array",
        "map" => "a map",
        "()" => "nothing",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::names_cost;
    use crate::puzzles::call_limits::{self, CallLimits, Hit};
    use crate::puzzles::script::Script;

    /// The window's way to call a script: under a short time limit, the error naming the
    /// function and the line where it was stopped.
    #[test]
    fn a_call_past_its_time_limit_is_an_error_naming_its_function() {
        let text = "fn start() { 1 }\nfn moves(n) { [] }\nfn is_goal(n) { false }\n\
                    fn draw(n) {\n  let x = 0;\n  loop { x += 1; }\n}\n";
        let script = Script::from_text(text).expect("it compiles");
        let began = Instant::now();
        let limits = CallLimits::time(Duration::from_millis(50));
        let mut error = None;
        let hit = call_limits::within(limits, || error = script.draw_error());
        assert!(
            began.elapsed() < Duration::from_secs(5),
            "{:?}",
            began.elapsed()
        );
        assert_eq!(
            hit.err(),
            Some(Hit::CallTime {
                entry: "draw",
                limit: Duration::from_millis(50)
            })
        );
        // The call's own error says the same, where it was stopped (rhai knows no place
        // for some steps, a loop's: then at the function's definition).
        let error = error.expect("draw never returns");
        assert!(matches!(error.line, Some(4..=6)), "{error}");
        assert_eq!(
            error.message,
            "the script's `draw` ran past its time limit of 50 ms"
        );
        // A caller that does not look at the error is told by `within`.
        let hit = call_limits::within(limits, || script.picture_of(script.here()));
        assert!(matches!(hit, Err(Hit::CallTime { entry: "draw", .. })));
        // A call within the limit answers as it does without one.
        let text = text.replace("loop { x += 1; }", "x += 1;");
        let script = Script::from_text(&text).expect("it compiles");
        assert_eq!(
            call_limits::within(limits, || script.draw_error()).ok(),
            Some(Some(script.draw_error().expect("draw returns no rows")))
        );
    }

    /// The operation limit alone does not measure work: a loop of 1 MB string rewrites
    /// takes about 0.5 ms an operation, minutes for the 5,000,000 a call may take. The
    /// call's time limit ends it (by default [`call_limits::CALL_TIME`]; here 100 ms).
    #[test]
    fn heavy_operations_end_at_the_calls_time_limit() {
        let text = "fn start() { 1 }\nfn moves(n) { [] }\n\
                    fn is_goal(n) { let s = \"x\"; s.pad(1000000, 'x'); \
                    loop { let t = s; t.replace(\"x\", \"y\"); } }\n";
        is_goal_ends_at_its_time_limit(text, Duration::from_millis(100), Duration::from_secs(3));
    }

    /// The script `text`'s `is_goal`, called under a time limit of `limit`, ends at it (a
    /// [`Hit::CallTime`] of `is_goal`) within `most`.
    fn is_goal_ends_at_its_time_limit(text: &str, limit: Duration, most: Duration) {
        let script = Script::from_text(text).expect("it compiles");
        let began = Instant::now();
        let hit = call_limits::within(CallLimits::time(limit), || script.is_solved());
        assert!(began.elapsed() < most, "{:?}", began.elapsed());
        assert!(
            matches!(
                hit,
                Err(Hit::CallTime {
                    entry: "is_goal",
                    ..
                })
            ),
            "{hit:?}"
        );
    }

    /// `sleep` is bounded by the call's limits, and a huge or NaN float is an error with
    /// its line (rhai's own `sleep` panicked on 1.0e300 and could not be interrupted).
    #[test]
    fn sleep_is_bounded_and_checks_its_argument() {
        for (argument, expect) in [("1.0e300", "not 1e300"), ("-1.0", "not -1")] {
            let text = format!(
                "fn start() {{\n  sleep({argument});\n  1\n}}\nfn moves(n) {{ [] }}\nfn is_goal(n) {{ true }}"
            );
            let error = Script::from_text(&text).expect_err("sleep refuses it");
            assert_eq!(error.line, Some(2), "{error:?}");
            assert!(error.message.contains(expect), "{error:?}");
        }
        let text = "fn start() { 1 }\nfn moves(n) { [] }\nfn is_goal(n) { sleep(3600); true }";
        is_goal_ends_at_its_time_limit(text, Duration::from_millis(30), Duration::from_secs(5));
    }

    #[test]
    fn a_cost_is_named_in_code_only() {
        assert!(names_cost(
            "fn moves(s) { [#{ label: \"a\", to: 1, cost: 2 }] }"
        ));
        assert!(names_cost("let m = #{ \"cost\": 2 };"));
        assert!(names_cost("m.cost = 3;"));
        assert!(!names_cost(
            "// each move may have a cost\nfn moves(s) { [] }"
        ));
        assert!(!names_cost("/* a cost /* nested */ cost */ let x = 1;"));
        assert!(!names_cost(
            "let label = \"the cost of it\"; let t = `cost ${1}`;"
        ));
        assert!(!names_cost("let costs = 1; let unit_cost_free = 2;"));
        assert!(!names_cost("let s = \"a \\\" cost\";"));
    }

    #[test]
    fn a_returned_value_is_named_in_words() {
        assert_eq!(
            super::kind_in_words(rhai::Dynamic::from(3_i64).type_name()),
            "a number"
        );
        assert_eq!(
            super::kind_in_words(rhai::Dynamic::from(1.5_f64).type_name()),
            "a number"
        );
        assert_eq!(
            super::kind_in_words(rhai::Dynamic::UNIT.type_name()),
            "nothing"
        );
        assert_eq!(
            super::kind_in_words(rhai::Dynamic::from("x").type_name()),
            "a string"
        );
    }
}
