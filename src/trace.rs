//! Recording a run's search events compactly and writing them as a search trace in the
//! format of Posthoc, the research trace viewer of the Shortest Path Lab (trace format
//! version 1.4.0: a `views` section that draws each event as a one-by-one `rect` at its `x`,
//! `y`, and a list of `events` of type `source`, `destination`, `generating`, `expanding`,
//! `closing` and `end`, each with `id` and, where known, `pId`, `g`, `f`, `x`, `y`).
//!
//! Traces are made for puzzles whose states are places on the picture (grid mazes, Klondike,
//! the car maze): a state's `id` is its place (row, column and side packed in one number),
//! `x` its column and `y` its row, origin at the top left. Board puzzles (sliding tiles,
//! Klotski) have no place per state and are refused.

use std::io::{self, Write};

use serde::Serialize;

use crate::puzzles::{Place, Report, Watcher};
use crate::search::{Cost, Stats};

/// Bytes an event takes in memory.
pub const EVENT_BYTES: usize = std::mem::size_of::<Event>();

/// The packed value of "no place".
const NONE: u32 = u32::MAX;
/// Rows and columns of places that a packed place can hold (12 bits each).
const MAX_SIDE: usize = 1 << 12;
/// The event kinds, in the top bits of [`Event::place`].
const KIND_SHIFT: u32 = 30;
const EXPANDING: u32 = 0;
const GENERATING: u32 = 1;

/// One recorded event (16 bytes): what happened to which place, the place it was reached
/// from, and for an expansion its `g` and `h` (NaN when the algorithm gave none).
#[derive(Clone, Copy, Debug)]
struct Event {
    /// The kind in bits 30-31, the place (see [`pack`]) below.
    place: u32,
    /// The packed place reached from, or [`NONE`].
    parent: u32,
    g: f32,
    h: f32,
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

/// A [`Watcher`] that records every expansion and every generated state of a run, up to a
/// memory budget, for [`TraceRecorder::write_posthoc`].
#[derive(Debug)]
pub struct TraceRecorder {
    events: Vec<Event>,
    max_events: usize,
    /// The packed place being expanded (the parent of what is generated now), or [`NONE`].
    current: u32,
    /// Where that expansion's event is in `events`.
    expanding: Option<usize>,
    /// Why recording stopped before the run ended, if it did.
    stopped: Option<String>,
}

impl TraceRecorder {
    /// A recorder that keeps at most `max_bytes` of events ([`EVENT_BYTES`] each).
    pub fn new(max_bytes: u64) -> Self {
        Self {
            events: Vec::new(),
            max_events: usize::try_from(max_bytes / EVENT_BYTES as u64).unwrap_or(usize::MAX),
            current: NONE,
            expanding: None,
            stopped: None,
        }
    }

    /// Events recorded.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Why recording stopped before the run ended (the budget was full, or the puzzle's
    /// states have no places); `None` when the recording is complete.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    fn record(&mut self, kind: u32, place: Option<Place>, parent: u32) -> Option<u32> {
        if self.stopped.is_some() {
            return None;
        }
        let Some(place) = place else {
            self.stopped = Some(
                "this puzzle's states are boards, not places on the picture: traces are \
                 written for grid mazes, Klondike and the car maze"
                    .into(),
            );
            return None;
        };
        let Some(packed) = pack(place) else {
            self.stopped = Some(format!(
                "a place lies beyond row or column {MAX_SIDE}, which traces cannot number"
            ));
            return None;
        };
        if self.events.len() >= self.max_events || self.events.try_reserve(1).is_err() {
            self.stopped = Some(format!(
                "recording stopped after {} events: its memory budget of {} MiB is full",
                self.events.len(),
                (self.max_events * EVENT_BYTES) >> 20
            ));
            return None;
        }
        self.events.push(Event {
            place: kind << KIND_SHIFT | packed,
            parent,
            g: f32::NAN,
            h: f32::NAN,
        });
        Some(packed)
    }

    /// Writes the recording as a Posthoc trace (JSON) of the run that `report` describes:
    /// a `source` event for each start, a `destination` for the goal reached, the recorded
    /// events in order (each expansion `closing` before the next begins) and an `end` at the
    /// goal.
    ///
    /// # Errors
    /// What writing to `out` returns.
    pub fn write_posthoc(&self, report: &Report, mut out: impl Write) -> io::Result<()> {
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
        let mut first = true;
        let mut emit = |out: &mut dyn Write, event: &TraceEvent| -> io::Result<()> {
            if !std::mem::take(&mut first) {
                out.write_all(b",\n")?;
            }
            serde_json::to_writer(&mut *out, event).map_err(io::Error::other)
        };
        let at = |packed: u32, kind: &'static str| {
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
        for e in &self.events {
            if e.place >> KIND_SHIFT == GENERATING && e.parent == NONE {
                emit(&mut out, &at(e.place & !(3 << KIND_SHIFT), "source"))?;
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
        let mut open: Option<TraceEvent> = None;
        for e in &self.events {
            let packed = e.place & !(3 << KIND_SHIFT);
            let mut event = at(packed, "generating");
            event.p_id = (e.parent != NONE).then_some(e.parent);
            if e.place >> KIND_SHIFT == EXPANDING {
                if let Some(closing) = open.take() {
                    emit(&mut out, &closing)?;
                }
                event.kind = "expanding";
                if !e.g.is_nan() {
                    event.g = Some(e.g);
                    event.f = Some(e.g + if e.h.is_nan() { 0.0 } else { e.h });
                }
                emit(&mut out, &event)?;
                open = Some(TraceEvent {
                    kind: "closing",
                    ..event
                });
            } else {
                emit(&mut out, &event)?;
            }
        }
        if let Some(closing) = open.take() {
            emit(&mut out, &closing)?;
        }
        if let Some(goal) = goal {
            let mut end = at(goal, "end");
            let parent = report.path.iter().rev().nth(1).and_then(|&p| pack(p));
            end.p_id = parent;
            end.g = Some(report.cost as f32);
            end.f = end.g;
            emit(&mut out, &end)?;
        }
        out.write_all(b"]}\n")
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
    fn expanded(&mut self, place: Option<Place>, _depth: u64, _stats: &Stats) {
        self.current = self.record(EXPANDING, place, NONE).unwrap_or(NONE);
        self.expanding = (self.current != NONE).then(|| self.events.len() - 1);
    }

    fn scored(&mut self, place: Place, g: Cost, h: Option<Cost>, parent: Option<Place>) {
        if pack(place) != Some(self.current) {
            return;
        }
        let Some(last) = self.expanding.and_then(|i| self.events.get_mut(i)) else {
            return;
        };
        last.g = g as f32;
        last.h = h.map_or(f32::NAN, |h| h as f32);
        last.parent = parent.and_then(pack).unwrap_or(NONE);
    }

    fn wants_scores(&self) -> bool {
        true
    }

    fn generated(&mut self, place: Option<Place>) {
        let parent = self.current;
        self.record(GENERATING, place, parent);
    }
}
