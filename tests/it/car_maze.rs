//! The car maze of Sobral's "A Puzzle" (`puzzles/car-maze.txt`): the route, its legality, BFS
//! against the `pathfinding` crate, a maze with no way out, and bad input.

use puzzlelab::puzzles::car_maze::{CarMaze, CarState, Spot, turn_bit};
use puzzlelab::puzzles::{self, Cell, NoWatcher, Puzzle, Side};
use puzzlelab::search::{self, Algorithm, CancelToken, Outcome, Problem};

fn seed_maze() -> CarMaze {
    CarMaze::from_text(include_str!("../../puzzles/car-maze.txt")).unwrap()
}

fn successors(maze: &CarMaze, state: &CarState) -> Vec<CarState> {
    Side::ALL
        .into_iter()
        .filter_map(|heading| maze.drive(*state, heading))
        .collect()
}

#[test]
fn the_seed_maze_has_the_articles_start_and_exit() {
    let maze = seed_maze();
    assert_eq!((maze.rows(), maze.cols()), (5, 5));
    assert_eq!(
        maze.start(),
        CarState {
            at: Spot { row: 1, col: 0 },
            from: Side::Left
        }
    );
    assert_eq!(maze.exit(), Spot { row: 3, col: 5 });
}

#[test]
fn bfs_route_is_shortest_and_legal() {
    let maze = seed_maze();
    let result = search::solve(&maze, Algorithm::Bfs).unwrap();
    assert_eq!(result.outcome, Outcome::Found);
    let oracle = pathfinding::prelude::bfs(
        &maze.start(),
        |s| successors(&maze, s),
        |s| s.at == maze.exit(),
    )
    .unwrap();
    assert_eq!(result.moves.len(), oracle.len() - 1);
    assert_eq!(result.moves.len(), 31);
    // Replay: each move is an allowed turn into the next state.
    for (i, mv) in result.moves.iter().enumerate() {
        assert_eq!(
            maze.drive(result.states[i], mv.heading),
            Some(result.states[i + 1])
        );
    }
    assert_eq!(result.moves[0].to_string(), "right to (1,1)");
    assert_eq!(result.moves.last().unwrap().to_string(), "right to (3,5)");
    // The exit can only be reached by entering (3,4) from below.
    assert_eq!(result.states[result.states.len() - 2].from, Side::Down);
}

#[test]
fn optimal_algorithms_agree_and_the_others_are_legal() {
    let maze = seed_maze();
    for algorithm in Algorithm::ALL.into_iter().filter(|a| a.applies_to(&maze)) {
        let report = maze
            .solve(algorithm, &mut NoWatcher, &CancelToken::new())
            .unwrap();
        assert!(report.solved, "{algorithm}");
        if maze.guarantees_optimal(algorithm) {
            assert_eq!(report.cost, 31.0, "{algorithm}");
        }
        // Every place carries the side entered from: same square, different sides, are
        // different states.
        assert!(report.path.iter().all(|p| p.side.is_some()));
    }
}

#[test]
fn the_same_intersection_is_visited_from_different_sides() {
    let result = search::solve(&seed_maze(), Algorithm::Bfs).unwrap();
    let at_1_3: Vec<Side> = result
        .states
        .iter()
        .filter(|s| s.at == Spot { row: 1, col: 3 })
        .map(|s| s.from)
        .collect();
    assert_eq!(at_1_3, [Side::Down, Side::Right]);
}

#[test]
fn a_maze_with_no_way_out_is_reported() {
    let text = "DR: DR, LD: LD\nUR: UR, UL: UL\nstart: 0 0 L\nexit: 1 2\n";
    let maze = CarMaze::from_text(text).unwrap();
    for algorithm in Algorithm::ALL.into_iter().filter(|a| a.applies_to(&maze)) {
        let result = search::solve(&maze, algorithm).unwrap();
        assert_eq!(result.outcome, Outcome::NotFound, "{algorithm}");
    }
    // Entering (0,0) from the left allows no turn at all.
    let mut out = Vec::new();
    maze.successors(&maze.start(), &mut out).unwrap();
    assert!(out.is_empty());
}

#[test]
fn turns_can_be_edited() {
    let mut maze = seed_maze();
    let cell = Cell::new(3, 4);
    let before = maze.turns(cell);
    assert!(maze.set_turns(cell, before & !turn_bit(Side::Down, Side::Right)));
    let result = search::solve(&maze, Algorithm::Bfs).unwrap();
    assert_eq!(
        result.outcome,
        Outcome::NotFound,
        "the only way out is gone"
    );
    // The edit survives a round trip through both formats.
    let text = puzzles::parse(&maze.to_text(), None).unwrap();
    assert_eq!(text.to_json(), maze.to_json());
    let json = puzzles::parse(&maze.to_json().to_string(), None).unwrap();
    assert_eq!(json.to_text(), maze.to_text());
}

fn error_of(text: &str) -> String {
    puzzles::parse(text, Some("car-maze"))
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_input_says_what_and_where() {
    assert_eq!(
        error_of("DR: DR, LD: LD\nUR: UR\n"),
        "line 2: 1 intersections in this row where the first row has 2"
    );
    assert_eq!(
        error_of("DR: DX, LD: LD\n"),
        "line 1: intersection 1: unknown direction 'X' (use U D L R)"
    );
    assert_eq!(
        error_of("DR: DR, L: UD\n"),
        "line 1: intersection 2: the edge \"UD\" leads out through neither U nor D, \
         which are not among the outgoing directions"
    );
    assert_eq!(
        error_of("DR: DR, LD: LD\nstart: 4 0 L\n"),
        "line 2: start: (4,0) is outside the 1 x 2 grid"
    );
    assert_eq!(
        error_of("DR: DR, LD: LD\nexit: 5 5\n"),
        "line 2: exit: (5,5) is not just outside the 1 x 2 grid"
    );
    assert_eq!(
        error_of("DR DR, LD: LD\n"),
        "line 1: intersection 1: expected `OUTS: PATHS`, found \"DR DR\""
    );
    assert_eq!(
        error_of("DR: DRU\n"),
        "line 1: intersection 1: an edge is two sides, like `UD`, not \"DRU\""
    );
    assert_eq!(
        error_of("; nothing\n"),
        "the file has no rows of intersections"
    );
}

#[test]
fn the_car_maze_file_is_detected() {
    let p = puzzles::parse(include_str!("../../puzzles/car-maze.txt"), None).unwrap();
    assert_eq!(p.puzzle_type().name, "car-maze");
}
