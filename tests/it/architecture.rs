//! The layout the code promises (README "Layout"): shared GUI files never name a concrete
//! puzzle type, and the layers import one way (ui -> app -> solver -> runs -> puzzles ->
//! search).

use std::path::{Path, PathBuf};

/// The registry's types ([`puzzlelab::puzzles::TYPES`]): each one's command-line name
/// (`rush-hour`), module (`rush_hour`, its folder under `src/puzzles/` and its view under
/// `src/ui/views/`) and the identifier of its model (`RushHour`). The tests' lists of types
/// are all derived from it; `types_follow_the_naming_convention` checks the convention.
pub(crate) struct TypeNames {
    pub(crate) name: &'static str,
    pub(crate) module: String,
    pub(crate) ident: String,
}

pub(crate) fn registry_types() -> Vec<TypeNames> {
    puzzlelab::puzzles::TYPES
        .iter()
        .map(|t| {
            let module = t.name.replace('-', "_");
            let ident = module
                .split('_')
                .map(|w| {
                    let mut c = w.chars();
                    c.next()
                        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                        .unwrap_or_default()
                })
                .collect();
            TypeNames {
                name: t.name,
                module,
                ident,
            }
        })
        .collect()
}

/// The Rust files under `dir`, recursively.
pub(crate) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Whether `word` occurs in `text` as a whole identifier (not inside a longer one).
pub(crate) fn names(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// A type's own file: under a `views/` folder, or named after a type.
fn is_a_types_own(path: &Path) -> bool {
    let types = registry_types();
    path.components().any(|c| c.as_os_str() == "views")
        || path
            .file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|s| types.iter().any(|t| t.module == s))
}

#[test]
fn shared_gui_files_name_no_concrete_puzzle_type() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    for dir in ["ui", "app"] {
        for file in rust_files(&root.join(dir)) {
            if is_a_types_own(&file) {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("a source file");
            for word in registry_types().iter().map(|t| t.ident.clone()) {
                if names(&text, &word) {
                    offenders.push(format!("{} names {word}", file.display()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn layers_import_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // Each layer and the layers above it, which it must not import.
    let layers: [(&str, &[&str]); 5] = [
        ("app", &["crate::ui"]),
        ("solver.rs", &["crate::ui", "crate::app"]),
        (
            "runs",
            &["crate::ui", "crate::app", "crate::solver", "egui"],
        ),
        (
            "puzzles",
            &["crate::ui", "crate::app", "crate::solver", "egui"],
        ),
        (
            "search",
            &[
                "crate::ui",
                "crate::app",
                "crate::solver",
                "crate::puzzles",
                "egui",
            ],
        ),
    ];
    let mut offenders = Vec::new();
    for (layer, above) in layers {
        let path = root.join(layer);
        let files = if path.is_dir() {
            rust_files(&path)
        } else {
            vec![path]
        };
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            for name in above {
                if text.contains(name) {
                    offenders.push(format!("{} uses {name}", file.display()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn the_identifier_check_sees_whole_words_only() {
    assert!(names("let m: Maze = x;", "Maze"));
    assert!(names("Maze::new(3, 3)", "Maze"));
    assert!(!names("MazeView", "Maze"));
    assert!(!names("CarMaze", "Maze"));
    assert!(!names("a grid maze", "Maze"));
}

#[test]
fn the_integration_tests_are_one_crate() {
    // `cargo test` links one integration-test binary (tests/it/main.rs): a top-level file
    // or folder under tests/ with Rust code would be another crate, another link.
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut crates = Vec::new();
    for entry in std::fs::read_dir(&tests).expect("the tests folder") {
        let path = entry.expect("a folder entry").path();
        let is_crate = if path.is_dir() {
            path.join("main.rs").is_file()
        } else {
            path.extension().is_some_and(|e| e == "rs")
        };
        if is_crate {
            crates.push(path.file_name().map(|n| n.to_string_lossy().into_owned()));
        }
    }
    assert_eq!(crates, [Some("it".to_string())]);
}

/// The longest a source file may be (issue 29's 800, issue 57's 600): a file past it holds
/// more than one concern, and is split along its seams (by subcommand, by group of commands,
/// by layer of painting; a type's rules, formats, edits, options), never shortened to fit.
const MOST_LINES: usize = 600;

#[test]
fn no_source_file_is_over_600_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    let mut seen = 0;
    for file in rust_files(&root) {
        seen += 1;
        let text = std::fs::read_to_string(&file).expect("a source file");
        let lines = text.lines().count();
        if lines > MOST_LINES {
            offenders.push(format!("{}: {lines} lines", file.display()));
        }
    }
    assert!(seen > 200, "only {seen} source files seen");
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// The files of `src/app` that hold `AppState`'s methods, one a command group (issue 57),
/// each with one `impl AppState` block and a first doc line naming its group: the state
/// itself and its reads, the frame's work, the switchboard of commands, then the groups.
const APP_STATE_GROUPS: [&str; 15] = [
    "state.rs",
    "frame.rs",
    "commands.rs",
    "run.rs",
    "race.rs",
    "playback.rs",
    "edits.rs",
    "files.rs",
    "export.rs",
    "workspace.rs",
    "windows.rs",
    "view_work.rs",
    "autosave.rs",
    "learn/mod.rs",
    "learn/predict.rs",
];

/// The lines of `text` that open an `impl` block of `AppState` itself (`impl AppState {`,
/// `impl super::AppState {`), not of a trait for it.
fn app_state_impls(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            let Some(rest) = l.strip_prefix("impl ") else {
                return false;
            };
            let rest = rest
                .trim_start_matches("super::")
                .trim_start_matches("crate::app::");
            rest.starts_with("AppState {")
        })
        .count()
}

#[test]
fn the_impl_check_sees_inherent_blocks_only() {
    let text = "impl AppState {\n}\nimpl super::AppState {\n}\nimpl From<AppState> for X {}\n\
                impl AppAccess for &AppState {}\n    impl AppState {\n";
    assert_eq!(app_state_impls(text), 2);
}

/// Issue 57: `AppState`'s methods live by command group, one file a group, so the next
/// method has one place to go: no `impl AppState` block outside [`APP_STATE_GROUPS`], one
/// in each, and each file's first doc line says which group it is.
#[test]
fn app_state_methods_live_by_command_group() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let app = src.join("app");
    let mut offenders = Vec::new();
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        let blocks = app_state_impls(&text);
        let relative = file.strip_prefix(&app).ok();
        let group = relative.is_some_and(|r| APP_STATE_GROUPS.iter().any(|g| r == Path::new(g)));
        if group {
            let first = text.lines().next().unwrap_or("");
            if blocks != 1 {
                offenders.push(format!("{}: {blocks} impl AppState blocks", file.display()));
            }
            if !(first.starts_with("//!") && first.contains(" group")) {
                offenders.push(format!("{}: no group named in: {first}", file.display()));
            }
        } else if blocks > 0 {
            offenders.push(format!(
                "{}: impl AppState outside the groups",
                file.display()
            ));
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// The identifier at the start of `text` (letters, digits, `_`): a function's name after
/// its `fn `.
fn ident_at(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The accessors of `src/app` that hand out the app's state to change (every `fn …_mut`
/// defined there), and those the panels and views had before issue 57.
fn app_mut_accessors(app_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = ["settings_mut", "windows_mut", "canvas_mut", "zoom_mut"]
        .into_iter()
        .chain(["oracle_mut", "puzzle_mut", "model_mut"])
        .map(str::to_owned)
        .collect();
    for file in rust_files(app_dir) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (i, _) in text.match_indices("fn ") {
            let name = ident_at(&text[i + 3..]);
            // `deref_mut` is the std trait's, which the panels' context does not implement.
            if name.ends_with("_mut") && name != "deref_mut" && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// What a file of `src/ui` does that only the app may (issue 57): a call of an accessor
/// of the app's state to change (`accessors`), background work started (`Job::start`, a
/// job of its own, a thread) or the file system touched (`std::fs`). Comment lines are
/// skipped.
fn ui_rule_breaks(code: &str, accessors: &[String]) -> Vec<String> {
    let mut breaks = Vec::new();
    for (i, line) in code.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let mut say = |what: &str| breaks.push(format!("{}: {what}: {}", i + 1, line.trim()));
        for name in accessors {
            if line.contains(&format!(".{name}(")) {
                say(&format!("writes the app's state ({name})"));
            }
        }
        if line.contains("Job::start") || line.contains("job::Job") {
            say("starts work");
        }
        // `use std::{fs, thread}` names them without `std::` before each.
        let std_list = line.contains("std::{");
        if line.contains("std::thread")
            || line.contains("thread::spawn")
            || (std_list && names(line, "thread"))
        {
            say("starts a thread");
        }
        if line.contains("std::fs") || (std_list && names(line, "fs")) {
            say("touches the file system");
        }
    }
    breaks
}

#[test]
fn the_ui_rule_check_sees_writes_work_and_files() {
    let accessors = vec!["windows_mut".to_owned(), "app_mut".to_owned()];
    let code = "app.windows_mut().gif_window = true;\n\
                // app.windows_mut() in a comment\n\
                let job = Job::start(\"x\", cancel, wake, work);\n\
                let text = std::fs::read_to_string(path);\n\
                std::thread::sleep(t);\n\
                ui.spacing_mut().slider_width = 1.0;\n\
                app.push(AppCommand::Window(WindowCommand::GifWindow(true)));\n";
    let breaks = ui_rule_breaks(code, &accessors);
    assert_eq!(breaks.len(), 4, "{breaks:#?}");
    let listed = ui_rule_breaks(
        "use std::{fs, io};\nuse std::{sync::Arc, thread};\nuse std::{fsx};\n",
        &[],
    );
    assert_eq!(listed.len(), 2, "{listed:#?}");
    assert!(listed[0].starts_with("1: touches the file system"));
    assert!(listed[1].starts_with("2: starts a thread"));
    assert!(breaks[0].starts_with("1: writes the app's state"));
    assert!(breaks[1].starts_with("3: starts work"));
    assert!(breaks[2].starts_with("4: touches the file system"));
    assert!(breaks[3].starts_with("5: starts a thread"));
}

/// Issue 57: the UI reads and sends, the app does. No file of `src/ui` changes the app's
/// state through an accessor (`settings_mut`, `windows_mut`, `canvas_mut`, `zoom_mut`,
/// `oracle_mut`, any `fn …_mut` of `src/app`: window toggles, options, settings, zoom, the
/// canvas's pointer and the oracle's switches are commands, `crate::app::WindowCommand` and
/// its siblings), starts background work (`Job::start`, a thread: a view hands the app a
/// `crate::app::WorkOrder`), or touches the file system (the script editor's file is
/// written and watched by the app's work for it).
#[test]
fn the_ui_reads_and_sends_and_the_app_does() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let accessors = app_mut_accessors(&src.join("app"));
    assert!(accessors.iter().any(|a| a == "app_mut"), "{accessors:?}");
    let mut offenders = Vec::new();
    for file in rust_files(&src.join("ui")) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for line in ui_rule_breaks(&text, &accessors) {
            offenders.push(format!("{}:{line}", file.display()));
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// A type's view reaches the app only through its narrow context (`ViewContext`: its own
/// model, the settings, the oracle, commands, the status line), never the app itself.
#[test]
fn views_see_the_app_through_their_context_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui/views");
    let offenders: Vec<String> = rust_files(&root)
        .into_iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).expect("a view file");
            names(&text, "PuzzleLabApp") || names(&text, "AppState")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(offenders.is_empty(), "views naming the app: {offenders:#?}");
}

/// Where the program turns an erased value back into its concrete type (issue 29): the
/// generic adapter of puzzle models (`Puzzle::model`), the views' own commands
/// (`ViewCommand::take`) and the solver thread's panic message. Everything else reads typed
/// values: a view gets its model through `app.model::<T>()` and edits it with
/// `app.edit_model::<T>(..)`.
const DOWNCASTS_ALLOWED: [&str; 3] = ["puzzles/model.rs", "app/view.rs", "solver.rs"];

#[test]
fn downcasts_live_in_the_generic_adapter_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    for file in rust_files(&root) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        let relative = file.strip_prefix(&root).expect("under src/");
        let allowed = DOWNCASTS_ALLOWED.iter().any(|a| relative == Path::new(a));
        let code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
        let count = code.filter(|l| l.contains("downcast")).count();
        if count > 0 && !allowed {
            offenders.push(format!("{}: {count}", relative.display()));
        }
    }
    assert!(
        offenders.is_empty(),
        "downcasts outside the adapter: {offenders:#?}"
    );
}

/// The module path of a source file under `src/` (`src/ui/canvas.rs` is `["ui", "canvas"]`,
/// `src/ui/mod.rs` is `["ui"]`, `src/lib.rs` is `[]`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("a file under src");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if !["mod", "lib", "main"].contains(&stem) {
            parts.push(stem.to_owned());
        }
    }
    parts
}

/// The modules the code of `text` (the source of module `me`, comments left out) names by
/// path: `crate::a::b`, `super::b` and `super::super::b`, as module paths (the last segment
/// may be an item: the caller keeps only the paths that are modules).
fn named_paths(me: &[String], text: &str) -> Vec<Vec<String>> {
    let code: String = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let text = code.as_str();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut paths = Vec::new();
    for (i, _) in text
        .match_indices("crate::")
        .chain(text.match_indices("super::"))
    {
        if text[..i].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = &text[i..];
        let end = rest
            .find(|c: char| !(is_ident(c) || c == ':'))
            .unwrap_or(rest.len());
        let segments: Vec<&str> = rest[..end].split("::").filter(|s| !s.is_empty()).collect();
        let mut path: Vec<String> = Vec::new();
        let mut segments = segments.into_iter().peekable();
        if segments.peek() == Some(&"crate") {
            segments.next();
        } else {
            // `super` is the parent of the file's module (of a `mod.rs` too: its module's parent).
            path = me.to_vec();
            while segments.peek() == Some(&"super") {
                segments.next();
                path.pop();
            }
        }
        path.extend(segments.map(str::to_owned));
        paths.push(path);
    }
    paths
}

#[test]
fn sibling_modules_import_no_circle() {
    use std::collections::{BTreeMap, BTreeSet};
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_files(&src);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
    // An edge between two children of one parent, for every path one names inside the other
    // (a module naming its own parent or child is no circle).
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in &files {
        let me = module_of(&src, file);
        let text = std::fs::read_to_string(file).expect("a source file");
        for mut path in named_paths(&me, &text) {
            while !path.is_empty() && !modules.contains(&path) {
                path.pop();
            }
            let common = me.iter().zip(&path).take_while(|(a, b)| a == b).count();
            if common == me.len() || common == path.len() {
                continue;
            }
            edges
                .entry(me[..=common].to_vec())
                .or_default()
                .insert(path[..=common].to_vec());
        }
    }
    // A depth-first search for a back edge.
    fn visit(
        node: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        on_stack: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
        circles: &mut Vec<String>,
    ) {
        if done.contains(node) {
            return;
        }
        if let Some(at) = on_stack.iter().position(|n| n == node) {
            let circle: Vec<String> = on_stack[at..].iter().map(|m| m.join("::")).collect();
            circles.push(format!("{} -> {}", circle.join(" -> "), node.join("::")));
            return;
        }
        on_stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            visit(next, edges, on_stack, done, circles);
        }
        on_stack.pop();
        done.insert(node.clone());
    }
    let mut circles = Vec::new();
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        visit(node, &edges, &mut Vec::new(), &mut done, &mut circles);
    }
    assert!(circles.is_empty(), "{circles:#?}");
}

#[test]
fn the_circle_check_resolves_paths_as_rust_does() {
    let me = vec!["ui".to_owned(), "canvas".to_owned()];
    assert_eq!(
        named_paths(
            &me,
            "use super::paint::x; crate::app::Mark; my_super::no\n/// [`crate::solver`]"
        ),
        vec![
            vec!["app".to_owned(), "Mark".to_owned()],
            vec!["ui".to_owned(), "paint".to_owned(), "x".to_owned()],
        ]
    );
}

/// The fields of `pub struct NAME { .. }` in `text`: the lines one level in that declare one.
fn struct_fields(text: &str, name: &str) -> Vec<String> {
    let head = format!("pub struct {name} {{");
    let Some(start) = text.find(&head) else {
        return Vec::new();
    };
    text[start + head.len()..]
        .lines()
        .take_while(|l| !l.starts_with('}'))
        .filter(|l| l.starts_with("    ") && !l.starts_with("     "))
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && l.contains(':'))
        .filter_map(|l| l.split(':').next()?.split_whitespace().last())
        .map(str::to_owned)
        .collect()
}

/// Issue 45: the panels get a narrow context ([`puzzlelab::app::Panel`]: the state to read,
/// the window's own parts to change, commands to send), never the app itself; the app's
/// state is a few named parts, and the views live beside it, not in it (so no view is taken
/// out of the state to run and put back).
#[test]
fn panels_see_the_app_through_their_context_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    for file in rust_files(&src.join("ui")) {
        let text = std::fs::read_to_string(&file).expect("a ui file");
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        // Reading the state (`&AppState`) is what a panel does; holding it to change is not.
        for borrow in ["&mut AppState", "&mut PuzzleLabApp", "&PuzzleLabApp"] {
            if code.contains(borrow) {
                offenders.push(format!("{}: {borrow}", file.display()));
            }
        }
        // The eframe glue (src/ui/mod.rs) runs the app; no other ui file names it.
        if !file.ends_with("ui/mod.rs") && names(&code, "PuzzleLabApp") {
            offenders.push(format!("{}: names PuzzleLabApp", file.display()));
        }
    }
    assert!(
        offenders.is_empty(),
        "ui files holding the app: {offenders:#?}"
    );
    let state = std::fs::read_to_string(src.join("app/state.rs")).expect("the state");
    let parts = struct_fields(&state, "AppState");
    assert!(
        (5..=15).contains(&parts.len()),
        "the app's state in {} parts: {parts:?}",
        parts.len()
    );
    let shell = std::fs::read_to_string(src.join("app/shell.rs")).expect("the app");
    let app = struct_fields(&shell, "PuzzleLabApp");
    assert_eq!(
        app,
        ["state", "views"],
        "the app: its state and the views beside it"
    );
    for part in [
        "Runs",
        "Playback",
        "Windows",
        "CanvasState",
        "Edits",
        "FrameClock",
        "Io",
    ] {
        let fields = struct_fields(&state, part);
        assert!(
            (1..=15).contains(&fields.len()),
            "{part} has {} fields: {fields:?}",
            fields.len()
        );
    }
    assert!(
        !(state.lines()).any(|l| !l.trim_start().starts_with("//") && l.contains("TypeView")),
        "the state holds no view: the views live beside it (src/app/shell.rs)"
    );
}

#[test]
fn the_field_count_sees_one_level_only() {
    let text = "pub struct A {\n    /// doc: with a colon\n    pub a: u8,\n    b: Option<(\n        u8,\n    )>,\n}\n";
    assert_eq!(struct_fields(text, "A"), ["a", "b"]);
}

/// Issue 45: CI's clippy (`.ci/run`, warnings denied) keeps every function of the program
/// under 120 lines and every thread named and owned.
#[test]
fn ci_lints_function_length_and_bare_threads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
    assert!(read("src/lib.rs").contains("#![warn(clippy::too_many_lines)]"));
    let clippy = read("clippy.toml");
    assert!(clippy.contains("too-many-lines-threshold = 120"));
    assert!(clippy.contains(r#"path = "std::thread::spawn""#));
    assert!(read(".ci/run").contains("cargo clippy --all-targets --locked -- -D warnings"));
}

#[test]
fn types_follow_the_naming_convention() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for t in registry_types() {
        let engine = root.join("src/puzzles").join(&t.module);
        let text = std::fs::read_to_string(engine.join("mod.rs")).expect("the type's module");
        assert!(
            text.contains(&format!("struct {}", t.ident)),
            "{}: no struct {}",
            t.name,
            t.ident
        );
        let views = root.join("src/ui/views");
        assert!(
            views.join(format!("{}.rs", t.module)).is_file() || views.join(&t.module).is_dir(),
            "{}: no view module",
            t.name
        );
    }
}

/// Whether `word` occurs in `text` as a whole word of a name (letters, digits, `_` and `-`
/// around it are part of the word), ignoring case.
fn mentions(text: &str, word: &str) -> bool {
    let (text, word) = (text.to_lowercase(), word.to_lowercase());
    let is_part = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(&word).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(is_part)
            && !text[i + word.len()..].chars().next().is_some_and(is_part)
    })
}

/// The shared contract (`src/puzzles/mod.rs`, `model.rs`) and the capabilities name no type:
/// no model identifier, module path or type name, in code or comments (the types' modules
/// are declared by the registry, `src/puzzles/registry.rs`).
#[test]
fn the_shared_contract_names_no_type() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/puzzles");
    let mut offenders = Vec::new();
    for file in ["mod.rs", "model.rs", "capabilities.rs"] {
        let text = std::fs::read_to_string(root.join(file)).expect("a contract file");
        for (i, line) in text.lines().enumerate() {
            for t in registry_types() {
                let said = names(line, &t.ident)
                    || line.contains(&format!("{}::", t.module))
                    || mentions(line, t.name)
                    || mentions(line, &t.module);
                if said {
                    offenders.push(format!("{file}:{}: names {}: {line}", i + 1, t.name));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// `src/app` holds nothing of one type: no file named after one, no model identifier, no
/// type module path and no string literal that is a type's name (the sliding view's
/// pattern-database builds live in its view, `src/ui/views/sliding/`).
#[test]
fn the_app_holds_nothing_of_one_type() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let mut offenders = Vec::new();
    for file in rust_files(&root) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        for t in registry_types() {
            let said = stem.contains(&t.module)
                || names(&text, &t.ident)
                || text.contains(&format!("{}::", t.module))
                || string_literals(&text)
                    .iter()
                    .any(|(_, l)| l == t.name || l == &t.module);
            if said {
                offenders.push(format!("{} names {}", file.display(), t.name));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// The string literals of `text` (plain and raw; comments and character literals skipped),
/// each with the text between it and the literal before.
pub(crate) fn string_literals(text: &str) -> Vec<(String, String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut gap = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '\'' {
            // A character literal ('x', '\n', '"'), or a lifetime.
            if chars.get(i + 2) == Some(&'\'') {
                i += 3;
                gap.push('?');
                continue;
            }
            if chars.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                gap.push('?');
                continue;
            }
        }
        let raw = c == 'r'
            && !chars[..i]
                .last()
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
            && matches!(chars.get(i + 1), Some('#' | '"'));
        if raw {
            let mut hashes = 0;
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) == Some(&'"') {
                let close: String = std::iter::once('"')
                    .chain("#".repeat(hashes).chars())
                    .collect();
                let rest: String = chars[j + 1..].iter().collect();
                let end = rest.find(&close).unwrap_or(rest.len());
                out.push((std::mem::take(&mut gap), rest[..end].to_owned()));
                i = j + 1 + rest[..end].chars().count() + close.chars().count();
                continue;
            }
        }
        if c == '"' {
            let mut literal = String::new();
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if let Some(&ch) = chars.get(i) {
                    literal.push(ch);
                }
                i += 1;
            }
            i += 1;
            out.push((std::mem::take(&mut gap), literal));
            continue;
        }
        gap.push(c);
        i += 1;
    }
    out
}

/// The type names (command-line names or module names, as written, case-sensitive) that
/// `literal` lists: the longest run of them separated only by commas, `/`, `|`, backticks,
/// white space, "and" and "or" (`"maze, klondike"`, `"`rush-hour` / `klotski`"`).
fn listed_in(literal: &str, types: &[TypeNames]) -> Vec<&'static str> {
    let is_type = |w: &str| {
        types
            .iter()
            .find(|t| t.name == w || t.module == w)
            .map(|t| t.name)
    };
    let mut best: Vec<&'static str> = Vec::new();
    let mut run: Vec<&'static str> = Vec::new();
    for word in literal.split(|c: char| c.is_whitespace() || ",/|`".contains(c)) {
        match (word, is_type(word)) {
            ("" | "and" | "or", _) => {}
            (_, Some(name)) => {
                if !run.contains(&name) {
                    run.push(name);
                }
            }
            (_, None) => run.clear(),
        }
        if run.len() > best.len() {
            best = run.clone();
        }
    }
    best
}

/// The hand lists of types in `text`: a string literal listing two or more types
/// ([`listed_in`]), or a run of literals that are each a type's name (separated only by
/// commas, `|` and white space: an array, a match arm) naming two or more.
fn hand_lists(text: &str) -> Vec<String> {
    let types = registry_types();
    let mut lists = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for (gap, literal) in string_literals(text) {
        if !gap
            .chars()
            .all(|c| c.is_whitespace() || c == ',' || c == '|')
        {
            run.clear();
        }
        let here = listed_in(&literal, &types);
        if here.len() >= 2 {
            lists.push(format!("{literal:?}"));
        }
        match here.as_slice() {
            [name] if literal == *name || literal.replace('_', "-") == *name => {
                if !run.contains(name) {
                    run.push(name);
                }
            }
            _ => run.clear(),
        }
        if run.len() >= 2 {
            lists.push(run.join(", "));
            run.clear();
        }
    }
    lists
}

#[test]
fn the_hand_list_check_sees_lists_and_not_single_names() {
    let types = registry_types();
    let (a, b) = (types[0].name, types[1].name);
    assert_eq!(hand_lists(&format!("let x = \"{a}, {b}\";")).len(), 1);
    assert_eq!(hand_lists(&format!("[\"{a}\",\n    \"{b}\"]")).len(), 1);
    assert_eq!(hand_lists(&format!("\"{a}\" | \"{b}\" => 1")).len(), 1);
    assert_eq!(hand_lists(&format!("r#\"x {a} {b}\"#")).len(), 1);
    assert!(hand_lists(&format!("f(\"{a}\"); g(\"{b}\");")).is_empty());
    assert!(hand_lists(&format!("// \"{a}\", \"{b}\"\nlet c = '\"';")).is_empty());
    assert!(hand_lists(&format!("\"{a}-first.txt\", \"{b}-2.txt\"")).is_empty());
    assert!(hand_lists(&format!("\"holds a {a}, not a {b}\"")).is_empty());
    assert_eq!(hand_lists(&format!("\"known: {a}, {b} or x\"")).len(), 1);
}

/// The registry is the only list of types: outside a type's own module and view, the engine
/// registry (`src/puzzles/registry.rs`) and the view registry (`src/ui/views/mod.rs`), no
/// source or test file lists two or more types by hand; lists are read from
/// `puzzlelab::puzzles::TYPES`.
#[test]
fn the_registry_is_the_only_list_of_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let types = registry_types();
    let registries = [
        root.join("src/puzzles/registry.rs"),
        root.join("src/ui/views/mod.rs"),
    ];
    let mut offenders = Vec::new();
    for file in rust_files(&root.join("src"))
        .into_iter()
        .chain(rust_files(&root.join("tests")))
    {
        let relative = file.strip_prefix(root).expect("under the package");
        let owned = types.iter().any(|t| {
            relative.starts_with(Path::new("src/puzzles").join(&t.module))
                || relative.starts_with(Path::new("src/ui/views").join(&t.module))
                || relative == Path::new("src/ui/views").join(format!("{}.rs", t.module))
        });
        if owned || registries.contains(&file) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        for list in hand_lists(&text) {
            offenders.push(format!("{}: {list}", relative.display()));
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn every_engine_type_has_exactly_one_view() {
    let (counts, strays) = puzzlelab::ui::views::views_per_type();
    let names: Vec<&str> = puzzlelab::puzzles::TYPES.iter().map(|t| t.name).collect();
    let wrong: Vec<(&str, usize)> = names
        .into_iter()
        .zip(counts)
        .filter(|&(_, n)| n != 1)
        .collect();
    assert!(
        wrong.is_empty(),
        "types without exactly one view: {wrong:?}"
    );
    assert_eq!(strays, 0, "views of no engine type");
}

/// Every file the program writes goes through the one atomic write,
/// `puzzles::write_atomically_with` (a temporary file beside the target, synced, then
/// renamed over it): no other source file renames a file over another or names a temporary
/// file of its own. The one other rename is the state file's setting aside of a file it could
/// not read (`autosave::set_aside`), which moves a file out of the way and writes nothing.
#[test]
fn files_are_written_atomically_in_one_place() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let the_writer = root.join("puzzles").join("files.rs");
    let mut offenders = Vec::new();
    for file in rust_files(&root) {
        if file == the_writer {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (i, line) in text.lines().enumerate() {
            let renames = line.contains("fs::rename(") && !line.contains("rename(path, &aside)");
            let names_a_temporary = line.contains("\".tmp") || line.contains(".tmp\"");
            let own_writer = line.contains("fn write_atomically");
            if renames || names_a_temporary || own_writer {
                offenders.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
    let writer = std::fs::read_to_string(&the_writer).expect("src/puzzles/files.rs");
    assert_eq!(
        writer.matches("fs::rename(").count() + writer.matches(".persist(").count(),
        1,
        "the one atomic write renames in one place"
    );
}

/// The methods of the trait `name` in `text` (its `trait name` block): each `fn` at the
/// block's first level, required or provided.
fn trait_methods(text: &str, name: &str) -> Vec<String> {
    // `pub trait T {` or `pub trait T: Send {`.
    let head = format!("pub trait {name}");
    let Some(start) = (text.match_indices(&head).map(|(i, _)| i))
        .find(|&i| matches!(text[i + head.len()..].chars().next(), Some(' ' | ':')))
    else {
        return Vec::new();
    };
    let mut depth = 0usize;
    let mut methods = Vec::new();
    let body = &text[start..];
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            'f' if depth == 1 && body[i..].starts_with("fn ") => {
                let before = body[..i].chars().next_back();
                if before.is_some_and(|b| b.is_whitespace()) {
                    methods.push(ident_at(&body[i + 3..]));
                }
            }
            _ => {}
        }
    }
    methods
}

#[test]
fn the_trait_method_count_sees_the_first_level_only() {
    let text = "pub trait T {\n    fn a(&self);\n    fn b(&self) -> u8 {\n        fn inner() {}\n        0\n    }\n}\nfn outside() {}\n";
    assert_eq!(trait_methods(text, "T"), ["a", "b"]);
    let bounded = "pub trait TypeViewer {\n    fn no(&self);\n}\npub trait TypeView: Send {\n    fn yes(&self);\n}\n";
    assert_eq!(trait_methods(bounded, "TypeView"), ["yes"]);
}

/// The most methods `search::Problem` may have, required and provided (issue 57): its core
/// (start states, goal test, successors, heuristic, what it says of them, the heap bytes of a
/// state) and one door to the optional capabilities (`ProblemCapabilities`), which only some
/// problems have.
const MOST_PROBLEM_METHODS: usize = 8;

#[test]
fn the_problem_trait_is_its_core() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/search/problem.rs");
    let text = std::fs::read_to_string(&file).expect("src/search/problem.rs");
    let methods = trait_methods(&text, "Problem");
    assert!(methods.contains(&"successors".to_string()), "{methods:?}");
    assert!(
        methods.len() <= MOST_PROBLEM_METHODS,
        "Problem has {} methods: {methods:?}",
        methods.len()
    );
}

/// The most methods `app::TypeView` may have, required and provided (issue 57): drawing its
/// tools, applying its commands, canvas input and extras, its description, its name, the
/// test's look at it, and one door to its opt-in capabilities
/// (`src/app/view_capabilities.rs`), as egui's `View` is one method.
const MOST_TYPE_VIEW_METHODS: usize = 8;

#[test]
fn the_type_view_is_small() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app/view.rs");
    let text = std::fs::read_to_string(&file).expect("src/app/view.rs");
    let methods = trait_methods(&text, "TypeView");
    assert!(methods.contains(&"tools_ui".to_string()), "{methods:?}");
    assert!(
        methods.len() <= MOST_TYPE_VIEW_METHODS,
        "TypeView has {} methods: {methods:?}",
        methods.len()
    );
}

/// The signatures of the functions of `text` (from `fn` to the body's `{` or the `;`), each
/// with its name.
fn signatures(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("fn ") {
        if text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &text[i..];
        let end = rest.find(['{', ';']).unwrap_or(rest.len());
        out.push((ident_at(&rest[3..]), rest[..end].to_owned()));
    }
    out
}

/// Drawing code reads and sends (issue 57): every function of `src/ui` that draws (named
/// `…_ui` or `…_window`, the views' `pointer` and `canvas_extras`, and the drawing methods
/// of `TypeView` and `OwnPanels`) gets the app as the read-only `ViewDraw` (read and push),
/// `ViewRead`, `Panel` or `&AppState`, never `ViewWrite` (the state to change, which only
/// a view's `apply` and its capabilities outside drawing get).
#[test]
fn drawing_code_gets_the_app_to_read_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let draws = |name: &str| {
        name.ends_with("_ui")
            || name.ends_with("_window")
            || ["pointer", "canvas_extras", "describe"].contains(&name)
    };
    let mut offenders = Vec::new();
    let mut drawing = 0;
    let app = ["app/view.rs", "app/view_capabilities.rs"].map(|f| src.join(f));
    for file in rust_files(&src.join("ui")).into_iter().chain(app) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (name, signature) in signatures(&text) {
            if !draws(&name) {
                continue;
            }
            drawing += 1;
            if signature.contains("ViewWrite") || signature.contains("mut AppState") {
                offenders.push(format!("{}: {}", file.display(), signature.trim()));
            }
        }
    }
    assert!(drawing > 20, "only {drawing} drawing functions found");
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn the_signature_check_reads_to_the_body() {
    let text = "fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut Ui) {\n}\n\
                fn apply(&mut self, app: &mut ViewWrite<'_>);\nfn my_fn() {}\n";
    let found = signatures(text);
    assert_eq!(found.len(), 3);
    assert_eq!(found[0].0, "tools_ui");
    assert!(found[0].1.contains("ViewDraw") && !found[0].1.contains('{'));
    assert!(found[1].1.contains("ViewWrite"));
}

/// Nothing in `src` leaks memory for good (`Box::leak`, `String::leak`, `Vec::leak`): a
/// puzzle's options are owned (`Puzzle::options` returns a `Vec`), so a script's parameters
/// typed over and over no longer leave one interned entry each (issue 57).
#[test]
fn nothing_is_leaked_for_good() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    for file in rust_files(&root) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (i, line) in text.lines().enumerate() {
            if line.contains("::leak(") || line.contains(".leak()") {
                offenders.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}
