//! The playback group: what the canvas shows and when. Holds the timeline's commands
//! ([`TimelineCommand`]: seek, step, pin, heat maps, follow the head) and the solution's
//! playback (`AppCommand::ShowStep`, `AppCommand::Play`), the moment shown
//! ([`ShownMoment`]), the moves sliding on the canvas, and the frame's work of both
//! (playing back, replaying the recording onto the marks).

use std::sync::Arc;

use eframe::egui;

use std::time::Instant;

use super::timeline::{Pinned, Timeline, Track, place_at};
use super::{AppCommand, AppState, MAX_PLAYBACK_RATE, Transition, oracle};
use crate::puzzles::{Cell, Motion, Picture, Puzzle};
use crate::runs::recording::{Quantity, TraceRecorder};

/// Which moment of the puzzle the canvas draws, so that every readout can say what it
/// describes (see [`AppState::shown_moment`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShownMoment {
    /// The puzzle as it is (edited, played by hand).
    Puzzle,
    /// The solution's playback after this many moves.
    Solution(usize),
    /// A state of the search: the one being expanded, or the timeline's moment.
    Search,
}

/// What the timeline's controls ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum TimelineCommand {
    /// Go to this position.
    Seek(usize),
    /// Go this many expansions forward (or back, negative).
    Step(i64),
    /// Go to the next position where the quantity rises past every value shown so far.
    Next(Quantity),
    /// Go back to where the value shown of the quantity was first reached (or the one
    /// before).
    Previous(Quantity),
    /// Go to the first expansion of the pinned state.
    ToPinned,
    /// A click on the canvas pins a square (true) or edits (false).
    Inspect(bool),
    /// Pin the state at this square (or none).
    PinCell(Option<Cell>),
    /// Pin the state expanded last at the position shown (board puzzles).
    PinShown,
    /// Colour the closed set by this quantity, or by the marks alone.
    Heat(Option<Quantity>),
    /// Keep only the pinned (or the goal's) branch in colour.
    BranchOnly(bool),
    /// Follow the recording's head again (the live run), after a seek.
    Follow,
}

impl AppState {
    /// Which moment of the puzzle the canvas draws: a state of the search (while a board
    /// puzzle's search runs, after it ended at a script error, or the timeline is
    /// scrubbed back; with the Learn panel open, at a micro-step and at the end of a run
    /// that found no solution), the solution's playback
    /// (once a solution is found), or the puzzle as it is.
    pub fn shown_moment(&self) -> ShownMoment {
        let board_search = self.work.marks.board.is_some() && self.is_running();
        // A board search that ended at a script error shows the state whose expansion
        // failed (its last moment), not the start.
        let script_error = self.work.marks.board.is_some()
            && (self.work.result.as_ref())
                .is_some_and(|r| r.outcome == crate::search::Outcome::ScriptError);
        // The Learn panel names the board of the moment it tells ("n = the board shown"):
        // the canvas shows it at the last moment of a run stopped or ended without a
        // solution, and at a micro-step, not the puzzle's own board or the solution's.
        let lesson = self.windows.learn.open
            && self.work.marks.board.is_some()
            && self.runs.race.is_none()
            && ((self.work.result.as_ref()).is_some_and(|r| !r.solved)
                || self.learn_moment().is_some_and(|(_, m)| m.event.is_some()));
        if self.is_scrubbed() || board_search || script_error || lesson {
            return ShownMoment::Search;
        }
        match &self.work.result {
            Some(r) if r.solved && self.runs.race.is_none() => {
                ShownMoment::Solution(self.work.shown_moves.min(r.moves.len()))
            }
            _ => ShownMoment::Puzzle,
        }
    }

    /// The key of the position the oracle assesses: the puzzle, or the playback's moment.
    /// The position the canvas shows: the solution's playback at its move, when it is made
    /// (the oracle on), else the puzzle itself. What the windows about positions measure.
    pub fn shown_puzzle(&self) -> &dyn Puzzle {
        (self.playback.position_at(self.shown_position_key())).unwrap_or(self.work.puzzle.as_ref())
    }

    pub(super) fn shown_position_key(&self) -> oracle::PositionKey {
        let moment = match self.shown_moment() {
            ShownMoment::Solution(k) => k + 1,
            ShownMoment::Puzzle | ShownMoment::Search => 0,
        };
        oracle::PositionKey {
            revision: self.edits.revision,
            moment,
        }
    }

    /// Makes the position the solution's playback shows at `key` (from the puzzle and the
    /// solution's first moves), once per moment; nothing for the puzzle itself.
    pub(super) fn make_playback_position(&mut self, key: oracle::PositionKey) {
        if key.moment == 0
            || self
                .playback
                .position
                .as_ref()
                .is_some_and(|(k, _)| *k == key)
        {
            return;
        }
        let position = (self.work.result.as_ref())
            .and_then(|r| r.moves.get(..key.moment - 1))
            .and_then(|played| self.work.puzzle.after_moves(played));
        self.playback.position = position.map(|p| (key, p));
    }

    /// Before a move or an edit by hand on the canvas: while it shows a solution played
    /// back to move k > 0 of a type played by hand, the board shown becomes the puzzle (the
    /// solution's playback ends, Ctrl+Z goes back to the board it was played from), so the
    /// input acts on the board the user sees (issue 57's walk: a click moved a tile of the
    /// start board while the canvas showed the solved one). Returns whether the input may go
    /// on: false, the status saying why, when the board shown cannot be made.
    pub(crate) fn take_shown_board(&mut self) -> bool {
        let ShownMoment::Solution(k) = self.shown_moment() else {
            return true;
        };
        if k == 0 || self.work.puzzle.capabilities().hand_play.is_none() {
            return true;
        }
        let key = self.shown_position_key();
        let position = match self.playback.position_at(key) {
            Some(p) => Some(p.clone_box()),
            None => (self.work.result.as_ref()).and_then(|r| {
                self.work
                    .puzzle
                    .after_moves(&r.moves[..k.min(r.moves.len())])
            }),
        };
        let Some(position) = position else {
            self.set_error(format!(
                "The canvas shows move {k} of the solution, which could not be made a board to play on: |< shows the puzzle's own board."
            ));
            return false;
        };
        self.before_edit();
        let before = std::mem::replace(&mut self.work.puzzle, position);
        if self.work.history.len() >= super::commands::UNDO_LIMIT {
            self.work.history.remove(0);
        }
        self.work.history.push(before);
        self.work.future.clear();
        self.after_edit();
        self.set_status(format!(
            "Playing on from move {k} of the solution (the board shown); Ctrl+Z goes back to the board it started from."
        ));
        true
    }

    /// How many moves of the solution are shown on the canvas.
    pub fn shown_moves(&self) -> usize {
        self.work.shown_moves
    }

    /// Whether the solution is being played back automatically.
    pub fn is_playing(&self) -> bool {
        self.playback.playing
    }

    /// The move being animated on the canvas: the shown positions it goes between and how far
    /// it has got (0 to 1, exclusive).
    pub fn transition(&self) -> Option<(usize, usize, f32)> {
        let t = self.playback.transition?;
        let done = (self.frame.now - t.started) / self.transition_seconds();
        (done < 1.0).then_some((t.from, t.to, done.max(0.0) as f32))
    }

    /// How long one move's animation takes, in seconds: shorter when playing back fast.
    pub(super) fn transition_seconds(&self) -> f64 {
        (0.8 / self.settings.playback_rate.max(0.1)).min(0.3)
    }

    /// The move played by hand being animated: the picture before it, the move as a value
    /// (see [`Puzzle::motion_from`]) and how far it has got (0 to 1, exclusive).
    pub fn edit_transition(&self) -> Option<(&Picture, Option<Motion>, f32)> {
        let (before, motion, started) = self.canvas.edit_slide.as_ref()?;
        let done = (self.frame.now - started) / self.transition_seconds();
        (done < 1.0).then_some((before, *motion, done.max(0.0) as f32))
    }

    /// Starts animating the move played by hand from `before` to the puzzle on screen.
    pub(crate) fn slide_from(&mut self, before: &dyn Puzzle) {
        let hand = self.work.puzzle.capabilities().hand_play;
        let motion = hand.and_then(|h| h.motion_from(before));
        self.canvas.edit_slide = Some((before.picture(), motion, self.frame.now));
    }

    /// Shows the solution up to move `n`, sliding one move forward or back.
    pub(super) fn show_step(&mut self, n: usize) {
        let moves = self.work.result.as_ref().map_or(0, |r| r.moves.len());
        let n = n.min(moves);
        // One move forward or back slides; a jump shows the position at once.
        self.playback.transition = (n.abs_diff(self.work.shown_moves) == 1).then_some(Transition {
            from: self.work.shown_moves,
            to: n,
            started: self.frame.now,
        });
        self.work.shown_moves = n;
    }

    /// Plays the solution back automatically, or stops.
    pub(super) fn play(&mut self, on: bool) {
        let moves = self.work.result.as_ref().map_or(0, |r| r.moves.len());
        if on && self.work.shown_moves >= moves {
            // Playing from the end starts again from the beginning.
            self.work.shown_moves = 0;
            self.playback.transition = None;
        }
        self.playback.playing = on && moves > 0;
        self.playback.played_at = None;
    }

    /// Advances automatic playback by one move each 1/rate seconds, and keeps frames coming
    /// while a move slides.
    pub(super) fn tick_playback(&mut self, ctx: &egui::Context) {
        if self.edit_transition().is_some() {
            ctx.request_repaint();
        }
        let moves = self.work.result.as_ref().map_or(0, |r| r.moves.len());
        if self.playback.playing {
            // As many moves as are due at the rate (from 0.5 to 100,000 a second): one a
            // frame slides, more jump; the work of a step is the squares it changes.
            let interval = 1.0 / self.settings.playback_rate.clamp(0.1, MAX_PLAYBACK_RATE);
            let last = *self
                .playback
                .played_at
                .get_or_insert(self.frame.now - interval);
            let due = ((self.frame.now - last) / interval).floor();
            if self.work.shown_moves >= moves {
                self.playback.playing = false;
            } else if due >= 1.0 {
                let steps = (due as usize).min(moves - self.work.shown_moves);
                self.playback.played_at = Some(last + due * interval);
                self.apply(AppCommand::ShowStep(self.work.shown_moves + steps));
            }
        }
        if self.playback.playing || self.transition().is_some() {
            ctx.request_repaint();
        }
    }

    /// The timeline on screen, if a finished run or race has one.
    pub fn timeline(&self) -> Option<&Timeline> {
        self.work.timeline.as_ref()
    }

    /// The tracks' recordings' longest length: the timeline's last position.
    pub fn timeline_len(&self) -> usize {
        let lanes = self.runs.race.iter().flat_map(|r| r.lanes.iter());
        let lanes = lanes.filter_map(|l| l.track.as_ref()).map(Track::len);
        let main = self.work.timeline.as_ref().and_then(|t| t.track.as_ref());
        main.map(Track::len)
            .into_iter()
            .chain(lanes)
            .max()
            .unwrap_or(0)
    }

    /// The timeline follows the running search's head again: a run resumed or stepped goes
    /// on on screen, not behind a moment sought before (a wrong guess holds the timeline
    /// one behind the run, the walk's W18).
    pub(super) fn follow_the_run(&mut self) {
        if self.runs.race.is_none() && self.is_scrubbed() {
            self.apply_timeline(TimelineCommand::Follow);
        }
    }

    /// Whether the canvas shows a moment before the recording's head, asked for by a seek
    /// (the solution is hidden then); a timeline following the head is not scrubbed.
    pub fn is_scrubbed(&self) -> bool {
        self.work
            .timeline
            .as_ref()
            .is_some_and(|t| !t.follow && t.target < self.timeline_len())
    }

    /// What the search knew of the state at `cell` when it first expanded it (for puzzles
    /// whose states are (square, side entered from), the one expanded first), if it did by
    /// the position shown: from the single run's recording, so every expansion is covered.
    pub fn expansion_at(&self, cell: Cell) -> Option<crate::runs::recording::ExpansionInfo> {
        let track = self.work.timeline.as_ref()?.track.as_ref()?;
        let recording = track.recording();
        let j = recording.first_expansion(place_at(recording, cell)?)?;
        if j < track.shown() {
            recording.expansion(j)
        } else {
            None
        }
    }

    /// The recording of the single run on screen, if the timeline has one.
    pub fn timeline_recording(&self) -> Option<&Arc<TraceRecorder>> {
        self.work
            .timeline
            .as_ref()?
            .track
            .as_ref()
            .map(Track::recording)
    }

    /// Makes the race's shared timeline (its lanes keep their tracks), following them; the
    /// single run's timeline is parked in it until the race closes.
    pub(super) fn make_race_timeline(&mut self, parked: Option<Timeline>) {
        let mut timeline = Timeline::new(None, 0);
        timeline.parked = parked.filter(|t| t.track.is_some()).map(Box::new);
        self.work.timeline = Some(timeline);
    }

    /// Moves the tracks towards the position asked for, within the frame's budget, and
    /// keeps the shading current; asks for another frame while they are not there.
    pub(super) fn tick_timeline(&mut self, ctx: &eframe::egui::Context) {
        let len = self.timeline_len();
        let Some(timeline) = &mut self.work.timeline else {
            return;
        };
        if timeline.follow {
            timeline.target = len;
        }
        // The frame's work budget counts from the frame's start: what taking the solver's
        // events used is not given again, and two thirds of it at most, so the picture gets
        // its share.
        let started = self.frame.started.unwrap_or_else(Instant::now);
        let deadline = (started + self.frame.work_budget * 2 / 3)
            .max(Instant::now() + self.frame.work_budget / 8);
        let target = timeline.target;
        let mut arrived = true;
        if let Some(track) = &mut timeline.track {
            let there =
                track.seek(&mut self.work.marks, target, Some(deadline)) && track.is_caught_up();
            arrived &= there;
            if there && timeline.follow {
                // At the head the search's own figures stand (the replay counts only places),
                // and a finished run shows no state under way.
                if let Some(run) = &self.runs.current {
                    self.work.marks.stats = run.stats.clone();
                    if track.recording().stopped().is_some() {
                        self.work.marks.board.clone_from(&run.board);
                    }
                } else if let Some(report) = &self.work.result {
                    self.work.marks.stats = report.stats.clone();
                    // A finished run shows no state under way, but where the Learn panel
                    // narrates its last moment ("moment 23 of 23 · n = (7, 2)") the canvas
                    // outlines that n (the second walk of issue 56, finding B).
                    self.work.marks.current = if self.windows.learn.open {
                        track.last_expanded_place()
                    } else {
                        None
                    };
                    self.work.marks.path.clear();
                }
            }
            let solution = self
                .work
                .result
                .as_ref()
                .filter(|r| r.solved)
                .map_or(&[][..], |r| &r.path[..]);
            let recording = Arc::clone(track.recording());
            timeline.shade(&mut self.work.marks, &recording, solution);
        }
        if let Some(race) = &mut self.runs.race {
            for lane in &mut race.lanes {
                if let Some(track) = &mut lane.track {
                    let there = track.seek(&mut lane.marks, target, Some(deadline));
                    arrived &= there;
                    if there && timeline.follow {
                        lane.marks.stats = lane.stats.clone();
                        if lane.result.is_some() {
                            lane.marks.current = None;
                            lane.marks.path.clear();
                        }
                    }
                }
            }
        }
        if !arrived {
            // While a full-speed search runs the view follows it a few frames a second, as
            // the solver wakes it (the window's work competes with the search's); else, and
            // once it has ended, as fast as frames come, to the final picture.
            match &self.runs.current {
                Some(run) if self.settings.full_speed && !run.handle.search_ended() => {
                    ctx.request_repaint_after(crate::solver::FULL_SPEED_FRAME);
                }
                _ => ctx.request_repaint(),
            }
        }
    }

    /// Carries out a timeline command.
    pub(super) fn apply_timeline(&mut self, command: TimelineCommand) {
        let len = self.timeline_len();
        let recording = self.timeline_recording().cloned();
        let Some(timeline) = &mut self.work.timeline else {
            return;
        };
        let position = timeline.target.min(len);
        let moved = match command {
            TimelineCommand::Seek(k) => Some(k),
            TimelineCommand::Step(d) => Some(position.saturating_add_signed(d as isize)),
            TimelineCommand::Next(q) => {
                let found = recording.as_ref().and_then(|r| r.next_record(position, q));
                if found.is_none() {
                    self.set_status(format!("No greater {} after this expansion.", q.label()));
                }
                found
            }
            TimelineCommand::Previous(q) => recording
                .as_ref()
                .and_then(|r| r.previous_record(position, q))
                .or(Some(0)),
            TimelineCommand::ToPinned => match (timeline.pinned, &recording) {
                (Some(Pinned::Place(p)), Some(r)) => r.first_expansion(p).map(|j| j + 1),
                (Some(Pinned::Expansion(j)), _) => Some(j + 1),
                _ => None,
            },
            TimelineCommand::Inspect(on) => {
                timeline.inspecting = on;
                None
            }
            TimelineCommand::PinCell(cell) => {
                let place = cell
                    .zip(recording.as_ref())
                    .and_then(|(c, r)| place_at(r, c));
                timeline.pinned = place.map(Pinned::Place);
                match (cell, place) {
                    (Some(_), None) => {
                        self.set_status("That square was not expanded in this run: nothing pinned.")
                    }
                    (_, Some(p)) => self.set_status(format!(
                        "Pinned the state at row {}, column {}: its figures are in the details \
                         panel.",
                        p.cell.row, p.cell.col
                    )),
                    (None, None) => {}
                }
                None
            }
            TimelineCommand::PinShown => {
                timeline.pinned = position.checked_sub(1).map(Pinned::Expansion);
                None
            }
            TimelineCommand::Heat(q) => {
                timeline.heat = q;
                None
            }
            TimelineCommand::BranchOnly(on) => {
                timeline.branch_only = on;
                None
            }
            TimelineCommand::Follow => {
                timeline.follow = true;
                timeline.target = len;
                None
            }
        };
        if let Some(k) = moved
            && let Some(timeline) = &mut self.work.timeline
        {
            timeline.target = k.min(len);
            // At the end the run's own figures stand (and a live run's head is followed).
            timeline.follow = k >= len;
            self.playback.playing = false;
        }
    }
}
