//! h^2 mutexes (issue 59): on the first task of each of pyperplan's IPC domains (when
//! `../shared/pddl` is there), every pair of facts of every state reached from the start (up
//! to 20,000 states, walked with deletes by the test's own successor rule) is a pair h^2
//! finds reachable, so the operators taken out for needing a mutex pair never apply.

use std::collections::{HashSet, VecDeque};

use puzzlelab::puzzles::planning::Planning;
use puzzlelab::puzzles::planning::ground::mutex;
use puzzlelab::puzzles::planning::task::{FactId, Task};

/// The states reached from the start, breadth first, at most `limit` of them; each a sorted
/// list of the facts true in it.
pub(crate) fn reachable(task: &Task, limit: usize) -> Vec<Vec<FactId>> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut queue = VecDeque::from([task.init.clone()]);
    seen.insert(task.init.clone());
    while let Some(state) = queue.pop_front() {
        order.push(state.clone());
        if order.len() >= limit {
            break;
        }
        let holds = |f: &FactId| state.binary_search(f).is_ok();
        for op in &task.operators {
            if !op.pre.iter().all(holds) || op.pre_neg.iter().any(holds) {
                continue;
            }
            let mut next: Vec<FactId> = state
                .iter()
                .copied()
                .filter(|f| !op.del.contains(f))
                .chain(op.add.iter().copied())
                .collect();
            next.sort_unstable();
            next.dedup();
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    order
}

#[test]
fn every_pair_of_a_reachable_state_is_an_h2_pair_on_the_ipc_tasks() {
    let Some(tasks) = crate::common::first_ipc_tasks() else {
        return;
    };
    let mut checked = 0;
    for (first, puzzle) in tasks {
        let task = puzzle.model::<Planning>().unwrap().task();
        let Some(pairs) = mutex::pairs(task) else {
            continue;
        };
        for state in reachable(task, 20_000) {
            for (i, &p) in state.iter().enumerate() {
                for &q in &state[i..] {
                    assert!(
                        pairs.together(p, q),
                        "{}: {} and {} hold together in a reachable state",
                        first.display(),
                        task.facts[p as usize],
                        task.facts[q as usize]
                    );
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}
