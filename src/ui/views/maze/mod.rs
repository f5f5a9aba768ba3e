//! The grid maze: the brush (walls, terrain, goals), dragging the start and goals, random
//! grids, maze generation (animated or at once), percolation (the cluster and the experiment
//! on a background thread) and stepping through a Moving AI scenario.

mod panel;
mod work;

use work::{Animation, ExperimentRun, ScenarioView};

use std::any::Any;
use std::path::{Path, PathBuf};

use eframe::egui;
use serde::{Deserialize, Serialize};

use super::Entry;
use crate::app::{
    AppAccess, AppCommand, CanvasExtras, Pointer, TypeView, ViewCommand, ViewContext, ViewRead,
    ViewWrite,
};
use crate::app::{
    CapabilityKind, Description, FollowsPuzzle, FrameWork, KeepsSettings, OpensFiles, OwnPanels,
    ViewCapability, ViewDraw,
};
use crate::puzzles::maze::generate::Generator;
use crate::puzzles::maze::percolation::CurvePoint;
use crate::puzzles::maze::{self as grid_maze, Connectivity, GridHeuristic, Maze, Percolation};
use crate::puzzles::{Cell, Puzzle as _};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &grid_maze::TYPE,
    make: |kept| {
        Box::new(MazeView {
            settings: super::settings_from(kept),
            ..MazeView::default()
        })
    },
    claims: is_scenario,
    new: &[],
    commands: &[],
};

/// Moving AI scenarios (`.scen`) open in this view, with their map.
fn is_scenario(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("scen"))
}

fn maze(app: &ViewContext<impl AppAccess>) -> Option<&Maze> {
    app.model::<Maze>()
}

/// Edits the puzzle if it is a grid maze; `edit` says whether it changed.
fn edit(app: &mut ViewWrite<'_>, edit: impl FnOnce(&mut Maze) -> bool) -> bool {
    app.edit_model::<Maze>(edit)
}

/// What a stroke on a grid maze paints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Brush {
    /// Walls: a stroke that starts on a free square blocks, one that starts on a wall frees.
    #[default]
    Walls,
    /// Terrain of this cost (1 is plain free ground: the eraser), 1 to 9.
    Terrain(u8),
    /// Goals: a click adds a goal, or removes one (the last goal stays).
    Goals,
}

/// The grid maze view's settings kept across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MazeSettings {
    /// The brush.
    pub brush: Brush,
    /// Density of blocked squares for the Random button (0 to 1).
    pub density: f64,
    /// The seed of the Random button: the one that made the random grid on screen (Next
    /// moves it on by one).
    pub random_seed: u64,
    /// The maze generator.
    pub generator: Generator,
    /// Rows of cells of a generated maze (it has `2 * rows + 1` rows of squares).
    pub cell_rows: usize,
    /// Columns of cells of a generated maze.
    pub cell_cols: usize,
    /// The generator's seed.
    pub generator_seed: u64,
    /// The fraction of dead ends to remove (0 to 1).
    pub braid: f64,
    /// Whether generation is animated (at the search speed, in squares per second).
    pub animate: bool,
    /// The percolation experiment's settings.
    pub experiment_side: usize,
    /// Random grids per probability.
    pub experiment_trials: usize,
    /// Probabilities from 0 to 1 in this many steps.
    pub experiment_steps: usize,
}

impl Default for MazeSettings {
    fn default() -> Self {
        Self {
            brush: Brush::Walls,
            density: 0.3,
            random_seed: 1,
            generator: Generator::RecursiveBacktracker,
            cell_rows: 15,
            cell_cols: 20,
            generator_seed: 1,
            braid: 0.0,
            animate: true,
            experiment_side: 48,
            experiment_trials: 60,
            experiment_steps: 40,
        }
    }
}

/// The grid maze view's commands.
#[derive(Clone, Debug)]
pub enum Command {
    /// Choose the brush.
    Brush(Brush),
    /// 4- or 8-connected moves.
    Connectivity(Connectivity),
    /// Allow or forbid cutting corners.
    CornerCutting(bool),
    /// Choose the heuristic.
    Heuristic(GridHeuristic),
    /// Choose the percolation mode.
    Percolation(Percolation),
    /// Move the start square here.
    MoveStart(Cell),
    /// Move the goal with this index (see [`Maze::goals`]) to the square.
    MoveGoal(usize, Cell),
    /// Add or remove a goal here.
    ToggleGoal(Cell),
    /// Generate a maze with the settings.
    Generate,
    /// Finish an animated generation at once.
    FinishGeneration,
    /// Start a stroke on this square of the maze as it is now (a press during an animated
    /// generation, sent after [`Command::FinishGeneration`]).
    StrokeFrom(Cell),
    /// Show or hide the percolating cluster.
    ShowCluster(bool),
    /// Open or close the percolation experiment's window.
    ExperimentWindow(bool),
    /// Run the percolation experiment in the background.
    RunExperiment,
    /// Stop it.
    StopExperiment,
    /// Show this problem (0-based) of the open scenario.
    ScenarioProblem(usize),
    /// Close the scenario.
    CloseScenario,
    /// Run every problem of the scenario in the background.
    RunAllProblems,
    /// Stop running them.
    StopAllProblems,
    /// A point of the percolation experiment, from its background work.
    ExperimentPoint(CurvePoint),
    /// The experiment's background work ended.
    ExperimentEnded,
    /// A problem of "Run all" was searched: whether its cost matched the scenario's.
    ProblemRun(bool),
    /// "Run all" ended: its summary, or why it failed.
    ScenarioRun(Result<crate::puzzles::maze::movingai::ScenarioSummary, String>),
    /// A scenario file was read and parsed, with the map it names when the maze on screen
    /// does not fit it, by its background work (`work::read_scenario`); or why not.
    ScenarioRead(PathBuf, Result<work::ReadScenario, String>),
    /// Fill with random blocked squares (the density and the seed of the settings); with
    /// `next`, from the next seed.
    Random {
        /// Move the seed on by one first.
        next: bool,
    },
    /// Invert every square.
    Invert,
    /// Free every square.
    Clear,
    /// Change the size to (rows, columns).
    Resize(usize, usize),
}

/// A dragged end of the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// The start square.
    Start,
    /// The goal with this index (see [`Maze::goals`]).
    Goal(usize),
}

/// What a pointer stroke on a maze does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrokeStart {
    /// Paints this value (0 wall, 1 to 9 terrain) on every square it passes.
    Paint(u8),
    /// Drags the start or a goal.
    Drag(Endpoint),
    /// Adds or removes a goal where it begins.
    ToggleGoal,
}

/// The grid maze's view: its settings, the generation being animated, the percolating
/// cluster, the experiment, the open scenario and the stroke in progress.
#[derive(Default)]
pub struct MazeView {
    settings: MazeSettings,
    /// The generation being animated.
    animation: Option<Animation>,
    /// Whether the percolating cluster is shown.
    show_cluster: bool,
    /// The cluster of the puzzle at an edit count, computed when shown.
    cluster: Option<(u64, Vec<bool>)>,
    /// Whether the experiment's window is open.
    experiment_window: bool,
    /// The percolation experiment.
    experiment: Option<ExperimentRun>,
    /// The open scenario.
    scenario: Option<ScenarioView>,
    /// What the pointer stroke in progress does.
    stroke: Option<StrokeStart>,
    /// The seed of the last maze generated (see [`crate::app::seed_to_use`]).
    used_generator_seed: Option<u64>,
}

impl MazeView {
    /// The view's settings.
    pub fn settings(&self) -> &MazeSettings {
        &self.settings
    }

    /// Whether a generation is being animated, and how far along it is.
    pub fn generation_progress(&self) -> Option<f32> {
        self.animation.as_ref().map(Animation::progress)
    }

    /// The percolating cluster, when shown (row-major flags).
    pub fn cluster(&self) -> Option<&[bool]> {
        self.cluster
            .as_ref()
            .map(|(_, c)| c.as_slice())
            .filter(|_| self.show_cluster)
    }

    /// "Run all" of the open scenario: (problems done, matched, the summary once it ended).
    pub fn scenario_run(
        &self,
    ) -> Option<(
        usize,
        usize,
        Option<&crate::puzzles::maze::movingai::ScenarioSummary>,
    )> {
        let run = self.scenario.as_ref()?.run_all.as_ref()?;
        Some((run.done, run.matched, run.summary.as_ref()))
    }

    /// The open scenario's name, problem index and count.
    pub fn scenario_position(&self) -> Option<(&str, usize, usize)> {
        self.scenario
            .as_ref()
            .map(|s| (s.name.as_str(), s.index, s.scenario.problems.len()))
    }

    /// The percolation curve so far.
    pub fn experiment_points(&self) -> Option<&[CurvePoint]> {
        self.experiment.as_ref().map(|e| e.points.as_slice())
    }

    /// Carries out a grid command.
    fn apply_command(&mut self, app: &mut ViewWrite<'_>, command: Command) {
        match command {
            Command::Brush(brush) => self.settings.brush = brush,
            Command::Connectivity(c) => {
                edit(app, |m| m.set_connectivity(c));
                app.repick_algorithm();
            }
            Command::CornerCutting(on) => {
                edit(app, |m| m.set_corner_cutting(on));
                app.repick_algorithm();
            }
            Command::Heuristic(h) => {
                edit(app, |m| m.set_heuristic(h));
            }
            Command::Percolation(p) => {
                edit(app, |m| m.set_percolation(p));
                if p != Percolation::Off {
                    self.show_cluster = true;
                    self.refresh_cluster(app);
                }
            }
            Command::MoveStart(cell) => {
                edit(app, |m| m.move_start(cell));
            }
            Command::MoveGoal(i, to) => {
                edit(app, |m| m.move_goal(i, to));
            }
            Command::ToggleGoal(cell) => {
                let last_goal = maze(app).is_some_and(|m| m.goals() == [cell]);
                let blocked = maze(app).is_some_and(|m| m.is_blocked(cell));
                edit(app, |m| m.toggle_goal(cell));
                if last_goal {
                    app.set_status("The last goal stays: add another before removing it.");
                } else if blocked {
                    app.set_status("A goal must be on a free square.");
                }
            }
            Command::Generate => self.generate(app),
            Command::FinishGeneration => self.finish_animation(app),
            Command::StrokeFrom(cell) => {
                if let Some(command) = self.start_stroke(maze(app), cell) {
                    app.push(command);
                }
            }
            Command::ShowCluster(on) => {
                self.show_cluster = on;
                self.refresh_cluster(app);
            }
            Command::ExperimentWindow(open) => self.experiment_window = open,
            Command::RunExperiment => self.run_experiment(app),
            Command::StopExperiment => {
                if let Some(e) = &mut self.experiment {
                    e.stop(app);
                }
            }
            Command::ExperimentPoint(point) => {
                if let Some(e) = self.experiment.as_mut().filter(|e| !e.ended) {
                    e.points.push(point);
                }
            }
            Command::ExperimentEnded => {
                if let Some(e) = &mut self.experiment {
                    e.ended = true;
                }
            }
            Command::ProblemRun(matched) => self.problem_run(matched),
            Command::ScenarioRun(answer) => self.scenario_ran(app, answer),
            Command::ScenarioRead(path, answer) => self.scenario_read(app, &path, answer),
            Command::ScenarioProblem(i) => self.show_scenario_problem(app, i),
            Command::CloseScenario => {
                // Its run goes with it.
                app.forget_work(work::RUN_ALL);
                // The status line described the scenario's problem: it goes with it.
                if self.scenario.take().is_some() {
                    app.set_status("Closed the scenario; the maze stays as it is.");
                }
            }
            Command::RunAllProblems => self.run_all_problems(app),
            Command::StopAllProblems => app.stop_work(work::RUN_ALL),
            Command::Random { next } => {
                if next {
                    self.settings.random_seed = self.settings.random_seed.wrapping_add(1);
                }
                let (density, seed) = (self.settings.density, self.settings.random_seed);
                edit(app, |m| {
                    m.randomize(density, seed);
                    true
                });
                app.set_status(format!(
                    "A random grid: density {density:.2}, seed {seed} (the same seed makes \
                     the same grid)."
                ));
            }
            Command::Invert => {
                edit(app, |m| {
                    m.invert();
                    true
                });
                app.set_status("Every square inverted: walls are free, free squares walls.");
            }
            Command::Clear => {
                edit(app, |m| {
                    m.clear();
                    true
                });
                app.set_status("Every square is free.");
            }
            Command::Resize(rows, cols) => {
                edit(app, |m| {
                    m.resize(rows, cols);
                    true
                });
            }
        }
    }

    /// Recomputes the percolating cluster if it is shown.
    fn refresh_cluster(&mut self, app: &ViewContext<impl AppAccess>) {
        let stale = self
            .cluster
            .as_ref()
            .is_none_or(|(r, _)| *r != app.revision());
        // The cluster is a percolation notion: it shows only in percolation mode.
        let percolating = maze(app).is_some_and(|m| m.percolation() != Percolation::Off);
        if !self.show_cluster || !percolating {
            self.cluster = None;
        } else if stale {
            self.cluster = maze(app).map(|m| (app.revision(), m.percolating_cluster()));
        }
    }

    /// The value a stroke starting on `cell` of a maze paints with the current brush, or the
    /// drag it starts (start or goal square), or a goal toggle.
    fn stroke_start(&self, maze: &Maze, cell: Cell) -> Option<StrokeStart> {
        if maze.percolation() == Percolation::Off {
            if cell == maze.start() {
                return Some(StrokeStart::Drag(Endpoint::Start));
            }
            if let Some(i) = maze.goals().iter().position(|&g| g == cell)
                && self.settings.brush != Brush::Goals
            {
                return Some(StrokeStart::Drag(Endpoint::Goal(i)));
            }
        }
        match self.settings.brush {
            Brush::Walls => maze.stroke_value(cell).map(StrokeStart::Paint),
            Brush::Terrain(n) => Some(StrokeStart::Paint(n.clamp(1, 9))),
            Brush::Goals => Some(StrokeStart::ToggleGoal),
        }
    }

    /// What a stroke does on `cell` of a maze, as the command to send.
    fn stroke_at(start: StrokeStart, cell: Cell) -> AppCommand {
        let view = |command| AppCommand::View(ViewCommand::new(command));
        match start {
            StrokeStart::Paint(v) => AppCommand::Paint(cell, v),
            StrokeStart::ToggleGoal => view(Command::ToggleGoal(cell)),
            StrokeStart::Drag(Endpoint::Start) => view(Command::MoveStart(cell)),
            StrokeStart::Drag(Endpoint::Goal(i)) => view(Command::MoveGoal(i, cell)),
        }
    }

    /// A stroke starts on `cell` (a press on the canvas): what it does is sent.
    fn start_stroke(&mut self, maze: Option<&Maze>, cell: Cell) -> Option<AppCommand> {
        self.stroke = maze.and_then(|m| self.stroke_start(m, cell));
        Some(Self::stroke_at(self.stroke?, cell))
    }
}

impl TypeView for MazeView {
    fn type_name(&self) -> &'static str {
        grid_maze::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        panel::maze_ui(self, app, ui);
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        if let Some(command) = command.take::<Command>() {
            self.apply_command(app, command);
        }
    }

    fn pointer(&mut self, app: &mut ViewDraw<'_>, pointer: Pointer) -> bool {
        match pointer {
            // A press during an animated generation first completes it: the stroke starts
            // on the finished maze (commands, applied in order at the end of the frame).
            Pointer::Press(cell) if self.animation.is_some() => {
                app.push_view(Command::FinishGeneration);
                app.push_view(Command::StrokeFrom(cell));
            }
            Pointer::Press(cell) => {
                if let Some(command) = self.start_stroke(maze(app), cell) {
                    app.push(command);
                }
            }
            // A goal toggles once per click, not on every square of a drag.
            Pointer::Drag(cell) => match self.stroke {
                Some(StrokeStart::ToggleGoal) | None => {}
                Some(start) => app.push(Self::stroke_at(start, cell)),
            },
            Pointer::Click(_) => {}
        }
        true
    }

    fn canvas_extras(&self, app: &ViewRead<'_>, hover: Option<Cell>) -> CanvasExtras<'_> {
        CanvasExtras {
            tint: self.cluster(),
            hover_text: hover.and_then(|cell| self.hover_text(app, cell)),
            ..CanvasExtras::default()
        }
    }

    fn describe(&self, app: &ViewRead<'_>) -> Description {
        let about = "Find a path from the start to a goal over free squares, moving to a neighbouring \
         square (4 or 8 directions); a terrain square costs its number to enter. Click or \
         drag on the canvas with the chosen brush to draw walls, terrain, the start and \
         goals; drag the start or a goal to move it. Percolation asks whether free squares \
         join the top row to the bottom row. Then pick an algorithm and press Start. \
         Source: the grid maze and percolation article; Moving AI maps \
         (Sturtevant, 2012) open as files.";
        let legend = {
            use crate::ui::palette::{BLOCKED, CLUSTER, FREE, GOAL, START};
            let mut entries = vec![
                super::entry(FREE, "free square (cost 1)"),
                super::entry(BLOCKED, "wall"),
            ];
            if maze(app).is_some_and(|m| !m.is_uniform()) {
                entries.push(super::entry(
                    crate::ui::palette::terrain_color(2),
                    "terrain, cost 2 (darker costs more, up to 9)",
                ));
                entries.push(super::entry(
                    crate::ui::palette::terrain_color(9),
                    "terrain, cost 9",
                ));
            }
            entries.push(super::entry(START, "start"));
            entries.push(super::entry(GOAL, "goal"));
            if self.cluster().is_some() {
                entries.push(super::entry(CLUSTER, "percolating cluster"));
            }
            entries.extend(super::search_legend(app));
            entries
        };
        Description {
            about,
            legend,
            standing_error: None,
        }
    }

    fn capability(&mut self, kind: CapabilityKind) -> Option<ViewCapability<'_>> {
        crate::lend_capabilities!(self, kind; OwnPanels, FrameWork, OpensFiles, FollowsPuzzle, KeepsSettings)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl MazeView {
    /// A line about the square `cell` under the pointer, for the status bar.
    fn hover_text(&self, app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        let maze = maze(app)?;
        let what = if cell == maze.start() {
            "start".to_owned()
        } else if maze.goals().contains(&cell) {
            "goal".to_owned()
        } else if maze.is_blocked(cell) {
            "wall".to_owned()
        } else {
            format!("terrain cost {}", maze.cost_at(cell))
        };
        Some(match super::space_distances(app, cell) {
            Some(d) => format!("{what}; {d}"),
            None => what,
        })
    }
}

impl OwnPanels for MazeView {
    fn windows_ui(&mut self, app: &mut ViewDraw<'_>, ctx: &egui::Context) {
        panel::experiment_window(self, app, ctx);
    }
}

impl FrameWork for MazeView {
    fn tick(&mut self, app: &mut ViewWrite<'_>, ctx: &egui::Context) {
        self.tick_animation(app, ctx);
        self.refresh_cluster(app);
    }
}

impl OpensFiles for MazeView {
    fn open_path(&mut self, app: &mut ViewWrite<'_>, path: &Path) {
        self.open_scenario(app, path);
    }
}

impl FollowsPuzzle for MazeView {
    fn puzzle_replaced(&mut self) {
        self.animation = None;
        self.scenario = None;
        self.cluster = None;
    }
}

impl KeepsSettings for MazeView {
    fn settings(&self) -> Option<serde_json::Value> {
        serde_json::to_value(&self.settings).ok()
    }
}
