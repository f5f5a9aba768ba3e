//! Docs that cannot go stale: every command README.md and `docs/` show is run here and its
//! output checked, every path they name exists, and the facts that once went stale (the
//! settings file, the quick tables' build time) are stated once, as the code has them.
//!
//! Commands are shown in ```` ```console ```` blocks: a line `$ puzzlelab ARGS` is run from the
//! repository's root (the test's build of the binary, a cache of its own), an optional next
//! line `? N` gives the exit code (0 when absent), and the lines up to the next `$ ` or the
//! block's end are its output (standard output, then standard error). In the expected
//! output a line `...` stands for any number of lines and `[..]` for any text within a line.
//! Set-up commands (`cargo`, `sudo`, `apt-get`, ...) stand in ```` ```sh ```` blocks and are
//! not run (CI runs the two that matter); a `puzzlelab` command anywhere else is an error.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file under `docs/`.
fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut dirs = vec![root().join("docs")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A fenced block: its info string, its first line's number and its lines.
struct Block {
    info: String,
    line: usize,
    lines: Vec<String>,
}

/// The fenced blocks of a Markdown text (fences of three backticks, maybe indented), and the
/// text outside them.
fn blocks(text: &str) -> (Vec<Block>, String) {
    let (mut found, mut prose) = (Vec::new(), String::new());
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match open.take() {
                Some(block) => found.push(block),
                None => {
                    open = Some(Block {
                        info: info.trim().to_owned(),
                        line: i + 1,
                        lines: Vec::new(),
                    });
                }
            }
        } else if let Some(block) = &mut open {
            block.lines.push(trimmed.to_owned());
        } else {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    (found, prose)
}

/// One command of a console block, with what it must print and exit with.
struct Case {
    args: Vec<String>,
    code: i32,
    expected: Vec<String>,
    at: String,
}

/// Splits a command line at spaces, keeping "double-quoted" words whole.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn cases(file: &Path, block: &Block) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for (k, line) in block.lines.iter().enumerate() {
        let at = format!("{}:{}", file.display(), block.line + k + 1);
        if let Some(command) = line.strip_prefix("$ ") {
            let mut args = words(command);
            assert_eq!(
                args.first().map(String::as_str),
                Some("puzzlelab"),
                "{at}: a console block runs puzzlelab"
            );
            args.remove(0);
            cases.push(Case {
                args,
                code: 0,
                expected: Vec::new(),
                at,
            });
        } else if let Some(case) = cases.last_mut() {
            match line.strip_prefix("? ") {
                Some(code) if case.expected.is_empty() => {
                    case.code = code.trim().parse().expect("an exit code after `? `");
                }
                _ => case.expected.push(line.clone()),
            }
        } else {
            panic!("{at}: a console block begins with a `$ ` command");
        }
    }
    cases
}

/// Whether `line` matches `pattern`, where `[..]` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether `lines` match `expected`, where a line `...` stands for any number of lines.
fn output_matches(expected: &[String], lines: &[&str]) -> bool {
    match expected.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=lines.len()).any(|skip| output_matches(rest, &lines[skip..]))
        }
        Some((first, rest)) => lines
            .split_first()
            .is_some_and(|(line, more)| line_matches(first, line) && output_matches(rest, more)),
    }
}

#[test]
fn the_output_matcher_takes_wildcards_and_elisions() {
    assert!(line_matches("time: [..] ms", "time: 96.2 ms"));
    assert!(line_matches("[..]", "anything"));
    assert!(!line_matches("time: [..] ms", "time: 96.2 s"));
    assert!(line_matches("exact", "exact"));
    assert!(!line_matches("exact", "exact and more"));
    let expected: Vec<String> = ["a", "...", "d"].map(String::from).to_vec();
    assert!(output_matches(&expected, &["a", "b", "c", "d"]));
    assert!(output_matches(&expected, &["a", "d"]));
    assert!(!output_matches(&expected, &["a", "b"]));
    assert_eq!(words(r#"solve "a b" --json"#), ["solve", "a b", "--json"]);
}

/// Every command the docs show prints what they say it prints.
#[test]
fn every_command_in_the_docs_prints_what_they_show() {
    let cache = crate::common::temp_cache();
    let mut ran = 0;
    let mut failures = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("a doc file");
        let (found, prose) = blocks(&text);
        for block in &found {
            if block.info == "console" {
                for case in cases(&file, block) {
                    let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
                    let (code, out, err) = crate::common::puzzlelab_with_cache(cache, &args);
                    ran += 1;
                    let all = format!("{out}{err}");
                    let lines: Vec<&str> = all.lines().collect();
                    if code != case.code || !output_matches(&case.expected, &lines) {
                        failures.push(format!(
                            "{}: `puzzlelab {}` exited {code} and printed:\n{all}",
                            case.at,
                            case.args.join(" ")
                        ));
                    }
                }
            } else {
                for (k, line) in block.lines.iter().enumerate() {
                    assert!(
                        !line.trim_start().starts_with("puzzlelab ")
                            && !line.contains("$ puzzlelab"),
                        "{}:{}: a puzzlelab command outside a console block is never checked",
                        file.display(),
                        block.line + k + 1
                    );
                }
            }
        }
        // Inline code that is a whole command line belongs in a console block too.
        for (k, span) in prose.split('`').enumerate() {
            assert!(
                k % 2 == 0 || !(span.starts_with("puzzlelab ") && span.contains(" --")),
                "{}: `{span}` is a command outside a console block",
                file.display()
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 10, "only {ran} commands in the docs");
}

/// Every file path the docs name (in code spans: `src/…`, `tests/…`, `puzzles/…`, …)
/// exists, so that a moved or deleted file cannot stay named (`src/puzzles/sliding/ida.rs`
/// once did, a turn after it was split).
#[test]
fn every_path_the_docs_name_exists() {
    const ROOTS: [&str; 8] = [
        "src/",
        "tests/",
        "benches/",
        "puzzles/",
        "assets/",
        "docs/",
        ".ci/",
        "examples/",
    ];
    let mut missing = Vec::new();
    let mut named = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("a doc file");
        for (k, span) in text.split('`').enumerate() {
            let path = span.trim_end_matches([':', ',', '.']);
            if k % 2 == 0
                || !ROOTS.iter().any(|r| path.starts_with(r))
                || path.contains(['*', ' ', '<', '{'])
            {
                continue;
            }
            named += 1;
            if !root().join(path).exists() {
                missing.push(format!("{}: {path}", file.display()));
            }
        }
        // Markdown links to files of the repository.
        for piece in text.split("](").skip(1) {
            let target = piece.split(')').next().unwrap_or("");
            if target.starts_with("http") || target.starts_with('#') || target.is_empty() {
                continue;
            }
            let target = target.split('#').next().unwrap_or(target);
            named += 1;
            let base = file.parent().unwrap_or(Path::new("."));
            if !base.join(target).exists() {
                missing.push(format!("{}: link {target}", file.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    assert!(named >= 10, "only {named} paths named");
}

/// The settings file the docs name is the one the app writes (`work.json`); `app.ron` is named
/// only as what an earlier version wrote and is taken over (they once said both held the
/// settings).
#[test]
fn the_docs_name_the_one_settings_file() {
    let mut names_work = false;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("a doc file");
        names_work |= text.contains(puzzlelab::app::autosave::STATE_FILE);
        for (i, line) in text.lines().enumerate() {
            if line.contains("app.ron") {
                assert!(
                    line.contains("taken over") || line.contains("earlier version"),
                    "{}:{}: app.ron named as a settings file: {line}",
                    file.display(),
                    i + 1
                );
            }
        }
    }
    assert!(
        names_work,
        "no doc names {}",
        puzzlelab::app::autosave::STATE_FILE
    );
}

/// A figure measured once is stated once: the build time of the pattern databases' quick
/// set (6-6-3 and 6-5-4, 5.8 MB) is given in one doc file, one figure (it once read "about 15
/// s" in one place and "about 6 s" in another). A statement is a paragraph that speaks of
/// those tables ("6-6-3" or "quick") and of their build ("built", "build") with a time in
/// seconds ("about N s").
#[test]
fn the_quick_tables_build_time_is_stated_once() {
    let mut stated = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("a doc file");
        for paragraph in text.split("\n\n") {
            let lower = paragraph.to_lowercase().replace('\n', " ");
            if !(lower.contains("6-6-3") || lower.contains("quick"))
                || !lower.contains("built") && !lower.contains("build")
            {
                continue;
            }
            let words: Vec<&str> = lower.split_whitespace().collect();
            for w in words.windows(3) {
                let about = w[0].trim_start_matches(['(', ',']) == "about";
                let unit = w[2].trim_end_matches([',', '.', ')', ';']) == "s";
                if about
                    && unit
                    && let Ok(seconds) = w[1].parse::<f64>()
                {
                    stated.push((file.display().to_string(), seconds));
                }
            }
        }
    }
    let files: std::collections::BTreeSet<_> = stated.iter().map(|(f, _)| f).collect();
    let figures: std::collections::BTreeSet<_> =
        stated.iter().map(|(_, s)| s.to_string()).collect();
    assert!(
        files.len() <= 1 && figures.len() <= 1,
        "stated in several places or figures: {stated:?}"
    );
}
