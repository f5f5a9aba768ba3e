//! The *carrier tables*: they let one group of the dual lookups count the real blank's label
//! with its own tiles, so that the dual lookup is as strong as a plain one.
//!
//! In the dual lookup of a board whose blank stands on label `b`'s goal square (the `dual`
//! module), label `b` is the blank of the backward play and the real blank's label `z` is a
//! tile. With the minus tables alone, the group holding `b` is looked up one tile short and
//! `z` counts only its Manhattan distance: on Korf's 100 start boards the dual lookup then
//! averages 43.2 moves against 44.8 for a plain one. One group, the *carrier* (the smallest),
//! gets two kinds of table that count `z` with it:
//! - when `b` is one of the carrier's labels: `plus[i]`, the carrier with its `i`-th tile
//!   standing for `z` (that tile's goal square is `z`'s, the blank's goal square is the
//!   tile's), read instead of the minus table: the group is whole again;
//! - when `b` belongs to another group: `with_z`, the carrier and `z` (the blank on any square
//!   at the goal, since the backward play's blank ends on `b`'s square), read instead of the
//!   carrier's own table; the other group reads its minus table.
//!
//! Each is admissible for the same reason as the minus tables: the groups of one lookup share
//! no label, and each table counts only the moves of its own labels in the backward play. Each
//! is at least the table it replaces plus `z`'s Manhattan distance. For the 7-8 split the
//! carrier is the 7-tile half: seven tables of 7 tiles and one of 8, 461 MB at 4 bits an entry.

use std::path::{Path, PathBuf};

use super::build::{TablePlan, build_bytes, packed_tables};
use super::cache::{Checksum, open_cache_file, read_table, write_cache_file};
use super::{MAX_GROUP, PatternDb, PdbError, Table, placements};
use crate::search::CancelToken;

/// The first line of a file of carrier tables, cached beside their database.
const CARRIER_MAGIC: &[u8; 8] = b"PLPDC01\n";

/// The most entries the carrier's largest table may have: the 7-8 split's 8-tile table on 16
/// squares (518,918,400) fits; the 6-6-6-6's would need 2.4 billion and is not built.
const MAX_ENTRIES: usize = 600_000_000;

/// One group's carrier tables (module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Carrier {
    /// The carrying group.
    pub(super) group: usize,
    /// `plus[i]`: the group, its `i`-th tile standing for the blank's label.
    pub(super) plus: Vec<Table>,
    /// The group, then the blank's label; the blank on any square at the goal.
    pub(super) with_z: Table,
}

impl PatternDb {
    /// The group that carries the blank's label: the smallest (the first of the smallest)
    /// whose table with one more tile has at most [`MAX_ENTRIES`] entries; `None` when there
    /// is none or only one group.
    fn carrier_group(&self) -> Option<usize> {
        let n = self.rows * self.cols;
        if self.groups.len() < 2 {
            return None;
        }
        let (g, group) = self
            .groups
            .iter()
            .enumerate()
            .min_by_key(|(_, g)| g.tiles.len())?;
        let k = group.tiles.len();
        (k < MAX_GROUP && k + 1 < n && placements(n, k + 1) <= MAX_ENTRIES).then_some(g)
    }

    /// The carrier's group and its tables' plans: `plus[0..k]`, then `with_z`.
    fn carrier_plans(&self) -> Option<(usize, Vec<TablePlan>)> {
        let g = self.carrier_group()?;
        let mut plans: Vec<TablePlan> = (0..self.groups[g].tiles.len())
            .map(|i| TablePlan {
                goal: self.minus_plan(g, i).0,
                tiles: self.groups[g].tiles.clone(),
                any_blank: false,
            })
            .collect();
        // Any tile of another group stands for the blank's label: the goal with it and the
        // blank traded (the blank's goal square does not matter, it may end anywhere).
        let other = usize::from(g == 0);
        let stand_in = self.groups[other].tiles[0];
        let (goal, _) = self.minus_plan(other, 0);
        let mut tiles = self.groups[g].tiles.clone();
        tiles.push(stand_in);
        plans.push(TablePlan {
            goal,
            tiles,
            any_blank: true,
        });
        Some((g, plans))
    }

    /// Whether the carrier tables are attached ([`PatternDb::build_carrier_tables`]).
    pub fn has_carrier_tables(&self) -> bool {
        self.carrier.is_some()
    }

    /// The bytes the carrier tables would take at 4 bits an entry, and the peak of building
    /// the largest; `None` when this database has no carrier group.
    pub fn carrier_bytes(&self) -> Option<(u64, u64)> {
        let (_, plans) = self.carrier_plans()?;
        Some(self.plans_bytes(&plans))
    }

    /// The bytes the tables of `plans` take at 4 bits an entry, and the peak of building the
    /// largest.
    fn plans_bytes(&self, plans: &[TablePlan]) -> (u64, u64) {
        let n = self.rows * self.cols;
        let tables = plans
            .iter()
            .map(|p| placements(n, p.tiles.len()).div_ceil(2) as u64)
            .sum();
        let build = plans
            .iter()
            .map(|p| build_bytes(n, p.tiles.len()))
            .max()
            .unwrap_or(0);
        (tables, build)
    }

    /// Builds the carrier tables on every core and attaches them (module documentation): for
    /// the 7-8 split 11 minutes on two cores at a peak of 4.0 GiB (with the tables it reads),
    /// 461 MB. A database with no carrier group
    /// (one group, or tables too large: the 6-6-6-6) is left as it is. `progress` gets the
    /// fraction done.
    ///
    /// # Errors
    /// [`PdbError::MemoryLimit`] when the tables and the largest build need more than the
    /// memory limit of `cancel`; [`PdbError::Timeout`] and [`PdbError::Cancelled`] as
    /// [`PatternDb::build_set`]. The database is unchanged on an error.
    pub fn build_carrier_tables(
        &mut self,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<(), PdbError> {
        let Some((group, plans)) = self.carrier_plans() else {
            return Ok(());
        };
        let (tables, build) = self.plans_bytes(&plans);
        let needed = self.bytes() + tables + build;
        let budget = cancel.limits().max_memory;
        if needed > budget {
            return Err(PdbError::MemoryLimit { needed, budget });
        }
        let stop = super::stopper(cancel);
        let mut built = packed_tables(
            self.rows,
            self.cols,
            &plans,
            &stop,
            progress,
            (needed, budget),
        )?;
        let with_z = built
            .pop()
            .ok_or(PdbError::MemoryLimit { needed, budget })?;
        self.carrier = Some(Carrier {
            group,
            plus: built,
            with_z,
        });
        Ok(())
    }

    /// Where this database's carrier tables are cached: its own cache file's name with
    /// `-carrier` before `.bin`. `None` for hand-picked groups.
    pub fn carrier_cache_path(&self) -> Option<PathBuf> {
        let path = Self::cache_path(self.rows, self.cols, &self.goal, self.set)?;
        Some(path.with_extension("").with_extension("carrier.bin"))
    }

    /// The carrier file's header: the database's, the carrying group, then each table's bits.
    fn carrier_header(&self, carrier: &Carrier) -> Vec<u8> {
        let mut head = self.header();
        head.push(carrier.group as u8);
        head.extend(carrier.plus.iter().map(|t| t.bits));
        head.push(carrier.with_z.bits);
        head
    }

    /// Writes the carrier tables (if attached) to `path` atomically: a magic line, a checksum
    /// of the rest, the header and the tables.
    ///
    /// # Errors
    /// Any I/O error; [`std::io::ErrorKind::NotFound`] when no carrier tables are attached.
    pub fn write_carrier_tables(&self, path: &Path) -> std::io::Result<()> {
        let Some(carrier) = &self.carrier else {
            return Err(std::io::ErrorKind::NotFound.into());
        };
        let head = self.carrier_header(carrier);
        let tables = || carrier.plus.iter().chain([&carrier.with_z]);
        let mut sum = Checksum::default();
        sum.add(&head);
        for t in tables() {
            sum.add(&t.bytes);
        }
        write_cache_file(path, CARRIER_MAGIC, sum, &head, tables())
    }

    /// Attaches the carrier tables written by [`PatternDb::write_carrier_tables`] to `path`;
    /// false (and the database unchanged) if the file is missing, damaged (magic, size or
    /// checksum), or made for another database. The size is checked against the header
    /// before any table is read.
    pub fn read_carrier_tables(&mut self, path: &Path) -> bool {
        match self.read_carrier(path) {
            Some(carrier) => {
                self.carrier = Some(carrier);
                true
            }
            None => false,
        }
    }

    fn read_carrier(&self, path: &Path) -> Option<Carrier> {
        use std::io::Read;
        let n = self.rows * self.cols;
        let group = self.carrier_group()?;
        let k = self.groups[group].tiles.len();
        let mine = self.header();
        let (mut file, size, stored_sum) = open_cache_file(path, CARRIER_MAGIC)?;
        let mut head = vec![0u8; mine.len() + 1 + k + 1];
        file.read_exact(&mut head).ok()?;
        let (stored, rest) = head.split_at(mine.len());
        if stored != mine.as_slice()
            || usize::from(rest[0]) != group
            || rest[1..].iter().any(|&b| b != 4 && b != 8)
        {
            return None;
        }
        let bits = &rest[1..];
        let entries = |i: usize| placements(n, if i < k { k } else { k + 1 });
        let body: u64 = (0..=k)
            .map(|i| Table::len_for(bits[i], entries(i)) as u64)
            .sum();
        if size != 16 + head.len() as u64 + body {
            return None;
        }
        let mut sum = Checksum::default();
        sum.add(&head);
        let mut tables = Vec::with_capacity(k + 1);
        for (i, &b) in bits.iter().enumerate() {
            let table = read_table(&mut file, b, entries(i))?;
            sum.add(&table.bytes);
            tables.push(table);
        }
        let with_z = tables.pop()?;
        (sum.finish() == stored_sum).then_some(Carrier {
            group,
            plus: tables,
            with_z,
        })
    }
}
