//! The limits every call into a puzzle's own program (a puzzle script's functions) runs
//! under, on the thread that makes it:
//!
//! - the run it belongs to ([`RunGuard`]): its Stop, its time limit and its memory budget (a
//!   call past the run's time limit ends the run with [`Outcome::Timeout`], one holding more
//!   memory than the budget with [`Outcome::MemoryLimit`]: the call returns the hit, and the
//!   program's type hands it to the engine as the run's stop);
//! - the call's own limits ([`CallLimits`]): the longest one call may run and the most heap
//!   memory it may hold, by default [`CALL_TIME`] and the default memory budget, made tighter
//!   for a stretch of work by [`within`] (the window bounds the calls it makes while drawing a
//!   frame so). A call past its own limit is the program's error ("the script's `draw` ran
//!   past its time limit of 50 ms").
//!
//! The interpreter brackets each call with [`begin`] and asks [`check`] at every step of its
//! work (rhai's progress callback, once per operation); [`check`] reads the thread's heap
//! count ([`crate::heap`]) at each step and the clock often enough to notice a deadline within
//! about a millisecond, however long a single step takes. [`sleep`] is the program's only
//! way to wait, and it wakes for the same limits. Which limit ended a call is a [`Hit`].

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

use crate::heap;
use crate::search::CancelToken;
#[cfg(doc)]
use crate::search::Outcome;
use crate::search::limits::{MAX_TIMEOUT_SECS, default_memory_budget};

mod hit;
pub use hit::{Hit, TOP_LEVEL};

/// How long one call may run when no tighter limit is given. A puzzle's function answers for
/// one state, in microseconds as a rule; one that runs this long does heavy work in a loop
/// (which an operation count alone does not see: copying a 1 MB string is one operation).
pub const CALL_TIME: Duration = Duration::from_secs(20);

/// The stack of every thread that calls into the program (the solver, the app's jobs, the
/// command line's work). The engine's call-depth and expression-depth limits need about
/// 4 MiB at their worst (a debug build, measured: 63 nested calls, each nesting 28 calls in
/// one expression, overflow 3.5 MiB and fit 4 MiB; the reproducer of issue 56's R3, 60 calls
/// of 20, overflowed the 2 MiB a thread gets by default), and a nest of arrays some 400 bytes
/// a level when it is copied, measured or dropped (5,000 levels, built in 2 s, fit 2 MiB;
/// the call's time limit bounds the depth). Sixteen times the first, as only the pages
/// touched are ever allocated.
pub const THREAD_STACK: usize = 64 << 20;

/// The limits of each call into the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallLimits {
    /// The longest one call may run.
    pub time: Duration,
    /// The most heap bytes one call may hold at once beyond what was held when it began.
    pub memory: u64,
}

impl Default for CallLimits {
    /// [`CALL_TIME`] and the default memory budget
    /// ([`crate::search::limits::default_memory_budget`]).
    fn default() -> Self {
        Self {
            time: CALL_TIME,
            memory: default_memory_budget(),
        }
    }
}

impl CallLimits {
    /// The default limits with a time limit of `time` for each call.
    pub fn time(time: Duration) -> Self {
        Self {
            time,
            ..Self::default()
        }
    }

    /// The tighter of each limit of `self` and `other`.
    fn tighter(self, other: Self) -> Self {
        Self {
            time: self.time.min(other.time),
            memory: self.memory.min(other.memory),
        }
    }
}

/// What binds this thread's calls: the runs entered, and the call limits in force.
#[derive(Clone, Default)]
struct Bound {
    /// The stop flags of the runs entered (a call ends when any is set).
    cancels: Vec<CancelToken>,
    /// The earliest of their deadlines.
    run_deadline: Option<Instant>,
    /// The least of their memory budgets.
    run_memory: Option<u64>,
    /// The call limits set by [`within`]; `None`: [`CallLimits::default`].
    call: Option<CallLimits>,
}

/// The call running now on this thread.
struct Active {
    entry: &'static str,
    deadline: Instant,
    /// Whether `deadline` is the run's (else the call's own).
    deadline_is_run: bool,
    time_limit: Duration,
    memory: u64,
    /// Whether `memory` is the run's budget (else the call's own limit).
    memory_is_run: bool,
    /// The thread's heap count when the call began.
    base: i64,
    /// Steps between readings of the clock, adapted to how long steps take (the steps left
    /// until the next reading are the [`GATE`]'s).
    stride: u32,
    last_look: Instant,
}

impl Active {
    /// The heap count past which this call holds more than its memory limit.
    fn ceiling(&self) -> i64 {
        let memory = i64::try_from(self.memory).unwrap_or(i64::MAX);
        self.base.saturating_add(memory)
    }
}

/// What [`check`] reads at every step without looking further: the heap count past which the
/// active call is over its memory limit, and the steps left before it reads the clock and the
/// stop flags. `(i64::MAX, u32::MAX)` when no call is active.
#[derive(Clone, Copy)]
struct Gate {
    ceiling: i64,
    countdown: u32,
}

/// The gate of no call.
const OPEN: Gate = Gate {
    ceiling: i64::MAX,
    countdown: u32::MAX,
};

/// How many steps may pass between two readings of the clock at most.
const MAX_STRIDE: u32 = 4096;
/// The time between two readings of the clock the stride aims at.
const LOOK_EVERY: Duration = Duration::from_millis(1);

thread_local! {
    static BOUND: RefCell<Bound> = RefCell::new(Bound::default());
    static ACTIVE: RefCell<Option<Active>> = const { RefCell::new(None) };
    /// The active call's [`Gate`]: [`check`]'s one read at most steps (the rest of the call's
    /// state is in [`ACTIVE`]).
    static GATE: Cell<Gate> = const { Cell::new(OPEN) };
    /// The first limit hit since the innermost [`RunGuard`] or [`within`] began.
    static FIRST: RefCell<Option<Hit>> = const { RefCell::new(None) };
    /// The limit that ended the latest call ended by one.
    static LATEST: RefCell<Option<Hit>> = const { RefCell::new(None) };
}

/// Clears the thread's first hit, returning it (to be given back by [`restore_hit`]).
fn clear_hit() -> Option<Hit> {
    FIRST.with(|h| h.borrow_mut().take())
}

/// Ends a stretch begun by [`clear_hit`]: the hit of the stretch, and the thread's hit is the
/// earlier one, else the stretch's (so an enclosing stretch sees it too).
fn restore_hit(before: Option<Hit>) -> Option<Hit> {
    FIRST.with(|h| {
        let mut h = h.borrow_mut();
        let during = h.take();
        *h = before.or_else(|| during.clone());
        during
    })
}

fn record(hit: &Hit) {
    LATEST.with(|h| *h.borrow_mut() = Some(hit.clone()));
    FIRST.with(|h| {
        let mut h = h.borrow_mut();
        if h.is_none() {
            *h = Some(hit.clone());
        }
    });
}

/// The limit that ended the latest call on this thread ended by a limit, if any: what the
/// interpreter reads when it reports a call it ended from [`check`] or [`sleep`].
pub fn last_hit() -> Option<Hit> {
    LATEST.with(|h| h.borrow().clone())
}

/// While alive, the calls on this thread belong to the run of `cancel`: they end when it is
/// stopped, when its time limit ([`crate::search::Limits::timeout`], counted from
/// [`RunGuard::enter`]) passes, or when one holds more than its memory budget. Guards nest:
/// the tightest limits of those alive apply.
pub struct RunGuard {
    previous: Option<Bound>,
    hit_before: Option<Option<Hit>>,
}

impl RunGuard {
    /// Binds the calls on this thread to the run of `cancel`, from now.
    pub fn enter(cancel: &CancelToken) -> Self {
        let limits = cancel.limits();
        let deadline = limits.timeout.and_then(|t| Instant::now().checked_add(t));
        let previous = BOUND.with(|b| {
            let mut b = b.borrow_mut();
            let previous = b.clone();
            b.cancels.push(cancel.clone());
            b.run_deadline = earliest(b.run_deadline, deadline);
            b.run_memory = Some(
                b.run_memory
                    .map_or(limits.max_memory, |m| m.min(limits.max_memory)),
            );
            previous
        });
        Self {
            previous: Some(previous),
            hit_before: Some(clear_hit()),
        }
    }

    /// The limit of the run that ended a call while this guard was alive, if one did: a run
    /// whose program was stopped at its time limit during loading says so, as the search
    /// does.
    pub fn hit(&self) -> Option<Hit> {
        FIRST.with(|h| h.borrow().clone())
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        if let Some(previous) = self.previous.take() {
            BOUND.with(|b| *b.borrow_mut() = previous);
        }
        if let Some(before) = self.hit_before.take() {
            restore_hit(before);
        }
    }
}

/// The binding of this thread's calls (the runs entered, their deadlines and budgets, the
/// call limits in force), taken to bind a worker thread that works for the same run: its
/// calls then end at the same Stop, deadline and limits ([`Binding::enter`]).
#[derive(Clone)]
pub struct Binding(Bound);

impl Binding {
    /// This thread's binding now.
    pub fn current() -> Self {
        Binding(BOUND.with(|b| b.borrow().clone()))
    }

    /// Binds the calls on this thread as they were on the thread the binding was taken on,
    /// while the guard returned is alive (then as before).
    pub fn enter(&self) -> RunGuard {
        let previous = BOUND.with(|b| std::mem::replace(&mut *b.borrow_mut(), self.0.clone()));
        RunGuard {
            previous: Some(previous),
            hit_before: Some(clear_hit()),
        }
    }
}

/// The threads that call into the program for a run's parallel work (the whole-space count):
/// one a core, each with the stack of [`THREAD_STACK`]; `None` if they cannot be started, or
/// inside [`on_one_thread`] (then the work runs on the caller's
/// thread alone, the plain sequential way).
pub fn workers() -> Option<&'static rayon::ThreadPool> {
    if ONE_THREAD.get() {
        return None;
    }
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        rayon::ThreadPoolBuilder::new()
            .num_threads(cores)
            .stack_size(THREAD_STACK)
            .thread_name(|i| format!("program-worker-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

thread_local! {
    /// Whether [`on_one_thread`] is running on this thread.
    static ONE_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` with the program's parallel work that it starts on this thread kept on this
/// thread ([`workers`] answers `None` meanwhile): the one-worker figure of a benchmark, and
/// the plain sequential reference a differential test compares the parallel path with.
pub fn on_one_thread<T>(work: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ONE_THREAD.set(self.0);
        }
    }
    let _restore = Restore(ONE_THREAD.replace(true));
    work()
}

fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Runs `work` with every call into the program it makes on this thread held to `limits`
/// (and to tighter limits in force outside). Returns what `work` returned, or the limit that
/// ended one of its calls (even when `work` itself took the failed call for an answer, as
/// "not solved" or "no picture"). A call that returns the script's error returns it located
/// (where it was stopped, or at the function's definition where the interpreter knows no
/// place), with the same message: keep it through a variable `work` writes to.
///
/// # Errors
/// The [`Hit`] of the first call ended by a limit: its [`Display`](std::fmt::Display) says
/// which function ran past which limit ("the script's `draw` ran past its time limit of
/// 50 ms").
///
/// # Example
/// ```
/// use std::time::Duration;
/// use puzzlelab::puzzles::call_limits::{self, CallLimits};
///
/// use puzzlelab::puzzles::script::Script;
///
/// let text = "fn start() { 1 }\nfn moves(n) { [] }\nfn is_goal(n) { let i = 0; loop { i += 1; } }";
/// let script = Script::from_text(text).expect("it compiles");
/// let answer = call_limits::within(CallLimits::time(Duration::from_millis(50)), || {
///     script.is_solved()
/// });
/// let hit = answer.expect_err("is_goal never returns");
/// assert_eq!(hit.to_string(), "the script's `is_goal` ran past its time limit of 50 ms");
/// ```
pub fn within<T>(limits: CallLimits, work: impl FnOnce() -> T) -> Result<T, Hit> {
    let previous = BOUND.with(|b| {
        let mut b = b.borrow_mut();
        let previous = b.call;
        b.call = Some(b.call.unwrap_or_default().tighter(limits));
        previous
    });
    let before = clear_hit();
    let value = work();
    BOUND.with(|b| b.borrow_mut().call = previous);
    match restore_hit(before) {
        Some(hit) => Err(hit),
        None => Ok(value),
    }
}

/// Holds every call into the program made on this thread from now on to `limits` (and to
/// tighter ones set by [`within`] for a stretch), until set again: the window sets a short
/// time limit on its own thread, so that no program code runs there without one however it
/// is reached (a frame's drawing, the restore of the state at start, a hint).
pub fn limit_this_thread(limits: CallLimits) {
    BOUND.with(|b| b.borrow_mut().call = Some(limits));
}

/// While alive, the program's function `entry` is running on this thread (see [`begin`]).
pub struct CallScope {
    previous: Option<Active>,
}

impl Drop for CallScope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        // The call it interrupted reads the clock at its next step.
        GATE.set(previous.as_ref().map_or(OPEN, |p| Gate {
            ceiling: p.ceiling(),
            countdown: 0,
        }));
        ACTIVE.with(|a| *a.borrow_mut() = previous);
    }
}

/// Marks the start of a call of the program's function `entry` (`start`, `moves`, ...;
/// [`TOP_LEVEL`] for the program's top level), under the limits in force now; the call lasts as
/// long as the scope returned.
pub fn begin(entry: &'static str) -> CallScope {
    let now = Instant::now();
    let active = BOUND.with(|b| {
        let b = b.borrow();
        let call = b.call.unwrap_or_default();
        let own = now.checked_add(call.time);
        let (deadline, deadline_is_run) = match (b.run_deadline, own) {
            (Some(run), Some(own)) if run <= own => (run, true),
            (_, Some(own)) => (own, false),
            (Some(run), None) => (run, true),
            (None, None) => (now + Duration::from_secs(MAX_TIMEOUT_SECS as u64), false),
        };
        let (memory, memory_is_run) = match b.run_memory {
            Some(run) if run <= call.memory => (run, true),
            _ => (call.memory, false),
        };
        Active {
            entry,
            deadline,
            deadline_is_run,
            time_limit: call.time,
            memory,
            memory_is_run,
            base: heap::thread_net_bytes(),
            stride: 16,
            last_look: now,
        }
    });
    // The first step reads the clock.
    GATE.set(Gate {
        ceiling: active.ceiling(),
        countdown: 0,
    });
    CallScope {
        previous: ACTIVE.with(|a| a.borrow_mut().replace(active)),
    }
}

impl Active {
    /// The limit this call is past now, at a step where [`check`]'s gate did not let it
    /// through: over its memory limit, or due to read the clock.
    fn step(&mut self) -> Option<Hit> {
        let held = heap::thread_net_bytes().wrapping_sub(self.base);
        if held > 0 && held as u64 > self.memory {
            return Some(self.memory_hit());
        }
        self.look()
    }

    fn memory_hit(&self) -> Hit {
        if self.memory_is_run {
            Hit::RunMemory {
                entry: self.entry,
                budget: self.memory,
            }
        } else {
            Hit::CallMemory {
                entry: self.entry,
                limit: self.memory,
            }
        }
    }

    /// Reads the stop flags and the clock, and adapts the stride so that the clock is read
    /// about every [`LOOK_EVERY`].
    #[cold]
    fn look(&mut self) -> Option<Hit> {
        if BOUND.with(|b| b.borrow().cancels.iter().any(CancelToken::is_cancelled)) {
            return Some(Hit::Cancelled);
        }
        let now = Instant::now();
        if now >= self.deadline {
            return Some(if self.deadline_is_run {
                Hit::RunTimeout { entry: self.entry }
            } else {
                Hit::CallTime {
                    entry: self.entry,
                    limit: self.time_limit,
                }
            });
        }
        let since = now.duration_since(self.last_look);
        self.last_look = now;
        if since < LOOK_EVERY / 4 {
            self.stride = (self.stride * 2).min(MAX_STRIDE);
        } else if since > LOOK_EVERY {
            self.stride = (self.stride / 2).max(1);
        }
        GATE.set(Gate {
            ceiling: self.ceiling(),
            countdown: self.stride,
        });
        None
    }
}

/// Whether the call running on this thread must end now, and why (recorded for
/// [`last_hit`]); `None` outside a call. Cheap enough for every step of the program: most
/// steps read two thread-local words (the heap count and the [`GATE`]) and write one.
#[inline]
pub fn check() -> Option<Hit> {
    let gate = GATE.get();
    if gate.countdown > 0 && heap::thread_net_bytes() <= gate.ceiling {
        GATE.set(Gate {
            countdown: gate.countdown - 1,
            ..gate
        });
        return None;
    }
    check_further()
}

/// [`check`] at a step its gate did not let through.
#[cold]
fn check_further() -> Option<Hit> {
    let hit = ACTIVE.with(|a| match a.borrow_mut().as_mut() {
        Some(active) => active.step(),
        None => {
            GATE.set(OPEN);
            None
        }
    })?;
    record(&hit);
    Some(hit)
}

/// Why [`sleep`] did not sleep as asked.
#[derive(Clone, Debug, PartialEq)]
pub enum SleepError {
    /// Not a number of seconds from 0 to a week (NaN, infinite, negative or huge).
    Invalid(String),
    /// A limit ended the call during the sleep.
    Limit(Hit),
}

/// The program's sleep of `seconds`: woken by the limits of the call running (a sleep past
/// them ends the call, as [`check`] does); a number of seconds that is not from 0 to one
/// week is refused.
///
/// # Errors
/// [`SleepError::Invalid`] for NaN, infinite, negative or more than a week of seconds;
/// [`SleepError::Limit`] when a limit ended the call during the sleep.
pub fn sleep(seconds: f64) -> Result<(), SleepError> {
    if !(0.0..=MAX_TIMEOUT_SECS).contains(&seconds) {
        let shown = if seconds.abs() < 1e15 {
            format!("{seconds}")
        } else {
            format!("{seconds:e}")
        };
        return Err(SleepError::Invalid(format!(
            "sleep takes from 0 to {MAX_TIMEOUT_SECS} seconds, not {shown}"
        )));
    }
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    loop {
        let hit = ACTIVE.with(|a| a.borrow_mut().as_mut().and_then(Active::look));
        if let Some(hit) = hit {
            record(&hit);
            return Err(SleepError::Limit(hit));
        }
        let now = Instant::now();
        if now >= end {
            return Ok(());
        }
        std::thread::sleep((end - now).min(Duration::from_millis(5)));
    }
}

#[cfg(test)]
mod tests;
