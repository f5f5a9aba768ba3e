//! LM-cut (Helmert and Domshlak, "Landmarks, critical paths and abstractions: what's the
//! difference anyway?", ICAPS 2009): an admissible heuristic that sums the costs of
//! disjunctive action landmarks, each found as a cut of the justification graph.
//!
//! Each round computes h^max with the current (reduced) operator costs, gives every operator
//! its precondition choice (a precondition of highest h^max), and draws the justification
//! graph: an edge from the choice to each add effect, weighted by the operator's cost. The goal
//! zone is what reaches the goal through zero-cost edges; the cut is the operators leading from
//! what the state reaches outside the zone into it. The cut's least cost is added to the value
//! and taken off every operator of the cut, until h^max of the goal is 0. A goal unreachable
//! even without deletes is a dead end, valued infinity.
//!
//! An artificial fact true in every state stands for the preconditions of operators that have
//! none, and an artificial goal operator (cost 0) needs every goal fact, so that the goal is one
//! fact.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::task::{FactId, Task};
use crate::search::Cost;

const UNREACHED: u64 = u64::MAX;

/// The task's operators indexed for LM-cut: preconditions (with the artificial facts), adds.
#[derive(Clone, Debug)]
pub struct LmCut {
    /// Facts of the task, then the artificial start fact, then the artificial goal fact.
    facts: usize,
    /// Each operator's preconditions (the start fact for one with none); the last operator is
    /// the artificial goal operator.
    pre: Vec<Vec<u32>>,
    /// Each operator's add effects.
    add: Vec<Vec<u32>>,
    /// Each operator's cost.
    cost: Vec<u64>,
    /// For each fact, the operators with it among their preconditions.
    pre_of: Vec<Vec<u32>>,
    /// For each fact, the operators adding it.
    add_of: Vec<Vec<u32>>,
}

impl LmCut {
    /// The index of `task`.
    pub fn new(task: &Task) -> Self {
        let n = task.facts.len();
        let (start, goal) = (n as u32, n as u32 + 1);
        let mut pre: Vec<Vec<u32>> = Vec::with_capacity(task.operators.len() + 1);
        let mut add: Vec<Vec<u32>> = Vec::with_capacity(task.operators.len() + 1);
        let mut cost = Vec::with_capacity(task.operators.len() + 1);
        for op in &task.operators {
            pre.push(if op.pre.is_empty() {
                vec![start]
            } else {
                op.pre.clone()
            });
            add.push(op.add.clone());
            cost.push(op.cost);
        }
        pre.push(if task.goal.is_empty() {
            vec![start]
        } else {
            task.goal.clone()
        });
        add.push(vec![goal]);
        cost.push(0);
        let facts = n + 2;
        let mut pre_of = vec![Vec::new(); facts];
        let mut add_of = vec![Vec::new(); facts];
        for (i, (p, a)) in pre.iter().zip(&add).enumerate() {
            for &f in p {
                pre_of[f as usize].push(i as u32);
            }
            for &f in a {
                add_of[f as usize].push(i as u32);
            }
        }
        Self {
            facts,
            pre,
            add,
            cost,
            pre_of,
            add_of,
        }
    }

    /// LM-cut's value of the state holding the facts `holds` says.
    pub fn value(&self, holds: impl Fn(FactId) -> bool) -> Cost {
        let n = self.facts - 2;
        let (start, goal) = (n, n + 1);
        let ops = self.pre.len();
        let mut cost = self.cost.clone();
        let mut hmax = vec![UNREACHED; self.facts];
        let mut choice = vec![u32::MAX; ops];
        let mut waiting = vec![0u32; ops];
        let mut in_zone = vec![false; self.facts];
        let mut reached = vec![false; self.facts];
        let mut total = 0u64;
        loop {
            // h^max with the current costs, each operator's choice its last precondition
            // reached (the dearest: facts leave the queue in order of cost).
            hmax.fill(UNREACHED);
            choice.fill(u32::MAX);
            for (w, p) in waiting.iter_mut().zip(&self.pre) {
                *w = p.len() as u32;
            }
            let mut heap = BinaryHeap::new();
            for (f, h) in hmax.iter_mut().enumerate().take(n) {
                if holds(f as FactId) {
                    *h = 0;
                    heap.push(Reverse((0u64, f as u32)));
                }
            }
            hmax[start] = 0;
            heap.push(Reverse((0, start as u32)));
            while let Some(Reverse((c, f))) = heap.pop() {
                if c > hmax[f as usize] {
                    continue;
                }
                for &op in &self.pre_of[f as usize] {
                    let o = op as usize;
                    waiting[o] -= 1;
                    if waiting[o] == 0 {
                        choice[o] = f;
                        let reach = c.saturating_add(cost[o]);
                        for &a in &self.add[o] {
                            if reach < hmax[a as usize] {
                                hmax[a as usize] = reach;
                                heap.push(Reverse((reach, a)));
                            }
                        }
                    }
                }
            }
            match hmax[goal] {
                UNREACHED => return Cost::INFINITY,
                0 => return total as Cost,
                _ => {}
            }
            // The goal zone: what reaches the goal through zero-cost edges.
            in_zone.fill(false);
            in_zone[goal] = true;
            let mut stack = vec![goal as u32];
            while let Some(e) = stack.pop() {
                for &op in &self.add_of[e as usize] {
                    let o = op as usize;
                    if cost[o] == 0 && choice[o] != u32::MAX {
                        let c = choice[o] as usize;
                        if !in_zone[c] {
                            in_zone[c] = true;
                            stack.push(c as u32);
                        }
                    }
                }
            }
            // What the state reaches outside the zone, and the cut: the operators from there
            // into the zone.
            reached.fill(false);
            let mut stack: Vec<u32> = (0..n)
                .filter(|&f| holds(f as FactId))
                .map(|f| f as u32)
                .chain([start as u32])
                .collect();
            for &f in &stack {
                reached[f as usize] = true;
            }
            let mut cut = Vec::new();
            while let Some(f) = stack.pop() {
                for &op in &self.pre_of[f as usize] {
                    let o = op as usize;
                    if choice[o] != f {
                        continue;
                    }
                    let mut into_zone = false;
                    for &a in &self.add[o] {
                        if in_zone[a as usize] {
                            into_zone = true;
                        } else if !reached[a as usize] {
                            reached[a as usize] = true;
                            stack.push(a);
                        }
                    }
                    if into_zone {
                        cut.push(o);
                    }
                }
            }
            cut.sort_unstable();
            cut.dedup();
            let least = cut.iter().map(|&o| cost[o]).min().unwrap_or(0);
            if least == 0 {
                // Cannot happen with h^max(goal) > 0 (a cut of zero-cost operators would put
                // their choices in the zone); stop rather than loop.
                return total as Cost;
            }
            total = total.saturating_add(least);
            for o in cut {
                cost[o] -= least;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LM-cut's value at the initial state (`tests/it/planning.rs` compares it with h^max
    /// and h* over whole spaces).
    fn at_init(task: &Task) -> Cost {
        let init = task.init_flags();
        LmCut::new(task).value(|f| init[f as usize])
    }

    #[test]
    fn lm_cut_finds_the_landmarks_of_gripper_and_tea() {
        // Gripper with 2 balls: h* = 5 and h^max = 2; each ball needs a pick and a drop (4
        // landmarks of cost 1) and the robot a move: LM-cut finds all 5.
        assert_eq!(at_init(&Task::example_gripper(2)), 5.0);
        // Tea: boil (3) then pour (2), both landmarks.
        assert_eq!(at_init(&Task::example_tea()), 5.0);
    }

    #[test]
    fn a_dead_end_is_infinite_and_a_goal_state_zero() {
        let mut b = Task::builder();
        b.operator("(a)", &["(x)"], &[], &["(y)"], &[], 1);
        b.init(&["(y)"]);
        b.goal(&["(z)"]);
        assert_eq!(at_init(&b.build()), Cost::INFINITY);
        let mut b = Task::builder();
        b.operator("(a)", &[], &[], &["(y)"], &[], 1);
        b.init(&["(y)"]);
        b.goal(&["(y)"]);
        assert_eq!(at_init(&b.build()), 0.0);
    }
}
