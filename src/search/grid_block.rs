//! Expansions of the flat grid breadth-first search told many at a time (see
//! [`super::Observer::grid_block_len`]): the squares in the order the search took them, so that
//! a watcher that records them (the app at full speed) copies arrays instead of taking four
//! calls a square. [`GridBlock::events`] turns a block back into the events the search tells
//! one by one, with the same figures: the tests check a block against the plain search that way.

use super::{Cost, Stats};

/// No square: the parent of a start.
pub const NO_SQUARE: u32 = u32::MAX;

/// The square at `row`, `column` as a block holds it: `row << 16 | column` (both below
/// 2^16, as [`super::UnitGrid`]s that these searches take are), so that reading it back
/// takes shifts rather than a division.
#[inline]
pub fn pack_square(row: usize, col: usize) -> u32 {
    ((row as u32) << 16) | (col as u32 & 0xffff)
}

/// The row and column of a square packed by [`pack_square`].
#[inline]
pub fn unpack_square(square: u32) -> (usize, usize) {
    ((square >> 16) as usize, (square & 0xffff) as usize)
}

/// Consecutive expansions of breadth-first search on a [`super::UnitGrid`] of `rows` x `cols`
/// squares. A square is held packed ([`pack_square`]): its row, counted from 0 at the top,
/// and its column, from 0 at the left (the place on the puzzle's picture of the state
/// [`super::DenseIndex::dense_state`] gives for the square's row-major index). Every array
/// indexed by expansion has one entry for each entry of [`GridBlock::expanded`].
#[derive(Clone, Debug, Default)]
pub struct GridBlock {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// The squares expanded, in order (packed).
    pub expanded: Vec<u32>,
    /// Each expansion's depth (moves from a start), which is also its path cost `g`.
    pub depth: Vec<u32>,
    /// The square each expanded square was reached from (packed), [`NO_SQUARE`] for a start.
    pub parent: Vec<u32>,
    /// Each expansion's successors, counting those already reached (what
    /// [`Stats::generated`] counts).
    pub successors: Vec<u8>,
    /// Where each expansion's new states end in [`GridBlock::generated`] (they begin where
    /// the previous expansion's end, the first at 0).
    pub generated_end: Vec<u32>,
    /// The squares put on the frontier, in order (packed); each has `g` = its expansion's
    /// depth + 1.
    pub generated: Vec<u32>,
    /// The figures before the block's first expansion: states expanded and generated so
    /// far, the frontier (all of it, the next state to expand included), its most so far,
    /// the states reached and the greatest depth expanded.
    pub before: Stats,
}

/// One thing the search did, as [`super::Observer`] is told it.
#[derive(Clone, Debug, PartialEq)]
pub enum GridEvent {
    /// A square was expanded (and scored): `depth` = `g`; the parent is `None` for a start;
    /// `stats` as [`super::Observer::expanded`] gets them.
    Expanded {
        /// The square's row and column.
        square: (usize, usize),
        /// Moves from a start, also the path cost.
        depth: u64,
        /// The row and column of the square it was reached from; `None` for a start.
        parent: Option<(usize, usize)>,
        /// The statistics at this expansion.
        stats: Stats,
    },
    /// A square was put on the frontier with path cost `g`.
    Generated {
        /// The square's row and column.
        square: (usize, usize),
        /// Its path cost (its depth).
        g: Cost,
    },
}

impl GridBlock {
    /// An empty block for a grid of `rows` x `cols` squares.
    pub fn new(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            ..Self::default()
        }
    }

    /// Expansions in the block.
    pub fn len(&self) -> usize {
        self.expanded.len()
    }

    /// Whether the block holds no expansion.
    pub fn is_empty(&self) -> bool {
        self.expanded.is_empty()
    }

    /// Empties the block (keeping its memory) for the expansions that follow `before`.
    pub(super) fn restart(&mut self, before: Stats) {
        self.expanded.clear();
        self.depth.clear();
        self.parent.clear();
        self.successors.clear();
        self.generated_end.clear();
        self.generated.clear();
        self.before = before;
    }

    /// The new states of expansion `i`, as a range of [`GridBlock::generated`].
    pub fn generated_of(&self, i: usize) -> std::ops::Range<usize> {
        let start = i
            .checked_sub(1)
            .and_then(|j| self.generated_end.get(j))
            .map_or(0, |&e| e as usize);
        let end = self.generated_end.get(i).map_or(start, |&e| e as usize);
        start..end.max(start)
    }

    /// Turns the figures told with expansion `i - 1` (the block's `before` for `i` = 0) into
    /// those told with expansion `i`: the one place they are derived.
    fn advance(&self, stats: &mut Stats, i: usize) {
        let depth = u64::from(self.depth.get(i).copied().unwrap_or(0));
        if let Some(j) = i.checked_sub(1) {
            // What expansion `j` did after it was told: its successors generated, its new
            // states reached and put on the frontier, the frontier's size then a candidate
            // for its most.
            let new = self.generated_of(j).len() as u64;
            stats.generated += u64::from(self.successors.get(j).copied().unwrap_or(0));
            stats.max_closed += new;
            stats.frontier += new;
            stats.max_frontier = stats.max_frontier.max(stats.frontier);
        }
        // This expansion takes its state off the frontier.
        stats.expanded += 1;
        stats.frontier = stats.frontier.saturating_sub(1);
        stats.max_depth = stats.max_depth.max(depth);
    }

    /// The figures told with the block's last expansion (the block's `before` when empty):
    /// what [`GridBlock::events`] tells with it, summed over the block at once (the solver
    /// takes it for every block at full speed; the tests hold the two to each other).
    pub fn last_stats(&self) -> Stats {
        let mut stats = self.before.clone();
        let Some(last) = self.len().checked_sub(1) else {
            return stats;
        };
        // What the expansions before the last did after they were told: their successors,
        // their new states, and the frontier after each (a candidate for its most).
        let new = self.generated_of(last).start as u64;
        stats.generated += (self.successors.iter().take(last))
            .map(|&s| u64::from(s))
            .sum::<u64>();
        let after = (self.generated_end.iter().take(last).enumerate())
            .map(|(j, &end)| (self.before.frontier + u64::from(end)).saturating_sub(j as u64 + 1))
            .max();
        stats.max_frontier = stats.max_frontier.max(after.unwrap_or(0));
        stats.max_closed += new;
        stats.expanded += self.len() as u64;
        stats.frontier = (stats.frontier + new).saturating_sub(self.len() as u64);
        let deepest = self.depth.iter().max().map_or(0, |&d| u64::from(d));
        stats.max_depth = stats.max_depth.max(deepest);
        stats
    }

    /// The block as the events the search tells one by one, in order: each expansion, then
    /// the states it put on the frontier.
    pub fn events(&self) -> impl Iterator<Item = GridEvent> + '_ {
        let mut stats = self.before.clone();
        (0..self.len()).flat_map(move |i| {
            self.advance(&mut stats, i);
            let now = stats.clone();
            let depth = u64::from(self.depth.get(i).copied().unwrap_or(0));
            let expanded = GridEvent::Expanded {
                square: unpack_square(self.expanded.get(i).copied().unwrap_or(0)),
                depth,
                parent: self
                    .parent
                    .get(i)
                    .filter(|&&p| p != NO_SQUARE)
                    .map(|&p| unpack_square(p)),
                stats: now,
            };
            let generated = self.generated_of(i).filter_map(move |k| {
                Some(GridEvent::Generated {
                    square: unpack_square(*self.generated.get(k)?),
                    g: (depth + 1) as Cost,
                })
            });
            std::iter::once(expanded).chain(generated)
        })
    }
}
