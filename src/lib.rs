//! puzzlelab: a workbench for solving puzzles by state-space search and watching the search
//! happen.
//!
//! - [`search`]: the engine (problem trait, algorithms, statistics, observer, cancellation).
//! - [`puzzles`]: one module per puzzle type, with its rules and file formats.
//! - [`results`]: the table of runs, its CSV and JSON exports, and comparing algorithms.
//! - [`solver`]: the background solver thread that runs a search for the GUI.
//! - [`trace`]: recording a run's events, replaying them to any moment, and writing them as a
//!   Posthoc search trace.
//! - [`animation`]: a recorded run as an animated GIF.
//! - [`app`] and [`ui`]: the eframe application.
//! - [`cli`]: the command-line subcommands.

pub mod animation;
pub mod app;
pub mod cli;
pub mod puzzles;
pub mod results;
pub mod search;
pub mod solver;
pub mod trace;
pub mod ui;
