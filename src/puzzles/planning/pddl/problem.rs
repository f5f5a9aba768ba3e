//! Reading a PDDL problem for its domain: its objects, initial state, goal and metric, each
//! name checked against the domain.

use super::super::sexpr::Sexp;
use super::check::{check_atom, check_formula};
use super::*;

/// Reads a problem for `domain`.
///
/// # Errors
/// [`PddlError`] with line and column: a syntax error, a malformed section, a domain name
/// that is not `domain`'s, an undeclared predicate, type or object, an unsupported goal.
pub fn read_problem(text: &str, domain: &Domain) -> Result<Problem, PddlError> {
    let (items, at) = define(text, "problem")?;
    let mut p = Problem {
        name: named(items.first(), "problem", at)?,
        domain: named(items.get(1), ":domain", at)?,
        goal: Formula::And(Vec::new()),
        ..Problem::default()
    };
    if p.domain != domain.name {
        return err(
            items.get(1).map_or(at, Sexp::pos),
            format!(
                "the problem is for the domain `{}`, but the domain read is `{}`",
                p.domain, domain.name
            ),
        );
    }
    let mut has_goal = false;
    for item in &items[2..] {
        let pos = item.pos();
        let Some(list) = item.list() else {
            return err(pos, "expected a section `(:keyword ...)`");
        };
        match item.head() {
            Some(":objects") => {
                for (name, types, at) in typed_list(&list[1..], false)? {
                    if let Some(t) = types
                        .iter()
                        .find(|t| *t != OBJECT && !domain.types.contains_key(*t))
                    {
                        return err(at, format!("the type `{t}` of {name} is not declared"));
                    }
                    p.objects.push((name, types));
                }
            }
            Some(":init") => {
                for fact in &list[1..] {
                    if fact.head() == Some("=") {
                        let Some([_, f, value]) = fact.list() else {
                            return err(fact.pos(), "`=` takes a function and a number");
                        };
                        let (name, args) = match f.list() {
                            Some([Sexp::Word(n, _), args @ ..]) => (
                                n.clone(),
                                args.iter()
                                    .map(|a| a.word().map(str::to_owned).ok_or(()))
                                    .collect::<Result<Vec<_>, ()>>()
                                    .map_err(|()| {
                                        SyntaxError::new(
                                            f.pos(),
                                            "a function's arguments are objects",
                                        )
                                    })?,
                            ),
                            _ => return err(f.pos(), "expected `(function objects...)`"),
                        };
                        let Some(v) = value.word().and_then(|w| w.parse::<u64>().ok()) else {
                            return err(
                                value.pos(),
                                "a function's value is a whole number of at least 0",
                            );
                        };
                        p.function_values.insert((name, args), v);
                        continue;
                    }
                    let a = atom(fact)?;
                    if let Some(t) = a.args.iter().find(|t| matches!(t, Term::Var(_))) {
                        return err(a.pos, format!("the initial state has no variables ({t:?})"));
                    }
                    check_atom(domain, &a, &[])?;
                    p.init.push(a);
                }
            }
            Some(":goal") => {
                let [_, goal] = list else {
                    return err(pos, "`:goal` takes one formula");
                };
                p.goal = formula(goal)?;
                check_formula(domain, &p.goal, &mut Vec::new())?;
                has_goal = true;
            }
            Some(":metric") => match list {
                [_, Sexp::Word(m, _), f] if m == "minimize" && f.head() == Some("total-cost") => {
                    p.minimize_cost = true;
                }
                _ => return err(pos, "only `(:metric minimize (total-cost))` is supported"),
            },
            Some(":requirements") => {}
            Some(k) => return err(pos, format!("unknown section `{k}`")),
            None => return err(pos, "expected a section `(:keyword ...)`"),
        }
    }
    if !has_goal {
        return err(at, "the problem has no `(:goal ...)`");
    }
    let known: std::collections::HashSet<&str> = p
        .objects
        .iter()
        .chain(&domain.constants)
        .map(|(n, _)| n.as_str())
        .collect();
    let check_objects = |args: &[Term], pos: Pos| -> Result<(), PddlError> {
        for t in args {
            if let Term::Const(c) = t
                && !known.contains(c.as_str())
            {
                return err(pos, format!("the object `{c}` is not declared"));
            }
        }
        Ok(())
    };
    for a in &p.init {
        check_objects(&a.args, a.pos)?;
    }
    let mut goal_atoms = Vec::new();
    collect_atoms(&p.goal, &mut goal_atoms);
    for a in goal_atoms {
        check_objects(&a.args, a.pos)?;
    }
    Ok(p)
}

fn collect_atoms<'a>(f: &'a Formula, out: &mut Vec<&'a Atom>) {
    match f {
        Formula::And(parts) => parts.iter().for_each(|p| collect_atoms(p, out)),
        Formula::Atom(a) | Formula::NotAtom(a) => out.push(a),
        Formula::Equal(..) => {}
        Formula::Forall(_, body) => collect_atoms(body, out),
    }
}
