//! The Learn group (`AppCommand::Learn`: micro-steps, Predict mode on and off, guesses): the
//! "Learn" window's state and what it reads of the run: the moment of the timeline as a step of
//! the algorithm's pseudo-code, a caption of that step in plain words, and the open list at
//! that moment (cached per moment: it is rebuilt by replaying the recording, see
//! [`crate::runs::open_list`]); and its commands (micro-steps, Predict mode's guesses), carried
//! out here, never in the drawing. `moment.rs` reads a moment of the run (its step, micro-steps
//! and caption); `predict.rs` carries out Predict mode's guesses and scores them.
//!
//! A moment is a timeline position `p` (see [`super::timeline`]): the canvas shows the first
//! `p` expansions done, the `p`-th state outlined as the one expanded, and every successor
//! it put on the frontier. The micro-steps of a moment are the events of that same
//! expansion (number `p - 1` from 0): its state taken off the frontier, the goal test, each
//! successor put on; at a micro-step the canvas, the open list and the caption all show the
//! run as it was at that event (see [`AppState::micro_step_marks`]).

use std::sync::Arc;

use crate::puzzles::Cell;
use crate::runs::open_list::{OpenEntry, OpenListError, open_list_during};
use crate::runs::recording::TraceRecorder;
use crate::search::{Algorithm, Outcome, TieBreak};

use super::{SearchMarks, TimelineCommand};

mod moment;
mod predict;

pub use moment::{Ending, MicroStep, Moment, Successor, scores, scores_of, square};
use predict::PendingGuess;

/// What the canvas writes on each square reached by the moment shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbers {
    /// Nothing.
    Off,
    /// The path cost from the start, `g`.
    #[default]
    G,
    /// The heuristic's estimate, `h`.
    H,
    /// `f = g + h`.
    F,
}

impl Numbers {
    /// Every choice, in the order offered.
    pub const ALL: [Numbers; 4] = [Numbers::Off, Numbers::G, Numbers::H, Numbers::F];

    /// Its name in the window.
    pub fn label(self) -> &'static str {
        match self {
            Numbers::Off => "none",
            Numbers::G => "g",
            Numbers::H => "h",
            Numbers::F => "f",
        }
    }

    /// The value written for a state reached with `g` and `h` in a run of `algorithm`, if it
    /// has one: `f` as the open list writes it ([`crate::runs::open_list::priority`]; none
    /// for breadth- and depth-first).
    pub fn of(self, g: Option<f32>, h: Option<f32>, algorithm: Algorithm) -> Option<f32> {
        match self {
            Numbers::Off => None,
            Numbers::G => g,
            Numbers::H => h,
            Numbers::F => crate::runs::open_list::priority(algorithm, g, h),
        }
    }
}

/// What the canvas writes on a square reached by the moment shown (see
/// [`AppState::learn_notes`]): the scores it was reached with and the square it was reached
/// from (`None` for a start).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Note {
    /// Its path cost from a start.
    pub g: Option<f32>,
    /// The heuristic's estimate.
    pub h: Option<f32>,
    /// The place it was reached from.
    pub parent: Option<crate::puzzles::Place>,
}

/// The notes of the squares reached by the moment shown: the frontier's at that moment
/// (micro-step included), from the open list built this frame, else the closed set's.
pub struct Notes<'a> {
    app: &'a super::AppState,
    frontier: std::collections::HashMap<Cell, Note>,
}

impl Notes<'_> {
    /// The note of the square `cell`, if the moment shown has reached it.
    pub fn at(&self, cell: Cell) -> Option<Note> {
        if let Some(note) = self.frontier.get(&cell) {
            return Some(*note);
        }
        let e = self.app.expansion_at(cell)?;
        Some(Note {
            g: e.g,
            h: e.h,
            parent: e.parent,
        })
    }
}

/// The key an open list is cached under: the recording's identity (never its address: a
/// new run's recording may be made where a dropped one was), what it holds so far
/// (expansions and events), the moment and the order asked for.
type OpenKey = (u64, usize, usize, usize, Option<usize>, Algorithm, TieBreak);

/// The key of the open list of `recording` at `moment` in `algorithm`'s order.
fn open_key(
    recording: &TraceRecorder,
    (expansion, pushes): (usize, Option<usize>),
    algorithm: Algorithm,
    tie_break: TieBreak,
) -> OpenKey {
    (
        recording.id(),
        recording.expansions(),
        recording.len(),
        expansion,
        pushes,
        algorithm,
        tie_break,
    )
}

/// An open list built, shared with the window, or why there is none.
pub type OpenListResult = Result<Arc<Vec<OpenEntry>>, OpenListError>;

/// What the Learn window asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum LearnCommand {
    /// One micro-step forward (true) or back (see [`Moment`]): through the events of each
    /// expansion, and on to the next (previous) expansion past the last (first) one.
    MicroStep(bool),
    /// Predict mode on or off (the score starts again).
    Predict(bool),
    /// Predict mode: the user guesses that the state at this square is expanded next.
    Guess(Cell),
    /// Predict mode: the user guesses that the state on this row of the open list shown
    /// (from 0) is expanded next.
    GuessEntry(usize),
}

/// What a lesson shows beside the canvas when the Learn panel and a view's docked panel
/// (the script editor) do not both fit beside it: they take turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Beside {
    /// The Learn panel.
    #[default]
    Learn,
    /// The view's docked panel.
    Docked,
}

/// The "Learn" window: pseudo-code that follows the run, the open list, numbers on the
/// squares (written while the window is open: `g` and arrows to parents at first).
pub struct LearnWindow {
    /// Whether the window is open.
    pub open: bool,
    /// What the canvas writes on the squares reached.
    pub numbers: Numbers,
    /// Whether the canvas draws an arrow from each square reached to its parent.
    pub arrows: bool,
    /// How many squares the canvas wrote a number or an arrow on in the last frame (the
    /// squares in sight, large enough to read).
    pub painted: usize,
    /// The micro-step shown: the timeline position it belongs to and the event within that
    /// position's expansion (see [`Moment::event`]); ignored once the timeline moves elsewhere.
    pub event: Option<(usize, usize)>,
    /// Predict mode: a click on the canvas guesses the state expanded next.
    pub predict: bool,
    /// Predict mode's score: right guesses, and guesses.
    pub score: (u32, u32),
    /// What the last guess was told: shown while the timeline stays at the moment it was
    /// told at (see [`AppState::tick_learn`]).
    pub verdict: Option<(bool, String)>,
    /// The timeline's position when the verdict was told (`Some(None)`: no timeline), once
    /// a tick has seen it.
    verdict_at: Option<Option<usize>>,
    /// A guess about an expansion the live run has not made yet.
    pending: Option<PendingGuess>,
    /// Which of the Learn panel and a view's docked panel a lesson shows when both do not
    /// fit beside the canvas.
    pub beside: Beside,
    /// The open list last built, and what for.
    cache: Option<(OpenKey, OpenListResult)>,
}

impl Default for LearnWindow {
    fn default() -> Self {
        Self {
            open: false,
            numbers: Numbers::default(),
            arrows: true,
            painted: 0,
            event: None,
            predict: false,
            score: (0, 0),
            verdict: None,
            verdict_at: None,
            pending: None,
            beside: Beside::default(),
            cache: None,
        }
    }
}

impl LearnWindow {
    /// Tells the guess's verdict (right or not, and why), about the moment now on the
    /// timeline.
    pub(super) fn tell(&mut self, verdict: (bool, String)) {
        self.verdict = Some(verdict);
        self.verdict_at = None;
    }

    /// The open list of `recording` during expansion `expansion` (with `pushes` of its
    /// successors on, see [`open_list_during`]; `None`: before it is taken), in `algorithm`'s
    /// order under `tie_break`: built once per moment.
    ///
    /// # Errors
    /// As [`open_list_during`].
    pub fn open_list(
        &mut self,
        recording: &Arc<TraceRecorder>,
        moment: (usize, Option<usize>),
        algorithm: Algorithm,
        tie_break: TieBreak,
    ) -> OpenListResult {
        let key = open_key(recording, moment, algorithm, tie_break);
        let (expansion, pushes) = moment;
        match &self.cache {
            Some((k, list)) if *k == key => list.clone(),
            _ => {
                let list = open_list_during(recording, expansion, pushes, algorithm, tie_break)
                    .map(Arc::new);
                self.cache = Some((key, list.clone()));
                list
            }
        }
    }

    /// The open list (or why there is none) that [`LearnWindow::open_list`] built for this
    /// moment, if it built it: the frame's work builds the list of the moment shown while
    /// the window is open.
    pub fn built_open_list(
        &self,
        recording: &Arc<TraceRecorder>,
        moment: (usize, Option<usize>),
        algorithm: Algorithm,
        tie_break: TieBreak,
    ) -> Option<OpenListResult> {
        let key = open_key(recording, moment, algorithm, tie_break);
        match &self.cache {
            Some((k, list)) if *k == key => Some(list.clone()),
            _ => None,
        }
    }

    /// The open list built last, if it was for this key (see [`LearnWindow::open_list`]).
    fn cached(&self, key: &OpenKey) -> Option<Arc<Vec<OpenEntry>>> {
        match &self.cache {
            Some((k, Ok(list))) if k == key => Some(list.clone()),
            _ => None,
        }
    }

    /// Forgets Predict mode's score, verdict and waiting guess, and the micro-step shown: a
    /// run starts, or a puzzle (an earlier run's micro-step is not shown again when the new
    /// run's timeline comes to its position).
    pub fn forget_guesses(&mut self) {
        self.event = None;
        self.score = (0, 0);
        self.verdict = None;
        self.pending = None;
    }

    /// Whether a guess waits for the run to expand the state it is about.
    pub fn is_waiting(&self) -> bool {
        self.pending.is_some()
    }
}

impl super::AppState {
    /// The algorithm of the run on the timeline (the one its recording was made with,
    /// whatever is chosen since); the chosen one without a run.
    pub fn run_algorithm(&self) -> Algorithm {
        self.run_rules().0
    }

    /// The algorithm and tie-breaking policy of the run on the timeline (see
    /// [`Track::rules`](crate::app::Track::rules)); the chosen ones without a run.
    pub fn run_rules(&self) -> (Algorithm, crate::search::TieBreak) {
        match self.timeline().and_then(|t| t.track.as_ref()) {
            Some(track) => track.rules(),
            None => (self.algorithm(), self.limits().tie_break),
        }
    }

    /// How the run on the timeline ended (see [`Ending`]).
    fn run_ending(&self, recording: &TraceRecorder) -> Ending {
        match self.result() {
            _ if self.is_running() => Ending::Running,
            // A script error ends the run (the recording may have stopped too: the error
            // is the reason, not a full memory budget).
            Some(r) if r.outcome == Outcome::ScriptError => Ending::Ended(r.outcome),
            Some(_) if recording.stopped().is_some() => Ending::Unrecorded,
            Some(r) => Ending::Ended(r.outcome),
            None => Ending::Running,
        }
    }

    /// The moment of the single run on the timeline (see [`Moment`]), with its recording;
    /// `None` without one (no run yet, a race).
    pub fn learn_moment(&self) -> Option<(Arc<TraceRecorder>, Moment)> {
        let track = self.timeline()?.track.as_ref()?;
        let recording = track.recording().clone();
        let shown = track.shown();
        let event = (self.windows.learn.event).and_then(|(at, e)| (at == shown).then_some(e));
        let moment = Moment::at(&recording, shown, event, self.run_ending(&recording))
            .testing_on_generation(self.run_algorithm())
            .stopped_because(self.result().and_then(|r| r.message.clone()));
        Some((recording, moment))
    }

    /// The marks the canvas shows at a micro-step: the timeline's marks (the expansion done
    /// whole) with the successors not yet put on the frontier at that event taken back off.
    /// `None` without a micro-step, and for grids drawn as a texture (the marks are drawn
    /// from their changes there; at most `max_squares` squares are copied).
    pub fn micro_step_marks(&self, max_squares: usize) -> Option<SearchMarks> {
        let (recording, m) = self.learn_moment()?;
        let pushes = m.pushes()?;
        let (rows, cols) = self.work.marks.dims();
        if rows * cols > max_squares {
            return None;
        }
        let mut marks = self.work.marks.clone();
        marks.changed = Vec::new();
        recording.unpush_from(m.position, pushes, |place, change| {
            marks.replay(place, change);
        });
        Some(marks)
    }

    /// Carries out a command of the Learn window.
    pub(super) fn apply_learn(&mut self, command: LearnCommand) {
        match command {
            LearnCommand::MicroStep(forward) => self.micro_step(forward),
            LearnCommand::Predict(on) => self.set_predict(on),
            LearnCommand::Guess(cell) => self.guess_cell(cell),
            LearnCommand::GuessEntry(row) => self.guess_entry(row),
        }
    }

    /// One micro-step forward or back (see [`Moment::micro_step`]).
    fn micro_step(&mut self, forward: bool) {
        let Some((recording, m)) = self.learn_moment() else {
            return;
        };
        let Some(to) = m.micro_step(&recording, forward) else {
            return;
        };
        self.windows.learn.event = to.event.map(|e| (to.position, e));
        if to.position != m.position {
            self.apply_timeline(TimelineCommand::Seek(to.position));
        }
    }

    /// The open list at the moment shown, once built this frame (see
    /// [`AppState::tick_learn`]): what the canvas writes on the frontier's squares.
    pub fn learn_open_list(&self) -> Option<Arc<Vec<OpenEntry>>> {
        let (recording, m) = self.learn_moment()?;
        let (algorithm, tie_break) = self.run_rules();
        let key = open_key(&recording, m.open_list_moment(), algorithm, tie_break);
        self.windows.learn.cached(&key)
    }

    /// What the canvas writes on the squares reached by the moment shown (see [`Notes`]).
    pub fn learn_notes(&self) -> Notes<'_> {
        let open = self.learn_open_list();
        let mut frontier: std::collections::HashMap<Cell, Note> =
            (open.iter().flat_map(|list| list.iter()))
                .filter_map(|e| {
                    let note = Note {
                        g: e.g,
                        h: e.h,
                        parent: e.parent,
                    };
                    Some((e.place?.cell, note))
                })
                .collect();
        frontier.extend(self.learn_goal_note());
        Notes {
            app: self,
            frontier,
        }
    }

    /// The goal a run returned, at its last moment: on the frontier at no moment (see
    /// [`Moment::open_list_moment`]) and never expanded, yet reached: its note is the one
    /// it was last put on with (or generated with, by a search that tests on generation).
    fn learn_goal_note(&self) -> Option<(Cell, Note)> {
        let (recording, m) = self.learn_moment()?;
        if m.step != crate::search::pseudocode::Step::Found || m.position != m.len {
            return None;
        }
        let goal = self.result()?.path.last()?.cell;
        (0..m.len).rev().find_map(|j| {
            let (_, place, g, h) = (recording.pushed_states(Some(j)))
                .filter(|(_, place, _, _)| place.is_some_and(|p| p.cell == goal))
                .last()?;
            let parent = recording.expansion(j)?.place;
            Some((place?.cell, Note { g, h, parent }))
        })
    }

    /// The frame's work of the Learn window: the open list of the moment shown built (for
    /// the panel and the canvas's numbers), and a guess waiting for its expansion scored
    /// once the recording holds it.
    pub(super) fn tick_learn(&mut self) {
        if self.windows.learn.open {
            self.build_learn_list();
        }
        self.score_pending_guess();
        // A verdict is about the moment it was told at: once the timeline goes elsewhere
        // (the run resumed, a seek), it is no longer true of the screen.
        let target = self.timeline().map(|t| t.target);
        let learn = &mut self.windows.learn;
        match (&learn.verdict, learn.verdict_at) {
            (None, _) => learn.verdict_at = None,
            (Some(_), None) => learn.verdict_at = Some(target),
            (Some(_), Some(at)) if at != target => {
                learn.verdict = None;
                learn.verdict_at = None;
            }
            (Some(_), Some(_)) => {}
        }
    }

    /// Builds the open list of the moment shown (see [`LearnWindow::open_list`]).
    fn build_learn_list(&mut self) {
        if let Some((recording, m)) = self.learn_moment() {
            let (algorithm, tie_break) = self.run_rules();
            let _ = self.windows.learn.open_list(
                &recording,
                m.open_list_moment(),
                algorithm,
                tie_break,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{CancelToken, Limits};

    /// The whole breadth-first run of the maze `text`, recorded.
    fn recorded(text: &str) -> TraceRecorder {
        let maze = crate::puzzles::parse(text, None).expect("a grid");
        let mut recorder = TraceRecorder::new(1 << 20);
        maze.solve(
            Algorithm::Bfs,
            &mut recorder,
            &CancelToken::with_limits(Limits::default()),
        )
        .expect("a search");
        recorder.finish();
        recorder
    }

    /// W1 (issue 56's walk: a square left green after stepping back on a paused A* run): the
    /// open list was cached under the recording's address and length, so a new run recorded
    /// at the address of a dropped one, as long as it, was shown the old run's frontier. Here
    /// the new run is made in the old one's place (the same address), on a maze of the same
    /// shape a row lower: the same counts, other squares.
    #[test]
    fn a_run_recorded_where_an_earlier_one_was_is_shown_its_own_open_list() {
        let (algorithm, tie_break) = (Algorithm::Bfs, TieBreak::default());
        let mut recording = Arc::new(recorded("S..G\n####\n"));
        let mut learn = LearnWindow::default();
        let first = learn.open_list(&recording, (2, None), algorithm, tie_break);
        let first = first.expect("a breadth-first run has an open list");
        let (address, expansions, len) = (
            Arc::as_ptr(&recording),
            recording.expansions(),
            recording.len(),
        );
        *Arc::get_mut(&mut recording).expect("the only reference") = recorded("####\nS..G\n");
        assert_eq!(Arc::as_ptr(&recording), address, "the same address");
        assert_eq!((recording.expansions(), recording.len()), (expansions, len));
        let second = learn.open_list(&recording, (2, None), algorithm, tie_break);
        let second = second.expect("an open list");
        let replayed = open_list_during(&recording, 2, None, algorithm, tie_break);
        assert_eq!(*second, replayed.expect("an open list"));
        assert_ne!(*first, *second, "the two runs' frontiers differ");
        assert!(
            learn
                .built_open_list(&recording, (2, None), algorithm, tie_break)
                .is_some(),
            "the new list is the one kept"
        );
    }

    /// A clone of a recording is another recording (it may grow apart): its own identity.
    #[test]
    fn every_recording_and_every_clone_has_its_own_identity() {
        let a = TraceRecorder::new(1 << 20);
        let b = TraceRecorder::new(1 << 20);
        let c = a.clone();
        assert_ne!(a.id(), b.id());
        assert_ne!(a.id(), c.id());
        assert_ne!(b.id(), c.id());
    }
}
