//! A run's record and what is made of it, below the app and above the engine:
//!
//! - [`recording`]: the one recording of a run (every expansion and generated state,
//!   written by the solver, appended and indexed by the app's store), replayed to any
//!   moment, written as a Posthoc search trace;
//! - [`animation`]: a recorded run as an animated GIF;
//! - [`breakpoints`]: conditions that pause a live run, checked as it goes;
//! - [`results`]: the table of finished runs, its CSV and JSON exports, and comparing
//!   algorithms.

pub mod animation;
pub mod breakpoints;
pub mod open_list;
pub mod recording;
pub mod results;
