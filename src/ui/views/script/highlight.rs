//! Syntax colouring of rhai for the script editor: comments, strings, numbers, keywords and
//! the names of functions called or defined, with the line of an error marked.

use eframe::egui::{self, Color32, FontId, text::LayoutJob};

/// rhai's keywords (and the contract's constants' keyword `const`).
const KEYWORDS: &[&str] = &[
    "fn",
    "let",
    "const",
    "if",
    "else",
    "for",
    "in",
    "while",
    "loop",
    "do",
    "until",
    "return",
    "break",
    "continue",
    "switch",
    "true",
    "false",
    "throw",
    "try",
    "catch",
    "private",
    "this",
    "global",
    "is_def_fn",
    "is_def_var",
    "type_of",
    "print",
    "debug",
];

/// The kinds of text coloured apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Plain,
    Comment,
    Text,
    Number,
    Keyword,
    Function,
}

/// The colours of each kind in the dark or light theme.
fn colour(kind: Kind, dark: bool) -> Color32 {
    match (kind, dark) {
        (Kind::Plain, true) => Color32::from_gray(220),
        (Kind::Plain, false) => Color32::from_gray(30),
        (Kind::Comment, true) => Color32::from_rgb(120, 160, 110),
        (Kind::Comment, false) => Color32::from_rgb(40, 120, 40),
        (Kind::Text, true) => Color32::from_rgb(230, 170, 110),
        (Kind::Text, false) => Color32::from_rgb(160, 70, 0),
        (Kind::Number, true) => Color32::from_rgb(180, 200, 250),
        (Kind::Number, false) => Color32::from_rgb(20, 80, 200),
        (Kind::Keyword, true) => Color32::from_rgb(210, 140, 230),
        (Kind::Keyword, false) => Color32::from_rgb(130, 30, 160),
        (Kind::Function, true) => Color32::from_rgb(120, 200, 230),
        (Kind::Function, false) => Color32::from_rgb(0, 110, 140),
    }
}

/// The background of the line of an error.
pub(super) fn error_background(dark: bool) -> Color32 {
    if dark {
        Color32::from_rgb(90, 30, 30)
    } else {
        Color32::from_rgb(255, 215, 215)
    }
}

/// Splits `text` into runs of one kind each, in order, covering it whole (byte ranges).
pub(super) fn tokens(text: &str) -> Vec<(std::ops::Range<usize>, Kind)> {
    let bytes = text.as_bytes();
    let mut out: Vec<(std::ops::Range<usize>, Kind)> = Vec::new();
    let mut push = |range: std::ops::Range<usize>, kind: Kind| {
        if range.is_empty() {
            return;
        }
        match out.last_mut() {
            Some((last, k)) if *k == kind && last.end == range.start => last.end = range.end,
            _ => out.push((range, kind)),
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let b = bytes[i];
        if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            push(start..i, Kind::Comment);
        } else if b == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i = text[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |n| i + 2 + n + 2);
            push(start..i, Kind::Comment);
        } else if b == b'"' || b == b'`' || b == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != b {
                // An escape takes the next character with it (never past the end).
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            push(start..i, Kind::Text);
        } else if b.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            push(start..i, Kind::Number);
        } else if b.is_ascii_alphabetic() || b == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let called = text[i..].trim_start_matches([' ', '\t']).starts_with('(');
            let kind = if KEYWORDS.contains(&word) {
                Kind::Keyword
            } else if called {
                Kind::Function
            } else {
                Kind::Plain
            };
            push(start..i, kind);
        } else {
            // One character (a whole one: never a part of a multi-byte one).
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            push(start..i, Kind::Plain);
        }
    }
    out
}

/// `text` coloured as rhai in `font`, with the 1-based line `error_line` (if any) on a red
/// background; no wrapping (the editor scrolls sideways).
pub(super) fn layout(text: &str, font: FontId, dark: bool, error_line: Option<usize>) -> LayoutJob {
    let mut job = LayoutJob {
        text: text.to_owned(),
        ..Default::default()
    };
    job.wrap.max_width = f32::INFINITY;
    // Where the error's line starts and ends, in bytes.
    let marked = error_line.and_then(|line| {
        let start = if line <= 1 {
            0
        } else {
            text.match_indices('\n').nth(line - 2).map(|(i, _)| i + 1)?
        };
        let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
        Some(start..end)
    });
    for (range, kind) in tokens(text) {
        // A run split where the marked line begins and ends.
        let mut cuts = vec![range.start, range.end];
        if let Some(m) = &marked {
            cuts.extend([m.start, m.end].into_iter().filter(|c| range.contains(c)));
        }
        cuts.sort_unstable();
        cuts.dedup();
        for pair in cuts.windows(2) {
            let piece = pair[0]..pair[1];
            let on_error = marked
                .as_ref()
                .is_some_and(|m| piece.start >= m.start && piece.end <= m.end);
            job.sections.push(egui::text::LayoutSection {
                leading_space: 0.0,
                byte_range: piece.start.into()..piece.end.into(),
                format: egui::TextFormat {
                    font_id: font.clone(),
                    color: colour(kind, dark),
                    background: if on_error {
                        error_background(dark)
                    } else {
                        Color32::TRANSPARENT
                    },
                    ..Default::default()
                },
            });
        }
    }
    job
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_cover_the_text_and_find_each_kind() {
        let text = "// hi\nfn moves(s) { let x = \"a\\\"b\"; 42 } /* c */ é";
        let runs = tokens(text);
        let mut at = 0;
        for (range, _) in &runs {
            assert_eq!(range.start, at);
            at = range.end;
        }
        assert_eq!(at, text.len());
        let kind_of = |needle: &str| {
            let i = text.find(needle).expect("in the text");
            runs.iter().find(|(r, _)| r.contains(&i)).map(|(_, k)| *k)
        };
        assert_eq!(kind_of("// hi"), Some(Kind::Comment));
        assert_eq!(kind_of("fn"), Some(Kind::Keyword));
        assert_eq!(kind_of("moves"), Some(Kind::Function));
        assert_eq!(kind_of("\"a"), Some(Kind::Text));
        assert_eq!(kind_of("42"), Some(Kind::Number));
        assert_eq!(kind_of("/* c"), Some(Kind::Comment));
    }

    #[test]
    fn an_unclosed_string_or_comment_ends_at_the_end() {
        for text in ["\"abc\\", "/* open", "`x", "a\\"] {
            let runs = tokens(text);
            assert_eq!(runs.last().map(|r| r.0.end), Some(text.len()), "{text}");
        }
    }

    #[test]
    fn the_error_line_is_marked_alone() {
        let job = layout("a\nbb\nc", FontId::monospace(12.0), true, Some(2));
        let marked: Vec<_> = job
            .sections
            .iter()
            .filter(|s| s.format.background != Color32::TRANSPARENT)
            .map(|s| s.byte_range.start.0..s.byte_range.end.0)
            .collect();
        assert_eq!(marked, vec![2..4]);
        // A line past the end marks nothing, and does not panic.
        let job = layout("a", FontId::monospace(12.0), true, Some(9));
        assert!(
            job.sections
                .iter()
                .all(|s| s.format.background == Color32::TRANSPARENT)
        );
    }
}
