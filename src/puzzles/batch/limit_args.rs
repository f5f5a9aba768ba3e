//! The limits of the commands that search (`--max-memory`, `--timeout`, `--tie-break`), as
//! a clap `Args` every such command flattens in (`solve`, `scenario`, `bench sliding`), and
//! the value parser of a whole number in a range ([`ranged`]).

use std::time::Duration;

use crate::search::limits::{self, MAX_TIMEOUT_SECS};
use crate::search::{CancelToken, Limits, TieBreak};

/// The limits of the subcommands that search.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct LimitArgs {
    /// The memory budget of each search, such as 512M or 4G (1M to 1T). A search stops
    /// before it would use more (exit code 3). Default: half of the memory this process may
    /// use (physical memory, cgroup limit, address-space limit), at most 8G.
    #[arg(long, value_name = "SIZE", value_parser = limits::parse_memory_size)]
    max_memory: Option<u64>,
    /// Stop each search after this many seconds (0.001 to 604800; exit code 3). Default: no
    /// time limit.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<f64>,
    /// Among states of equal priority on the open list (Dijkstra, A*, weighted A*, greedy,
    /// JPS, bidirectional A*), which to expand first: high-g (the larger path cost, the
    /// default), low-g, fifo or lifo.
    #[arg(long, value_name = "POLICY", value_parser = parse_tie_break)]
    tie_break: Option<TieBreak>,
}

fn parse_tie_break(text: &str) -> Result<TieBreak, String> {
    TieBreak::from_name(text.trim())
        .ok_or_else(|| format!("`{text}` is not a tie-breaking policy (high-g, low-g, fifo, lifo)"))
}

impl LimitArgs {
    /// A fresh cancel token carrying these limits.
    pub fn token(&self) -> CancelToken {
        self.token_after(Duration::ZERO)
    }

    /// A fresh cancel token carrying these limits, its time limit shortened by `spent` (the
    /// time loading the puzzle took, which `--timeout` counts too).
    pub fn token_after(&self, spent: Duration) -> CancelToken {
        let mut limits = Limits::default();
        if let Some(bytes) = self.max_memory {
            limits.max_memory = bytes;
        }
        limits.timeout = self
            .timeout
            .map(|t| Duration::from_secs_f64(t).saturating_sub(spent));
        limits.tie_break = self.tie_break.unwrap_or_default();
        CancelToken::with_limits(limits)
    }
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if (0.001..=MAX_TIMEOUT_SECS).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!(
            "the time limit must be from 0.001 to {MAX_TIMEOUT_SECS} seconds"
        ))
    }
}

/// A clap value parser for a whole number from `min` to `max`.
pub fn ranged<T>(
    min: T,
    max: T,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let value: T = text
            .trim()
            .parse()
            .map_err(|_| format!("`{text}` is not a whole number"))?;
        if value < min || value > max {
            return Err(format!("must be from {min} to {max}"));
        }
        Ok(value)
    }
}
