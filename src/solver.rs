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
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crate::puzzles::{Picture, Puzzle, Report};
use crate::runs::breakpoints::{BreakpointCheck, Breakpoints};
use crate::runs::recording::{RecordChunk, SpentChunk, TraceRecorder};
use crate::search::{Algorithm, CancelToken, Limits, Stats};

mod pacer;
mod warmer;

use pacer::Pacer;
use warmer::spawn_warmer;

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
