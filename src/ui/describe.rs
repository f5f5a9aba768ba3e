//! What a screen reader says of the canvas (through AccessKit): the puzzle on screen, its
//! size, its start and goals, and the search's state, kept up to date as a run goes.

use eframe::egui;

use super::scene::TEXTURE_SQUARES;
use crate::app::AppState;
use crate::puzzles::{Picture, Square};

/// The most goals named one by one; past it they are counted.
const GOALS_NAMED: usize = 4;

/// The puzzle's part of the description of `picture` (the puzzle on screen): its type, its
/// size in squares, where its start and goals are (rows and columns from 0 at the top-left,
/// as in the status bar). One pass over the squares: made once per edit (see
/// [`describe_canvas`]).
pub(super) fn describe_puzzle(app: &AppState, picture: &Picture) -> String {
    let mut text = format!(
        "{}, {} by {} squares",
        app.puzzle().puzzle_type().label,
        picture.rows,
        picture.cols
    );
    let at = |i: usize| format!("row {}, column {}", i / picture.cols, i % picture.cols);
    let mut starts = Vec::new();
    let mut goals = Vec::new();
    for (i, square) in picture.squares.iter().enumerate() {
        match square {
            Square::Start => starts.push(i),
            Square::Goal => goals.push(i),
            _ => {}
        }
    }
    if let Some(&start) = starts.first() {
        text += &format!("; start at {}", at(start));
    }
    match goals.len() {
        0 => {}
        1 => text += &format!("; goal at {}", at(goals[0])),
        n if n <= GOALS_NAMED => {
            let named: Vec<String> = goals.iter().map(|&g| at(g)).collect();
            text += &format!("; {n} goals, at {}", named.join("; "));
        }
        n => text += &format!("; {n} goal squares"),
    }
    text
}

/// The search's part of the description: not started, running, or how it ended, with the
/// states expanded and the frontier's size.
pub(super) fn describe_search(app: &AppState) -> String {
    let stats = &app.marks().stats;
    let counts = format!(
        "{} states expanded, frontier {}",
        stats.expanded, stats.frontier
    );
    if app.is_running() {
        return format!("Search running: {counts}.");
    }
    match app.result() {
        None if stats.expanded == 0 => "Search not started.".to_owned(),
        None => format!("Search stopped: {counts}."),
        Some(r) if r.solved => format!(
            "Solution found: {} moves, cost {}; {counts}.",
            r.moves.len(),
            crate::search::format_cost(r.cost)
        ),
        Some(r) => format!("No solution ({}): {counts}.", r.outcome.label()),
    }
}

/// Gives the canvas `id` its description for screen readers: the puzzle's part, made once
/// per edit (`app.revision`) and kept in egui's memory, and the search's, made each frame.
/// Nothing is made while no screen reader is asking (AccessKit off).
pub(super) fn describe_canvas(ui: &egui::Ui, id: egui::Id, app: &AppState, picture: &Picture) {
    let ctx = ui.ctx();
    if ctx.accesskit_node_builder(id, |_| ()).is_none() {
        return; // AccessKit is off: no one to tell
    }
    let key = egui::Id::unique("canvas description");
    let kept: Option<(u64, String)> = ctx.data(|d| d.get_temp(key));
    let puzzle = match kept {
        Some((revision, text)) if revision == app.edits.revision => text,
        _ => {
            let text = describe_puzzle(app, picture);
            ctx.data_mut(|d| d.insert_temp(key, (app.edits.revision, text.clone())));
            text
        }
    };
    let text = match describe_board(picture) {
        Some(board) => format!("{puzzle}. {board}. {}", describe_search(app)),
        None => format!("{puzzle}. {}", describe_search(app)),
    };
    ctx.accesskit_node_builder(id, |node| node.set_description(text));
}

/// The board the canvas draws, in words (`The board shown: 4 1 2 / _ 5 3 / 7 8 6`), for a
/// puzzle whose states are boards (tiles, pieces, or a script's drawing): the moment of the
/// search, the solution's move or the puzzle itself, whichever is drawn. Made each frame
/// from the picture drawn, so it says what is on the canvas, not what should be; `None`
/// for a grid of squares (a maze), whose search is told by its marks, and for a picture
/// past [`TEXTURE_SQUARES`] squares, which the canvas draws as a texture, never as a board
/// (see [`super::scene::is_board`]). That one is not looked at: a frame made this for a
/// 2048 x 2048 maze looked at its 4 million squares, twice the rest of the frame's work.
pub(super) fn describe_board(picture: &Picture) -> Option<String> {
    if picture.squares.len() > TEXTURE_SQUARES {
        return None;
    }
    let board = picture.board
        || (picture.squares.iter())
            .any(|s| matches!(s, Square::Tile { .. } | Square::Piece { .. }));
    board.then(|| format!("The board shown: {}", picture.board_line()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `side` x `side` picture of numbered tiles, said to be a board.
    fn tiles(side: usize) -> Picture {
        Picture {
            rows: side,
            cols: side,
            squares: vec![
                Square::Tile {
                    number: 1,
                    home: false
                };
                side * side
            ],
            start: None,
            goal_area: Vec::new(),
            board: true,
        }
    }

    #[test]
    fn a_board_is_told_up_to_the_texture_size_and_a_texture_not_at_all() {
        let small = describe_board(&tiles(3)).expect("a 3 x 3 board is told");
        assert_eq!(small, "The board shown: 1 1 1 / 1 1 1 / 1 1 1");
        let side = (TEXTURE_SQUARES as f64).sqrt() as usize;
        assert!(describe_board(&tiles(side)).is_some(), "{side} x {side}");
        // Past the texture size the canvas draws no board: nothing is told (nor made, a
        // line of millions of squares each frame).
        assert!(
            describe_board(&tiles(side + 1)).is_none(),
            "{} squares",
            (side + 1).pow(2)
        );
        assert!(describe_board(&tiles(2048)).is_none(), "2048 x 2048");
    }
}
