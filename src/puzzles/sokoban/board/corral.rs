//! PI-corral pruning: Junghanns and Schaeffer, "Sokoban: Enhancing general single-agent
//! search methods using domain knowledge" (Artificial Intelligence 129, 2001; the Rolling
//! Stone solver), as the Sokoban Wiki's "Solver" page states it for YASS and Sokolution.
//!
//! A corral is an area of free squares the player cannot reach (the boxes around it fence it
//! off). It is an I-corral when every push the player can make of a box on its border goes
//! into it, and a PI-corral when the player can also stand behind every box of its border
//! that could be pushed into it. A PI-corral that still needs work (a box of its border off a
//! goal, or a goal inside it) must be entered by some later push of one of its border boxes,
//! and the other pushes cannot help that; so only the pushes into it need be searched, and
//! the other successors are pruned. Where several corrals qualify, the one with the fewest
//! pushes into it is kept.
//!
//! The conditions are checked with the boxes off the border taken away (they may move first):
//! a push of a border box counts as possible when the square ahead is not a wall or another
//! border box and not dead, and the square behind is not a wall or a border box. Then any
//! possible push that ends outside the area, from a square outside it, disqualifies it
//! (whether the player reaches that square now or not), and every possible push into it
//! must start from a square the player reaches now; at least one of them must survive the
//! other checks (a corral with no way in is left to the deadlock checks).
//!
//! Why no shortest solution is lost: while no border box moves, no box can enter the area
//! (its only neighbours outside it are walls and border boxes) and the player cannot either;
//! so the first push of a border box in any solution is, by the conditions, one of the pushes
//! into the corral possible now, and the pushes before it (of other boxes, outside the area)
//! can all be made after it: it frees a square and fills one they never use. Moving it first
//! gives a solution of as many pushes that starts inside the kept successors. In the `moves`
//! metric that reordering can lengthen the walks, so the pruning is for `pushes` alone.

use super::{Board, Dir, FoundPush, Ground, State, opposite};

/// A position surveyed once ([`Board::survey`]) for the pushes, the PI-corral pruning and
/// the corral deadlocks of one expansion, which all start from the same flood fills.
#[derive(Clone, Debug)]
pub struct Survey {
    /// The boxes by square.
    pub boxes: Vec<bool>,
    /// The player's walking distance to each square (`u32::MAX` where it cannot walk).
    pub reach: Vec<u32>,
    /// The squares the player reaches, in breadth-first order.
    pub order: Vec<usize>,
    /// Each square's corral area (`u32::MAX` for none: see [`Board::corral_areas`]).
    pub area: Vec<u32>,
    /// Each corral area's squares.
    pub members: Vec<Vec<usize>>,
}

/// No corral: a square the player reaches, a box, a wall or outside.
const NONE: u32 = u32::MAX;

impl Board {
    /// Of `found`, the pushes from `state` (as [`Board::pushes`] made them), keeps only those
    /// into one PI-corral that needs work, when there is one (see the module's doc); leaves
    /// `found` whole otherwise. Returns whether it pruned.
    pub fn prune_to_pi_corral(&self, state: &State, found: &mut Vec<FoundPush>) -> bool {
        self.prune_to_pi_corral_in(&self.survey(state), found)
    }

    /// As [`Board::prune_to_pi_corral`], on the position's `survey` ([`Board::survey`]).
    pub fn prune_to_pi_corral_in(&self, survey: &Survey, found: &mut Vec<FoundPush>) -> bool {
        let Survey {
            boxes,
            reach,
            area,
            members,
            ..
        } = survey;
        let mut best: Option<Vec<(usize, Dir)>> = None;
        for (corral, squares) in members.iter().enumerate() {
            let Some(ways_in) = self.pi_corral_pushes(boxes, reach, area, corral as u32, squares)
            else {
                continue;
            };
            let kept = found
                .iter()
                .filter(|f| ways_in.contains(&self.push_key(f)))
                .count();
            if kept > 0 && best.as_ref().is_none_or(|b| kept < b.len()) {
                let keys: Vec<(usize, Dir)> = found
                    .iter()
                    .map(|f| self.push_key(f))
                    .filter(|k| ways_in.contains(k))
                    .collect();
                best = Some(keys);
            }
        }
        let Some(keep) = best else {
            return false;
        };
        if keep.len() == found.len() {
            return false;
        }
        found.retain(|f| keep.contains(&self.push_key(f)));
        true
    }

    /// The position `state` surveyed once for the checks of an expansion: its boxes by
    /// square, the player's walks and its corral areas (see [`Survey`]).
    pub fn survey(&self, state: &State) -> Survey {
        let boxes = self.box_flags(state);
        let (reach, order) = self.walks(&boxes, usize::from(state.player));
        let (area, members) = self.corral_areas(&boxes, &reach);
        Survey {
            boxes,
            reach,
            order,
            area,
            members,
        }
    }

    /// A push's box square and direction.
    fn push_key(&self, f: &FoundPush) -> (usize, Dir) {
        (
            usize::from(f.push.row) * self.cols + usize::from(f.push.col),
            f.push.dir,
        )
    }

    /// The corral area of each square: the connected areas of free inside squares the player
    /// does not reach (`reach[s] == u32::MAX`), numbered from 0; [`NONE`] elsewhere. Then
    /// each area's squares.
    pub(super) fn corral_areas(
        &self,
        boxes: &[bool],
        reach: &[u32],
    ) -> (Vec<u32>, Vec<Vec<usize>>) {
        let n = self.squares();
        let mut area = vec![NONE; n];
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut next = 0u32;
        let mut stack = Vec::new();
        let free = |s: usize| self.ground[s] == Ground::Inside && !boxes[s] && reach[s] == NONE;
        for s in 0..n {
            if area[s] != NONE || !free(s) {
                continue;
            }
            area[s] = next;
            stack.push(s);
            let mut squares = Vec::new();
            while let Some(at) = stack.pop() {
                squares.push(at);
                for d in Dir::ALL {
                    if let Some(t) = self.step(at, d)
                        && area[t] == NONE
                        && free(t)
                    {
                        area[t] = next;
                        stack.push(t);
                    }
                }
            }
            members.push(squares);
            next += 1;
        }
        (area, members)
    }

    /// The pushes into corral `corral`, whose squares are `squares` (box square, direction),
    /// when it is a PI-corral that needs work; `None` when it is not.
    fn pi_corral_pushes(
        &self,
        boxes: &[bool],
        reach: &[u32],
        area: &[u32],
        corral: u32,
        squares: &[usize],
    ) -> Option<Vec<(usize, Dir)>> {
        let inside = |s: usize| area[s] == corral;
        // The boxes on its border, and whether it needs work.
        let mut border: Vec<usize> = Vec::new();
        let mut needs_work = false;
        for &s in squares {
            needs_work |= self.goal[s];
            for d in Dir::ALL {
                if let Some(b) = self.step(s, d).filter(|&b| boxes[b])
                    && !border.contains(&b)
                {
                    needs_work |= !self.goal[b];
                    border.push(b);
                }
            }
        }
        if !needs_work {
            return None;
        }
        // The other boxes taken away.
        let free = |s: usize| self.ground[s] == Ground::Inside && !border.contains(&s);
        let mut ways_in = Vec::new();
        for &b in &border {
            for d in Dir::ALL {
                let (Some(t), Some(p)) = (self.step(b, d), self.step(b, opposite(d))) else {
                    continue;
                };
                if !free(t) || !self.live[t] || !free(p) {
                    continue;
                }
                if !inside(t) {
                    if inside(p) {
                        // Out of the area from inside it: only after the corral is entered.
                        continue;
                    }
                    // A way out of the area, or along its border: not an I-corral.
                    return None;
                }
                if reach[p] == NONE {
                    // A way in the player cannot make now: not a P-corral.
                    return None;
                }
                ways_in.push((b, d));
            }
        }
        (!ways_in.is_empty()).then_some(ways_in)
    }
}
