//! The sliding tiles' formats (see the module docs of [`super`]): the text and JSON boards
//! read and checked.

use serde::{Deserialize, Serialize};

use super::*;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SlidingJson {
    #[serde(rename = "type")]
    pub(super) puzzle_type: String,
    pub(super) version: u32,
    pub(super) tiles: Vec<Vec<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) goal: Option<Vec<Vec<u8>>>,
}

impl Sliding {
    /// Parses the text format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] with the line and column of a word that is not a number, with the line
    /// of a ragged row, and without one for a board of the wrong size, a missing or repeated
    /// tile, or a goal of another shape.
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        let mut blocks: [Vec<Vec<u8>>; 2] = [Vec::new(), Vec::new()];
        let mut in_goal = false;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line == "goal:" {
                if in_goal {
                    return Err(FormatError::at(i + 1, None, "a second `goal:` line"));
                }
                in_goal = true;
                continue;
            }
            let mut row = Vec::new();
            let mut pos = 0;
            for word in raw.split_whitespace() {
                let at = raw[pos..].find(word).map_or(pos, |a| a + pos);
                pos = at + word.len();
                let n = word.parse::<u8>().map_err(|_| {
                    FormatError::at(
                        i + 1,
                        Some(at + 1),
                        format!("{word:?} is not a tile number"),
                    )
                })?;
                row.push(n);
            }
            let block = &mut blocks[usize::from(in_goal)];
            if let Some(first) = block.first()
                && first.len() != row.len()
            {
                return Err(FormatError::at(
                    i + 1,
                    None,
                    format!(
                        "ragged row: {} numbers where the first row has {}",
                        row.len(),
                        first.len()
                    ),
                ));
            }
            block.push(row);
        }
        let [board, goal] = blocks;
        Self::from_rows(board, (in_goal || !goal.is_empty()).then_some(goal))
    }

    /// Reads the JSON format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] for a JSON object of the wrong shape and the checks of
    /// [`Sliding::from_text`].
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: SlidingJson = json_body(value)?;
        Self::from_rows(body.tiles, body.goal)
    }

    fn from_rows(board: Vec<Vec<u8>>, goal: Option<Vec<Vec<u8>>>) -> Result<Self, FormatError> {
        let rows = board.len();
        let cols = board.first().map_or(0, Vec::len);
        if rows == 0 {
            return Err(FormatError::new("no tiles: expected rows of numbers"));
        }
        if board.iter().any(|r| r.len() != cols) {
            return Err(FormatError::new(
                "ragged rows: every row needs as many numbers",
            ));
        }
        let goal = match goal {
            Some(g) => {
                if g.len() != rows || g.iter().any(|r| r.len() != cols) {
                    return Err(FormatError::new(format!(
                        "the goal must have the board's shape, {rows} x {cols}"
                    )));
                }
                g.concat()
            }
            None => default_goal(rows, cols),
        };
        Self::new(rows, cols, board.concat(), goal)
    }
}
