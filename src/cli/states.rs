//! `states`: a whole state space explored, its distances and profile, as text, JSON or GraphML.

use crate::puzzles::oracle::{OracleError, Space};
use crate::search::CancelToken;
use crate::search::heuristic_quality::Quality;
use std::io::Write as _;

use super::*;

/// How long the command line expands states before a run to measure the rate of a puzzle
/// whose space may be out of reach ([`puzzles::capabilities::Reach`]).
const REACH_MEASURE: std::time::Duration = std::time::Duration::from_millis(200);

/// Says on standard error, before a run, when the puzzle's space is out of reach at the
/// rate measured (a short count first when none was), within the run's time limit.
fn warn_if_out_of_reach(
    file: &std::path::Path,
    puzzle: &dyn puzzles::Puzzle,
    cancel: &CancelToken,
) {
    let Some(reach) = puzzle.capabilities().reach else {
        return;
    };
    if reach.estimated_states().is_none() {
        return;
    }
    if reach.states_per_second().is_none() {
        reach.measure(REACH_MEASURE);
    }
    if let Some(warning) = puzzles::capabilities::out_of_reach(reach, cancel.limits().timeout) {
        say!("{}: {warning}", file.display());
    }
}

/// `solve`'s work before its run: the warning when the space is out of reach, then the
/// type's preparation ([`prepare_puzzle`]).
pub(super) fn warn_then_prepare(
    args: &SolveArgs,
    puzzle: &mut dyn puzzles::Puzzle,
    cancel: &CancelToken,
) -> Result<(), u8> {
    warn_if_out_of_reach(&args.puzzle.file, puzzle, cancel);
    prepare_puzzle(args, puzzle, cancel)
}

pub(super) fn states(args: &StatesArgs) -> u8 {
    let (mut puzzle, token) = match args.puzzle.load(args.json) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    if let Some(h) = &args.heuristic
        && let Err(code) = set_heuristic(args, puzzle.as_mut(), h, &token)
    {
        return code;
    }
    warn_if_out_of_reach(&args.puzzle.file, puzzle.as_ref(), &token);
    let started = std::time::Instant::now();
    match puzzle.oracle(&token, &mut |_| {}) {
        Ok(oracle) => {
            if let Some(space) = oracle.space() {
                let quality = if args.heuristic.is_some() {
                    match space.heuristic_quality(puzzle.as_ref(), &token) {
                        Some(Ok(q)) => Some(q),
                        Some(Err(outcome)) => {
                            let why = if outcome == crate::search::Outcome::MemoryLimit {
                                "the measure needs more memory than the limit (--max-memory)"
                            } else {
                                "the measure was stopped"
                            };
                            say!("{}: {why}", args.puzzle.file.display());
                            let states = Some(space.profile().states);
                            return stopped_json(args, puzzle.as_ref(), outcome, why, states);
                        }
                        None => None,
                    }
                } else {
                    None
                };
                let measured = quality.map(|q| (puzzle.heuristic_name(), q));
                return explored_states(args, puzzle.puzzle_type().name, space, started, measured);
            }
        }
        Err(OracleError::Stopped(e)) => {
            say!("{}: {e}", args.puzzle.file.display());
            let message = e.to_string();
            return stopped_json(args, puzzle.as_ref(), e.outcome, &message, Some(e.states));
        }
        Err(_) => {}
    }
    if let (Some(n), Some(_)) = (args.sample, &args.heuristic) {
        return sampled(args, puzzle.as_ref(), n, &token);
    }
    if args.graph.is_some() || args.heuristic.is_some() {
        say!(
            "{}: the state graph and the heuristic's measure need the whole space explored, \
             and this puzzle's is too large or not explorable (for the 15- and 24-puzzles, \
             --sample N measures the heuristic over N random positions)",
            args.puzzle.file.display()
        );
        return EXIT_BAD_INPUT;
    }
    let count = puzzle.count_states(&token);
    let text = if args.json {
        let mut v = serde_json::json!({
            "type": puzzle.puzzle_type().name,
            "states": count.states,
            "solved_states": count.goals,
            "elapsed_ms": count.elapsed_ms,
            "complete": count.stopped.is_none(),
        });
        if let Some(outcome) = count.stopped {
            v["outcome"] = serde_json::json!(outcome);
            v["message"] = serde_json::json!(count.message);
        }
        format!("{v}\n")
    } else {
        let partial = if count.stopped.is_some() {
            " (so far)"
        } else {
            ""
        };
        format!(
            "reachable states{partial}: {}\nsolved states{partial}: {}\ntime: {:.1} ms\n",
            count.states, count.goals, count.elapsed_ms
        )
    };
    emit!(&text);
    match count.stopped {
        None => EXIT_SOLVED,
        // The script failed: its error, as `solve` says it (exit 1), not a limit.
        Some(crate::search::Outcome::ScriptError) => {
            let why = count.message.unwrap_or_default();
            say!("{}: the count {why}", args.puzzle.file.display());
            EXIT_NO_SOLUTION
        }
        Some(_) => {
            let why = count
                .message
                .unwrap_or_else(|| "was stopped before the end".to_owned());
            say!("{}: the count {why}", args.puzzle.file.display());
            EXIT_LIMIT
        }
    }
}

/// With `--json`, the JSON of a count or measure that a limit (or a cancel) stopped: the
/// type, `"complete": false`, the outcome, the message and the states counted so far (the
/// fields of a stopped count). Returns the limit's exit code (3), or the code of a failed
/// write.
fn stopped_json(
    args: &StatesArgs,
    puzzle: &dyn crate::puzzles::Puzzle,
    outcome: crate::search::Outcome,
    message: &str,
    states: Option<u64>,
) -> u8 {
    if args.json {
        let mut v = serde_json::json!({
            "type": puzzle.puzzle_type().name,
            "complete": false,
            "outcome": outcome,
            "message": message,
        });
        if let Some(states) = states {
            v["states"] = serde_json::json!(states);
        }
        emit!(&format!("{v}\n"));
    }
    EXIT_LIMIT
}

/// `states` on a puzzle whose space was explored whole: the counts, the distance profiles,
/// the dead ends, the farthest and hardest states, and the graph if asked for.
/// Sets the heuristic of `puzzle` to `name` through its type's `heuristic` option and does
/// the preparation it needs (pattern databases); `Err` is the exit code, the reason printed.
fn set_heuristic(
    args: &StatesArgs,
    puzzle: &mut dyn crate::puzzles::Puzzle,
    name: &str,
    token: &crate::search::CancelToken,
) -> Result<(), u8> {
    let file = &args.puzzle.file;
    if !puzzle.options().iter().any(|o| o.name == "heuristic") {
        return Err(bad(
            file,
            format!(
                "--heuristic does not apply to this file, which holds a {} (no heuristic \
                 option)",
                puzzle.puzzle_type().name
            ),
        ));
    }
    puzzle
        .set_option("heuristic", name)
        .map_err(|message| bad(file, message))?;
    let Some(preparation) = puzzle.preparation() else {
        return Ok(());
    };
    preparation.prepare(false, token, &mut |_| {}).map_err(|e| {
        say!("{}: {e}", file.display());
        if e.limit_outcome().is_some() {
            EXIT_LIMIT
        } else {
            EXIT_BAD_INPUT
        }
    })
}

/// `states --heuristic H --sample N`: the heuristic over N sampled positions.
fn sampled(
    args: &StatesArgs,
    puzzle: &dyn crate::puzzles::Puzzle,
    n: usize,
    token: &crate::search::CancelToken,
) -> u8 {
    let started = std::time::Instant::now();
    let sampling = puzzle.capabilities().heuristic_sampling;
    let sampled =
        sampling.and_then(|s| s.sample_heuristic_quality(n, args.seed, token, &mut |_| {}));
    let (q, positions) = match sampled {
        Some(Ok(measured)) => measured,
        Some(Err(why)) => {
            say!("{}: {why}", args.puzzle.file.display());
            return EXIT_LIMIT;
        }
        None => {
            say!(
                "{}: --sample is for boards too large to explore (the 15- and 24-puzzles); \
                 this space is measured whole without it",
                args.puzzle.file.display()
            );
            return EXIT_BAD_INPUT;
        }
    };
    let text_at = |node: u32| {
        positions
            .get(node as usize)
            .map(|p| p.position_text())
            .unwrap_or_default()
    };
    let name = puzzle.heuristic_name();
    // A limit may stop the measure early: the positions measured by then are reported.
    let measured = q.sampled.map_or(n, |k| k as usize);
    if measured < n {
        say!(
            "{}: a limit stopped the measure after {measured} of {n} positions",
            args.puzzle.file.display()
        );
    }
    let n = measured;
    let text = if args.json {
        let mut v = quality_json(&text_at, &name, &q);
        v["sample"] = serde_json::json!(n);
        let out = serde_json::json!({
            "type": puzzle.puzzle_type().name,
            "sample": n,
            "seed": args.seed,
            "heuristic": v,
            "elapsed_ms": started.elapsed().as_secs_f64() * 1000.0,
        });
        format!("{out}\n")
    } else {
        format!(
            "a sample of {n} random positions (seed {}), h* by optimal IDA*:\n{}",
            args.seed,
            quality_text(&name, &q)
        )
    };
    emit!(&text);
    if token.is_cancelled() {
        EXIT_LIMIT
    } else {
        EXIT_SOLVED
    }
}

/// The heuristic's measure as JSON (see `states --heuristic`), its examples as puzzle texts
/// (`text_at` gives a node's).
fn quality_json(text_at: &dyn Fn(u32) -> String, name: &str, q: &Quality) -> serde_json::Value {
    serde_json::json!({
        "name": name,
        "admissible": q.admissible,
        "consistent": q.consistent,
        "mean_h": q.mean_h,
        "mean_hstar": q.mean_hstar,
        "mean_h_over_hstar": q.mean_h_over_hstar,
        "states": q.states,
        "dead_ends": q.dead_ends,
        "edges": q.edges,
        "exact_states": q.exact_states,
        "inadmissible_states": q.inadmissible_states,
        "inconsistent_edges": q.inconsistent_edges,
        "examples": q.inadmissible.iter().map(|e| serde_json::json!({
            "puzzle": text_at(e.node), "h": e.h, "hstar": e.hstar,
        })).collect::<Vec<_>>(),
        "inconsistent_examples": q.inconsistent.iter().map(|e| serde_json::json!({
            "puzzle": text_at(e.from), "next": text_at(e.to), "cost": e.cost,
            "h": e.h_from, "h_next": e.h_to,
        })).collect::<Vec<_>>(),
        "bin_width": q.bin_width,
        "histogram": q.histogram,
    })
}

/// The heuristic's measure as text lines.
fn quality_text(name: &str, q: &Quality) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    format!(
        "heuristic: {name}
  admissible: {} ({} states overestimated)
  consistent: {} \
         ({} of {} moves inconsistent)
  mean h: {:.3}, mean h*: {:.3}, mean h/h*: {:.3}
  \
         exact (h = h*): {} of {} states ({} dead ends not measured)
",
        yes(q.admissible),
        q.inadmissible_states,
        yes(q.consistent),
        q.inconsistent_edges,
        q.edges,
        q.mean_h,
        q.mean_hstar,
        q.mean_h_over_hstar,
        q.exact_states,
        q.states,
        q.dead_ends,
    )
}

pub(super) fn explored_states(
    args: &StatesArgs,
    type_name: &str,
    space: &dyn Space,
    started: std::time::Instant,
    measured: Option<(String, Quality)>,
) -> u8 {
    let p = space.profile();
    let text_at = |node: u32| {
        space
            .puzzle_at(node)
            .map(|p| p.position_text())
            .unwrap_or_default()
    };
    let farthest = text_at(p.farthest);
    let hardest = p.hardest.map(text_at);
    if let Some(path) = &args.graph {
        let written = std::fs::File::create(path).and_then(|file| {
            let mut out = std::io::BufWriter::new(file);
            let is_csv = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
            if is_csv {
                space.write_edge_csv(&mut out)?;
            } else {
                space.write_graphml(&mut out)?;
            }
            out.flush()
        });
        if let Err(e) = written {
            say!("{}: {e}", path.display());
            return EXIT_BAD_INPUT;
        }
    }
    let text = if args.json {
        let mut v = serde_json::json!({
            "type": type_name,
            "states": p.states,
            "solved_states": p.goals,
            "edges": p.edges,
            "complete": true,
            "distance_profile": p.distance_profile,
            "goal_distance_profile": p.goal_distance_profile,
            "dead_ends": p.dead_ends,
            "farthest": {"distance": p.farthest_distance, "puzzle": farthest},
            "elapsed_ms": started.elapsed().as_secs_f64() * 1000.0,
        });
        if let Some(hardest) = &hardest {
            v["hardest"] = serde_json::json!({"distance": p.hardest_distance, "puzzle": hardest});
        }
        if let Some((name, q)) = &measured {
            let text_at = |node: u32| {
                space
                    .puzzle_at(node)
                    .map(|p| p.position_text())
                    .unwrap_or_default()
            };
            v["heuristic"] = quality_json(&text_at, name, q);
        }
        format!("{v}\n")
    } else {
        let mut t = format!(
            "reachable states: {}\nsolved states: {}\nmoves between them: {}\ndead ends: {}\n\
             distance profile from the start (states at 0, 1, 2, ... moves): {}\n\
             distance profile to the goal: {}\n\
             farthest from the start ({} moves):\n{farthest}",
            p.states,
            p.goals,
            p.edges,
            p.dead_ends,
            join_counts(&p.distance_profile),
            join_counts(&p.goal_distance_profile),
            p.farthest_distance,
        );
        if let Some(hardest) = &hardest {
            t += &format!(
                "hardest to solve ({} moves to the goal):\n{hardest}",
                p.hardest_distance
            );
        }
        if let Some((name, q)) = &measured {
            t += &quality_text(name, q);
        }
        t
    };
    emit!(&text);
    EXIT_SOLVED
}

pub(super) fn join_counts(counts: &[u64]) -> String {
    counts
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
