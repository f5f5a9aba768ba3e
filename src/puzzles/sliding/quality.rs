//! The heuristic of a board too large to explore (the 15- and 24-puzzles) measured over
//! sampled positions: uniform random positions of the board's size and goal, each one's h*
//! by optimal IDA* with the strongest pattern databases at hand (the 7-8 set on 4 x 4 when
//! cached, else the quick set; the 6-6-6-6 set on 5 x 5, which must be cached), and every
//! move out of each checked for consistency. The figures are those of
//! [`crate::search::heuristic_quality`], marked as a sample.

use super::pattern_db::{PatternDb, PdbSet};
use super::{MAX_SIDE, Sliding};
use crate::puzzles::oracle::Explorable;
use crate::puzzles::{NoWatcher, Puzzle};
use crate::search::heuristic_quality::{Quality, Tally};
use crate::search::{Algorithm, CancelToken, Problem};

/// The most samples taken.
pub const MAX_SAMPLES: usize = 100_000;

/// `board`'s heuristic (as set on it) over `samples` random positions from `seed`
/// (`progress` gets the number measured after each; when `cancel` fires, the positions
/// measured by then, [`Quality::sampled`] saying how many), with the positions the examples
/// name (a [`StateExample`](crate::search::heuristic_quality::StateExample)'s
/// or an edge's node indexes the list).
///
/// # Errors
/// Why it cannot be measured: a 5 x 5 board without its 6-6-6-6 tables cached, a board
/// larger than 5 x 5, a database that could not be built or loaded, a solve that gave no
/// optimal length, or `cancel` firing before the first position was measured.
pub fn sampled_quality(
    board: &Sliding,
    samples: usize,
    seed: u64,
    cancel: &CancelToken,
    progress: &mut dyn FnMut(usize),
) -> Result<(Quality, Vec<Sliding>), String> {
    let (rows, cols) = (board.rows(), board.cols());
    if rows * cols > 25 || rows.max(cols) > MAX_SIDE {
        return Err(format!(
            "sampled h* needs an optimal solver: boards of up to 5 x 5, not {rows} x {cols}"
        ));
    }
    if (rows, cols) == (5, 5) && !PatternDb::is_cached(5, 5, board.goal(), PdbSet::Six) {
        return Err(
            "sampled h* on the 24-puzzle needs its 6-6-6-6 tables: build them once with \
             `puzzlelab bench sliding --side 5 --count 1 --heuristic pdb`"
                .to_owned(),
        );
    }
    let mut reference = board.clone();
    reference
        .prepare(true, cancel, &mut |_| {})
        .map_err(|e| e.to_string())?;
    let mut measured = board.clone();
    measured
        .prepare(false, cancel, &mut |_| {})
        .map_err(|e| e.to_string())?;
    let samples = samples.clamp(1, MAX_SAMPLES);
    let mut positions: Vec<Sliding> = Vec::with_capacity(samples);
    let mut outs = Vec::new();
    let mut tally = Tally::new((rows * cols * 8) as f64);
    let mut done = 0;
    for i in 0..samples {
        if cancel.is_cancelled() {
            break;
        }
        let s = seed.wrapping_add(i as u64);
        reference.scramble_uniform(s);
        measured.scramble_uniform(s);
        let report = Puzzle::solve(&reference, Algorithm::IdaStar, &mut NoWatcher, cancel)
            .map_err(|e| e.to_string())?;
        if cancel.is_cancelled() {
            break;
        }
        if !report.solved || !report.optimal {
            return Err(format!(
                "the optimal solver stopped on sample {i}: {}",
                report
                    .message
                    .unwrap_or_else(|| "no optimal length".to_owned())
            ));
        }
        let Some(state) = measured.start_states().into_iter().next() else {
            continue;
        };
        let h = measured.board_heuristic(&state);
        let node = positions.len() as u32;
        positions.push(Explorable::at_state(&measured, &state));
        tally.state(node, h, report.cost);
        outs.clear();
        measured.slides(&state, &mut outs);
        for out in &outs {
            let h_next = measured.board_heuristic(&out.state);
            if h > out.cost + h_next {
                // Kept, so that the example can name it.
                let to = positions.len() as u32;
                positions.push(Explorable::at_state(&measured, &out.state));
                tally.edge(node, to, out.cost, h, h_next);
            } else {
                tally.edge(node, node, out.cost, h, h_next);
            }
        }
        done = i + 1;
        progress(done);
    }
    if done == 0 {
        return Err("the measure was stopped".to_owned());
    }
    tally.sampled(done as u64);
    Ok((tally.finish(), positions))
}
