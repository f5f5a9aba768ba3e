//! Freeze deadlocks beyond the 2 x 2 block: a box that can never move again, on either axis,
//! off a goal. As the Sokoban Wiki's "Deadlocks" and "Solver" pages state it (the freeze
//! deadlock of YASS and Sokolution), after Junghanns and Schaeffer's Rolling Stone papers
//! (1997-2001), where frozen boxes are the base of their deadlock tables.
//!
//! A box is blocked on an axis (horizontal or vertical) when one of its two neighbours on that
//! axis is a wall (or a box sealed off on a goal), or both are dead squares (a push along the
//! axis would put it on one), or one is a box that is itself frozen, checked with this box
//! taken for a wall (which breaks the circles of boxes blocking each other: none of them can
//! move first). A box blocked on both axes is frozen: it never moves again. A push that
//! leaves a frozen box off a goal, the pushed box or one of the frozen boxes it leans on,
//! makes the position unsolvable.

use super::{Board, Dir, Ground};

impl Board {
    /// Whether the box just pushed onto `t` is frozen (see the module's doc) with a box off a
    /// goal among it and the frozen boxes it leans on; `boxes` are the boxes by square after
    /// the push (`boxes[t]` true).
    pub fn freeze_deadlock(&self, boxes: &[bool], t: usize) -> bool {
        let mut as_wall = Vec::new();
        let mut frozen = Vec::new();
        self.is_frozen(boxes, t, &mut as_wall, &mut frozen) && frozen.iter().any(|&b| !self.goal[b])
    }

    /// Whether the box on `b` is frozen, the boxes of `as_wall` taken for walls; appends to
    /// `frozen` the boxes found frozen that its freezing rests on, `b` among them (and
    /// nothing when it is not frozen).
    fn is_frozen(
        &self,
        boxes: &[bool],
        b: usize,
        as_wall: &mut Vec<usize>,
        frozen: &mut Vec<usize>,
    ) -> bool {
        let mark = frozen.len();
        as_wall.push(b);
        let blocked = self.blocked_on(boxes, b, [Dir::Left, Dir::Right], as_wall, frozen)
            && self.blocked_on(boxes, b, [Dir::Up, Dir::Down], as_wall, frozen);
        as_wall.pop();
        if blocked {
            frozen.push(b);
        } else {
            frozen.truncate(mark);
        }
        blocked
    }

    /// Whether the box on `b` (already in `as_wall`) is blocked on the axis of `axis`.
    fn blocked_on(
        &self,
        boxes: &[bool],
        b: usize,
        axis: [Dir; 2],
        as_wall: &mut Vec<usize>,
        frozen: &mut Vec<usize>,
    ) -> bool {
        let [one, other] = axis.map(|d| self.step(b, d));
        let wall = |s: Option<usize>| {
            s.is_none_or(|s| self.ground[s] != Ground::Inside || as_wall.contains(&s))
        };
        if wall(one) || wall(other) {
            return true;
        }
        let (Some(one), Some(other)) = (one, other) else {
            return true;
        };
        if !self.live[one] && !self.live[other] {
            return true;
        }
        (boxes[one] && self.is_frozen(boxes, one, as_wall, frozen))
            || (boxes[other] && self.is_frozen(boxes, other, as_wall, frozen))
    }
}
