//! A model-based test of the whole app: random sequences of what a user does (open shipped
//! and edited files of every type, switch types, click and drag on the canvas, undo and redo,
//! start, pause, step and stop searches, scrub the timeline, play the solution back, save,
//! answer the unsaved-edits question, race, tick Optimal moves, set a breakpoint, change the
//! theme, restart from the state file; open the Learn panel, take micro-steps, guess in
//! Predict mode, reload a puzzle script with a parameter changed; open and close the search
//! tree and heuristic windows, turn classroom mode on and off, zoom and pan the canvas, each
//! by its typed command), driven through egui_kittest, with invariants checked after every
//! step:
//!
//! - a finished run's figures add up: states expanded + frontier = states reached;
//! - every readout describes the puzzle on screen: the marks are the puzzle's size, a square
//!   named in the status bar or pinned lies on it;
//! - no puzzle's edits are lost: a type's puzzle changes only by an action on that type (an
//!   edit on screen, an open of a file of that type, the answer Discard or Save to the
//!   question about it), never by one on another type;
//! - the Learn panel says nothing false: its moment is the timeline's (its position, its
//!   state `n` the recording's expansion there, named in the caption), a run stopped by the
//!   user is told as stopped, the open list at a settled moment holds exactly the squares
//!   the canvas marks as frontier, and Predict's score counts no more right than tried;
//! - a window's, setting's or canvas's command is applied (the window open or closed, the
//!   mode, the zoom as asked);
//! - the state file round-trips: the app started again from it has every type's puzzle, the
//!   type on screen, the theme and the recent files as they were;
//! - nothing panics.
//!
//! `cargo test` runs 50 sequences of up to 30 steps from a fixed seed (a failure shrinks to
//! the fewest steps that still fail). A longer campaign:
//! `MODEL_CASES=2000 MODEL_SEED=<n> cargo test --release --test it model:: -- --nocapture`
//! (docs: README "Tests").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use puzzlelab::app::learn::LearnCommand;
use puzzlelab::app::{
    AppCommand, CanvasCommand, PuzzleLabApp, SettingCommand, Settings, TimelineCommand,
    UnsavedChoice, ViewCommand, WindowCommand,
};
use puzzlelab::puzzles;
use puzzlelab::puzzles::script::Script;
use puzzlelab::search::Algorithm;
use puzzlelab::ui::CANVAS_LABEL;
use puzzlelab::ui::views::script::Command as ScriptCommand;

use crate::common::gui::harness_at;

mod learn;

/// The shipped puzzles a sequence opens: every type, each quick to search (no pattern
/// database to build, no state space of millions).
const FILES: &[&str] = &[
    "klondike.txt",
    "maze-small.txt",
    "maze-rooms.txt",
    "maze-no-path.txt",
    "maze-terrain.txt",
    "maze-octile-goals.txt",
    "maze-percolation.txt",
    "car-maze.txt",
    "sliding-8-hardest-a.txt",
    "rush-hour-first.txt",
    "rush-hour-walls.txt",
    "klotski-pennant.txt",
    "water-jugs.rhai",
];

/// The algorithms a sequence picks from (one the puzzle does not offer is refused, as the
/// side panel would not offer it).
const ALGORITHMS: &[Algorithm] = &[
    Algorithm::Bfs,
    Algorithm::Dfs,
    Algorithm::Dijkstra,
    Algorithm::AStar,
    Algorithm::Greedy,
    Algorithm::IdaStar,
];

/// One thing a user does.
#[derive(Clone, Debug)]
enum Action {
    /// Puzzles > a shipped file (index into [`FILES`]).
    OpenShipped(usize),
    /// File > Open of a copy of a shipped file in the sequence's folder.
    OpenFile(usize),
    /// A click on the side panel's puzzle type (index into [`puzzles::TYPES`]).
    SelectType(usize),
    /// A click on the canvas at a fraction of its width and height.
    Click(f32, f32),
    /// A drag across the canvas from one fraction to another, in a number of frames.
    Drag(f32, f32, f32, f32, u8),
    Undo,
    Redo,
    Start,
    Pause,
    ExpandOne,
    Stop,
    /// Frames go by (the search runs).
    Frames(u8),
    /// The timeline to a fraction of its length.
    Seek(f32),
    /// The solution's playback to a fraction of its moves.
    ShowMove(f32),
    Play,
    /// File > Save (to the file, or a new one in the sequence's folder).
    Save,
    /// The answer to the unsaved-edits question, if one is asked.
    Answer(u8),
    /// The Optimal moves check box, if the side panel shows it.
    OptimalMoves,
    /// The theme (System, Light, Dark).
    Theme(u8),
    /// Full speed on or off.
    FullSpeed(bool),
    /// An algorithm (index into [`ALGORITHMS`]).
    Algorithm(usize),
    /// A race of breadth-first and A* (or Close race when one is on).
    Race,
    /// The app closed and started again from its state file.
    Restart,
    /// The Learn panel opened (true) or closed.
    Learn(bool),
    /// One micro-step of the Learn panel forward (true) or back.
    MicroStep(bool),
    /// Predict mode on or off.
    Predict(bool),
    /// Predict mode: a guess of the open list's row (a click on the canvas guesses too).
    GuessRow(u8),
    /// A puzzle script on screen reloaded with its first parameter set to its least value
    /// plus this (within its range).
    Reload(u8),
    /// A window beside the canvas opened (true) or closed, by its command: 0 the search
    /// tree, 1 the heuristic.
    Window(u8, bool),
    /// Classroom mode on or off, by its setting's command.
    Classroom(bool),
    /// The canvas zoomed to 1 plus this fraction times 3 (1 fits the puzzle), panned a
    /// fraction of a square, by the canvas's command.
    Zoom(f32, f32),
}

fn step() -> impl Strategy<Value = Action> {
    let frac = 0.0f32..1.0;
    prop_oneof![
        3 => (0..FILES.len()).prop_map(Action::OpenShipped),
        2 => (0..FILES.len()).prop_map(Action::OpenFile),
        2 => (0..puzzles::TYPES.len()).prop_map(Action::SelectType),
        4 => (frac.clone(), frac.clone()).prop_map(|(x, y)| Action::Click(x, y)),
        2 => (frac.clone(), frac.clone(), frac.clone(), frac.clone(), 1u8..5)
            .prop_map(|(a, b, c, d, n)| Action::Drag(a, b, c, d, n)),
        2 => Just(Action::Undo),
        1 => Just(Action::Redo),
        3 => Just(Action::Start),
        1 => Just(Action::Pause),
        1 => Just(Action::ExpandOne),
        1 => Just(Action::Stop),
        3 => (1u8..20).prop_map(Action::Frames),
        1 => frac.clone().prop_map(Action::Seek),
        1 => frac.clone().prop_map(Action::ShowMove),
        1 => Just(Action::Play),
        1 => Just(Action::Save),
        2 => (0u8..3).prop_map(Action::Answer),
        1 => Just(Action::OptimalMoves),
        1 => (0u8..3).prop_map(Action::Theme),
        1 => any::<bool>().prop_map(Action::FullSpeed),
        1 => (0..ALGORITHMS.len()).prop_map(Action::Algorithm),
        1 => Just(Action::Race),
        1 => Just(Action::Restart),
        3 => Just(Action::Learn(true)),
        1 => Just(Action::Learn(false)),
        2 => any::<bool>().prop_map(Action::MicroStep),
        1 => any::<bool>().prop_map(Action::Predict),
        1 => (0u8..4).prop_map(Action::GuessRow),
        1 => (0u8..4).prop_map(Action::Reload),
        1 => (0u8..2, any::<bool>()).prop_map(|(w, on)| Action::Window(w, on)),
        1 => any::<bool>().prop_map(Action::Classroom),
        1 => (frac.clone(), frac).prop_map(|(z, p)| Action::Zoom(z, p)),
    ]
}

/// Each type's puzzle (its JSON) and whether it has unsaved edits, by type name, as the
/// state file would hold them now.
fn puzzles_of(app: &mut PuzzleLabApp) -> BTreeMap<String, (String, bool)> {
    let on_screen = app.puzzle().puzzle_type().name.to_owned();
    let settings = app.settings_to_save().clone();
    let mut out = BTreeMap::new();
    for (name, w) in &settings.workspaces {
        let json = if *name == on_screen {
            app.puzzle().to_json().to_string()
        } else {
            w.puzzle_json.clone()
        };
        out.insert(name.clone(), (json, w.modified));
    }
    out
}

fn shipped(file: &str) -> (&'static puzzles::PuzzleType, &'static puzzles::Shipped) {
    puzzles::shipped()
        .find(|(_, s)| s.file == file)
        .expect("a shipped file")
}

/// One sequence: the app, its state file and folder, and what the checks remember.
struct Sequence {
    h: Harness<'static, PuzzleLabApp>,
    dir: PathBuf,
    state: PathBuf,
    saves: usize,
}

impl Sequence {
    fn new(dir: &Path) -> Self {
        let state = dir.join("work.json");
        let mut h = harness_at(1024.0, 640.0, Settings::default());
        h.state_mut().enable_autosave(state.clone());
        h.step();
        Self {
            h,
            dir: dir.to_path_buf(),
            state,
            saves: 0,
        }
    }

    /// Runs frames until `done` holds or 20 s pass (a slow machine's file threads).
    fn frames_until(&mut self, done: impl Fn(&PuzzleLabApp) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !done(self.h.state()) && Instant::now() < deadline {
            self.h.step();
            std::thread::sleep(Duration::from_millis(1));
        }
        self.h.step();
    }

    fn canvas_pos(&self, x: f32, y: f32) -> Option<eframe::egui::Pos2> {
        let rect = self.h.query_by_label(CANVAS_LABEL)?.rect();
        Some(rect.min + eframe::egui::vec2(x * rect.width(), y * rect.height()))
    }

    fn push(&mut self, command: AppCommand) {
        self.h.state_mut().push(command);
        self.h.step();
        self.h.step();
    }

    /// Does `step`; returns the type whose puzzle it may change, if any.
    fn run(&mut self, step: &Action) -> Touched {
        let on_screen = self.h.state().puzzle().puzzle_type().name.to_owned();
        match *step {
            Action::OpenShipped(i) => {
                let (t, s) = shipped(FILES[i]);
                self.push(AppCommand::OpenShipped(t, s));
                return Touched::Opened(t.name.to_owned());
            }
            Action::OpenFile(i) => {
                let (t, s) = shipped(FILES[i]);
                let path = self.dir.join(format!("copy-{}", s.file));
                if !path.exists() {
                    std::fs::write(&path, s.text).unwrap();
                }
                self.push(AppCommand::OpenPath(path));
                self.frames_until(|app| !app.is_opening());
                return Touched::Opened(t.name.to_owned());
            }
            Action::SelectType(i) => self.push(AppCommand::SelectType(puzzles::TYPES[i])),
            Action::Click(x, y) => {
                if let Some(pos) = self.canvas_pos(x, y) {
                    self.h.hover_at(pos);
                    self.h.step();
                    self.h.drag_at(pos);
                    self.h.step();
                    self.h.drop_at(pos);
                    self.h.step();
                    self.h.step();
                }
                return Touched::OnScreen(on_screen);
            }
            Action::Drag(a, b, c, d, n) => {
                if let (Some(from), Some(to)) = (self.canvas_pos(a, b), self.canvas_pos(c, d)) {
                    // A drag in `n` frames (1: the whole way in one, as a quick hand does).
                    self.h.hover_at(from);
                    self.h.step();
                    self.h.drag_at(from);
                    self.h.step();
                    for i in 1..=n {
                        self.h
                            .drag_at(from + (to - from) * (f32::from(i) / f32::from(n)));
                        self.h.step();
                    }
                    self.h.drop_at(to);
                    self.h.step();
                    self.h.step();
                }
                return Touched::OnScreen(on_screen);
            }
            Action::Undo => {
                self.push(AppCommand::Undo);
                return Touched::OnScreen(on_screen);
            }
            Action::Redo => {
                self.push(AppCommand::Redo);
                return Touched::OnScreen(on_screen);
            }
            Action::Start => self.push(AppCommand::Start),
            Action::Pause => self.push(AppCommand::Pause),
            Action::ExpandOne => self.push(AppCommand::Step),
            Action::Stop => self.push(AppCommand::Stop),
            Action::Frames(n) => {
                for _ in 0..n {
                    self.h.step();
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            Action::Seek(f) => {
                let len = self.h.state().timeline_len();
                let k = (f * len as f32) as usize;
                self.push(AppCommand::Timeline(TimelineCommand::Seek(k)));
            }
            Action::ShowMove(f) => {
                let moves = self.h.state().result().map_or(0, |r| r.moves.len());
                self.push(AppCommand::ShowStep((f * moves as f32) as usize));
            }
            Action::Play => self.push(AppCommand::Play(true)),
            Action::Save => {
                self.saves += 1;
                let path = match self.h.state().settings().path.clone() {
                    Some(path) => {
                        self.push(AppCommand::Save);
                        path
                    }
                    None => {
                        let path = self.dir.join(format!("saved-{}.json", self.saves));
                        self.push(AppCommand::SaveTo(path.clone()));
                        path
                    }
                };
                self.frames_until(|app| !app.is_opening());
                return Touched::Saved(on_screen, path);
            }
            Action::Answer(a) => {
                let asked = self.h.state().unsaved_question().is_some();
                if asked {
                    let choice = match a {
                        0 => UnsavedChoice::Discard,
                        1 => UnsavedChoice::Cancel,
                        _ => UnsavedChoice::Save,
                    };
                    let cancel = matches!(choice, UnsavedChoice::Cancel);
                    self.push(AppCommand::AnswerUnsaved(choice));
                    self.frames_until(|app| !app.is_opening());
                    if !cancel {
                        return Touched::Any;
                    }
                }
            }
            Action::OptimalMoves => {
                if self.h.query_by_label("Optimal moves").is_some() {
                    self.h.get_by_label("Optimal moves").click();
                    self.h.step();
                }
            }
            Action::Theme(t) => {
                // View > Theme, then View again to close the menu.
                let label = puzzlelab::app::Theme::ALL[usize::from(t) % 3].label();
                self.h.get_by_label("View").click();
                self.h.step();
                if self.h.query_by_label(label).is_some() {
                    self.h.get_by_label(label).click();
                    self.h.step();
                }
                if self.h.query_by_label("View").is_some() {
                    self.h.get_by_label("View").click();
                    self.h.step();
                }
            }
            Action::FullSpeed(on) => {
                let speed = self.h.state().settings().speed;
                self.push(AppCommand::SetSpeed(speed, on));
            }
            Action::Algorithm(i) => {
                let algorithm = ALGORITHMS[i];
                if self.h.state().puzzle().algorithms().contains(&algorithm) {
                    self.push(AppCommand::SetAlgorithm(algorithm));
                }
            }
            Action::Race => {
                if self.h.state().race().is_some() {
                    self.push(AppCommand::CloseRace);
                } else {
                    let offered = self.h.state().puzzle().algorithms();
                    for a in [Algorithm::Bfs, Algorithm::AStar] {
                        if offered.contains(&a) {
                            self.push(AppCommand::RaceToggle(a));
                        }
                    }
                    self.push(AppCommand::StartRace);
                }
            }
            Action::Restart => {
                self.restart();
            }
            Action::Learn(on) => {
                self.push(AppCommand::Window(WindowCommand::Learn(on)));
                assert_eq!(self.h.state().windows.learn.open, on, "the Learn panel");
            }
            Action::MicroStep(forward) => {
                self.push(AppCommand::Learn(LearnCommand::MicroStep(forward)));
            }
            Action::Predict(on) => self.push(AppCommand::Learn(LearnCommand::Predict(on))),
            Action::GuessRow(row) => {
                self.push(AppCommand::Learn(LearnCommand::GuessEntry(usize::from(
                    row,
                ))));
            }
            Action::Reload(k) => {
                let Some(script) = self.h.state().model::<Script>() else {
                    return Touched::Nothing;
                };
                let Some(p) = script.parameters().first() else {
                    return Touched::Nothing;
                };
                let value = (p.min + i64::from(k)).min(p.max);
                let command = ScriptCommand::SetParameter(p.name.clone(), value);
                self.push(AppCommand::View(ViewCommand::new(command)));
                self.frames_until(|app| !app.is_opening());
                return Touched::OnScreen(on_screen);
            }
            Action::Window(w, on) => {
                let (command, open): (_, fn(&PuzzleLabApp) -> bool) = if w == 0 {
                    (WindowCommand::TreeWindow(on), |app| {
                        app.windows.tree_window.open
                    })
                } else {
                    (WindowCommand::HeuristicWindow(on), |app| {
                        app.windows.heuristic_window.open
                    })
                };
                self.push(AppCommand::Window(command.clone()));
                assert_eq!(open(self.h.state()), on, "{command:?} applied");
            }
            Action::Classroom(on) => {
                self.push(AppCommand::Setting(SettingCommand::Classroom(on)));
                assert_eq!(self.h.state().settings().classroom, on, "classroom mode");
            }
            Action::Zoom(z, p) => {
                let view = (1.0 + 3.0 * z, eframe::egui::vec2(p - 0.5, 0.5 - p));
                self.push(AppCommand::Canvas(CanvasCommand::Zoom(view.0, view.1)));
                let (zoom, pan) = self.h.state().canvas_zoom();
                assert!(
                    (zoom - view.0).abs() < 1e-6,
                    "the canvas's zoom {zoom}, asked {}",
                    view.0
                );
                assert!(pan.is_finite(), "the canvas's pan {pan:?}");
            }
        }
        Touched::Nothing
    }

    /// Closes the app (its state written, as on exit) and starts it again from the state
    /// file; checks that the file round-trips.
    fn restart(&mut self) {
        let before = puzzles_of(self.h.state_mut());
        let settings = self.h.state_mut().settings_to_save().clone();
        // Written as the autosave writes it (its quiet half second is not waited for).
        let bytes = serde_json::to_vec(&settings).unwrap();
        puzzlelab::puzzles::write_atomically(&self.state, &bytes).unwrap();
        let loaded = puzzlelab::app::autosave::load(&self.state);
        let restored = loaded
            .settings
            .unwrap_or_else(|| panic!("the state file does not load: {:?}", loaded.notice));
        let mut h = harness_at(1024.0, 640.0, restored);
        h.state_mut().enable_autosave(self.state.clone());
        h.step();
        self.h = h;
        let after = puzzles_of(self.h.state_mut());
        assert_eq!(
            before.keys().collect::<Vec<_>>(),
            after.keys().collect::<Vec<_>>(),
            "the types kept"
        );
        for (name, (json, _)) in &before {
            assert_eq!(&after[name].0, json, "{name}'s puzzle after a restart");
        }
        let now = self.h.state_mut().settings_to_save().clone();
        assert_eq!(now.theme, settings.theme, "the theme after a restart");
        assert_eq!(
            now.puzzle_json, settings.puzzle_json,
            "the puzzle on screen after a restart"
        );
        let paths = |s: &Settings| s.recent.iter().map(|r| r.path.clone()).collect::<Vec<_>>();
        assert_eq!(paths(&now), paths(&settings), "the recent files");
    }
}

/// What a step may change of the puzzles.
enum Touched {
    /// No puzzle.
    Nothing,
    /// The puzzle of this type, on screen (an edit or a move played by hand).
    OnScreen(String),
    /// The puzzle of this type, replaced by an open (or, with unsaved edits, not yet: the
    /// question is asked first).
    Opened(String),
    /// The puzzle of this type saved to this file (its unsaved mark goes). An open that
    /// waited for the save (the answer Save to the question, with no file yet) then goes
    /// on: the puzzle may change, its edits being in the file.
    Saved(String, PathBuf),
    /// The answer to the question: the type it was about.
    Any,
}

/// The checks after every step.
fn check(
    seq: &mut Sequence,
    before: &BTreeMap<String, (String, bool)>,
    touched: &Touched,
) -> Result<(), TestCaseError> {
    let app = seq.h.state_mut();
    let after = puzzles_of(app);
    for (name, (json, modified)) in before {
        let Some((now, _)) = after.get(name) else {
            return Err(TestCaseError::fail(format!("{name}'s puzzle is gone")));
        };
        let may_change = match touched {
            Touched::Nothing => false,
            Touched::Saved(t, path) => t == name && saved_holds(path, json),
            Touched::OnScreen(t) => t == name,
            // An open replaces a puzzle without unsaved edits; one with edits stays until
            // the question is answered.
            Touched::Opened(t) => t == name && !modified,
            Touched::Any => true,
        };
        if now != json && !may_change {
            let cut = |s: &str| s.chars().take(300).collect::<String>();
            return Err(TestCaseError::fail(format!(
                "{name}'s puzzle changed by an action on another ({touched:?}): {} became {}",
                cut(json),
                cut(now)
            )));
        }
    }
    let app = seq.h.state();
    // The figures add up at the end of a run of an algorithm that keeps a closed set.
    if let Some(r) = app.result()
        && !app.is_running()
        && matches!(
            r.algorithm,
            Algorithm::Bfs
                | Algorithm::Dijkstra
                | Algorithm::AStar
                | Algorithm::WeightedAStar(_)
                | Algorithm::Greedy
        )
    {
        // The state a run ends its goal test at, the goal returned or the state whose goal
        // test failed, was reached and is on neither set (breadth-first search never queued
        // it, a best-first search took it off).
        let returned = r.solved
            || (r.outcome == puzzlelab::search::Outcome::ScriptError
                && r.message
                    .as_deref()
                    .is_some_and(|m| m.contains("in is_goal")));
        prop_assert_eq!(
            r.stats.expanded + r.stats.frontier + u64::from(returned),
            r.stats.max_closed,
            "expanded + frontier = reached ({:?})",
            r.algorithm
        );
    }
    // Readouts describe the puzzle on screen.
    let (rows, cols) = app.puzzle().dims();
    let marks = app.marks().dims();
    prop_assert!(
        marks == (rows, cols) || marks == (0, 0),
        "marks of {:?} on a puzzle of {:?}",
        marks,
        (rows, cols)
    );
    if let Some((r, c)) = named_square(&app.status().text) {
        prop_assert!(
            r < rows && c < cols,
            "the status names row {}, column {} of a {} x {} puzzle: {}",
            r,
            c,
            rows,
            cols,
            app.status().text
        );
    }
    learn::says_the_truth(seq)
}

/// Whether the file at `path` holds the puzzle whose JSON is `json` (the edits it had were
/// saved there).
fn saved_holds(path: &Path, json: &str) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let Ok(wanted) = serde_json::from_str::<serde_json::Value>(json) else {
        return false;
    };
    puzzles::parse(&text, None).is_ok_and(|p| p.to_json() == wanted)
}

/// The first "row R, column C" in `text`, if any.
fn named_square(text: &str) -> Option<(usize, usize)> {
    let at = text.find("row ")?;
    let rest = &text[at + 4..];
    let r: usize = rest
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    let at = rest.find("column ")?;
    let c: usize = rest[at + 7..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    Some((r, c))
}

impl std::fmt::Debug for Touched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Touched::Nothing => write!(f, "nothing"),
            Touched::OnScreen(t) => write!(f, "an edit of {t}"),
            Touched::Opened(t) => write!(f, "an open of {t}"),
            Touched::Saved(t, _) => write!(f, "a save of {t}"),
            Touched::Any => write!(f, "an answer"),
        }
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `steps` as one sequence, checking the invariants after each and the state file at the
/// end (the shrunk sequences that once failed are kept as tests of their own).
fn replay(steps: &[Action]) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let mut seq = Sequence::new(dir.path());
    for (i, s) in steps.iter().enumerate() {
        let before = puzzles_of(seq.h.state_mut());
        let touched = seq.run(s);
        check(&mut seq, &before, &touched)
            .map_err(|e| TestCaseError::fail(format!("step {i} {s:?}: {e}")))?;
    }
    seq.restart();
    Ok(())
}

/// Found by a campaign of 2,000 sequences: an edited Klondike, its shipped file opened over
/// it (the question asked), a maze file opened meanwhile, the question answered: the maze's
/// puzzle must be kept (the state file once held an empty one for it).
#[test]
fn a_file_of_another_type_opened_while_the_question_waits_is_kept() {
    crate::common::temp_cache();
    replay(&[
        Action::Click(0.8220297, 0.5459544),
        Action::Answer(0),
        Action::OpenShipped(0),
        Action::OpenFile(1),
        Action::Answer(2),
        Action::SelectType(1),
    ])
    .unwrap();
}

/// Found by a campaign: files of three types opened one after the other while searches and
/// edits go on; a save in between must change only the puzzle on screen.
#[test]
fn opens_edits_and_saves_across_three_types_keep_each_puzzle() {
    crate::common::temp_cache();
    replay(&[
        Action::Seek(0.3179834),
        Action::OpenFile(5),
        Action::OpenFile(7),
        Action::ExpandOne,
        Action::Click(0.7220573, 0.0354479),
        Action::Undo,
        Action::Redo,
        Action::Play,
        Action::Theme(0),
        Action::Click(0.7339639, 0.64988774),
        Action::Redo,
        Action::Stop,
        Action::OpenFile(2),
        Action::Save,
        Action::OpenShipped(5),
        Action::Stop,
        Action::Click(0.51548004, 0.44159183),
        Action::Seek(0.51640725),
        Action::OptimalMoves,
        Action::OpenShipped(2),
        Action::Answer(2),
        Action::Undo,
        Action::Stop,
        Action::Race,
        Action::Play,
        Action::Undo,
        Action::OptimalMoves,
    ])
    .unwrap();
}

/// Found by a campaign: an edited maze, a maze file opened over it, the answer Save with
/// no file yet, then File > Save to a new file: the edits are in that file, and the open goes
/// on as asked.
#[test]
fn an_open_that_waits_for_a_save_goes_on_once_the_edits_are_saved() {
    crate::common::temp_cache();
    replay(&[
        Action::SelectType(1),
        Action::Click(0.0, 0.76111025),
        Action::OpenFile(1),
        Action::Answer(2),
        Action::Save,
    ])
    .unwrap();
}

/// A lesson as a teacher gives it, with the Learn panel's invariants checked at every step:
/// breadth-first on the small maze stopped part way and told as stopped, micro-steps back
/// and forward, Predict's guesses by row and by click, the timeline scrubbed, then a puzzle
/// script searched, reloaded with a parameter changed and searched again.
#[test]
fn a_lesson_with_learn_predict_stop_and_a_script_reload_keeps_the_invariants() {
    crate::common::temp_cache();
    let jugs = FILES.iter().position(|f| *f == "water-jugs.rhai").unwrap();
    replay(&[
        Action::OpenShipped(1),
        Action::Learn(true),
        Action::Algorithm(0),
        Action::ExpandOne,
        Action::ExpandOne,
        Action::ExpandOne,
        Action::Stop,
        Action::Frames(5),
        Action::MicroStep(false),
        Action::MicroStep(false),
        Action::MicroStep(true),
        Action::Seek(0.5),
        Action::MicroStep(true),
        Action::Predict(true),
        Action::GuessRow(0),
        Action::Click(0.1, 0.1),
        Action::Frames(5),
        Action::Predict(false),
        Action::FullSpeed(true),
        Action::Algorithm(3),
        Action::Start,
        Action::Frames(10),
        Action::Seek(0.4),
        Action::MicroStep(true),
        Action::OpenShipped(jugs),
        Action::Algorithm(0),
        Action::Start,
        Action::Frames(10),
        Action::Seek(0.5),
        Action::Reload(2),
        Action::Start,
        Action::Frames(10),
        Action::Seek(0.3),
        Action::MicroStep(true),
        Action::Predict(true),
        Action::GuessRow(1),
        Action::Stop,
        Action::Learn(false),
    ])
    .unwrap();
}

#[test]
fn random_sequences_of_user_actions_keep_the_invariants() {
    crate::common::temp_cache();
    let mut runner = TestRunner::new(Config {
        cases: env_number("MODEL_CASES", 50) as u32,
        rng_seed: RngSeed::Fixed(env_number("MODEL_SEED", 20_261_127)),
        failure_persistence: None,
        max_shrink_iters: 200,
        ..Config::default()
    });
    let steps = env_number("MODEL_STEPS", 30) as usize;
    runner
        .run(&proptest::collection::vec(step(), 1..=steps), |steps| {
            replay(&steps)
        })
        .unwrap();
}
