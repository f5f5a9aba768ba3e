//! Recording a run's search events compactly, replaying them to any moment (the app's
//! timeline), and writing them as a search trace in the format of Posthoc, the research trace
//! viewer of the Shortest Path Lab (trace format version 1.4.0: a `views` section that draws
//! each event as a one-by-one `rect` at its `x`, `y`, and a list of `events` of type `source`,
//! `destination`, `generating`, `updating`, `expanding`, `closing` and `end`, each with `id`
//! and, where known, `pId`, `g`, `f`, `x`, `y`).
//!
//! A recording is two streams: one record per expansion ([`EXPANSION_BYTES`]: the state's
//! place, the place it was reached from, `g`, `h`, depth, and where its successors end) and one
//! number per state put on the frontier ([`GENERATED_BYTES`]: its place), the successors of
//! each expansion following it. IDA*'s iterations are kept as the expansion each begins at.
//! After the run, [`TraceRecorder::finish`] marks each place's first expansion and first
//! generation (a later expansion is a re-expansion; a later generation an update of the
//! state's entry) and builds an index from each place to its first expansion.
//!
//! Places are the states of grid mazes, Klondike and the car maze: a state's `id` in a trace
//! is its place (row, column and side packed in one number), `x` its column and `y` its row,
//! origin at the top left. Board puzzles (sliding tiles, Klotski) have no place per state: a
//! recorder made with [`TraceRecorder::with_boards`] keeps each expanded state's board instead
//! (for the timeline), and none is written as a trace.

use std::io::{self, Write};

use serde::Serialize;

use crate::puzzles::{Cell, Picture, Place, Report, Side, Square, Watcher};
use crate::search::{Cost, Stats};

/// Bytes an expansion takes in a recording.
pub const EXPANSION_BYTES: usize = std::mem::size_of::<Expansion>();
/// Bytes a state put on the frontier takes in a recording.
pub const GENERATED_BYTES: usize = std::mem::size_of::<u32>();

/// The bits of a packed place (see [`pack`]); the bits above carry flags.
const PLACE_MASK: u32 = (1 << 27) - 1;
/// The packed value of "no place" (side 7 is no side).
const NONE: u32 = PLACE_MASK;
/// Flag: this is the place's first expansion (of an expansion), or its first time on the
/// frontier (of a generated state).
const FIRST: u32 = 1 << 27;
/// Flag of an expansion: its place had been put on the frontier before (a start that IDA*
/// expands without generating has not).
const WAS_GENERATED: u32 = 1 << 28;
/// Rows and columns of places that a packed place can hold (12 bits each).
const MAX_SIDE: usize = 1 << 12;
/// The index value of "not expanded".
const NOT_EXPANDED: u32 = u32::MAX;

/// One expansion as recorded (24 bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Expansion {
    /// The packed place (see [`pack`]) and the flags [`FIRST`] and [`WAS_GENERATED`].
    place: u32,
    /// The packed place reached from, or [`NONE`].
    parent: u32,
    /// Path cost from a start (NaN when the algorithm gave none).
    g: f32,
    /// The heuristic's estimate (NaN when the algorithm uses none).
    h: f32,
    /// Moves from a start.
    depth: u32,
    /// The successors put on the frontier by this expansion end here in the generated
    /// stream (they begin where the previous expansion's end).
    generated_end: u32,
}

/// A place as one number: row in bits 15-26, column in bits 3-14, side (0 none, 1 + its
/// index) in bits 0-2; `None` if the row or column does not fit.
fn pack(place: Place) -> Option<u32> {
    let (row, col) = (place.cell.row, place.cell.col);
    if row >= MAX_SIDE || col >= MAX_SIDE {
        return None;
    }
    let side = place.side.map_or(0, |s| s.index() as u32 + 1);
    Some((row as u32) << 15 | (col as u32) << 3 | side)
}

/// The row and column of a packed place.
fn unpack(packed: u32) -> (u32, u32) {
    ((packed >> 15) & 0xfff, (packed >> 3) & 0xfff)
}

/// The place of a packed place (flags ignored); `None` for [`NONE`].
fn place_of(packed: u32) -> Option<Place> {
    let packed = packed & PLACE_MASK;
    if packed == NONE {
        return None;
    }
    let (row, col) = unpack(packed);
    let side = match packed & 7 {
        0 => None,
        s => Some(*Side::ALL.get(s as usize - 1)?),
    };
    Some(Place {
        cell: Cell::new(row as usize, col as usize),
        side,
    })
}

/// The boards of a board puzzle's expansions: the squares of each in one run, all boards
/// alike but for their squares.
#[derive(Clone, Debug)]
struct Boards {
    /// The first board, whose size, start and goal area every board shares.
    template: Picture,
    /// `template.squares.len()` squares a board, in expansion order.
    squares: Vec<Square>,
    /// The frontier's size at each expansion.
    frontier: Vec<u32>,
}

/// Where each place was first expanded: `first[(row * cols + col) * sides + side]`, with
/// `sides` 1 when no place has a side (side 0) and 5 otherwise (0 the square, 1 + the side's
/// index).
#[derive(Clone, Debug)]
struct PlaceIndex {
    rows: usize,
    cols: usize,
    sides: usize,
    first: Vec<u32>,
    /// Whether each place has been put on the frontier, as far as indexed.
    opened: Vec<bool>,
    /// Expansions indexed so far (flags set, first expansions noted).
    expansions: usize,
    /// Generated states indexed so far.
    generated: usize,
    /// Places on the frontier and places closed, as far as indexed.
    open: u64,
    closed: u64,
    /// The sizes `[position, frontier, closed]` at every `step`-th position from 0, kept as
    /// the index grows (see [`TraceRecorder::size_curve`]).
    curve: Vec<[f64; 3]>,
    step: usize,
}

/// The most rows [`PlaceIndex::curve`] keeps: past twice this, every other row goes and the
/// step doubles.
const CURVE_ROWS: usize = 4096;

impl PlaceIndex {
    fn slot(&self, packed: u32) -> Option<usize> {
        let (row, col) = unpack(packed);
        let (row, col) = (row as usize, col as usize);
        let side = (packed & 7) as usize;
        (row < self.rows && col < self.cols && side < self.sides)
            .then(|| (row * self.cols + col) * self.sides + side)
    }
}

/// One expansion of a recording, as the timeline shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpansionInfo {
    /// Its number in the order of expansion, from 0.
    pub index: usize,
    /// The state's place (`None` for board puzzles).
    pub place: Option<Place>,
    /// The place it was reached from (`None` for a start, or when not scored).
    pub parent: Option<Place>,
    /// Path cost from a start, if the algorithm reported it.
    pub g: Option<f32>,
    /// The heuristic's estimate, if the algorithm uses one.
    pub h: Option<f32>,
    /// Moves from a start.
    pub depth: u32,
    /// Whether the state had been expanded before (a re-expansion).
    pub is_reexpansion: bool,
    /// IDA*: the iteration it belongs to (from 1); 0 for other algorithms.
    pub iteration: u32,
}

impl ExpansionInfo {
    /// `g + h` (or `g` without a heuristic), if scored.
    pub fn f(&self) -> Option<f32> {
        Some(self.g? + self.h.unwrap_or(0.0))
    }
}

/// How a mark on a place changes when a recording is replayed (see
/// [`TraceRecorder::step_forward`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Expanded for the first time: closed.
    Close,
    /// Put on the frontier for the first time: on the frontier, unless already closed.
    Open,
    /// Going back before its first expansion: on the frontier if it had been put there,
    /// else unmarked.
    Unclose {
        /// Whether it had been put on the frontier before that expansion.
        was_open: bool,
    },
    /// Going back before it was first put on the frontier: unmarked, unless closed.
    Unopen,
}

/// A quantity of the expansions that the timeline's jumps and the heat maps follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    /// The order of expansion.
    Order,
    /// Moves from a start.
    Depth,
    /// Path cost from a start.
    G,
    /// The heuristic's estimate.
    H,
    /// `g + h`.
    F,
}

impl Quantity {
    /// Its name in the app ("order", "depth", "g", "h", "f").
    pub fn label(self) -> &'static str {
        match self {
            Quantity::Order => "order",
            Quantity::Depth => "depth",
            Quantity::G => "g",
            Quantity::H => "h",
            Quantity::F => "f",
        }
    }
}

/// A [`Watcher`] that records every expansion and every state put on the frontier of a run,
/// up to a memory budget; see the module's documentation for the layout.
///
/// One type plays two parts. Watching a search it *writes* the recording; read by the
/// timeline it is the *store*. A whole run recorded in one value (the command line, the
/// tests) is read after [`TraceRecorder::finish`]. The app's solver thread instead hands the
/// events over as they come: [`TraceRecorder::take_chunk`] takes what it recorded since the
/// last chunk (keeping only the expansion still under way), and the app's store
/// [`TraceRecorder::append`]s each chunk and indexes it at once, so the one recording is read
/// by the live view, the timeline and the exports alike, during the run and after.
#[derive(Clone, Debug)]
pub struct TraceRecorder {
    expansions: Vec<Expansion>,
    generated: Vec<u32>,
    /// States put on the frontier before the first expansion (the starts).
    sources: u32,
    /// IDA*: the expansion each iteration begins at, from the first.
    iterations: Vec<u32>,
    /// The board puzzle's boards, when recording boards.
    boards: Option<Boards>,
    /// Whether boards are recorded (else a board puzzle stops the recording).
    records_boards: bool,
    /// The board given for the next expansion.
    pending_board: Option<Picture>,
    max_bytes: u64,
    /// Whether the last expansion reported was recorded (its successors follow it).
    recording: bool,
    /// Why recording stopped before the run ended, if it did.
    stopped: Option<String>,
    /// Which places were first expanded where, and the flags set so far (see
    /// [`TraceRecorder::finish`]).
    index: Option<PlaceIndex>,
    /// A writer's events handed over in chunks already (all zero for a store).
    taken: Taken,
    /// The picture's rows and columns when known in advance (the index is made that size).
    dims: (usize, usize),
    /// Whether the index did not fit in memory (indexing gave up).
    unindexable: bool,
}

/// What a writer has handed over in chunks already: its vectors hold only the rest.
#[derive(Clone, Copy, Debug, Default)]
struct Taken {
    /// Expansions taken (the writer's first expansion has this number).
    expansions: usize,
    /// Generated states taken.
    generated: usize,
    /// IDA* iteration starts taken.
    iterations: usize,
    /// Bytes taken (counted against the budget).
    bytes: u64,
    /// Whether the boards' template went out.
    template: bool,
}

/// The events a writer recorded since its last chunk (see [`TraceRecorder::take_chunk`]),
/// for the store to [`TraceRecorder::append`]. About [`EXPANSION_BYTES`] an expansion and
/// [`GENERATED_BYTES`] a generated state, plus a board puzzle's squares.
#[derive(Clone, Debug, Default)]
pub struct RecordChunk {
    /// The number of the first expansion in `expansions`: the store's next one, or its last
    /// (which this chunk completes: the successors it generated after the previous chunk).
    first: usize,
    expansions: Vec<Expansion>,
    /// Generated states, following the store's.
    generated: Vec<u32>,
    sources: u32,
    /// IDA* iteration starts, following the store's.
    iterations: Vec<u32>,
    /// The boards' template, in the first chunk with a board.
    template: Option<Picture>,
    /// Boards' squares and frontier sizes, following the store's.
    squares: Vec<Square>,
    frontier: Vec<u32>,
    stopped: Option<String>,
}

impl RecordChunk {
    /// The expansions this chunk adds to a store that holds `before` (the one it completes not
    /// counted).
    pub fn new_expansions(&self, before: usize) -> usize {
        (self.first + self.expansions.len()).saturating_sub(before)
    }

    /// Whether it holds nothing to append.
    pub fn is_empty(&self) -> bool {
        self.expansions.is_empty()
            && self.generated.is_empty()
            && self.squares.is_empty()
            && self.stopped.is_none()
    }
}

impl TraceRecorder {
    /// A recorder of places that keeps at most `max_bytes` of events; a board puzzle stops
    /// it with a note (see [`TraceRecorder::stopped`]).
    pub fn new(max_bytes: u64) -> Self {
        Self {
            expansions: Vec::new(),
            generated: Vec::new(),
            sources: 0,
            iterations: Vec::new(),
            boards: None,
            records_boards: false,
            pending_board: None,
            max_bytes,
            recording: true,
            stopped: None,
            index: None,
            taken: Taken::default(),
            dims: (0, 0),
            unindexable: false,
        }
    }

    /// A recorder that keeps, for a board puzzle, the board of every expansion (for the
    /// app's timeline), within `max_bytes` all told.
    pub fn with_boards(max_bytes: u64) -> Self {
        Self {
            records_boards: true,
            ..Self::new(max_bytes)
        }
    }

    /// An empty store for the chunks of a run on a picture of `rows` x `cols` squares (its
    /// index is made that size at once, so chunks are indexed as they come).
    pub fn store(rows: usize, cols: usize) -> Self {
        Self {
            dims: (rows, cols),
            ..Self::new(u64::MAX)
        }
    }

    /// Events recorded: expansions and states put on the frontier.
    pub fn len(&self) -> usize {
        self.expansions.len() + self.generated.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Expansions recorded: the timeline's positions run from 0 to this.
    pub fn expansions(&self) -> usize {
        self.expansions.len()
    }

    /// Expansions recorded by a writer, those handed over in chunks included.
    fn written(&self) -> usize {
        self.taken.expansions + self.expansions.len()
    }

    /// Generated states recorded by a writer, those handed over included.
    fn written_generated(&self) -> usize {
        self.taken.generated + self.generated.len()
    }

    /// Whether the recording holds boards (a board puzzle) rather than places.
    pub fn has_boards(&self) -> bool {
        self.boards.is_some()
    }

    /// Bytes the events take (the index not counted); a writer counts those it handed over.
    pub fn bytes(&self) -> u64 {
        let boards = self.boards.as_ref().map_or(0, |b| {
            b.squares.len() * std::mem::size_of::<Square>() + b.frontier.len() * 4
        });
        self.taken.bytes
            + (self.expansions.len() * EXPANSION_BYTES
                + self.generated.len() * GENERATED_BYTES
                + boards) as u64
    }

    /// Why recording stopped before the run ended (the budget was full, or the puzzle's
    /// states have no places); `None` when the recording is complete.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    fn stop(&mut self, why: String) {
        self.recording = false;
        if self.stopped.is_none() {
            self.stopped = Some(why);
        }
    }

    /// Whether `extra` more bytes fit in the budget; stops the recording with a note if not.
    fn has_room(&mut self, extra: usize) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        if self.bytes() + extra as u64 > self.max_bytes {
            let (expansions, max) = (self.written(), self.max_bytes >> 20);
            self.stop(format!(
                "recording stopped after {expansions} expansions: its memory budget of {max} MiB \
                 is full"
            ));
            return false;
        }
        true
    }

    /// Takes the events a writer recorded since its last chunk, for a store to
    /// [`TraceRecorder::append`]. The expansion under way (the last) is kept, to be completed
    /// by the successors and scores still to come, and sent again in the next chunk. Work and
    /// memory proportional to the events taken.
    pub fn take_chunk(&mut self) -> RecordChunk {
        let first = self.taken.expansions;
        let expansions = std::mem::take(&mut self.expansions);
        let generated = std::mem::take(&mut self.generated);
        let iterations = std::mem::take(&mut self.iterations);
        let (mut template, mut squares, mut frontier) = (None, Vec::new(), Vec::new());
        let mut board_bytes = 0;
        if let Some(boards) = &mut self.boards {
            if !self.taken.template {
                template = Some(boards.template.clone());
                self.taken.template = true;
            }
            squares = std::mem::take(&mut boards.squares);
            frontier = std::mem::take(&mut boards.frontier);
            board_bytes = squares.len() * std::mem::size_of::<Square>() + frontier.len() * 4;
        }
        let kept = expansions.last().copied();
        self.taken.expansions += expansions.len() - usize::from(kept.is_some());
        self.taken.generated += generated.len();
        self.taken.iterations += iterations.len();
        self.taken.bytes += ((expansions.len() - usize::from(kept.is_some())) * EXPANSION_BYTES
            + generated.len() * GENERATED_BYTES
            + board_bytes) as u64;
        self.expansions.extend(kept);
        RecordChunk {
            first,
            expansions,
            generated,
            sources: self.sources,
            iterations,
            template,
            squares,
            frontier,
            stopped: self.stopped.clone(),
        }
    }

    /// Adds a writer's chunk to this store and indexes it (see [`TraceRecorder::take_chunk`]):
    /// work proportional to the chunk. A chunk that does not follow the store's last (one was
    /// lost) stops the store with a note instead.
    pub fn append(&mut self, chunk: RecordChunk) {
        if let Some(why) = chunk.stopped {
            self.stopped.get_or_insert(why);
        }
        let mut new = chunk.expansions.into_iter();
        if chunk.first + 1 == self.expansions.len() {
            if let (Some(last), Some(done)) = (self.expansions.last_mut(), new.next()) {
                // The same expansion, completed: its flags stay.
                let flags = last.place & !PLACE_MASK;
                *last = Expansion {
                    place: done.place | flags,
                    ..done
                };
            }
        } else if chunk.first != self.expansions.len() {
            let why = format!(
                "the recording lost events after {} expansions",
                self.expansions.len()
            );
            self.stopped.get_or_insert(why);
            return;
        }
        self.sources = chunk.sources;
        self.expansions.extend(new);
        self.generated.extend(chunk.generated);
        self.iterations.extend(chunk.iterations);
        if let Some(template) = chunk.template {
            self.boards.get_or_insert(Boards {
                template,
                squares: Vec::new(),
                frontier: Vec::new(),
            });
        }
        if let Some(boards) = &mut self.boards {
            boards.squares.extend(chunk.squares);
            boards.frontier.extend(chunk.frontier);
        }
        self.index_new();
    }

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
    fn index_new(&mut self) {
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
                    index.first[slot] = j as u32;
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
        let mut first = Vec::new();
        let mut opened = Vec::new();
        if first.try_reserve_exact(slots).is_err() || opened.try_reserve_exact(slots).is_err() {
            self.index = None;
            self.unindexable = true;
            self.stop(format!(
                "the recording's index of {slots} places does not fit in memory"
            ));
            return false;
        }
        first.resize(slots, NOT_EXPANDED);
        opened.resize(slots, false);
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

    /// The generated stream's range of expansion `j`'s successors (`None` for the starts).
    fn successors(&self, j: Option<usize>) -> std::ops::Range<usize> {
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

    /// Moves a replay from position `position` to `position + 1` (see
    /// [`crate::app::SearchView`]): calls `change` for each mark that expansion `position`
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
        (j != NOT_EXPANDED).then_some(j as usize)
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

    /// The frontier's size at expansion `j` of a board puzzle.
    pub fn board_frontier(&self, j: usize) -> Option<u64> {
        Some(u64::from(*self.boards.as_ref()?.frontier.get(j)?))
    }

    /// IDA*: the expansion each iteration begins at (from the first); empty for other
    /// algorithms.
    pub fn iteration_starts(&self) -> &[u32] {
        &self.iterations
    }

    /// Writes the recording as a Posthoc trace (JSON) of the run that `report` describes:
    /// a `source` event for each start, a `destination` for the goal reached, the recorded
    /// events in order (each expansion `expanding`, its successors `generating`, or
    /// `updating` for a state already on the frontier reached again more cheaply, then the
    /// expansion `closing` before the next begins) and an `end` at the goal. Returns the
    /// number of events written (what the front ends report).
    ///
    /// A `generating` or `updating` event carries the `g` and `f` its state had when it was
    /// put on the frontier through that parent: the ones its expansion records when it was
    /// expanded from the same parent with the path found then; a state never expanded from
    /// that parent (its cheaper path came later, or the run ended first) has none, as the
    /// recording keeps only places for generated states.
    ///
    /// # Errors
    /// What writing to `out` returns; an error of kind `InvalidInput` for a recording of
    /// boards (which have no places to draw).
    pub fn write_posthoc(&self, report: &Report, mut out: impl Write) -> io::Result<usize> {
        if self.boards.is_some() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a board puzzle's states have no places to draw as a trace",
            ));
        }
        let views = serde_json::json!({
            "main": [{
                "$": "rect",
                "fill": "${{ color[$.type] }}",
                "width": 1,
                "height": 1,
                "x": "${{ $.x }}",
                "y": "${{ $.y }}",
            }]
        });
        write!(
            out,
            "{{\"version\":\"1.4.0\",\"views\":{views},\"events\":["
        )?;
        let mut written = 0usize;
        let mut emit = |out: &mut dyn Write, event: &TraceEvent| -> io::Result<()> {
            if written > 0 {
                out.write_all(b",\n")?;
            }
            written += 1;
            serde_json::to_writer(&mut *out, event).map_err(io::Error::other)
        };
        // The scores of each state's expansions by parent: (place, parent) -> (g, f).
        let mut scored: rustc_hash::FxHashMap<(u32, u32), (f32, f32)> = Default::default();
        for e in &self.expansions {
            if !e.g.is_nan() && e.parent != NONE {
                let f = e.g + if e.h.is_nan() { 0.0 } else { e.h };
                scored
                    .entry((e.place & PLACE_MASK, e.parent))
                    .or_insert((e.g, f));
            }
        }
        let at = |packed: u32, kind: &'static str| {
            let packed = packed & PLACE_MASK;
            let (y, x) = unpack(packed);
            TraceEvent {
                kind,
                id: packed,
                p_id: None,
                g: None,
                f: None,
                x,
                y,
            }
        };
        let is_first = |g: u32| g & FIRST != 0 || self.index.is_none();
        for &g in &self.generated[self.successors(None)] {
            if is_first(g) {
                emit(&mut out, &at(g, "source"))?;
            }
        }
        let goal = report
            .path
            .last()
            .filter(|_| report.solved)
            .and_then(|&p| pack(p));
        if let Some(goal) = goal {
            emit(&mut out, &at(goal, "destination"))?;
        }
        for (j, e) in self.expansions.iter().enumerate() {
            let mut event = at(e.place, "expanding");
            event.p_id = (e.parent != NONE).then_some(e.parent);
            if !e.g.is_nan() {
                event.g = Some(e.g);
                event.f = Some(e.g + if e.h.is_nan() { 0.0 } else { e.h });
            }
            emit(&mut out, &event)?;
            for &g in &self.generated[self.successors(Some(j))] {
                let kind = if is_first(g) {
                    "generating"
                } else {
                    "updating"
                };
                let mut generated = at(g, kind);
                generated.p_id = Some(e.place & PLACE_MASK);
                if let Some(&(g, f)) = scored.get(&(generated.id, e.place & PLACE_MASK)) {
                    (generated.g, generated.f) = (Some(g), Some(f));
                }
                emit(&mut out, &generated)?;
            }
            emit(
                &mut out,
                &TraceEvent {
                    kind: "closing",
                    ..event
                },
            )?;
        }
        if let Some(goal) = goal {
            let mut end = at(goal, "end");
            let parent = report.path.iter().rev().nth(1).and_then(|&p| pack(p));
            end.p_id = parent;
            end.g = Some(report.cost as f32);
            end.f = end.g;
            emit(&mut out, &end)?;
        }
        out.write_all(b"]}\n")?;
        Ok(written)
    }
}

/// One event as Posthoc reads it.
#[derive(Clone, Copy, Serialize)]
struct TraceEvent {
    #[serde(rename = "type")]
    kind: &'static str,
    id: u32,
    #[serde(rename = "pId")]
    p_id: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    g: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    f: Option<f32>,
    x: u32,
    y: u32,
}

impl Watcher for TraceRecorder {
    fn expanded(&mut self, place: Option<Place>, depth: u64, stats: &Stats) {
        self.recording = false;
        let board = self.pending_board.take();
        if self.stopped.is_some() {
            return;
        }
        let packed = match place {
            Some(place) => {
                if self.boards.is_some() {
                    return;
                }
                let Some(packed) = pack(place) else {
                    self.stop(format!(
                        "a place lies beyond row or column {MAX_SIDE}, which traces cannot \
                         number"
                    ));
                    return;
                };
                packed
            }
            None => {
                let Some(board) = board.filter(|_| self.records_boards) else {
                    self.stop(
                        "this puzzle's states are boards, not places on the picture: traces \
                         are written for grid mazes, Klondike and the car maze"
                            .into(),
                    );
                    return;
                };
                let n = board.squares.len();
                if !self.has_room(EXPANSION_BYTES + n * std::mem::size_of::<Square>() + 4) {
                    return;
                }
                let boards = self.boards.get_or_insert_with(|| Boards {
                    template: Picture {
                        squares: Vec::new(),
                        ..board.clone()
                    },
                    squares: Vec::new(),
                    frontier: Vec::new(),
                });
                let t = &boards.template;
                if (t.rows, t.cols) != (board.rows, board.cols) || t.rows * t.cols != n {
                    self.stop("the boards changed size during the run".into());
                    return;
                }
                if boards.squares.try_reserve(n).is_err() {
                    self.stop("the boards do not fit in memory".into());
                    return;
                }
                boards.squares.extend_from_slice(&board.squares);
                boards
                    .frontier
                    .push(u32::try_from(stats.frontier).unwrap_or(u32::MAX));
                NONE
            }
        };
        if self.boards.is_none() && !self.has_room(EXPANSION_BYTES) {
            return;
        }
        if self.expansions.try_reserve(1).is_err() {
            self.stop("the recording does not fit in memory".into());
            return;
        }
        if self.written() == 0 {
            self.sources = self.written_generated() as u32;
        }
        if stats.iterations as usize > self.taken.iterations + self.iterations.len() {
            self.iterations.push(self.written() as u32);
        }
        self.expansions.push(Expansion {
            place: packed,
            parent: NONE,
            g: f32::NAN,
            h: f32::NAN,
            depth: u32::try_from(depth).unwrap_or(u32::MAX),
            generated_end: self.written_generated() as u32,
        });
        self.recording = true;
    }

    fn scored(&mut self, place: Place, g: Cost, h: Option<Cost>, parent: Option<Place>) {
        if !self.recording {
            return;
        }
        let Some(last) = self.expansions.last_mut() else {
            return;
        };
        if pack(place) != Some(last.place & PLACE_MASK) {
            return;
        }
        last.g = g as f32;
        last.h = h.map_or(f32::NAN, |h| h as f32);
        last.parent = parent.and_then(pack).unwrap_or(NONE);
    }

    fn scored_board(&mut self, g: Cost, h: Option<Cost>) {
        if !self.recording {
            return;
        }
        if let Some(last) = self.expansions.last_mut()
            && last.place == NONE
        {
            last.g = g as f32;
            last.h = h.map_or(f32::NAN, |h| h as f32);
        }
    }

    fn wants_scores(&self) -> bool {
        true
    }

    fn wants_board(&self) -> bool {
        self.records_boards && self.stopped.is_none()
    }

    fn board(&mut self, picture: Picture) {
        self.pending_board = Some(picture);
    }

    fn generated(&mut self, place: Option<Place>) {
        if self.boards.is_some() || self.stopped.is_some() {
            return;
        }
        // The starts come before the first expansion; other states only while their
        // expansion is being recorded.
        if !self.recording && self.written() > 0 {
            return;
        }
        let Some(packed) = place.and_then(pack) else {
            return;
        };
        if self.written_generated() >= u32::MAX as usize
            || !self.has_room(GENERATED_BYTES)
            || self.generated.try_reserve(1).is_err()
        {
            self.stop(format!(
                "recording stopped after {} expansions: its memory budget is full",
                self.written()
            ));
            return;
        }
        self.generated.push(packed);
        let end = self.written_generated() as u32;
        if let Some(last) = self.expansions.last_mut() {
            last.generated_end = end;
        }
    }
}
