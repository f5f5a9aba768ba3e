//! `states`: a whole state space explored, its distances and profile, as text, JSON or GraphML.

use crate::puzzles::oracle::{OracleError, Space};
use std::io::Write as _;

use super::*;

pub(super) fn states(args: &StatesArgs) -> u8 {
    let puzzle = match load(&args.file, args.puzzle_type.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let token = args.limits.token();
    let started = std::time::Instant::now();
    match puzzle.oracle(&token, &mut |_| {}) {
        Ok(oracle) => {
            if let Some(space) = oracle.space() {
                return explored_states(args, puzzle.puzzle_type().name, space, started);
            }
        }
        Err(OracleError::Stopped(e)) => {
            say!("{}: {e}", args.file.display());
            return EXIT_LIMIT;
        }
        Err(_) => {}
    }
    if args.graph.is_some() {
        say!(
            "{}: the state graph needs the whole space explored, and this puzzle's is too \
             large or not explorable",
            args.file.display()
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
        Some(_) => {
            let why = count
                .message
                .unwrap_or_else(|| "was stopped before the end".to_owned());
            say!("{}: the count {why}", args.file.display());
            EXIT_LIMIT
        }
    }
}

/// `states` on a puzzle whose space was explored whole: the counts, the distance profiles,
/// the dead ends, the farthest and hardest states, and the graph if asked for.
pub(super) fn explored_states(
    args: &StatesArgs,
    type_name: &str,
    space: &dyn Space,
    started: std::time::Instant,
) -> u8 {
    let p = space.profile();
    let text_at = |node: u32| {
        space
            .puzzle_at(node)
            .map(|p| p.to_text())
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
