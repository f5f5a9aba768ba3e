//! A script compiled once: its engine (with the parameters' values), its AST, what its
//! constants say ([`Meta`]: name, parameters, heuristic claims, top-level variables) and its
//! start state; and each call into it, under [`call_limits`], with its errors located and
//! hinted.

use std::sync::atomic::{AtomicU64, Ordering};

use rhai::{Dynamic, Map, Scope};

use super::engine::{self, Failure, ScriptError as Error};
use super::program::{Copies, Program};
use super::{Parameter, State, encoding};
use crate::puzzles::call_limits;

/// What the script's constants say of it.
#[derive(Clone, Debug, Default)]
pub(super) struct Meta {
    pub(super) name: Option<String>,
    pub(super) description: Option<String>,
    pub(super) source_note: Option<String>,
    pub(super) admissible: bool,
    pub(super) has_heuristic: bool,
    pub(super) has_draw: bool,
    /// What `space_estimate()` said, if the script defines it.
    pub(super) space_estimate: Option<f64>,
    /// Whether the code names a `cost` at all, comments and other text aside (if not,
    /// every move costs 1).
    pub(super) mentions_cost: bool,
    pub(super) parameters: Vec<Parameter>,
    /// The variables of the script's top level, each with whether it is a `const`: rhai's
    /// functions cannot see them, and an error that one was not found says so.
    pub(super) globals: Vec<(String, bool)>,
}

/// A script compiled once: its engine (with the parameters' values), its AST, what its
/// constants say and its start state.
pub(super) struct Compiled {
    pub(super) source: String,
    /// The engine (with the parameters' values) and the AST of calls on any thread but a
    /// pool's.
    pub(super) program: Program,
    /// Each pool thread's own copy of `program` (see [`super::program`]).
    copies: Copies,
    pub(super) meta: Meta,
    pub(super) start: State,
    /// The expansions of every copy's searches so far and the time their calls took, for
    /// the rate of [`Script::reach`].
    pub(super) rate: Rate,
}

/// How many [`Rate`] slots there are: threads past this many share slots (still counted
/// exactly, by atomic adds, only no longer each on its own cache line).
const SLOTS: usize = 16;

/// One thread's share of a [`Rate`], alone on its cache line (128 bytes: two lines that the
/// processor may fetch as a pair), so that two workers counting never write the same line.
#[derive(Default)]
#[repr(align(128))]
struct Slot {
    expansions: AtomicU64,
    nanos: AtomicU64,
}

/// Expansions and the nanoseconds their calls took, counted in one slot per worker thread
/// (the rayon worker's index; slot 0 for a thread outside the pool) and summed when read.
/// Two workers adding to one shared counter per expansion fought over its cache line.
#[derive(Default)]
pub(super) struct Rate {
    slots: [Slot; SLOTS],
}

impl Rate {
    /// Counts one expansion whose call took `nanos` nanoseconds.
    pub(super) fn add(&self, nanos: u64) {
        let slot = &self.slots[rayon::current_thread_index().map_or(0, |i| (i + 1) % SLOTS)];
        slot.expansions.fetch_add(1, Ordering::Relaxed);
        slot.nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The expansions counted so far and their nanoseconds, over every thread.
    pub(super) fn totals(&self) -> (u64, u64) {
        self.slots.iter().fold((0, 0), |(e, n), s| {
            (
                e + s.expansions.load(Ordering::Relaxed),
                n.saturating_add(s.nanos.load(Ordering::Relaxed)),
            )
        })
    }
}

/// Where `fn name(` is defined in `source` (1-based line and column), for errors about
/// what the function returned.
fn definition(source: &str, name: &str) -> (Option<usize>, Option<usize>) {
    let needle = format!("fn {name}(");
    source
        .lines()
        .enumerate()
        .find_map(|(i, line)| line.find(&needle).map(|c| (Some(i + 1), Some(c + 1))))
        .unwrap_or((None, None))
}

/// The parameters' names and values now.
fn values_of(parameters: &[Parameter]) -> Vec<(String, i64)> {
    parameters
        .iter()
        .map(|p| (p.name.clone(), p.value))
        .collect()
}

/// A whole number from a parameter's declaration.
fn int_field(map: &Map, key: &str) -> Option<i64> {
    map.get(key).and_then(|v| v.as_int().ok())
}

/// The parameters a script's `PARAMETERS` constant declares.
fn parameters_of(value: &Dynamic) -> Result<Vec<Parameter>, String> {
    let Some(map) = value.read_lock::<Map>() else {
        return Err(
            "PARAMETERS must be a map, such as #{ disks: #{ default: 3, min: 1, max: 10 } }".into(),
        );
    };
    let mut parameters = Vec::new();
    for (name, spec) in map.iter() {
        let (default, min, max) = if let Ok(n) = spec.as_int() {
            (n, i64::MIN, i64::MAX)
        } else if let Some(spec) = spec.read_lock::<Map>() {
            // `default` is a keyword of rhai: written quoted (`"default": 3`) or as `value`.
            let default = int_field(&spec, "default")
                .or_else(|| int_field(&spec, "value"))
                .ok_or_else(|| {
                    format!("parameter {name} has no whole-number \"default\" (or `value`)")
                })?;
            (
                default,
                int_field(&spec, "min").unwrap_or(i64::MIN),
                int_field(&spec, "max").unwrap_or(i64::MAX),
            )
        } else {
            return Err(format!(
                "parameter {name} must be a whole number or #{{ default, min, max }}"
            ));
        };
        if !(min..=max).contains(&default) {
            return Err(format!(
                "parameter {name}: its default {default} is outside {min}..={max}"
            ));
        }
        parameters.push(Parameter {
            name: name.to_string(),
            default,
            min,
            max,
            value: default,
        });
    }
    Ok(parameters)
}

/// A string constant of the script, if it defines one.
fn text_constant(scope: &Scope, name: &str) -> Option<String> {
    scope
        .get_value::<rhai::ImmutableString>(name)
        .map(|s| s.to_string())
}

impl Compiled {
    /// Compiles `source`, with `values` for some of its parameters.
    pub(super) fn new(source: &str, values: &[(String, i64)]) -> Result<Self, Error> {
        let (plain, ast) = Program::compile(source).map_err(|e| engine::parse_error(&e))?;
        let defined = |name: &str, arity: usize| {
            ast.iter_functions()
                .any(|f| f.name == name && f.params.len() == arity)
        };
        for (name, arity, call) in [
            ("start", 0, "start()"),
            ("moves", 1, "moves(state)"),
            ("is_goal", 1, "is_goal(state)"),
        ] {
            if !defined(name, arity) {
                return Err(Error {
                    line: Some(1),
                    column: Some(1),
                    message: format!(
                        "the script defines no {call}: a puzzle script needs start(), \
                         moves(state) and is_goal(state)"
                    ),
                });
            }
        }
        let mut scope = Scope::new();
        {
            let _call = call_limits::begin(call_limits::TOP_LEVEL);
            plain
                .run_ast_with_scope(&mut scope, &ast)
                .map_err(|e| engine::eval_error("the script's top level", &e).into_error())?;
        }
        let mut parameters = match scope.get("PARAMETERS") {
            Some(value) => parameters_of(value).map_err(|message| {
                let line = source.lines().position(|l| l.contains("PARAMETERS"));
                Error {
                    line: line.map(|l| l + 1),
                    column: line.map(|_| 1),
                    message,
                }
            })?,
            None => Vec::new(),
        };
        for (name, value) in values {
            let Some(p) = parameters.iter_mut().find(|p| &p.name == name) else {
                continue;
            };
            if !(p.min..=p.max).contains(value) {
                return Err(Error::at(
                    rhai::Position::NONE,
                    format!("{name} must be from {} to {}, not {value}", p.min, p.max),
                ));
            }
            p.value = *value;
        }
        let meta = Meta {
            name: text_constant(&scope, "NAME"),
            description: text_constant(&scope, "DESCRIPTION"),
            source_note: text_constant(&scope, "SOURCE"),
            admissible: scope.get_value::<bool>("ADMISSIBLE").unwrap_or(false),
            has_heuristic: defined("heuristic", 1),
            has_draw: defined("draw", 1),
            // Asked below, once `start()` answered.
            space_estimate: None,
            mentions_cost: engine::names_cost(source),
            parameters,
            globals: scope
                .iter()
                .map(|(name, constant, _)| (name.to_owned(), constant))
                .collect(),
        };
        let estimates = defined("space_estimate", 0);
        let program = Program::with_parameters(plain, ast, &values_of(&meta.parameters));
        let mut compiled = Compiled {
            source: source.to_owned(),
            program,
            copies: Copies::default(),
            meta,
            start: Box::new([]),
            rate: Rate::default(),
        };
        let start = compiled.call("start", ()).map_err(Failure::into_error)?;
        compiled.start = compiled.state_from("start", &start)?;
        if estimates {
            let value = compiled
                .call("space_estimate", ())
                .map_err(Failure::into_error)?;
            let n = match (value.as_int(), value.as_float()) {
                (Ok(n), _) => n as f64,
                (_, Ok(x)) => x,
                _ => f64::NAN,
            };
            if !(n.is_finite() && n > 0.0) {
                return Err(compiled.returned(
                    "space_estimate",
                    format!("returned {value}: an estimate is a positive number of states"),
                ));
            }
            compiled.meta.space_estimate = Some(n);
        }
        Ok(compiled)
    }

    /// The program this thread calls: its own copy on a pool's thread (made at its first
    /// call there), else the compiled one.
    fn program_here(&self) -> &Program {
        let copy = || {
            let (plain, ast) = Program::compile(&self.source).ok()?;
            Some(Program::with_parameters(
                plain,
                ast,
                &values_of(&self.meta.parameters),
            ))
        };
        self.copies.here(copy).unwrap_or(&self.program)
    }

    /// Calls the script's function `name`, under the limits of [`call_limits`].
    pub(super) fn call(
        &self,
        name: &'static str,
        args: impl rhai::FuncArgs,
    ) -> Result<Dynamic, Failure> {
        let program = self.program_here();
        let _call = call_limits::begin(name);
        program
            .call(name, args)
            .map_err(|e| match engine::eval_error(name, &e) {
                // No place known: the function's definition.
                Failure::Error(e) if e.line.is_none() => {
                    let (line, column) = definition(&self.source, name);
                    Failure::Error(self.hinted(Error { line, column, ..e }))
                }
                Failure::Error(e) => Failure::Error(self.hinted(e)),
                failure => failure,
            })
    }

    /// `e`, with a hint when it says a variable was not found that the script's top level
    /// defines: rhai's functions cannot see the top level's `const` and `let` (they do see
    /// the parameters), the first trap of a new script.
    pub(super) fn hinted(&self, mut e: Error) -> Error {
        const NOT_FOUND: &str = "Variable not found: ";
        let Some(at) = e.message.find(NOT_FOUND) else {
            return e;
        };
        let rest = &e.message[at + NOT_FOUND.len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let variable = &rest[..end];
        let Some((_, constant)) = self.meta.globals.iter().find(|(n, _)| n == variable) else {
            return e;
        };
        let kind = if *constant { "const" } else { "let" };
        let lower = variable.to_lowercase();
        e.message += &format!(
            " (functions cannot see the script's global `{kind} {variable}`, only the \
             PARAMETERS: make it a function, `fn {lower}() {{ ... }}`, and call {lower}() \
             where it is needed, or keep it in the state)"
        );
        e
    }

    /// An error about what function `name` returned, located at its definition.
    pub(super) fn returned(&self, name: &str, message: impl Into<String>) -> Error {
        let (line, column) = definition(&self.source, name);
        Error {
            line,
            column,
            message: format!("in {name}: {}", message.into()),
        }
    }

    /// `value`, returned by function `name`, as a state.
    pub(super) fn state_from(&self, name: &str, value: &Dynamic) -> Result<State, Error> {
        encoding::encode(value).map_err(|m| self.returned(name, m))
    }
}

#[cfg(test)]
mod tests {
    use super::{Compiled, Program, Rate};

    /// A pool thread calls on its own copy of the program, the same one at each call and not
    /// another thread's nor the compiled one (whose reference counts the other workers would
    /// write too), made with the parameters' values: it answers as the compiled one does. A
    /// thread outside a pool calls on the compiled one.
    #[test]
    fn a_pool_thread_calls_on_its_own_copy_with_the_parameters() {
        let text = "const PARAMETERS = #{ k: #{ \"default\": 2, min: 1, max: 9 } };\n\
                    fn start() { k }\nfn moves(n) { [#{ label: `+${k}`, to: n + k }] }\n\
                    fn is_goal(n) { n > 5 }\n";
        let compiled = Compiled::new(text, &[("k".into(), 3)]).expect("it compiles");
        assert!(std::ptr::eq(compiled.program_here(), &compiled.program));
        let answer = |c: &Compiled| {
            let moves = c.call("moves", (4_i64,)).ok().expect("moves answers");
            (
                c.call("start", ()).ok().and_then(|s| s.as_int().ok()),
                moves.to_string(),
            )
        };
        let own = answer(&compiled);
        assert_eq!(own.0, Some(3));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool");
        let seen = pool.broadcast(|_| {
            let program: *const Program = compiled.program_here();
            let same = std::ptr::eq(program, compiled.program_here());
            (program as usize, same, answer(&compiled))
        });
        for (program, same, answer) in &seen {
            assert!(*same);
            assert_ne!(*program, &compiled.program as *const Program as usize);
            assert_eq!(answer, &own);
        }
        assert_ne!(seen[0].0, seen[1].0, "each thread its own copy");
    }

    /// The slots' sum against a plain count: every add from four pool threads and the
    /// calling thread is counted once, with its nanoseconds.
    #[test]
    fn rate_slots_sum_to_the_plain_count() {
        let rate = Rate::default();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .expect("a pool");
        pool.broadcast(|b| {
            for k in 0..1000 {
                rate.add(b.index() as u64 * 1000 + k);
            }
        });
        rate.add(7);
        let plain: u64 = (0..4u64)
            .map(|i| (0..1000).map(|k| i * 1000 + k).sum::<u64>())
            .sum();
        assert_eq!(rate.totals(), (4001, plain + 7));
    }
}
