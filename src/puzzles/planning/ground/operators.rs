//! The ground task made from the reachable bindings: each fact named, each operator's
//! preconditions, effects and cost, and the goal, as the task's facts.

use std::collections::HashMap;

use super::*;

impl Grounder<'_> {
    fn name_of(&self, key: &[u32]) -> String {
        let mut s = format!("({}", self.predicates[key[0] as usize]);
        for &o in &key[1..] {
            s.push(' ');
            s.push_str(&self.objects[o as usize]);
        }
        s.push(')');
        s
    }

    /// The task of the reachable bindings.
    pub(super) fn task(&self, bindings: &[Vec<Vec<Obj>>]) -> Result<Task, GroundError> {
        let mut reached: Vec<Key> = self.reached.iter().cloned().collect();
        reached.sort();
        let mut facts: Vec<String> = reached.iter().map(|k| self.name_of(k)).collect();
        let mut fact_of: HashMap<Key, FactId> = reached
            .into_iter()
            .enumerate()
            .map(|(i, k)| (k, i as FactId))
            .collect();
        let mut operators = Vec::new();
        for (action, list) in self.domain.actions.iter().zip(bindings) {
            for values in list {
                let mut binding: HashMap<&str, Obj> = action
                    .parameters
                    .iter()
                    .map(|p| p.name.as_str())
                    .zip(values.iter().copied())
                    .collect();
                let (mut pre, mut pre_neg) = (Vec::new(), Vec::new());
                self.literals(
                    &action.precondition,
                    &mut binding,
                    &fact_of,
                    &mut pre,
                    &mut pre_neg,
                )?;
                let Some(pre) = pre.into_iter().collect::<Option<Vec<FactId>>>() else {
                    continue;
                };
                let (mut add, mut del, mut cost) = (Vec::new(), Vec::new(), 0);
                let mut has_cost = false;
                self.effect_facts(
                    &action.effects,
                    &mut binding,
                    &fact_of,
                    &mut add,
                    &mut del,
                    &mut cost,
                    &mut has_cost,
                )?;
                let cost = if self.uses_costs { cost } else { 1 };
                let mut name = format!("({}", action.name);
                for &o in values {
                    name.push(' ');
                    name.push_str(&self.objects[o as usize]);
                }
                name.push(')');
                operators.push(Operator::new(name, pre, pre_neg, add, del, cost));
            }
        }
        let mut goal = Vec::new();
        let mut binding = HashMap::new();
        let problem = self.problem;
        self.goal_facts(
            &problem.goal,
            &mut binding,
            &mut facts,
            &mut fact_of,
            &mut goal,
        )?;
        let init: Vec<FactId> = problem
            .init
            .iter()
            .filter_map(|a| self.ground_atom(a, &HashMap::new()))
            .filter_map(|k| fact_of.get(&k).copied())
            .collect();
        let mut init = init;
        init.sort_unstable();
        init.dedup();
        goal.sort_unstable();
        goal.dedup();
        // What cannot matter to the goal goes (Fast Downward's and pyperplan's relevance
        // analysis).
        let task = Task {
            facts,
            unit_costs: operators.iter().all(|op| op.cost == 1),
            operators,
            init,
            goal,
        };
        // Operators needing two facts no reachable state holds together go (h^2 mutexes, as
        // Fast Downward's translator drops them by its mutex groups), then what no operator
        // left needs.
        let (task, _) = super::mutex::without_impossible_operators(task);
        Ok(super::super::relevance::relevant(task).0)
    }

    /// The precondition's fluent literals: positive ones (`None` when one cannot be
    /// reached, so the operator never applies) and negative ones that can be true.
    fn literals<'b>(
        &self,
        f: &'b Formula,
        binding: &mut HashMap<&'b str, Obj>,
        fact_of: &HashMap<Key, FactId>,
        pre: &mut Vec<Option<FactId>>,
        pre_neg: &mut Vec<FactId>,
    ) -> Result<(), GroundError> {
        match f {
            Formula::And(parts) => {
                for p in parts {
                    self.literals(p, binding, fact_of, pre, pre_neg)?;
                }
            }
            Formula::Atom(a) => {
                if let Some(key) = self.ground_atom(a, binding)
                    && self.fluent[key[0] as usize]
                {
                    pre.push(fact_of.get(&key).copied());
                }
            }
            Formula::NotAtom(a) => {
                if let Some(key) = self.ground_atom(a, binding)
                    && let Some(&f) = fact_of.get(&key)
                {
                    pre_neg.push(f);
                }
            }
            Formula::Equal(..) => {}
            Formula::Forall(vars, body) => {
                for values in self.assignments(vars)? {
                    for (v, o) in vars.iter().zip(&values) {
                        binding.insert(v.name.as_str(), *o);
                    }
                    // Static parts of the body were checked in `holds_relaxed`.
                    self.literals(body, binding, fact_of, pre, pre_neg)?;
                }
                for v in vars {
                    binding.remove(v.name.as_str());
                }
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn effect_facts<'b>(
        &self,
        effects: &'b [Effect],
        binding: &mut HashMap<&'b str, Obj>,
        fact_of: &HashMap<Key, FactId>,
        add: &mut Vec<FactId>,
        del: &mut Vec<FactId>,
        cost: &mut u64,
        has_cost: &mut bool,
    ) -> Result<(), GroundError> {
        for e in effects {
            match e {
                Effect::Add(a) => {
                    let key = self.ground_atom(a, binding).ok_or_else(|| unknown(a))?;
                    if let Some(&f) = fact_of.get(&key) {
                        add.push(f);
                    }
                }
                Effect::Del(a) => {
                    let key = self.ground_atom(a, binding).ok_or_else(|| unknown(a))?;
                    if let Some(&f) = fact_of.get(&key) {
                        del.push(f);
                    }
                }
                Effect::Forall(vars, inner) => {
                    for values in self.assignments(vars)? {
                        for (v, o) in vars.iter().zip(&values) {
                            binding.insert(v.name.as_str(), *o);
                        }
                        self.effect_facts(inner, binding, fact_of, add, del, cost, has_cost)?;
                    }
                    for v in vars {
                        binding.remove(v.name.as_str());
                    }
                }
                Effect::Cost(CostTerm::Number(n)) => {
                    *cost += n;
                    *has_cost = true;
                }
                Effect::Cost(CostTerm::Function(f, args)) => {
                    let ground: Option<Vec<String>> = args
                        .iter()
                        .map(|t| {
                            self.term(t, binding)
                                .map(|o| self.objects[o as usize].clone())
                        })
                        .collect();
                    let ground = ground.unwrap_or_default();
                    let Some(&v) = self
                        .problem
                        .function_values
                        .get(&(f.clone(), ground.clone()))
                    else {
                        if !self.uses_costs {
                            continue;
                        }
                        return Err(GroundError::Unsupported(format!(
                            "the cost ({f} {}) has no value in the problem's :init",
                            ground.join(" ")
                        )));
                    };
                    *cost += v;
                    *has_cost = true;
                }
            }
        }
        Ok(())
    }

    /// The goal's facts; a goal atom that cannot be reached becomes a fact no operator adds
    /// (the task is then unsolvable, as it should be), a static one true at the start is
    /// dropped.
    fn goal_facts<'b>(
        &self,
        f: &'b Formula,
        binding: &mut HashMap<&'b str, Obj>,
        facts: &mut Vec<String>,
        fact_of: &mut HashMap<Key, FactId>,
        goal: &mut Vec<FactId>,
    ) -> Result<(), GroundError> {
        match f {
            Formula::And(parts) => {
                for p in parts {
                    self.goal_facts(p, binding, facts, fact_of, goal)?;
                }
            }
            Formula::Atom(a) => {
                let key = self.ground_atom(a, binding).ok_or_else(|| unknown(a))?;
                if !self.fluent[key[0] as usize] && self.static_true.contains(&key) {
                    return Ok(());
                }
                let f = match fact_of.get(&key) {
                    Some(&f) => f,
                    None => {
                        let f = facts.len() as FactId;
                        facts.push(self.name_of(&key));
                        fact_of.insert(key, f);
                        f
                    }
                };
                goal.push(f);
            }
            Formula::NotAtom(a) => {
                return Err(GroundError::Unsupported(format!(
                    "a negative goal, (not ({} ...)), is not supported",
                    a.predicate
                )));
            }
            Formula::Equal(a, b, equal) => {
                if (self.term(a, binding) == self.term(b, binding)) != *equal {
                    return Err(GroundError::Unsupported(
                        "the goal asks for an equality that is false".into(),
                    ));
                }
            }
            Formula::Forall(vars, body) => {
                for values in self.assignments(vars)? {
                    for (v, o) in vars.iter().zip(&values) {
                        binding.insert(v.name.as_str(), *o);
                    }
                    self.goal_facts(body, binding, facts, fact_of, goal)?;
                }
                for v in vars {
                    binding.remove(v.name.as_str());
                }
            }
        }
        Ok(())
    }
}
