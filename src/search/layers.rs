//! Korf's tables of a run: the states expanded per f value (A*, Dijkstra and the other
//! best-first searches, breadth-first search by depth) and per IDA* iteration (bound, states
//! expanded and generated, time, and the forecasts of its expansions where they are made).
//! They add up to the run's [`super::Stats`].

use serde::{Deserialize, Serialize};

use super::Cost;

/// One iteration of IDA*: its bound on f = g + h, the states it expanded and generated, its
/// wall-clock time in milliseconds, and the expansions forecast for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    /// The iteration's bound on `g + h`, in cost units (moves for the tile puzzle).
    pub bound: Cost,
    /// States expanded in the iteration.
    pub expanded: u64,
    /// States generated in the iteration.
    pub generated: u64,
    /// Wall-clock time of the iteration, in milliseconds.
    pub ms: f64,
    /// The expansions forecast for the iteration by stratified sampling of its tree (Chen
    /// 1992, with the node types of Lelis, Zilles and Holte 2013), where one is made (the
    /// sliding tile puzzle's IDA* with pattern databases): of the tree without the fast
    /// core's transposition table, which skips about a fifth of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted: Option<f64>,
    /// The expansions forecast by the formula of Korf, Reid and Edelkamp ("Time complexity
    /// of iterative-deepening-A*", AIJ 129, 2001): an average over random starts, so for one
    /// start often far off; where one is made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kre: Option<f64>,
}

/// The states expanded with one value of f (the priority the open list orders by: g + h for
/// A*, g for Dijkstra and breadth-first search, g + w h for weighted A*, h for greedy).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FLayer {
    /// The value of f.
    pub f: Cost,
    /// States expanded with it.
    pub expanded: u64,
}

/// A run's tables, filled by the searches that keep them (empty for the others).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tables {
    /// States expanded per f value, in increasing f.
    pub per_f: Vec<FLayer>,
    /// IDA*'s iterations, in order.
    pub iterations: Vec<Iteration>,
}

/// Two f values closer than this (relative) are one layer: sums of diagonal steps reach the
/// same f along different paths with different rounding.
const SAME_F: f64 = 1e-9;

/// Counts expansions per f value as a search goes: O(1) a step while f stays (A* with a
/// consistent heuristic raises it layer by layer); the list is sorted and merged when it
/// grows long (an inconsistent heuristic can make f go down and up), and at the end.
#[derive(Clone, Debug, Default)]
pub struct PerF {
    layers: Vec<FLayer>,
    merged_at: usize,
}

impl PerF {
    /// Counts one expansion with value `f`.
    #[inline]
    pub fn count(&mut self, f: Cost) {
        match self.layers.last_mut() {
            Some(last) if same(last.f, f) => last.expanded += 1,
            _ => {
                self.layers.push(FLayer { f, expanded: 1 });
                if self.layers.len() >= 2 * self.merged_at.max(1024) {
                    self.merge();
                }
            }
        }
    }

    fn merge(&mut self) {
        self.layers.sort_by(|a, b| a.f.total_cmp(&b.f));
        let mut merged: Vec<FLayer> = Vec::with_capacity(self.layers.len());
        for layer in self.layers.drain(..) {
            match merged.last_mut() {
                Some(last) if same(last.f, layer.f) => last.expanded += layer.expanded,
                _ => merged.push(layer),
            }
        }
        self.layers = merged;
        self.merged_at = self.layers.len();
    }

    /// The layers, in increasing f.
    pub fn finish(mut self) -> Vec<FLayer> {
        self.merge();
        self.layers
    }
}

fn same(a: Cost, b: Cost) -> bool {
    (a - b).abs() <= SAME_F * a.abs().max(1.0)
}
