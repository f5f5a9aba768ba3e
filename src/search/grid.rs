//! Breadth-first search and A* for problems that are a grid of unit-cost squares (see
//! [`Problem::unit_grid`]), run when no one watches the states go by: flat tables indexed by
//! square (parent and `g`, 8 bytes a square) in place of the search tree and its nodes, the
//! moves computed from the grid instead of successor lists. It expands the same states in the
//! same order as the general [`super::bfs`] and [`super::best_first`] searches (the same goal
//! tests, the same open-list entries pushed in the same order), so every statistic is the
//! same; only the time differs.

use std::collections::BinaryHeap;

use super::best_first::{CLOSED_FLAGS, OPEN_LIST, TieKeys};
use super::limits::Budget;
use super::{Algorithm, Outcome, Problem, SearchResult, Stats, UnitGrid};

const TABLES: &str = "the grid search's tables (parent and cost a square)";
const NONE: u32 = u32::MAX;

struct Tables {
    /// The square each square was reached from (itself for a start), [`NONE`] if unreached.
    parent: Vec<u32>,
    /// The least number of moves found to each reached square.
    g: Vec<u32>,
    reached: u64,
}

impl Tables {
    /// Marks start square `s` reached (its own parent, at no cost); false if it already was.
    fn add_root(&mut self, s: usize) -> bool {
        if self.parent[s] != NONE {
            return false;
        }
        self.parent[s] = s as u32;
        self.reached += 1;
        true
    }

    fn new(n: usize, budget: &mut Budget) -> Result<Self, Outcome> {
        budget.charge(n as u64 * 8, TABLES)?;
        Ok(Self {
            parent: vec![NONE; n],
            g: vec![0; n],
            reached: 0,
        })
    }
}

/// The squares a move leaves `at` for, in the problem's order (free squares only).
#[inline]
fn moves(grid: &UnitGrid<'_>, at: usize, out: &mut [usize; 4]) -> usize {
    let (r, c) = ((at / grid.cols) as isize, (at % grid.cols) as isize);
    let mut count = 0;
    for &(dr, dc) in &grid.deltas {
        let (nr, nc) = (r + dr, c + dc);
        if nr < 0 || nc < 0 || nr as usize >= grid.rows || nc as usize >= grid.cols {
            continue;
        }
        let next = nr as usize * grid.cols + nc as usize;
        if grid.cost[next] != 0 {
            out[count] = next;
            count += 1;
        }
    }
    count
}

/// The result of a run: the path to `goal` (states and moves rebuilt through the problem),
/// or none.
fn finish<P: Problem + ?Sized>(
    problem: &P,
    tables: &Tables,
    outcome: Outcome,
    goal: Option<usize>,
    mut stats: Stats,
) -> SearchResult<P::State, P::Move> {
    stats.max_closed = stats.max_closed.max(tables.reached);
    let mut states = Vec::new();
    let mut moves = Vec::new();
    let mut cost = 0.0;
    if let (Outcome::Found, Some(goal)) = (outcome, goal) {
        let mut squares = vec![goal];
        let mut at = goal;
        while tables.parent[at] as usize != at {
            at = tables.parent[at] as usize;
            squares.push(at);
        }
        squares.reverse();
        states = squares
            .iter()
            .filter_map(|&s| problem.grid_state(s))
            .collect();
        let mut successors = Vec::new();
        for pair in states.windows(2) {
            successors.clear();
            problem.successors(&pair[0], &mut successors);
            if let Some(s) = successors.iter().find(|s| s.state == pair[1]) {
                moves.push(s.mv.clone());
                cost += s.cost;
            }
        }
    }
    SearchResult {
        outcome,
        states,
        moves,
        cost,
        optimal: false,
        algorithm: Algorithm::Bfs,
        stats,
        message: None,
    }
}

/// Breadth-first search on the grid, goals detected when generated (as [`super::bfs`]).
pub(super) fn bfs<P: Problem + ?Sized>(
    problem: &P,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let mut stats = Stats::default();
    let n = grid.rows * grid.cols;
    let mut t = match Tables::new(n, budget) {
        Ok(t) => t,
        Err(outcome) => return finish(problem, &Tables::empty(), outcome, None, stats),
    };
    let mut queue: Vec<u32> = Vec::new();
    if let Err(outcome) = budget.reserve(&mut queue, starts.len(), OPEN_LIST) {
        return finish(problem, &t, outcome, None, stats);
    }
    for &s in starts {
        if !t.add_root(s) {
            continue;
        }
        if s == grid.goal {
            return finish(problem, &t, Outcome::Found, Some(s), stats);
        }
        queue.push(s as u32);
    }
    stats.max_frontier = queue.len() as u64;
    let mut head = 0;
    let mut next = [0usize; 4];
    while head < queue.len() {
        if let Err(outcome) = budget.check() {
            return finish(problem, &t, outcome, None, stats);
        }
        let at = queue[head] as usize;
        head += 1;
        let g = t.g[at];
        stats.expanded += 1;
        stats.max_depth = stats.max_depth.max(u64::from(g));
        stats.max_closed = t.reached;
        let count = moves(grid, at, &mut next);
        if let Err(outcome) = budget.reserve(&mut queue, count, OPEN_LIST) {
            return finish(problem, &t, outcome, None, stats);
        }
        for &child in &next[..count] {
            stats.generated += 1;
            if t.parent[child] != NONE {
                continue;
            }
            t.parent[child] = at as u32;
            t.g[child] = g + 1;
            t.reached += 1;
            if child == grid.goal {
                return finish(problem, &t, Outcome::Found, Some(child), stats);
            }
            queue.push(child as u32);
        }
        stats.frontier = (queue.len() - head) as u64;
        stats.max_frontier = stats.max_frontier.max(stats.frontier);
    }
    finish(problem, &t, Outcome::NotFound, None, stats)
}

/// A* on the grid with the Manhattan distance to the goal, goals detected when expanded (as
/// [`super::best_first`], whose open-list entries and tie-breaking it shares).
pub(super) fn astar<P: Problem + ?Sized>(
    problem: &P,
    grid: &UnitGrid<'_>,
    starts: &[usize],
    budget: &mut Budget,
) -> SearchResult<P::State, P::Move> {
    let mut stats = Stats::default();
    let n = grid.rows * grid.cols;
    let mut t = match Tables::new(n, budget) {
        Ok(t) => t,
        Err(outcome) => return finish(problem, &Tables::empty(), outcome, None, stats),
    };
    let (goal_r, goal_c) = (grid.goal / grid.cols, grid.goal % grid.cols);
    let h =
        |at: usize| ((at / grid.cols).abs_diff(goal_r) + (at % grid.cols).abs_diff(goal_c)) as f64;
    let mut open = BinaryHeap::new();
    let mut keys = TieKeys::new(budget.tie_break());
    let mut closed: Vec<bool> = Vec::new();
    if let Err(outcome) = budget
        .charge(n as u64, CLOSED_FLAGS)
        .and_then(|()| budget.reserve(&mut open, starts.len(), OPEN_LIST))
    {
        return finish(problem, &t, outcome, None, stats);
    }
    closed.resize(n, false);
    for &s in starts {
        if !t.add_root(s) {
            continue;
        }
        open.push(keys.entry(h(s), 0.0, s as u32));
    }
    stats.max_frontier = open.len() as u64;
    let mut next = [0usize; 4];
    while let Some(entry) = open.pop() {
        let at = entry.id as usize;
        if closed[at] {
            continue;
        }
        if let Err(outcome) = budget.check() {
            return finish(problem, &t, outcome, None, stats);
        }
        if at == grid.goal {
            return finish(problem, &t, Outcome::Found, Some(at), stats);
        }
        closed[at] = true;
        let g = t.g[at];
        stats.expanded += 1;
        stats.max_depth = stats.max_depth.max(u64::from(g));
        stats.max_closed = t.reached;
        let count = moves(grid, at, &mut next);
        if let Err(outcome) = budget.reserve(&mut open, count, OPEN_LIST) {
            return finish(problem, &t, outcome, None, stats);
        }
        for &child in &next[..count] {
            stats.generated += 1;
            let g_new = g + 1;
            if t.parent[child] == NONE {
                t.reached += 1;
            } else if g_new >= t.g[child] {
                continue;
            } else {
                // A cheaper path to a reached square (reopened if closed, as A* does).
                closed[child] = false;
            }
            t.parent[child] = at as u32;
            t.g[child] = g_new;
            open.push(keys.entry(f64::from(g_new) + h(child), f64::from(g_new), child as u32));
        }
        stats.frontier = open.len() as u64;
        stats.max_frontier = stats.max_frontier.max(stats.frontier);
    }
    finish(problem, &t, Outcome::NotFound, None, stats)
}

impl Tables {
    fn empty() -> Self {
        Self {
            parent: Vec::new(),
            g: Vec::new(),
            reached: 0,
        }
    }
}
