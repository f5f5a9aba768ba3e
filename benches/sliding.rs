//! The 15-puzzle solved optimally by puzzlelab's fast IDA* core and by the `slidy` crate's
//! optimal 4 x 4 solver (version 0.4; quadrant pattern databases after Robert Hilchie's ida15),
//! side by side in one run on the same boards, both answers checked equal. Prints one JSON
//! line.
//!
//! Then (a second JSON line) the five easiest of Korf and Felner's 50 random 24-puzzle
//! instances on both cores with the 6-6-6-6 databases, beside their published expansions.
//! `SLIDING_BENCH=15` or `SLIDING_BENCH=24` runs one part.
//!
//! The boards: the seeded random set of `puzzlelab bench sliding --count 100 --seed 1`, or,
//! with `KORF100=FILE` (`benches/korf-15-puzzle-100.txt`), Korf's 100 instances (one board
//! per line, a `#` comment after it, his goal: the blank first),
//! turned half a turn and renumbered for the blank-last goal both solvers share (lengths
//! unchanged). puzzlelab uses the 7-8 databases if they are cached (`puzzlelab bench sliding
//! --heuristic pdb78` builds them once), else the quick ones. `cargo bench --features bench --bench sliding`.

use std::sync::Arc;
use std::time::Instant;

use puzzlelab::puzzles::sliding::ida;
use puzzlelab::puzzles::sliding::pattern_db::{PatternDb, PdbSet};
use puzzlelab::puzzles::sliding::{Sliding, TileHeuristic};
use puzzlelab::puzzles::{Cell, NoWatcher, Puzzle as _};
use puzzlelab::search::{Algorithm, CancelToken};
use slidy::puzzle::small::Puzzle4x4;
use slidy::solver::solver::Solver as _;

/// A board of Korf's (goal 0..15, blank first) as the same problem for the goal 1..15, 0:
/// square s goes to 15 - s and tile t to 16 - t.
fn blank_last(korf: &[u8]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (s, &t) in korf.iter().enumerate() {
        out[15 - s] = if t == 0 { 0 } else { 16 - t };
    }
    out
}

fn boards() -> Vec<[u8; 16]> {
    if let Ok(path) = std::env::var("KORF100") {
        let text = std::fs::read_to_string(&path).expect("KORF100 names a readable file");
        return text
            .lines()
            .map(|l| l.split('#').next().unwrap_or_default())
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let tiles: Vec<u8> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
                blank_last(&tiles)
            })
            .collect();
    }
    (1..=100u64)
        .map(|seed| {
            let mut s = Sliding::solved(4, 4).unwrap();
            s.scramble_uniform(seed);
            let mut tiles = [0u8; 16];
            for (i, t) in tiles.iter_mut().enumerate() {
                *t = s.tile_at(Cell::new(i / 4, i % 4)).unwrap();
            }
            tiles
        })
        .collect()
}

/// The five easiest of Korf and Felner's 50 random 24-puzzle instances (their goal: the blank
/// first), with their optimal lengths and the states their IDA* expanded (6-6-6-6 with
/// reflection; AIJ 134, 2002), from `benches/korf-felner-24-easiest-5.txt`.
fn easiest_24() -> Vec<(Vec<u8>, u64, u64)> {
    let text = include_str!("korf-felner-24-easiest-5.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (board, note) = l.split_once('#').unwrap();
            let tiles = board
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            let words: Vec<&str> = note.split_whitespace().collect();
            (tiles, words[2].parse().unwrap(), words[4].parse().unwrap())
        })
        .collect()
}

/// The 24-puzzle's easiest five solved optimally by the fast core with Korf and Felner's
/// 6-6-6-6 databases (built once and cached if they are not: about 8 minutes and 255 MB
/// of disk), beside Korf and Felner's published expansions; one JSON line.
fn twenty_four() {
    let goal: Vec<u8> = (0..25).collect();
    let load = Instant::now();
    let db =
        PatternDb::load_or_build_set(5, 5, &goal, PdbSet::Six, &CancelToken::new(), &mut |f| {
            eprint!(
                "\rbuilding the 6-6-6-6 pattern databases… {:.0}%",
                f * 100.0
            );
        })
        .unwrap();
    let load_ms = load.elapsed().as_secs_f64() * 1000.0;
    let mut rows = Vec::new();
    let (mut ms, mut ours, mut theirs) = (0.0, 0u64, 0u64);
    for (tiles, length, published) in easiest_24() {
        let run = ida::solve(&db, &tiles, &CancelToken::new());
        assert_eq!(run.blank_path.len() as u64, length, "{tiles:?}");
        ms += run.stats.elapsed_ms;
        ours += run.stats.expanded;
        theirs += published;
        rows.push(serde_json::json!({
            "length": length,
            "expanded": run.stats.expanded,
            "korf_felner_expanded": published,
            "ms": run.stats.elapsed_ms,
        }));
    }
    println!(
        "{}",
        serde_json::json!({
            "boards": "korf-felner-24 easiest 5",
            "load_ms": load_ms,
            "instances": rows,
            "ms": ms,
            "expanded": ours,
            "korf_felner_expanded": theirs,
        })
    );
}

fn main() {
    // `SLIDING_BENCH=15` or `=24` runs one part; by default both, a JSON line each.
    let part = std::env::var("SLIDING_BENCH").unwrap_or_default();
    if part != "24" {
        fifteen();
    }
    if part != "15" {
        twenty_four();
    }
}

fn fifteen() {
    let boards = boards();
    let goal: Vec<u8> = (1..16).chain([0]).collect();
    let load = Instant::now();
    let (db, heuristic) = match PatternDb::cache_path(4, 4, &goal, PdbSet::Large)
        .and_then(|p| PatternDb::read_set(&p, 4, 4, &goal, PdbSet::Large))
    {
        Some(db) => (db, TileHeuristic::PatternDb78),
        None => (
            PatternDb::load_or_build(4, 4, &goal, &CancelToken::new(), &mut |_| {}).unwrap(),
            TileHeuristic::PatternDb,
        ),
    };
    let db = Arc::new(db);
    let load_ms = load.elapsed().as_secs_f64() * 1000.0;

    let (mut ours_ms, mut expanded, mut lengths) = (0.0, 0u64, Vec::new());
    for tiles in &boards {
        let rows: Vec<String> = tiles
            .chunks(4)
            .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        let mut p = Sliding::from_text(&rows.join("\n")).unwrap();
        p.set_heuristic(heuristic);
        p.attach_pattern_db(db.clone());
        let report = p
            .solve(Algorithm::IdaStar, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert!(report.optimal);
        ours_ms += report.stats.elapsed_ms;
        expanded += report.stats.expanded;
        lengths.push(report.cost as u64);
    }

    let init = Instant::now();
    let solver = slidy::solver::Solver4x4Stm::new();
    let slidy_init_ms = init.elapsed().as_secs_f64() * 1000.0;
    let started = Instant::now();
    for (tiles, &ours) in boards.iter().zip(&lengths) {
        let puzzle = Puzzle4x4::try_from(*tiles).unwrap();
        let solution = solver.solve(&puzzle).unwrap();
        assert_eq!(solution.len_stm::<u64>(), ours, "{tiles:?}");
    }
    let slidy_ms = started.elapsed().as_secs_f64() * 1000.0;
    println!(
        "{}",
        serde_json::json!({
            "instances": boards.len(),
            "boards": if std::env::var("KORF100").is_ok() { "korf100" } else { "random seeds 1-100" },
            "heuristic": heuristic.name(),
            "puzzlelab_load_ms": load_ms,
            "puzzlelab_ms": ours_ms,
            "puzzlelab_expanded": expanded,
            "slidy_init_ms": slidy_init_ms,
            "slidy_ms": slidy_ms,
            "slidy_over_puzzlelab": slidy_ms / ours_ms,
        })
    );
}
