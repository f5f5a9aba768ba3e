//! The car maze's formats (see the module docs of [`super`]): the text and JSON layouts,
//! each intersection's turns written and read.

use serde::{Deserialize, Serialize};

use super::*;

#[derive(Serialize, Deserialize)]
pub(super) struct StartJson {
    pub(super) row: i32,
    pub(super) col: i32,
    pub(super) side: Side,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CarMazeJson {
    #[serde(rename = "type")]
    pub(super) puzzle_type: String,
    pub(super) version: u32,
    pub(super) rows: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) start: Option<StartJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) exit: Option<Spot>,
}

/// The lines of `text` that carry content, with 1-based line numbers.
pub(super) fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with(';') && !l.starts_with('#'))
}

fn sides_of(word: &str, line: usize, what: &str) -> Result<Vec<Side>, FormatError> {
    word.chars()
        .map(|c| {
            Side::from_letter(c).ok_or_else(|| {
                FormatError::at(
                    line,
                    None,
                    format!("{what}: unknown direction {c:?} (use U D L R)"),
                )
            })
        })
        .collect()
}

/// Parses one intersection, `OUTS: PATHS`, into its turn set. `what` names it in errors.
pub(super) fn parse_intersection(text: &str, line: usize, what: &str) -> Result<u16, FormatError> {
    let Some((outs, paths)) = text.split_once(':') else {
        return Err(FormatError::at(
            line,
            None,
            format!("{what}: expected `OUTS: PATHS`, found {:?}", text.trim()),
        ));
    };
    let outs = sides_of(outs.trim(), line, what)?;
    let mut turns = 0u16;
    for path in paths.split_whitespace() {
        if let Some((from, to)) = path.split_once('>') {
            let (from, to) = (sides_of(from, line, what)?, sides_of(to, line, what)?);
            let ([from], [to]) = (from.as_slice(), to.as_slice()) else {
                return Err(FormatError::at(
                    line,
                    None,
                    format!("{what}: a one-way turn is two sides, like `L>U`, not {path:?}"),
                ));
            };
            if from == to {
                return Err(FormatError::at(
                    line,
                    None,
                    format!("{what}: the turn {path:?} leaves the way it came"),
                ));
            }
            turns |= turn_bit(*from, *to);
            continue;
        }
        let ends = sides_of(path, line, what)?;
        let [a, b] = ends.as_slice() else {
            return Err(FormatError::at(
                line,
                None,
                format!("{what}: an edge is two sides, like `UD`, not {path:?}"),
            ));
        };
        if a == b {
            return Err(FormatError::at(
                line,
                None,
                format!("{what}: the edge {path:?} joins a side to itself"),
            ));
        }
        if !outs.contains(a) && !outs.contains(b) {
            return Err(FormatError::at(
                line,
                None,
                format!(
                    "{what}: the edge {path:?} leads out through neither {} nor {}, \
                     which are not among the outgoing directions",
                    a.letter(),
                    b.letter()
                ),
            ));
        }
        if outs.contains(b) {
            turns |= turn_bit(*a, *b);
        }
        if outs.contains(a) {
            turns |= turn_bit(*b, *a);
        }
    }
    Ok(turns)
}

/// Writes a turn set in the article's `OUTS: PATHS` form when that says exactly these turns,
/// otherwise with one-way turns `X>Y`.
pub(super) fn write_intersection(turns: u16) -> String {
    let mut outs = String::new();
    for to in Side::ALL {
        if Side::ALL
            .iter()
            .any(|&from| turns & turn_bit(from, to) != 0)
        {
            outs.push(to.letter());
        }
    }
    let mut edges = Vec::new();
    for (i, &a) in Side::ALL.iter().enumerate() {
        for &b in &Side::ALL[i + 1..] {
            if turns & (turn_bit(a, b) | turn_bit(b, a)) != 0 {
                edges.push(format!("{}{}", a.letter(), b.letter()));
            }
        }
    }
    let undirected = format!("{outs}: {}", edges.join(" "));
    if parse_intersection(&undirected, 0, "").ok() == Some(turns) {
        return undirected;
    }
    let mut one_way = Vec::new();
    for from in Side::ALL {
        for to in Side::ALL {
            if turns & turn_bit(from, to) != 0 {
                one_way.push(format!("{}>{}", from.letter(), to.letter()));
            }
        }
    }
    format!("{outs}: {}", one_way.join(" "))
}

fn parse_numbers(
    rest: &str,
    line: usize,
    what: &str,
    count: usize,
) -> Result<Vec<i32>, FormatError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.len() < count {
        return Err(FormatError::at(
            line,
            None,
            format!("{what}: too few values"),
        ));
    }
    words[..count]
        .iter()
        .map(|w| {
            w.parse::<i32>().map_err(|_| {
                FormatError::at(line, None, format!("{what}: {w:?} is not a whole number"))
            })
        })
        .collect()
}

impl CarMaze {
    /// Parses the text format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] with the line for a row with the wrong number of intersections, an
    /// unknown direction letter, a malformed intersection or edge, an edge that leads out
    /// through no listed direction, a start inside no intersection or an exit not just outside
    /// the grid.
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        let mut rows: Vec<(usize, Vec<u16>)> = Vec::new();
        let (mut start, mut exit) = (None, None);
        for (line, content) in content_lines(text) {
            if let Some(rest) = content.strip_prefix("start:") {
                let n = parse_numbers(rest, line, "start", 2)?;
                let side_word = rest.split_whitespace().nth(2).unwrap_or("");
                let side = match sides_of(side_word, line, "start")?.as_slice() {
                    [side] => *side,
                    _ => {
                        return Err(FormatError::at(
                            line,
                            None,
                            "start: give `ROW COL SIDE`, the side one of U D L R",
                        ));
                    }
                };
                start = Some((
                    line,
                    Spot {
                        row: n[0],
                        col: n[1],
                    },
                    side,
                ));
            } else if let Some(rest) = content.strip_prefix("exit:") {
                let n = parse_numbers(rest, line, "exit", 2)?;
                exit = Some((
                    line,
                    Spot {
                        row: n[0],
                        col: n[1],
                    },
                ));
            } else {
                let row = content
                    .split(',')
                    .enumerate()
                    .map(|(i, part)| {
                        parse_intersection(part, line, &format!("intersection {}", i + 1))
                    })
                    .collect::<Result<Vec<u16>, _>>()?;
                rows.push((line, row));
            }
        }
        Self::from_parts(rows, start, exit)
    }

    fn from_parts(
        rows: Vec<(usize, Vec<u16>)>,
        start: Option<(usize, Spot, Side)>,
        exit: Option<(usize, Spot)>,
    ) -> Result<Self, FormatError> {
        let Some((_, first)) = rows.first() else {
            return Err(FormatError::new("the file has no rows of intersections"));
        };
        let cols = first.len();
        for (line, row) in &rows {
            if row.len() != cols {
                return Err(FormatError::at(
                    *line,
                    None,
                    format!(
                        "{} intersections in this row where the first row has {cols}",
                        row.len()
                    ),
                ));
            }
        }
        if rows.len() > MAX_SIDE || cols > MAX_SIDE {
            return Err(FormatError::new(format!(
                "the maze is {} x {cols}; at most {MAX_SIDE} x {MAX_SIDE} is supported",
                rows.len()
            )));
        }
        let n_rows = rows.len();
        let mut maze = Self {
            rows: n_rows,
            cols,
            turns: rows.into_iter().flat_map(|(_, r)| r).collect(),
            start: CarState {
                at: Spot { row: 0, col: 0 },
                from: Side::Left,
            },
            exit: Spot {
                row: n_rows as i32 - 1,
                col: cols as i32,
            },
            position: CarState {
                at: Spot { row: 0, col: 0 },
                from: Side::Left,
            },
            driven: Vec::new(),
        };
        if let Some((line, at, from)) = start {
            if !maze.inside(at) {
                return Err(FormatError::at(
                    line,
                    None,
                    format!("start: {at} is outside the {n_rows} x {cols} grid"),
                ));
            }
            maze.start = CarState { at, from };
        }
        maze.position = maze.start;
        if let Some((line, at)) = exit {
            if !maze.just_outside(at) {
                return Err(FormatError::at(
                    line,
                    None,
                    format!("exit: {at} is not just outside the {n_rows} x {cols} grid"),
                ));
            }
            maze.exit = at;
        }
        Ok(maze)
    }

    /// Reads the JSON format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] for a JSON object of the wrong shape, or the errors of
    /// [`CarMaze::from_text`] (with the row number as the entry).
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: CarMazeJson = json_body(value)?;
        let in_field = |field: &str, e: FormatError| FormatError {
            field: Some(field.into()),
            ..e
        };
        let rows = body
            .rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                let turns = row
                    .iter()
                    .enumerate()
                    .map(|(i, s)| parse_intersection(s, r + 1, &format!("intersection {}", i + 1)))
                    .collect::<Result<Vec<u16>, _>>()?;
                Ok((r + 1, turns))
            })
            .collect::<Result<Vec<_>, FormatError>>()
            .map_err(|e| in_field("rows", e))?;
        let start = body.start.map(|s| {
            (
                1,
                Spot {
                    row: s.row,
                    col: s.col,
                },
                s.side,
            )
        });
        let exit = body.exit.map(|e| (1, e));
        Self::from_parts(rows, start, exit).map_err(|e| {
            let field = if e.message.starts_with("start") {
                "start"
            } else if e.message.starts_with("exit") {
                "exit"
            } else {
                "rows"
            };
            FormatError {
                line: if field == "rows" { e.line } else { None },
                ..in_field(field, e)
            }
        })
    }

    pub(super) fn rows_json(&self) -> Vec<Vec<String>> {
        self.turns
            .chunks(self.cols)
            .map(|row| row.iter().map(|&t| write_intersection(t)).collect())
            .collect()
    }
}
