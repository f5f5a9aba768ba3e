//! Search traces for Posthoc: `puzzlelab solve FILE --trace OUT` and the recorder behind it.

use crate::common::puzzlelab;

use std::collections::HashSet;

use puzzlelab::puzzles;
use puzzlelab::runs::recording::{EXPANSION_BYTES, TraceRecorder};
use puzzlelab::search::{Algorithm, CancelToken};

/// Solves `file` with `algorithm` writing a trace; the trace and the `--json` report.
fn traced(file: &str, algorithm: &str) -> (serde_json::Value, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run.trace.json");
    let out = out.to_str().unwrap();
    let (code, stdout, stderr) =
        puzzlelab(&["solve", file, "-a", algorithm, "--json", "--trace", out]);
    assert_eq!(code, 0, "{stderr}");
    let report = serde_json::from_str(&stdout).unwrap();
    let trace = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    (trace, report)
}

#[test]
fn a_small_mazes_trace_matches_the_statistics_of_its_run() {
    for algorithm in ["astar", "bfs", "dijkstra"] {
        let (trace, report) = traced("puzzles/maze-small.txt", algorithm);
        assert_eq!(trace["version"], "1.4.0");
        assert_eq!(trace["views"]["main"][0]["$"], "rect");
        let events = trace["events"].as_array().unwrap();
        let of = |kind: &'static str| events.iter().filter(move |e| e["type"] == kind);
        // One expanding event per expansion, each followed by its closing.
        let expanding: Vec<_> = of("expanding").collect();
        assert_eq!(
            expanding.len() as u64,
            report["stats"]["expanded"].as_u64().unwrap(),
            "{algorithm}"
        );
        assert_eq!(of("closing").count(), expanding.len());
        // Parents form the search tree: every parent was expanded before its child.
        let mut expanded = HashSet::new();
        for e in &expanding {
            if let Some(parent) = e["pId"].as_u64() {
                assert!(expanded.contains(&parent), "{algorithm}: {e}");
            }
            expanded.insert(e["id"].as_u64().unwrap());
        }
        // A start, a goal, and the run's end at the goal with the solution's cost.
        let source = of("source").next().unwrap();
        assert_eq!(source["id"], expanding[0]["id"]);
        let path = report["path"].as_array().unwrap();
        let (start, goal) = (&path[0], path.last().unwrap());
        assert_eq!((&source["x"], &source["y"]), (&start["col"], &start["row"]));
        let destination = of("destination").next().unwrap();
        assert_eq!(
            (&destination["x"], &destination["y"]),
            (&goal["col"], &goal["row"])
        );
        let end = events.last().unwrap();
        assert_eq!(end["type"], "end");
        assert_eq!(end["id"], destination["id"]);
        assert_eq!(end["g"].as_f64(), report["cost"].as_f64());
        // g and f of every expansion: f = g + h never decreases along A*'s expansions with a
        // consistent heuristic.
        if algorithm == "astar" {
            let fs: Vec<f64> = expanding.iter().map(|e| e["f"].as_f64().unwrap()).collect();
            assert!(fs.windows(2).all(|w| w[0] <= w[1]), "{fs:?}");
        }
    }
}

#[test]
fn klondike_and_the_car_maze_are_traced_and_boards_are_refused() {
    for file in ["puzzles/klondike.txt", "puzzles/car-maze.txt"] {
        let (trace, report) = traced(file, "bfs");
        let expanding = trace["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "expanding")
            .count();
        assert_eq!(
            expanding as u64,
            report["stats"]["expanded"].as_u64().unwrap()
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.json");
    let (code, _, stderr) = puzzlelab(&[
        "solve",
        "puzzles/sliding-8-hardest-a.txt",
        "--trace",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("states are boards"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn recording_stops_at_its_budget_with_a_note_and_the_partial_trace_is_valid() {
    let maze = puzzles::load_file(std::path::Path::new("puzzles/maze-small.txt"), None).unwrap();
    let mut recorder = TraceRecorder::new(10 * EXPANSION_BYTES as u64);
    let report = maze
        .solve(Algorithm::AStar, &mut recorder, &CancelToken::new())
        .unwrap();
    assert!(report.solved, "the search itself is not cut short");
    assert!(recorder.bytes() <= 10 * EXPANSION_BYTES as u64);
    assert!(recorder.stopped().unwrap().contains("memory budget"));
    recorder.finish();
    let mut bytes = Vec::new();
    recorder.write_posthoc(&report, &mut bytes).unwrap();
    let trace: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let events = trace["events"].as_array().unwrap();
    let expanding = events.iter().filter(|e| e["type"] == "expanding").count();
    assert_eq!(expanding, recorder.expansions());
}

#[test]
fn a_state_reached_again_more_cheaply_is_an_updating_event() {
    // Dijkstra on terrain costs: a state on the frontier found again by a cheaper path.
    let (trace, _) = traced("puzzles/maze-terrain.txt", "dijkstra");
    let events = trace["events"].as_array().unwrap();
    let mut generated = HashSet::new();
    let mut closed = HashSet::new();
    for e in events {
        let id = e["id"].as_u64().unwrap();
        match e["type"].as_str().unwrap() {
            "generating" => assert!(generated.insert(id), "generated twice: {e}"),
            "updating" => {
                assert!(
                    generated.contains(&id),
                    "an update of a state not generated: {e}"
                );
                assert!(!closed.contains(&id), "an update of a closed state: {e}");
            }
            "closing" => {
                closed.insert(id);
            }
            _ => {}
        }
    }
}

/// The count the command line reports is the number of events written, and the events that
/// put a state on the frontier carry its g and f where its expansion from that parent
/// recorded them.
#[test]
fn the_events_reported_are_the_events_written_with_their_scores() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run.trace.json");
    let path = out.to_str().unwrap();
    let (code, _, stderr) = puzzlelab(&[
        "solve",
        "puzzles/maze-terrain.txt",
        "-a",
        "astar",
        "--trace",
        path,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let events = trace["events"].as_array().unwrap();
    assert!(
        stderr.contains(&format!("{} events written", events.len())),
        "{stderr}"
    );
    let generating: Vec<_> = events
        .iter()
        .filter(|e| e["type"] == "generating" || e["type"] == "updating")
        .collect();
    let scored = generating.iter().filter(|e| e["g"].is_number()).count();
    assert!(
        scored * 2 > generating.len(),
        "{scored} of {} frontier events have g and f",
        generating.len()
    );
    // Where they have them, f = g + h is at least g, and the expansion from that parent
    // agrees.
    for e in generating.iter().filter(|e| e["g"].is_number()) {
        assert!(e["f"].as_f64().unwrap() >= e["g"].as_f64().unwrap());
    }
}

/// The plots' size curve of a finished run against a plain replay: marks kept in a map,
/// changed by each expansion's changes, counted after every expansion.
#[test]
fn the_size_curve_matches_a_replay_of_the_marks() {
    use puzzlelab::runs::recording::Change;
    use std::collections::HashMap;
    for (file, algorithm) in [
        ("puzzles/maze-small.txt", Algorithm::AStar),
        ("puzzles/maze-terrain.txt", Algorithm::Dijkstra),
        ("puzzles/maze-rooms.txt", Algorithm::Bfs),
        ("puzzles/klondike.txt", Algorithm::Bfs),
        ("puzzles/car-maze.txt", Algorithm::Bfs),
    ] {
        let puzzle = puzzles::load_file(std::path::Path::new(file), None).unwrap();
        let mut recorder = TraceRecorder::new(1 << 30);
        puzzle
            .solve(algorithm, &mut recorder, &CancelToken::new())
            .unwrap();
        recorder.finish();
        let n = recorder.expansions();
        // Every row, then thinned to 50 rows.
        for points in [n + 1, 50] {
            let curve = recorder.size_curve(points);
            let mut marks: HashMap<_, bool> = HashMap::new(); // place -> closed
            let apply = |marks: &mut HashMap<_, bool>, place, change| match change {
                Change::Open => {
                    marks.entry(place).or_insert(false);
                }
                Change::Close => {
                    marks.insert(place, true);
                }
                _ => unreachable!("a replay forward only opens and closes"),
            };
            recorder.sources(|p, c| apply(&mut marks, p, c));
            let count = |marks: &HashMap<_, bool>| {
                let closed = marks.values().filter(|&&c| c).count();
                [(marks.len() - closed) as f64, closed as f64]
            };
            let mut expected = vec![[0.0, count(&marks)[0], count(&marks)[1]]];
            for j in 0..n {
                recorder.step_forward(j, |p, c| apply(&mut marks, p, c));
                let [f, c] = count(&marks);
                expected.push([(j + 1) as f64, f, c]);
            }
            assert_eq!(curve.first(), expected.first(), "{file}");
            assert_eq!(curve.last(), expected.last(), "{file}");
            assert!(curve.len() <= points + 2, "{file}: {} rows", curve.len());
            for row in &curve {
                assert_eq!(*row, expected[row[0] as usize], "{file} {points}");
            }
        }
    }
}

/// Every event that puts a state on the frontier carries the `g` and `f` it was put there
/// with (issue 44): `g` is its parent's `g` plus the step, `f` at least `g`, whether or not
/// the state was later expanded from that parent (a state left on the frontier at the end, or
/// one reached again more cheaply, had none before).
#[test]
fn every_generating_event_has_its_g_and_f() {
    for (file, algorithm) in [
        ("puzzles/maze-terrain.txt", "astar"),
        ("puzzles/maze-terrain.txt", "dijkstra"),
        ("puzzles/maze-octile-goals.txt", "astar"),
        ("puzzles/maze-small.txt", "bfs"),
        ("puzzles/maze-rooms.txt", "greedy"),
    ] {
        let (trace, _) = traced(file, algorithm);
        let events = trace["events"].as_array().unwrap();
        // The g of each place as last expanded, to check a successor's g against.
        let mut g_of = std::collections::HashMap::new();
        let mut checked = 0;
        for e in events {
            match e["type"].as_str().unwrap() {
                "expanding" => {
                    g_of.insert(e["id"].as_u64(), e["g"].as_f64().unwrap());
                }
                "generating" | "updating" => {
                    let (g, f) = (e["g"].as_f64(), e["f"].as_f64());
                    let (Some(g), Some(f)) = (g, f) else {
                        panic!("{file} {algorithm}: no g or f: {e}");
                    };
                    assert!(f >= g - 1e-4, "{file} {algorithm}: {e}");
                    let parent = g_of[&e["pId"].as_u64()];
                    assert!(g > parent, "{file} {algorithm}: {e} from g {parent}");
                    checked += 1;
                }
                _ => {}
            }
        }
        assert!(checked > 10, "{file} {algorithm}: {checked}");
    }
}
