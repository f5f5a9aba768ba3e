//! Reading XSB/SOK text: one level or a collection of many.
//!
//! The board characters (the XSB convention, as in the Sokoban Wiki's "Level format" page and
//! `../shared/sokoban/tools/xsb.py`): `#` wall, `@` player, `+` player on a goal, `$` box, `*`
//! box on a goal, `.` goal, space, `-` or `_` floor. A level is a run of board lines; the other
//! lines are its metadata: `;` comment lines, `Title:` and `Author:` lines (other `Key:` lines
//! are kept out of the board and ignored) and a plain text line, read as the level's title when
//! it has no `Title:` line. Metadata lines right after a board (no blank line between) belong to
//! that board, the others to the board that follows them. The lines before the first level,
//! up to the last blank line before it, are the collection's header: its `Title:` line, or
//! else its first comment line, is the collection's title.
//!
//! A board line starts (after blanks) with `#`, or holds only board characters and at least
//! one `#`; inside a board, any line holding a `#` that is neither a comment nor a `Key:` line
//! continues it, so a stray character is reported as an unknown character of that level.

use std::collections::VecDeque;

/// The largest number of rows, and of columns, a level may have (rows and columns fit a `u8`,
/// squares a `u16`). The largest level of the shared sets (Microban II's "mega" puzzles) is 97
/// columns wide.
pub const MAX_SIDE: usize = 250;

/// The most boxes a level may have.
pub const MAX_BOXES: usize = 255;

/// One level of a collection, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Its number in its collection, 1-based (malformed levels are counted too, so numbers
    /// match the file's order).
    pub number: usize,
    /// Its `Title:` line, or its plain text line, if any.
    pub title: Option<String>,
    /// Its `Author:` line, if any.
    pub author: Option<String>,
    /// Its board rows, top to bottom, as written, normalized: `-` and `_` read as a space,
    /// trailing blanks cut (leading blanks kept: they place the row's squares).
    pub rows: Vec<String>,
    /// The 1-based line of the file its first row is on.
    pub first_line: usize,
}

/// The levels of one XSB text, and the ones refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    /// The header's `Title:` line or first comment line, if any.
    pub title: Option<String>,
    /// The well-formed levels, in file order.
    pub levels: Vec<Level>,
    /// One error per malformed level, in file order.
    pub errors: Vec<LevelError>,
    /// The text the collection was read from, when it was read from one: what saving the
    /// collection writes back, its comments, credits and refused levels included (the
    /// levels are not edited on the canvas; a level played by hand is not changed).
    pub source: Option<std::sync::Arc<str>>,
}

/// Why one level of a collection was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("level {number}, line {line}: {message}")]
pub struct LevelError {
    /// The level's 1-based number in its collection.
    pub number: usize,
    /// The 1-based line of the file the fault is on (the level's first line when the fault is
    /// the whole level's, such as a missing player).
    pub line: usize,
    /// What is wrong, in words.
    pub message: String,
}

/// The characters a board may hold (as written, before normalizing).
const BOARD_CHARS: &str = "#@+$*.-_ ";

/// A line's kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Blank,
    Board,
    Meta,
}

/// A level's lines before it becomes a [`Level`].
struct Block {
    rows: Vec<String>,
    first_line: usize,
    meta: Vec<String>,
}

/// Reads every level of `text` (one level or a collection). Never panics: a malformed level
/// (see [`check_rows`]) goes to [`Collection::errors`] with its number and line, and the other
/// levels still open.
pub fn read_collection(text: &str) -> Collection {
    let mut blocks: Vec<Block> = Vec::new();
    let mut pending: Vec<(usize, Option<String>)> = Vec::new(); // (line, None for a blank)
    let mut header: Option<Vec<String>> = None;
    let mut in_board = false;
    let mut after_board = false;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let kind = classify(line, in_board);
        match kind {
            Kind::Board => {
                if !in_board {
                    let meta = take_pending(&mut pending, &mut header, blocks.is_empty());
                    blocks.push(Block {
                        rows: Vec::new(),
                        first_line: line_no,
                        meta,
                    });
                }
                in_board = true;
                after_board = false;
                if let Some(block) = blocks.last_mut() {
                    block.rows.push(normalize(line));
                }
            }
            Kind::Blank => {
                in_board = false;
                after_board = false;
                pending.push((line_no, None));
            }
            Kind::Meta => {
                let trailer = in_board || after_board;
                in_board = false;
                if trailer {
                    after_board = true;
                    if let Some(block) = blocks.last_mut() {
                        block.meta.push(line.trim().to_string());
                    }
                } else {
                    pending.push((line_no, Some(line.trim().to_string())));
                }
            }
        }
    }
    if blocks.is_empty() {
        header = Some(pending.into_iter().filter_map(|(_, l)| l).collect());
    }
    let mut collection = Collection {
        title: header.as_deref().and_then(collection_title),
        source: Some(text.into()),
        ..Collection::default()
    };
    for (index, block) in blocks.into_iter().enumerate() {
        let number = index + 1;
        match check_rows(&block.rows) {
            Ok(()) => {
                let (title, author) = level_names(&block.meta);
                collection.levels.push(Level {
                    number,
                    title,
                    author,
                    rows: block.rows,
                    first_line: block.first_line,
                });
            }
            Err(fault) => collection.errors.push(LevelError {
                number,
                line: block.first_line + fault.row,
                message: fault.message,
            }),
        }
    }
    collection
}

/// The metadata lines waiting for the next board; before the first board, the lines up to the
/// last blank line become the collection's header.
fn take_pending(
    pending: &mut Vec<(usize, Option<String>)>,
    header: &mut Option<Vec<String>>,
    first: bool,
) -> Vec<String> {
    let lines = std::mem::take(pending);
    let split = if first {
        lines.iter().rposition(|(_, l)| l.is_none()).unwrap_or(0)
    } else {
        0
    };
    if first {
        *header = Some(
            lines[..split]
                .iter()
                .filter_map(|(_, l)| l.clone())
                .collect(),
        );
    }
    lines[split..]
        .iter()
        .filter_map(|(_, l)| l.clone())
        .collect()
}

/// Whether `line` is blank, a board line or metadata (see the module's doc).
fn classify(line: &str, in_board: bool) -> Kind {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return Kind::Blank;
    }
    if trimmed.starts_with(';') || key_value(trimmed).is_some() {
        return Kind::Meta;
    }
    let all_board = line.chars().all(|c| BOARD_CHARS.contains(c));
    if trimmed.starts_with('#') || (all_board && line.contains('#')) {
        return Kind::Board;
    }
    if in_board && line.contains('#') {
        return Kind::Board;
    }
    Kind::Meta
}

/// `Key: value` with a key of letters (and `-`), or `None`.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim();
    let is_key = !key.is_empty()
        && key.len() <= 20
        && key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '-' || c == ' ');
    is_key.then_some((key, value.trim()))
}

/// A board line as stored: `-` and `_` as spaces, trailing blanks cut.
fn normalize(line: &str) -> String {
    line.replace(['-', '_'], " ").trim_end().to_string()
}

/// The collection's title: the header's `Title:` line, else its first comment's text.
fn collection_title(header: &[String]) -> Option<String> {
    let keyed = header.iter().find_map(|l| match key_value(l) {
        Some((k, v)) if k.eq_ignore_ascii_case("title") && !v.is_empty() => Some(v.to_string()),
        _ => None,
    });
    keyed.or_else(|| {
        header.iter().find_map(|l| {
            let text = l.strip_prefix(';')?.trim();
            (!text.is_empty()).then(|| text.to_string())
        })
    })
}

/// A level's title and author from its metadata lines.
fn level_names(meta: &[String]) -> (Option<String>, Option<String>) {
    let mut title = None;
    let mut author = None;
    let mut plain = None;
    for line in meta {
        match key_value(line) {
            Some((k, v)) if k.eq_ignore_ascii_case("title") && !v.is_empty() => {
                title.get_or_insert_with(|| v.to_string());
            }
            Some((k, v)) if k.eq_ignore_ascii_case("author") && !v.is_empty() => {
                author.get_or_insert_with(|| v.to_string());
            }
            Some(_) => {}
            None if !line.starts_with(';') => {
                let text = line.trim_matches(|c| c == '\'' || c == '"').trim();
                if !text.is_empty() {
                    plain.get_or_insert_with(|| text.to_string());
                }
            }
            None => {}
        }
    }
    (title.or(plain), author)
}

/// What is wrong with a level's rows: the 0-based row it is on and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowFault {
    /// The row (0-based, from the level's first row) the fault is on.
    pub row: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl RowFault {
    fn new(row: usize, message: impl Into<String>) -> Self {
        Self {
            row,
            message: message.into(),
        }
    }
}

/// Checks a level's normalized rows (see [`Level::rows`]): its size (at most [`MAX_SIDE`]
/// rows and columns), an unknown character, exactly one player, as many boxes as goals (at
/// least one, at most [`MAX_BOXES`]), and a closed border: no square the player can walk to (boxes counted as
/// floor) touches the map's edge or the outside of a shorter row. Boxes sealed off on goals,
/// as in Microban 155's "The Dungeon", are accepted.
///
/// # Errors
/// The first fault found, with its row.
pub fn check_rows(rows: &[String]) -> Result<(), RowFault> {
    if rows.len() > MAX_SIDE {
        return Err(RowFault::new(
            MAX_SIDE,
            format!("more than {MAX_SIDE} rows ({})", rows.len()),
        ));
    }
    let mut player = None;
    let (mut boxes, mut goals) = (0usize, 0usize);
    for (r, row) in rows.iter().enumerate() {
        let width = row.chars().count();
        if width > MAX_SIDE {
            return Err(RowFault::new(
                r,
                format!("row longer than {MAX_SIDE} columns ({width})"),
            ));
        }
        for (c, ch) in row.chars().enumerate() {
            match ch {
                '#' | ' ' => {}
                '.' => goals += 1,
                '$' => boxes += 1,
                '*' => {
                    boxes += 1;
                    goals += 1;
                }
                '@' | '+' => {
                    if ch == '+' {
                        goals += 1;
                    }
                    if player.is_some() {
                        return Err(RowFault::new(
                            r,
                            format!("a second player at column {}", c + 1),
                        ));
                    }
                    player = Some((r, c));
                }
                other => {
                    return Err(RowFault::new(
                        r,
                        format!("unknown character {other:?} at column {}", c + 1),
                    ));
                }
            }
        }
    }
    let Some(start) = player else {
        return Err(RowFault::new(0, "no player (`@` or `+`)"));
    };
    if boxes != goals {
        return Err(RowFault::new(
            0,
            format!("{boxes} boxes but {goals} goals (they must be equal)"),
        ));
    }
    if boxes == 0 {
        return Err(RowFault::new(0, "no boxes"));
    }
    if boxes > MAX_BOXES {
        return Err(RowFault::new(
            0,
            format!("{boxes} boxes; at most {MAX_BOXES} are supported"),
        ));
    }
    check_border(rows, start)
}

/// Checks that no square the player can walk to from `start` (boxes counted as floor)
/// touches the map's edge or the outside of a shorter row.
fn check_border(rows: &[String], start: (usize, usize)) -> Result<(), RowFault> {
    let grid: Vec<Vec<u8>> = rows.iter().map(|r| r.bytes().collect()).collect();
    let at = |r: isize, c: isize| -> Option<u8> {
        let row = grid.get(usize::try_from(r).ok()?)?;
        row.get(usize::try_from(c).ok()?).copied()
    };
    let mut seen: Vec<Vec<bool>> = grid.iter().map(|row| vec![false; row.len()]).collect();
    seen[start.0][start.1] = true;
    let mut queue = VecDeque::from([start]);
    while let Some((r, c)) = queue.pop_front() {
        for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
            let (nr, nc) = (r as isize + dr, c as isize + dc);
            match at(nr, nc) {
                None => {
                    return Err(RowFault::new(
                        r,
                        format!(
                            "open border: the player can walk off the map at column {}",
                            c + 1
                        ),
                    ));
                }
                Some(b'#') => {}
                Some(_) => {
                    let (nr, nc) = (nr as usize, nc as usize);
                    if !seen[nr][nc] {
                        seen[nr][nc] = true;
                        queue.push_back((nr, nc));
                    }
                }
            }
        }
    }
    Ok(())
}
