//! The player's connectivity: how many separate areas the free squares make, the boxes as
//! walls. Shoham's FESS ("The FESS algorithm: a feature based approach to single-agent
//! search", IEEE CoG 2020) makes it one of its four features ("connectivity"): a push that
//! joins two areas is advised, and positions are spread over their count.

use super::{Board, OFF, SCRATCH, Scratch};

impl Board {
    /// The number of connected areas of inside squares free of the boxes `boxes` (by
    /// square), the player's own among them (a flood fill on this thread's scratch marks).
    pub fn regions(&self, boxes: &[bool]) -> u32 {
        SCRATCH.with_borrow_mut(|scratch| {
            let seen = scratch.fresh(self.squares());
            let Scratch { marks, stack, .. } = scratch;
            let mut count = 0;
            for s in 0..self.squares() {
                if marks[s] == seen || !self.walkable(boxes, s) {
                    continue;
                }
                count += 1;
                marks[s] = seen;
                stack.clear();
                stack.push(s as u32);
                while let Some(at) = stack.pop() {
                    for t in self.next[at as usize] {
                        if t != OFF && marks[t as usize] != seen && self.walkable(boxes, t as usize)
                        {
                            marks[t as usize] = seen;
                            stack.push(t);
                        }
                    }
                }
            }
            count
        })
    }
}
