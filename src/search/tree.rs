//! The search tree shared by the algorithms: every reached state once, with its parent, the
//! move that reached it, its path cost `g` and its depth. Its size is the closed set's size.
//!
//! States are found by hashing, or, for problems that number their states densely (see
//! [`super::ProblemCapabilities::dense`]), by indexing a table: a grid search then does no
//! hashing at all.

use rustc_hash::FxHashMap;

use super::limits::Budget;
use super::{Cost, DenseIndex, Outcome, Problem, SearchResult, Stats};

/// Index of a node in a [`Tree`].
pub(super) type NodeId = u32;

pub(super) const NO_PARENT: NodeId = NodeId::MAX;

pub(super) struct Node<S, M> {
    pub state: S,
    /// The node this one was reached from; [`NO_PARENT`] for a root.
    pub parent: NodeId,
    /// The move from the parent; `None` for a root.
    pub mv: Option<M>,
    /// Cost of the best known path from a start state.
    pub g: Cost,
    /// Number of moves on that path.
    pub depth: u64,
}

pub(super) struct Tree<'p, P: Problem + ?Sized> {
    problem: &'p P,
    nodes: Vec<Node<P::State, P::Move>>,
    index: FxHashMap<P::State, NodeId>,
    /// The problem's dense numbering of its states, if it has one.
    numbering: Option<&'p dyn DenseIndex<P::State>>,
    /// `dense[numbering.dense_index(state)]` is the node's id plus one, 0 for a state not
    /// reached, for problems with a dense numbering. Zeros, so a large table is allocated
    /// zeroed by the system and only the pages touched cost anything.
    dense: Vec<NodeId>,
    /// The heap bytes of the states added since the budget last counted them (see
    /// [`Problem::state_heap_bytes`]), counted at the next [`Tree::make_room`].
    uncounted: u64,
}

impl<'p, P: Problem + ?Sized> Tree<'p, P> {
    /// An empty tree; for a problem with a dense numbering its table is allocated here, if
    /// the budget allows. `Err` holds the result of a run that stopped at the memory limit
    /// before it began.
    #[allow(clippy::result_large_err)]
    pub fn new(
        problem: &'p P,
        budget: &mut Budget,
    ) -> Result<Self, SearchResult<P::State, P::Move>> {
        let mut tree = Self {
            problem,
            nodes: Vec::new(),
            index: FxHashMap::default(),
            numbering: problem.capabilities().dense,
            dense: Vec::new(),
            uncounted: 0,
        };
        if let Some(n) = tree.numbering.map(|d| d.dense_size()) {
            let bytes = (n as u64).saturating_mul(std::mem::size_of::<NodeId>() as u64);
            if let Err(outcome) = budget.charge(bytes, "the table of states") {
                return Err(tree.finish(outcome, None, Stats::default()));
            }
            tree.dense = vec![0; n];
        }
        Ok(tree)
    }

    /// The state `id` was reached from, `None` for a root.
    pub fn parent_state(&self, id: NodeId) -> Option<&P::State> {
        let parent = self.nodes.get(id as usize)?.parent;
        (parent != NO_PARENT).then(|| &self.node(parent).state)
    }

    /// Makes room for `additional` more states, unless that would cross the memory budget
    /// (or the 4 billion states a tree can number): then `Err(Outcome::MemoryLimit)`. The
    /// heap bytes of the states added since the last call are counted here too.
    #[inline]
    pub fn make_room(&mut self, budget: &mut Budget, additional: usize) -> Result<(), Outcome> {
        if self.nodes.len().saturating_add(additional) >= (NodeId::MAX - 1) as usize {
            budget.exceeded_by = Some("the search tree (4 billion states)");
            return Err(Outcome::MemoryLimit);
        }
        if self.uncounted > 0 {
            budget.charge(
                std::mem::take(&mut self.uncounted),
                "the states reached (their own bytes)",
            )?;
        }
        budget.reserve(&mut self.nodes, additional, "the search tree (closed set)")?;
        if self.dense.is_empty() {
            budget.reserve(&mut self.index, additional, "the index of states reached")?;
        }
        Ok(())
    }

    /// The slot of `state` in the dense table (read only when the table is there, and then
    /// the numbering is too).
    fn dense_slot(&self, state: &P::State) -> usize {
        self.numbering.map_or(0, |d| d.dense_index(state))
    }

    /// The node of `state`, if reached.
    pub fn find(&self, state: &P::State) -> Option<NodeId> {
        if self.dense.is_empty() {
            self.index.get(state).copied()
        } else {
            let slot = self.dense[self.dense_slot(state)];
            slot.checked_sub(1)
        }
    }

    /// Number of states reached.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn node(&self, id: NodeId) -> &Node<P::State, P::Move> {
        &self.nodes[id as usize]
    }

    /// Adds a start state; `None` if it was already there (duplicate start states).
    pub fn add_root(&mut self, state: P::State) -> Option<NodeId> {
        self.add(state, NO_PARENT, None, 0.0, 0).ok()
    }

    /// Adds `state` reached from `parent` by `mv` with path cost `g`, unless it is already in
    /// the tree: one lookup either way. Returns the new node, or the existing one as `Err`.
    pub fn insert(
        &mut self,
        state: P::State,
        parent: NodeId,
        mv: P::Move,
        g: Cost,
    ) -> Result<NodeId, NodeId> {
        let depth = self.nodes[parent as usize].depth + 1;
        self.add(state, parent, Some(mv), g, depth)
    }

    /// Records `state` in the index and pushes its node, unless it is already there.
    fn add(
        &mut self,
        state: P::State,
        parent: NodeId,
        mv: Option<P::Move>,
        g: Cost,
        depth: u64,
    ) -> Result<NodeId, NodeId> {
        // Below NodeId::MAX: ids are stored plus one, and MAX means "no parent".
        // `make_room` keeps the count below NodeId::MAX - 1.
        let id = self.nodes.len() as NodeId;
        let own = self.problem.state_heap_bytes(&state) as u64;
        let state = if self.dense.is_empty() {
            match self.index.entry(state) {
                std::collections::hash_map::Entry::Occupied(e) => return Err(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    let state = e.key().clone();
                    e.insert(id);
                    // The index's key and the node's copy.
                    self.uncounted += 2 * own;
                    state
                }
            }
        } else {
            let at = self.dense_slot(&state);
            let slot = &mut self.dense[at];
            if *slot != 0 {
                return Err(*slot - 1);
            }
            *slot = id + 1;
            self.uncounted += own;
            state
        };
        self.nodes.push(Node {
            state,
            parent,
            mv,
            g,
            depth,
        });
        Ok(id)
    }

    /// Records a cheaper path to an existing node.
    pub fn relink(&mut self, id: NodeId, parent: NodeId, mv: P::Move, g: Cost) {
        let depth = self.node(parent).depth + 1;
        let node = &mut self.nodes[id as usize];
        node.parent = parent;
        node.mv = Some(mv);
        node.g = g;
        node.depth = depth;
    }

    /// The states and moves from a start state to `id`.
    pub fn path(&self, id: NodeId) -> (Vec<P::State>, Vec<P::Move>) {
        let mut states = Vec::new();
        let mut moves = Vec::new();
        let mut at = id;
        while at != NO_PARENT {
            let node = self.node(at);
            states.push(node.state.clone());
            if let Some(mv) = &node.mv {
                moves.push(mv.clone());
            }
            at = node.parent;
        }
        states.reverse();
        moves.reverse();
        (states, moves)
    }

    /// The result of a bidirectional search whose two trees met: `self` grew forward from the
    /// start states and holds the meeting state as `id`; `backward` grew from the goal states
    /// (its moves are forward moves, from a node to its parent) and holds it as `back_id`.
    pub fn finish_joined(
        &self,
        id: NodeId,
        backward: &Tree<'_, P>,
        back_id: NodeId,
        mut stats: Stats,
    ) -> SearchResult<P::State, P::Move> {
        stats.max_closed = stats.max_closed.max((self.len() + backward.len()) as u64);
        let (mut states, mut moves) = self.path(id);
        let mut at = back_id;
        loop {
            let node = backward.node(at);
            if node.parent == NO_PARENT {
                break;
            }
            if let Some(mv) = &node.mv {
                moves.push(mv.clone());
            }
            at = node.parent;
            states.push(backward.node(at).state.clone());
        }
        SearchResult {
            outcome: Outcome::Found,
            states,
            moves,
            cost: self.node(id).g + backward.node(back_id).g,
            optimal: false,
            algorithm: super::Algorithm::Bfs,
            stats,
            message: None,
            error: None,
            tables: Default::default(),
        }
    }

    /// The result of a bidirectional search stopped by `outcome` (a limit, or Stop) before
    /// its trees met: `self` grew forward, `backward` from the goals. The states reached are
    /// both trees' (as at every expansion), so that a stop at any moment reads reached =
    /// expanded + frontier.
    pub fn finish_stopped(
        &self,
        backward: &Tree<P>,
        outcome: Outcome,
        mut stats: Stats,
    ) -> SearchResult<P::State, P::Move> {
        stats.max_closed = (self.len() + backward.len()) as u64;
        self.finish(outcome, None, stats)
    }

    /// Builds the result of a run that ended with `outcome`, at goal node `goal` if found.
    /// The caller's `algorithm`, `optimal` and elapsed time are filled in by [`super::run`].
    pub fn finish(
        &self,
        outcome: Outcome,
        goal: Option<NodeId>,
        mut stats: Stats,
    ) -> SearchResult<P::State, P::Move> {
        stats.max_closed = stats.max_closed.max(self.len() as u64);
        let (states, moves, cost) = match (outcome, goal) {
            (Outcome::Found, Some(id)) => {
                let (states, moves) = self.path(id);
                (states, moves, self.node(id).g)
            }
            _ => (Vec::new(), Vec::new(), 0.0),
        };
        SearchResult {
            outcome,
            states,
            moves,
            cost,
            optimal: false,
            algorithm: super::Algorithm::Bfs,
            stats,
            message: None,
            error: None,
            tables: Default::default(),
        }
    }
}
