//! `puzzlelab bench <type>`: the benchmark of every type that lends one through the registry
//! ([`puzzles::benches`]), its arguments and its run its own.

use crate::puzzles;

/// A type's own benchmark, `bench <type>`, with the arguments parsed by its definition.
#[derive(Debug)]
pub(super) struct BenchCommand(&'static str, clap::ArgMatches);

impl clap::FromArgMatches for BenchCommand {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::MissingSubcommand);
        let (name, sub) = matches.subcommand().ok_or_else(missing)?;
        let (t, _) = puzzles::benches()
            .find(|(t, _)| t.name == name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))?;
        Ok(BenchCommand(t.name, sub.clone()))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Subcommand for BenchCommand {
    fn augment_subcommands(command: clap::Command) -> clap::Command {
        let lent = puzzles::benches()
            .map(|(t, bench)| (bench.arguments)(clap::Command::new(t.name)).about(bench.about));
        command.subcommands(lent).subcommand_required(true)
    }

    fn augment_subcommands_for_update(command: clap::Command) -> clap::Command {
        Self::augment_subcommands(command)
    }

    fn has_subcommand(name: &str) -> bool {
        puzzles::benches().any(|(t, _)| t.name == name)
    }
}

pub(super) fn bench(command: &BenchCommand) -> u8 {
    let BenchCommand(name, matches) = command;
    match puzzles::benches().find(|(t, _)| t.name == *name) {
        Some((_, bench)) => (bench.run)(matches, &mut super::Terminal),
        None => super::EXIT_BAD_INPUT,
    }
}
