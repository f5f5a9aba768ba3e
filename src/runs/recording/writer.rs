//! Writing a recording: the [`Watcher`] a search reports to.

use super::*;
use crate::search::GridBlock;
use crate::search::grid_block::{NO_SQUARE, unpack_square};

impl Watcher for TraceRecorder {
    fn expanded(&mut self, place: Option<Place>, depth: u64, stats: &Stats) {
        self.recording = false;
        self.awaiting_score = false;
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
                let Some(boards) = self.boards_for(&board) else {
                    return;
                };
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
        // (A board's score comes through `scored_board`.)
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

    fn scored_generated(&mut self, g: Cost, h: Option<Cost>) {
        // The last state put on the frontier, if it was recorded (its score follows it).
        if std::mem::take(&mut self.awaiting_score)
            && let Some(last) = self.generated_scores.last_mut()
        {
            *last = (g as f32, h.map_or(f32::NAN, |h| h as f32));
        }
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

    fn wants_generated_boards(&self) -> bool {
        self.records_boards && self.stopped.is_none()
    }

    fn generated_board(&mut self, picture: Picture) {
        self.pending_generated = Some(picture);
    }

    fn generated(&mut self, place: Option<Place>) {
        self.awaiting_score = false;
        let board = self.pending_generated.take();
        if self.stopped.is_some() {
            return;
        }
        if place.is_none() && self.records_boards {
            if self.recording || self.written() == 0 {
                self.generated_board_of(board);
            }
            return;
        }
        if self.boards.is_some() {
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
            || self.generated_scores.try_reserve(1).is_err()
        {
            self.stop(format!(
                "recording stopped after {} expansions: its memory budget is full",
                self.written()
            ));
            return;
        }
        self.generated.push(packed);
        self.generated_scores.push(NO_SCORE);
        self.awaiting_score = true;
        let end = self.written_generated() as u32;
        if let Some(last) = self.expansions.last_mut() {
            last.generated_end = end;
        }
    }

    /// Copies the block's expansions and new states as they are told one by one
    /// ([`crate::puzzles::tell_grid_block`], which it falls back on when the block does not
    /// fit the budget or the places cannot be numbered, so the recording stops where it
    /// would have).
    fn grid_block(&mut self, block: &GridBlock) {
        let (n, g) = (block.len(), block.generated.len());
        let fits = self.stopped.is_none()
            && self.boards.is_none()
            && block.rows <= MAX_SIDE
            && block.cols <= MAX_SIDE
            && (self.written_generated() + g) < u32::MAX as usize
            && self.bytes() + (n * EXPANSION_BYTES + g * GENERATED_BYTES) as u64 <= self.max_bytes
            && self.expansions.try_reserve(n).is_ok()
            && self.generated.try_reserve(g).is_ok()
            && self.generated_scores.try_reserve(g).is_ok();
        if !fits || n == 0 {
            crate::puzzles::tell_grid_block(self, block);
            return;
        }
        self.pending_board = None;
        if self.written() == 0 {
            self.sources = self.written_generated() as u32;
        }
        let base = self.written_generated() as u32;
        // Every row and column is below MAX_SIDE (checked above).
        let place = |square: u32| {
            let (row, col) = unpack_square(square);
            pack_cell(row, col)
        };
        let expansions = (block.expanded.iter().zip(&block.depth))
            .zip(block.parent.iter().zip(&block.generated_end))
            .map(|((&square, &depth), (&parent, &end))| Expansion {
                place: place(square),
                parent: if parent == NO_SQUARE {
                    NONE
                } else {
                    place(parent)
                },
                g: depth as f32,
                h: f32::NAN,
                depth,
                generated_end: base + end,
            });
        self.expansions.extend(expansions);
        self.generated
            .extend(block.generated.iter().map(|&square| place(square)));
        let mut begin = 0;
        for (&depth, &end) in block.depth.iter().zip(&block.generated_end) {
            let score = ((depth + 1) as f32, f32::NAN);
            let count = (end as usize).saturating_sub(begin);
            self.generated_scores
                .extend(std::iter::repeat_n(score, count));
            begin = begin.max(end as usize);
        }
        self.recording = true;
        self.awaiting_score = false;
    }
}

impl TraceRecorder {
    /// The boards of this recording, made with `board` as their template if there are none
    /// yet; `None` (the recording stopped, with a note) if `board` is not of their size or
    /// memory is short.
    fn boards_for(&mut self, board: &Picture) -> Option<&mut Boards> {
        let n = board.squares.len();
        let boards = self.boards.get_or_insert_with(|| Boards {
            template: Picture {
                squares: Vec::new(),
                ..board.clone()
            },
            squares: Vec::new(),
            frontier: Vec::new(),
            generated: Vec::new(),
        });
        let t = &boards.template;
        if (t.rows, t.cols) != (board.rows, board.cols) || t.rows * t.cols != n {
            self.stop("the boards changed size during the run".into());
            return None;
        }
        if boards.squares.try_reserve(n).is_err() || boards.generated.try_reserve(n).is_err() {
            self.stop("the boards do not fit in memory".into());
            return None;
        }
        self.boards.as_mut()
    }

    /// Records a board put on the frontier (`None`: the watcher gave no picture of it, and
    /// none is recorded: the recording then has no open list, see
    /// [`TraceRecorder::has_generated_boards`]).
    fn generated_board_of(&mut self, board: Option<Picture>) {
        let Some(board) = board else {
            return;
        };
        let n = board.squares.len();
        if self.written_generated() >= u32::MAX as usize
            || !self.has_room(GENERATED_BYTES + n * std::mem::size_of::<Square>())
            || self.generated.try_reserve(1).is_err()
            || self.generated_scores.try_reserve(1).is_err()
        {
            self.stop(format!(
                "recording stopped after {} expansions: its memory budget is full",
                self.written()
            ));
            return;
        }
        let Some(boards) = self.boards_for(&board) else {
            return;
        };
        boards.generated.extend_from_slice(&board.squares);
        self.generated.push(NONE);
        self.generated_scores.push(NO_SCORE);
        self.awaiting_score = true;
        let end = self.written_generated() as u32;
        if let Some(last) = self.expansions.last_mut() {
            last.generated_end = end;
        }
    }
}
