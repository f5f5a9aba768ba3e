//! `--shard K/N` and `merge`: the shards of a `scenario` and of a `bench sliding` batch,
//! merged, print the unsharded run's JSON (its times aside), run by hand and by GNU parallel.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common::puzzlelab;
use crate::octile::{Rng, dijkstra, random_grid};

/// Writes a random 24 x 40 map and a scenario of `n` problems on it (the stated lengths by the
/// test's Dijkstra; an unreachable goal, if any, stated as 1, a mismatch); returns their
/// paths.
fn write_suite(dir: &Path, n: usize) -> (PathBuf, PathBuf) {
    let mut rng = Rng(7);
    let (rows, cols) = (24, 40);
    let free = random_grid(&mut rng, rows, cols, 25);
    let mut map = format!("type octile\nheight {rows}\nwidth {cols}\nmap\n");
    for row in &free {
        map.extend(row.iter().map(|&f| if f { '.' } else { '@' }));
        map.push('\n');
    }
    let squares: Vec<(usize, usize)> = (0..rows * cols)
        .map(|i| (i / cols, i % cols))
        .filter(|&(r, c)| free[r][c])
        .collect();
    let mut scen = String::from("version 1\n");
    for i in 0..n {
        let s = squares[rng.below(squares.len())];
        let g = squares[rng.below(squares.len())];
        let d = dijkstra(&free, false, s)[g.0][g.1];
        let stated = if d.is_finite() { d } else { 1.0 };
        scen += &format!(
            "{}\tsuite.map\t{cols}\t{rows}\t{}\t{}\t{}\t{}\t{stated:.8}\n",
            i / 10,
            s.1,
            s.0,
            g.1,
            g.0
        );
    }
    let (map_path, scen_path) = (dir.join("suite.map"), dir.join("suite.map.scen"));
    std::fs::write(&map_path, map).unwrap();
    std::fs::write(&scen_path, scen).unwrap();
    (map_path, scen_path)
}

/// The JSON without its times (which differ from run to run).
fn timeless(text: &str) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for key in [
                    "elapsed_ms",
                    "ms",
                    "load_ms",
                    "nodes_per_second",
                    "precompute_ms",
                ] {
                    map.remove(key);
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(list) => list.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    strip(&mut v);
    v
}

/// Runs `args` with `--shard k/n` for each k, writes the outputs to `dir`, merges them (given
/// in reverse order) and returns merge's exit code and output.
fn sharded(dir: &Path, args: &[&str], n: usize) -> (i32, String) {
    let mut files = Vec::new();
    for k in 1..=n {
        let shard = format!("{k}/{n}");
        let mut with = args.to_vec();
        with.extend(["--shard", &shard]);
        let (_, out, err) = puzzlelab(&with);
        let Some(Value::Object(part)) = serde_json::from_str(&out).ok() else {
            panic!("shard {shard}: {err}");
        };
        assert_eq!(part["shard"]["index"], k, "{out}");
        let file = dir.join(format!("part-{k}-of-{n}.json"));
        std::fs::write(&file, out).unwrap();
        files.push(file.display().to_string());
    }
    files.reverse();
    let mut merge = vec!["merge"];
    merge.extend(files.iter().map(String::as_str));
    let (code, out, err) = puzzlelab(&merge);
    assert!(code == 0 || code == 1, "merge: {code} {err}");
    (code, out)
}

#[test]
fn scenario_shards_merge_into_the_unsharded_json() {
    let dir = tempfile::tempdir().unwrap();
    let (map, scen) = write_suite(dir.path(), 23);
    let (map, scen) = (map.display().to_string(), scen.display().to_string());
    for algorithm in ["astar", "jps", "jps+", "dijkstra"] {
        let args = ["scenario", &scen, "--map", &map, "-a", algorithm, "--json"];
        let (code, whole, err) = puzzlelab(&args);
        assert!(code <= 1, "{err}");
        let whole_json = timeless(&whole);
        assert_eq!(whole_json["total"], 23);
        assert!(whole_json.get("shard").is_none());
        for n in [2, 3] {
            let (merged_code, merged) = sharded(dir.path(), &args, n);
            // JPS+'s precomputation time is kept (every shard made the table once).
            let raw: Value = serde_json::from_str(&merged).unwrap();
            assert_eq!(
                raw.get("precompute_ms").is_some(),
                algorithm == "jps+",
                "{algorithm}"
            );
            assert_eq!(timeless(&merged), whole_json, "{algorithm}, {n} shards");
            assert_eq!(merged_code, code);
        }
    }
}

#[test]
fn bench_sliding_shards_merge_into_the_unsharded_json() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "bench",
        "sliding",
        "--side",
        "3",
        "--count",
        "7",
        "--heuristic",
        "manhattan",
        "--threads",
        "1",
        "--json",
    ];
    let (code, whole, err) = puzzlelab(&args);
    assert_eq!(code, 0, "{err}");
    for n in [2, 3] {
        let (merged_code, merged) = sharded(dir.path(), &args, n);
        assert_eq!(timeless(&merged), timeless(&whole), "{n} shards");
        assert_eq!(merged_code, 0);
    }
}

#[test]
fn bad_shards_and_incomplete_merges_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (map, scen) = write_suite(dir.path(), 5);
    let (map, scen) = (map.display().to_string(), scen.display().to_string());
    for bad in ["0/3", "4/3", "1/0", "x", "1/2/3", "2/1"] {
        let (code, _, err) = puzzlelab(&["scenario", &scen, "--map", &map, "--shard", bad]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("--shard"), "{bad}: {err}");
    }
    let (code, _, err) = puzzlelab(&["bench", "sliding", "--side", "3", "--shard", "5/4"]);
    assert_eq!(code, 2, "{err}");
    // Shard 2 of 3 missing, shard 1 twice, something else than a shard's output.
    let part = |k: usize| {
        let shard = format!("{k}/3");
        let args = [
            "scenario", &scen, "--map", &map, "--json", "--shard", &shard,
        ];
        let (_, out, _) = puzzlelab(&args);
        let file = dir.path().join(format!("p{k}.json"));
        std::fs::write(&file, out).unwrap();
        file.display().to_string()
    };
    let (p1, p3) = (part(1), part(3));
    let (code, out, err) = puzzlelab(&["merge", &p1, &p3]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("shard 2/3 is missing"), "{err}");
    let (code, _, err) = puzzlelab(&["merge", &p1, &p1, &p3]);
    assert_eq!(code, 2);
    assert!(err.contains("repeats shard 1/3"), "{err}");
    let (code, _, err) = puzzlelab(&["merge", &map]);
    assert_eq!(code, 2);
    assert!(err.contains(&map), "{err}");
}

/// A part whose rows are another part's, repeated or reversed is refused (exit 2, naming the
/// file); a part that lost a row and says `complete: false` keeps saying so merged (exit 3).
/// The fault campaign's tampered parts (`../shared/repro/hostile/README.md`, R10).
#[test]
fn merge_refuses_rows_not_the_parts_own_and_keeps_incomplete() {
    let dir = tempfile::tempdir().unwrap();
    let (map, scen) = write_suite(dir.path(), 12);
    let (map, scen) = (map.display().to_string(), scen.display().to_string());
    let parts: Vec<Value> = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            let args = [
                "scenario", &scen, "--map", &map, "--json", "--shard", &shard,
            ];
            serde_json::from_str(&puzzlelab(&args).1).unwrap()
        })
        .collect();
    let write = |name: &str, v: &Value| {
        let file = dir.path().join(name);
        std::fs::write(&file, v.to_string()).unwrap();
        file.display().to_string()
    };
    let (p1, p3) = (write("p1.json", &parts[0]), write("p3.json", &parts[2]));
    let rows = |v: &Value| v["problems"].as_array().unwrap().clone();
    let with_rows = |rows: Vec<Value>| {
        let mut v = parts[1].clone();
        v["problems"] = Value::Array(rows);
        v
    };
    let first = rows(&parts[1])[0].clone();
    let mut reversed = rows(&parts[1]);
    reversed.reverse();
    for (name, tampered) in [
        ("copied", with_rows(rows(&parts[2]))),
        ("repeated", with_rows(vec![first; rows(&parts[1]).len()])),
        ("reversed", with_rows(reversed)),
    ] {
        let p2 = write(&format!("{name}.json"), &tampered);
        let (code, out, err) = puzzlelab(&["merge", &p1, &p2, &p3]);
        assert_eq!((code, out.as_str()), (2, ""), "{name}: {err}");
        assert!(err.contains(&p2) || err.contains(&p3), "{name}: {err}");
        assert!(err.contains("own problems"), "{name}: {err}");
    }
    let mut short = with_rows(rows(&parts[1])[1..].to_vec());
    short["complete"] = false.into();
    let p2 = write("short.json", &short);
    let (code, out, err) = puzzlelab(&["merge", &p1, &p2, &p3]);
    assert_eq!(code, 3, "{err}");
    let merged: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(merged["complete"], false, "{out}");
    assert_eq!(merged["total"], 11);
}

/// GNU parallel runs the shards, as docs/command-line.md shows; skipped (saying so) only
/// where `parallel` is missing outside CI (`.ci/run`, which sets `PUZZLELAB_CI`, installs it).
#[test]
fn gnu_parallel_runs_the_shards() {
    if Command::new("parallel").arg("--version").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none() && std::env::var_os("PUZZLELAB_CI").is_none(),
            "GNU parallel is missing in CI: .ci/run installs the Debian package `parallel`"
        );
        eprintln!("skipped: GNU parallel is not installed (Debian package `parallel`)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (map, scen) = write_suite(dir.path(), 17);
    let bin = env!("CARGO_BIN_EXE_puzzlelab");
    let job = format!(
        "{bin} scenario {} --map {} --json --shard {{}}/4 > {}/part-{{}}.json",
        scen.display(),
        map.display(),
        dir.path().display()
    );
    let status = Command::new("parallel")
        .args([
            "--will-cite",
            "--jobs",
            "2",
            &job,
            ":::",
            "1",
            "2",
            "3",
            "4",
        ])
        .status()
        .expect("parallel runs");
    // Exit 1 from a job is a mismatch (the suite states one length wrongly): parallel
    // reports how many jobs failed.
    assert!(status.code().is_some_and(|c| c <= 4), "{status}");
    let parts: Vec<String> = (1..=4)
        .map(|k| {
            dir.path()
                .join(format!("part-{k}.json"))
                .display()
                .to_string()
        })
        .collect();
    let mut merge = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    let (_, merged, err) = puzzlelab(&merge);
    let (scen, map) = (scen.display().to_string(), map.display().to_string());
    let (_, whole, _) = puzzlelab(&["scenario", &scen, "--map", &map, "--json"]);
    assert_eq!(timeless(&merged), timeless(&whole), "{err}");
}
