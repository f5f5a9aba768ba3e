//! Grounding's unit tests: gripper, equality, negation and costs, the limits.

use super::super::pddl::{read_domain, read_problem};
use super::*;

const GRIPPER: &str = "(define (domain gripper-strips)
   (:predicates (room ?r) (ball ?b) (gripper ?g) (at-robby ?r) (at ?b ?r) (free ?g) (carry ?o ?g))
   (:action move :parameters (?from ?to)
   :precondition (and (room ?from) (room ?to) (at-robby ?from))
   :effect (and (at-robby ?to) (not (at-robby ?from))))
   (:action pick :parameters (?obj ?room ?gripper)
   :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (at ?obj ?room) (at-robby ?room) (free ?gripper))
   :effect (and (carry ?obj ?gripper) (not (at ?obj ?room)) (not (free ?gripper))))
   (:action drop :parameters (?obj ?room ?gripper)
   :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (carry ?obj ?gripper) (at-robby ?room))
   :effect (and (at ?obj ?room) (free ?gripper) (not (carry ?obj ?gripper)))))";

const GRIPPER_2: &str = "(define (problem g2) (:domain gripper-strips)
   (:objects rooma roomb ball1 ball2 left right)
   (:init (room rooma) (room roomb) (ball ball1) (ball ball2) (gripper left) (gripper right)
      (at-robby rooma) (free left) (free right) (at ball1 rooma) (at ball2 rooma))
   (:goal (and (at ball1 roomb) (at ball2 roomb))))";

#[test]
fn gripper_grounds_to_its_reachable_operators_with_static_facts_compiled_away() {
    let d = read_domain(GRIPPER).unwrap();
    let p = read_problem(GRIPPER_2, &d).unwrap();
    let task = ground(&d, &p, GroundLimits::default()).unwrap();
    task.validate().unwrap();
    // move: 2 rooms x 2 rooms (a room to itself too: nothing forbids it); pick and drop:
    // 2 balls x 2 rooms x 2 grippers each.
    assert_eq!(task.operators.len(), 4 + 8 + 8);
    assert!(
        task.facts
            .iter()
            .all(|f| !f.starts_with("(room") && !f.starts_with("(ball"))
    );
    assert_eq!(task.goal.len(), 2);
    assert!(task.unit_costs);
    let mut names: Vec<&str> = task.operators.iter().map(|o| o.name.as_str()).collect();
    names.sort_unstable();
    assert!(names.contains(&"(pick ball1 rooma left)"), "{names:?}");
}

#[test]
fn equality_negation_and_costs_are_grounded() {
    let d = read_domain(
        "(define (domain roads) (:requirements :typing :equality :negative-preconditions :action-costs)
         (:types city) (:predicates (at ?c - city) (road ?a ?b - city) (closed ?c - city))
         (:functions (total-cost) - number (length ?a ?b - city) - number)
         (:action drive :parameters (?a ?b - city)
           :precondition (and (at ?a) (road ?a ?b) (not (= ?a ?b)) (not (closed ?b)))
           :effect (and (at ?b) (not (at ?a)) (increase (total-cost) (length ?a ?b))))
         (:action close :parameters (?c - city) :precondition (at ?c) :effect (closed ?c)))",
    )
    .unwrap();
    let p = read_problem(
        "(define (problem r) (:domain roads) (:objects x y z - city)
         (:init (at x) (road x y) (road y z) (road x x) (= (length x y) 4) (= (length y z) 3) (= (length x x) 1))
         (:goal (at z)) (:metric minimize (total-cost)))",
        &d,
    )
    .unwrap();
    let task = ground(&d, &p, GroundLimits::default()).unwrap();
    task.validate().unwrap();
    let drive: Vec<&Operator> = task
        .operators
        .iter()
        .filter(|o| o.name.starts_with("(drive"))
        .collect();
    assert_eq!(drive.len(), 2, "{drive:?}");
    assert!(drive.iter().all(|o| o.pre_neg.len() == 1));
    let mut costs: Vec<u64> = drive.iter().map(|o| o.cost).collect();
    costs.sort_unstable();
    assert_eq!(costs, [3, 4]);
    assert!(!task.unit_costs);
}

#[test]
fn a_grounding_past_its_limits_is_refused_with_a_message() {
    let d = read_domain(GRIPPER).unwrap();
    let p = read_problem(GRIPPER_2, &d).unwrap();
    let limits = GroundLimits {
        max_operators: 5,
        ..GroundLimits::default()
    };
    let e = ground(&d, &p, limits).unwrap_err();
    assert!(e.to_string().contains("more than 5 ground actions"), "{e}");
}
