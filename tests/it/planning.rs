//! Planning tasks (PDDL, issue 59): the shipped tasks' optimal plan lengths, each plan checked
//! by a simulator of the test's own; BFS, A* with h^max, Dijkstra and bidirectional BFS agree;
//! the 8-puzzle written in PDDL has the 8-puzzle's 181,440 states and the built-in type's
//! optimal lengths; a problem's domain is found beside it; bad input is told with its line and
//! column; and, when `../shared/pddl` is there, pyperplan's benchmarks parse and ground.

use std::collections::HashSet;

use crate::common::puzzlelab;

use puzzlelab::puzzles::planning::Planning;
use puzzlelab::puzzles::{self, Model, NoWatcher, Puzzle, Report};
use puzzlelab::search::{Algorithm, CancelToken, Problem};

const GRIPPER: &str = include_str!("../../puzzles/planning-gripper.pddl");
const BLOCKS: &str = include_str!("../../puzzles/planning-blocks.pddl");
const EIGHT: &str = include_str!("../../puzzles/planning-eight-puzzle.pddl");

fn solve(task: &Planning, algorithm: Algorithm) -> Report {
    Model::solve(task, algorithm, &mut NoWatcher, &CancelToken::new()).unwrap()
}

/// The arguments of a plan step `(name a b)`.
fn words(step: &str) -> Vec<&str> {
    step.trim_matches(|c| c == '(' || c == ')')
        .split_whitespace()
        .collect()
}

/// Gripper by hand: a robot in a room, grippers holding at most one ball each.
fn gripper_plan_is_valid(plan: &[String], balls: usize) -> bool {
    let mut robot = "rooma".to_owned();
    let mut at: Vec<String> = vec!["rooma".to_owned(); balls];
    let mut holding: Vec<(String, usize)> = Vec::new();
    let ball = |name: &str| {
        name.trim_start_matches("ball")
            .parse::<usize>()
            .ok()
            .map(|b| b - 1)
    };
    for step in plan {
        let w = words(step);
        match w.as_slice() {
            ["move", from, to] if *from == robot => robot = (*to).to_owned(),
            ["pick", b, room, g] if *room == robot => {
                let Some(b) = ball(b) else { return false };
                if at[b] != robot || holding.iter().any(|(h, _)| h == g) {
                    return false;
                }
                at[b] = String::new();
                holding.push(((*g).to_owned(), b));
            }
            ["drop", b, room, g] if *room == robot => {
                let Some(b) = ball(b) else { return false };
                let Some(i) = holding.iter().position(|(h, hb)| h == g && *hb == b) else {
                    return false;
                };
                holding.remove(i);
                at[b] = robot.clone();
            }
            _ => return false,
        }
    }
    at.iter().all(|r| r == "roomb")
}

/// The 8-puzzle by hand: squares `sRC`, a tile slides into the adjacent blank square.
fn eight_plan_is_valid(start: [u8; 9], plan: &[String]) -> bool {
    let mut board = start;
    let square = |s: &str| -> Option<usize> {
        let d: Vec<u32> = s
            .trim_start_matches('s')
            .chars()
            .filter_map(|c| c.to_digit(10))
            .collect();
        (d.len() == 2).then(|| ((d[0] - 1) * 3 + d[1] - 1) as usize)
    };
    for step in plan {
        let w = words(step);
        let ["slide", t, from, to] = w.as_slice() else {
            return false;
        };
        let (Some(from), Some(to)) = (square(from), square(to)) else {
            return false;
        };
        let t: u8 = t.trim_start_matches('t').parse().unwrap_or(0);
        let adjacent = (from / 3 == to / 3 && from.abs_diff(to) == 1) || from.abs_diff(to) == 3;
        if !adjacent || board[from] != t || board[to] != 0 {
            return false;
        }
        board.swap(from, to);
    }
    board == [1, 2, 3, 4, 5, 6, 7, 8, 0]
}

#[test]
fn the_shipped_tasks_have_their_optimal_plans_and_the_searches_agree() {
    for (text, length) in [(GRIPPER, 11), (BLOCKS, 6), (EIGHT, 12)] {
        let task = Planning::from_text(text).unwrap();
        for algorithm in [Algorithm::Bfs, Algorithm::AStar, Algorithm::Dijkstra] {
            let report = solve(&task, algorithm);
            assert!(report.solved && report.optimal, "{algorithm:?}: {report:?}");
            assert_eq!(report.moves.len(), length, "{algorithm:?}");
            let states = puzzles::replay(&task, &report.moves).unwrap();
            assert!(task.is_goal(states.last().unwrap()).unwrap());
        }
    }
    let gripper = Planning::from_text(GRIPPER).unwrap();
    assert!(gripper_plan_is_valid(
        &solve(&gripper, Algorithm::AStar).moves,
        4
    ));
    let eight = Planning::from_text(EIGHT).unwrap();
    let report = solve(&eight, Algorithm::AStar);
    assert!(eight_plan_is_valid(
        [5, 1, 3, 4, 0, 2, 7, 8, 6],
        &report.moves
    ));
}

#[test]
fn greedy_with_h_ff_finds_a_plan_and_h_max_expands_fewer_than_blind_search() {
    let mut task = Planning::from_text(GRIPPER).unwrap();
    Model::set_option(&mut task, "heuristic", "blind").unwrap();
    assert!(Puzzle::refusal(&task, Algorithm::AStar).is_some());
    let blind = solve(&task, Algorithm::Dijkstra);
    Model::set_option(&mut task, "heuristic", "hmax").unwrap();
    let hmax = solve(&task, Algorithm::AStar);
    assert_eq!(blind.cost, hmax.cost);
    assert!(
        hmax.stats.expanded < blind.stats.expanded,
        "{} {}",
        hmax.stats.expanded,
        blind.stats.expanded
    );
    Model::set_option(&mut task, "heuristic", "hff").unwrap();
    assert!(!Puzzle::guarantees_optimal(&task, Algorithm::AStar));
    let greedy = solve(&task, Algorithm::Greedy);
    assert!(greedy.solved && gripper_plan_is_valid(&greedy.moves, 4));
    assert!(Model::set_option(&mut task, "heuristic", "lmcount").is_err());
}

/// A random 8-puzzle board `steps` random moves from the goal, as the sliding type's text and
/// as the PDDL problem's init.
fn random_board(seed: u64, steps: usize) -> [u8; 9] {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut b = [1, 2, 3, 4, 5, 6, 7, 8, 0];
    for _ in 0..steps {
        let blank = b.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / 3, blank % 3);
        let mut next = Vec::new();
        if r > 0 {
            next.push(blank - 3)
        }
        if r < 2 {
            next.push(blank + 3)
        }
        if c > 0 {
            next.push(blank - 1)
        }
        if c < 2 {
            next.push(blank + 1)
        }
        let n = next[rng.random_range(0..next.len())];
        b.swap(blank, n);
    }
    b
}

fn eight_pddl(board: [u8; 9]) -> String {
    let mut init = String::new();
    for (i, &t) in board.iter().enumerate() {
        let s = format!("s{}{}", i / 3 + 1, i % 3 + 1);
        if t == 0 {
            init += &format!("(blank {s}) ");
        } else {
            init += &format!("(tile-on t{t} {s}) ");
        }
    }
    let start = EIGHT.find("(tile-on t5 s11)").unwrap();
    let end = EIGHT.find("(tile-on t6 s33))").unwrap() + "(tile-on t6 s33)".len();
    format!("{}{init}{}", &EIGHT[..start], &EIGHT[end..])
}

#[test]
fn the_eight_puzzle_in_pddl_has_the_eight_puzzles_states_and_optimal_lengths() {
    let task = Planning::from_text(EIGHT).unwrap();
    let count = Model::count_states(&task, &CancelToken::new());
    assert_eq!(count.states, 181_440);
    for seed in 0..3 {
        let board = random_board(seed, 30);
        let planning = Planning::from_text(&eight_pddl(board)).unwrap();
        let text: String = board
            .chunks(3)
            .map(|r| {
                r.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        let sliding = puzzles::parse(&text, Some("sliding")).unwrap();
        let built_in = sliding
            .solve(Algorithm::AStar, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        let report = solve(&planning, Algorithm::AStar);
        assert!(report.optimal && built_in.optimal);
        assert_eq!(report.moves.len(), built_in.moves.len(), "seed {seed}");
        assert!(eight_plan_is_valid(board, &report.moves), "seed {seed}");
    }
}

#[test]
fn h_max_and_lm_cut_never_exceed_the_true_distance_and_lm_cut_is_at_least_h_max() {
    // Over gripper's and blocks world's whole spaces: h(s) <= h*(s) for both (by the
    // Heuristic window's measure, a backward search from the goals), and LM-cut >= h^max.
    for text in [GRIPPER, BLOCKS] {
        let mut task = Planning::from_text(text).unwrap();
        let oracle = Model::oracle(&task, &CancelToken::new(), &mut |_| {}).unwrap();
        let space = oracle.space().unwrap();
        for h in ["hmax", "lmcut"] {
            Model::set_option(&mut task, "heuristic", h).unwrap();
            let quality = space
                .heuristic_quality(&task, &CancelToken::new())
                .unwrap()
                .unwrap();
            assert!(quality.admissible, "{h}: {quality:?}");
            assert_eq!(quality.inadmissible_states, 0, "{h}");
            assert!(quality.states > 10);
        }
        let mut hmax = task.clone();
        Model::set_option(&mut hmax, "heuristic", "hmax").unwrap();
        let states = puzzles::replay(&task, &solve(&task, Algorithm::Bfs).moves).unwrap();
        for s in &states {
            assert!(task.heuristic(s).unwrap() >= hmax.heuristic(s).unwrap());
        }
    }
}

#[test]
fn a_star_with_lm_cut_is_optimal_and_expands_no_more_than_with_h_max() {
    for (text, length) in [(GRIPPER, 11), (BLOCKS, 6), (EIGHT, 12)] {
        let mut task = Planning::from_text(text).unwrap();
        let hmax = solve(&task, Algorithm::AStar);
        Model::set_option(&mut task, "heuristic", "lmcut").unwrap();
        assert!(Puzzle::guarantees_optimal(&task, Algorithm::AStar));
        let lm = solve(&task, Algorithm::AStar);
        assert!(lm.solved && lm.optimal);
        assert_eq!(lm.moves.len(), length);
        assert!(
            lm.stats.expanded <= hmax.stats.expanded,
            "{} > {}",
            lm.stats.expanded,
            hmax.stats.expanded
        );
    }
}

#[test]
fn a_problem_finds_its_domain_beside_it_or_is_told_to_name_it() {
    let dir = tempfile::tempdir().unwrap();
    let (domain, problem) = GRIPPER.split_at(GRIPPER.find("(define (problem").unwrap());
    std::fs::write(dir.path().join("p01.pddl"), problem).unwrap();
    let p = dir.path().join("p01.pddl");
    let p = p.to_str().unwrap();
    let (code, _, err) = puzzlelab(&["solve", p]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("needs its domain") && err.contains("--domain"),
        "{err}"
    );
    std::fs::write(dir.path().join("elsewhere.pddl"), domain).unwrap();
    let d = dir.path().join("elsewhere.pddl");
    let plan = dir.path().join("plan.txt");
    let (code, out, err) = puzzlelab(&[
        "solve",
        p,
        "--domain",
        d.to_str().unwrap(),
        "--plan",
        plan.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("solved: 11 moves"), "{out}");
    let written = std::fs::read_to_string(&plan).unwrap();
    assert_eq!(written.lines().count(), 12, "{written}");
    assert!(written.ends_with("; cost = 11\n"), "{written}");
    // domainNN.pddl beside a problem numbered NN, as the IPC folders name them.
    std::fs::write(dir.path().join("domain01.pddl"), domain).unwrap();
    let (code, out, err) = puzzlelab(&["solve", p, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 11);
}

#[test]
fn bad_input_is_told_with_its_line_and_column() {
    let cases = [
        (
            GRIPPER.replacen("(at-robby ?to)", "(at-robby ?to", 1),
            "never closed",
        ),
        (
            GRIPPER.replacen("(free ?gripper))))", "(loose ?gripper))))", 1),
            "`loose` is not declared",
        ),
        (
            BLOCKS.replacen(":typing", ":typing :conditional-effects", 1),
            ":conditional-effects is not supported",
        ),
        (
            BLOCKS.replacen("- block)\n(:INIT", "- cube)\n(:INIT", 1),
            "type `cube`",
        ),
        (BLOCKS.replacen("(ON D C)", "(ON E C)", 1), "object `e`"),
        (
            BLOCKS.replacen("(:domain BLOCKS)", "(:domain TOWERS)", 1),
            "`towers`",
        ),
    ];
    for (text, wanted) in cases {
        assert_ne!(text, BLOCKS);
        let e = Planning::from_text(&text).unwrap_err();
        assert!(e.to_string().contains(wanted), "{wanted}: {e}");
        assert!(e.line.is_some() && e.column.is_some(), "{wanted}: {e}");
    }
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pddl");
    std::fs::write(&bad, GRIPPER.replacen("(at-robby ?to)", "(at-robby ?to", 1)).unwrap();
    let (code, _, err) = puzzlelab(&["solve", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line ") && err.contains("column "), "{err}");
}

#[test]
fn a_joined_text_round_trips_and_an_unsolvable_goal_is_said() {
    let task = Planning::from_text(BLOCKS).unwrap();
    let again = Planning::from_text(&Model::to_text(&task)).unwrap();
    assert_eq!(again.task(), task.task());
    let json = Model::to_json(&task);
    let from_json = puzzles::parse(&json.to_string(), None).unwrap();
    assert_eq!(from_json.model::<Planning>().unwrap().task(), task.task());
    // A goal no action can make true: room C is no room, so the robot never gets there.
    let stuck = GRIPPER
        .replacen("rooma roomb ball4", "rooma roomb roomc ball4", 1)
        .replacen("(at ball4 roomb)", "(at ball4 roomc)", 1);
    let stuck = Planning::from_text(&stuck).unwrap();
    let why = Model::unsolvable(&stuck).unwrap_or_default();
    assert!(why.contains("(at ball4 roomc)"), "{why}");
}

/// Every domain and problem of pyperplan's 21 IPC domains parses and grounds (the first
/// three problems of each, to keep the suite fast), when `../shared/pddl` is there; the
/// smallest of each is solved by greedy search with h^FF, its plan replayed.
#[test]
fn pyperplans_benchmarks_parse_ground_and_solve() {
    let Some(domains) = crate::common::ipc_domains() else {
        return;
    };
    let mut seen = HashSet::new();
    for (dir, problems) in domains {
        for p in problems.iter().take(3) {
            let puzzle =
                puzzles::load_file(p, None).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let task = puzzle.model::<Planning>().unwrap();
            task.task().validate().unwrap();
            seen.insert(dir.clone());
        }
        let first = puzzles::load_file(&problems[0], None).unwrap();
        let mut task = first.model::<Planning>().unwrap().clone();
        Model::set_option(&mut task, "heuristic", "hff").unwrap();
        let cancel = CancelToken::with_limits(puzzlelab::search::Limits {
            timeout: Some(std::time::Duration::from_secs(5)),
            ..Default::default()
        });
        let report = Model::solve(&task, Algorithm::Greedy, &mut NoWatcher, &cancel).unwrap();
        if report.solved {
            let states = puzzles::replay(&task, &report.moves).unwrap();
            assert!(
                task.is_goal(states.last().unwrap()).unwrap(),
                "{}",
                problems[0].display()
            );
        }
    }
    // pyperplan's 21 IPC domains and the generated n-puzzle.
    assert!(seen.len() >= 21, "{}", seen.len());
}

#[test]
fn bench_planning_solves_a_folder_and_says_each_problem() {
    let dir = tempfile::tempdir().unwrap();
    let (domain, problem) = GRIPPER.split_at(GRIPPER.find("(define (problem").unwrap());
    std::fs::write(dir.path().join("domain.pddl"), domain).unwrap();
    std::fs::write(dir.path().join("p01.pddl"), problem).unwrap();
    std::fs::write(dir.path().join("p02.pddl"), "(define (problem broken)").unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = puzzlelab(&["bench", "planning", d, "--json", "--time-limit", "20"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["heuristic"], "lmcut");
    let rows = v["problems"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["problem"], "p01.pddl");
    assert_eq!(rows[0]["length"], 11);
    assert_eq!(rows[0]["optimal"], true);
    assert!(rows[0]["operators"].as_u64().unwrap() > 0);
    assert!(
        rows[1]["error"].as_str().unwrap().contains("never closed"),
        "{}",
        rows[1]
    );
    assert_eq!(v["totals"]["solved"], 1);
    assert_eq!(v["totals"]["problems"], 2);
}

#[test]
fn bench_planning_shards_merge_into_the_unsharded_run() {
    // Three problems (gripper twice and a broken one), in two shards: `merge` gives the rows
    // of the whole run in the folder's order with the totals counted again; rows out of
    // order are refused.
    let dir = tempfile::tempdir().unwrap();
    let (domain, problem) = GRIPPER.split_at(GRIPPER.find("(define (problem").unwrap());
    std::fs::write(dir.path().join("domain.pddl"), domain).unwrap();
    std::fs::write(dir.path().join("p01.pddl"), problem).unwrap();
    std::fs::write(dir.path().join("p02.pddl"), "(define (problem broken)").unwrap();
    std::fs::write(dir.path().join("p03.pddl"), problem).unwrap();
    let d = dir.path().to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["bench", "planning", d, "--json", "--heuristic", "hmax"];
        args.extend_from_slice(extra);
        let (code, out, err) = puzzlelab(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let whole: serde_json::Value = serde_json::from_str(&run(&[])).unwrap();
    let mut parts = Vec::new();
    for k in ["1/2", "2/2"] {
        let out = run(&["--shard", k]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["shard"]["of"], 3, "{v}");
        let part = dir.path().join(format!("part{}.json", parts.len()));
        std::fs::write(&part, out).unwrap();
        parts.push(part.to_str().unwrap().to_owned());
    }
    let (code, out, err) = puzzlelab(&["merge", &parts[1], &parts[0]]);
    assert_eq!(code, 0, "{err}");
    let merged: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(merged.get("shard").is_none());
    let (rows, all) = (
        merged["problems"].as_array().unwrap(),
        whole["problems"].as_array().unwrap(),
    );
    assert_eq!(rows.len(), 3);
    for (row, w) in rows.iter().zip(all) {
        for key in ["index", "problem", "solved", "length", "cost"] {
            assert_eq!(row[key], w[key], "{key}");
        }
    }
    assert_eq!(merged["totals"]["solved"], 2);
    assert_eq!(merged["totals"]["problems"], 3);
    // More shards than problems: a shard with none of its own is an empty part with exit 0,
    // not an error (a shard holding only the broken problem is bad input, exit 2); the four
    // parts hold the three problems.
    let mut counts = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let (code, out, err) = puzzlelab(&[
            "bench",
            "planning",
            d,
            "--json",
            "--heuristic",
            "hmax",
            "--shard",
            &shard,
        ]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let rows = v["problems"].as_array().unwrap();
        let broken = !rows.is_empty() && rows.iter().all(|r| r.get("error").is_some());
        assert_eq!(code, if broken { 2 } else { 0 }, "{shard}: {err}");
        counts.push(rows.len());
    }
    assert_eq!(counts.iter().sum::<usize>(), 3, "{counts:?}");
    assert!(counts.contains(&0), "{counts:?}");
    // A part whose rows are swapped is refused.
    let second = std::fs::read_to_string(&parts[1]).unwrap();
    let mut bad: serde_json::Value = serde_json::from_str(&second).unwrap();
    assert_eq!(bad["problems"].as_array().unwrap().len(), 2);
    bad["problems"].as_array_mut().unwrap().reverse();
    std::fs::write(&parts[1], bad.to_string()).unwrap();
    let (code, _, err) = puzzlelab(&["merge", &parts[0], &parts[1]]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("index"), "{err}");
}

/// The squares lit in a planning picture: its true facts.
fn lit(picture: &puzzles::Picture) -> usize {
    picture
        .squares
        .iter()
        .filter(|s| matches!(s, puzzles::Square::Piece { .. }))
        .count()
}

/// Issue 59 item 5: the side panel tells the state the canvas shows (the search's moment,
/// the plan's step), and its relaxed planning graph gives the h^max and h^FF of that state
/// (checked against the heuristics computed on the state read from the canvas's picture).
#[test]
fn the_panel_and_the_relaxed_planning_graph_follow_the_state_on_the_canvas() {
    use crate::common::gui::{click_label, harness_sized, open_copy_at_full_speed, run_until};
    use egui_kittest::kittest::Queryable as _;
    use puzzlelab::app::{AppCommand, Settings, TimelineCommand};
    use puzzlelab::puzzles::planning::heuristics::{Heuristic, Relaxation};

    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        1400.0,
    );
    let _dir = open_copy_at_full_speed(&mut h, "puzzles/planning-blocks.pddl", Algorithm::AStar);
    h.state_mut()
        .push(AppCommand::SetOption("heuristic".into(), "lmcut".into()));
    h.run();
    let task = h.state().model::<Planning>().unwrap();
    assert_eq!(task.heuristic_kind(), Heuristic::LmCut);
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    assert!(h.state().result().unwrap().solved);
    click_label(&mut h, "Relaxed planning graph of the state shown");
    h.run();
    h.run();
    // The heuristics of the state `picture` shows, by the engine's own functions.
    let values = |h: &egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp>,
                  picture: &puzzles::Picture| {
        let task = h.state().model::<Planning>().unwrap();
        let state = task.state_of_picture(picture).unwrap();
        let relax = Relaxation::new(task.task());
        let holds = |f| puzzlelab::puzzles::planning::holds(&state, f);
        (
            relax.value(task.task(), Heuristic::Hmax, holds),
            relax.value(task.task(), Heuristic::Hff, holds),
        )
    };
    // A moment of the search, scrubbed to: the panel's facts are the canvas's lit squares.
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(3)));
    h.run();
    h.run();
    let board = h
        .state()
        .marks()
        .board
        .clone()
        .expect("the moment's picture");
    h.get_by_label(&format!(
        "True in the state of the search's moment shown: {} facts",
        lit(&board)
    ));
    let (hmax, hff) = values(&h, &board);
    h.get_by_label_contains(&format!(
        "Of the state of the search's moment shown: h^max = {hmax} "
    ));
    h.get_by_label_contains(&format!("h^FF = {hff} "));
    h.get_by_label_contains("Layer 0 · cost 0: ");
    // The Learn panel at that moment: its caption on screen.
    h.state_mut().windows.learn.open = true;
    h.run();
    let (_, moment) = h.state().learn_moment().expect("a moment");
    assert_eq!(moment.position, 3);
    h.get_by_label(&moment.caption());
    h.state_mut().windows.learn.open = false;
    // The plan's last step: its state is the goal's, whose h^max is 0.
    let len = h.state().result().unwrap().moves.len();
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(usize::MAX)));
    h.state_mut().push(AppCommand::ShowStep(len));
    h.run();
    h.run();
    h.get_by_label_contains(&format!(
        "Of the state after step {len} of the plan: h^max = 0 "
    ));
    h.get_by_label_contains("h^FF = 0 ");
}
