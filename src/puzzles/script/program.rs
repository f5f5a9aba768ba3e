//! The engine and AST each call of a script runs on: the compiled script's own, or on a
//! worker thread of a pool its own copy of them, compiled from the same source with the same
//! parameters. rhai's values share reference counts with the AST and the engine they come
//! from (every string literal, parameter and variable name cloned from the AST, every
//! function the engine resolves, the AST's function library pushed at each call), and two
//! workers writing the same counts at every step held each other back: the whole-space count
//! on two workers took 25% more CPU time a state than on one.

use std::sync::OnceLock;

use rhai::{AST, Engine};

use super::engine;

/// How many pool threads have their own copy (by their index in their pool); a thread past
/// them, or outside any pool, calls on the compiled script's own.
const COPIES: usize = 16;

/// An engine (with the parameters' values) and the AST it runs.
pub(super) struct Program {
    pub(super) engine: Engine,
    pub(super) ast: AST,
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
        Self { engine, ast }
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
