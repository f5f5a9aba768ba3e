//! Relevance analysis: the facts and operators that can matter to the goal, the rest taken
//! out of a grounded task (as Fast Downward's translator and pyperplan's grounding do: Helmert,
//! "Concise finite-domain representations for PDDL planning tasks", AIJ 2009, section 6).
//!
//! Backwards from the goal: a goal fact is relevant; an operator is relevant when it adds or
//! deletes a relevant fact; the facts of a relevant operator's preconditions (positive and
//! negative) are relevant. What is not reached this way can change nothing a plan needs: an
//! irrelevant operator touches only irrelevant facts, and no relevant operator's precondition
//! nor the goal reads an irrelevant fact. So every plan of the reduced task is a plan of the
//! original with the same cost, and an optimal one stays optimal. Without it a satellite task
//! searched every combination of images nobody asked for (IPC satellite task02: 770,791 states
//! expanded by BFS where pyperplan and Fast Downward, which prune them, expand under 2,000).

use super::task::{FactId, Operator, Task};

/// What [`relevant`] took out: the facts and operators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Facts no plan needs.
    pub facts: usize,
    /// Operators that touch only such facts.
    pub operators: usize,
}

/// `task` with its irrelevant facts and operators taken out (see the module docs); facts are
/// numbered anew in their old order.
pub fn relevant(task: Task) -> (Task, Pruned) {
    let n = task.facts.len();
    // For each fact, the operators adding or deleting it.
    let mut touching: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, op) in task.operators.iter().enumerate() {
        for &f in op.add.iter().chain(&op.del) {
            touching[f as usize].push(i as u32);
        }
    }
    let mut fact_relevant = vec![false; n];
    let mut op_relevant = vec![false; task.operators.len()];
    let mut work: Vec<FactId> = Vec::new();
    for &g in &task.goal {
        if !std::mem::replace(&mut fact_relevant[g as usize], true) {
            work.push(g);
        }
    }
    while let Some(f) = work.pop() {
        for &op in &touching[f as usize] {
            if std::mem::replace(&mut op_relevant[op as usize], true) {
                continue;
            }
            let o = &task.operators[op as usize];
            for &p in o.pre.iter().chain(&o.pre_neg) {
                if !std::mem::replace(&mut fact_relevant[p as usize], true) {
                    work.push(p);
                }
            }
        }
    }
    let pruned = Pruned {
        facts: fact_relevant.iter().filter(|&&r| !r).count(),
        operators: op_relevant.iter().filter(|&&r| !r).count(),
    };
    if pruned == Pruned::default() {
        return (task, pruned);
    }
    let mut new_id = vec![None; n];
    let mut facts = Vec::with_capacity(n - pruned.facts);
    for (f, name) in task.facts.into_iter().enumerate() {
        if fact_relevant[f] {
            new_id[f] = Some(facts.len() as FactId);
            facts.push(name);
        }
    }
    let map = |list: &[FactId]| -> Vec<FactId> {
        list.iter().filter_map(|&f| new_id[f as usize]).collect()
    };
    let operators: Vec<Operator> = task
        .operators
        .into_iter()
        .zip(op_relevant)
        .filter(|(_, r)| *r)
        .map(|(o, _)| {
            let (pre, pre_neg, add, del) = (map(&o.pre), map(&o.pre_neg), map(&o.add), map(&o.del));
            Operator::new(o.name, pre, pre_neg, add, del, o.cost)
        })
        .collect();
    let reduced = Task {
        facts,
        unit_costs: operators.iter().all(|op| op.cost == 1),
        operators,
        init: map(&task.init),
        goal: map(&task.goal),
    };
    (reduced, pruned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_nobody_needs_and_the_operators_touching_only_them_are_taken_out() {
        // (photo) adds (picture), which neither the goal nor any precondition reads; (walk)
        // reaches the goal through (at b), needing (at a).
        let mut b = Task::builder();
        b.operator("(walk)", &["(at a)"], &[], &["(at b)"], &["(at a)"], 1);
        b.operator("(photo)", &["(at a)"], &[], &["(picture)"], &[], 1);
        b.operator("(back)", &["(at b)"], &[], &["(at a)"], &["(at b)"], 1);
        b.init(&["(at a)"]);
        b.goal(&["(at b)"]);
        let (t, pruned) = relevant(b.build());
        assert_eq!(
            pruned,
            Pruned {
                facts: 1,
                operators: 1
            }
        );
        assert!(t.fact("(picture)").is_none());
        let names: Vec<&str> = t.operators.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["(walk)", "(back)"]);
        assert!(t.validate().is_ok(), "{:?}", t.validate());
        assert_eq!(t.init, [t.fact("(at a)").unwrap()]);
        assert_eq!(t.goal, [t.fact("(at b)").unwrap()]);
        // Gripper needs every fact it has.
        let (g, pruned) = relevant(Task::example_gripper(2));
        assert_eq!(pruned, Pruned::default());
        assert_eq!(g.facts.len(), Task::example_gripper(2).facts.len());
    }
}
