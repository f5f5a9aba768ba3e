//! Indexing a recording: each place's first expansion, the flags of first expansions and
//! first generations, and the size curve, kept as the recording grows.

use super::*;

impl TraceRecorder {
    /// Indexes the recording whole: notes each place's first expansion and marks every first
    /// expansion and first generation (see the module's documentation). Called once a run
    /// recorded in one value has ended; a store indexes each chunk as it comes. A recording
    /// whose index does not fit in memory keeps none (the timeline then says so).
    pub fn finish(&mut self) {
        self.index_new();
    }

    /// The size an index must have for the places recorded from expansion `from` and
    /// generated state `from_generated` on, at least `(rows, cols, sides)` of `now`.
    fn index_dims(
        &self,
        from: usize,
        from_generated: usize,
        now: (usize, usize, usize),
    ) -> (usize, usize, usize) {
        let places = self.expansions[from.min(self.expansions.len())..]
            .iter()
            .map(|e| e.place & PLACE_MASK)
            .chain(
                self.generated[from_generated.min(self.generated.len())..]
                    .iter()
                    .map(|g| g & PLACE_MASK),
            )
            .filter(|&p| p != NONE);
        let (mut rows, mut cols, mut sides) = now;
        for p in places {
            let (row, col) = unpack(p);
            rows = rows.max(row as usize + 1);
            cols = cols.max(col as usize + 1);
            if p & 7 != 0 {
                sides = 5;
            }
        }
        (rows, cols, sides)
    }

    /// Indexes the expansions and generated states not indexed yet, in the order of the run:
    /// each expansion after the states generated before it. An index too small for a new
    /// place is made again, larger, from the start.
    pub(super) fn index_new(&mut self) {
        if self.boards.is_some() || self.unindexable {
            return;
        }
        let (from, from_generated, now) = match &self.index {
            Some(i) => (i.expansions, i.generated, (i.rows, i.cols, i.sides)),
            None => (0, 0, (self.dims.0, self.dims.1, 1)),
        };
        let dims = self.index_dims(from, from_generated, now);
        if (self.index.is_none() || dims != now) && !self.make_index(dims) {
            return;
        }
        let Some(index) = &mut self.index else {
            return;
        };
        let open = |packed: &mut u32, index: &mut PlaceIndex| {
            if let Some(slot) = index.slot(*packed & PLACE_MASK)
                && !std::mem::replace(&mut index.opened[slot], true)
            {
                *packed |= FIRST;
                index.open += 1;
            }
        };
        for j in index.expansions..self.expansions.len() {
            // The states generated before expansion j: the starts, or its predecessors'.
            let before = match j {
                0 => self.sources as usize,
                _ => self.expansions[j - 1].generated_end as usize,
            }
            .min(self.generated.len());
            for g in self
                .generated
                .get_mut(index.generated..before)
                .into_iter()
                .flatten()
            {
                open(g, index);
            }
            index.generated = index.generated.max(before);
            if j.is_multiple_of(index.step) {
                index
                    .curve
                    .push([j as f64, index.open as f64, index.closed as f64]);
                if index.curve.len() > 2 * CURVE_ROWS {
                    let kept = index.curve.iter().step_by(2).copied().collect();
                    index.curve = kept;
                    index.step *= 2;
                }
            }
            let e = &mut self.expansions[j];
            if let Some(slot) = index.slot(e.place & PLACE_MASK) {
                let first = index.first[slot] == NOT_EXPANDED;
                if first {
                    index.first[slot] = j as u32 + 1;
                    e.place |= FIRST;
                    index.closed += 1;
                }
                if index.opened[slot] {
                    e.place |= WAS_GENERATED;
                    if first {
                        index.open = index.open.saturating_sub(1);
                    }
                }
            }
            index.expansions = j + 1;
        }
        // The successors of the last expansion so far (or the starts, before any).
        let end = self.generated.len();
        for g in self
            .generated
            .get_mut(index.generated..end)
            .into_iter()
            .flatten()
        {
            open(g, index);
        }
        index.generated = index.generated.max(end);
    }

    /// Makes an empty index of `(rows, cols, sides)` and clears every flag, so that indexing
    /// starts over; `false` (and a note) if it does not fit in memory.
    fn make_index(&mut self, (rows, cols, sides): (usize, usize, usize)) -> bool {
        let slots = rows * cols * sides;
        // Zeroed vectors come from the system untouched, their pages filled as the search
        // reaches them: a frame never spends 20 ms writing an index of 4 million places
        // (as on the frame benchmark's 2048 x 2048 grid). Their size is checked first.
        let bytes = slots.saturating_mul(std::mem::size_of::<u32>() + 1) as u64;
        if bytes > crate::search::limits::default_memory_budget() {
            self.index = None;
            self.unindexable = true;
            self.stop(format!(
                "the recording's index of {slots} places does not fit in memory"
            ));
            return false;
        }
        let first = vec![NOT_EXPANDED; slots];
        let opened = vec![false; slots];
        // A search expands each place about once: room for as many expansions and states
        // generated is asked for now (address space, not memory, until written), so the
        // recording does not copy itself as it doubles while the search runs (a 6-11 ms
        // frame at each doubling, measured). Only a hint: without the room it grows as usual.
        let _ = self
            .expansions
            .try_reserve_exact(slots.saturating_sub(self.expansions.len()));
        let _ = self
            .generated
            .try_reserve_exact(slots.saturating_sub(self.generated.len()));
        for e in &mut self.expansions {
            e.place &= PLACE_MASK;
        }
        for g in &mut self.generated {
            *g &= PLACE_MASK;
        }
        self.index = Some(PlaceIndex {
            rows,
            cols,
            sides,
            first,
            opened,
            expansions: 0,
            generated: 0,
            open: 0,
            closed: 0,
            curve: Vec::new(),
            step: 1,
        });
        true
    }

    /// Whether [`TraceRecorder::finish`] built the index the timeline needs.
    pub fn is_indexed(&self) -> bool {
        self.index.is_some() || self.boards.is_some()
    }

    /// The run's sizes after each expansion, for the plots: `[expansions, frontier,
    /// closed]`, from position 0 (the starts on the frontier) to the end, thinned to about
    /// `points` rows (the last always kept). For places the frontier counts the places put on
    /// it and not yet expanded, the closed set the places expanded (a place reached twice
    /// counts once): rows kept as the index grows, every row of a run of up to 4,096
    /// expansions, evenly spaced ones beyond. For boards the frontier is the size recorded at
    /// each expansion and the closed set the expansions so far. Work proportional to
    /// `points`, never to the recording.
    pub fn size_curve(&self, points: usize) -> Vec<[f64; 3]> {
        let n = self.expansions.len();
        if let Some(boards) = &self.boards {
            let every = n.div_ceil(points.max(1)).max(1);
            let mut curve = vec![[0.0; 3]];
            let positions = (every..=n)
                .step_by(every)
                .chain((!n.is_multiple_of(every)).then_some(n));
            for p in positions {
                let frontier = boards.frontier.get(p - 1).copied().unwrap_or(0);
                curve.push([p as f64, f64::from(frontier), p as f64]);
            }
            return curve;
        }
        let Some(index) = &self.index else {
            return vec![[0.0; 3]];
        };
        let rows = &index.curve;
        let every = rows.len().div_ceil(points.max(1)).max(1);
        let mut curve: Vec<[f64; 3]> = rows.iter().step_by(every).copied().collect();
        let end = [n as f64, index.open as f64, index.closed as f64];
        match curve.last() {
            Some(last) if last[0] as usize == n => {}
            _ => curve.push(end),
        }
        curve
    }
}
