//! The grid maze's files: the plain-text format (with its `key: value` settings), Moving AI
//! `.map` files, and the JSON format (see the module docs of [`super`]).

use super::*;

impl Maze {
    /// Parses the plain-text format, or a Moving AI `.map` file (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] with the line and column of an unknown character, a second `S`, an
    /// unknown key or value, the line of a ragged row, or for an empty or oversized grid.
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        if movingai::looks_like_map(text) {
            return movingai::parse_map(text);
        }
        let mut options = MazeOptions::default();
        let mut rows = Vec::new();
        for (line, row) in text_rows(text) {
            if let Some((key, value)) = row.split_once(':') {
                if !rows.is_empty() {
                    return Err(FormatError::at(
                        line,
                        None,
                        "settings (`key: value`) go before the grid",
                    ));
                }
                options.set(key.trim(), value.trim(), line)?;
            } else {
                rows.push((line, row));
            }
        }
        let percolation = options.percolation.unwrap_or_default();
        let mut maze = Self::from_rows(&rows, percolation)?;
        options.apply(&mut maze);
        Ok(maze)
    }

    /// Reads the grid rows; in percolation mode the default start and goal corners are not
    /// freed.
    pub(super) fn from_rows(
        rows: &[(usize, &str)],
        percolation: Percolation,
    ) -> Result<Self, FormatError> {
        let (height, width) = check_rectangle(rows, MAX_SIDE)?;
        if height < MIN_SIDE || width < MIN_SIDE {
            return Err(FormatError::new(format!(
                "the grid is {height} x {width}; a maze needs at least {MIN_SIDE} x {MIN_SIDE}"
            )));
        }
        let mut cost = Vec::with_capacity(height * width);
        let mut start = None;
        let mut goals = Vec::new();
        for (r, &(line, row)) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let here = Cell::new(r, c);
                cost.push(match ch {
                    '#' => 0,
                    '.' => 1,
                    '1'..='9' => ch as u8 - b'0',
                    'S' => {
                        if start.replace(here).is_some() {
                            return Err(FormatError::at(
                                line,
                                Some(c + 1),
                                "a second start square",
                            ));
                        }
                        1
                    }
                    'G' => {
                        goals.push(here);
                        1
                    }
                    other => {
                        return Err(FormatError::at(
                            line,
                            Some(c + 1),
                            format!("unknown character {other:?} (use # . 1-9 S G)"),
                        ));
                    }
                });
            }
        }
        let start = start.unwrap_or(Cell::new(0, 0));
        if goals.is_empty() {
            goals.push(Cell::new(height - 1, width - 1));
        }
        if goals.contains(&start) {
            return Err(FormatError::new(
                "the start and a goal are on the same square; mark them with S and G",
            ));
        }
        let mut maze = Self::new(height, width);
        maze.cost = Terrain::from_costs(cost);
        maze.start = start;
        maze.goals = goals;
        maze.percolation = percolation;
        maze.keep_ends_free();
        Ok(maze)
    }

    /// Reads the JSON format (see the module docs).
    ///
    /// # Errors
    /// [`FormatError`] for a JSON object of the wrong shape, or rows as in
    /// [`Maze::from_text`] (with the row number as the line).
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: MazeJson = json_body(value)?;
        let rows: Vec<(usize, &str)> = body
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| (i + 1, r.as_str()))
            .collect();
        let mut maze = Self::from_rows(&rows, body.percolation).map_err(|e| FormatError {
            field: Some("rows".into()),
            ..e
        })?;
        maze.connectivity = body.moves;
        maze.corner_cutting = body.corner_cutting;
        maze.heuristic = body.heuristic.unwrap_or(GridHeuristic::natural(body.moves));
        maze.set_percolation(body.percolation);
        Ok(maze)
    }

    /// The grid in the text format's characters. In percolation mode the start and goals
    /// play no part and are not marked (an `S` or `G` would read back as a free square).
    pub(super) fn row_strings(&self) -> Vec<String> {
        let ends = self.percolation == Percolation::Off;
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let cell = Cell::new(r, c);
                        match self.cost.get(self.index(cell)) {
                            _ if ends && cell == self.start => 'S',
                            _ if ends && self.goals.contains(&cell) => 'G',
                            0 => '#',
                            1 => '.',
                            n => char::from(b'0' + n),
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// The `key: value` settings of the text format.
#[derive(Default)]
struct MazeOptions {
    moves: Option<Connectivity>,
    corner_cutting: Option<bool>,
    heuristic: Option<GridHeuristic>,
    percolation: Option<Percolation>,
}

impl MazeOptions {
    fn set(&mut self, key: &str, value: &str, line: usize) -> Result<(), FormatError> {
        let bad = |what: &str| {
            FormatError::at(line, None, format!("`{key}` must be {what}, not `{value}`"))
        };
        match key {
            "moves" => {
                self.moves = Some(match value {
                    "4" => Connectivity::Four,
                    "8" => Connectivity::Eight,
                    _ => return Err(bad("4 or 8")),
                });
            }
            "corner-cutting" => {
                self.corner_cutting = Some(match value {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(bad("yes or no")),
                });
            }
            "heuristic" => {
                self.heuristic = Some(
                    GridHeuristic::from_name(value)
                        .ok_or_else(|| bad("manhattan, euclidean, octile, chebyshev or zero"))?,
                );
            }
            "percolation" => {
                self.percolation = Some(
                    Percolation::from_name(value)
                        .ok_or_else(|| bad("off, top-bottom or left-right"))?,
                );
            }
            _ => {
                return Err(FormatError::at(
                    line,
                    None,
                    format!(
                        "unknown setting `{key}` (known: moves, corner-cutting, heuristic, percolation)"
                    ),
                ));
            }
        }
        Ok(())
    }

    fn apply(self, maze: &mut Maze) {
        maze.connectivity = self.moves.unwrap_or_default();
        maze.corner_cutting = self.corner_cutting.unwrap_or(false);
        maze.heuristic = self
            .heuristic
            .unwrap_or(GridHeuristic::natural(maze.connectivity));
        maze.set_percolation(self.percolation.unwrap_or_default());
    }
}
