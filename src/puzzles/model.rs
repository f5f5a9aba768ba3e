//! Typed puzzle models behind one generic adapter: each type implements [`Model`] on its own
//! concrete type (its moves, its states, its previous position as itself), and one blanket
//! implementation makes every model a [`Puzzle`], the object-safe face the front ends hold.
//! What every type did alike (clone into a box, the `Any` views, the oracle by exploring the
//! state space, replaying named moves, the algorithm checks) is written once, here; the
//! erasure of the concrete type happens in this module and nowhere else of the engine.

use std::any::Any;
use std::fmt;

use super::oracle::{self, Explorable, Oracle, OracleError};
use super::{
    Capabilities, Cell, Picture, Preparation, Puzzle, PuzzleOption, PuzzleType, Report, Watcher,
};
use crate::search::{self, Algorithm, CancelToken, SearchError};

/// One puzzle type's model: what it draws, how it is edited, saved and solved, in its own
/// types. [`Puzzle`] documents each method; the defaults every type shares are written here
/// once (its algorithms, counting its states, its oracle by exploring the space, no
/// capabilities). A model is a [`search::Problem`] whose whole space can be explored
/// ([`Explorable`]); its oracle by default explores it (see [`oracle::explore_counting`]).
/// What only some types do is an optional capability ([`Model::capabilities`]).
pub trait Model: Explorable + fmt::Debug + Send + Sync
where
    Self::State: Send + Sync,
{
    /// The registry entry of this type (see [`Puzzle::puzzle_type`]): `&TYPE`, the type's
    /// own static.
    const TYPE: &'static PuzzleType;

    /// See [`Puzzle::picture`].
    fn picture(&self) -> Picture;

    /// See [`Puzzle::dims`].
    fn dims(&self) -> (usize, usize) {
        let p = self.picture();
        (p.rows, p.cols)
    }

    /// See [`Puzzle::algorithms`]; by default those that apply ([`super::applicable`]).
    fn algorithms(&self) -> Vec<Algorithm> {
        super::applicable(self)
    }

    /// See [`Puzzle::heuristic_name`].
    fn heuristic_name(&self) -> String;

    /// See [`Puzzle::default_algorithm`].
    fn default_algorithm(&self) -> Algorithm;

    /// See [`Puzzle::solve`].
    ///
    /// # Errors
    /// As [`search::run`].
    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError>;

    /// See [`Puzzle::solve_default`].
    ///
    /// # Errors
    /// As [`Puzzle::solve`].
    fn solve_default(
        &self,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        Model::solve(self, Model::default_algorithm(self), watcher, cancel)
    }

    /// See [`Puzzle::count_states`]; by default a breadth-first walk of the whole space
    /// ([`search::count_reachable`]).
    fn count_states(&self, cancel: &CancelToken) -> search::StateCount {
        search::count_reachable(self, cancel)
    }

    /// See [`Puzzle::oracle`]; the default explores the whole state space.
    ///
    /// # Errors
    /// [`OracleError`]: a space too large, or a limit.
    fn oracle(
        &self,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Box<dyn Oracle>, OracleError> {
        oracle::explore_counting(self, cancel, progress)
    }

    /// See [`Puzzle::capabilities`]; none by default. A type offering one implements its
    /// trait (see [`super::capabilities`]) and returns itself in that field.
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities::default()
    }

    /// See [`Puzzle::preparation`]; `None` by default.
    fn preparation(&mut self) -> Option<&mut dyn Preparation> {
        None
    }

    /// See [`Puzzle::options`].
    fn options(&self) -> Vec<PuzzleOption> {
        vec![]
    }

    /// See [`Puzzle::set_option`].
    ///
    /// # Errors
    /// As [`Puzzle::set_option`].
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        Err(format!("unknown option `{name}` `{value}`"))
    }

    /// See [`Puzzle::stroke_value`].
    fn stroke_value(&self, cell: Cell) -> Option<u8>;

    /// See [`Puzzle::paint`].
    fn paint(&mut self, cell: Cell, value: u8) -> bool;

    /// See [`Puzzle::unsolvable`].
    fn unsolvable(&self) -> Option<String> {
        None
    }

    /// See [`Puzzle::withdraw_admissibility`].
    fn withdraw_admissibility(&mut self) -> bool {
        false
    }

    /// See [`Puzzle::begin_stroke`].
    fn begin_stroke(&mut self) {}

    /// See [`Puzzle::to_text`].
    fn to_text(&self) -> String;

    /// See [`Puzzle::position_text`].
    fn position_text(&self) -> String {
        self.to_text()
    }

    /// See [`Puzzle::to_json`].
    fn to_json(&self) -> serde_json::Value;
}

/// The generic adapter: every [`Model`] is a [`Puzzle`].
impl<M: Model> Puzzle for M
where
    M::State: Send + Sync,
{
    fn puzzle_type(&self) -> &'static PuzzleType {
        M::TYPE
    }

    fn picture(&self) -> Picture {
        Model::picture(self)
    }

    fn dims(&self) -> (usize, usize) {
        Model::dims(self)
    }

    fn algorithms(&self) -> Vec<Algorithm> {
        Model::algorithms(self)
    }

    fn heuristic_name(&self) -> String {
        Model::heuristic_name(self)
    }

    fn default_algorithm(&self) -> Algorithm {
        Model::default_algorithm(self)
    }

    fn guarantees_optimal(&self, algorithm: Algorithm) -> bool {
        algorithm.is_optimal_for(self)
    }

    fn refusal(&self, algorithm: Algorithm) -> Option<SearchError> {
        algorithm.refusal(self)
    }

    fn unsolvable(&self) -> Option<String> {
        Model::unsolvable(self)
    }

    fn withdraw_admissibility(&mut self) -> bool {
        Model::withdraw_admissibility(self)
    }

    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        Model::solve(self, algorithm, watcher, cancel)
    }

    fn solve_default(
        &self,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        Model::solve_default(self, watcher, cancel)
    }

    fn count_states(&self, cancel: &CancelToken) -> search::StateCount {
        Model::count_states(self, cancel)
    }

    fn oracle(
        &self,
        cancel: &CancelToken,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Box<dyn Oracle>, OracleError> {
        Model::oracle(self, cancel, progress)
    }

    fn capabilities(&self) -> Capabilities<'_> {
        Model::capabilities(self)
    }

    fn preparation(&mut self) -> Option<&mut dyn Preparation> {
        Model::preparation(self)
    }

    fn metric_label(&self) -> String {
        Explorable::metric_name(self)
    }

    fn same_rules_as(&self, other: &dyn Puzzle) -> bool {
        other
            .model::<M>()
            .is_some_and(|o| Explorable::same_rules(self, o))
    }

    fn origin(&self) -> Box<dyn Puzzle> {
        Box::new(Explorable::at_origin(self))
    }

    fn after_moves(&self, moves: &[String]) -> Option<Box<dyn Puzzle>> {
        let states = super::replay(self, moves).ok()?;
        let last = states.last()?;
        Some(Box::new(Explorable::at_state(self, last)))
    }

    fn options(&self) -> Vec<PuzzleOption> {
        Model::options(self)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        Model::set_option(self, name, value)
    }

    fn stroke_value(&self, cell: Cell) -> Option<u8> {
        Model::stroke_value(self, cell)
    }

    fn paint(&mut self, cell: Cell, value: u8) -> bool {
        Model::paint(self, cell, value)
    }

    fn begin_stroke(&mut self) {
        Model::begin_stroke(self);
    }

    fn to_text(&self) -> String {
        Model::to_text(self)
    }

    fn position_text(&self) -> String {
        Model::position_text(self)
    }

    fn to_json(&self) -> serde_json::Value {
        Model::to_json(self)
    }

    fn clone_box(&self) -> Box<dyn Puzzle> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl dyn Puzzle + '_ {
    /// This puzzle as the model `M`, if it is one: the one place the program turns a
    /// [`Puzzle`] back into its concrete type (the oracle's positions, a hand move's position
    /// before, and each view's typed access to its own type through the app).
    pub fn model<M: Puzzle + Any>(&self) -> Option<&M> {
        self.as_any().downcast_ref::<M>()
    }

    /// This puzzle as the model `M`, mutably, if it is one (see `model`).
    pub fn model_mut<M: Puzzle + Any>(&mut self) -> Option<&mut M> {
        self.as_any_mut().downcast_mut::<M>()
    }
}
