//! puzzlelab: a workbench for solving puzzles by state-space search and watching the search
//! happen.
//!
//! - [`search`]: the engine (problem trait, algorithms, statistics, observer, cancellation).
//! - [`puzzles`]: one module per puzzle type, with its rules and file formats.
//! - [`solver`]: the background solver thread that runs a search for the GUI and writes its
//!   recording.
//! - [`runs`]: a run's one recording (replayed to any moment, written as a Posthoc search
//!   trace), its animation as a GIF, and the table of results.
//! - [`app`] and [`ui`]: the eframe application.
//! - [`cli`]: the command-line subcommands.
//! - [`heap`]: the allocator, counting each thread's heap bytes (for the memory limit of a
//!   puzzle script's calls).

#![warn(missing_docs)]
#![warn(clippy::unwrap_used)]
// No function over 120 lines (`too-many-lines-threshold` in clippy.toml); the integration
// tests and benchmarks, whose long functions are tables and scripts, are left out.
#![warn(clippy::too_many_lines)]

pub mod app;
pub mod cli;
pub mod heap;
pub mod puzzles;
pub mod runs;
pub mod search;
pub mod solver;
pub mod ui;
