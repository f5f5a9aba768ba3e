//! Hostile puzzle scripts held to the run's limits (issue 56, item 5): `--timeout` bounds
//! every call, `start()` and the top level included; a script's allocations count against
//! `--max-memory`, and so do its states' encoded bytes; `sleep` is bounded and checks its
//! argument; the search thread's stack fits the engine's depth limits.
//!
//! The scripts are the reproducers of `shared/repro/hostile/` (found by the fault campaign of
//! issue 56: `sleep-in-moves`, `sleep-huge-float`, `sleep-in-start`, `heavy-ops-start`,
//! `deep-nesting-quadratic`, `memory-many-arrays`, `big-states-budget`,
//! `solver-stack-overflow`), made smaller where a test needs it.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use puzzlelab::puzzles::script::Script;
use puzzlelab::puzzles::sliding::pattern_db;
use puzzlelab::search::{Algorithm, Limits, Outcome};
use puzzlelab::solver::{Event, SolverHandle};

use crate::common::temp_cache;

/// `solve` on the script `text` with `args` after the file: exit code, stdout, stderr and
/// the time it took.
fn solve(text: &str, args: &[&str]) -> (i32, String, String, Duration) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("hostile.rhai");
    std::fs::write(&path, text).expect("the script is written");
    let path = path.to_str().expect("a UTF-8 path").to_owned();
    let began = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
        .env(pattern_db::CACHE_DIR_VAR, temp_cache())
        .args(["solve", path.as_str(), "--json"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A watchdog: a script the limits miss would otherwise hold the test for an hour.
    while child.try_wait().expect("the child's status").is_none() {
        if began.elapsed() > WATCHDOG {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("the child's output");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        began.elapsed(),
    )
}

/// How long a run may take before the test kills it.
const WATCHDOG: Duration = Duration::from_secs(60);

/// The JSON `solve` printed.
fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Asserts a run ended at its time limit of 1 s: exit 3, the timeout outcome, well before
/// the script's own end.
fn assert_timed_out(text: &str, what: &str) {
    let (code, out, err, took) = solve(text, &["--timeout", "1"]);
    assert_eq!(code, 3, "{what}: {out} {err}");
    assert_eq!(json(&out)["outcome"], "timeout", "{what}: {out}");
    assert!(took < Duration::from_secs(10), "{what}: took {took:?}");
}

/// R1: `sleep(3600)` in `moves()` ran past `--timeout 5` (still running at 30 s): rhai's
/// `sleep` could not be interrupted.
#[test]
fn a_sleep_in_moves_ends_at_the_timeout() {
    assert_timed_out(
        "fn start() { 1 }\nfn moves(n) { sleep(3600); [] }\nfn is_goal(n) { n == 10 }\n",
        "sleep in moves",
    );
}

/// R2: `sleep(1.0e300)` panicked (exit 101, "cannot convert float seconds to Duration").
#[test]
fn a_huge_or_nan_sleep_is_an_error_with_its_line() {
    for (argument, shown) in [("1.0e300", "1e300"), ("0.0 / 0.0", "NaN")] {
        let text = format!(
            "fn start() {{ 1 }}\nfn moves(n) {{\n  sleep({argument});\n  []\n}}\nfn is_goal(n) {{ n == 10 }}\n"
        );
        let (code, _, err, _) = solve(&text, &[]);
        assert_eq!(code, 1, "{argument}: {err}");
        assert!(err.contains("line 3"), "{argument}: {err}");
        assert!(
            err.contains(&format!(
                "sleep takes from 0 to 604800 seconds, not {shown}"
            )),
            "{argument}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// R11: `start()` sleeping 20 s answered `--timeout 2` after 20 s (start() ran before the
/// run's limits applied), and so did the top level.
#[test]
fn the_timeout_bounds_start_and_the_top_level() {
    assert_timed_out(
        "fn start() { sleep(20); 1 }\nfn moves(n) { [] }\nfn is_goal(n) { n == 10 }\n",
        "sleep in start",
    );
    assert_timed_out(
        "sleep(20);\nfn start() { 1 }\nfn moves(n) { [] }\nfn is_goal(n) { n == 10 }\n",
        "sleep at the top level",
    );
    let (_, _, err, _) = solve(
        "fn start() { sleep(20); 1 }\nfn moves(n) { [] }\nfn is_goal(n) { n == 10 }\n",
        &["--timeout", "1"],
    );
    assert!(
        err.contains("stopped at the time limit of 1.0 s while loading: the script's `start` ran past the run's time limit"),
        "{err}"
    );
}

/// R11: operations that each take long (a 1 MB string copied and rewritten, a nest of
/// arrays copied and size-checked whole at each step) ran for minutes under the operation
/// limit, `--timeout 2` notwithstanding.
#[test]
fn the_timeout_bounds_heavy_operations() {
    assert_timed_out(
        "fn start() { let s = \"x\"; s.pad(1000000, 'x'); loop { let t = s; t.replace(\"x\", \"y\"); } 1 }\n\
         fn moves(n) { [] }\nfn is_goal(n) { true }\n",
        "heavy operations in start",
    );
    assert_timed_out(
        "fn start() { let a = 0; for i in 0..20000 { a = [a]; } a }\n\
         fn moves(n) { [] }\nfn is_goal(n) { true }\n",
        "a deep nest in start",
    );
    assert_timed_out(
        "fn start() { 1 }\nfn moves(n) { let a = 0; for i in 0..20000 { a = [a]; } [] }\n\
         fn is_goal(n) { false }\n",
        "a deep nest in moves",
    );
}

/// R4: many arrays, each within the engine's size limits, all alive in one call of
/// `moves()`: the process aborted at the address-space limit ("memory allocation of
/// 16000000 bytes failed"), `--max-memory 64M` notwithstanding. Here 40 arrays of 16 MB
/// against a budget of 8 MiB.
#[test]
fn a_scripts_allocations_count_against_the_memory_limit() {
    let arrays: String = (0..40)
        .map(|i| format!("let a{i} = []; a{i}.pad(1000000, ()); "))
        .collect();
    let text =
        format!("fn start() {{ 1 }}\nfn moves(n) {{ {arrays}[] }}\nfn is_goal(n) {{ n == 10 }}\n");
    let (code, out, err, _) = solve(&text, &["--max-memory", "8M", "--timeout", "20"]);
    assert_eq!(code, 3, "{out} {err}");
    let v = json(&out);
    assert_eq!(v["outcome"], "memory_limit", "{out}");
    assert!(
        err.contains("the script's `moves` held more than the run's memory budget of 8 MiB"),
        "{err}"
    );
}

/// R5: states of 10^5 numbers (about 400 kB encoded) were counted at 16 bytes each: 4.5 GB
/// resident under `--max-memory 64M`. Here states of 10^4 numbers (about 40 kB) against a
/// budget of 4 MiB: the run stops at the memory limit after about a hundred states.
#[test]
fn the_budget_counts_a_states_encoded_bytes() {
    let text = "fn start() { let a = []; a.pad(10000, 100000); a }\n\
                fn moves(s) { let a = s; a[0] += 1; let b = s; b[1] += 1; \
                [#{ label: \"a\", to: a }, #{ label: \"b\", to: b }] }\n\
                fn is_goal(s) { s[0] == 1000000 }\n";
    let (code, out, err, _) = solve(text, &["--max-memory", "4M", "--timeout", "30"]);
    assert_eq!(code, 3, "{out} {err}");
    let v = json(&out);
    assert_eq!(v["outcome"], "memory_limit", "{out}");
    let reached = v["stats"]["max_closed"]
        .as_u64()
        .expect("a count of states");
    assert!(
        (20..=200).contains(&reached),
        "{reached} states of 40 kB in 4 MiB"
    );
    assert!(
        err.contains("the states reached (their own bytes)"),
        "{err}"
    );
}

/// The deepest script the engine's limits allow: calls nested to the call-depth limit (63
/// calls of `g` under `moves`), each frame an expression nested to the expression-depth
/// limit (28 calls; 29 do not compile). About 4 MiB of stack in a debug build; the
/// reproducer of R3 nested 60 calls of 20.
fn deepest_script(depth: usize) -> String {
    let open = "abs(".repeat(depth);
    let close = ")".repeat(depth);
    format!(
        "fn start() {{ 1 }}\n\
         fn moves(n) {{ let d = g(62); [#{{ label: \"+1\", to: n + 1 }}].filter(|m| m.to <= 3) }}\n\
         fn g(n) {{ if n <= 0 {{ return 0; }} {open}g(n - 1){close} }}\n\
         fn is_goal(n) {{ n == 3 }}\n"
    )
}

/// R3: the window's search thread overflowed its stack ("thread 'solver' has overflowed its
/// stack", SIGABRT) on a recursion the command line answered: the solver thread now has the
/// stack the engine's depth limits need. (Without it this test aborts the test process.)
#[test]
fn the_solver_thread_answers_the_deepest_recursion() {
    assert!(
        Script::from_text(&deepest_script(29)).is_err(),
        "past the depth limit"
    );
    let script = Script::from_text(&deepest_script(28)).expect("it compiles");
    let mut handle = SolverHandle::spawn(
        Box::new(script),
        Algorithm::Bfs,
        f64::INFINITY,
        false,
        Limits::default(),
        Arc::new(|| {}),
    )
    .expect("the solver starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the run did not end");
        match handle.next_event() {
            Some(Event::Finished(report)) => {
                assert!(report.solved, "{:?}", report.message);
                assert_eq!(report.outcome, Outcome::Found);
                break;
            }
            Some(Event::Failed(e)) => panic!("{e}"),
            _ => std::thread::sleep(Duration::from_millis(2)),
        }
    }
    // The command line answers it too, on its own thread.
    let (code, out, err, _) = solve(&deepest_script(28), &[]);
    assert_eq!(code, 0, "{out} {err}");
}
