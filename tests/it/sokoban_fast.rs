//! Sokoban's fast solver against plain references: over the whole push graph of small levels
//! (explored here with no pruning at all, by rules written in this test), no deadlock check
//! (dead squares, freeze, the matching's bipartite check) ever prunes a position from which
//! breadth-first search solves (corral deadlocks among them, which also prune positions the
//! others do not), and the matching bound repaired after a push is the one
//! computed anew; the fast solver's answers replay to solved in the test's own
//! checker, never shorter than BFS's optimum; and `solve` picks it by default where A* does
//! not finish in its budget.

use std::collections::{HashMap, VecDeque};

use puzzlelab::puzzles::Puzzle;
use puzzlelab::puzzles::sokoban::Sokoban;
use puzzlelab::search::{Algorithm, CancelToken, Limits};

use crate::common::puzzlelab;

const MICROBAN: &str = include_str!("../fixtures/sokoban-microban-1-10.xsb");
const SHIPPED: &str = include_str!("../../puzzles/sokoban-first-steps.xsb");

/// Levels written for this test, where boxes freeze against each other and the walls in more
/// ways than a 2 x 2 block (public domain, like puzzlelab's shipped puzzles).
const FREEZERS: &str = "\
#######
#.  . #
# $$  #
#  @$ #
#.    #
#######
Title: Three boxes in a room

########
#   .  #
# $ ## #
#. $ $.#
# #@   #
#    $ #
#   .  #
########
Title: Four boxes round a pillar

#######
#. .  #
# $ $ #
#  #  #
# $@$ #
#. .  #
#######
Title: Four boxes and a pillar
";

/// A position by the test's own rules: the boxes' (row, column), sorted, and the top-left
/// square the player reaches.
type Position = (Vec<(i32, i32)>, (i32, i32));

/// A level by the test's own rules, read from XSB rows.
struct Rules {
    walls: Vec<(i32, i32)>,
    goals: Vec<(i32, i32)>,
    /// The board's width, for the walk's marks (`row * cols + col`).
    cols: i32,
    squares: usize,
    /// The walls by square (`row * cols + col`).
    wall: Vec<bool>,
}

impl Rules {
    fn read(rows: &[String]) -> (Rules, Position) {
        let (mut walls, mut goals, mut boxes, mut player) = (vec![], vec![], vec![], (0, 0));
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let at = (r as i32, c as i32);
                match ch {
                    '#' => walls.push(at),
                    '.' => goals.push(at),
                    '$' => boxes.push(at),
                    '*' => {
                        boxes.push(at);
                        goals.push(at);
                    }
                    '@' => player = at,
                    '+' => {
                        player = at;
                        goals.push(at);
                    }
                    _ => {}
                }
            }
        }
        boxes.sort();
        let cols = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32 + 1;
        let squares = (rows.len() + 1) * cols as usize;
        let mut wall = vec![false; squares];
        for &(r, c) in &walls {
            wall[(r * cols + c) as usize] = true;
        }
        let rules = Rules {
            walls,
            goals,
            cols,
            squares,
            wall,
        };
        let start = (boxes.clone(), rules.reach(&boxes, player).0);
        (rules, start)
    }

    fn free(&self, boxes: &[(i32, i32)], s: (i32, i32)) -> bool {
        !self.wall[(s.0 * self.cols + s.1) as usize] && !boxes.contains(&s)
    }

    /// The top-left square the player reaches from `from`, and every square it reaches.
    fn reach(&self, boxes: &[(i32, i32)], from: (i32, i32)) -> ((i32, i32), Vec<(i32, i32)>) {
        let mut seen = vec![from];
        let mut marked = vec![false; self.squares];
        let mark = |(r, c): (i32, i32)| (r * self.cols + c) as usize;
        marked[mark(from)] = true;
        let mut i = 0;
        while i < seen.len() {
            let (r, c) = seen[i];
            i += 1;
            for t in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
                if !marked[mark(t)] && self.free(boxes, t) {
                    marked[mark(t)] = true;
                    seen.push(t);
                }
            }
        }
        (*seen.iter().min().unwrap(), seen)
    }

    /// Every push from `p`: the position after it and the box's new square.
    fn pushes(&self, p: &Position) -> Vec<(Position, (i32, i32))> {
        let (boxes, player) = p;
        let mut out = Vec::new();
        for &(r, c) in &self.reach(boxes, *player).1 {
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let b = (r + dr, c + dc);
                let t = (r + 2 * dr, c + 2 * dc);
                if boxes.contains(&b) && self.free(boxes, t) {
                    let mut next: Vec<(i32, i32)> =
                        boxes.iter().map(|&x| if x == b { t } else { x }).collect();
                    next.sort();
                    let region = self.reach(&next, b).0;
                    out.push(((next, region), t));
                }
            }
        }
        out
    }

    fn solved(&self, boxes: &[(i32, i32)]) -> bool {
        boxes.iter().all(|b| self.goals.contains(b))
    }
}

/// The whole push graph from the start, and the least pushes to solved from each position
/// (absent where it cannot be solved), by breadth-first search backwards over it.
fn explore(rules: &Rules, start: &Position) -> (Vec<Position>, HashMap<Position, u32>) {
    let mut index: HashMap<Position, usize> = HashMap::from([(start.clone(), 0)]);
    let mut all = vec![start.clone()];
    let mut preds: Vec<Vec<usize>> = vec![Vec::new()];
    let mut i = 0;
    while i < all.len() {
        let here = all[i].clone();
        for (next, _) in rules.pushes(&here) {
            let n = *index.entry(next.clone()).or_insert_with(|| {
                all.push(next);
                preds.push(Vec::new());
                all.len() - 1
            });
            preds[n].push(i);
        }
        i += 1;
    }
    let mut dist = vec![u32::MAX; all.len()];
    let mut queue = VecDeque::new();
    for (n, p) in all.iter().enumerate() {
        if rules.solved(&p.0) {
            dist[n] = 0;
            queue.push_back(n);
        }
    }
    while let Some(n) = queue.pop_front() {
        for &m in &preds[n] {
            if dist[m] == u32::MAX {
                dist[m] = dist[n] + 1;
                queue.push_back(m);
            }
        }
    }
    let solvable = (all.iter().zip(&dist))
        .filter(|(_, d)| **d != u32::MAX)
        .map(|(p, d)| (p.clone(), *d))
        .collect();
    (all, solvable)
}

/// The small levels: Microban 1-10 but 7 (David W. Skinner), the shipped first steps, this
/// test's.
fn small_levels() -> Vec<(&'static str, Sokoban)> {
    let mut out = Vec::new();
    for (name, text, count) in [
        ("microban", MICROBAN, 10),
        ("first steps", SHIPPED, 5),
        ("freezers", FREEZERS, 3),
    ] {
        for n in 1..=count {
            if name == "microban" && n == 7 {
                // 601,832 positions in its push graph: too many for this test's time.
                continue;
            }
            let mut level = Sokoban::from_text(text).unwrap();
            level.set_level(n).unwrap();
            out.push((name, level));
        }
    }
    out
}

#[test]
fn no_deadlock_check_prunes_a_position_that_breadth_first_search_solves() {
    let (mut frozen, mut unmatched, mut checked) = (0, 0, 0);
    let mut corral_only = 0;
    for (name, level) in small_levels() {
        let board = level.board();
        let (rules, start) = Rules::read(&level.level().rows);
        let (all, solvable) = explore(&rules, &start);
        assert!(
            solvable.contains_key(&start),
            "{name} {}",
            level.level_number()
        );
        let square = |(r, c): (i32, i32)| r as usize * board.cols + c as usize;
        // Corral deadlocks: never on a position BFS solves; some that no other check sees.
        let mut memo = puzzlelab::puzzles::sokoban::board::CorralMemo::default();
        for p in &all {
            let state = puzzlelab::puzzles::sokoban::board::State {
                boxes: p.0.iter().map(|&b| square(b) as u16).collect(),
                player: square(p.1) as u16,
            };
            let dead = board.corral_deadlock(&state, 200, &mut memo);
            let at = format!("{name} {}: {p:?}", level.level_number());
            if solvable.contains_key(p) {
                assert!(!dead, "{at}: a corral deadlock BFS solves");
            } else if dead
                && board.matching_bound(&state).is_some()
                && state.boxes.iter().all(|&b| !board.is_dead(b.into()))
            {
                corral_only += 1;
            }
        }
        for p in &all {
            let boxes: Vec<u16> = p.0.iter().map(|&b| square(b) as u16).collect();
            let assignment = board.assignment(&boxes);
            let mut scratch = Default::default();
            for (next, t) in rules.pushes(p) {
                let mut flags = vec![false; board.squares()];
                for &b in &next.0 {
                    flags[square(b)] = true;
                }
                let state = puzzlelab::puzzles::sokoban::board::State {
                    boxes: next.0.iter().map(|&b| square(b) as u16).collect(),
                    player: square(next.1) as u16,
                };
                let freeze = board.freeze_deadlock(&flags, square(t));
                // The bound repaired from the position before agrees with a new one.
                let moved = (p.0.iter()).position(|b| !next.0.contains(b)).unwrap();
                assert_eq!(
                    board.repaired_bound(&assignment, &boxes, moved, square(t), &mut scratch),
                    board.matching_bound(&state),
                    "{next:?}"
                );
                let no_matching = board.matching_bound(&state).is_none();
                let dead = board.is_dead(square(t));
                let at = format!("{name} {}: {next:?}", level.level_number());
                if let Some(&d) = solvable.get(&next) {
                    checked += 1;
                    assert!(
                        !freeze && !no_matching && !dead,
                        "{at} pruned, {d} pushes from solved"
                    );
                    let bound = board.matching_bound(&state).unwrap();
                    assert!(bound <= d, "{at}: bound {bound} over the {d} pushes left");
                } else {
                    frozen += usize::from(freeze);
                    unmatched += usize::from(no_matching);
                }
            }
        }
    }
    assert!(checked > 1000, "{checked} solvable positions checked");
    assert!(
        frozen > 0 && unmatched > 0 && corral_only > 0,
        "the checks pruned something: {frozen} {unmatched} {corral_only}"
    );
}

#[test]
fn the_fast_solvers_answers_replay_and_are_never_shorter_than_breadth_first_search() {
    for ((name, mut level), order) in small_levels()
        .into_iter()
        .zip(["fess", "greedy", "both"].iter().cycle())
    {
        level.set_option("order", order).unwrap();
        let at = format!("{name} {} ({order})", level.level_number());
        let report = level.solve_fast(&CancelToken::new()).unwrap();
        assert!(report.solved && !report.optimal, "{at}");
        let lurd = report.lurd.clone().unwrap();
        let (rules, start) = Rules::read(&level.level().rows);
        let (_, solvable) = explore(&rules, &start);
        let (solved, pushes) = replay(&level.level().rows, &lurd);
        assert!(solved, "{at}: {lurd}");
        assert_eq!(pushes as f64, report.cost, "{at}");
        assert!(pushes as u32 >= solvable[&start], "{at}");
        assert!(
            report
                .notes
                .iter()
                .any(|n| n.contains("not proved optimal")),
            "{at}"
        );
    }
}

/// Replays `lurd` on `rows` by the test's rules: (every box on a goal at the end, pushes).
fn replay(rows: &[String], lurd: &str) -> (bool, usize) {
    let (rules, (mut boxes, _)) = Rules::read(rows);
    let mut player = rows
        .iter()
        .enumerate()
        .find_map(|(r, row)| row.find(['@', '+']).map(|c| (r as i32, c as i32)))
        .unwrap();
    let mut pushes = 0;
    for ch in lurd.chars() {
        let (dr, dc) = match ch.to_ascii_lowercase() {
            'u' => (-1, 0),
            'd' => (1, 0),
            'l' => (0, -1),
            'r' => (0, 1),
            _ => panic!("not LURD: {ch}"),
        };
        let next = (player.0 + dr, player.1 + dc);
        assert!(!rules.walls.contains(&next), "a walk into a wall");
        if let Some(k) = boxes.iter().position(|&b| b == next) {
            let beyond = (next.0 + dr, next.1 + dc);
            assert!(
                rules.free(&boxes, beyond) && ch.is_ascii_uppercase(),
                "a bad push"
            );
            boxes[k] = beyond;
            pushes += 1;
        } else {
            assert!(ch.is_ascii_lowercase(), "a push of nothing");
        }
        player = next;
    }
    (rules.solved(&boxes), pushes)
}

#[test]
fn solve_takes_the_fast_solver_where_astar_does_not_finish_its_budget() {
    let mut level = Sokoban::from_text(MICROBAN).unwrap();
    level.set_level(1).unwrap();
    let cancel = CancelToken::with_limits(Limits {
        timeout: Some(std::time::Duration::from_secs(30)),
        ..Limits::default()
    });
    // Where A* finishes within its budget, its optimal answer is the default's.
    let report = level
        .solve_default(&mut puzzlelab::puzzles::NoWatcher, &cancel)
        .unwrap();
    assert!(report.solved && report.optimal && report.algorithm == Algorithm::AStar);
    // A stopped search answers at once, with no solution claimed.
    let stopped = CancelToken::new();
    stopped.cancel();
    let report = level.solve_fast(&stopped).unwrap();
    assert!(!report.solved);
    // The command line's default on a level A* does not finish within its budget is the fast
    // solver's answer: XSokoban's first (copied here with its credit in the fixture) under a
    // memory budget of 1 MB, which A* passes after about 2,200 expansions and the fast solver
    // does not reach (about 0.3 MB). A memory budget stops A* at the same expansion on every
    // machine; a time budget did not (a quiet machine's A* finished it in 62 ms, within the
    // 0.1 s that a 1 s limit gives).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x1.xsb");
    std::fs::write(&path, XSOKOBAN_1).unwrap();
    let (code, out, err) = puzzlelab(&[
        "solve",
        path.to_str().unwrap(),
        "--timeout",
        "30",
        "--max-memory",
        "1M",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["solved"], true, "{v}");
    assert_eq!(v["optimal"], false, "{v}");
    let (solved, _) = replay(
        &XSOKOBAN_1.lines().map(String::from).collect::<Vec<_>>(),
        v["lurd"].as_str().unwrap(),
    );
    assert!(solved);
}

/// XSokoban's level 1 (Thinking Rabbit's original levels, as collected in XSokoban by
/// Andrew Myers and in `../shared/sokoban/levels/XSokoban_90.xsb`).
const XSOKOBAN_1: &str = "    #####
    #   #
    #$  #
  ###  $##
  #  $ $ #
### # ## #   ######
#   # ## #####  ..#
# $  $          ..#
##### ### #@##  ..#
    #     #########
    #######
";

#[test]
fn the_packing_order_fills_a_dead_end_of_goals_from_its_end() {
    use puzzlelab::puzzles::sokoban::packing::Packing;
    let text = "#######\n#     #####\n# $ $   ..#\n#@    #####\n#######\n";
    let level = Sokoban::from_text(text).unwrap();
    let board = level.board();
    let packing = Packing::new(board);
    let at = |c: usize| (2 * board.cols + c) as u16;
    assert_eq!(
        (packing.order.clone(), packing.unordered),
        (vec![at(9), at(8)], 0)
    );
    assert_eq!(packing.packed(&board.start), 0);
    let mut filled = board.start.clone();
    filled.boxes = vec![at(3), at(9)].into();
    assert_eq!(packing.packed(&filled), 1);
    filled.boxes = vec![at(5), at(8)].into();
    assert_eq!(packing.packed(&filled), 0, "out of order");
    // The fast solver answers with the packing order and PI-corrals, and without.
    for setting in ["on", "off"] {
        let mut level = level.clone();
        level.set_option("packing", setting).unwrap();
        level.set_option("corrals", setting).unwrap();
        let report = level.solve_fast(&CancelToken::new()).unwrap();
        let (solved, pushes) = replay(&level.level().rows, report.lurd.as_deref().unwrap());
        assert!(solved && pushes >= 11, "packing {setting}: {pushes}");
    }
}

#[test]
fn the_players_areas_are_counted_with_the_boxes_as_walls() {
    // A corridor the box cuts in two (its goal down the player's side): two areas with the
    // box, one without it. And the option that picks the order is checked.
    let text = "#########\n#@  $   #\n### #####\n  #.#\n  ###\n";
    let level = Sokoban::from_text(text).unwrap();
    let board = level.board();
    let flags = board.box_flags(&board.start);
    assert_eq!(board.regions(&flags), 2);
    assert_eq!(board.regions(&vec![false; board.squares()]), 1);
    let mut level = level.clone();
    assert!(
        level
            .set_option("order", "best")
            .unwrap_err()
            .contains("both, fess or greedy")
    );
    level.set_option("order", "greedy").unwrap();
}

#[test]
fn the_macros_take_fewer_expansions_and_their_answers_replay() {
    // XSokoban 1: a passage two squares long on row 8 (tunnel macros), a room of six goals
    // reached past it (goal macros). Every setting's answer replays to solved, and with
    // both macros the search expands fewer positions than with neither.
    let mut level = Sokoban::from_text(XSOKOBAN_1).unwrap();
    let rows = level.level().rows.clone();
    let mut expanded = Vec::new();
    for setting in ["on", "tunnels", "goals", "off"] {
        level.set_option("macros", setting).unwrap();
        let report = level.solve_fast(&CancelToken::new()).unwrap();
        let lurd = report.lurd.as_deref().unwrap();
        let (solved, pushes) = replay(&rows, lurd);
        assert!(solved, "macros {setting}: {lurd}");
        assert_eq!(pushes as f64, report.cost, "macros {setting}");
        expanded.push(report.stats.expanded);
    }
    assert!(expanded[0] < expanded[3], "{expanded:?}");
    assert!(
        level
            .set_option("macros", "some")
            .unwrap_err()
            .contains("on, off, tunnels or goals")
    );
}
