//! A recording handed over in chunks: what a writer took since its last chunk
//! ([`RecordChunk`]), appended by the store, whose emptied buffers ([`SpentChunk`]) go back to
//! the writer for its next chunks.

use super::*;

/// The most sets of buffers a writer keeps for its next chunks (a window takes several
/// chunks a frame: at full speed some 10 MB in all).
pub const MAX_SPARE: usize = 4;

/// The emptied buffers of a chunk a store has appended ([`TraceRecorder::append`]), to be
/// filled again by the writer that made it ([`TraceRecorder::recycle`]): their memory is
/// mapped already, so writing the next chunk takes no page fault a page (some 25,000 of them
/// for the 100 MB recording of a full-speed search on a 2048 x 2048 grid).
#[derive(Clone, Debug, Default)]
pub struct SpentChunk {
    expansions: Vec<Expansion>,
    generated: Vec<u32>,
    generated_scores: Vec<Score>,
}

impl SpentChunk {
    /// Buffers with room for `expansions` expansions and `generated` generated states and an
    /// eighth more, each page of them written once by the calling thread: made on another
    /// thread than the writer's (see `solver`), they spare the writer the page fault of
    /// each new page of its next chunk.
    pub fn warmed(expansions: usize, generated: usize) -> Self {
        fn warm<T: Copy>(len: usize, filler: T) -> Vec<T> {
            let mut buffer = Vec::with_capacity(len + len / 8);
            buffer.resize(buffer.capacity(), filler);
            buffer.clear();
            buffer
        }
        let empty = Expansion {
            place: NONE,
            parent: NONE,
            g: 0.0,
            h: 0.0,
            depth: 0,
            generated_end: 0,
        };
        Self {
            expansions: warm(expansions, empty),
            generated: warm(generated, 0),
            generated_scores: warm(generated, NO_SCORE),
        }
    }

    /// `buffer`, emptied, with room for `room` elements (its own memory when it has that
    /// much).
    pub(super) fn reuse<T>(mut buffer: Vec<T>, room: usize) -> Vec<T> {
        buffer.clear();
        if buffer.capacity() < room {
            buffer = Vec::with_capacity(room);
        }
        buffer
    }
}

/// What a writer has handed over in chunks already: its vectors hold only the rest.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Taken {
    /// Expansions taken (the writer's first expansion has this number).
    pub(super) expansions: usize,
    /// Generated states taken.
    pub(super) generated: usize,
    /// IDA* iteration starts taken.
    pub(super) iterations: usize,
    /// Bytes taken (counted against the budget).
    pub(super) bytes: u64,
    /// Whether the boards' template went out.
    pub(super) template: bool,
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
    /// Their `g` and `h`.
    generated_scores: Vec<Score>,
    sources: u32,
    /// IDA* iteration starts, following the store's.
    iterations: Vec<u32>,
    /// The boards' template, in the first chunk with a board.
    template: Option<Picture>,
    /// Boards' squares and frontier sizes, following the store's.
    squares: Vec<Square>,
    frontier: Vec<u32>,
    /// The squares of the boards put on the frontier, following the store's.
    generated_squares: Vec<Square>,
    stopped: Option<String>,
}

impl RecordChunk {
    /// The expansions this chunk adds to a store that holds `before` (the one it completes not
    /// counted).
    pub fn new_expansions(&self, before: usize) -> usize {
        (self.first + self.expansions.len()).saturating_sub(before)
    }

    /// Whether it completes the last expansion of a store that holds `before` (the
    /// successors that expansion generated after the previous chunk).
    pub fn completes_last(&self, before: usize) -> bool {
        before > 0 && self.first + 1 == before && !self.expansions.is_empty()
    }

    /// Its buffers, emptied.
    pub(super) fn spent(self) -> SpentChunk {
        SpentChunk {
            expansions: SpentChunk::reuse(self.expansions, 0),
            generated: SpentChunk::reuse(self.generated, 0),
            generated_scores: SpentChunk::reuse(self.generated_scores, 0),
        }
    }

    /// The expansions and the generated states it holds.
    pub fn sizes(&self) -> (usize, usize) {
        (self.expansions.len(), self.generated.len())
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
    /// Takes the events a writer recorded since its last chunk, for a store to
    /// [`TraceRecorder::append`]. The expansion under way (the last) is kept, to be completed
    /// by the successors and scores still to come, and sent again in the next chunk. Work and
    /// memory proportional to the events taken.
    pub fn take_chunk(&mut self) -> RecordChunk {
        let first = self.taken.expansions;
        // The next chunk gets room for as many events as this one held, so that the vectors
        // do not grow (copying themselves) again from nothing for every chunk.
        let room = (self.expansions.len(), self.generated.len());
        let spare = self.spare.pop().unwrap_or_default();
        let expansions = std::mem::replace(
            &mut self.expansions,
            SpentChunk::reuse(spare.expansions, room.0),
        );
        let generated = std::mem::replace(
            &mut self.generated,
            SpentChunk::reuse(spare.generated, room.1),
        );
        let generated_scores = std::mem::replace(
            &mut self.generated_scores,
            SpentChunk::reuse(spare.generated_scores, room.1),
        );
        let iterations = std::mem::take(&mut self.iterations);
        let (mut template, mut squares, mut frontier) = (None, Vec::new(), Vec::new());
        let mut generated_squares = Vec::new();
        let mut board_bytes = 0;
        if let Some(boards) = &mut self.boards {
            if !self.taken.template {
                template = Some(boards.template.clone());
                self.taken.template = true;
            }
            squares = std::mem::take(&mut boards.squares);
            frontier = std::mem::take(&mut boards.frontier);
            generated_squares = std::mem::take(&mut boards.generated);
            board_bytes = (squares.len() + generated_squares.len()) * std::mem::size_of::<Square>()
                + frontier.len() * 4;
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
            generated_scores,
            sources: self.sources,
            iterations,
            template,
            squares,
            frontier,
            generated_squares,
            stopped: self.stopped.clone(),
        }
    }

    /// Gives a writer the buffers of one of its chunks back, emptied by the store that
    /// appended it, to write its next chunks in (a few are kept; the rest are freed).
    pub fn recycle(&mut self, spent: SpentChunk) {
        if self.spare.len() < MAX_SPARE {
            self.spare.push(spent);
        }
    }

    /// Adds a writer's chunk to this store and indexes it (see [`TraceRecorder::take_chunk`]):
    /// work proportional to the chunk. A chunk that does not follow the store's last (one was
    /// lost) stops the store with a note instead. Returns the chunk's buffers, emptied, for
    /// the writer to [`TraceRecorder::recycle`].
    pub fn append(&mut self, mut chunk: RecordChunk) -> SpentChunk {
        if let Some(why) = chunk.stopped.take() {
            self.stopped.get_or_insert(why);
        }
        let mut new = chunk.expansions.drain(..);
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
            drop(new);
            return chunk.spent();
        }
        self.sources = chunk.sources;
        self.expansions.extend(new);
        self.generated.extend_from_slice(&chunk.generated);
        self.generated_scores
            .extend_from_slice(&chunk.generated_scores);
        // A chunk of another make (without scores) keeps the two streams aligned.
        self.generated_scores.resize(self.generated.len(), NO_SCORE);
        self.iterations.extend_from_slice(&chunk.iterations);
        if let Some(template) = chunk.template.take() {
            self.boards.get_or_insert(Boards {
                template,
                squares: Vec::new(),
                frontier: Vec::new(),
                generated: Vec::new(),
            });
        }
        if let Some(boards) = &mut self.boards {
            boards.squares.extend(std::mem::take(&mut chunk.squares));
            boards.frontier.extend(std::mem::take(&mut chunk.frontier));
            boards
                .generated
                .extend(std::mem::take(&mut chunk.generated_squares));
        }
        self.index_new();
        chunk.spent()
    }
}
