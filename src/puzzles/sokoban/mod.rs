//! Sokoban (Hiroyuki Imabayashi, Thinking Rabbit, 1982): a warehouse keeper pushes boxes onto
//! goals. The player walks between free squares; walking into a box pushes it one square on
//! when the square behind it is free; boxes are never pulled. A level is solved when every box
//! stands on a goal.
//!
//! Levels are read from XSB/SOK text ([`format`]).

pub mod format;
