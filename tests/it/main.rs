//! The integration tests, one crate (one link, one binary): a module per concern.
//! `common` holds the helpers (running the binary, driving the GUI harness).

mod architecture;
mod breakpoints;
mod car_maze;
mod cli;
mod common;
mod desktop;
mod differential;
mod faults;
mod first_use;
mod formats;
mod frontier;
mod fuzz;
mod grid;
mod heuristic_quality;
mod klondike;
mod klotski;
mod korf_tables;
mod mazegen;
mod movingai;
mod oracle;
mod results;
mod robustness;
mod rush_hour;
mod screen;
mod search_engine;
mod search_tree;
mod sliding;
mod solver;
mod tile_core;
mod timeline;
mod trace;
mod ui;
