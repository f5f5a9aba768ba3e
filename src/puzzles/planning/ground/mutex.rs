//! Mutexes by h^2 reachability, and the operators they show can never apply.
//!
//! Relaxed reachability (the grounding's) keeps every operator whose preconditions can each
//! become true, one at a time. Some need two facts that no reachable state holds together:
//! in IPC depot, `(drop h c c p)` needs a crate to be lifted and clear at once. Such an
//! operator never applies, but the delete relaxation can use it, which weakens h^max, h^FF
//! and LM-cut (on depot task03, A* with LM-cut expanded 40,998 states against Fast
//! Downward's 7,543 on a task its translator had rid of them by its mutex groups).
//!
//! h^2 (Haslum and Geffner, "Admissible heuristics for optimal planning", AIPS 2000) finds the
//! pairs of facts that can be true together: the initial state's pairs, then, for each
//! operator whose preconditions are pairwise reachable, its add effects' pairs, and each add
//! effect with every fact `q` it does not delete that is reachable together with each of its
//! preconditions (so `q` can hold in a state the operator applies in, and stays). What is never
//! reached is a mutex; an operator with two mutex preconditions is taken out (Alcázar and
//! Torralba, "A reminder about the importance of computing and exploiting invariants in
//! planning", ICAPS 2015, measure what this gains). Negative preconditions are left out of
//! the reasoning, which only allows more pairs: every pair of a reachable state is found, so no
//! operator that can apply is ever taken out.
//!
//! The pairs are a bit matrix, a row a fact: `n` facts take `n * n / 8` bytes, and a pass over
//! the operators ANDs and ORs rows. Tasks larger than [`MAX_FACTS`] facts, or whose passes would
//! take more than [`MAX_WORK`] row words, are left as they are (no pruning, never a wrong one).

use super::super::task::{FactId, Operator, Task};

/// The largest task (in facts) analysed: 16,384 facts make a 32 MiB matrix.
pub const MAX_FACTS: usize = 16_384;

/// The most row words (64 facts each) the analysis reads and writes in all its passes,
/// about a second's work; a task needing more is left unpruned.
pub const MAX_WORK: u64 = 1_000_000_000;

/// The pairs of facts that h^2 finds can hold together, as a symmetric bit matrix.
pub struct Pairs {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl Pairs {
    fn new(n: usize) -> Self {
        let words = n.div_ceil(64);
        Self {
            n,
            words,
            bits: vec![0; n * words],
        }
    }

    fn row(&self, f: FactId) -> &[u64] {
        let at = f as usize * self.words;
        &self.bits[at..at + self.words]
    }

    /// Whether facts `p` and `q` can be true together (`p == q`: whether `p` can be true).
    pub fn together(&self, p: FactId, q: FactId) -> bool {
        self.row(p)[q as usize / 64] >> (q % 64) & 1 == 1
    }

    /// Marks `p` and `q` as reachable together; whether that is new.
    fn set(&mut self, p: FactId, q: FactId) -> bool {
        let mut new = false;
        for (a, b) in [(p, q), (q, p)] {
            let w = &mut self.bits[a as usize * self.words + b as usize / 64];
            let bit = 1u64 << (b % 64);
            new |= *w & bit == 0;
            *w |= bit;
        }
        new
    }

    /// Whether every pair of `facts` (each with itself included) can hold together.
    fn all_together(&self, facts: &[FactId]) -> bool {
        facts
            .iter()
            .enumerate()
            .all(|(i, &p)| facts[i..].iter().all(|&q| self.together(p, q)))
    }
}

/// The h^2 pairs of `task` (see the module docs), or `None` when the task is larger than
/// [`MAX_FACTS`] or the passes would exceed [`MAX_WORK`].
pub fn pairs(task: &Task) -> Option<Pairs> {
    let n = task.facts.len();
    if n > MAX_FACTS {
        return None;
    }
    let mut pairs = Pairs::new(n);
    for (i, &p) in task.init.iter().enumerate() {
        for &q in &task.init[i..] {
            pairs.set(p, q);
        }
    }
    let per_pass: u64 = task
        .operators
        .iter()
        .map(|o| (o.pre.len() + 2 * o.add.len() + 1) as u64 * pairs.words as u64)
        .sum();
    let mut work = 0u64;
    let mut applicable = vec![false; task.operators.len()];
    let mut candidates = vec![0u64; pairs.words];
    let mut changed = true;
    while changed {
        changed = false;
        work += per_pass;
        if work > MAX_WORK {
            return None;
        }
        for (i, op) in task.operators.iter().enumerate() {
            if !applicable[i] {
                if !pairs.all_together(&op.pre) {
                    continue;
                }
                applicable[i] = true;
            }
            changed |= apply(&mut pairs, op, &mut candidates);
        }
    }
    Some(pairs)
}

/// One operator's new pairs (it applies): its add effects with each other, and with each fact
/// reachable together with all its preconditions that it neither adds nor deletes. Whether a
/// pair was new.
fn apply(pairs: &mut Pairs, op: &Operator, candidates: &mut [u64]) -> bool {
    let mut changed = false;
    for (i, &p) in op.add.iter().enumerate() {
        for &q in &op.add[i..] {
            changed |= pairs.set(p, q);
        }
    }
    // The facts that can hold where the operator applies: the diagonal (reachable facts)
    // when it has no precondition, else those together with every precondition.
    if let Some((&first, rest)) = op.pre.split_first() {
        candidates.copy_from_slice(pairs.row(first));
        for &r in rest {
            for (c, w) in candidates.iter_mut().zip(pairs.row(r)) {
                *c &= w;
            }
        }
    } else {
        candidates.fill(0);
        for f in 0..pairs.n as FactId {
            if pairs.together(f, f) {
                candidates[f as usize / 64] |= 1 << (f % 64);
            }
        }
    }
    for &f in op.del.iter().chain(&op.add) {
        candidates[f as usize / 64] &= !(1 << (f % 64));
    }
    for &p in &op.add {
        let at = p as usize * pairs.words;
        let row = &mut pairs.bits[at..at + pairs.words];
        let mut grew = false;
        for (w, c) in row.iter_mut().zip(candidates.iter()) {
            grew |= *c & !*w != 0;
            *w |= c;
        }
        if !grew {
            continue;
        }
        changed = true;
        // The matrix stays symmetric: each candidate's row gets `p`.
        for (wi, &c) in candidates.iter().enumerate() {
            let mut bits = c;
            while bits != 0 {
                let q = (wi * 64 + bits.trailing_zeros() as usize) as FactId;
                bits &= bits - 1;
                pairs.bits[q as usize * pairs.words + p as usize / 64] |= 1 << (p % 64);
            }
        }
    }
    changed
}

/// `task` without the operators whose preconditions h^2 finds cannot hold together (see
/// the module docs), and how many went; the task unchanged, and 0, when it is too large to
/// analyse. The facts stay (relevance analysis takes out those no operator left needs).
pub fn without_impossible_operators(mut task: Task) -> (Task, usize) {
    let Some(pairs) = pairs(&task) else {
        return (task, 0);
    };
    let before = task.operators.len();
    task.operators.retain(|o| pairs.all_together(&o.pre));
    task.unit_costs = task.operators.iter().all(|op| op.cost == 1);
    let gone = before - task.operators.len();
    (task, gone)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hoist that lifts crate c off the floor and drops it on the floor again; relaxed
    /// reachability also allows dropping c on itself (c lifted and clear at once), which h^2
    /// finds impossible.
    fn hoist() -> Task {
        let mut b = Task::builder();
        let pre_lift = ["(available)", "(on c floor)", "(clear c)"];
        let add_lift = ["(lifting c)", "(clear floor)"];
        let del_lift = ["(available)", "(on c floor)", "(clear c)"];
        b.operator("(lift c floor)", &pre_lift, &[], &add_lift, &del_lift, 1);
        let pre = ["(lifting c)", "(clear floor)"];
        let add = ["(available)", "(on c floor)", "(clear c)"];
        b.operator(
            "(drop c floor)",
            &pre,
            &[],
            &add,
            &["(lifting c)", "(clear floor)"],
            1,
        );
        let pre = ["(lifting c)", "(clear c)"];
        let add = ["(available)", "(on c c)"];
        b.operator(
            "(drop c c)",
            &pre,
            &[],
            &add,
            &["(lifting c)", "(clear c)"],
            1,
        );
        b.init(&["(available)", "(on c floor)", "(clear c)"]);
        b.goal(&["(on c c)"]);
        b.build()
    }

    #[test]
    fn an_operator_needing_two_facts_never_true_together_is_taken_out() {
        let task = hoist();
        let pairs = pairs(&task).unwrap();
        let f = |name: &str| task.fact(name).unwrap();
        assert!(!pairs.together(f("(lifting c)"), f("(clear c)")));
        assert!(pairs.together(f("(lifting c)"), f("(clear floor)")));
        assert!(pairs.together(f("(on c floor)"), f("(clear c)")));
        // Every fact is reachable by itself but the one only the impossible drop adds.
        let alone: Vec<&str> = (0..task.facts.len() as FactId)
            .filter(|&p| !pairs.together(p, p))
            .map(|p| task.facts[p as usize].as_str())
            .collect();
        assert_eq!(alone, ["(on c c)"]);
        let (pruned, gone) = without_impossible_operators(task);
        assert_eq!(gone, 1);
        let names: Vec<&str> = pruned.operators.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["(lift c floor)", "(drop c floor)"]);
        assert!(pruned.validate().is_ok());
    }

    #[test]
    fn every_pair_of_every_reachable_state_is_found() {
        // Gripper's whole space, walked with deletes: each state's pairs are h^2 pairs, and
        // no operator goes.
        let task = Task::example_gripper(3);
        let pairs = pairs(&task).unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut work = vec![task.init.clone()];
        while let Some(state) = work.pop() {
            if !seen.insert(state.clone()) {
                continue;
            }
            for (i, &p) in state.iter().enumerate() {
                for &q in &state[i..] {
                    assert!(
                        pairs.together(p, q),
                        "{} {}",
                        task.facts[p as usize],
                        task.facts[q as usize]
                    );
                }
            }
            for op in &task.operators {
                if op.pre.iter().all(|f| state.binary_search(f).is_ok()) {
                    let mut next: Vec<FactId> = state
                        .iter()
                        .copied()
                        .filter(|f| !op.del.contains(f))
                        .collect();
                    next.extend(&op.add);
                    next.sort_unstable();
                    next.dedup();
                    work.push(next);
                }
            }
        }
        assert!(seen.len() > 10);
        assert_eq!(without_impossible_operators(task.clone()).1, 0);
    }
}
