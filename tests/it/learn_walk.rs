//! Issue 56's lesson walk of 2026-12-08 (a teacher's 45 minutes at 1024 x 640): what the
//! Learn panel and the statistics said that was not true of the screen, each held here.

use puzzlelab::app::learn::{LearnCommand, Numbers};
use puzzlelab::app::{AppCommand, SettingCommand, Settings};
use puzzlelab::puzzles::{Cell, NoWatcher};
use puzzlelab::search::pseudocode::pseudocode;
use puzzlelab::search::{Algorithm, CancelToken, Outcome, TieBreak};

use crate::common::gui::{harness, open_for_learning, run_until};

type H = egui_kittest::Harness<'static, puzzlelab::app::PuzzleLabApp>;

/// `file` opened with `algorithm` and the Learn panel, its run started paused and stepped
/// until `expansions` states are expanded.
fn paused_after(file: &str, algorithm: Algorithm, expansions: usize) -> H {
    let mut h = harness(Settings::default());
    open_for_learning(&mut h, file, algorithm);
    for _ in 0..expansions {
        h.state_mut().push(AppCommand::Step);
        h.run();
    }
    run_until(&mut h, |app| {
        app.learn_moment()
            .is_some_and(|(_, m)| m.position >= expansions)
    });
    h
}

/// [`paused_after`] one expansion, then Predict mode on.
fn predicting_after(file: &str, algorithm: Algorithm) -> H {
    let mut h = paused_after(file, algorithm, 1);
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Predict(true)));
    h.run();
    h
}

/// Finding 1: a change of the algorithm while a breadth-first run was paused dropped the
/// run without a word, and the Learn panel then read its recording as A*'s (A*'s
/// pseudo-code and an f column over a breadth-first run). The run is now stopped as Stop
/// stops it, the status says so, and the panel narrates the recording by the algorithm it
/// was made with.
#[test]
fn a_change_of_algorithm_mid_run_stops_it_and_the_recording_keeps_its_algorithm() {
    let mut h = paused_after("sliding-8-easy-6.txt", Algorithm::Bfs, 5);
    assert!(h.state().is_running());
    h.state_mut()
        .push(AppCommand::SetAlgorithm(Algorithm::AStar));
    h.run();
    run_until(&mut h, |app| app.result().is_some() && !app.is_running());
    let report = h.state().result().unwrap().clone();
    assert_eq!(report.algorithm, Algorithm::Bfs);
    assert_eq!(report.outcome, Outcome::Cancelled);
    let status = h.state().status().text.clone();
    assert!(
        status.starts_with("Stopped the Breadth-first") && status.contains("A*"),
        "{status}"
    );
    assert_eq!(
        h.state().algorithm(),
        Algorithm::AStar,
        "the choice is kept"
    );
    assert_eq!(h.state().run_algorithm(), Algorithm::Bfs, "the recording's");
    assert_eq!(
        pseudocode(h.state().run_algorithm()).lines,
        pseudocode(Algorithm::Bfs).lines
    );
    // The open list has no f for breadth-first, whatever is chosen since.
    let list = h.state().learn_open_list().expect("an open list");
    let algorithm = h.state().run_algorithm();
    assert!(list.iter().all(|e| e.f(algorithm).is_none()));
}

/// The tie-breaking policy the Learn panel orders a recording's open list by is the one the
/// run was made with, not one chosen after it.
#[test]
fn the_open_list_keeps_the_tie_break_of_its_run() {
    let mut h = paused_after("maze-small.txt", Algorithm::AStar, 3);
    let (_, made_with) = h.state().run_rules();
    let other = TieBreak::ALL.into_iter().find(|t| *t != made_with).unwrap();
    h.state_mut()
        .push(AppCommand::Setting(SettingCommand::TieBreak(other)));
    h.run();
    assert_eq!(h.state().run_rules(), (Algorithm::AStar, made_with));
}

/// Finding 2: in Predict mode on a board puzzle, a click on the canvas during a paused run
/// (its next expansion not made yet) stepped the run, though it was refused as a guess.
/// It is no guess: nothing steps, nothing is scored.
#[test]
fn a_click_on_a_boards_canvas_in_predict_mode_steps_nothing() {
    let mut h = predicting_after("sliding-8-easy-6.txt", Algorithm::Bfs);
    let before = h.state().learn_moment().unwrap().1.position;
    let text = h.state().puzzle().to_text();
    for cell in [Cell::new(0, 0), Cell::new(2, 0)] {
        h.state_mut()
            .push(AppCommand::Learn(LearnCommand::Guess(cell)));
        h.run_steps(4);
        assert!(!h.state().windows.learn.is_waiting(), "no guess pending");
    }
    let (_, m) = h.state().learn_moment().unwrap();
    assert_eq!(m.position, before, "the run did not step");
    assert_eq!(h.state().windows.learn.score, (0, 0));
    assert_eq!(h.state().puzzle().to_text(), text);
    let (good, said) = h.state().windows.learn.verdict.clone().unwrap();
    assert!(!good && said.contains("open list"), "{said}");
}

/// Finding 3: a Predict verdict ("Right: (2, 2) … is next") stayed on screen after the run
/// went on and at moments it was not true of. It is shown at its own moment only.
#[test]
fn a_verdict_leaves_with_its_moment() {
    let mut h = predicting_after("maze-small.txt", Algorithm::AStar);
    let (recording, m) = h.state().learn_moment().unwrap();
    // The next expansion is made (and recorded) when the guess asks for it.
    let guessed = match recording.expansion(m.position) {
        Some(e) => e.place.unwrap().cell,
        None => {
            h.state_mut().push(AppCommand::Step);
            run_until(&mut h, |app| {
                app.learn_moment()
                    .is_some_and(|(r, m)| r.expansion(m.position).is_some() || m.position > 1)
            });
            let (r, m) = h.state().learn_moment().unwrap();
            r.expansion(m.position.saturating_sub(1))
                .unwrap()
                .place
                .unwrap()
                .cell
        }
    };
    h.state_mut()
        .push(AppCommand::Learn(LearnCommand::Guess(guessed)));
    run_until(&mut h, |app| !app.windows.learn.is_waiting());
    h.run_steps(2);
    assert!(h.state().windows.learn.verdict.is_some(), "told");
    let at = h.state().timeline().unwrap().target;
    h.run_steps(4);
    assert!(
        h.state().windows.learn.verdict.is_some(),
        "kept at its moment"
    );
    // On to the end of the run: the verdict is no longer about the screen.
    h.state_mut().push(AppCommand::Resume);
    run_until(&mut h, |app| app.timeline().is_some_and(|t| t.target != at));
    h.run_steps(2);
    assert!(
        h.state().windows.learn.verdict.is_none(),
        "gone with its moment"
    );
}

/// Finding 10: with "f" chosen, the squares of a breadth-first run showed g while the open
/// list's f column said "-"; for weighted A* and greedy the squares wrote g + h. One rule
/// now: the open list's.
#[test]
fn the_squares_write_the_f_the_open_list_writes() {
    let (g, h) = (Some(3.0), Some(2.0));
    assert_eq!(Numbers::F.of(g, None, Algorithm::Bfs), None);
    assert_eq!(Numbers::F.of(g, h, Algorithm::AStar), Some(5.0));
    assert_eq!(Numbers::F.of(g, h, Algorithm::Greedy), Some(2.0));
    assert_eq!(Numbers::F.of(g, h, Algorithm::Dijkstra), Some(3.0));
    assert_eq!(Numbers::G.of(g, h, Algorithm::Bfs), g);
    for algorithm in Algorithm::ALL {
        let entry = puzzlelab::runs::open_list::priority(algorithm, g, h);
        assert_eq!(Numbers::F.of(g, h, algorithm), entry, "{algorithm:?}");
    }
}

/// Finding 5: a run ended by a heuristic error on its start said "Frontier 1" beside
/// "Peak frontier 0".
#[test]
fn the_peak_frontier_counts_a_start_whose_heuristic_failed() {
    let text = "fn start() { 0 }\nfn moves(n) { [] }\nfn is_goal(n) { false }\n\
                fn heuristic(n) { -1 }\n";
    let puzzle = puzzlelab::puzzles::parse(text, Some("script")).unwrap();
    let report = puzzle
        .solve(Algorithm::AStar, &mut NoWatcher, &CancelToken::new())
        .unwrap();
    assert_eq!(report.outcome, Outcome::ScriptError);
    assert!(
        report.stats.max_frontier >= report.stats.frontier,
        "{:?}",
        report.stats
    );
}
