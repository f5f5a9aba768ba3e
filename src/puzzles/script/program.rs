//! The engine and AST each call of a script runs on: the compiled script's own, or on a
//! worker thread of a pool its own copy of them, compiled from the same source with the same
//! parameters. rhai's values share reference counts with the AST and the engine they come
//! from (every string literal, parameter and variable name cloned from the AST, every
//! function the engine resolves, the AST's function library pushed at each call), and two
//! workers writing the same counts at every step held each other back: the whole-space count
//! on two workers took 25% more CPU time a state than on one.
//!
//! Each program keeps, between its calls, rhai's run-time state and its caches of function
//! resolution ([`Kept`]): a call through rhai's `call_fn` makes both anew, so every call
//! resolved each native function it calls again (the 8-puzzle's `moves`: `index_of`,
//! `push`, the operators, the interpolated label), and that was about a tenth of each
//! state's expansion. What a call may see is the same: the script's functions and the
//! engine's, no top-level variables, a fresh scope, the operation count from zero.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use rhai::{AST, Caches, Dynamic, Engine, EvalAltResult, FuncArgs, GlobalRuntimeState, Position};

use super::engine;

/// How many pool threads have their own copy (by their index in their pool); a thread past
/// them, or outside any pool, calls on the compiled script's own.
const COPIES: usize = 16;

/// The names the arguments of a kept call are passed under (as variables of the call's
/// scope, taken by the call: not copied).
const ARGUMENTS: [&str; 2] = ["__puzzlelab_argument_0", "__puzzlelab_argument_1"];

/// An engine (with the parameters' values) and the AST it runs, with the state its calls
/// keep between them.
pub(super) struct Program {
    pub(super) engine: Engine,
    pub(super) ast: AST,
    /// What its calls keep (made at the first call); taken by one call at a time, a call
    /// that finds it taken (another thread calling the same program) runs as a fresh one.
    kept: Mutex<Option<Kept>>,
}

/// What a program's calls keep between them: rhai's run-time state (with the script's
/// functions loaded), its caches (the functions each call resolved), and each function's
/// call as a statement (`moves(take(__puzzlelab_argument_0))`), parsed once; `None` for a
/// function the script does not define with that many parameters.
struct Kept {
    global: GlobalRuntimeState,
    caches: Caches,
    calls: HashMap<(&'static str, usize), Option<AST>>,
}

impl Program {
    /// `source` compiled by the sandbox without parameters (as the script's top level runs),
    /// and that engine; the errors are rhai's.
    pub(super) fn compile(source: &str) -> Result<(Engine, AST), rhai::ParseError> {
        let plain = engine::sandbox(&[]);
        let ast = plain.compile(source)?;
        Ok((plain, ast))
    }

    /// The engine that runs the functions of a script compiled by `plain`: `plain` itself
    /// when the script has no parameters, else the sandbox with their values.
    pub(super) fn with_parameters(plain: Engine, ast: AST, parameters: &[(String, i64)]) -> Self {
        let engine = if parameters.is_empty() {
            plain
        } else {
            engine::sandbox(parameters)
        };
        Self {
            engine,
            ast,
            kept: Mutex::new(None),
        }
    }

    /// Calls the script's function `name` with `args`, as rhai's `call_fn` would with a
    /// fresh scope and without running the top level (the same answers and errors, the
    /// positions of the errors the same), through the state kept from the calls before.
    pub(super) fn call(
        &self,
        name: &'static str,
        args: impl FuncArgs,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let mut values: Vec<Dynamic> = Vec::with_capacity(ARGUMENTS.len());
        args.parse(&mut values);
        if values.len() <= ARGUMENTS.len()
            && let Ok(mut kept) = self.kept.try_lock()
        {
            let kept = kept.get_or_insert_with(|| Kept::new(&self.engine, &self.ast));
            if kept.statement(&self.engine, &self.ast, name, values.len()) {
                return kept.call(&self.engine, name, values);
            }
        }
        let options = rhai::CallFnOptions::new()
            .eval_ast(false)
            .rewind_scope(true);
        self.engine
            .call_fn_with_options(options, &mut rhai::Scope::new(), &self.ast, name, values)
    }
}

impl Kept {
    /// The state of a first call: the script's functions loaded, nothing resolved yet.
    fn new(engine: &Engine, ast: &AST) -> Self {
        let mut global = engine.new_global_runtime_state();
        global.lib.push(ast.shared_lib().clone());
        let mut caches = Caches::new();
        // The cache of the calls' outermost block: kept, where a call's own would be dropped
        // at its end.
        caches.push_fn_resolution_cache();
        Self {
            global,
            caches,
            calls: HashMap::new(),
        }
    }

    /// Whether the script defines `name` with `arity` parameters (its call parsed, once).
    fn statement(&mut self, engine: &Engine, ast: &AST, name: &'static str, arity: usize) -> bool {
        self.calls
            .entry((name, arity))
            .or_insert_with(|| {
                let defined = ast
                    .iter_functions()
                    .any(|f| f.name == name && f.params.len() == arity);
                let arguments: Vec<String> = ARGUMENTS[..arity]
                    .iter()
                    .map(|a| format!("take({a})"))
                    .collect();
                let text = format!("{name}({})", arguments.join(", "));
                defined.then(|| engine.compile(text).ok()).flatten()
            })
            .is_some()
    }

    /// Calls `name` with `values` through the kept state (see [`Program::call`]).
    fn call(
        &mut self,
        engine: &Engine,
        name: &'static str,
        values: Vec<Dynamic>,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let Some(Some(call)) = self.calls.get(&(name, values.len())) else {
            return Err(EvalAltResult::ErrorFunctionNotFound(name.into(), Position::NONE).into());
        };
        let mut scope = rhai::Scope::new();
        for (argument, value) in ARGUMENTS.iter().zip(values) {
            scope.push(*argument, value);
        }
        // Each call counts its operations from zero, at the top level, as a fresh one does.
        self.global.num_operations = Default::default();
        self.global.level = 0;
        self.global.scope_level = 0;
        self.global.always_search_scope = false;
        self.global.lib.truncate(1);
        if self.caches.fn_resolution_caches_len() != 1 {
            self.caches = Caches::new();
            self.caches.push_fn_resolution_cache();
        }
        #[allow(deprecated)]
        let result = engine.eval_statements_raw(
            &mut self.global,
            &mut self.caches,
            &mut scope,
            call.statements(),
        );
        // As `call_fn` answers: an error inside the function unwrapped from its call (the
        // call site is this statement's, not the script's), any other without a place.
        result.map_err(|e| match *e {
            EvalAltResult::ErrorInFunctionCall(function, _, inner, _) if function == name => inner,
            mut other => {
                other.set_position(Position::NONE);
                other.into()
            }
        })
    }
}

/// The copies of a script's [`Program`] of each pool thread, made at its first call.
#[derive(Default)]
pub(super) struct Copies {
    slots: [OnceLock<Option<Program>>; COPIES],
}

impl Copies {
    /// This thread's copy, made by `make` at its first call (`None` if it could not be), or
    /// `None` off a pool's first [`COPIES`] threads.
    pub(super) fn here(&self, make: impl FnOnce() -> Option<Program>) -> Option<&Program> {
        let slot = self.slots.get(rayon::current_thread_index()?)?;
        slot.get_or_init(make).as_ref()
    }
}

#[cfg(test)]
mod tests {
    use rhai::{CallFnOptions, Dynamic, Scope};

    use super::Program;

    const SOURCE: &str = "fn start() { 1 }\n\
        fn moves(s) {\n  let out = [];\n  for i in 0..3 { out.push(#{ label: `${i}`, to: s + i }); }\n  out\n}\n\
        fn is_goal(s) {\n  if s == 7 { return true; }\n  if s == 9 { undefined_variable }\n  \
        if s == 11 { throw \"eleven\"; }\n  if s == 13 { exit(5); }\n  s > 20\n}\n\
        fn heuristic(s) { s.len() }\n";

    /// A call as rhai's `call_fn` makes it, afresh: its value or its error and place.
    fn fresh(name: &str, arg: i64) -> String {
        let (engine, ast) = Program::compile(SOURCE).expect("it compiles");
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let answer =
            engine.call_fn_with_options::<Dynamic>(options, &mut Scope::new(), &ast, name, (arg,));
        shown(answer)
    }

    fn shown(answer: Result<Dynamic, Box<rhai::EvalAltResult>>) -> String {
        match answer {
            Ok(v) => format!("ok {v}"),
            Err(e) => format!("error {e} at {:?}", e.position()),
        }
    }

    /// A call through the kept state answers as a fresh `call_fn` does, values and errors
    /// (their messages and places), call after call; and what the calls resolved is kept:
    /// once every call was made twice, the cache holds as many functions after a third
    /// round (nothing resolved again, nothing dropped).
    #[test]
    fn a_kept_call_answers_as_a_fresh_one() {
        let (engine, ast) = Program::compile(SOURCE).expect("it compiles");
        let program = Program::with_parameters(engine, ast, &[]);
        let calls = [
            ("moves", 4),
            ("is_goal", 7),
            ("is_goal", 9),
            ("is_goal", 11),
            ("is_goal", 13),
            ("is_goal", 30),
            ("heuristic", 2),
            ("draw", 1),
        ];
        let mut resolved = Vec::new();
        for round in 0..3 {
            for (name, arg) in calls {
                let kept = shown(program.call(name, (arg,)));
                assert_eq!(kept, fresh(name, arg), "{name}({arg}), round {round}");
            }
            let mut kept = program.kept.lock().expect("not poisoned");
            let kept = kept.as_mut().expect("kept after a call");
            resolved.push(kept.caches.fn_resolution_cache_mut().dict.len());
        }
        assert!(resolved[0] > 0, "{resolved:?}");
        assert_eq!(resolved[1], resolved[2], "{resolved:?}");
    }
}
