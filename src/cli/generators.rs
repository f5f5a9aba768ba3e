//! `generate` (mazes, Klondike boards, Rush Hour and Klotski layouts) and `percolation` (its threshold by Monte Carlo).

use crate::puzzles::maze::generate::{self, Generator};
use crate::puzzles::maze::percolation::{Experiment, run_experiment};
use crate::puzzles::maze::{Connectivity, Maze};
use crate::puzzles::{self, Puzzle as _};
use crate::search::CancelToken;
use crate::search::limits::MAX_TIMEOUT_SECS;
use std::io::Write as _;
use std::time::Duration;

use super::*;

pub(super) fn generate(args: &GenerateArgs) -> u8 {
    match args.what.as_str() {
        "maze" => {}
        "klondike" => return generate_klondike(args),
        "rush-hour" | "klotski" => return generate_layout(args),
        other => {
            say!("unknown kind `{other}` to generate (known: maze, klondike, rush-hour, klotski)");
            return EXIT_BAD_INPUT;
        }
    }
    let Some(generator) = Generator::from_name(&args.algorithm) else {
        let known: Vec<&str> = Generator::ALL.iter().map(|g| g.name()).collect();
        say!(
            "unknown generator `{}` (known: {})",
            args.algorithm,
            known.join(", ")
        );
        return EXIT_BAD_INPUT;
    };
    if !(0.0..=1.0).contains(&args.braid) {
        say!("--braid must be from 0 to 1");
        return EXIT_BAD_INPUT;
    }
    let generated = generate::generate(generator, args.rows, args.cols, args.seed, args.braid);
    let mut maze = Maze::new(3, 3);
    maze.apply_generated(&generated);
    emit!(&maze.to_text());
    EXIT_SOLVED
}

/// `generate`'s `--time` as a duration, or the exit code of a value out of range.
pub(super) fn generate_budget(args: &GenerateArgs) -> Result<Duration, u8> {
    if (0.001..=MAX_TIMEOUT_SECS).contains(&args.time) {
        Ok(Duration::from_secs_f64(args.time))
    } else {
        say!("--time must be from 0.001 to {MAX_TIMEOUT_SECS} seconds");
        Err(EXIT_BAD_INPUT)
    }
}

pub(super) fn generate_klondike(args: &GenerateArgs) -> u8 {
    use crate::puzzles::klondike::generate::{Request, generate};
    let budget = match generate_budget(args) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let request = Request {
        size: args.size,
        min_length: args.min_length,
        unique: args.unique,
        seed: args.seed,
        budget,
    };
    let found = generate(&request, &CancelToken::new(), &mut |_, _| {});
    emit!(&found.board.to_text());
    say!(
        "shortest solution: {} jumps, {} of that length; {} boards scored in {} restarts, {:.1} s",
        found.length,
        found.solutions,
        found.evaluated,
        found.restarts,
        found.elapsed.as_secs_f64()
    );
    if found.meets {
        EXIT_SOLVED
    } else {
        say!(
            "no board met the request within {} s; the best found is printed",
            args.time
        );
        EXIT_NO_SOLUTION
    }
}

/// `generate rush-hour` and `generate klotski`: the hardest position of seeded random layouts
/// like the type's default puzzle (see [`puzzles::oracle::hardest_of_random`]).
pub(super) fn generate_layout(args: &GenerateArgs) -> u8 {
    let Some(t) = puzzles::type_by_name(&args.what) else {
        say!("unknown puzzle type `{}`", args.what);
        return EXIT_BAD_INPUT;
    };
    let budget = match generate_budget(args) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let template = t.default_puzzle();
    let found = puzzles::oracle::hardest_of_random(
        template.as_ref(),
        args.min_length as u32,
        args.seed,
        budget,
        &CancelToken::new(),
        &mut |_, _| {},
    );
    let found = match found {
        Ok(f) => f,
        Err(e) => {
            say!("{e}");
            return EXIT_NO_SOLUTION;
        }
    };
    emit!(&found.puzzle.to_text());
    say!(
        "hardest position: {} moves from the goal; {} layouts explored in {:.1} s",
        found.distance,
        found.layouts,
        found.elapsed.as_secs_f64()
    );
    if found.meets {
        EXIT_SOLVED
    } else {
        say!(
            "no layout reached {} moves within {} s; the hardest found is printed",
            args.min_length,
            args.time
        );
        EXIT_NO_SOLUTION
    }
}

pub(super) fn percolation(args: &PercolationArgs) -> u8 {
    let connectivity = match args.moves {
        4 => Connectivity::Four,
        8 => Connectivity::Eight,
        m => {
            say!("--moves must be 4 or 8, not {m}");
            return EXIT_BAD_INPUT;
        }
    };
    let experiment = Experiment {
        side: args.side,
        trials: args.trials,
        steps: args.steps,
        connectivity,
        seed: args.seed,
    };
    let curve = run_experiment(&experiment, &CancelToken::new(), |_| {});
    if args.json {
        let v = serde_json::json!({
            "side": args.side,
            "trials": args.trials,
            "moves": args.moves,
            "curve": curve,
        });
        emit!(&format!("{v:#}\n"));
    } else {
        let mut text = String::from("open  percolating\n");
        for p in &curve {
            text += &format!("{:.3}  {:.3}\n", p.open, p.fraction);
        }
        emit!(&text);
    }
    EXIT_SOLVED
}
