//! The goal-room packing order: an order of the goals in which they can be filled without a
//! box on a goal barring the way to the goals after it, found by a backward search from the
//! goals. Junghanns and Schaeffer's Rolling Stone computes such an order for its goal macros
//! ("Sokoban: enhancing general single-agent search methods using domain knowledge",
//! Artificial Intelligence 129, 2001), and Shoham's FESS (Festival; "The FESS algorithm: a
//! feature based approach to single-agent search", IEEE CoG 2020) makes "boxes packed in
//! order" its first feature; the Sokoban Wiki's "Solver" page describes both.
//!
//! Backwards: every goal holds a box. A box that can be pulled off its goal (by pulls, the
//! player walking from where it starts in the level, the boxes still on goals in the way) to
//! a square off the goals is taken out of the level, and its goal is the last still to fill;
//! again, until no box can be taken out (the goals left keep the first places, unordered).
//! Reversed, that is a packing order. [`Packing::packed`] counts how many goals of a position
//! are filled in that order, from the first; the fast solver searches first the positions
//! that have packed more.

use std::collections::VecDeque;

use super::board::{Board, Dir, Ground, State};

/// A level's packing order (see the module's doc).
#[derive(Clone, Debug)]
pub struct Packing {
    /// The goals' squares in the order they are to be filled.
    pub order: Vec<u16>,
    /// How many goals at the start of `order` are unordered among themselves (no box could
    /// be taken out from them): they count as packed together, when all are filled.
    pub unordered: usize,
}

impl Packing {
    /// The packing order of `board`'s level (see the module's doc).
    pub fn new(board: &Board) -> Packing {
        let n = board.squares();
        let mut occupied = vec![false; n];
        let mut goals: Vec<usize> = (0..n)
            .filter(|&s| board.is_goal(s) && board.ground(s) == Ground::Inside)
            .collect();
        for &g in &goals {
            occupied[g] = true;
        }
        let player = usize::from(board.start.player);
        let mut taken_out = Vec::new();
        while let Some(k) = (0..goals.len()).find(|&k| pull_out(board, &occupied, goals[k], player))
        {
            let g = goals.remove(k);
            occupied[g] = false;
            taken_out.push(g as u16);
        }
        let unordered = goals.len();
        let mut order: Vec<u16> = goals.into_iter().map(|g| g as u16).collect();
        order.extend(taken_out.into_iter().rev());
        Packing { order, unordered }
    }

    /// How many goals of the order are filled in `state`, from the first: 0 unless the
    /// unordered first ones are all filled, then those and each next one filled in turn.
    pub fn packed(&self, state: &State) -> usize {
        let filled = |g: u16| state.boxes.binary_search(&g).is_ok();
        if !self.order[..self.unordered].iter().all(|&g| filled(g)) {
            return 0;
        }
        self.unordered
            + self.order[self.unordered..]
                .iter()
                .take_while(|&&g| filled(g))
                .count()
    }
}

impl Packing {
    /// The goal to fill next in `state`: the one after those packed ([`Packing::packed`]);
    /// `None` when all are packed, or while the unordered first ones are not all filled
    /// (there is no one next goal among them).
    pub fn next(&self, state: &State) -> Option<u16> {
        let packed = self.packed(state);
        if packed == 0 && self.unordered > 0 {
            return None;
        }
        self.order.get(packed).copied()
    }
}

/// Whether the box on goal `goal` can be pulled to a square off the goals, the boxes on the
/// goals of `occupied` in the way, the player walking from `player` (or, if that square is
/// taken, from any square next to it).
fn pull_out(board: &Board, occupied: &[bool], goal: usize, player: usize) -> bool {
    let n = board.squares();
    let open = |s: usize, boxed: usize| {
        board.ground(s) == Ground::Inside && s != boxed && (!occupied[s] || s == goal)
    };
    // Breadth-first over (box square, player square next to it, on the pulling side).
    let mut seen = vec![false; n * 4];
    let mut queue = VecDeque::new();
    let starts: Vec<usize> = if open(player, goal) && player != goal {
        vec![player]
    } else {
        Dir::ALL
            .iter()
            .filter_map(|&d| board.step(player, d))
            .filter(|&s| open(s, goal))
            .collect()
    };
    for from in starts {
        let reach = walk(board, &open, goal, from);
        for d in Dir::ALL {
            if let Some(p) = board.step(goal, d)
                && reach[p]
                && !seen[goal * 4 + d as usize]
            {
                seen[goal * 4 + d as usize] = true;
                queue.push_back((goal, d));
            }
        }
    }
    while let Some((b, d)) = queue.pop_front() {
        // The player on the side `d` of the box pulls it one square `d`, stepping on.
        let Some(to) = board.step(b, d) else { continue };
        let Some(behind) = board.step(to, d) else {
            continue;
        };
        if !open(to, b) || !open(behind, b) {
            continue;
        }
        if !board.is_goal(to) && !board.is_dead(to) {
            return true;
        }
        let reach = walk(board, &open, to, behind);
        for e in Dir::ALL {
            if let Some(p) = board.step(to, e)
                && reach[p]
                && !seen[to * 4 + e as usize]
            {
                seen[to * 4 + e as usize] = true;
                queue.push_back((to, e));
            }
        }
    }
    false
}

/// The squares the player reaches from `from`, the box on `boxed`.
fn walk(
    board: &Board,
    open: &impl Fn(usize, usize) -> bool,
    boxed: usize,
    from: usize,
) -> Vec<bool> {
    let mut reach = vec![false; board.squares()];
    if !open(from, boxed) {
        return reach;
    }
    reach[from] = true;
    let mut stack = vec![from];
    while let Some(s) = stack.pop() {
        for d in Dir::ALL {
            if let Some(t) = board.step(s, d)
                && !reach[t]
                && open(t, boxed)
            {
                reach[t] = true;
                stack.push(t);
            }
        }
    }
    reach
}
