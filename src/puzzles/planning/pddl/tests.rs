//! The PDDL reader's tests.

use super::*;

const BLOCKS: &str = "(define (domain BLOCKS) (:requirements :strips :typing) (:types block)
      (:predicates (on ?x - block ?y - block) (ontable ?x - block) (clear ?x - block)
        (handempty) (holding ?x - block))
      (:action pick-up :parameters (?x - block)
        :precondition (and (clear ?x) (ontable ?x) (handempty))
        :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x))))";

#[test]
fn a_domain_and_its_problem_are_read_case_insensitively() {
    let d = read_domain(BLOCKS).unwrap();
    assert_eq!(d.name, "blocks");
    assert_eq!(d.actions[0].effects.len(), 4);
    let p = read_problem(
        "(define (problem P) (:domain blocks) (:objects A B - block)
             (:INIT (CLEAR A) (ONTABLE A) (HANDEMPTY)) (:goal (AND (holding a))))",
        &d,
    )
    .unwrap();
    assert_eq!(p.objects.len(), 2);
    assert_eq!(p.init.len(), 3);
}

#[test]
fn bad_input_is_named_with_its_place() {
    let e = read_domain(&BLOCKS.replace("(handempty))\n", "(handempty)\n")).unwrap_err();
    assert!(e.message.contains("never closed"), "{e}");
    let e = read_domain(&BLOCKS.replace(":typing", ":typing :conditional-effects")).unwrap_err();
    assert!(
        e.message.contains(":conditional-effects is not supported"),
        "{e}"
    );
    let e = read_domain(&BLOCKS.replace("(holding ?x))))", "(held ?x))))")).unwrap_err();
    assert!(e.message.contains("`held` is not declared"), "{e}");
    assert_eq!(e.pos.line, 6);
    let d = read_domain(BLOCKS).unwrap();
    let e = read_problem("(define (problem p) (:domain other) (:goal (and)))", &d).unwrap_err();
    assert!(e.message.contains("`other`"), "{e}");
    let e = read_problem(
        "(define (problem p) (:domain blocks) (:objects a - block) (:goal (clear z)))",
        &d,
    )
    .unwrap_err();
    assert!(e.message.contains("object `z`"), "{e}");
    let e = read_problem(
        "(define (problem p) (:domain blocks) (:objects a - cube) (:goal (and)))",
        &d,
    )
    .unwrap_err();
    assert!(e.message.contains("type `cube`"), "{e}");
}
