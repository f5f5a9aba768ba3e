//! Jump Point Search on a maze (Harabor and Grastien, AAAI 2011), in the variant for grids
//! where a diagonal move needs both squares beside it free (no corner cutting), as in the
//! Moving AI benchmarks: the maze's squares as bit rows ([`OctileMap`]), built once per run,
//! scanned by the one JPS scanner (`src/search/octile/jump.rs`) for JPS
//! ([`OctileMap::jump_points`]) and read from its jump distances for JPS+
//! ([`OctileMap::jump_plus_lines`]).

use super::{Dir, MAX_SIDE, Maze, Report};
use crate::puzzles::Place;
use crate::search::octile::{MAX_OCTILE_SIDE, OctileMap};
use crate::search::{JumpFn, JumpPlus, Problem, Successor};

// Every maze fits in bit rows.
const _: () = assert!(MAX_SIDE <= MAX_OCTILE_SIDE);

/// The maze's passability as bit rows; `None` for a maze too large for them (none is, by
/// [`MAX_SIDE`]).
fn bit_rows(maze: &Maze) -> Option<OctileMap> {
    OctileMap::new(maze.rows, maze.cols, false, |r, c| {
        maze.free_at(r as isize, c as isize)
    })
}

/// The successor of a line of `steps` squares along (dr, dc) ending on square (r, c): its
/// state, its move and its cost.
fn line_to(
    (dr, dc): (isize, isize),
    steps: usize,
    (r, c): (usize, usize),
) -> Option<Successor<u32, Dir>> {
    let dir = Dir::from_delta(dr, dc)?;
    Some(Successor {
        state: Maze::state_at(r, c),
        mv: dir,
        cost: dir.length() * steps as f64,
    })
}

/// Jump Point Search's successor function on `maze` (see `JumpPoints::jump_scan`), built
/// once per run: the jump points of a state reached from a parent (`None` at a start), each
/// with its direction and the cost of the line to it, scanned on the maze's bit rows; a scan
/// stops at any goal square (percolation's: the far line).
pub(super) fn jump_scan(maze: &Maze) -> JumpFn<'_, u32, Dir> {
    let Some(map) = bit_rows(maze) else {
        return Box::new(|_, _, _| {});
    };
    let goals = map.jump_goals(|r, c| maze.is_goal(&Maze::state_at(r, c)) == Ok(true));
    Box::new(move |state, parent, out| {
        let (here, from) = squares(maze, state, parent);
        map.jump_points(here, from, &goals, |direction, steps, at| {
            out.extend(line_to(direction, steps, at));
        });
    })
}

/// The squares (row, column) of `state` and of its `parent`.
fn squares(maze: &Maze, state: &u32, parent: Option<&u32>) -> Sq2 {
    let here = maze.cell(*state);
    let from = parent.map(|p| maze.cell(*p)).map(|c| (c.row, c.col));
    ((here.row, here.col), from)
}

/// A square and the square it was reached from, if any: (row, column) each.
type Sq2 = ((usize, usize), Option<(usize, usize)>);

/// JPS+'s successor function on `maze` (see `JumpPoints::jump_distances`): the jump
/// distances of its bit rows ([`crate::search::octile::JumpDistances`]) computed once, with
/// the time that took (the bit rows' too), milliseconds. The lines end at the nearest goal
/// in their way. `None` for a maze too large for bit rows.
pub(super) fn jump_plus(maze: &Maze) -> Option<JumpPlus<'_, u32, Dir>> {
    let started = std::time::Instant::now();
    let map = bit_rows(maze)?.with_jump_distances();
    let goals: Vec<(usize, usize)> = maze.goals.iter().map(|g| (g.row, g.col)).collect();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let jumps: JumpFn<'_, u32, Dir> = Box::new(move |state, parent, out| {
        let (here, from) = squares(maze, state, parent);
        map.jump_plus_lines(here, from, &goals, |direction, steps, at| {
            out.extend(line_to(direction, steps, at));
        });
    });
    Some(JumpPlus {
        successors: jumps,
        precompute_ms: ms,
    })
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
