//! Klotski played by hand: a drag of a piece, one move however far it goes in the `piece`
//! metric (one a cell in `unit`).

use super::{Cell, Klotski, Metric};

/// A drag of one piece by hand: the piece and the number of moves recorded before the drag
/// began. Not part of the puzzle (equal whatever it holds): it only says whether the next
/// cell of a drag continues its move.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Drag(Option<(usize, usize)>);

impl PartialEq for Drag {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for Drag {}

impl Klotski {
    /// Ends the drag by hand in progress: the next cell dragged is a move of its own.
    pub(crate) fn end_drag(&mut self) {
        self.drag = Drag::default();
    }

    /// Moves the piece covering `from` one cell so that it covers `to`, as the next cell of
    /// a drag by hand (see [`Klotski::drag`]). In the `piece` metric the cells of one drag
    /// (since [`Klotski::end_drag`]) are one move, however far and round corners it goes
    /// (none if the piece is back where it began), undone at once; in the `unit` metric
    /// each cell is a move. Returns whether the piece moved.
    pub(crate) fn drag_move(&mut self, from: Cell, to: Cell) -> bool {
        let Some(slot) = self.slot_at(from) else {
            return false;
        };
        let recorded = self.undo.len();
        let going_on = self.drag.0.filter(|&(piece, before)| {
            self.metric == Metric::Piece
                && piece == slot
                && self.redo.is_empty()
                && (before..=before + 1).contains(&recorded)
        });
        if !self.drag(from, to) {
            return false;
        }
        let before = match going_on {
            Some((_, before)) => {
                // One record for the whole drag: the position before it.
                self.undo.truncate(before + 1);
                if self.undo.last() == Some(&self.anchors) {
                    self.undo.pop();
                }
                before
            }
            None => recorded,
        };
        self.drag = Drag(Some((slot, before)));
        true
    }
}
