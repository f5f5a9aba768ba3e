//! The planning type's successor generator (`src/puzzles/planning/successors.rs`: operators
//! filed under their first precondition, tested a word of the state at a time) against the
//! plain rule, [`Operator::applicable`] and [`Operator::apply`] on one flag per fact: on every
//! state reached breadth first (up to a limit) the operators it returns, in a set, are
//! exactly those that apply, and each successor is its operator applied. On the shipped
//! tasks, on a task written here with negative preconditions and more facts than a state
//! holds inline (256), and, when `../shared/pddl` is there, on the first task of each of
//! pyperplan's IPC domains.

use std::collections::BTreeSet;

use puzzlelab::puzzles::planning::task::{FactId, Task};
use puzzlelab::puzzles::planning::{Planning, State, set_fact};
use puzzlelab::search::Problem;

use crate::planning_mutex::reachable;

/// A state of `task` holding exactly `facts`.
fn state_of(task: &Task, facts: &[FactId]) -> State {
    let mut state: State = smallvec::smallvec![0; task.facts.len().div_ceil(64)];
    for &f in facts {
        set_fact(&mut state, f, true);
    }
    state
}

/// Checks the generator on the first `limit` states of `planning` reached from its start;
/// returns how many states it checked.
fn check(planning: &Planning, limit: usize, what: &str) -> usize {
    let task = planning.task();
    let states = reachable(task, limit);
    let mut successors = Vec::new();
    for facts in &states {
        let state = state_of(task, facts);
        let mut flags = vec![false; task.facts.len()];
        for &f in facts {
            flags[f as usize] = true;
        }
        let expected: BTreeSet<u32> = (0..task.operators.len() as u32)
            .filter(|&o| task.operators[o as usize].applicable(&flags))
            .collect();
        successors.clear();
        planning.successors(&state, &mut successors).unwrap();
        let found: Vec<u32> = successors.iter().map(|s| s.mv.op).collect();
        let set: BTreeSet<u32> = found.iter().copied().collect();
        assert_eq!(set.len(), found.len(), "{what}: an operator returned twice");
        assert_eq!(set, expected, "{what}: the operators that apply");
        for s in &successors {
            let mut next = flags.clone();
            task.operators[s.mv.op as usize].apply(&mut next);
            let next: Vec<FactId> = (0..next.len() as FactId)
                .filter(|&f| next[f as usize])
                .collect();
            assert_eq!(s.state, state_of(task, &next), "{what}: {}", s.mv.name);
        }
    }
    states.len()
}

/// `n` switches, each turned on once its left neighbour is on (the first at once) and while a
/// lock is not set: negative preconditions, and `2 n + 1` facts.
fn switches(n: usize) -> String {
    let objects: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
    let next: Vec<String> = (1..n).map(|i| format!("(next s{} s{i})", i - 1)).collect();
    let off: Vec<String> = objects.iter().map(|o| format!("(off {o})")).collect();
    format!(
        "(define (domain switches) (:requirements :strips :negative-preconditions)
           (:predicates (on ?s) (off ?s) (next ?a ?b) (first ?s) (locked))
           (:action start :parameters (?s) :precondition (and (first ?s) (off ?s) (not (locked)))
             :effect (and (on ?s) (not (off ?s))))
           (:action turn :parameters (?a ?b)
             :precondition (and (next ?a ?b) (on ?a) (off ?b) (not (locked)))
             :effect (and (on ?b) (not (off ?b))))
           (:action back :parameters (?a ?b) :precondition (and (next ?a ?b) (on ?b) (not (on ?a)))
             :effect (and (off ?b) (not (on ?b))))
           (:action lock :parameters () :precondition (on s{last}) :effect (locked)))
         (define (problem row) (:domain switches) (:objects {objects})
           (:init (first s0) {next} {off}) (:goal (and (locked))))",
        last = n - 1,
        objects = objects.join(" "),
        next = next.join(" "),
        off = off.join(" "),
    )
}

#[test]
fn the_operators_found_are_those_that_apply_on_the_shipped_tasks() {
    for file in [
        "planning-blocks.pddl",
        "planning-gripper.pddl",
        "planning-eight-puzzle.pddl",
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(file);
        let puzzle = puzzlelab::puzzles::load_file(&path, None).unwrap();
        let planning = puzzle.model::<Planning>().unwrap();
        assert!(check(planning, 3_000, file) > 100, "{file}");
    }
}

#[test]
fn the_operators_found_are_those_that_apply_past_the_inline_state() {
    let planning = Planning::from_text(&switches(150)).unwrap();
    let task = planning.task();
    assert!(task.facts.len() > 256, "{} facts", task.facts.len());
    assert!(
        task.operators.iter().any(|o| !o.pre_neg.is_empty()),
        "negative preconditions grounded"
    );
    assert!(planning.task().init.len() > 100);
    assert!(check(&planning, 400, "switches") >= 150);
}

#[test]
fn the_operators_found_are_those_that_apply_on_the_ipc_tasks() {
    let Some(tasks) = crate::common::first_ipc_tasks() else {
        return;
    };
    let mut checked = 0;
    for (first, puzzle) in tasks {
        let planning = puzzle.model::<Planning>().unwrap();
        check(planning, 1_000, &first.display().to_string());
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}
