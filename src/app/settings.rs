//! Settings and work kept across restarts (in the state file, see [`super::autosave`]): the
//! work on screen, each type's workspace, the search settings, the results table, the theme
//! and the recent files.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::SavedWorkspace;
use crate::runs::results::ResultRow;
use crate::search::{Algorithm, TieBreak};

/// The most recent files kept (File > Open Recent).
pub const MAX_RECENT: usize = 10;

/// The longest path a state file may remember, in bytes (Linux's `PATH_MAX`): a longer one
/// is no path the app could have opened (see [`Settings::check_sizes`]).
pub const MAX_PATH_BYTES: usize = 4096;

/// The longest name a state file may hold, in bytes: a type's name, a view's key, a result's
/// algorithm, heuristic, tie-breaking and outcome (see [`Settings::check_sizes`]).
pub const MAX_NAME_BYTES: usize = 256;

/// The most entries of the maps kept by type (each type's puzzle and view settings) in a
/// state file (see [`Settings::check_sizes`]).
pub const MAX_TYPE_ENTRIES: usize = 64;

/// The largest view settings of one type in a state file, in bytes of JSON (see
/// [`Settings::check_sizes`]).
pub const MAX_VIEW_BYTES: usize = 64 * 1024;

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

    /// Checks the sizes of what a state file gave, before the app trusts it: a string or a
    /// map no state written by the app holds (a path longer than [`MAX_PATH_BYTES`], a name
    /// longer than [`MAX_NAME_BYTES`], a puzzle larger than a puzzle file may be
    /// ([`crate::puzzles::MAX_FILE_BYTES`]), view settings larger than [`MAX_VIEW_BYTES`],
    /// more than [`MAX_TYPE_ENTRIES`] types) is an error naming the field, for the file to be
    /// set aside; the lists the app cuts to their newest entries are cut the same way (the
    /// recent files to [`MAX_RECENT`], the results to [`super::KEPT_RESULTS`], each undo
    /// history to its newest 20).
    ///
    /// # Errors
    /// What is too large, and where.
    pub fn check_sizes(&mut self) -> Result<(), String> {
        use crate::puzzles::MAX_FILE_BYTES;
        let puzzle_bytes = MAX_FILE_BYTES as usize;
        check_path("path", self.path.as_deref())?;
        check_len("puzzle_json", self.puzzle_json.as_deref(), puzzle_bytes)?;
        check_entries("workspaces", self.workspaces.len())?;
        for (name, ws) in &mut self.workspaces {
            check_len("a key of workspaces", Some(name), MAX_NAME_BYTES)?;
            let field = |f: &str| format!("workspaces.{name}.{f}");
            check_len(&field("puzzle_json"), Some(&ws.puzzle_json), puzzle_bytes)?;
            check_path(&field("path"), ws.path.as_deref())?;
            keep_last(&mut ws.history, super::workspace::HISTORY_KEPT);
            for json in &ws.history {
                check_len(&field("history"), Some(json), puzzle_bytes)?;
            }
        }
        check_entries("views", self.views.len())?;
        for (name, value) in &self.views {
            check_len("a key of views", Some(name), MAX_NAME_BYTES)?;
            let bytes = serde_json::to_vec(value).map_or(usize::MAX, |v| v.len());
            if bytes > MAX_VIEW_BYTES {
                return Err(format!(
                    "views.{name} takes {bytes} bytes, over the limit of {MAX_VIEW_BYTES}"
                ));
            }
        }
        self.recent.truncate(MAX_RECENT);
        for recent in &self.recent {
            check_path("recent", Some(&recent.path))?;
            check_len("recent.type_name", Some(&recent.type_name), MAX_NAME_BYTES)?;
        }
        keep_last(&mut self.results, super::KEPT_RESULTS);
        for row in &self.results {
            check_len("results.puzzle", Some(&row.puzzle), MAX_PATH_BYTES)?;
            for (field, text) in [
                ("results.algorithm", &row.algorithm),
                ("results.heuristic", &row.heuristic),
                ("results.tie_break", &row.tie_break),
                ("results.outcome", &row.outcome),
            ] {
                check_len(field, Some(text), MAX_NAME_BYTES)?;
            }
            // A row's message is cut to its most characters when made (4 bytes each at most).
            let most = crate::runs::results::MAX_MESSAGE_CHARS * 4;
            check_len("results.message", Some(&row.message), most)?;
        }
        Ok(())
    }
}

/// An error when `text` is longer than `most` bytes.
fn check_len(field: &str, text: Option<&str>, most: usize) -> Result<(), String> {
    match text {
        Some(text) if text.len() > most => Err(format!(
            "{field} is {} bytes long, over the limit of {most}",
            text.len()
        )),
        _ => Ok(()),
    }
}

/// An error when `path` is longer than [`MAX_PATH_BYTES`].
fn check_path(field: &str, path: Option<&Path>) -> Result<(), String> {
    let len = path.map_or(0, |p| p.as_os_str().len());
    if len > MAX_PATH_BYTES {
        return Err(format!(
            "{field} is a path of {len} bytes, over the limit of {MAX_PATH_BYTES}"
        ));
    }
    Ok(())
}

/// An error when a map kept by type has more than [`MAX_TYPE_ENTRIES`] entries.
fn check_entries(field: &str, entries: usize) -> Result<(), String> {
    if entries > MAX_TYPE_ENTRIES {
        return Err(format!(
            "{field} has {entries} entries, over the limit of {MAX_TYPE_ENTRIES}"
        ));
    }
    Ok(())
}

/// Keeps the last `most` entries of `list`.
fn keep_last<T>(list: &mut Vec<T>, most: usize) {
    let extra = list.len().saturating_sub(most);
    list.drain(..extra);
}

/// Settings and work kept across restarts (the state file, see [`super::autosave`]). Every
/// field has a default, so an older saved state still loads; [`Settings::check_sizes`] checks
/// what a file gave before it is trusted.
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
    /// Each type's view settings (see [`super::KeepsSettings`]), by type name.
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
    /// Classroom mode (View menu, F2): large type and thick lines for a projector.
    pub classroom: bool,
    /// Whether the side panels are folded away (F3), leaving the canvas the window.
    pub panels_folded: bool,
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
            classroom: false,
            panels_folded: false,
        }
    }
}
