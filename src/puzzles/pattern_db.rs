//! Additive disjoint pattern databases for the sliding tile puzzle (Korf and Felner,
//! "Disjoint pattern database heuristics", Artificial Intelligence 134, 2002).
//!
//! The tiles are split into disjoint groups. For each group, a table holds, for every placement
//! of the group's tiles, the least number of moves *of those tiles* that bring them to their
//! goal squares, the other tiles being indistinct and free to move at no cost. No move is
//! counted in two tables, so the sum of the tables' entries never overestimates: the heuristic
//! is admissible (and consistent).
//!
//! A table is built by a 0-1 breadth-first search backwards from the goal over (placement of
//! the group's tiles, blank square): a blank move that shifts a group tile costs 1, any other
//! costs 0. For the 15-puzzle the groups are by goal region: 6-6-3 tiles with the blank's
//! goal in the top-left corner (Korf's goal), 6-5-4 with it in the bottom-right (the usual
//! one). The tables hold up to 5.8 million entries each and take about 15 seconds in all to
//! build in a release build. Tables are cached on disk with a checksum; a cache that fails any
//! check is rebuilt, never trusted.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::search::CancelToken;

/// Pattern databases are offered on boards of at most this many squares.
pub const MAX_SQUARES: usize = 16;

const MAGIC: &[u8; 8] = b"PLPDB01\n";

/// Why a pattern database could not be built or loaded.
#[derive(Debug, thiserror::Error)]
pub enum PdbError {
    /// The board is too large for tables that fit in memory.
    #[error(
        "pattern databases are built for boards of at most {MAX_SQUARES} squares; this one has {0}"
    )]
    TooLarge(usize),
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
    /// ([`crate::search::Limits::max_memory`]).
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
}

impl PdbError {
    /// The outcome of a build stopped at one of the search's limits (memory or time), or
    /// `None` for another error.
    pub fn limit_outcome(&self) -> Option<crate::search::Outcome> {
        match self {
            PdbError::MemoryLimit { .. } => Some(crate::search::Outcome::MemoryLimit),
            PdbError::Timeout => Some(crate::search::Outcome::Timeout),
            PdbError::TooLarge(_) | PdbError::Cancelled => None,
        }
    }
}

/// One group's table.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Group {
    /// The group's tiles.
    tiles: Vec<u8>,
    /// Moves of the group's tiles to their goal, by the rank of their squares (see [`rank`]).
    table: Vec<u8>,
}

/// An additive pattern database for one board size and goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternDb {
    rows: usize,
    cols: usize,
    goal: Vec<u8>,
    groups: Vec<Group>,
}

/// The number of ordered placements of `k` distinct items on `n` squares: n! / (n - k)!.
fn placements(n: usize, k: usize) -> usize {
    (n - k + 1..=n).product()
}

/// The rank of `squares` (distinct, each below `n`) among the ordered placements of that many
/// items on `n` squares, in 0..placements(n, squares.len()).
fn rank(squares: &[u8], n: usize) -> usize {
    let mut used = 0u64;
    let mut r = 0;
    for (i, &p) in squares.iter().enumerate() {
        let smaller_free = u32::from(p) - (used & ((1u64 << p) - 1)).count_ones();
        r = r * (n - i) + smaller_free as usize;
        used |= 1u64 << p;
    }
    r
}

/// The groups of tiles for a board: on 4 x 4, by goal region (left half below the top row,
/// right half below the top row, top row), else runs of at most 5 tiles in goal order.
pub fn partition(rows: usize, cols: usize, goal: &[u8]) -> Vec<Vec<u8>> {
    if (rows, cols) == (4, 4) {
        let regions: [&[usize]; 3] = [
            &[4, 5, 8, 9, 12, 13],
            &[6, 7, 10, 11, 14, 15],
            &[0, 1, 2, 3],
        ];
        // With the blank's goal in the bottom-right corner this makes 6-5-4 groups, which
        // measured faster there (puzzlelab bench) than the same regions turned to 6-6-3.
        return regions
            .iter()
            .map(|squares| {
                squares
                    .iter()
                    .map(|&s| goal[s])
                    .filter(|&t| t != 0)
                    .collect()
            })
            .collect();
    }
    let tiles: Vec<u8> = goal.iter().copied().filter(|&t| t != 0).collect();
    tiles.chunks(5).map(<[u8]>::to_vec).collect()
}

impl PatternDb {
    /// Builds the database for a `rows x cols` board with goal `goal` (row-major, 0 the
    /// blank), calling `progress` with the fraction done (0 to 1) now and then.
    ///
    /// # Errors
    /// [`PdbError::TooLarge`] above [`MAX_SQUARES`] squares; [`PdbError::Cancelled`] when
    /// `cancel` is cancelled.
    pub fn build(
        rows: usize,
        cols: usize,
        goal: &[u8],
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Self, PdbError> {
        let n = rows * cols;
        if n > MAX_SQUARES {
            return Err(PdbError::TooLarge(n));
        }
        let groups = partition(rows, cols, goal);
        let total: usize = groups.iter().map(|g| placements(n, g.len() + 1)).sum();
        // A group's build holds its distances (a byte per placement with the blank), its
        // table and its queue (at worst 8 bytes per placement); finished tables stay.
        let tables: u64 = groups.iter().map(|g| placements(n, g.len()) as u64).sum();
        let needed = tables
            + groups
                .iter()
                .map(|g| placements(n, g.len() + 1) as u64 * 9)
                .max()
                .unwrap_or(0);
        let limits = cancel.limits();
        let budget = limits.max_memory;
        if needed > budget {
            return Err(PdbError::MemoryLimit { needed, budget });
        }
        let deadline = limits
            .timeout
            .and_then(|t| std::time::Instant::now().checked_add(t));
        let mut done = 0;
        let mut built = Vec::new();
        for tiles in groups {
            let table = build_table(rows, cols, goal, &tiles, cancel, deadline, &mut |count| {
                progress((done + count) as f64 / total as f64);
            })?;
            done += placements(n, tiles.len() + 1);
            built.push(Group { tiles, table });
        }
        progress(1.0);
        Ok(Self {
            rows,
            cols,
            goal: goal.to_vec(),
            groups: built,
        })
    }

    /// Whether this database is for a `rows x cols` board with goal `goal`.
    pub fn fits(&self, rows: usize, cols: usize, goal: &[u8]) -> bool {
        self.rows == rows && self.cols == cols && self.goal == goal
    }

    /// The group sizes, for example `[6, 6, 3]`.
    pub fn group_sizes(&self) -> Vec<usize> {
        self.groups.iter().map(|g| g.tiles.len()).collect()
    }

    /// The heuristic value of a board (`tiles` row-major, 0 the blank): the sum of the groups'
    /// table entries.
    pub fn estimate(&self, tiles: &[u8]) -> u32 {
        let n = self.rows * self.cols;
        let mut square_of = [0u8; MAX_SQUARES];
        for (square, &t) in tiles[..n].iter().enumerate() {
            square_of[usize::from(t)] = square as u8;
        }
        let mut squares = [0u8; MAX_SQUARES];
        self.groups
            .iter()
            .map(|g| {
                for (i, &t) in g.tiles.iter().enumerate() {
                    squares[i] = square_of[usize::from(t)];
                }
                u32::from(g.table[rank(&squares[..g.tiles.len()], n)])
            })
            .sum()
    }

    /// Where the database for this board and goal is cached: the user's cache directory,
    /// `puzzlelab/pdb-ROWSxCOLS-GOAL.bin`. `None` when there is no cache directory.
    pub fn cache_path(rows: usize, cols: usize, goal: &[u8]) -> Option<PathBuf> {
        let goal: Vec<String> = goal.iter().map(u8::to_string).collect();
        dirs::cache_dir().map(|d| {
            d.join("puzzlelab")
                .join(format!("pdb-{rows}x{cols}-{}.bin", goal.join("_")))
        })
    }

    /// Loads the database from the cache if a sound one is there, else builds it and caches
    /// it (a failure to write the cache is not an error: the database is still returned).
    ///
    /// # Errors
    /// As [`PatternDb::build`].
    pub fn load_or_build(
        rows: usize,
        cols: usize,
        goal: &[u8],
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<Self, PdbError> {
        let path = Self::cache_path(rows, cols, goal);
        if let Some(db) = path
            .as_deref()
            .and_then(|p| Self::read(p, rows, cols, goal))
        {
            progress(1.0);
            return Ok(db);
        }
        let db = Self::build(rows, cols, goal, cancel, progress)?;
        if let Some(p) = path {
            let _ = db.write(&p);
        }
        Ok(db)
    }

    fn body(&self) -> Vec<u8> {
        let mut body = vec![self.rows as u8, self.cols as u8];
        body.extend_from_slice(&self.goal);
        body.push(self.groups.len() as u8);
        for g in &self.groups {
            body.push(g.tiles.len() as u8);
            body.extend_from_slice(&g.tiles);
            body.extend_from_slice(&g.table);
        }
        body
    }

    /// Writes the database to `path` atomically (a temporary file, then a rename).
    ///
    /// # Errors
    /// Any I/O error.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let body = self.body();
        let tmp = path.with_extension("tmp");
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(MAGIC)?;
        f.write_all(&checksum(&body).to_le_bytes())?;
        f.write_all(&body)?;
        f.sync_all()?;
        std::fs::rename(tmp, path)
    }

    /// Reads a database for this board and goal from `path`; `None` if the file is missing,
    /// has the wrong header or checksum, describes another board or has tables of the wrong
    /// size or with impossible values.
    pub fn read(path: &Path, rows: usize, cols: usize, goal: &[u8]) -> Option<Self> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .ok()?
            .read_to_end(&mut bytes)
            .ok()?;
        let rest = bytes.strip_prefix(MAGIC)?;
        let (sum, body) = rest.split_at_checked(8)?;
        if u64::from_le_bytes(sum.try_into().ok()?) != checksum(body) {
            return None;
        }
        let n = rows * cols;
        let (&[r, c], body) = body.split_first_chunk::<2>()?;
        let (stored_goal, body) = body.split_at_checked(n)?;
        if (usize::from(r), usize::from(c)) != (rows, cols) || stored_goal != goal {
            return None;
        }
        let (&count, mut body) = body.split_first()?;
        let expected = partition(rows, cols, goal);
        if usize::from(count) != expected.len() {
            return None;
        }
        let mut groups = Vec::new();
        for tiles in expected {
            let (&k, rest) = body.split_first()?;
            let (stored_tiles, rest) = rest.split_at_checked(usize::from(k))?;
            let (table, rest) = rest.split_at_checked(placements(n, tiles.len()))?;
            if stored_tiles != tiles || table.iter().any(|&v| usize::from(v) > 8 * n) {
                return None;
            }
            groups.push(Group {
                tiles,
                table: table.to_vec(),
            });
            body = rest;
        }
        body.is_empty().then(|| Self {
            rows,
            cols,
            goal: goal.to_vec(),
            groups,
        })
    }
}

/// FNV-1a, 64 bits: enough to tell a damaged cache file from a sound one.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One group's table by 0-1 breadth-first search from the goal over (the group's squares,
/// the blank's square). `progress` gets the number of states settled so far.
fn build_table(
    rows: usize,
    cols: usize,
    goal: &[u8],
    tiles: &[u8],
    cancel: &CancelToken,
    deadline: Option<std::time::Instant>,
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<u8>, PdbError> {
    let n = rows * cols;
    let k = tiles.len();
    let home = |t: u8| goal.iter().position(|&g| g == t).unwrap_or(0) as u8;
    let mut start: Vec<u8> = tiles.iter().map(|&t| home(t)).collect();
    start.push(home(0));
    let mut dist = vec![u8::MAX; placements(n, k + 1)];
    let mut table = vec![u8::MAX; placements(n, k)];
    // States packed 6 bits a square, blank last.
    let pack = |squares: &[u8]| {
        squares
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &s)| acc | (u64::from(s) << (6 * i)))
    };
    let mut queue = VecDeque::from([pack(&start)]);
    dist[rank(&start, n)] = 0;
    let mut squares = [0u8; MAX_SQUARES + 1];
    let mut settled = 0usize;
    while let Some(packed) = queue.pop_front() {
        for (i, s) in squares[..=k].iter_mut().enumerate() {
            *s = ((packed >> (6 * i)) & 63) as u8;
        }
        let d = dist[rank(&squares[..=k], n)];
        // The group's placement costs the least over every square of the blank.
        let entry = &mut table[rank(&squares[..k], n)];
        *entry = (*entry).min(d);
        settled += 1;
        if settled.is_multiple_of(1 << 20) {
            if cancel.is_cancelled() {
                return Err(PdbError::Cancelled);
            }
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return Err(PdbError::Timeout);
            }
            progress(settled);
        }
        let blank = usize::from(squares[k]);
        let (br, bc) = (blank / cols, blank % cols);
        let neighbours = [
            (br > 0).then(|| blank - cols),
            (br + 1 < rows).then(|| blank + cols),
            (bc > 0).then(|| blank - 1),
            (bc + 1 < cols).then(|| blank + 1),
        ];
        for q in neighbours.into_iter().flatten() {
            let mut next = squares;
            let moved = next[..k].iter().position(|&s| usize::from(s) == q);
            if let Some(j) = moved {
                next[j] = blank as u8;
            }
            next[k] = q as u8;
            let cost = u8::from(moved.is_some());
            let slot = &mut dist[rank(&next[..=k], n)];
            if d + cost < *slot {
                *slot = d + cost;
                if cost == 0 {
                    queue.push_front(pack(&next[..=k]));
                } else {
                    queue.push_back(pack(&next[..=k]));
                }
            }
        }
    }
    Ok(table)
}
