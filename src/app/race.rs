//! The race group: two to four algorithms search the same puzzle at once, each on its own
//! solver thread at the same speed (expansions per second), each with its own marks of the
//! search and its own result. Holds the commands `RaceToggle`, `StartRace`, `StartTieRace`,
//! `StopRace` and `CloseRace`, and the frame's work of taking the race's events.

use std::sync::Arc;
use std::time::Duration;

use super::SearchMarks;
use crate::puzzles::{Puzzle, Report};
use crate::runs::results::ResultRow;
use crate::search::{Algorithm, Limits, TieBreak};
use crate::solver::{Event, SolverHandle, Speed};

/// The fewest and the most algorithms in a race.
pub const RACERS: std::ops::RangeInclusive<usize> = 2..=4;

/// One algorithm's run in a race.
pub struct Lane {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// In a race of tie-breaking policies, this lane's (see [`Limits::tie_break`]).
    pub tie_break: Option<TieBreak>,
    handle: Option<SolverHandle>,
    /// What its search shows at the race's timeline position.
    pub marks: SearchMarks,
    /// The search's own figures at its last progress event (or its end).
    pub stats: crate::search::Stats,
    /// Its result, once finished.
    pub result: Option<Report>,
    /// Why it could not run, if it could not.
    pub error: Option<String>,
    /// Its recording, growing as it runs, and the position its marks show on the race's
    /// shared timeline.
    pub track: Option<super::Track>,
}

impl Lane {
    /// The lane's name: the algorithm's, with its tie-breaking policy in a race of policies
    /// (`A* (ties: low-g)`).
    pub fn label(&self) -> String {
        match self.tie_break {
            Some(t) => format!("{} (ties: {})", self.algorithm.label(), t.name()),
            None => self.algorithm.label().to_owned(),
        }
    }
}

/// A race between algorithms on one puzzle.
pub struct Race {
    /// The lanes, in the order the algorithms were chosen.
    pub lanes: Vec<Lane>,
}

impl Race {
    /// Starts every algorithm on its own solver thread at `speed` expansions per second
    /// (infinite: as fast as each can), each under `limits`. `wake` is called after every event.
    ///
    /// # Errors
    /// The error of spawning a thread (the lanes already started are stopped).
    pub fn start(
        puzzle: &dyn Puzzle,
        algorithms: &[Algorithm],
        speed: Speed,
        limits: Limits,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) -> std::io::Result<Self> {
        let entrants: Vec<(Algorithm, Limits, Option<TieBreak>)> =
            algorithms.iter().map(|&a| (a, limits, None)).collect();
        Self::start_lanes(puzzle, &entrants, speed, wake)
    }

    /// Starts `algorithm` once for each tie-breaking policy ([`TieBreak::ALL`]), each on its
    /// own solver thread, under `limits` with that policy.
    ///
    /// # Errors
    /// As [`Race::start`].
    pub fn start_tie_breaks(
        puzzle: &dyn Puzzle,
        algorithm: Algorithm,
        speed: Speed,
        limits: Limits,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) -> std::io::Result<Self> {
        let entrants: Vec<(Algorithm, Limits, Option<TieBreak>)> = TieBreak::ALL
            .iter()
            .map(|&t| {
                let lane_limits = Limits {
                    tie_break: t,
                    ..limits
                };
                (algorithm, lane_limits, Some(t))
            })
            .collect();
        Self::start_lanes(puzzle, &entrants, speed, wake)
    }

    fn start_lanes(
        puzzle: &dyn Puzzle,
        entrants: &[(Algorithm, Limits, Option<TieBreak>)],
        speed: Speed,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) -> std::io::Result<Self> {
        let mut lanes = Vec::new();
        for &(algorithm, limits, tie_break) in entrants {
            let handle = SolverHandle::spawn(
                puzzle.clone_box(),
                algorithm,
                speed,
                false,
                limits,
                wake.clone(),
            )?;
            let (rows, cols) = puzzle.dims();
            lanes.push(Lane {
                algorithm,
                tie_break,
                handle: Some(handle),
                marks: SearchMarks::for_puzzle(puzzle),
                stats: crate::search::Stats::default(),
                result: None,
                error: None,
                track: Some(super::Track::live(rows, cols, algorithm, limits.tie_break)),
            });
        }
        Ok(Self { lanes })
    }

    /// Whether any lane is still searching.
    pub fn is_running(&self) -> bool {
        self.lanes.iter().any(|l| l.handle.is_some())
    }

    /// Sets the speed of every lane still searching (expansions a second; infinite for
    /// full speed).
    pub fn set_speed(&self, speed: crate::solver::Speed) {
        for handle in self.lanes.iter().filter_map(|l| l.handle.as_ref()) {
            handle.send(crate::solver::Command::SetSpeed(speed));
        }
    }

    /// Stops every lane still running.
    pub fn stop(&self) {
        for handle in self.lanes.iter().filter_map(|l| l.handle.as_ref()) {
            handle.stop();
        }
    }

    /// Takes every lane's events (each under `budget`): returns the reports of the lanes that
    /// finished now, to add to the results table.
    pub fn drain(&mut self, budget: Duration) -> Vec<Report> {
        let mut finished = Vec::new();
        for lane in &mut self.lanes {
            let Some(handle) = &mut lane.handle else {
                continue;
            };
            for event in handle.drain(budget) {
                match event {
                    Event::Progress(mut progress) => {
                        if let Some(track) = &mut lane.track {
                            track.append(std::mem::take(&mut progress.chunk), &mut lane.marks);
                            handle.recycle(track.take_spent());
                        }
                        lane.stats = progress.stats.clone();
                        lane.marks.take_figures(&progress);
                    }
                    Event::Finished(report) => {
                        lane.stats = report.stats.clone();
                        if let Some(track) = &mut lane.track {
                            track.finish();
                        }
                        finished.push(report.clone());
                        lane.result = Some(report);
                    }
                    Event::Failed(message) => lane.error = Some(message),
                }
            }
            if handle.is_finished() {
                lane.handle = None;
            }
        }
        finished
    }
}

/// How long a frame may spend taking a race's events.
const RACE_DRAIN_BUDGET: std::time::Duration = std::time::Duration::from_millis(2);

/// The race's commands.
impl super::AppState {
    /// Starts the chosen algorithms together (2 to 4 of those that apply), at the speed set.
    pub(super) fn start_race(&mut self) {
        let available = self.work.puzzle.algorithms();
        let chosen: Vec<Algorithm> = self
            .runs
            .race_choice
            .iter()
            .copied()
            .filter(|a| available.iter().any(|b| b.same_kind(*a)))
            .collect();
        if !RACERS.contains(&chosen.len()) {
            self.set_error(format!(
                "A race needs 2 to 4 algorithms that apply to this puzzle; {} chosen.",
                chosen.len()
            ));
            return;
        }
        let names: Vec<&str> = chosen.iter().map(|a| a.label()).collect();
        let status = format!("Racing {}…", names.join(" vs "));
        self.launch_race(status, |puzzle, speed, limits, wake| {
            Race::start(puzzle, &chosen, speed, limits, wake)
        });
    }

    /// Starts the chosen algorithm once for each tie-breaking policy, side by side, at the
    /// speed set: how much the policy changes the states expanded, live.
    pub(super) fn start_tie_race(&mut self) {
        let algorithm = self.algorithm();
        if !algorithm.has_open_list() || self.work.puzzle.refusal(algorithm).is_some() {
            self.set_error(format!(
                "{} keeps no open list: tie-breaking policies apply to Dijkstra, A*, weighted \
                 A*, greedy, JPS and bidirectional A*.",
                algorithm.label()
            ));
            return;
        }
        let status = format!(
            "Racing {} with each tie-breaking policy…",
            algorithm.label()
        );
        self.launch_race(status, |puzzle, speed, limits, wake| {
            Race::start_tie_breaks(puzzle, algorithm, speed, limits, wake)
        });
    }

    /// Starts the race `start` makes of the puzzle on screen (at the speed and limits set),
    /// unless the puzzle provably has no solution: the single run is stopped and its
    /// timeline parked for the race's, and the status says `status` (or why the race could
    /// not start, the timeline given back).
    fn launch_race(
        &mut self,
        status: String,
        start: impl FnOnce(
            &dyn Puzzle,
            Speed,
            Limits,
            &Arc<dyn Fn() + Send + Sync>,
        ) -> std::io::Result<Race>,
    ) {
        if self.refuse_unsolvable() {
            return;
        }
        self.stop_run();
        self.runs.race = None;
        let parked = self.park_timeline();
        let wake = self.waker();
        match start(
            self.work.puzzle.as_ref(),
            self.speed(),
            self.limits(),
            &wake,
        ) {
            Ok(r) => {
                self.runs.race = Some(r);
                self.make_race_timeline(parked);
                self.set_status(status);
            }
            Err(e) => {
                self.work.timeline = parked;
                self.set_error(format!("Could not start the race: {e}"));
            }
        }
    }

    /// Takes the race's events; a lane that finishes adds its row to the results table.
    pub(super) fn receive_race(&mut self) {
        let Some(r) = &mut self.runs.race else {
            return;
        };
        let was_running = r.is_running();
        let finished = r.drain(RACE_DRAIN_BUDGET);
        let done = !r.is_running();
        let name = self.result_name();
        for report in finished {
            self.runs
                .results
                .push(ResultRow::new(&name, self.work.puzzle.as_ref(), &report));
        }
        if was_running && done {
            self.set_status("Race over: see each pane and the results table.");
        }
    }

    /// Takes the timeline off the screen for a race: the single run's, to be given back when
    /// the race closes (from a race's timeline, the run's it parked).
    fn park_timeline(&mut self) -> Option<super::Timeline> {
        let timeline = self.work.timeline.take()?;
        if timeline.track.is_some() {
            Some(timeline)
        } else {
            timeline.parked.map(|t| *t)
        }
    }

    /// Adds `a` to the next race, or takes it out.
    pub(super) fn race_toggle(&mut self, a: Algorithm) {
        if let Some(i) = self.runs.race_choice.iter().position(|b| b.same_kind(a)) {
            self.runs.race_choice.remove(i);
        } else if self.runs.race_choice.len() < *RACERS.end() {
            self.runs.race_choice.push(a);
        }
    }

    /// Stops every lane of the race still running.
    pub(super) fn stop_race(&mut self) {
        if let Some(r) = &self.runs.race {
            r.stop();
        }
    }

    /// Closes the race panes: back to the single run on screen.
    pub(super) fn close_race(&mut self) {
        // Back to the single run on screen, and its timeline (the race's goes with
        // its panes).
        self.runs.race = None;
        self.work.timeline = self.work.timeline.take().and_then(|t| t.parked.map(|p| *p));
        // The race's lines ("Racing…", "Race over…") no longer describe the screen.
        self.set_status(if self.work.result.is_some() {
            "Race closed: back to the puzzle and its last single run."
        } else {
            "Race closed: back to the puzzle."
        });
    }
}
