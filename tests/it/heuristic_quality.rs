//! A heuristic measured against exact distances (issue 32): the whole 8-puzzle's figures for
//! Manhattan distance and misplaced tiles equal ones computed here by a breadth-first search
//! of our own, and on an open 8-connected grid Manhattan distance overestimates exactly where
//! both coordinates differ from the goal's while octile distance is exact everywhere.

use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::oracle::{Oracle, Space};
use puzzlelab::puzzles::sliding::Sliding;
use puzzlelab::puzzles::{HeuristicSampling as _, Puzzle};
use puzzlelab::search::CancelToken;
use puzzlelab::search::heuristic_quality::{MAX_EXAMPLES, Quality};

/// `puzzle`'s heuristic `name` measured over its whole space.
fn measure(puzzle: &mut dyn Puzzle, name: &str) -> (Quality, Box<dyn Oracle>) {
    puzzle.set_option("heuristic", name).unwrap();
    let oracle = puzzle.oracle(&CancelToken::new(), &mut |_| {}).unwrap();
    let space = oracle.space().expect("an explorable space");
    let q = space
        .heuristic_quality(puzzle, &CancelToken::new())
        .expect("the puzzle is of this space")
        .expect("not cancelled");
    (q, oracle)
}

fn manhattan(s: &[u8]) -> u32 {
    s.iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(i, &t)| {
            let home = usize::from(t) - 1;
            ((i / 3).abs_diff(home / 3) + (i % 3).abs_diff(home % 3)) as u32
        })
        .sum()
}

fn misplaced(s: &[u8]) -> u32 {
    s.iter()
        .enumerate()
        .filter(|&(i, &t)| t != 0 && usize::from(t) != i + 1)
        .count() as u32
}

#[test]
fn the_whole_8_puzzle_gives_the_figures_of_a_breadth_first_search() {
    // Our own breadth-first search over the whole space (goal 1..8 then the blank).
    let dist = crate::common::tile_distances(3, 3);
    assert_eq!(dist.len(), 181_440);
    for (name, h) in [
        ("manhattan", manhattan as fn(&[u8]) -> u32),
        ("misplaced", misplaced),
    ] {
        let n = dist.len() as f64;
        let mean_h = dist.keys().map(|s| f64::from(h(s))).sum::<f64>() / n;
        let mean_hstar = dist.values().map(|&d| f64::from(d)).sum::<f64>() / n;
        let ratios: Vec<f64> = dist
            .iter()
            .filter(|&(_, &d)| d > 0)
            .map(|(s, &d)| f64::from(h(s)) / f64::from(d))
            .collect();
        let mean_ratio = ratios.iter().sum::<f64>() / ratios.len() as f64;
        let exact = dist.iter().filter(|&(s, &d)| h(s) == d).count() as u64;
        // Both are consistent: a move changes either by at most 1.
        let mut p = Sliding::from_text("8 6 7\n2 5 4\n3 0 1").unwrap();
        let (q, _oracle) = measure(&mut p, name);
        assert_eq!(q.states, 181_440, "{name}");
        assert_eq!(q.dead_ends, 0);
        assert!(q.admissible && q.consistent, "{name}");
        assert_eq!(q.inadmissible_states, 0);
        assert_eq!(q.inconsistent_edges, 0);
        assert!(q.inadmissible.is_empty() && q.inconsistent.is_empty());
        assert!(
            (q.mean_h - mean_h).abs() < 1e-9,
            "{name}: {} vs {mean_h}",
            q.mean_h
        );
        assert!((q.mean_hstar - mean_hstar).abs() < 1e-9, "{name}");
        assert!((q.mean_h_over_hstar - mean_ratio).abs() < 1e-9, "{name}");
        assert_eq!(q.exact_states, exact, "{name}");
        // The histogram holds every state once.
        assert_eq!(q.histogram.iter().map(|c| c.states).sum::<u64>(), 181_440);
    }
}

/// An open 7 x 9 grid, 8-connected (diagonals cost sqrt 2), goal at row 2, column 5.
fn open_grid() -> Maze {
    let mut rows = vec![".........".to_owned(); 7];
    rows[0].replace_range(0..1, "S");
    rows[2].replace_range(5..6, "G");
    Maze::from_text(&format!("moves: 8\n{}", rows.join("\n"))).unwrap()
}

#[test]
fn on_an_open_8_connected_grid_manhattan_overestimates_off_the_goals_lines_and_octile_is_exact() {
    let mut maze = open_grid();
    let (q, oracle) = measure(&mut maze, "manhattan");
    let space: &dyn Space = oracle.space().unwrap();
    assert_eq!(q.states, 63);
    // Off the goal's row and column (6 x 8 squares) a diagonal step saves cost.
    assert_eq!(q.inadmissible_states, 6 * 8);
    assert!(!q.admissible && !q.consistent);
    assert_eq!(q.inadmissible.len(), MAX_EXAMPLES);
    for e in &q.inadmissible {
        let cell = space.place_of(e.node).unwrap().cell;
        assert!(cell.row != 2 && cell.col != 5, "{cell:?}");
        assert!(e.h > e.hstar);
    }
    // Largest overestimate first: the corners far on both axes.
    assert!(
        q.inadmissible
            .windows(2)
            .all(|w| w[0].h - w[0].hstar >= w[1].h - w[1].hstar)
    );
    // On the goal's lines, Manhattan distance is the exact cost.
    assert_eq!(q.exact_states, 63 - 48);

    let (q, _) = measure(&mut maze, "octile");
    assert!(q.admissible && q.consistent);
    assert_eq!(
        q.exact_states, 63,
        "octile distance is exact on an open grid"
    );
    assert!((q.mean_h_over_hstar - 1.0).abs() < 1e-9);
    assert!(q.gap.iter().all(|g| g.abs() < 1e-4));
}

#[test]
fn terrain_counts_in_the_exact_cost_and_states_with_no_way_to_a_goal_are_counted_apart() {
    // The middle row costs 5 a square and every path crosses it once: from the top row the
    // exact cost is Manhattan distance plus 4.
    let mut maze = Maze::from_text("S....\n55555\n....G").unwrap();
    let (q, oracle) = measure(&mut maze, "manhattan");
    let space = oracle.space().unwrap();
    assert_eq!((q.states, q.dead_ends), (15, 0));
    assert!(q.admissible && q.consistent);
    for node in 0..space.len() as u32 {
        let cell = space.place_of(node).unwrap().cell;
        let manhattan = (cell.row.abs_diff(2) + cell.col.abs_diff(4)) as f32;
        let gap = q.gap[node as usize];
        let expected = if cell.row == 0 { 4.0 } else { 0.0 };
        assert!(
            (gap - expected).abs() < 1e-6,
            "{cell:?}: h* - h = {gap}, h = {manhattan}"
        );
    }
    // A goal behind a wall: every state is a dead end, measured apart, none in the means.
    let mut walled = Maze::from_text("S..#G\n...#.").unwrap();
    let (q, _) = measure(&mut walled, "manhattan");
    assert_eq!((q.states, q.dead_ends), (0, 6));
    assert!(q.gap.iter().all(|g| g.is_nan()));
    assert_eq!(q.mean_h, 0.0);
}

#[test]
fn states_json_reports_the_heuristic_with_its_violations_as_puzzle_texts() {
    let (code, out, err) = crate::common::puzzlelab(&[
        "states",
        "puzzles/maze-octile-goals.txt",
        "--json",
        "--heuristic",
        "manhattan",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let h = &v["heuristic"];
    for key in [
        "name",
        "admissible",
        "consistent",
        "mean_h",
        "mean_hstar",
        "mean_h_over_hstar",
        "exact_states",
        "inadmissible_states",
        "inconsistent_edges",
        "examples",
    ] {
        assert!(!h[key].is_null(), "{key} missing from {h}");
    }
    assert_eq!(
        h["admissible"], false,
        "diagonal moves and Manhattan distance"
    );
    let examples = h["examples"].as_array().unwrap();
    assert_eq!(examples.len(), 10);
    for e in examples {
        assert!(e["h"].as_f64().unwrap() > e["hstar"].as_f64().unwrap());
        // Each example is a maze in the text format, its start on the example's square.
        let maze = Maze::from_text(e["puzzle"].as_str().unwrap()).unwrap();
        assert_eq!(maze.dims(), (24, 36));
    }
    // A measure past the memory limit (the space itself fits): refused before it
    // allocates, with the reason.
    let dir = tempfile::tempdir().unwrap();
    let eight = dir.path().join("eight.txt");
    std::fs::write(&eight, "1 2 3\n4 5 6\n7 0 8\n").unwrap();
    let eight = eight.to_str().unwrap();
    let (code, _, err) = crate::common::puzzlelab(&[
        "states",
        eight,
        "--heuristic",
        "manhattan",
        "--max-memory",
        "52M",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("needs more memory than the limit"), "{err}");
    // A type with no heuristic option, and a space too large to explore: clear errors.
    let (code, _, err) = crate::common::puzzlelab(&[
        "states",
        "puzzles/klotski-classic.txt",
        "--heuristic",
        "manhattan",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("no heuristic option"), "{err}");
    let (code, _, err) = crate::common::puzzlelab(&[
        "states",
        "puzzles/sliding-24-random.txt",
        "--heuristic",
        "manhattan",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("too large"), "{err}");
}

#[test]
fn the_heuristic_window_lists_manhattans_overestimates_on_an_8_connected_maze_and_opens_one() {
    use crate::common::gui::{click_label, harness, measure_heuristic_in_window};
    use egui_kittest::kittest::Queryable as _;
    use puzzlelab::app::Settings;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("open.txt");
    let mut rows = vec![".........".to_owned(); 7];
    rows[0].replace_range(0..1, "S");
    rows[2].replace_range(5..6, "G");
    std::fs::write(
        &path,
        format!("moves: 8\nheuristic: manhattan\n{}\n", rows.join("\n")),
    )
    .unwrap();
    let mut h = harness(Settings::default());
    h.run();
    crate::common::gui::open_path(&mut h, path);
    click_label(&mut h, "Distances");
    h.run();
    measure_heuristic_in_window(&mut h);
    h.get_by_label("no: 48 states overestimated");
    h.get_by_label(puzzlelab::ui::heuristic_window::HISTOGRAM_LABEL);
    // The first example is the largest overestimate: open it, and the start moves there.
    let first = h
        .state()
        .windows
        .heuristic_window
        .measured
        .as_ref()
        .unwrap()
        .quality
        .inadmissible[0];
    let space = h.state().windows.oracle.space().unwrap();
    let cell = space.place_of(first.node).unwrap().cell;
    let label = format!(
        "h {:.2} > h* {:.2}  (row {}, column {})",
        first.h, first.hstar, cell.row, cell.col
    );
    click_label(&mut h, &label);
    h.run();
    h.run();
    assert_eq!(h.state().puzzle().picture().start, Some(cell));
    // The tint: one colour a square, the overestimates among them.
    click_label(&mut h, "Tint the canvas with h* - h");
    h.run();
    let (gaps, _) = h.state().windows.heuristic_window.tint().unwrap();
    assert_eq!(gaps.len(), 63);
    assert_eq!(gaps.iter().filter(|(_, g)| *g < 0.0).count(), 48);
}

#[test]
fn on_the_15_puzzle_the_heuristic_is_measured_over_a_labelled_sample() {
    let mut p = Sliding::solved(4, 4).unwrap();
    p.set_option("heuristic", "manhattan").unwrap();
    let (q, positions) = p
        .sample_heuristic_quality(6, 11, &CancelToken::new(), &mut |_| {})
        .expect("the 15-puzzle samples")
        .unwrap();
    assert_eq!(q.sampled, Some(6));
    assert_eq!(q.states, 6);
    assert!(q.admissible && q.consistent);
    assert!(q.edges >= 12, "every move out of each sample: {}", q.edges);
    assert!(q.mean_h < q.mean_hstar && q.mean_h_over_hstar > 0.5);
    assert_eq!(
        positions.len(),
        6,
        "no inconsistent move, no extra position"
    );
    // The same positions under linear conflict: never lower, still admissible.
    p.set_option("heuristic", "linear_conflict").unwrap();
    let (lc, _) = p
        .sample_heuristic_quality(6, 11, &CancelToken::new(), &mut |_| {})
        .unwrap()
        .unwrap();
    assert_eq!(lc.mean_hstar, q.mean_hstar, "the same positions");
    assert!(lc.mean_h >= q.mean_h && lc.admissible);
    // Stopped after two positions: those two, labelled so.
    let stop = CancelToken::new();
    let (two, _) = p
        .sample_heuristic_quality(6, 11, &stop, &mut |done| {
            if done == 2 {
                stop.cancel()
            }
        })
        .unwrap()
        .unwrap();
    assert_eq!((two.sampled, two.states), (Some(2), 2));
    // The 24-puzzle without its tables cached: a clear error. The 8-puzzle: measured whole.
    let mut big = Sliding::solved(5, 5).unwrap();
    big.set_option("heuristic", "manhattan").unwrap();
    let why = big
        .sample_heuristic_quality(2, 1, &CancelToken::new(), &mut |_| {})
        .unwrap()
        .unwrap_err();
    assert!(why.contains("6-6-6-6"), "{why}");
    let small = Sliding::solved(3, 3).unwrap();
    assert!(
        small
            .sample_heuristic_quality(2, 1, &CancelToken::new(), &mut |_| {})
            .is_none()
    );
}

#[test]
fn the_heuristic_window_measures_a_15_puzzle_over_a_sample_that_stop_ends() {
    use crate::common::gui::{click_label, harness, open_path};
    use egui_kittest::kittest::Queryable as _;
    use puzzlelab::app::{AppCommand, Settings, ViewCommand};
    use puzzlelab::puzzles::sliding::TileHeuristic;
    use puzzlelab::ui::views::sliding::Command as SlidingCommand;
    let mut h = harness(Settings::default());
    open_path(&mut h, "puzzles/sliding-15-easy.txt".into());
    let heuristic = |t| AppCommand::View(ViewCommand::new(SlidingCommand::Heuristic(t)));
    h.state_mut().push(heuristic(TileHeuristic::Manhattan));
    h.run();
    assert_eq!(h.state().puzzle().dims(), (4, 4));
    let sampling = h.state().puzzle().capabilities().heuristic_sampling;
    assert!(sampling.is_some_and(|s| s.samples_heuristic_quality()));
    h.state_mut().windows.heuristic_window.open = true;
    h.state_mut().windows.heuristic_window.sample.size = 3;
    h.run();
    click_label(&mut h, "Measure a sample");
    h.step();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
    while h.state().windows.heuristic_window.sample.is_measuring() {
        assert!(
            std::time::Instant::now() < deadline,
            "the sample did not end"
        );
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    h.run();
    let sample = &h.state().windows.heuristic_window.sample;
    assert_eq!(sample.failure, None);
    let q = &sample.sampled.as_ref().expect("measured").quality;
    assert_eq!((q.sampled, q.states), (Some(3), 3));
    assert!(q.admissible && q.mean_h < q.mean_hstar);
    h.get_by_label_contains("A sample of 3 random positions");
    h.get_by_label("Admissible (h <= h* everywhere)");
    h.get_by_label(HISTOGRAM_LABEL_TEXT);
    // Another heuristic: the sample is of the old one, so it is forgotten.
    h.state_mut().push(heuristic(TileHeuristic::LinearConflict));
    h.run();
    assert!(h.state().windows.heuristic_window.sample.sampled.is_none());
    // A long sample stops when asked, and says so.
    h.state_mut().windows.heuristic_window.sample.size = 10_000;
    h.run();
    click_label(&mut h, "Measure a sample");
    h.step();
    h.step();
    h.get_by_label("Stop measuring").click();
    h.step();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while h.state().windows.heuristic_window.sample.is_measuring() {
        assert!(
            std::time::Instant::now() < deadline,
            "Stop did not end the sample"
        );
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run();
    // What was measured by then is shown, labelled as stopped; or, stopped before the first
    // position, why there is no measure.
    let sample = &h.state().windows.heuristic_window.sample;
    match sample.sampled.as_ref().and_then(|s| s.quality.sampled) {
        Some(k) => {
            assert!(k < 10_000);
            h.get_by_label_contains(&format!("stopped after {k} of 10000"));
        }
        None => {
            let why = sample.failure.clone();
            assert_eq!(why.as_deref(), Some("the measure was stopped"));
            h.get_by_label_contains("No measure: the measure was stopped");
        }
    }
}

/// The histogram's accessible label.
const HISTOGRAM_LABEL_TEXT: &str = puzzlelab::ui::heuristic_window::HISTOGRAM_LABEL;
