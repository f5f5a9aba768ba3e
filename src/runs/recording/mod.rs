//! Recording a run's search events compactly, replaying them to any moment (the app's
//! timeline), and writing them as a search trace in the format of Posthoc, the research trace
//! viewer of the Shortest Path Lab (trace format version 1.4.0: a `views` section that draws
//! each event as a one-by-one `rect` at its `x`, `y`, and a list of `events` of type `source`,
//! `destination`, `generating`, `updating`, `expanding`, `closing` and `end`, each with `id`
//! and, where known, `pId`, `g`, `f`, `x`, `y`).
//!
//! A recording is two streams: one record per expansion ([`EXPANSION_BYTES`]: the state's
//! place, the place it was reached from, `g`, `h`, depth, and where its successors end) and one
//! entry per state put on the frontier ([`GENERATED_BYTES`]: its place, and the `g` and `h` it
//! was put there with), the successors of each expansion following it. IDA*'s iterations are kept as the expansion each begins at.
//! After the run, [`TraceRecorder::finish`] marks each place's first expansion and first
//! generation (a later expansion is a re-expansion; a later generation an update of the
//! state's entry) and builds an index from each place to its first expansion.
//!
//! Places are the states of grid mazes, Klondike and the car maze: a state's `id` in a trace
//! is its place (row, column and side packed in one number), `x` its column and `y` its row,
//! origin at the top left. Board puzzles (sliding tiles, Klotski) have no place per state: a
//! recorder made with [`TraceRecorder::with_boards`] keeps each expanded state's board instead
//! (for the timeline), and none is written as a trace.

mod chunks;
mod index;
mod posthoc;
mod replay;
mod writer;

use std::io::{self, Write};

use serde::Serialize;

use crate::puzzles::{Cell, Picture, Place, Report, Side, Square, Watcher};
use crate::search::{Cost, Stats};

use chunks::Taken;
pub use chunks::{MAX_SPARE, RecordChunk, SpentChunk};

/// Bytes an expansion takes in a recording.
pub const EXPANSION_BYTES: usize = std::mem::size_of::<Expansion>();
/// Bytes a state put on the frontier takes in a recording: its place, and the `g` and `h` it
/// was put there with.
pub const GENERATED_BYTES: usize = std::mem::size_of::<u32>() + std::mem::size_of::<Score>();

/// The `g` and `h` of a state put on the frontier (NaN when not given).
type Score = (f32, f32);

/// The score of a state put on the frontier whose scores were not given.
const NO_SCORE: Score = (f32::NAN, f32::NAN);

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
/// The index value of "not expanded": an expansion `j` is kept as `j + 1`, so a new index
/// is zeroed memory, which the system hands out untouched (no frame spends time filling it).
const NOT_EXPANDED: u32 = 0;

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
    Some(pack_cell(row, col) | side)
}

/// The packed place (see [`pack`]) of the square at `row`, `col`, both below [`MAX_SIDE`].
#[inline]
fn pack_cell(row: usize, col: usize) -> u32 {
    (row as u32) << 15 | (col as u32) << 3
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
    /// `template.squares.len()` squares a state put on the frontier, in the order of the
    /// generated stream (whose entries are [`NONE`] for boards).
    generated: Vec<Square>,
}

/// Where each place was first expanded, plus one (0 for never, [`NOT_EXPANDED`]):
/// `first[(row * cols + col) * sides + side]`, with
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
    /// Which recording this is (see [`RecordingId`]): what caches of a run are kept under.
    id: RecordingId,
    expansions: Vec<Expansion>,
    generated: Vec<u32>,
    /// The `g` and `h` of each state of `generated` (one a state).
    generated_scores: Vec<Score>,
    /// Whether the last state reported generated was recorded, its score still to come.
    awaiting_score: bool,
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
    /// The board given for the next state put on the frontier.
    pending_generated: Option<Picture>,
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
    /// A writer's buffers given back by the store its chunks went to, for the next chunks
    /// (see [`TraceRecorder::recycle`]); at most [`MAX_SPARE`].
    spare: Vec<SpentChunk>,
}

/// A recording's identity, which no other recording of the process ever has: the key of
/// what is cached about a run (its open lists). A recording's address is no such key: a new
/// run's recording may be made where a dropped one was. A clone is another recording (it can
/// be changed apart from the original), so it is given an identity of its own.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct RecordingId(u64);

/// The next [`RecordingId`].
static NEXT_RECORDING_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl RecordingId {
    /// An identity not given before.
    fn fresh() -> Self {
        Self(NEXT_RECORDING_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }

    /// The number (from 1, in the order the recordings were made).
    pub fn get(&self) -> u64 {
        self.0
    }
}

impl Clone for RecordingId {
    fn clone(&self) -> Self {
        Self::fresh()
    }
}

impl TraceRecorder {
    /// A recorder of places that keeps at most `max_bytes` of events; a board puzzle stops
    /// it with a note (see [`TraceRecorder::stopped`]).
    pub fn new(max_bytes: u64) -> Self {
        Self {
            id: RecordingId::fresh(),
            expansions: Vec::new(),
            generated: Vec::new(),
            generated_scores: Vec::new(),
            awaiting_score: false,
            sources: 0,
            iterations: Vec::new(),
            boards: None,
            records_boards: false,
            pending_board: None,
            pending_generated: None,
            max_bytes,
            recording: true,
            stopped: None,
            index: None,
            taken: Taken::default(),
            dims: (0, 0),
            unindexable: false,
            spare: Vec::new(),
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

    /// Its identity, which no other recording has (see [`RecordingId`]).
    pub fn id(&self) -> u64 {
        self.id.get()
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

    /// Expansions a writer recorded since its last chunk (see [`TraceRecorder::take_chunk`]),
    /// the one still under way included.
    pub fn pending_expansions(&self) -> usize {
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

    /// Whether the recording holds boards and the boards put on the frontier (a board
    /// puzzle's run recorded with [`TraceRecorder::with_boards`]).
    pub fn has_generated_boards(&self) -> bool {
        self.boards
            .as_ref()
            .is_some_and(|b| !b.generated.is_empty())
    }

    /// Bytes the events take (the index not counted); a writer counts those it handed over.
    pub fn bytes(&self) -> u64 {
        let boards = self.boards.as_ref().map_or(0, |b| {
            (b.squares.len() + b.generated.len()) * std::mem::size_of::<Square>()
                + b.frontier.len() * 4
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
}
