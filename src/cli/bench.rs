//! `puzzlelab bench <what>`: `bench sliding` (its own file, `bench_sliding.rs`) and the
//! benchmark of every type that lends one through the registry ([`puzzles::benches`]), its
//! arguments and its run its own. `bench sliding` is the one still written here, to be lent
//! the same way.

use clap::Args as _;

use super::bench_sliding;
use crate::puzzles;

/// What to benchmark: `bench sliding`, or `bench <type>` for every type that lends a
/// benchmark through the registry ([`puzzles::benches`]), its arguments its own.
#[derive(Debug)]
pub(super) enum BenchCommand {
    /// `bench sliding`, its arguments (its help is its subcommand's `about`).
    Sliding(bench_sliding::SlidingArgs),
    /// A type's own benchmark, with the arguments parsed by its definition.
    Lent(&'static str, clap::ArgMatches),
}

/// The name of `bench sliding`.
const SLIDING: &str = "sliding";

impl clap::FromArgMatches for BenchCommand {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::MissingSubcommand);
        let (name, sub) = matches.subcommand().ok_or_else(missing)?;
        if name == SLIDING {
            return bench_sliding::SlidingArgs::from_arg_matches(sub).map(BenchCommand::Sliding);
        }
        let (t, _) = puzzles::benches()
            .find(|(t, _)| t.name == name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        Ok(BenchCommand::Lent(t.name, sub.clone()))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Subcommand for BenchCommand {
    fn augment_subcommands(command: clap::Command) -> clap::Command {
        let sliding = bench_sliding::SlidingArgs::augment_args(clap::Command::new(SLIDING)).about(
            "Solve sliding tile puzzles optimally with IDA* in one process, and report per \
             instance and in total the solution length, the states expanded and generated, \
             the time and the nodes generated a second. The boards come from `--instances \
             FILE` or are a seeded random set (`--count N --seed S`).",
        );
        let lent = puzzles::benches()
            .map(|(t, bench)| (bench.arguments)(clap::Command::new(t.name)).about(bench.about));
        command
            .subcommand(sliding)
            .subcommands(lent)
            .subcommand_required(true)
    }

    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        Self::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        name == SLIDING || puzzles::benches().any(|(t, _)| t.name == name)
    }
}

pub(super) fn bench(command: &BenchCommand) -> u8 {
    match command {
        BenchCommand::Sliding(args) => bench_sliding::sliding(args),
        BenchCommand::Lent(name, matches) => {
            match puzzles::benches().find(|(t, _)| t.name == *name) {
                Some((_, bench)) => (bench.run)(matches, &mut super::Terminal),
                None => super::EXIT_BAD_INPUT,
            }
        }
    }
}
