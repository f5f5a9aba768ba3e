//! Regression tests for the robustness findings: inputs that panicked, aborted or hung, output
//! errors, unchecked arguments and unclear messages. Each test holds the finding's minimal
//! input. (The seeded fuzzing of every parser and `solve` is in `tests/fuzz.rs`.)

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use crate::common::puzzlelab;
use puzzlelab::puzzles;
use puzzlelab::search::limits::MIB;
use puzzlelab::search::{Algorithm, CancelToken, Limits, Outcome};

/// Writes `text` to a new temporary file named `name` and returns its directory and path.
fn temp_file(name: &str, text: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let path = path.display().to_string();
    (dir, path)
}

/// A 10 x 10 Klotski board with a 2 x 2 target and four 1 x 1 pieces: billions of states.
const KLOTSKI_10: &str = "target: A\ngoal: 8 8\nAA........\nAA........\nb.........\n\
..........\n....c.....\n..........\n.......d..\n..........\n..........\n.........e\n";

#[test]
fn klotski_json_with_an_empty_piece_is_an_error_not_a_panic() {
    let json = r#"{"type": "klotski", "version": 1, "rows": 2, "cols": 2,
        "pieces": {"A": [{"row": 0, "col": 0}], "b": []}, "target": "A",
        "goal": {"row": 1, "col": 1}}"#;
    let err = puzzles::parse(json, None).unwrap_err().to_string();
    assert!(err.contains("piece b has no cells"), "{err}");
}

#[test]
fn klotski_json_sizes_are_checked_before_anything_is_allocated() {
    for (rows, cols) in [
        ("2147483648", "4"),
        ("100000", "100000"),
        ("500000000", "1"),
        ("0", "4"),
    ] {
        let json = format!(
            r#"{{"type": "klotski", "version": 1, "rows": {rows}, "cols": {cols},
            "pieces": {{"A": [{{"row": 0, "col": 0}}]}}, "target": "A",
            "goal": {{"row": 0, "col": 0}}}}"#
        );
        let err = puzzles::parse(&json, None).unwrap_err().to_string();
        assert!(
            err.contains("from 1 x 1 to 10 x 10"),
            "{rows} x {cols}: {err}"
        );
    }
}

#[test]
fn json_shape_errors_name_the_field() {
    let json = r#"{"type": "sliding", "version": 1, "tiles": 5}"#;
    let err = puzzles::parse(json, None).unwrap_err().to_string();
    assert!(
        err.starts_with("field `tiles`: invalid type: integer `5`"),
        "{err}"
    );
    let json = r#"{"type": "klotski", "version": 1, "rows": 2, "cols": 2,
        "pieces": {"A": [{"row": "x", "col": 0}]}, "target": "A", "goal": {"row": 0, "col": 0}}"#;
    let err = puzzles::parse(json, None).unwrap_err().to_string();
    assert!(err.starts_with("field `pieces.A[0].row`"), "{err}");
}

#[test]
fn a_search_stops_at_its_memory_limit_with_a_message() {
    let puzzle = puzzles::parse(KLOTSKI_10, None).unwrap();
    let cancel = CancelToken::with_limits(Limits {
        max_memory: 16 * MIB,
        timeout: None,
        ..Limits::default()
    });
    for algorithm in [Algorithm::Bfs, Algorithm::Dfs, Algorithm::Dijkstra] {
        let report = puzzle
            .solve(algorithm, &mut puzzles::NoWatcher, &cancel)
            .unwrap();
        assert_eq!(report.outcome, Outcome::MemoryLimit, "{algorithm}");
        assert!(report.stats.peak_memory_bytes <= 16 * MIB, "{algorithm}");
        assert!(report.stats.expanded > 0, "{algorithm}: statistics so far");
        let message = report.message.unwrap();
        assert!(message.contains("memory limit of 16 MiB"), "{message}");
        assert!(message.contains("Try A* or IDA*"), "{message}");
    }
    let count = puzzle.count_states(&cancel);
    assert_eq!(count.stopped, Some(Outcome::MemoryLimit));
}

#[test]
fn a_search_stops_at_its_time_limit() {
    let puzzle = puzzles::parse(KLOTSKI_10, None).unwrap();
    let cancel = CancelToken::with_limits(Limits {
        max_memory: 1024 * MIB,
        timeout: Some(std::time::Duration::from_millis(100)),
        ..Limits::default()
    });
    let report = puzzle
        .solve(Algorithm::Bfs, &mut puzzles::NoWatcher, &cancel)
        .unwrap();
    assert_eq!(report.outcome, Outcome::Timeout);
    assert!(report.message.unwrap().contains("time limit of 0.1 s"));
}

#[test]
fn cli_memory_limit_exits_with_three() {
    let (_dir, path) = temp_file("klotski10.txt", KLOTSKI_10.as_bytes());
    let (code, stdout, stderr) = puzzlelab(&[
        "solve",
        &path,
        "-a",
        "bfs",
        "--max-memory",
        "256M",
        "--json",
    ]);
    assert_eq!(code, 3, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["outcome"], "memory_limit");
    assert!(v["message"].as_str().unwrap().contains("256 MiB"));
    assert!(stderr.contains(&path), "{stderr}");

    let (code, _, stderr) = puzzlelab(&["states", &path, "--max-memory", "8M"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("memory limit of 8 MiB"), "{stderr}");

    let (code, _, stderr) = puzzlelab(&["solve", &path, "--timeout", "0.2"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("time limit"), "{stderr}");
}

#[test]
fn the_default_algorithm_on_a_large_sliding_board_stops_at_the_limit() {
    // Greedy best-first on a random 8 x 8 board ran until memory ran out.
    let (_dir, path) = temp_file(
        "sliding8.txt",
        b"18 9 3 4 5 6 7 8\n1 2 11 12 13 14 15 16\n17 10 19 20 21 22 23 24\n\
25 26 27 28 29 30 31 32\n33 34 35 36 37 38 39 40\n41 42 43 44 45 46 47 48\n\
49 50 51 52 53 54 55 56\n57 58 59 60 61 62 0 63\n",
    );
    let (code, stdout, stderr) = puzzlelab(&["solve", &path, "--max-memory", "16M"]);
    assert!(code == 0 || code == 3, "{code}: {stderr}");
    if code == 3 {
        assert!(stdout.contains("memory limit"), "{stdout}");
    }
}

#[test]
fn memory_and_time_arguments_are_checked() {
    for args in [
        ["--max-memory", "12"],
        ["--max-memory", "4X"],
        ["--timeout", "0"],
        ["--timeout", "nan"],
    ] {
        let (code, _, stderr) = puzzlelab(&["solve", "puzzles/klondike.txt", args[0], args[1]]);
        assert_eq!(code, 2, "{args:?}: {stderr}");
    }
}

#[test]
fn refused_algorithms_say_the_real_reason_and_name_the_file() {
    let (code, _, stderr) = puzzlelab(&["solve", "puzzles/sliding-24-random.txt", "-a", "bfs"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("puzzles/sliding-24-random.txt"), "{stderr}");
    assert!(
        stderr.contains("too large for an exhaustive search"),
        "{stderr}"
    );
    let (code, _, stderr) = puzzlelab(&["solve", "puzzles/klondike.txt", "-a", "jps"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("needs a grid maze"), "{stderr}");
    assert!(!stderr.contains("too many paths"), "{stderr}");
}

#[test]
fn a_refused_algorithm_is_refused_before_pattern_databases_are_built() {
    // A 15-puzzle with a goal of its own: no cached databases; refusing takes no build.
    let (_dir, path) = temp_file(
        "custom.txt",
        b"1 2 3 4\n5 6 7 8\n9 10 11 12\n13 15 14 0\ngoal:\n0 1 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15\n",
    );
    let (code, _, stderr) = puzzlelab(&["solve", &path, "-a", "bibfs"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!stderr.contains("building pattern databases"), "{stderr}");
    assert!(stderr.contains("backward"), "{stderr}");
}

#[test]
fn options_for_another_type_name_the_file_and_its_type() {
    let (code, _, stderr) = puzzlelab(&["solve", "puzzles/maze-small.txt", "--metric", "piece"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("puzzles/maze-small.txt"), "{stderr}");
    assert!(stderr.contains("holds a maze"), "{stderr}");
    let (code, _, stderr) = puzzlelab(&["solve", "puzzles/klondike.txt", "--heuristic", "pdb"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("puzzles/klondike.txt"), "{stderr}");
    assert!(stderr.contains("holds a klondike"), "{stderr}");
}

#[test]
fn compare_and_solve_agree_on_an_unsolvable_board() {
    let (_dir, path) = temp_file("odd.txt", b"1 2 3\n4 5 6\n8 7 0\n");
    let (solve_code, _, _) = puzzlelab(&["solve", &path]);
    let (compare_code, _, stderr) = puzzlelab(&["compare", &path]);
    assert_eq!(solve_code, 1);
    assert_eq!(compare_code, 1, "{stderr}");
    assert!(stderr.contains(&path), "{stderr}");
}

#[test]
fn devices_and_fifos_are_refused_not_read_forever() {
    let (code, _, stderr) = puzzlelab(&["solve", "/dev/zero"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("/dev/zero"), "{stderr}");
    assert!(stderr.contains("larger than the limit"), "{stderr}");

    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let fifo = fifo.display().to_string();
        let (code, _, stderr) = puzzlelab(&["solve", &fifo]);
        assert_eq!(code, 2);
        assert!(stderr.contains("not a regular file"), "{stderr}");
    }
}

#[test]
fn scenario_files_are_capped_too() {
    let big = vec![b'0'; 33 * 1024 * 1024];
    let (_dir, path) = temp_file("big.scen", &big);
    let (code, _, stderr) = puzzlelab(&["scenario", &path]);
    assert_eq!(code, 2);
    assert!(stderr.contains("larger than the limit"), "{stderr}");
}

#[test]
fn a_scenario_naming_a_file_that_is_not_a_map_does_not_echo_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("secret.map"), "password=hunter2\n").unwrap();
    let scen = dir.path().join("a.scen");
    std::fs::write(
        &scen,
        "version 1.0\n0\tsecret.map\t2\t2\t0\t0\t1\t1\t1.4142\n",
    )
    .unwrap();
    let (code, _, stderr) = puzzlelab(&["scenario", &scen.display().to_string()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a Moving AI map"), "{stderr}");
    assert!(!stderr.contains("hunter2"), "{stderr}");
}

#[test]
fn unknown_subcommands_are_errors_not_the_gui() {
    let (code, _, stderr) = puzzlelab(&["slove", "puzzles/klondike.txt"]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = puzzlelab(&["slove"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown subcommand `slove`"), "{stderr}");
    assert!(stderr.contains("solve, states"), "{stderr}");
}

#[test]
fn numeric_arguments_outside_their_range_are_errors() {
    for args in [
        &["percolation", "--steps", "18446744073709551615"][..],
        &["percolation", "--steps", "0"],
        &["percolation", "--side", "100000"],
        &["percolation", "--trials", "0"],
        &["bench", "sliding", "--count", "0"],
        &["bench", "sliding", "--side", "9"],
        &["generate", "--rows", "5000"],
    ] {
        let (code, _, stderr) = puzzlelab(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("must be from"), "{args:?}: {stderr}");
    }
}

/// Runs `args`, reads one line of standard output, closes it, and returns the exit code and
/// standard error.
fn run_into_closed_pipe(args: &[&str]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
        .env(
            puzzlelab::puzzles::sliding::pattern_db::CACHE_DIR_VAR,
            crate::common::temp_cache(),
        )
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // 10,001 lines: far more than a pipe holds, so the writes meet the closed pipe.
    let (code, stderr) = run_into_closed_pipe(&[
        "percolation",
        "--side",
        "2",
        "--trials",
        "1",
        "--steps",
        "10000",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let (code, stderr) = run_into_closed_pipe(&["generate", "--rows", "300", "--cols", "300"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn a_full_disk_is_reported_with_exit_two() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let (_dir, odd) = temp_file("odd.txt", b"1 2 3\n4 5 6\n8 7 0\n");
    for args in [
        &["solve", "puzzles/klondike.txt"][..],
        &["solve", &odd],
        &["states", "puzzles/klondike.txt"],
        &["compare", "puzzles/maze-small.txt"],
        &["generate"],
        &[
            "percolation",
            "--side",
            "4",
            "--trials",
            "2",
            "--steps",
            "4",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
            .env(
                puzzlelab::puzzles::sliding::pattern_db::CACHE_DIR_VAR,
                crate::common::temp_cache(),
            )
            .args(args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write the output"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let _ = std::io::stdout().flush();
}

#[test]
fn numeric_arguments_inside_their_range_are_accepted() {
    // A ranged parser whose literal bounds had another integer type than its field panicked
    // on every valid value (`bench --count 1`).
    for args in [
        &[
            "bench",
            "sliding",
            "--count",
            "1",
            "--side",
            "3",
            "--heuristic",
            "manhattan",
        ][..],
        &["generate", "--rows", "2", "--cols", "3"],
        &[
            "percolation",
            "--side",
            "4",
            "--trials",
            "2",
            "--steps",
            "3",
        ],
    ] {
        let (code, _, stderr) = puzzlelab(args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
