//! Breakpoints on a live run: conditions that pause the search at the first expansion (or
//! generation) that meets them, checked by the solver thread as the search reports what it
//! does. Each says in words why it fired, for the status bar.

use std::collections::{HashMap, HashSet};

use crate::puzzles::Place;
use crate::search::{Cost, Stats};

/// The conditions that pause a run. All off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Breakpoints {
    /// The pinned state, for the two conditions below.
    pub pinned: Option<Place>,
    /// Pause when the pinned state is generated (reached, put on the frontier).
    pub pinned_generated: bool,
    /// Pause when the pinned state is expanded.
    pub pinned_expanded: bool,
    /// Pause when f = g + h of an expanded state is below its parent's (an inconsistency of
    /// the heuristic seen).
    pub f_decrease: bool,
    /// Pause when a state is expanded again (for puzzles whose states are places).
    pub reexpansion: bool,
    /// Pause at the first expansion whose g (path cost) is above this (once a run).
    pub g_above: Option<Cost>,
    /// Pause at the first expansion whose depth (moves from the start) is above this (once
    /// a run).
    pub depth_above: Option<u64>,
    /// Pause at the first expansion with more states than this on the frontier (once a run).
    pub frontier_above: Option<u64>,
}

impl Breakpoints {
    /// Whether any condition is on.
    pub fn any(&self) -> bool {
        (self.pinned.is_some() && (self.pinned_generated || self.pinned_expanded))
            || self.f_decrease
            || self.reexpansion
            || self.g_above.is_some()
            || self.depth_above.is_some()
            || self.frontier_above.is_some()
    }
}

/// The checking of [`Breakpoints`] along a run: what it must remember of the states seen.
#[derive(Debug, Default)]
pub struct BreakpointCheck {
    /// The conditions.
    pub breakpoints: Breakpoints,
    /// Places expanded so far (kept while [`Breakpoints::reexpansion`] is on).
    expanded: HashSet<Place>,
    /// f of each place scored so far (kept while [`Breakpoints::f_decrease`] is on).
    f_of: HashMap<Place, Cost>,
    /// The depth and f of the expansion before, for board puzzles (no places): in a
    /// depth-first order the state one deeper is the child of the one before.
    last_board: Option<(u64, Cost)>,
    /// The depth of the last expansion.
    depth: u64,
    /// Whether the g, depth and frontier limits have fired: each passes once, so that
    /// Resume goes on past it.
    passed: [bool; 3],
}

fn at(place: Place) -> String {
    format!("row {}, column {}", place.cell.row, place.cell.col)
}

impl BreakpointCheck {
    /// A check of `breakpoints` from the start of a run.
    pub fn new(breakpoints: Breakpoints) -> Self {
        Self {
            breakpoints,
            ..Self::default()
        }
    }

    /// Checks `breakpoints` from now on (the limits passed before may pass again).
    pub fn set(&mut self, breakpoints: Breakpoints) {
        self.breakpoints = breakpoints;
        self.passed = [false; 3];
    }

    /// Whether limit `k` (0 g, 1 depth, 2 frontier) passes now for the first time.
    fn passes(&mut self, k: usize, now: bool) -> bool {
        let first = now && !self.passed[k];
        self.passed[k] |= now;
        first
    }

    /// An expansion of the state at `place` (if it has one), `depth` moves from a start,
    /// with the run's statistics so far: why it breaks, if it does.
    pub fn on_expanded(
        &mut self,
        place: Option<Place>,
        depth: u64,
        stats: &Stats,
    ) -> Option<String> {
        let b = self.breakpoints;
        self.depth = depth;
        let mut why = None;
        if let Some(place) = place {
            if b.reexpansion && !self.expanded.insert(place) {
                why = Some(format!("the state at {} was expanded again", at(place)));
            }
            if b.pinned_expanded && b.pinned == Some(place) {
                why = Some(format!("the pinned state ({}) was expanded", at(place)));
            }
        }
        if let Some(limit) = b.depth_above
            && self.passes(1, depth > limit)
        {
            why = Some(format!("an expansion at depth {depth}, above {limit}"));
        }
        if let Some(limit) = b.frontier_above
            && self.passes(2, stats.frontier > limit)
        {
            why = Some(format!(
                "the frontier holds {} states, above {limit}",
                stats.frontier
            ));
        }
        why
    }

    /// The state just expanded, scored: path cost `g`, heuristic `h`, the place of its parent
    /// if known (`place` is `None` for board puzzles).
    pub fn on_scored(
        &mut self,
        place: Option<Place>,
        g: Cost,
        h: Option<Cost>,
        parent: Option<Place>,
    ) -> Option<String> {
        let b = self.breakpoints;
        let f = g + h.unwrap_or(0.0);
        let mut why = None;
        if b.f_decrease {
            let before = match place {
                Some(place) => {
                    self.f_of.insert(place, f);
                    parent.and_then(|p| self.f_of.get(&p).copied())
                }
                None => {
                    let before = self
                        .last_board
                        .filter(|&(d, _)| d + 1 == self.depth)
                        .map(|(_, f)| f);
                    self.last_board = Some((self.depth, f));
                    before
                }
            };
            if let Some(before) = before
                && f < before - 1e-9
            {
                why = Some(format!(
                    "f went down from {} to {} along a move (the heuristic is inconsistent there)",
                    crate::search::format_cost(before),
                    crate::search::format_cost(f)
                ));
            }
        }
        if let Some(limit) = b.g_above
            && self.passes(0, g > limit)
        {
            why = Some(format!(
                "an expansion with g = {}, above {}",
                crate::search::format_cost(g),
                crate::search::format_cost(limit)
            ));
        }
        why
    }

    /// A state generated at `place`: why it breaks, if it does.
    pub fn on_generated(&mut self, place: Option<Place>) -> Option<String> {
        let b = self.breakpoints;
        match place {
            Some(place) if b.pinned_generated && b.pinned == Some(place) => {
                Some(format!("the pinned state ({}) was generated", at(place)))
            }
            _ => None,
        }
    }
}
