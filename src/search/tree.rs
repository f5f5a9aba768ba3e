//! The search tree shared by the algorithms: every reached state once, with its parent, the
//! move that reached it, its path cost `g` and its depth. Its size is the closed set's size.
//!
//! States are found by hashing, or, for problems that number their states densely (see
//! [`super::ProblemCapabilities::dense`]), by indexing a table: a grid search then does no
//! hashing at all.

use std::hash::BuildHasher as _;

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use super::limits::{Budget, Store, table_bytes};
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
    /// The ids of the nodes, found by their state's hash: each state is kept once, in its
    /// node (the table holds 4-byte ids, its equality and rehashing read the nodes).
    index: HashTable<NodeId>,
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

/// The hash a [`Tree`]'s index files `state` under.
fn hash_of<S: std::hash::Hash>(state: &S) -> u64 {
    FxBuildHasher.hash_one(state)
}

/// A [`Tree`]'s index seen as a [`Store`] the budget can grow: growing rehashes the ids by
/// their nodes' states.
struct Index<'a, S, M> {
    table: &'a mut HashTable<NodeId>,
    nodes: &'a [Node<S, M>],
}

impl<S: std::hash::Hash, M> Store for Index<'_, S, M> {
    fn len(&self) -> usize {
        self.table.len()
    }
    fn capacity(&self) -> usize {
        self.table.capacity()
    }
    fn bytes_for(capacity: usize) -> u64 {
        table_bytes::<NodeId>(capacity)
    }
    fn try_grow(&mut self, additional: usize) -> bool {
        let nodes = self.nodes;
        (self.table)
            .try_reserve(additional, |&i| hash_of(&nodes[i as usize].state))
            .is_ok()
    }
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
            index: HashTable::new(),
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
            let mut index = Index {
                table: &mut self.index,
                nodes: &self.nodes,
            };
            budget.reserve(&mut index, additional, "the index of states reached")?;
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
            let nodes = &self.nodes;
            (self.index)
                .find(hash_of(state), |&i| nodes[i as usize].state == *state)
                .copied()
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
            let hash = hash_of(&state);
            let nodes = &self.nodes;
            if let Some(&found) = self.index.find(hash, |&i| nodes[i as usize].state == state) {
                return Err(found);
            }
            // `make_room` made room, so this does not rehash.
            (self.index).insert_unique(hash, id, |&i| hash_of(&nodes[i as usize].state));
            self.uncounted += own;
            state
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{CancelToken, Interrupt, Successor};

    /// The bytes of each state of [`Line`].
    const BYTES: usize = 10_000;

    /// States `[k, 0, 0, ...]` of [`BYTES`] bytes, `k` from 0 to 200, each leading to the next.
    struct Line;

    impl Problem for Line {
        type State = Vec<u8>;
        type Move = u8;

        fn start_states(&self) -> Vec<Vec<u8>> {
            vec![vec![0; BYTES]]
        }

        fn is_goal(&self, _: &Vec<u8>) -> Result<bool, Interrupt> {
            Ok(false)
        }

        fn successors(
            &self,
            state: &Vec<u8>,
            out: &mut Vec<Successor<Vec<u8>, u8>>,
        ) -> Result<(), Interrupt> {
            if state[0] < 200 {
                let mut next = state.clone();
                next[0] += 1;
                out.push(Successor {
                    state: next,
                    mv: 1,
                    cost: 1.0,
                });
            }
            Ok(())
        }

        fn state_heap_bytes(&self, state: &Vec<u8>) -> usize {
            state.capacity()
        }
    }

    /// Each state is kept once, in its node, and its own bytes are counted once: 201 states
    /// of 10,000 bytes cost the budget 2.01 MB and a little, not twice that (as when the
    /// index kept a copy of each key). Every state is found again, and a second insert of
    /// one is refused with its node.
    #[test]
    fn each_state_is_kept_and_counted_once() {
        let mut budget = Budget::new(&CancelToken::new());
        let Ok(mut tree) = Tree::new(&Line, &mut budget) else {
            panic!("room for an empty tree");
        };
        tree.make_room(&mut budget, 1).unwrap();
        let mut id = tree.add_root(Line.start_states().remove(0)).unwrap();
        let mut out = Vec::new();
        loop {
            out.clear();
            Line.successors(&tree.node(id).state, &mut out).unwrap();
            let Some(next) = out.pop() else { break };
            tree.make_room(&mut budget, 1).unwrap();
            id = tree.insert(next.state, id, next.mv, 0.0).unwrap();
        }
        tree.make_room(&mut budget, 0).unwrap();
        assert_eq!(tree.len(), 201);
        let states = (201 * BYTES) as u64;
        assert!(budget.peak() >= states, "{}", budget.peak());
        assert!(budget.peak() < states + states / 4, "{}", budget.peak());
        for k in 0..=200u8 {
            let mut state = vec![0; BYTES];
            state[0] = k;
            let found = tree.find(&state).expect("every state found");
            assert_eq!(tree.node(found).state, state);
            assert_eq!(tree.insert(state, 0, 1, 0.0), Err(found));
        }
        assert_eq!(tree.find(&vec![1; BYTES]), None);
    }
}
