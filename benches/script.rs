//! Puzzle scripts against the built-in types: the scripted 8-puzzle (`puzzles/eight-puzzle.rhai`,
//! every state a call of its `moves` through rhai) and the built-in sliding tiles count the same
//! whole space (181,440 states from a solvable board) in one run, each checked. Prints one JSON
//! line: both times in milliseconds, states a second, and the ratio (script / built-in).
//! `cargo bench --bench script`; the target is the script under 5 s on this 2-core
//! machine (release).

use std::time::Instant;

use puzzlelab::puzzles::{self, Puzzle};
use puzzlelab::search::{CancelToken, StateCount};

/// The best of `runs` counts of `puzzle`'s space (the least time), each checked whole.
fn best_count(puzzle: &dyn Puzzle, runs: usize) -> StateCount {
    (0..runs)
        .map(|_| {
            let count = puzzle.count_states(&CancelToken::new());
            assert_eq!((count.states, count.stopped), (181_440, None));
            count
        })
        .min_by(|a, b| a.elapsed_ms.total_cmp(&b.elapsed_ms))
        .expect("at least one run")
}

fn main() {
    let started = Instant::now();
    let text = std::fs::read_to_string("puzzles/eight-puzzle.rhai").expect("the shipped script");
    let script = puzzles::parse(&text, Some("script")).expect("the script compiles");
    let built_in = puzzles::parse("4 3 6\n7 1 8\n5 2 0\n", Some("sliding")).expect("a board");
    let runs = std::env::var("SCRIPT_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let s = best_count(script.as_ref(), runs);
    let b = best_count(built_in.as_ref(), runs);
    let per_second = |c: &StateCount| (c.states as f64 / (c.elapsed_ms / 1000.0)).round();
    println!(
        "{}",
        serde_json::json!({
            "bench": "script",
            "space": "8-puzzle, 181440 states",
            "runs": runs,
            "script_ms": (s.elapsed_ms * 10.0).round() / 10.0,
            "built_in_ms": (b.elapsed_ms * 10.0).round() / 10.0,
            "script_states_per_s": per_second(&s),
            "built_in_states_per_s": per_second(&b),
            "ratio_script_over_built_in": (s.elapsed_ms / b.elapsed_ms * 10.0).round() / 10.0,
            "wall_s": (started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        })
    );
}
