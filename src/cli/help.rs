//! The help texts read from the type registry: the types `--type` takes, the type list after
//! the top-level help, and each type's settings for `solve --set`.

use crate::puzzles;

/// The values `--type` takes, read from the type registry ([`puzzles::TYPES`]), so the help
/// lists every type (it once missed `rush-hour`) and a misspelt one is refused with them.
pub(super) fn type_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        puzzles::TYPES
            .iter()
            .map(|t| clap::builder::PossibleValue::new(t.name).help(t.label)),
    )
}

/// The list of puzzle types after the top-level help, read from the registry
/// ([`puzzles::TYPES`]).
pub(super) fn types_help() -> String {
    let mut text = String::from("Puzzle types (--type):\n");
    for t in puzzles::TYPES {
        text += &format!("  {:<10} {}\n", t.name, t.label);
    }
    text
}

/// The long help of `solve --set`: each type's settings (its [`puzzles::Puzzle::options`],
/// read from its shipped puzzle), one type a line, in registry order.
pub(super) fn set_help() -> String {
    let mut text = String::from(
        "A setting of the puzzle's type, as NAME=VALUE (repeatable); an option the type does \
         not take is an error listing its options. The types' settings:",
    );
    for t in puzzles::TYPES {
        let Some(first) = t.shipped.first() else {
            continue;
        };
        let Ok(puzzle) = (t.parse_text)(first.text) else {
            continue;
        };
        let options: Vec<String> = puzzle
            .options()
            .iter()
            .map(|o| format!("{}={}", o.name, o.values))
            .collect();
        if !options.is_empty() {
            text += &format!("\n- {}: {}", t.name, options.join(", "));
        }
    }
    text
}
