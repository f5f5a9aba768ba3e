//! The oracle's frame work: following the puzzle edited and played, building the oracle on
//! its background job (`oracle-build`), assessing each new position (`oracle`, the previous
//! assessment cancelled), and the panel's Stop and Try again.

use std::sync::Arc;

use super::super::job::Job;
use super::{Build, FromOrigin, OracleState, Pending, PositionKey, arrow};
use crate::puzzles::oracle::{Assessment, Distance, OracleError};
use crate::puzzles::{Picture, Puzzle};
use crate::search::{CancelToken, Limits};

impl OracleState {
    /// The frame's work: takes the build's and the search's messages, and assesses the
    /// position when it changed. `puzzle` is the puzzle being edited and played (the oracle
    /// is made for it); `shown` the position the canvas draws when that is another (a
    /// solution's playback), and `key` names the position assessed.
    pub fn tick(
        &mut self,
        puzzle: &dyn Puzzle,
        shown: Option<&dyn Puzzle>,
        key: PositionKey,
        limits: Limits,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) {
        // Ticked or not, what the oracle knows follows the puzzle on screen.
        self.follow_puzzle(puzzle, key.revision);
        if !self.enabled {
            if self.build.is_some() || self.pending.is_some() {
                self.stop();
            }
            return;
        }
        self.poll_build(key);
        if self.error.is_some()
            && let Some(at) = self.error_revision
            && at != key
        {
            self.retry();
        }
        if self.build.is_some() || self.error.is_some() {
            return;
        }
        let Some(oracle) = self.oracle.clone() else {
            self.start_build(puzzle, key, limits, wake);
            return;
        };
        self.poll_pending();
        // A build just made the oracle: its facts about the puzzle are derived now.
        self.follow_puzzle(puzzle, key.revision);
        if self.revision == Some(key) {
            return;
        }
        self.revision = Some(key);
        let is_origin =
            shown.is_none() && puzzle.capabilities().hand_play.map(|h| h.moves_played()) == Some(0);
        let puzzle = shown.unwrap_or(puzzle);
        self.assessment = None;
        self.partial = None;
        self.arrows.clear();
        self.pending = None;
        if oracle.is_instant() {
            match oracle.assess(puzzle, &CancelToken::new()) {
                Some(a) => self.set_assessment(puzzle.picture(), is_origin, a),
                None if self.rebuilt_for == Some(key) => {
                    self.error = Some("this position is not in the explored space".into());
                    self.error_revision = Some(key);
                }
                // The rules changed since the oracle was made: make it again.
                None => self.start_build(puzzle, key, limits, wake),
            }
            return;
        }
        self.lower_bound = oracle.lower_bound(puzzle);
        if self.lower_bound.is_none() && self.rebuilt_for != Some(key) {
            // Not a position of this oracle's puzzle: the rules changed.
            self.start_build(puzzle, key, limits, wake);
            return;
        }
        let position = puzzle.clone_box();
        let spawned = Job::start(
            "oracle",
            CancelToken::with_limits(limits),
            wake.clone(),
            move |cx| {
                if let Some(d) = oracle.distance(position.as_ref(), &cx.cancel) {
                    cx.progress(d);
                }
                oracle.assess(position.as_ref(), &cx.cancel)
            },
        );
        match spawned {
            Ok(job) => self.pending = Some(Pending { key, job }),
            Err(e) => self.error = Some(format!("could not start the oracle's search: {e}")),
        }
        self.pending_picture = Some(puzzle.picture());
        self.pending_origin = is_origin;
    }

    /// The one place where what the oracle knows is made to describe the puzzle on screen
    /// (`revision` its edit count): a puzzle of another type, or one the oracle does not
    /// know (other rules: another maze, a wall painted, another board), drops the oracle
    /// and everything derived from it (the explored space, the distances from the start, the
    /// distance map, the assessment); for a puzzle it knows (a move played, the start
    /// dragged within the space) the distances from the start are derived again. Once per
    /// edit, whether the oracle is ticked or not, so no readout (the hover, the State space
    /// window) ever describes a puzzle no longer on screen.
    pub(super) fn follow_puzzle(&mut self, puzzle: &dyn Puzzle, revision: u64) {
        let type_name = puzzle.puzzle_type().name;
        if self.type_name != type_name {
            self.reset();
            self.type_name = type_name;
        }
        if self.oracle.is_none()
            && let Some((of, at)) = &mut self.built_of
            && *at != revision
        {
            *at = revision;
            if !of.same_rules_as(puzzle) {
                // Started for rules no longer on screen: its work (or its failure) does not
                // describe this puzzle. Stopped, and started again for these when ticked.
                self.stop();
                self.built_of = None;
                self.retry();
            }
        }
        if self.origin_revision == Some(revision) {
            return;
        }
        let Some(oracle) = self.oracle.clone() else {
            return;
        };
        let known = match oracle.space() {
            Some(space) => space.node_of(puzzle).is_some(),
            None => oracle.lower_bound(puzzle).is_some(),
        };
        let built_for_it = self.rebuilt_for.map(|k| k.revision) == Some(revision);
        if !known && !built_for_it {
            // Made for other rules: made again for these when ticked (see `tick`).
            self.reset();
            self.type_name = type_name;
            return;
        }
        // The origin changes with every edit that is not a move (a scramble, a load).
        self.origin_revision = Some(revision);
        self.from_origin = oracle.space().map_or(FromOrigin::Unknown, |space| {
            FromOrigin::of(space, puzzle.origin().as_ref())
        });
        if oracle.is_instant() {
            self.origin_distance = oracle
                .assess(puzzle.origin().as_ref(), &CancelToken::new())
                .and_then(|a| a.distance.exact());
        } else if puzzle.capabilities().hand_play.map(|h| h.moves_played()) == Some(0) {
            // A new origin: its distance comes with its assessment.
            self.origin_distance = None;
        }
    }

    pub(super) fn set_assessment(
        &mut self,
        picture: Picture,
        origin: bool,
        assessment: Assessment,
    ) {
        if origin {
            self.origin_distance = assessment.distance.exact();
        }
        // From a dead end no move leads anywhere useful: the panel says so, no arrows.
        self.arrows = if assessment.distance == Distance::DeadEnd {
            Vec::new()
        } else {
            assessment
                .moves
                .iter()
                .filter_map(|m| arrow(&picture, m.motion?, m.rating))
                .collect()
        };
        self.assessment = Some(assessment);
    }

    pub(super) fn poll_pending(&mut self) {
        let Some(p) = self.pending.as_mut() else {
            return;
        };
        if self.revision != Some(p.key) {
            self.pending = None;
            return;
        }
        // The distance, once known, replaces the lower bound until the moves are rated.
        let partial = &mut self.partial;
        let Some(answer) = p.job.poll(|d| *partial = Some(d)) else {
            return;
        };
        self.pending = None;
        match answer {
            Ok(full) => {
                if let (Some(a), Some(picture)) = (full, self.pending_picture.take()) {
                    let origin = self.pending_origin;
                    self.set_assessment(picture, origin, a);
                }
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    pub(super) fn start_build(
        &mut self,
        puzzle: &dyn Puzzle,
        revision: PositionKey,
        limits: Limits,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) {
        self.stop();
        self.oracle = None;
        self.assessment = None;
        self.arrows.clear();
        self.revision = None;
        self.origin_revision = None;
        self.rebuilt_for = Some(revision);
        let puzzle: Arc<dyn Puzzle> = Arc::from(puzzle.clone_box());
        self.built_of = Some((puzzle.clone(), revision.revision));
        let spawned = Job::start(
            "oracle-build",
            CancelToken::with_limits(limits),
            wake.clone(),
            move |cx| {
                // Progress lines at most every 50 ms.
                let mut last = std::time::Instant::now();
                puzzle.oracle(&cx.cancel, &mut |line| {
                    if last.elapsed().as_millis() >= 50 {
                        last = std::time::Instant::now();
                        cx.progress(line.to_owned());
                    }
                })
            },
        );
        match spawned {
            Ok(job) => {
                self.build = Some(Build {
                    job,
                    progress: "starting".to_owned(),
                });
            }
            Err(e) => self.error = Some(format!("could not start the oracle: {e}")),
        }
    }

    pub(super) fn poll_build(&mut self, revision: PositionKey) {
        let Some(build) = self.build.as_mut() else {
            return;
        };
        let progress = &mut build.progress;
        let Some(done) = build.job.poll(|line| *progress = line) else {
            return;
        };
        self.build = None;
        self.error_lasting = matches!(
            done,
            Ok(Err(OracleError::TooLarge(_) | OracleError::Unsupported))
        );
        match done
            .map_err(|e| e.to_string())
            .and_then(|r| r.map_err(|e| e.to_string()))
        {
            Ok(oracle) => {
                // The oracle itself says which puzzles it knows from now on.
                self.built_of = None;
                self.oracle = Some(Arc::from(oracle));
                self.generation += 1;
                self.rebuilt_for = Some(revision);
            }
            Err(e) => {
                self.error = Some(e);
                self.error_revision = Some(revision);
            }
        }
    }

    /// Cancels the oracle's preparation (the panel's Stop); the error says so.
    pub fn cancel_build(&mut self) {
        if self.build.is_some() {
            self.stop();
            self.error = Some("stopped".to_owned());
        }
    }

    /// Forgets a failure so the next frame tries again.
    pub fn retry(&mut self) {
        self.error = None;
        self.error_revision = None;
        self.error_lasting = false;
        self.rebuilt_for = None;
        self.revision = None;
    }
}
