//! Seeded fuzzing of every parser and of `solve`: random mutations of every shipped puzzle, of
//! a JSON example of every type and of Moving AI files (bit flips, inserted and deleted lines,
//! huge and negative numbers, wrong JSON types, missing fields, truncation, invalid UTF-8) go
//! through the file reader and the parsers and, when they parse, through `solve`, the state
//! count and the optimal-move oracle with a small memory and time budget. Nothing may panic or abort, and every error
//! names the file.

use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use puzzlelab::puzzles::maze::movingai;
use puzzlelab::puzzles::{self, NoWatcher};
use puzzlelab::search::limits::MIB;
use puzzlelab::search::{CancelToken, Limits};

const MAP: &str = "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@..\n..T..\n.....\n";
const SCEN: &str =
    "version 1\n0\tm.map\t5\t4\t0\t0\t4\t3\t5.4142\n1\tm.map\t5\t4\t4\t0\t0\t3\t5.4\n";

/// Lines and values that broke readers elsewhere: huge, negative, empty, odd.
const NASTY: &[&str] = &[
    "99999999999999999999",
    "-1",
    "4294967296",
    "2147483648",
    "1e308",
    "NaN",
    "",
    "{}",
    "[]",
    "null",
    "target: Z",
    "goal: 99 99",
    "goal: -1 0",
    "distinct: A",
    "metric: piece",
    "moves: 8",
    "percolation: top-bottom",
    "start: 0 0 L",
    "exit: 99 99",
    "version 1.0",
    "S",
    "GGGGGGGGGGGGGGGG",
    "AAAA",
    "0 0 0",
    "x",
    "_",
    "R: RL",
];

/// Every seed text: the shipped puzzles, each type's JSON, a map and a scenario.
fn seeds() -> Vec<String> {
    let mut seeds: Vec<String> = puzzles::shipped().map(|(_, s)| s.text.to_owned()).collect();
    for t in puzzles::TYPES {
        let puzzle = t.default_puzzle();
        seeds.push(puzzle.to_json().to_string());
        seeds.push(serde_json::to_string_pretty(&puzzle.to_json()).unwrap());
    }
    seeds.push(MAP.to_owned());
    seeds.push(SCEN.to_owned());
    seeds
}

/// One mutation of a file's bytes.
#[derive(Clone, Debug)]
enum Mutation {
    FlipBit(usize, u8),
    InsertLine(usize, usize),
    DeleteLine(usize),
    DuplicateLine(usize),
    Truncate(usize),
    ReplaceNumber(usize, usize),
    InvalidUtf8(usize),
    /// Sets a random JSON value to `NASTY[n]`, or removes it when `n` is `None`.
    Json(usize, Option<usize>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let pick = 0..usize::MAX;
    prop_oneof![
        (pick.clone(), 0..8u8).prop_map(|(at, bit)| Mutation::FlipBit(at, bit)),
        (pick.clone(), 0..NASTY.len()).prop_map(|(at, n)| Mutation::InsertLine(at, n)),
        pick.clone().prop_map(Mutation::DeleteLine),
        pick.clone().prop_map(Mutation::DuplicateLine),
        pick.clone().prop_map(Mutation::Truncate),
        (pick.clone(), 0..NASTY.len()).prop_map(|(at, n)| Mutation::ReplaceNumber(at, n)),
        pick.clone().prop_map(Mutation::InvalidUtf8),
        (pick, proptest::option::of(0..NASTY.len())).prop_map(|(at, n)| Mutation::Json(at, n)),
    ]
}

fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

fn join(lines: &[Vec<u8>]) -> Vec<u8> {
    lines.join(&b'\n')
}

/// Every value of a JSON document, depth first, as a pointer (`/a/0/b`).
fn pointers(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(v, p, out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(v, p, out);
            }
        }
        _ => {}
    }
}

fn mutate(bytes: &mut Vec<u8>, m: &Mutation) {
    match *m {
        Mutation::FlipBit(at, bit) => {
            if !bytes.is_empty() {
                let i = at % bytes.len();
                bytes[i] ^= 1 << bit;
            }
        }
        Mutation::InsertLine(at, n) => {
            let mut l = lines(bytes);
            let i = at % (l.len() + 1);
            l.insert(i, NASTY[n].as_bytes().to_vec());
            *bytes = join(&l);
        }
        Mutation::DeleteLine(at) => {
            let mut l = lines(bytes);
            if !l.is_empty() {
                l.remove(at % l.len());
            }
            *bytes = join(&l);
        }
        Mutation::DuplicateLine(at) => {
            let mut l = lines(bytes);
            if !l.is_empty() {
                let i = at % l.len();
                let copy = l[i].clone();
                l.insert(i, copy);
            }
            *bytes = join(&l);
        }
        Mutation::Truncate(at) => bytes.truncate(at % (bytes.len() + 1)),
        Mutation::ReplaceNumber(at, n) => {
            // Replace the digits run found at or after a random position.
            if bytes.is_empty() {
                return;
            }
            let start = at % bytes.len();
            if let Some(s) = (start..bytes.len()).find(|&i| bytes[i].is_ascii_digit()) {
                let e = (s..bytes.len())
                    .find(|&i| !bytes[i].is_ascii_digit())
                    .unwrap_or(bytes.len());
                bytes.splice(s..e, NASTY[n].bytes());
            }
        }
        Mutation::InvalidUtf8(at) => {
            let i = at % (bytes.len() + 1);
            bytes.splice(i..i, [0xff, 0xfe]);
        }
        Mutation::Json(at, nasty) => {
            let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(bytes) else {
                return;
            };
            let mut all = Vec::new();
            pointers(&value, String::new(), &mut all);
            if all.is_empty() {
                return;
            }
            let pointer = &all[at % all.len()];
            if let Some(n) = nasty {
                let new = serde_json::from_str(NASTY[n]).unwrap_or(serde_json::json!(NASTY[n]));
                if let Some(slot) = value.pointer_mut(pointer) {
                    *slot = new;
                }
            } else if let Some((parent, key)) = pointer.rsplit_once('/') {
                match value.pointer_mut(parent) {
                    Some(serde_json::Value::Object(map)) => {
                        map.remove(key);
                    }
                    Some(serde_json::Value::Array(items)) => {
                        if let Ok(i) = key.parse::<usize>()
                            && i < items.len()
                        {
                            items.remove(i);
                        }
                    }
                    _ => {}
                }
            }
            *bytes = value.to_string().into_bytes();
        }
    }
}

/// Reads, parses and (when it parses) solves the mutated file; panics (failing the test) on
/// an error that does not name the file.
fn exercise(dir: &std::path::Path, bytes: &[u8], algorithm_pick: usize) {
    let path = dir.join("fuzzed-input.txt");
    std::fs::write(&path, bytes).unwrap();
    if let Ok(text) = std::str::from_utf8(bytes) {
        let _ = movingai::parse_map(text);
        let _ = movingai::parse_scenario(text);
    }
    let puzzle = match puzzles::load_file(&path, None) {
        Ok(p) => p,
        Err(e) => {
            let message = e.to_string();
            assert!(message.contains("fuzzed-input.txt"), "{message}");
            return;
        }
    };
    let cancel = CancelToken::with_limits(Limits {
        max_memory: 32 * MIB,
        timeout: Some(Duration::from_millis(150)),
        ..Limits::default()
    });
    let _ = puzzle.solve(puzzle.default_algorithm(), &mut NoWatcher, &cancel);
    let algorithms = puzzle.algorithms();
    if !algorithms.is_empty() {
        let algorithm = algorithms[algorithm_pick % algorithms.len()];
        let _ = puzzle.solve(algorithm, &mut NoWatcher, &cancel);
    }
    let _ = puzzle.count_states(&cancel);
    // The oracle: the explored space (or the searching oracle), an assessment of the
    // position, the profile and the graph's exports.
    if let Ok(oracle) = puzzle.oracle(&cancel, &mut |_| {}) {
        let _ = oracle.assess(puzzle.as_ref(), &cancel);
        if let Some(space) = oracle.space() {
            let profile = space.profile();
            let _ = space.puzzle_at(profile.farthest).map(|p| p.to_text());
            if space.len() <= 10_000 {
                let _ = space.write_graphml(&mut std::io::sink());
                let _ = space.write_edge_csv(&mut std::io::sink());
            }
        }
    }
    let _ = puzzle.to_text();
    let _ = puzzle.to_json();
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn mutated_files_never_panic_and_errors_name_the_file() {
    crate::common::temp_cache();
    let seeds = seeds();
    let dir = tempfile::tempdir().unwrap();
    let mut runner = TestRunner::new(Config {
        // `FUZZ_CASES` and `FUZZ_SEED` run a longer or another campaign by hand.
        cases: env_number("FUZZ_CASES", 300) as u32,
        rng_seed: RngSeed::Fixed(env_number("FUZZ_SEED", 20_261_123)),
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        0..seeds.len(),
        proptest::collection::vec(mutation(), 1..5),
        0..64usize,
    );
    runner
        .run(&strategy, |(seed, mutations, pick)| {
            let mut bytes = seeds[seed].clone().into_bytes();
            for m in &mutations {
                mutate(&mut bytes, m);
            }
            exercise(dir.path(), &bytes, pick);
            Ok(())
        })
        .unwrap();
}

#[test]
fn every_seed_parses_and_solves_within_the_budget() {
    crate::common::temp_cache();
    let dir = tempfile::tempdir().unwrap();
    for (i, seed) in seeds().iter().enumerate() {
        exercise(dir.path(), seed.as_bytes(), i);
    }
}
