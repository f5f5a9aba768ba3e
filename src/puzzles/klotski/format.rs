//! Klotski's formats (see the module docs of [`super`]): the text and JSON layouts read,
//! checked and made a board.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::*;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KlotskiJson {
    #[serde(rename = "type")]
    pub(super) puzzle_type: String,
    pub(super) version: u32,
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) pieces: BTreeMap<char, Vec<Cell>>,
    pub(super) target: char,
    pub(super) goal: Cell,
    #[serde(default)]
    pub(super) distinct: Vec<char>,
    #[serde(default)]
    pub(super) metric: Metric,
}

/// What a layout is made of before checking: board size, each letter's cells, target, goal.
pub(super) struct Layout {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) cells: BTreeMap<char, Vec<Cell>>,
    pub(super) target: Option<char>,
    pub(super) goal: Option<Cell>,
    pub(super) distinct: Vec<char>,
    pub(super) metric: Metric,
}

fn header_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.strip_prefix(key)
        .and_then(|rest| rest.strip_prefix(':'))
        .map(str::trim)
}

impl Klotski {
    /// Parses the text format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] with the line for an unknown character, a ragged row or a bad header,
    /// and without one for a missing target, a target not on the board, a goal off the board,
    /// a piece whose cells are not connected, too many pieces or too large a board.
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        let mut layout = Layout {
            rows: 0,
            cols: 0,
            cells: BTreeMap::new(),
            target: None,
            goal: None,
            distinct: Vec::new(),
            metric: Metric::Unit,
        };
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(v) = header_value(line, "target") {
                let mut chars = v.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if c.is_ascii_alphabetic() => layout.target = Some(c),
                    _ => {
                        return Err(FormatError::at(
                            line_no,
                            None,
                            format!("target: expected one piece letter, found {v:?}"),
                        ));
                    }
                }
            } else if let Some(v) = header_value(line, "goal") {
                let numbers: Vec<usize> = v
                    .split_whitespace()
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .map_err(|_| {
                        FormatError::at(
                            line_no,
                            None,
                            format!("goal: expected `ROW COL`, found {v:?}"),
                        )
                    })?;
                let [row, col] = numbers[..] else {
                    return Err(FormatError::at(
                        line_no,
                        None,
                        format!("goal: expected `ROW COL`, found {v:?}"),
                    ));
                };
                layout.goal = Some(Cell::new(row, col));
            } else if let Some(v) = header_value(line, "distinct") {
                layout
                    .distinct
                    .extend(v.chars().filter(|c| !c.is_whitespace()));
            } else if let Some(v) = header_value(line, "metric") {
                layout.metric = Metric::from_name(v).ok_or_else(|| {
                    FormatError::at(line_no, None, format!("metric: `{v}` is not unit or piece"))
                })?;
            } else {
                let row = layout.rows;
                let width = line.chars().count();
                if row == 0 {
                    layout.cols = width;
                } else if width != layout.cols {
                    return Err(FormatError::at(
                        line_no,
                        None,
                        format!(
                            "ragged row: {width} cells where the first row has {}",
                            layout.cols
                        ),
                    ));
                }
                for (col, ch) in line.chars().enumerate() {
                    match ch {
                        '.' => {}
                        c if c.is_ascii_alphabetic() => {
                            layout.cells.entry(c).or_default().push(Cell::new(row, col));
                        }
                        other => {
                            return Err(FormatError::at(
                                line_no,
                                Some(col + 1),
                                format!("unknown character {other:?} (use letters and .)"),
                            ));
                        }
                    }
                }
                layout.rows += 1;
            }
        }
        Self::from_layout(layout)
    }

    /// Reads the JSON format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] for a JSON object of the wrong shape, overlapping pieces, a piece
    /// outside the board, and the checks of [`Klotski::from_text`].
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: KlotskiJson = json_body(value)?;
        // Sizes are checked before anything is allocated from them.
        if !(1..=MAX_SIDE).contains(&body.rows) || !(1..=MAX_SIDE).contains(&body.cols) {
            return Err(FormatError::in_field(
                "rows",
                format!(
                    "the board is {} x {}; from 1 x 1 to {MAX_SIDE} x {MAX_SIDE} is supported",
                    body.rows, body.cols
                ),
            ));
        }
        let mut seen = vec![None; body.rows * body.cols];
        for (&letter, cells) in &body.pieces {
            for &cell in cells {
                if cell.row >= body.rows || cell.col >= body.cols {
                    return Err(FormatError::in_field(
                        "pieces",
                        format!(
                            "piece {letter} has cell {cell} outside the {} x {} board",
                            body.rows, body.cols
                        ),
                    ));
                }
                let slot = &mut seen[cell.row * body.cols + cell.col];
                if let Some(other) = slot.replace(letter) {
                    return Err(FormatError::in_field(
                        "pieces",
                        format!("pieces {other} and {letter} overlap at {cell}"),
                    ));
                }
            }
        }
        Self::from_layout(Layout {
            rows: body.rows,
            cols: body.cols,
            cells: body.pieces,
            target: Some(body.target),
            goal: Some(body.goal),
            distinct: body.distinct,
            metric: body.metric,
        })
    }

    pub(super) fn from_layout(layout: Layout) -> Result<Self, FormatError> {
        let Layout {
            rows,
            cols,
            cells,
            target,
            goal,
            distinct,
            metric,
        } = layout;
        if rows == 0 || cols == 0 {
            return Err(FormatError::new("the board has no rows"));
        }
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(FormatError::new(format!(
                "the board is {rows} x {cols}; at most {MAX_SIDE} x {MAX_SIDE} is supported"
            )));
        }
        if cells.len() > MAX_PIECES {
            return Err(FormatError::new(format!(
                "{} pieces; at most {MAX_PIECES} are supported",
                cells.len()
            )));
        }
        let target = target.ok_or_else(|| {
            FormatError::new("no target: add a line `target: A` naming the piece to bring home")
        })?;
        if !cells.contains_key(&target) {
            return Err(FormatError::new(format!(
                "the target {target} is not on the board"
            )));
        }
        let goal = goal.ok_or_else(|| {
            FormatError::new("no goal: add a line `goal: ROW COL` for the target's anchor")
        })?;
        for letter in &distinct {
            if !cells.contains_key(letter) {
                return Err(FormatError::new(format!(
                    "distinct: piece {letter} is not on the board"
                )));
            }
        }
        // Pieces with their shapes and anchors; their classes below.
        let mut pieces = Vec::new();
        let mut anchors = Vec::new();
        for (&letter, piece_cells) in &cells {
            let (piece, anchor) = Self::piece_of(letter, piece_cells)?;
            pieces.push(piece);
            anchors.push((anchor.row * cols + anchor.col) as u8);
        }
        // Classes: the target and distinct pieces alone; others by shape.
        let mut order: Vec<usize> = (0..pieces.len()).collect();
        let alone = |p: &Piece| p.letter == target || distinct.contains(&p.letter);
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&pieces[a], &pieces[b]);
            (!alone(pa), &pa.offsets, pa.letter).cmp(&(!alone(pb), &pb.offsets, pb.letter))
        });
        let mut sorted_pieces: Vec<Piece> = order.iter().map(|&i| pieces[i].clone()).collect();
        let sorted_anchors: Vec<u8> = order.iter().map(|&i| anchors[i]).collect();
        Self::number_classes(&mut sorted_pieces, alone);
        let target_index = sorted_pieces
            .iter()
            .position(|p| p.letter == target)
            .unwrap_or(0);
        let masks = sorted_pieces
            .iter()
            .map(|p| {
                (0..rows * cols)
                    .map(|a| piece_mask(&p.offsets, a, rows, cols))
                    .collect()
            })
            .collect::<Vec<Vec<u128>>>();
        if goal.row >= rows
            || goal.col >= cols
            || masks[target_index][goal.row * cols + goal.col] == 0
        {
            return Err(FormatError::new(format!(
                "the goal {goal} puts the target {target} off the {rows} x {cols} board"
            )));
        }
        Ok(Self {
            rows,
            cols,
            pieces: sorted_pieces,
            target: target_index,
            goal,
            metric,
            initial: sorted_anchors.clone(),
            anchors: sorted_anchors,
            undo: Vec::new(),
            redo: Vec::new(),
            drag: drag::Drag::default(),
            masks,
        })
    }

    /// The piece lettered `letter` on `cells` (class 0), and its anchor (its first cell).
    fn piece_of(letter: char, cells: &[Cell]) -> Result<(Piece, Cell), FormatError> {
        let mut sorted = cells.to_vec();
        sorted.sort();
        let Some(&anchor) = sorted.first() else {
            return Err(FormatError::new(format!("piece {letter} has no cells")));
        };
        if !is_connected(&sorted) {
            return Err(FormatError::new(format!(
                "piece {letter}: its cells are not connected"
            )));
        }
        let offset = |a: usize, b: usize| (a as i64 - b as i64) as i8;
        let offsets = sorted
            .iter()
            .map(|c| (offset(c.row, anchor.row), offset(c.col, anchor.col)))
            .collect();
        let piece = Piece {
            letter,
            class: 0,
            offsets,
        };
        Ok((piece, anchor))
    }

    /// Numbers the classes of `pieces` (all 0 on entry), sorted with those `alone` (the target,
    /// distinct pieces: a class each) first, then by shape (a class a shape).
    fn number_classes(pieces: &mut [Piece], alone: impl Fn(&Piece) -> bool) {
        for i in 1..pieces.len() {
            let (prev, this) = (&pieces[i - 1], &pieces[i]);
            let same = !alone(prev) && !alone(this) && prev.offsets == this.offsets;
            pieces[i].class = prev.class + u8::from(!same);
        }
    }
}
