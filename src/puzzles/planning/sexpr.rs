//! PDDL's surface syntax: nested parenthesized lists of words (s-expressions), each with the
//! line and column it starts at.
//!
//! PDDL is case-insensitive (McDermott et al., "PDDL: the Planning Domain Definition Language",
//! 1998, section 2), so every word is read in lower case. A `;` starts a comment that runs to
//! the end of its line. The reader keeps its own stack rather than recursing, so a hostile
//! nesting depth costs memory, not the thread's stack, and [`MAX_DEPTH`] caps it.

use std::fmt;

/// The deepest nesting of lists accepted; the IPC domains nest at most about 12 deep.
pub const MAX_DEPTH: usize = 1_000;

/// Where a word or a list starts: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in characters.
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// One s-expression: a word or a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    /// A word (a name, a `?variable`, a `:keyword`, a number), in lower case.
    Word(String, Pos),
    /// A parenthesized list, where its `(` is.
    List(Vec<Sexp>, Pos),
}

impl Sexp {
    /// Where this word or list starts.
    pub fn pos(&self) -> Pos {
        match self {
            Sexp::Word(_, p) | Sexp::List(_, p) => *p,
        }
    }

    /// The word, if this is one.
    pub fn word(&self) -> Option<&str> {
        match self {
            Sexp::Word(w, _) => Some(w),
            Sexp::List(..) => None,
        }
    }

    /// The list's items, if this is a list.
    pub fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items, _) => Some(items),
            Sexp::Word(..) => None,
        }
    }

    /// The first word of a list (`and` of `(and ...)`), if it is a list that starts with one.
    pub fn head(&self) -> Option<&str> {
        self.list()
            .and_then(|items| items.first())
            .and_then(Sexp::word)
    }
}

/// A syntax error: where and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct SyntaxError {
    /// Where the reader saw it.
    pub pos: Pos,
    /// What is wrong, in words.
    pub message: String,
}

impl SyntaxError {
    /// An error at `pos`.
    pub fn new(pos: Pos, message: impl Into<String>) -> Self {
        Self {
            pos,
            message: message.into(),
        }
    }
}

/// Reads every top-level s-expression of `text`.
///
/// # Errors
/// [`SyntaxError`] for a `)` with no `(`, a `(` never closed (named where it opened), or a
/// nesting deeper than [`MAX_DEPTH`].
pub fn read(text: &str) -> Result<Vec<Sexp>, SyntaxError> {
    // Each open list: where it opened and its items so far.
    let mut stack: Vec<(Pos, Vec<Sexp>)> = Vec::new();
    let mut top = Vec::new();
    let mut word = String::new();
    let mut word_pos = Pos::default();
    let (mut line, mut column) = (1, 0);
    let mut in_comment = false;

    let flush =
        |word: &mut String, pos: Pos, stack: &mut Vec<(Pos, Vec<Sexp>)>, top: &mut Vec<Sexp>| {
            if word.is_empty() {
                return;
            }
            let w = Sexp::Word(std::mem::take(word).to_lowercase(), pos);
            match stack.last_mut() {
                Some((_, items)) => items.push(w),
                None => top.push(w),
            }
        };

    for c in text.chars() {
        if c == '\n' {
            line += 1;
            column = 0;
            in_comment = false;
            flush(&mut word, word_pos, &mut stack, &mut top);
            continue;
        }
        column += 1;
        if in_comment {
            continue;
        }
        let pos = Pos { line, column };
        match c {
            ';' => {
                flush(&mut word, word_pos, &mut stack, &mut top);
                in_comment = true;
            }
            '(' => {
                flush(&mut word, word_pos, &mut stack, &mut top);
                if stack.len() >= MAX_DEPTH {
                    return Err(SyntaxError::new(
                        pos,
                        format!("lists nest deeper than {MAX_DEPTH}"),
                    ));
                }
                stack.push((pos, Vec::new()));
            }
            ')' => {
                flush(&mut word, word_pos, &mut stack, &mut top);
                let Some((open, items)) = stack.pop() else {
                    return Err(SyntaxError::new(pos, "`)` with no `(` before it"));
                };
                let list = Sexp::List(items, open);
                match stack.last_mut() {
                    Some((_, items)) => items.push(list),
                    None => top.push(list),
                }
            }
            c if c.is_whitespace() => flush(&mut word, word_pos, &mut stack, &mut top),
            c => {
                if word.is_empty() {
                    word_pos = pos;
                }
                word.push(c);
            }
        }
    }
    flush(&mut word, word_pos, &mut stack, &mut top);
    if let Some((open, _)) = stack.last() {
        return Err(SyntaxError::new(
            *open,
            "this `(` is never closed (a `)` is missing)",
        ));
    }
    Ok(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lower_case_with_their_place_and_comments_are_skipped() {
        let read = read("(define ; a comment (\n  (DOMAIN Blocks))").unwrap();
        let [Sexp::List(items, p)] = read.as_slice() else {
            panic!("{read:?}")
        };
        assert_eq!(*p, Pos { line: 1, column: 1 });
        assert_eq!(
            items[0],
            Sexp::Word("define".into(), Pos { line: 1, column: 2 })
        );
        assert_eq!(items[1].head(), Some("domain"));
        assert_eq!(items[1].pos(), Pos { line: 2, column: 3 });
        assert_eq!(items[1].list().unwrap()[1].word(), Some("blocks"));
    }

    #[test]
    fn unbalanced_parentheses_are_named_where_they_are() {
        let e = read("(a\n (b c)").unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, column: 1 });
        assert!(e.message.contains("never closed"), "{e}");
        let e = read("(a))").unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, column: 4 });
    }

    #[test]
    fn a_hostile_nesting_is_an_error_not_a_stack_overflow() {
        let text = "(".repeat(100_000);
        let e = read(&text).unwrap_err();
        assert!(e.message.contains("deeper"), "{e}");
    }
}
