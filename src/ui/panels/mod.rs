//! The side and details panels' sections, one file a section: the run's limits
//! (`limits.rs`), its figures (`stats.rs`), its plots (`plots.rs`), the canvas's legend
//! (`legend.rs`), and the solution's playback and moves (`playback.rs`).

mod legend;
mod limits;
mod playback;
mod plots;
mod stats;

pub(super) use legend::legend_ui;
pub(super) use limits::{memory_limit_ui, tie_break_ui};
pub(super) use playback::{playback_ui, solution_ui};
pub(super) use plots::plots_ui;
pub use stats::RACE_STATS_NOTE;
pub(super) use stats::stats_ui;
