//! The "Learn" window's state and what it reads of the run: the moment of the timeline as a
//! step of the algorithm's pseudo-code, a caption of that step in plain words, and the open
//! list at that moment (cached per moment: it is rebuilt by replaying the recording, see
//! [`crate::runs::open_list`]).

use std::sync::Arc;

use crate::puzzles::Place;
use crate::runs::open_list::{OpenEntry, OpenListError, open_list_during};
use crate::runs::recording::{ExpansionInfo, TraceRecorder};
use crate::search::pseudocode::Step;
use crate::search::{Algorithm, TieBreak, format_cost};

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
        match self {
            Numbers::Off => None,
            Numbers::G => expansion.g,
            Numbers::H => expansion.h,
            Numbers::F => expansion.f(),
        }
    }
}

/// The key an open list is cached under: the recording, its length, the moment and the
/// order asked for.
type OpenKey = (usize, usize, usize, Option<usize>, Algorithm, TieBreak);

/// An open list built, shared with the window, or why there is none.
pub type OpenListResult = Result<Arc<Vec<OpenEntry>>, OpenListError>;

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
    /// The micro-step shown: the timeline position it belongs to and the event within the
    /// next expansion (see [`Moment::event`]); ignored once the timeline moves elsewhere.
    pub event: Option<(usize, usize)>,
    /// Predict mode: a click on the canvas guesses the state expanded next.
    pub predict: bool,
    /// Predict mode's score: right guesses, and guesses.
    pub score: (u32, u32),
    /// What the last guess was told.
    pub verdict: Option<(bool, String)>,
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
            cache: None,
        }
    }
}

impl LearnWindow {
    /// The open list of `recording` at `moment` (within its next expansion, `pushes`
    /// successors on, see [`open_list_during`]), in `algorithm`'s order under `tie_break`:
    /// built once per moment.
    ///
    /// # Errors
    /// As [`open_list_during`].
    pub fn open_list(
        &mut self,
        recording: &Arc<TraceRecorder>,
        (moment, pushes): (usize, Option<usize>),
        algorithm: Algorithm,
        tie_break: TieBreak,
    ) -> OpenListResult {
        let key = (
            Arc::as_ptr(recording) as usize,
            recording.expansions(),
            moment,
            pushes,
            algorithm,
            tie_break,
        );
        match &self.cache {
            Some((k, list)) if *k == key => list.clone(),
            _ => {
                let list =
                    open_list_during(recording, moment, pushes, algorithm, tie_break).map(Arc::new);
                self.cache = Some((key, list.clone()));
                list
            }
        }
    }
}

/// A moment of a recorded run, as the Learn window and the caption tell it: after
/// `position` expansions, and within the next one at a micro-step (`event`) when one is
/// asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Moment {
    /// Expansions done by this moment (the timeline's position).
    pub position: usize,
    /// Expansions in the recording.
    pub len: usize,
    /// The micro-step within expansion `position`: 0 takes its state off the frontier, 1
    /// tests it for the goal, 2 + i puts its i-th successor on the frontier.
    pub event: Option<usize>,
    /// The step of the pseudo-code the run is on.
    pub step: Step,
    /// The expansion done last (position − 1), if any.
    pub expanded: Option<ExpansionInfo>,
    /// The states that expansion put on the frontier (new, or reached again more cheaply).
    pub pushed: usize,
    /// The expansion to come next (the one the micro-steps go through), if any.
    pub next: Option<ExpansionInfo>,
    /// The successor being put on the frontier at a [`Step::Push`], with its `g` and `h`.
    pub successor: Option<(Place, Option<f32>, Option<f32>)>,
    /// How many successors the next expansion puts on the frontier.
    pub next_pushes: usize,
}

impl Moment {
    /// The successors of the next expansion on the frontier at this micro-step (see
    /// [`open_list_during`]); `None` between expansions.
    pub fn pushes(&self) -> Option<usize> {
        self.event.map(|e| e.saturating_sub(1))
    }

    /// The moment `position` of `recording`, at micro-step `event` of the next expansion if
    /// given (past its last event, none); `solved` says how the run ended, once it has
    /// (`None` while it runs).
    pub fn at(
        recording: &TraceRecorder,
        position: usize,
        event: Option<usize>,
        solved: Option<bool>,
    ) -> Moment {
        let len = recording.expansions();
        let position = position.min(len);
        let expanded = position.checked_sub(1).and_then(|j| recording.expansion(j));
        let pushed = position
            .checked_sub(1)
            .map_or(0, |j| recording.pushed(Some(j)).count());
        let next = recording.expansion(position);
        let next_pushes = next
            .as_ref()
            .map_or(0, |_| recording.pushed(Some(position)).count());
        let event = event.filter(|&e| next.is_some() && e < Self::events(next_pushes));
        let successor = event
            .and_then(|e| e.checked_sub(2))
            .and_then(|i| recording.pushed(Some(position)).nth(i));
        let step = match (position, solved, event) {
            (_, _, Some(0)) => Step::Take,
            (_, _, Some(1)) => Step::GoalTest,
            (_, _, Some(_)) => Step::Push,
            (p, Some(true), None) if p == len => Step::Found,
            (p, Some(false), None) if p == len => Step::Failed,
            (0, _, None) => Step::Start,
            _ => Step::Expand,
        };
        Moment {
            position,
            len,
            event,
            step,
            expanded,
            pushed,
            next,
            successor,
            next_pushes,
        }
    }

    /// The micro-steps of an expansion that puts `pushes` successors on the frontier: take
    /// it, test it, put each on.
    pub fn events(pushes: usize) -> usize {
        2 + pushes
    }

    /// One sentence for the caption under the canvas: what the step does, with its values.
    pub fn caption(&self) -> String {
        let next = self.next.as_ref();
        let next_square = next
            .and_then(|e| e.place)
            .map_or("the board shown".to_owned(), square);
        match (self.step, &self.expanded) {
            (Step::Start, _) => format!("The frontier holds the start {next_square}."),
            (Step::Found, _) => format!(
                "Goal reached after {}: the path is the chain of parents back to the start.",
                super::count(self.len as u64, "expansion")
            ),
            (Step::Failed, _) => format!(
                "The run ended after {} without reaching a goal.",
                super::count(self.len as u64, "expansion")
            ),
            (Step::Take, _) => format!(
                "Taking {next_square} off the frontier{}.",
                next.map(scores).unwrap_or_default()
            ),
            (Step::GoalTest, _) => format!(
                "Goal test: {next_square} is {}.",
                if self.position + 1 == self.len {
                    "checked last"
                } else {
                    "not a goal"
                }
            ),
            (Step::Push, _) => {
                let (what, score) = match self.successor {
                    Some((place, g, h)) => (square(place), scores_of(g, h)),
                    None => ("a successor".to_owned(), String::new()),
                };
                let i = self.event.map_or(0, |e| e.saturating_sub(1));
                format!(
                    "Putting {what} on the frontier{score} ({i} of {}).",
                    self.next_pushes
                )
            }
            (Step::Expand, Some(e)) => {
                let what = e.place.map_or("the board shown".to_owned(), square);
                format!(
                    "Expanding {what}{}; {} put on the frontier.",
                    scores(e),
                    super::count(self.pushed as u64, "state")
                )
            }
            (Step::Expand, None) => "Expanding.".to_owned(),
        }
    }
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

    /// The moment of the single run on the timeline (see [`Moment`]), with its recording;
    /// `None` without one (no run yet, a race, a board puzzle's run is included).
    pub fn learn_moment(&self) -> Option<(Arc<TraceRecorder>, Moment)> {
        let track = self.timeline()?.track.as_ref()?;
        let recording = track.recording().clone();
        let solved = (!self.is_running())
            .then(|| self.result().map(|r| r.solved))
            .flatten();
        let shown = track.shown();
        let event = (self.windows.learn.event).and_then(|(at, e)| (at == shown).then_some(e));
        let moment = Moment::at(&recording, shown, event, solved);
        Some((recording, moment))
    }
}
