//! JPS+ (`jps+`): its jump distances against a plain step-by-step scan written here, its
//! costs against a plain Dijkstra (on bit rows, through the general search on a maze, with
//! several goals, and on a sample of the Moving AI maps in `../shared/movingai` when that
//! folder exists), and where it does not apply.

use std::path::Path;

use puzzlelab::puzzles::Cell;
use puzzlelab::puzzles::maze::movingai::{ScenarioProblem, parse_map, parse_scenario};
use puzzlelab::search::octile::{OctileAlgorithm, OctileMap, OctileSearch};
use puzzlelab::search::{self, Algorithm, CancelToken, Limits, Outcome, SearchError, TieBreak};

use crate::octile::{Rng, check_path, dijkstra, free_squares, maze_of, random_grid};

/// The jump distance from (r, c) along (dr, dc) by walking: `k` when the walk stops at a jump
/// point `k` steps away (straight: a square with a free square to one side whose square
/// behind is blocked; diagonal: a square from which a straight walk stops at a jump point),
/// `-k` when it meets a wall (or, diagonally, a corner it may not cut) after `k` free steps.
fn walk(free: &[Vec<bool>], r: usize, c: usize, dr: isize, dc: isize) -> i32 {
    let ok = |r: isize, c: isize| {
        r >= 0
            && c >= 0
            && (r as usize) < free.len()
            && (c as usize) < free[0].len()
            && free[r as usize][c as usize]
    };
    let (mut r, mut c) = (r as isize, c as isize);
    let mut k = 0;
    loop {
        let (nr, nc) = (r + dr, c + dc);
        let diagonal = dr != 0 && dc != 0;
        if !ok(nr, nc) || (diagonal && !(ok(r + dr, c) && ok(r, c + dc))) {
            return -k;
        }
        k += 1;
        let stop = if diagonal {
            walk(free, nr as usize, nc as usize, dr, 0) > 0
                || walk(free, nr as usize, nc as usize, 0, dc) > 0
        } else {
            let (sr, sc) = (dc, dr);
            [1, -1].into_iter().any(|side| {
                let (pr, pc) = (sr * side, sc * side);
                ok(nr + pr, nc + pc) && !ok(nr + pr - dr, nc + pc - dc)
            })
        };
        if stop {
            return k;
        }
        (r, c) = (nr, nc);
    }
}

const DIRECTIONS: [(isize, isize); 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

#[test]
fn jump_distances_match_a_step_by_step_walk() {
    let mut rng = Rng(2014);
    for case in 0..40 {
        let (rows, cols) = (1 + rng.below(45), 1 + rng.below(140));
        let walls = rng.below(50);
        let free = random_grid(&mut rng, rows, cols, walls);
        let map = OctileMap::new(rows, cols, false, |r, c| free[r][c])
            .unwrap()
            .with_jump_distances();
        let table = map.jump_distances().expect("no corner cutting: a table");
        assert!(table.built_ms() >= 0.0);
        for (r, row) in free.iter().enumerate() {
            for (c, &f) in row.iter().enumerate() {
                for (dr, dc) in DIRECTIONS {
                    let want = if f { walk(&free, r, c, dr, dc) } else { 0 };
                    assert_eq!(
                        table.distance(&map, r, c, dr, dc),
                        want,
                        "case {case}: ({r}, {c}) along ({dr}, {dc})"
                    );
                }
            }
        }
    }
}

/// JPS+ on bit rows and through the general search (the maze's `jps+`) against the plain
/// Dijkstra, on random grids from empty to dense (the open ones put the goal in the way of
/// many lines), under every tie-breaking policy.
#[test]
fn jps_plus_costs_match_dijkstra_on_random_grids() {
    let mut rng = Rng(48_2014);
    let mut context = OctileSearch::new();
    let mut runs = 0;
    for case in 0..50 {
        let (rows, cols) = (2 + rng.below(40), 2 + rng.below(80));
        let walls = [0, 5, 15, 30, 45][case % 5];
        let free = random_grid(&mut rng, rows, cols, walls);
        let squares = free_squares(&free);
        if squares.is_empty() {
            continue;
        }
        let map = OctileMap::new(rows, cols, false, |r, c| free[r][c])
            .unwrap()
            .with_jump_distances();
        let maze = maze_of(&free, false);
        let tie_break = TieBreak::ALL[case % 4];
        let cancel = CancelToken::with_limits(Limits {
            tie_break,
            ..Limits::default()
        });
        for _ in 0..8 {
            let start = squares[rng.below(squares.len())];
            let goal = squares[rng.below(squares.len())];
            let want = dijkstra(&free, false, start)[goal.0][goal.1];
            let what = format!("case {case} {tie_break:?} {start:?} -> {goal:?}");
            let run = context.run(&map, OctileAlgorithm::JpsPlus, start, goal, &cancel);
            let problem = ScenarioProblem {
                line: 1,
                bucket: 0,
                start: Cell::new(start.0, start.1),
                goal: Cell::new(goal.0, goal.1),
                optimal: want,
            };
            let general = search::run(
                &maze.with_problem(&problem),
                Algorithm::JpsPlus,
                &mut search::NoObserver,
                &cancel,
            )
            .unwrap();
            if want.is_finite() {
                assert_eq!(run.outcome, Outcome::Found, "{what}");
                assert!((run.cost - want).abs() < 1e-9, "{what}: {}", run.cost);
                assert_eq!(run.path.first(), Some(&start), "{what}");
                assert_eq!(run.path.last(), Some(&goal), "{what}");
                check_path(&free, &run.path, run.cost);
                assert_eq!(general.outcome, Outcome::Found, "{what}");
                assert!(
                    (general.cost - want).abs() < 1e-9,
                    "{what}: {}",
                    general.cost
                );
                assert!(general.optimal, "{what}");
            } else {
                assert_eq!(run.outcome, Outcome::NotFound, "{what}");
                assert_eq!(general.outcome, Outcome::NotFound, "{what}");
            }
            runs += 1;
        }
    }
    assert!(runs > 300, "{runs} runs");
}

/// JPS+ on bit rows stops at the first state it expands from which the goal is in sight (the
/// diagonal towards it, then straight along its row or column): on an open grid only the
/// start is expanded, and the path bends once, where the line turns; a wall on that line
/// makes the search go on, to the same cost as Dijkstra's.
#[test]
fn jps_plus_stops_at_the_first_state_the_goal_is_in_sight_of() {
    let cancel = CancelToken::new();
    let mut context = OctileSearch::new();
    let mut free = vec![vec![true; 12]; 8];
    let open = OctileMap::new(8, 12, false, |r, c| free[r][c])
        .unwrap()
        .with_jump_distances();
    for (goal, path) in [
        ((4, 9), vec![(1, 1), (4, 4), (4, 9)]),
        ((6, 3), vec![(1, 1), (3, 3), (6, 3)]),
        ((5, 5), vec![(1, 1), (5, 5)]),
        ((1, 10), vec![(1, 1), (1, 10)]),
    ] {
        let run = context.run(&open, OctileAlgorithm::JpsPlus, (1, 1), goal, &cancel);
        assert_eq!(run.outcome, Outcome::Found, "{goal:?}");
        assert_eq!(
            (run.stats.expanded, run.stats.generated),
            (1, 1),
            "{goal:?}"
        );
        assert_eq!(run.path, path, "{goal:?}");
        check_path(&free, &run.path, run.cost);
    }
    // A wall on the straight part, then one on the diagonal too: out of sight from the start.
    for wall in [(4, 6), (2, 2)] {
        free[wall.0][wall.1] = false;
        let map = OctileMap::new(8, 12, false, |r, c| free[r][c])
            .unwrap()
            .with_jump_distances();
        let run = context.run(&map, OctileAlgorithm::JpsPlus, (1, 1), (4, 9), &cancel);
        let want = dijkstra(&free, false, (1, 1))[4][9];
        assert_eq!(run.outcome, Outcome::Found, "{wall:?}");
        assert!((run.cost - want).abs() < 1e-9, "{wall:?}: {}", run.cost);
        assert!(run.stats.expanded > 1, "{wall:?}: {:?}", run.stats);
        check_path(&free, &run.path, run.cost);
    }
}

/// den009d (a Dragon Age map of open rooms; 200 short problems): JPS+ on bit rows expands no
/// more states than Warthog's JPS+ on the same file (2,069 by its own count), every length
/// right. It expanded 3,246 when it scanned every free side of a square reached straight and
/// went on past a goal in sight (issue 60).
#[test]
fn jps_plus_on_den009d_expands_no_more_than_warthog() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    let (Ok(scen), Ok(map)) = (
        std::fs::read_to_string(root.join("scenarios/dao/den009d.map.scen")),
        std::fs::read_to_string(root.join("maps/dao/den009d.map")),
    ) else {
        eprintln!("{} has no den009d: skipped", root.display());
        return;
    };
    let (scenario, maze) = (parse_scenario(&scen).unwrap(), parse_map(&map).unwrap());
    scenario.check_map(&maze).unwrap();
    let summary = scenario.run(&maze, Algorithm::JpsPlus, &CancelToken::new(), |_| {});
    assert_eq!((summary.matched, summary.run), (200, 200), "{summary:?}");
    assert!(summary.expanded <= 2069, "{summary:?}");
}

/// With several goals, the lines stop at the nearest one in their way: the cost is the
/// least to any goal, as Dijkstra's.
#[test]
fn jps_plus_with_several_goals_finds_the_nearest() {
    let mut rng = Rng(7);
    for case in 0..30 {
        let (rows, cols) = (3 + rng.below(25), 3 + rng.below(25));
        let free = random_grid(&mut rng, rows, cols, [0, 10, 25][case % 3]);
        let mut maze = maze_of(&free, false);
        let squares = free_squares(&free);
        if squares.len() < 5 {
            continue;
        }
        for _ in 0..3 {
            let (r, c) = squares[rng.below(squares.len())];
            maze.toggle_goal(Cell::new(r, c));
        }
        let want = search::solve(&maze, Algorithm::Dijkstra).unwrap();
        let got = search::solve(&maze, Algorithm::JpsPlus).unwrap();
        assert_eq!(got.outcome, want.outcome, "case {case}");
        assert!(
            (got.cost - want.cost).abs() < 1e-9,
            "case {case}: {} vs {}",
            got.cost,
            want.cost
        );
        assert!(got.stats.precompute_ms > 0.0);
    }
}

/// A sample of every scenario of the six Moving AI maps (when `../shared/movingai` is
/// there): JPS+'s cost equals the plain Dijkstra's and the stated optimum.
#[test]
fn jps_plus_matches_dijkstra_on_moving_ai_maps() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    if !root.is_dir() {
        eprintln!("{} is not there: skipped", root.display());
        return;
    }
    let sets = [
        ("dao/arena.map.scen", "dao/arena.map", 25),
        ("dao/den009d.map.scen", "dao/den009d.map", 25),
        (
            "mapf/scen-even/random-32-32-10-even-1.scen",
            "mapf/random-32-32-10.map",
            25,
        ),
        (
            "mapf/scen-even/room-32-32-4-even-1.scen",
            "mapf/room-32-32-4.map",
            25,
        ),
        (
            "mapf/scen-even/maze-32-32-2-even-1.scen",
            "mapf/maze-32-32-2.map",
            25,
        ),
        ("mazes/maze512-1-0.map.scen", "mazes/maze512-1-0.map", 3),
    ];
    let mut context = OctileSearch::new();
    let cancel = CancelToken::new();
    for (scen, map_file, sample) in sets {
        let (scen_path, map_path) = (
            root.join("scenarios").join(scen),
            root.join("maps").join(map_file),
        );
        let (Ok(scen_text), Ok(map_text)) = (
            std::fs::read_to_string(&scen_path),
            std::fs::read_to_string(&map_path),
        ) else {
            continue;
        };
        let scenario = parse_scenario(&scen_text).unwrap();
        let maze = parse_map(&map_text).unwrap();
        let free: Vec<Vec<bool>> = (0..maze.rows())
            .map(|r| {
                (0..maze.cols())
                    .map(|c| !maze.is_blocked(Cell::new(r, c)))
                    .collect()
            })
            .collect();
        let map = OctileMap::new(maze.rows(), maze.cols(), false, |r, c| free[r][c])
            .unwrap()
            .with_jump_distances();
        let step = (scenario.problems.len() / sample).max(1);
        for p in scenario.problems.iter().step_by(step).take(sample) {
            let (start, goal) = ((p.start.row, p.start.col), (p.goal.row, p.goal.col));
            let want = dijkstra(&free, false, start)[goal.0][goal.1];
            let run = context.run(&map, OctileAlgorithm::JpsPlus, start, goal, &cancel);
            let what = format!("{map_file} line {}", p.line);
            assert_eq!(run.outcome, Outcome::Found, "{what}");
            assert!(
                (run.cost - want).abs() < 1e-9,
                "{what}: {} vs {want}",
                run.cost
            );
            assert!((run.cost - p.optimal).abs() < 1e-4, "{what}");
            check_path(&free, &run.path, run.cost);
        }
    }
}

#[test]
fn jps_plus_says_where_it_does_not_apply() {
    // Corner cutting: refused with the reason, as JPS is.
    let free = vec![vec![true; 6]; 5];
    let cutting = maze_of(&free, true);
    match search::solve(&cutting, Algorithm::JpsPlus) {
        Err(SearchError::Unsuited { reason, .. }) => {
            assert!(reason.contains("without corner cutting"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    // A map that cuts corners gets no table; a search on it says why.
    let map = OctileMap::new(5, 6, true, |_, _| true)
        .unwrap()
        .with_jump_distances();
    assert!(map.jump_distances().is_none());
    let run = OctileSearch::new().run(
        &map,
        OctileAlgorithm::JpsPlus,
        (0, 0),
        (4, 5),
        &CancelToken::new(),
    );
    assert_eq!(run.outcome, Outcome::NotFound);
    assert!(run.message.unwrap().contains("jump distances"));
    // The start on the goal costs nothing.
    let map = OctileMap::new(5, 6, false, |_, _| true)
        .unwrap()
        .with_jump_distances();
    let run = OctileSearch::new().run(
        &map,
        OctileAlgorithm::JpsPlus,
        (2, 3),
        (2, 3),
        &CancelToken::new(),
    );
    assert_eq!(
        (run.outcome, run.cost, run.stats.expanded),
        (Outcome::Found, 0.0, 0)
    );
}

/// `scenario -a jps+` reports the precomputation's time, in its text summary and its JSON.
#[test]
fn the_scenario_command_reports_the_precomputation() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(11);
    let free = random_grid(&mut rng, 20, 30, 20);
    let squares = free_squares(&free);
    let mut map = "type octile\nheight 20\nwidth 30\nmap\n".to_owned();
    for row in &free {
        map.extend(row.iter().map(|&f| if f { '.' } else { '@' }));
        map.push('\n');
    }
    let mut scen = "version 1\n".to_owned();
    for _ in 0..12 {
        let s = squares[rng.below(squares.len())];
        let g = squares[rng.below(squares.len())];
        let d = dijkstra(&free, false, s)[g.0][g.1];
        let d = if d.is_finite() { d } else { 0.0 };
        scen += &format!(
            "0\tm.map\t30\t20\t{}\t{}\t{}\t{}\t{d:.8}\n",
            s.1, s.0, g.1, g.0
        );
    }
    std::fs::write(dir.path().join("m.map"), map).unwrap();
    let scen_path = dir.path().join("m.map.scen");
    std::fs::write(&scen_path, scen).unwrap();
    let scen_arg = scen_path.to_str().unwrap();
    let (_, out, err) = crate::common::puzzlelab(&["scenario", scen_arg, "-a", "jps+", "--json"]);
    let json: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(json["algorithm"], "jps+");
    assert!(json["precompute_ms"].as_f64().is_some(), "{out}");
    let (_, astar_out, _) = crate::common::puzzlelab(&["scenario", scen_arg, "--json"]);
    let astar_json: serde_json::Value = serde_json::from_str(&astar_out).unwrap();
    assert!(astar_json.get("precompute_ms").is_none());
    // The same problems, the same answers as A*.
    for (a, b) in json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .zip(astar_json["problems"].as_array().unwrap())
    {
        assert_eq!(a["computed"].is_null(), b["computed"].is_null());
        if let (Some(x), Some(y)) = (a["computed"].as_f64(), b["computed"].as_f64()) {
            assert!((x - y).abs() < 1e-9);
        }
    }
    let (_, text, _) = crate::common::puzzlelab(&["scenario", scen_arg, "-a", "jps+"]);
    assert!(text.contains("ms computing jump distances; jps+"), "{text}");
}

/// In the app: a Moving AI map opens as a maze, JPS+ is chosen and run at full speed; it
/// finds A*'s cost, its jumps are drawn square by square as JPS's are, and the time of the
/// precomputation is in the run's statistics.
#[test]
fn the_app_runs_jps_plus_on_a_moving_ai_map() {
    use crate::common::gui::{harness, open_path, run_until};
    use puzzlelab::app::{AppCommand, Settings};
    let mut rng = Rng(2026);
    let free = random_grid(&mut rng, 40, 60, 25);
    let mut text = "type octile\nheight 40\nwidth 60\nmap\n".to_owned();
    for row in &free {
        text.extend(row.iter().map(|&f| if f { '.' } else { '@' }));
        text.push('\n');
    }
    let maze = parse_map(&text).unwrap();
    let astar = search::solve(&maze, Algorithm::AStar).unwrap();
    assert!(Algorithm::JpsPlus.applies_to(&maze));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("random.map");
    std::fs::write(&path, &text).unwrap();
    let mut h = harness(Settings::default());
    h.run();
    open_path(&mut h, path);
    h.state_mut()
        .push(AppCommand::SetAlgorithm(Algorithm::JpsPlus));
    h.state_mut().push(AppCommand::SetSpeed(60.0, true));
    h.run();
    assert_eq!(h.state().algorithm(), Algorithm::JpsPlus);
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap().clone();
    assert_eq!(report.algorithm, Algorithm::JpsPlus);
    assert_eq!(report.outcome, astar.outcome);
    assert!(
        (report.cost - astar.cost).abs() < 1e-9,
        "{} vs {}",
        report.cost,
        astar.cost
    );
    assert!(report.stats.precompute_ms > 0.0);
    assert!(report.stats.elapsed_ms >= report.stats.precompute_ms);
    if report.solved {
        assert_eq!(report.path.len(), report.moves.len() + 1);
        for pair in report.path.windows(2) {
            let (a, b) = (pair[0].cell, pair[1].cell);
            assert!(a.row.abs_diff(b.row) <= 1 && a.col.abs_diff(b.col) <= 1);
        }
        assert!(
            report
                .notes
                .iter()
                .any(|n| n.contains("jump points on the path")),
            "{:?}",
            report.notes
        );
        // The canvas shows the jump points it expanded: far fewer than A*'s squares.
        let closed = h.state().marks().closed_places as u64;
        assert!(closed > 0 && closed < astar.stats.expanded, "{closed}");
    }
}

/// JPS+'s table is charged to the memory limit before it is built: a run whose limit it would
/// cross stops at the limit and names it (the app's run and `scenario` alike).
#[test]
fn jump_distances_count_against_the_memory_limit() {
    let free = vec![vec![true; 600]; 600];
    let mut maze = maze_of(&free, false);
    maze.toggle_goal(Cell::new(599, 599));
    let cancel = CancelToken::with_limits(Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    });
    let run = search::run(&maze, Algorithm::JpsPlus, &mut search::NoObserver, &cancel).unwrap();
    assert_eq!(run.outcome, Outcome::MemoryLimit);
    let message = run.message.unwrap();
    assert!(message.contains("JPS+'s jump distances"), "{message}");
    // With room for it, the same run finds the diagonal.
    let run = search::solve(&maze, Algorithm::JpsPlus).unwrap();
    assert!((run.cost - 599.0 * std::f64::consts::SQRT_2).abs() < 1e-9);
    // `scenario` says so too, and runs nothing.
    let problem = ScenarioProblem {
        line: 2,
        bucket: 0,
        start: Cell::new(0, 0),
        goal: Cell::new(599, 599),
        optimal: 599.0 * std::f64::consts::SQRT_2,
    };
    let scenario = puzzlelab::puzzles::maze::movingai::Scenario {
        map: "m.map".into(),
        width: 600,
        height: 600,
        problems: vec![problem],
    };
    let summary = scenario.run(&maze, Algorithm::JpsPlus, &cancel, |_| {});
    assert_eq!(summary.run, 0);
    assert!(summary.stopped.unwrap().contains("memory limit"));
}
