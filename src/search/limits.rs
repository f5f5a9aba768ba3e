//! The limits every search runs under: a memory budget and an optional time limit.
//!
//! The engine accounts for what it stores — the search tree and its index (the closed set),
//! the frontier, dense state tables, depth-first stacks — and checks the budget *before* each
//! allocation that would grow one of them, so a search stops with
//! [`Outcome::MemoryLimit`](super::Outcome::MemoryLimit) instead of the process aborting when
//! memory runs out. Growth goes through `try_reserve`, so even an allocation the system refuses
//! within the budget ends the search cleanly.

use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{CancelToken, Interrupt, Observer, Outcome, Stats};

/// One mebibyte, in bytes.
pub const MIB: u64 = 1024 * 1024;
/// One gibibyte, in bytes.
pub const GIB: u64 = 1024 * MIB;
/// The largest default memory budget: 8 GiB.
pub const MAX_DEFAULT_MEMORY: u64 = 8 * GIB;
/// The smallest budget accepted: 1 MiB.
pub const MIN_MEMORY: u64 = MIB;
/// The largest time limit accepted: one week, in seconds.
pub const MAX_TIMEOUT_SECS: f64 = 7.0 * 24.0 * 3600.0;

/// The limits of one search, and how its open list breaks ties (a setting every front end
/// passes along with the limits).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The most bytes the search may hold in its tables (closed set, frontier, stacks).
    pub max_memory: u64,
    /// The longest the search may run; `None` for no limit.
    pub timeout: Option<Duration>,
    /// Which of the states of equal priority the best-first searches expand first.
    pub tie_break: TieBreak,
}

impl Default for Limits {
    /// [`default_memory_budget`], no time limit, ties to the larger `g`.
    fn default() -> Self {
        Self {
            max_memory: default_memory_budget(),
            timeout: None,
            tie_break: TieBreak::default(),
        }
    }
}

/// Among states of equal priority `f` on the open list of the best-first searches (Dijkstra,
/// A*, weighted A*, greedy, Jump Point Search, bidirectional A*), which comes out first. The
/// answers' costs do not depend on it (for the optimal searches); the number of expansions
/// does, a lot: on an open grid with A*, preferring the larger `g` (the deeper state, nearer
/// the goal) expands little more than the path, while the smaller `g` fills the whole
/// diamond of states with `f` equal to the optimum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TieBreak {
    /// The larger path cost `g` first (the default).
    #[default]
    #[serde(rename = "high-g")]
    HighG,
    /// The smaller path cost `g` first.
    #[serde(rename = "low-g")]
    LowG,
    /// The state put on the open list first.
    #[serde(rename = "fifo")]
    Fifo,
    /// The state put on the open list last.
    #[serde(rename = "lifo")]
    Lifo,
}

impl TieBreak {
    /// Every policy, the default first.
    pub const ALL: [TieBreak; 4] = [
        TieBreak::HighG,
        TieBreak::LowG,
        TieBreak::Fifo,
        TieBreak::Lifo,
    ];

    /// The command-line name: `high-g`, `low-g`, `fifo` or `lifo`.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::HighG => "high-g",
            TieBreak::LowG => "low-g",
            TieBreak::Fifo => "fifo",
            TieBreak::Lifo => "lifo",
        }
    }

    /// The name shown in the GUI.
    pub fn label(self) -> &'static str {
        match self {
            TieBreak::HighG => "larger g first",
            TieBreak::LowG => "smaller g first",
            TieBreak::Fifo => "first in, first out",
            TieBreak::Lifo => "last in, first out",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(name: &str) -> Option<TieBreak> {
        TieBreak::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Half of the memory this process may use — the least of the physical memory, the cgroup's
/// memory limit and the address-space limit (`RLIMIT_AS`) — and at most
/// [`MAX_DEFAULT_MEMORY`]. Where none of these can be read (not Linux), 4 GiB.
pub fn default_memory_budget() -> u64 {
    static BUDGET: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *BUDGET.get_or_init(|| {
        let usable = [
            physical_memory(),
            cgroup_memory_limit(),
            address_space_limit(),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(MAX_DEFAULT_MEMORY);
        (usable / 2).clamp(MIN_MEMORY, MAX_DEFAULT_MEMORY)
    })
}

fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

fn cgroup_memory_limit() -> Option<u64> {
    [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .filter_map(|path| std::fs::read_to_string(path).ok())
    .find_map(|text| text.trim().parse().ok())
}

fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    // "Max address space   <soft>   <hard>   bytes": the soft limit is the one in force.
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Parses a memory size: a whole number of bytes, or a number with a suffix `K`, `M`, `G` or
/// `T` (powers of 1024; `KB`, `MiB` and the like are accepted too), for example `512M` or
/// `1.5G`. The result must be from [`MIN_MEMORY`] to 1 TiB.
///
/// # Errors
/// A message saying what is wrong, for a malformed size or one out of range.
pub fn parse_memory_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, suffix) = t.split_at(split);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a memory size (for example 512M or 4G)"))?;
    let unit = match suffix.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1024,
        "M" | "MB" | "MIB" => MIB,
        "G" | "GB" | "GIB" => GIB,
        "T" | "TB" | "TIB" => 1024 * GIB,
        _ => {
            return Err(format!(
                "`{text}`: unknown unit (use K, M, G or T, for example 512M or 4G)"
            ));
        }
    };
    let bytes = number * unit as f64;
    let max = 1024 * GIB;
    if !(MIN_MEMORY as f64..=max as f64).contains(&bytes) {
        return Err(format!("`{text}`: the memory limit must be from 1M to 1T"));
    }
    Ok(bytes as u64)
}

/// A memory size for people: `512 MiB`, `1.5 GiB`.
pub fn format_bytes(bytes: u64) -> String {
    if bytes >= GIB {
        format!("{:.1} GiB", bytes as f64 / GIB as f64)
    } else if bytes >= MIB {
        format!("{:.0} MiB", bytes as f64 / MIB as f64)
    } else {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    }
}

/// A growable store whose heap size the budget can account for.
pub(super) trait Store {
    /// Elements held.
    fn len(&self) -> usize;
    /// Elements that fit without growing.
    fn capacity(&self) -> usize;
    /// Heap bytes of a store with room for `capacity` elements.
    fn bytes_for(capacity: usize) -> u64;
    /// Makes room for `additional` more elements, growing geometrically; `false` when the
    /// system refuses the memory.
    fn try_grow(&mut self, additional: usize) -> bool;
}

fn array_bytes<T>(capacity: usize) -> u64 {
    (capacity as u64).saturating_mul(std::mem::size_of::<T>() as u64)
}

/// [`Store`] for a growable array type `$t<T>`, with an optional bound on `T`.
macro_rules! array_store {
    ($t:ident $(: $bound:path)?) => {
        impl<T $(: $bound)?> Store for $t<T> {
            fn len(&self) -> usize {
                $t::len(self)
            }
            fn capacity(&self) -> usize {
                $t::capacity(self)
            }
            fn bytes_for(capacity: usize) -> u64 {
                array_bytes::<T>(capacity)
            }
            fn try_grow(&mut self, additional: usize) -> bool {
                self.try_reserve(additional).is_ok()
            }
        }
    };
}

array_store!(Vec);
array_store!(VecDeque);
array_store!(BinaryHeap: Ord);

/// A hash table holds a power of two of buckets, at most 7/8 full, each an entry and a
/// control byte.
pub(super) fn table_bytes<T>(capacity: usize) -> u64 {
    let buckets = (capacity as u64).saturating_mul(8).div_ceil(7).max(1);
    buckets
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX)
        .saturating_mul(std::mem::size_of::<T>() as u64 + 1)
}

impl<K: Eq + Hash, V, H: BuildHasher> Store for HashMap<K, V, H> {
    fn len(&self) -> usize {
        HashMap::len(self)
    }
    fn capacity(&self) -> usize {
        HashMap::capacity(self)
    }
    fn bytes_for(capacity: usize) -> u64 {
        table_bytes::<(K, V)>(capacity)
    }
    fn try_grow(&mut self, additional: usize) -> bool {
        self.try_reserve(additional).is_ok()
    }
}

impl<K: Eq + Hash, H: BuildHasher> Store for HashSet<K, H> {
    fn len(&self) -> usize {
        HashSet::len(self)
    }
    fn capacity(&self) -> usize {
        HashSet::capacity(self)
    }
    fn bytes_for(capacity: usize) -> u64 {
        table_bytes::<K>(capacity)
    }
    fn try_grow(&mut self, additional: usize) -> bool {
        self.try_reserve(additional).is_ok()
    }
}

/// How often (in checks) the clock is read for the time limit.
const CLOCK_EVERY: u32 = 256;

/// A running search's account of its memory and time, and its cancel flag. Every algorithm
/// calls [`Budget::check`] before each expansion and [`Budget::reserve`] (or
/// [`Budget::charge`]) before it grows what it stores.
pub(super) struct Budget {
    cancel: CancelToken,
    max_bytes: u64,
    deadline: Option<Instant>,
    tie_break: TieBreak,
    used: u64,
    peak: u64,
    checks: u32,
    /// What was about to grow when the memory limit was reached.
    pub exceeded_by: Option<&'static str>,
    /// What the problem said when it cut a call short ([`Budget::interrupted`]): the first.
    pub interruption: Option<Interrupt>,
}

impl Budget {
    /// A budget with the limits of `cancel` (see [`CancelToken::limits`]), starting now.
    pub fn new(cancel: &CancelToken) -> Self {
        let limits = cancel.limits();
        Self {
            cancel: cancel.clone(),
            max_bytes: limits.max_memory,
            deadline: limits.timeout.and_then(|t| Instant::now().checked_add(t)),
            tie_break: limits.tie_break,
            used: 0,
            peak: 0,
            checks: 0,
            exceeded_by: None,
            interruption: None,
        }
    }

    /// The outcome to end with when the problem cut a call short ([`Interrupt`]), which is
    /// kept for the run's message and error.
    #[cold]
    pub fn interrupted(&mut self, interrupt: Interrupt) -> Outcome {
        let outcome = interrupt.outcome();
        self.interruption.get_or_insert(interrupt);
        outcome
    }

    /// `Err` with the outcome to end with when the search must stop now: cancelled, or past
    /// its time limit.
    #[inline]
    pub fn check(&mut self) -> Result<(), Outcome> {
        if self.cancel.is_cancelled() {
            return Err(Outcome::Cancelled);
        }
        self.checks = self.checks.wrapping_add(1);
        if self.checks.is_multiple_of(CLOCK_EVERY)
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            return Err(Outcome::Timeout);
        }
        Ok(())
    }

    /// [`Budget::check`] after the observer's pace ([`Observer::before_expansion`], unless
    /// `silent`), just before an expansion is counted: a stop seen while the observer
    /// waited (the app's pause) ends the run with the expansions told, none more. `stats`
    /// are the figures of those expansions, each whole.
    #[inline]
    pub fn paced<S>(
        &mut self,
        observer: &mut dyn Observer<S>,
        silent: bool,
        stats: &Stats,
    ) -> Result<(), Outcome> {
        if !silent {
            observer.before_expansion(stats);
        }
        self.check()
    }

    /// [`Budget::check`], reading the clock now: for work checked seldom (a slice of states
    /// expanded on several threads).
    pub fn check_now(&mut self) -> Result<(), Outcome> {
        self.checks = CLOCK_EVERY - 1;
        self.check()
    }

    /// Makes room in `store` for `additional` more elements, unless growing it would take the
    /// search past its memory budget (counting the old and the new buffer, which exist
    /// together while it grows) or the system refuses the memory: then
    /// `Err(Outcome::MemoryLimit)`, with `what` recorded as the store that filled it.
    #[inline]
    pub fn reserve<S: Store>(
        &mut self,
        store: &mut S,
        additional: usize,
        what: &'static str,
    ) -> Result<(), Outcome> {
        if store.len().saturating_add(additional) <= store.capacity() {
            return Ok(());
        }
        self.grow(store, additional, what)
    }

    #[cold]
    fn grow<S: Store>(
        &mut self,
        store: &mut S,
        additional: usize,
        what: &'static str,
    ) -> Result<(), Outcome> {
        let old = S::bytes_for(store.capacity());
        let wanted = store
            .capacity()
            .saturating_mul(2)
            .max(store.len().saturating_add(additional))
            .max(4);
        let new = S::bytes_for(wanted);
        if self.used.saturating_add(new) > self.max_bytes || !store.try_grow(additional) {
            self.exceeded_by = Some(what);
            return Err(Outcome::MemoryLimit);
        }
        let now = S::bytes_for(store.capacity());
        self.peak = self.peak.max(self.used + now);
        self.used = self.used - old.min(self.used) + now;
        Ok(())
    }

    /// Accounts for `bytes` more held outside a [`Store`] (for example a table allocated
    /// whole), unless that crosses the budget: then `Err(Outcome::MemoryLimit)`.
    pub fn charge(&mut self, bytes: u64, what: &'static str) -> Result<(), Outcome> {
        if self.used.saturating_add(bytes) > self.max_bytes {
            self.exceeded_by = Some(what);
            return Err(Outcome::MemoryLimit);
        }
        self.used += bytes;
        self.peak = self.peak.max(self.used);
        Ok(())
    }

    /// Gives back `bytes` accounted with [`Budget::charge`].
    pub fn release(&mut self, bytes: u64) {
        self.used = self.used.saturating_sub(bytes);
    }

    /// How the open list breaks ties (see [`TieBreak`]).
    pub fn tie_break(&self) -> TieBreak {
        self.tie_break
    }

    /// The most bytes accounted at once.
    pub fn peak(&self) -> u64 {
        self.peak
    }

    /// The memory budget in bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_memory_size("512M"), Ok(512 * MIB));
        assert_eq!(parse_memory_size("4G"), Ok(4 * GIB));
        assert_eq!(parse_memory_size("1.5g"), Ok(3 * GIB / 2));
        assert_eq!(parse_memory_size("2097152"), Ok(2 * MIB));
        assert!(parse_memory_size("12").is_err(), "below 1 MiB");
        assert!(parse_memory_size("2X").is_err());
        assert!(parse_memory_size("").is_err());
        assert!(parse_memory_size("5000T").is_err());
    }

    #[test]
    fn default_budget_is_bounded() {
        let b = default_memory_budget();
        assert!((MIN_MEMORY..=MAX_DEFAULT_MEMORY).contains(&b));
    }

    #[test]
    fn a_store_stops_before_crossing_the_budget() {
        let cancel = CancelToken::with_limits(Limits {
            max_memory: MIB,
            ..Limits::default()
        });
        let mut budget = Budget::new(&cancel);
        let mut v: Vec<u64> = Vec::new();
        let mut pushed = 0u64;
        loop {
            if budget.reserve(&mut v, 1, "the test vector").is_err() {
                break;
            }
            v.push(pushed);
            pushed += 1;
        }
        assert!(budget.peak() <= MIB);
        assert!(pushed >= 32 * 1024, "used at least a quarter: {pushed}");
        assert_eq!(budget.exceeded_by, Some("the test vector"));
    }
}
