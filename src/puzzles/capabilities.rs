//! What only some puzzle types do, as optional capabilities: a type offers one by
//! implementing its trait on its own type and returning itself from [`Model::capabilities`]
//! (or, for the one that changes the puzzle, [`Model::preparation`]); the front ends ask
//! with [`Puzzle::capabilities`] and get `None` from every type that does not offer it.
//!
//! ```
//! use puzzlelab::puzzles::{self, Puzzle as _};
//! // The types whose shipped puzzle makes random layouts (those `generate` offers).
//! let makers: Vec<&str> = puzzles::TYPES
//!     .iter()
//!     .filter(|t| t.default_puzzle().capabilities().random_layouts.is_some())
//!     .map(|t| t.name)
//!     .collect();
//! assert!(!makers.is_empty());
//! ```
//!
//! The core contract ([`Puzzle`], [`Model`]) stays what every type does; a new capability
//! is a trait here, a field of [`Capabilities`], and the types that offer it.
//!
//! [`Model`]: super::Model
//! [`Model::capabilities`]: super::Model::capabilities
//! [`Model::preparation`]: super::Model::preparation

use std::fmt;

use super::{Motion, Puzzle};
use crate::search::{self, CancelToken, Outcome};

/// The optional capabilities a puzzle offers, each `None` when it does not (the
/// [`Default`]). Borrowed from the puzzle ([`Puzzle::capabilities`]).
#[derive(Clone, Copy, Default)]
pub struct Capabilities<'a> {
    /// Played by hand: the moves played since the position was loaded, and each move as a
    /// value for animating it.
    pub hand_play: Option<&'a dyn HandPlay>,
    /// Makes random layouts of the same kind (board size, metric, kinds of pieces).
    pub random_layouts: Option<&'a dyn RandomLayouts>,
    /// Measures its heuristic over sampled positions (a space too large to explore).
    pub heuristic_sampling: Option<&'a dyn HeuristicSampling>,
    /// Forecasts the iterations of an IDA* run.
    pub forecasts: Option<&'a dyn IterationForecasts>,
    /// Says how fast its states are expanded, and how many its space holds if it can: a
    /// front end warns before a run when the space is out of reach ([`out_of_reach`]).
    pub reach: Option<&'a dyn Reach>,
}

impl fmt::Debug for Capabilities<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Capabilities")
            .field("hand_play", &self.hand_play.is_some())
            .field("random_layouts", &self.random_layouts.is_some())
            .field("heuristic_sampling", &self.heuristic_sampling.is_some())
            .field("forecasts", &self.forecasts.is_some())
            .field("reach", &self.reach.is_some())
            .finish()
    }
}

/// A puzzle played by hand on the canvas (moves counted, undone, animated).
pub trait HandPlay {
    /// The number of moves played by hand since the position was loaded (undone moves not
    /// counted); 0 at the origin ([`Puzzle::origin`]).
    fn moves_played(&self) -> usize;

    /// The one move that took the position `before` (a copy of this puzzle before a move
    /// played by hand) to this one, as a value, for animating it; `None` (the default) for
    /// types whose hand moves are not animated, or when the positions differ otherwise.
    fn motion_from(&self, _before: &dyn Puzzle) -> Option<Motion> {
        None
    }
}

/// A type that makes random layouts (see [`super::oracle::hardest_of_random`]); the command
/// line's `generate` offers every type whose shipped puzzle has this capability.
pub trait RandomLayouts {
    /// A random layout of the same kind as this puzzle (its board size, metric and kinds of
    /// pieces), from `seed` (the same seed, the same layout); `None` when no layout could be
    /// made for this seed.
    fn random_layout(&self, seed: u64) -> Option<Box<dyn Puzzle>>;
}

/// A heuristic measured over sampled positions: the figures and the positions the examples
/// name, or why it could not be measured (see [`HeuristicSampling::sample_heuristic_quality`]).
pub type SampledQuality =
    Result<(search::heuristic_quality::Quality, Vec<Box<dyn Puzzle>>), String>;

/// A type whose space can be too large to explore, whose heuristic is then measured over
/// random positions.
pub trait HeuristicSampling {
    /// Whether this puzzle is measured by sampling (a board too large to explore).
    fn samples_heuristic_quality(&self) -> bool;

    /// Its heuristic (as set) measured over `samples` random positions from `seed`, h* by an
    /// optimal solver, with the positions the examples' node numbers index; `progress` gets
    /// the number of positions measured so far. `None` when
    /// [`HeuristicSampling::samples_heuristic_quality`] is false; `Some(Err(why))` when it
    /// cannot be measured (a limit of `cancel`, for example).
    fn sample_heuristic_quality(
        &self,
        samples: usize,
        seed: u64,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(usize),
    ) -> Option<SampledQuality>;
}

/// A type that forecasts IDA*'s iterations (Korf, Reid and Edelkamp's prediction).
pub trait IterationForecasts {
    /// Fills in the forecasts of the IDA* `iterations` of a run from this puzzle's start
    /// (`predicted` and `kre`, see [`crate::search::layers::Iteration`]) with `probes`
    /// sampling probes an iteration; leaves them empty where it cannot (no heuristic that
    /// forecasts, or cut off by `cancel`).
    fn forecast_iterations(
        &self,
        iterations: &mut [crate::search::layers::Iteration],
        probes: usize,
        cancel: &CancelToken,
    );
}

/// A type whose searches need work first (tables to load or build), done by the command
/// line before it solves; the GUI's view of such a type does it in the background.
pub trait Preparation {
    /// Does that work: choosing the type's best heuristic when `defaults` says the user chose
    /// none. `progress` gets the fraction done (0 to 1); `cancel` carries the limits.
    ///
    /// # Errors
    /// A [`PrepareError`]: a limit reached, or a failed build.
    fn prepare(
        &mut self,
        defaults: bool,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(f64),
    ) -> Result<(), PrepareError>;
}

/// Why [`Preparation::prepare`] failed, in terms every front end can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrepareError {
    /// What went wrong, for the user.
    pub message: String,
    /// The limit that stopped the work (memory or time), or `None` for another failure.
    pub limit: Option<Outcome>,
}

impl PrepareError {
    /// The outcome of work stopped at one of the search's limits (memory or time), or `None`
    /// for another error.
    #[must_use]
    pub fn limit_outcome(&self) -> Option<Outcome> {
        self.limit
    }
}

impl fmt::Display for PrepareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PrepareError {}

/// A type whose expansions are slow enough (each through an interpreter, say) that
/// its space may be out of reach: it measures its rate as it goes and may say how large its
/// space is.
pub trait Reach {
    /// States expanded a second so far (on one thread), or `None` before any was.
    fn states_per_second(&self) -> Option<f64>;
    /// How many states the space holds, as the puzzle estimates it, if it can say.
    fn estimated_states(&self) -> Option<f64>;
    /// Expands states from the position for about `time`, so that
    /// [`Reach::states_per_second`] has a measure (the command line's, before a run).
    fn measure(&self, time: std::time::Duration);
}

/// The horizon of a run without a time limit, past which [`out_of_reach`] calls a space out
/// of reach.
pub const REACH_HORIZON: std::time::Duration = std::time::Duration::from_secs(600);

/// What to say before a run when `reach`'s space is out of reach at the rate measured so
/// far: its estimated states would take longer than `timeout` (or [`REACH_HORIZON`]) to
/// expand. `None` when it is within reach, or when the rate or the size is not known.
pub fn out_of_reach(reach: &dyn Reach, timeout: Option<std::time::Duration>) -> Option<String> {
    let rate = reach.states_per_second().filter(|r| *r > 0.0)?;
    let states = reach.estimated_states()?;
    let seconds = states / rate;
    let horizon = timeout.unwrap_or(REACH_HORIZON);
    if seconds <= horizon.as_secs_f64() {
        return None;
    }
    let bound = match timeout {
        Some(t) => format!("the time limit of {}", seconds_text(t.as_secs_f64())),
        None => seconds_text(horizon.as_secs_f64()),
    };
    Some(format!(
        "out of reach: about {} states (the puzzle's estimate) at {} states a second so far \
         would take about {}, more than {bound}",
        count_text(states),
        count_text(rate),
        seconds_text(seconds),
    ))
}

/// A count, rounded, its digits grouped by threes: `33,554,432`.
fn count_text(n: f64) -> String {
    let digits = format!("{:.0}", n.max(0.0));
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A span of seconds in the largest unit that keeps it above one: `40 s`, `2.5 min`,
/// `3.1 hours`, `4.0 days`, `12 years`.
fn seconds_text(seconds: f64) -> String {
    const UNITS: [(f64, &str); 4] = [
        (365.25 * 86_400.0, "years"),
        (86_400.0, "days"),
        (3_600.0, "hours"),
        (60.0, "min"),
    ];
    for (size, unit) in UNITS {
        if seconds >= size {
            let n = seconds / size;
            return if n >= 100.0 {
                format!("{} {unit}", count_text(n))
            } else {
                format!("{n:.1} {unit}")
            };
        }
    }
    format!("{seconds:.0} s")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{Reach, out_of_reach};

    struct Fixed(Option<f64>, Option<f64>);

    impl Reach for Fixed {
        fn states_per_second(&self) -> Option<f64> {
            self.0
        }
        fn estimated_states(&self) -> Option<f64> {
            self.1
        }
        fn measure(&self, _time: Duration) {}
    }

    /// Out of reach when the estimate takes longer than the time limit (or the horizon) at
    /// the rate so far; nothing said when either is unknown or the space is within reach.
    #[test]
    fn a_space_is_out_of_reach_past_the_time_limit() {
        let lights_out = Fixed(Some(100.0), Some(33_554_432.0));
        assert_eq!(
            out_of_reach(&lights_out, None).as_deref(),
            Some(
                "out of reach: about 33,554,432 states (the puzzle's estimate) at 100 states a \
                 second so far would take about 3.9 days, more than 10.0 min"
            )
        );
        let limited = out_of_reach(&lights_out, Some(Duration::from_secs(30)));
        assert!(limited.is_some_and(|w| w.ends_with("more than the time limit of 30 s")));
        assert_eq!(
            out_of_reach(&Fixed(Some(80_000.0), Some(181_440.0)), None),
            None
        );
        assert_eq!(out_of_reach(&Fixed(None, Some(1e12)), None), None);
        assert_eq!(out_of_reach(&Fixed(Some(100.0), None), None), None);
        assert_eq!(super::seconds_text(1e12), "31,688 years");
    }
}
