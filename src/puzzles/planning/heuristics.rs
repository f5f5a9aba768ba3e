//! The planning heuristics on a grounded [`Task`]: goal count, and the delete relaxation's
//! h^max, h^add and h^FF.
//!
//! - Goal count: the goal facts not yet true (not admissible: one operator may add several).
//! - h^max (Bonet and Geffner, "Planning as heuristic search", AIJ 2001): a fact costs the
//!   cheapest operator adding it plus the dearest of that operator's preconditions; the state's
//!   value is its dearest goal fact. Admissible and consistent.
//! - h^add (the same paper): as h^max with the preconditions' costs summed; not admissible.
//! - h^FF (Hoffmann and Nebel, "The FF planning system", JAIR 2001): the cost of a relaxed
//!   plan read back from h^add's best supporters (the cheapest operator achieving each fact);
//!   not admissible.
//!
//! All three relaxed values are computed by one Dijkstra-style exploration of the facts from
//! the state (Liu, Koenig and Furcy's generalized Dijkstra, as in Fast Downward's
//! `relaxation_heuristic`), each operator waiting until its last precondition is reached.
//! A state from which the goal is unreachable even without deletes (a dead end) is valued
//! `Cost::INFINITY` by every relaxed heuristic.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::task::{FactId, Task};
use crate::search::Cost;

/// Which heuristic a planning search uses.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Heuristic {
    /// No heuristic (0 everywhere): blind search.
    Blind,
    /// The goal facts not yet true.
    GoalCount,
    /// h^max: admissible.
    #[default]
    Hmax,
    /// h^add.
    Hadd,
    /// h^FF.
    Hff,
    /// LM-cut ([`super::lmcut`]): admissible.
    LmCut,
}

impl Heuristic {
    /// Every heuristic, in the order the options list them.
    pub const ALL: [Heuristic; 6] = [
        Heuristic::Blind,
        Heuristic::GoalCount,
        Heuristic::Hmax,
        Heuristic::LmCut,
        Heuristic::Hadd,
        Heuristic::Hff,
    ];

    /// The option value: `blind`, `goalcount`, `hmax`, `lmcut`, `hadd` or `hff`.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Blind => "blind",
            Heuristic::GoalCount => "goalcount",
            Heuristic::Hmax => "hmax",
            Heuristic::Hadd => "hadd",
            Heuristic::Hff => "hff",
            Heuristic::LmCut => "lmcut",
        }
    }

    /// Parses an option value; `ff` is read as `hff` (pyperplan's and Fast Downward's name).
    pub fn from_name(name: &str) -> Option<Heuristic> {
        let name = if name == "ff" { "hff" } else { name };
        Self::ALL.into_iter().find(|h| h.name() == name)
    }

    /// Whether it never overestimates the cost to the goal.
    pub fn is_admissible(self) -> bool {
        matches!(self, Heuristic::Blind | Heuristic::Hmax | Heuristic::LmCut)
    }

    /// In words, for the side panel and reports.
    pub fn describe(self) -> &'static str {
        match self {
            Heuristic::Blind => "none (blind search)",
            Heuristic::GoalCount => "goal facts not yet true",
            Heuristic::Hmax => "h^max: the dearest goal fact of the delete relaxation",
            Heuristic::Hadd => "h^add: the goal facts' relaxed costs summed",
            Heuristic::Hff => "h^FF: the cost of a relaxed plan",
            Heuristic::LmCut => "LM-cut: the costs of landmark cuts summed",
        }
    }
}

/// The task's operators as the relaxation reads them, indexed by precondition.
#[derive(Clone, Debug)]
pub struct Relaxation {
    /// For each fact, the operators with it among their preconditions.
    pre_of: Vec<Vec<u32>>,
    /// Each operator's precondition count.
    pre_len: Vec<u32>,
    /// The operators with no precondition.
    no_pre: Vec<u32>,
}

/// The relaxed exploration's result for one state.
#[derive(Clone, Debug, Default)]
pub struct Layers {
    /// Each fact's cost (h^max or h^add as asked); `u64::MAX` for a fact never reached.
    pub fact_cost: Vec<u64>,
    /// Each fact's best supporter (the operator that reached it cheapest), if any: `None`
    /// for the state's own facts and for those never reached.
    pub supporter: Vec<Option<u32>>,
}

/// The value of an unreached fact.
pub const UNREACHED: u64 = u64::MAX;

impl Relaxation {
    /// The index of `task`'s operators by precondition.
    pub fn new(task: &Task) -> Self {
        let mut pre_of = vec![Vec::new(); task.facts.len()];
        let mut no_pre = Vec::new();
        let mut pre_len = Vec::with_capacity(task.operators.len());
        for (i, op) in task.operators.iter().enumerate() {
            for &f in &op.pre {
                pre_of[f as usize].push(i as u32);
            }
            if op.pre.is_empty() {
                no_pre.push(i as u32);
            }
            pre_len.push(op.pre.len() as u32);
        }
        Self {
            pre_of,
            pre_len,
            no_pre,
        }
    }

    /// The relaxed exploration from the facts `state` holds (`holds(f)`), combining an
    /// operator's precondition costs by maximum (`sum` false: h^max) or sum (h^add).
    pub fn explore(&self, task: &Task, holds: impl Fn(FactId) -> bool, sum: bool) -> Layers {
        let n = task.facts.len();
        let mut layers = Layers {
            fact_cost: vec![UNREACHED; n],
            supporter: vec![None; n],
        };
        let mut waiting = self.pre_len.clone();
        let mut acc = vec![0u64; task.operators.len()];
        let mut heap = BinaryHeap::new();
        for f in 0..n as FactId {
            if holds(f) {
                layers.fact_cost[f as usize] = 0;
                heap.push(Reverse((0u64, f)));
            }
        }
        let fire = |op: u32,
                    base: u64,
                    heap: &mut BinaryHeap<Reverse<(u64, FactId)>>,
                    layers: &mut Layers| {
            let o = &task.operators[op as usize];
            let cost = base.saturating_add(o.cost);
            for &a in &o.add {
                if cost < layers.fact_cost[a as usize] {
                    layers.fact_cost[a as usize] = cost;
                    layers.supporter[a as usize] = Some(op);
                    heap.push(Reverse((cost, a)));
                }
            }
        };
        for &op in &self.no_pre {
            fire(op, 0, &mut heap, &mut layers);
        }
        while let Some(Reverse((cost, f))) = heap.pop() {
            if cost > layers.fact_cost[f as usize] {
                continue;
            }
            for &op in &self.pre_of[f as usize] {
                let i = op as usize;
                acc[i] = if sum {
                    acc[i].saturating_add(cost)
                } else {
                    acc[i].max(cost)
                };
                waiting[i] -= 1;
                if waiting[i] == 0 {
                    fire(op, acc[i], &mut heap, &mut layers);
                }
            }
        }
        layers
    }

    /// `heuristic`'s value of the state holding the facts `holds` says. LM-cut is computed
    /// on an index made here; a search keeps one ([`super::lmcut::LmCut`]) instead.
    pub fn value(&self, task: &Task, heuristic: Heuristic, holds: impl Fn(FactId) -> bool) -> Cost {
        match heuristic {
            Heuristic::Blind => 0.0,
            Heuristic::LmCut => super::lmcut::LmCut::new(task).value(holds),
            Heuristic::GoalCount => task.goal.iter().filter(|&&f| !holds(f)).count() as Cost,
            Heuristic::Hmax | Heuristic::Hadd => {
                let sum = heuristic == Heuristic::Hadd;
                let layers = self.explore(task, holds, sum);
                let mut h = 0u64;
                for &g in &task.goal {
                    let c = layers.fact_cost[g as usize];
                    if c == UNREACHED {
                        return Cost::INFINITY;
                    }
                    h = if sum { h.saturating_add(c) } else { h.max(c) };
                }
                h as Cost
            }
            Heuristic::Hff => {
                let layers = self.explore(task, &holds, true);
                match relaxed_plan(task, &layers) {
                    Some(plan) => plan
                        .iter()
                        .map(|&op| task.operators[op as usize].cost)
                        .sum::<u64>() as Cost,
                    None => Cost::INFINITY,
                }
            }
        }
    }
}

/// A relaxed plan read back from `layers`' best supporters: the operators, each once, that
/// reach the goal when deletes are ignored; `None` when a goal fact is unreached.
pub fn relaxed_plan(task: &Task, layers: &Layers) -> Option<Vec<u32>> {
    let mut marked = vec![false; task.facts.len()];
    let mut used = vec![false; task.operators.len()];
    let mut plan = Vec::new();
    let mut stack: Vec<FactId> = task.goal.clone();
    while let Some(f) = stack.pop() {
        if std::mem::replace(&mut marked[f as usize], true) {
            continue;
        }
        if layers.fact_cost[f as usize] == UNREACHED {
            return None;
        }
        let Some(op) = layers.supporter[f as usize] else {
            continue;
        };
        if !std::mem::replace(&mut used[op as usize], true) {
            plan.push(op);
            stack.extend(task.operators[op as usize].pre.iter().copied());
        }
    }
    Some(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_at_init(task: &Task, h: Heuristic) -> Cost {
        let init = task.init_flags();
        Relaxation::new(task).value(task, h, |f| init[f as usize])
    }

    #[test]
    fn the_relaxed_heuristics_have_their_textbook_values_on_gripper_and_tea() {
        // Gripper, 2 balls: h* = 5. h^max: a ball in room B needs (move a b) and a pick, both
        // from the start: max(1, 1) + 1 = 2. h^add: each goal ball costs pick 1 + move 1 +
        // drop 1 = 3, summed: 6. h^FF: pick, pick, move, drop, drop = 5.
        let g = Task::example_gripper(2);
        assert_eq!(value_at_init(&g, Heuristic::Hmax), 2.0);
        assert_eq!(value_at_init(&g, Heuristic::Hadd), 6.0);
        assert_eq!(value_at_init(&g, Heuristic::Hff), 5.0);
        assert_eq!(value_at_init(&g, Heuristic::GoalCount), 2.0);
        assert_eq!(value_at_init(&g, Heuristic::Blind), 0.0);
        // Tea: boil (3) then pour (2).
        let t = Task::example_tea();
        assert_eq!(value_at_init(&t, Heuristic::Hmax), 5.0);
        assert_eq!(value_at_init(&t, Heuristic::Hff), 5.0);
    }

    #[test]
    fn a_relaxed_dead_end_is_infinite() {
        let mut b = Task::builder();
        b.operator("(a)", &["(x)"], &[], &["(y)"], &[], 1);
        b.init(&["(y)"]);
        b.goal(&["(z)"]);
        let t = b.build();
        assert_eq!(value_at_init(&t, Heuristic::Hmax), Cost::INFINITY);
        assert_eq!(value_at_init(&t, Heuristic::Hff), Cost::INFINITY);
    }
}
