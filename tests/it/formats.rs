//! File formats: round trips, every shipped puzzle, and each kind of bad input getting an
//! error that says where.

use std::io::Write as _;

use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::{self, Cell, LoadError, MAX_FILE_BYTES, Puzzle};

#[test]
fn every_shipped_puzzle_parses_as_its_type() {
    let mut count = 0;
    for (puzzle_type, shipped) in puzzles::shipped() {
        let p =
            puzzles::parse(shipped.text, None).unwrap_or_else(|e| panic!("{}: {e}", shipped.file));
        assert_eq!(p.puzzle_type().name, puzzle_type.name, "{}", shipped.file);
        // The embedded copy is the file in puzzles/.
        let on_disk = std::fs::read_to_string(format!("puzzles/{}", shipped.file)).unwrap();
        assert_eq!(on_disk, shipped.text);
        count += 1;
    }
    assert!(count >= 5);
}

#[test]
fn text_and_json_round_trip() {
    for (_, shipped) in puzzles::shipped() {
        let p = puzzles::parse(shipped.text, None).unwrap();
        let from_text = puzzles::parse(&p.to_text(), Some(p.puzzle_type().name)).unwrap();
        assert_eq!(from_text.to_json(), p.to_json(), "{}", shipped.file);
        let from_json = puzzles::parse(&p.to_json().to_string(), None).unwrap();
        assert_eq!(from_json.to_text(), p.to_text(), "{}", shipped.file);
    }
}

#[test]
fn maze_start_and_goal_come_from_the_text() {
    let m = Maze::from_text("..G\n.#.\nS..\n").unwrap();
    assert_eq!(m.start(), Cell::new(2, 0));
    assert_eq!(m.goal(), Cell::new(0, 2));
    assert!(m.is_blocked(Cell::new(1, 1)));
    assert_eq!(m.to_text(), "..G\n.#.\nS..\n");
}

#[test]
fn save_writes_atomically_and_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut maze = Maze::new(6, 9);
    maze.randomize(0.4, 3);
    for name in ["m.json", "m.txt"] {
        let path = dir.path().join(name);
        puzzles::save_file(&maze, &path).unwrap();
        let back = puzzles::load_file(&path, None).unwrap();
        assert_eq!(back.to_text(), maze.to_text());
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 2, "no temporary file is left behind");
}

fn error_of(text: &str) -> String {
    puzzles::parse(text, None).unwrap_err().to_string()
}

#[test]
fn bad_text_names_the_line_and_column() {
    assert_eq!(error_of(""), "the file is empty");
    assert_eq!(error_of("\n  \n"), "the file is empty");
    assert_eq!(
        puzzles::parse("S..\n.q.\n..G\n", Some("maze"))
            .unwrap_err()
            .to_string(),
        "line 2, column 2: unknown character 'q' (use # . 1-9 S G)"
    );
    assert_eq!(
        error_of("S...\n..\n...G\n"),
        "line 2: ragged row: 2 characters where the first row has 4"
    );
    assert_eq!(
        error_of("S.S\n..G\n"),
        "line 1, column 3: a second start square"
    );
    assert!(error_of("hello\nworld\n").contains("cannot tell the puzzle type"));
    assert_eq!(
        puzzles::parse("__x\n_7z\n___\n", Some("klondike"))
            .unwrap_err()
            .to_string(),
        "line 2, column 3: unknown character 'z' (use _ x 1-9)"
    );
    assert!(
        puzzles::parse("___\n_x_\n___\n", Some("klondike"))
            .unwrap_err()
            .to_string()
            .contains("start square (1, 1) is not a board square")
    );
}

#[test]
fn bad_json_names_the_field_or_position() {
    assert_eq!(
        error_of("{\"type\": \"maze\", \"version\": 1,\n \"rows\": [\"S.\", \"#G\"]"),
        "line 2, column 21: invalid JSON: EOF while parsing an object"
    );
    assert_eq!(
        error_of(r#"{"version": 1, "rows": []}"#),
        "field `type`: missing"
    );
    assert!(
        error_of(r#"{"type": "chess", "version": 1}"#)
            .starts_with("field `type`: unknown puzzle type `chess`")
    );
    assert_eq!(
        error_of(r#"{"type": "maze", "version": 9, "rows": ["S.", ".G"]}"#),
        "field `version`: this build reads version 1"
    );
    assert!(error_of(r#"{"type": "maze", "version": 1, "rows": "S."}"#).contains("invalid type"));
    assert!(
        error_of(r#"{"type": "maze", "version": 1, "cells": []}"#)
            .contains("unknown field `cells`")
    );
    assert_eq!(
        error_of(r#"{"type": "maze", "version": 1, "rows": ["S..", ".G"]}"#),
        "field `rows`, entry 2: ragged row: 2 characters where the first row has 3"
    );
    let e = puzzles::parse(
        r#"{"type": "maze", "version": 1, "rows": ["S..", ".G"]}"#,
        None,
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("rows"));
    assert!(
        puzzles::parse(
            r#"{"type": "maze", "version": 1, "rows": ["S.", ".G"]}"#,
            Some("klondike")
        )
        .unwrap_err()
        .to_string()
        .contains("holds a maze, not a klondike")
    );
}

#[test]
fn bad_files_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("binary.txt");
    std::fs::write(&binary, [b'S', b'.', 0xff, b'\n']).unwrap();
    let e = puzzles::load_file(&binary, None).unwrap_err();
    assert!(matches!(e, LoadError::Format { .. }));
    let text = e.to_string();
    assert!(text.starts_with(&binary.display().to_string()), "{text}");
    assert!(text.contains("not UTF-8"), "{text}");

    let missing = dir.path().join("missing.txt");
    let e = puzzles::load_file(&missing, None).unwrap_err();
    assert!(matches!(e, LoadError::Io { .. }));
    assert!(e.to_string().contains("missing.txt"));

    let huge = dir.path().join("huge.txt");
    let mut f = std::fs::File::create(&huge).unwrap();
    f.set_len(MAX_FILE_BYTES + 1).unwrap();
    f.flush().unwrap();
    let e = puzzles::load_file(&huge, None).unwrap_err();
    assert!(matches!(e, LoadError::TooLarge { .. }), "{e}");

    let ragged = dir.path().join("ragged.txt");
    std::fs::write(&ragged, "S..\n..\n").unwrap();
    let e = puzzles::load_file(&ragged, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: line 2: ragged row: 2 characters where the first row has 3",
            ragged.display()
        )
    );
}

#[test]
fn oversized_grids_are_refused() {
    let row = ".".repeat(puzzles::maze::MAX_SIDE + 1);
    let text = format!("{row}\n{row}\n");
    assert!(error_of(&text).contains("at most 4096 x 4096"));
}
