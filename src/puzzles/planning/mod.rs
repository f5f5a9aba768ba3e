//! The planning type: PDDL domains and problems (the language of the International Planning
//! Competitions), read, grounded into a [`task::Task`] and searched like any puzzle.

pub mod task;
