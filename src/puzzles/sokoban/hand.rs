//! Sokoban played by hand: a step (or a push) by direction, a walk to a square by a shortest
//! walk, and the record of what was played since the level opened: moves, pushes and their
//! LURD (lowercase walks, uppercase pushes).

use super::board::{Dir, State};
use super::{Metric, Sokoban};
use crate::puzzles::Cell;

/// The record of the moves played by hand on a level.
#[derive(Clone, Debug)]
pub(super) struct Hand {
    /// The position they started from.
    pub(super) origin: State,
    /// The player's steps, pushes included.
    pub(super) moves: u32,
    /// The pushes.
    pub(super) pushes: u32,
    /// Their LURD.
    pub(super) lurd: String,
}

impl Sokoban {
    /// Plays one step `dir` by hand: a walk onto a free square, or a push of the box there
    /// onto the free square behind it. Returns `None` if the step is not legal (a wall, or a
    /// box that cannot move), else whether it pushed.
    pub fn step(&mut self, dir: Dir) -> Option<bool> {
        let b = &self.board;
        let player = usize::from(self.position.player);
        let to = b.step(player, dir)?;
        let mut boxes = b.box_flags(&self.position);
        let inside = |s: usize| b.ground(s) == super::Ground::Inside;
        if !inside(to) {
            return None;
        }
        let pushed = boxes[to];
        let mut next = self.position.clone();
        if pushed {
            let beyond = b.step(to, dir).filter(|&t| inside(t) && !boxes[t])?;
            boxes[to] = false;
            boxes[beyond] = true;
            let mut moved: Vec<u16> = next.boxes.to_vec();
            let k = moved.iter().position(|&x| usize::from(x) == to)?;
            moved[k] = beyond as u16;
            moved.sort_unstable();
            next.boxes = moved.into_boxed_slice();
        }
        next.player = to as u16;
        let origin = self.position.clone();
        let hand = self.hand.get_or_insert_with(|| {
            Box::new(Hand {
                origin,
                moves: 0,
                pushes: 0,
                lurd: String::new(),
            })
        });
        hand.moves += 1;
        hand.pushes += u32::from(pushed);
        hand.lurd.push(dir.letter(pushed));
        self.position = next;
        Some(pushed)
    }

    /// Walks the player to `cell` by a shortest walk (no push). Returns whether it moved.
    pub fn walk_to(&mut self, cell: Cell) -> bool {
        let Some(to) = self.square_of(cell) else {
            return false;
        };
        let boxes = self.board.box_flags(&self.position);
        if self.board.ground(to) != super::Ground::Inside || boxes[to] {
            return false;
        }
        let from = usize::from(self.position.player);
        let Some(path) = self.board.walk_path(&boxes, from, to) else {
            return false;
        };
        for &d in &path {
            if self.step(d).is_none() {
                return false;
            }
        }
        !path.is_empty()
    }

    /// Whether the player can walk to `cell` (no push) from where it stands.
    pub fn can_walk_to(&self, cell: Cell) -> bool {
        let Some(to) = self.square_of(cell) else {
            return false;
        };
        let boxes = self.board.box_flags(&self.position);
        let (dist, _) = self.board.walks(&boxes, usize::from(self.position.player));
        dist[to] != u32::MAX
    }

    /// The player's steps played by hand since the level opened (pushes included; undone
    /// ones, through the app's undo, not counted).
    pub fn moves_by_hand(&self) -> u32 {
        self.hand.as_ref().map_or(0, |h| h.moves)
    }

    /// The pushes played by hand since the level opened.
    pub fn pushes_by_hand(&self) -> u32 {
        self.hand.as_ref().map_or(0, |h| h.pushes)
    }

    /// The LURD of the moves played by hand since the level opened.
    pub fn lurd_by_hand(&self) -> &str {
        self.hand.as_ref().map_or("", |h| h.lurd.as_str())
    }

    /// What was played by hand, counted in the metric.
    pub(super) fn played_in_metric(&self) -> u32 {
        match self.metric {
            Metric::Pushes => self.pushes_by_hand(),
            Metric::Moves => self.moves_by_hand(),
        }
    }

    /// The position the moves played by hand started from.
    pub(super) fn origin_position(&self) -> &State {
        self.hand.as_ref().map_or(&self.position, |h| &h.origin)
    }
}
