//! The relaxed planning graph of one state, as a student reads it: the layers that h^max
//! and h^FF count.
//!
//! The delete relaxation ignores what operators delete, so facts only accumulate. Layer 0 is
//! the state's facts; each later layer holds the facts first reached at the next h^max cost
//! (Bonet and Geffner, AIJ 2001: a fact costs its cheapest adder plus the dearest of that
//! adder's preconditions), with the operators that become applicable there (the dearest of
//! their preconditions is that cost). With unit costs the layers are Graphplan's fact layers
//! (Blum and Furst, AIJ 1997) as FF builds them (Hoffmann and Nebel, JAIR 2001). h^max is the
//! cost of the layer holding the last goal fact; h^FF is the cost of the relaxed plan read
//! back from h^add's best supporters ([`super::heuristics::relaxed_plan`]).

use super::heuristics::{Relaxation, UNREACHED, relaxed_plan};
use super::task::{FactId, Task};

/// One layer of a [`RelaxedGraph`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    /// The h^max cost of every fact and operator of the layer (0 for the state's facts).
    pub cost: u64,
    /// The facts first reached at this cost, in the task's fact order.
    pub facts: Vec<FactId>,
    /// The operators whose dearest precondition costs this much: first applicable here (in
    /// the relaxation), in the task's operator order.
    pub operators: Vec<u32>,
}

/// The relaxed planning graph of one state (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelaxedGraph {
    /// The layers, by cost ascending; the first is the state's own facts.
    pub layers: Vec<Layer>,
    /// h^max: the dearest goal fact's cost; `None` when a goal fact is never reached (a
    /// dead end even without deletes).
    pub hmax: Option<u64>,
    /// The relaxed plan h^FF counts (operator ids), `None` as for `hmax`.
    pub relaxed_plan: Option<Vec<u32>>,
    /// h^FF: the relaxed plan's cost.
    pub hff: Option<u64>,
    /// The goal facts never reached.
    pub unreached_goals: Vec<FactId>,
}

impl RelaxedGraph {
    /// The graph of the state holding the facts `holds` says, on `relaxation` (the index of
    /// `task`'s operators). Work: two relaxed explorations, linear in the task's size.
    pub fn of(task: &Task, relaxation: &Relaxation, holds: impl Fn(FactId) -> bool) -> Self {
        let max = relaxation.explore(task, &holds, false);
        let add = relaxation.explore(task, &holds, true);
        // Each operator's precondition cost: the dearest of its preconditions (0 with none).
        let op_cost: Vec<u64> = task
            .operators
            .iter()
            .map(|o| {
                o.pre
                    .iter()
                    .map(|&p| max.fact_cost[p as usize])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut costs: Vec<u64> = max
            .fact_cost
            .iter()
            .chain(&op_cost)
            .copied()
            .filter(|&c| c != UNREACHED)
            .collect();
        costs.sort_unstable();
        costs.dedup();
        let mut layers: Vec<Layer> = costs
            .iter()
            .map(|&cost| Layer {
                cost,
                facts: Vec::new(),
                operators: Vec::new(),
            })
            .collect();
        let layer_of = |cost: u64| costs.binary_search(&cost).ok();
        for (f, &c) in max.fact_cost.iter().enumerate() {
            if let Some(i) = layer_of(c) {
                layers[i].facts.push(f as FactId);
            }
        }
        for (op, &c) in op_cost.iter().enumerate() {
            if let Some(i) = layer_of(c) {
                layers[i].operators.push(op as u32);
            }
        }
        let unreached_goals: Vec<FactId> = task
            .goal
            .iter()
            .copied()
            .filter(|&g| max.fact_cost[g as usize] == UNREACHED)
            .collect();
        let reached = unreached_goals.is_empty();
        let hmax = reached.then(|| {
            task.goal
                .iter()
                .map(|&g| max.fact_cost[g as usize])
                .max()
                .unwrap_or(0)
        });
        let relaxed_plan = if reached {
            relaxed_plan(task, &add)
        } else {
            None
        };
        let hff = relaxed_plan
            .as_ref()
            .map(|p| p.iter().map(|&op| task.operators[op as usize].cost).sum());
        Self {
            layers,
            hmax,
            relaxed_plan,
            hff,
            unreached_goals,
        }
    }

    /// The index of the layer holding fact `f`, if it is reached.
    pub fn layer_of_fact(&self, f: FactId) -> Option<usize> {
        self.layers.iter().position(|l| l.facts.contains(&f))
    }
}

#[cfg(test)]
mod tests {
    use super::super::heuristics::Heuristic;
    use super::*;

    fn graph_at_init(task: &Task) -> RelaxedGraph {
        let init = task.init_flags();
        RelaxedGraph::of(task, &Relaxation::new(task), |f| init[f as usize])
    }

    #[test]
    fn gripper_has_three_layers_and_the_heuristics_read_them() {
        // Gripper with 2 balls from the start: layer 0 the start's facts; layer 1 the robot
        // in room B and each ball held (move, picks); layer 2 the balls in room B (drops
        // from room B, after the move and a pick).
        let task = Task::example_gripper(2);
        let g = graph_at_init(&task);
        assert_eq!(
            g.layers.iter().map(|l| l.cost).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        let init = task.init_flags();
        let true_now: Vec<FactId> = (0..task.facts.len() as FactId)
            .filter(|&f| init[f as usize])
            .collect();
        assert_eq!(g.layers[0].facts, true_now);
        for &goal in &task.goal {
            assert_eq!(
                g.layer_of_fact(goal),
                Some(2),
                "{}",
                task.facts[goal as usize]
            );
        }
        // Every fact sits in one layer; every operator in the layer of its dearest
        // precondition.
        let placed: usize = g.layers.iter().map(|l| l.facts.len()).sum();
        assert!(placed <= task.facts.len());
        // The heuristics' values are the graph's.
        let relax = Relaxation::new(&task);
        let value = |h| relax.value(&task, h, |f| init[f as usize]);
        assert_eq!(g.hmax.map(|v| v as f64), Some(value(Heuristic::Hmax)));
        assert_eq!(g.hff.map(|v| v as f64), Some(value(Heuristic::Hff)));
        assert_eq!(g.relaxed_plan.as_ref().map(Vec::len), Some(5));
        assert!(g.unreached_goals.is_empty());
    }

    #[test]
    fn a_relaxed_dead_end_names_its_unreached_goals() {
        let mut b = Task::builder();
        b.operator("(a)", &["(x)"], &[], &["(y)"], &[], 1);
        b.init(&["(y)"]);
        b.goal(&["(z)"]);
        let t = b.build();
        let g = graph_at_init(&t);
        assert_eq!(g.hmax, None);
        assert_eq!(g.hff, None);
        assert_eq!(g.unreached_goals.len(), 1);
        assert_eq!(g.layers.len(), 1);
    }
}
