//! The drawn cell a move names (`cell: [row, column]`, 0-based, row 0 at the top as `draw`'s
//! rows are drawn): a click on that cell of the picture plays the move by hand.

use super::*;
use crate::puzzles::Cell;

impl Script {
    /// The moves from the state on screen with the drawn cell each names, if it names one.
    ///
    /// # Errors
    /// The script's error, or a `cell` that is not `[row, column]` of whole numbers from 0.
    pub fn move_cells_here(&self) -> Result<Vec<(String, Option<Cell>)>, ScriptError> {
        let c = &self.compiled;
        let value = c
            .call("moves", (encoding::decode(self.here()),))
            .map_err(Failure::into_error)?;
        let Some(list) = value.read_lock::<rhai::Array>() else {
            return Err(c.returned("moves", "returned no array of moves"));
        };
        let mut out = Vec::with_capacity(list.len());
        for item in list.iter() {
            let Some(map) = item.read_lock::<Map>() else {
                return Err(c.returned("moves", "a move is not #{ label, to }"));
            };
            let label = match map.get("label") {
                Some(l) if l.is_string() => l
                    .clone()
                    .into_immutable_string()
                    .unwrap_or_default()
                    .to_string(),
                Some(l) => encoding::show(l),
                None => return Err(c.returned("moves", "a move has no label")),
            };
            let cell = match map.get("cell") {
                None => None,
                Some(cell) => Some(cell_of(cell).ok_or_else(|| {
                    c.returned(
                        "moves",
                        format!(
                            "move {label:?} has cell {}: a cell is [row, column], whole \
                             numbers from 0",
                            encoding::show(cell)
                        ),
                    )
                })?),
            };
            out.push((label, cell));
        }
        Ok(out)
    }

    /// The label of the first move from the state on screen whose `cell` is `cell`.
    ///
    /// # Errors
    /// As [`Script::move_cells_here`].
    pub fn move_at_cell(&self, cell: Cell) -> Result<Option<String>, ScriptError> {
        Ok(self
            .move_cells_here()?
            .into_iter()
            .find(|(_, c)| *c == Some(cell))
            .map(|(label, _)| label))
    }
}

/// `[row, column]` as a cell.
fn cell_of(value: &Dynamic) -> Option<Cell> {
    let pair = value.read_lock::<rhai::Array>()?;
    let [row, col] = pair.as_slice() else {
        return None;
    };
    let index = |v: &Dynamic| v.as_int().ok().and_then(|n| usize::try_from(n).ok());
    Some(Cell::new(index(row)?, index(col)?))
}
