//! Each algorithm's textbook pseudo-code, written with the field's names (frontier, reached,
//! expand, goal test, successor, `g`, `h`, `f`, bound), and which line a step of a run is
//! on. The app lights the line of the timeline's moment (see `ui::learn`); the lines follow
//! Russell and Norvig, *Artificial Intelligence: A Modern Approach* (4th ed., ch. 3), Korf
//! (1985) for IDA* and Harabor and Grastien (2011) for jump point search, as this program
//! runs them: breadth-first tests for the goal when a state is generated, the best-first
//! family when it is expanded.

use super::Algorithm;

/// A step of a run, as a moment of the timeline shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Before the first expansion: the frontier holds the start.
    Start,
    /// A state is taken off the frontier (or the stack) and expanded: its successors are
    /// generated and the new ones put on the frontier. The moment shows the expansion done
    /// (its successors on the frontier), so its line is the loop over the successors, not
    /// the pop that began it (that is [`Step::Take`]'s).
    Expand,
    /// The run found a goal and returns the path to it.
    Found,
    /// The frontier ran out without a goal.
    Failed,
    /// The run was stopped (by the user, or at a limit) before it ended, or its recording
    /// before it: no line of the pseudo-code does that.
    Stopped,
    /// A micro-step: the state to expand is taken off the frontier.
    Take,
    /// A micro-step: the goal test.
    GoalTest,
    /// A micro-step: a successor is put on the frontier.
    Push,
}

/// An algorithm's pseudo-code: its lines, and the line of each step.
#[derive(Clone, Copy, Debug)]
pub struct Pseudocode {
    /// The lines, indented with two spaces a level.
    pub lines: &'static [&'static str],
    /// The line (from 0) of each [`Step`] but [`Step::Stopped`], in the order declared:
    /// start, expand, found, failed, take, goal test, push.
    steps: [usize; 7],
    /// Why the state expanded next is next: one sentence.
    pub why_next: &'static str,
}

impl Pseudocode {
    /// The line (from 0) a run at `step` is on; `None` for a run stopped from outside the
    /// algorithm ([`Step::Stopped`]).
    pub fn line(&self, step: Step) -> Option<usize> {
        let i = match step {
            Step::Start => 0,
            Step::Expand => 1,
            Step::Found => 2,
            Step::Failed => 3,
            Step::Take => 4,
            Step::GoalTest => 5,
            Step::Push => 6,
            Step::Stopped => return None,
        };
        Some(self.steps[i])
    }
}

const BEST_FIRST: &[&str] = &[
    "function BEST-FIRST-SEARCH(start)",
    "  frontier <- queue by least f, holding start",
    "  reached <- {start: g = 0}",
    "  while frontier is not empty:",
    "    n <- frontier.pop()        # least f",
    "    if IS-GOAL(n): return PATH(n)",
    "    for each successor s of n, at step cost c:",
    "      if s not in reached or g(n) + c < g(s):",
    "        g(s) <- g(n) + c; parent(s) <- n",
    "        frontier.push(s, f(s))",
    "  return failure",
];

const BREADTH_FIRST: &[&str] = &[
    "function BREADTH-FIRST-SEARCH(start)",
    "  if IS-GOAL(start): return PATH(start)",
    "  frontier <- FIFO queue holding start",
    "  reached <- {start}",
    "  while frontier is not empty:",
    "    n <- frontier.pop()        # the oldest",
    "    for each successor s of n:",
    "      if IS-GOAL(s): return PATH(s)",
    "      if s not in reached:",
    "        reached.add(s); parent(s) <- n",
    "        frontier.push(s)",
    "  return failure",
];

const DEPTH_FIRST: &[&str] = &[
    "function DEPTH-FIRST-SEARCH(start)",
    "  frontier <- LIFO stack holding start",
    "  reached <- {start}",
    "  while frontier is not empty:",
    "    n <- frontier.pop()        # the newest",
    "    if IS-GOAL(n): return PATH(n)",
    "    for each successor s of n:",
    "      if s not in reached:",
    "        reached.add(s); parent(s) <- n",
    "        frontier.push(s)",
    "  return failure",
];

const IDA_STAR: &[&str] = &[
    "function IDA*(start)",
    "  bound <- h(start)",
    "  loop:",
    "    t <- BOUNDED-DFS(start, g = 0, bound)",
    "    if t = FOUND: return the path",
    "    if t = infinity: return failure",
    "    bound <- t                 # the least f over it",
    "function BOUNDED-DFS(n, g, bound)",
    "  f <- g + h(n); if f > bound: return f",
    "  if IS-GOAL(n): return FOUND",
    "  for each successor s of n but the parent:",
    "    t <- BOUNDED-DFS(s, g + c(n, s), bound)",
    "    if t = FOUND: return FOUND; min <- MIN(min, t)",
    "  return min",
];

const BIDIRECTIONAL: &[&str] = &[
    "function BIDIRECTIONAL-SEARCH(start, goals)",
    "  frontier_F <- {start}; frontier_B <- goals",
    "  reached_F <- {start}; reached_B <- goals",
    "  while both frontiers are not empty:",
    "    pick a direction d (the smaller or cheaper side)",
    "    n <- frontier_d.pop(); expand n in direction d",
    "    for each successor s of n:",
    "      if s in reached_other: note the path   # goal test",
    "      if s not in reached_d: frontier_d.push(s)",
    "    if the best path noted cannot be beaten: return it",
    "  return failure",
];

const JUMP_POINT: &[&str] = &[
    "function JUMP-POINT-SEARCH(start)",
    "  frontier <- queue by least f = g + h, holding start",
    "  reached <- {start: g = 0}",
    "  while frontier is not empty:",
    "    n <- frontier.pop()        # least f",
    "    if IS-GOAL(n): return PATH(n)",
    "    for each direction d pruned from parent(n) to n:",
    "      s <- JUMP(n, d)          # next jump point, if any",
    "      if s and (s new or g(n) + dist(n, s) < g(s)):",
    "        g(s), parent(s) <- g(n) + dist(n, s), n; frontier.push(s)",
    "  return failure",
];

const JPS_PLUS: &[&str] = &[
    "function JPS+(start)         # DIST: every square's jumps, once per map",
    "  frontier <- queue by least f = g + h, holding start",
    "  reached <- {start: g = 0}",
    "  while frontier is not empty:",
    "    n <- frontier.pop()        # least f",
    "    if IS-GOAL(n): return PATH(n)",
    "    for each direction d pruned from parent(n) to n:",
    "      s <- DIST[n][d], cut short at the goal   # read, not scanned",
    "      if s and (s new or g(n) + dist(n, s) < g(s)):",
    "        g(s), parent(s) <- g(n) + dist(n, s), n; frontier.push(s)",
    "  return failure",
];

/// The pseudo-code of `algorithm`.
pub fn pseudocode(algorithm: Algorithm) -> Pseudocode {
    match algorithm {
        Algorithm::Bfs => Pseudocode {
            lines: BREADTH_FIRST,
            steps: [2, 6, 7, 11, 5, 7, 10],
            why_next: "Breadth-first expands the oldest state on the frontier (first in, first \
                       out): states in order of depth.",
        },
        Algorithm::Dfs => Pseudocode {
            lines: DEPTH_FIRST,
            steps: [1, 6, 5, 10, 4, 5, 9],
            why_next: "Depth-first expands the newest state on the frontier (last in, first \
                       out): it goes deeper before it goes wider.",
        },
        Algorithm::IdaStar => Pseudocode {
            lines: IDA_STAR,
            steps: [1, 10, 9, 5, 8, 9, 11],
            why_next: "IDA* keeps no frontier: it goes depth-first, cutting every path whose \
                       f = g + h exceeds the bound, and raises the bound to the least f cut.",
        },
        Algorithm::BidirectionalBfs | Algorithm::BidirectionalAStar => Pseudocode {
            lines: BIDIRECTIONAL,
            steps: [1, 6, 9, 10, 5, 7, 8],
            why_next: "A bidirectional search grows a frontier from the start and one from the \
                       goals, each in its own order, until they meet.",
        },
        Algorithm::Jps => Pseudocode {
            lines: JUMP_POINT,
            steps: [1, 6, 5, 10, 4, 5, 9],
            why_next: "Jump point search is A* over jump points: it expands the frontier state \
                       with the least f = g + h; among equal f, the tie-breaking policy decides.",
        },
        Algorithm::JpsPlus => Pseudocode {
            lines: JPS_PLUS,
            steps: [1, 6, 5, 10, 4, 5, 9],
            why_next: "JPS+ is A* over jump points read from a table: it expands the frontier \
                       state with the least f = g + h; among equal f, the tie-breaking policy \
                       decides.",
        },
        Algorithm::Dijkstra => best_first(
            "Dijkstra expands the frontier state with the least path cost g (f = g); among \
             equal g, the tie-breaking policy decides.",
        ),
        Algorithm::AStar => best_first(
            "A* expands the frontier state with the least f = g + h; among equal f, the \
             tie-breaking policy decides (by default the larger g).",
        ),
        Algorithm::WeightedAStar(_) => best_first(
            "Weighted A* expands the frontier state with the least f = g + w*h; among equal f, \
             the tie-breaking policy decides.",
        ),
        Algorithm::Greedy => best_first(
            "Greedy best-first expands the frontier state with the least h (f = h): the one \
             that looks closest to the goal.",
        ),
    }
}

fn best_first(why_next: &'static str) -> Pseudocode {
    Pseudocode {
        lines: BEST_FIRST,
        steps: [1, 6, 5, 10, 4, 5, 9],
        why_next,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every algorithm's lines of its steps name what the step does.
    #[test]
    fn each_step_is_on_the_line_that_does_it() {
        for a in Algorithm::ALL {
            let code = pseudocode(a);
            let line = |s| code.lines[code.line(s).unwrap()];
            assert_eq!(code.line(Step::Stopped), None);
            assert!(line(Step::Failed).contains("failure"), "{a:?}");
            assert!(
                line(Step::Found).contains("return PATH")
                    || line(Step::Found).contains("FOUND")
                    || line(Step::Found).contains("return it"),
                "{a:?}: {}",
                line(Step::Found)
            );
            assert!(line(Step::Start).contains("start"), "{a:?}");
            assert!(
                line(Step::GoalTest).to_lowercase().contains("goal"),
                "{a:?}"
            );
            assert!(
                line(Step::Push).contains("push") || line(Step::Push).contains("BOUNDED-DFS(s"),
                "{a:?}: {}",
                line(Step::Push)
            );
            let take = line(Step::Take);
            assert!(
                take.contains("pop()") || take.contains("f <- g + h"),
                "{a:?}: {take}"
            );
            let expand = line(Step::Expand).trim_start();
            assert!(expand.starts_with("for each "), "{a:?}: {expand}");
        }
    }
}
