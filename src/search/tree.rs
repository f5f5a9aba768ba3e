//! The search tree shared by the algorithms: every reached state once, with its parent, the
//! move that reached it, its path cost `g` and its depth. Its size is the closed set's size.

use std::hash::Hash;

use rustc_hash::FxHashMap;

use super::{Cost, Outcome, SearchResult, Stats};

/// Index of a node in a [`Tree`].
pub(super) type NodeId = u32;

const NO_PARENT: NodeId = NodeId::MAX;

pub(super) struct Node<S, M> {
    pub state: S,
    parent: NodeId,
    mv: Option<M>,
    /// Cost of the best known path from a start state.
    pub g: Cost,
    /// Number of moves on that path.
    pub depth: u64,
}

pub(super) struct Tree<S, M> {
    nodes: Vec<Node<S, M>>,
    index: FxHashMap<S, NodeId>,
}

impl<S: Clone + Eq + Hash, M: Clone> Tree<S, M> {
    pub fn new() -> Self {
        Self {
            nodes: Vec::new(),
            index: FxHashMap::default(),
        }
    }

    /// Number of states reached.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn node(&self, id: NodeId) -> &Node<S, M> {
        &self.nodes[id as usize]
    }

    /// Adds a start state; `None` if it was already there (duplicate start states).
    pub fn add_root(&mut self, state: S) -> Option<NodeId> {
        if self.index.contains_key(&state) {
            return None;
        }
        Some(self.push(state, NO_PARENT, None, 0.0, 0))
    }

    /// Adds `state` reached from `parent` by `mv` with path cost `g`, unless it is already in
    /// the tree: one hash lookup either way. Returns the new node, or the existing one as
    /// `Err`.
    pub fn insert(&mut self, state: S, parent: NodeId, mv: M, g: Cost) -> Result<NodeId, NodeId> {
        let id = NodeId::try_from(self.nodes.len()).expect("more than 4 billion states");
        match self.index.entry(state) {
            std::collections::hash_map::Entry::Occupied(e) => Err(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                let state = e.key().clone();
                e.insert(id);
                let depth = self.nodes[parent as usize].depth + 1;
                self.nodes.push(Node {
                    state,
                    parent,
                    mv: Some(mv),
                    g,
                    depth,
                });
                Ok(id)
            }
        }
    }

    /// Records a cheaper path to an existing node.
    pub fn relink(&mut self, id: NodeId, parent: NodeId, mv: M, g: Cost) {
        let depth = self.node(parent).depth + 1;
        let node = &mut self.nodes[id as usize];
        node.parent = parent;
        node.mv = Some(mv);
        node.g = g;
        node.depth = depth;
    }

    fn push(&mut self, state: S, parent: NodeId, mv: Option<M>, g: Cost, depth: u64) -> NodeId {
        let id = NodeId::try_from(self.nodes.len()).expect("more than 4 billion states");
        self.index.insert(state.clone(), id);
        self.nodes.push(Node {
            state,
            parent,
            mv,
            g,
            depth,
        });
        id
    }

    /// The states and moves from a start state to `id`.
    pub fn path(&self, id: NodeId) -> (Vec<S>, Vec<M>) {
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

    /// Builds the result of a run that ended with `outcome`, at goal node `goal` if found.
    /// The caller's `algorithm`, `optimal` and elapsed time are filled in by [`super::run`].
    pub fn finish(
        &self,
        outcome: Outcome,
        goal: Option<NodeId>,
        mut stats: Stats,
    ) -> SearchResult<S, M> {
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
        }
    }
}
