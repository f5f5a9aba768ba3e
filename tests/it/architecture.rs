//! The layout the code promises (README "Layout"): shared GUI files never name a concrete
//! puzzle type, and the layers import one way (ui -> app -> solver -> runs -> puzzles ->
//! search).

use std::path::{Path, PathBuf};

/// Identifiers of the concrete puzzle types.
const TYPE_NAMES: [&str; 6] = [
    "Maze", "Klotski", "Sliding", "CarMaze", "Klondike", "RushHour",
];

/// The Rust files under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Whether `word` occurs in `text` as a whole identifier (not inside a longer one).
fn names(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// A type's own file: under a `views/` folder, or named after a type.
fn is_a_types_own(path: &Path) -> bool {
    let own_names = [
        "maze",
        "klotski",
        "sliding",
        "car_maze",
        "klondike",
        "rush_hour",
    ];
    path.components().any(|c| c.as_os_str() == "views")
        || path
            .file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|s| own_names.contains(&s))
}

#[test]
fn shared_gui_files_name_no_concrete_puzzle_type() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    for dir in ["ui", "app"] {
        for file in rust_files(&root.join(dir)) {
            if is_a_types_own(&file) {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("a source file");
            for word in TYPE_NAMES {
                if names(&text, word) {
                    offenders.push(format!("{} names {word}", file.display()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn layers_import_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // Each layer and the layers above it, which it must not import.
    let layers: [(&str, &[&str]); 5] = [
        ("app", &["crate::ui"]),
        ("solver.rs", &["crate::ui", "crate::app"]),
        (
            "runs",
            &["crate::ui", "crate::app", "crate::solver", "egui"],
        ),
        (
            "puzzles",
            &["crate::ui", "crate::app", "crate::solver", "egui"],
        ),
        (
            "search",
            &[
                "crate::ui",
                "crate::app",
                "crate::solver",
                "crate::puzzles",
                "egui",
            ],
        ),
    ];
    let mut offenders = Vec::new();
    for (layer, above) in layers {
        let path = root.join(layer);
        let files = if path.is_dir() {
            rust_files(&path)
        } else {
            vec![path]
        };
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            for name in above {
                if text.contains(name) {
                    offenders.push(format!("{} uses {name}", file.display()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn the_identifier_check_sees_whole_words_only() {
    assert!(names("let m: Maze = x;", "Maze"));
    assert!(names("Maze::new(3, 3)", "Maze"));
    assert!(!names("MazeView", "Maze"));
    assert!(!names("CarMaze", "Maze"));
    assert!(!names("a grid maze", "Maze"));
}

#[test]
fn the_integration_tests_are_one_crate() {
    // `cargo test` links one integration-test binary (tests/it/main.rs): a top-level file
    // or folder under tests/ with Rust code would be another crate, another link.
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut crates = Vec::new();
    for entry in std::fs::read_dir(&tests).expect("the tests folder") {
        let path = entry.expect("a folder entry").path();
        let is_crate = if path.is_dir() {
            path.join("main.rs").is_file()
        } else {
            path.extension().is_some_and(|e| e == "rs")
        };
        if is_crate {
            crates.push(path.file_name().map(|n| n.to_string_lossy().into_owned()));
        }
    }
    assert_eq!(crates, [Some("it".to_string())]);
}
