//! The eframe application: the state behind the window, the commands that change it, and the
//! per-frame logic (drain the solver's events, draw the panels, apply the commands).

pub mod export;
pub mod grid;
mod pattern_build;
pub mod race;
mod search_view;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

use eframe::egui;
use serde::{Deserialize, Serialize};

pub use search_view::{Mark, SearchView};

use crate::puzzles::klotski::{EditError, Klotski, Metric, Tool};
use crate::puzzles::sliding::{Sliding, TileHeuristic};
use crate::puzzles::{
    self, Cell, Picture, Puzzle, PuzzleType, Report, Shipped, Side, car_maze, maze::Maze,
};
use crate::results::{self, ResultRow};
use crate::search::{Algorithm, Limits, Outcome, limits};
use crate::solver::{Command as SolverCommand, Event, SolverHandle};

/// How many Klotski layout edits can be taken back.
const EDIT_HISTORY: usize = 100;

/// How long a frame may spend taking events from the solver.
const DRAIN_BUDGET: Duration = Duration::from_millis(8);
/// The least and the most time a frame spends applying the search's progress to the view,
/// and again writing it into the picture; the rest waits for the next frame. Within these
/// bounds it is a quarter of the time since the last frame: when drawing is slow (software
/// rendering) a frame applies more, so the picture keeps up with the search.
const MIN_WORK_BUDGET: Duration = Duration::from_millis(3);
const MAX_WORK_BUDGET: Duration = Duration::from_millis(12);
/// The fastest solution playback, in moves a second.
pub const MAX_PLAYBACK_RATE: f64 = 100_000.0;

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
    /// Density of blocked squares for the maze's Random button (0 to 1).
    pub density: f64,
    /// Seed for the maze's Random button.
    pub seed: u64,
    /// Solution playback speed in moves per second.
    pub playback_rate: f64,
    /// Sliding tile puzzle: the length of a random-walk scramble.
    pub scramble_moves: usize,
    /// The grid maze's brush, generator and experiment settings.
    pub grid: grid::GridSettings,
    /// The memory budget of each search, in MiB; `None` for the default (see
    /// [`crate::search::limits::default_memory_budget`]).
    pub memory_limit_mib: Option<u64>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            puzzle_json: None,
            path: None,
            algorithm: None,
            speed: 60.0,
            full_speed: false,
            density: 0.3,
            seed: 1,
            playback_rate: 4.0,
            scramble_moves: 30,
            grid: grid::GridSettings::default(),
            memory_limit_mib: None,
        }
    }
}

/// Something the user asked for. Panels push commands; [`PuzzleLabApp::apply`] carries them
/// out at the end of the frame.
#[derive(Clone, Debug)]
#[must_use]
pub enum AppCommand {
    /// Switch to a puzzle type, opening its first shipped puzzle.
    SelectType(&'static PuzzleType),
    /// Open a shipped puzzle.
    OpenShipped(&'static PuzzleType, &'static Shipped),
    /// Show the file dialog to open a puzzle.
    OpenDialog,
    /// Open the puzzle file at this path.
    OpenPath(PathBuf),
    /// Save to the current file, or ask for one.
    Save,
    /// Ask for a file and save to it.
    SaveDialog,
    /// Save to this path.
    SaveTo(PathBuf),
    /// Choose the algorithm.
    SetAlgorithm(Algorithm),
    /// Start a search (stopping any running one).
    Start,
    /// Stop the running search.
    Stop,
    /// Pause the running search.
    Pause,
    /// Resume a paused search.
    Resume,
    /// Expand one state (starting a paused search if none runs).
    Step,
    /// Change the animation speed (expansions per second) and the full-speed switch.
    SetSpeed(f64, bool),
    /// Paint a value on a square (see [`Puzzle::paint`]).
    Paint(Cell, u8),
    /// Maze: fill with random blocked squares.
    MazeRandom,
    /// Maze: invert every square.
    MazeInvert,
    /// Maze: free every square.
    MazeClear,
    /// Maze: change the size to (rows, columns).
    MazeResize(usize, usize),
    /// Show the solution up to this many moves.
    ShowStep(usize),
    /// Klotski: count moves with this metric.
    KlotskiMetric(Metric),
    /// Klotski: take back the last move played.
    KlotskiUndo,
    /// Klotski: play again the last move taken back.
    KlotskiRedo,
    /// Klotski: put the pieces back where they were loaded.
    KlotskiReset,
    /// Klotski: choose what a click on the board does; `None` plays (drags pieces).
    KlotskiTool(Option<Tool>),
    /// Klotski: apply the chosen editor tool at this cell.
    KlotskiEdit(Cell),
    /// Klotski: change the board to (rows, columns).
    KlotskiResize(usize, usize),
    /// Klotski: remove every piece but the target.
    KlotskiClear,
    /// Klotski: take back the last layout edit.
    KlotskiUndoEdit,
    /// Play the solution back automatically (true) or stop playing it (false).
    Play(bool),
    /// Write the results table to this file (CSV if it ends in `.csv`, else JSON).
    ExportResults(PathBuf),
    /// Ask where to export the results table.
    ExportDialog,
    /// Forget the results table.
    ClearResults,
    /// Race mode: add this algorithm to the race, or take it out.
    RaceToggle(Algorithm),
    /// Race mode: start the chosen algorithms together.
    StartRace,
    /// Race mode: stop every lane still running.
    StopRace,
    /// Race mode: close the race panes and go back to the single canvas.
    CloseRace,
    /// Save a picture of the canvas as PNG at this path (taken from the next frame).
    ExportCanvas(PathBuf),
    /// Ask where to save a picture of the canvas.
    ExportCanvasDialog,
    /// Write the solution's moves as text to this path.
    ExportMoves(PathBuf),
    /// Ask where to write the solution's moves.
    ExportMovesDialog,
    /// Sliding tiles: use this heuristic.
    SlidingHeuristic(TileHeuristic),
    /// Sliding tiles: slide the tile that moves toward this side (the arrow keys).
    SlidingKey(Side),
    /// Sliding tiles: take back the last move played.
    SlidingUndo,
    /// Sliding tiles: scramble from the goal by a seeded random walk of
    /// [`Settings::scramble_moves`] moves.
    SlidingScrambleWalk,
    /// Sliding tiles: a uniformly random solvable board (seeded).
    SlidingScrambleUniform,
    /// Sliding tiles: play the last random-walk scramble backwards, back to the goal.
    SlidingUnscramble,
    /// Sliding tiles: a solved board of (rows, columns).
    SlidingResize(usize, usize),
    /// Select a square of the picture (the car maze's turn editor edits the selected one).
    Select(Cell),
    /// Car maze: set the turns of the intersection at this picture square (bits as in
    /// [`car_maze::turn_bit`]).
    SetTurns(Cell, u16),
    /// Take back the last edit (grid maze and car maze).
    Undo,
    /// Make again the last edit taken back.
    Redo,
    /// A grid maze command.
    Grid(grid::GridCommand),
}

/// A message shown in the status bar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// Whether it reports an error.
    pub is_error: bool,
}

/// A pointer stroke on the canvas: what it paints and where it painted last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaintStroke {
    /// The value painted, or `None` when the stroke began on a square that cannot be edited.
    pub value: Option<u8>,
    /// The square painted last, so a drag paints each square once.
    pub last: Option<Cell>,
    /// Whether the stroke's first change was recorded for undo (a stroke undoes at once).
    pub recorded: bool,
    /// On a grid maze: what the stroke does (paint with the brush, drag an end, toggle a goal).
    pub maze: Option<grid::StrokeStart>,
}

/// A running search and the UI's knowledge of it.
struct Run {
    handle: SolverHandle,
    is_paused: bool,
    /// A progress event partly applied, and how many of its places are.
    pending: Option<(crate::solver::Progress, usize)>,
}

/// A move of the solution being animated: from one shown position to the next.
#[derive(Clone, Copy, Debug)]
struct Transition {
    from: usize,
    to: usize,
    /// UI clock when it began, in seconds.
    started: f64,
}

/// What a file dialog answered.
enum DialogAnswer {
    Open(PathBuf),
    Save(PathBuf),
    Export(PathBuf),
    Canvas(PathBuf),
    Moves(PathBuf),
    Scenario(PathBuf),
}

/// Which file dialog to show.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DialogKind {
    Open,
    Save,
    Export,
    Canvas,
    Moves,
    Scenario,
}

/// The application.
pub struct PuzzleLabApp {
    /// Persisted settings.
    pub(crate) settings: Settings,
    /// The puzzle on screen.
    pub(crate) puzzle: Box<dyn Puzzle>,
    /// The algorithm chosen for this puzzle.
    pub(crate) algorithm: Algorithm,
    /// The running search, if any.
    run: Option<Run>,
    /// What the last or current search has shown: closed set, frontier, path.
    pub(crate) view: SearchView,
    /// The result of the last search.
    pub(crate) result: Option<Report>,
    /// How many moves of the solution are shown.
    pub(crate) shown_moves: usize,
    /// The move being animated on the canvas, if any.
    transition: Option<Transition>,
    /// Whether the solution is being played back automatically.
    playing: bool,
    /// When playback last advanced (the frame clock, seconds); `None` until it first does.
    played_at: Option<f64>,
    /// The UI clock at the start of this frame, in seconds.
    now: f64,
    /// When the last frame began (wall clock), to size this frame's work.
    frame_started: Option<std::time::Instant>,
    /// How long this frame may spend applying the search's progress (and again writing it
    /// into the picture): see [`MIN_WORK_BUDGET`].
    pub(crate) work_budget: Duration,
    /// Klotski's editor tool; `None` when playing by hand.
    pub(crate) klotski_tool: Option<Tool>,
    /// Layouts before each Klotski layout edit, newest last (at most [`EDIT_HISTORY`]).
    pub(crate) layout_history: Vec<Klotski>,
    /// The picture before the last move played by hand and when it was played, so the canvas
    /// can slide the moved piece or tile into place.
    pub(crate) edit_slide: Option<(Picture, f64)>,
    /// Sliding tiles: the moves of the last random-walk scramble, to play backwards.
    scramble: Vec<Side>,
    /// Sliding tiles: moves still to play while unscrambling, next last.
    unscrambling: Vec<Side>,
    /// UI clock of the last unscramble move.
    unscrambled_at: f64,
    /// Where the canvas was drawn last frame, in points (for pictures of it).
    pub(crate) canvas_rect: Option<egui::Rect>,
    /// Messages from background work (picture exports) for the status bar.
    notice_tx: Sender<Status>,
    notice_rx: Receiver<Status>,
    /// The race on screen, if any.
    pub(crate) race: Option<race::Race>,
    /// The algorithms chosen for the next race, in the order chosen.
    pub(crate) race_choice: Vec<Algorithm>,
    /// One row per finished run this session, oldest first.
    pub(crate) results: Vec<ResultRow>,
    /// Sliding tiles: pattern databases ready and being built.
    pub(crate) pattern_dbs: pattern_build::PatternBuilds,
    /// The status bar.
    pub(crate) status: Status,
    /// Answers of file dialogs, which run on their own threads.
    dialog_tx: Sender<DialogAnswer>,
    dialog_rx: Receiver<DialogAnswer>,
    /// The pointer stroke in progress on the canvas.
    pub(crate) stroke: Option<PaintStroke>,
    /// The square of the picture last clicked.
    pub(crate) selected: Option<Cell>,
    /// Commands collected during the frame.
    pub(crate) commands: Vec<AppCommand>,
    /// How to wake the UI from another thread.
    pub(crate) repaint: Option<egui::Context>,
    /// The grid maze's workbench state.
    pub(crate) grid: grid::GridState,
    /// Counts edits of the puzzle, so drawings of it can be cached.
    pub(crate) revision: u64,
    /// Whether the puzzle changed since it was last written into the settings.
    puzzle_dirty: bool,
    /// The picture of the puzzle at an edit count, for puzzles drawn from a cache.
    pub(crate) picture_cache: Option<(u64, Picture)>,
}

impl PuzzleLabApp {
    /// An app restored from `settings`: their puzzle if it still parses, otherwise the
    /// Klondike puzzle.
    pub fn new(settings: Settings) -> Self {
        let mut status = Status {
            text: "Pick a puzzle and an algorithm, then press Start.".into(),
            is_error: false,
        };
        let restored = settings
            .puzzle_json
            .as_deref()
            .map(|json| puzzles::parse(json, None));
        let puzzle = match restored {
            Some(Ok(p)) => p,
            Some(Err(e)) => {
                status = Status {
                    text: format!("The remembered puzzle could not be restored: {e}"),
                    is_error: true,
                };
                puzzles::TYPES[0].default_puzzle()
            }
            None => puzzles::TYPES[0].default_puzzle(),
        };
        let (dialog_tx, dialog_rx) = mpsc::channel();
        let (notice_tx, notice_rx) = mpsc::channel();
        let algorithm = pick_algorithm(puzzle.as_ref(), settings.algorithm);
        let view = SearchView::for_puzzle(puzzle.as_ref());
        Self {
            settings,
            puzzle,
            algorithm,
            run: None,
            view,
            result: None,
            shown_moves: 0,
            transition: None,
            playing: false,
            played_at: None,
            now: 0.0,
            frame_started: None,
            work_budget: MIN_WORK_BUDGET,
            klotski_tool: None,
            layout_history: Vec::new(),
            edit_slide: None,
            scramble: Vec::new(),
            unscrambling: Vec::new(),
            unscrambled_at: 0.0,
            pattern_dbs: pattern_build::PatternBuilds::default(),
            results: Vec::new(),
            race: None,
            race_choice: Vec::new(),
            canvas_rect: None,
            notice_tx,
            notice_rx,
            status,
            dialog_tx,
            dialog_rx,
            stroke: None,
            selected: None,
            commands: Vec::new(),
            repaint: None,
            grid: grid::GridState {
                zoom: 1.0,
                ..Default::default()
            },
            revision: 0,
            puzzle_dirty: false,
            picture_cache: None,
        }
    }

    /// The puzzle on screen.
    pub fn puzzle(&self) -> &dyn Puzzle {
        self.puzzle.as_ref()
    }

    /// The chosen algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The persisted settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The result of the last finished search.
    pub fn result(&self) -> Option<&Report> {
        self.result.as_ref()
    }

    /// What the search has shown so far.
    pub fn view(&self) -> &SearchView {
        &self.view
    }

    /// The status bar's message.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Whether a search is running (paused or not).
    pub fn is_running(&self) -> bool {
        self.run.as_ref().is_some_and(|r| !r.handle.is_stopping())
    }

    /// Whether the running search is paused.
    pub fn is_paused(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.is_paused)
    }

    /// The square of the picture last clicked.
    pub fn selected(&self) -> Option<Cell> {
        self.selected
    }

    /// How many moves of the solution are shown on the canvas.
    pub fn shown_moves(&self) -> usize {
        self.shown_moves
    }

    /// The race on screen, if any.
    pub fn race(&self) -> Option<&race::Race> {
        self.race.as_ref()
    }

    /// Whether the solution is being played back automatically.
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// The move being animated on the canvas: the shown positions it goes between and how far
    /// it has got (0 to 1, exclusive).
    pub fn transition(&self) -> Option<(usize, usize, f32)> {
        let t = self.transition?;
        let done = (self.now - t.started) / self.transition_seconds();
        (done < 1.0).then_some((t.from, t.to, done.max(0.0) as f32))
    }

    /// How long one move's animation takes, in seconds: shorter when playing back fast.
    fn transition_seconds(&self) -> f64 {
        (0.8 / self.settings.playback_rate.max(0.1)).min(0.3)
    }

    /// Sliding tiles with the pattern-database heuristic: attaches a ready database, or
    /// starts building one in the background, and takes the build's progress.
    fn tend_pattern_dbs(&mut self) {
        match self.pattern_dbs.poll() {
            Some(Ok(db)) => self.set_status(format!(
                "Pattern databases ready ({} tiles).",
                db.group_sizes()
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join("-")
            )),
            Some(Err(e)) => self.set_error(format!("Pattern databases: {e}.")),
            None => {}
        }
        let Some(sliding) = self.puzzle.as_any_mut().downcast_mut::<Sliding>() else {
            return;
        };
        if sliding.heuristic_kind() != TileHeuristic::PatternDb
            || sliding.has_pattern_db()
            || !sliding.pattern_db_possible()
        {
            return;
        }
        let (rows, cols, goal) = (sliding.rows(), sliding.cols(), sliding.goal().to_vec());
        if let Some(db) = self.pattern_dbs.ready_for(rows, cols, &goal) {
            // Derived data: attaching it changes no result shown.
            sliding.attach_pattern_db(db);
            return;
        }
        let wake: Arc<dyn Fn() + Send + Sync> = match self.repaint.clone() {
            Some(ctx) => Arc::new(move || ctx.request_repaint()),
            None => Arc::new(|| {}),
        };
        if let Err(e) = self.pattern_dbs.start(rows, cols, &goal, wake) {
            self.set_error(format!("Could not start building pattern databases: {e}"));
        }
    }

    /// The progress (0 to 1) of the pattern database build for the board on screen, if one
    /// is running.
    pub fn pattern_db_progress(&self) -> Option<f64> {
        let sliding = self.puzzle.as_any().downcast_ref::<Sliding>()?;
        self.pattern_dbs
            .progress_for(sliding.rows(), sliding.cols(), sliding.goal())
    }

    /// Asks for a screenshot of the next frame and saves the canvas's part of it as PNG at
    /// `path`; the outcome comes back to the status bar.
    fn export_canvas(&mut self, path: PathBuf) {
        let (Some(ctx), Some(rect)) = (self.repaint.clone(), self.canvas_rect) else {
            self.set_error("Nothing to export yet: the canvas has not been drawn.");
            return;
        };
        let tx = self.notice_tx.clone();
        let pixels_per_point = ctx.pixels_per_point();
        let wake = ctx.clone();
        ctx.request_screenshot(move |image| {
            let picture = export::crop(&image, rect, pixels_per_point);
            let notice = match export::write_png(&picture, &path) {
                Ok(()) => Status {
                    text: format!(
                        "Saved a {} x {} picture of the canvas to {}.",
                        picture.size[0],
                        picture.size[1],
                        path.display()
                    ),
                    is_error: false,
                },
                Err(e) => Status {
                    text: format!("Could not save {}: {e}", path.display()),
                    is_error: true,
                },
            };
            let _ = tx.send(notice);
            wake.request_repaint();
        });
        ctx.request_repaint();
    }

    /// Writes the solution's moves, one numbered move a line after a header, to `path`.
    fn export_moves(&mut self, path: &Path) {
        let Some(report) = self.result.as_ref().filter(|r| r.solved) else {
            self.set_error("No solution to export: solve the puzzle first.");
            return;
        };
        let mut text = format!(
            "# {} solved by {}: {} moves, cost {}{}\n",
            report.puzzle_type,
            report.algorithm.label(),
            report.moves.len(),
            crate::search::format_cost(report.cost),
            if report.optimal { " (optimal)" } else { "" }
        );
        for (i, mv) in report.moves.iter().enumerate() {
            text += &format!("{}. {mv}\n", i + 1);
        }
        let tmp = path.with_extension("txt.tmp");
        match std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path)) {
            Ok(()) => self.set_status(format!(
                "Wrote {} moves to {}.",
                report.moves.len(),
                path.display()
            )),
            Err(e) => self.set_error(format!("Could not write {}: {e}", path.display())),
        }
    }

    /// Whether the board is being unscrambled.
    pub fn is_unscrambling(&self) -> bool {
        !self.unscrambling.is_empty()
    }

    /// Whether the last scramble was a random walk that Unscramble can play backwards.
    pub fn can_unscramble(&self) -> bool {
        !self.scramble.is_empty()
    }

    /// The move played by hand being animated: the picture before it and how far it has got
    /// (0 to 1, exclusive).
    pub fn edit_transition(&self) -> Option<(&Picture, f32)> {
        let (before, started) = self.edit_slide.as_ref()?;
        let done = (self.now - started) / self.transition_seconds();
        (done < 1.0).then_some((before, done.max(0.0) as f32))
    }

    /// Advances automatic playback by one move each 1/rate seconds, and keeps frames coming
    /// while a move slides.
    fn tick_playback(&mut self, ctx: &egui::Context) {
        if !self.unscrambling.is_empty()
            && self.now - self.unscrambled_at >= 1.0 / self.settings.playback_rate.max(0.1)
        {
            self.unscrambled_at = self.now;
            if let Some(side) = self.unscrambling.pop() {
                self.apply(AppCommand::SlidingKey(side));
            }
        }
        if !self.unscrambling.is_empty() || self.edit_transition().is_some() {
            ctx.request_repaint();
        }
        let moves = self.result.as_ref().map_or(0, |r| r.moves.len());
        if self.playing {
            // As many moves as are due at the rate (from 0.5 to 100,000 a second): one a
            // frame slides, more jump; the work of a step is the squares it changes.
            let interval = 1.0 / self.settings.playback_rate.clamp(0.1, MAX_PLAYBACK_RATE);
            let last = *self.played_at.get_or_insert(self.now - interval);
            let due = ((self.now - last) / interval).floor();
            if self.shown_moves >= moves {
                self.playing = false;
            } else if due >= 1.0 {
                let steps = (due as usize).min(moves - self.shown_moves);
                self.played_at = Some(last + due * interval);
                self.apply(AppCommand::ShowStep(self.shown_moves + steps));
            }
        }
        if self.playing || self.transition().is_some() {
            ctx.request_repaint();
        }
    }

    /// Queues a command, to be applied at the end of the frame.
    pub fn push(&mut self, command: AppCommand) {
        self.commands.push(command);
    }

    /// The frame's work before anything is drawn: playback, the solver's and the race's
    /// events, file dialogs' answers, background builds, dropped files. The ui layer calls
    /// this first in each frame, then draws, then calls [`PuzzleLabApp::end_frame`].
    pub fn begin_frame(&mut self, ctx: &egui::Context) {
        if self.repaint.is_none() {
            self.repaint = Some(ctx.clone());
        }
        self.now = ctx.input(|i| i.time);
        let started = std::time::Instant::now();
        self.work_budget = self
            .frame_started
            .map_or(MIN_WORK_BUDGET, |last| (started - last) / 4)
            .clamp(MIN_WORK_BUDGET, MAX_WORK_BUDGET);
        self.frame_started = Some(started);
        self.tick_playback(ctx);
        self.receive_events();
        self.receive_race();
        self.receive_dialogs();
        self.tend_pattern_dbs();
        self.tick_animation(ctx);
        self.receive_experiment();
        self.receive_dropped_files(ctx);
    }

    /// The frame's work after it is drawn: the commands pushed while drawing are applied.
    pub fn end_frame(&mut self, ctx: &egui::Context) {
        if !self.commands.is_empty() {
            // The commands change what the next frame shows: draw it right away.
            ctx.request_repaint();
        }
        self.run_pending_commands();
        if self.run.as_ref().is_some_and(|r| !r.is_paused) {
            // The worker wakes us on progress; this keeps the elapsed time ticking too.
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    fn run_pending_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            self.apply(command);
        }
    }

    fn set_status(&mut self, text: impl Into<String>) {
        self.status = Status {
            text: text.into(),
            is_error: false,
        };
    }

    fn set_error(&mut self, text: impl Into<String>) {
        self.status = Status {
            text: text.into(),
            is_error: true,
        };
    }

    /// Carries out one command now.
    pub fn apply(&mut self, command: AppCommand) {
        match command {
            AppCommand::SelectType(t) => {
                if t.name != self.puzzle.puzzle_type().name {
                    self.replace_puzzle(t.default_puzzle(), None);
                    self.set_status(format!("Opened {} ({}).", t.label, t.shipped[0].file));
                }
            }
            AppCommand::OpenShipped(t, shipped) => match (t.parse_text)(shipped.text) {
                Ok(p) => {
                    self.replace_puzzle(p, None);
                    self.set_status(format!("Opened {}.", shipped.file));
                }
                Err(e) => self.set_error(format!("{}: {e}", shipped.file)),
            },
            AppCommand::OpenDialog => self.spawn_dialog(DialogKind::Open),
            AppCommand::SaveDialog => self.spawn_dialog(DialogKind::Save),
            // A Moving AI scenario opens with its map.
            AppCommand::OpenPath(path)
                if path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("scen")) =>
            {
                self.apply_grid(grid::GridCommand::OpenScenario(path));
            }
            AppCommand::OpenPath(path) => match puzzles::load_file(&path, None) {
                Ok(p) => {
                    self.set_status(format!("Opened {}.", path.display()));
                    self.replace_puzzle(p, Some(path));
                }
                Err(e) => self.set_error(format!("Could not open: {e}")),
            },
            AppCommand::Save => match self.settings.path.clone() {
                Some(path) => self.save_to(&path),
                None => self.spawn_dialog(DialogKind::Save),
            },
            AppCommand::SaveTo(path) => self.save_to(&path),
            AppCommand::SetAlgorithm(a) => {
                if a != self.algorithm {
                    self.stop_run();
                    self.algorithm = a;
                    self.settings.algorithm = Some(a);
                }
            }
            AppCommand::Start => self.start(false),
            AppCommand::Stop => {
                // Acts at once: the flag is set now, and the window says so in the next
                // frame, with the figures shown at the click; the solver's final report
                // (within about 10 ms) brings the figures at the moment it stopped.
                if let Some(run) = &self.run {
                    run.handle.stop();
                    self.view.current = None;
                    self.set_status(format!(
                        "Stopped after {} expansions.",
                        self.view.stats.expanded
                    ));
                }
            }
            AppCommand::Pause => {
                if let Some(run) = &mut self.run {
                    run.handle.send(SolverCommand::Pause);
                    run.is_paused = true;
                }
            }
            AppCommand::Resume => {
                if let Some(run) = &mut self.run {
                    run.handle.send(SolverCommand::Resume);
                    run.is_paused = false;
                }
            }
            AppCommand::Step => match &mut self.run {
                Some(run) => {
                    if !run.is_paused {
                        run.handle.send(SolverCommand::Pause);
                        run.is_paused = true;
                    }
                    run.handle.send(SolverCommand::Step);
                }
                None => self.start(true),
            },
            AppCommand::SetSpeed(speed, full) => {
                self.settings.speed = speed;
                self.settings.full_speed = full;
                if let Some(run) = &self.run {
                    run.handle.send(SolverCommand::SetSpeed(self.speed()));
                }
            }
            AppCommand::Paint(cell, value) => {
                // Puzzles with their own undo slide the painted piece into place instead.
                let before = (!grid::has_undo(self.puzzle.as_ref())).then(|| self.puzzle.picture());
                if self.edit_puzzle(|p| p.paint(cell, value))
                    && let Some(before) = before
                {
                    self.edit_slide = Some((before, self.now));
                }
            }
            AppCommand::Undo => self.undo(),
            AppCommand::Redo => self.redo(),
            AppCommand::Grid(command) => self.apply_grid(command),
            AppCommand::ExportResults(path) => match results::export(&self.results, &path) {
                Ok(()) => self.set_status(format!(
                    "Exported {} results to {}.",
                    self.results.len(),
                    path.display()
                )),
                Err(e) => self.set_error(format!("Could not export to {}: {e}", path.display())),
            },
            AppCommand::ExportDialog => self.spawn_dialog(DialogKind::Export),
            AppCommand::ClearResults => self.results.clear(),
            AppCommand::RaceToggle(a) => {
                if let Some(i) = self.race_choice.iter().position(|b| b.same_kind(a)) {
                    self.race_choice.remove(i);
                } else if self.race_choice.len() < *race::RACERS.end() {
                    self.race_choice.push(a);
                }
            }
            AppCommand::StartRace => self.start_race(),
            AppCommand::StopRace => {
                if let Some(r) = &self.race {
                    r.stop();
                }
            }
            AppCommand::CloseRace => self.race = None,
            AppCommand::ExportCanvasDialog => self.spawn_dialog(DialogKind::Canvas),
            AppCommand::ExportMovesDialog => self.spawn_dialog(DialogKind::Moves),
            AppCommand::ExportCanvas(path) => self.export_canvas(path),
            AppCommand::ExportMoves(path) => self.export_moves(&path),
            AppCommand::SlidingHeuristic(h) => self.edit_as(|p: &mut Sliding| {
                p.set_heuristic(h);
                true
            }),
            AppCommand::SlidingKey(side) => {
                let before = self.puzzle.picture();
                self.edit_as(|p: &mut Sliding| p.slide_toward(side));
                if self.puzzle.picture() != before {
                    self.edit_slide = Some((before, self.now));
                }
            }
            AppCommand::SlidingUndo => self.edit_as(Sliding::undo),
            AppCommand::SlidingScrambleWalk => {
                let (moves, seed) = (self.settings.scramble_moves, self.settings.seed);
                let mut walk = Vec::new();
                self.edit_as(|p: &mut Sliding| {
                    walk = p.scramble_walk(moves, seed);
                    true
                });
                self.scramble = walk.iter().map(|m| m.to).collect();
                self.unscrambling.clear();
                self.settings.seed = self.settings.seed.wrapping_add(1);
                self.set_status(format!(
                    "Scrambled by {} random moves (seed {seed}).",
                    self.scramble.len()
                ));
            }
            AppCommand::SlidingScrambleUniform => {
                let seed = self.settings.seed;
                self.edit_as(|p: &mut Sliding| {
                    p.scramble_uniform(seed);
                    true
                });
                self.scramble.clear();
                self.unscrambling.clear();
                self.settings.seed = self.settings.seed.wrapping_add(1);
                self.set_status(format!("A random solvable board (seed {seed})."));
            }
            AppCommand::SlidingUnscramble => {
                // Each walk move undone: the tile goes back the opposite way, last move first.
                self.unscrambling = self.scramble.iter().map(|s| s.opposite()).collect();
                self.unscrambled_at = self.now;
                self.scramble.clear();
            }
            AppCommand::SlidingResize(rows, cols) => match Sliding::solved(rows, cols) {
                Ok(mut p) => {
                    if let Some(old) = self.puzzle.as_any().downcast_ref::<Sliding>() {
                        p.set_heuristic(old.heuristic_kind());
                    }
                    self.scramble.clear();
                    self.replace_puzzle(Box::new(p), None);
                }
                Err(e) => self.set_error(format!("Cannot resize: {e}")),
            },
            AppCommand::MazeRandom => {
                let (density, seed) = (self.settings.density, self.settings.seed);
                self.edit_as(|m: &mut Maze| {
                    m.randomize(density, seed);
                    true
                });
                self.settings.seed = self.settings.seed.wrapping_add(1);
            }
            AppCommand::MazeInvert => self.edit_as(|m: &mut Maze| {
                m.invert();
                true
            }),
            AppCommand::MazeClear => self.edit_as(|m: &mut Maze| {
                m.clear();
                true
            }),
            AppCommand::MazeResize(rows, cols) => self.edit_as(|m: &mut Maze| {
                m.resize(rows, cols);
                true
            }),
            AppCommand::KlotskiMetric(metric) => self.edit_as(|k: &mut Klotski| {
                k.set_metric(metric);
                true
            }),
            AppCommand::KlotskiUndo => self.edit_as(Klotski::undo),
            AppCommand::KlotskiRedo => self.edit_as(Klotski::redo),
            AppCommand::KlotskiReset => self.edit_as(|k: &mut Klotski| {
                k.reset();
                true
            }),
            AppCommand::Select(cell) => self.selected = Some(cell),
            AppCommand::SetTurns(cell, turns) => self.edit_as(|m: &mut car_maze::CarMaze| {
                m.intersection_at(cell)
                    .is_some_and(|at| m.set_turns(at, turns))
            }),
            AppCommand::KlotskiTool(tool) => self.klotski_tool = tool,
            AppCommand::KlotskiEdit(cell) => {
                let Some(tool) = self.klotski_tool else {
                    return;
                };
                self.edit_klotski(|k| k.apply_tool(tool, cell));
            }
            AppCommand::KlotskiResize(rows, cols) => {
                self.edit_klotski(|k| k.resize(rows, cols));
            }
            AppCommand::KlotskiClear => self.edit_klotski(Klotski::clear_pieces),
            AppCommand::KlotskiUndoEdit => {
                if let Some(previous) = self.layout_history.pop() {
                    self.edit_as(|k: &mut Klotski| {
                        *k = previous;
                        true
                    });
                }
            }
            AppCommand::ShowStep(n) => {
                let moves = self.result.as_ref().map_or(0, |r| r.moves.len());
                let n = n.min(moves);
                // One move forward or back slides; a jump shows the position at once.
                self.transition = (n.abs_diff(self.shown_moves) == 1).then_some(Transition {
                    from: self.shown_moves,
                    to: n,
                    started: self.now,
                });
                self.shown_moves = n;
            }
            AppCommand::Play(on) => {
                let moves = self.result.as_ref().map_or(0, |r| r.moves.len());
                if on && self.shown_moves >= moves {
                    // Playing from the end starts again from the beginning.
                    self.shown_moves = 0;
                    self.transition = None;
                }
                self.playing = on && moves > 0;
                self.played_at = None;
            }
        }
    }

    /// The solver speed from the settings.
    fn speed(&self) -> f64 {
        if self.settings.full_speed {
            f64::INFINITY
        } else {
            self.settings.speed.max(0.1)
        }
    }

    /// The limits searches run under: the memory budget from the settings, no time limit
    /// (Stop ends a search at any moment).
    pub fn limits(&self) -> Limits {
        let mut limits = Limits::default();
        if let Some(mib) = self.settings.memory_limit_mib {
            limits.max_memory = mib.saturating_mul(limits::MIB).max(limits::MIN_MEMORY);
        }
        limits
    }

    fn start(&mut self, paused: bool) {
        self.stop_run();
        self.race = None;
        self.result = None;
        self.shown_moves = 0;
        self.transition = None;
        self.playing = false;
        self.view = SearchView::for_puzzle(self.puzzle.as_ref());
        let wake: Arc<dyn Fn() + Send + Sync> = match self.repaint.clone() {
            Some(ctx) => Arc::new(move || ctx.request_repaint()),
            None => Arc::new(|| {}),
        };
        match SolverHandle::spawn(
            self.puzzle.clone_box(),
            self.algorithm,
            self.speed(),
            paused,
            self.limits(),
            wake,
        ) {
            Ok(handle) => {
                self.run = Some(Run {
                    handle,
                    is_paused: paused,
                    pending: None,
                });
                // A run started paused expands its first state, then waits: that is the step.
                self.set_status(format!("Searching with {}…", self.algorithm.label()));
            }
            Err(e) => self.set_error(format!("Could not start the solver thread: {e}")),
        }
    }

    /// Stops the running search, if any, without waiting for it.
    fn stop_run(&mut self) {
        if let Some(run) = self.run.take() {
            run.handle.stop();
        }
    }

    /// Starts the chosen algorithms together (2 to 4 of those that apply), at the speed set.
    fn start_race(&mut self) {
        let available = self.puzzle.algorithms();
        let chosen: Vec<Algorithm> = self
            .race_choice
            .iter()
            .copied()
            .filter(|a| available.iter().any(|b| b.same_kind(*a)))
            .collect();
        if !race::RACERS.contains(&chosen.len()) {
            self.set_error(format!(
                "A race needs 2 to 4 algorithms that apply to this puzzle; {} chosen.",
                chosen.len()
            ));
            return;
        }
        self.stop_run();
        self.race = None;
        let wake: Arc<dyn Fn() + Send + Sync> = match self.repaint.clone() {
            Some(ctx) => Arc::new(move || ctx.request_repaint()),
            None => Arc::new(|| {}),
        };
        match race::Race::start(
            self.puzzle.as_ref(),
            &chosen,
            self.speed(),
            self.limits(),
            &wake,
        ) {
            Ok(r) => {
                self.race = Some(r);
                let names: Vec<&str> = chosen.iter().map(|a| a.label()).collect();
                self.set_status(format!("Racing {}…", names.join(" vs ")));
            }
            Err(e) => self.set_error(format!("Could not start the race: {e}")),
        }
    }

    /// Takes the race's events; a lane that finishes adds its row to the results table.
    fn receive_race(&mut self) {
        let Some(r) = &mut self.race else {
            return;
        };
        let was_running = r.is_running();
        let finished = r.drain(DRAIN_BUDGET / 4);
        let done = !r.is_running();
        let name = self.run_name();
        for report in finished {
            self.results
                .push(ResultRow::new(&name, self.puzzle.as_ref(), &report));
        }
        if was_running && done {
            self.set_status("Race over: see each pane and the results table.");
        }
    }

    /// The puzzle's name in the results table: its file, or its type.
    fn run_name(&self) -> String {
        self.settings
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(
                || self.puzzle.puzzle_type().label.to_owned(),
                |n| n.to_string_lossy().into_owned(),
            )
    }

    /// Before an edit: stop the search and forget its picture.
    fn before_edit(&mut self) {
        self.race = None;
        if self.run.is_some() {
            self.stop_run();
            self.set_status("Search stopped: the puzzle was edited.");
        }
    }

    /// After an edit: the old search no longer describes the puzzle.
    fn after_edit(&mut self) {
        self.result = None;
        self.shown_moves = 0;
        self.transition = None;
        self.playing = false;
        // A blank view of the same size is kept: rebuilding it for every square painted
        // would be slow on a large grid.
        if !self.view.is_blank_for(self.puzzle.dims()) {
            self.view = SearchView::for_puzzle(self.puzzle.as_ref());
        }
        self.revision += 1;
        self.puzzle_dirty = true;
        if self.grid.show_cluster {
            self.refresh_cluster();
        }
    }

    /// Applies a Klotski layout edit, reporting a refused one in the status bar.
    fn edit_klotski(&mut self, edit: impl FnOnce(&mut Klotski) -> Result<(), EditError>) {
        let mut refused = None;
        let mut before = None;
        self.edit_as(|k: &mut Klotski| {
            let previous = k.clone();
            match edit(k) {
                Ok(()) => {
                    before = Some(previous);
                    true
                }
                Err(e) => {
                    refused = Some(e);
                    false
                }
            }
        });
        if let Some(previous) = before {
            if self.layout_history.len() >= EDIT_HISTORY {
                self.layout_history.remove(0);
            }
            self.layout_history.push(previous);
        }
        if let Some(e) = refused {
            self.set_error(format!("Edit refused: {e}."));
        }
    }

    /// Edits the puzzle if it is a `T`: stops the search first, and forgets it if `edit`
    /// says the puzzle changed. Edits of puzzles without an undo of their own can be undone.
    fn edit_as<T: 'static>(&mut self, edit: impl FnOnce(&mut T) -> bool) {
        self.edit_puzzle(|p| p.as_any_mut().downcast_mut::<T>().is_some_and(edit));
    }

    /// Edits the puzzle: stops the search first, keeps the puzzle as it was for undo (puzzles
    /// without an undo of their own) and forgets the search if `edit` says the puzzle changed.
    /// Returns whether it changed.
    fn edit_puzzle(&mut self, edit: impl FnOnce(&mut dyn Puzzle) -> bool) -> bool {
        self.before_edit();
        let before = grid::has_undo(self.puzzle.as_ref()).then(|| self.puzzle.clone_box());
        if !edit(self.puzzle.as_mut()) {
            return false;
        }
        if let Some(before) = before {
            self.record_undo(before);
        }
        self.after_edit();
        true
    }

    fn replace_puzzle(&mut self, puzzle: Box<dyn Puzzle>, path: Option<PathBuf>) {
        self.stop_run();
        self.grid.animation = None;
        self.grid.scenario = None;
        self.grid.history.clear();
        self.grid.future.clear();
        self.grid.zoom = 1.0;
        self.grid.pan = egui::Vec2::ZERO;
        self.selected = None;
        self.layout_history.clear();
        self.race = None;
        self.scramble.clear();
        self.unscrambling.clear();
        self.edit_slide = None;
        self.puzzle = puzzle;
        self.settings.path = path;
        self.algorithm = pick_algorithm(self.puzzle.as_ref(), self.settings.algorithm);
        self.after_edit();
    }

    /// Writes the puzzle into the settings, if it changed since last time.
    pub(crate) fn remember_puzzle(&mut self) {
        if std::mem::take(&mut self.puzzle_dirty) {
            self.settings.puzzle_json = Some(self.puzzle.to_json().to_string());
        }
    }

    /// The settings as they would be saved now (the puzzle written in).
    pub fn settings_to_save(&mut self) -> &Settings {
        self.remember_puzzle();
        &self.settings
    }

    fn save_to(&mut self, path: &Path) {
        match puzzles::save_file(self.puzzle.as_ref(), path) {
            Ok(()) => {
                self.settings.path = Some(path.to_owned());
                self.set_status(format!("Saved {}.", path.display()));
            }
            Err(e) => self.set_error(format!("Could not save {}: {e}", path.display())),
        }
    }

    /// Shows a native file dialog on its own thread (it blocks while open), so the window
    /// keeps painting; the answer comes back over a channel.
    fn spawn_dialog(&mut self, kind: DialogKind) {
        let tx = self.dialog_tx.clone();
        let ctx = self.repaint.clone();
        let dir = self
            .settings
            .path
            .as_ref()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .or_else(|| std::env::current_dir().ok().map(|d| d.join("puzzles")));
        let spawned = std::thread::Builder::new()
            .name("file-dialog".into())
            .spawn(move || {
                let mut dialog = match kind {
                    DialogKind::Export => rfd::FileDialog::new()
                        .add_filter("CSV", &["csv"])
                        .add_filter("JSON", &["json"]),
                    DialogKind::Canvas => rfd::FileDialog::new().add_filter("PNG", &["png"]),
                    DialogKind::Moves => rfd::FileDialog::new().add_filter("Text", &["txt"]),
                    DialogKind::Scenario => rfd::FileDialog::new()
                        .add_filter("Moving AI scenario", &["scen"])
                        .add_filter("All files", &["*"]),
                    _ => rfd::FileDialog::new()
                        .add_filter("Puzzle files", &["txt", "json", "map", "scen"])
                        .add_filter("All files", &["*"]),
                };
                if let Some(dir) = dir.filter(|d| d.is_dir()) {
                    dialog = dialog.set_directory(dir);
                }
                let answer = match kind {
                    DialogKind::Save => dialog
                        .set_file_name("puzzle.json")
                        .save_file()
                        .map(DialogAnswer::Save),
                    DialogKind::Export => dialog
                        .set_file_name("results.csv")
                        .save_file()
                        .map(DialogAnswer::Export),
                    DialogKind::Canvas => dialog
                        .set_file_name("canvas.png")
                        .save_file()
                        .map(DialogAnswer::Canvas),
                    DialogKind::Moves => dialog
                        .set_file_name("solution.txt")
                        .save_file()
                        .map(DialogAnswer::Moves),
                    DialogKind::Open => dialog.pick_file().map(DialogAnswer::Open),
                    DialogKind::Scenario => dialog.pick_file().map(DialogAnswer::Scenario),
                };
                if let Some(answer) = answer {
                    let _ = tx.send(answer);
                    if let Some(ctx) = ctx {
                        ctx.request_repaint();
                    }
                }
            });
        if let Err(e) = spawned {
            self.set_error(format!("Could not open the file dialog: {e}"));
        }
    }

    fn receive_dialogs(&mut self) {
        while let Ok(answer) = self.dialog_rx.try_recv() {
            self.commands.push(match answer {
                DialogAnswer::Open(path) => AppCommand::OpenPath(path),
                DialogAnswer::Save(path) => AppCommand::SaveTo(path),
                DialogAnswer::Export(path) => AppCommand::ExportResults(path),
                DialogAnswer::Canvas(path) => AppCommand::ExportCanvas(path),
                DialogAnswer::Moves(path) => AppCommand::ExportMoves(path),
                DialogAnswer::Scenario(path) => {
                    AppCommand::Grid(grid::GridCommand::OpenScenario(path))
                }
            });
        }
        while let Ok(notice) = self.notice_rx.try_recv() {
            self.status = notice;
        }
    }

    fn receive_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.commands.push(AppCommand::OpenPath(path));
        }
    }

    /// Takes the solver's events under a time budget and applies them to the view.
    fn receive_events(&mut self) {
        let Some(run) = &mut self.run else {
            return;
        };
        // A large snapshot may be applied over several frames: each frame applies what fits
        // in its budget, and takes the next event only when the last is applied whole.
        let deadline = std::time::Instant::now() + self.work_budget;
        let mut last = None;
        loop {
            if run.handle.is_stopping() {
                run.pending = None;
            }
            if let Some((progress, cursor)) = &mut run.pending {
                if !self.view.apply_some(progress, cursor, Some(deadline)) {
                    break;
                }
                run.pending = None;
            }
            if std::time::Instant::now() >= deadline {
                break;
            }
            match run.handle.next_event() {
                None => break,
                Some(Event::Progress(progress)) => run.pending = Some((progress, 0)),
                Some(event) => {
                    last = Some(event);
                    break;
                }
            }
        }
        match last {
            Some(Event::Finished(report)) => self.finish(report),
            Some(Event::Failed(message)) => self.set_error(format!("Search failed: {message}")),
            _ => {}
        }
        if self.run.as_ref().is_some_and(|r| r.handle.is_finished()) {
            self.run = None;
        }
    }

    fn finish(&mut self, report: Report) {
        self.view.stats = report.stats.clone();
        self.view.current = None;
        self.view.path.clear();
        let text = match report.outcome {
            Outcome::Found => {
                let mut text = format!(
                    "Solved: {} moves, cost {} ({}), {} states expanded in {:.1} ms.",
                    report.moves.len(),
                    crate::search::format_cost(report.cost),
                    if report.optimal {
                        "optimal"
                    } else {
                        "not guaranteed optimal"
                    },
                    report.stats.expanded,
                    report.stats.elapsed_ms
                );
                for note in &report.notes {
                    text += &format!(" {note}.");
                }
                text
            }
            Outcome::NotFound => format!(
                "No path: the goal cannot be reached. All {} reachable states were explored.",
                report.stats.expanded
            ),
            Outcome::Cancelled => {
                format!("Stopped after {} expansions.", report.stats.expanded)
            }
            Outcome::MemoryLimit | Outcome::Timeout => {
                let message = report.message.clone().unwrap_or_default();
                format!("Search {message}.")
            }
        };
        if report.outcome.is_limit() {
            self.set_error(text);
        } else {
            self.set_status(text);
        }
        let name = self.run_name();
        self.results
            .push(ResultRow::new(&name, self.puzzle.as_ref(), &report));
        self.shown_moves = report.moves.len();
        self.result = Some(report);
    }
}

/// `wanted` if it applies to `puzzle`, otherwise the puzzle's default algorithm.
fn pick_algorithm(puzzle: &dyn Puzzle, wanted: Option<Algorithm>) -> Algorithm {
    wanted
        .filter(|a| puzzle.algorithms().iter().any(|b| b.same_kind(*a)))
        .unwrap_or_else(|| puzzle.default_algorithm())
}
