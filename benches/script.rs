//! Puzzle scripts against the built-in types: the scripted 8-puzzle (`puzzles/eight-puzzle.rhai`,
//! every state a call of its `moves` and `is_goal` through rhai) and the built-in sliding tiles
//! count the same whole space (181,440 states from a solvable board) in one run, each checked.
//! The script's count runs twice: on one worker (this thread alone) and on the program's
//! workers (one a core; the count by layers of `search::count_reachable_in_layers`). Prints
//! one JSON line: each wall time in milliseconds (the least of `SCRIPT_BENCH_RUNS` runs, 3 by
//! default; `script_ms` the count on the workers, as the app and the command line count),
//! states a second, and the ratio of the script's time over the built-in's.
//! `SCRIPT_BENCH_ONLY=one` (or `workers`) runs that count alone, for `valgrind --tool=callgrind`
//! (instructions a state, whatever the machine's load; `--separate-threads=yes` for each
//! worker's share).
//! `cargo bench --bench script`; issue 56 item 15's target: the script's count 2 times faster
//! than at `4730733` (which counted on one thread) on the same machine.

use std::time::Instant;

use puzzlelab::puzzles::{self, Puzzle, call_limits};
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
    let workers = call_limits::workers().map_or(1, |pool| pool.current_num_threads());
    // `SCRIPT_BENCH_ONLY=one` or `workers`: that count alone (for `valgrind --tool=callgrind`).
    let only = std::env::var("SCRIPT_BENCH_ONLY").ok();
    if let Some(only) = only.as_deref() {
        let count = match only {
            "one" => call_limits::on_one_thread(|| best_count(script.as_ref(), runs)),
            "workers" => best_count(script.as_ref(), runs),
            other => panic!("SCRIPT_BENCH_ONLY is `one` or `workers`, not `{other}`"),
        };
        let json = serde_json::json!({"bench": "script", "runs": runs, "only": only, "workers": workers, "script_ms": count.elapsed_ms});
        println!("{json}");
        return;
    }
    let one = call_limits::on_one_thread(|| best_count(script.as_ref(), runs));
    let all = best_count(script.as_ref(), runs);
    let b = best_count(built_in.as_ref(), runs);
    let ms = |c: &StateCount| (c.elapsed_ms * 10.0).round() / 10.0;
    let per_second = |c: &StateCount| (c.states as f64 / (c.elapsed_ms / 1000.0)).round();
    println!(
        "{}",
        serde_json::json!({
            "bench": "script",
            "space": "8-puzzle, 181440 states",
            "runs": runs,
            "workers": workers,
            "script_ms": ms(&all),
            "script_ms_1_worker": ms(&one),
            "built_in_ms": ms(&b),
            "script_states_per_s": per_second(&all),
            "script_states_per_s_1_worker": per_second(&one),
            "built_in_states_per_s": per_second(&b),
            "ratio_script_over_built_in": (all.elapsed_ms / b.elapsed_ms * 10.0).round() / 10.0,
            "wall_s": (started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
        })
    );
}
