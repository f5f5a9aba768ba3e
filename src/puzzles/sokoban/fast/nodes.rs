//! The fast solver's tables: the positions found (their boxes, parents and the pushes that
//! made them) with the transposition table over them, and the Zobrist keys it hashes by.

use super::super::board::{Board, Push, State};
use super::super::macros::Step;

/// The positions found so far: their boxes (`k` squares each, flat), player squares,
/// parents, the push that made each, and the transposition table over them.
pub(super) struct Nodes {
    k: usize,
    boxes: Vec<u16>,
    player: Vec<u16>,
    parent: Vec<u32>,
    /// The push that made the position: its box's square before it times 4, plus its
    /// direction's index in [`super::super::Dir::ALL`].
    made_by: Vec<u32>,
    /// The pushes from the start.
    pub(super) depth: Vec<u16>,
    /// The runs of pushes of the macros that made positions ([`MACRO`] in `made_by`).
    macros: Vec<Vec<Push>>,
    /// The bytes `macros` holds (about).
    macro_bytes: usize,
    hash: Vec<u64>,
    /// Open addressing on `hash`: node numbers, [`EMPTY`] for a free slot.
    slots: Vec<u32>,
}

/// A free slot of the transposition table.
const EMPTY: u32 = u32::MAX;
/// No parent: the start.
pub(super) const ROOT: u32 = u32::MAX;
/// In `made_by`, a macro: the bit set, the rest its index in `macros`.
const MACRO: u32 = 1 << 31;

impl Nodes {
    pub(super) fn new(k: usize) -> Nodes {
        Nodes {
            k,
            boxes: Vec::new(),
            player: Vec::new(),
            parent: Vec::new(),
            made_by: Vec::new(),
            depth: Vec::new(),
            macros: Vec::new(),
            macro_bytes: 0,
            hash: Vec::new(),
            slots: vec![EMPTY; 1 << 16],
        }
    }

    pub(super) fn len(&self) -> usize {
        self.player.len()
    }

    /// The bytes held for `nodes` positions and the table's slots.
    pub(super) fn bytes(&self) -> u64 {
        let per_node = 2 * self.k + 2 + 4 + 4 + 2 + 8;
        (self.boxes.capacity() / self.k.max(1) * per_node + self.slots.len() * 4 + self.macro_bytes)
            as u64
    }

    pub(super) fn state(&self, id: u32) -> State {
        let i = id as usize;
        State {
            boxes: self.boxes[i * self.k..(i + 1) * self.k].into(),
            player: self.player[i],
        }
    }

    /// The node of `state` (hash `hash`), if it is stored.
    pub(super) fn find(&self, state: &State, hash: u64) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            let id = self.slots[at];
            if id == EMPTY {
                return None;
            }
            let i = id as usize;
            if self.hash[i] == hash
                && self.player[i] == state.player
                && self.boxes[i * self.k..(i + 1) * self.k] == *state.boxes
            {
                return Some(id);
            }
            at = (at + 1) & mask;
        }
    }

    /// Stores the position `step` made from node `parent` (not yet stored), returning its
    /// node.
    pub(super) fn insert_step(&mut self, step: Step, hash: u64, parent: u32) -> u32 {
        let made_by = match step.run {
            Some(run) => {
                self.macro_bytes += 24 + run.len() * 3;
                self.macros.push(run);
                MACRO | (self.macros.len() as u32 - 1)
            }
            None => (step.from as u32) * 4 + step.first.dir as u32,
        };
        self.insert(&step.next, hash, parent, made_by)
    }

    /// Stores `state` (not yet stored), returning its node.
    pub(super) fn insert(&mut self, state: &State, hash: u64, parent: u32, made_by: u32) -> u32 {
        let id = self.len() as u32;
        self.boxes.extend_from_slice(&state.boxes);
        self.player.push(state.player);
        self.parent.push(parent);
        self.made_by.push(made_by);
        let depth = self
            .depth
            .get(parent as usize)
            .map_or(0, |d| d.saturating_add(1));
        self.depth.push(depth);
        self.hash.push(hash);
        if self.len() * 2 > self.slots.len() {
            let size = self.slots.len() * 2;
            self.slots = vec![EMPTY; size];
            for n in 0..self.len() {
                self.place(self.hash[n], n as u32);
            }
        } else {
            self.place(hash, id);
        }
        id
    }

    /// Where the push that made node `id` left its box (`usize::MAX` for the start).
    pub(super) fn pushed_to(&self, board: &Board, id: u32) -> usize {
        let m = self.made_by[id as usize];
        if self.parent[id as usize] == ROOT {
            return usize::MAX;
        }
        let (b, dir) = if m & MACRO != 0 {
            let Some(last) = self.macros[(m & !MACRO) as usize].last() else {
                return usize::MAX;
            };
            (
                usize::from(last.row) * board.cols + usize::from(last.col),
                last.dir,
            )
        } else {
            ((m / 4) as usize, super::super::Dir::ALL[(m % 4) as usize])
        };
        board.step(b, dir).unwrap_or(usize::MAX)
    }

    fn place(&mut self, hash: u64, id: u32) {
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        while self.slots[at] != EMPTY {
            at = (at + 1) & mask;
        }
        self.slots[at] = id;
    }
}

/// Zobrist keys: one for a box on each square, one for the player's region on each.
pub(super) struct Keys {
    boxes: Vec<u64>,
    player: Vec<u64>,
}

impl Keys {
    pub(super) fn new(squares: usize) -> Keys {
        // SplitMix64 (Steele, Lea and Flood 2014) from a fixed seed: the same keys every run.
        let mut x: u64 = 0x5eed_0058_50c0_ba11;
        let mut next = || {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let boxes = (0..squares).map(|_| next()).collect();
        let player = (0..squares).map(|_| next()).collect();
        Keys { boxes, player }
    }

    pub(super) fn of(&self, state: &State) -> u64 {
        state
            .boxes
            .iter()
            .fold(self.player[usize::from(state.player)], |h, &b| {
                h ^ self.boxes[usize::from(b)]
            })
    }
}

/// The pushes from the start to node `id`.
pub(super) fn path_to(nodes: &Nodes, board: &Board, mut id: u32) -> Vec<Push> {
    let mut pushes = Vec::new();
    while nodes.parent[id as usize] != ROOT {
        let m = nodes.made_by[id as usize];
        if m & MACRO != 0 {
            pushes.extend(nodes.macros[(m & !MACRO) as usize].iter().rev());
            id = nodes.parent[id as usize];
            continue;
        }
        let b = (m / 4) as usize;
        pushes.push(Push {
            row: (b / board.cols) as u8,
            col: (b % board.cols) as u8,
            dir: super::super::Dir::ALL[(m % 4) as usize],
        });
        id = nodes.parent[id as usize];
    }
    pushes.reverse();
    pushes
}
