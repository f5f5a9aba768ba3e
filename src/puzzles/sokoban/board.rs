//! One level's board as the search sees it: its squares (walls, the inside the player can
//! ever walk on, goals), the rules of a walk and a push, the dead squares, the push distances
//! of the heuristic, the freeze check and PI-corral pruning ([`corral`]).
//!
//! Squares are numbered row-major over the level's rows padded to its widest row
//! (`row * cols + col`), as `u16` (a level is at most 250 x 250). A box sealed off on a goal,
//! where the player can never reach it (Microban 155's "The Dungeon"), never moves: it is a
//! wall to the search and no part of its states.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;

use super::format::Level;

pub use corral::Survey;
pub use corral_deadlock::CorralMemo;

mod bound;
mod corral;
mod corral_deadlock;
mod freeze;
mod pushes;
mod regions;

/// A direction of a step or a push, with its LURD letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Up (`u`, `U`).
    Up,
    /// Down (`d`, `D`).
    Down,
    /// Left (`l`, `L`).
    Left,
    /// Right (`r`, `R`).
    Right,
}

impl Dir {
    /// The four directions, in the order successors are generated.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The LURD letter of a step (lowercase) or a push (uppercase).
    pub fn letter(self, push: bool) -> char {
        let c = match self {
            Dir::Up => 'u',
            Dir::Down => 'd',
            Dir::Left => 'l',
            Dir::Right => 'r',
        };
        if push { c.to_ascii_uppercase() } else { c }
    }

    /// The direction of a LURD letter (either case), and whether it is uppercase.
    pub fn from_letter(c: char) -> Option<(Dir, bool)> {
        let dir = match c.to_ascii_lowercase() {
            'u' => Dir::Up,
            'd' => Dir::Down,
            'l' => Dir::Left,
            'r' => Dir::Right,
            _ => return None,
        };
        Some((dir, c.is_ascii_uppercase()))
    }

    /// (rows down, columns right) of one step.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }
}

/// A state of the search: the boxes' squares, sorted, and the player's square: in the
/// `pushes` metric the top-left square of the player's reachable region (positions that
/// differ only by where the player stands in one region are one state); in the `moves`
/// metric the player's own square (walking costs there).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    /// The movable boxes' squares, ascending.
    pub boxes: Box<[u16]>,
    /// The player's square (see the type's doc).
    pub player: u16,
}

/// A push: the box on square (`row`, `col`) (0-based) goes one square `dir`, the player
/// stepping into its square; written `R 4,6` (the LURD letter, then the box's 1-based row and
/// column before the push).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Push {
    /// The box's row before the push, 0-based.
    pub row: u8,
    /// The box's column before the push, 0-based.
    pub col: u8,
    /// Where it goes.
    pub dir: Dir,
}

impl fmt::Display for Push {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {},{}",
            self.dir.letter(true),
            u16::from(self.row) + 1,
            u16::from(self.col) + 1
        )
    }
}

/// What a board square is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// A wall.
    Wall,
    /// Not part of the level: outside its walls, or floor the player can never reach.
    Outside,
    /// A box sealed off on a goal (never moves).
    Sealed,
    /// Floor the player may reach (boxes counted as floor).
    Inside,
}

/// One level's board (see the module's doc).
#[derive(Clone, Debug)]
pub struct Board {
    /// Rows.
    pub rows: usize,
    /// Columns (the widest row).
    pub cols: usize,
    ground: Vec<Ground>,
    goal: Vec<bool>,
    /// Inside squares from which a box can still be pushed to some goal (not dead).
    live: Vec<bool>,
    /// The goals inside, ascending.
    goals: Vec<u16>,
    /// `dist[g * squares + s]`: the least pushes from square `s` to goal `g` of `goals`
    /// with no other box on the board, `u16::MAX` when it cannot get there.
    dist: Vec<u16>,
    /// `next[s][d]`: the square one step `d` (in [`Dir::ALL`]'s order) from `s`, [`OFF`]
    /// off the board (a table: the searches step millions of times).
    next: Vec<[u32; 4]>,
    /// The start: boxes and the player's own square.
    pub start: State,
    /// Why the level cannot be solved, seen without searching.
    pub unsolvable: Option<String>,
}

/// A push found from a state (see [`Board::pushes`]).
#[derive(Clone, Debug)]
pub struct FoundPush {
    /// The push.
    pub push: Push,
    /// The state after it.
    pub next: State,
    /// The steps the player walks to the pushing square first.
    pub walk: u32,
}

impl Board {
    /// The board of a well-formed level (see [`super::format::check_rows`]).
    pub fn new(level: &Level) -> Board {
        let rows = level.rows.len();
        let cols = level
            .rows
            .iter()
            .map(|r| r.chars().count())
            .max()
            .unwrap_or(0);
        let n = rows * cols;
        let mut chars = vec![' '; n];
        let mut player = 0usize;
        for (r, row) in level.rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                chars[r * cols + c] = ch;
                if ch == '@' || ch == '+' {
                    player = r * cols + c;
                }
            }
        }
        // The inside: flood from the player through everything but walls.
        let mut ground = vec![Ground::Outside; n];
        for (s, &ch) in chars.iter().enumerate() {
            if ch == '#' {
                ground[s] = Ground::Wall;
            }
        }
        let mut queue = VecDeque::from([player]);
        ground[player] = Ground::Inside;
        while let Some(s) = queue.pop_front() {
            for d in Dir::ALL {
                if let Some(t) = step_in(rows, cols, s, d)
                    && ground[t] == Ground::Outside
                {
                    ground[t] = Ground::Inside;
                    queue.push_back(t);
                }
            }
        }
        let goal: Vec<bool> = chars.iter().map(|c| matches!(c, '.' | '*' | '+')).collect();
        let mut boxes = Vec::new();
        let mut unsolvable = None;
        for (s, &ch) in chars.iter().enumerate() {
            let is_box = matches!(ch, '$' | '*');
            match (ground[s], is_box) {
                (Ground::Inside, true) => boxes.push(s as u16),
                (Ground::Outside, true) if goal[s] => ground[s] = Ground::Sealed,
                (Ground::Outside, true) => {
                    unsolvable.get_or_insert_with(|| {
                        format!(
                            "the box at row {}, column {} is sealed off the player's reach, \
                             off a goal",
                            s / cols + 1,
                            s % cols + 1
                        )
                    });
                }
                _ => {}
            }
        }
        let goals: Vec<u16> = (0..n)
            .filter(|&s| goal[s] && ground[s] == Ground::Inside)
            .map(|s| s as u16)
            .collect();
        if goals.len() != boxes.len() && unsolvable.is_none() {
            unsolvable = Some(format!(
                "{} boxes but {} goals within the player's reach",
                boxes.len(),
                goals.len()
            ));
        }
        let mut board = Board {
            rows,
            cols,
            ground,
            goal,
            live: vec![false; n],
            goals,
            dist: Vec::new(),
            next: (0..n)
                .map(|s| Dir::ALL.map(|d| step_in(rows, cols, s, d).map_or(OFF, |t| t as u32)))
                .collect(),
            start: State {
                boxes: boxes.into_boxed_slice(),
                player: player as u16,
            },
            unsolvable,
        };
        board.dist = vec![u16::MAX; board.goals.len() * n];
        for g in 0..board.goals.len() {
            board.pull_distances(g);
        }
        for s in 0..n {
            board.live[s] = (0..board.goals.len()).any(|g| board.dist[g * n + s] != u16::MAX);
        }
        if board.unsolvable.is_none()
            && let Some(&b) = board
                .start
                .boxes
                .iter()
                .find(|&&b| !board.live[usize::from(b)])
        {
            let b = usize::from(b);
            board.unsolvable = Some(format!(
                "the box at row {}, column {} stands on a dead square: it can never be pushed \
                 to a goal",
                b / cols + 1,
                b % cols + 1
            ));
        }
        board
    }

    /// The least pushes from every square to goal `g` with no other box on the board,
    /// found by pulling a box backwards from the goal: a box reaches `t` from `t - d` when
    /// the player can stand on `t - 2d` to push it.
    fn pull_distances(&mut self, g: usize) {
        let n = self.rows * self.cols;
        let from = usize::from(self.goals[g]);
        let dist = &mut self.dist[g * n..(g + 1) * n];
        dist[from] = 0;
        let mut queue = VecDeque::from([from]);
        while let Some(t) = queue.pop_front() {
            for d in Dir::ALL {
                let Some(b) = step_in(self.rows, self.cols, t, opposite(d)) else {
                    continue;
                };
                let Some(p) = step_in(self.rows, self.cols, b, opposite(d)) else {
                    continue;
                };
                let open = |s: usize| self.ground[s] == Ground::Inside;
                if open(b) && open(p) && dist[b] == u16::MAX {
                    dist[b] = dist[t] + 1;
                    queue.push_back(b);
                }
            }
        }
    }

    /// The number of squares (`rows * cols`).
    pub fn squares(&self) -> usize {
        self.rows * self.cols
    }

    /// What square `s` is.
    pub fn ground(&self, s: usize) -> Ground {
        self.ground[s]
    }

    /// Whether square `s` is a goal.
    pub fn is_goal(&self, s: usize) -> bool {
        self.goal[s]
    }

    /// Whether square `s` is inside and dead: no box there can ever reach a goal.
    pub fn is_dead(&self, s: usize) -> bool {
        self.ground[s] == Ground::Inside && !self.live[s]
    }

    /// The square one step `d` from `s`, if it is on the board.
    pub fn step(&self, s: usize, d: Dir) -> Option<usize> {
        let t = self.next[s][d as usize];
        (t != OFF).then_some(t as usize)
    }

    /// Whether every box of `state` stands on a goal.
    pub fn is_solved(&self, state: &State) -> bool {
        state.boxes.iter().all(|&b| self.goal[usize::from(b)])
    }

    /// The boxes of `state` as flags by square.
    pub fn box_flags(&self, state: &State) -> Vec<bool> {
        let mut flags = vec![false; self.squares()];
        for &b in state.boxes.iter() {
            flags[usize::from(b)] = true;
        }
        flags
    }

    /// Whether the player may stand on `s` with the boxes `boxes`.
    fn walkable(&self, boxes: &[bool], s: usize) -> bool {
        self.ground[s] == Ground::Inside && !boxes[s]
    }

    /// The player's walking distances from `from` with the boxes `boxes` (`u32::MAX` where
    /// it cannot walk), and the squares reached in breadth-first order.
    pub fn walks(&self, boxes: &[bool], from: usize) -> (Vec<u32>, Vec<usize>) {
        let mut dist = vec![u32::MAX; self.squares()];
        let mut order = vec![from];
        dist[from] = 0;
        let mut i = 0;
        while let Some(&s) = order.get(i) {
            i += 1;
            for d in Dir::ALL {
                if let Some(t) = self.step(s, d)
                    && dist[t] == u32::MAX
                    && self.walkable(boxes, t)
                {
                    dist[t] = dist[s] + 1;
                    order.push(t);
                }
            }
        }
        (dist, order)
    }

    /// A shortest walk of the player from `from` to `to` with the boxes `boxes`, as its
    /// directions; `None` if it cannot get there.
    pub fn walk_path(&self, boxes: &[bool], from: usize, to: usize) -> Option<Vec<Dir>> {
        if !self.walkable(boxes, to) {
            return None;
        }
        let (dist, _) = self.walks(boxes, to);
        if dist[from] == u32::MAX {
            return None;
        }
        // Down the distances to `to`, first direction first (a fixed order: the same walk
        // every time).
        let mut path = Vec::new();
        let mut at = from;
        while at != to {
            let d = Dir::ALL.into_iter().find(|&d| {
                self.step(at, d)
                    .is_some_and(|t| dist[t] != u32::MAX && dist[t] + 1 == dist[at])
            })?;
            path.push(d);
            at = self.step(at, d)?;
        }
        Some(path)
    }

    /// The top-left square the player can walk to from `from` with the boxes `boxes` (a
    /// flood fill on this thread's scratch marks: it runs for every successor).
    pub fn normalized(&self, boxes: &[bool], from: usize) -> usize {
        SCRATCH.with_borrow_mut(|scratch| {
            let seen = scratch.fresh(self.squares());
            let Scratch { marks, stack, .. } = scratch;
            stack.clear();
            stack.push(from as u32);
            marks[from] = seen;
            let mut least = from;
            while let Some(s) = stack.pop() {
                let s = s as usize;
                least = least.min(s);
                for t in self.next[s] {
                    if t != OFF && marks[t as usize] != seen && self.walkable(boxes, t as usize) {
                        marks[t as usize] = seen;
                        stack.push(t);
                    }
                }
            }
            least
        })
    }

    /// The LURD of `pushes` played from `state` (the player on its own square), with the
    /// state after each push; `None` if one is not legal.
    pub fn lurd_of(&self, state: &State, pushes: &[Push]) -> Option<(String, Vec<State>)> {
        let mut at = state.clone();
        let mut boxes = self.box_flags(&at);
        let mut text = String::new();
        let mut states = vec![at.clone()];
        for push in pushes {
            let b = usize::from(push.row) * self.cols + usize::from(push.col);
            let t = self.step(b, push.dir)?;
            let behind = self.step(b, opposite(push.dir))?;
            if !boxes[b] || !self.walkable(&boxes, t) || !self.walkable(&boxes, behind) {
                return None;
            }
            let walk = self.walk_path(&boxes, usize::from(at.player), behind)?;
            text.extend(walk.iter().map(|d| d.letter(false)));
            text.push(push.dir.letter(true));
            boxes[b] = false;
            boxes[t] = true;
            let mut next: Vec<u16> = at.boxes.to_vec();
            let k = next.iter().position(|&x| usize::from(x) == b)?;
            next[k] = t as u16;
            next.sort_unstable();
            at = State {
                boxes: next.into_boxed_slice(),
                player: b as u16,
            };
            states.push(at.clone());
        }
        Some((text, states))
    }
}

/// No square: off the board, in [`Board`]'s step table.
const OFF: u32 = u32::MAX;

/// A thread's scratch marks for flood fills: a square is marked when its mark equals the
/// fill's stamp, so a new fill clears nothing.
#[derive(Default)]
struct Scratch {
    marks: Vec<u32>,
    stamp: u32,
    stack: Vec<u32>,
}

impl Scratch {
    /// A new stamp for a fill over `squares` squares (the marks grown to them, and cleared
    /// once when the stamps wrap around).
    fn fresh(&mut self, squares: usize) -> u32 {
        if self.marks.len() < squares {
            self.marks.resize(squares, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The direction the other way.
pub fn opposite(d: Dir) -> Dir {
    match d {
        Dir::Up => Dir::Down,
        Dir::Down => Dir::Up,
        Dir::Left => Dir::Right,
        Dir::Right => Dir::Left,
    }
}

/// The square one step `d` from `s` on a board of `rows` x `cols`, if there is one.
fn step_in(rows: usize, cols: usize, s: usize, d: Dir) -> Option<usize> {
    let (r, c) = (s / cols, s % cols);
    let (dr, dc) = d.delta();
    let r = r.checked_add_signed(dr as isize).filter(|&r| r < rows)?;
    let c = c.checked_add_signed(dc as isize).filter(|&c| c < cols)?;
    Some(r * cols + c)
}
