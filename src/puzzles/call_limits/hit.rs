//! Which limit ended a call into a puzzle's own program ([`Hit`]), and how it is said to
//! people ("the script's `moves` ran past the run's time limit").

use std::time::Duration;

use crate::search::Outcome;
use crate::search::limits::format_bytes;

/// The limit that ended a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    /// The run was stopped (Stop, or a run cancelled as out of date).
    Cancelled,
    /// The run's time limit passed during the call of `entry`.
    RunTimeout {
        /// The program's function that was running (`start`, `moves`, ...).
        entry: &'static str,
    },
    /// The call of `entry` held more memory than the run's budget of `budget` bytes.
    RunMemory {
        /// The program's function that was running.
        entry: &'static str,
        /// The run's memory budget, in bytes.
        budget: u64,
    },
    /// The call of `entry` ran past its own time limit.
    CallTime {
        /// The program's function that was running.
        entry: &'static str,
        /// The call's time limit.
        limit: Duration,
    },
    /// The call of `entry` held more memory than its own limit of `limit` bytes.
    CallMemory {
        /// The program's function that was running.
        entry: &'static str,
        /// The call's memory limit, in bytes.
        limit: u64,
    },
}

impl Hit {
    /// How the run ends for a limit of the run (Stop, its time limit, its memory budget);
    /// `None` for a limit of the call, which is the program's error.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Hit::Cancelled => Some(Outcome::Cancelled),
            Hit::RunTimeout { .. } => Some(Outcome::Timeout),
            Hit::RunMemory { .. } => Some(Outcome::MemoryLimit),
            Hit::CallTime { .. } | Hit::CallMemory { .. } => None,
        }
    }
}

/// A duration for people: `50 ms`, `2 s`, `1.5 s`.
pub(super) fn format_duration(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else {
        let text = format!("{:.3}", d.as_secs_f64());
        format!("{} s", text.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// The part of the program that ran: "the script's `draw`", "the script's top level".
fn who(entry: &str) -> String {
    if entry == TOP_LEVEL {
        format!("the script's {entry}")
    } else {
        format!("the script's `{entry}`")
    }
}

/// The entry name of a program's top level (see [`begin`]).
pub const TOP_LEVEL: &str = "top level";

impl std::fmt::Display for Hit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Hit::Cancelled => f.write_str("the run was stopped"),
            Hit::RunTimeout { entry } => {
                write!(f, "{} ran past the run's time limit", who(entry))
            }
            Hit::RunMemory { entry, budget } => write!(
                f,
                "{} held more than the run's memory budget of {}",
                who(entry),
                format_bytes(*budget)
            ),
            Hit::CallTime { entry, limit } => write!(
                f,
                "{} ran past its time limit of {}",
                who(entry),
                format_duration(*limit)
            ),
            Hit::CallMemory { entry, limit } => write!(
                f,
                "{} held more than its memory limit of {}",
                who(entry),
                format_bytes(*limit)
            ),
        }
    }
}

impl std::error::Error for Hit {}
