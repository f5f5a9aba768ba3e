//! The grid maze's workbench in the app: the brush, start and goal dragging, undo and redo,
//! maze generation (animated or at once), the percolating cluster, the percolation experiment
//! on a background thread, and stepping through a Moving AI scenario.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};

use eframe::egui;
use serde::{Deserialize, Serialize};

use super::{AppCommand, PuzzleLabApp};
use crate::puzzles::maze::generate::{self, Generated, Generator};
use crate::puzzles::maze::movingai::{self, Scenario};
use crate::puzzles::maze::percolation::{CurvePoint, Experiment, run_experiment};
use crate::puzzles::maze::{Connectivity, GridHeuristic, Maze, Percolation};
use crate::puzzles::{self, Cell, Puzzle, car_maze::CarMaze};
use crate::search::CancelToken;

/// How many edits can be undone.
pub const UNDO_LIMIT: usize = 50;

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

/// The grid settings kept across restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GridSettings {
    /// The brush.
    pub brush: Brush,
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

impl Default for GridSettings {
    fn default() -> Self {
        Self {
            brush: Brush::Walls,
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

/// A grid command, applied at the end of the frame like every [`AppCommand`].
#[derive(Clone, Debug)]
pub enum GridCommand {
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
    /// Show or hide the percolating cluster.
    ShowCluster(bool),
    /// Open or close the percolation experiment's window.
    ExperimentWindow(bool),
    /// Run the percolation experiment in the background.
    RunExperiment,
    /// Stop it.
    StopExperiment,
    /// Ask for a scenario file.
    OpenScenarioDialog,
    /// Open this scenario file (and its map, when it can be found).
    OpenScenario(PathBuf),
    /// Show this problem (0-based) of the open scenario.
    ScenarioProblem(usize),
    /// Close the scenario.
    CloseScenario,
    /// Zoom to fit the whole grid.
    FitView,
}

/// An animated generation: the maze so far and the next square edit to make.
pub(crate) struct Animation {
    generated: Generated,
    next: usize,
    /// Fractional edits owed from earlier frames.
    owed: f64,
    last_time: f64,
}

impl Animation {
    /// Makes the square edits still to make, up to number `end`, on `maze`; returns whether
    /// every edit is made.
    fn carve(&mut self, maze: &mut Maze, end: usize) -> bool {
        let end = end.min(self.generated.steps.len());
        let cols = maze.cols();
        for &(i, v) in &self.generated.steps[self.next..end] {
            maze.set_cost(Cell::new(i as usize / cols, i as usize % cols), v);
        }
        self.next = end;
        end == self.generated.steps.len()
    }

    /// How far along it is, 0 to 1.
    pub fn progress(&self) -> f32 {
        self.next as f32 / self.generated.steps.len().max(1) as f32
    }
}

/// The percolation experiment running or run.
pub(crate) struct ExperimentRun {
    rx: Receiver<CurvePoint>,
    cancel: CancelToken,
    /// The points so far, by increasing probability.
    pub points: Vec<CurvePoint>,
    /// The number of points the run will make.
    pub expected: usize,
    /// The side and trials it ran with, for the plot's title.
    pub side: usize,
    /// See `side`.
    pub trials: usize,
}

impl ExperimentRun {
    /// Whether points are still coming.
    pub fn is_running(&self) -> bool {
        self.points.len() < self.expected && !self.cancel.is_cancelled()
    }
}

/// An open Moving AI scenario.
pub(crate) struct ScenarioView {
    /// Its problems.
    pub scenario: Scenario,
    /// The file's name, for the panel.
    pub name: String,
    /// The problem shown (0-based).
    pub index: usize,
}

/// The grid workbench's state that is not persisted.
#[derive(Default)]
pub(crate) struct GridState {
    /// Puzzles before each edit (maze and car maze), newest last.
    pub history: Vec<Box<dyn Puzzle>>,
    /// Puzzles undone, to redo, newest last.
    pub future: Vec<Box<dyn Puzzle>>,
    /// The generation being animated.
    pub animation: Option<Animation>,
    /// Whether the percolating cluster is shown.
    pub show_cluster: bool,
    /// The cluster of the puzzle as it is, computed when shown.
    pub cluster: Option<Vec<bool>>,
    /// Whether the experiment's window is open.
    pub experiment_window: bool,
    /// The percolation experiment.
    pub experiment: Option<ExperimentRun>,
    /// The open scenario.
    pub scenario: Option<ScenarioView>,
    /// Canvas zoom: 1 fits the grid; more magnifies.
    pub zoom: f32,
    /// Canvas pan, in squares from the centred position.
    pub pan: egui::Vec2,
}

/// Whether the generic undo history covers this puzzle (Klotski and the sliding tiles keep
/// their own).
pub(crate) fn has_undo(puzzle: &dyn Puzzle) -> bool {
    puzzle.as_any().is::<Maze>() || puzzle.as_any().is::<CarMaze>()
}

impl PuzzleLabApp {
    /// The maze on screen, if the puzzle is one.
    pub fn maze(&self) -> Option<&Maze> {
        self.puzzle.as_any().downcast_ref::<Maze>()
    }

    /// The grid settings.
    pub fn grid_settings(&self) -> &crate::app::grid::GridSettings {
        &self.settings.grid
    }

    /// The canvas's zoom (1 fits the grid) and pan (squares from the centre).
    pub fn canvas_zoom(&self) -> (f32, egui::Vec2) {
        (self.grid.zoom, self.grid.pan)
    }

    /// Whether an edit can be undone.
    pub fn can_undo(&self) -> bool {
        !self.grid.history.is_empty()
    }

    /// Whether an undone edit can be redone.
    pub fn can_redo(&self) -> bool {
        !self.grid.future.is_empty()
    }

    /// Whether a generation is being animated, and how far along it is.
    pub fn generation_progress(&self) -> Option<f32> {
        self.grid.animation.as_ref().map(Animation::progress)
    }

    /// The percolating cluster, when shown (row-major flags).
    pub fn cluster(&self) -> Option<&[bool]> {
        self.grid
            .cluster
            .as_deref()
            .filter(|_| self.grid.show_cluster)
    }

    /// The open scenario's name, problem index and count.
    pub fn scenario_position(&self) -> Option<(&str, usize, usize)> {
        self.grid
            .scenario
            .as_ref()
            .map(|s| (s.name.as_str(), s.index, s.scenario.problems.len()))
    }

    /// The percolation curve so far.
    pub fn experiment_points(&self) -> Option<&[CurvePoint]> {
        self.grid.experiment.as_ref().map(|e| e.points.as_slice())
    }

    /// Keeps `before` (the puzzle before an edit that changed it) for undo: once per pointer
    /// stroke, so a whole drag undoes at once.
    pub(super) fn record_undo(&mut self, before: Box<dyn Puzzle>) {
        let continuing = self.stroke.as_ref().is_some_and(|s| s.recorded);
        if let Some(stroke) = &mut self.stroke {
            stroke.recorded = true;
        }
        if continuing {
            return;
        }
        if self.grid.history.len() >= UNDO_LIMIT {
            self.grid.history.remove(0);
        }
        self.grid.history.push(before);
        self.grid.future.clear();
    }

    /// Takes back the last edit.
    pub(super) fn undo(&mut self) {
        self.finish_animation();
        let Some(previous) = self.grid.history.pop() else {
            self.set_status("Nothing to undo.");
            return;
        };
        self.before_edit();
        let now = std::mem::replace(&mut self.puzzle, previous);
        self.grid.future.push(now);
        self.after_edit();
        self.set_status("Undone.");
    }

    /// Makes again the last edit taken back.
    pub(super) fn redo(&mut self) {
        let Some(next) = self.grid.future.pop() else {
            self.set_status("Nothing to redo.");
            return;
        };
        self.before_edit();
        let now = std::mem::replace(&mut self.puzzle, next);
        self.grid.history.push(now);
        self.after_edit();
        self.set_status("Redone.");
    }

    /// Carries out a grid command.
    pub(super) fn apply_grid(&mut self, command: GridCommand) {
        match command {
            GridCommand::Brush(brush) => self.settings.grid.brush = brush,
            GridCommand::Connectivity(c) => {
                self.edit_as(|m: &mut Maze| m.set_connectivity(c));
                self.algorithm = super::pick_algorithm(self.puzzle.as_ref(), Some(self.algorithm));
            }
            GridCommand::CornerCutting(on) => {
                self.edit_as(|m: &mut Maze| m.set_corner_cutting(on));
                self.algorithm = super::pick_algorithm(self.puzzle.as_ref(), Some(self.algorithm));
            }
            GridCommand::Heuristic(h) => self.edit_as(|m: &mut Maze| m.set_heuristic(h)),
            GridCommand::Percolation(p) => {
                self.edit_as(|m: &mut Maze| m.set_percolation(p));
                if p != Percolation::Off {
                    self.grid.show_cluster = true;
                    self.refresh_cluster();
                }
            }
            GridCommand::MoveStart(cell) => self.edit_as(|m: &mut Maze| m.move_start(cell)),
            GridCommand::MoveGoal(i, to) => {
                self.edit_as(|m: &mut Maze| m.move_goal(i, to));
            }
            GridCommand::ToggleGoal(cell) => {
                let last_goal = self.maze().is_some_and(|m| m.goals() == [cell]);
                let blocked = self.maze().is_some_and(|m| m.is_blocked(cell));
                self.edit_as(|m: &mut Maze| m.toggle_goal(cell));
                if last_goal {
                    self.set_status("The last goal stays: add another before removing it.");
                } else if blocked {
                    self.set_status("A goal must be on a free square.");
                }
            }
            GridCommand::Generate => self.generate(),
            GridCommand::FinishGeneration => self.finish_animation(),
            GridCommand::ShowCluster(on) => {
                self.grid.show_cluster = on;
                self.refresh_cluster();
            }
            GridCommand::ExperimentWindow(open) => self.grid.experiment_window = open,
            GridCommand::RunExperiment => self.run_experiment(),
            GridCommand::StopExperiment => {
                if let Some(e) = &self.grid.experiment {
                    e.cancel.cancel();
                }
            }
            GridCommand::OpenScenarioDialog => self.spawn_dialog(super::DialogKind::Scenario),
            GridCommand::OpenScenario(path) => self.open_scenario(&path),
            GridCommand::ScenarioProblem(i) => self.show_scenario_problem(i),
            GridCommand::CloseScenario => self.grid.scenario = None,
            GridCommand::FitView => {
                self.grid.zoom = 1.0;
                self.grid.pan = egui::Vec2::ZERO;
            }
        }
    }

    /// Recomputes the percolating cluster if it is shown.
    pub(super) fn refresh_cluster(&mut self) {
        self.grid.cluster = if self.grid.show_cluster {
            self.maze().map(Maze::percolating_cluster)
        } else {
            None
        };
    }

    fn generate(&mut self) {
        self.finish_animation();
        let s = self.settings.grid.clone();
        let generated = generate::generate(
            s.generator,
            s.cell_rows,
            s.cell_cols,
            s.generator_seed,
            s.braid,
        );
        let animate = s.animate && !self.settings.full_speed;
        let text = format!(
            "{} maze of {} x {} cells (seed {}{}).",
            s.generator.label(),
            s.cell_rows.clamp(1, generate::MAX_CELLS),
            s.cell_cols.clamp(1, generate::MAX_CELLS),
            s.generator_seed,
            if s.braid > 0.0 {
                format!(", braid {:.2}", s.braid)
            } else {
                String::new()
            }
        );
        let start_grid = Generated {
            steps: Vec::new(),
            ..generated.clone()
        };
        self.edit_as(|m: &mut Maze| {
            m.apply_generated(if animate { &start_grid } else { &generated });
            true
        });
        if animate {
            self.grid.animation = Some(Animation {
                generated,
                next: 0,
                owed: 0.0,
                last_time: self.now,
            });
            self.set_status(format!("Generating a {text}"));
        } else {
            self.set_status(format!("Generated a {text}"));
        }
        self.settings.grid.generator_seed = s.generator_seed.wrapping_add(1);
        self.grid.zoom = 1.0;
        self.grid.pan = egui::Vec2::ZERO;
    }

    /// Makes the edits an animated generation owes since the last frame, at the search speed
    /// (squares per second).
    pub(super) fn tick_animation(&mut self, ctx: &egui::Context) {
        let Some(anim) = &mut self.grid.animation else {
            return;
        };
        let dt = (self.now - anim.last_time).clamp(0.0, 0.25);
        anim.last_time = self.now;
        anim.owed += dt * self.settings.speed.max(1.0) * 4.0;
        let count = (anim.owed as usize).max(1);
        anim.owed -= count as f64;
        let Some(maze) = self.puzzle.as_any_mut().downcast_mut::<Maze>() else {
            self.grid.animation = None;
            return;
        };
        let done = anim.carve(maze, anim.next + count);
        self.revision += 1;
        if done {
            self.grid.animation = None;
            self.after_edit();
            self.set_status("Maze generated. Press Start to solve it.");
        } else {
            ctx.request_repaint();
        }
    }

    /// Completes an animated generation at once.
    pub(super) fn finish_animation(&mut self) {
        let Some(mut anim) = self.grid.animation.take() else {
            return;
        };
        if let Some(maze) = self.puzzle.as_any_mut().downcast_mut::<Maze>() {
            anim.carve(maze, usize::MAX);
            self.after_edit();
        }
    }

    fn run_experiment(&mut self) {
        if let Some(e) = &self.grid.experiment {
            e.cancel.cancel();
        }
        let s = &self.settings.grid;
        let experiment = Experiment {
            side: s.experiment_side,
            trials: s.experiment_trials.max(1),
            steps: s.experiment_steps.max(1),
            connectivity: Connectivity::Four,
            seed: self.settings.seed,
        };
        let (tx, rx) = mpsc::channel();
        let cancel = CancelToken::new();
        let token = cancel.clone();
        let ctx = self.repaint.clone();
        let spawned = std::thread::Builder::new()
            .name("percolation".into())
            .spawn(move || {
                run_experiment(&experiment, &token, |point| {
                    let _ = tx.send(point);
                    if let Some(ctx) = &ctx {
                        ctx.request_repaint();
                    }
                });
            });
        if let Err(e) = spawned {
            self.set_error(format!("Could not start the experiment: {e}"));
            return;
        }
        self.grid.experiment = Some(ExperimentRun {
            rx,
            cancel,
            points: Vec::new(),
            expected: experiment.steps + 1,
            side: experiment.side,
            trials: experiment.trials,
        });
        self.grid.experiment_window = true;
    }

    /// Takes the experiment's new points.
    pub(super) fn receive_experiment(&mut self) {
        if let Some(e) = &mut self.grid.experiment {
            e.points.extend(e.rx.try_iter());
        }
    }

    fn open_scenario(&mut self, path: &Path) {
        let scenario = match crate::puzzles::read_text_file(path) {
            Ok(text) => match movingai::parse_scenario(&text) {
                Ok(s) => s,
                Err(e) => {
                    self.set_error(format!("Could not open {}: {e}", path.display()));
                    return;
                }
            },
            Err(e) => {
                self.set_error(format!("Could not open {e}"));
                return;
            }
        };
        // Use the maze on screen if it fits, else the map the scenario names.
        let fits = self.maze().is_some_and(|m| scenario.check_map(m).is_ok());
        if !fits {
            let Some(map_path) = scenario.find_map(path) else {
                self.set_error(format!(
                    "{}: cannot find the map `{}`; open the map first, then the scenario.",
                    path.display(),
                    scenario.map
                ));
                return;
            };
            match puzzles::load_file(&map_path, Some("maze")) {
                Ok(p) => self.replace_puzzle(p, Some(map_path)),
                Err(e) => {
                    self.set_error(format!("Could not open the scenario's map: {e}"));
                    return;
                }
            }
            if let Some(Err(e)) = self.maze().map(|m| scenario.check_map(m)) {
                self.set_error(format!("The scenario does not fit its map: {e}"));
                return;
            }
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        self.grid.scenario = Some(ScenarioView {
            scenario,
            name,
            index: 0,
        });
        self.show_scenario_problem(0);
    }

    fn show_scenario_problem(&mut self, index: usize) {
        let Some(view) = &mut self.grid.scenario else {
            return;
        };
        let index = index.min(view.scenario.problems.len() - 1);
        view.index = index;
        let problem = view.scenario.problems[index].clone();
        self.edit_as(|m: &mut Maze| {
            *m = m.with_problem(&problem);
            true
        });
        self.set_status(format!(
            "Problem {} of the scenario (line {}): from x {}, y {} to x {}, y {}; stated optimal length {:.4}.",
            index + 1,
            problem.line,
            problem.start.col,
            problem.start.row,
            problem.goal.col,
            problem.goal.row,
            problem.optimal
        ));
    }

    /// The open scenario's stated optimal length for the problem shown.
    pub fn scenario_optimal(&self) -> Option<f64> {
        let view = self.grid.scenario.as_ref()?;
        Some(view.scenario.problems[view.index].optimal)
    }

    /// The value a stroke starting on `cell` of a maze paints with the current brush, or the
    /// drag it starts (start or goal square), or a goal toggle.
    pub(crate) fn maze_stroke(&self, maze: &Maze, cell: Cell) -> Option<StrokeStart> {
        if maze.percolation() == Percolation::Off {
            if cell == maze.start() {
                return Some(StrokeStart::Drag(Endpoint::Start));
            }
            if let Some(i) = maze.goals().iter().position(|&g| g == cell)
                && self.settings.grid.brush != Brush::Goals
            {
                return Some(StrokeStart::Drag(Endpoint::Goal(i)));
            }
        }
        match self.settings.grid.brush {
            Brush::Walls => maze.stroke_value(cell).map(StrokeStart::Paint),
            Brush::Terrain(n) => Some(StrokeStart::Paint(n.clamp(1, 9))),
            Brush::Goals => Some(StrokeStart::ToggleGoal),
        }
    }

    /// Queues what a stroke does on `cell` of a maze.
    pub(crate) fn maze_stroke_at(&mut self, start: StrokeStart, cell: Cell) {
        match start {
            StrokeStart::Paint(v) => self.push(AppCommand::Paint(cell, v)),
            StrokeStart::ToggleGoal => self.push(AppCommand::Grid(GridCommand::ToggleGoal(cell))),
            StrokeStart::Drag(Endpoint::Start) => {
                self.push(AppCommand::Grid(GridCommand::MoveStart(cell)));
            }
            StrokeStart::Drag(Endpoint::Goal(i)) => {
                self.push(AppCommand::Grid(GridCommand::MoveGoal(i, cell)));
            }
        }
    }
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
