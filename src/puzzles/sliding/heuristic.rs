//! The sliding tiles' heuristics: which one a board uses ([`TileHeuristic`]), and the
//! Manhattan distance and linear conflicts computed on a board (the pattern databases are
//! [`super::pattern_db`]).

use super::*;

/// The heuristics A*, IDA* and greedy can use. All are admissible.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileHeuristic {
    /// The number of tiles not on their goal square.
    Misplaced,
    /// The sum of the tiles' Manhattan distances to their goal squares.
    Manhattan,
    /// Manhattan distance plus 2 for each tile that must leave its goal row or column to let
    /// another tile of that line past (Hansson, Mayer and Yung, 1992).
    #[default]
    LinearConflict,
    /// Additive disjoint pattern databases (see [`pattern_db`]): the quick set on boards of
    /// at most 16 squares, Korf and Felner's 6-6-6-6 on 5 x 5 ([`PdbSet::Six`]). Until a
    /// database is attached ([`Sliding::attach_pattern_db`]), linear conflict stands in.
    PatternDb,
    /// The 7-8 additive pattern databases of the 15-puzzle (see [`PdbSet::Large`]): about 20
    /// times fewer expansions than [`TileHeuristic::PatternDb`], for a build of a few minutes
    /// and 288 MB, cached on disk. 4 x 4 boards only; linear conflict stands in elsewhere and
    /// until they are attached.
    PatternDb78,
}

impl TileHeuristic {
    /// Every heuristic, weakest first.
    pub const ALL: [TileHeuristic; 5] = [
        TileHeuristic::Misplaced,
        TileHeuristic::Manhattan,
        TileHeuristic::LinearConflict,
        TileHeuristic::PatternDb,
        TileHeuristic::PatternDb78,
    ];

    /// The set of pattern databases this heuristic reads on a `rows x cols` board, if it reads
    /// one: `pdb` the quick set, or the 6-6-6-6 on 5 x 5; `pdb78` the 7-8.
    pub fn pdb_set(self, rows: usize, cols: usize) -> Option<PdbSet> {
        match self {
            TileHeuristic::PatternDb if (rows, cols) == (5, 5) => Some(PdbSet::Six),
            TileHeuristic::PatternDb => Some(PdbSet::Quick),
            TileHeuristic::PatternDb78 => Some(PdbSet::Large),
            _ => None,
        }
    }

    /// The command-line name: `misplaced`, `manhattan`, `linear_conflict`, `pdb` or `pdb78`.
    pub fn name(self) -> &'static str {
        match self {
            TileHeuristic::Misplaced => "misplaced",
            TileHeuristic::Manhattan => "manhattan",
            TileHeuristic::LinearConflict => "linear_conflict",
            TileHeuristic::PatternDb => "pdb",
            TileHeuristic::PatternDb78 => "pdb78",
        }
    }

    /// The name shown in the GUI.
    pub fn label(self) -> &'static str {
        match self {
            TileHeuristic::Misplaced => "misplaced tiles",
            TileHeuristic::Manhattan => "Manhattan distance",
            TileHeuristic::LinearConflict => "Manhattan + linear conflict",
            TileHeuristic::PatternDb => "pattern databases",
            TileHeuristic::PatternDb78 => "pattern databases 7-8",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(name: &str) -> Option<TileHeuristic> {
        TileHeuristic::ALL.into_iter().find(|h| h.name() == name)
    }
}

impl Sliding {
    pub(super) fn manhattan(&self, board: &Board) -> u32 {
        let mut sum = 0;
        for (i, &t) in board.tiles[..self.rows * self.cols].iter().enumerate() {
            if t != 0 {
                let h = usize::from(self.home[usize::from(t)]);
                sum += (i / self.cols).abs_diff(h / self.cols)
                    + (i % self.cols).abs_diff(h % self.cols);
            }
        }
        sum as u32
    }

    /// 2 for each tile that must leave a line (row or column) it shares with its goal square
    /// so the line's other tiles can pass: per line, tiles are removed greedily, the one in
    /// most conflicts first, until no two remaining tiles are in reverse order.
    pub(super) fn linear_conflicts(&self, board: &Board) -> u32 {
        let mut extra = 0;
        let mut line: Vec<usize> = Vec::with_capacity(MAX_SIDE);
        for by_rows in [true, false] {
            let (lines, length) = if by_rows {
                (self.rows, self.cols)
            } else {
                (self.cols, self.rows)
            };
            for l in 0..lines {
                // Goal positions along the line of the tiles whose goal is in this line.
                line.clear();
                for k in 0..length {
                    let square = if by_rows {
                        l * self.cols + k
                    } else {
                        k * self.cols + l
                    };
                    let t = board.tiles[square];
                    if t == 0 {
                        continue;
                    }
                    let h = usize::from(self.home[usize::from(t)]);
                    let (hl, hk) = if by_rows {
                        (h / self.cols, h % self.cols)
                    } else {
                        (h % self.cols, h / self.cols)
                    };
                    if hl == l {
                        line.push(hk);
                    }
                }
                loop {
                    let conflicts = |i: usize, line: &[usize]| {
                        (0..line.len())
                            .filter(|&j| {
                                (j < i && line[j] > line[i]) || (j > i && line[j] < line[i])
                            })
                            .count()
                    };
                    let worst = (0..line.len()).max_by_key(|&i| conflicts(i, &line));
                    match worst {
                        Some(i) if conflicts(i, &line) > 0 => {
                            line.remove(i);
                            extra += 2;
                        }
                        _ => break,
                    }
                }
            }
        }
        extra
    }
}
