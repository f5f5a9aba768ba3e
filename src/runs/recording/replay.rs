//! Reading a recording: replaying it to any position (the marks each expansion changes),
//! each expansion's figures, branches, depth-first paths, jumps and boards.

use super::*;

impl TraceRecorder {
    /// The generated stream's range of expansion `j`'s successors (`None` for the starts).
    pub(super) fn successors(&self, j: Option<usize>) -> std::ops::Range<usize> {
        let start = match j {
            None => 0,
            Some(0) => self.sources as usize,
            Some(j) => self
                .expansions
                .get(j - 1)
                .map_or(0, |e| e.generated_end as usize),
        };
        let end = match j {
            None => self.sources as usize,
            Some(j) => self
                .expansions
                .get(j)
                .map_or(start, |e| e.generated_end as usize),
        };
        let len = self.generated.len();
        start.min(len)..end.clamp(start.min(len), len)
    }

    /// Calls `change` for the marks that the starts put on the picture (the timeline's
    /// position 0 shows them on the frontier).
    pub fn sources(&self, mut change: impl FnMut(Place, Change)) {
        for &g in &self.generated[self.successors(None)] {
            if g & FIRST != 0
                && let Some(place) = place_of(g)
            {
                change(place, Change::Open);
            }
        }
    }

    /// Moves a replay from position `position` to `position + 1` (on the app's view of the
    /// marks): calls `change` for each mark that expansion `position`
    /// and its successors change. Nothing happens past the last expansion.
    pub fn step_forward(&self, position: usize, mut change: impl FnMut(Place, Change)) {
        let Some(e) = self.expansions.get(position) else {
            return;
        };
        if e.place & FIRST != 0
            && let Some(place) = place_of(e.place)
        {
            change(place, Change::Close);
        }
        for &g in &self.generated[self.successors(Some(position))] {
            if g & FIRST != 0
                && let Some(place) = place_of(g)
            {
                change(place, Change::Open);
            }
        }
    }

    /// Moves a replay from position `position` back to `position - 1`: the changes of
    /// [`TraceRecorder::step_forward`] from `position - 1`, undone in reverse order.
    pub fn step_back(&self, position: usize, mut change: impl FnMut(Place, Change)) {
        let Some(j) = position.checked_sub(1) else {
            return;
        };
        let Some(e) = self.expansions.get(j) else {
            return;
        };
        for &g in self.generated[self.successors(Some(j))].iter().rev() {
            if g & FIRST != 0
                && let Some(place) = place_of(g)
            {
                change(place, Change::Unopen);
            }
        }
        if e.place & FIRST != 0
            && let Some(place) = place_of(e.place)
        {
            change(
                place,
                Change::Unclose {
                    was_open: e.place & WAS_GENERATED != 0,
                },
            );
        }
    }

    /// Takes a replay at position `position` back to a micro-step of its last expansion
    /// (number `position - 1`): calls `change` to take back off the marks the successors that
    /// expansion put on the frontier from its `keep`-th on (in reverse order), as
    /// [`TraceRecorder::step_back`] does for all of them; the expansion itself stays.
    pub fn unpush_from(&self, position: usize, keep: usize, mut change: impl FnMut(Place, Change)) {
        let Some(j) = position.checked_sub(1) else {
            return;
        };
        let successors = &self.generated[self.successors(Some(j))];
        for &g in successors.iter().skip(keep).rev() {
            if g & FIRST != 0
                && let Some(place) = place_of(g)
            {
                change(place, Change::Unopen);
            }
        }
    }

    /// The states expansion `j` put on the frontier (the starts for `None`), in the order
    /// put there: each place, with the `g` and `h` it was put there with (`None` when not
    /// given). A place that does not fit the recording's packing is left out.
    pub fn pushed(
        &self,
        j: Option<usize>,
    ) -> impl Iterator<Item = (Place, Option<f32>, Option<f32>)> + '_ {
        let value = |v: f32| (!v.is_nan()).then_some(v);
        let range = self.successors(j);
        let scores = self.generated_scores.get(range.clone()).unwrap_or(&[]);
        self.generated[range]
            .iter()
            .zip(scores.iter().chain(std::iter::repeat(&NO_SCORE)))
            .filter_map(move |(&g, &(sg, sh))| Some((place_of(g)?, value(sg), value(sh))))
    }

    /// How many states expansion `j` put on the frontier (the starts for `None`), boards
    /// included.
    pub fn pushed_count(&self, j: Option<usize>) -> usize {
        self.successors(j).len()
    }

    /// The states expansion `j` put on the frontier (the starts for `None`), in the order
    /// put there, places and boards alike: each one's number in the generated stream (see
    /// [`TraceRecorder::generated_squares`]), its place (`None` for a board), and the `g`
    /// and `h` it was put there with.
    pub fn pushed_states(
        &self,
        j: Option<usize>,
    ) -> impl Iterator<Item = (usize, Option<Place>, Option<f32>, Option<f32>)> + '_ {
        let value = |v: f32| (!v.is_nan()).then_some(v);
        let range = self.successors(j);
        let scores = self.generated_scores.get(range.clone()).unwrap_or(&[]);
        (range.clone())
            .zip(&self.generated[range])
            .zip(scores.iter().chain(std::iter::repeat(&NO_SCORE)))
            .map(move |((k, &g), &(sg, sh))| (k, place_of(g), value(sg), value(sh)))
    }

    /// The squares of the `k`-th board put on the frontier (in the generated stream), if the
    /// recording holds boards.
    pub fn generated_squares(&self, k: usize) -> Option<&[Square]> {
        let boards = self.boards.as_ref()?;
        let n = boards.template.rows * boards.template.cols;
        boards.generated.get(k * n..(k + 1) * n)
    }

    /// The picture of the `k`-th board put on the frontier.
    pub fn generated_picture(&self, k: usize) -> Option<Picture> {
        let squares = self.generated_squares(k)?;
        Some(Picture {
            squares: squares.to_vec(),
            ..self.boards.as_ref()?.template.clone()
        })
    }

    /// The squares of the board of expansion `j` of a board puzzle.
    pub fn board_squares(&self, j: usize) -> Option<&[Square]> {
        let boards = self.boards.as_ref()?;
        let n = boards.template.rows * boards.template.cols;
        boards.squares.get(j * n..(j + 1) * n)
    }

    /// How many states were put on the frontier before expansion `j` (the starts included):
    /// where expansion `j`'s successors begin in the generated stream.
    pub fn pushed_before(&self, j: usize) -> usize {
        match j.checked_sub(1) {
            None => self.successors(None).end,
            Some(last) => self.successors(Some(last)).end,
        }
    }

    /// Expansion `j` (from 0), if recorded.
    pub fn expansion(&self, j: usize) -> Option<ExpansionInfo> {
        let e = self.expansions.get(j)?;
        let value = |v: f32| (!v.is_nan()).then_some(v);
        let iteration = self
            .iterations
            .partition_point(|&start| start as usize <= j);
        Some(ExpansionInfo {
            index: j,
            place: place_of(e.place),
            parent: place_of(e.parent),
            g: value(e.g),
            h: value(e.h),
            depth: e.depth,
            is_reexpansion: self.index.is_some() && e.place & FIRST == 0,
            iteration: iteration as u32,
        })
    }

    /// The value of `quantity` at expansion `j` (its index for [`Quantity::Order`]).
    pub fn value(&self, j: usize, quantity: Quantity) -> Option<f64> {
        let e = self.expansions.get(j)?;
        let v = match quantity {
            Quantity::Order => return Some(j as f64),
            Quantity::Depth => return Some(f64::from(e.depth)),
            Quantity::G => e.g,
            Quantity::H => e.h,
            Quantity::F => e.g + if e.h.is_nan() { 0.0 } else { e.h },
        };
        (!v.is_nan()).then_some(f64::from(v))
    }

    /// The first expansion of `place`, if it was expanded (needs [`TraceRecorder::finish`]).
    pub fn first_expansion(&self, place: Place) -> Option<usize> {
        let index = self.index.as_ref()?;
        let slot = index.slot(pack(place)?)?;
        let j = *index.first.get(slot)?;
        (j != NOT_EXPANDED).then(|| j as usize - 1)
    }

    /// The expansion during which `place` was first put on the frontier: `Some(None)` for a
    /// start, `None` if it never was.
    pub fn first_generation(&self, place: Place) -> Option<Option<usize>> {
        let packed = pack(place)?;
        let at = self
            .generated
            .iter()
            .position(|&g| g & PLACE_MASK == packed)?;
        if at < self.sources as usize {
            return Some(None);
        }
        Some(Some(
            self.expansions
                .partition_point(|e| (e.generated_end as usize) <= at),
        ))
    }

    /// The places from a start to `place` along the recorded parents (each place's first
    /// expansion's parent; for a place only put on the frontier, the expansion that first
    /// put it there), start first; empty if `place` was never reached. At most as many steps
    /// as there are expansions (a parent chain never loops that way).
    pub fn branch(&self, place: Place) -> Vec<Place> {
        let mut path = Vec::new();
        let mut at = self.first_expansion(place);
        if at.is_none() {
            match self.first_generation(place) {
                Some(None) => return vec![place],
                Some(Some(j)) => {
                    path.push(place);
                    at = Some(j);
                }
                None => return path,
            }
        }
        while let Some(j) = at {
            let Some(e) = self.expansions.get(j) else {
                break;
            };
            let Some(here) = place_of(e.place) else {
                break;
            };
            path.push(here);
            if path.len() > self.expansions.len() {
                break;
            }
            at = place_of(e.parent).and_then(|p| self.first_expansion(p));
        }
        path.reverse();
        path
    }

    /// The depth-first path of a depth-first search (DFS, IDA*) at position `position`: the
    /// expansions on the way down to the last one shown, each the latest shallower one before
    /// it, start first. At most `max_scan` expansions are looked at.
    pub fn depth_first_path(&self, position: usize, max_scan: usize) -> Vec<Place> {
        let mut path = Vec::new();
        let Some(last) = position.checked_sub(1) else {
            return path;
        };
        let Some(e) = self.expansions.get(last) else {
            return path;
        };
        let mut want = e.depth;
        path.extend(place_of(e.place));
        for e in self.expansions[..last].iter().rev().take(max_scan) {
            if want == 0 {
                break;
            }
            if e.depth == want - 1 {
                path.extend(place_of(e.place));
                want -= 1;
            }
        }
        path.reverse();
        path
    }

    /// The next position after `position` where `quantity` first exceeds every value shown
    /// up to `position` (the next depth layer, or the next `f` of A*), if any.
    pub fn next_record(&self, position: usize, quantity: Quantity) -> Option<usize> {
        let best = (0..position.min(self.expansions.len()))
            .filter_map(|j| self.value(j, quantity))
            .fold(f64::NEG_INFINITY, f64::max);
        (position..self.expansions.len())
            .find(|&j| self.value(j, quantity).is_some_and(|v| v > best))
            .map(|j| j + 1)
    }

    /// The position where the value of `quantity` shown at `position` was first reached (the
    /// start of the current depth layer or `f`), or, at that position already, where the one
    /// before it was.
    pub fn previous_record(&self, position: usize, quantity: Quantity) -> Option<usize> {
        // Positions (from 1) where the running maximum rose.
        let mut records = Vec::new();
        let mut best = f64::NEG_INFINITY;
        for j in 0..position.min(self.expansions.len()) {
            if let Some(v) = self.value(j, quantity)
                && v > best
            {
                best = v;
                records.push(j + 1);
            }
        }
        match records.last() {
            Some(&p) if p < position => Some(p),
            _ => records.iter().rev().nth(1).copied(),
        }
    }

    /// The board of expansion `j` of a board puzzle.
    pub fn board_at(&self, j: usize) -> Option<Picture> {
        let boards = self.boards.as_ref()?;
        let n = boards.template.rows * boards.template.cols;
        let squares = boards.squares.get(j * n..(j + 1) * n)?;
        Some(Picture {
            squares: squares.to_vec(),
            ..boards.template.clone()
        })
    }

    /// The frontier's size at expansion `j` of a board puzzle.
    pub fn board_frontier(&self, j: usize) -> Option<u64> {
        Some(u64::from(*self.boards.as_ref()?.frontier.get(j)?))
    }

    /// IDA*: the expansion each iteration begins at (from the first); empty for other
    /// algorithms.
    pub fn iteration_starts(&self) -> &[u32] {
        &self.iterations
    }

    /// The places of the squares in `rows` of the picture reached by the end of what is
    /// indexed (the run's end once every chunk is in): `each(row, column, side, closed)` for
    /// every place put on the frontier or expanded, `closed` if it was expanded. The run's end
    /// state read whole from the index, without replaying a single expansion: work
    /// proportional to the rows' places (the app's timeline sets a finished run's end so).
    pub fn reached_in_rows(
        &self,
        rows: std::ops::Range<usize>,
        mut each: impl FnMut(usize, usize, Option<Side>, bool),
    ) {
        let Some(index) = &self.index else {
            return;
        };
        let per_row = index.cols * index.sides;
        let (from, to) = (rows.start.min(index.rows), rows.end.min(index.rows));
        let slots = from * per_row..to * per_row;
        let (first, opened) = (&index.first[slots.clone()], &index.opened[slots.clone()]);
        for (k, (&j, &open)) in first.iter().zip(opened).enumerate() {
            let closed = j != NOT_EXPANDED;
            if !closed && !open {
                continue;
            }
            let slot = slots.start + k;
            let (square, s) = (slot / index.sides, slot % index.sides);
            let side = s.checked_sub(1).and_then(|s| Side::ALL.get(s).copied());
            each(square / index.cols, square % index.cols, side, closed);
        }
    }

    /// The square at `row`, `column` (not a side of it) at the end of what is indexed:
    /// `Some(true)` expanded, `Some(false)` only put on the frontier, `None` not reached.
    pub fn reached_square(&self, row: usize, col: usize) -> Option<bool> {
        let index = self.index.as_ref()?;
        if row >= index.rows || col >= index.cols {
            return None;
        }
        let slot = (row * index.cols + col) * index.sides;
        if *index.first.get(slot)? != NOT_EXPANDED {
            Some(true)
        } else {
            index
                .opened
                .get(slot)
                .copied()
                .unwrap_or(false)
                .then_some(false)
        }
    }
}
