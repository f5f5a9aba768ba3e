//! The groups of tiles a database is made of: the named sets ([`PdbSet`]) and the
//! partitions of a board's tiles into groups (the even split and Korf and Felner's).

use super::*;

/// Which groups of tiles a database is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PdbSet {
    /// 6-6-3 or 6-5-4 on the 15-puzzle (see [`partition`]), runs of 5 tiles elsewhere: small
    /// (under 7 MB) and quick to build.
    #[default]
    Quick,
    /// The 7-8 split of the 15-puzzle into the goal's top and bottom halves (Korf and Felner):
    /// about 288 MB, a few minutes to build, about 20 times fewer expansions.
    Large,
    /// Korf and Felner's 6-6-6-6 partition of the 24-puzzle ([`korf_partition`]): four tables
    /// of 127,512,000 entries, and the corner group's open table: 319 MB in all.
    Six,
    /// Groups given by hand ([`PatternDb::build_groups`]), for tests and experiments; never
    /// cached.
    Custom,
}

impl PdbSet {
    /// A short name for messages: `quick` or `7-8`.
    pub fn name(self) -> &'static str {
        match self {
            PdbSet::Quick => "quick",
            PdbSet::Large => "7-8",
            PdbSet::Six => "6-6-6-6",
            PdbSet::Custom => "custom",
        }
    }

    /// The boards the set is made for, for messages.
    pub fn boards(self) -> &'static str {
        match self {
            PdbSet::Quick => "boards of at most 16 squares",
            PdbSet::Large => "the 15-puzzle (4 x 4) only",
            PdbSet::Six => "the 24-puzzle (5 x 5) only",
            PdbSet::Custom => "disjoint groups of 1 to 8 tiles of the goal",
        }
    }

    pub(super) fn code(self) -> u8 {
        match self {
            PdbSet::Quick => 0,
            PdbSet::Large => 1,
            PdbSet::Six => 2,
            PdbSet::Custom => 3,
        }
    }

    /// The groups of tiles of this set for a board, or `None` where the set does not exist
    /// (the quick set above 16 squares, the 7-8 split off 4 x 4, the 6-6-6-6 off 5 x 5).
    pub fn groups(self, rows: usize, cols: usize, goal: &[u8]) -> Option<Vec<Vec<u8>>> {
        if goal.len() != rows * cols {
            return None;
        }
        match self {
            PdbSet::Quick => {
                (rows * cols <= QUICK_MAX_SQUARES).then(|| partition(rows, cols, goal))
            }
            PdbSet::Six => ((rows, cols) == (5, 5)).then(|| korf_partition(goal)),
            PdbSet::Custom => None,
            PdbSet::Large => ((rows, cols) == (4, 4)).then(|| {
                [&goal[..8], &goal[8..16]]
                    .iter()
                    .map(|half| half.iter().copied().filter(|&t| t != 0).collect())
                    .collect()
            }),
        }
    }
}

/// The quick groups of tiles for a board: on 4 x 4, by goal region (left half below the top
/// row, right half below the top row, top row), else runs of at most 5 tiles in goal order.
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

/// Korf and Felner's 6-6-6-6 groups ([`KORF_SQUARES`]) for a 5 x 5 goal (25 squares,
/// row-major, 0 the blank). With the blank's goal in a corner, the squares are turned so that
/// the corner group lies by it (for the blank last, a half turn); elsewhere the square of the
/// blank's goal in its group is traded for the top-left square.
pub fn korf_partition(goal: &[u8]) -> Vec<Vec<u8>> {
    let blank = goal.iter().position(|&t| t == 0).unwrap_or(0);
    // Each (row, column) maps to its image under the turn that takes square 0 to the blank's
    // corner.
    let turn = |s: usize| -> usize {
        let (r, c) = (s / 5, s % 5);
        match blank {
            4 => c * 5 + (4 - r),
            20 => (4 - c) * 5 + r,
            24 => (4 - r) * 5 + (4 - c),
            _ => s,
        }
    };
    let corner = matches!(blank, 0 | 4 | 20 | 24);
    KORF_SQUARES
        .iter()
        .map(|squares| {
            squares
                .iter()
                .map(|&s| {
                    let s = turn(usize::from(s));
                    let s = if !corner && s == blank { 0 } else { s };
                    goal.get(s).copied().unwrap_or(0)
                })
                .filter(|&t| t != 0)
                .collect()
        })
        .collect()
}
