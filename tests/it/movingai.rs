//! The Moving AI benchmark formats: a small `.map`/`.scen` pair written for these tests, the
//! stated lengths checked by the search, and clear errors for bad files.

use puzzlelab::puzzles::maze::movingai::{parse_map, parse_scenario};
use puzzlelab::puzzles::maze::{Connectivity, GridHeuristic};
use puzzlelab::puzzles::{self, Cell};
use puzzlelab::search::{self, Algorithm};

/// 6 rows, 8 columns. x is the column, y the row.
const MAP: &str = "type octile
height 6
width 8
map
........
.@@@@...
.@..T...
.@..@@..
....@...
GGGS.WWW
";

const SQRT2: f64 = std::f64::consts::SQRT_2;

fn scen() -> String {
    // Lengths worked out by hand: 8-connected, diagonal sqrt(2), no corner cutting. The last
    // must go round through the top row: the bottom is walled off by `@` and `W`.
    let problems = [
        (0, 0, 7, 0, 7.0),
        (0, 0, 0, 5, 5.0),
        (0, 0, 3, 5, 6.0 + SQRT2),
        (2, 2, 3, 2, 1.0),
        (2, 2, 5, 4, 17.0 + SQRT2),
    ];
    let mut text = String::from("version 1\n");
    for (i, (sx, sy, gx, gy, len)) in problems.iter().enumerate() {
        text.push_str(&format!(
            "{}\tsmall.map\t8\t6\t{sx}\t{sy}\t{gx}\t{gy}\t{len:.8}\n",
            i / 2
        ));
    }
    text
}

#[test]
fn a_map_reads_as_an_octile_grid_without_corner_cutting() {
    let maze = parse_map(MAP).unwrap();
    assert_eq!((maze.rows(), maze.cols()), (6, 8));
    assert_eq!(maze.connectivity(), Connectivity::Eight);
    assert!(!maze.corner_cutting());
    assert_eq!(maze.heuristic_kind(), GridHeuristic::Octile);
    assert!(maze.is_blocked(Cell::new(1, 1)));
    assert!(maze.is_blocked(Cell::new(2, 4)), "T is not passable");
    assert!(maze.is_blocked(Cell::new(5, 7)), "W is not passable");
    assert!(!maze.is_blocked(Cell::new(5, 0)), "G is passable");
    // The type is recognised from the text alone.
    let p = puzzles::parse(MAP, None).unwrap();
    assert_eq!(p.puzzle_type().name, "maze");
}

#[test]
fn scenario_lengths_check_out() {
    let maze = parse_map(MAP).unwrap();
    let scenario = parse_scenario(&scen()).unwrap();
    assert_eq!(scenario.map, "small.map");
    assert_eq!(scenario.problems.len(), 5);
    assert_eq!(scenario.problems[2].goal, Cell::new(5, 3));
    scenario.check_map(&maze).unwrap();
    for problem in &scenario.problems {
        let m = maze.with_problem(problem);
        for algorithm in [
            Algorithm::AStar,
            Algorithm::Jps,
            Algorithm::Dijkstra,
            Algorithm::BidirectionalAStar,
        ] {
            let r = search::solve(&m, algorithm).unwrap();
            assert!(
                (r.cost - problem.optimal).abs() < 1e-4,
                "line {} {algorithm}: {} vs {}",
                problem.line,
                r.cost,
                problem.optimal
            );
        }
    }
}

#[test]
fn the_scenario_command_reports_every_problem() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("small.map"), MAP).unwrap();
    let scen_path = dir.path().join("small.map.scen");
    std::fs::write(&scen_path, scen()).unwrap();
    let (code, out, err) =
        crate::common::puzzlelab(&["scenario", scen_path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["problems"].as_array().unwrap().len(), 5);
    assert_eq!(json["matched"], 5);
    assert_eq!(json["total"], 5);
    let (code, out, _) = crate::common::puzzlelab(&[
        "scenario",
        scen_path.to_str().unwrap(),
        "--algorithm",
        "jps",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("5 of 5 match"), "{out}");
    // A wrong stated length is reported as a mismatch, with exit code 1.
    let bad = scen().replace("\t7.00000000\n", "\t6.50000000\n");
    std::fs::write(&scen_path, bad).unwrap();
    let map = dir.path().join("small.map");
    let (code, out, _) = crate::common::puzzlelab(&[
        "scenario",
        scen_path.to_str().unwrap(),
        "--map",
        map.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("4 of 5 match"), "{out}");
}

#[test]
fn bad_maps_get_clear_errors() {
    let err = |text: &str| parse_map(text).unwrap_err().to_string();
    assert_eq!(
        err("type hex\nheight 2\nwidth 2\nmap\n..\n..\n"),
        "line 1: map type `hex` is not supported (only `octile`)"
    );
    assert_eq!(
        err("type octile\nwidth 2\nheight 2\nmap\n..\n..\n"),
        "line 2: expected a `height ...` line: this is not a Moving AI map"
    );
    assert_eq!(
        err("type octile\nheight x\nwidth 2\nmap\n..\n..\n"),
        "line 2: `height` must be a number"
    );
    assert_eq!(
        err("type octile\nheight 2\nwidth 3\nmap\n...\n..\n"),
        "line 6: a row of 2 characters; the header gives width 3"
    );
    assert_eq!(
        err("type octile\nheight 3\nwidth 2\nmap\n..\n..\n"),
        "the map has 2 rows; the header gives height 3"
    );
    assert_eq!(
        err("type octile\nheight 2\nwidth 2\nmap\n.?\n..\n"),
        "line 5, column 2: unknown terrain '?' (passable: . G S; not: @ O T W)"
    );
    assert_eq!(
        err("type octile\nheight 2\nwidth 2\nmap\n@@\n@@\n"),
        "no square of the map is passable"
    );
}

#[test]
fn bad_scenarios_get_clear_errors() {
    let err = |text: &str| parse_scenario(text).unwrap_err().to_string();
    assert_eq!(
        err("version 2\n"),
        "line 1: only version 1 (or 1.0) scenarios are supported"
    );
    // The format allows `version 1.0` as well.
    assert!(parse_scenario("version 1.0\n0\tm.map\t8\t6\t1\t1\t2\t2\t1.0\n").is_ok());
    assert_eq!(err("0\tm.map\n"), "line 1: expected `version 1`");
    assert_eq!(err("version 1\n"), "the scenario has no problems");
    assert!(
        err("version 1\n0\tm.map\t8\t6\t1\t1\n").starts_with("line 2: 6 fields; a problem has 9")
    );
    assert_eq!(
        err("version 1\n0\tm.map\t8\t6\ta\t1\t2\t2\t3.0\n"),
        "line 2: start x `a` is not a number"
    );
    let maze = parse_map(MAP).unwrap();
    let s = parse_scenario("version 1\n0\tm.map\t8\t6\t1\t1\t2\t2\t1.0\n").unwrap();
    assert_eq!(
        s.check_map(&maze).unwrap_err(),
        "line 2: the start (x 1, y 1) is not a passable square of the map"
    );
    let s = parse_scenario("version 1\n0\tm.map\t9\t6\t0\t0\t2\t2\t1.0\n").unwrap();
    assert!(
        s.check_map(&maze)
            .unwrap_err()
            .starts_with("the map is 8 x 6")
    );
}

#[test]
fn solve_takes_the_grid_movement_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("open.txt");
    std::fs::write(&path, "S....\n.....\n.....\n....G\n").unwrap();
    let cost = |args: &[&str]| {
        let mut all = vec!["solve", path.to_str().unwrap(), "--json"];
        all.extend_from_slice(args);
        let (code, out, err) = crate::common::puzzlelab(&all);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["cost"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(cost(&[]), 7.0);
    assert!((cost(&["--moves", "8"]) - (1.0 + 3.0 * SQRT2)).abs() < 1e-9);
    assert!((cost(&["--moves", "8", "-a", "jps"]) - (1.0 + 3.0 * SQRT2)).abs() < 1e-9);
    let (code, _, err) =
        crate::common::puzzlelab(&["solve", path.to_str().unwrap(), "--moves", "6"]);
    assert_eq!(code, 2);
    assert!(err.contains("--moves must be 4 or 8"), "{err}");
}

/// Issue 57's walk: the Moving AI section's "Open Moving AI scenario…" asked with the
/// puzzle's dialog, titled "Open a puzzle". It asks with its own, titled for what it opens
/// (the native dialog's title, and the path field's heading when none can be shown).
#[test]
fn the_moving_ai_button_asks_with_a_dialog_of_its_own_title() {
    use crate::common::gui::{click_label, harness, run_until};
    use egui_kittest::kittest::Queryable as _;
    use puzzlelab::app::{AppCommand, DialogKind, Settings};
    assert_eq!(
        DialogKind::OpenMap.title(),
        "Open a Moving AI map or scenario"
    );
    assert_ne!(DialogKind::OpenMap.title(), DialogKind::Open.title());
    let mut h = harness(Settings::default());
    let (t, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "maze-small.txt")
        .expect("shipped");
    h.state_mut().push(AppCommand::OpenShipped(t, shipped));
    h.run();
    if h.query_by_label("Open Moving AI scenario…").is_none() {
        click_label(&mut h, "Moving AI scenario");
        h.run();
    }
    click_label(&mut h, "Open Moving AI scenario…");
    // No native dialog can be shown here (no desktop portal): the path field asks.
    run_until(&mut h, |app| app.path_field().is_some());
    assert_eq!(h.state().path_field(), Some(DialogKind::OpenMap));
    h.run();
    h.get_by_label_contains("No file dialog could be shown");
    h.get_by_label("Open a Moving AI map or scenario");
}
