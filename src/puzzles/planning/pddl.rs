//! PDDL domains and problems as written: typed objects, predicates, actions with their
//! precondition and effect formulas, the initial state and the goal (the lifted task, before
//! grounding).
//!
//! The subset read is the one the IPC's classical tracks and pyperplan's benchmarks use:
//! STRIPS, `:typing` (type hierarchies and `either`), `:negative-preconditions`, `:equality`,
//! `:action-costs` (`total-cost` increased by a number or a static function) and universal
//! quantifiers (`forall`) in preconditions and effects, expanded over the objects when
//! grounding. Other requirements (conditional effects, disjunctions, numeric fluents, durative
//! actions, derived predicates) are refused by name. The syntax follows McDermott et al.,
//! "PDDL: the Planning Domain Definition Language" (1998) and Fox and Long, "PDDL2.1" (2003).

use std::collections::HashMap;

use super::sexpr::{self, Pos, Sexp, SyntaxError};

mod check;
mod problem;

use check::check_domain;
pub use problem::read_problem;

/// The requirements this reader supports (`:adl` and the rest are refused by name).
pub const SUPPORTED_REQUIREMENTS: &[&str] = &[
    ":strips",
    ":typing",
    ":negative-preconditions",
    ":equality",
    ":action-costs",
    ":universal-preconditions",
];

/// The root type every object has.
pub const OBJECT: &str = "object";

/// A term: a `?variable` or a constant (an object's name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A variable, with its `?`.
    Var(String),
    /// An object or constant.
    Const(String),
}

/// An atom: a predicate applied to terms, `(on ?x b)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// The predicate's name.
    pub predicate: String,
    /// Its arguments.
    pub args: Vec<Term>,
    /// Where it is written.
    pub pos: Pos,
}

/// A typed variable: its name and the types it may take (more than one for `either`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedVar {
    /// The variable, with its `?`.
    pub name: String,
    /// Its types (an object of any of them fits).
    pub types: Vec<String>,
}

/// A precondition or goal formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// All of these (`And(vec![])`, the default, is always true).
    And(Vec<Formula>),
    /// An atom that must hold.
    Atom(Atom),
    /// An atom that must not hold (`:negative-preconditions`).
    NotAtom(Atom),
    /// Two terms naming the same object (`:equality`); `false` for `(not (= a b))`.
    Equal(Term, Term, bool),
    /// The formula for every binding of the variables (`forall`).
    Forall(Vec<TypedVar>, Box<Formula>),
}

impl Default for Formula {
    fn default() -> Self {
        Formula::And(Vec::new())
    }
}

/// What an action's cost increase adds: a number or a static function of the parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CostTerm {
    /// A constant (a non-negative integer).
    Number(u64),
    /// `(road-length ?from ?to)`: its value is given by the problem's `(= ...)` facts.
    Function(String, Vec<Term>),
}

/// One effect of an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The atom becomes true.
    Add(Atom),
    /// The atom becomes false.
    Del(Atom),
    /// The effects for every binding of the variables.
    Forall(Vec<TypedVar>, Vec<Effect>),
    /// `(increase (total-cost) ...)`.
    Cost(CostTerm),
}

/// An action schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// Its name.
    pub name: String,
    /// Its parameters, in order.
    pub parameters: Vec<TypedVar>,
    /// Its precondition (`And(vec![])` when it has none).
    pub precondition: Formula,
    /// Its effects.
    pub effects: Vec<Effect>,
    /// Where `(:action` is written.
    pub pos: Pos,
}

/// A domain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Domain {
    /// Its name.
    pub name: String,
    /// The requirement keywords, with their `:`.
    pub requirements: Vec<String>,
    /// Each declared type and its parent types (`object` at the root).
    pub types: HashMap<String, Vec<String>>,
    /// The constants and their types.
    pub constants: Vec<(String, Vec<String>)>,
    /// Each predicate's name and its parameters.
    pub predicates: HashMap<String, Vec<TypedVar>>,
    /// Each function's name and its arity (`total-cost` and static cost functions).
    pub functions: HashMap<String, usize>,
    /// The actions, in order.
    pub actions: Vec<Action>,
}

/// A problem.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// Its name.
    pub name: String,
    /// The domain it is for.
    pub domain: String,
    /// The objects and their types.
    pub objects: Vec<(String, Vec<String>)>,
    /// The atoms true at the start (every argument a constant).
    pub init: Vec<Atom>,
    /// The static functions' values, `(= (road-length a b) 5)`, keyed by name and arguments.
    pub function_values: HashMap<(String, Vec<String>), u64>,
    /// The goal.
    pub goal: Formula,
    /// Whether the problem asks to minimize `total-cost`.
    pub minimize_cost: bool,
}

/// Why a domain or problem was refused: where and what.
pub type PddlError = SyntaxError;

fn err<T>(pos: Pos, message: impl Into<String>) -> Result<T, PddlError> {
    Err(SyntaxError::new(pos, message))
}

/// The single `(define ...)` of a text, its items after `define`.
fn define(text: &str, what: &str) -> Result<(Vec<Sexp>, Pos), PddlError> {
    let top = sexpr::read(text)?;
    let mut defines = top.into_iter();
    let Some(first) = defines.next() else {
        return err(
            Pos { line: 1, column: 1 },
            format!("no `(define ({what} ...))` in the file"),
        );
    };
    if let Some(extra) = defines.next() {
        return err(
            extra.pos(),
            format!("text after the {what}'s `(define ...)`"),
        );
    }
    let pos = first.pos();
    match first {
        Sexp::List(items, _) if items.first().and_then(Sexp::word) == Some("define") => {
            Ok((items.into_iter().skip(1).collect(), pos))
        }
        other => err(
            other.pos(),
            format!("expected `(define ({what} NAME) ...)`"),
        ),
    }
}

/// `(KEY NAME)`: the name.
fn named(item: Option<&Sexp>, key: &str, at: Pos) -> Result<String, PddlError> {
    match item.and_then(Sexp::list) {
        Some([Sexp::Word(k, _), Sexp::Word(name, _)]) if k == key => Ok(name.clone()),
        _ => err(
            item.map_or(at, Sexp::pos),
            format!("expected `({key} NAME)`"),
        ),
    }
}

/// A list of words with `- type` groups: `a b - block c - (either t u)`, each with its types
/// (`object` when none is given).
fn typed_list(items: &[Sexp], vars: bool) -> Result<Vec<(String, Vec<String>, Pos)>, PddlError> {
    let mut out: Vec<(String, Vec<String>, Pos)> = Vec::new();
    let mut pending = 0;
    let mut i = 0;
    while i < items.len() {
        match &items[i] {
            Sexp::Word(w, p) if w == "-" => {
                let Some(t) = items.get(i + 1) else {
                    return err(*p, "`-` with no type after it");
                };
                let types = match t {
                    Sexp::Word(t, _) => vec![t.clone()],
                    Sexp::List(parts, p) => match parts.split_first() {
                        Some((Sexp::Word(e, _), rest)) if e == "either" => rest
                            .iter()
                            .map(|r| r.word().map(str::to_owned).ok_or(()))
                            .collect::<Result<Vec<_>, ()>>()
                            .map_err(|()| SyntaxError::new(*p, "`either` takes type names"))?,
                        _ => return err(*p, "expected a type name or `(either ...)`"),
                    },
                };
                if pending == 0 {
                    return err(*p, "`-` with no names before it");
                }
                let n = out.len();
                for entry in &mut out[n - pending..] {
                    entry.1.clone_from(&types);
                }
                pending = 0;
                i += 2;
            }
            Sexp::Word(w, p) => {
                if vars != w.starts_with('?') {
                    let want = if vars { "a `?variable`" } else { "a name" };
                    return err(*p, format!("expected {want}, found `{w}`"));
                }
                out.push((w.clone(), vec![OBJECT.to_owned()], *p));
                pending += 1;
                i += 1;
            }
            Sexp::List(_, p) => return err(*p, "expected a name, found a list"),
        }
    }
    Ok(out)
}

fn typed_vars(items: &[Sexp]) -> Result<Vec<TypedVar>, PddlError> {
    Ok(typed_list(items, true)?
        .into_iter()
        .map(|(name, types, _)| TypedVar { name, types })
        .collect())
}

fn term(s: &Sexp) -> Result<Term, PddlError> {
    match s {
        Sexp::Word(w, _) if w.starts_with('?') => Ok(Term::Var(w.clone())),
        Sexp::Word(w, _) => Ok(Term::Const(w.clone())),
        Sexp::List(_, p) => err(*p, "expected a variable or an object, found a list"),
    }
}

fn atom(s: &Sexp) -> Result<Atom, PddlError> {
    let pos = s.pos();
    match s.list() {
        Some([Sexp::Word(p, _), args @ ..]) => Ok(Atom {
            predicate: p.clone(),
            args: args.iter().map(term).collect::<Result<_, _>>()?,
            pos,
        }),
        _ => err(pos, "expected an atom `(predicate args...)`"),
    }
}

/// A precondition or goal formula.
fn formula(s: &Sexp) -> Result<Formula, PddlError> {
    let pos = s.pos();
    let Some(items) = s.list() else {
        return err(pos, "expected a formula in parentheses");
    };
    match s.head() {
        Some("and") => Ok(Formula::And(
            items[1..].iter().map(formula).collect::<Result<_, _>>()?,
        )),
        Some("not") => {
            let [_, inner] = items else {
                return err(pos, "`not` takes one formula");
            };
            match inner.head() {
                Some("=") => match equality(inner)? {
                    Formula::Equal(a, b, true) => Ok(Formula::Equal(a, b, false)),
                    _ => err(pos, "bad `(not (= ...))`"),
                },
                Some(k) if is_connective(k) => err(
                    inner.pos(),
                    format!(
                        "`(not ({k} ...))` needs :disjunctive-preconditions, which is not supported"
                    ),
                ),
                _ => Ok(Formula::NotAtom(atom(inner)?)),
            }
        }
        Some("=") => equality(s),
        Some("forall") => {
            let [_, vars, body] = items else {
                return err(pos, "`forall` takes `(variables)` and a formula");
            };
            let Some(vars) = vars.list() else {
                return err(vars.pos(), "expected `(?variables - type)`");
            };
            Ok(Formula::Forall(typed_vars(vars)?, Box::new(formula(body)?)))
        }
        Some(k @ ("or" | "imply")) => err(
            pos,
            format!("`{k}` needs :disjunctive-preconditions, which is not supported"),
        ),
        Some("exists") => err(
            pos,
            "`exists` needs :existential-preconditions, which is not supported",
        ),
        _ => Ok(Formula::Atom(atom(s)?)),
    }
}

fn is_connective(k: &str) -> bool {
    matches!(k, "and" | "or" | "not" | "imply" | "exists" | "forall")
}

fn equality(s: &Sexp) -> Result<Formula, PddlError> {
    match s.list() {
        Some([_, a, b]) => Ok(Formula::Equal(term(a)?, term(b)?, true)),
        _ => err(s.pos(), "`=` takes two terms"),
    }
}

fn effects(s: &Sexp, out: &mut Vec<Effect>) -> Result<(), PddlError> {
    let pos = s.pos();
    let Some(items) = s.list() else {
        return err(pos, "expected an effect in parentheses");
    };
    match s.head() {
        Some("and") => {
            for e in &items[1..] {
                effects(e, out)?;
            }
        }
        Some("not") => {
            let [_, inner] = items else {
                return err(pos, "`not` takes one atom");
            };
            out.push(Effect::Del(atom(inner)?));
        }
        Some("forall") => {
            let [_, vars, body] = items else {
                return err(pos, "`forall` takes `(variables)` and an effect");
            };
            let Some(vars) = vars.list() else {
                return err(vars.pos(), "expected `(?variables - type)`");
            };
            let mut inner = Vec::new();
            effects(body, &mut inner)?;
            out.push(Effect::Forall(typed_vars(vars)?, inner));
        }
        Some("when") => {
            return err(
                pos,
                "`when` needs :conditional-effects, which is not supported",
            );
        }
        Some("increase") => {
            let [_, target, by] = items else {
                return err(pos, "`increase` takes a function and an amount");
            };
            if target.head() != Some("total-cost") {
                return err(
                    target.pos(),
                    "only `(increase (total-cost) ...)` is supported (:action-costs); numeric fluents are not",
                );
            }
            out.push(Effect::Cost(cost_term(by)?));
        }
        Some(k @ ("decrease" | "assign" | "scale-up" | "scale-down")) => {
            return err(
                pos,
                format!("`{k}` needs :numeric-fluents, which is not supported"),
            );
        }
        _ => out.push(Effect::Add(atom(s)?)),
    }
    Ok(())
}

fn cost_term(s: &Sexp) -> Result<CostTerm, PddlError> {
    match s {
        Sexp::Word(w, p) => w.parse::<u64>().map(CostTerm::Number).or_else(|_| {
            err(
                *p,
                format!("an action's cost is a whole number of at least 0, not `{w}`"),
            )
        }),
        Sexp::List(items, p) => match items.split_first() {
            Some((Sexp::Word(f, _), args)) => Ok(CostTerm::Function(
                f.clone(),
                args.iter().map(term).collect::<Result<_, _>>()?,
            )),
            _ => err(*p, "expected a number or `(function args...)`"),
        },
    }
}

/// Reads a domain.
///
/// # Errors
/// [`PddlError`] with line and column: a syntax error, a missing or malformed section, an
/// unsupported requirement (named), an undeclared predicate or type.
pub fn read_domain(text: &str) -> Result<Domain, PddlError> {
    let (items, at) = define(text, "domain")?;
    let mut d = Domain {
        name: named(items.first(), "domain", at)?,
        ..Domain::default()
    };
    let mut declared_types = false;
    for item in &items[1..] {
        let pos = item.pos();
        let Some(list) = item.list() else {
            return err(pos, "expected a section `(:keyword ...)`");
        };
        match item.head() {
            Some(":requirements") => {
                for r in &list[1..] {
                    let Some(name) = r.word() else {
                        return err(r.pos(), "expected a requirement `:name`");
                    };
                    if !SUPPORTED_REQUIREMENTS.contains(&name) {
                        return err(
                            r.pos(),
                            format!(
                                "the requirement {name} is not supported (supported: {})",
                                SUPPORTED_REQUIREMENTS.join(" ")
                            ),
                        );
                    }
                    d.requirements.push(name.to_owned());
                }
            }
            Some(":types") => {
                declared_types = true;
                for (name, parents, _) in typed_list(&list[1..], false)? {
                    d.types.entry(name).or_default().extend(parents);
                }
            }
            Some(":constants") => {
                for (name, types, _) in typed_list(&list[1..], false)? {
                    d.constants.push((name, types));
                }
            }
            Some(":predicates") => {
                for p in &list[1..] {
                    match p.list() {
                        Some([Sexp::Word(name, _), params @ ..]) => {
                            d.predicates.insert(name.clone(), typed_vars(params)?);
                        }
                        _ => return err(p.pos(), "expected `(predicate ?args...)`"),
                    }
                }
            }
            Some(":functions") => {
                let mut i = 1;
                while i < list.len() {
                    match &list[i] {
                        Sexp::List(f, p) => match f.split_first() {
                            Some((Sexp::Word(name, _), params)) => {
                                d.functions.insert(name.clone(), typed_vars(params)?.len());
                            }
                            _ => return err(*p, "expected `(function ?args...)`"),
                        },
                        // `- number` after a function.
                        Sexp::Word(w, _) if w == "-" => i += 1,
                        Sexp::Word(w, p) => return err(*p, format!("unexpected `{w}`")),
                    }
                    i += 1;
                }
            }
            Some(":action") => d.actions.push(action(list, pos)?),
            Some(k @ (":durative-action" | ":derived" | ":constraints")) => {
                return err(pos, format!("`{k}` is not supported"));
            }
            Some(k) => return err(pos, format!("unknown section `{k}`")),
            None => return err(pos, "expected a section `(:keyword ...)`"),
        }
    }
    if !declared_types {
        d.types.insert(OBJECT.to_owned(), Vec::new());
    }
    check_domain(&d)?;
    Ok(d)
}

fn action(list: &[Sexp], pos: Pos) -> Result<Action, PddlError> {
    let Some(name) = list.get(1).and_then(Sexp::word) else {
        return err(pos, "expected `(:action NAME ...)`");
    };
    let mut a = Action {
        name: name.to_owned(),
        parameters: Vec::new(),
        precondition: Formula::And(Vec::new()),
        effects: Vec::new(),
        pos,
    };
    let mut i = 2;
    while i < list.len() {
        let key = &list[i];
        let Some(value) = list.get(i + 1) else {
            return err(key.pos(), "a keyword with no value after it");
        };
        match key.word() {
            Some(":parameters") => {
                let Some(params) = value.list() else {
                    return err(value.pos(), "expected `(?parameters - type)`");
                };
                a.parameters = typed_vars(params)?;
            }
            Some(":precondition") => {
                if value.list().is_some_and(|l| !l.is_empty()) {
                    a.precondition = formula(value)?;
                }
            }
            Some(":effect") => {
                if value.list().is_some_and(|l| !l.is_empty()) {
                    effects(value, &mut a.effects)?;
                }
            }
            _ => return err(key.pos(), "expected :parameters, :precondition or :effect"),
        }
        i += 2;
    }
    Ok(a)
}

#[cfg(test)]
mod tests;
