//! Corral deadlocks: a corral (an area the player cannot reach, fenced by boxes: see
//! [`super::corral`]) whose boxes cannot all be brought onto goals even with every other box
//! taken off the board. The Sokoban Wiki's "Deadlocks" page ("corral deadlocks", as YASS and
//! Sokolution detect them) and Junghanns and Schaeffer's pattern searches (Rolling Stone,
//! "Sokoban: enhancing general single-agent search methods using domain knowledge",
//! Artificial Intelligence 129, 2001), which search a subset of the boxes alone.
//!
//! Why it is sound: take any solution from the position, and keep only its pushes of the
//! corral's boxes. With the other boxes gone, each of those pushes is still legal (every
//! square the player walks or a box enters is as free as before or freer), and at the end
//! the corral's boxes stand on goals. So if a search of the corral's boxes alone, pruned
//! only by checks that are themselves sound for a subset of the boxes (dead squares, the
//! 2 x 2 freeze, a matching of the boxes to goals of their own at the start), exhausts its positions without putting
//! them all on goals, no solution exists. A search stopped at its node limit proves nothing
//! and prunes nothing.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use super::{Board, Dir, FoundPush, State, Survey};

/// The most boxes of a corral searched: larger corrals are left alone (their searches
/// seldom finish within the limit, and cost it in full).
const MAX_BOXES: usize = 8;

/// The corral searches answered so far, by the corral's boxes and the player's top-left
/// square with those boxes alone: whether they were a deadlock. Corrals come back often
/// (the other boxes move elsewhere), and a lookup costs a hash.
#[derive(Debug, Default)]
pub struct CorralMemo {
    answers: HashMap<State, bool>,
    /// Searches run (lookups that missed).
    pub searched: u64,
    /// Positions found to be corral deadlocks (lookups counted).
    pub deadlocks: u64,
}

impl CorralMemo {
    /// The bytes its answers hold (about: a table slot, the boxes, the state's fields).
    pub fn bytes(&self) -> u64 {
        self.answers.keys().next().map_or(0, |s| {
            (self.answers.capacity() * (40 + 2 * s.boxes.len())) as u64
        })
    }
}

impl Board {
    /// Whether `state` is a corral deadlock (see the module's doc): some corral that needs
    /// work (a goal inside it, or a box of its border off a goal) whose border boxes, alone
    /// on the board, cannot all reach goals, found by a search of at most `limit` positions
    /// for each corral. `memo` keeps the answers.
    pub fn corral_deadlock(&self, state: &State, limit: usize, memo: &mut CorralMemo) -> bool {
        self.corral_deadlock_in(&self.survey(state), state, limit, memo)
    }

    /// As [`Board::corral_deadlock`], on the position's `survey` ([`Board::survey`]).
    pub fn corral_deadlock_in(
        &self,
        survey: &Survey,
        state: &State,
        limit: usize,
        memo: &mut CorralMemo,
    ) -> bool {
        let boxes = &survey.boxes;
        for squares in &survey.members {
            let mut border: Vec<u16> = Vec::new();
            let mut needs_work = false;
            for &s in squares {
                needs_work |= self.goal[s];
                for d in Dir::ALL {
                    if let Some(b) = self.step(s, d).filter(|&b| boxes[b])
                        && !border.contains(&(b as u16))
                    {
                        needs_work |= !self.goal[b];
                        border.push(b as u16);
                    }
                }
            }
            if !needs_work || border.len() == state.boxes.len() || border.len() > MAX_BOXES {
                // Nothing to do there; or every box is of the corral (the search would be the
                // whole level's), or too many for a search of `limit` positions to finish.
                continue;
            }
            border.sort_unstable();
            let mut alone = vec![false; self.squares()];
            for &b in &border {
                alone[usize::from(b)] = true;
            }
            let sub = State {
                player: self.normalized(&alone, usize::from(state.player)) as u16,
                boxes: border.into_boxed_slice(),
            };
            let dead = match memo.answers.get(&sub) {
                Some(&dead) => dead,
                None => {
                    memo.searched += 1;
                    let dead = self.cannot_pack(&sub, limit);
                    memo.answers.insert(sub, dead);
                    dead
                }
            };
            if dead {
                memo.deadlocks += 1;
                return true;
            }
        }
        false
    }

    /// Whether the boxes of `start`, alone on the board, can never all stand on goals: no
    /// matching of them to goals of their own, or a best-first search (on the pushes to
    /// the nearest goals) of at most `limit` positions that exhausts them without packing. `false` when it packs them, or stops at the limit.
    fn cannot_pack(&self, start: &State, limit: usize) -> bool {
        if self.subset_bound(start).is_none() {
            return true;
        }
        let h = self.nearest_goals(start);
        let mut seen: HashSet<State> = HashSet::from([start.clone()]);
        let mut open = BinaryHeap::from([(Reverse(h), start.clone())]);
        let mut found: Vec<FoundPush> = Vec::new();
        let mut expanded = 0;
        while let Some((Reverse(h), state)) = open.pop() {
            if h == 0 {
                return false;
            }
            expanded += 1;
            if expanded > limit {
                return false;
            }
            found.clear();
            self.pushes(&state, true, &mut found);
            for f in found.drain(..) {
                if seen.contains(&f.next) {
                    continue;
                }
                open.push((Reverse(self.nearest_goals(&f.next)), f.next.clone()));
                seen.insert(f.next);
            }
        }
        true
    }

    /// The pushes of `state`'s boxes each to its nearest goal, summed: 0 exactly when every
    /// box is on a goal (the search's order; cheaper than a matching on every position).
    fn nearest_goals(&self, state: &State) -> u32 {
        let n = self.squares();
        (state.boxes.iter())
            .map(|&b| {
                (0..self.goals.len())
                    .map(|g| self.dist[g * n + usize::from(b)])
                    .min()
                    .map_or(0, u32::from)
            })
            .sum()
    }

    /// The matching bound of `state`'s boxes, fewer than the goals: each box to a goal of
    /// its own, at least cost (rows for the goals left over cost nothing, so a perfect
    /// matching of the padded square exists exactly when the boxes can each have a goal).
    fn subset_bound(&self, state: &State) -> Option<u32> {
        let (n, m) = (self.squares(), state.boxes.len());
        super::super::matching::min_cost(self.goals.len(), |i, g| {
            if i >= m {
                return Some(0);
            }
            let d = self.dist[g * n + usize::from(state.boxes[i])];
            (d != u16::MAX).then_some(u32::from(d))
        })
    }
}
