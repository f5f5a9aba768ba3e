//! The grounded planning task: facts, operators, the initial state and the goal, as numbers.
//!
//! This is the representation the search and the heuristics work on (Fast Downward's and
//! pyperplan's STRIPS task, with negative preconditions and action costs). A fact is a ground
//! atom such as `(on a b)`, named by its index in [`Task::facts`] (a [`FactId`]). A state is a
//! set of facts: those true in it (the closed-world assumption). An operator is a ground
//! action: applicable where all of `pre` are true and none of `pre_neg`; applying it deletes
//! `del` and then adds `add` (so a fact both deleted and added stays true, the add-after-delete
//! semantics of PDDL 2.1 and Fast Downward; [`Operator::new`] drops such facts from `del`).
//!
//! The delete relaxation (h^max, h^add, h^FF, LM-cut) reads `pre`, `add` and `cost` and
//! ignores `del` and `pre_neg`.

use std::collections::HashMap;

/// A fact (ground atom): its index in [`Task::facts`].
pub type FactId = u32;

/// A ground action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operator {
    /// The action as an IPC plan writes it: `(move a b)`, lower-case, arguments in the order
    /// of the action's parameters.
    pub name: String,
    /// The facts that must be true for the operator to apply; sorted, no duplicates.
    pub pre: Vec<FactId>,
    /// The facts that must be false (PDDL's negative preconditions); sorted, no duplicates.
    /// Delete-relaxation heuristics ignore them.
    pub pre_neg: Vec<FactId>,
    /// The facts made true; sorted, no duplicates.
    pub add: Vec<FactId>,
    /// The facts made false; sorted, no duplicates, none of them in `add`.
    pub del: Vec<FactId>,
    /// The cost of applying the operator (`:action-costs`' `total-cost` increase; 1 in a
    /// task without costs).
    pub cost: u64,
}

impl Operator {
    /// An operator from lists in any order: each sorted and made free of duplicates, and the
    /// facts of `add` removed from `del` (add after delete).
    pub fn new(
        name: impl Into<String>,
        pre: Vec<FactId>,
        pre_neg: Vec<FactId>,
        add: Vec<FactId>,
        mut del: Vec<FactId>,
        cost: u64,
    ) -> Self {
        let add = sorted_set(add);
        del.retain(|f| add.binary_search(f).is_err());
        Self {
            name: name.into(),
            pre: sorted_set(pre),
            pre_neg: sorted_set(pre_neg),
            add,
            del: sorted_set(del),
            cost,
        }
    }

    /// Whether the operator applies in `state`, a set of facts given as one flag per fact
    /// (`state[f]` true when fact `f` holds).
    pub fn applicable(&self, state: &[bool]) -> bool {
        self.pre.iter().all(|&f| state[f as usize])
            && self.pre_neg.iter().all(|&f| !state[f as usize])
    }

    /// Applies the operator to `state` (one flag per fact): `del` made false, then `add` true.
    /// Does not check that it applies (see [`Operator::applicable`]).
    pub fn apply(&self, state: &mut [bool]) {
        for &f in &self.del {
            state[f as usize] = false;
        }
        for &f in &self.add {
            state[f as usize] = true;
        }
    }
}

/// A grounded STRIPS task with negative preconditions and action costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// Every fact's name, `(on a b)`, lower-case; a [`FactId`] is an index in this list.
    /// Static facts (true or false in every reachable state) have been compiled away.
    pub facts: Vec<String>,
    /// The ground actions whose preconditions can become true (relaxed reachability).
    pub operators: Vec<Operator>,
    /// The facts true in the initial state; sorted, no duplicates.
    pub init: Vec<FactId>,
    /// The facts the goal asks for; sorted, no duplicates.
    pub goal: Vec<FactId>,
    /// Whether every operator costs 1 (a task without `:action-costs`, or whose costs are all 1).
    pub unit_costs: bool,
}

impl Task {
    /// The fact named `name` (`(on a b)`), if the task has it.
    pub fn fact(&self, name: &str) -> Option<FactId> {
        self.facts
            .iter()
            .position(|f| f == name)
            .map(|i| i as FactId)
    }

    /// The initial state as one flag per fact.
    pub fn init_flags(&self) -> Vec<bool> {
        let mut state = vec![false; self.facts.len()];
        for &f in &self.init {
            state[f as usize] = true;
        }
        state
    }

    /// Whether `state` (one flag per fact) satisfies the goal.
    pub fn is_goal(&self, state: &[bool]) -> bool {
        self.goal.iter().all(|&f| state[f as usize])
    }

    /// Checks the task's invariants: every fact id in range, every list sorted without
    /// duplicates, no operator deleting what it adds, `unit_costs` true exactly when every
    /// operator costs 1.
    ///
    /// # Errors
    /// The first broken invariant, named.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.facts.len();
        let check = |what: &str, list: &[FactId]| -> Result<(), String> {
            if let Some(&f) = list.iter().find(|&&f| f as usize >= n) {
                return Err(format!(
                    "{what}: fact {f} out of range (the task has {n} facts)"
                ));
            }
            if list.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("{what}: not sorted or has duplicates"));
            }
            Ok(())
        };
        check("init", &self.init)?;
        check("goal", &self.goal)?;
        for op in &self.operators {
            check(&format!("{} pre", op.name), &op.pre)?;
            check(&format!("{} pre_neg", op.name), &op.pre_neg)?;
            check(&format!("{} add", op.name), &op.add)?;
            check(&format!("{} del", op.name), &op.del)?;
            if op.del.iter().any(|f| op.add.binary_search(f).is_ok()) {
                return Err(format!("{}: deletes a fact it adds", op.name));
            }
        }
        let unit = self.operators.iter().all(|op| op.cost == 1);
        if unit != self.unit_costs {
            return Err(format!(
                "unit_costs is {} but the costs say {unit}",
                self.unit_costs
            ));
        }
        Ok(())
    }

    /// A small builder of hand-made tasks, facts named as they are first used.
    pub fn builder() -> TaskBuilder {
        TaskBuilder::default()
    }

    /// Gripper (IPC 1998) with two rooms, two grippers and `balls` balls, all in room `rooma`
    /// with the robot, to be carried to `roomb`: facts `(at-robby R)`, `(at B R)`, `(free G)`,
    /// `(carry B G)`; operators `(move R1 R2)`, `(pick B R G)`, `(drop B R G)`, each costing 1.
    /// With 2 balls the optimal plan has 5 steps; with 4, 11.
    pub fn example_gripper(balls: usize) -> Task {
        let rooms = ["rooma", "roomb"];
        let grippers = ["left", "right"];
        let balls: Vec<String> = (1..=balls).map(|i| format!("ball{i}")).collect();
        let mut b = Task::builder();
        for from in rooms {
            for to in rooms {
                if from != to {
                    b.operator(
                        &format!("(move {from} {to})"),
                        &[&format!("(at-robby {from})")],
                        &[],
                        &[&format!("(at-robby {to})")],
                        &[&format!("(at-robby {from})")],
                        1,
                    );
                }
            }
        }
        for ball in &balls {
            for room in rooms {
                for g in grippers {
                    let at = format!("(at {ball} {room})");
                    let robby = format!("(at-robby {room})");
                    let free = format!("(free {g})");
                    let carry = format!("(carry {ball} {g})");
                    b.operator(
                        &format!("(pick {ball} {room} {g})"),
                        &[&at, &robby, &free],
                        &[],
                        &[&carry],
                        &[&at, &free],
                        1,
                    );
                    b.operator(
                        &format!("(drop {ball} {room} {g})"),
                        &[&carry, &robby],
                        &[],
                        &[&at, &free],
                        &[&carry],
                        1,
                    );
                }
            }
        }
        b.init(&["(at-robby rooma)", "(free left)", "(free right)"]);
        for ball in &balls {
            b.init(&[&format!("(at {ball} rooma)")]);
            b.goal(&[&format!("(at {ball} roomb)")]);
        }
        b.build()
    }

    /// A two-step task with a negative precondition and action costs: `(boil)` needs `(water)`
    /// and not `(boiled)` (cost 3), `(pour)` needs `(boiled)` (cost 2), `(fill)` makes `(water)`
    /// (cost 1); from `(water)` the goal `(tea)` costs 5 by `(boil)`, `(pour)`.
    pub fn example_tea() -> Task {
        let mut b = Task::builder();
        b.operator("(fill)", &[], &[], &["(water)"], &[], 1);
        b.operator(
            "(boil)",
            &["(water)"],
            &["(boiled)"],
            &["(boiled)"],
            &["(water)"],
            3,
        );
        b.operator("(pour)", &["(boiled)"], &[], &["(tea)"], &["(boiled)"], 2);
        b.init(&["(water)"]);
        b.goal(&["(tea)"]);
        b.build()
    }
}

/// Builds a [`Task`] from facts named as text (see [`Task::builder`]); each new name becomes
/// the next fact.
#[derive(Debug, Default)]
pub struct TaskBuilder {
    facts: Vec<String>,
    index: HashMap<String, FactId>,
    operators: Vec<Operator>,
    init: Vec<FactId>,
    goal: Vec<FactId>,
}

impl TaskBuilder {
    /// The fact named `name`, made if new.
    pub fn fact(&mut self, name: &str) -> FactId {
        if let Some(&f) = self.index.get(name) {
            return f;
        }
        let f = self.facts.len() as FactId;
        self.facts.push(name.to_owned());
        self.index.insert(name.to_owned(), f);
        f
    }

    fn facts_of(&mut self, names: &[&str]) -> Vec<FactId> {
        names.iter().map(|n| self.fact(n)).collect()
    }

    /// Adds an operator (its lists normalised as [`Operator::new`] does).
    pub fn operator(
        &mut self,
        name: &str,
        pre: &[&str],
        pre_neg: &[&str],
        add: &[&str],
        del: &[&str],
        cost: u64,
    ) -> &mut Self {
        let (pre, pre_neg) = (self.facts_of(pre), self.facts_of(pre_neg));
        let (add, del) = (self.facts_of(add), self.facts_of(del));
        self.operators
            .push(Operator::new(name, pre, pre_neg, add, del, cost));
        self
    }

    /// Makes the facts true in the initial state.
    pub fn init(&mut self, names: &[&str]) -> &mut Self {
        let facts = self.facts_of(names);
        self.init.extend(facts);
        self
    }

    /// Adds the facts to the goal.
    pub fn goal(&mut self, names: &[&str]) -> &mut Self {
        let facts = self.facts_of(names);
        self.goal.extend(facts);
        self
    }

    /// The task: `init` and `goal` sorted without duplicates, `unit_costs` from the costs.
    pub fn build(&mut self) -> Task {
        let operators = std::mem::take(&mut self.operators);
        Task {
            facts: std::mem::take(&mut self.facts),
            unit_costs: operators.iter().all(|op| op.cost == 1),
            operators,
            init: sorted_set(std::mem::take(&mut self.init)),
            goal: sorted_set(std::mem::take(&mut self.goal)),
        }
    }
}

/// `list` sorted, duplicates removed.
fn sorted_set(mut list: Vec<FactId>) -> Vec<FactId> {
    list.sort_unstable();
    list.dedup();
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Breadth-first search over flag vectors: the optimal plan length, for the examples.
    fn bfs_length(task: &Task) -> Option<usize> {
        use std::collections::{HashSet, VecDeque};
        let start = task.init_flags();
        let mut seen = HashSet::from([start.clone()]);
        let mut queue = VecDeque::from([(start, 0)]);
        while let Some((s, d)) = queue.pop_front() {
            if task.is_goal(&s) {
                return Some(d);
            }
            for op in task.operators.iter().filter(|op| op.applicable(&s)) {
                let mut t = s.clone();
                op.apply(&mut t);
                if seen.insert(t.clone()) {
                    queue.push_back((t, d + 1));
                }
            }
        }
        None
    }

    #[test]
    fn gripper_examples_are_valid_and_have_known_optimal_lengths() {
        let two = Task::example_gripper(2);
        assert_eq!(two.validate(), Ok(()));
        assert_eq!(two.operators.len(), 2 + 2 * 2 * 2 * 2);
        assert_eq!(bfs_length(&two), Some(5));
        assert_eq!(bfs_length(&Task::example_gripper(4)), Some(11));
    }

    #[test]
    fn tea_has_a_negative_precondition_and_costs() {
        let tea = Task::example_tea();
        assert_eq!(tea.validate(), Ok(()));
        assert!(!tea.unit_costs);
        let boil = &tea.operators[1];
        assert_eq!(boil.pre_neg, vec![tea.fact("(boiled)").expect("fact")]);
        let mut s = tea.init_flags();
        assert!(boil.applicable(&s));
        boil.apply(&mut s);
        assert!(!boil.applicable(&s), "boiled already");
    }

    #[test]
    fn add_after_delete_keeps_a_fact_both_deleted_and_added() {
        let op = Operator::new("(x)", vec![2, 1, 1], vec![], vec![3, 0], vec![0, 4], 1);
        assert_eq!(op.pre, vec![1, 2]);
        assert_eq!(op.del, vec![4]);
        let mut s = vec![true, false, false, false, true];
        op.apply(&mut s);
        assert_eq!(s, vec![true, false, false, true, false]);
    }
}
