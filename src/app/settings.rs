//! Settings and work kept across restarts (eframe persistence): the work on screen, each
//! type's workspace, the search settings, the results table, the theme and the recent files.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::SavedWorkspace;
use crate::runs::results::ResultRow;
use crate::search::{Algorithm, TieBreak};

/// The most recent files kept (File > Open Recent).
pub const MAX_RECENT: usize = 10;

/// The colour theme of the window and the canvas (View menu).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    /// The operating system's choice, light or dark (the default).
    #[default]
    System,
    /// Dark text on a light background.
    Light,
    /// Light text on a dark background.
    Dark,
}

impl Theme {
    /// The three, in the order of the View menu.
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    /// The name shown in the menu.
    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "System",
            Theme::Light => "Light",
            Theme::Dark => "Dark",
        }
    }
}

/// A puzzle file opened or saved: its path and its puzzle type's name (see
/// [`crate::puzzles::PuzzleType::name`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentFile {
    /// Where the file is.
    pub path: PathBuf,
    /// The type of the puzzle it held.
    pub type_name: String,
}

impl RecentFile {
    /// The file's name as a menu shows it (the whole path when it has none).
    pub fn name(&self) -> String {
        self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    }
}

impl Settings {
    /// Puts `path` (a puzzle of type `type_name`) first in the recent files, once, keeping
    /// the newest [`MAX_RECENT`].
    pub fn note_recent(&mut self, path: &Path, type_name: &str) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|r| r.path != path);
        self.recent.insert(
            0,
            RecentFile {
                path,
                type_name: type_name.to_owned(),
            },
        );
        self.recent.truncate(MAX_RECENT);
    }

    /// Takes `path` out of the recent files (it is gone).
    pub fn forget_recent(&mut self, path: &Path) {
        self.recent.retain(|r| r.path != path);
    }
}

/// Settings and work kept across restarts (eframe persistence). Every field has a default, so
/// an older or damaged saved state still loads.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The puzzle on screen, with the user's edits, in its JSON format.
    pub puzzle_json: Option<String>,
    /// The file the puzzle was opened from or saved to.
    pub path: Option<PathBuf>,
    /// The chosen algorithm (if it applies to the puzzle).
    pub algorithm: Option<Algorithm>,
    /// Animation speed in expansions per second.
    pub speed: f64,
    /// Run as fast as possible, showing snapshots.
    pub full_speed: bool,
    /// Seed for random puzzles (each type's Random or Scramble): the same seed gives the same
    /// puzzle; it moves on by one after each use.
    pub seed: u64,
    /// Solution playback speed in moves per second.
    pub playback_rate: f64,
    /// Each type's view settings (see [`super::TypeView::settings`]), by type name.
    pub views: std::collections::BTreeMap<String, serde_json::Value>,
    /// The memory budget of each search, in MiB; `None` for the default (see
    /// [`crate::search::limits::default_memory_budget`]).
    pub memory_limit_mib: Option<u64>,
    /// How the best-first searches' open list breaks ties (see [`TieBreak`]).
    pub tie_break: TieBreak,
    /// Each type's puzzle (the one on screen too), by type name, so each comes back as
    /// it was left.
    pub workspaces: std::collections::BTreeMap<String, SavedWorkspace>,
    /// The results table (the newest [`super::KEPT_RESULTS`] rows).
    pub results: Vec<ResultRow>,
    /// Whether the details panel (statistics, plots, solution, results) is open.
    pub show_details: bool,
    /// The GIF export's frames a second.
    pub gif_fps: u32,
    /// The GIF export's length in seconds.
    pub gif_seconds: f64,
    /// The colour theme: the system's, light or dark (View menu).
    pub theme: Theme,
    /// The puzzle files opened or saved last, newest first, at most [`MAX_RECENT`]
    /// (File > Open Recent).
    pub recent: Vec<RecentFile>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            puzzle_json: None,
            path: None,
            algorithm: None,
            speed: 60.0,
            full_speed: false,
            seed: 1,
            playback_rate: 4.0,
            views: std::collections::BTreeMap::new(),
            memory_limit_mib: None,
            tie_break: TieBreak::default(),
            show_details: true,
            workspaces: std::collections::BTreeMap::new(),
            results: Vec::new(),
            gif_fps: 20,
            gif_seconds: 6.0,
            theme: Theme::System,
            recent: Vec::new(),
        }
    }
}
