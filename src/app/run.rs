//! The runs group: searches on the solver thread. Holds the commands `SetAlgorithm`,
//! `Start`, `Stop`, `Pause`, `Resume`, `Step`, `SetBreakpoints` and `SetSpeed`, and the
//! frame's work of taking the solver's events under the frame's budget (races: the race
//! group, `race.rs`).

use super::{AppState, Run, pick_algorithm};
use crate::puzzles::Report;
use crate::runs::results::ResultRow;
use crate::search::{Algorithm, Outcome};
use crate::solver::{Command as SolverCommand, Event, SolverHandle};

impl AppState {
    /// The figures the Statistics panel shows: while the timeline follows the run, the
    /// search's own figures, so far or final (the picture may be some frames behind at full
    /// speed, also after the end, and the replay that draws it counts only places: states
    /// generated, the peak frontier and the greatest depth read 0, or the final ones beside
    /// the replay's expansions); else those of the moment shown.
    pub fn shown_stats(&self) -> &crate::search::Stats {
        let following = (self.work.timeline.as_ref()).is_none_or(|t| t.follow);
        match (&self.runs.current, &self.work.result) {
            (Some(run), _) if following && run.stats.expanded > 0 => &run.stats,
            (None, Some(report)) if following => &report.stats,
            _ => &self.work.marks.stats,
        }
    }

    /// The running search's own count of expansions (at its last progress event), whatever
    /// moment the timeline shows; without a run, the moment shown's.
    pub(super) fn run_expansions(&self) -> u64 {
        match &self.runs.current {
            Some(run) => run.stats.expanded,
            None => self.work.marks.stats.expanded,
        }
    }

    /// Takes every event the solver has sent (cheap: each progress event's chunk is queued on
    /// the run's track, its figures go into the marks), then appends the queued chunks to the
    /// recording under a time budget (the timeline then moves the marks towards its head,
    /// under the frame's budget). The solver never waits for this: the final report is
    /// shown as soon as it arrives, and the picture catches up over the frames after.
    pub(super) fn receive_events(&mut self) {
        let Some(run) = &mut self.runs.current else {
            self.absorb_queued(1);
            return;
        };
        // A third of the frame's work budget while the search runs; the replay towards the
        // head and the picture get the rest. Once the search has ended, what is left is to
        // catch up with its last events (the solver never waited for us): the whole budget.
        let share = if run.handle.search_ended() { 1 } else { 3 };
        let track = self.work.timeline.as_mut().and_then(|t| t.track.as_mut());
        let mut track = track;
        let mut last = None;
        let mut breakpoint = None;
        loop {
            match run.handle.next_event() {
                None => break,
                Some(Event::Progress(mut progress)) => {
                    if let Some(track) = track.as_deref_mut() {
                        track.queue(std::mem::take(&mut progress.chunk));
                    }
                    run.stats = progress.stats.clone();
                    if progress.board.is_some() {
                        run.board.clone_from(&progress.board);
                    }
                    self.work.marks.take_figures(&progress);
                    if let Some(why) = progress.breakpoint.take() {
                        run.is_paused = true;
                        breakpoint = Some(why);
                    }
                }
                Some(event) => {
                    last = Some(event);
                    break;
                }
            }
        }
        self.absorb_queued(share);
        if let Some(why) = breakpoint {
            self.runs.paused_status = false;
            self.set_status(format!(
                "Paused at a breakpoint: {why}. Resume (Space) goes on, Step (S) expands one \
                 state."
            ));
        }
        match last {
            Some(Event::Finished(report)) => {
                self.runs.paused_status = false;
                self.finish(report);
            }
            Some(Event::Failed(message)) => {
                self.runs.paused_status = false;
                self.set_error(format!("Search failed: {message}"));
            }
            _ => {}
        }
        if self
            .runs
            .current
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.runs.current = None;
        }
        // The pause takes effect at the solver's next expansion: the message follows the
        // run's own figures that arrive after it (the timeline's position, scrubbed back,
        // is the timeline's to tell).
        if self.runs.paused_status && self.is_paused() {
            let text = paused_text(self.run_expansions());
            if self.status.text != text {
                self.set_status(text);
            }
        }
        if self.runs.current.as_ref().is_some_and(|r| !r.is_paused) {
            self.warn_if_out_of_reach();
        }
    }

    /// The status line of a running search whose space is out of reach at the rate its
    /// puzzle measured so far (a script's, [`crate::puzzles::capabilities::Reach`]): said
    /// from its first frame when an earlier run measured the rate, else as soon as this one
    /// has. It replaces only the plain "Searching with …" line.
    fn warn_if_out_of_reach(&mut self) {
        let searching = format!("Searching with {}…", self.work.algorithm.label());
        if self.status.text != searching {
            return;
        }
        let Some(reach) = self.work.puzzle.capabilities().reach else {
            return;
        };
        let timeout = self.limits().timeout;
        if let Some(warning) = crate::puzzles::capabilities::out_of_reach(reach, timeout) {
            self.set_status(format!("{searching} The space is {warning}."));
        }
    }

    /// Whether the search has ended (or is ending) and the picture is still catching up with
    /// its recording: chunks still queued, or the view following the head not there yet.
    pub(super) fn is_catching_up(&self) -> bool {
        let ended = self
            .runs
            .current
            .as_ref()
            .is_none_or(|r| r.handle.search_ended());
        let behind = (self.work.timeline.as_ref()).is_some_and(|t| {
            t.follow
                && t.track
                    .as_ref()
                    .is_some_and(|k| !k.is_caught_up() || k.shown() < k.len())
        });
        ended && behind
    }

    /// Appends the chunks of the run's recording taken from the solver and not yet in, for
    /// `1 / share` of the frame's work budget (at least one chunk).
    fn absorb_queued(&mut self, share: u32) {
        let deadline = self.frame.started.unwrap_or_else(std::time::Instant::now)
            + self.frame.work_budget / share;
        if let Some(track) = self.work.timeline.as_mut().and_then(|t| t.track.as_mut()) {
            track.absorb(&mut self.work.marks, deadline);
            let spent = track.take_spent();
            if let Some(run) = &self.runs.current {
                run.handle.recycle(spent);
            }
        }
    }

    /// Appends every chunk of the run's recording still queued, whatever the time: before an
    /// export reads the recording whole (a click's one-off work, a few milliseconds a
    /// million expansions).
    pub(super) fn catch_up_recording(&mut self) {
        if let Some(track) = self.work.timeline.as_mut().and_then(|t| t.track.as_mut()) {
            while !track.absorb(&mut self.work.marks, std::time::Instant::now()) {}
        }
    }

    fn finish(&mut self, report: Report) {
        self.work.marks.stats = report.stats.clone();
        self.work.marks.current = None;
        self.work.marks.path.clear();
        let text = match report.outcome {
            Outcome::Found => {
                let mut text = format!(
                    "Solved: {}, cost {} ({}), {} expanded in {}.",
                    super::count_in(report.moves.len() as u64, &self.work.puzzle.metric_label()),
                    crate::search::format_cost(report.cost),
                    if report.optimal {
                        "optimal"
                    } else {
                        "not guaranteed optimal"
                    },
                    super::count(report.stats.expanded, "state"),
                    crate::search::format_ms(report.stats.elapsed_ms)
                );
                for note in &report.notes {
                    text += &format!(" {}", super::sentence(note));
                }
                text
            }
            Outcome::NotFound => format!(
                "No path: the goal cannot be reached. All {} reachable states were explored.",
                report.stats.expanded
            ),
            Outcome::Cancelled => {
                let mut text = format!(
                    "Stopped after {}.",
                    super::count(report.stats.expanded, "expansion")
                );
                if report.algorithm != self.work.algorithm {
                    // Stopped by a change of the algorithm (see `set_algorithm`).
                    text = format!(
                        "Stopped the {} run after {}: Start runs {} now.",
                        report.algorithm.label(),
                        super::count(report.stats.expanded, "expansion"),
                        self.work.algorithm.label()
                    );
                }
                text
            }
            // What the command line says: the search stopped at the error, with its line.
            Outcome::MemoryLimit | Outcome::Timeout | Outcome::ScriptError => {
                let message = report.message.clone().unwrap_or_default();
                format!("Search {message}.")
            }
        };
        if report.outcome.is_limit() || report.outcome == Outcome::ScriptError {
            self.set_error(text);
        } else {
            self.set_status(text);
        }
        let name = self.result_name();
        self.runs
            .results
            .push(ResultRow::new(&name, self.work.puzzle.as_ref(), &report));
        self.work.shown_moves = report.moves.len();
        if let Some(track) = self.work.timeline.as_mut().and_then(|t| t.track.as_mut()) {
            track.finish();
        }
        self.work.result = Some(report);
    }

    /// Whether the puzzle provably has no solution: then the status line says so and why,
    /// and no search is started.
    pub(super) fn refuse_unsolvable(&mut self) -> bool {
        let Some(why) = self.work.puzzle.unsolvable() else {
            return false;
        };
        let why = super::sentence(&why);
        let why = if why.to_lowercase().starts_with("unsolvable") {
            why
        } else {
            format!("Unsolvable: {why}")
        };
        self.set_error(format!("{why} No search was run."));
        true
    }

    pub(super) fn start(&mut self, paused: bool) {
        if self.refuse_unsolvable() {
            return;
        }
        self.stop_run();
        self.runs.race = None;
        self.work.result = None;
        self.work.shown_moves = 0;
        self.windows.learn.forget_guesses();
        self.playback.transition = None;
        self.playback.playing = false;
        // The pinned state of the run before stays the breakpoints' pinned state.
        if let Some(super::timeline::Pinned::Place(p)) =
            self.work.timeline.as_ref().and_then(|t| t.pinned)
        {
            self.runs.breakpoints.pinned = Some(p);
        }
        let (rows, cols) = self.work.puzzle.dims();
        self.work.marks.renew(rows, cols);
        let track = super::Track::live(rows, cols, self.work.algorithm, self.limits().tie_break);
        self.work.timeline = Some(super::Timeline::new(Some(track), 0));
        let wake = self.waker();
        match SolverHandle::spawn_with(
            self.work.puzzle.clone_box(),
            self.work.algorithm,
            self.speed(),
            paused,
            self.limits(),
            self.runs.breakpoints,
            wake,
        ) {
            Ok(handle) => {
                self.runs.current = Some(Run {
                    handle,
                    is_paused: paused,
                    stats: Default::default(),
                    board: None,
                });
                // A run started paused expands its first state, then waits: that is the step.
                self.runs.paused_status = paused;
                if paused {
                    self.set_status(paused_text(1));
                } else {
                    self.set_status(format!("Searching with {}…", self.work.algorithm.label()));
                }
            }
            Err(e) => {
                self.work.timeline = None;
                self.set_error(format!("Could not start the solver thread: {e}"));
            }
        }
    }

    /// Stops the running search, if any, without waiting for it.
    pub(crate) fn stop_run(&mut self) {
        if let Some(run) = self.runs.current.take() {
            run.handle.stop();
        }
    }

    /// The window closes (a close request: the app never refuses one): the search, a race's
    /// lanes, the oracle's build and every background job are told to stop at once, so none
    /// of them holds a core while the window's last frame (which does and draws nothing
    /// else, see [`AppState::is_closing`]) ends and its work is kept. (Under Xvfb at a load
    /// of 6 on 2 cores, a search running in a script's `moves` made the close take 0.75 to
    /// 1.37 s; stopped, 0.45 to 0.56 s.) Nothing is waited for.
    pub fn stop_all_for_exit(&mut self) {
        if let Some(run) = &self.runs.current {
            run.handle.stop();
        }
        if let Some(race) = &self.runs.race {
            race.stop();
        }
        self.windows.oracle.stop();
        self.windows.heuristic_window.sample.stop();
        self.stop_all_work();
    }

    /// The puzzle's name in the results table: its file's name, marked "(edited)" when the
    /// puzzle on screen is no longer the file's (edited, generated, scrambled), or its type.
    pub(crate) fn result_name(&self) -> String {
        let label = self.work.puzzle.puzzle_type().label;
        match self.file_name() {
            Some(file) if self.is_modified() => format!("{file} ({label}, edited)"),
            Some(file) => format!("{file} ({label})"),
            None => label.to_owned(),
        }
    }

    /// The puzzle's name in the title bar: its file (the one opened or saved, or the
    /// shipped one), or its type.
    pub(crate) fn run_name(&self) -> String {
        self.file_name()
            .unwrap_or_else(|| self.work.puzzle.puzzle_type().label.to_owned())
    }

    /// The name of the puzzle's file: the one opened or saved, or the shipped one.
    fn file_name(&self) -> Option<String> {
        (self.settings.path.as_ref())
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .or_else(|| self.work.shipped.map(str::to_owned))
    }

    /// Chooses the algorithm. A run of another, running or paused, is stopped as Stop stops
    /// it (its report and recording kept, narrated by its own algorithm), and the status
    /// says so: before, it was dropped without a word, and the Learn panel read its
    /// recording as the new algorithm's.
    pub(super) fn set_algorithm(&mut self, a: Algorithm) {
        if a == self.work.algorithm {
            return;
        }
        let old = self.work.algorithm;
        let live = self.runs.current.is_some();
        if live {
            self.stop();
        }
        self.work.algorithm = a;
        self.settings.algorithm = Some(a);
        if live {
            // The report, arriving within about 10 ms, says the same with its own figures.
            self.set_status(format!(
                "Stopped the {} run after {}: Start runs {} now.",
                old.label(),
                super::count(self.run_expansions(), "expansion"),
                a.label()
            ));
        }
    }

    /// Stops the running search.
    pub(super) fn stop(&mut self) {
        // Acts at once: the flag is set now, and the window says so in the next
        // frame, with the figures shown at the click; the solver's final report
        // (within about 10 ms) brings the figures at the moment it stopped.
        if let Some(run) = &self.runs.current {
            run.handle.stop();
            self.work.marks.current = None;
            self.set_status(format!(
                "Stopped after {}.",
                super::count(self.run_expansions(), "expansion")
            ));
        }
    }

    /// Pauses the running search.
    pub(super) fn pause(&mut self) {
        if let Some(run) = &mut self.runs.current {
            run.handle.send(SolverCommand::Pause);
            run.is_paused = true;
            self.runs.paused_status = true;
            let text = super::run::paused_text(self.run_expansions());
            self.set_status(text);
        }
    }

    /// Resumes the paused search.
    pub(super) fn resume(&mut self) {
        if let Some(run) = &mut self.runs.current {
            run.handle.send(SolverCommand::Resume);
            run.is_paused = false;
            self.runs.paused_status = false;
            self.set_status(format!("Searching with {}…", self.work.algorithm.label()));
            self.follow_the_run();
        }
    }

    /// Expands one state: of the running search (paused first), or of a new one started
    /// paused.
    pub(super) fn step(&mut self) {
        match &mut self.runs.current {
            Some(run) => {
                if !run.is_paused {
                    run.handle.send(SolverCommand::Pause);
                    run.is_paused = true;
                }
                run.handle.send(SolverCommand::Step);
                self.runs.paused_status = true;
                self.follow_the_run();
            }
            None => self.start(true),
        }
    }

    /// Sets the breakpoints of the next runs and the running one.
    pub(super) fn set_breakpoints(&mut self, breakpoints: crate::runs::breakpoints::Breakpoints) {
        self.runs.breakpoints = breakpoints;
        if let Some(run) = &self.runs.current {
            run.handle.send(SolverCommand::SetBreakpoints(breakpoints));
        }
    }

    /// Sets the animation speed of the running search and the race.
    pub(super) fn set_speed(&mut self, speed: f64, full: bool) {
        self.settings.speed = speed;
        self.settings.full_speed = full;
        if let Some(run) = &self.runs.current {
            run.handle.send(SolverCommand::SetSpeed(self.speed()));
        }
        // The lanes of a race run at the same speed.
        if let Some(race) = &self.runs.race {
            race.set_speed(self.speed());
        }
    }

    /// Picks the algorithm again after a change of the puzzle's rules: the one chosen if it
    /// still applies, else the puzzle's default.
    pub(crate) fn repick_algorithm(&mut self) {
        self.work.algorithm = pick_algorithm(self.work.puzzle.as_ref(), Some(self.work.algorithm));
    }
}

/// The status line of a paused search after `expanded` expansions.
pub(super) fn paused_text(expanded: u64) -> String {
    format!(
        "Paused after {}: Step (S) expands one state, Resume (Space) goes on.",
        super::count(expanded, "expansion")
    )
}
