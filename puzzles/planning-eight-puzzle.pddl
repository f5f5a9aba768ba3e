;; The 8-puzzle as a planning task, written for puzzlelab: the same board as
;; sliding-8-easy-12.txt (5 1 3 / 4 _ 2 / 7 8 6, 12 moves from 1 2 3 / 4 5 6 / 7 8 _).
;; Squares are named by row and column; a tile slides into the adjacent blank square.
(define (domain eight-puzzle)
  (:requirements :strips :typing)
  (:types tile square)
  (:predicates (tile-on ?t - tile ?s - square)
               (blank ?s - square)
               (adjacent ?a ?b - square))
  (:action slide
    :parameters (?t - tile ?from ?to - square)
    :precondition (and (tile-on ?t ?from) (blank ?to) (adjacent ?from ?to))
    :effect (and (tile-on ?t ?to) (blank ?from)
                 (not (tile-on ?t ?from)) (not (blank ?to)))))

(define (problem eight-puzzle-12)
  (:domain eight-puzzle)
  (:objects t1 t2 t3 t4 t5 t6 t7 t8 - tile
            s11 s12 s13 s21 s22 s23 s31 s32 s33 - square)
  (:init (adjacent s11 s12) (adjacent s12 s11) (adjacent s12 s13) (adjacent s13 s12)
         (adjacent s21 s22) (adjacent s22 s21) (adjacent s22 s23) (adjacent s23 s22)
         (adjacent s31 s32) (adjacent s32 s31) (adjacent s32 s33) (adjacent s33 s32)
         (adjacent s11 s21) (adjacent s21 s11) (adjacent s21 s31) (adjacent s31 s21)
         (adjacent s12 s22) (adjacent s22 s12) (adjacent s22 s32) (adjacent s32 s22)
         (adjacent s13 s23) (adjacent s23 s13) (adjacent s23 s33) (adjacent s33 s23)
         (tile-on t5 s11) (tile-on t1 s12) (tile-on t3 s13)
         (tile-on t4 s21) (blank s22) (tile-on t2 s23)
         (tile-on t7 s31) (tile-on t8 s32) (tile-on t6 s33))
  (:goal (and (tile-on t1 s11) (tile-on t2 s12) (tile-on t3 s13)
              (tile-on t4 s21) (tile-on t5 s22) (tile-on t6 s23)
              (tile-on t7 s31) (tile-on t8 s32))))
