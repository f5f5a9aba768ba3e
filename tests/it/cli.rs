//! The `puzzlelab solve` subcommand, run as a process: output, JSON and exit codes.

use crate::common::puzzlelab;

#[test]
fn klondike_json_reports_nine_moves() {
    let (code, stdout, _) = puzzlelab(&["solve", "puzzles/klondike.txt", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["type"], "klondike");
    assert_eq!(v["algorithm"], "bfs");
    assert_eq!(v["solved"], true);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["cost"], 9.0);
    assert_eq!(v["moves"].as_array().unwrap().len(), 9);
    for key in ["expanded", "generated", "max_frontier", "elapsed_ms"] {
        assert!(v["stats"][key].is_number(), "stats.{key}");
    }
}

#[test]
fn text_output_lists_the_moves() {
    let (code, stdout, _) = puzzlelab(&["solve", "puzzles/maze-small.txt", "-a", "dfs"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("algorithm: dfs"), "{stdout}");
    assert!(stdout.contains("not guaranteed optimal"), "{stdout}");
    assert!(stdout.contains("moves: down"), "{stdout}");
}

#[test]
fn no_solution_exits_with_one() {
    let (code, stdout, _) = puzzlelab(&["solve", "puzzles/maze-no-path.txt", "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["solved"], false);
    assert_eq!(v["outcome"], "not_found");
}

#[test]
fn bad_input_exits_with_two_and_says_why() {
    let (code, _, stderr) = puzzlelab(&["solve", "puzzles/missing.txt"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("puzzles/missing.txt"), "{stderr}");

    let (code, _, stderr) = puzzlelab(&["solve", "puzzles/klondike.txt", "-a", "quantum"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown algorithm `quantum`"), "{stderr}");

    let (code, _, stderr) = puzzlelab(&["solve", "puzzles/klondike.txt", "--type", "maze"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("line 1, column 1: unknown character '_'"),
        "{stderr}"
    );

    let (code, _, _) = puzzlelab(&["solve"]);
    assert_eq!(code, 2, "a missing argument is bad input");
}

#[test]
fn type_can_be_forced() {
    let (code, stdout, _) = puzzlelab(&[
        "solve",
        "puzzles/maze-random-40.json",
        "--type",
        "maze",
        "--algorithm",
        "dijkstra",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("(optimal)"));
}

#[test]
fn tie_breaking_is_chosen_with_a_flag_and_recorded() {
    let (code, stdout, stderr) = puzzlelab(&[
        "compare",
        "puzzles/maze-small.txt",
        "--algorithms",
        "bfs,astar",
        "--tie-break",
        "low-g",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let rows: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(rows[0]["tie_break"], "", "BFS keeps no open list");
    assert_eq!(rows[1]["tie_break"], "low-g");
    let (code, stdout, _) = puzzlelab(&["solve", "puzzles/maze-small.txt", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["stats"]["tie_break"], "high-g", "the default");
    let (code, _, stderr) =
        puzzlelab(&["solve", "puzzles/maze-small.txt", "--tie-break", "random"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a tie-breaking policy"), "{stderr}");
}

/// `--type` lists every type of the registry in the help of each command that takes it (the
/// hand-written list once missed `rush-hour`), and a misspelt type is refused with the list.
#[test]
fn the_type_option_lists_every_registered_type() {
    for command in ["solve", "states", "compare"] {
        let (code, stdout, _) = puzzlelab(&[command, "--help"]);
        assert_eq!(code, 0, "{command}");
        for t in puzzlelab::puzzles::TYPES {
            assert!(stdout.contains(t.name), "{command} --help lacks {}", t.name);
        }
    }
    let (code, _, stderr) = puzzlelab(&["solve", "puzzles/klondike.txt", "--type", "rushhour"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("rush-hour"), "{stderr}");
}

/// A script's move labels carrying a terminal's escape sequences and a carriage return are
/// written escaped in the text output: they cannot retitle, clear or overwrite the terminal
/// (the fault campaign's `terminal-escapes.rhai`, `../shared/repro/hostile/README.md` R12).
#[test]
fn text_output_escapes_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("escapes.rhai");
    std::fs::write(
        &script,
        "const NAME = \"escapes\";\nfn start() { \"\" }\n\
         fn moves(s) { if s.len() > 3 { return []; } \
         [#{ label: \"\\x1b]0;title\\x07\\x1b[2J\\rOWNED\", to: s + \"a\" }] }\n\
         fn is_goal(s) { s.len() > 2 }\n",
    )
    .unwrap();
    let (code, stdout, stderr) = puzzlelab(&["solve", &script.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("OWNED"), "{stdout}");
    assert!(
        !stdout
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'),
        "{stdout:?}"
    );
    assert!(stdout.contains("\\u{1b}]0;title\\u{7}"), "{stdout}");
    assert!(stdout.contains("\\u{d}OWNED"), "{stdout}");
}

/// A script whose `space_estimate()` is far past what its rate expands in ten minutes:
/// `solve` and `states` say before the run that the space is out of reach (issue 56, item
/// 15), with the rate measured and the estimate; the run itself goes on and answers.
#[test]
fn a_space_out_of_reach_is_said_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vast.rhai");
    let chain = "fn start() { 0 }\nfn moves(n) { if n < 30 { [#{ label: \"+1\", to: n + 1 }] } else { [] } }\n\
                 fn is_goal(n) { n == 30 }\n";
    std::fs::write(&path, format!("{chain}fn space_estimate() {{ 1.0e15 }}\n")).unwrap();
    let file = path.to_str().unwrap();
    for command in ["solve", "states"] {
        let (code, _, stderr) = puzzlelab(&[command, file]);
        assert_eq!(code, 0, "{command}: {stderr}");
        assert!(
            stderr.contains(
                "out of reach: about 1,000,000,000,000,000 states (the puzzle's estimate) at "
            ),
            "{command}: {stderr}"
        );
        assert!(
            stderr.contains("states a second so far"),
            "{command}: {stderr}"
        );
    }
    // The same space said to be small: nothing said.
    std::fs::write(&path, format!("{chain}fn space_estimate() {{ 31 }}\n")).unwrap();
    let (code, _, stderr) = puzzlelab(&["states", file]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("out of reach"), "{stderr}");
}

/// `bench` offers the benchmark of every type that lends one through the registry
/// (`puzzles::benches`), by its type's name, with no list of them in the command line.
#[test]
fn bench_offers_every_lent_benchmark() {
    let (code, stdout, _) = puzzlelab(&["bench", "--help"]);
    assert_eq!(code, 0);
    let lent: Vec<&str> = puzzlelab::puzzles::benches().map(|(t, _)| t.name).collect();
    assert!(lent.len() >= 2, "{lent:?}");
    for name in lent {
        assert!(
            stdout.lines().any(|l| l.trim_start().starts_with(name)),
            "bench --help lacks {name}: {stdout}"
        );
    }
}
