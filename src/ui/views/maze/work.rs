//! The grid maze view's longer work: generating a maze (animated or at once), the percolation
//! experiment in the background, and Moving AI scenarios. The background work is the app's,
//! run for the view ([`crate::app::view_work`]): its points and answers come back as the
//! view's commands.

use std::path::{Path, PathBuf};

use eframe::egui;

use super::{Command, MazeView, edit, maze};
use crate::app::{AppCommand, ViewWrite, WorkOrder};
use crate::puzzles::maze::generate::{self, Generated};
use crate::puzzles::maze::movingai::{self, Scenario};
use crate::puzzles::maze::percolation::{CurvePoint, Experiment, run_experiment};
use crate::puzzles::maze::{Connectivity, Maze};
use crate::puzzles::{self, Cell};
use crate::search::CancelToken;

/// An animated generation: the maze so far and the next square edit to make.
pub(super) struct Animation {
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

/// The view's name for the percolation experiment's work.
pub(super) const EXPERIMENT: &str = "percolation";

/// The view's name for the work of a scenario's "Run all".
pub(super) const RUN_ALL: &str = "scenario";

/// The view's name for the work that reads a scenario file and its map.
const OPEN_SCENARIO: &str = "open scenario";

/// How long opening a scenario waits for its file to be read, so a small one opens in the
/// frame of the command (a larger one arrives in a frame after).
const SCENARIO_WAIT: std::time::Duration = std::time::Duration::from_millis(50);

/// A scenario read from its file, with the map it names when the maze on screen did not fit
/// it (the map's path and the map).
#[derive(Debug)]
pub struct ReadScenario {
    scenario: Scenario,
    map: Option<(PathBuf, Box<dyn puzzles::Puzzle>)>,
}

impl Clone for ReadScenario {
    fn clone(&self) -> Self {
        Self {
            scenario: self.scenario.clone(),
            map: (self.map.as_ref()).map(|(path, map)| (path.clone(), map.clone_box())),
        }
    }
}

/// Reads and parses the scenario at `path`; unless `on_screen` fits it, finds the map it
/// names and reads that too. The error says which file failed and why. Runs on the view's
/// work, off the window's thread.
fn read_scenario(path: &Path, on_screen: Option<&Maze>) -> Result<ReadScenario, String> {
    let text = crate::puzzles::read_text_file(path).map_err(|e| format!("Could not open {e}"))?;
    let scenario = movingai::parse_scenario(&text)
        .map_err(|e| format!("Could not open {}: {e}", path.display()))?;
    // Use the maze on screen if it fits, else the map the scenario names.
    if on_screen.is_some_and(|m| scenario.check_map(m).is_ok()) {
        return Ok(ReadScenario {
            scenario,
            map: None,
        });
    }
    let Some(map_path) = scenario.find_map(path) else {
        return Err(format!(
            "{}: cannot find the map `{}`; open the map first, then the scenario.",
            path.display(),
            scenario.map
        ));
    };
    let map = puzzles::load_file(&map_path, Some("maze"))
        .map_err(|e| format!("Could not open the scenario's map: {e}"))?;
    Ok(ReadScenario {
        scenario,
        map: Some((map_path, map)),
    })
}

/// The percolation experiment running or run.
pub(super) struct ExperimentRun {
    /// Whether its work has ended (all its points taken).
    pub ended: bool,
    /// Whether it was asked to stop.
    stopped: bool,
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
    /// Stops it (the app stops its work); the points so far stay.
    pub fn stop(&mut self, app: &mut ViewWrite<'_>) {
        self.stopped = true;
        app.stop_work(EXPERIMENT);
    }

    /// Whether points are still coming.
    pub fn is_running(&self) -> bool {
        !self.ended && self.points.len() < self.expected && !self.stopped
    }
}

/// An open Moving AI scenario.
pub(super) struct ScenarioView {
    /// Its problems.
    pub scenario: Scenario,
    /// The file's name, for the panel.
    pub name: String,
    /// The problem shown (0-based).
    pub index: usize,
    /// Every problem run in the background ("Run all"), if started.
    pub run_all: Option<ScenarioRunAll>,
}

/// "Run all": the scenario's problems searched one after another in the background (the
/// app's work for the view sends whether each problem's cost matched the scenario's, then
/// the summary).
pub(super) struct ScenarioRunAll {
    /// The algorithm, as listed.
    pub algorithm: &'static str,
    /// Problems done so far, and of them matched.
    pub done: usize,
    pub matched: usize,
    /// The summary once it ends.
    pub summary: Option<movingai::ScenarioSummary>,
}

impl MazeView {
    pub(super) fn generate(&mut self, app: &mut ViewWrite<'_>) {
        self.finish_animation(app);
        crate::app::seed_to_use(
            &mut self.settings.generator_seed,
            &mut self.used_generator_seed,
        );
        let s = self.settings.clone();
        let generated = generate::generate(
            s.generator,
            s.cell_rows,
            s.cell_cols,
            s.generator_seed,
            s.braid,
        );
        let animate = s.animate && !app.settings().full_speed;
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
        edit(app, |m| {
            m.apply_generated(if animate { &start_grid } else { &generated });
            true
        });
        if animate {
            self.animation = Some(Animation {
                generated,
                next: 0,
                owed: 0.0,
                last_time: app.now(),
            });
            app.set_status(format!("Generating a {text}"));
        } else {
            app.set_status(format!("Generated a {text}"));
        }
        app.push(AppCommand::FitView);
    }

    /// Makes the edits an animated generation owes since the last frame, at the search speed
    /// (squares per second).
    pub(super) fn tick_animation(&mut self, app: &mut ViewWrite<'_>, ctx: &egui::Context) {
        let Some(anim) = &mut self.animation else {
            return;
        };
        let dt = (app.now() - anim.last_time).clamp(0.0, 0.25);
        anim.last_time = app.now();
        anim.owed += dt * app.settings().speed.max(1.0) * 4.0;
        let count = (anim.owed as usize).max(1);
        anim.owed -= count as f64;
        // Carved in place, a few passages a frame; the generation ends in one edit.
        let Some(done) =
            app.touch_model(true, |maze: &mut Maze| anim.carve(maze, anim.next + count))
        else {
            self.animation = None;
            return;
        };
        if done {
            self.animation = None;
            app.after_edit();
            app.set_status("Maze generated. Press Start to solve it.");
        } else {
            ctx.request_repaint();
        }
    }

    /// Completes an animated generation at once.
    pub(super) fn finish_animation(&mut self, app: &mut ViewWrite<'_>) {
        let Some(mut anim) = self.animation.take() else {
            return;
        };
        if app
            .touch_model(true, |maze: &mut Maze| anim.carve(maze, usize::MAX))
            .is_some()
        {
            app.after_edit();
        }
    }

    pub(super) fn run_experiment(&mut self, app: &mut ViewWrite<'_>) {
        if let Some(e) = &mut self.experiment {
            e.stop(app);
        }
        let s = &self.settings;
        let experiment = Experiment {
            side: s.experiment_side,
            trials: s.experiment_trials.max(1),
            steps: s.experiment_steps.max(1),
            connectivity: Connectivity::Four,
            seed: app.settings().seed,
        };
        let order = WorkOrder::new(
            EXPERIMENT,
            "percolation",
            CancelToken::new(),
            move |cx| {
                run_experiment(&experiment, cx.cancel, |point| {
                    cx.send(Command::ExperimentPoint(point));
                });
                Command::ExperimentEnded
            },
            |_| Command::ExperimentEnded,
        );
        if let Err(e) = app.start_work(order) {
            app.set_error(format!("Could not start the experiment: {e}"));
            return;
        }
        self.experiment = Some(ExperimentRun {
            ended: false,
            stopped: false,
            points: Vec::new(),
            expected: experiment.steps + 1,
            side: experiment.side,
            trials: experiment.trials,
        });
        self.experiment_window = true;
    }

    /// Takes the experiment's new points.
    /// Starts running every problem of the open scenario with the chosen algorithm, on the
    /// map on screen, in the background.
    pub(super) fn run_all_problems(&mut self, app: &mut ViewWrite<'_>) {
        let Some(view) = &mut self.scenario else {
            return;
        };
        let Some(map) = maze(app).cloned() else {
            return;
        };
        let algorithm = app.algorithm();
        if let Some(refusal) = algorithm.refusal(&map) {
            app.set_error(format!("Cannot run the scenario: {refusal}"));
            return;
        }
        let scenario = view.scenario.clone();
        let order = WorkOrder::new(
            RUN_ALL,
            "scenario",
            CancelToken::with_limits(app.limits()),
            move |cx| {
                let summary = scenario.run(&map, algorithm, cx.cancel, |run| {
                    cx.send(Command::ProblemRun(run.matched));
                });
                Command::ScenarioRun(Ok(summary))
            },
            |e| Command::ScenarioRun(Err(e.to_string())),
        );
        match app.start_work(order) {
            Ok(()) => {
                view.run_all = Some(ScenarioRunAll {
                    algorithm: algorithm.label(),
                    done: 0,
                    matched: 0,
                    summary: None,
                });
                app.set_status(format!(
                    "Running the {} problems of {} with {}…",
                    view.scenario.problems.len(),
                    view.name,
                    algorithm.label()
                ));
            }
            Err(e) => app.set_error(format!("Could not start the scenario run: {e}")),
        }
    }

    /// A problem of the background run was searched: whether its cost matched.
    pub(super) fn problem_run(&mut self, problem_matched: bool) {
        let run = (self.scenario.as_mut()).and_then(|view| view.run_all.as_mut());
        if let Some(run) = run.filter(|r| r.summary.is_none()) {
            run.done += 1;
            run.matched += usize::from(problem_matched);
        }
    }

    /// The background run ended: its summary goes to the status bar.
    pub(super) fn scenario_ran(
        &mut self,
        app: &mut ViewWrite<'_>,
        answer: Result<movingai::ScenarioSummary, String>,
    ) {
        let Some(view) = &mut self.scenario else {
            return;
        };
        let total = view.scenario.problems.len();
        let Some(run) = view.run_all.as_mut().filter(|r| r.summary.is_none()) else {
            return;
        };
        match answer {
            Ok(summary) => {
                app.set_status(format!(
                    "{}: {} ({}).",
                    view.name,
                    summary.line(total),
                    run.algorithm
                ));
                run.summary = Some(summary);
            }
            Err(e) => {
                app.set_error(format!("The scenario run failed: {e}"));
                view.run_all = None;
            }
        }
    }

    /// Opens the scenario file at `path`: read, parsed and its map found and read (when the
    /// maze on screen does not fit it) by the app's work for the view, off the window's
    /// thread, waited for a moment; the answer comes back as [`Command::ScenarioRead`].
    pub(super) fn open_scenario(&mut self, app: &mut ViewWrite<'_>, path: &Path) {
        let on_screen = maze(app).cloned();
        let (path, failed_path) = (path.to_owned(), path.to_owned());
        let order = WorkOrder::new(
            OPEN_SCENARIO,
            "scenario-read",
            CancelToken::new(),
            move |_| {
                let answer = read_scenario(&path, on_screen.as_ref());
                Command::ScenarioRead(path, answer)
            },
            move |e| Command::ScenarioRead(failed_path, Err(e.to_string())),
        );
        if let Err(e) = app.start_work(order) {
            app.set_error(format!("Could not open the scenario: {e}"));
            return;
        }
        app.wait_for_work(OPEN_SCENARIO, SCENARIO_WAIT);
    }

    /// The scenario at `path` read (see [`MazeView::open_scenario`]): its map on screen if it
    /// came with one, then its first problem; or the error in the status bar.
    pub(super) fn scenario_read(
        &mut self,
        app: &mut ViewWrite<'_>,
        path: &Path,
        answer: Result<ReadScenario, String>,
    ) {
        let ReadScenario { scenario, map } = match answer {
            Ok(read) => read,
            Err(e) => {
                app.set_error(e);
                return;
            }
        };
        if let Some((map_path, map)) = map {
            app.replace_puzzle(map, Some(map_path));
        }
        // The maze on screen fitted when the work set out, or is the scenario's map now.
        if let Some(Err(e)) = maze(app).map(|m| scenario.check_map(m)) {
            app.set_error(format!("The scenario does not fit its map: {e}"));
            return;
        }
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        // The run of the scenario before, if any, goes with it.
        app.forget_work(RUN_ALL);
        self.scenario = Some(ScenarioView {
            scenario,
            name,
            index: 0,
            run_all: None,
        });
        self.show_scenario_problem(app, 0);
    }

    pub(super) fn show_scenario_problem(&mut self, app: &mut ViewWrite<'_>, index: usize) {
        let Some(view) = &mut self.scenario else {
            return;
        };
        let index = index.min(view.scenario.problems.len() - 1);
        view.index = index;
        let problem = view.scenario.problems[index].clone();
        // The map's file holds no start or goal: placing the problem's is no edit of it.
        app.pose_problem::<Maze>(|m| {
            *m = m.with_problem(&problem);
            true
        });
        app.set_status(format!(
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
        let view = self.scenario.as_ref()?;
        Some(view.scenario.problems[view.index].optimal)
    }
}
