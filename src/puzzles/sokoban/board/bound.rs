//! The lower bound on pushes: the minimum-cost perfect matching of the boxes to the goals
//! on push distances (Junghanns and Schaeffer, "Sokoban: enhancing general single-agent
//! search methods using domain knowledge", Artificial Intelligence 129, 2001: Rolling
//! Stone's minimum matching lower bound), computed anew or repaired after one box moved.

use super::super::matching;
use super::{Board, State};

impl Board {
    /// The least pushes of a box from square `s` to the goal on square `goal` with no other
    /// box on the board; `None` when it cannot get there (or `goal` is no goal inside).
    pub fn distance(&self, goal: usize, s: usize) -> Option<u32> {
        let g = self.goals.binary_search(&(goal as u16)).ok()?;
        let d = self.dist[g * self.squares() + s];
        (d != u16::MAX).then_some(u32::from(d))
    }

    /// The heuristic: the least total push distance of a perfect matching of the boxes to
    /// the goals (the Hungarian algorithm on [`Board`]'s push distances), which never
    /// overestimates the pushes (each box needs at least its distance, and no two boxes end
    /// on one goal); `None` when no perfect matching exists (the state is a dead end).
    pub fn matching_bound(&self, state: &State) -> Option<u32> {
        let n = self.squares();
        let k = state.boxes.len();
        let cost = |i: usize, g: usize| {
            let d = self.dist[g * n + usize::from(state.boxes[i])];
            (d != u16::MAX).then_some(u32::from(d))
        };
        matching::min_cost(k, cost)
    }

    /// The optimal assignment of the boxes `boxes` (in that order) to the goals on push
    /// distances, kept for [`Board::repaired_bound`]; its total is
    /// [`Board::matching_bound`].
    pub fn assignment(&self, boxes: &[u16]) -> matching::Assignment {
        matching::Assignment::solve(boxes.len(), &self.cost_of(boxes, usize::MAX, 0))
    }

    /// The matching bound after the box `row` of `boxes` (the boxes `assignment` was made
    /// for) moves to square `to`, by repairing `assignment` into `scratch` (one augmenting
    /// path: see [`matching::Assignment::repair_row`]); `None` when no perfect matching
    /// exists.
    pub fn repaired_bound(
        &self,
        assignment: &matching::Assignment,
        boxes: &[u16],
        row: usize,
        to: usize,
        scratch: &mut matching::Assignment,
    ) -> Option<u32> {
        scratch.clone_from(assignment);
        let cost = self.cost_of(boxes, row, to);
        scratch.repair_row(row, &cost);
        scratch.total(&cost)
    }

    /// The push distance of box `i` of `boxes` to goal `g`, box `moved` on square `to`.
    fn cost_of<'a>(
        &'a self,
        boxes: &'a [u16],
        moved: usize,
        to: usize,
    ) -> impl Fn(usize, usize) -> Option<u32> + 'a {
        let n = self.squares();
        move |i: usize, g: usize| {
            let s = if i == moved {
                to
            } else {
                usize::from(boxes[i])
            };
            let d = self.dist[g * n + s];
            (d != u16::MAX).then_some(u32::from(d))
        }
    }
}
