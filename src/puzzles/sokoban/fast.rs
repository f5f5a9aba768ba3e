//! The fast solver for hard levels: a best-first search on the push graph built for Sokoban
//! alone, as the sliding tiles have their fast core. Its techniques, each from a named source:
//!
//! - **Dead squares** ([`Board::is_dead`]: a box pulled backwards from every goal; the Sokoban
//!   Wiki's "Deadlocks" page, "simple deadlocks").
//! - **Freeze deadlocks** ([`Board::freeze_deadlock`]: frozen boxes off goals on both axes,
//!   beyond the 2 x 2 block; the Sokoban Wiki's "Deadlocks", after Junghanns and Schaeffer's
//!   Rolling Stone papers, 1997-2001).
//! - **Bipartite deadlocks and the lower bound**: the minimum-cost perfect matching of boxes to
//!   goals on push distances ([`Board::matching_bound`]; Junghanns and Schaeffer, "Sokoban:
//!   enhancing general single-agent search methods using domain knowledge", Artificial
//!   Intelligence 129, 2001): no perfect matching, no solution. It is updated incrementally,
//!   as Rolling Stone's is: solved once for the position expanded, then repaired for each
//!   push by one augmenting path for the box that moved ([`Board::repaired_bound`]).
//! - **PI-corral pruning** ([`Board::prune_to_pi_corral`]; the same paper, and the Sokoban
//!   Wiki's "Solver" page).
//! - **A transposition table on normalized positions**: the boxes and the top-left square of
//!   the player's region, hashed by Zobrist keys (Zobrist 1970, as every game-tree searcher
//!   since; the Sokoban Wiki's "Solver" page: "the transposition table"); a position reached
//!   again is not searched again.
//! - **Goal-room packing order** ([`super::packing`]: a backward search from the goals, as
//!   Rolling Stone's goal macros and FESS's packing feature; Shoham, CoG 2020): with the
//!   option `packing` on, positions with more goals filled in that order come first.
//! - **Corral deadlocks** ([`Board::corral_deadlock`]: the Sokoban Wiki's "Deadlocks",
//!   Rolling Stone's pattern searches): a corral whose boxes alone cannot reach goals.
//! - **Tunnel and goal macros** ([`super::macros`]: Rolling Stone's tunnel and goal macros,
//!   Junghanns and Schaeffer 2001; FESS's packing advisor, Shoham 2020): a push into a
//!   one-wide passage goes on to its end as one successor; a box pushed next to the goals
//!   is also taken on to the next goal of the packing order, as one more successor.
//! - **Move ordering**: then by the bound (greedy best-first, the position nearest the goals
//!   by the matching first), and among equals the position made last first (deepest
//!   first), which follows one line of pushes to its end before trying the others (the
//!   Sokoban Wiki's "Solver": most solvers of the hard levels give up optimality for such
//!   an order).
//!
//! - **FESS's feature cells** ([`super::fess`]: Shoham, CoG 2020): the
//!   positions filed by packing and connectivity, the cells taken in turn, each giving its
//!   position of least weight (advised pushes and pushes of the box pushed last free: the
//!   inertia of the Sokoban Wiki's "Solver" page, FESS's moves of one box), then by the
//!   bound.
//! - **Alternation** of the two orders (the default; [`Order::Alternate`]: Röger and
//!   Helmert, ICAPS 2010): every position in both lists, the best of each expanded in
//!   turn. The option `order` (`fess`, `greedy`) gives one of them alone instead.
//!
//! Its answers are solved, not proved optimal. It runs under the memory budget and the time
//! limit of its [`CancelToken`] (checked before every expansion: a Stop is seen within
//! microseconds).

use std::time::{Duration, Instant};

use super::board::{Board, CorralMemo, FoundPush, Push, State};
use super::macros::{self, Step};

mod nodes;
mod open;
use crate::search::{CancelToken, Outcome};
use nodes::{Keys, Nodes, ROOT, path_to};
pub use open::Order;
use open::{Key, Open};

/// How a fast run ended, and what it found.
#[derive(Clone, Debug)]
pub struct Run {
    /// `Found`, `NotFound` (every position reachable past the pruning searched), or the
    /// limit that stopped it.
    pub outcome: Outcome,
    /// The pushes from the start, when found.
    pub pushes: Vec<Push>,
    /// Positions expanded (their pushes generated).
    pub expanded: u64,
    /// Pushes generated, pruned ones and duplicates counted.
    pub generated: u64,
    /// Distinct positions stored (the transposition table's size at the end).
    pub stored: u64,
    /// The most bytes its tables held, as it accounts for them against the budget.
    pub peak_bytes: u64,
    /// How long it ran.
    pub elapsed: Duration,
}

/// The most positions a corral deadlock search ([`Board::corral_deadlock`]) expands
/// before it gives up (and prunes nothing).
const CORRAL_LIMIT: usize = 100;

/// How the fast solver orders its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether positions that have packed more goals in the packing order
    /// ([`super::packing`]) come first, before the matching bound.
    pub packing: bool,
    /// Then the order by the bound: 0 the bound alone (greedy best-first), `w > 0` the
    /// pushes made plus `w` times the bound (weighted A*, Pohl 1970).
    pub weight: u32,
    /// Whether only the pushes into a PI-corral are searched, when there is one
    /// ([`Board::prune_to_pi_corral`]).
    pub corrals: bool,
    /// The search's order: one best-first order, FESS's feature cells in turn
    /// ([`super::fess`]), or both alternately ([`Order`]).
    pub order: Order,
    /// Whether positions with a corral deadlock ([`Board::corral_deadlock`]) are pruned.
    pub corral_deadlocks: bool,
    /// Whether a push into a tunnel goes on to the tunnel's end ([`super::macros`]).
    pub tunnels: bool,
    /// Whether a box pushed next to the goals is also taken on to the next goal of the
    /// packing order, when `packing` is on ([`super::macros`]).
    pub goal_macros: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            packing: true,
            weight: 0,
            corrals: true,
            order: Order::Alternate,
            corral_deadlocks: true,
            tunnels: true,
            goal_macros: true,
        }
    }
}

/// Solves the level of `board` from `start` (the player on its own square, or any square of
/// its region) with the fast solver (see the module's doc), under the limits of `cancel`.
pub fn solve(board: &Board, start: &State, options: Options, cancel: &CancelToken) -> Run {
    let began = Instant::now();
    let limits = cancel.limits();
    let deadline = limits.timeout.and_then(|t| began.checked_add(t));
    let keys = Keys::new(board.squares());
    let flags = board.box_flags(start);
    let root = State {
        boxes: start.boxes.clone(),
        player: board.normalized(&flags, usize::from(start.player)) as u16,
    };
    let mut nodes = Nodes::new(root.boxes.len());
    let mut open = Open::new(options.order, start.boxes.len());
    let packing = options.packing.then(|| super::packing::Packing::new(board));
    let k = root.boxes.len();
    let unpacked = |state: &State| packing.as_ref().map_or(0, |p| (k - p.packed(state)) as u32);
    let mut run = Run::empty();
    let finish = |run: Run, nodes: &Nodes, outcome: Outcome| run.ended(nodes, outcome, began);
    let Some(h) = board.matching_bound(&root) else {
        return finish(run, &nodes, Outcome::NotFound);
    };
    let id = nodes.insert(&root, keys.of(&root), ROOT, 0);
    if h == 0 {
        return finish(run, &nodes, Outcome::Found);
    }
    // The player's areas, when FESS counts them.
    let counts_regions = open.counts_regions();
    let regions_of = |flags: &[bool]| {
        if counts_regions {
            board.regions(flags)
        } else {
            0
        }
    };
    let mut weights = vec![0u32];
    let (root_unpacked, regions) = (unpacked(&root), regions_of(&flags));
    open.push(&Key::of_root(root_unpacked, h, regions), id);
    let mut found: Vec<FoundPush> = Vec::new();
    let mut scratch = vec![false; board.squares()];
    let mut repair = super::matching::Assignment::default();
    let mut memo = CorralMemo::default();
    while let Some(id) = open.pop() {
        if cancel.is_cancelled() {
            return finish(run, &nodes, Outcome::Cancelled);
        }
        if run.expanded.is_multiple_of(64)
            && let Some(outcome) = run.over_limits(
                nodes.bytes() + open.bytes() + memo.bytes(),
                deadline,
                limits.max_memory,
            )
        {
            return finish(run, &nodes, outcome);
        }
        run.expanded += 1;
        let state = nodes.state(id);
        if !expand(board, &state, options, &mut memo, &mut found) {
            continue;
        }
        let assignment = board.assignment(&state.boxes);
        let last_to = nodes.pushed_to(board, id);
        let here_unpacked = unpacked(&state);
        let here_regions = with_boxes(&mut scratch, &state.boxes, regions_of);
        let target =
            (packing.as_ref().filter(|_| options.goal_macros)).and_then(|p| p.next(&state));
        for f in found.drain(..) {
            run.generated += 1;
            let mut step = Step::single(board, f);
            if options.tunnels {
                step = macros::through_tunnel(board, step, &mut scratch);
            }
            let extra = target.and_then(|g| macros::to_goal(board, &step, g.into(), &mut scratch));
            for step in std::iter::once(step).chain(extra) {
                let Some(Judged {
                    b,
                    regions,
                    hash,
                    h,
                }) = judge(
                    board,
                    &step,
                    &state,
                    &assignment,
                    (&mut scratch, &mut repair),
                    (&keys, &nodes),
                    &regions_of,
                )
                else {
                    continue;
                };
                let child_unpacked = unpacked(&step.next);
                let child = nodes.insert_step(step, hash, id);
                if h == 0 {
                    run.pushes = path_to(&nodes, board, child);
                    return finish(run, &nodes, Outcome::Found);
                }
                // FESS's advisors: a push that packs one more or joins two areas costs
                // nothing; so does pushing again the box pushed last (inertia: a box moved
                // over several squares is one move, as FESS counts its moves).
                let advised = child_unpacked < here_unpacked || regions < here_regions;
                let again = last_to == b;
                let weight = weights[id as usize] + u32::from(!advised && !again);
                weights.push(weight);
                let key = Key {
                    unpacked: child_unpacked,
                    order: match options.weight {
                        0 => h,
                        w => w * h + u32::from(nodes.depth[child as usize]),
                    },
                    bound: h,
                    regions,
                    weight,
                };
                open.push(&key, child);
            }
        }
    }
    finish(run, &nodes, Outcome::NotFound)
}

impl Run {
    /// The limit `bytes` held (counted into the peak) or the time passes, if one does.
    fn over_limits(&mut self, bytes: u64, deadline: Option<Instant>, max: u64) -> Option<Outcome> {
        self.peak_bytes = self.peak_bytes.max(bytes);
        if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Outcome::Timeout)
        } else {
            (bytes > max).then_some(Outcome::MemoryLimit)
        }
    }

    /// The run ended with `outcome`, begun at `began`, its figures taken from `nodes`.
    fn ended(mut self, nodes: &Nodes, outcome: Outcome, began: Instant) -> Run {
        self.outcome = outcome;
        self.stored = nodes.len() as u64;
        self.peak_bytes = self.peak_bytes.max(nodes.bytes());
        self.elapsed = began.elapsed();
        self
    }

    /// A run not yet begun.
    fn empty() -> Run {
        Run {
            outcome: Outcome::NotFound,
            pushes: Vec::new(),
            expanded: 0,
            generated: 0,
            stored: 0,
            peak_bytes: 0,
            elapsed: Duration::ZERO,
        }
    }
}

/// Puts into `found` the pushes of `state` to search (see [`solve`]), one survey of the
/// position ([`Board::survey`]) serving its checks; `false` when there are none (a corral
/// deadlock, or no push).
fn expand(
    board: &Board,
    state: &State,
    options: Options,
    memo: &mut CorralMemo,
    found: &mut Vec<FoundPush>,
) -> bool {
    let mut survey = board.survey(state);
    if options.corral_deadlocks && board.corral_deadlock_in(&survey, state, CORRAL_LIMIT, memo) {
        return false;
    }
    found.clear();
    board.pushes_in(state, &mut survey, true, found);
    if options.corrals {
        board.prune_to_pi_corral_in(&survey, found);
    }
    !found.is_empty()
}

/// A push that passed [`judge`].
struct Judged {
    /// The pushed box's square before it.
    b: usize,
    /// The player's areas after it (0 unless FESS counts them).
    regions: u32,
    /// The position's Zobrist key.
    hash: u64,
    /// The matching bound after it.
    h: u32,
}

/// The position `step` makes from `state` (whose matching is `assignment`) judged: `None`
/// when it ends in a freeze deadlock, is already stored, or has no perfect matching.
fn judge(
    board: &Board,
    step: &Step,
    state: &State,
    assignment: &super::matching::Assignment,
    (scratch, repair): (&mut [bool], &mut super::matching::Assignment),
    (keys, nodes): (&Keys, &Nodes),
    regions_of: &impl Fn(&[bool]) -> u32,
) -> Option<Judged> {
    let (b, t) = (step.from, step.to);
    // The table first: a position stored passed the other checks already, and most
    // successors are stored ones (their flood fills saved).
    let hash = keys.of(&step.next);
    if nodes.find(&step.next, hash).is_some() {
        return None;
    }
    let regions = with_boxes(scratch, &step.next.boxes, |flags| {
        (!board.freeze_deadlock(flags, t)).then(|| regions_of(flags))
    })?;
    let row = state.boxes.iter().position(|&x| usize::from(x) == b)?;
    let h = board.repaired_bound(assignment, &state.boxes, row, t, repair)?;
    Some(Judged {
        b,
        regions,
        hash,
        h,
    })
}

/// `f` asked of the boxes `boxes` marked by square in `scratch` (all false before and after).
fn with_boxes<T>(scratch: &mut [bool], boxes: &[u16], f: impl FnOnce(&[bool]) -> T) -> T {
    for &x in boxes {
        scratch[usize::from(x)] = true;
    }
    let answer = f(scratch);
    for &x in boxes {
        scratch[usize::from(x)] = false;
    }
    answer
}
