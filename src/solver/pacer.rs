//! The solver thread's watcher ([`Pacer`]): it writes the run's recording, hands it over in
//! progress events (batched, see [`super::MAX_IN_FLIGHT`]), paces the search at the asked
//! speed, pauses and single-steps it, and stops it at a breakpoint.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::warmer::{WARM_AHEAD, WARM_FROM};
use super::{
    Command, Event, FRAME, FULL_SPEED_FLUSH, FULL_SPEED_FRAME, GRID_BLOCK, LOOK_EVERY,
    MAX_CHUNK_EXPANSIONS, MAX_IN_FLIGHT, POLL, Progress, Speed,
};
use crate::puzzles::{Picture, Place, Watcher};
use crate::runs::breakpoints::BreakpointCheck;
use crate::runs::recording::{SpentChunk, TraceRecorder};
use crate::search::{CancelToken, Cost, GridBlock, Stats};

/// The observer on the solver thread: collects progress, sends it, and paces the search.
pub(super) struct Pacer {
    pub(super) commands: Receiver<Command>,
    /// Buffers given back by the window (see [`SolverHandle::recycle`]) and made by the
    /// warmer (see [`warmer::spawn_warmer`]).
    pub(super) spent: Receiver<SpentChunk>,
    /// Asks the warmer for buffers for a chunk of these sizes; `None` without a warmer.
    pub(super) warm_requests: Option<Sender<(usize, usize)>>,
    /// Whether the warmer was asked for its first few buffers.
    pub(super) warm_primed: bool,
    pub(super) events: Sender<Event>,
    /// Progress events sent and not yet taken by the window.
    pub(super) in_flight: Arc<AtomicUsize>,
    pub(super) cancel: CancelToken,
    pub(super) wake: Arc<dyn Fn() + Send + Sync>,
    pub(super) speed: Speed,
    pub(super) paused: bool,
    /// Steps asked for while paused and not yet taken.
    pub(super) pending_steps: u32,
    pub(super) batch: Progress,
    /// States generated since the last event.
    pub(super) generated_count: u64,
    /// States expanded per depth and per IDA* iteration, whole run.
    pub(super) layers: Vec<u64>,
    pub(super) iteration_nodes: Vec<u64>,
    pub(super) last_flush: Instant,
    /// When the window was last woken (see [`Pacer::send`]).
    pub(super) last_wake: Option<Instant>,
    /// Expansions since the last look at the commands and the clock (full speed).
    pub(super) since_look: u32,
    /// Whether a full-speed batch was due at the last look: the picture of the state
    /// expanded then is wanted (see [`Pacer::path_wanted`]).
    pub(super) flush_due: bool,
    /// When the next expansion may happen at a finite speed.
    pub(super) due: Instant,
    /// How long the search has waited paused: its time excludes it.
    pub(super) paused_for: Duration,
    /// Whether the expansion about to be written was paced already (before it was counted,
    /// or at its board, which a board puzzle's search gives first).
    pub(super) held: bool,
    /// Writes every expansion and generated state (and a board puzzle's boards); each
    /// event takes what it wrote since the last.
    pub(super) recorder: TraceRecorder,
    /// The breakpoints and what checking them remembers.
    pub(super) breaks: BreakpointCheck,
}

impl Pacer {
    /// Sends `event` at once: the channel is unbounded, so the search never waits for the
    /// window (see [`MAX_IN_FLIGHT`] for what keeps it small).
    ///
    /// It wakes the window, but at full speed at most once a [`FULL_SPEED_FRAME`] for plain
    /// progress: the window then draws that often while the run goes, not once for each
    /// chunk (some 300 a second), each frame's work competing with the search.
    pub(super) fn send(&mut self, event: Event) {
        let steady = matches!(&event, Event::Progress(p) if p.breakpoint.is_none())
            && self.speed.is_infinite()
            && !self.paused;
        if matches!(event, Event::Progress(_)) {
            self.in_flight.fetch_add(1, Ordering::AcqRel);
        }
        if self.events.send(event).is_err() {
            // The UI dropped its handle: nobody is watching any more.
            self.cancel.cancel();
            return;
        }
        if !steady
            || self
                .last_wake
                .is_none_or(|at| at.elapsed() >= FULL_SPEED_FRAME)
        {
            self.last_wake = Some(Instant::now());
            (self.wake)();
        }
    }

    /// Whether the window has taken all but a few of the events sent: a batch sent now is
    /// drawn soon. Otherwise the batch keeps growing until then (or until its chunk is full).
    fn window_keeps_up(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) < MAX_IN_FLIGHT
    }

    /// Whether the recording's events not yet sent make a full chunk (see
    /// [`MAX_CHUNK_EXPANSIONS`]): it goes out whether the window keeps up or not.
    fn chunk_is_full(&self) -> bool {
        self.recorder.pending_expansions() as u64 >= MAX_CHUNK_EXPANSIONS
    }

    pub(super) fn flush(&mut self) {
        // A breakpoint that fires on a score (g, f going down) comes after its expansion
        // was sent: it goes out alone.
        if self.batch.expanded_count == 0
            && self.generated_count == 0
            && self.batch.breakpoint.is_none()
        {
            return;
        }
        self.generated_count = 0;
        while let Ok(spent) = self.spent.try_recv() {
            self.recorder.recycle(spent);
        }
        self.batch.chunk = self.recorder.take_chunk();
        self.ask_warmer();
        let mut batch = std::mem::take(&mut self.batch);
        batch.layers.clone_from(&self.layers);
        batch.iteration_nodes.clone_from(&self.iteration_nodes);
        // The batch kept carries the search's own figures: a flush with no expansion since
        // the last (the final one) must not take the pauses out twice.
        self.batch.stats = batch.stats.clone();
        self.exclude_pauses(&mut batch.stats);
        self.last_flush = Instant::now();
        self.flush_due = false;
        self.send(Event::Progress(batch));
    }

    /// After a large chunk (a full-speed run's), asks the warmer for buffers like it for a
    /// chunk to come: a few ahead the first time, then one for each taken.
    fn ask_warmer(&mut self) {
        let (expansions, generated) = self.batch.chunk.sizes();
        let Some(requests) = &self.warm_requests else {
            return;
        };
        if expansions < WARM_FROM {
            return;
        }
        let ahead = if self.warm_primed { 1 } else { WARM_AHEAD };
        self.warm_primed = true;
        for _ in 0..ahead {
            if requests.send((expansions, generated)).is_err() {
                self.warm_requests = None;
                return;
            }
        }
    }

    fn apply(&mut self, command: Command) {
        match command {
            Command::Pause => self.paused = true,
            Command::Resume => {
                self.paused = false;
                self.pending_steps = 0;
                self.due = Instant::now();
            }
            Command::Step => self.pending_steps += 1,
            Command::SetSpeed(speed) => {
                self.speed = speed;
                self.due = Instant::now();
            }
            Command::SetBreakpoints(breakpoints) => self.breaks.set(breakpoints),
        }
    }

    /// Handles commands, then waits as long as the pace asks. Returns when the next expansion
    /// may go ahead.
    fn pace(&mut self) {
        if self.speed.is_infinite() && !self.paused {
            // A batch found due at the last look goes with this expansion, whose picture
            // was taken for it (see `path_wanted`).
            if (self.flush_due && self.window_keeps_up()) || self.chunk_is_full() {
                self.flush();
            }
            self.since_look += 1;
            if self.since_look < LOOK_EVERY {
                return;
            }
            self.since_look = 0;
            self.flush_due = self.last_flush.elapsed() >= FULL_SPEED_FLUSH;
        }
        while let Ok(command) = self.commands.try_recv() {
            self.apply(command);
        }
        if self.paused {
            self.flush();
            let paused_at = Instant::now();
            while self.paused && !self.cancel.is_cancelled() {
                if self.pending_steps > 0 {
                    self.pending_steps -= 1;
                    self.paused_for += paused_at.elapsed();
                    return;
                }
                match self.commands.recv_timeout(POLL) {
                    Ok(command) => self.apply(command),
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => self.cancel.cancel(),
                }
            }
            self.paused_for += paused_at.elapsed();
        }
        if self.speed.is_finite() {
            if ((self.last_flush.elapsed() >= FRAME || self.speed < 60.0) && self.window_keeps_up())
                || self.chunk_is_full()
            {
                self.flush();
            }
            let interval = Duration::from_secs_f64(1.0 / self.speed.max(0.1));
            self.due = self.due.max(Instant::now() - interval) + interval;
            while !self.cancel.is_cancelled() && !self.paused {
                let now = Instant::now();
                if now >= self.due {
                    break;
                }
                match self.commands.recv_timeout((self.due - now).min(POLL)) {
                    Ok(command) => self.apply(command),
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => self.cancel.cancel(),
                }
            }
        }
    }

    /// Pauses the run for a breakpoint that fired (`why`, in words): the pace before the
    /// next expansion (or at the run's end, see [`Pacer::hold_at_breakpoint`]) sends what
    /// was done up to there, with the reason, so the pause falls with the expansion whole
    /// (its successors recorded) whether it fired on the expansion, its score or a state
    /// it generated.
    fn fire(&mut self, why: Option<String>) {
        let Some(why) = why else {
            return;
        };
        self.paused = true;
        self.pending_steps = 0;
        self.batch.breakpoint = Some(why);
    }

    /// At the run's end, a breakpoint that fired on its last expansion (the goal's, or a
    /// state it generated) and was not paused at yet: the run pauses there before it
    /// ends, and Resume or Step lets it end.
    pub(super) fn hold_at_breakpoint(&mut self) {
        if self.batch.breakpoint.is_some() && self.paused {
            self.pace();
        }
    }

    /// Takes the time spent paused out of `stats`' time (see [`without_pauses`]).
    pub(super) fn exclude_pauses(&self, stats: &mut Stats) {
        without_pauses(stats, self.paused_for);
    }

    /// Whether nobody watches the states one by one: full speed, not paused, no breakpoint
    /// to check. A search may then report its figures alone, or a grid's BFS its expansions
    /// in blocks.
    fn unwatched(&self) -> bool {
        self.speed.is_infinite() && !self.paused && !self.breaks.breakpoints.any()
    }

    fn path_wanted(&self) -> bool {
        self.speed.is_finite() || self.paused || self.flush_due
    }
}

/// Takes `paused`, the time a run waited paused, out of `stats`' time (the search's own
/// clock, which ran on while its watcher held it), and notes it as [`Stats::paused_ms`].
fn without_pauses(stats: &mut Stats, paused: Duration) {
    let paused_ms = paused.as_secs_f64() * 1000.0;
    stats.elapsed_ms = (stats.elapsed_ms - paused_ms).max(0.0);
    stats.paused_ms = paused_ms;
}

/// Adds one at `index`, growing `counts` as needed.
fn count(counts: &mut Vec<u64>, index: usize) {
    count_many(counts, index, 1);
}

/// Adds `n` at `index`, growing `counts` as needed.
fn count_many(counts: &mut Vec<u64>, index: usize, n: u64) {
    if counts.len() <= index {
        counts.resize(index + 1, 0);
    }
    counts[index] += n;
}

impl Watcher for Pacer {
    /// Paces before the expansion is counted and written: a pause (a step's end, a
    /// breakpoint on an expansion) then falls once the last expansion's successors are
    /// recorded, so the newest moment the window shows is whole (its state and every state
    /// it put on the frontier); and the search looks at its stop after this returns, so a
    /// Stop pressed while paused ends the run with the expansions the window showed. The
    /// batch sent then carries `stats`, the figures of those expansions whole: the ones
    /// told with the last expansion were counted before its successors, which the batch's
    /// chunk holds (the panel said "States generated 0, Frontier 0" beside the 4 squares
    /// Klondike's first step put on the frontier).
    fn before_expansion(&mut self, stats: &Stats) {
        self.batch.stats.clone_from(stats);
        if !self.held {
            self.pace();
            self.held = true;
        }
    }

    /// Paces here only for a search that did not call [`Watcher::before_expansion`].
    fn expanded(&mut self, place: Option<Place>, depth: u64, stats: &Stats) {
        if !std::mem::take(&mut self.held) {
            self.pace();
        }
        self.recorder.expanded(place, depth, stats);
        self.batch.expanded_count += 1;
        self.batch.stats = stats.clone();
        count(&mut self.layers, depth as usize);
        if stats.iterations > 0 {
            count(&mut self.iteration_nodes, stats.iterations as usize - 1);
        }
        // No breakpoint set (the usual case): nothing to check, at millions of states a second.
        if self.breaks.breakpoints.any() {
            let why = self.breaks.on_expanded(place, depth, stats);
            self.fire(why);
        }
    }

    /// A breakpoint on a state generated pauses once the expansion generating it is whole
    /// (at the next expansion's pace, or at the run's end).
    fn generated(&mut self, place: Option<Place>) {
        self.recorder.generated(place);
        self.generated_count += 1;
        if self.breaks.breakpoints.any() {
            let why = self.breaks.on_generated(place);
            self.fire(why);
        }
    }

    fn wants_scores(&self) -> bool {
        true
    }

    fn scored_generated(&mut self, g: Cost, h: Option<Cost>) {
        self.recorder.scored_generated(g, h);
    }

    fn scored(&mut self, place: Place, g: Cost, h: Option<Cost>, parent: Option<Place>) {
        self.recorder.scored(place, g, h, parent);
        if self.breaks.breakpoints.any() {
            let why = self.breaks.on_scored(Some(place), g, h, parent);
            self.fire(why);
        }
    }

    fn scored_board(&mut self, g: Cost, h: Option<Cost>) {
        self.recorder.scored_board(g, h);
        if self.breaks.breakpoints.any() {
            let why = self.breaks.on_scored(None, g, h, None);
            self.fire(why);
        }
    }

    fn wants_board(&self) -> bool {
        self.path_wanted() || self.recorder.wants_board()
    }

    /// At full speed: a search that large is not recorded state by state.
    fn takes_figures(&self) -> bool {
        self.unwatched()
    }

    fn figures(&mut self, stats: &Stats) -> bool {
        while let Ok(command) = self.commands.try_recv() {
            self.apply(command);
        }
        let done = self.batch.stats.expanded;
        self.batch.expanded_count += stats.expanded.saturating_sub(done);
        if stats.iterations > 0 {
            let iteration = stats.iterations as usize - 1;
            let before: u64 = self.iteration_nodes.iter().take(iteration).sum();
            if self.iteration_nodes.len() <= iteration {
                self.iteration_nodes.resize(iteration + 1, 0);
            }
            self.iteration_nodes[iteration] = stats.expanded.saturating_sub(before);
        }
        self.batch.stats = stats.clone();
        self.batch.unrecorded = true;
        if (self.last_flush.elapsed() >= FULL_SPEED_FLUSH && self.window_keeps_up()) || self.paused
        {
            self.flush();
        }
        if self.paused && self.pending_steps > 0 {
            // A step lets the fast core run to its next report (some 65,000 expansions).
            self.pending_steps -= 1;
            return false;
        }
        self.paused && !self.cancel.is_cancelled()
    }

    fn wants_generated_boards(&self) -> bool {
        self.recorder.wants_generated_boards()
    }

    fn generated_board(&mut self, picture: Picture) {
        self.recorder.generated_board(picture);
    }

    /// The first of an expansion's events when given: the pace of the expansion is kept
    /// here (see [`Watcher::expanded`]).
    fn board(&mut self, picture: Picture) {
        if !self.held {
            self.pace();
            self.held = true;
        }
        if self.path_wanted() {
            self.batch.board = Some(picture.clone());
        }
        self.recorder.board(picture);
    }

    /// At full speed with no breakpoint, blocks; else each event, paced.
    fn grid_block_len(&self) -> usize {
        if self.unwatched() { GRID_BLOCK } else { 0 }
    }

    fn grid_block(&mut self, block: &GridBlock) {
        self.recorder.grid_block(block);
        self.batch.expanded_count += block.len() as u64;
        self.generated_count += block.generated.len() as u64;
        self.batch.stats = block.last_stats();
        // A run of expansions at one depth at a time (breadth-first: a few runs a block).
        for run in block.depth.chunk_by(|a, b| a == b) {
            if let Some(&depth) = run.first() {
                count_many(&mut self.layers, depth as usize, run.len() as u64);
            }
        }
        // One look at the pace for the block, as for its last expansion.
        let skipped = u32::try_from(block.len().saturating_sub(1)).unwrap_or(u32::MAX);
        self.since_look = self.since_look.saturating_add(skipped);
        self.pace();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runs_time_leaves_its_pauses_out_and_notes_them() {
        let mut stats = Stats {
            elapsed_ms: 500.0,
            ..Stats::default()
        };
        without_pauses(&mut stats, Duration::from_millis(300));
        assert_eq!((stats.elapsed_ms, stats.paused_ms), (200.0, 300.0));
        // Never below nothing (the clocks are read at different moments).
        without_pauses(&mut stats, Duration::from_millis(900));
        assert_eq!((stats.elapsed_ms, stats.paused_ms), (0.0, 900.0));
    }
}
