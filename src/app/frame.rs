//! The frame group: the work of each frame around the drawing. Before it is drawn
//! ([`AppState::begin_frame`]): its work budget, then each group's frame work in turn
//! (playback, the solver's and the race's events, the timeline, the Learn panel, the file
//! dialogs' answers and files opened, the oracle and the windows' builds, a heuristic claim
//! refuted); after its commands are applied: the saved check, the autosave and the next
//! frame asked for. It applies no command of its own.

use std::time::Duration;

use eframe::egui;

use super::timeline::Track;
use super::{
    AppState, CATCH_UP_BUDGET, MAX_WORK_BUDGET, MIN_WORK_BUDGET, PACED_FRAME_AS, ShownMoment,
    UI_CALL_LIMIT, search_tree,
};
use crate::search::Algorithm;

impl AppState {
    /// Whether this frame answers a close request the app goes along with (see
    /// [`AppState::stop_all_for_exit`]): nothing more is done or drawn in it.
    pub fn is_closing(&self) -> bool {
        self.frame.closing
    }

    /// At the window's end, once its work is kept (eframe calls this after saving, and
    /// drops the app before it takes the window away): what may hold millions of
    /// allocations (the runs and their recordings, the timeline, the oracle's space, the
    /// other types' workspaces) is dropped on a thread of its own, which the process's exit
    /// ends, not on the window's thread while the window stays on screen. Whether it was
    /// handed over.
    pub fn let_go_for_exit(&mut self) -> bool {
        let heavy = (
            std::mem::take(&mut self.runs),
            self.work.timeline.take(),
            std::mem::take(&mut self.windows.oracle),
            std::mem::take(&mut self.workspaces),
        );
        std::thread::Builder::new()
            .name("let-go".into())
            .spawn(move || drop(heavy))
            .is_ok()
    }

    /// When this frame's incremental work stops, counted from the frame's start (see
    /// [`MIN_WORK_BUDGET`]); work that starts after it still gets a sixteenth of the budget,
    /// so each part of the frame moves on a little.
    pub(crate) fn work_deadline(&self) -> std::time::Instant {
        let now = std::time::Instant::now();
        let floor = now + self.frame.work_budget / 16;
        self.frame
            .started
            .map_or(now + self.frame.work_budget, |started| {
                started + self.frame.work_budget
            })
            .max(floor)
    }

    /// The frame's work before anything is drawn: playback, the solver's and the race's
    /// events, file dialogs' answers, background builds, dropped files. The ui layer calls
    /// this first in each frame, then draws, then calls [`AppState::end_frame`].
    pub fn begin_frame(&mut self, ctx: &egui::Context) {
        if self.frame.repaint.is_none() {
            self.frame.repaint = Some(ctx.clone());
        }
        // The window's thread: no user code runs here without a time limit.
        crate::puzzles::call_limits::limit_this_thread(
            crate::puzzles::call_limits::CallLimits::time(UI_CALL_LIMIT),
        );
        // A close request the app asked about first (unsaved edits a restart would not
        // bring back) is not a close yet.
        self.frame.closing =
            ctx.input(|i| i.viewport().close_requested()) && self.windows.quit_question.is_none();
        if self.frame.closing {
            // The window closes after this frame: its work stops, and none is done (the
            // solver's events, the timeline, the picture); the frame draws nothing.
            self.stop_all_for_exit();
            return;
        }
        self.frame.now = ctx.input(|i| i.time);
        let started = std::time::Instant::now();
        let since_last = (self.frame.started.map(|last| started - last)).map(|t| {
            if self.frame.paced {
                t.min(PACED_FRAME_AS)
            } else {
                t
            }
        });
        self.frame.work_budget = since_last
            .map_or(MIN_WORK_BUDGET, |t| t / 4)
            .clamp(MIN_WORK_BUDGET, MAX_WORK_BUDGET);
        if self.is_catching_up() {
            let more = since_last.map_or(MIN_WORK_BUDGET, |t| (t / 2).min(CATCH_UP_BUDGET));
            self.frame.work_budget = self.frame.work_budget.max(more);
        }
        self.frame.started = Some(started);
        self.tick_playback(ctx);
        self.receive_events();
        self.receive_race();
        self.tick_timeline(ctx);
        self.tick_learn();
        self.receive_dialogs();
        self.receive_opened(ctx);
        self.receive_restored(ctx);
        self.receive_dropped_files(ctx);
        let (wake, limits) = (self.waker(), self.limits());
        self.windows.oracle.hidden = self.shown_moment() == ShownMoment::Search;
        let key = self.shown_position_key();
        // The board a solution's playback shows is made for the oracle, and for a type
        // played by hand, whose moves by hand act on it (see `take_shown_board`).
        if self.windows.oracle.enabled || self.work.puzzle.capabilities().hand_play.is_some() {
            self.make_playback_position(key);
        }
        let shown = self.playback.position_at(key);
        self.windows
            .oracle
            .tick(self.work.puzzle.as_ref(), shown, key, limits, &wake);
        if self.windows.oracle.enabled && self.windows.oracle.show_map {
            self.windows.oracle.make_heat();
        }
        self.windows
            .space_window
            .tick(&self.windows.oracle, &wake, ctx);
        self.windows.heuristic_window.tick(
            &self.windows.oracle,
            self.work.puzzle.as_ref(),
            limits,
            &wake,
        );
        if (self.windows.gif_job.as_ref())
            .is_some_and(|job| job.finished.load(std::sync::atomic::Ordering::Relaxed))
        {
            // Written, failed or stopped: its outcome comes to the status bar.
            self.windows.gif_job = None;
        }
        self.withdraw_refuted_claim();
        let caught_up = (self.work.timeline.as_ref())
            .and_then(|t| t.track.as_ref())
            .is_none_or(Track::is_caught_up);
        let settled = (!self.is_running() || self.is_paused()) && caught_up;
        let recording = self.timeline_recording().cloned();
        let result = self.work.result.as_ref();
        self.windows.tree_window.tick(
            recording.as_ref(),
            || search_tree::Solution {
                places: result.map(|r| r.path.clone()).unwrap_or_default(),
                depth_first: result.is_some_and(|r| r.solved && r.algorithm == Algorithm::IdaStar),
            },
            settled,
            &wake,
            ctx,
        );
        match self.windows.space_window.poll_generated() {
            Some(Ok(command)) => self.commands.push(command),
            Some(Err(why)) => self.set_error(why),
            None => {}
        }
    }

    /// The frame's work after it is drawn and its commands applied (see
    /// [`PuzzleLabApp::end_frame`]): the autosave, and the next frame asked for.
    pub(super) fn after_commands(&mut self, ctx: &egui::Context, commands: bool) {
        self.check_saved();
        self.autosave_tick(ctx, commands);
        if self.runs.current.as_ref().is_some_and(|r| !r.is_paused) {
            // The worker wakes us on progress, at full speed at most once a
            // `FULL_SPEED_FRAME`; this keeps the elapsed time ticking too.
            ctx.request_repaint_after(if self.settings.full_speed {
                crate::solver::FULL_SPEED_FRAME
            } else {
                Duration::from_millis(100)
            });
        }
        self.frame.paced = self.settings.full_speed
            && (self.runs.current.as_ref())
                .is_some_and(|r| !r.is_paused && !r.handle.search_ended());
    }

    /// Withdraws "optimal" wherever it rested on a heuristic the puzzle declares admissible
    /// (a script's `const ADMISSIBLE = true`) once the Heuristic window measured it
    /// overestimating: the puzzle's claim (new runs and the toolbar then say "not optimal"),
    /// the answer on screen, the race's lanes and the results table's rows of this puzzle
    /// and heuristic. Called every frame; past the first withdrawal it looks only at rows
    /// and answers that are new.
    pub(super) fn withdraw_refuted_claim(&mut self) {
        let window = &self.windows.heuristic_window;
        let Some(example) = window.overestimate(&self.windows.oracle) else {
            return;
        };
        if self.windows.heuristic_window.refuted.is_none() {
            if !self.work.puzzle.withdraw_admissibility() {
                return;
            }
            self.windows.heuristic_window.refuted = Some(example);
            self.windows.heuristic_window.rows_checked = 0;
            self.set_error(format!(
                "The heuristic declared admissible overestimates (h = {} where the least cost \
                 is {}): \"optimal\" is withdrawn from the answers that relied on it.",
                crate::search::format_cost(example.h),
                crate::search::format_cost(example.hstar)
            ));
        }
        let why = "not optimal after all: the heuristic declared admissible was measured \
                   overestimating (Heuristic window)";
        let withdraw = |report: &mut crate::puzzles::Report| {
            if report.optimal && report.algorithm.needs_heuristic() {
                report.optimal = false;
                report.notes.push(why.to_owned());
            }
        };
        if let Some(report) = self.work.result.as_mut() {
            withdraw(report);
        }
        if let Some(race) = self.runs.race.as_mut() {
            race.lanes
                .iter_mut()
                .filter_map(|lane| lane.result.as_mut())
                .for_each(withdraw);
        }
        let checked = self.windows.heuristic_window.rows_checked;
        if checked < self.runs.results.len() {
            let heuristic = self.work.puzzle.heuristic_name();
            let name = self.result_name();
            let file = name.split(" (").next().unwrap_or_default().to_owned();
            for row in &mut self.runs.results[checked..] {
                if row.heuristic == heuristic && row.puzzle.split(" (").next() == Some(&file) {
                    row.optimal = false;
                }
            }
            self.windows.heuristic_window.rows_checked = self.runs.results.len();
        }
    }
}
