//! `generate` (mazes, Klondike boards, and the hardest of random layouts of every type that
//! makes them) and `percolation` (its threshold by Monte Carlo).

use crate::puzzles::maze::generate::{self, Generator};
use crate::puzzles::maze::percolation::{Experiment, run_experiment};
use crate::puzzles::maze::{Connectivity, Maze};
use crate::puzzles::{self, Puzzle as _};
use crate::search::CancelToken;
use crate::search::limits::MAX_TIMEOUT_SECS;
use std::io::Write as _;
use std::time::Duration;

use super::*;

/// The types `generate` has a generator of its own for (with its own options); every other
/// type it makes is one whose shipped puzzle makes random layouts ([`generate_layout`]).
static OWN_GENERATORS: &[OwnGenerator] = &[
    OwnGenerator {
        engine: &puzzles::maze::TYPE,
        run: generate_maze,
        help: "a maze by one of the generators (-a)",
    },
    OwnGenerator {
        engine: &puzzles::klondike::TYPE,
        run: generate_klondike,
        help: "a board in Loyd's style with a long shortest solution",
    },
];

/// A type's generator of its own: its engine entry, the function and the help line.
struct OwnGenerator {
    engine: &'static puzzles::PuzzleType,
    run: fn(&GenerateArgs) -> u8,
    help: &'static str,
}

/// The values `generate` takes ([`generatable`]), each with what it makes, for the help.
pub(super) fn kinds() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(generatable().into_iter().map(|t| {
        let help = own_generator(t).map_or(
            "the hardest position of random layouts like the shipped default, at least \
             --min-length moves from the goal",
            |g| g.help,
        );
        clap::builder::PossibleValue::new(t.name).help(help)
    }))
}

/// What `generate` makes, in the order of the registry ([`puzzles::TYPES`]): the types with
/// a generator of their own and those whose shipped puzzle makes random layouts (see
/// [`puzzles::RandomLayouts`]).
pub(super) fn generatable() -> Vec<&'static puzzles::PuzzleType> {
    puzzles::TYPES
        .iter()
        .copied()
        .filter(|t| own_generator(t).is_some() || makes_layouts(t))
        .collect()
}

/// The generator of its own of type `t`, if it has one.
fn own_generator(t: &puzzles::PuzzleType) -> Option<&'static OwnGenerator> {
    OWN_GENERATORS.iter().find(|g| std::ptr::eq(g.engine, t))
}

/// Whether the shipped puzzle of type `t` makes random layouts.
fn makes_layouts(t: &puzzles::PuzzleType) -> bool {
    t.shipped.first().is_some_and(|s| {
        (t.parse_text)(s.text).is_ok_and(|p| p.capabilities().random_layouts.is_some())
    })
}

pub(super) fn generate(args: &GenerateArgs) -> u8 {
    let kinds = generatable();
    let found = kinds.iter().find(|t| t.name == args.what);
    let Some(t) = found else {
        let known: Vec<&str> = kinds.iter().map(|t| t.name).collect();
        say!(
            "unknown kind `{}` to generate (known: {})",
            args.what,
            known.join(", ")
        );
        return EXIT_BAD_INPUT;
    };
    match own_generator(t) {
        Some(generator) => (generator.run)(args),
        None => generate_layout(args, t),
    }
}

/// `generate maze`: a maze by one of the generators, braided.
fn generate_maze(args: &GenerateArgs) -> u8 {
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

/// `generate klondike`: a board in Loyd's style with a long shortest solution.
fn generate_klondike(args: &GenerateArgs) -> u8 {
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

/// `generate T` for a type `T` whose shipped puzzle makes random layouts: the hardest
/// position of seeded random layouts like the type's default puzzle (see [`puzzles::oracle::hardest_of_random`]).
pub(super) fn generate_layout(args: &GenerateArgs, t: &puzzles::PuzzleType) -> u8 {
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
