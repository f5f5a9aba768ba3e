//! The pushes of a position: every push the player can walk to and make, with the state
//! after it, less those onto a dead square or into a 2 x 2 freeze (the Sokoban Wiki's
//! "Deadlocks" page, "simple deadlocks" and the 2 x 2 block).

use super::{Board, Dir, FoundPush, Ground, Push, State, Survey};

impl Board {
    /// The pushes from `state` (its player at `player`, its own square), each with the
    /// state after it and the walk before it. A push onto a dead square, or one that
    /// freezes a box off a goal in a 2 x 2 block of boxes and walls, is not generated.
    /// `normalize` gives the states after in the `pushes` metric's form.
    pub fn pushes(&self, state: &State, normalize: bool, out: &mut Vec<FoundPush>) {
        let mut boxes = self.box_flags(state);
        let player = usize::from(state.player);
        let (dist, order) = self.walks(&boxes, player);
        self.pushes_with(state, normalize, (&mut boxes, &dist, &order), out);
    }

    /// As [`Board::pushes`], from the position's survey ([`Board::survey`]; its boxes are
    /// moved and put back).
    pub fn pushes_in(
        &self,
        state: &State,
        survey: &mut Survey,
        normalize: bool,
        out: &mut Vec<FoundPush>,
    ) {
        let Survey {
            boxes,
            reach,
            order,
            ..
        } = survey;
        self.pushes_with(state, normalize, (boxes, reach, order), out);
    }

    /// [`Board::pushes`] from the boxes by square, the player's walking distances and the
    /// squares it reaches in order.
    fn pushes_with(
        &self,
        state: &State,
        normalize: bool,
        (boxes, dist, order): (&mut [bool], &[u32], &[usize]),
        out: &mut Vec<FoundPush>,
    ) {
        for &p in order {
            for d in Dir::ALL {
                let Some(b) = self.step(p, d).filter(|&b| boxes[b]) else {
                    continue;
                };
                let Some(t) = self.step(b, d) else {
                    continue;
                };
                if !self.walkable(boxes, t) || !self.live[t] {
                    continue;
                }
                boxes[b] = false;
                boxes[t] = true;
                if !self.frozen(boxes, t) {
                    let mut next: Vec<u16> = state.boxes.to_vec();
                    if let Some(k) = next.iter().position(|&x| usize::from(x) == b) {
                        next[k] = t as u16;
                    }
                    next.sort_unstable();
                    let player = if normalize {
                        self.normalized(boxes, b)
                    } else {
                        b
                    };
                    out.push(FoundPush {
                        push: Push {
                            row: (b / self.cols) as u8,
                            col: (b % self.cols) as u8,
                            dir: d,
                        },
                        next: State {
                            boxes: next.into_boxed_slice(),
                            player: player as u16,
                        },
                        walk: dist[p],
                    });
                }
                boxes[t] = false;
                boxes[b] = true;
            }
        }
    }

    /// Whether the box just pushed onto `t` is frozen: one of the four 2 x 2 blocks holding
    /// `t` is all boxes and walls (or sealed boxes) with a box off a goal among them.
    pub fn frozen(&self, boxes: &[bool], t: usize) -> bool {
        let cols = self.cols as isize;
        let blocked = |s: usize| boxes[s] || self.ground[s] != Ground::Inside;
        for (dr, dc) in [(-1isize, -1isize), (-1, 1), (1, -1), (1, 1)] {
            let cells = [
                t as isize,
                t as isize + dc,
                t as isize + dr * cols,
                t as isize + dr * cols + dc,
            ];
            let Some(cells) = cells
                .iter()
                .map(|&s| usize::try_from(s).ok().filter(|&s| s < self.squares()))
                .collect::<Option<Vec<usize>>>()
            else {
                continue;
            };
            if cells.iter().all(|&s| blocked(s))
                && cells
                    .iter()
                    .any(|&s| boxes[s] && !self.goal[s] && self.ground[s] == Ground::Inside)
            {
                return true;
            }
        }
        false
    }
}
