//! The "Heuristic" window's state: the heuristic of the puzzle on screen measured against the
//! exact least costs over the oracle's explored space
//! ([`crate::search::heuristic_quality`]), on a background thread, again whenever the
//! space or the heuristic changes; and the canvas tint of h* - h for types whose states are
//! places. For boards too large to explore (the 15- and 24-puzzles), the same figures over
//! random positions solved optimally, on request ([`SampleMeasure`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::job::Job;
use super::oracle::OracleState;
use crate::puzzles::{Cell, Puzzle};
use crate::search::heuristic_quality::{Quality, StateExample};
use crate::search::{CancelToken, Limits, Outcome};

/// A measure done: the figures, and for types whose states are places the least h* - h of
/// the states on each square (none for dead ends).
pub struct Measured {
    /// The figures.
    pub quality: Quality,
    /// `(square, least h* - h there)` for the squares with measured states; empty for
    /// whole boards.
    pub gaps: Vec<(Cell, f32)>,
    /// The largest h* - h on the squares (for the tint's scale), at least 1.
    pub max_gap: f32,
}

/// What the window shows and works on.
#[derive(Default)]
pub struct HeuristicWindow {
    /// Whether the window is open.
    pub open: bool,
    /// Whether the canvas is tinted by h* - h (types whose states are places).
    pub tint: bool,
    job: Option<Job<Option<Result<Measured, Outcome>>>>,
    /// The last measure, once done.
    pub measured: Option<Arc<Measured>>,
    /// The (oracle generation, heuristic name) measured or being measured.
    measured_for: Option<(u64, String)>,
    /// Why the last measure gave nothing, if it did.
    pub failure: Option<String>,
    /// The measure over random positions, for boards too large to explore.
    pub sample: SampleMeasure,
    /// The overestimate that refuted the puzzle's declared admissibility, once the claim was
    /// withdrawn (see [`super::AppState::withdraw_refuted_claim`]); `None` otherwise.
    pub refuted: Option<StateExample>,
    /// The results table's rows already checked against the refutation.
    pub(super) rows_checked: usize,
}

/// A measure over random positions done: the figures and the positions its examples name.
pub struct Sampled {
    /// The figures ([`Quality::sampled`] says how many positions).
    pub quality: Quality,
    /// The positions, indexed by the examples' node numbers.
    pub positions: Vec<Box<dyn Puzzle>>,
    /// How many positions were asked for (more than measured when stopped).
    pub asked: usize,
}

/// What a sample is of: the type, the board's (rows, columns) and the heuristic.
type SampleKey = (&'static str, (usize, usize), String);

/// The measure of the heuristic over random positions, each solved optimally (see
/// [`Puzzle::sample_heuristic_quality`]), run on request on a background thread with its
/// progress; forgotten when the type, the board's size or the heuristic changes.
pub struct SampleMeasure {
    /// How many positions the next measure takes.
    pub size: usize,
    job: Option<Job<Option<crate::puzzles::SampledQuality>, usize>>,
    /// Positions measured so far by the running measure.
    pub done: usize,
    /// The last measure, once done.
    pub sampled: Option<Arc<Sampled>>,
    /// Why the last measure gave nothing, if it did.
    pub failure: Option<String>,
    of: Option<SampleKey>,
    /// The size of the measure running or last run.
    asked: usize,
}

impl Default for SampleMeasure {
    fn default() -> Self {
        Self {
            size: 100,
            job: None,
            done: 0,
            sampled: None,
            failure: None,
            of: None,
            asked: 0,
        }
    }
}

/// The seed of the app's samples (the command line's default too), so that a sample can be
/// measured again with another heuristic on the same positions.
const SAMPLE_SEED: u64 = 1;

impl SampleMeasure {
    fn key(puzzle: &dyn Puzzle) -> SampleKey {
        (
            puzzle.puzzle_type().name,
            puzzle.dims(),
            puzzle.heuristic_name(),
        )
    }

    /// Starts measuring `puzzle`'s heuristic over [`SampleMeasure::size`] random positions
    /// under `limits` (stopping any measure running).
    pub fn start(
        &mut self,
        puzzle: &dyn Puzzle,
        limits: Limits,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) {
        self.of = Some(Self::key(puzzle));
        self.sampled = None;
        self.failure = None;
        self.done = 0;
        self.asked = self.size;
        let (puzzle, size) = (puzzle.clone_box(), self.size);
        self.job = Job::start(
            "heuristic-sample",
            CancelToken::with_limits(limits),
            wake.clone(),
            move |cx| {
                let sampling = puzzle.capabilities().heuristic_sampling?;
                sampling.sample_heuristic_quality(size, SAMPLE_SEED, &cx.cancel, &mut |done| {
                    cx.progress(done)
                })
            },
        )
        .ok();
        if self.job.is_none() {
            self.failure = Some("no thread could be started for it".to_owned());
        }
    }

    /// Stops the running measure.
    pub fn stop(&mut self) {
        if let Some(job) = &self.job {
            job.stop();
        }
    }

    /// Whether a measure is running.
    pub fn is_measuring(&self) -> bool {
        self.job.is_some()
    }

    /// The frame's work: takes the running measure's progress and result, and forgets a
    /// measure of another type, board size or heuristic than `puzzle`'s.
    pub fn tick(&mut self, puzzle: &dyn Puzzle) {
        if self.of.is_some() && self.of != Some(Self::key(puzzle)) {
            *self = Self {
                size: self.size,
                ..Self::default()
            };
            return;
        }
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let mut done = self.done;
        let answer = job.poll(|n| done = n);
        self.done = done;
        let Some(answer) = answer else {
            return;
        };
        self.job = None;
        match answer {
            Ok(Some(Ok((quality, positions)))) => {
                self.sampled = Some(Arc::new(Sampled {
                    quality,
                    positions,
                    asked: self.asked,
                }))
            }
            Ok(Some(Err(why))) => self.failure = Some(why),
            Ok(None) => {
                self.failure = Some("this puzzle is measured over its explored space".to_owned())
            }
            Err(e) => self.failure = Some(e.to_string()),
        }
    }
}

impl HeuristicWindow {
    /// The frame's work while the window is open (or the tint shown): starts a measure of
    /// `puzzle`'s heuristic when the space or the heuristic changed, and takes it when done.
    pub fn tick(
        &mut self,
        oracle: &OracleState,
        puzzle: &dyn Puzzle,
        limits: Limits,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) {
        self.sample.tick(puzzle);
        if !self.open && !self.tint {
            return;
        }
        let (Some(shared), true) = (oracle.shared(), oracle.space().is_some()) else {
            self.clear();
            return;
        };
        let key = (oracle.generation(), puzzle.heuristic_name());
        if self.measured_for.as_ref() != Some(&key) {
            self.measured_for = Some(key);
            self.measured = None;
            self.failure = None;
            self.refuted = None;
            let puzzle = puzzle.clone_box();
            self.job = Job::start(
                "heuristic-measure",
                CancelToken::with_limits(limits),
                wake.clone(),
                move |cx| {
                    let space = shared.space()?;
                    Some(
                        space
                            .heuristic_quality(puzzle.as_ref(), &cx.cancel)?
                            .map(|quality| gaps_by_square(space, quality)),
                    )
                },
            )
            .ok();
        }
        if let Some(done) = self.job.as_mut().and_then(|job| job.poll(|()| {})) {
            self.job = None;
            match done {
                Ok(Some(Ok(measured))) => self.measured = Some(Arc::new(measured)),
                Ok(Some(Err(Outcome::MemoryLimit))) => {
                    self.failure = Some(
                        "it needs more memory than the limit (Memory limit, details panel)".into(),
                    )
                }
                Ok(Some(Err(_))) => self.failure = Some("the measure was stopped".to_owned()),
                Ok(None) => {
                    self.failure = Some("the puzzle on screen is not of the space explored".into())
                }
                Err(e) => self.failure = Some(e.to_string()),
            }
        }
    }

    /// Whether a measure is running.
    pub fn is_measuring(&self) -> bool {
        self.job.is_some()
    }

    /// The squares' h* - h to tint the canvas with, when the tint is on and measured.
    pub fn tint(&self) -> Option<(&[(Cell, f32)], f32)> {
        let m = self.measured.as_ref().filter(|_| self.tint)?;
        (!m.gaps.is_empty()).then_some((m.gaps.as_slice(), m.max_gap))
    }

    fn clear(&mut self) {
        self.job = None;
        self.measured = None;
        self.measured_for = None;
        self.failure = None;
        self.refuted = None;
    }

    /// The largest overestimate (h > h*) the measure over the whole space `oracle` explored
    /// found, if it found one (none from a measure of an earlier space).
    pub fn overestimate(&self, oracle: &OracleState) -> Option<StateExample> {
        if self
            .measured_for
            .as_ref()
            .map(|(generation, _)| *generation)
            != Some(oracle.generation())
        {
            return None;
        }
        let quality = &self.measured.as_ref()?.quality;
        (!quality.admissible && quality.sampled.is_none())
            .then(|| quality.inadmissible.first().copied())
            .flatten()
    }
}

/// The measure with the least h* - h on each square of a space whose states are places.
fn gaps_by_square(space: &dyn crate::puzzles::oracle::Space, quality: Quality) -> Measured {
    let mut least: BTreeMap<Cell, f32> = BTreeMap::new();
    for (node, &gap) in quality.gap.iter().enumerate() {
        if gap.is_nan() {
            continue;
        }
        if let Some(place) = space.place_of(node as u32) {
            let e = least.entry(place.cell).or_insert(gap);
            *e = e.min(gap);
        }
    }
    let max_gap = least.values().copied().fold(1.0, f32::max);
    Measured {
        quality,
        gaps: least.into_iter().collect(),
        max_gap,
    }
}
