//! The boards of a `bench sliding` batch: read from `--instances` (one a line), or random
//! ones scrambled from the goal (`--count`, `--seed`, `--side`, `--goal`).

use std::path::Path;

use super::super::Sliding;
use super::SlidingArgs;
use crate::puzzles;
use crate::puzzles::batch::{Console, EXIT_BAD_INPUT};

/// One board of the batch and where it came from (the seed, or the file's line).
pub(super) struct Instance {
    /// The board.
    pub(super) board: Sliding,
    /// Its seed, a random board.
    pub(super) seed: Option<u64>,
    /// Its line of `--instances`.
    pub(super) line: Option<usize>,
}

/// The tiles `numbers` (in reading order, separated by spaces) as the rows of a square board,
/// and its side; an error naming `what` when they are not a square number of at least 4.
fn rows_of(numbers: &str, what: &str) -> Result<(String, usize), String> {
    let tiles: Vec<&str> = numbers.split_whitespace().collect();
    let side = (tiles.len() as f64).sqrt().round() as usize;
    if side * side != tiles.len() || side < 2 {
        return Err(format!(
            "{what} has {} numbers, not a square board's (16 for the 15-puzzle)",
            tiles.len()
        ));
    }
    let rows = tiles
        .chunks(side)
        .map(|row| row.join(" "))
        .collect::<Vec<_>>()
        .join("\n");
    Ok((rows, side))
}

/// The goal of `--goal` as a solved board (the tiles checked as a board's), or the solved
/// board of `side` (default 4) without it; `--side` must agree with the goal's.
fn solved_board(goal: Option<&str>, side: Option<usize>) -> Result<Sliding, String> {
    let Some(goal) = goal else {
        let side = side.unwrap_or(4);
        return Sliding::solved(side, side).map_err(|e| e.to_string());
    };
    let (rows, goal_side) = rows_of(goal, "--goal")?;
    if let Some(side) = side.filter(|&s| s != goal_side) {
        return Err(format!(
            "--goal is a {goal_side} x {goal_side} board, --side {side} asks for {side} x {side}"
        ));
    }
    Sliding::from_text(&format!("{rows}\ngoal:\n{rows}"))
        .map_err(|e| format!("--goal is not a board's goal: {e}"))
}

/// The boards of `--instances`: one per line, each a square number of tiles.
fn read_instances(path: &Path, goal: Option<&str>) -> Result<Vec<Instance>, String> {
    let text = puzzles::read_text_file(path).map_err(|e| e.to_string())?;
    let goal_rows = goal
        .map(|g| rows_of(g, "--goal").map(|(rows, _)| rows))
        .transpose()?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // A `#` starts a comment, on a line of its own or after a board.
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let what = format!("line {}", i + 1);
        let (mut board, _) = rows_of(line, &what)?;
        if let Some(goal) = &goal_rows {
            board = format!("{board}\ngoal:\n{goal}");
        }
        let sliding = Sliding::from_text(&board).map_err(|e| format!("{what}: {e}"))?;
        if let Err(reason) = sliding.check_solvable() {
            return Err(format!("{what}: no solution: {reason}"));
        }
        out.push(Instance {
            board: sliding,
            seed: None,
            line: Some(i + 1),
        });
    }
    if out.is_empty() {
        return Err("no boards in the file".into());
    }
    if out
        .iter()
        .any(|b| (b.board.rows(), b.board.goal()) != (out[0].board.rows(), out[0].board.goal()))
    {
        return Err("the boards differ in size: one size a batch".into());
    }
    Ok(out)
}

/// The boards of the batch: those of `--instances`, or random ones solvable towards the goal
/// (scrambled from it); `Err` is the exit code, the reason printed.
pub(super) fn batch(args: &SlidingArgs, console: &mut dyn Console) -> Result<Vec<Instance>, u8> {
    if let Some(path) = &args.instances {
        return read_instances(path, args.goal.as_deref()).map_err(|e| console.bad(path, &e));
    }
    let solved = solved_board(args.goal.as_deref(), args.side).map_err(|e| {
        console.say(&e.to_string());
        EXIT_BAD_INPUT
    })?;
    let mut list = Vec::new();
    for i in 0..args.count {
        let seed = args.seed.wrapping_add(i as u64);
        let mut board = solved.clone();
        board.scramble_uniform(seed);
        list.push(Instance {
            board,
            seed: Some(seed),
            line: None,
        });
    }
    Ok(list)
}
