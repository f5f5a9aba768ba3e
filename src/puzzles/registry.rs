//! The registry of puzzle types: one line per type in [`TYPES`], the only list of types in
//! the program. The side panel's type list, the command line's `--type` values and help,
//! `generate`, type detection and the tests' lists are all read from it; the GUI's views
//! (`ui::views::VIEWS`) join it by reference to each type's entry.

// The types' modules are declared here, so `super` in them is this module: they see the
// contract's items through this glob.
#[allow(unused_imports)]
use super::*;

/// Declares each type's module (its folder beside this file, re-exported as
/// `puzzles::<module>`) and lists its entry in [`TYPES`], in the order given; what a type
/// lends as a type follows its path in braces (`{ bench: bench::BENCH }`, an item of its
/// module), gathered in [`lent_by`]'s table.
macro_rules! puzzle_types {
    ($($module:ident = $path:literal $({ $($lent:ident: $($item:ident)::+),+ $(,)? })?,)*) => {
        $(#[path = $path] pub mod $module;)*

        /// Every puzzle type, in the order the GUI lists them; the first is the one the app
        /// opens on. Adding a type means adding its folder and one line to the list below.
        pub static TYPES: &[&PuzzleType] = &[$(&$module::TYPE),*];

        /// What each type lends as a type, in the order of [`TYPES`]. (The update from
        /// `NONE` is needless for a type lending every kind there is.)
        #[allow(clippy::needless_update)]
        static LENT: &[TypeCapabilities] = &[$(TypeCapabilities {
            $($($lent: Some(&$module::$($item)::+),)+)?
            ..TypeCapabilities::NONE
        }),*];
    };
}

puzzle_types! {
    klondike = "klondike/mod.rs" { generator: commands::GENERATOR },
    maze = "maze/mod.rs" { commands: commands::COMMANDS, generator: commands::GENERATOR },
    car_maze = "car_maze/mod.rs",
    klotski = "klotski/mod.rs",
    sliding = "sliding/mod.rs" { bench: bench::BENCH },
    rush_hour = "rush_hour/mod.rs",
    script = "script/mod.rs",
    sokoban = "sokoban/mod.rs" { bench: bench::BENCH },
    planning = "planning/mod.rs" { bench: bench::BENCH },
}

/// What type `t` lends as a type ([`TypeCapabilities`]): nothing for a type not in
/// [`TYPES`].
pub fn lent_by(t: &PuzzleType) -> TypeCapabilities {
    TYPES
        .iter()
        .position(|x| std::ptr::eq(*x, t))
        .map_or(TypeCapabilities::NONE, |i| LENT[i])
}

/// Every type that lends a benchmark (`bench <type>`), with it, in registry order.
pub fn benches() -> impl Iterator<Item = (&'static PuzzleType, &'static Bench)> {
    TYPES
        .iter()
        .zip(LENT)
        .filter_map(|(t, lent)| lent.bench.map(|b| (*t, b)))
}

/// The puzzle type with command-line name `name`.
pub fn type_by_name(name: &str) -> Option<&'static PuzzleType> {
    TYPES.iter().copied().find(|t| t.name == name)
}

/// The command-line names of every type, in registry order, joined by `", "` (for help and
/// error messages).
pub fn type_names() -> String {
    let names: Vec<&str> = TYPES.iter().map(|t| t.name).collect();
    names.join(", ")
}

/// Every shipped puzzle, with its type.
pub fn shipped() -> impl Iterator<Item = (&'static PuzzleType, &'static Shipped)> {
    TYPES
        .iter()
        .flat_map(|t| t.shipped.iter().map(move |s| (*t, s)))
}

/// The type a plain-text puzzle is in: the best [`PuzzleType::sniff`] score of at least 0.5.
///
/// # Errors
/// A [`FormatError`] when no type fits, listing each type's telltale characters
/// ([`PuzzleType::text_hint`]).
pub fn detect_type(text: &str) -> Result<&'static PuzzleType, FormatError> {
    TYPES
        .iter()
        .copied()
        .map(|t| (t, (t.sniff)(text)))
        .filter(|(_, score)| *score >= 0.5)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, _)| t)
        .ok_or_else(|| {
            let hints: Vec<String> = TYPES
                .iter()
                .map(|t| format!("{}: {}", t.name, t.text_hint))
                .collect();
            FormatError::new(format!(
                "cannot tell the puzzle type from this text; name it with --type ({})",
                hints.join("; ")
            ))
        })
}
