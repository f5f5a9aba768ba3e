//! Rush Hour played by hand: the record of the slides played since the layout last changed,
//! counted in the board's metric, a drag being one slide however far it goes.

use super::{Metric, RushHour};

/// The record of the slides played by hand on a board (see [`RushHour::moves_played_by_hand`]).
#[derive(Clone, Debug)]
pub(super) struct Hand {
    /// The board the slides started from.
    pub(super) origin: RushHour,
    /// Their count in the board's metric.
    pub(super) played: u32,
    /// The drag in progress ([`crate::puzzles::Puzzle::paint`]), if the last slide was one.
    pub(super) stroke: Option<HandStroke>,
}

/// A drag of one vehicle by hand, one slide however far it goes (see
/// [`crate::puzzles::Puzzle::begin_stroke`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct HandStroke {
    /// The vehicle dragged.
    vehicle: usize,
    /// Its position when the drag began.
    from: u8,
    /// The moves played before the drag.
    played_before: u32,
    /// Its position after the drag's last slide, and the moves played then: the drag goes
    /// on only from there.
    at: u8,
    played_after: u32,
}

impl RushHour {
    /// What a slide of `cells` cells costs in the board's metric (nothing for none).
    pub(super) fn slide_cost(&self, cells: u8) -> u32 {
        match (cells, self.metric) {
            (0, _) => 0,
            (_, Metric::Moves) => 1,
            (_, Metric::Steps) => u32::from(cells),
        }
    }

    /// Slides vehicle `i` by `by` cells as part of a drag by hand: the drag's slides since
    /// [`crate::puzzles::Puzzle::begin_stroke`] are one slide, from where the vehicle was
    /// when the drag began to where it is now (one move in the `moves` metric, the cells
    /// between in `steps`; nothing if it is back where it began). Returns whether it moved.
    pub(super) fn drag_slide(&mut self, i: usize, by: i8) -> bool {
        let (now, played) = (self.positions[i], self.moves_played_by_hand());
        let going_on = self
            .hand_record()
            .and_then(|hand| hand.stroke)
            .filter(|s| s.vehicle == i && s.at == now && s.played_after == played);
        let (from, played_before) = going_on.map_or((now, played), |s| (s.from, s.played_before));
        if !self.slide(i, by) {
            return false;
        }
        let at = self.positions[i];
        let played_after = played_before + self.slide_cost(at.abs_diff(from));
        if let Some(hand) = &mut self.hand {
            hand.played = played_after;
            hand.stroke = Some(HandStroke {
                vehicle: i,
                from,
                played_before,
                at,
                played_after,
            });
        }
        true
    }

    /// Ends the drag in progress: the next slide by hand is a move of its own.
    pub(crate) fn end_drag(&mut self) {
        if let Some(hand) = &mut self.hand {
            hand.stroke = None;
        }
    }

    /// The record of the slides played by hand, if the layout is still its board's.
    pub(super) fn hand_record(&self) -> Option<&Hand> {
        (self.hand.as_deref())
            .filter(|hand| crate::puzzles::oracle::Explorable::same_rules(&hand.origin, self))
    }

    /// How many moves (or steps, in the steps metric) were played by hand since the layout
    /// last changed (undone ones, through the app's undo, not counted). A drag is one
    /// slide, however many cells it passes.
    pub fn moves_played_by_hand(&self) -> u32 {
        self.hand_record().map_or(0, |hand| hand.played)
    }
}
