//! Macro pushes of the fast solver: several pushes of one box taken as one successor.
//!
//! - **Tunnel macros** ([`tunnel_end`]; Junghanns and Schaeffer, "Sokoban: enhancing general
//!   single-agent search methods using domain knowledge", Artificial Intelligence 129, 2001,
//!   Rolling Stone's tunnel macros; the Sokoban Wiki's "Solver" page, "tunnels"): a box
//!   pushed into a one-square-wide passage, the player following it in, can only be pushed
//!   on along the passage, or left where it blocks the passage: the pushes along it are
//!   made at once, up to the passage's end, a goal, or a square it cannot enter. The push
//!   into the passage is replaced by the whole run.
//! - **Goal macros** ([`box_to`]; the same paper's goal macros, and the packing advisor of
//!   Shoham's FESS, "The FESS algorithm: a feature based approach to single-agent search",
//!   IEEE CoG 2020): a box pushed to the goals of the next goal's room (onto a square
//!   beside one of them, or onto one that is not the next) is taken on, by the fewest pushes of that box alone, the
//!   other boxes standing, to the next goal of the packing order ([`super::packing`]), when
//!   it can get there. The run is added as a successor beside the single push (which stays:
//!   nothing is lost when the macro leads astray).

use std::collections::VecDeque;

use super::board::{Board, Dir, FoundPush, Ground, Push, State, opposite};

/// A successor of the fast solver: one push, or a macro's run of pushes of one box.
#[derive(Clone, Debug)]
pub struct Step {
    /// The pushed box's square before.
    pub from: usize,
    /// Its square after.
    pub to: usize,
    /// The position after (the player normalized to its region's top-left square).
    pub next: State,
    /// The first push.
    pub first: Push,
    /// All the pushes, when a macro made more than one.
    pub run: Option<Vec<Push>>,
}

impl Step {
    /// The single push `f` (normalized) from a position, as a step.
    pub fn single(board: &Board, f: FoundPush) -> Step {
        let from = usize::from(f.push.row) * board.cols + usize::from(f.push.col);
        let to = board.step(from, f.push.dir).unwrap_or(from);
        Step {
            from,
            to,
            next: f.next,
            first: f.push,
            run: None,
        }
    }

    /// The pushes of the step, in order.
    pub fn pushes(&self) -> Vec<Push> {
        self.run.clone().unwrap_or_else(|| vec![self.first])
    }

    /// This step carried on by `more` pushes of its box, which end on `to` with the player
    /// on `player`; `scratch` all false (and so left).
    fn then(
        &self,
        board: &Board,
        more: &[Push],
        to: usize,
        player: usize,
        scratch: &mut [bool],
    ) -> Step {
        let mut boxes: Vec<u16> = self.next.boxes.to_vec();
        if let Some(k) = boxes.iter().position(|&x| usize::from(x) == self.to) {
            boxes[k] = to as u16;
        }
        boxes.sort_unstable();
        for &x in &boxes {
            scratch[usize::from(x)] = true;
        }
        let player = board.normalized(scratch, player);
        for &x in &boxes {
            scratch[usize::from(x)] = false;
        }
        let mut run = self.pushes();
        run.extend_from_slice(more);
        Step {
            from: self.from,
            to,
            next: State {
                boxes: boxes.into_boxed_slice(),
                player: player as u16,
            },
            first: self.first,
            run: Some(run),
        }
    }
}

/// `step` carried on along its tunnel, when it pushed its box into one ([`tunnel_end`]);
/// `step` itself otherwise. `scratch` all false (and so left).
pub fn through_tunnel(board: &Board, step: Step, scratch: &mut [bool]) -> Step {
    let d = step.first.dir;
    for &x in step.next.boxes.iter() {
        scratch[usize::from(x)] = true;
    }
    let end = tunnel_end(board, scratch, step.from, step.to, d);
    for &x in step.next.boxes.iter() {
        scratch[usize::from(x)] = false;
    }
    if end == step.to {
        return step;
    }
    let mut more = Vec::new();
    let mut at = step.to;
    while at != end {
        more.push(Push {
            row: (at / board.cols) as u8,
            col: (at % board.cols) as u8,
            dir: d,
        });
        match board.step(at, d) {
            Some(next) => at = next,
            None => break,
        }
    }
    let player = board.step(end, opposite(d)).unwrap_or(step.to);
    step.then(board, &more, end, player, scratch)
}

/// `step` carried on to the goal `target` by a goal macro ([`box_to`]), when its box ends
/// at the goals of `target`'s room (the goals joined to it side by side): on one of them
/// but `target`, or beside one; and it can get there. `scratch` all false (and so left).
pub fn to_goal(board: &Board, step: &Step, target: usize, scratch: &mut [bool]) -> Option<Step> {
    let to = step.to;
    if to == target || !at_room(board, target, to) {
        return None;
    }
    let last = (step.run.as_ref())
        .and_then(|r| r.last())
        .copied()
        .unwrap_or(step.first);
    let standing = board.step(to, opposite(last.dir))?;
    for &x in step.next.boxes.iter() {
        scratch[usize::from(x)] = true;
    }
    let more = box_to(board, scratch, to, standing, target);
    for &x in step.next.boxes.iter() {
        scratch[usize::from(x)] = false;
    }
    let more = more?;
    let end_dir = more.last()?.dir;
    let player = board.step(target, opposite(end_dir))?;
    Some(step.then(board, &more, target, player, scratch))
}

/// Whether `s` is one of the goals joined side by side to the goal `target` (its room), or
/// beside one of them.
fn at_room(board: &Board, target: usize, s: usize) -> bool {
    let mut room = vec![target];
    let mut i = 0;
    while let Some(&g) = room.get(i) {
        i += 1;
        if g == s {
            return true;
        }
        for d in Dir::ALL {
            if let Some(t) = board.step(g, d) {
                if t == s {
                    return true;
                }
                if board.is_goal(t) && board.ground(t) == Ground::Inside && !room.contains(&t) {
                    room.push(t);
                }
            }
        }
    }
    false
}

/// Where a box pushed `d` from `b` onto `t` ends when the tunnel macro takes it on (see the
/// module's doc): `t` itself when it is no tunnel. `boxes` are the boxes by square after the
/// single push (`boxes[t]` true). The run stops on a goal, at the end of the passage, or
/// before a square that is a wall, a box or dead.
pub fn tunnel_end(board: &Board, boxes: &[bool], b: usize, t: usize, d: Dir) -> usize {
    let (mut player, mut at) = (b, t);
    while !board.is_goal(at) && narrow(board, player, d) && narrow(board, at, d) {
        let Some(ahead) = board.step(at, d) else {
            break;
        };
        if board.ground(ahead) != Ground::Inside || boxes[ahead] || board.is_dead(ahead) {
            break;
        }
        (player, at) = (at, ahead);
    }
    at
}

/// Whether both squares beside `s`, across the direction `d`, are walls (or off the board,
/// or a sealed box: anything the player never stands on).
fn narrow(board: &Board, s: usize, d: Dir) -> bool {
    let across = match d {
        Dir::Up | Dir::Down => [Dir::Left, Dir::Right],
        Dir::Left | Dir::Right => [Dir::Up, Dir::Down],
    };
    across.iter().all(|&e| {
        board
            .step(s, e)
            .is_none_or(|x| board.ground(x) != Ground::Inside)
    })
}

/// The fewest pushes of the box on `from` alone that take it to `goal`, the other boxes
/// (`boxes`, by square, `boxes[from]` true) standing and the player starting on `player`:
/// a breadth-first search over (the box's square, the side the player pushed it from), each
/// step a flood fill of the player's reach. `None` when it cannot get there (or when
/// `from` is `goal`). The pushes go only onto squares from which a box can reach `goal`.
pub fn box_to(
    board: &Board,
    boxes: &[bool],
    from: usize,
    player: usize,
    goal: usize,
) -> Option<Vec<Push>> {
    if from == goal {
        return None;
    }
    let n = board.squares();
    // The box is on `at`; the others stand (`from` is free once the box has left it).
    let free = |s: usize, at: usize| {
        board.ground(s) == Ground::Inside && s != at && (!boxes[s] || s == from)
    };
    // Per (square, direction of the last push): the state it came from, `u32::MAX` unseen.
    let mut came = vec![u32::MAX; n * 4];
    let mut queue = VecDeque::new();
    let mut reach = vec![0u32; n];
    let mut stamp = 0u32;
    let mut stack = Vec::new();
    // The start: the box on `from`, the player on `player` (not a state of the table).
    let start = u32::MAX - 1;
    queue.push_back((from, player, start));
    while let Some((at, standing, state)) = queue.pop_front() {
        stamp += 1;
        reach[standing] = stamp;
        stack.clear();
        stack.push(standing);
        while let Some(s) = stack.pop() {
            for d in Dir::ALL {
                if let Some(t) = board.step(s, d)
                    && reach[t] != stamp
                    && free(t, at)
                {
                    reach[t] = stamp;
                    stack.push(t);
                }
            }
        }
        for d in Dir::ALL {
            let (Some(to), Some(behind)) = (board.step(at, d), board.step(at, opposite(d))) else {
                continue;
            };
            if reach[behind] != stamp || !free(to, at) || board.distance(goal, to).is_none() {
                continue;
            }
            let key = to * 4 + d as usize;
            if came[key] != u32::MAX {
                continue;
            }
            came[key] = state;
            if to == goal {
                return Some(path(board, &came, key as u32, start));
            }
            queue.push_back((to, at, key as u32));
        }
    }
    None
}

/// The pushes to state `key` of [`box_to`]'s table `came`, from the start.
fn path(board: &Board, came: &[u32], mut key: u32, start: u32) -> Vec<Push> {
    let mut pushes = Vec::new();
    while key != start {
        let (to, d) = (key as usize / 4, Dir::ALL[key as usize % 4]);
        let Some(b) = board.step(to, opposite(d)) else {
            break;
        };
        pushes.push(Push {
            row: (b / board.cols) as u8,
            col: (b % board.cols) as u8,
            dir: d,
        });
        key = came[key as usize];
    }
    pushes.reverse();
    pushes
}

#[cfg(test)]
mod tests {
    use super::{box_to, tunnel_end};
    use crate::puzzles::sokoban::Sokoban;
    use crate::puzzles::sokoban::board::Dir;

    /// The board of `text` and its boxes by square.
    fn board_of(text: &str) -> (Sokoban, Vec<bool>) {
        let level = Sokoban::from_text(text).unwrap();
        let flags = level.board().box_flags(level.position());
        (level, flags)
    }

    #[test]
    fn a_box_pushed_into_a_tunnel_runs_to_its_end_and_stops_on_a_goal() {
        // The box on (2, 3) pushed right onto (2, 4), the player following into the passage
        // (2, 3)-(2, 6): it runs to (2, 7), where the passage opens.
        let (level, mut boxes) = board_of(
            "#########\n\
             ##########\n\
             #@ $    .#\n\
             ####### ##\n\
             #########\n",
        );
        let board = level.board();
        let at = |r: usize, c: usize| r * board.cols + c;
        boxes[at(2, 3)] = false;
        boxes[at(2, 4)] = true;
        // The player on (2, 3) has a wall above (1, 3) and below (3, 3): a tunnel.
        assert_eq!(
            tunnel_end(board, &boxes, at(2, 3), at(2, 4), Dir::Right),
            at(2, 7)
        );
        // Pushed from the open square (2, 1) onto (2, 2): the player's square is no tunnel.
        let (level, mut boxes) = board_of(
            "#######\n\
             #    .#\n\
             # $   #\n\
             #@#####\n\
             #######\n",
        );
        let board = level.board();
        let at = |r: usize, c: usize| r * board.cols + c;
        boxes[at(2, 2)] = false;
        boxes[at(2, 3)] = true;
        assert_eq!(
            tunnel_end(board, &boxes, at(2, 2), at(2, 3), Dir::Right),
            at(2, 3)
        );
    }

    #[test]
    fn a_tunnel_run_stops_on_a_goal_inside_the_passage() {
        let (level, mut boxes) = board_of(
            "#########\n\
             #@$  . ##\n\
             #########\n",
        );
        let board = level.board();
        let at = |r: usize, c: usize| r * board.cols + c;
        boxes[at(1, 2)] = false;
        boxes[at(1, 3)] = true;
        assert_eq!(
            tunnel_end(board, &boxes, at(1, 2), at(1, 3), Dir::Right),
            at(1, 5)
        );
    }

    #[test]
    fn a_box_is_taken_to_a_goal_around_a_corner_by_the_fewest_pushes() {
        // The box on (2, 2) to the goal (4, 4): two pushes right and two down, the player
        // walking round between them.
        let (level, boxes) = board_of(
            "#######\n\
             #     #\n\
             #@$   #\n\
             #     #\n\
             #   . #\n\
             #######\n",
        );
        let board = level.board();
        let at = |r: usize, c: usize| r * board.cols + c;
        let pushes = box_to(board, &boxes, at(2, 2), at(2, 1), at(4, 4)).unwrap();
        assert_eq!(pushes.len(), 4, "{pushes:?}");
        let (_, states) = board.lurd_of(level.position(), &pushes).unwrap();
        assert_eq!(*states.last().unwrap().boxes, [at(4, 4) as u16]);
        // The only way to the goal (1, 7) passes the box on (1, 4), which stays: no way.
        let (level, boxes) = board_of(
            "#########\n\
             #@$ $  .#\n\
             #   #####\n\
             #.  #\n\
             #####\n",
        );
        let board = level.board();
        let at = |r: usize, c: usize| r * board.cols + c;
        assert_eq!(box_to(board, &boxes, at(1, 2), at(1, 1), at(1, 7)), None);
    }
}
