//! The edits group (`Paint`, `SetOption`, `Undo`, `Redo`): editing the puzzle on screen
//! (stopping the search before an edit, what an edit leaves to check), its undo history (one
//! step a pointer stroke), whether it is as saved, and replacing it.

use std::path::PathBuf;

use eframe::egui;

use super::commands::{UNDO_LIMIT, comparable_text};
use super::view::ViewRequest;
use super::{AppState, SearchMarks, pick_algorithm};
use crate::puzzles::Puzzle;

impl AppState {
    /// Before an edit: stop the search and forget its picture.
    pub(crate) fn before_edit(&mut self) {
        self.runs.race = None;
        if self.runs.current.is_some() {
            self.stop_run();
            self.set_status("Search stopped: the puzzle was edited.");
        }
    }

    /// After an edit: the old search no longer describes the puzzle.
    pub(crate) fn after_edit(&mut self) {
        // A move by hand still sliding belongs to the puzzle before this edit: the picture
        // is the edited puzzle's at once (an undo during the slide showed the move made
        // again); a move by hand starts its own slide after its edit.
        self.canvas.edit_slide = None;
        self.work.result = None;
        self.work.timeline = None;
        self.work.shown_moves = 0;
        self.windows.learn.forget_guesses();
        self.playback.transition = None;
        self.playback.playing = false;
        // A blank view of the same size is kept: rebuilding it for every square painted
        // would be slow on a large grid.
        if !self.work.marks.is_blank_for(self.work.puzzle.dims()) {
            self.work.marks = SearchMarks::for_puzzle(self.work.puzzle.as_ref());
        }
        self.edits.revision += 1;
        self.edits.puzzle_dirty = true;
        // A pin outside the puzzle (a grid made smaller) is dropped: it pins nothing.
        let (rows, cols) = self.work.puzzle.dims();
        if self
            .runs
            .breakpoints
            .pinned
            .is_some_and(|p| p.cell.row >= rows || p.cell.col >= cols)
        {
            self.runs.breakpoints.pinned = None;
        }
        // Counted as changed at once; whether it still matches the file is looked at once
        // the frame's commands are done (a drag paints many squares a frame).
        self.work.modified = true;
        self.edits.saved_check_due = true;
    }

    /// After the frame's edits: whether the puzzle is still (or again) as it was last
    /// opened or saved, its text format compared with the text kept then (see
    /// [`comparable_text`]). Moves that do not change the file (driving the car maze by
    /// hand) and undoing back to the file leave it unmodified.
    pub(super) fn check_saved(&mut self) {
        if std::mem::take(&mut self.edits.saved_check_due) {
            self.work.modified = self.work.saved_text.is_none()
                || comparable_text(self.work.puzzle.as_ref()) != self.work.saved_text;
        }
    }

    /// Keeps the puzzle's text as the one on file (opened or saved), when small enough to
    /// compare (see [`comparable_text`]).
    pub(crate) fn remember_saved(&mut self) {
        self.work.saved_text = comparable_text(self.work.puzzle.as_ref());
        self.work.modified = false;
        self.edits.saved_check_due = false;
    }

    /// Edits the puzzle: stops the search first, keeps the puzzle as it was for undo (puzzles
    /// without an undo of their own) and forgets the search if `edit` says the puzzle changed.
    /// Returns whether it changed.
    /// Edits the puzzle on screen as the model `M` (a view's own type), as any edit is made
    /// (a search stopped, an undo step, the puzzle marked changed); `false` if it is another type or `edit` changed
    /// nothing.
    pub fn edit_model<M: Puzzle + std::any::Any>(
        &mut self,
        edit: impl FnOnce(&mut M) -> bool,
    ) -> bool {
        self.edit_puzzle(|p| p.model_mut::<M>().is_some_and(edit))
    }

    /// Sets the problem the puzzle on screen poses (a Moving AI scenario's start and goal on
    /// its map) as the model `M`: as an edit for the search, undo and the picture, but not a
    /// change of the file (a map file holds no start or goal): a puzzle unedited before
    /// stays unedited. `false` if it is another type or `pose` changed nothing.
    pub fn pose_problem<M: Puzzle + std::any::Any>(
        &mut self,
        pose: impl FnOnce(&mut M) -> bool,
    ) -> bool {
        self.check_saved();
        let unedited = !self.work.modified;
        let changed = self.edit_model(pose);
        if changed && unedited {
            self.remember_saved();
        }
        changed
    }

    pub(crate) fn edit_puzzle(&mut self, edit: impl FnOnce(&mut dyn Puzzle) -> bool) -> bool {
        let was_running = self.runs.current.is_some();
        self.before_edit();
        let before = self
            .edits
            .uses_app_undo
            .then(|| self.work.puzzle.clone_box());
        if !edit(self.work.puzzle.as_mut()) {
            return false;
        }
        if !was_running {
            // The message describes the present: an old one (an error, a finished run)
            // gives way to the edit.
            self.set_status("Edited; Ctrl+Z undoes.");
        }
        if let Some(before) = before {
            self.record_undo(before);
        }
        self.after_edit();
        true
    }

    /// Puts `puzzle` on screen (opened from `path`, if it was): the search, the undo history
    /// and the canvas's zoom start afresh, and the view follows the puzzle's type.
    pub(crate) fn replace_puzzle(&mut self, puzzle: Box<dyn Puzzle>, path: Option<PathBuf>) {
        self.stop_run();
        self.work.history.clear();
        self.work.future.clear();
        self.work.zoom = 1.0;
        self.work.pan = egui::Vec2::ZERO;
        self.runs.race = None;
        self.canvas.edit_slide = None;
        self.work.puzzle = puzzle;
        self.settings.path = path;
        // Named by its file from now on (see `open_shipped` for a shipped one); the state
        // pinned on the puzzle before belongs to it, not to this one.
        self.work.shipped = None;
        self.runs.breakpoints.pinned = None;
        self.work.algorithm = pick_algorithm(self.work.puzzle.as_ref(), self.settings.algorithm);
        self.work.replaced += 1;
        self.after_edit();
        self.remember_saved();
    }

    /// Keeps `before` (the puzzle before an edit that changed it) for undo: once per pointer
    /// stroke, so a whole drag undoes at once.
    pub(super) fn record_undo(&mut self, before: Box<dyn Puzzle>) {
        let continuing = self.canvas.stroke.as_ref().is_some_and(|s| s.recorded);
        if let Some(stroke) = &mut self.canvas.stroke {
            stroke.recorded = true;
        }
        if continuing {
            return;
        }
        if self.work.history.len() >= UNDO_LIMIT {
            self.work.history.remove(0);
        }
        self.work.history.push(before);
        self.work.future.clear();
    }

    /// Takes back the last edit: from the app's history, or the view's own undo.
    pub(super) fn undo(&mut self) {
        // A type with its own undo takes back its moves by hand; once none is left, the
        // board taken from a solution's playback (see `take_shown_board`) goes back to the
        // puzzle it was taken from, the one edit of the app's history such a type has.
        let played = (self.work.puzzle.capabilities().hand_play).map(|h| h.moves_played());
        if !self.edits.uses_app_undo && (played != Some(0) || self.work.history.is_empty()) {
            self.ask_view(ViewRequest::Undo);
            return;
        }
        let Some(previous) = self.work.history.pop() else {
            self.set_status("Nothing to undo.");
            return;
        };
        self.before_edit();
        let now = std::mem::replace(&mut self.work.puzzle, previous);
        if self.edits.uses_app_undo {
            self.work.future.push(now);
        }
        self.after_edit();
        self.set_status("Undone.");
    }

    /// Makes again the last edit taken back.
    pub(super) fn redo(&mut self) {
        if !self.edits.uses_app_undo {
            self.ask_view(ViewRequest::Redo);
            return;
        }
        let Some(next) = self.work.future.pop() else {
            self.set_status("Nothing to redo.");
            return;
        };
        self.before_edit();
        let now = std::mem::replace(&mut self.work.puzzle, next);
        self.work.history.push(now);
        self.after_edit();
        self.set_status("Redone.");
    }

    /// Whether an edit can be undone from the app's history.
    pub fn can_undo(&self) -> bool {
        !self.work.history.is_empty()
    }

    /// Whether an undone edit can be redone.
    pub fn can_redo(&self) -> bool {
        !self.work.future.is_empty()
    }

    /// Whether Undo may take something back now: an edit of the app's history, or, for a
    /// type with an undo of its own (see [`super::OwnUndo`]), whatever its
    /// view keeps (it says "Nothing to undo" itself).
    pub fn may_undo(&self) -> bool {
        !self.edits.uses_app_undo || self.can_undo()
    }

    /// Whether Redo may make something again now (see [`AppState::may_undo`]).
    pub fn may_redo(&self) -> bool {
        !self.edits.uses_app_undo || self.can_redo()
    }

    /// Paints `value` on `cell`, as an edit (none in a stroke refused, see
    /// [`AppState::take_shown_board`]).
    pub(super) fn paint(&mut self, cell: crate::puzzles::Cell, value: u8) {
        if self.canvas.stroke_refused {
            return;
        }
        // Puzzles with their own undo slide the painted piece into place instead.
        let before = (!self.edits.uses_app_undo).then(|| self.work.puzzle.clone_box());
        if self.edit_puzzle(|p| p.paint(cell, value))
            && let Some(before) = before
        {
            self.slide_from(before.as_ref());
        }
    }
}
