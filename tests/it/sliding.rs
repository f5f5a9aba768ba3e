//! The sliding tile puzzle (`003_8abc547d8a6c7682.txt`): the 8-puzzle's state space and hardest
//! positions, BFS, A* and IDA* agreeing, admissible heuristics, solvability, formats, and the
//! command line.

use crate::common::puzzlelab;

use std::collections::{HashMap, VecDeque};

use puzzlelab::puzzles::sliding::{Board, Sliding, TileHeuristic};
use puzzlelab::puzzles::{self, Cell, NoWatcher, Puzzle, Side};
use puzzlelab::search::{self, Algorithm, CancelToken, Outcome, Problem, SearchError};

fn board(text: &str) -> Sliding {
    Sliding::from_text(text).unwrap()
}

fn cost(p: &Sliding, algorithm: Algorithm) -> f64 {
    let result = search::solve(p, algorithm).unwrap();
    assert_eq!(result.outcome, Outcome::Found, "{algorithm}");
    result.cost
}

/// Exact distances to the goal of every state of a small board, by breadth-first search from
/// the goal (every slide can be undone, so the graph is undirected).
fn distances_to_goal(rows: usize, cols: usize) -> HashMap<Board, u32> {
    let goal = Sliding::solved(rows, cols).unwrap();
    let start = goal.start_states()[0];
    let mut dist = HashMap::from([(start, 0)]);
    let mut queue = VecDeque::from([start]);
    let mut out = Vec::new();
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        out.clear();
        goal.successors(&s, &mut out).unwrap();
        for succ in out.drain(..) {
            dist.entry(succ.state).or_insert_with(|| {
                queue.push_back(succ.state);
                d + 1
            });
        }
    }
    dist
}

#[test]
fn the_8_puzzle_has_181440_states() {
    let p = Sliding::solved(3, 3).unwrap();
    let count = p.count_states(&CancelToken::new());
    assert_eq!(count.states, 181_440);
    assert_eq!(count.goals, 1);
    // Larger boards are counted by the formula (n!)/2.
    let count = Sliding::solved(4, 4)
        .unwrap()
        .count_states(&CancelToken::new());
    assert_eq!(count.states, 10_461_394_944_000);
}

#[test]
fn the_two_hardest_8_puzzles_take_31_moves() {
    for file in ["sliding-8-hardest-a.txt", "sliding-8-hardest-b.txt"] {
        let (_, shipped) = puzzles::shipped().find(|(_, s)| s.file == file).unwrap();
        let p = board(shipped.text);
        for algorithm in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
            assert_eq!(cost(&p, algorithm), 31.0, "{file} {algorithm}");
        }
    }
}

#[test]
fn every_heuristic_is_admissible_on_the_8_puzzle() {
    let dist = distances_to_goal(3, 3);
    assert_eq!(dist.len(), 181_440);
    assert_eq!(dist.values().max(), Some(&31));
    let mut p = Sliding::solved(3, 3).unwrap();
    for h in TileHeuristic::ALL {
        p.set_heuristic(h);
        // Every 5th state keeps the test quick in debug builds.
        for (state, &d) in dist.iter().step_by(5) {
            assert!(
                p.heuristic(state).unwrap() <= f64::from(d),
                "{h:?} overestimates"
            );
        }
    }
    // Linear conflicts make Manhattan distance stronger, never weaker.
    let hardest = board("8 6 7\n2 5 4\n3 0 1\n");
    let s = hardest.start_states()[0];
    let mut p = hardest.clone();
    p.set_heuristic(TileHeuristic::Manhattan);
    let manhattan = p.heuristic(&s).unwrap();
    p.set_heuristic(TileHeuristic::LinearConflict);
    assert!(p.heuristic(&s).unwrap() >= manhattan);
}

#[test]
fn bfs_astar_and_idastar_agree_on_random_8_puzzles() {
    let mut p = Sliding::solved(3, 3).unwrap();
    for seed in 0..8 {
        p.scramble_uniform(seed);
        assert!(p.check_solvable().is_ok());
        let bfs = cost(&p, Algorithm::Bfs);
        for h in TileHeuristic::ALL {
            p.set_heuristic(h);
            assert_eq!(cost(&p, Algorithm::AStar), bfs, "seed {seed} {h:?}");
            assert_eq!(cost(&p, Algorithm::IdaStar), bfs, "seed {seed} {h:?}");
        }
    }
}

#[test]
fn a_solution_replays_to_the_goal_with_legal_moves() {
    let p = board("8 6 7\n2 5 4\n3 0 1\n");
    let report = p
        .solve(Algorithm::IdaStar, &mut NoWatcher, &CancelToken::new())
        .unwrap();
    assert!(report.optimal);
    let states = puzzles::replay(&p, &report.moves).expect("every move is legal");
    assert!(p.is_goal(states.last().unwrap()).unwrap());
    assert_eq!(report.boards.len(), report.moves.len() + 1);
    // Moves name the tile and where it goes: the blank is at (2, 1), between 3 and 1 below 5.
    assert!(
        ["5 down", "3 right", "1 left"].contains(&report.moves[0].as_str()),
        "{}",
        report.moves[0]
    );
    // Each step slides one tile into the blank.
    for pair in report.boards.windows(2) {
        let m = pair[0].moved_piece(&pair[1]).expect("one tile moves");
        assert_eq!(m.route.len(), 2);
    }
}

#[test]
fn fifteen_puzzles_solve_optimally_with_idastar() {
    let mut p = Sliding::solved(4, 4).unwrap();
    for seed in 0..3 {
        p.scramble_walk(40, seed);
        let idastar = cost(&p, Algorithm::IdaStar);
        assert_eq!(cost(&p, Algorithm::AStar), idastar, "seed {seed}");
        assert!(idastar <= 40.0);
    }
    // BFS keeps every state, so large boards do not offer it.
    assert!(!p.algorithms().contains(&Algorithm::Bfs));
    assert_eq!(p.default_algorithm(), Algorithm::IdaStar);
}

#[test]
fn large_boards_default_to_greedy_which_says_it_is_not_optimal() {
    let (_, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "sliding-24-random.txt")
        .unwrap();
    let p = board(shipped.text);
    assert_eq!(p.default_algorithm(), Algorithm::Greedy);
    let report = p
        .solve(Algorithm::Greedy, &mut NoWatcher, &CancelToken::new())
        .unwrap();
    assert!(report.solved);
    assert!(!report.optimal);
    assert!(puzzles::replay(&p, &report.moves).is_ok());
}

#[test]
fn non_square_boards_and_custom_goals_work() {
    let p = board("4 1 2\n0 5 3\n");
    let bfs = cost(&p, Algorithm::Bfs);
    assert_eq!(cost(&p, Algorithm::IdaStar), bfs);
    // Korf's goal: the blank first.
    let p = board("1 0 2\n3 4 5\n6 7 8\ngoal:\n0 1 2\n3 4 5\n6 7 8\n");
    assert_eq!(cost(&p, Algorithm::AStar), 1.0);
    assert!(p.to_text().contains("goal:\n"));
    let again = Sliding::from_json(p.to_json()).unwrap();
    assert_eq!(again, p);
}

#[test]
fn unsolvable_boards_are_rejected_with_the_reason_before_any_search() {
    let p = board("1 2 3\n4 5 6\n8 7 0\n");
    let reason = p.check_solvable().unwrap_err().to_string();
    assert!(reason.contains("odd permutation"), "{reason}");
    assert!(reason.contains("even number of moves"), "{reason}");
    match p.solve(Algorithm::Bfs, &mut NoWatcher, &CancelToken::new()) {
        Err(SearchError::Unsolvable(text)) => assert_eq!(text, reason),
        other => panic!("expected unsolvable, got {other:?}"),
    }
    // Even width: the blank's row matters.
    assert!(board("1 2\n0 3\n").check_solvable().is_ok());
    assert!(board("2 1\n3 0\n").check_solvable().is_err());
    assert!(
        board("1 2 3 4\n5 6 7 8\n9 10 11 12\n13 15 14 0\n")
            .check_solvable()
            .is_err()
    );
}

#[test]
fn bad_boards_are_rejected_with_reasons() {
    let error = |text: &str| Sliding::from_text(text).unwrap_err().to_string();
    let e = error("1 2\n3 3\n");
    assert!(e.contains("tile 3 twice"), "{e}");
    let e = error("1 2\n3 9\n");
    assert!(e.contains("tile 9"), "{e}");
    let e = error("1 2\n3\n");
    assert!(e.contains("ragged"), "{e}");
    let e = error("1 2\n3 x\n");
    assert!(e.starts_with("line 2, column 3"), "{e}");
    let e = error("0\n");
    assert!(e.contains("2 to 8"), "{e}");
    let e = error("1 2\n3 0\ngoal:\n1 2 3\n");
    assert!(e.contains("shape"), "{e}");
    let nine: String = (0..9)
        .map(|r| {
            let row: Vec<String> = (0..9).map(|c| (r * 9 + c).to_string()).collect();
            row.join(" ") + "\n"
        })
        .collect();
    let e = error(&nine);
    assert!(e.contains("2 to 8"), "{e}");
}

#[test]
fn playing_by_hand_slides_tiles_next_to_the_blank() {
    let mut p = board("1 2 3\n4 5 6\n7 8 0\n");
    assert!(p.is_solved());
    assert!(!p.slide(Cell::new(0, 0)), "not next to the blank");
    assert!(p.slide(Cell::new(2, 1)));
    assert_eq!(p.tile_at(Cell::new(2, 2)), Some(8));
    assert_eq!(p.moves_played(), 1);
    // The arrow key "left" slides the tile right of the blank to the left.
    assert!(p.slide_toward(Side::Left));
    assert!(p.is_solved());
    assert!(!p.slide_toward(Side::Left), "nothing right of the blank");
    assert!(p.undo());
    assert!(p.undo());
    assert!(!p.undo());
    assert!(p.is_solved());
}

#[test]
fn a_random_walk_scramble_is_seeded_and_undone_backwards() {
    let mut a = Sliding::solved(4, 4).unwrap();
    let mut b = Sliding::solved(4, 4).unwrap();
    let walk = a.scramble_walk(25, 7);
    b.scramble_walk(25, 7);
    assert_eq!(a, b);
    assert_eq!(walk.len(), 25);
    assert!(!a.is_solved());
    for m in walk.iter().rev() {
        assert!(a.slide_toward(m.to.opposite()));
    }
    assert!(a.is_solved());
}

#[test]
fn cli_detects_a_file_of_numbers_and_solves_it() {
    let (code, stdout, _) = puzzlelab(&["solve", "puzzles/sliding-8-hardest-b.txt", "--json"]);
    assert_eq!(code, 0, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["type"], "sliding");
    assert_eq!(v["cost"], 31.0);
    assert_eq!(v["optimal"], true);
    let (code, stdout, _) = puzzlelab(&[
        "solve",
        "puzzles/sliding-8-hardest-b.txt",
        "-a",
        "idastar",
        "--heuristic",
        "manhattan",
        "--json",
    ]);
    assert_eq!(code, 0, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["cost"], 31.0);
    assert!(v["stats"]["iterations"].as_u64().unwrap() > 1);

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd.txt");
    std::fs::write(&path, "1 2 3\n4 5 6\n8 7 0\n").unwrap();
    let (code, stdout, _) = puzzlelab(&["solve", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["outcome"], "unsolvable");
    assert!(v["reason"].as_str().unwrap().contains("parities"));
}

mod pattern_databases {
    use super::*;
    use puzzlelab::puzzles::sliding::pattern_db::{PatternDb, partition};
    use std::sync::Arc;

    fn goal_3x3() -> Vec<u8> {
        vec![1, 2, 3, 4, 5, 6, 7, 8, 0]
    }

    fn build_3x3() -> PatternDb {
        PatternDb::build(3, 3, &goal_3x3(), &CancelToken::new(), &mut |_| {}).unwrap()
    }

    #[test]
    fn groups_are_disjoint_and_cover_every_tile() {
        for (rows, cols) in [(3, 3), (4, 4), (2, 4)] {
            let goal = Sliding::solved(rows, cols).unwrap().goal().to_vec();
            let mut tiles: Vec<u8> = partition(rows, cols, &goal).concat();
            tiles.sort();
            let expected: Vec<u8> = (1..(rows * cols) as u8).collect();
            assert_eq!(tiles, expected);
        }
        // The 15-puzzle with Korf's goal (blank top-left) gets Korf and Felner's 6-6-3 sizes.
        let korf: Vec<u8> = (0..16).collect();
        let sizes: Vec<usize> = partition(4, 4, &korf).iter().map(Vec::len).collect();
        assert_eq!(sizes, [6, 6, 3]);
    }

    #[test]
    fn the_8_puzzle_database_is_admissible_and_dominates_manhattan() {
        let db = Arc::new(build_3x3());
        let dist = distances_to_goal(3, 3);
        let mut p = Sliding::solved(3, 3).unwrap();
        assert!(p.attach_pattern_db(db));
        p.set_heuristic(TileHeuristic::PatternDb);
        let mut m = p.clone();
        m.set_heuristic(TileHeuristic::Manhattan);
        let mut stronger = 0;
        for (state, &d) in dist.iter().step_by(3) {
            let (h, manhattan) = (p.heuristic(state).unwrap(), m.heuristic(state).unwrap());
            assert!(h <= f64::from(d), "overestimates");
            assert!(h >= manhattan, "weaker than Manhattan distance");
            stronger += usize::from(h > manhattan);
        }
        assert!(stronger > 0);
    }

    #[test]
    fn the_fast_cores_moves_as_values_match_the_pictures() {
        let db = Arc::new(build_3x3());
        let mut p = Sliding::solved(3, 3).unwrap();
        p.attach_pattern_db(db);
        p.set_heuristic(TileHeuristic::PatternDb);
        for seed in 30..34 {
            p.scramble_uniform(seed);
            // Unwatched IDA* with the database runs on the fast core.
            let report = p
                .solve(Algorithm::IdaStar, &mut NoWatcher, &CancelToken::new())
                .unwrap();
            assert!(report.notes.iter().any(|n| n.contains("fast IDA* core")));
            crate::differential::assert_motions_match_the_pictures(&report);
        }
    }

    #[test]
    fn idastar_with_the_database_stays_optimal() {
        let db = Arc::new(build_3x3());
        let mut p = Sliding::solved(3, 3).unwrap();
        p.attach_pattern_db(db);
        p.set_heuristic(TileHeuristic::PatternDb);
        for seed in 20..26 {
            p.scramble_uniform(seed);
            let bfs = cost(&p, Algorithm::Bfs);
            assert_eq!(cost(&p, Algorithm::IdaStar), bfs, "seed {seed}");
        }
        let report = p
            .solve(Algorithm::IdaStar, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert!(
            report
                .notes
                .iter()
                .any(|n| n.contains("pattern databases 5-3"))
        );
        // A database for another goal is refused.
        let other = PatternDb::build(
            3,
            3,
            &[0, 1, 2, 3, 4, 5, 6, 7, 8],
            &CancelToken::new(),
            &mut |_| {},
        )
        .unwrap();
        assert!(!p.attach_pattern_db(Arc::new(other)));
    }

    #[test]
    fn the_cache_round_trips_and_damaged_files_are_not_trusted() {
        let db = build_3x3();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pdb.bin");
        db.write(&path).unwrap();
        assert_eq!(PatternDb::read(&path, 3, 3, &goal_3x3()), Some(db.clone()));
        // Another board or goal: not this database.
        assert_eq!(
            PatternDb::read(&path, 3, 3, &[0, 1, 2, 3, 4, 5, 6, 7, 8]),
            None
        );
        // One flipped byte, a truncated file, a missing file.
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(PatternDb::read(&path, 3, 3, &goal_3x3()), None);
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        assert_eq!(PatternDb::read(&path, 3, 3, &goal_3x3()), None);
        assert_eq!(
            PatternDb::read(&dir.path().join("none"), 3, 3, &goal_3x3()),
            None
        );
    }

    /// Every arrangement of the 8-puzzle (blank last) with its distance to the goal, as tile
    /// arrays, by breadth-first search.
    fn eight_puzzle_distances() -> HashMap<Vec<u8>, u32> {
        crate::common::tile_distances(3, 3)
    }

    #[test]
    fn the_layered_build_agrees_with_the_plain_0_1_search() {
        use puzzlelab::puzzles::sliding::pattern_db::{group_distances, reference_distances};
        let blank_last: Vec<u8> = (1..16).chain([0]).collect();
        let korf: Vec<u8> = (0..16).collect();
        let cases: Vec<(usize, usize, Vec<u8>, Vec<u8>)> = vec![
            (3, 3, goal_3x3(), vec![1, 2, 3, 4, 5]),
            (3, 3, goal_3x3(), vec![6, 7, 8]),
            (2, 4, vec![1, 2, 3, 4, 5, 6, 7, 0], vec![1, 2, 5, 6]),
            (3, 4, (1..12).chain([0]).collect(), vec![1, 5, 9, 10]),
            (4, 4, blank_last, vec![1, 2, 3, 4]),
            (4, 4, korf, vec![5, 6, 9, 12]),
        ];
        for (rows, cols, goal, tiles) in cases {
            // The goal with the blank on its goal square, and on any square.
            for any_blank in [false, true] {
                let fast = group_distances(rows, cols, &goal, &tiles, any_blank);
                let slow = reference_distances(rows, cols, &goal, &tiles, any_blank);
                assert_eq!(fast.len(), slow.len());
                assert!(
                    slow.iter().all(|&d| d < u8::MAX),
                    "every placement is reachable"
                );
                assert!(fast == slow, "{rows}x{cols} {tiles:?}: the tables differ");
            }
        }
    }

    #[test]
    fn every_heuristic_is_admissible_on_every_8_puzzle_state() {
        let dist = distances_to_goal(3, 3);
        assert_eq!(dist.len(), 181_440);
        let db = Arc::new(build_3x3());
        for h in TileHeuristic::ALL {
            let mut p = Sliding::solved(3, 3).unwrap();
            p.set_heuristic(h);
            p.attach_pattern_db(db.clone());
            for (state, &d) in &dist {
                assert!(
                    p.heuristic(state).unwrap() <= f64::from(d),
                    "{h:?} overestimates"
                );
            }
        }
    }

    #[test]
    fn the_reflected_lookup_is_admissible_and_sometimes_stronger() {
        let db = build_3x3();
        assert!(
            db.reflection().is_some(),
            "the blank's goal is on the diagonal"
        );
        let mut stronger = 0;
        for (tiles, d) in eight_puzzle_distances() {
            let (plain, best) = (db.estimate_plain(&tiles), db.estimate(&tiles));
            assert!(best >= plain && best <= d, "{tiles:?}: {plain} {best} {d}");
            // The board and its mirror image are equally far from the goal.
            let mirror = db.reflection().unwrap().apply(&tiles);
            assert_eq!(db.estimate(&mirror[..9]), best);
            stronger += usize::from(best > plain);
        }
        assert!(stronger > 1000, "{stronger}");
        // No reflection where the blank's goal is off the diagonal.
        let other = PatternDb::build(
            3,
            3,
            &[1, 2, 0, 3, 4, 5, 6, 7, 8],
            &CancelToken::new(),
            &mut |_| {},
        )
        .unwrap();
        assert!(other.reflection().is_none());
    }

    /// A watcher that is not silent, so that the generic IDA* runs instead of the fast core.
    struct Listening;
    impl puzzles::Watcher for Listening {}

    #[test]
    fn the_fast_core_finds_the_generic_searchs_optimal_lengths() {
        let db = Arc::new(build_3x3());
        let mut p = Sliding::solved(3, 3).unwrap();
        p.set_heuristic(TileHeuristic::PatternDb);
        p.attach_pattern_db(db);
        let dist = eight_puzzle_distances();
        for seed in 0..30 {
            p.scramble_uniform(seed);
            let fast = p
                .solve(Algorithm::IdaStar, &mut NoWatcher, &CancelToken::new())
                .unwrap();
            assert!(fast.notes.iter().any(|n| n.starts_with("fast IDA* core")));
            assert!(fast.optimal && fast.solved);
            let generic = p
                .solve(Algorithm::IdaStar, &mut Listening, &CancelToken::new())
                .unwrap();
            assert!(
                !generic
                    .notes
                    .iter()
                    .any(|n| n.starts_with("fast IDA* core"))
            );
            assert_eq!(fast.cost, generic.cost, "seed {seed}");
            let tiles: Vec<u8> = (0..9)
                .map(|i| p.tile_at(Cell::new(i / 3, i % 3)).unwrap())
                .collect();
            assert_eq!(fast.cost, f64::from(dist[&tiles]), "seed {seed}");
            // The moves replay to the goal, and there is one board a move plus the start.
            assert!(puzzles::replay(&p, &fast.moves).is_ok());
            assert_eq!(fast.boards.len(), fast.moves.len() + 1);
        }
        // The goal itself: no move.
        let solved = {
            let mut s = Sliding::solved(3, 3).unwrap();
            s.set_heuristic(TileHeuristic::PatternDb);
            s.attach_pattern_db(Arc::new(build_3x3()));
            s
        };
        let r = solved
            .solve(Algorithm::IdaStar, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert!(r.solved && r.moves.is_empty());
    }

    #[test]
    fn the_databases_never_overestimate_optimal_lengths_of_random_boards() {
        // Optimal lengths by IDA* with linear conflict (the weaker heuristic, admissible by
        // the 8-puzzle test above); the databases' estimate never exceeds them, and the fast
        // core with the databases finds the same lengths.
        for (rows, cols, walk) in [(3, 4, 200), (4, 4, 36)] {
            let goal = Sliding::solved(rows, cols).unwrap().goal().to_vec();
            let db = Arc::new(
                PatternDb::build(rows, cols, &goal, &CancelToken::new(), &mut |_| {}).unwrap(),
            );
            for seed in 0..12 {
                let mut weak = Sliding::solved(rows, cols).unwrap();
                weak.scramble_walk(walk, seed);
                weak.set_heuristic(TileHeuristic::LinearConflict);
                let optimal = cost(&weak, Algorithm::IdaStar);
                let tiles: Vec<u8> = (0..rows * cols)
                    .map(|i| weak.tile_at(Cell::new(i / cols, i % cols)).unwrap())
                    .collect();
                assert!(
                    f64::from(db.estimate(&tiles)) <= optimal,
                    "{rows}x{cols} seed {seed}"
                );
                let mut strong = weak.clone();
                strong.set_heuristic(TileHeuristic::PatternDb);
                strong.attach_pattern_db(db.clone());
                assert_eq!(
                    cost(&strong, Algorithm::IdaStar),
                    optimal,
                    "{rows}x{cols} seed {seed}"
                );
            }
        }
    }

    #[test]
    fn boards_above_16_squares_are_refused() {
        let goal: Vec<u8> = (1..25).chain([0]).collect();
        let e = PatternDb::build(5, 5, &goal, &CancelToken::new(), &mut |_| {}).unwrap_err();
        assert!(e.to_string().contains("at most 16 squares"), "{e}");
    }
}

#[test]
fn weighted_astar_trades_length_for_speed_on_the_15_puzzle() {
    let (_, shipped) = puzzles::shipped()
        .find(|(_, s)| s.file == "sliding-15-easy.txt")
        .unwrap();
    let p = board(shipped.text);
    let optimal = cost(&p, Algorithm::IdaStar);
    assert_eq!(optimal, 38.0);
    let weight = search::Weight::new(2.0).unwrap();
    let report = p
        .solve(
            Algorithm::WeightedAStar(weight),
            &mut NoWatcher,
            &CancelToken::new(),
        )
        .unwrap();
    assert!(report.solved && !report.optimal);
    assert!(report.cost >= optimal && report.cost <= 2.0 * optimal);
    assert!(report.notes.iter().any(|n| n.starts_with("weight 2")));
    assert!(puzzles::replay(&p, &report.moves).is_ok());

    let (code, _, _) = puzzlelab(&[
        "solve",
        "puzzles/sliding-15-easy.txt",
        "-a",
        "wastar",
        "--weight",
        "0.5",
    ]);
    assert_eq!(code, 2);
    let (code, _, _) = puzzlelab(&["solve", "puzzles/sliding-15-easy.txt", "--weight", "2"]);
    assert_eq!(code, 2);
    let (code, stdout, _) = puzzlelab(&[
        "solve",
        "puzzles/sliding-8-hardest-a.txt",
        "-a",
        "wastar",
        "--weight",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        (
            v["algorithm"].as_str(),
            v["cost"].as_f64(),
            v["optimal"].as_bool()
        ),
        (Some("wastar"), Some(31.0), Some(true))
    );
}

#[test]
fn the_batch_benchmark_gives_the_lengths_solve_gives() {
    let dir = tempfile::tempdir().unwrap();
    let boards = [
        "8 6 7 2 5 4 3 0 1",
        "# a comment, then a blank line",
        "",
        "6 4 7 8 5 0 3 2 1",
        "1 2 3 4 5 6 0 7 8",
    ];
    let file = dir.path().join("boards.txt");
    std::fs::write(&file, boards.join("\n")).unwrap();
    let path = file.to_str().unwrap();
    let (code, stdout, stderr) = puzzlelab(&["bench", "sliding", "--instances", path, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let instances = v["instances"].as_array().unwrap();
    assert_eq!(instances.len(), 3);
    let mut expanded = 0;
    for (row, text) in instances.iter().zip([boards[0], boards[3], boards[4]]) {
        let tiles: Vec<&str> = text.split_whitespace().collect();
        let board = tiles
            .chunks(3)
            .map(|r| r.join(" "))
            .collect::<Vec<_>>()
            .join("\n");
        let single = dir.path().join("one.txt");
        std::fs::write(&single, board).unwrap();
        let (code, out, err) = puzzlelab(&["solve", single.to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "{err}");
        let solved: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(row["length"], solved["cost"], "{text}");
        for key in ["expanded", "generated", "ms"] {
            assert!(row[key].is_number(), "{key}");
        }
        expanded += row["expanded"].as_u64().unwrap();
    }
    // The two hardest 8-puzzle boards take 31 moves.
    assert_eq!(instances[0]["length"], 31.0);
    assert_eq!(v["total"]["expanded"].as_u64(), Some(expanded));
    assert!(v["load_ms"].is_number());

    // Korf's goal (the blank first) is given with --goal; text output has a total line.
    std::fs::write(&file, "1 2 0 3 4 5 6 7 8\n").unwrap();
    let (code, stdout, stderr) = puzzlelab(&[
        "bench",
        "sliding",
        "--instances",
        path,
        "--goal",
        "0 1 2 3 4 5 6 7 8",
        "--heuristic",
        "manhattan",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("length   2"), "{stdout}");
    assert!(stdout.contains("total: 1 instances"), "{stdout}");

    // Bad lines are named.
    for (text, says) in [
        ("1 2 3 4 5 6 7 8\n", "line 1 has 8 numbers"),
        ("1 2 3\n4 5 6 7 8 0 9 9 9\n", "line 1 has 3 numbers"),
        ("2 1 3 4 5 6 7 8 0\n", "line 1: no solution"),
        ("# nothing\n", "no boards"),
    ] {
        std::fs::write(&file, text).unwrap();
        let (code, _, stderr) = puzzlelab(&["bench", "sliding", "--instances", path]);
        assert_eq!(code, 2, "{text}");
        assert!(stderr.contains(says), "{text}: {stderr}");
    }
    // The 7-8 databases are for the 15-puzzle only.
    std::fs::write(&file, boards[0]).unwrap();
    let (code, _, stderr) = puzzlelab(&[
        "bench",
        "sliding",
        "--instances",
        path,
        "--heuristic",
        "pdb78",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("does not apply"), "{stderr}");
}

#[test]
fn solve_with_no_algorithm_tries_optimal_ida_star_first_on_the_24_puzzle() {
    // The 40-move walk: IDA* with linear conflict answers within its budget, optimally.
    let (code, stdout, stderr) = puzzlelab(&["solve", "puzzles/sliding-24-walk-40.txt", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["algorithm"], "idastar");
    assert_eq!(v["cost"], 40.0);
    assert_eq!(v["optimal"], true);
    assert!(
        v["notes"][0]
            .as_str()
            .unwrap()
            .contains("finished within its budget")
    );
    // The random board: IDA* runs out of its budget (half the time limit), weighted A*
    // answers, and the report says so. The limit leaves weighted A* (under a second on its
    // own) room on a loaded machine running a debug build.
    let (code, stdout, stderr) = puzzlelab(&[
        "solve",
        "puzzles/sliding-24-random.txt",
        "--json",
        "--timeout",
        "20",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["algorithm"], "wastar");
    assert_eq!(v["optimal"], false);
    assert!(v["solved"].as_bool().unwrap());
    let note = v["notes"][0].as_str().unwrap();
    assert!(note.contains("did not finish within 5 s"), "{note}");
    assert!(note.contains("weighted A*"), "{note}");
    // A named algorithm is run as named.
    let (code, stdout, _) = puzzlelab(&[
        "solve",
        "puzzles/sliding-24-random.txt",
        "--json",
        "-a",
        "greedy",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["algorithm"], "greedy");
}

#[test]
fn pattern_databases_that_do_not_fit_the_board_are_refused_with_the_reason() {
    let (code, _, stderr) = puzzlelab(&[
        "solve",
        "puzzles/sliding-8-hardest-a.txt",
        "--heuristic",
        "pdb78",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("15-puzzle (4 x 4) only"), "{stderr}");
    // The quick set stops at 16 squares (4 x 5 is 20), the tables at 25 (the 24-puzzle's
    // 6-6-6-6; 6 x 6 is 36).
    let dir = tempfile::tempdir().unwrap();
    for (rows, cols, says) in [(4, 5, "at most 16 squares"), (6, 6, "at most 25 squares")] {
        let path = dir.path().join(format!("{rows}x{cols}.txt"));
        let text: Vec<String> = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| ((r * cols + c + 1) % (rows * cols)).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        std::fs::write(&path, text.join("\n")).unwrap();
        let (code, _, stderr) = puzzlelab(&["solve", path.to_str().unwrap(), "--heuristic", "pdb"]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    }
}

/// The moves of group `tiles` (0-1 costs: moving one of its tiles costs 1, the blank passing
/// any other tile costs 0) from their `squares` of a `side x side` board, the blank on any
/// other square, to their homes in `goal` with the blank at its home: a plain A* with the
/// group's Manhattan distance, independent of the database builder. `None` past `max_states`.
pub(crate) fn reference_entry_on(
    side: u8,
    goal: &[u8],
    tiles: &[u8],
    squares: &[u8],
    max_states: usize,
) -> Option<u32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = side * side;
    let home = |t: u8| goal.iter().position(|&g| g == t).unwrap() as u8;
    let dist =
        |a: u8, b: u8| ((a / side).abs_diff(b / side) + (a % side).abs_diff(b % side)) as u32;
    let k = tiles.len();
    let h = |s: &[u8]| -> u32 { (0..k).map(|i| dist(s[i], home(tiles[i]))).sum() };
    let key = |s: &[u8], blank: u8| {
        s.iter()
            .chain([&blank])
            .fold(0u64, |acc, &x| acc << 5 | u64::from(x))
    };
    let target = key(&tiles.iter().map(|&t| home(t)).collect::<Vec<_>>(), home(0));
    let mut best: HashMap<u64, u32> = HashMap::new();
    let mut open = BinaryHeap::new();
    for blank in (0..n).filter(|b| !squares.contains(b)) {
        best.insert(key(squares, blank), 0);
        open.push(Reverse((h(squares), 0u32, squares.to_vec(), blank)));
    }
    while let Some(Reverse((_, g, s, blank))) = open.pop() {
        let here = key(&s, blank);
        if best.get(&here).is_some_and(|&b| b < g) {
            continue;
        }
        if here == target {
            return Some(g);
        }
        if best.len() > max_states {
            return None;
        }
        let (r, c) = (blank / side, blank % side);
        let near = [
            (r > 0).then(|| blank - side),
            (r + 1 < side).then(|| blank + side),
            (c > 0).then(|| blank - 1),
            (c + 1 < side).then(|| blank + 1),
        ];
        for q in near.into_iter().flatten() {
            let mut next = s.clone();
            let cost = match next.iter().position(|&x| x == q) {
                Some(j) => {
                    next[j] = blank;
                    1
                }
                None => 0,
            };
            let g_new = g + cost;
            let k_new = key(&next, q);
            if best.get(&k_new).is_none_or(|&b| g_new < b) {
                best.insert(k_new, g_new);
                open.push(Reverse((g_new + h(&next), g_new, next, q)));
            }
        }
    }
    None
}

fn reference_entry(goal: &[u8], tiles: &[u8], squares: &[u8], max_states: usize) -> Option<u32> {
    reference_entry_on(4, goal, tiles, squares, max_states)
}

/// The 7-8 databases against that independent reference on a sample of entries of each group
/// (random placements whose reference search stays small). Building the databases takes
/// about 8 minutes and 3.4 GB in a release build (once; they are cached), so this runs on
/// request: `cargo test --release --test it sliding -- --ignored`.
#[test]
#[ignore = "builds the 7-8 pattern databases (8 minutes, 3.4 GB) unless cached: run with --release -- --ignored"]
fn the_7_8_databases_agree_with_a_reference_search_on_sampled_entries() {
    use puzzlelab::puzzles::sliding::pattern_db::{PatternDb, PdbSet, rank};
    use rand::seq::SliceRandom;
    use rand::{SeedableRng, rngs::StdRng};
    let goal: Vec<u8> = (1..16).chain([0]).collect();
    let db =
        PatternDb::load_or_build_set(4, 4, &goal, PdbSet::Large, &CancelToken::new(), &mut |_| {})
            .unwrap();
    let mut rng = StdRng::seed_from_u64(78);
    let groups: Vec<Vec<u8>> = db.groups().map(<[u8]>::to_vec).collect();
    let mut sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    sizes.sort_unstable();
    assert_eq!(sizes, [7, 8], "the 7-8 partition");
    for (g, tiles) in groups.iter().enumerate() {
        let (mut checked, mut above_manhattan) = (0, 0);
        for _ in 0..400 {
            let mut squares: Vec<u8> = (0..16).collect();
            squares.shuffle(&mut rng);
            squares.truncate(tiles.len());
            let manhattan: u32 = tiles
                .iter()
                .zip(&squares)
                .map(|(&t, &s)| db.distance(s, db.home(t)))
                .sum();
            let stored = manhattan + 2 * db.excess(g, rank(&squares, 16));
            if let Some(reference) = reference_entry(&goal, tiles, &squares, 2_000_000) {
                assert_eq!(stored, reference, "group {g}, squares {squares:?}");
                checked += 1;
                above_manhattan += usize::from(stored > manhattan);
            }
            if checked == 30 {
                break;
            }
        }
        assert_eq!(
            checked, 30,
            "group {g}: too few entries small enough to check"
        );
        assert!(
            above_manhattan > 0,
            "group {g}: no entry above Manhattan checked"
        );
    }
}

#[test]
fn pattern_databases_are_cached_in_the_folder_puzzlelab_cache_dir_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
        .env(
            puzzlelab::puzzles::sliding::pattern_db::CACHE_DIR_VAR,
            dir.path(),
        )
        .args([
            "solve",
            "puzzles/sliding-8-hardest-a.txt",
            "--heuristic",
            "pdb",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["optimal"], true);
    let cached: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(cached, ["pdb-3x3-1_2_3_4_5_6_7_8_0.bin"]);
}

/// Item 5 of the Learn walk: a board in words is written one way (the Learn panel's open
/// list and the timeline's details both call `Picture::board_text`): one line a row, the
/// sliding blank (`Square::Void`) as `_`, never a space.
#[test]
fn a_board_is_written_one_line_a_row_with_the_blank_as_an_underscore() {
    let puzzle =
        puzzles::load_file(std::path::Path::new("puzzles/sliding-8-easy-12.txt"), None).unwrap();
    assert_eq!(puzzle.picture().board_text(), "5 1 3\n4 _ 2\n7 8 6");
}
