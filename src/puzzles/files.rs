//! Puzzle files: reading them (capped in size, with a timeout for pipes), parsing text and
//! JSON into a puzzle of the right type with errors that name line, column and field, and
//! writing them atomically.

use super::*;

/// The largest puzzle file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// What is wrong with a puzzle's text: a message, and where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", location(*line, *column, field.as_deref()))]
pub struct FormatError {
    /// 1-based line, if the error is tied to one.
    pub line: Option<usize>,
    /// 1-based column (in characters), if the error is tied to one.
    pub column: Option<usize>,
    /// The JSON field, if the error is tied to one.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
    /// Whether the text is a program (a puzzle script) that failed to compile or to run:
    /// the program's failure (exit code 1 on the command line, as a failed run), not
    /// malformed data (exit code 2).
    pub in_program: bool,
    /// The files this text needs beside it, when it cannot be read alone (a PDDL problem
    /// needs its domain): name patterns tried in order, `{stem}` standing for the file's name
    /// without its extension and `{digits}` for the digits in that name. [`load_file`] reads
    /// the first that exists and parses the two joined (see [`PART_MARK`]). Empty for every
    /// other error (`None`).
    /// (A reference to a static list, so that the error stays small.)
    pub companions: Option<&'static &'static [&'static str]>,
}

/// The mark that starts each part of a text joined from several files: a line
/// `\u{1c}NAME` (the ASCII file separator, then the file's name) before each file's text.
/// [`load_file`] joins a file with the companion its type asks for
/// ([`FormatError::companions`]); the companion comes first.
pub const PART_MARK: char = '\u{1c}';

fn location(line: Option<usize>, column: Option<usize>, field: Option<&str>) -> String {
    match (field, line, column) {
        (Some(f), Some(l), Some(c)) => format!("field `{f}`, entry {l}, column {c}: "),
        (Some(f), Some(l), None) => format!("field `{f}`, entry {l}: "),
        (Some(f), None, _) => format!("field `{f}`: "),
        (None, Some(l), Some(c)) => format!("line {l}, column {c}: "),
        (None, Some(l), None) => format!("line {l}: "),
        (None, None, _) => String::new(),
    }
}

impl FormatError {
    /// An error with no location.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            line: None,
            column: None,
            field: None,
            message: message.into(),
            in_program: false,
            companions: None,
        }
    }

    /// An error at a 1-based line and, optionally, column.
    pub fn at(line: usize, column: Option<usize>, message: impl Into<String>) -> Self {
        Self {
            line: Some(line),
            column,
            ..Self::new(message)
        }
    }

    /// An error in a JSON field.
    pub fn in_field(field: &str, message: impl Into<String>) -> Self {
        Self {
            field: Some(field.to_owned()),
            ..Self::new(message)
        }
    }
}

/// A puzzle file that could not be read: which file, and why.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error(
        "{path}: the file is larger than the limit of {} MiB ({bytes} bytes or more)",
        MAX_FILE_BYTES / (1024 * 1024)
    )]
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        bytes: u64,
    },
    /// The file's contents are not a puzzle.
    #[error("{path}: {source}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong with it.
        source: FormatError,
    },
}

/// How long a file that is not a regular file (a FIFO, a device, standard input) may take to
/// be read to the end before it is refused.
pub const NON_REGULAR_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Reads the file at `path` (`-` for standard input) as UTF-8 text, at most
/// [`MAX_FILE_BYTES`]: the bytes are counted as they are read, so devices such as `/dev/zero`
/// are refused too. A file that is not a regular file is read on a helper thread and refused
/// if it has not ended within [`NON_REGULAR_READ_TIMEOUT`] (a FIFO with no writer).
///
/// # Errors
/// [`LoadError`] naming the file: it cannot be read, is too large, does not end in time, or
/// is not UTF-8.
pub fn read_text_file(path: &Path) -> Result<String, LoadError> {
    let name = if path == Path::new("-") {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    };
    let io = |source| LoadError::Io {
        path: name.clone(),
        source,
    };
    let data = if path == Path::new("-") {
        read_with_timeout(None).map_err(io)?
    } else {
        let meta = std::fs::metadata(path).map_err(io)?;
        if meta.is_file() {
            if meta.len() > MAX_FILE_BYTES {
                return Err(LoadError::TooLarge {
                    path: name,
                    bytes: meta.len(),
                });
            }
            read_capped(std::fs::File::open(path).map_err(io)?).map_err(io)?
        } else if meta.is_dir() {
            return Err(io(std::io::Error::other("this is a folder, not a file")));
        } else {
            read_with_timeout(Some(path.to_path_buf())).map_err(io)?
        }
    };
    if data.len() as u64 > MAX_FILE_BYTES {
        return Err(LoadError::TooLarge {
            path: name,
            bytes: data.len() as u64,
        });
    }
    String::from_utf8(data).map_err(|e| LoadError::Format {
        path: name.clone(),
        source: FormatError::new(format!(
            "the file is not UTF-8 text (bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )),
    })
}

/// Reads `source` to its end or to one byte past [`MAX_FILE_BYTES`], whichever comes first.
fn read_capped(source: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut data = Vec::new();
    source.take(MAX_FILE_BYTES + 1).read_to_end(&mut data)?;
    Ok(data)
}

/// Reads the file at `path` (standard input for `None`) on a helper thread, capped as
/// [`read_capped`] does, waiting at most [`NON_REGULAR_READ_TIMEOUT`].
fn read_with_timeout(path: Option<std::path::PathBuf>) -> std::io::Result<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("file-read".into())
        .spawn(move || {
            let data = match path {
                // Opening a FIFO blocks until a writer comes: that is inside the timeout too.
                Some(p) => std::fs::File::open(p).and_then(read_capped),
                None => read_capped(std::io::stdin().lock()),
            };
            let _ = tx.send(data);
        })?;
    rx.recv_timeout(NON_REGULAR_READ_TIMEOUT)
        .unwrap_or_else(|_| {
            Err(std::io::Error::other(format!(
                "not a regular file, and it did not reach its end within {} s",
                NON_REGULAR_READ_TIMEOUT.as_secs()
            )))
        })
}

/// Reads the puzzle in the file at `path` (`-` for standard input). `type_name` forces a
/// type (see [`PuzzleType::name`]); otherwise the type is taken from a JSON file's `"type"`
/// field or detected from a text file's characters.
///
/// # Errors
/// [`LoadError`] naming the file, for a file that cannot be read, is too large, is not UTF-8,
/// or does not parse (see [`read_text_file`] and [`parse`]).
pub fn load_file(path: &Path, type_name: Option<&str>) -> Result<Box<dyn Puzzle>, LoadError> {
    load_file_with(path, None, type_name)
}

/// Reads the puzzle in the file at `path` as [`load_file`] does, with `companion` the file it
/// needs beside it (a PDDL problem's domain) when given; otherwise a text that asks for a
/// companion ([`FormatError::companions`]) gets the first of its patterns found beside it.
///
/// # Errors
/// As [`load_file`]; a companion that cannot be read is named.
pub fn load_file_with(
    path: &Path,
    companion: Option<&Path>,
    type_name: Option<&str>,
) -> Result<Box<dyn Puzzle>, LoadError> {
    let format = |source| LoadError::Format {
        path: path.display().to_string(),
        source,
    };
    let text = read_text_file(path)?;
    let companion = match companion {
        Some(c) => c.to_path_buf(),
        None => {
            let parsed = parse(&text, type_name);
            let found = match &parsed {
                Err(e) => e
                    .companions
                    .and_then(|patterns| find_companion(path, patterns)),
                Ok(_) => None,
            };
            match found {
                Some(c) => c,
                None => return parsed.map_err(format),
            }
        }
    };
    let companion_text = read_text_file(&companion)?;
    let file_name = |p: &Path| {
        p.file_name().map_or_else(
            || p.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let joined = format!(
        "{PART_MARK}{}\n{companion_text}\n{PART_MARK}{}\n{text}",
        file_name(&companion),
        file_name(path)
    );
    parse(&joined, type_name).map_err(format)
}

/// The first file beside `path` that one of `patterns` names (see
/// [`FormatError::companions`]), other than `path` itself.
pub fn find_companion(path: &Path, patterns: &[&str]) -> Option<std::path::PathBuf> {
    if path == Path::new("-") {
        return None;
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let stem = path.file_stem()?.to_string_lossy();
    let digits: String = stem.chars().filter(char::is_ascii_digit).collect();
    patterns
        .iter()
        .filter(|p| !(digits.is_empty() && p.contains("{digits}")))
        .map(|p| dir.join(p.replace("{stem}", &stem).replace("{digits}", &digits)))
        .find(|c| c.as_path() != path && c.is_file())
}

/// Parses a puzzle from text: JSON if it starts with `{`, otherwise a plain-text format.
/// `type_name` forces a type; without it JSON says its type and plain text is sniffed.
///
/// # Errors
/// [`FormatError`] for empty text, an unknown or undetectable type, malformed JSON (with its
/// line and column), a wrong format version, or the type's own parse errors.
///
/// # Example
/// A grid maze in the plain-text format (`S` start, `G` goal, `#` a wall), solved by A*:
/// ```
/// use puzzlelab::puzzles::{self, NoWatcher};
/// use puzzlelab::search::{Algorithm, CancelToken};
///
/// let maze = puzzles::parse("S.#\n#..\n#.G\n", None).unwrap();
/// let report = maze
///     .solve(Algorithm::AStar, &mut NoWatcher, &CancelToken::new())
///     .unwrap();
/// assert!(report.solved && report.optimal);
/// assert_eq!(report.cost, 4.0);
/// assert_eq!(report.moves.len(), 4);
///
/// // Bad input is an error naming the place, never a panic.
/// let error = puzzles::parse("S.#\n#.?\n", Some("maze")).unwrap_err();
/// assert!(error.to_string().contains("line 2"), "{error}");
/// ```
pub fn parse(text: &str, type_name: Option<&str>) -> Result<Box<dyn Puzzle>, FormatError> {
    let forced = match type_name {
        Some(name) => Some(type_by_name(name).ok_or_else(|| unknown_type(name))?),
        None => None,
    };
    let trimmed = text.trim_start_matches('\u{feff}');
    if trimmed.trim().is_empty() {
        return Err(FormatError::new("the file is empty"));
    }
    if trimmed.trim_start().starts_with('{') {
        return parse_json(trimmed, forced);
    }
    let puzzle_type = match forced {
        Some(t) => t,
        None => detect_type(trimmed)?,
    };
    (puzzle_type.parse_text)(trimmed)
}

fn unknown_type(name: &str) -> FormatError {
    FormatError::in_field(
        "type",
        format!("unknown puzzle type `{name}` (known: {})", type_names()),
    )
}

fn parse_json(
    text: &str,
    forced: Option<&'static PuzzleType>,
) -> Result<Box<dyn Puzzle>, FormatError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        // serde_json's message ends with its own " at line L column C": said once, up front.
        let message = e.to_string();
        let message = message
            .rfind(" at line ")
            .map_or(message.as_str(), |i| &message[..i]);
        FormatError::at(
            e.line(),
            Some(e.column()),
            format!("invalid JSON: {message}"),
        )
    })?;
    let declared = value.get("type").and_then(|t| t.as_str());
    let puzzle_type = match (declared, forced) {
        (Some(name), _) => type_by_name(name).ok_or_else(|| unknown_type(name))?,
        (None, Some(t)) => t,
        (None, None) => return Err(FormatError::in_field("type", "missing")),
    };
    if let Some(t) = forced
        && t.name != puzzle_type.name
    {
        return Err(FormatError::in_field(
            "type",
            format!("the file holds a {}, not a {}", puzzle_type.name, t.name),
        ));
    }
    match value.get("version").map(|v| v.as_u64()) {
        None => return Err(FormatError::in_field("version", "missing")),
        Some(Some(v)) if v == u64::from(puzzle_type.json_version) => {}
        Some(_) => {
            return Err(FormatError::in_field(
                "version",
                format!("this build reads version {}", puzzle_type.json_version),
            ));
        }
    }
    (puzzle_type.from_json)(value)
}

/// Deserializes a puzzle's JSON body, turning serde's message into a [`FormatError`] that
/// names the field's path (for example `pieces.A[0].row`).
pub(crate) fn json_body<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, FormatError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        if path == "." {
            FormatError::new(format!("invalid puzzle: {message}"))
        } else {
            FormatError::in_field(&path, message)
        }
    })
}

/// Splits plain text into its non-empty lines, with 1-based line numbers, skipping lines that
/// start with `;` (comments).
pub(crate) fn text_rows(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim_end()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with(';'))
        .collect()
}

/// The fraction of the non-blank characters of `text`'s rows (see [`text_rows`]) that are in
/// `alphabet`: a [`PuzzleType::sniff`] for grid formats.
pub(crate) fn alphabet_score(text: &str, alphabet: &str) -> f64 {
    rows_alphabet_score(text_rows(text).into_iter().map(|(_, row)| row), alphabet)
}

/// [`alphabet_score`] of the given rows alone (a format whose settings lines must not count).
pub(crate) fn rows_alphabet_score<'a>(rows: impl Iterator<Item = &'a str>, alphabet: &str) -> f64 {
    let (mut fits, mut total) = (0usize, 0usize);
    for row in rows {
        for c in row.chars().filter(|c| !c.is_whitespace()) {
            total += 1;
            fits += usize::from(alphabet.contains(c));
        }
    }
    if total == 0 {
        0.0
    } else {
        fits as f64 / total as f64
    }
}

/// Checks that a grid of text rows is rectangular and not too large; returns (rows, columns).
pub(crate) fn check_rectangle(
    rows: &[(usize, &str)],
    max_side: usize,
) -> Result<(usize, usize), FormatError> {
    let Some(&(_, first)) = rows.first() else {
        return Err(FormatError::new("the file is empty"));
    };
    let width = first.chars().count();
    for &(line, row) in rows {
        let n = row.chars().count();
        if n != width {
            return Err(FormatError::at(
                line,
                None,
                format!("ragged row: {n} characters where the first row has {width}"),
            ));
        }
    }
    if rows.len() > max_side || width > max_side {
        return Err(FormatError::new(format!(
            "the grid is {} x {}; at most {max_side} x {max_side} is supported",
            rows.len(),
            width
        )));
    }
    Ok((rows.len(), width))
}

/// Writes `puzzle` to `path` atomically: into a temporary file beside it, then renamed over
/// it, so a crash never leaves a half-written file. A `.json` extension writes the JSON format,
/// anything else the plain-text format.
///
/// # Errors
/// The I/O error of writing, syncing or renaming.
pub fn save_file(puzzle: &dyn Puzzle, path: &Path) -> std::io::Result<()> {
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let text = if is_json {
        let mut json =
            serde_json::to_string_pretty(&puzzle.to_json()).map_err(std::io::Error::other)?;
        json.push('\n');
        json
    } else {
        puzzle.to_text()
    };
    write_atomically(path, text.as_bytes())
}

/// Writes `bytes` to `path` atomically (see [`write_atomically_with`]).
///
/// # Errors
/// As [`write_atomically_with`].
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |out| out.write_all(bytes))
}

/// How the temporary file of a write to `.../name` is named: `.name.` + random + this.
const LEFTOVER_SUFFIX: &str = ".tmp";

/// Removes the temporary files that writes to `path` ([`write_atomically_with`]) left behind
/// when the process was killed mid-write: files in `path`'s folder named `.name.*.tmp`. A
/// caller makes sure no write to `path` is under way (the state file's lock).
pub fn remove_leftover_writes(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let entry_name = entry.file_name();
        let entry_name = entry_name.to_string_lossy();
        if entry_name.starts_with(&prefix)
            && entry_name.ends_with(LEFTOVER_SUFFIX)
            && entry_name.len() > prefix.len() + LEFTOVER_SUFFIX.len()
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes the file at `path` atomically, the one way every writer of the program does:
/// `write` fills a new temporary file in `path`'s folder (so the rename never crosses file
/// systems), buffered; it is flushed and synced to disk, then renamed over `path`. A reader
/// or a crash sees the old file or the new one whole, never half of one. On any error the
/// temporary file is removed and `path` is as it was. The temporary file is the `tempfile`
/// crate's: a fresh random name created exclusively (a FIFO or a link planted where an old
/// fixed name would be is never opened), with the permissions a new file gets (read-write
/// under the umask, not `tempfile`'s private 0600). Returns what `write` returned.
///
/// # Errors
/// The error `write` returns, or the operating system's error from creating, writing,
/// flushing, syncing or renaming the file.
pub fn write_atomically_with<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<T>,
) -> std::io::Result<T> {
    use std::io::Write as _;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(LEFTOVER_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    let value = {
        let mut out = std::io::BufWriter::new(tmp.as_file_mut());
        let value = write(&mut out)?;
        out.flush()?;
        value
    };
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(value)
}
