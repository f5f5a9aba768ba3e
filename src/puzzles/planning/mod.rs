//! The planning type: PDDL domains and problems (the language of the International Planning
//! Competitions), read ([`pddl`]), grounded into a [`task::Task`] ([`ground`]) and searched
//! like any puzzle, with the delete relaxation's heuristics ([`heuristics`]).
//!
//! A planning puzzle is one domain and one problem. As text it is both, each part after a
//! line `\u{1c}NAME` (the loader's [`crate::puzzles::PART_MARK`], see
//! [`crate::puzzles::FormatError::companions`]): a problem file read alone asks for its domain
//! beside it (`PROBLEM-domain.pddl`, `domain_PROBLEM.pddl`, `domainNN.pddl` for a problem
//! numbered NN, `domain.pddl`, the names pyperplan and the IPC folders use), and the loader
//! joins the two. One text holding both `(define (domain ...))` and `(define (problem ...))`
//! is read too.
//!
//! JSON format: `{"type": "planning", "version": 1, "domain": "(define (domain ...", "problem":
//! "(define (problem ...", "heuristic": "hmax"}` (`heuristic` optional).
//!
//! The picture of a state is its facts as a table: a row for each predicate (wrapped after
//! [`PICTURE_COLUMNS`] facts), a square for each fact, lit in its predicate's colour where the
//! fact is true; the goal's facts are outlined.

pub mod bench;
pub mod graph;
pub mod ground;
pub mod heuristics;
pub mod lmcut;
pub mod pddl;
mod puzzle;
pub mod relevance;
pub mod sexpr;
pub mod successors;
pub mod task;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Cell, FormatError, PART_MARK, Picture, PuzzleType, Square, json_body};
use heuristics::{Heuristic, Relaxation};
use task::{FactId, Task};

/// The registry entry of the planning type.
pub static TYPE: PuzzleType = PuzzleType {
    name: "planning",
    label: "Planning (PDDL)",
    sniff,
    text_hint: "`(define (domain ...))` and `(define (problem ...))`",
    parse_text: |text| Ok(Box::new(Planning::from_text(text)?)),
    from_json: |value| Ok(Box::new(Planning::from_json(value)?)),
    json_version: 1,
    shipped: &[
        shipped!("planning-gripper.pddl"),
        shipped!("planning-blocks.pddl"),
        shipped!("planning-eight-puzzle.pddl"),
    ],
};

/// The part names written for a task read from one text (see [`Planning::joined_text`]).
pub const DOMAIN_PART: &str = "domain.pddl";
/// See [`DOMAIN_PART`].
pub const PROBLEM_PART: &str = "problem.pddl";

/// The most fact squares in one row of the picture before it wraps.
pub const PICTURE_COLUMNS: usize = 24;

/// The names a problem's domain file may have beside it, tried in order (`{stem}` the
/// problem file's name without `.pddl`, `{digits}` the digits in it).
pub static DOMAIN_FILES: &[&str] = &[
    "{stem}-domain.pddl",
    "domain_{stem}.pddl",
    "domain{digits}.pddl",
    "domain-{digits}.pddl",
    "domain.pddl",
];

fn sniff(text: &str) -> f64 {
    let lower = text.to_lowercase();
    let code: String = lower
        .lines()
        .map(|l| l.split(';').next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let compact: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    if compact.contains("(define (problem") || compact.contains("(define (domain") {
        1.0
    } else {
        0.0
    }
}

/// A state: the facts true in it, bit `f % 64` of word `f / 64` for fact `f`. Up to 256
/// facts it is held inline, without a heap allocation (a successor is a copy of its parent).
pub type State = smallvec::SmallVec<[u64; 4]>;

/// Whether fact `f` holds in `state`.
pub fn holds(state: &[u64], f: FactId) -> bool {
    state
        .get(f as usize / 64)
        .is_some_and(|w| w >> (f % 64) & 1 == 1)
}

/// Makes fact `f` true (`on`) or false in `state`.
pub fn set_fact(state: &mut [u64], f: FactId, on: bool) {
    let (word, bit) = (f as usize / 64, 1u64 << (f % 64));
    if on {
        state[word] |= bit;
    } else {
        state[word] &= !bit;
    }
}

/// An operator applied: its index in the task and its name, `(move rooma roomb)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The operator's index in [`Task::operators`].
    pub op: u32,
    /// Its name as an IPC plan writes it.
    pub name: Arc<str>,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

/// What every position of one task shares: the task, its indexes, its texts.
#[derive(Debug)]
pub struct Shared {
    /// The grounded task.
    pub task: Task,
    /// The operators indexed for the relaxed heuristics.
    pub relaxation: Relaxation,
    /// The operators indexed for LM-cut.
    pub lmcut: lmcut::LmCut,
    /// The operators' names, shared by the moves.
    pub names: Vec<Arc<str>>,
    /// The operators indexed for finding those that apply in a state.
    pub generator: successors::SuccessorGenerator,
    /// The domain's text and its part name.
    pub domain: (String, String),
    /// The problem's text and its part name.
    pub problem: (String, String),
    /// The domain's and the problem's names, `(blocks, blocks-4-0)`.
    pub names_read: (String, String),
    /// Each fact's square in the picture.
    pub cells: Vec<Cell>,
    /// Each picture row's predicate.
    pub row_predicates: Vec<String>,
    /// Each picture row's colour class: its predicate's rank among the predicates.
    pub row_class: Vec<u8>,
    /// The picture's size (rows, columns).
    pub size: (usize, usize),
}

/// One planning task at a state.
#[derive(Clone, Debug)]
pub struct Planning {
    shared: Arc<Shared>,
    state: State,
    heuristic: Heuristic,
}

#[derive(Serialize, Deserialize)]
struct PlanningJson {
    #[serde(rename = "type")]
    puzzle_type: String,
    version: u32,
    domain: String,
    problem: String,
    #[serde(default)]
    heuristic: Heuristic,
}

/// The two parts of a planning task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// The domain.
    Domain,
    /// The problem.
    Problem,
}

/// A part of a joined text: its name (empty for a text with no [`PART_MARK`]) and its text.
struct Part<'a> {
    name: &'a str,
    text: &'a str,
}

/// Splits a text at its [`PART_MARK`] lines; a text with none is one unnamed part.
fn parts(text: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let (mut start, mut offset) = (0, 0);
    let mut name = "";
    for l in text.split_inclusive('\n') {
        if let Some(rest) = l.strip_prefix(PART_MARK) {
            out.push(Part {
                name,
                text: &text[start..offset],
            });
            name = rest.trim();
            start = offset + l.len();
        }
        offset += l.len();
    }
    out.push(Part {
        name,
        text: &text[start..],
    });
    out.retain(|p| !p.name.is_empty() || !p.text.trim().is_empty());
    out
}

impl Planning {
    /// Reads a domain and a problem from their texts, each with its part's name (a file
    /// name, or empty), and grounds them. Errors in a named part say its name before the line
    /// and column, except in the part `plain` names (the file opened, whose name the loader
    /// adds itself).
    ///
    /// # Errors
    /// A [`FormatError`] naming the part, line and column of a syntax or declaration error,
    /// or why the grounding failed (an unsupported construct, a task too large).
    pub fn from_texts(
        domain: (&str, &str),
        problem: (&str, &str),
        plain: Option<PartKind>,
    ) -> Result<Self, FormatError> {
        let located = |part: &str, kind: PartKind, e: sexpr::SyntaxError| {
            if part.is_empty() || plain == Some(kind) {
                FormatError::at(e.pos.line, Some(e.pos.column), e.message)
            } else {
                FormatError::new(format!("{part}, {}: {}", e.pos, e.message))
            }
        };
        let d = pddl::read_domain(domain.1).map_err(|e| located(domain.0, PartKind::Domain, e))?;
        let p = pddl::read_problem(problem.1, &d)
            .map_err(|e| located(problem.0, PartKind::Problem, e))?;
        let task = ground::ground(&d, &p, ground::GroundLimits::default())
            .map_err(|e| FormatError::new(e.to_string()))?;
        Ok(Self::from_task(
            task,
            (domain.0.to_owned(), domain.1.to_owned()),
            (problem.0.to_owned(), problem.1.to_owned()),
            (d.name, p.name),
        ))
    }

    /// A planning puzzle of a grounded task, at its initial state.
    pub fn from_task(
        task: Task,
        domain: (String, String),
        problem: (String, String),
        names_read: (String, String),
    ) -> Self {
        let relaxation = Relaxation::new(&task);
        let lmcut = lmcut::LmCut::new(&task);
        let names: Vec<Arc<str>> = task
            .operators
            .iter()
            .map(|o| Arc::from(o.name.as_str()))
            .collect();
        let generator = successors::SuccessorGenerator::new(&task);
        let (cells, row_predicates, size) = layout(&task);
        let mut distinct: Vec<&String> = row_predicates.iter().collect();
        distinct.dedup();
        let row_class = row_predicates
            .iter()
            .map(|p| distinct.iter().position(|d| *d == p).unwrap_or(0).min(255) as u8)
            .collect();
        let mut state: State = smallvec::smallvec![0u64; task.facts.len().div_ceil(64)];
        for &f in &task.init {
            set_fact(&mut state, f, true);
        }
        Planning {
            shared: Arc::new(Shared {
                task,
                relaxation,
                lmcut,
                names,
                generator,
                domain,
                problem,
                names_read,
                cells,
                row_predicates,
                row_class,
                size,
            }),
            state,
            heuristic: Heuristic::default(),
        }
    }

    /// Reads the text format (see the module docs).
    ///
    /// # Errors
    /// As [`Planning::from_texts`]; a problem alone asks for its domain
    /// ([`FormatError::companions`]).
    pub fn from_text(text: &str) -> Result<Self, FormatError> {
        let parts = parts(text);
        let mut domain = None;
        let mut problem = None;
        for part in &parts {
            let kind = define_kind(part.text);
            match kind {
                Some("domain") => domain = Some(part),
                Some("problem") => problem = Some(part),
                // One part holding both: split it at its second top-level list.
                Some("both") => return Self::from_one_text(part.text),
                _ => {
                    if let Err(e) = sexpr::read(part.text) {
                        return Err(
                            if part.name.is_empty()
                                || std::ptr::eq(part, parts.last().unwrap_or(part))
                            {
                                FormatError::at(e.pos.line, Some(e.pos.column), e.message)
                            } else {
                                FormatError::new(format!("{}, {}: {}", part.name, e.pos, e.message))
                            },
                        );
                    }
                    let e = FormatError::new(
                        "expected `(define (domain ...))` or `(define (problem ...))`",
                    );
                    return Err(if part.name.is_empty() {
                        e
                    } else {
                        FormatError::new(format!("{}: {}", part.name, e.message))
                    });
                }
            }
        }
        match (domain, problem) {
            (Some(d), Some(p)) => {
                // The last part is the file opened: its errors keep plain lines; the other is
                // named in the message.
                let plain = if parts.last().is_some_and(|l| std::ptr::eq(l, p)) {
                    PartKind::Problem
                } else {
                    PartKind::Domain
                };
                Self::from_texts((d.name, d.text), (p.name, p.text), Some(plain))
            }
            (None, Some(_)) => Err(FormatError {
                companions: Some(&DOMAIN_FILES),
                ..FormatError::new(
                    "a PDDL problem needs its domain: none was found beside it (looked for \
                     PROBLEM-domain.pddl, domain_PROBLEM.pddl, domainNN.pddl, domain.pddl); \
                     name it with --domain",
                )
            }),
            (Some(_), None) => Err(FormatError::new(
                "this is a PDDL domain: open a problem of it (its domain is found beside it)",
            )),
            (None, None) => Err(FormatError::new("the file is empty")),
        }
    }

    fn from_one_text(text: &str) -> Result<Self, FormatError> {
        // Find where the second top-level `(define` begins, by the reader's own positions.
        let top = sexpr::read(text)
            .map_err(|e| FormatError::at(e.pos.line, Some(e.pos.column), e.message))?;
        let Some(second) = top.get(1) else {
            return Err(FormatError::new("expected a domain and a problem"));
        };
        let at = second.pos();
        let offset: usize = text
            .split_inclusive('\n')
            .take(at.line - 1)
            .map(str::len)
            .sum::<usize>()
            + text.split_inclusive('\n').nth(at.line - 1).map_or(0, |l| {
                l.char_indices().nth(at.column - 1).map_or(0, |(i, _)| i)
            });
        let (a, b) = text.split_at(offset);
        let a_is_domain = define_kind(a) == Some("domain");
        // Each half is read with the other blanked out, so that lines and columns stay
        // those of the whole text; the halves themselves are kept as written.
        let blank = |t: &str| -> String {
            t.chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' })
                .collect()
        };
        let (first, second) = (format!("{a}{}", blank(b)), format!("{}{b}", blank(a)));
        let (dt, pt) = if a_is_domain {
            (&first, &second)
        } else {
            (&second, &first)
        };
        let mut me = Self::from_texts(("", dt), ("", pt), None)?;
        let (d, p) = if a_is_domain { (a, b) } else { (b, a) };
        if let Some(shared) = Arc::get_mut(&mut me.shared) {
            shared.domain = (DOMAIN_PART.to_owned(), d.trim_end().to_owned() + "\n");
            shared.problem = (
                PROBLEM_PART.to_owned(),
                p.trim_start_matches('\n').to_owned(),
            );
        }
        Ok(me)
    }

    /// Reads the JSON format (see the module docs).
    ///
    /// # Errors
    /// A [`FormatError`] in its field, or as [`Planning::from_texts`].
    pub fn from_json(value: serde_json::Value) -> Result<Self, FormatError> {
        let body: PlanningJson = json_body(value)?;
        let mut me = Self::from_texts(
            (DOMAIN_PART, &body.domain),
            (PROBLEM_PART, &body.problem),
            None,
        )?;
        me.heuristic = body.heuristic;
        Ok(me)
    }

    /// The grounded task.
    pub fn task(&self) -> &Task {
        &self.shared.task
    }

    /// What every position of this task shares.
    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// The state on screen.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The heuristic the searches use.
    pub fn heuristic_kind(&self) -> Heuristic {
        self.heuristic
    }

    /// The facts true in `state`, by name, grouped by predicate in the picture's order.
    pub fn true_facts(&self, state: &[u64]) -> Vec<&str> {
        (0..self.shared.task.facts.len() as FactId)
            .filter(|&f| holds(state, f))
            .map(|f| self.shared.task.facts[f as usize].as_str())
            .collect()
    }

    /// The fact shown at `cell` of the picture, if any.
    pub fn fact_at(&self, cell: Cell) -> Option<FactId> {
        self.shared
            .cells
            .iter()
            .position(|c| *c == cell)
            .map(|f| f as FactId)
    }

    /// The picture of `state` (see the module docs).
    pub fn picture_of(&self, state: &[u64]) -> Picture {
        let (rows, cols) = self.shared.size;
        let mut squares = vec![Square::Void; rows * cols];
        for (f, cell) in self.shared.cells.iter().enumerate() {
            squares[cell.row * cols + cell.col] = if holds(state, f as FactId) {
                // A colour per predicate: the row's predicate, counted from the top.
                // Neighbouring squares get different ids, so each is drawn on its own.
                let row = self.shared.row_class[cell.row];
                Square::Piece {
                    id: (cell.col % 2 + 2 * (cell.row % 2)) as u8,
                    class: row,
                    target: false,
                    letter: 0,
                }
            } else {
                Square::Free
            };
        }
        Picture {
            rows,
            cols,
            squares,
            start: None,
            goal_area: self
                .shared
                .task
                .goal
                .iter()
                .filter_map(|&g| self.shared.cells.get(g as usize).copied())
                .collect(),
            board: true,
        }
    }

    /// The state a picture made by [`Planning::picture_of`] shows: its lit squares are the
    /// true facts. `None` when the picture is not of this task's size.
    pub fn state_of_picture(&self, picture: &Picture) -> Option<State> {
        let (rows, cols) = self.shared.size;
        if (picture.rows, picture.cols) != (rows, cols) || picture.squares.len() != rows * cols {
            return None;
        }
        let mut state: State = smallvec::smallvec![0u64; self.state.len()];
        for (f, cell) in self.shared.cells.iter().enumerate() {
            if let Square::Piece { .. } = picture.squares[cell.row * cols + cell.col] {
                set_fact(&mut state, f as FactId, true);
            }
        }
        Some(state)
    }

    /// The relaxed planning graph of `state`: the layers h^max and h^FF count
    /// ([`graph::RelaxedGraph`]).
    pub fn relaxed_graph(&self, state: &[u64]) -> graph::RelaxedGraph {
        graph::RelaxedGraph::of(&self.shared.task, &self.shared.relaxation, |f| {
            holds(state, f)
        })
    }

    /// The text format: the domain's part, then the problem's (see the module docs).
    pub fn joined_text(&self) -> String {
        let (dn, dt) = &self.shared.domain;
        let (pn, pt) = &self.shared.problem;
        let name = |n: &str, fallback: &str| {
            if n.is_empty() {
                fallback.to_owned()
            } else {
                n.to_owned()
            }
        };
        let mut s = format!("{PART_MARK}{}\n{dt}", name(dn, DOMAIN_PART));
        if !s.ends_with('\n') {
            s.push('\n');
        }
        s += &format!("{PART_MARK}{}\n{pt}", name(pn, PROBLEM_PART));
        if !s.ends_with('\n') {
            s.push('\n');
        }
        s
    }
}

/// `domain`, `problem` or `both` for a text's `(define (...))` forms, if it has any.
fn define_kind(text: &str) -> Option<&'static str> {
    let top = sexpr::read(text).ok()?;
    let kinds: Vec<&str> = top
        .iter()
        .filter(|s| s.head() == Some("define"))
        .filter_map(|s| s.list()?.get(1)?.head())
        .collect();
    match kinds.as_slice() {
        ["domain"] => Some("domain"),
        ["problem"] => Some("problem"),
        [_, _] => Some("both"),
        _ => None,
    }
}

/// Each fact's square: facts grouped by predicate (their name's first word), a row per
/// predicate wrapped after [`PICTURE_COLUMNS`]; with each row's predicate and the size.
fn layout(task: &Task) -> (Vec<Cell>, Vec<String>, (usize, usize)) {
    let predicate = |name: &str| -> String {
        name.trim_start_matches('(')
            .split([' ', ')'])
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let mut order: Vec<FactId> = (0..task.facts.len() as FactId).collect();
    order.sort_by(|&a, &b| {
        (predicate(&task.facts[a as usize]), a).cmp(&(predicate(&task.facts[b as usize]), b))
    });
    let mut cells = vec![Cell::new(0, 0); task.facts.len()];
    let mut rows: Vec<String> = Vec::new();
    let mut col = 0;
    let mut cols = 1;
    for f in order {
        let p = predicate(&task.facts[f as usize]);
        if rows.last() != Some(&p) || col == PICTURE_COLUMNS {
            rows.push(p);
            col = 0;
        }
        cells[f as usize] = Cell::new(rows.len() - 1, col);
        col += 1;
        cols = cols.max(col);
    }
    let n = rows.len().max(1);
    (cells, rows, (n, cols))
}
