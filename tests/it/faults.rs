//! The command line's faults of issue 44 (items 19 to 22): JSON and CSV printed whatever the
//! outcome, `bench --goal` with random boards, the pattern-database cache's "is it cached"
//! answered from the file's header and size, a FIFO in the cache refused, the forecasts bounded
//! by the time limit, and the parity checked before any table is built.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use puzzlelab::puzzles::sliding::Sliding;
use puzzlelab::puzzles::sliding::pattern_db::{self, PatternDb, PdbSet};
use puzzlelab::runs::results;
use puzzlelab::search::{self, Algorithm, CancelToken};

use super::common::{puzzlelab, puzzlelab_with_cache};

/// A file `name` holding `text` in a new temporary folder.
fn temp_file(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let path = path.display().to_string();
    (dir, path)
}

/// Makes a FIFO at `path`; false where `mkfifo` is missing.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// `compare --json` and `--csv` on a puzzle known to have no solution print a row for each
/// algorithm with the outcome `unsolvable` (as `solve --json` answers), exit code 1.
#[test]
fn compare_prints_its_rows_on_an_unsolvable_puzzle() {
    let odd = temp_file("odd-8.txt", "1 2 3\n4 5 6\n8 7 0\n");
    let blocked = temp_file(
        "blocked-top.txt",
        "percolation: top-bottom\n###\n...\n...\n",
    );
    for (_dir, path) in [&odd, &blocked] {
        let (code, stdout, stderr) = puzzlelab(&["compare", path, "--json"]);
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("no solution"), "{stderr}");
        let rows: Vec<results::ResultRow> = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{path}: no JSON ({e}): {stdout:?}"));
        assert!(!rows.is_empty(), "{path}");
        for row in &rows {
            assert_eq!(row.outcome, "unsolvable", "{path}: {row:?}");
            assert!(!row.solved);
            assert_eq!(row.expanded, 0);
        }
        let (code, stdout, _) = puzzlelab(&["compare", path, "--csv", "-a", "bfs,dfs"]);
        assert_eq!(code, 1);
        let rows = results::from_csv(&stdout).unwrap();
        let algorithms: Vec<&str> = rows.iter().map(|r| r.algorithm.as_str()).collect();
        assert_eq!(algorithms, ["bfs", "dfs"], "{path}: {stdout:?}");
        assert!(rows.iter().all(|r| r.outcome == "unsolvable"));
        // The reason is said once, not once an algorithm.
        let (_, _, stderr) = puzzlelab(&["compare", path, "-a", "bfs,dfs"]);
        assert_eq!(stderr.matches("no solution").count(), 1, "{stderr}");
    }
    // `solve --json` answers the same.
    let (code, stdout, _) = puzzlelab(&["solve", &odd.1, "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["outcome"], "unsolvable");
}

/// `states --json` on an explorable type that a limit stops prints its JSON: the outcome, not
/// complete, the states counted so far (exit code 3).
#[test]
fn states_prints_json_when_a_limit_stops_it() {
    let (code, stdout, stderr) = puzzlelab(&[
        "states",
        "puzzles/sliding-8-hardest-a.txt",
        "--json",
        "--max-memory",
        "1M",
    ]);
    assert_eq!(code, 3, "{stderr}");
    let v: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("no JSON ({e}): {stdout:?}"));
    assert_eq!(v["outcome"], "memory_limit", "{v}");
    assert_eq!(v["complete"], false);
    assert_eq!(v["type"], "sliding");
    assert!(v["states"].as_u64().unwrap() > 0, "{v}");
    let message = v["message"].as_str().unwrap();
    assert!(message.contains("memory"), "{v}");
    // Its figures add up: reached = expanded + frontier (the frontier was 0).
    let figure = |after: &str| -> u64 {
        let at = message
            .find(after)
            .unwrap_or_else(|| panic!("{after}: {message}"));
        let words: Vec<&str> = message[..at].split_whitespace().collect();
        let word = words.last().unwrap().trim_start_matches('(');
        word.parse().unwrap_or_else(|_| panic!("{word}: {message}"))
    };
    let (expanded, reached, frontier) = (
        figure(" states expanded"),
        figure(" reached"),
        figure(" on the frontier"),
    );
    assert!(frontier > 0, "{message}");
    assert_eq!(expanded + frontier, reached, "{message}");
}

/// `bench --json` stopped by a limit prints the rows solved before it, and how it stopped
/// (exit code 3); the text says the total is the one before the limit.
#[test]
fn bench_prints_the_rows_done_when_a_limit_stops_it() {
    // An easy board (solved in microseconds), then Korf's first (for minutes with the
    // Manhattan distance).
    let (_dir, path) = temp_file(
        "batch.txt",
        "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n\
         14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 # Korf's first\n",
    );
    // Korf's goal, the blank first.
    let goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    let args = [
        "bench",
        "sliding",
        "--instances",
        &path,
        "--goal",
        goal,
        "--heuristic",
        "manhattan",
        "--timeout",
        "0.5",
        "--threads",
        "1",
    ];
    let (code, stdout, stderr) = puzzlelab(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 3, "{stderr}");
    let v: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("no JSON ({e}): {stdout:?}"));
    assert_eq!(v["outcome"], "timeout", "{v}");
    assert_eq!(v["complete"], false);
    assert!(v["message"].as_str().unwrap().contains("instance 1"), "{v}");
    let rows = v["instances"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "the easy board's row is kept: {v}");
    assert_eq!(rows[0]["length"], 1.0);
    let (code, stdout, _) = puzzlelab(&args);
    assert_eq!(code, 3);
    assert!(
        stdout.contains("total before the limit: 1 instances"),
        "{stdout}"
    );
    // Stopped at the first board: no rows, and totals of 0 (not "-0.0").
    let (_dir, korf) = temp_file("korf.txt", "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n");
    let mut first = args;
    first[3] = korf.as_str();
    let (code, stdout, _) = puzzlelab(&[&first[..], &["--json"]].concat());
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["instances"].as_array().map(Vec::len), Some(0), "{v}");
    assert!(!stdout.contains("-0.0"), "{stdout}");
}

/// `bench sliding --goal` with random boards (`--count`) solves towards that goal (each row's
/// length is the board's least number of moves to it), the side following the goal; a
/// malformed goal, or one of another side than `--side`, is an error.
#[test]
fn bench_honours_the_goal_of_random_boards() {
    let goal = "0 1 2 3 4 5 6 7 8";
    let (code, stdout, stderr) = puzzlelab(&[
        "bench",
        "sliding",
        "--goal",
        goal,
        "--count",
        "3",
        "--heuristic",
        "manhattan",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let rows = v["instances"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        let tiles: Vec<String> = row["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let r: Vec<String> = r
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.to_string())
                    .collect();
                r.join(" ")
            })
            .collect();
        assert_eq!(tiles.len(), 3, "a 3 x 3 board, the goal's side: {row}");
        let text = format!("{}\ngoal:\n0 1 2\n3 4 5\n6 7 8\n", tiles.join("\n"));
        let board = Sliding::from_text(&text).unwrap();
        let best = search::solve(&board, Algorithm::AStar).unwrap();
        assert_eq!(row["length"].as_f64(), Some(best.cost), "{text}");
    }
    for (args, says) in [
        (&["--goal", "not a goal", "--count", "1"][..], "--goal"),
        (
            &["--goal", "0 1 2 3", "--count", "1", "--side", "3"][..],
            "--side",
        ),
        (&["--goal", "0 1 1 3", "--count", "1"][..], "--goal"),
    ] {
        let (code, _, stderr) =
            puzzlelab(&[&["bench", "sliding", "--heuristic", "manhattan"][..], args].concat());
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// The forecasts of `bench` stop at the time limit: a million probes an iteration with a
/// 1-second limit end within seconds, the iterations not forecast without one.
#[test]
fn the_time_limit_bounds_the_forecasts() {
    let cache = tempfile::tempdir().unwrap();
    // The hardest 8-puzzle (31 moves, a dozen iterations).
    let (_dir, batch) = temp_file("batch.txt", "8 6 7 2 5 4 3 0 1\n");
    let started = Instant::now();
    let (code, stdout, stderr) = puzzlelab_with_cache(
        cache.path(),
        &[
            "bench",
            "sliding",
            "--instances",
            &batch,
            "--heuristic",
            "pdb",
            "--forecast-probes",
            "1000000",
            "--timeout",
            "1",
            "--json",
        ],
    );
    let took = started.elapsed();
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("forecasts stopped at the time limit"),
        "{stderr}"
    );
    assert!(
        took < Duration::from_secs(60),
        "the forecasts ran on for {took:?}"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let iterations = v["instances"][0]["iterations"].as_array().unwrap();
    assert!(
        iterations.iter().any(|it| it["predicted"].is_null()),
        "{iterations:?}"
    );
}

/// "Is it cached" reads the file's first line, header and size: a sound file is cached; an
/// empty, garbage, truncated or padded one is not, nor a FIFO (answered without blocking), and
/// `load_cached` reads none of them.
#[test]
fn is_cached_answers_from_the_header_and_size() {
    super::common::temp_cache();
    // An odd goal, so that no other test's file is touched.
    let goal: Vec<u8> = vec![2, 1, 3, 4, 5, 6, 7, 8, 0];
    let path = PatternDb::cache_path(3, 3, &goal, PdbSet::Quick).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(!PatternDb::is_cached(3, 3, &goal, PdbSet::Quick));
    let db = PatternDb::load_or_build(3, 3, &goal, &CancelToken::new(), &mut |_| {}).unwrap();
    assert!(path.is_file());
    assert!(PatternDb::is_cached(3, 3, &goal, PdbSet::Quick));
    assert!(PatternDb::load_cached(3, 3, &goal, PdbSet::Quick).is_some());
    let sound = std::fs::read(&path).unwrap();
    let mut padded = sound.clone();
    padded.push(0);
    for (what, bytes) in [
        ("empty", Vec::new()),
        ("garbage", b"garbage".to_vec()),
        ("truncated", sound[..sound.len() - 1].to_vec()),
        ("padded", padded),
    ] {
        std::fs::write(&path, &bytes).unwrap();
        assert!(!PatternDb::is_cached(3, 3, &goal, PdbSet::Quick), "{what}");
        assert!(
            PatternDb::load_cached(3, 3, &goal, PdbSet::Quick).is_none(),
            "{what}"
        );
    }
    std::fs::remove_file(&path).unwrap();
    if mkfifo(&path) {
        assert!(!PatternDb::is_cached(3, 3, &goal, PdbSet::Quick));
        assert!(PatternDb::load_cached(3, 3, &goal, PdbSet::Quick).is_none());
        // Building refuses to read or replace it, and says why.
        let refused = PatternDb::load_or_build(3, 3, &goal, &CancelToken::new(), &mut |_| {});
        let message = refused.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains("not a regular file"), "{message}");
        std::fs::remove_file(&path).unwrap();
    }
    db.write(&path).unwrap();
    assert!(PatternDb::is_cached(3, 3, &goal, PdbSet::Quick));
    std::fs::remove_file(&path).unwrap();
}

/// The 7-8 tables' "is it cached" on damaged files (never built here: they take GBs).
#[test]
fn a_damaged_large_table_file_is_not_cached() {
    super::common::temp_cache();
    let goal: Vec<u8> = vec![2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0];
    let path = PatternDb::cache_path(4, 4, &goal, PdbSet::Large).unwrap();
    for bytes in [
        &b""[..],
        &b"garbage"[..],
        &b"PLPDB03\n\0\0\0\0\0\0\0\0\x04\x04"[..],
    ] {
        std::fs::write(&path, bytes).unwrap();
        assert!(
            !PatternDb::is_cached(4, 4, &goal, PdbSet::Large),
            "{bytes:?}"
        );
    }
    std::fs::remove_file(&path).unwrap();
}

/// A damaged (even empty) 6-6-6-6 cache file makes the default solve of a 24-puzzle answer
/// at once as it does without the file (greedy with linear conflict), not rebuild those tables
/// (gigabytes: here past a memory limit of 512 MiB, exit 3).
#[test]
fn a_damaged_six_table_file_falls_back_to_the_default() {
    let cache = tempfile::tempdir().unwrap();
    let goal: Vec<String> = (1..25).chain([0]).map(|t: u32| t.to_string()).collect();
    let path = cache
        .path()
        .join(format!("pdb6666-5x5-{}.bin", goal.join("_")));
    for bytes in [&b""[..], &b"garbage"[..]] {
        std::fs::write(&path, bytes).unwrap();
        let (code, stdout, stderr) = puzzlelab_with_cache(
            cache.path(),
            &[
                "solve",
                "puzzles/sliding-24-random.txt",
                "--json",
                "--max-memory",
                "512M",
                "--timeout",
                "120",
            ],
        );
        assert_eq!(code, 0, "{bytes:?}: {stderr}");
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(v["solved"], true);
        assert!(!stderr.contains("building pattern databases"), "{stderr}");
    }
    // A FIFO there blocks nothing either.
    std::fs::remove_file(&path).unwrap();
    if mkfifo(&path) {
        let (code, _, stderr) = puzzlelab_with_cache(
            cache.path(),
            &[
                "solve",
                "puzzles/sliding-24-random.txt",
                "--json",
                "--timeout",
                "120",
            ],
        );
        assert_eq!(code, 0, "{stderr}");
    }
}

/// `solve --heuristic pdb` with a FIFO in place of the table's cache file is refused with a
/// message at once (exit 2), instead of blocking on it for ever.
#[test]
fn a_fifo_in_the_cache_is_refused_not_opened() {
    let cache = tempfile::tempdir().unwrap();
    let fifo = cache.path().join("pdb-3x3-1_2_3_4_5_6_7_8_0.bin");
    if !mkfifo(&fifo) {
        return;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
        .env(pattern_db::CACHE_DIR_VAR, cache.path())
        .args([
            "solve",
            "puzzles/sliding-8-hardest-a.txt",
            "--heuristic",
            "pdb",
            "--json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("solve blocked on the FIFO");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
    assert!(fifo.exists(), "the FIFO is left where it was");
}

/// An unsolvable 15-puzzle is answered by its parity before any table is built: with a
/// fresh cache, nothing is built or written.
#[test]
fn an_unsolvable_fifteen_puzzle_builds_no_tables() {
    let cache = tempfile::tempdir().unwrap();
    let (_dir, path) = temp_file("odd-15.txt", "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 15 14 0\n");
    let (code, stdout, stderr) = puzzlelab_with_cache(cache.path(), &["solve", &path, "--json"]);
    assert_eq!(code, 1, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["outcome"], "unsolvable");
    assert!(!stderr.contains("building pattern databases"), "{stderr}");
    let written: Vec<_> = std::fs::read_dir(cache.path())
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(written.is_empty(), "tables written: {written:?}");
}
