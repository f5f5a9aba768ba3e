//! What Klondike lends the command line through the registry: its generator of `generate
//! klondike` ([`GENERATOR`]), a board in Loyd's style with a long shortest solution
//! ([`super::generate`]).

use super::generate::{Request, generate};
use crate::puzzles::batch::{self, Console, GenerateArgs, emit_to, ranged};
use crate::search::CancelToken;

/// `generate klondike`.
pub static GENERATOR: batch::Generator = batch::Generator {
    help: "a board in Loyd's style with a long shortest solution",
    is_default: false,
    arguments: <KlondikeOptions as clap::Args>::augment_args,
    run: |matches, console| batch::run_generator(matches, console, generate_klondike),
};

/// The options of `generate klondike`, its own (it reads `--min-length`, `--time` and
/// `--seed` of [`GenerateArgs`] too).
#[derive(Debug, clap::Args)]
struct KlondikeOptions {
    /// Klondike: board squares across the ring, 5 to 41 (Loyd's: 21).
    #[arg(long, default_value_t = 21, value_parser = ranged(5usize, 41))]
    size: usize,
    /// Klondike: the shortest solution must be the only one of its length.
    #[arg(long)]
    unique: bool,
}

/// `generate klondike`: the best board found printed, what it took on standard error; exit
/// code 1 when none met the request within `--time`.
fn generate_klondike(own: &KlondikeOptions, args: &GenerateArgs, console: &mut dyn Console) -> u8 {
    let budget = match args.budget(console) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let request = Request {
        size: own.size,
        min_length: args.min_length,
        unique: own.unique,
        seed: args.seed,
        budget,
    };
    let found = generate(&request, &CancelToken::new(), &mut |_, _| {});
    emit_to!(console, &crate::puzzles::Puzzle::to_text(&found.board));
    let said = format!(
        "shortest solution: {} jumps, {} of that length; {} boards scored in {} restarts, {:.1} s",
        found.length,
        found.solutions,
        found.evaluated,
        found.restarts,
        found.elapsed.as_secs_f64()
    );
    let missed = format!(
        "no board met the request within {} s; the best found is printed",
        args.time
    );
    batch::generate::ended(console, &said, (!found.meets).then_some(missed.as_str()))
}
