//! Stopping a running search: the shared flag every algorithm checks before each expansion,
//! with the limits the search runs under.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Limits;

/// A shared flag that stops a running search, and the [`Limits`] the search runs under.
/// Cloning gives another handle to the same flag (with the same limits). The algorithms check
/// it before every expansion.
#[derive(Clone, Debug, Default)]
pub struct CancelToken {
    flag: Arc<AtomicBool>,
    limits: Option<Limits>,
}

impl CancelToken {
    /// A token that has not been cancelled, with the default limits (see [`Limits::default`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// A token that has not been cancelled, with `limits`.
    pub fn with_limits(limits: Limits) -> Self {
        Self {
            flag: Arc::default(),
            limits: Some(limits),
        }
    }

    /// A token that shares this one's cancel flag (cancelling either cancels both) but has
    /// the limits `limits`: for a part of a run with a smaller budget.
    pub fn sharing_flag(&self, limits: Limits) -> Self {
        Self {
            flag: self.flag.clone(),
            limits: Some(limits),
        }
    }

    /// The limits of searches run with this token.
    pub fn limits(&self) -> Limits {
        self.limits.unwrap_or_default()
    }

    /// Asks every search holding this token to stop.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether [`CancelToken::cancel`] was called.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}
