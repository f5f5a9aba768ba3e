//! The subcommands: the command line's own ([`Builtin`]) and those the types lend through
//! the registry ([`puzzles::batch::Command`]: the maze's `scenario` and `percolation`), each
//! of these listed after the subcommand it follows.

use clap::Subcommand as _;

use super::bench::{self, BenchCommand};
use super::generators::GenerateCommand;
use super::merge::{self, MergeArgs};
use super::{
    CompareArgs, SolveArgs, StatesArgs, Terminal, compare, generate, puzzles, solve, states,
};

/// The command line's own subcommands.
#[derive(Debug, clap::Subcommand)]
pub(super) enum Builtin {
    /// Solve a puzzle file and print the solution and the statistics of the search.
    Solve(SolveArgs),
    /// Count the states reachable from a puzzle's start, and how many of them are solved.
    States(StatesArgs),
    /// Run several algorithms on one puzzle and print a table of their results.
    Compare(CompareArgs),
    /// Benchmarks: `bench sliding` solves a batch of sliding tile puzzles optimally with IDA*
    /// (boards from a file, or a seeded random set) and reports per instance and in total;
    /// `bench <type>` runs a type's own benchmark over a collection of its instances.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Join the JSON outputs of the shards of one batch (`scenario` or `bench sliding` run
    /// with `--shard K/N --json`) into the one object the batch run whole prints.
    Merge(MergeArgs),
    /// Generate a puzzle and print it in the text format: a maze, a Klondike board, or the
    /// hardest of random layouts of a type that makes them.
    Generate(GenerateCommand),
}

/// A subcommand, parsed.
#[derive(Debug)]
pub(super) enum Command {
    /// One of the command line's own.
    Builtin(Builtin),
    /// One a type lends (its name), with the arguments parsed by its definition.
    Lent(&'static str, clap::ArgMatches),
}

/// Every subcommand the types lend, in registry order.
fn lent() -> impl Iterator<Item = &'static puzzles::batch::Command> {
    puzzles::TYPES
        .iter()
        .filter_map(|t| puzzles::lent_by(t).commands)
        .flatten()
}

/// Every subcommand as clap builds it, in the order of the help: the command line's own,
/// each lent one right after the one it follows (at the end when that is none of them).
fn ordered() -> Vec<clap::Command> {
    let own = Builtin::augment_subcommands(clap::Command::new("puzzlelab"));
    // The order is given again here: the one each had among the command line's own goes.
    let mut list: Vec<clap::Command> = own
        .get_subcommands()
        .map(|c| c.clone().display_order(None))
        .collect();
    for command in lent() {
        let built = (command.arguments)(clap::Command::new(command.name)).about(command.about);
        match list.iter().position(|c| c.get_name() == command.follows) {
            Some(i) => list.insert(i + 1, built),
            None => list.push(built),
        }
    }
    list
}

/// The names of the subcommands, in the order of the help (for the message about an
/// unknown one).
pub(super) fn names() -> Vec<String> {
    ordered().iter().map(|c| c.get_name().to_owned()).collect()
}

impl clap::FromArgMatches for Command {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        if let Some((name, sub)) = matches.subcommand()
            && let Some(command) = lent().find(|c| c.name == name)
        {
            return Ok(Command::Lent(command.name, sub.clone()));
        }
        Builtin::from_arg_matches(matches).map(Command::Builtin)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Subcommand for Command {
    fn augment_subcommands(command: clap::Command) -> clap::Command {
        command.subcommands(ordered())
    }

    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        Self::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        Builtin::has_subcommand(name) || lent().any(|c| c.name == name)
    }
}

impl Command {
    /// Runs the subcommand; its exit code.
    pub(super) fn run(&self) -> u8 {
        match self {
            Command::Builtin(Builtin::Solve(args)) => solve(args),
            Command::Builtin(Builtin::States(args)) => states(args),
            Command::Builtin(Builtin::Compare(args)) => compare(args),
            Command::Builtin(Builtin::Bench(command)) => bench::bench(command),
            Command::Builtin(Builtin::Merge(args)) => merge::merge(args),
            Command::Builtin(Builtin::Generate(command)) => generate(command),
            Command::Lent(name, matches) => match lent().find(|c| c.name == *name) {
                Some(command) => (command.run)(matches, &mut Terminal),
                None => super::EXIT_BAD_INPUT,
            },
        }
    }
}
