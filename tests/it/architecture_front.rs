//! The front ends' rule of issue 57 (beside `architecture.rs`, which holds it for `src/app`
//! and `src/ui`): the command line names no concrete type. What only some types do on the
//! command line (a benchmark over a collection of instances, a subcommand of its own, a
//! generator of its own) is lent through the registry (`puzzles::batch::TypeCapabilities`),
//! so a new type adds no code to `src/cli`.

use std::path::Path;

use super::architecture::{TypeNames, names, registry_types, rust_files, string_literals};

/// `text` without its lines of comment.
fn code_of(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Whether the code of `text` (its lines of comment left out: the help may mention a type)
/// names type `t`: its model's identifier, a path into its module, or its name as a string.
fn names_the_type(text: &str, t: &TypeNames) -> bool {
    let code = code_of(text);
    names(&code, &t.ident)
        || code.contains(&format!("{}::", t.module))
        || string_literals(&code)
            .iter()
            .any(|(_, l)| l == t.name || l == &t.module)
}

#[test]
fn the_type_check_sees_code_not_comments() {
    let types = registry_types();
    let t = &types[0];
    assert!(names_the_type(&format!("let x = {}::new();", t.ident), t));
    assert!(names_the_type(
        &format!("use crate::puzzles::{}::TYPE;", t.module),
        t
    ));
    assert!(names_the_type(&format!("let n = \"{}\";", t.name), t));
    assert!(!names_the_type(
        &format!("/// a {} board\nfn f() {{}}", t.ident),
        t
    ));
    assert!(!names_the_type(
        &format!("let n = \"a {} board\";", t.name),
        t
    ));
}

#[test]
fn the_command_line_names_no_type() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut found = Vec::new();
    for file in rust_files(&root) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        let relative = file.strip_prefix(&root).expect("under src/cli");
        let relative = relative.to_string_lossy().replace('\\', "/");
        for t in registry_types() {
            if names_the_type(&text, &t) {
                found.push((relative.clone(), t.name));
            }
        }
    }
    assert!(found.is_empty(), "src/cli names a type: {found:#?}");
}

/// The views' registry (`src/ui/views/mod.rs`) names each type in its `type_views!` list
/// and nowhere else in its code: no re-export of a view's items under a type's name (a test
/// names them through the view's module, `views::maze::Command`), so a new view adds one
/// line there.
#[test]
fn the_views_registry_names_types_in_its_list_only() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui/views/mod.rs");
    let text = std::fs::read_to_string(path).expect("the views' registry");
    let start = text.find("type_views! {").expect("the registry's list");
    let end = start + text[start..].find('}').expect("the list's end") + 1;
    let listed = &text[start..end];
    let outside = code_of(&format!("{}{}", &text[..start], &text[end..]));
    let mut offenders = Vec::new();
    for t in registry_types() {
        if !names(listed, &t.module) {
            offenders.push(format!("{} is not in the list", t.module));
        }
        if names_the_type(&outside, &t) || names(&outside, &t.module) {
            offenders.push(format!("{} is named outside the list", t.module));
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}
