//! The background solver: runs one search on a named thread, paced by commands from the UI
//! (pause, resume, single step, speed, stop), and reports what it does as [`Event`]s over a
//! bounded channel. The UI never waits for it.
//!
//! The run's one record is its recording ([`crate::runs::recording`]): the solver writes every
//! expansion and generated state into it and hands what it wrote since the last event over
//! in each [`Progress`] as a [`RecordChunk`] (about 24 bytes an expansion). The app appends
//! the chunks to its store, and everything it shows of the run (the live view, the timeline,
//! the hover figures, the exports) reads that store. Events are batched: at a finite speed at
//! most one per [`FRAME`]; at full speed one every [`FULL_SPEED_FLUSH`], so millions of
//! expansions a second do not flood the channel.
//!
//! The solver never waits on the window (the store is written by the producer and read by the
//! viewer at its own pace, as in the rerun viewer). The channel is unbounded; what keeps it
//! small is that the solver sends a batch only while fewer than [`MAX_IN_FLIGHT`] of its events
//! wait untaken. While the window is behind, the batch just grows (its chunk holds every event
//! since the last one sent), except that a chunk is sent once it holds
//! [`MAX_CHUNK_EXPANSIONS`], so that no single chunk is too big for a frame to take: those
//! chunks are the recording itself, whose size its memory budget bounds. A pause, a
//! breakpoint and the end are always sent at once.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crate::puzzles::{Picture, Place, Puzzle, Report, Watcher};
use crate::runs::breakpoints::{BreakpointCheck, Breakpoints};
use crate::runs::recording::{RecordChunk, SpentChunk, TraceRecorder};
use crate::search::{Algorithm, CancelToken, Cost, GridBlock, Limits, Stats};

mod warmer;

use warmer::{WARM_AHEAD, WARM_FROM, spawn_warmer};

/// How often a paced run sends progress at most.
pub const FRAME: Duration = Duration::from_millis(16);
/// How often the window draws a full-speed run while it goes (20 frames a second): the
/// solver wakes it at most this often, and it asks for no more frames than that. Its frames
/// (the recording appended and drawn, and the drawing itself, on the processor where no
/// graphics card does it) would otherwise take the search's processor for a third of its time.
pub const FULL_SPEED_FRAME: Duration = Duration::from_millis(50);
/// How often a full-speed run sends a snapshot.
pub const FULL_SPEED_FLUSH: Duration = Duration::from_millis(33);
/// The most expansions one event carries: a full-speed chunk of the recording stays small
/// enough (about 1.5 MB, 2 ms to append and index) for the app to take several in a frame.
pub const MAX_CHUNK_EXPANSIONS: u64 = 65_536;
/// At full speed the worker looks at its commands and the clock once every this many
/// expansions (a few microseconds of search), not at each: each look cost as much as an
/// expansion of a grid. The search itself checks the cancel flag at every expansion.
const LOOK_EVERY: u32 = 256;
/// At full speed, a grid's breadth-first search tells its expansions this many at a time
/// (see [`crate::search::GridBlock`]): the recording copies them as arrays.
const GRID_BLOCK: usize = 4096;
/// Longest time the worker waits without looking at the cancel flag (the Stop latency).
const POLL: Duration = Duration::from_millis(10);
/// The most progress events left waiting for the window before the solver stops sending
/// more (it goes on searching; the next batch carries everything since): what the window
/// shows is never more than a few snapshots behind, and a window that draws nothing (hidden)
/// costs no memory past the recording's own. Chunks of [`MAX_CHUNK_EXPANSIONS`] still go.
pub const MAX_IN_FLIGHT: usize = 8;

/// Expansions per second; [`f64::INFINITY`] means as fast as possible.
pub type Speed = f64;

/// What the UI can tell a running search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// Stop expanding until [`Command::Resume`] or [`Command::Step`].
    Pause,
    /// Go on at the current speed.
    Resume,
    /// While paused, expand exactly one more state.
    Step,
    /// Change the speed (expansions per second, or infinite).
    SetSpeed(Speed),
    /// Check these breakpoints from now on.
    SetBreakpoints(Breakpoints),
}

/// What the search did since the previous progress event.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Number of states expanded since the previous event.
    pub expanded_count: u64,
    /// The recording's events since the previous progress event, for the app's store (see
    /// [`TraceRecorder::append`]).
    pub chunk: RecordChunk,
    /// The picture of the state expanded last, for board puzzles: the live view's board
    /// also when the recording has stopped (its budget full).
    pub board: Option<Picture>,
    /// Statistics so far.
    pub stats: Stats,
    /// States expanded at each depth so far (index = depth), for the layers plot.
    pub layers: Vec<u64>,
    /// IDA*: states expanded in each iteration so far (index = iteration - 1).
    pub iteration_nodes: Vec<u64>,
    /// The search runs on a fast core that reports its figures alone: no state is recorded
    /// (the 24-puzzle's IDA* at full speed; see [`Watcher::takes_figures`]).
    pub unrecorded: bool,
    /// The breakpoint that paused the run at the end of this batch, in words.
    pub breakpoint: Option<String>,
}

/// A message from the solver thread (at most about 60 a second: their size does not matter).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Event {
    /// The search went on.
    Progress(Progress),
    /// The search ended (found, not found or cancelled).
    Finished(Report),
    /// The search could not run, or panicked; the message says why.
    Failed(String),
}

/// The UI's handle on a running search. Dropping it cancels the search.
pub struct SolverHandle {
    commands: Sender<Command>,
    /// Buffers of the recording's chunks, emptied by the window, back to the solver.
    spent: Sender<SpentChunk>,
    events: Receiver<Event>,
    /// Progress events sent and not yet taken (see [`MAX_IN_FLIGHT`]).
    in_flight: Arc<AtomicUsize>,
    /// Set by the solver thread as soon as the search returns, before its last events go.
    search_ended: Arc<AtomicBool>,
    cancel: CancelToken,
    is_finished: bool,
    /// Set by [`SolverHandle::stop`]: progress still queued is dropped unread.
    stopping: std::cell::Cell<bool>,
}

impl SolverHandle {
    /// Starts solving `puzzle` with `algorithm` under `limits` on a new thread named `solver`.
    /// `wake` is called after every event sent (the GUI passes `request_repaint`). A search
    /// that reaches a limit ends with a [`Event::Finished`] whose outcome says which.
    ///
    /// # Errors
    /// The operating system's error if the thread cannot be spawned.
    pub fn spawn(
        puzzle: Box<dyn Puzzle>,
        algorithm: Algorithm,
        speed: Speed,
        paused: bool,
        limits: Limits,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> std::io::Result<Self> {
        Self::spawn_with(
            puzzle,
            algorithm,
            speed,
            paused,
            limits,
            Breakpoints::default(),
            wake,
        )
    }

    /// [`SolverHandle::spawn`] with `breakpoints` checked from the first expansion: the run
    /// pauses at the first expansion (or generation) that meets one, and the progress event
    /// then sent says which ([`Progress::breakpoint`]).
    ///
    /// # Errors
    /// The operating system's error if the thread cannot be spawned.
    pub fn spawn_with(
        puzzle: Box<dyn Puzzle>,
        algorithm: Algorithm,
        speed: Speed,
        paused: bool,
        limits: Limits,
        breakpoints: Breakpoints,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> std::io::Result<Self> {
        let (command_tx, command_rx) = mpsc::channel();
        let (spent_tx, spent_rx) = mpsc::channel();
        let warm_requests = spawn_warmer(spent_tx.clone());
        let (event_tx, event_rx) = mpsc::channel();
        let in_flight = Arc::new(AtomicUsize::new(0));
        let worker_in_flight = Arc::clone(&in_flight);
        let search_ended = Arc::new(AtomicBool::new(false));
        let worker_ended = Arc::clone(&search_ended);
        let recorder = TraceRecorder::with_boards(limits.max_memory / 4);
        let cancel = CancelToken::with_limits(limits);
        let worker_cancel = cancel.clone();
        thread::Builder::new()
            .name("solver".into())
            // The stack a puzzle script's calls may need at the engine's depth limits.
            .stack_size(crate::puzzles::call_limits::THREAD_STACK)
            .spawn(move || {
                let mut pacer = Pacer {
                    commands: command_rx,
                    spent: spent_rx,
                    warm_requests,
                    warm_primed: false,
                    events: event_tx,
                    in_flight: worker_in_flight,
                    cancel: worker_cancel,
                    wake,
                    speed,
                    paused,
                    // A run started paused makes its first expansion, whole, then waits
                    // (the pace comes before each expansion, see `Pacer::before_expansion`).
                    pending_steps: u32::from(paused),
                    batch: Progress::default(),
                    generated_count: 0,
                    layers: Vec::new(),
                    iteration_nodes: Vec::new(),
                    last_flush: Instant::now(),
                    last_wake: None,
                    since_look: 0,
                    flush_due: false,
                    due: Instant::now(),
                    paused_for: Duration::ZERO,
                    held: false,
                    recorder,
                    breaks: BreakpointCheck::new(breakpoints),
                };
                let cancel = pacer.cancel.clone();
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    puzzle.solve(algorithm, &mut pacer, &cancel)
                }));
                pacer.hold_at_breakpoint();
                worker_ended.store(true, Ordering::Release);
                pacer.flush();
                let event = match outcome {
                    Ok(Ok(mut report)) => {
                        pacer.exclude_pauses(&mut report.stats);
                        Event::Finished(report)
                    }
                    Ok(Err(e)) => Event::Failed(e.to_string()),
                    Err(panic) => Event::Failed(format!(
                        "the search crashed: {}",
                        panic_message(panic.as_ref())
                    )),
                };
                pacer.send(event);
            })?;
        Ok(Self {
            commands: command_tx,
            spent: spent_tx,
            events: event_rx,
            in_flight,
            search_ended,
            cancel,
            is_finished: false,
            stopping: std::cell::Cell::new(false),
        })
    }

    /// Sends a command; one sent after the search ended is ignored.
    pub fn send(&self, command: Command) {
        let _ = self.commands.send(command);
    }

    /// Gives the solver the buffers of chunks the window has appended
    /// (the app's `Track::take_spent`), for its next chunks: writing those takes no page
    /// fault, which sharing the address space with a busy window made the search's largest
    /// cost at full speed. Ignored once the search has ended.
    pub fn recycle(&self, spent: impl IntoIterator<Item = SpentChunk>) {
        for chunk in spent {
            if self.spent.send(chunk).is_err() {
                break;
            }
        }
    }

    /// Asks the search to stop. It ends with a [`Event::Finished`] whose outcome is
    /// cancelled, within about 10 ms, after the progress events still queued (each a chunk of
    /// the recording: cheap to take).
    pub fn stop(&self) {
        self.cancel.cancel();
        self.stopping.set(true);
    }

    /// Whether [`SolverHandle::stop`] was called.
    pub fn is_stopping(&self) -> bool {
        self.stopping.get()
    }

    /// Whether the search itself has returned (found, not found, stopped or failed), though
    /// its last events may still wait in the channel: from then on nothing competes with the
    /// window for the processor, and what is left is to take those events.
    pub fn search_ended(&self) -> bool {
        self.search_ended.load(Ordering::Acquire)
    }

    /// Whether the final event ([`Event::Finished`] or [`Event::Failed`]) has been received.
    pub fn is_finished(&self) -> bool {
        self.is_finished
    }

    /// Takes the events waiting in the channel, for at most `budget` of time, so that a flood
    /// of events never freezes a frame.
    pub fn drain(&mut self, budget: Duration) -> Vec<Event> {
        let started = Instant::now();
        let mut events = Vec::new();
        while started.elapsed() < budget {
            match self.next_event() {
                Some(event) => events.push(event),
                None => break,
            }
        }
        events
    }

    /// The next event waiting, if any, without blocking.
    pub fn next_event(&mut self) -> Option<Event> {
        match self.events.try_recv() {
            Ok(event) => {
                match event {
                    Event::Finished(_) | Event::Failed(_) => self.is_finished = true,
                    Event::Progress(_) => {
                        self.in_flight.fetch_sub(1, Ordering::AcqRel);
                    }
                }
                Some(event)
            }
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => {
                if self.is_finished {
                    return None;
                }
                self.is_finished = true;
                Some(Event::Failed("the solver thread ended unexpectedly".into()))
            }
        }
    }

    /// Blocks until the search ends and returns its last event. For tests and scripts; the GUI
    /// uses [`SolverHandle::drain`].
    pub fn wait(&mut self) -> Event {
        loop {
            match self.events.recv() {
                Ok(event @ (Event::Finished(_) | Event::Failed(_))) => {
                    self.is_finished = true;
                    return event;
                }
                Ok(Event::Progress(_)) => {}
                Err(_) => return Event::Failed("the solver thread ended unexpectedly".into()),
            }
        }
    }
}

impl Drop for SolverHandle {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_owned()
    }
}

/// The observer on the solver thread: collects progress, sends it, and paces the search.
struct Pacer {
    commands: Receiver<Command>,
    /// Buffers given back by the window (see [`SolverHandle::recycle`]) and made by the
    /// warmer (see [`warmer::spawn_warmer`]).
    spent: Receiver<SpentChunk>,
    /// Asks the warmer for buffers for a chunk of these sizes; `None` without a warmer.
    warm_requests: Option<Sender<(usize, usize)>>,
    /// Whether the warmer was asked for its first few buffers.
    warm_primed: bool,
    events: Sender<Event>,
    /// Progress events sent and not yet taken by the window.
    in_flight: Arc<AtomicUsize>,
    cancel: CancelToken,
    wake: Arc<dyn Fn() + Send + Sync>,
    speed: Speed,
    paused: bool,
    /// Steps asked for while paused and not yet taken.
    pending_steps: u32,
    batch: Progress,
    /// States generated since the last event.
    generated_count: u64,
    /// States expanded per depth and per IDA* iteration, whole run.
    layers: Vec<u64>,
    iteration_nodes: Vec<u64>,
    last_flush: Instant,
    /// When the window was last woken (see [`Pacer::send`]).
    last_wake: Option<Instant>,
    /// Expansions since the last look at the commands and the clock (full speed).
    since_look: u32,
    /// Whether a full-speed batch was due at the last look: the picture of the state
    /// expanded then is wanted (see [`Pacer::path_wanted`]).
    flush_due: bool,
    /// When the next expansion may happen at a finite speed.
    due: Instant,
    /// How long the search has waited paused: its time excludes it.
    paused_for: Duration,
    /// Whether the expansion about to be written was paced already (before it was counted,
    /// or at its board, which a board puzzle's search gives first).
    held: bool,
    /// Writes every expansion and generated state (and a board puzzle's boards); each
    /// event takes what it wrote since the last.
    recorder: TraceRecorder,
    /// The breakpoints and what checking them remembers.
    breaks: BreakpointCheck,
}

impl Pacer {
    /// Sends `event` at once: the channel is unbounded, so the search never waits for the
    /// window (see [`MAX_IN_FLIGHT`] for what keeps it small).
    ///
    /// It wakes the window, but at full speed at most once a [`FULL_SPEED_FRAME`] for plain
    /// progress: the window then draws that often while the run goes, not once for each
    /// chunk (some 300 a second), each frame's work competing with the search.
    fn send(&mut self, event: Event) {
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

    fn flush(&mut self) {
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
    fn hold_at_breakpoint(&mut self) {
        if self.batch.breakpoint.is_some() && self.paused {
            self.pace();
        }
    }

    /// Takes the time spent paused out of `stats`' time (see [`without_pauses`]).
    fn exclude_pauses(&self, stats: &mut Stats) {
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
    /// Stop pressed while paused ends the run with the expansions the window showed.
    fn before_expansion(&mut self) {
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
