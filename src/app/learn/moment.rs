//! A moment of a recorded run as the Learn window tells it: its step of the pseudo-code,
//! its micro-steps, the values beside the lit line and the caption under the canvas; and
//! how states and their scores are written in words.

use crate::app::count;
use crate::puzzles::Place;
use crate::runs::recording::{ExpansionInfo, TraceRecorder};
use crate::search::pseudocode::Step;
use crate::search::{Algorithm, Outcome, format_cost};

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
    /// Why the run stopped where it did, as its report says it ("stopped at a script
    /// error: ..."), for the caption of its last moment; set by [`Moment::stopped_because`].
    pub stop_message: Option<String>,
}

impl Moment {
    /// The successors of this moment's expansion on the frontier at this micro-step (see
    /// [`open_list_during`]); `None` without a micro-step (all of them on).
    pub fn pushes(&self) -> Option<usize> {
        self.event.map(|e| e.saturating_sub(1))
    }

    /// The open list's moment: (expansion, successors on), as [`LearnWindow::open_list`] and
    /// [`open_list_during`] take it. At position 0, the starts.
    /// A goal the run returned is on it at no moment: the goal a search that tests on
    /// generation returns is never put on (see [`Moment::put_on`]), and the goal a search
    /// takes off the frontier after its last expansion is off it (`(len, Some(0))`: the state
    /// taken past the last expansion, see [`crate::runs::open_list::open_list_during`]).
    pub fn open_list_moment(&self) -> (usize, Option<usize>) {
        match (self.position.checked_sub(1), self.pushes()) {
            (Some(j), Some(pushes)) => (j, Some(pushes.min(self.put_on()))),
            (Some(j), None) if self.found_on_generation() => (j, Some(self.put_on())),
            (_, None) if self.step == Step::Found => (self.position, Some(0)),
            _ => (self.position, None),
        }
    }

    /// Whether this moment's expansion is the one at which a run that tests states for the
    /// goal as it generates them found its goal: the last successor it records is the goal,
    /// whose path it returns without putting it on the frontier.
    fn found_on_generation(&self) -> bool {
        self.goal_on_generation
            && self.position > 0
            && self.position == self.len
            && self.ending == Ending::Ended(Outcome::Found)
    }

    /// The successors this moment's expansion puts on the frontier: all it records but the
    /// goal a run that tests on generation returns (see [`Moment::found_on_generation`]).
    pub fn put_on(&self) -> usize {
        self.pushed
            .saturating_sub(usize::from(self.found_on_generation()))
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
            stop_message: None,
        }
    }

    /// This moment of a run of `algorithm`: its goal test told as the algorithm makes it
    /// (see [`Moment::goal_on_generation`]).
    pub fn testing_on_generation(mut self, algorithm: Algorithm) -> Self {
        self.goal_on_generation = matches!(
            algorithm,
            Algorithm::Bfs | Algorithm::BidirectionalBfs | Algorithm::BidirectionalAStar
        );
        // The goal, the last successor a run that tests on generation records, is not put
        // on the frontier: the goal test returns its path (see [`Moment::is_goal_found`]).
        if self.is_goal_found() {
            self.step = Step::Found;
        }
        self
    }

    /// Whether this is the micro-step of a run that tests states for the goal as it
    /// generates them at which its goal is generated: the last event of its last expansion,
    /// in a run that found one (the search records the goal with the successors, as the
    /// states its figures count as reached).
    pub fn is_goal_found(&self) -> bool {
        self.goal_on_generation
            && self.position == self.len
            && self.ending == Ending::Ended(Outcome::Found)
            && self
                .event
                .is_some_and(|e| e >= 2 && e + 1 == Self::events(self.pushed))
    }

    /// This moment of a run that stopped for `message` (its report's, see
    /// [`Moment::stop_message`]).
    pub fn stopped_because(mut self, message: Option<String>) -> Self {
        self.stop_message = message;
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
        if let Some(e) = &self.expanded
            && self.step == Step::Found
            && !self.goal_on_generation
        {
            // The lit line is IS-GOAL(n) of the state taken after the last expansion: a
            // goal, which is never expanded; the last expansion's state is its parent or
            // another, not n.
            let last = e
                .place
                .map_or(format!("the board of moment {}", self.position), square);
            parts.push(format!(
                "n = a goal, the state taken after the last expansion (of {last}{})",
                scores(e)
            ));
            return parts.join(" · ");
        }
        if let Some(e) = &self.expanded {
            let n = match e.place {
                Some(p) => format!("n = {}", square(p)),
                // At the end of a run that found its goal among n's successors the canvas
                // shows the solution found (its last board the goal), not n.
                None if self.found_on_generation() && self.event.is_none() => {
                    "n = the goal's parent".to_owned()
                }
                None => "n = the board shown".to_owned(),
            };
            parts.push(format!("{n}{}", scores(e)));
            parts.push(format!("depth {}", e.depth));
            match self.pushes() {
                Some(on) if self.is_goal_found() => parts.push(format!(
                    "event {} of {} · successor {on} of {} is a goal",
                    self.event.unwrap_or(0) + 1,
                    Self::events(self.pushed),
                    self.pushed
                )),
                Some(on) => parts.push(format!(
                    "event {} of {} · {} of {} on the frontier",
                    self.event.unwrap_or(0) + 1,
                    Self::events(self.pushed),
                    on.min(self.put_on()),
                    count(self.put_on() as u64, "successor")
                )),
                None if self.found_on_generation() => parts.push(format!(
                    "{} put on the frontier, then successor {} is a goal",
                    count(self.put_on() as u64, "state"),
                    self.pushed
                )),
                None => parts.push(format!(
                    "{} put on the frontier",
                    count(self.pushed as u64, "state")
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
        let expansions = count(self.len as u64, "expansion");
        match self.step {
            Step::Start => format!("The frontier holds the start {}.", what(self.next.as_ref())),
            Step::Found if self.event.is_some() => {
                let (what, score) = match self.successor {
                    Some(s) => (
                        s.place.map_or("This successor".to_owned(), square),
                        scores_of(s.g, s.h),
                    ),
                    None => ("This successor".to_owned(), String::new()),
                };
                format!("Goal test: {what} is a goal{score}: the search returns the path to it.")
            }
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
                // The count first: the error's own text ends the sentence, so nothing reads
                // as part of it ("Variable not found: knight after 21 expansions").
                Ending::Ended(Outcome::ScriptError) => format!(
                    "After {expansions}, the run {}.",
                    (self.stop_message.as_deref())
                        .unwrap_or("stopped at a script error")
                        .trim_end_matches('.')
                ),
                _ => format!("The recording stops after {expansions}: the run went on unrecorded."),
            },
            Step::Take => format!(
                "Taking {n} off the frontier{}.",
                this.map(scores).unwrap_or_default()
            ),
            Step::GoalTest if self.goal_on_generation => format!(
                "Goal test: each successor of {n} is tested as it is generated, before it goes \
                 on the frontier{}.",
                match (self.position == self.len, self.ending) {
                    (true, Ending::Ended(Outcome::Found)) => "; one is a goal",
                    (true, Ending::Ended(_) | Ending::Unrecorded) => "",
                    _ => "; none is a goal",
                }
            ),
            // A search that tests what it takes records no expansion of its goal (it returns
            // it once taken, after its last expansion): every state expanded is not a goal.
            Step::GoalTest => format!(
                "Goal test: {n} is {}.",
                match (self.position == self.len, self.ending) {
                    (true, Ending::Ended(Outcome::Found)) => "not a goal",
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
                    self.put_on()
                )
            }
            Step::Expand => match this {
                Some(e) => format!(
                    "Expanding {n}{}; {} put on the frontier.",
                    scores(e),
                    count(self.pushed as u64, "state")
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
