//! `generate`: a puzzle of a type with a generator of its own (lent through the registry,
//! [`puzzles::Generator`], with options of its own), or the hardest of random layouts of a
//! type whose shipped puzzle makes them ([`puzzles::batch::generate::hardest_layout`]).

use std::io::Write as _;

use crate::puzzles::batch::{self, GenerateArgs};
use crate::puzzles::{self, PuzzleType};

use super::*;

/// `generate`'s arguments: `WHAT`, the options every generator shares ([`GenerateArgs`]) and
/// every lent generator's own, all parsed, whichever `WHAT` reads them.
#[derive(Debug)]
pub(super) struct GenerateCommand {
    /// What to generate: a type's name.
    what: String,
    /// Every argument, as parsed.
    matches: clap::ArgMatches,
}

/// The name of `WHAT`'s argument.
const WHAT: &str = "what";

impl clap::FromArgMatches for GenerateCommand {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let what = matches
            .get_one::<String>(WHAT)
            .cloned()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingRequiredArgument))?;
        Ok(GenerateCommand {
            what,
            matches: matches.clone(),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for GenerateCommand {
    fn augment_args(command: clap::Command) -> clap::Command {
        let mut what = clap::Arg::new(WHAT)
            .value_name("WHAT")
            .help("What to generate: a puzzle type")
            .value_parser(kinds());
        if let Some(t) = default_kind() {
            what = what.default_value(t.name).help(format!(
                "What to generate: a puzzle type (default `{}`)",
                t.name
            ));
        }
        let command = GenerateArgs::augment_args(command.arg(what));
        puzzles::TYPES
            .iter()
            .filter_map(|t| puzzles::lent_by(t).generator)
            .fold(command, |command, g| (g.arguments)(command))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// The values `generate` takes ([`generatable`]), each with what it makes, for the help.
fn kinds() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(generatable().into_iter().map(|t| {
        let help = puzzles::lent_by(t).generator.map_or(
            "the hardest position of random layouts like the shipped default, at least \
             --min-length moves from the goal",
            |g| g.help,
        );
        clap::builder::PossibleValue::new(t.name).help(help)
    }))
}

/// What `generate` makes with no `WHAT`: the type whose generator says so.
fn default_kind() -> Option<&'static PuzzleType> {
    puzzles::TYPES
        .iter()
        .copied()
        .find(|t| puzzles::lent_by(t).generator.is_some_and(|g| g.is_default))
}

/// What `generate` makes, in the order of the registry ([`puzzles::TYPES`]): the types with
/// a generator of their own and those whose shipped puzzle makes random layouts (see
/// [`puzzles::RandomLayouts`]).
fn generatable() -> Vec<&'static PuzzleType> {
    puzzles::TYPES
        .iter()
        .copied()
        .filter(|t| puzzles::lent_by(t).generator.is_some() || batch::generate::makes_layouts(t))
        .collect()
}

pub(super) fn generate(command: &GenerateCommand) -> u8 {
    let kinds = generatable();
    let Some(t) = kinds.iter().find(|t| t.name == command.what) else {
        let known: Vec<&str> = kinds.iter().map(|t| t.name).collect();
        say!(
            "unknown kind `{}` to generate (known: {})",
            command.what,
            known.join(", ")
        );
        return EXIT_BAD_INPUT;
    };
    let console = &mut Terminal;
    match puzzles::lent_by(t).generator {
        Some(generator) => (generator.run)(&command.matches, console),
        None => match <GenerateArgs as clap::FromArgMatches>::from_arg_matches(&command.matches) {
            Ok(args) => batch::generate::hardest_layout(&args, t, console),
            Err(e) => {
                let _ = e.print();
                EXIT_BAD_INPUT
            }
        },
    }
}
