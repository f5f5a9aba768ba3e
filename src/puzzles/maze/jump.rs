//! Jump Point Search's scanning on a maze (Harabor and Grastien, AAAI 2011), in the variant
//! for grids where a diagonal move needs both squares beside it free (no corner cutting), as
//! in the Moving AI benchmarks. The pruning keeps, from a square reached moving straight,
//! the square ahead and each side that is forced (free, the square behind it blocked) with
//! the diagonal between it and the square ahead; from a square reached diagonally, the two
//! straight parts and the diagonal. A scan stops at a
//! goal, or at a square with a forced neighbour: moving straight, a free square to one side
//! whose square behind it is blocked; moving diagonally, a square from which a straight scan
//! finds a jump point.

use super::{Dir, Maze, Report};
use crate::puzzles::Place;
use crate::search::octile::OctileMap;
use crate::search::{JumpFn, JumpPlus, Problem, Successor};

/// Pushes the jump points reachable from state `index`, reached from `parent` (`None` at a
/// start), onto `out`, each with its direction and the cost of the line to it.
pub(super) fn successors(
    maze: &Maze,
    index: u32,
    parent: Option<u32>,
    out: &mut Vec<Successor<u32, Dir>>,
) {
    let here = maze.cell(index);
    let (r, c) = (here.row as isize, here.col as isize);
    let free = |dr: isize, dc: isize| maze.free_at(r + dr, c + dc);
    let mut directions: Vec<(isize, isize)> = Vec::with_capacity(8);
    let arrived = parent.map(|p| maze.cell(p)).map(|from| {
        (
            (r - from.row as isize).signum(),
            (c - from.col as isize).signum(),
        )
    });
    crate::search::octile::pruned_directions(arrived, free, |d| directions.push(d));
    for (dr, dc) in directions {
        if let Some((jr, jc, steps)) = jump(maze, r + dr, c + dc, dr, dc) {
            let dir = Dir::from_delta(dr, dc).expect("a unit direction");
            out.push(Successor {
                state: Maze::state_at(jr as usize, jc as usize),
                mv: dir,
                cost: dir.length() * steps as f64,
            });
        }
    }
}

/// JPS+'s successor function on `maze` (see [`Problem::jump_distances`]): the jump
/// distances of its bit rows ([`crate::search::octile::JumpDistances`]) computed once, with
/// the time that took (the bit rows' too), milliseconds. The lines end at the nearest goal
/// in their way. `None` for a maze too large for bit rows.
pub(super) fn jump_plus(maze: &Maze) -> Option<JumpPlus<'_, u32, Dir>> {
    let started = std::time::Instant::now();
    let map = OctileMap::new(maze.rows, maze.cols, false, |r, c| {
        maze.free_at(r as isize, c as isize)
    })?
    .with_jump_distances();
    let goals: Vec<(usize, usize)> = maze.goals.iter().map(|g| (g.row, g.col)).collect();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let jumps: JumpFn<'_, u32, Dir> = Box::new(move |state, parent, out| {
        let here = maze.cell(*state);
        let from = parent.map(|p| maze.cell(*p)).map(|c| (c.row, c.col));
        map.jump_plus_lines(
            (here.row, here.col),
            from,
            &goals,
            |(dr, dc), steps, (r, c)| {
                if let Some(dir) = Dir::from_delta(dr, dc) {
                    out.push(Successor {
                        state: Maze::state_at(r, c),
                        mv: dir,
                        cost: dir.length() * steps as f64,
                    });
                }
            },
        );
    });
    Some(JumpPlus {
        successors: jumps,
        precompute_ms: ms,
    })
}

/// Scans from (r, c) in direction (dr, dc); returns the jump point found and how many steps
/// from the square before (r, c) it lies, or `None` when the scan runs into a wall.
fn jump(
    maze: &Maze,
    mut r: isize,
    mut c: isize,
    dr: isize,
    dc: isize,
) -> Option<(isize, isize, u64)> {
    let mut steps = 1;
    loop {
        if !maze.free_at(r, c) {
            return None;
        }
        if maze.is_goal(&Maze::state_at(r as usize, c as usize)) == Ok(true) {
            return Some((r, c, steps));
        }
        let free = |er: isize, ec: isize| maze.free_at(r + er, c + ec);
        if dr != 0 && dc != 0 {
            if jump(maze, r, c + dc, 0, dc).is_some() || jump(maze, r + dr, c, dr, 0).is_some() {
                return Some((r, c, steps));
            }
            if !(free(dr, 0) && free(0, dc)) {
                return None;
            }
        } else {
            // A free square to one side whose square behind is blocked is a forced neighbour.
            let (sr, sc) = (dc, dr);
            for side in [1, -1] {
                let (pr, pc) = (sr * side, sc * side);
                if free(pr, pc) && !free(pr - dr, pc - dc) {
                    return Some((r, c, steps));
                }
            }
        }
        r += dr;
        c += dc;
        steps += 1;
    }
}

/// Turns a report of Jump Point Search, whose path goes from jump point to jump point, into
/// one square at a time, as the other algorithms report it, so playback steps square by square.
pub(super) fn unfold_report(report: &mut Report) {
    if report.path.len() < 2 {
        return;
    }
    let mut path: Vec<Place> = vec![report.path[0]];
    let mut moves = Vec::new();
    for (pair, mv) in report.path.windows(2).zip(&report.moves) {
        let (a, b) = (pair[0].cell, pair[1].cell);
        let steps = a.row.abs_diff(b.row).max(a.col.abs_diff(b.col));
        let dr = (b.row as isize - a.row as isize).signum();
        let dc = (b.col as isize - a.col as isize).signum();
        for k in 1..=steps as isize {
            let cell = crate::puzzles::Cell::new(
                (a.row as isize + dr * k) as usize,
                (a.col as isize + dc * k) as usize,
            );
            path.push(cell.into());
            moves.push(mv.clone());
        }
    }
    report.notes.push(format!(
        "{} jump points on the path; shown square by square",
        report.path.len()
    ));
    report.path = path;
    report.moves = moves;
}
