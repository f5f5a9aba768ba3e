//! The optimal-move oracle and the state space (issue "Puzzles as a player sees them"):
//! distances equal breadth-first search on every state of the classic Klotski space and of
//! the 8-puzzle, a hint's move always brings the goal one move closer, the 8-puzzle's
//! farthest state is 31 moves from the goal, generated Klondike boards are what they claim,
//! and the exported state graph parses with the reported numbers of nodes and edges.

use crate::common::puzzlelab;

use puzzlelab::puzzles::car_maze::CarMaze;
use puzzlelab::puzzles::klondike::Klondike;
use puzzlelab::puzzles::klondike::generate::{Request, generate};
use puzzlelab::puzzles::klotski::Klotski;
use puzzlelab::puzzles::oracle::{Distance, Explorable, Oracle, Rating, Space};
use puzzlelab::puzzles::rush_hour::RushHour;
use puzzlelab::puzzles::sliding::Sliding;
use puzzlelab::puzzles::{HandPlay as _, NoWatcher, Puzzle};
use puzzlelab::search::{Algorithm, CancelToken};

fn oracle_of(puzzle: &dyn Puzzle) -> Box<dyn Oracle> {
    puzzle
        .oracle(&CancelToken::new(), &mut |_| {})
        .expect("the space explores")
}

/// Every node's distance to the goal satisfies breadth-first search's recurrence: 0 at a
/// goal, else one more than its nearest successor's (and dead ends lead only to dead ends).
fn assert_distances_are_breadth_first(space: &dyn Space) {
    for node in 0..space.len() as u32 {
        let best = space
            .successors(node)
            .iter()
            .filter_map(|&s| space.to_goal(s))
            .min();
        let expected = if space.is_goal(node) {
            Some(0)
        } else {
            best.map(|d| d + 1)
        };
        assert_eq!(space.to_goal(node), expected, "node {node}");
    }
}

/// For every `every`-th node: a fresh search from that position finds the same distance,
/// the oracle's assessment says it, and its hint leads to a position one move closer.
fn assert_samples_match_search(oracle: &dyn Oracle, every: usize, algorithm: Algorithm) {
    let space = oracle.space().unwrap();
    for node in (0..space.len() as u32).step_by(every) {
        let puzzle = space.puzzle_at(node).unwrap();
        let report = puzzle
            .solve(algorithm, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        let searched = report.solved.then_some(report.cost as u32);
        assert_eq!(space.to_goal(node), searched, "node {node}");
        let assessment = oracle.assess(puzzle.as_ref(), &CancelToken::new()).unwrap();
        match searched {
            Some(d) => assert_eq!(assessment.distance, Distance::Exact(d)),
            None => assert_eq!(assessment.distance, Distance::DeadEnd),
        }
        if let Some(d) = searched.filter(|&d| d > 0) {
            let hint = assessment.hint().expect("a solvable position has a hint");
            assert_eq!(hint.after, Distance::Exact(d - 1));
            assert_eq!(report.moves.len() as u32, d);
        }
    }
}

/// Every state's distance to the goal by a breadth-first search written here, apart from
/// the engine's graph: the moves of these puzzles are reversible, so the distance to the
/// nearest goal is the distance from the set of goals, searched forward from all of them.
/// Compares it with the space's on every state.
fn assert_equals_independent_bfs<P>(space: &dyn Space)
where
    P: Explorable + Puzzle,
    P::State: Send + Sync,
{
    use std::collections::{HashMap, VecDeque};
    let state_of = |node: u32| {
        let puzzle = space.puzzle_at(node).unwrap();
        let p = puzzle.as_any().downcast_ref::<P>().unwrap().clone();
        let s = p.start_states().remove(0);
        (p, s)
    };
    let (problem, _) = state_of(0);
    let mut distance: HashMap<P::State, u32> = HashMap::new();
    let mut queue = VecDeque::new();
    for node in (0..space.len() as u32).filter(|&n| space.is_goal(n)) {
        let (_, s) = state_of(node);
        distance.insert(s.clone(), 0);
        queue.push_back(s);
    }
    let mut successors = Vec::new();
    while let Some(s) = queue.pop_front() {
        let d = distance[&s];
        successors.clear();
        problem.successors(&s, &mut successors).unwrap();
        for next in successors.drain(..) {
            distance.entry(next.state.clone()).or_insert_with(|| {
                queue.push_back(next.state);
                d + 1
            });
        }
    }
    assert_eq!(distance.len(), space.len(), "the goals reach every state");
    for node in 0..space.len() as u32 {
        let (_, s) = state_of(node);
        assert_eq!(
            space.to_goal(node),
            distance.get(&s).copied(),
            "node {node}"
        );
    }
}

#[test]
fn the_oracle_equals_breadth_first_search_on_every_classic_klotski_state() {
    let klotski = Klotski::from_text(include_str!("../../puzzles/klotski-classic.txt")).unwrap();
    let oracle = oracle_of(&klotski);
    let space = oracle.space().unwrap();
    let profile = space.profile();
    assert_eq!(profile.states, 25_955);
    assert_eq!(profile.goals, 964);
    assert_eq!(
        space.to_goal(0),
        Some(116),
        "the classic's published optimum"
    );
    assert_distances_are_breadth_first(space);
    assert_equals_independent_bfs::<Klotski>(space);
    assert_samples_match_search(oracle.as_ref(), 1_297, Algorithm::Bfs);
}

#[test]
fn the_oracle_equals_breadth_first_search_on_every_8_puzzle_state() {
    let solved = Sliding::from_text("1 2 3\n4 5 6\n7 8 0\n").unwrap();
    let oracle = oracle_of(&solved);
    let space = oracle.space().unwrap();
    let profile = space.profile();
    assert_eq!(profile.states, 181_440);
    assert_eq!(profile.dead_ends, 0);
    // The farthest states from the default goal: 31 moves, and there are two.
    assert_eq!(profile.farthest_distance, 31);
    assert_eq!(profile.distance_profile.last(), Some(&2));
    assert_eq!(profile.hardest_distance, 31);
    assert_distances_are_breadth_first(space);
    assert_equals_independent_bfs::<Sliding>(space);
    assert_samples_match_search(oracle.as_ref(), 9_001, Algorithm::AStar);
}

/// Follows the oracle's hints from `puzzle`'s position to the goal, applying each hint's
/// move with `play`: every step brings the goal exactly one move closer.
fn follow_hints<P: Explorable + Puzzle>(mut puzzle: P, play: impl Fn(&mut P, &str) -> bool)
where
    P::State: Send + Sync,
{
    let oracle = oracle_of(&puzzle);
    let cancel = CancelToken::new();
    let mut d = oracle.assess(&puzzle, &cancel).unwrap().distance;
    let start = d.exact().expect("the shipped puzzle is solvable");
    for step in 0..start {
        let assessment = oracle.assess(&puzzle, &cancel).unwrap();
        assert_eq!(assessment.distance, d);
        let hint = assessment.hint().unwrap().clone();
        assert!(
            assessment
                .moves
                .iter()
                .all(|m| (m.rating == Rating::Better) == (m.after.exact() < d.exact())),
            "ratings follow the distances"
        );
        let before = puzzle.picture();
        assert!(
            play(&mut puzzle, &hint.label),
            "step {step}: {}",
            hint.label
        );
        // The hint's move as a value is the move played: the same piece along the same
        // route as comparing the pictures before and after finds (the plain reference), or
        // the marker's step.
        let after = puzzle.picture();
        let motion = hint.motion.expect("the hint's move as a value");
        match before.moved_piece(&after) {
            Some(reference) => assert_eq!(before.piece_move(motion), Some(reference)),
            None => {
                assert_eq!(before.start, Some(motion.from), "step {step}");
                assert_eq!(after.start, motion.to(), "step {step}");
            }
        }
        d = oracle.assess(&puzzle, &cancel).unwrap().distance;
        assert_eq!(d, Distance::Exact(start - step - 1));
    }
    let first = puzzle.start_states()[0].clone();
    assert!(puzzle.is_goal(&first).unwrap());
}

#[test]
fn following_the_hints_solves_klotski_rush_hour_and_the_car_maze_optimally() {
    let klotski = Klotski::from_text(include_str!("../../puzzles/klotski-pennant.txt")).unwrap();
    follow_hints(klotski, |k, label| k.play_moves(&[label.to_owned()]));
    let rush =
        RushHour::from_text(include_str!("../../puzzles/rush-hour-fogleman-49.txt")).unwrap();
    follow_hints(rush, |r, label| {
        let Ok(states) = puzzlelab::puzzles::replay(&*r, &[label.to_owned()]) else {
            return false;
        };
        *r = r.at_state(&states[1]);
        true
    });
    let car = CarMaze::from_text(include_str!("../../puzzles/car-maze.txt")).unwrap();
    follow_hints(car, |c, label| {
        let heading = puzzlelab::puzzles::Side::ALL
            .into_iter()
            .find(|s| label.starts_with(s.word()));
        heading.is_some_and(|h| c.drive_by_hand(h))
    });
}

#[test]
fn the_car_maze_driven_by_hand_undoes_and_resets() {
    let mut car = CarMaze::from_text(include_str!("../../puzzles/car-maze.txt")).unwrap();
    let oracle = oracle_of(&car);
    let cancel = CancelToken::new();
    assert_eq!(
        oracle.assess(&car, &cancel).unwrap().distance,
        Distance::Exact(31)
    );
    let worse = oracle.assess(&car, &cancel).unwrap().moves;
    let start = car.position();
    let heading = puzzlelab::puzzles::Side::ALL
        .into_iter()
        .find(|s| car.drive(start, *s).is_some())
        .unwrap();
    assert!(car.drive_by_hand(heading));
    assert_eq!(car.moves_driven(), 1);
    assert_eq!(car.moves_played(), 1);
    assert!(!worse.is_empty());
    assert!(car.undo_drive());
    assert_eq!(car.position(), start);
    assert!(car.drive_by_hand(heading));
    car.reset_drive();
    assert_eq!((car.position(), car.moves_driven()), (start, 0));
}

#[test]
fn generated_klondike_boards_have_the_length_and_count_they_report() {
    let request = |seed| Request {
        size: 13,
        min_length: 7,
        unique: true,
        seed,
        budget: std::time::Duration::from_secs(300),
    };
    for seed in [1, 2] {
        let found = generate(&request(seed), &CancelToken::new(), &mut |_, _| {});
        assert!(found.meets, "seed {seed}");
        assert!(found.length >= 7);
        assert_eq!(found.solutions, 1);
        // Breadth-first search on the board as written agrees.
        let board = Klondike::from_text(&found.board.to_text()).unwrap();
        assert_eq!(
            board.count_shortest_solutions(),
            Some((found.length, 1)),
            "seed {seed}"
        );
        let report = board
            .solve(Algorithm::Bfs, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert_eq!(report.moves.len(), found.length);
        // The same seed gives the same board.
        let again = generate(&request(seed), &CancelToken::new(), &mut |_, _| {});
        assert_eq!(again.board.to_text(), found.board.to_text());
    }
}

#[test]
fn generate_klondike_prints_a_board_that_solve_confirms() {
    let dir = tempfile::tempdir().unwrap();
    let (code, board, stderr) = puzzlelab(&[
        "generate",
        "klondike",
        "--size",
        "15",
        "--min-length",
        "8",
        "--unique",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("1 of that length"), "{stderr}");
    let path = dir.path().join("board.txt");
    std::fs::write(&path, &board).unwrap();
    let (code, out, _) = puzzlelab(&["solve", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let jumps: usize = stderr
        .split("shortest solution: ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), jumps);
    assert!(jumps >= 8);
}

#[test]
fn states_json_gives_the_profiles_and_the_farthest_state() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solved.txt");
    std::fs::write(&path, "1 2 3\n4 5 6\n7 8 0\n").unwrap();
    let (code, out, err) = puzzlelab(&["states", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["states"], 181_440);
    let profile: Vec<u64> = serde_json::from_value(v["distance_profile"].clone()).unwrap();
    assert_eq!(profile.iter().sum::<u64>(), 181_440);
    assert_eq!(profile.len(), 32);
    assert_eq!(v["dead_ends"], 0);
    assert_eq!(v["farthest"]["distance"], 31);
    // The farthest state, in the type's text format, is 31 moves from the goal.
    let farthest = Sliding::from_text(v["farthest"]["puzzle"].as_str().unwrap()).unwrap();
    let report = farthest
        .solve(Algorithm::AStar, &mut NoWatcher, &CancelToken::new())
        .unwrap();
    assert_eq!(report.cost, 31.0);
    let goal_profile: Vec<u64> =
        serde_json::from_value(v["goal_distance_profile"].clone()).unwrap();
    assert_eq!(goal_profile, profile, "the start is the goal here");
}

#[test]
fn the_exported_state_graph_parses_with_the_reported_nodes_and_edges() {
    let dir = tempfile::tempdir().unwrap();
    let graphml = dir.path().join("classic.graphml");
    let (code, out, err) = puzzlelab(&[
        "states",
        "puzzles/klotski-classic.txt",
        "--json",
        "--graph",
        graphml.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let text = std::fs::read_to_string(&graphml).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let count = |name: &str| doc.descendants().filter(|n| n.has_tag_name(name)).count() as u64;
    assert_eq!(count("node"), 25_955);
    assert_eq!(Some(count("node")), v["states"].as_u64());
    assert_eq!(Some(count("edge")), v["edges"].as_u64());
    // Every edge joins two nodes that exist.
    let ids: std::collections::HashSet<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("node"))
        .filter_map(|n| n.attribute("id"))
        .collect();
    assert!(
        doc.descendants()
            .filter(|n| n.has_tag_name("edge"))
            .all(|e| {
                ids.contains(e.attribute("source").unwrap())
                    && ids.contains(e.attribute("target").unwrap())
            })
    );
    let csv = dir.path().join("classic.csv");
    let (code, _, _) = puzzlelab(&[
        "states",
        "puzzles/klotski-classic.txt",
        "--graph",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let lines = std::fs::read_to_string(&csv).unwrap().lines().count() as u64;
    assert_eq!(Some(lines - 1), v["edges"].as_u64());
}

#[test]
fn the_15_puzzle_has_no_space_but_a_searching_oracle_elsewhere() {
    let fifteen = Sliding::from_text(include_str!("../../puzzles/sliding-24-random.txt")).unwrap();
    let refused = fifteen.oracle(&CancelToken::new(), &mut |_| {});
    assert!(
        refused.is_err(),
        "the 24-puzzle is too large for the oracle"
    );
    let (code, _, err) = puzzlelab(&[
        "states",
        "puzzles/sliding-15-easy.txt",
        "--graph",
        "x.graphml",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn exploring_stops_at_the_memory_limit_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solved.txt");
    std::fs::write(&path, "1 2 3\n4 5 6\n7 8 0\n").unwrap();
    let (code, _, err) = puzzlelab(&["states", path.to_str().unwrap(), "--max-memory", "2M"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("memory limit"), "{err}");
    let solved = Sliding::from_text("1 2 3\n4 5 6\n7 8 0\n").unwrap();
    let cancel = CancelToken::with_limits(puzzlelab::search::Limits {
        max_memory: 2 * puzzlelab::search::limits::MIB,
        ..Default::default()
    });
    match solved.oracle(&cancel, &mut |_| {}) {
        Err(puzzlelab::puzzles::oracle::OracleError::Stopped(e)) => {
            assert_eq!(e.outcome, puzzlelab::search::Outcome::MemoryLimit);
            assert!(e.states > 0 && e.states < 181_440);
        }
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("181,440 states do not fit in 2 MiB"),
    }
}

#[test]
fn random_layouts_give_hardest_positions_that_solve_confirms() {
    for (kind, min) in [("klotski", "80"), ("rush-hour", "10")] {
        let run = || puzzlelab(&["generate", kind, "--min-length", min, "--seed", "1"]);
        let (code, text, err) = run();
        assert_eq!(code, 0, "{kind}: {err}");
        let claimed: u32 = err
            .split("hardest position: ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(claimed >= min.parse().unwrap(), "{kind}: {err}");
        // Breadth-first search from the printed layout takes exactly that many moves.
        let puzzle = puzzlelab::puzzles::parse(&text, Some(kind)).unwrap();
        let report = puzzle
            .solve(Algorithm::Bfs, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert!(report.solved && report.optimal, "{kind}");
        assert_eq!(report.cost as u32, claimed, "{kind}");
        // And it is the hardest of its space.
        let oracle = oracle_of(puzzle.as_ref());
        assert_eq!(oracle.space().unwrap().profile().hardest_distance, claimed);
        assert_eq!(run().1, text, "{kind}: the same seed gives the same layout");
    }
}

#[test]
fn boards_above_3_by_3_get_a_searching_oracle_with_pattern_databases() {
    crate::common::temp_cache();
    // 3 x 4: 239,500,800 states, too many to explore; the oracle searches each position.
    let mut board = Sliding::solved(3, 4).unwrap();
    board.scramble_walk(24, 7);
    let oracle = board
        .oracle(&CancelToken::new(), &mut |_| {})
        .expect("the pattern databases build");
    assert!(!oracle.is_instant());
    assert!(oracle.space().is_none());
    let cancel = CancelToken::new();
    let a = oracle.assess(&board, &cancel).unwrap();
    let d = a.distance.exact().unwrap();
    let report = board
        .solve(Algorithm::IdaStar, &mut NoWatcher, &CancelToken::new())
        .unwrap();
    assert_eq!(report.cost as u32, d, "the oracle's distance is IDA*'s");
    assert_eq!(oracle.distance(&board, &cancel), Some(Distance::Exact(d)));
    assert!(oracle.lower_bound(&board).unwrap() <= d);
    // Each move changes the distance by one (parity): rated closer or farther, never as far.
    for m in &a.moves {
        let after = m.after.exact().unwrap();
        assert!(
            after + 1 == d || after == d + 1,
            "{}: {after} from {d}",
            m.label
        );
        assert_eq!(m.rating == Rating::Better, after + 1 == d);
    }
    assert!(a.hint().is_some());
}

/// Every move the oracle names on the classic Klotski, along a walk played by hand, names
/// the piece by the letter the board shows at its anchor (a state keeps interchangeable
/// pieces sorted, so the state's slot letter was often the other piece of the same shape:
/// "h(3,1) down" where the board shows g).
#[test]
fn klotski_move_names_use_the_letters_on_the_board() {
    let mut board = Klotski::from_text(include_str!("../../puzzles/klotski-classic.txt")).unwrap();
    let oracle = oracle_of(&board);
    let mut checked = 0;
    for k in 0..150 {
        let a = oracle.assess(&board, &CancelToken::new()).unwrap();
        let mut moves = Vec::new();
        for m in &a.moves {
            let letter = m.label.chars().next().unwrap();
            let inside = &m.label[m.label.find('(').unwrap() + 1..m.label.find(')').unwrap()];
            let (r, c) = inside.split_once(',').unwrap();
            let anchor = puzzlelab::puzzles::Cell::new(r.parse().unwrap(), c.parse().unwrap());
            assert_eq!(
                board.piece_at(anchor),
                Some(letter),
                "move {} after {k} moves by hand",
                m.label
            );
            checked += 1;
            let to = match m.label.rsplit(' ').next() {
                Some("down") => (anchor.row + 1, anchor.col),
                Some("up") if anchor.row > 0 => (anchor.row - 1, anchor.col),
                Some("right") => (anchor.row, anchor.col + 1),
                Some("left") if anchor.col > 0 => (anchor.row, anchor.col - 1),
                _ => continue,
            };
            moves.push((anchor, puzzlelab::puzzles::Cell::new(to.0, to.1)));
        }
        // A move by hand: the pieces keep who they are.
        let (from, to) = moves[(k * 7) % moves.len()];
        assert!(board.drag(from, to), "{from:?} -> {to:?}");
    }
    assert!(checked > 300, "{checked} moves named");
}

/// From a dead end no move is "farther": all stay stuck, rated neutral.
#[test]
fn moves_from_a_dead_end_are_not_farther() {
    use puzzlelab::puzzles::oracle::rate;
    assert_eq!(rate(Distance::DeadEnd, Distance::DeadEnd), Rating::Neutral);
    assert_eq!(rate(Distance::Exact(3), Distance::DeadEnd), Rating::Worse);
    assert_eq!(rate(Distance::DeadEnd, Distance::Exact(3)), Rating::Better);
}

/// The origin of the moves played by hand: after a scramble, the scrambled board (not the
/// board first explored); Rush Hour counts its slides by hand in its metric.
#[test]
fn the_origin_is_where_the_moves_played_started() {
    let mut board = Sliding::from_text("1 2 3\n4 5 6\n7 8 0\n").unwrap();
    board.scramble_walk(14, 3);
    let scrambled = board.to_text();
    for side in [puzzlelab::puzzles::Side::Up, puzzlelab::puzzles::Side::Left] {
        let _ = board.slide_toward(side);
    }
    assert_eq!(board.origin().to_text(), scrambled);
    let origin = board.origin();
    let hand = origin.capabilities().hand_play;
    assert_eq!(hand.map(|h| h.moves_played()), Some(0));

    let mut rush = RushHour::from_text(include_str!("../../puzzles/rush-hour-first.txt")).unwrap();
    assert_eq!(rush.moves_played(), 0);
    let before = rush.to_text();
    let slid = (0..rush.vehicles().len())
        .flat_map(|i| [(i, 1), (i, -1), (i, 2), (i, -2)])
        .filter(|&(i, by)| rush.clone().slide(i, by))
        .max_by_key(|&(_, by): &(usize, i8)| by.abs())
        .unwrap();
    assert!(rush.slide(slid.0, slid.1));
    assert_eq!(rush.moves_played(), 1);
    assert_eq!(rush.origin().to_text(), before);
    rush.set_metric(puzzlelab::puzzles::rush_hour::Metric::Steps);
    // A new metric is a new layout: the count starts again, in steps.
    assert_eq!(rush.moves_played(), 0);
    assert!(rush.slide(slid.0, -slid.1));
    assert_eq!(rush.moves_played(), usize::from(slid.1.unsigned_abs()));
    assert_eq!(rush.metric_label(), "steps");
}

#[test]
fn durations_read_as_people_read_them() {
    use puzzlelab::search::format_ms;
    assert_eq!(format_ms(0.04), "40 µs");
    assert_eq!(format_ms(0.0), "under 1 µs");
    assert_eq!(format_ms(12.34), "12.3 ms");
    assert_eq!(format_ms(4210.0), "4.21 s");
    assert_eq!(puzzlelab::app::count_in(93u64, "steps"), "93 steps");
    assert_eq!(puzzlelab::app::count_in(1u64, "cell moves"), "1 cell move");
}
