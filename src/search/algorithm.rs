//! The search algorithms by name ([`Algorithm`]), what each promises (optimal, exhaustive,
//! needs a heuristic) and weighted A*'s weight ([`Weight`]).

use std::fmt;

use super::*;

/// The weight of weighted A*'s heuristic, in hundredths (200 is 2.0), from 1.0 to 10.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Weight(u16);

impl Weight {
    /// The default weight, 2.0.
    pub const DEFAULT: Weight = Weight(200);

    /// The weight nearest `w` (rounded to hundredths); `None` outside 1.0 to 10.0.
    pub fn new(w: f64) -> Option<Weight> {
        (1.0..=10.0)
            .contains(&w)
            .then(|| Weight((w * 100.0).round() as u16))
    }

    /// The weight as a number.
    pub fn value(self) -> Cost {
        Cost::from(self.0) / 100.0
    }
}

/// The search algorithms. The names are the ones used on the command line; serialized as
/// those names (a weighted A*'s weight is not part of the name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Depth-first backtracking with an explicit stack and a closed set.
    Dfs,
    /// Breadth-first search.
    Bfs,
    /// Dijkstra's algorithm (uniform-cost search).
    Dijkstra,
    /// A* with the puzzle's admissible heuristic.
    AStar,
    /// Greedy best-first search ordered by the heuristic alone.
    Greedy,
    /// Iterative-deepening A*: depth-first searches bounded by `g + h`, memory linear in depth.
    IdaStar,
    /// Weighted A* (Pohl, 1970): expands in order of `g + w * h`. Its solutions cost at most
    /// `w` times the least cost (with a consistent heuristic); optimal only for `w = 1`.
    WeightedAStar(Weight),
    /// Bidirectional breadth-first search: layers grow from the start and from the goals in
    /// turn until they meet. Needs a problem that searches backward.
    BidirectionalBfs,
    /// Bidirectional A*: A* forward from the start and backward from the goals, stopping when
    /// the best meeting cost found is no more than either side's least `f`.
    BidirectionalAStar,
    /// Jump Point Search (Harabor and Grastien, 2011): A* over jump points on a uniform-cost
    /// 8-connected grid, skipping the symmetric paths between them.
    Jps,
    /// JPS+ (Harabor and Grastien, 2014): Jump Point Search whose jumps are read from jump
    /// distances computed once per map (every free square, 8 directions) instead of scanned.
    /// The same grids as [`Algorithm::Jps`], with one goal or a few and no percolation.
    JpsPlus,
}

impl Serialize for Algorithm {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Algorithm {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Algorithm::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown algorithm `{name}`")))
    }
}

impl Algorithm {
    /// Every algorithm, in the order the GUI lists them.
    pub const ALL: [Algorithm; 11] = [
        Algorithm::Bfs,
        Algorithm::Dfs,
        Algorithm::Dijkstra,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::WeightedAStar(Weight::DEFAULT),
        Algorithm::Greedy,
        Algorithm::BidirectionalBfs,
        Algorithm::BidirectionalAStar,
        Algorithm::Jps,
        Algorithm::JpsPlus,
    ];

    /// The command-line name: `dfs`, `bfs`, `dijkstra`, `astar`, `idastar`, `wastar`,
    /// `greedy`, `bibfs`, `biastar`, `jps` or `jps+`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Dfs => "dfs",
            Algorithm::Bfs => "bfs",
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::AStar => "astar",
            Algorithm::Greedy => "greedy",
            Algorithm::IdaStar => "idastar",
            Algorithm::WeightedAStar(_) => "wastar",
            Algorithm::BidirectionalBfs => "bibfs",
            Algorithm::BidirectionalAStar => "biastar",
            Algorithm::Jps => "jps",
            Algorithm::JpsPlus => "jps+",
        }
    }

    /// The name shown in the GUI.
    pub fn label(self) -> &'static str {
        match self {
            Algorithm::Dfs => "Depth-first (backtracking)",
            Algorithm::Bfs => "Breadth-first",
            Algorithm::Dijkstra => "Dijkstra (uniform cost)",
            Algorithm::AStar => "A*",
            Algorithm::Greedy => "Greedy best-first",
            Algorithm::IdaStar => "IDA* (iterative deepening)",
            Algorithm::WeightedAStar(_) => "Weighted A*",
            Algorithm::BidirectionalBfs => "Bidirectional BFS",
            Algorithm::BidirectionalAStar => "Bidirectional A*",
            Algorithm::Jps => "Jump Point Search",
            Algorithm::JpsPlus => "JPS+ (precomputed jumps)",
        }
    }

    /// The field's usual abbreviation, where the label does not carry it (the command palette
    /// matches it too: "BFS" finds breadth-first search).
    pub fn abbreviation(self) -> Option<&'static str> {
        match self {
            Algorithm::Dfs => Some("DFS"),
            Algorithm::Bfs => Some("BFS"),
            Algorithm::Dijkstra => Some("UCS"),
            Algorithm::Greedy => Some("GBFS"),
            Algorithm::Jps => Some("JPS"),
            Algorithm::JpsPlus => Some("JPS+"),
            _ => None,
        }
    }

    /// Whether `other` is the same algorithm, whatever its weight.
    pub fn same_kind(self, other: Algorithm) -> bool {
        self.name() == other.name()
    }

    /// Parses a command-line name (see [`Algorithm::name`]); `None` if unknown. `wastar` gets
    /// the default weight.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Whether the algorithm keeps an open list ordered by priority, whose ties
    /// [`TieBreak`] breaks: Dijkstra, A*, weighted A*, greedy, Jump Point Search (and JPS+)
    /// and bidirectional A*.
    pub fn has_open_list(self) -> bool {
        matches!(
            self,
            Algorithm::Dijkstra
                | Algorithm::AStar
                | Algorithm::Greedy
                | Algorithm::WeightedAStar(_)
                | Algorithm::BidirectionalAStar
                | Algorithm::Jps
                | Algorithm::JpsPlus
        )
    }

    /// Whether the algorithm needs a heuristic to make sense.
    pub fn needs_heuristic(self) -> bool {
        matches!(
            self,
            Algorithm::AStar
                | Algorithm::IdaStar
                | Algorithm::Greedy
                | Algorithm::WeightedAStar(_)
                | Algorithm::BidirectionalAStar
                | Algorithm::Jps
                | Algorithm::JpsPlus
        )
    }

    /// Whether this algorithm can run on `problem` at all (see [`Algorithm::refusal`]).
    pub fn applies_to<P: Problem + ?Sized>(self, problem: &P) -> bool {
        self.refusal(problem).is_none()
    }

    /// Whether the algorithm keeps every state it reaches with no heuristic to steer it away
    /// from most of them, so that it needs a state space that fits in memory.
    pub fn is_exhaustive(self) -> bool {
        matches!(
            self,
            Algorithm::Bfs
                | Algorithm::Dfs
                | Algorithm::Dijkstra
                | Algorithm::BidirectionalBfs
                | Algorithm::BidirectionalAStar
                | Algorithm::Jps
                | Algorithm::JpsPlus
        )
    }

    /// Why this algorithm cannot run on `problem`, or `None` when it can: it needs a heuristic
    /// the puzzle lacks, a backward search, a grid, a state space with few transpositions, or
    /// one small enough to search exhaustively.
    pub fn refusal<P: Problem + ?Sized>(self, problem: &P) -> Option<SearchError> {
        let unsuited = |reason: String| {
            Some(SearchError::Unsuited {
                algorithm: self,
                reason,
            })
        };
        let facts = problem.facts();
        let capabilities = problem.capabilities();
        if self.needs_heuristic() && !facts.has_heuristic {
            return Some(SearchError::NeedsHeuristic(self));
        }
        match self {
            Algorithm::IdaStar if !facts.suits_iterative_deepening => {
                return unsuited(
                    "it keeps no closed set, and would reach this puzzle's states by \
                     exponentially many paths; it is offered for the sliding tile puzzle, for \
                     uniform-cost grids of at most 64 x 64 squares and for puzzle scripts \
                     with a heuristic"
                        .into(),
                );
            }
            Algorithm::BidirectionalBfs | Algorithm::BidirectionalAStar
                if capabilities.backward.is_none() =>
            {
                return unsuited(
                    "it also searches backward from the goals, which needs a puzzle whose goal \
                     states and predecessors are known (grid mazes)"
                        .into(),
                );
            }
            Algorithm::Jps if capabilities.jump_points.is_none() => {
                return unsuited(
                    "it needs a grid maze with uniform costs and 8-connected moves without \
                     corner cutting"
                        .into(),
                );
            }
            Algorithm::JpsPlus
                if !capabilities
                    .jump_points
                    .is_some_and(|j| j.supports_jump_distances()) =>
            {
                return unsuited(
                    "it needs a grid maze with uniform costs and 8-connected moves without \
                     corner cutting, and goal squares (not percolation)"
                        .into(),
                );
            }
            _ => {}
        }
        if self.is_exhaustive()
            && let Some(reason) = facts.too_large_for_exhaustive_search
        {
            return unsuited(format!(
                "{reason}; use A*, IDA*, weighted A* or greedy best-first"
            ));
        }
        None
    }

    /// Whether a solution found by this algorithm is guaranteed to have the least cost:
    /// BFS on unit costs, Dijkstra, and A* with an admissible heuristic.
    pub fn is_optimal_for<P: Problem + ?Sized>(self, problem: &P) -> bool {
        let facts = problem.facts();
        let admissible = facts.admissible_heuristic();
        match self {
            Algorithm::Bfs | Algorithm::BidirectionalBfs => facts.unit_costs,
            Algorithm::Dijkstra => true,
            Algorithm::AStar | Algorithm::IdaStar | Algorithm::BidirectionalAStar => admissible,
            Algorithm::Jps | Algorithm::JpsPlus => admissible,
            Algorithm::WeightedAStar(w) => admissible && w.value() == 1.0,
            Algorithm::Dfs | Algorithm::Greedy => false,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
