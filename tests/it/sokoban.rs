//! Sokoban: every level of the shared sets and the fixtures parses, malformed levels are
//! refused with their number and line, XSB and JSON round trips, random play against an
//! independent simulator written here, breadth-first search and A* (the matching bound)
//! agreeing on the pushes of small Microban levels, and every answer replayed as LURD by the
//! test's own checker (the rules of `../shared/sokoban/tools/lurd.py`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use proptest::prelude::*;
use puzzlelab::puzzles::sokoban::{Dir, Metric, Sokoban, format};
use puzzlelab::puzzles::{NoWatcher, Puzzle, Report};
use puzzlelab::search::{Algorithm, CancelToken, SearchError};

use crate::common::puzzlelab;

/// Microban's first ten levels (David W. Skinner), copied with their credit.
const MICROBAN: &str = include_str!("../fixtures/sokoban-microban-1-10.xsb");
const SHIPPED: &str = include_str!("../../puzzles/sokoban-first-steps.xsb");

/// A position as the test's own simulator holds it: walls, goals, boxes and the player as
/// (row, column), from the XSB rows; the rules of `../shared/sokoban/tools/lurd.py`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sim {
    walls: BTreeSet<(i32, i32)>,
    goals: BTreeSet<(i32, i32)>,
    boxes: BTreeSet<(i32, i32)>,
    player: (i32, i32),
}

impl Sim {
    fn new(rows: &[String]) -> Sim {
        let mut sim = Sim {
            walls: BTreeSet::new(),
            goals: BTreeSet::new(),
            boxes: BTreeSet::new(),
            player: (0, 0),
        };
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let at = (r as i32, c as i32);
                if ch == '#' {
                    sim.walls.insert(at);
                }
                if ".*+".contains(ch) {
                    sim.goals.insert(at);
                }
                if "$*".contains(ch) {
                    sim.boxes.insert(at);
                }
                if "@+".contains(ch) {
                    sim.player = at;
                }
            }
        }
        sim
    }

    /// One LURD letter: a walk (lowercase) or a push (uppercase). Returns whether it pushed.
    fn play(&mut self, ch: char) -> Result<bool, String> {
        let (dy, dx) = match ch.to_ascii_lowercase() {
            'l' => (0, -1),
            'r' => (0, 1),
            'u' => (-1, 0),
            'd' => (1, 0),
            _ => return Err(format!("not a LURD letter: {ch:?}")),
        };
        let next = (self.player.0 + dy, self.player.1 + dx);
        if self.walls.contains(&next) {
            return Err("walk into a wall".into());
        }
        let pushed = self.boxes.contains(&next);
        if pushed {
            let beyond = (next.0 + dy, next.1 + dx);
            if self.walls.contains(&beyond) || self.boxes.contains(&beyond) {
                return Err("blocked push".into());
            }
            if !ch.is_ascii_uppercase() {
                return Err("lowercase push".into());
            }
            self.boxes.remove(&next);
            self.boxes.insert(beyond);
        } else if ch.is_ascii_uppercase() {
            return Err("uppercase without a box".into());
        }
        self.player = next;
        Ok(pushed)
    }

    fn solved(&self) -> bool {
        self.boxes == self.goals
    }
}

/// Replays `lurd` on the level's rows: (solved, moves, pushes).
fn check_lurd(rows: &[String], lurd: &str) -> (bool, usize, usize) {
    let mut sim = Sim::new(rows);
    let (mut moves, mut pushes) = (0, 0);
    for ch in lurd.chars().filter(|c| !c.is_whitespace()) {
        let pushed = sim
            .play(ch)
            .unwrap_or_else(|e| panic!("{e} at move {moves} of {lurd}"));
        moves += 1;
        pushes += usize::from(pushed);
    }
    (sim.solved(), moves, pushes)
}

/// The simulator's view of a model's position.
fn sim_of(level: &Sokoban) -> Sim {
    let rows: Vec<String> = level.to_text_of_level();
    Sim::new(&rows)
}

/// The level on screen's rows as played, from the puzzle's JSON (its `position` once played,
/// else the level's board; the XSB is the file's levels, never a position played by hand).
trait LevelText {
    fn to_text_of_level(&self) -> Vec<String>;
}

impl LevelText for Sokoban {
    fn to_text_of_level(&self) -> Vec<String> {
        let json = self.to_json();
        let rows = |v: &serde_json::Value| -> Vec<String> {
            let rows = v.as_array().expect("rows");
            rows.iter()
                .map(|r| r.as_str().unwrap().to_owned())
                .collect()
        };
        if !json["position"].is_null() {
            return rows(&json["position"]);
        }
        let index = json["level"].as_u64().unwrap() as usize - 1;
        rows(&json["levels"][index]["board"])
    }
}

fn lurd_of(report: &Report) -> String {
    report
        .notes
        .iter()
        .find_map(|n| n.strip_prefix("lurd: "))
        .unwrap_or("")
        .to_string()
}

fn solve(level: &Sokoban, algorithm: Algorithm) -> Report {
    level
        .solve(algorithm, &mut NoWatcher, &CancelToken::new())
        .unwrap()
}

fn at_level(text: &str, number: usize, metric: Metric) -> Sokoban {
    let mut level = Sokoban::from_text(text).unwrap();
    level.set_level(number).unwrap();
    level.set_metric(metric);
    level
}

/// The shared level sets, where this checkout has them (beside the repository or its
/// worktrees' folder): the file, and how many levels it holds.
fn shared_sets() -> Vec<(PathBuf, usize)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let Some(levels) = [root.join("../shared"), root.join("../../shared")]
        .into_iter()
        .map(|p| p.join("sokoban/levels"))
        .find(|p| p.is_dir())
    else {
        return Vec::new();
    };
    [
        ("Microban_155.xsb", 155),
        ("Microban_II_135.xsb", 135),
        ("Sasquatch_50.xsb", 50),
        ("XSokoban_90.xsb", 90),
    ]
    .into_iter()
    .map(|(f, n)| (levels.join(f), n))
    .collect()
}

#[test]
fn every_level_of_the_fixtures_and_the_shared_sets_parses() {
    let mut sets = vec![(MICROBAN.to_string(), 10), (SHIPPED.to_string(), 5)];
    for (path, n) in shared_sets() {
        sets.push((std::fs::read_to_string(&path).unwrap(), n));
    }
    for (text, n) in &sets {
        let collection = format::read_collection(text);
        assert!(collection.errors.is_empty(), "{:?}", collection.errors);
        assert_eq!(collection.levels.len(), *n);
        let mut level = Sokoban::from_text(text).unwrap();
        for l in &collection.levels {
            level.set_level(l.number).unwrap();
            assert!(!level.board().start.boxes.is_empty());
        }
    }
}

#[test]
fn malformed_levels_are_refused_with_their_number_and_line() {
    let text = "\
#####
#@$.#
#####

#####
# $.#
#####

#####
#@@$.#
######

######
#@$$.#
######

#####
#@$.
#####

#####
#@$x.#
######
";
    let collection = format::read_collection(text);
    let found: Vec<(usize, usize, &str)> = collection
        .errors
        .iter()
        .map(|e| (e.number, e.line, e.message.as_str()))
        .collect();
    let expected = [
        (2, 5, "no player"),
        (3, 10, "a second player at column 3"),
        (4, 13, "2 boxes but 1 goals"),
        (5, 18, "open border"),
        (6, 22, "unknown character 'x' at column 4"),
    ];
    assert_eq!(found.len(), expected.len(), "{found:?}");
    for ((number, line, message), (n, l, m)) in found.iter().zip(expected) {
        assert_eq!((*number, *line), (n, l), "{message}");
        assert!(message.contains(m), "{message} should say {m}");
    }
    // The well-formed level still opens; a refused one says why when asked for.
    let mut level = Sokoban::from_text(text).unwrap();
    assert_eq!(level.level_number(), 1);
    assert_eq!(level.refused().len(), 5);
    let why = level.set_level(3).unwrap_err();
    assert!(
        why.contains("level 3") && why.contains("second player"),
        "{why}"
    );
    // A collection with no well-formed level is an error naming the level and its line.
    let error = Sokoban::from_text("#####\n# $.#\n#####\n").unwrap_err();
    assert_eq!(error.line, Some(1));
    assert!(error.to_string().contains("level 1: no player"), "{error}");
}

#[test]
fn xsb_and_json_round_trip() {
    let mut level = Sokoban::from_text(MICROBAN).unwrap();
    for number in 1..=10 {
        level.set_level(number).unwrap();
        let again = Sokoban::from_text(&level.to_text()).unwrap();
        assert_eq!(again.to_text(), level.to_text(), "level {number}");
        assert_eq!(again.levels(), level.levels());
        let from_json = puzzlelab::puzzles::parse(&level.to_json().to_string(), None).unwrap();
        assert_eq!(from_json.to_text(), level.to_text(), "level {number}");
    }
    // A position played by hand comes back, and its level.
    level.set_level(2).unwrap();
    assert_eq!(level.step(Dir::Left), None, "a wall");
    assert_eq!(level.step(Dir::Right), Some(false));
    let json = level.to_json().to_string();
    let back = puzzlelab::puzzles::parse(&json, None).unwrap();
    let back = back.model::<Sokoban>().unwrap();
    assert_eq!(back.level_number(), 2);
    assert_eq!(back.position(), level.position());
}

#[test]
fn breadth_first_search_and_astar_agree_on_the_pushes_of_small_microban_levels() {
    for number in 1..=10 {
        let level = at_level(MICROBAN, number, Metric::Pushes);
        let rows = level.level().rows.clone();
        let bfs = solve(&level, Algorithm::Bfs);
        let astar = solve(&level, Algorithm::AStar);
        assert!(
            bfs.solved && bfs.optimal && astar.solved && astar.optimal,
            "level {number}"
        );
        assert_eq!(bfs.cost, astar.cost, "level {number}");
        assert!(
            astar.stats.expanded <= bfs.stats.expanded,
            "level {number}: the bound steers A*"
        );
        for report in [&bfs, &astar] {
            let (solved, _, pushes) = check_lurd(&rows, &lurd_of(report));
            assert!(solved, "level {number}");
            assert_eq!(pushes as f64, report.cost, "level {number}");
        }
    }
}

/// PI-corral pruning never cuts a shortest solution: over the whole push graph (explored
/// without it) of each small level, wherever it prunes a state that can be solved, a kept
/// successor is one push nearer the goal; BFS with it off and A* with it on (the default)
/// agree on the pushes.
#[test]
fn pi_corral_pruning_keeps_a_shortest_solution_from_every_state() {
    use puzzlelab::search::space::StateGraph;
    let mut pruned_states = 0;
    let levels = (1..=10)
        .map(|n| (MICROBAN, n))
        .chain((1..=5).map(|n| (SHIPPED, n)));
    for (text, number) in levels {
        let mut level = at_level(text, number, Metric::Pushes);
        let astar = solve(&level, Algorithm::AStar);
        level.set_option("corrals", "off").unwrap();
        let graph = StateGraph::explore(&level, &CancelToken::new(), &mut |_| {}).unwrap();
        let bfs = solve(&level, Algorithm::Bfs);
        assert_eq!(
            (bfs.solved, astar.solved, bfs.cost),
            (true, true, astar.cost),
            "{number}"
        );
        for node in 0..graph.len() as u32 {
            let (Some(state), Some(d)) = (graph.state(node), graph.to_goal(node)) else {
                continue;
            };
            if d == 0 {
                continue;
            }
            let mut found = Vec::new();
            level.board().pushes(state, true, &mut found);
            if !level.board().prune_to_pi_corral(state, &mut found) {
                continue;
            }
            pruned_states += 1;
            let best = found
                .iter()
                .filter_map(|f| graph.to_goal(graph.node_of(&f.next)?))
                .min();
            assert_eq!(
                best,
                Some(d - 1),
                "level {number}: {state:?} pruned to {found:?}"
            );
        }
    }
    assert!(pruned_states > 0, "the pruning was put to the test");
}

#[test]
fn dijkstra_and_astar_agree_on_the_moves_of_small_levels() {
    for (text, number) in [(MICROBAN, 1), (MICROBAN, 2), (MICROBAN, 4), (SHIPPED, 3)] {
        let level = at_level(text, number, Metric::Moves);
        let rows = level.level().rows.clone();
        let dijkstra = solve(&level, Algorithm::Dijkstra);
        let astar = solve(&level, Algorithm::AStar);
        assert!(dijkstra.optimal && astar.optimal);
        assert_eq!(dijkstra.cost, astar.cost, "level {number}");
        let (solved, moves, _) = check_lurd(&rows, &lurd_of(&astar));
        assert!(solved);
        assert_eq!(moves as f64, astar.cost, "level {number}");
        // The moves metric's optimum is no fewer moves than the pushes metric's answer walks.
        let pushes = solve(&at_level(text, number, Metric::Pushes), Algorithm::AStar);
        let (_, moves_of_pushes, _) = check_lurd(&rows, &lurd_of(&pushes));
        assert!(moves as f64 <= moves_of_pushes as f64);
    }
}

#[test]
fn every_shipped_level_is_solved_by_every_algorithm_that_applies() {
    let mut level = Sokoban::from_text(SHIPPED).unwrap();
    for number in 1..=5 {
        level.set_level(number).unwrap();
        let rows = level.level().rows.clone();
        let optimum = solve(&level, Algorithm::AStar).cost;
        for algorithm in level.algorithms() {
            let report = solve(&level, algorithm);
            assert!(report.solved, "level {number}, {algorithm}");
            let (solved, _, pushes) = check_lurd(&rows, &lurd_of(&report));
            assert!(solved, "level {number}, {algorithm}");
            assert_eq!(pushes, report.moves.len());
            if report.optimal {
                assert_eq!(report.cost, optimum, "level {number}, {algorithm}");
            }
        }
    }
}

#[test]
fn a_box_on_a_dead_square_is_unsolvable_without_a_search() {
    let level = Sokoban::from_text("#####\n#$  #\n#@ .#\n#####\n").unwrap();
    let why = level.unsolvable().unwrap();
    assert!(why.contains("dead square"), "{why}");
    match level.solve(Algorithm::AStar, &mut NoWatcher, &CancelToken::new()) {
        Err(SearchError::Unsolvable(_)) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn solve_takes_the_level_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("microban.xsb");
    std::fs::write(&path, MICROBAN).unwrap();
    let file = path.to_str().unwrap();
    let (code, out, err) = puzzlelab(&["solve", file, "--set", "level=3", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["type"], "sokoban");
    assert_eq!(v["optimal"], true);
    let notes = v["notes"].as_array().unwrap();
    let lurd = notes
        .iter()
        .find_map(|n| n.as_str()?.strip_prefix("lurd: "))
        .unwrap();
    assert_eq!(v["lurd"], lurd, "the JSON's lurd beside its moves");
    let level = at_level(MICROBAN, 3, Metric::Pushes);
    let (solved, _, pushes) = check_lurd(&level.level().rows, lurd);
    assert!(solved);
    assert_eq!(pushes as f64, v["cost"].as_f64().unwrap());
    assert_eq!(pushes, v["moves"].as_array().unwrap().len());
    let (code, _, err) = puzzlelab(&["solve", file, "--set", "level=11"]);
    assert_eq!(code, 2);
    assert!(err.contains("no level 11"), "{err}");
}

/// `bench sokoban --json` on the fixture: one row a level, each answer replayed to solved by
/// the test's own checker with the pushes and moves the row gives; the totals count them.
#[test]
fn bench_sokoban_solves_microban_1_to_10_and_its_answers_replay() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("microban.xsb");
    std::fs::write(&path, MICROBAN).unwrap();
    let file = path.to_str().unwrap();
    let args = ["bench", "sokoban", file, "--time-limit", "30", "--json"];
    let (code, out, err) = puzzlelab(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["levels"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    let collection = Sokoban::from_text(MICROBAN).unwrap();
    for (i, row) in rows.iter().enumerate() {
        let number = i + 1;
        assert_eq!(row["level"], number);
        assert_eq!(row["solved"], true, "level {number}: {row}");
        assert_eq!(
            row["optimal"], true,
            "level {number}: A* with the matching bound"
        );
        assert_eq!(
            row["solved_by"], "astar",
            "level {number}: before the fallback"
        );
        let mut level = collection.clone();
        level.set_level(number).unwrap();
        assert_eq!(row["boxes"], level.board().start.boxes.len());
        let (solved, moves, pushes) =
            check_lurd(&level.level().rows, row["lurd"].as_str().unwrap());
        assert!(solved, "level {number}");
        assert_eq!(
            (row["moves"].as_u64(), row["pushes"].as_u64()),
            (Some(moves as u64), Some(pushes as u64))
        );
        assert!(row["expanded"].as_u64().unwrap() > 0);
    }
    assert_eq!(v["totals"]["solved"], 10);
    assert_eq!(v["totals"]["levels"], 10);
    // Two shards of levels 3-6 merged give the unsharded run's rows.
    let mut parts = Vec::new();
    for k in ["1/2", "2/2"] {
        let (code, out, err) = puzzlelab(&[
            "bench", "sokoban", file, "--levels", "3-6", "--shard", k, "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let part = dir.path().join(format!("part{}.json", parts.len()));
        std::fs::write(&part, out).unwrap();
        parts.push(part.to_str().unwrap().to_owned());
    }
    let (code, out, err) = puzzlelab(&["merge", &parts[1], &parts[0]]);
    assert_eq!(code, 0, "{err}");
    let merged: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(merged.get("shard").is_none());
    let levels: Vec<&serde_json::Value> = merged["levels"].as_array().unwrap().iter().collect();
    assert_eq!(levels.len(), 4);
    for (row, whole) in levels.iter().zip(&rows[2..6]) {
        for key in ["level", "pushes", "moves", "lurd", "solved"] {
            assert_eq!(row[key], whole[key], "{key}");
        }
    }
    assert_eq!(merged["totals"]["solved"], 4);
    // One shard twice is refused, naming the repeat.
    let (code, _, err) = puzzlelab(&["merge", &parts[0], &parts[0]]);
    assert_eq!(code, 2);
    assert!(err.contains("repeats shard 1/2"), "{err}");
}

/// One action of random play: a step, a walk to a square, or an undo.
#[derive(Clone, Debug)]
enum Action {
    Step(Dir),
    WalkTo(usize, usize),
    Undo,
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        6 => prop_oneof![
            Just(Dir::Up),
            Just(Dir::Down),
            Just(Dir::Left),
            Just(Dir::Right)
        ]
        .prop_map(Action::Step),
        1 => (0usize..12, 0usize..12).prop_map(|(r, c)| Action::WalkTo(r, c)),
        1 => Just(Action::Undo),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every step the model allows is legal for the simulator (and every step it refuses
    /// is not), the positions agree after each, an undo (the app keeps the puzzle as it was)
    /// gives back the earlier position exactly, and the LURD played replays to the same
    /// position.
    #[test]
    fn random_play_agrees_with_an_independent_simulator(
        number in 1usize..=10,
        actions in proptest::collection::vec(action(), 1..60),
    ) {
        let mut level = at_level(MICROBAN, number, Metric::Pushes);
        let start = level.level().rows.clone();
        let mut sim = Sim::new(&start);
        let mut history: Vec<(Sokoban, Sim)> = Vec::new();
        for a in actions {
            match a {
                Action::Step(dir) => {
                    let before = (level.clone(), sim.clone());
                    let allowed = level.step(dir);
                    let legal = sim.play(dir_letter(dir, &sim));
                    prop_assert_eq!(allowed.is_some(), legal.is_ok());
                    if let (Some(pushed), Ok(sim_pushed)) = (allowed, legal) {
                        prop_assert_eq!(pushed, sim_pushed);
                        history.push(before);
                    }
                }
                Action::WalkTo(r, c) => {
                    let before = (level.clone(), sim.clone());
                    let played = level.lurd_by_hand().len();
                    if level.walk_to(puzzlelab::puzzles::Cell::new(r, c)) {
                        for ch in level.lurd_by_hand()[played..].chars() {
                            prop_assert!(ch.is_ascii_lowercase(), "a walk never pushes");
                            prop_assert!(sim.play(ch).is_ok());
                        }
                        prop_assert_eq!(sim.player, (r as i32, c as i32));
                        history.push(before);
                    }
                }
                Action::Undo => {
                    if let Some((l, s)) = history.pop() {
                        level = l;
                        sim = s;
                    }
                }
            }
            prop_assert_eq!(&sim_of(&level), &sim);
        }
        let mut replayed = Sim::new(&start);
        for ch in level.lurd_by_hand().chars() {
            prop_assert!(replayed.play(ch).is_ok());
        }
        prop_assert_eq!(&replayed, &sim);
        prop_assert_eq!(
            level.moves_by_hand() as usize,
            level.lurd_by_hand().chars().count()
        );
    }
}

/// The LURD letter of a step `dir` on the simulator's position: uppercase when a box is
/// in the way.
fn dir_letter(dir: Dir, sim: &Sim) -> char {
    let (dy, dx) = dir.delta();
    let next = (sim.player.0 + dy, sim.player.1 + dx);
    dir.letter(sim.boxes.contains(&next))
}

/// The level on screen in the window.
fn on_screen(h: &egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp>) -> Sokoban {
    h.state()
        .puzzle()
        .model::<Sokoban>()
        .expect("a Sokoban level is on screen")
        .clone()
}

#[test]
fn the_view_picks_a_level_pushes_by_key_undoes_walks_by_click_and_solves() {
    use crate::common::gui::{click_cell, harness_sized, run_until};
    use eframe::egui;
    use egui_kittest::kittest::Queryable as _;
    use puzzlelab::app::Settings;
    use puzzlelab::puzzles::Cell;

    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        1100.0,
    );
    h.get_by_label("Sokoban").click();
    h.run();
    assert_eq!(on_screen(&h).level_number(), 1);
    // Level 2 ("Side by side"): the player above two boxes; Down pushes the right one onto
    // its goal, counted.
    h.get_by_label("Next level").click();
    h.run();
    assert_eq!(on_screen(&h).level_number(), 2);
    h.key_press(egui::Key::ArrowDown);
    h.run();
    let s = on_screen(&h);
    assert_eq!((s.moves_by_hand(), s.pushes_by_hand()), (1, 1));
    assert_eq!(s.lurd_by_hand(), "D");
    assert!(s.board().is_goal(4 * s.board().cols + 3));
    assert!(s.position().boxes.contains(&(4 * 6 + 3)));
    // Undo gives back the start; a click walks to a square by a shortest walk (no push).
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(on_screen(&h).position(), &on_screen(&h).board().start);
    click_cell(&mut h, Cell::new(1, 1));
    let s = on_screen(&h);
    assert_eq!(s.position().player, 6 + 1);
    assert_eq!((s.lurd_by_hand(), s.pushes_by_hand()), ("ull", 0));
    // Start solves it from there (A*, optimal in pushes), the LURD in the notes.
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let report = h.state().result().unwrap().clone();
    assert!(report.solved && report.optimal, "{report:?}");
    assert_eq!(report.cost, 4.0);
    let lurd = lurd_of(&report);
    let (solved, _, pushes) = check_lurd(&on_screen(&h).to_text_of_level(), &lurd);
    assert!(solved && pushes == 4, "{lurd}");
}
