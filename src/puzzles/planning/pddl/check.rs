//! A domain's checks: every type named is declared, every predicate used is declared with
//! its arity, every variable used is a parameter or quantified (the problem's reader checks
//! its atoms and goal by the same functions).

use super::super::sexpr::Pos;
use super::*;

/// Every type named is declared, every predicate used is declared with its arity, every
/// variable used is a parameter or quantified.
pub(super) fn check_domain(d: &Domain) -> Result<(), PddlError> {
    let type_ok = |t: &str| t == OBJECT || d.types.contains_key(t);
    let check_types = |vars: &[TypedVar], pos: Pos| -> Result<(), PddlError> {
        for v in vars {
            if let Some(t) = v.types.iter().find(|t| !type_ok(t)) {
                return err(pos, format!("the type `{t}` of {} is not declared", v.name));
            }
        }
        Ok(())
    };
    for (t, parents) in &d.types {
        if let Some(p) = parents.iter().find(|p| !type_ok(p)) {
            return err(
                Pos::default(),
                format!("the type `{t}` has an undeclared parent `{p}`"),
            );
        }
    }
    for a in &d.actions {
        check_types(&a.parameters, a.pos)?;
        let mut scope: Vec<&str> = a.parameters.iter().map(|v| v.name.as_str()).collect();
        check_formula(d, &a.precondition, &mut scope)?;
        check_effects(d, &a.effects, &mut scope, a.pos)?;
    }
    Ok(())
}

pub(super) fn check_atom(d: &Domain, atom: &Atom, scope: &[&str]) -> Result<(), PddlError> {
    let Some(params) = d.predicates.get(&atom.predicate) else {
        return err(
            atom.pos,
            format!("the predicate `{}` is not declared", atom.predicate),
        );
    };
    if params.len() != atom.args.len() {
        return err(
            atom.pos,
            format!(
                "`{}` takes {} arguments, not {}",
                atom.predicate,
                params.len(),
                atom.args.len()
            ),
        );
    }
    check_terms(&atom.args, scope, atom.pos)
}

fn check_terms(terms: &[Term], scope: &[&str], pos: Pos) -> Result<(), PddlError> {
    for t in terms {
        if let Term::Var(v) = t
            && !scope.contains(&v.as_str())
        {
            return err(
                pos,
                format!("the variable {v} is not a parameter of the action"),
            );
        }
    }
    Ok(())
}

pub(super) fn check_formula<'a>(
    d: &Domain,
    f: &'a Formula,
    scope: &mut Vec<&'a str>,
) -> Result<(), PddlError> {
    match f {
        Formula::And(parts) => parts.iter().try_for_each(|p| check_formula(d, p, scope)),
        Formula::Atom(a) | Formula::NotAtom(a) => check_atom(d, a, scope),
        Formula::Equal(a, b, _) => check_terms(&[a.clone(), b.clone()], scope, Pos::default()),
        Formula::Forall(vars, body) => {
            let n = scope.len();
            scope.extend(vars.iter().map(|v| v.name.as_str()));
            let r = check_formula(d, body, scope);
            scope.truncate(n);
            r
        }
    }
}

fn check_effects<'a>(
    d: &Domain,
    effects: &'a [Effect],
    scope: &mut Vec<&'a str>,
    pos: Pos,
) -> Result<(), PddlError> {
    for e in effects {
        match e {
            Effect::Add(a) | Effect::Del(a) => check_atom(d, a, scope)?,
            Effect::Forall(vars, inner) => {
                let n = scope.len();
                scope.extend(vars.iter().map(|v| v.name.as_str()));
                check_effects(d, inner, scope, pos)?;
                scope.truncate(n);
            }
            Effect::Cost(CostTerm::Function(f, args)) => {
                if !d.functions.contains_key(f) {
                    return err(pos, format!("the function `{f}` is not declared"));
                }
                check_terms(args, scope, pos)?;
            }
            Effect::Cost(CostTerm::Number(_)) => {}
        }
    }
    Ok(())
}
