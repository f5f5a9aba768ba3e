//! Grounding: a lifted domain and problem ([`super::pddl`]) made a [`Task`] of facts and
//! operators.
//!
//! Only the ground actions whose preconditions can become true are made: the atoms reachable
//! when delete effects are ignored (relaxed reachability, as pyperplan's grounding and Fast
//! Downward's translator compute it; Helmert, "Concise finite-domain representations for PDDL
//! planning tasks", AIJ 2009, section 5) are found by a fixed point over the action schemas,
//! each schema's parameters bound by joining its positive preconditions against the atoms
//! known so far. Static predicates (in no action's effect) are compiled away: their
//! preconditions are checked once against the initial state and leave the operators.
//! The work is counted and capped ([`GroundLimits`]), so a task whose grounding explodes is
//! refused with a message before it exhausts memory.

use std::collections::{HashMap, HashSet};

use super::pddl::{
    Action, Atom, CostTerm, Domain, Effect, Formula, OBJECT, Problem, Term, TypedVar,
};
use super::task::{FactId, Operator, Task};

pub mod mutex;
mod operators;

/// The most work grounding may do.
#[derive(Clone, Copy, Debug)]
pub struct GroundLimits {
    /// The most ground operators (each costs about 100 bytes and more).
    pub max_operators: usize,
    /// The most reachable facts.
    pub max_facts: usize,
    /// The most candidate bindings tried in all (the join's steps).
    pub max_steps: u64,
}

impl Default for GroundLimits {
    /// 2 million operators, 1 million facts, 500 million steps: the IPC tasks pyperplan
    /// solves ground to at most tens of thousands of operators.
    fn default() -> Self {
        Self {
            max_operators: 2_000_000,
            max_facts: 1_000_000,
            max_steps: 500_000_000,
        }
    }
}

/// Why a task could not be grounded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroundError {
    /// The grounding passes a limit.
    #[error("the task is too large to ground: {0}")]
    TooLarge(String),
    /// Something in the task the grounding cannot use.
    #[error("{0}")]
    Unsupported(String),
}

/// An object index.
type Obj = u32;

/// A ground atom: its predicate's index, then its arguments.
type Key = Vec<u32>;

struct Grounder<'a> {
    domain: &'a Domain,
    problem: &'a Problem,
    limits: GroundLimits,
    objects: Vec<String>,
    object_index: HashMap<String, Obj>,
    /// Each object's types with all their ancestors.
    object_types: Vec<HashSet<String>>,
    predicates: Vec<String>,
    predicate_index: HashMap<String, u32>,
    fluent: Vec<bool>,
    /// The atoms true at the start of static predicates.
    static_true: HashSet<Key>,
    /// The atoms known reachable, of fluent predicates, by predicate.
    reached: HashSet<Key>,
    by_predicate: Vec<Vec<Key>>,
    static_by_predicate: Vec<Vec<Key>>,
    steps: std::cell::Cell<u64>,
    uses_costs: bool,
}

/// Grounds `problem` of `domain`.
///
/// # Errors
/// [`GroundError::TooLarge`] past `limits`; [`GroundError::Unsupported`] for a negative goal,
/// a constant of an action that is not declared, or a cost function with no value.
pub fn ground(
    domain: &Domain,
    problem: &Problem,
    limits: GroundLimits,
) -> Result<Task, GroundError> {
    let mut g = Grounder::new(domain, problem, limits);
    let bindings = g.reach()?;
    g.task(&bindings)
}

impl<'a> Grounder<'a> {
    fn new(domain: &'a Domain, problem: &'a Problem, limits: GroundLimits) -> Self {
        let mut objects = Vec::new();
        let mut object_index = HashMap::new();
        let mut object_types: Vec<HashSet<String>> = Vec::new();
        for (name, types) in domain.constants.iter().chain(&problem.objects) {
            let i = *object_index.entry(name.clone()).or_insert_with(|| {
                objects.push(name.clone());
                object_types.push(HashSet::from([OBJECT.to_owned()]));
                (objects.len() - 1) as Obj
            });
            for t in types {
                ancestors(domain, t, &mut object_types[i as usize]);
            }
        }
        let mut predicates: Vec<String> = domain.predicates.keys().cloned().collect();
        predicates.sort();
        let predicate_index: HashMap<String, u32> = predicates
            .iter()
            .enumerate()
            .map(|(i, p)| (p.clone(), i as u32))
            .collect();
        let mut fluent = vec![false; predicates.len()];
        fn mark(effects: &[Effect], index: &HashMap<String, u32>, fluent: &mut [bool]) {
            for e in effects {
                match e {
                    Effect::Add(a) | Effect::Del(a) => {
                        if let Some(&p) = index.get(&a.predicate) {
                            fluent[p as usize] = true;
                        }
                    }
                    Effect::Forall(_, inner) => mark(inner, index, fluent),
                    Effect::Cost(_) => {}
                }
            }
        }
        for a in &domain.actions {
            mark(&a.effects, &predicate_index, &mut fluent);
        }
        let uses_costs = problem.minimize_cost;
        let mut g = Grounder {
            domain,
            problem,
            limits,
            objects,
            object_index,
            object_types,
            by_predicate: vec![Vec::new(); predicates.len()],
            predicates,
            predicate_index,
            fluent,
            static_true: HashSet::new(),
            reached: HashSet::new(),
            steps: std::cell::Cell::new(0),
            static_by_predicate: Vec::new(),
            uses_costs,
        };
        for atom in &problem.init {
            if let Some(key) = g.ground_atom(atom, &HashMap::new()) {
                if g.fluent[key[0] as usize] {
                    g.add_reached(key);
                } else if g.static_true.insert(key.clone()) {
                    let p = key[0] as usize;
                    if g.static_by_predicate.len() <= p {
                        g.static_by_predicate.resize(p + 1, Vec::new());
                    }
                    g.static_by_predicate[p].push(key);
                }
            }
        }
        g.static_by_predicate.resize(g.predicates.len(), Vec::new());
        g
    }

    fn add_reached(&mut self, key: Key) -> bool {
        if self.reached.contains(&key) {
            return false;
        }
        self.by_predicate[key[0] as usize].push(key.clone());
        self.reached.insert(key);
        true
    }

    /// The ground atom of `atom` under `binding`, if every term is known.
    fn ground_atom(&self, atom: &Atom, binding: &HashMap<&str, Obj>) -> Option<Key> {
        let mut key = Vec::with_capacity(atom.args.len() + 1);
        key.push(*self.predicate_index.get(&atom.predicate)?);
        for t in &atom.args {
            key.push(self.term(t, binding)?);
        }
        Some(key)
    }

    fn term(&self, t: &Term, binding: &HashMap<&str, Obj>) -> Option<Obj> {
        match t {
            Term::Var(v) => binding.get(v.as_str()).copied(),
            Term::Const(c) => self.object_index.get(c).copied(),
        }
    }

    fn fits(&self, o: Obj, types: &[String]) -> bool {
        let have = &self.object_types[o as usize];
        types.iter().any(|t| have.contains(t))
    }

    fn objects_of(&self, types: &[String]) -> Vec<Obj> {
        (0..self.objects.len() as Obj)
            .filter(|&o| self.fits(o, types))
            .collect()
    }

    fn step(&self) -> Result<(), GroundError> {
        self.steps.set(self.steps.get() + 1);
        if self.steps.get() > self.limits.max_steps {
            return Err(GroundError::TooLarge(format!(
                "binding the actions' parameters took more than {} steps",
                self.limits.max_steps
            )));
        }
        Ok(())
    }

    /// The fixed point of relaxed reachability: every action's bindings whose preconditions
    /// hold when delete effects are ignored, by action.
    fn reach(&mut self) -> Result<Vec<Vec<Vec<Obj>>>, GroundError> {
        let domain = self.domain;
        let actions = &domain.actions;
        let mut bindings: Vec<HashSet<Vec<Obj>>> = vec![HashSet::new(); actions.len()];
        loop {
            let mut grew = false;
            for (i, action) in actions.iter().enumerate() {
                let found = self.bind_action(action)?;
                for b in found {
                    if bindings[i].insert(b.clone()) {
                        let map: HashMap<&str, Obj> = action
                            .parameters
                            .iter()
                            .map(|p| p.name.as_str())
                            .zip(b.iter().copied())
                            .collect();
                        let mut adds = Vec::new();
                        self.adds_of(&action.effects, &mut map.clone(), &mut adds)?;
                        for key in adds {
                            grew |= self.add_reached(key);
                        }
                    }
                }
                let total: usize = bindings.iter().map(HashSet::len).sum();
                if total > self.limits.max_operators {
                    return Err(GroundError::TooLarge(format!(
                        "more than {} ground actions",
                        self.limits.max_operators
                    )));
                }
                if self.reached.len() > self.limits.max_facts {
                    return Err(GroundError::TooLarge(format!(
                        "more than {} reachable facts",
                        self.limits.max_facts
                    )));
                }
            }
            if !grew {
                break;
            }
        }
        Ok(bindings
            .into_iter()
            .map(|set| {
                let mut list: Vec<Vec<Obj>> = set.into_iter().collect();
                list.sort();
                list
            })
            .collect())
    }

    /// The add effects of `effects` under `binding`, `forall` expanded.
    fn adds_of<'b>(
        &self,
        effects: &'b [Effect],
        binding: &mut HashMap<&'b str, Obj>,
        out: &mut Vec<Key>,
    ) -> Result<(), GroundError> {
        for e in effects {
            match e {
                Effect::Add(a) => {
                    out.push(self.ground_atom(a, binding).ok_or_else(|| unknown(a))?);
                }
                Effect::Forall(vars, inner) => {
                    for values in self.assignments(vars)? {
                        for (v, o) in vars.iter().zip(&values) {
                            binding.insert(v.name.as_str(), *o);
                        }
                        self.adds_of(inner, binding, out)?;
                    }
                    for v in vars {
                        binding.remove(v.name.as_str());
                    }
                }
                Effect::Del(_) | Effect::Cost(_) => {}
            }
        }
        Ok(())
    }

    /// Every assignment of objects to `vars` by their types.
    fn assignments(&self, vars: &[TypedVar]) -> Result<Vec<Vec<Obj>>, GroundError> {
        let mut out = vec![Vec::new()];
        for v in vars {
            let objs = self.objects_of(&v.types);
            let mut next = Vec::with_capacity(out.len() * objs.len());
            for prefix in &out {
                for &o in &objs {
                    self.step()?;
                    let mut p = prefix.clone();
                    p.push(o);
                    next.push(p);
                }
            }
            out = next;
        }
        Ok(out)
    }

    /// The bindings of `action`'s parameters whose preconditions hold in the relaxed sense
    /// (positive atoms known true or reached, static negative atoms false, equalities as
    /// written; negative fluent atoms are left to the search).
    fn bind_action(&self, action: &Action) -> Result<Vec<Vec<Obj>>, GroundError> {
        let mut joins: Vec<&Atom> = Vec::new();
        top_level_atoms(&action.precondition, &mut joins);
        // Static atoms first: they bind parameters against a fixed, often small, set.
        joins.sort_by_key(|a| {
            self.predicate_index
                .get(&a.predicate)
                .is_none_or(|&p| self.fluent[p as usize])
        });
        let mut out = Vec::new();
        let mut binding: HashMap<&str, Obj> = HashMap::new();
        self.join(action, &joins, 0, &mut binding, &mut out)?;
        Ok(out)
    }

    fn join<'b>(
        &self,
        action: &'b Action,
        joins: &[&'b Atom],
        k: usize,
        binding: &mut HashMap<&'b str, Obj>,
        out: &mut Vec<Vec<Obj>>,
    ) -> Result<(), GroundError> {
        let Some(atom) = joins.get(k) else {
            return self.enumerate_rest(action, 0, binding, out);
        };
        let Some(&p) = self.predicate_index.get(&atom.predicate) else {
            return Ok(());
        };
        let candidates = if self.fluent[p as usize] {
            &self.by_predicate[p as usize]
        } else {
            &self.static_by_predicate[p as usize]
        };
        for key in candidates {
            self.step()?;
            let mut bound_here: Vec<&str> = Vec::new();
            let mut ok = true;
            for (t, &o) in atom.args.iter().zip(&key[1..]) {
                match t {
                    Term::Const(c) => ok = self.object_index.get(c) == Some(&o),
                    Term::Var(v) => match binding.get(v.as_str()) {
                        Some(&b) => ok = b == o,
                        None => {
                            let types = action
                                .parameters
                                .iter()
                                .find(|p| &p.name == v)
                                .map(|p| p.types.as_slice());
                            ok = types.is_some_and(|t| self.fits(o, t));
                            if ok {
                                binding.insert(v.as_str(), o);
                                bound_here.push(v.as_str());
                            }
                        }
                    },
                }
                if !ok {
                    break;
                }
            }
            if ok {
                self.join(action, joins, k + 1, binding, out)?;
            }
            for v in bound_here {
                binding.remove(v);
            }
        }
        Ok(())
    }

    /// Binds the parameters no precondition bound, over their types' objects, then checks
    /// the whole precondition.
    fn enumerate_rest<'b>(
        &self,
        action: &'b Action,
        i: usize,
        binding: &mut HashMap<&'b str, Obj>,
        out: &mut Vec<Vec<Obj>>,
    ) -> Result<(), GroundError> {
        let Some(param) = action.parameters.get(i) else {
            self.step()?;
            if self.holds_relaxed(&action.precondition, binding)? {
                out.push(
                    action
                        .parameters
                        .iter()
                        .map(|p| binding[p.name.as_str()])
                        .collect(),
                );
            }
            return Ok(());
        };
        if binding.contains_key(param.name.as_str()) {
            return self.enumerate_rest(action, i + 1, binding, out);
        }
        for o in self.objects_of(&param.types) {
            self.step()?;
            binding.insert(param.name.as_str(), o);
            self.enumerate_rest(action, i + 1, binding, out)?;
        }
        binding.remove(param.name.as_str());
        Ok(())
    }

    fn holds_relaxed<'b>(
        &self,
        f: &'b Formula,
        binding: &mut HashMap<&'b str, Obj>,
    ) -> Result<bool, GroundError> {
        Ok(match f {
            Formula::And(parts) => {
                for p in parts {
                    if !self.holds_relaxed(p, binding)? {
                        return Ok(false);
                    }
                }
                true
            }
            Formula::Atom(a) => match self.ground_atom(a, binding) {
                Some(key) if self.fluent[key[0] as usize] => self.reached.contains(&key),
                Some(key) => self.static_true.contains(&key),
                None => false,
            },
            Formula::NotAtom(a) => match self.ground_atom(a, binding) {
                Some(key) if !self.fluent[key[0] as usize] => !self.static_true.contains(&key),
                _ => true,
            },
            Formula::Equal(a, b, equal) => {
                (self.term(a, binding) == self.term(b, binding)) == *equal
            }
            Formula::Forall(vars, body) => {
                let mut all = true;
                for values in self.assignments(vars)? {
                    for (v, o) in vars.iter().zip(&values) {
                        binding.insert(v.name.as_str(), *o);
                    }
                    if !self.holds_relaxed(body, binding)? {
                        all = false;
                        break;
                    }
                }
                for v in vars {
                    binding.remove(v.name.as_str());
                }
                all
            }
        })
    }
}

fn unknown(a: &Atom) -> GroundError {
    GroundError::Unsupported(format!(
        "{}: ({} ...) names an object or constant that is not declared",
        a.pos, a.predicate
    ))
}

/// `t` and its ancestors, into `out` (a cycle in the hierarchy stops where it repeats).
fn ancestors(domain: &Domain, t: &str, out: &mut HashSet<String>) {
    if !out.insert(t.to_owned()) {
        return;
    }
    for p in domain.types.get(t).into_iter().flatten() {
        ancestors(domain, p, out);
    }
}

/// The positive atoms of a precondition outside quantifiers (the ones that bind parameters).
fn top_level_atoms<'a>(f: &'a Formula, out: &mut Vec<&'a Atom>) {
    match f {
        Formula::And(parts) => parts.iter().for_each(|p| top_level_atoms(p, out)),
        Formula::Atom(a) => out.push(a),
        Formula::NotAtom(_) | Formula::Equal(..) | Formula::Forall(..) => {}
    }
}

#[cfg(test)]
#[path = "ground_tests.rs"]
mod tests;
