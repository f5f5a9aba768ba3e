//! The Moving AI Lab's grid benchmark formats (N. Sturtevant, "Benchmarks for Grid-Based
//! Pathfinding", IEEE TCIAIG 2012; <https://movingai.com/benchmarks/formats.html>).
//!
//! A `.map` file: `type octile`, `height H`, `width W`, `map`, then H rows of W characters;
//! `.`, `G` and `S` are passable, `@`, `O`, `T` and `W` are not. It becomes an 8-connected
//! [`Maze`] without corner cutting and the octile heuristic, the rules its scenarios assume,
//! with the start on the first free square and the goal on the last.
//!
//! A `.scen` file: `version 1`, then one problem per line, tab- or space-separated: bucket,
//! map file, map width, map height, start x, start y, goal x, goal y, optimal length. x is the
//! column and y the row, both from 0 at the top-left.

use std::path::{Path, PathBuf};

use super::{Connectivity, GridHeuristic, Maze, Percolation};
use crate::puzzles::{Cell, FormatError};

/// Whether `text` starts like a `.map` file (`type ...`).
pub fn looks_like_map(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with("type ")
}

/// Parses a `.map` file.
///
/// # Errors
/// [`FormatError`] with the line for a missing or malformed header line (`type octile`,
/// `height`, `width`, `map`), a size out of range, a row of the wrong length, too few rows,
/// or an unknown terrain character (with its column); also when no square is passable.
pub fn parse_map(text: &str) -> Result<Maze, FormatError> {
    let mut lines = text
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()));
    let mut header = |want: &str| -> Result<(usize, String), FormatError> {
        let (n, line) = lines
            .next()
            .ok_or_else(|| FormatError::new(format!("the map ends before its `{want}` line")))?;
        let mut words = line.split_whitespace();
        if words.next() != Some(want) {
            // The line is not echoed: the file may be anything but a map.
            return Err(FormatError::at(
                n,
                None,
                format!("expected a `{want} ...` line: this is not a Moving AI map"),
            ));
        }
        Ok((n, words.collect::<Vec<_>>().join(" ")))
    };
    let (n, kind) = header("type")?;
    if kind != "octile" {
        return Err(FormatError::at(
            n,
            None,
            format!("map type `{kind}` is not supported (only `octile`)"),
        ));
    }
    let mut size = |want: &str| -> Result<usize, FormatError> {
        let (n, value) = header(want)?;
        let v: usize = value
            .parse()
            .map_err(|_| FormatError::at(n, None, format!("`{want}` must be a number")))?;
        if !(super::MIN_SIDE..=super::MAX_SIDE).contains(&v) {
            return Err(FormatError::at(
                n,
                None,
                format!(
                    "{want} {v} is out of range ({} to {})",
                    super::MIN_SIDE,
                    super::MAX_SIDE
                ),
            ));
        }
        Ok(v)
    };
    let height = size("height")?;
    let width = size("width")?;
    header("map")?;
    let mut cost = Vec::with_capacity(height * width);
    let mut rows = 0;
    for (n, line) in lines.by_ref() {
        if rows == height {
            if line.is_empty() {
                continue;
            }
            return Err(FormatError::at(
                n,
                None,
                format!("more than the {height} rows the header gives"),
            ));
        }
        let count = line.chars().count();
        if count != width {
            return Err(FormatError::at(
                n,
                None,
                format!("a row of {count} characters; the header gives width {width}"),
            ));
        }
        for (c, ch) in line.chars().enumerate() {
            cost.push(match ch {
                '.' | 'G' | 'S' => 1,
                '@' | 'O' | 'T' | 'W' => 0,
                other => {
                    return Err(FormatError::at(
                        n,
                        Some(c + 1),
                        format!("unknown terrain {other:?} (passable: . G S; not: @ O T W)"),
                    ));
                }
            });
        }
        rows += 1;
    }
    if rows < height {
        return Err(FormatError::new(format!(
            "the map has {rows} rows; the header gives height {height}"
        )));
    }
    let first = cost.iter().position(|&c| c != 0);
    let last = cost.iter().rposition(|&c| c != 0);
    let (Some(first), Some(last)) = (first, last) else {
        return Err(FormatError::new("no square of the map is passable"));
    };
    let mut maze = Maze::new(height, width);
    maze.set_connectivity(Connectivity::Eight);
    maze.set_corner_cutting(false);
    maze.set_heuristic(GridHeuristic::Octile);
    maze.set_percolation(Percolation::Off);
    let at = |i: usize| Cell::new(i / width, i % width);
    let goal = if last == first {
        // A single passable square: the goal goes next to it; it is freed, so the problem
        // stays well-formed.
        at(if first + 1 < cost.len() {
            first + 1
        } else {
            first - 1
        })
    } else {
        at(last)
    };
    maze.set_grid(height, width, cost, at(first), goal);
    Ok(maze)
}

/// One problem of a scenario file.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ScenarioProblem {
    /// The 1-based line of the file it came from.
    pub line: usize,
    /// The bucket (problems of similar length share one).
    pub bucket: u32,
    /// The start square.
    pub start: Cell,
    /// The goal square.
    pub goal: Cell,
    /// The optimal length the file states (8-connected, diagonal `sqrt(2)`, no corner
    /// cutting).
    pub optimal: f64,
}

/// A scenario file: the map it names and its problems.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The map file as the scenario names it (often a path relative to the benchmark root).
    pub map: String,
    /// The map's width (columns) and height (rows) as the scenario states them.
    pub width: usize,
    /// See `width`.
    pub height: usize,
    /// The problems, in file order.
    pub problems: Vec<ScenarioProblem>,
}

/// Parses a `.scen` file (version 1).
///
/// # Errors
/// [`FormatError`] with the line for a missing `version 1` (or `version 1.0`) line, a text
/// larger than [`MAX_FILE_BYTES`](super::super::MAX_FILE_BYTES), a line without the nine
/// fields, a field that is not a number, problems naming different maps or sizes, or a file
/// with no problems.
pub fn parse_scenario(text: &str) -> Result<Scenario, FormatError> {
    if text.len() as u64 > super::super::MAX_FILE_BYTES {
        return Err(FormatError::new(format!(
            "the scenario has {} bytes, more than the limit of {}",
            text.len(),
            super::super::MAX_FILE_BYTES
        )));
    }
    let mut lines = text
        .trim_start_matches('\u{feff}')
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    match lines.next() {
        Some((_, l)) if is_version_one(l) => {}
        Some((n, l)) if l.starts_with("version") => {
            return Err(FormatError::at(
                n,
                None,
                "only version 1 (or 1.0) scenarios are supported",
            ));
        }
        Some((n, _)) => return Err(FormatError::at(n, None, "expected `version 1`")),
        None => return Err(FormatError::new("the scenario file is empty")),
    }
    let mut scenario: Option<Scenario> = None;
    for (n, line) in lines {
        let fields: Vec<&str> = if line.contains('\t') {
            line.split('\t').map(str::trim).collect()
        } else {
            line.split_whitespace().collect()
        };
        if fields.len() != 9 {
            return Err(FormatError::at(
                n,
                None,
                format!(
                    "{} fields; a problem has 9 (bucket, map, width, height, start x, start y, \
                     goal x, goal y, optimal length)",
                    fields.len()
                ),
            ));
        }
        let number = |i: usize, what: &str| -> Result<usize, FormatError> {
            fields[i].parse().map_err(|_| {
                FormatError::at(n, None, format!("{what} `{}` is not a number", fields[i]))
            })
        };
        let (width, height) = (number(2, "the width")?, number(3, "the height")?);
        let start = Cell::new(number(5, "start y")?, number(4, "start x")?);
        let goal = Cell::new(number(7, "goal y")?, number(6, "goal x")?);
        let optimal: f64 = fields[8].parse().map_err(|_| {
            FormatError::at(
                n,
                None,
                format!("the optimal length `{}` is not a number", fields[8]),
            )
        })?;
        let problem = ScenarioProblem {
            line: n,
            bucket: number(0, "the bucket")? as u32,
            start,
            goal,
            optimal,
        };
        let s = scenario.get_or_insert_with(|| Scenario {
            map: fields[1].to_owned(),
            width,
            height,
            problems: Vec::new(),
        });
        if s.map != fields[1] || (s.width, s.height) != (width, height) {
            return Err(FormatError::at(
                n,
                None,
                "problems of one scenario must name the same map and size",
            ));
        }
        s.problems.push(problem);
    }
    scenario.ok_or_else(|| FormatError::new("the scenario has no problems"))
}

impl Scenario {
    /// Where the map file probably is, for a scenario read from `scen_path`: the named path
    /// relative to the scenario's folder or any folder above it, or the file name alone in
    /// the scenario's folder, or in a `maps` folder (or a folder inside one) beside or above
    /// it. The first that exists.
    pub fn find_map(&self, scen_path: &Path) -> Option<PathBuf> {
        let named = Path::new(&self.map);
        let file_name = named.file_name()?;
        let dir = scen_path.parent()?;
        let mut candidates = Vec::new();
        for ancestor in dir.ancestors() {
            candidates.push(ancestor.join(named));
            candidates.push(ancestor.join(file_name));
            let maps = ancestor.join("maps");
            candidates.push(maps.join(file_name));
            if let Ok(entries) = std::fs::read_dir(&maps) {
                let mut subfolders: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
                subfolders.sort();
                candidates.extend(subfolders.into_iter().map(|d| d.join(file_name)));
            }
        }
        candidates.into_iter().find(|p| p.is_file())
    }

    /// Checks that `maze` matches the scenario's size and that every problem's start and goal
    /// are free squares of it.
    ///
    /// # Errors
    /// A message naming the first mismatch.
    pub fn check_map(&self, maze: &Maze) -> Result<(), String> {
        if (maze.cols(), maze.rows()) != (self.width, self.height) {
            return Err(format!(
                "the map is {} x {} (width x height); the scenario expects {} x {}",
                maze.cols(),
                maze.rows(),
                self.width,
                self.height
            ));
        }
        for p in &self.problems {
            for (what, cell) in [("start", p.start), ("goal", p.goal)] {
                if maze.is_blocked(cell) {
                    return Err(format!(
                        "line {}: the {what} (x {}, y {}) is not a passable square of the map",
                        p.line, cell.col, cell.row
                    ));
                }
            }
        }
        Ok(())
    }
}

/// One problem of a scenario run: what the search computed against what the file states.
#[derive(Clone, Debug, PartialEq)]
pub struct ProblemRun {
    /// The problem (its line, start, goal and stated least cost).
    pub problem: ScenarioProblem,
    /// The cost the search found (`None`: no path).
    pub computed: Option<f64>,
    /// Whether they agree within 1e-4.
    pub matched: bool,
    /// States expanded.
    pub expanded: u64,
    /// Search time, milliseconds.
    pub elapsed_ms: f64,
}

/// What a whole scenario run came to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScenarioSummary {
    /// Problems whose computed cost matched the stated one.
    pub matched: usize,
    /// Problems run.
    pub run: usize,
    /// States expanded in all.
    pub expanded: u64,
    /// Search time in all, milliseconds.
    pub elapsed_ms: f64,
    /// JPS+: the time its jump distances took to compute, once for the map, milliseconds
    /// (not part of `elapsed_ms`); 0 for the other algorithms.
    pub precompute_ms: f64,
    /// Why the run ended before the last problem (a limit, a refusal, Stop), if it did.
    pub stopped: Option<String>,
}

impl ScenarioSummary {
    /// One line: "12 of 12 match (within 1e-4); 3456 states expanded, 12.3 ms searching"
    /// (and, for JPS+, ", 1.2 ms computing jump distances").
    pub fn line(&self, total: usize) -> String {
        let mut text = format!(
            "{} of {} match (within 1e-4); {} states expanded, {:.1} ms searching",
            self.matched, total, self.expanded, self.elapsed_ms
        );
        if self.precompute_ms > 0.0 {
            text += &format!(", {:.1} ms computing jump distances", self.precompute_ms);
        }
        if let Some(why) = &self.stopped {
            text += &format!("; stopped after {} problems: {why}", self.run);
        }
        text
    }
}

impl Scenario {
    /// Runs `algorithm` on every problem of the scenario on `maze` (its map, checked with
    /// [`Scenario::check_map`]), in file order, calling `each` after each problem. Ends early,
    /// saying why in [`ScenarioSummary::stopped`], when `cancel` is set, a search stops at a
    /// limit, or the algorithm refuses the map.
    ///
    /// A*, Jump Point Search and JPS+ on a uniform 8-connected map with the octile distance
    /// run on the map's bit rows, built once (with JPS+'s jump distances, timed in
    /// [`ScenarioSummary::precompute_ms`]), with one search context for all the problems
    /// ([`crate::search::octile`]: the same costs as the general search, its ties exact); the
    /// other algorithms run the general search on one copy of the maze whose start and goal
    /// change.
    pub fn run(
        &self,
        maze: &Maze,
        algorithm: crate::search::Algorithm,
        cancel: &crate::search::CancelToken,
        mut each: impl FnMut(&ProblemRun),
    ) -> ScenarioSummary {
        let mut summary = ScenarioSummary::default();
        let table = crate::search::octile::JumpDistances::bytes_for(maze.rows(), maze.cols());
        let limit = cancel.limits().max_memory;
        if algorithm == crate::search::Algorithm::JpsPlus && table > limit {
            summary.stopped = Some(format!(
                "JPS+'s jump distances would take {}, more than the memory limit of {}",
                crate::search::limits::format_bytes(table),
                crate::search::limits::format_bytes(limit)
            ));
            return summary;
        }
        let mut solve = match octile_solver(maze, algorithm) {
            Some((solver, precompute_ms)) => {
                summary.precompute_ms = precompute_ms;
                solver
            }
            None => general_solver(maze, algorithm),
        };
        for problem in &self.problems {
            if cancel.is_cancelled() {
                summary.stopped = Some("stopped".into());
                break;
            }
            let (outcome, cost, stats) = match solve(problem, cancel) {
                Ok(answer) => answer,
                Err(why) => {
                    summary.stopped = Some(format!("line {}: {why}", problem.line));
                    break;
                }
            };
            if outcome == crate::search::Outcome::Cancelled {
                summary.stopped = Some("stopped".into());
                break;
            }
            let computed = (outcome == crate::search::Outcome::Found).then_some(cost);
            let matched = computed.is_some_and(|c| (c - problem.optimal).abs() <= 1e-4);
            let run = ProblemRun {
                problem: problem.clone(),
                computed,
                matched,
                expanded: stats.expanded,
                elapsed_ms: stats.elapsed_ms,
            };
            summary.run += 1;
            summary.matched += usize::from(matched);
            summary.expanded += run.expanded;
            summary.elapsed_ms += run.elapsed_ms;
            each(&run);
        }
        summary
    }
}

/// What solving one problem of a scenario gives: the outcome, the cost and the statistics, or
/// why the run must stop (a limit, a refusal).
type ProblemAnswer = Result<(crate::search::Outcome, f64, crate::search::Stats), String>;

/// A solver of a scenario's problems.
type Solver<'m> =
    Box<dyn FnMut(&ScenarioProblem, &crate::search::CancelToken) -> ProblemAnswer + 'm>;

/// The solver on the map's bit rows with one search context, when `algorithm` is A*, JPS or
/// JPS+ and `maze` has the rules they need there (uniform, 8-connected, the octile distance;
/// JPS and JPS+ without corner cutting), and the time JPS+'s jump distances took to compute
/// (0 for the others).
fn octile_solver<'m>(
    maze: &Maze,
    algorithm: crate::search::Algorithm,
) -> Option<(Solver<'m>, f64)> {
    use crate::search::Algorithm;
    use crate::search::octile::{OctileAlgorithm, OctileMap, OctileSearch};
    let kind = match algorithm {
        Algorithm::AStar => OctileAlgorithm::AStar,
        Algorithm::Jps if !maze.corner_cutting() => OctileAlgorithm::Jps,
        Algorithm::JpsPlus if !maze.corner_cutting() => OctileAlgorithm::JpsPlus,
        _ => return None,
    };
    if maze.connectivity() != Connectivity::Eight
        || !maze.is_uniform()
        || maze.heuristic_kind() != GridHeuristic::Octile
    {
        return None;
    }
    let mut map = OctileMap::new(maze.rows(), maze.cols(), maze.corner_cutting(), |r, c| {
        !maze.is_blocked(Cell::new(r, c))
    })?;
    let mut precompute_ms = 0.0;
    if kind == OctileAlgorithm::JpsPlus {
        map = map.with_jump_distances();
        precompute_ms = map.jump_distances().map_or(0.0, |t| t.built_ms());
    }
    let mut context = OctileSearch::new().without_paths();
    let solver: Solver<'m> = Box::new(move |problem: &ScenarioProblem, cancel| {
        let (s, g) = (problem.start, problem.goal);
        let run = context.run(&map, kind, (s.row, s.col), (g.row, g.col), cancel);
        match run.message {
            Some(message) => Err(format!("the search {message}")),
            None => Ok((run.outcome, run.cost, run.stats)),
        }
    });
    Some((solver, precompute_ms))
}

/// The general search on one copy of `maze`, its start and goal set for each problem.
fn general_solver<'m>(maze: &Maze, algorithm: crate::search::Algorithm) -> Solver<'m> {
    let mut m = maze.clone();
    m.set_percolation(Percolation::Off);
    Box::new(move |problem: &ScenarioProblem, cancel| {
        use crate::search;
        m.start = problem.start;
        m.goals.clear();
        m.goals.push(problem.goal);
        let result = search::run(&m, algorithm, &mut search::NoObserver, cancel)
            .map_err(|e| e.to_string())?;
        if let Some(message) = &result.message {
            return Err(format!("the search {message}"));
        }
        Ok((result.outcome, result.cost, result.stats))
    })
}

impl Maze {
    /// This maze with the start and the single goal of a scenario problem (both must be free
    /// squares; see [`Scenario::check_map`]).
    pub fn with_problem(&self, problem: &ScenarioProblem) -> Maze {
        let mut maze = self.clone();
        maze.set_percolation(Percolation::Off);
        maze.start = problem.start;
        maze.goals = vec![problem.goal];
        maze
    }
}

/// Whether `line` is a scenario's first line for format version 1: `version 1` or
/// `version 1.0` (the format allows both).
fn is_version_one(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some("version")
        && words.next().and_then(|v| v.parse::<f64>().ok()) == Some(1.0)
        && words.next().is_none()
}
