//! The "Learn" window's state and what it reads of the run: the moment of the timeline as a
//! step of the algorithm's pseudo-code, a caption of that step in plain words, and the open
//! list at that moment (cached per moment: it is rebuilt by replaying the recording, see
//! [`crate::runs::open_list`]); and its commands (micro-steps, Predict mode's guesses),
//! carried out here, never in the drawing.
//!
//! A moment is a timeline position `p` (see [`super::timeline`]): the canvas shows the first
//! `p` expansions done, the `p`-th state outlined as the one expanded, and every successor
//! it put on the frontier. The micro-steps of a moment are the events of that same
//! expansion (number `p - 1` from 0): its state taken off the frontier, the goal test, each
//! successor put on; at a micro-step the canvas, the open list and the caption all show the
//! run as it was at that event (see [`AppState::micro_step_marks`]).

use std::sync::Arc;

use crate::puzzles::{Cell, Place};
use crate::runs::open_list::{OpenEntry, OpenListError, is_expansion, open_list_during};
use crate::runs::recording::{ExpansionInfo, TraceRecorder};
use crate::search::pseudocode::{Step, pseudocode};
use crate::search::{Algorithm, Outcome, TieBreak, format_cost};

use super::{AppCommand, SearchMarks, TimelineCommand};

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

    /// The value written for `expansion`, if it has one.
    pub fn value(self, expansion: &ExpansionInfo) -> Option<f32> {
        self.of(expansion.g, expansion.h)
    }

    /// The value written for a state reached with `g` and `h`, if it has one.
    pub fn of(self, g: Option<f32>, h: Option<f32>) -> Option<f32> {
        match self {
            Numbers::Off => None,
            Numbers::G => g,
            Numbers::H => h,
            Numbers::F => Some(g? + h.unwrap_or(0.0)),
        }
    }
}

/// The key an open list is cached under: the recording, its length, the moment and the
/// order asked for.
type OpenKey = (usize, usize, usize, Option<usize>, Algorithm, TieBreak);

/// The key of the open list of `recording` at `moment` in `algorithm`'s order.
fn open_key(
    recording: &Arc<TraceRecorder>,
    (expansion, pushes): (usize, Option<usize>),
    algorithm: Algorithm,
    tie_break: TieBreak,
) -> OpenKey {
    (
        Arc::as_ptr(recording) as usize,
        recording.expansions(),
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

/// What a guess of Predict mode names.
#[derive(Clone, Debug, PartialEq)]
enum Guessed {
    /// A square of the canvas.
    Cell(Cell),
    /// The state of a row of the open list shown when the row was clicked (`None`: no such
    /// row): judged by its state, whatever list is built to score it.
    Entry(Option<OpenEntry>),
}

/// A guess of Predict mode waiting for the run to expand the state it is about.
#[derive(Clone, Debug, PartialEq)]
struct PendingGuess {
    /// What was guessed.
    guessed: Guessed,
    /// The expansion (from 0) it guesses.
    expansion: usize,
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
    /// What the last guess was told.
    pub verdict: Option<(bool, String)>,
    /// A guess about an expansion the live run has not made yet.
    pending: Option<PendingGuess>,
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
            pending: None,
            cache: None,
        }
    }
}

impl LearnWindow {
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

    /// The open list built last, if it was for this key (see [`LearnWindow::open_list`]).
    fn cached(&self, key: &OpenKey) -> Option<Arc<Vec<OpenEntry>>> {
        match &self.cache {
            Some((k, Ok(list))) if k == key => Some(list.clone()),
            _ => None,
        }
    }

    /// Forgets Predict mode's score, verdict and waiting guess: a run starts, or a puzzle.
    pub fn forget_guesses(&mut self) {
        self.score = (0, 0);
        self.verdict = None;
        self.pending = None;
    }

    /// Whether a guess waits for the run to expand the state it is about.
    pub fn is_waiting(&self) -> bool {
        self.pending.is_some()
    }
}

/// How the run on the timeline ended, as the Learn window tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It still runs.
    Running,
    /// It ended with this outcome.
    Ended(Outcome),
    /// The recording stopped before the run ended (its memory budget): the moments past it
    /// are not recorded.
    Unrecorded,
}

/// A moment of a recorded run, as the Learn window and the caption tell it: after
/// `position` expansions, at a micro-step of the last of them (`event`) when one is asked
/// for.
#[derive(Clone, Debug, PartialEq)]
pub struct Moment {
    /// Expansions done by this moment (the timeline's position).
    pub position: usize,
    /// Expansions in the recording.
    pub len: usize,
    /// The micro-step within expansion `position − 1` (the one the canvas outlines): 0 takes
    /// its state off the frontier, 1 tests it for the goal, 2 + i puts its i-th successor on
    /// the frontier. `None`: the expansion done whole (as at its last event).
    pub event: Option<usize>,
    /// The step of the pseudo-code the run is on.
    pub step: Step,
    /// How the run ended, at its last position.
    pub ending: Ending,
    /// The expansion of this moment (position − 1), if any: the state `n`.
    pub expanded: Option<ExpansionInfo>,
    /// The states that expansion puts on the frontier (new, or reached again more cheaply).
    pub pushed: usize,
    /// The expansion to come next, if recorded.
    pub next: Option<ExpansionInfo>,
    /// Whether the algorithm tests states for the goal when it generates them (breadth-first,
    /// the bidirectional searches), not when it takes them: the goal test is of the
    /// successors. Set by [`Moment::testing_on_generation`].
    pub goal_on_generation: bool,
    /// The successor being put on the frontier at a [`Step::Push`]: its place (`None` for a
    /// board, see [`OpenEntry::board`]) and number in the recording's stream of states put
    /// on the frontier, with its `g` and `h`.
    pub successor: Option<Successor>,
}

impl Moment {
    /// The successors of this moment's expansion on the frontier at this micro-step (see
    /// [`open_list_during`]); `None` without a micro-step (all of them on).
    pub fn pushes(&self) -> Option<usize> {
        self.event.map(|e| e.saturating_sub(1))
    }

    /// The open list's moment: (expansion, successors on), as [`LearnWindow::open_list`] and
    /// [`open_list_during`] take it. At position 0, the starts.
    pub fn open_list_moment(&self) -> (usize, Option<usize>) {
        match (self.position.checked_sub(1), self.pushes()) {
            (Some(j), Some(pushes)) => (j, Some(pushes)),
            _ => (self.position, None),
        }
    }

    /// The moment `position` of `recording`, at micro-step `event` of its expansion if
    /// given (past its last event, or at position 0, none); `ending` says how the run ended
    /// (read at the last position).
    pub fn at(
        recording: &TraceRecorder,
        position: usize,
        event: Option<usize>,
        ending: Ending,
    ) -> Moment {
        let len = recording.expansions();
        let position = position.min(len);
        let this = position.checked_sub(1);
        let expanded = this.and_then(|j| recording.expansion(j));
        let pushed = this.map_or(0, |j| recording.pushed_count(Some(j)));
        let next = recording.expansion(position);
        let event = event.filter(|&e| expanded.is_some() && e < Self::events(pushed));
        let successor = (event.and_then(|e| e.checked_sub(2)))
            .zip(this)
            .and_then(|(i, j)| recording.pushed_states(Some(j)).nth(i))
            .map(|(index, place, g, h)| Successor { place, index, g, h });
        let step = match (event, position == len, ending) {
            (Some(0), _, _) => Step::Take,
            (Some(1), _, _) => Step::GoalTest,
            (Some(_), _, _) => Step::Push,
            (None, true, Ending::Ended(Outcome::Found)) => Step::Found,
            (None, true, Ending::Ended(Outcome::NotFound)) => Step::Failed,
            (None, true, Ending::Ended(_) | Ending::Unrecorded) => Step::Stopped,
            _ if position == 0 => Step::Start,
            _ => Step::Expand,
        };
        Moment {
            position,
            len,
            event,
            step,
            ending,
            expanded,
            pushed,
            next,
            successor,
            goal_on_generation: false,
        }
    }

    /// This moment of a run of `algorithm`: its goal test told as the algorithm makes it
    /// (see [`Moment::goal_on_generation`]).
    pub fn testing_on_generation(mut self, algorithm: Algorithm) -> Self {
        self.goal_on_generation = matches!(
            algorithm,
            Algorithm::Bfs | Algorithm::BidirectionalBfs | Algorithm::BidirectionalAStar
        );
        self
    }

    /// The micro-steps of an expansion that puts `pushes` successors on the frontier: take
    /// it, test it, put each on.
    pub fn events(pushes: usize) -> usize {
        2 + pushes
    }

    /// The micro-step one event forward (or back) of this one, as (position, event): within
    /// this expansion's events, and past its last (first) to the next (previous)
    /// expansion's first (last). The moment without an event shows the expansion done, as
    /// its last event does; forward from the last event of the last expansion is the run's
    /// end without an event. `None` where there is no event to go to.
    pub fn micro_step(&self, recording: &TraceRecorder, forward: bool) -> Option<MicroStep> {
        let p = self.position;
        let last = Self::events(self.pushed) - 1;
        let last_of = |position: usize| {
            let pushes = position
                .checked_sub(1)
                .map_or(0, |j| recording.pushed_count(Some(j)));
            Self::events(pushes) - 1
        };
        let to = |position, event| {
            Some(MicroStep {
                position,
                event: Some(event),
            })
        };
        match (forward, self.event) {
            (true, Some(e)) if e < last => to(p, e + 1),
            (true, _) if p < self.len => to(p + 1, 0),
            (true, Some(_)) => Some(MicroStep {
                position: p,
                event: None,
            }),
            (true, None) => None,
            (false, Some(e)) if e > 0 => to(p, e - 1),
            (false, Some(_)) if p > 1 => to(p - 1, last_of(p - 1)),
            (false, Some(_)) => Some(MicroStep {
                position: 0,
                event: None,
            }),
            // The end's sentence comes after the last event; elsewhere the moment without
            // an event is its last event, so back is the one before.
            (false, None) if p == self.len && p > 0 && self.step != Step::Expand => to(p, last),
            (false, None) if p > 0 => to(p, last.saturating_sub(1)),
            (false, None) => None,
        }
    }

    /// The values of the moment beside the lit line: "moment 3 of 12 · n = (1, 0): f = …".
    pub fn values(&self) -> String {
        let mut parts = vec![format!("moment {} of {}", self.position, self.len)];
        if let Some(e) = &self.expanded {
            let n = e.place.map_or("n = the board shown".to_owned(), |p| {
                format!("n = {}", square(p))
            });
            parts.push(format!("{n}{}", scores(e)));
            parts.push(format!("depth {}", e.depth));
            match self.pushes() {
                Some(on) => parts.push(format!(
                    "event {} of {} · {} of {} successors on the frontier",
                    self.event.unwrap_or(0) + 1,
                    Self::events(self.pushed),
                    on,
                    self.pushed
                )),
                None => parts.push(format!(
                    "{} put on the frontier",
                    super::count(self.pushed as u64, "state")
                )),
            }
            if e.iteration > 0 {
                parts.push(format!("iteration {}", e.iteration));
            }
        }
        parts.join(" · ")
    }

    /// One sentence for the caption under the canvas: what the step does, with its values.
    pub fn caption(&self) -> String {
        let this = self.expanded.as_ref();
        let what = |e: Option<&ExpansionInfo>| {
            e.and_then(|e| e.place)
                .map_or("the board shown".to_owned(), square)
        };
        let n = what(this);
        let expansions = super::count(self.len as u64, "expansion");
        match self.step {
            Step::Start => format!("The frontier holds the start {}.", what(self.next.as_ref())),
            Step::Found => format!(
                "Goal reached after {expansions}: the path is the chain of parents back to the \
                 start."
            ),
            Step::Failed => format!(
                "The frontier ran out after {expansions} without reaching a goal: no goal can \
                 be reached."
            ),
            Step::Stopped => match self.ending {
                Ending::Ended(Outcome::Cancelled) => {
                    format!("You stopped the run after {expansions}, before it reached a goal.")
                }
                Ending::Ended(Outcome::MemoryLimit) => format!(
                    "The run stopped at its memory budget after {expansions}, before it \
                     reached a goal."
                ),
                Ending::Ended(Outcome::Timeout) => format!(
                    "The run stopped at its time limit after {expansions}, before it reached \
                     a goal."
                ),
                _ => format!("The recording stops after {expansions}: the run went on unrecorded."),
            },
            Step::Take => format!(
                "Taking {n} off the frontier{}.",
                this.map(scores).unwrap_or_default()
            ),
            Step::GoalTest if self.goal_on_generation => format!(
                "Goal test: each successor of {n} is tested as it is generated{}.",
                match (self.position == self.len, self.ending) {
                    (true, Ending::Ended(Outcome::Found)) => "; one is a goal",
                    (true, Ending::Ended(_) | Ending::Unrecorded) => "",
                    _ => "; none is a goal",
                }
            ),
            Step::GoalTest => format!(
                "Goal test: {n} is {}.",
                match (self.position == self.len, self.ending) {
                    (true, Ending::Ended(Outcome::Found)) => "a goal",
                    (true, Ending::Ended(_) | Ending::Unrecorded) => "the last state tested",
                    _ => "not a goal",
                }
            ),
            Step::Push => {
                let (what, score) = match self.successor {
                    Some(s) => (
                        s.place.map_or("a board".to_owned(), square),
                        scores_of(s.g, s.h),
                    ),
                    None => ("a successor".to_owned(), String::new()),
                };
                let i = self.pushes().unwrap_or(0);
                format!(
                    "Putting {what} on the frontier{score} ({i} of {}).",
                    self.pushed
                )
            }
            Step::Expand => match this {
                Some(e) => format!(
                    "Expanding {n}{}; {} put on the frontier.",
                    scores(e),
                    super::count(self.pushed as u64, "state")
                ),
                None => "Expanding.".to_owned(),
            },
        }
    }
}

/// A successor put on the frontier (see [`Moment::successor`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Successor {
    /// Its place; `None` for a board.
    pub place: Option<Place>,
    /// Its number in the recording's stream of states put on the frontier.
    pub index: usize,
    /// The path cost it was put on with.
    pub g: Option<f32>,
    /// Its heuristic estimate.
    pub h: Option<f32>,
}

/// A micro-step to go to: the timeline position and the event there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MicroStep {
    /// The timeline position.
    pub position: usize,
    /// The event of its expansion, or `None` for the moment itself.
    pub event: Option<usize>,
}

/// A place as the window writes it: "(row, column)", origin at the top left.
pub fn square(place: Place) -> String {
    format!("({}, {})", place.cell.row, place.cell.col)
}

/// ": f = 12 = g 7 + h 5" (or ": g = 7" without a heuristic), empty if not scored.
pub fn scores(e: &ExpansionInfo) -> String {
    scores_of(e.g, e.h)
}

/// [`scores`] of a `g` and an `h`.
pub fn scores_of(g: Option<f32>, h: Option<f32>) -> String {
    let c = |v: f32| format_cost(f64::from(v));
    match (g, h) {
        (Some(g), Some(h)) => format!(": f = {} = g {} + h {}", c(g + h), c(g), c(h)),
        (Some(g), None) => format!(": g = {}", c(g)),
        (None, Some(h)) => format!(": h = {}", c(h)),
        (None, None) => String::new(),
    }
}

impl super::AppState {
    /// The algorithm of the run on the timeline: the running one's, else the last report's.
    pub fn run_algorithm(&self) -> Algorithm {
        match self.result() {
            Some(r) if !self.is_running() => r.algorithm,
            _ => self.algorithm(),
        }
    }

    /// How the run on the timeline ended (see [`Ending`]).
    fn run_ending(&self, recording: &TraceRecorder) -> Ending {
        match self.result() {
            _ if self.is_running() => Ending::Running,
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
            .testing_on_generation(self.run_algorithm());
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
            LearnCommand::Predict(on) => {
                let learn = &mut self.windows.learn;
                learn.predict = on;
                learn.score = (0, 0);
                learn.verdict = None;
                learn.event = None;
                learn.pending = None;
                if !on {
                    return;
                }
                // The run waits for the guesses: a live run is paused, a replay at its end
                // starts again from the start.
                if self.is_running() && !self.is_paused() {
                    self.apply(AppCommand::Pause);
                } else if !self.is_running()
                    && self
                        .learn_moment()
                        .is_some_and(|(_, m)| m.position == m.len)
                {
                    self.apply_timeline(TimelineCommand::Seek(0));
                }
            }
            LearnCommand::Guess(cell) => self.guess(Guessed::Cell(cell)),
            LearnCommand::GuessEntry(row) => {
                // The row's state in the list shown, taken now (another list scores it).
                self.build_learn_list();
                let entry = self.learn_open_list().and_then(|l| l.get(row).cloned());
                self.guess(Guessed::Entry(entry));
            }
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

    /// Predict mode: `cell` is the user's guess of the state expanded next. It is scored
    /// against the run's next expansion once recorded (a live run paused is stepped to it):
    /// right, the timeline moves on one expansion; wrong, it stays; either way the score
    /// counts it and the window says why the next state is next.
    fn guess(&mut self, guessed: Guessed) {
        let Some((recording, m)) = self.learn_moment() else {
            self.windows.learn.verdict = Some((
                false,
                "No run to guess in: start a search (Predict mode guesses the state it \
                 expands next; clicks do not edit the puzzle while it is on)."
                    .into(),
            ));
            return;
        };
        if self.windows.learn.pending.is_some() {
            return;
        }
        if m.next.is_some() {
            self.score_guess(&recording, &m, guessed);
            return;
        }
        if self.is_running() {
            // The next expansion is not made yet: it is scored when it is.
            self.windows.learn.pending = Some(PendingGuess {
                guessed,
                expansion: m.position,
            });
            self.windows.learn.verdict = None;
            if self.is_paused() {
                self.apply(AppCommand::Step);
            }
            return;
        }
        self.windows.learn.verdict = Some((false, "The run is over: no state comes next.".into()));
    }

    /// The open list at the moment shown, once built this frame (see
    /// [`AppState::tick_learn`]): what the canvas writes on the frontier's squares.
    pub fn learn_open_list(&self) -> Option<Arc<Vec<OpenEntry>>> {
        let (recording, m) = self.learn_moment()?;
        let key = open_key(
            &recording,
            m.open_list_moment(),
            self.run_algorithm(),
            self.limits().tie_break,
        );
        self.windows.learn.cached(&key)
    }

    /// The frame's work of the Learn window: the open list of the moment shown built (for
    /// the panel and the canvas's numbers), and a guess waiting for its expansion scored
    /// once the recording holds it.
    pub(super) fn tick_learn(&mut self) {
        if self.windows.learn.open {
            self.build_learn_list();
        }
        self.score_pending_guess();
    }

    /// Builds the open list of the moment shown (see [`LearnWindow::open_list`]).
    fn build_learn_list(&mut self) {
        if let Some((recording, m)) = self.learn_moment() {
            let (algorithm, tie_break) = (self.run_algorithm(), self.limits().tie_break);
            let _ = self.windows.learn.open_list(
                &recording,
                m.open_list_moment(),
                algorithm,
                tie_break,
            );
        }
    }

    /// Scores a guess waiting for its expansion, once the recording holds it.
    fn score_pending_guess(&mut self) {
        let Some(pending) = self.windows.learn.pending.clone() else {
            return;
        };
        let Some((recording, m)) = self.learn_moment() else {
            self.windows.learn.pending = None;
            return;
        };
        if recording.expansion(pending.expansion).is_some() {
            self.windows.learn.pending = None;
            let at = Moment::at(&recording, pending.expansion, None, Ending::Running);
            self.score_guess(&recording, &at, pending.guessed);
        } else if !self.is_running() {
            self.windows.learn.pending = None;
            self.windows.learn.verdict = Some((
                false,
                format!(
                    "The run ended at moment {}: no state came next.",
                    m.position
                ),
            ));
        }
    }

    /// Scores `guessed` as the guess of the state expanded after moment `m`, whose next
    /// expansion is recorded.
    fn score_guess(&mut self, recording: &Arc<TraceRecorder>, m: &Moment, guessed: Guessed) {
        let Some(next) = m.next.clone() else {
            return;
        };
        let algorithm = self.run_algorithm();
        let why_next = pseudocode(algorithm).why_next;
        let tie_break = self.limits().tie_break;
        let list =
            self.windows
                .learn
                .open_list(recording, (m.position, None), algorithm, tie_break);
        let list = list.ok();
        let entry = match &guessed {
            Guessed::Entry(entry) => entry.clone(),
            &Guessed::Cell(cell) => list.as_ref().and_then(|l| {
                l.iter()
                    .find(|e| e.place.map(|p| p.cell) == Some(cell))
                    .cloned()
            }),
        };
        let right = match (&guessed, next.place) {
            (Guessed::Cell(cell), Some(place)) => place.cell == *cell,
            (Guessed::Cell(_), None) => {
                self.windows.learn.verdict = Some((
                    false,
                    "A board puzzle's states are whole boards: guess by clicking a board in \
                     the open list."
                        .into(),
                ));
                return;
            }
            (Guessed::Entry(_), _) => entry
                .as_ref()
                .is_some_and(|e| is_expansion(recording, e, next.index)),
        };
        let what = |place: Option<Place>| place.map_or("that board".to_owned(), square);
        let next_text = format!("{}{}", what(next.place), scores(&next));
        let learn = &mut self.windows.learn;
        learn.score = (learn.score.0 + u32::from(right), learn.score.1 + 1);
        learn.event = None;
        learn.verdict = Some(if right {
            (true, format!("Right: {next_text} is next. {why_next}"))
        } else {
            let yours = match (&entry, guessed) {
                (Some(e), _) => format!(
                    "{} is on the frontier{}",
                    what(e.place),
                    scores_of(e.g, e.h)
                ),
                (None, Guessed::Cell(cell)) => {
                    format!("({}, {}) is not on the frontier", cell.row, cell.col)
                }
                (None, Guessed::Entry(_)) => "that row is not on the frontier".to_owned(),
            };
            let next_text = match next.place {
                Some(_) => next_text,
                None => format!("the board of moment {}{}", m.position + 1, scores(&next)),
            };
            (
                false,
                format!("Not that one: {yours}. Next is {next_text}. {why_next}"),
            )
        });
        // Right, on to the next moment; wrong, the timeline holds (a live run it stepped
        // to score the guess stops being followed).
        let to = m.position + usize::from(right);
        self.apply_timeline(TimelineCommand::Seek(to));
    }
}
