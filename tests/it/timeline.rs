//! The timeline: a recorded run replayed to expansion k shows exactly what the live run
//! showed after k expansions, back and forth; its jumps, pins and branches; the GIF export.

use std::sync::Arc;

use proptest::prelude::*;
use rand::{Rng, SeedableRng, rngs::StdRng};

use std::collections::HashMap;

use puzzlelab::app::{Mark, SearchMarks, Track};
use puzzlelab::puzzles::{self, Cell, Picture, Place, Puzzle, Side, Watcher};
use puzzlelab::runs::recording::{EXPANSION_BYTES, GENERATED_BYTES, Quantity, TraceRecorder};
use puzzlelab::search::{Algorithm, CancelToken, Stats};

/// What the live run showed after k expansions, by a plain reference (each generated place
/// on the frontier unless closed, each expanded place closed): the marks, the board and the
/// frontier size.
#[derive(Clone)]
struct Moment {
    marks: HashMap<Place, Mark>,
    board: Option<Picture>,
    frontier: u64,
}

/// A watcher that records the run twice, whole in one value and, as the app's solver does,
/// by a writer whose chunks (taken at random moments, also in the middle of an expansion)
/// are appended to a store; and beside them keeps the reference marks at sampled moments.
struct Tee {
    full: TraceRecorder,
    writer: TraceRecorder,
    store: TraceRecorder,
    rng: StdRng,
    marks: HashMap<Place, Mark>,
    board: Option<Picture>,
    next_board: Option<Picture>,
    frontier: u64,
    expanded: usize,
    wanted: std::collections::BTreeSet<usize>,
    moments: std::collections::BTreeMap<usize, Moment>,
    /// The chunks as handed to the store, in order.
    chunks: Vec<puzzlelab::runs::recording::RecordChunk>,
}

impl Tee {
    fn new(puzzle: &dyn Puzzle, wanted: impl IntoIterator<Item = usize>, seed: u64) -> Self {
        let (rows, cols) = puzzle.dims();
        Self {
            full: TraceRecorder::with_boards(1 << 30),
            writer: TraceRecorder::with_boards(1 << 30),
            store: TraceRecorder::store(rows, cols),
            rng: StdRng::seed_from_u64(seed),
            marks: HashMap::new(),
            board: None,
            next_board: None,
            frontier: 0,
            expanded: 0,
            wanted: wanted.into_iter().collect(),
            moments: Default::default(),
            chunks: Vec::new(),
        }
    }

    /// Keeps the moment after the last expansion if it is wanted.
    fn settle(&mut self) {
        if self.wanted.contains(&self.expanded) {
            self.moments.insert(
                self.expanded,
                Moment {
                    marks: self.marks.clone(),
                    board: self.board.clone(),
                    frontier: self.frontier,
                },
            );
        }
    }

    /// Now and then, hands the writer's events to the store.
    fn maybe_chunk(&mut self) {
        if self.rng.random_bool(0.1) {
            self.chunk();
        }
    }

    /// Hands the writer's events to the store, keeping a copy; the writer writes its next
    /// chunks in the buffers the store gives back, as the app's solver does.
    fn chunk(&mut self) {
        let chunk = self.writer.take_chunk();
        self.chunks.push(chunk.clone());
        let spent = self.store.append(chunk);
        self.writer.recycle(spent);
    }

    /// The run has ended: the last moment, the last chunk, the whole recording indexed.
    fn end(&mut self) {
        self.settle();
        self.chunk();
        self.full.finish();
    }
}

impl Watcher for Tee {
    fn expanded(&mut self, place: Option<Place>, depth: u64, stats: &Stats) {
        self.settle();
        self.board = self.next_board.take();
        self.full.expanded(place, depth, stats);
        self.writer.expanded(place, depth, stats);
        if let Some(place) = place {
            self.marks.insert(place, Mark::Closed);
        }
        self.expanded += 1;
        self.frontier = stats.frontier;
        self.maybe_chunk();
    }

    fn scored(&mut self, place: Place, g: f64, h: Option<f64>, parent: Option<Place>) {
        self.full.scored(place, g, h, parent);
        self.writer.scored(place, g, h, parent);
        self.maybe_chunk();
    }

    fn scored_board(&mut self, g: f64, h: Option<f64>) {
        self.full.scored_board(g, h);
        self.writer.scored_board(g, h);
    }

    fn wants_scores(&self) -> bool {
        true
    }

    fn generated(&mut self, place: Option<Place>) {
        self.full.generated(place);
        self.writer.generated(place);
        if let Some(place) = place {
            self.marks.entry(place).or_insert(Mark::Frontier);
        }
        self.maybe_chunk();
    }

    fn wants_board(&self) -> bool {
        true
    }

    fn wants_generated_boards(&self) -> bool {
        true
    }

    fn generated_board(&mut self, picture: Picture) {
        self.full.generated_board(picture.clone());
        self.writer.generated_board(picture);
    }

    fn board(&mut self, picture: Picture) {
        self.next_board = Some(picture.clone());
        self.full.board(picture.clone());
        self.writer.board(picture);
    }
}

/// Whether two recordings hold the same run: each expansion, the changes each step makes
/// forward and back, the starts, the iterations and the size curve.
fn assert_same_recording(full: &TraceRecorder, store: &TraceRecorder, what: &str) {
    assert_eq!(store.expansions(), full.expansions(), "{what}");
    assert_eq!(store.len(), full.len(), "{what}");
    assert_eq!(store.bytes(), full.bytes(), "{what}");
    assert_eq!(store.is_indexed(), full.is_indexed(), "{what}");
    assert_eq!(store.iteration_starts(), full.iteration_starts(), "{what}");
    assert_eq!(store.size_curve(64), full.size_curve(64), "{what}");
    let changes = |rec: &TraceRecorder, j: usize| {
        let mut v = Vec::new();
        rec.step_forward(j, |p, c| v.push((p, c)));
        rec.step_back(j + 1, |p, c| v.push((p, c)));
        v
    };
    let mut starts = (Vec::new(), Vec::new());
    full.sources(|p, c| starts.0.push((p, c)));
    store.sources(|p, c| starts.1.push((p, c)));
    assert_eq!(starts.0, starts.1, "{what}: the starts");
    for j in 0..full.expansions() {
        assert_eq!(
            store.expansion(j),
            full.expansion(j),
            "{what}: expansion {j}"
        );
        assert_eq!(changes(store, j), changes(full, j), "{what}: expansion {j}");
        assert_eq!(store.board_at(j), full.board_at(j), "{what}: board {j}");
        // The states put on the frontier, boards included, with their scores.
        let pushed = |rec: &TraceRecorder| {
            rec.pushed_states(Some(j))
                .map(|(k, place, g, h)| (place, rec.generated_squares(k).map(<[_]>::to_vec), g, h))
                .collect::<Vec<_>>()
        };
        assert_eq!(pushed(store), pushed(full), "{what}: pushed by {j}");
        if let Some(place) = full.expansion(j).and_then(|e| e.place) {
            assert_eq!(store.first_expansion(place), full.first_expansion(place));
        }
    }
}

/// Every place of a `rows` x `cols` picture: each square and its four sides.
fn places(rows: usize, cols: usize) -> impl Iterator<Item = Place> {
    (0..rows).flat_map(move |r| {
        (0..cols).flat_map(move |c| {
            let cell = Cell::new(r, c);
            std::iter::once(Place::from(cell)).chain(Side::ALL.map(|s| Place {
                cell,
                side: Some(s),
            }))
        })
    })
}

/// Runs `algorithm` on `puzzle` recording it, then seeks a replay to the sampled positions
/// in a random order (back and forth) and checks each against the live view there.
fn replay_matches_live(puzzle: &dyn Puzzle, algorithm: Algorithm, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    // Positions are sampled after the run, so sample many, then visit some of them.
    let mut tee = Tee::new(puzzle, 0..100_000, seed);
    puzzle
        .solve(algorithm, &mut tee, &CancelToken::new())
        .unwrap();
    tee.end();
    assert_same_recording(&tee.full, &tee.store, &format!("{algorithm}"));
    let recording = std::mem::replace(&mut tee.store, TraceRecorder::new(0));
    let len = recording.expansions();
    assert_eq!(len, tee.expanded, "every expansion recorded");
    let mut track = Track::new(Arc::new(recording), algorithm);
    let mut view = SearchMarks::for_puzzle(puzzle);
    let (rows, cols) = puzzle.dims();
    let mut positions: Vec<usize> = (0..24).map(|_| rng.random_range(0..=len)).collect();
    positions.extend([len, 0, len / 2, 1.min(len)]);
    for k in positions {
        if !tee.moments.contains_key(&k) {
            continue;
        }
        assert!(track.seek(&mut view, k, None));
        let live = &tee.moments[&k];
        for place in places(rows, cols) {
            assert_eq!(
                view.mark(place),
                live.marks.get(&place).copied().unwrap_or(Mark::None),
                "{algorithm} at {k} of {len}: {place:?}"
            );
        }
        let count = |m: Mark| live.marks.values().filter(|&&v| v == m).count();
        assert_eq!(view.frontier_places, count(Mark::Frontier));
        assert_eq!(view.closed_places, count(Mark::Closed));
        assert_eq!(view.stats.expanded, k as u64);
        if live.board.is_some() && k > 0 {
            assert_eq!(view.board, live.board, "{algorithm} at {k}: the board");
            assert_eq!(view.stats.frontier, live.frontier, "{algorithm} at {k}");
        }
    }
}

/// Follows `algorithm`'s run on `puzzle` live, as the app does: each chunk appended to a
/// live track and the marks sought to its head at once (so an expansion is shown before
/// the chunk that completes it arrives); at the end they equal the run's own.
fn live_follow_matches(puzzle: &dyn Puzzle, algorithm: Algorithm, seed: u64) {
    let mut tee = Tee::new(puzzle, [], seed);
    puzzle
        .solve(algorithm, &mut tee, &CancelToken::new())
        .unwrap();
    tee.wanted.insert(tee.expanded);
    tee.end();
    let (rows, cols) = puzzle.dims();
    let mut track = Track::live(rows, cols, algorithm, Default::default());
    let mut view = SearchMarks::for_puzzle(puzzle);
    for chunk in std::mem::take(&mut tee.chunks) {
        track.append(chunk, &mut view);
        track.seek(&mut view, track.len(), None);
    }
    assert_eq!(track.shown(), tee.expanded);
    let live = &tee.moments[&tee.expanded];
    for place in places(rows, cols) {
        assert_eq!(
            view.mark(place),
            live.marks.get(&place).copied().unwrap_or(Mark::None),
            "{algorithm}, followed live: {place:?}"
        );
    }
}

/// A random `rows` x `cols` grid maze as text: walls with probability `density`, the start
/// top left and the goal bottom right.
fn random_maze(rows: usize, cols: usize, density: f64, seed: u64) -> Box<dyn Puzzle> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push(match (r, c) {
                (0, 0) => 'S',
                _ if (r, c) == (rows - 1, cols - 1) => 'G',
                _ if rng.random_bool(density) => '#',
                _ => '.',
            });
        }
        text.push('\n');
    }
    puzzles::parse(&text, Some("maze")).unwrap()
}

/// A random grid maze ([`random_maze`]) and the `which`-th of the algorithms the properties
/// try, if it runs on it.
fn random_case(
    rows: usize,
    cols: usize,
    density: f64,
    seed: u64,
    which: usize,
) -> Option<(Box<dyn Puzzle>, Algorithm)> {
    let puzzle = random_maze(rows, cols, density, seed);
    let algorithm = [
        Algorithm::Bfs,
        Algorithm::AStar,
        Algorithm::Dijkstra,
        Algorithm::Dfs,
        Algorithm::IdaStar,
        Algorithm::Greedy,
    ][which];
    let runs = puzzle.algorithms().iter().any(|a| a.same_kind(algorithm));
    runs.then_some((puzzle, algorithm))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, rng_seed: proptest::test_runner::RngSeed::Fixed(17), ..ProptestConfig::default() })]

    /// On random grids, every algorithm's replay equals its live view at sampled positions.
    #[test]
    fn scrubbing_random_grids_shows_what_the_live_run_showed(
        rows in 2usize..24, cols in 2usize..24, density in 0.0f64..0.4, seed in any::<u64>(),
        which in 0usize..6,
    ) {
        if let Some((puzzle, algorithm)) = random_case(rows, cols, density, seed, which) {
            replay_matches_live(puzzle.as_ref(), algorithm, seed);
        }
    }

    /// Followed live, chunk by chunk, the marks end as the run's own.
    #[test]
    fn following_a_live_run_shows_its_last_successors(
        rows in 2usize..24, cols in 2usize..24, density in 0.0f64..0.4, seed in any::<u64>(),
        which in 0usize..6,
    ) {
        if let Some((puzzle, algorithm)) = random_case(rows, cols, density, seed, which) {
            live_follow_matches(puzzle.as_ref(), algorithm, seed);
        }
    }
}

#[test]
fn scrubbing_the_8_puzzle_shows_the_boards_and_frontier_of_the_live_run() {
    let puzzle = puzzles::load_file(
        std::path::Path::new("puzzles/sliding-8-hardest-a.txt"),
        None,
    )
    .unwrap();
    for algorithm in [Algorithm::AStar, Algorithm::IdaStar] {
        replay_matches_live(puzzle.as_ref(), algorithm, 8);
    }
}

#[test]
fn klondike_and_the_car_maze_replay_as_they_ran() {
    for file in ["puzzles/klondike.txt", "puzzles/car-maze.txt"] {
        let puzzle = puzzles::load_file(std::path::Path::new(file), None).unwrap();
        replay_matches_live(puzzle.as_ref(), Algorithm::Bfs, 3);
    }
}

/// A recorded run of the small maze, finished.
fn recorded(algorithm: Algorithm) -> (Box<dyn Puzzle>, TraceRecorder, puzzles::Report) {
    let maze = puzzles::load_file(std::path::Path::new("puzzles/maze-small.txt"), None).unwrap();
    let mut recorder = TraceRecorder::new(1 << 30);
    let report = maze
        .solve(algorithm, &mut recorder, &CancelToken::new())
        .unwrap();
    recorder.finish();
    (maze, recorder, report)
}

#[test]
fn jumps_find_the_next_depth_layer_and_f_value() {
    let (_, rec, _) = recorded(Algorithm::Bfs);
    let depth = |k: usize| rec.expansion(k - 1).unwrap().depth;
    // BFS: the next layer begins where the depth first grows.
    let next = rec.next_record(1, Quantity::Depth).unwrap();
    assert_eq!(depth(next), depth(1) + 1);
    assert!((1..next).all(|k| depth(k) == depth(1)));
    let later = rec.next_record(next, Quantity::Depth).unwrap();
    assert_eq!(depth(later), depth(next) + 1);
    // Back to the start of this layer, then to the one before.
    assert_eq!(rec.previous_record(later + 2, Quantity::Depth), Some(later));
    assert_eq!(rec.previous_record(later, Quantity::Depth), Some(next));
    // A*: f never decreases, and the next f is the least greater one.
    let (_, rec, _) = recorded(Algorithm::AStar);
    let f = |k: usize| rec.expansion(k - 1).unwrap().f().unwrap();
    let next = rec.next_record(1, Quantity::F).unwrap();
    assert!(f(next) > f(1));
    assert!((1..next).all(|k| f(k) == f(1)));
    assert_eq!(rec.next_record(rec.expansions(), Quantity::F), None);
}

#[test]
fn a_pinned_squares_branch_runs_from_the_start_along_parents() {
    let (maze, rec, report) = recorded(Algorithm::AStar);
    let n = report.path.len();
    let (goal, before) = (report.path[n - 1], report.path[n - 2]);
    // The branch of the last square before the goal is the solution found up to it.
    assert_eq!(rec.branch(before), report.path[..n - 1]);
    let j = rec.first_expansion(before).unwrap();
    let info = rec.expansion(j).unwrap();
    assert_eq!(info.g, Some(report.cost as f32 - 1.0), "unit costs");
    assert_eq!(info.depth as usize, n - 2);
    assert_eq!(info.parent, Some(report.path[n - 3]));
    // It went on the frontier during its parent's expansion.
    let parent_j = rec.first_expansion(info.parent.unwrap()).unwrap();
    assert_eq!(rec.first_generation(before), Some(Some(parent_j)));
    // The goal, reached but not expanded: its branch ends at it, through a square expanded.
    let goal_branch = rec.branch(goal);
    assert_eq!(goal_branch.last(), Some(&goal));
    assert_eq!(goal_branch.first(), Some(&report.path[0]));
    assert!(rec.first_generation(goal).unwrap().is_some());
    let start = report.path[0];
    assert_eq!(rec.first_generation(start), Some(None));
    assert_eq!(rec.branch(start), vec![start]);
    assert!(maze.dims().0 > 0);
}

#[test]
fn ida_star_iterations_and_reexpansions_are_marked() {
    let (_, rec, report) = recorded(Algorithm::IdaStar);
    let starts = rec.iteration_starts();
    assert!(starts.len() >= 2, "{starts:?}");
    assert_eq!(starts[0], 0);
    // Each iteration begins again at the start: a re-expansion from the second on.
    for (i, &s) in starts.iter().enumerate() {
        let e = rec.expansion(s as usize).unwrap();
        assert_eq!(e.iteration as usize, i + 1);
        assert_eq!(e.depth, 0);
        assert_eq!(e.is_reexpansion, i > 0);
    }
    assert!(report.solved);
}

#[test]
fn the_recording_keeps_to_its_budget_and_its_sizes() {
    assert_eq!(EXPANSION_BYTES, 24);
    // A place, and the g and h it was put on the frontier with.
    assert_eq!(GENERATED_BYTES, 12);
    let maze = puzzles::load_file(std::path::Path::new("puzzles/maze-small.txt"), None).unwrap();
    let budget = 10 * EXPANSION_BYTES as u64;
    let mut recorder = TraceRecorder::new(budget);
    let report = maze
        .solve(Algorithm::AStar, &mut recorder, &CancelToken::new())
        .unwrap();
    assert!(report.solved, "the search itself is not cut short");
    assert!(recorder.bytes() <= budget);
    assert!(recorder.expansions() >= 5);
    assert!(recorder.stopped().unwrap().contains("memory budget"));
}

#[test]
fn the_gif_export_writes_the_frames_asked_for() {
    let (maze, rec, report) = recorded(Algorithm::Bfs);
    let (rows, cols) = maze.dims();
    let picture = maze.picture();
    let colors = puzzlelab::runs::animation::GifColors {
        squares: picture
            .squares
            .iter()
            .map(|s| match s {
                puzzles::Square::Blocked => [48, 48, 48],
                _ => [238, 238, 238],
            })
            .collect(),
        keeps_color: picture
            .squares
            .iter()
            .map(|s| matches!(s, puzzles::Square::Blocked))
            .collect(),
        frontier: [0, 158, 115],
        closed: [86, 180, 233],
        current: [240, 228, 66],
        solution: report.path.clone(),
        solution_color: [213, 94, 0],
    };
    let options = puzzlelab::runs::animation::GifOptions {
        fps: 10,
        seconds: 2.5,
    };
    let mut bytes = Vec::new();
    let mut reported = Vec::new();
    let frames = puzzlelab::runs::animation::write_gif(
        &rec,
        (rows, cols),
        &colors,
        options,
        &mut bytes,
        |done, total| reported.push((done, total)),
        &std::sync::atomic::AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(frames, 25);
    assert_eq!(reported.last(), Some(&(25, 25)));
    // Decoded back: 25 frames of the size the picture scales to, 1/10 s each.
    let mut decoder = gif::DecodeOptions::new();
    decoder.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = decoder.read_info(bytes.as_slice()).unwrap();
    let (w, h) = (decoder.width() as usize, decoder.height() as usize);
    assert_eq!((w % cols, h % rows), (0, 0));
    assert!(w >= 256.min(cols * 16));
    let mut count = 0;
    let mut first_and_last = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.delay, 10);
        assert_eq!((frame.width as usize, frame.height as usize), (w, h));
        if count == 0 || count == 24 {
            first_and_last.push(frame.buffer.to_vec());
        }
        count += 1;
    }
    assert_eq!(count, 25);
    assert_ne!(first_and_last[0], first_and_last[1], "the search moves on");
    // The last frame shows the solution's path, as the canvas shows the run's end.
    let palette = decoder.global_palette().unwrap().to_vec();
    let vermillion = palette
        .chunks(3)
        .position(|c| c == [213, 94, 0])
        .expect("the solution's colour is in the palette") as u8;
    assert!(!first_and_last[0].contains(&vermillion));
    let on_path = first_and_last[1]
        .iter()
        .filter(|&&p| p == vermillion)
        .count();
    let (scale_x, scale_y) = (w / cols, h / rows);
    assert!(
        on_path >= (report.path.len() - 2) * scale_x * scale_y,
        "{on_path} pixels of the path"
    );
}

/// A board puzzle's recording keeps each expansion's g and h, so a pinned state shows its
/// figures (Rush Hour showed "—" for g, h and f).
#[test]
fn a_board_puzzles_recording_keeps_g_and_h() {
    let rush =
        puzzles::load_file(std::path::Path::new("puzzles/rush-hour-first.txt"), None).unwrap();
    let mut recorder = TraceRecorder::with_boards(1 << 30);
    let report = rush
        .solve(Algorithm::AStar, &mut recorder, &CancelToken::new())
        .unwrap();
    recorder.finish();
    assert!(report.solved);
    assert_eq!(recorder.expansions() as u64, report.stats.expanded);
    for j in 0..recorder.expansions() {
        let info = recorder.expansion(j).unwrap();
        let (g, h) = (info.g.unwrap(), info.h.unwrap());
        assert!(info.f().unwrap() >= g && h >= 0.0, "expansion {j}");
        assert_eq!(g, info.depth as f32, "unit moves: g is the depth");
    }
}

/// A recorder that takes a grid's breadth-first expansions in blocks of `len` (as the app's
/// solver has it do at full speed), and counts the blocks.
struct Blocks {
    recorder: TraceRecorder,
    len: usize,
    blocks: usize,
}

impl Watcher for Blocks {
    fn expanded(&mut self, place: Option<Place>, depth: u64, stats: &Stats) {
        self.recorder.expanded(place, depth, stats);
    }
    fn scored(&mut self, place: Place, g: f64, h: Option<f64>, parent: Option<Place>) {
        self.recorder.scored(place, g, h, parent);
    }
    fn wants_scores(&self) -> bool {
        self.recorder.wants_scores()
    }
    fn generated(&mut self, place: Option<Place>) {
        self.recorder.generated(place);
    }
    fn scored_generated(&mut self, g: f64, h: Option<f64>) {
        self.recorder.scored_generated(g, h);
    }
    fn grid_block_len(&self) -> usize {
        self.len
    }
    fn grid_block(&mut self, block: &puzzlelab::search::GridBlock) {
        self.blocks += 1;
        self.recorder.grid_block(block);
    }
}

/// A grid's breadth-first search recorded a block of expansions at a time (the app at full
/// speed) is the recording made one event at a time, expansion by expansion, with the same
/// starts, sizes and index; also when the recording's budget fills part-way (it stops at the
/// same expansion, with the same message).
#[test]
fn a_recording_made_in_blocks_is_the_one_made_event_by_event() {
    let mut cases =
        vec![puzzles::load_file(std::path::Path::new("puzzles/maze-small.txt"), None).unwrap()];
    for (side, density, seed) in [(30, 0.3, 1), (45, 0.35, 2), (20, 0.45, 3)] {
        cases.push(random_maze(side, side + 3, density, seed));
    }
    for (i, maze) in cases.iter().enumerate() {
        for budget in [1 << 26, 700, 5_000, 20_000] {
            let mut plain = TraceRecorder::new(budget);
            let report = maze
                .solve(Algorithm::Bfs, &mut plain, &CancelToken::new())
                .unwrap();
            plain.finish();
            for len in [1, 5, 2048] {
                let what = format!("maze {i}, budget {budget}, blocks of {len}");
                let mut blocks = Blocks {
                    recorder: TraceRecorder::new(budget),
                    len,
                    blocks: 0,
                };
                let again = maze
                    .solve(Algorithm::Bfs, &mut blocks, &CancelToken::new())
                    .unwrap();
                assert!(blocks.blocks > 0, "{what}");
                assert_eq!(again.stats.expanded, report.stats.expanded, "{what}");
                blocks.recorder.finish();
                assert_same_recording(&plain, &blocks.recorder, &what);
                assert_eq!(plain.stopped(), blocks.recorder.stopped(), "{what}");
                if report.stats.expanded * EXPANSION_BYTES as u64 > budget {
                    assert!(plain.stopped().is_some(), "{what}: the budget filled");
                }
            }
        }
    }
}
