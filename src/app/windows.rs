//! The windows group (`Window`, `Setting`, `Canvas`, `Oracle`, `FitView`): what the panels
//! ask of the window's own parts (the windows beside the canvas and their options, the
//! settings the panels set, the canvas's view and pointer, the oracle's switches). A panel reads the state and sends one of these small
//! typed commands; the app applies it at the end of the frame, like every [`AppCommand`]
//! (`tests/it/architecture.rs` checks that no file of `src/ui` writes the state).

use eframe::egui;

use super::learn::{Beside, Numbers};
use super::space_layout::RandomPosition;
use super::{AppCommand, AppState, PaintStroke, Theme};
use crate::puzzles::Cell;
use crate::search::TieBreak;

/// A change of one of the windows beside the canvas, or of one of their options.
#[derive(Clone, Debug, PartialEq)]
pub enum WindowCommand {
    /// Open (true) or close the "Search tree" window.
    TreeWindow(bool),
    /// Lay the search tree out by g (true) or by depth.
    TreeByG(bool),
    /// Open or close the "State space" window.
    SpaceWindow(bool),
    /// The choices of the State space window's "Open random".
    SpaceRandom(RandomPosition),
    /// Open a random state of the explored space at least the chosen distance from the goal
    /// (the seed as [`super::seed_to_use`] gives it), if there is one.
    OpenRandomState,
    /// The random layout's choices: at least this many moves from the goal, this seed.
    LayoutChoice(u32, u64),
    /// Start making random layouts like the puzzle on screen (see
    /// [`super::space_layout::SpaceWindow::start_generating`]).
    GenerateLayout,
    /// Stop making random layouts.
    StopGenerating,
    /// Open or close the "Heuristic" window (closed, its tint of the canvas goes too).
    HeuristicWindow(bool),
    /// Tint the canvas with h* - h, or not.
    HeuristicTint(bool),
    /// How many random positions the next measure of the heuristic takes.
    SampleSize(usize),
    /// Measure the heuristic over that many random positions of the puzzle on screen.
    StartSample,
    /// Stop measuring the heuristic over random positions.
    StopSample,
    /// Open or close the Learn panel.
    Learn(bool),
    /// Which of the Learn panel and a view's docked panel a lesson shows.
    LearnBeside(Beside),
    /// What the canvas writes on the squares reached.
    LearnNumbers(Numbers),
    /// Whether the canvas draws arrows to parents.
    LearnArrows(bool),
    /// How many squares the canvas wrote the Learn panel's numbers on, this frame.
    LearnPainted(usize),
    /// Open or close the GIF export window.
    GifWindow(bool),
    /// Stop the GIF being written.
    StopGif,
    /// The text of the path field (see [`AppCommand::AskPath`]).
    PathText(String),
    /// The answer to the question asked at a close request over unsaved edits a restart
    /// would not bring back: Discard quits without them, Cancel keeps the window open
    /// (Save is not offered there: the view saves its own text).
    AnswerQuit(super::UnsavedChoice),
}

/// A change of one of the settings a panel sets directly.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingCommand {
    /// The memory limit of searches, in MiB (`None`: the default, half the memory).
    MemoryLimit(Option<u64>),
    /// Which states of equal priority the best-first searches expand first.
    TieBreak(TieBreak),
    /// The solution's playback rate, in moves a second.
    PlaybackRate(f64),
    /// Show the details panel, or hide it.
    ShowDetails(bool),
    /// Classroom mode on or off.
    Classroom(bool),
    /// Fold the side panels, or unfold them.
    PanelsFolded(bool),
    /// The colour theme.
    Theme(Theme),
    /// The GIF export's frames a second.
    GifFps(u32),
    /// The GIF export's length, in seconds.
    GifSeconds(f64),
}

/// A change of the canvas's view or pointer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CanvasCommand {
    /// Where the canvas was drawn, in points, and the square under the pointer: what the
    /// frame drew, for the next (it asks for no frame of its own).
    Drawn(egui::Rect, Option<Cell>),
    /// The canvas's zoom (1 fits the puzzle) and pan (squares from the centre).
    Zoom(f32, egui::Vec2),
    /// A pointer stroke begins on this square (what it does comes with
    /// [`CanvasCommand::StrokeTakes`], after what the view's press sent).
    StrokeBegin(Cell),
    /// What the stroke begun does (see [`PaintStroke`]); whether its first change was
    /// recorded for undo is kept.
    StrokeTakes(PaintStroke),
    /// The stroke reached this square.
    StrokeTo(Cell),
    /// The stroke ends.
    StrokeEnd,
    /// The canvas drew this many changes of the marks with this id (see
    /// [`super::SearchMarks::note_drawn`]): what the frame drew, for the next (it asks for
    /// no frame of its own).
    MarksDrawn(u64, usize),
    /// The race's pane `lane` drew this many changes of its marks with this id (it asks for
    /// no frame of its own).
    LaneMarksDrawn(usize, u64, usize),
}

/// A change of the optimal-move oracle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OracleCommand {
    /// Turn it on or off.
    Enable(bool),
    /// Draw the hint's arrow, or not.
    ShowHint(bool),
    /// Draw every move's arrow, or not.
    ShowAll(bool),
    /// Draw the distance map, or not.
    ShowMap(bool),
    /// The panel showed the oracle's controls this frame: its marks are drawn on the canvas
    /// (it asks for no frame of its own).
    Shown,
    /// Stop the oracle's preparation.
    CancelBuild,
    /// Forget the oracle's failure, so the next frame tries again.
    Retry,
}

impl AppCommand {
    /// Whether applying the command changes what the next frame shows, so that frame is drawn
    /// at once: all but the frame's reports of what it drew.
    pub fn asks_repaint(&self) -> bool {
        !matches!(
            self,
            AppCommand::Canvas(
                CanvasCommand::Drawn(..)
                    | CanvasCommand::MarksDrawn(..)
                    | CanvasCommand::LaneMarksDrawn(..)
            ) | AppCommand::Oracle(OracleCommand::Shown)
        )
    }
}

impl AppState {
    /// Carries out a change of a window beside the canvas.
    pub(crate) fn apply_window(&mut self, command: WindowCommand) {
        let windows = &mut self.windows;
        match command {
            WindowCommand::TreeWindow(open) => windows.tree_window.open = open,
            WindowCommand::TreeByG(by_g) => windows.tree_window.by_g = by_g,
            WindowCommand::SpaceWindow(open) => windows.space_window.open = open,
            WindowCommand::SpaceRandom(random) => windows.space_window.random = random,
            WindowCommand::OpenRandomState => {
                if let Some(node) = windows.space_window.random_state(&windows.oracle) {
                    self.apply(AppCommand::OpenState(node));
                }
            }
            WindowCommand::LayoutChoice(min, seed) => {
                windows.space_window.layout_min = min;
                windows.space_window.layout_seed = seed;
            }
            WindowCommand::GenerateLayout => self.generate_layout(),
            WindowCommand::StopGenerating => windows.space_window.stop_generating(),
            WindowCommand::HeuristicWindow(open) => {
                windows.heuristic_window.open = open;
                if !open {
                    // The tint is the window's: closed, it goes too (it has no other switch).
                    windows.heuristic_window.tint = false;
                }
            }
            WindowCommand::HeuristicTint(tint) => windows.heuristic_window.tint = tint,
            WindowCommand::SampleSize(size) => windows.heuristic_window.sample.size = size,
            WindowCommand::StartSample => {
                let (limits, wake) = (self.limits(), self.waker());
                let puzzle = self.work.puzzle.clone_box();
                (self.windows.heuristic_window.sample).start(puzzle.as_ref(), limits, &wake);
            }
            WindowCommand::StopSample => windows.heuristic_window.sample.stop(),
            WindowCommand::Learn(open) => windows.learn.open = open,
            WindowCommand::LearnBeside(beside) => windows.learn.beside = beside,
            WindowCommand::LearnNumbers(numbers) => windows.learn.numbers = numbers,
            WindowCommand::LearnArrows(arrows) => windows.learn.arrows = arrows,
            WindowCommand::LearnPainted(painted) => windows.learn.painted = painted,
            WindowCommand::GifWindow(open) => windows.gif_window = open,
            WindowCommand::StopGif => {
                if let Some(job) = &windows.gif_job {
                    job.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            WindowCommand::PathText(text) => {
                if let Some((_, field)) = &mut windows.path_prompt {
                    *field = text;
                }
            }
            WindowCommand::AnswerQuit(choice) => {
                windows.quit_question = None;
                if choice == super::UnsavedChoice::Discard {
                    windows.quit_anyway = true;
                    if let Some(ctx) = &self.frame.repaint {
                        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                } else {
                    self.set_status("Kept the window open: the unsaved text is still there.");
                }
            }
        }
    }

    /// Starts the State space window's layout generator on the puzzle on screen; an error
    /// goes to the status bar.
    fn generate_layout(&mut self) {
        let (limits, wake) = (self.limits(), self.waker());
        let template = self.work.puzzle.clone_box();
        if let Err(e) =
            (self.windows.space_window).start_generating(template.as_ref(), limits, &wake)
        {
            self.set_error(format!("Could not start the layout generator: {e}"));
        }
    }

    /// Carries out a change of a setting.
    pub(super) fn apply_setting(&mut self, command: SettingCommand) {
        let settings = &mut self.settings;
        match command {
            SettingCommand::MemoryLimit(mib) => settings.memory_limit_mib = mib,
            SettingCommand::TieBreak(t) => settings.tie_break = t,
            SettingCommand::PlaybackRate(rate) => settings.playback_rate = rate,
            SettingCommand::ShowDetails(show) => settings.show_details = show,
            SettingCommand::Classroom(on) => settings.classroom = on,
            SettingCommand::PanelsFolded(folded) => settings.panels_folded = folded,
            SettingCommand::Theme(theme) => settings.theme = theme,
            SettingCommand::GifFps(fps) => settings.gif_fps = fps,
            SettingCommand::GifSeconds(seconds) => settings.gif_seconds = seconds,
        }
    }

    /// Carries out a change of the canvas's view or pointer.
    pub(super) fn apply_canvas(&mut self, command: CanvasCommand) {
        match command {
            CanvasCommand::Drawn(rect, hover) => {
                self.canvas.rect = Some(rect);
                self.canvas.hover = hover;
            }
            CanvasCommand::Zoom(zoom, pan) => (self.work.zoom, self.work.pan) = (zoom, pan),
            CanvasCommand::MarksDrawn(id, changes) => self.work.marks.note_drawn(id, changes),
            CanvasCommand::LaneMarksDrawn(lane, id, changes) => {
                let lanes = self.runs.race.as_mut().map(|r| &mut r.lanes);
                if let Some(lane) = lanes.and_then(|l| l.get_mut(lane)) {
                    lane.marks.note_drawn(id, changes);
                }
            }
            CanvasCommand::StrokeBegin(cell) => {
                // A stroke acts on the board the canvas shows (a solution played back).
                self.canvas.stroke_refused = !self.take_shown_board();
                self.canvas.stroke = Some(PaintStroke {
                    value: None,
                    last: Some(cell),
                    recorded: false,
                    by_view: true,
                    grab: None,
                });
            }
            CanvasCommand::StrokeTakes(stroke) => {
                if stroke.value.is_some() {
                    // A drag by hand is one move where the metric counts a slide of any
                    // length so.
                    self.work.puzzle.begin_stroke();
                }
                let recorded = self.canvas.stroke.is_some_and(|s| s.recorded);
                self.canvas.stroke = Some(PaintStroke {
                    recorded: stroke.recorded || recorded,
                    ..stroke
                });
            }
            CanvasCommand::StrokeTo(cell) => {
                if let Some(stroke) = &mut self.canvas.stroke {
                    stroke.last = Some(cell);
                }
            }
            CanvasCommand::StrokeEnd => {
                self.canvas.stroke = None;
                self.canvas.stroke_refused = false;
            }
        }
    }

    /// Carries out a change of the oracle.
    pub(super) fn apply_oracle(&mut self, command: OracleCommand) {
        let oracle = &mut self.windows.oracle;
        match command {
            OracleCommand::Enable(on) => oracle.enabled = on,
            OracleCommand::ShowHint(on) => oracle.show_hint = on,
            OracleCommand::ShowAll(on) => oracle.show_all = on,
            OracleCommand::ShowMap(on) => oracle.show_map = on,
            OracleCommand::Shown => oracle.in_panel = true,
            OracleCommand::CancelBuild => oracle.cancel_build(),
            OracleCommand::Retry => oracle.retry(),
        }
    }

    /// Zooms the canvas to fit the whole puzzle.
    pub(super) fn fit_view(&mut self) {
        self.work.zoom = 1.0;
        self.work.pan = egui::Vec2::ZERO;
    }
}
