//! What `generate` gives every generator: its options shared by all ([`GenerateArgs`]:
//! `--min-length`, `--time`, `--seed`), and the generator of every type whose shipped puzzle
//! makes random layouts ([`hardest_layout`]). The types' own generators are lent through the
//! registry ([`super::Generator`]).

use std::time::Duration;

use super::{Console, EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_SOLVED, emit_to, ranged};
use crate::puzzles;
use crate::search::CancelToken;
use crate::search::limits::MAX_TIMEOUT_SECS;

/// The options of `generate` every generator may read, beside its own.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Klondike: the least number of jumps of the shortest solution; Rush Hour and Klotski:
    /// the least number of moves from the goal; 1 to 60 (Klotski: up to 1000).
    #[arg(long, default_value_t = 10, value_parser = ranged(1usize, 1000))]
    pub min_length: usize,
    /// Klondike: give up after this many seconds with the best board found (exit 1).
    #[arg(long, default_value_t = 120.0)]
    pub time: f64,
    /// The seed: the same seed gives the same maze.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl GenerateArgs {
    /// `--time` as a duration, or the exit code of a value out of range (said).
    ///
    /// # Errors
    /// [`EXIT_BAD_INPUT`] when `--time` is not from 0.001 to [`MAX_TIMEOUT_SECS`] seconds.
    pub fn budget(&self, console: &mut dyn Console) -> Result<Duration, u8> {
        if (0.001..=MAX_TIMEOUT_SECS).contains(&self.time) {
            Ok(Duration::from_secs_f64(self.time))
        } else {
            console.say(&format!(
                "--time must be from 0.001 to {MAX_TIMEOUT_SECS} seconds"
            ));
            Err(EXIT_BAD_INPUT)
        }
    }
}

/// Whether the shipped puzzle of type `t` makes random layouts ([`puzzles::RandomLayouts`]),
/// so that `generate` makes its hardest ([`hardest_layout`]).
pub fn makes_layouts(t: &puzzles::PuzzleType) -> bool {
    t.shipped.first().is_some_and(|s| {
        (t.parse_text)(s.text).is_ok_and(|p| p.capabilities().random_layouts.is_some())
    })
}

/// `generate T` for a type `T` whose shipped puzzle makes random layouts: the hardest
/// position of seeded random layouts like the type's default puzzle (see
/// [`puzzles::oracle::hardest_of_random`]), printed, with what it took on standard error;
/// exit code 1 when none reached `--min-length` within `--time`.
pub fn hardest_layout(
    args: &GenerateArgs,
    t: &puzzles::PuzzleType,
    console: &mut dyn Console,
) -> u8 {
    let budget = match args.budget(console) {
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
            console.say(&e.to_string());
            return EXIT_NO_SOLUTION;
        }
    };
    emit_to!(console, &found.puzzle.to_text());
    let said = format!(
        "hardest position: {} moves from the goal; {} layouts explored in {:.1} s",
        found.distance,
        found.layouts,
        found.elapsed.as_secs_f64()
    );
    let missed = format!(
        "no layout reached {} moves within {} s; the hardest found is printed",
        args.min_length, args.time
    );
    ended(console, &said, (!found.meets).then_some(missed.as_str()))
}

/// The end of a generator's run, its puzzle printed: what it took said on standard error,
/// then, when the puzzle falls short of the request, why (`missed`); exit code 0, or 1 when
/// it falls short.
pub fn ended(console: &mut dyn Console, said: &str, missed: Option<&str>) -> u8 {
    console.say(said);
    match missed {
        None => EXIT_SOLVED,
        Some(missed) => {
            console.say(missed);
            EXIT_NO_SOLUTION
        }
    }
}
