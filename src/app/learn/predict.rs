//! The Predict group (`LearnCommand::Predict`, `Guess`, `GuessEntry`): the student guesses the
//! state the run expands next (a square of the canvas or a row of the open list), and the guess
//! is scored against the recording.

use std::sync::Arc;

use crate::app::{AppCommand, AppState, TimelineCommand};
use crate::puzzles::{Cell, Place};
use crate::runs::open_list::{OpenEntry, is_expansion};
use crate::runs::recording::TraceRecorder;
use crate::search::pseudocode::pseudocode;

use super::{Ending, Moment, scores, scores_of, square};

/// What Predict mode says of a click on a board puzzle's canvas (which guesses nothing).
const BOARD_CLICK: &str = "A board puzzle's states are whole boards: guess by clicking a \
                           board in the open list.";

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
pub(super) struct PendingGuess {
    /// What was guessed.
    guessed: Guessed,
    /// The expansion (from 0) it guesses.
    expansion: usize,
}

impl AppState {
    /// Predict mode on or off: the score starts again.
    pub(super) fn set_predict(&mut self, on: bool) {
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

    /// Predict mode: the state at `cell` is guessed to be expanded next.
    pub(super) fn guess_cell(&mut self, cell: Cell) {
        self.guess(Guessed::Cell(cell));
    }

    /// Predict mode: the state on row `row` of the open list shown is guessed to be
    /// expanded next.
    pub(super) fn guess_entry(&mut self, row: usize) {
        // The row's state in the list shown, taken now (another list scores it).
        self.build_learn_list();
        let entry = self.learn_open_list().and_then(|l| l.get(row).cloned());
        self.guess(Guessed::Entry(entry));
    }

    /// Predict mode: `cell` is the user's guess of the state expanded next. A running
    /// search is paused first, at the moment shown. The guess is scored against the run's
    /// next expansion once recorded (a live run paused is stepped to it):
    /// right, the timeline moves on one expansion; wrong, it stays; either way the score
    /// counts it and the window says why the next state is next.
    fn guess(&mut self, guessed: Guessed) {
        // A guess while the run goes pauses it first, at the moment on screen: the guess
        // is about the state expanded after the one the student saw.
        if self.is_running() && !self.is_paused() {
            self.apply(AppCommand::Pause);
            if let Some(shown) = self
                .timeline()
                .and_then(|t| t.track.as_ref())
                .map(|t| t.shown())
            {
                self.apply_timeline(TimelineCommand::Seek(shown));
            }
        }
        let Some((recording, m)) = self.learn_moment() else {
            self.windows.learn.tell((
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
        let boards = recording.has_boards()
            || [&m.expanded, &m.next]
                .iter()
                .any(|e| e.as_ref().is_some_and(|e| e.place.is_none()));
        if boards && matches!(guessed, Guessed::Cell(_)) {
            // A click on a board is no guess: nothing is scored, nothing steps.
            self.windows.learn.tell((false, BOARD_CLICK.into()));
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
        self.windows
            .learn
            .tell((false, "The run is over: no state comes next.".into()));
    }

    /// Scores a guess waiting for its expansion, once the recording holds it.
    pub(super) fn score_pending_guess(&mut self) {
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
            self.windows.learn.tell((
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
        let (algorithm, tie_break) = self.run_rules();
        let why_next = pseudocode(algorithm).why_next;
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
                self.windows.learn.tell((false, BOARD_CLICK.into()));
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
        learn.tell(if right {
            (true, format!("Right: {next_text} is next. {why_next}"))
        } else {
            let yours = match (&entry, guessed) {
                (Some(e), _) => {
                    // Where the guess stands on the open list (the walk's W8).
                    let stands = (list.as_ref())
                        .and_then(|l| Some((l.iter().position(|x| x == e)?, l.len())))
                        .map_or(String::new(), |(i, n)| {
                            format!(", row {} of {n} on the open list", i + 1)
                        });
                    format!(
                        "{} is on the frontier{}{stands}",
                        what(e.place),
                        scores_of(e.g, e.h)
                    )
                }
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
