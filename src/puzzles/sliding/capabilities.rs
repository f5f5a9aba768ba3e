//! The sliding tile puzzle's capabilities beyond the core contract (see
//! [`crate::puzzles::capabilities`]): hand play, heuristic sampling, forecasts of IDA*'s
//! iterations, and the pattern databases its searches need first.

use super::*;
use crate::puzzles::{HandPlay, HeuristicSampling, IterationForecasts, Preparation, PrepareError};

impl HandPlay for Sliding {
    fn moves_played(&self) -> usize {
        self.undo.len()
    }

    fn motion_from(&self, before: &dyn crate::puzzles::Puzzle) -> Option<crate::puzzles::Motion> {
        let before = before.model::<Self>()?;
        if (before.rows, before.cols) != (self.rows, self.cols) {
            return None;
        }
        // The tile now where the blank was came from where the blank is now.
        let blank = |tiles: &[u8]| tiles.iter().position(|&t| t == 0);
        let (was, is) = (blank(&before.tiles)?, blank(&self.tiles)?);
        let cell = |i: usize| Cell::new(i / self.cols, i % self.cols);
        (was != is).then(|| crate::puzzles::Motion::between(cell(is), cell(was)))
    }
}

impl IterationForecasts for Sliding {
    fn forecast_iterations(
        &self,
        iterations: &mut [crate::search::layers::Iteration],
        probes: usize,
        cancel: &CancelToken,
    ) {
        // The fast core's tree, under the attached databases' estimate (not the dual
        // lookups' tree, which the sampling does not model).
        let Some(db) = self.attached_db().filter(|_| !self.core_options().dual) else {
            return;
        };
        let kre = super::forecast::Forecast::sample(db, 20_000, 1);
        let tiles = self.tiles_row_major();
        // Those cut off by the time limit are left out (`predicted` stays empty).
        let _ =
            super::stratified::forecast_iterations(db, &kre, &tiles, iterations, probes, cancel);
    }
}

impl HeuristicSampling for Sliding {
    fn samples_heuristic_quality(&self) -> bool {
        self.rows() * self.cols() > SMALL_BOARD
    }

    fn sample_heuristic_quality(
        &self,
        samples: usize,
        seed: u64,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(usize),
    ) -> Option<crate::puzzles::SampledQuality> {
        if !self.samples_heuristic_quality() {
            return None;
        }
        Some(
            super::quality::sampled_quality(self, samples, seed, cancel, progress).map(
                |(q, positions)| {
                    let boxed = positions
                        .into_iter()
                        .map(|p| Box::new(p) as Box<dyn crate::puzzles::Puzzle>)
                        .collect();
                    (q, boxed)
                },
            ),
        )
    }
}

impl Preparation for Sliding {
    fn prepare(
        &mut self,
        defaults: bool,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<(), PrepareError> {
        Sliding::prepare(self, defaults, cancel, progress).map_err(PrepareError::from)
    }
}

impl From<pattern_db::PdbError> for PrepareError {
    fn from(e: pattern_db::PdbError) -> Self {
        PrepareError {
            message: e.to_string(),
            limit: e.limit_outcome(),
        }
    }
}

impl Sliding {
    /// Loads or builds the pattern databases its heuristic needs (choosing the best the
    /// cache holds when `defaults` says the user chose no heuristic and the board is large),
    /// `progress` getting the fraction done (0 to 1) under the limits of `cancel`; nothing to
    /// do for a board of the wrong parity or a heuristic without tables.
    ///
    /// # Errors
    /// A [`pattern_db::PdbError`]: a limit reached, or a failed build.
    pub fn prepare(
        &mut self,
        defaults: bool,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<(), pattern_db::PdbError> {
        let squares = self.rows() * self.cols();
        if self.check_solvable().is_err() {
            // No search will run (the parity refuses the board at once): no tables to build.
            return Ok(());
        }
        let (rows, cols) = (self.rows(), self.cols());
        // The large databases the defaults take once built (they are cached) are loaded here,
        // their checksum checked, so that a damaged file falls back to the quick tables (or
        // to linear conflict on the 24-puzzle) instead of being rebuilt for minutes and GBs.
        let goal = self.goal().to_vec();
        let cached = |set| {
            PatternDb::is_cached(rows, cols, &goal, set)
                .then(|| PatternDb::load_cached(rows, cols, &goal, set))
                .flatten()
        };
        // Chooses `heuristic` if its databases are attached or sound in the cache (attached
        // then); else leaves the heuristic as it was. Returns whether it was chosen.
        let take = |puzzle: &mut Self, heuristic: TileHeuristic, set: PdbSet| {
            let before = puzzle.heuristic;
            puzzle.set_heuristic(heuristic);
            if puzzle.has_pattern_db() {
                return true;
            }
            match cached(set) {
                Some(db) => puzzle.attach_pattern_db(Arc::new(db)),
                None => {
                    puzzle.set_heuristic(before);
                    false
                }
            }
        };
        if defaults && (rows, cols) == (5, 5) {
            // The 24-puzzle's 6-6-6-6 databases once built (`--heuristic pdb` builds them).
            take(self, TileHeuristic::PatternDb, PdbSet::Six);
        }
        if defaults && squares > SMALL_BOARD && squares <= pattern_db::QUICK_MAX_SQUARES {
            // The 7-8 databases once built, else the quick ones.
            let large =
                (rows, cols) == (4, 4) && take(self, TileHeuristic::PatternDb78, PdbSet::Large);
            if !large {
                self.set_heuristic(TileHeuristic::PatternDb);
            }
        }
        let Some(set) = self.pdb_set() else {
            return Ok(());
        };
        // A board the set does not fit is refused by the build (too large, or the 7-8 set
        // off 4 x 4) with the reason.
        if self.has_pattern_db() {
            return Ok(());
        }
        let db = PatternDb::load_or_build_set(
            self.rows(),
            self.cols(),
            self.goal(),
            set,
            cancel,
            progress,
        )?;
        self.attach_pattern_db(Arc::new(db));
        Ok(())
    }
}
