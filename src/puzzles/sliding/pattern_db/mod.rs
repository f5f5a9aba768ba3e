//! Additive disjoint pattern databases for the sliding tile puzzle (Korf and Felner,
//! "Disjoint pattern database heuristics", Artificial Intelligence 134, 2002; Felner, Korf
//! and Hanan, "Additive pattern database heuristics", JAIR 22, 2004).
//!
//! The tiles are split into disjoint groups. For each group, a table holds, for every placement
//! of the group's tiles, the least number of moves *of those tiles* that bring them to their
//! goal squares, the other tiles being indistinct and free to move at no cost. No move is
//! counted in two tables, so the sum of the tables' entries never overestimates: the heuristic
//! is admissible (and consistent).
//!
//! Three sets of groups ([`PdbSet`]): the quick one (6-6-3 tiles by goal region with the
//! blank's goal in the top-left corner, Korf's goal; 6-5-4 with it in the bottom-right; runs of
//! at most 5 tiles on other boards of up to 16 squares; about 15 seconds to build in all); on
//! 4 x 4 boards the 7-8 split into the goal's top and bottom halves (518,918,400 placements
//! for the 8 tiles; a few minutes on two cores); on 5 x 5 boards Korf and Felner's 6-6-6-6
//! partition of the 24-puzzle (127,512,000 placements a group; see [`korf_partition`]).
//!
//! **Storage.** Each tile's moves change its Manhattan distance by one, so a group's entry is
//! never below the group's Manhattan distance and has its parity: a table stores the *excess*
//! `(entry - manhattan) / 2`, 4 bits an entry (8 if some excess passes 15). The 7-8 tables take
//! about 288 MB.
//!
//! **The reflected lookup** (Culberson and Schaeffer; Korf and Felner): on square boards whose
//! blank goal lies on the main diagonal, the board mirrored about that diagonal (tiles
//! renamed by where their goal squares go) is exactly as far from the goal, so the heuristic
//! is the larger of the two sums ([`PatternDb::estimate`]).
//!
//! **Dual lookups** ([`PatternDb::estimate_dual_plain`]): the tiles standing on a group's goal
//! squares, each taken to its own goal square, are looked up in that group's table too. A
//! group whose goal squares wall the blank's goal square off (Korf's corner group of the
//! 24-puzzle, the 7-8 split's half with the blank) has a second table, to its tiles at home
//! with the blank on any square, for the dual lookups of boards whose blank is outside.
//!
//! **Building.** A breadth-first search from the goal (the group's tiles at home, the blank in
//! its goal square's region) over (placement of the group's tiles, region of the blank): the
//! blank moves at no cost within the connected region of squares that hold no group tile, so
//! a state keeps the region's smallest square only, and every edge moves one group tile into
//! the region (cost 1). Each layer is expanded in parallel
//! (`rayon`). Tables are cached on disk with a checksum; a cache that fails any check is
//! rebuilt, never trusted.

use crate::search::CancelToken;

mod build;
mod cache;
mod carrier;
mod dual;
mod groups;
mod memory;
mod ranking;

pub use build::{blank_region, group_distances, reference_distances};
use build::{build_bytes, packed_table};
pub use cache::{CACHE_DIR_VAR, cache_dir, set_cache_dir};
pub use groups::{PdbSet, korf_partition, partition};
use memory::Bytes;
pub use ranking::{placements, rank, unrank};

/// Pattern databases and the fast IDA* core handle boards of at most this many squares (the
/// 24-puzzle's 5 x 5); the quick set is offered up to [`QUICK_MAX_SQUARES`].
pub const MAX_SQUARES: usize = 25;

/// The quick set ([`PdbSet::Quick`]) is offered on boards of at most this many squares (the
/// 15-puzzle's 4 x 4).
pub const QUICK_MAX_SQUARES: usize = 16;

/// Groups have at most this many tiles (the placements of a group and the blank must be
/// numbered in 32 bits).
pub const MAX_GROUP: usize = 8;

/// Korf and Felner's 6-6-6-6 partition of the 24-puzzle (AIJ 134, 2002, figure 4), as goal
/// squares (row-major, 0 the top-left) for their goal with the blank in square 0: an
/// irregular group by the blank's corner and three 3 x 2 blocks that are turns of one another.
pub const KORF_SQUARES: [[u8; 6]; 4] = [
    [1, 2, 5, 6, 7, 12],
    [3, 4, 8, 9, 13, 14],
    [10, 11, 15, 16, 20, 21],
    [17, 18, 19, 22, 23, 24],
];

/// Why a pattern database could not be built or loaded.
#[derive(Debug, thiserror::Error)]
pub enum PdbError {
    /// The board is too large for tables that fit in memory.
    #[error(
        "pattern databases are built for boards of at most {MAX_SQUARES} squares; this one has {0}"
    )]
    TooLarge(usize),
    /// The set of groups asked for does not exist on this board.
    #[error("the {0} pattern databases are made for {1}")]
    NoSuchSet(&'static str, &'static str),
    /// The build was stopped.
    #[error("the pattern database build was cancelled")]
    Cancelled,
    /// The build reached the search's time limit ([`crate::search::Limits::timeout`]).
    #[error(
        "the time limit was reached while building the pattern databases; raise it, or use \
         another heuristic (linear_conflict)"
    )]
    Timeout,
    /// Building would take more memory than the search's budget
    /// ([`crate::search::Limits::max_memory`]), or the system refused it.
    #[error(
        "building the pattern databases needs about {} of memory, more than the limit of {}; \
         raise the memory limit or use another heuristic (linear_conflict)",
        crate::search::limits::format_bytes(*needed),
        crate::search::limits::format_bytes(*budget)
    )]
    MemoryLimit {
        /// Bytes the build would hold at its peak.
        needed: u64,
        /// The budget, in bytes.
        budget: u64,
    },
    /// Something other than a regular file (a FIFO, a device, a folder) stands where a cache
    /// file belongs: it is neither read (a FIFO would block for ever) nor replaced.
    #[error(
        "{0} is not a regular file, so the pattern database cache there is neither read nor \
         written; remove it, or name another cache folder with PUZZLELAB_CACHE_DIR"
    )]
    NotAFile(String),
}

impl PdbError {
    /// The outcome of a build stopped at one of the search's limits (memory or time), or
    /// `None` for another error.
    pub fn limit_outcome(&self) -> Option<crate::search::Outcome> {
        match self {
            PdbError::MemoryLimit { .. } => Some(crate::search::Outcome::MemoryLimit),
            PdbError::Timeout => Some(crate::search::Outcome::Timeout),
            PdbError::TooLarge(_)
            | PdbError::NoSuchSet(..)
            | PdbError::Cancelled
            | PdbError::NotAFile(_) => None,
        }
    }
}

/// A table of entries, by the rank of the group's squares (see [`rank`]): the excess of each
/// entry over the group's Manhattan distance, halved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Table {
    /// Bits per entry: 4 (two entries a byte, the even rank in the low half) or 8.
    bits: u8,
    bytes: Bytes,
}

impl Table {
    #[inline]
    fn excess(&self, rank: usize) -> u32 {
        if self.bits == 4 {
            u32::from(self.bytes[rank >> 1] >> ((rank & 1) * 4)) & 15
        } else {
            u32::from(self.bytes[rank])
        }
    }

    /// The bytes of a table of `entries` entries of `bits` bits.
    fn len_for(bits: u8, entries: usize) -> usize {
        if bits == 4 {
            entries.div_ceil(2)
        } else {
            entries
        }
    }
}

/// One group's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Group {
    /// The group's tiles.
    tiles: Vec<u8>,
    /// The moves to the group's tiles at home with the blank on its goal square.
    table: Table,
    /// The squares the blank reaches from its goal square with the group's tiles at home
    /// ([`blank_region`]), a bit mask.
    region: u32,
    /// Where that region is not every square free of the group's tiles (the group walls the
    /// blank's goal square off): the moves to the group's tiles at home with the blank on any
    /// square, for the dual lookup of a board whose blank stands outside the region.
    open: Option<Table>,
}

impl Group {
    #[inline]
    fn excess(&self, rank: usize) -> u32 {
        self.table.excess(rank)
    }

    /// Whether the group walls the blank's goal square off, for a `n`-square board.
    fn walls_off(region: u32, tiles: usize, n: usize) -> bool {
        (region.count_ones() as usize) < n - tiles
    }
}

/// The mirror image about the main diagonal of a square board whose blank goal lies on that
/// diagonal: `square[s]` is where square `s` goes, `tile[t]` the name tile `t` takes (the
/// goal tile of its goal square's image).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reflection {
    /// Square `s` (row-major) goes to `square[s]`.
    pub square: [u8; MAX_SQUARES],
    /// Tile `t` is renamed `tile[t]`; the blank stays 0.
    pub tile: [u8; MAX_SQUARES],
}

impl Reflection {
    /// The reflection for a `rows x cols` board and goal, if the board is square and the
    /// blank's goal square is on the main diagonal.
    pub fn of(rows: usize, cols: usize, goal: &[u8]) -> Option<Self> {
        let n = rows * cols;
        let blank = goal.iter().position(|&t| t == 0)?;
        if rows != cols || n > MAX_SQUARES || blank / cols != blank % cols || goal.len() != n {
            return None;
        }
        let mut square = [0u8; MAX_SQUARES];
        let mut tile = [0u8; MAX_SQUARES];
        for s in 0..n {
            let image = (s % cols) * cols + s / cols;
            square[s] = image as u8;
            tile[usize::from(goal[s])] = goal[image];
        }
        Some(Self { square, tile })
    }

    /// The mirrored board of `tiles` (row-major, 0 the blank).
    pub fn apply(&self, tiles: &[u8]) -> [u8; MAX_SQUARES] {
        let mut out = [0u8; MAX_SQUARES];
        for (s, &t) in tiles.iter().enumerate().take(MAX_SQUARES) {
            out[usize::from(self.square[s])] = self.tile[usize::from(t)];
        }
        out
    }
}

/// An additive pattern database for one board size, goal and set of groups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternDb {
    rows: usize,
    cols: usize,
    goal: Vec<u8>,
    set: PdbSet,
    groups: Vec<Group>,
    /// `home[t]`: tile `t`'s goal square.
    home: [u8; MAX_SQUARES],
    reflection: Option<Reflection>,
    /// `between[a][b]`: the Manhattan distance between squares `a` and `b` (read on the dual
    /// lookups' hot path).
    between: [[u8; MAX_SQUARES]; MAX_SQUARES],
    /// `minus[g][i]`: group `g` less its `i`-th tile, the blank's goal on that tile's square
    /// (see the `dual` module); empty until [`PatternDb::build_dual_tables`].
    minus: Vec<Vec<Table>>,
    /// `label_group[t]`: the group of tile `t` (`u8::MAX` for the blank and tiles in none).
    label_group: [u8; MAX_SQUARES],
    /// `label_index[t]`: tile `t`'s place in its group.
    label_index: [u8; MAX_SQUARES],
    /// The carrier tables, which count the blank's label with one group in the dual lookups
    /// (see the `carrier` module); `None` until [`PatternDb::build_carrier_tables`].
    carrier: Option<carrier::Carrier>,
}

/// The question a build asks between tasks: the error to stop with once `cancel` is
/// cancelled or its time limit (from now) has passed, else `None`.
fn stopper(cancel: &CancelToken) -> impl Fn() -> Option<PdbError> + Sync + '_ {
    let deadline = cancel
        .limits()
        .timeout
        .and_then(|t| std::time::Instant::now().checked_add(t));
    move || {
        if cancel.is_cancelled() {
            Some(PdbError::Cancelled)
        } else if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            Some(PdbError::Timeout)
        } else {
            None
        }
    }
}

impl PatternDb {
    /// Builds the quick database ([`PdbSet::Quick`]) for a `rows x cols` board with goal
    /// `goal` (row-major, 0 the blank), calling `progress` with the fraction done (0 to 1)
    /// now and then.
    ///
    /// # Errors
    /// As [`PatternDb::build_set`].
    pub fn build(
        rows: usize,
        cols: usize,
        goal: &[u8],
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Self, PdbError> {
        Self::build_set(rows, cols, goal, PdbSet::Quick, cancel, progress)
    }

    /// Builds the database of the groups `set` for a `rows x cols` board with goal `goal`,
    /// using every core, calling `progress` with the fraction done (0 to 1) now and then.
    ///
    /// # Errors
    /// [`PdbError::TooLarge`] above [`MAX_SQUARES`] squares; [`PdbError::NoSuchSet`] for a
    /// set not made for the board (see [`PdbSet::groups`]); [`PdbError::MemoryLimit`] when
    /// the build needs more than the memory limit of `cancel`; [`PdbError::Timeout`] past its
    /// time limit; [`PdbError::Cancelled`] when `cancel` is cancelled.
    pub fn build_set(
        rows: usize,
        cols: usize,
        goal: &[u8],
        set: PdbSet,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Self, PdbError> {
        let n = rows * cols;
        if n > MAX_SQUARES {
            return Err(PdbError::TooLarge(n));
        }
        let groups = set
            .groups(rows, cols, goal)
            .ok_or(PdbError::NoSuchSet(set.name(), set.boards()))?;
        Self::build_from(rows, cols, goal, set, groups, cancel, progress)
    }

    /// Builds a database of the given groups of tiles (disjoint, each of 1 to [`MAX_GROUP`]
    /// tiles of the goal, the blank in none) for a `rows x cols` board with goal `goal`: the
    /// 6-6-6-6 code paths on small groups in tests, or other partitions to try. Not cached.
    ///
    /// # Errors
    /// [`PdbError::NoSuchSet`] for groups that overlap, name a tile not on the board or the
    /// blank, or are empty or too large; otherwise as [`PatternDb::build_set`].
    pub fn build_groups(
        rows: usize,
        cols: usize,
        goal: &[u8],
        groups: Vec<Vec<u8>>,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Self, PdbError> {
        let n = rows * cols;
        if n > MAX_SQUARES {
            return Err(PdbError::TooLarge(n));
        }
        let mut seen = vec![false; n];
        let sound = goal.len() == n
            && groups.iter().all(|g| {
                (1..=MAX_GROUP).contains(&g.len())
                    && g.iter().all(|&t| {
                        let fresh = t != 0
                            && usize::from(t) < n
                            && goal.contains(&t)
                            && !seen[usize::from(t)];
                        if fresh {
                            seen[usize::from(t)] = true;
                        }
                        fresh
                    })
            });
        if !sound {
            return Err(PdbError::NoSuchSet(
                PdbSet::Custom.name(),
                PdbSet::Custom.boards(),
            ));
        }
        Self::build_from(rows, cols, goal, PdbSet::Custom, groups, cancel, progress)
    }

    fn build_from(
        rows: usize,
        cols: usize,
        goal: &[u8],
        set: PdbSet,
        groups: Vec<Vec<u8>>,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Self, PdbError> {
        let n = rows * cols;
        // Each group's blank region, and whether it walls the blank's goal square off (then
        // it gets an open table too).
        let plans: Vec<(Vec<u8>, u32, bool)> = groups
            .into_iter()
            .map(|tiles| {
                let region = blank_region(rows, cols, goal, &tiles);
                let walled = Group::walls_off(region, tiles.len(), n);
                (tiles, region, walled)
            })
            .collect();
        let total: usize = plans
            .iter()
            .map(|(tiles, _, walled)| placements(n, tiles.len()) * (1 + usize::from(*walled)))
            .sum();
        let needed = total as u64 / 2
            + plans
                .iter()
                .map(|(tiles, _, _)| build_bytes(n, tiles.len()))
                .max()
                .unwrap_or(0);
        let limits = cancel.limits();
        let budget = limits.max_memory;
        if needed > budget {
            return Err(PdbError::MemoryLimit { needed, budget });
        }
        let stop = stopper(cancel);
        let mut done = 0;
        let mut built: Vec<Group> = Vec::new();
        for (tiles, region, walled) in plans {
            let weight = placements(n, tiles.len());
            let mut build = |any_blank: bool| -> Result<Table, PdbError> {
                let table = packed_table(
                    rows,
                    cols,
                    goal,
                    &tiles,
                    any_blank,
                    &stop,
                    &mut |fraction| {
                        progress((done as f64 + fraction * weight as f64) / total as f64);
                    },
                    (needed, budget),
                )?;
                done += weight;
                Ok(table)
            };
            let table = build(false)?;
            let open = if walled { Some(build(true)?) } else { None };
            built.push(Group {
                tiles,
                table,
                region,
                open,
            });
        }
        progress(1.0);
        Ok(Self::assemble(rows, cols, goal, set, built))
    }

    fn assemble(rows: usize, cols: usize, goal: &[u8], set: PdbSet, groups: Vec<Group>) -> Self {
        let mut home = [0u8; MAX_SQUARES];
        for (s, &t) in goal.iter().enumerate().take(MAX_SQUARES) {
            home[usize::from(t) % MAX_SQUARES] = s as u8;
        }
        let mut label_group = [u8::MAX; MAX_SQUARES];
        let mut label_index = [0u8; MAX_SQUARES];
        for (g, group) in groups.iter().enumerate() {
            for (i, &t) in group.tiles.iter().enumerate() {
                label_group[usize::from(t) % MAX_SQUARES] = g as u8;
                label_index[usize::from(t) % MAX_SQUARES] = i as u8;
            }
        }
        Self {
            rows,
            cols,
            goal: goal.to_vec(),
            set,
            groups,
            home,
            reflection: Reflection::of(rows, cols, goal),
            between: {
                let mut between = [[0u8; MAX_SQUARES]; MAX_SQUARES];
                for (a, row) in between.iter_mut().enumerate().take(rows * cols) {
                    for (b, d) in row.iter_mut().enumerate().take(rows * cols) {
                        *d = ((a / cols).abs_diff(b / cols) + (a % cols).abs_diff(b % cols)) as u8;
                    }
                }
                between
            },
            minus: Vec::new(),
            label_group,
            label_index,
            carrier: None,
        }
    }

    /// Whether this database is for a `rows x cols` board with goal `goal`.
    pub fn fits(&self, rows: usize, cols: usize, goal: &[u8]) -> bool {
        self.rows == rows && self.cols == cols && self.goal == goal
    }

    /// The bytes the tables hold in memory.
    pub fn bytes(&self) -> u64 {
        self.groups
            .iter()
            .map(|g| (g.table.bytes.len() + g.open.as_ref().map_or(0, |t| t.bytes.len())) as u64)
            .chain(self.minus.iter().flatten().map(|t| t.bytes.len() as u64))
            .chain(
                self.carrier
                    .iter()
                    .flat_map(|c| c.plus.iter().chain([&c.with_z]))
                    .map(|t| t.bytes.len() as u64),
            )
            .sum()
    }

    /// The set of groups this database is made of.
    pub fn set(&self) -> PdbSet {
        self.set
    }

    /// The group sizes, for example `[6, 6, 3]`.
    pub fn group_sizes(&self) -> Vec<usize> {
        self.groups.iter().map(|g| g.tiles.len()).collect()
    }

    /// The group sizes joined for messages, for example `6-6-3`.
    pub fn sizes_text(&self) -> String {
        self.group_sizes()
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join("-")
    }

    /// The board's rows and columns.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The goal, row-major, 0 the blank.
    pub fn goal(&self) -> &[u8] {
        &self.goal
    }

    /// The tiles of each group, in table order.
    pub fn groups(&self) -> impl Iterator<Item = &[u8]> {
        self.groups.iter().map(|g| g.tiles.as_slice())
    }

    /// Tile `t`'s goal square.
    pub fn home(&self, t: u8) -> u8 {
        self.home[usize::from(t) % MAX_SQUARES]
    }

    /// The mirror image used by the reflected lookup, where the board allows one.
    pub fn reflection(&self) -> Option<&Reflection> {
        self.reflection.as_ref()
    }

    /// Group `g`'s stored excess for the placement of rank `rank`: its entry is the group's
    /// Manhattan distance plus twice this.
    #[inline]
    pub fn excess(&self, g: usize, rank: usize) -> u32 {
        self.groups[g].excess(rank)
    }

    /// The sum of the groups' entries for a board (`tiles` row-major, 0 the blank), without
    /// the reflected lookup.
    pub fn estimate_plain(&self, tiles: &[u8]) -> u32 {
        let n = self.rows * self.cols;
        let mut square_of = [0u8; MAX_SQUARES];
        for (square, &t) in tiles[..n].iter().enumerate() {
            square_of[usize::from(t) % MAX_SQUARES] = square as u8;
        }
        let mut squares = [0u8; MAX_GROUP];
        self.groups
            .iter()
            .map(|g| {
                let mut manhattan = 0;
                for (i, &t) in g.tiles.iter().enumerate() {
                    let s = square_of[usize::from(t)];
                    squares[i] = s;
                    manhattan += self.distance(s, self.home(t));
                }
                manhattan + 2 * g.excess(rank(&squares[..g.tiles.len()], n))
            })
            .sum()
    }

    /// The heuristic value of a board (`tiles` row-major, 0 the blank): the sum of the
    /// groups' entries, or with the reflected lookup the larger of that sum for the board and
    /// for its mirror image.
    pub fn estimate(&self, tiles: &[u8]) -> u32 {
        let plain = self.estimate_plain(tiles);
        match &self.reflection {
            Some(r) => plain.max(self.estimate_plain(&r.apply(&tiles[..self.rows * self.cols]))),
            None => plain,
        }
    }

    /// The Manhattan distance between two squares.
    #[inline]
    pub fn distance(&self, a: u8, b: u8) -> u32 {
        u32::from(self.between[usize::from(a) % MAX_SQUARES][usize::from(b) % MAX_SQUARES])
    }
}
