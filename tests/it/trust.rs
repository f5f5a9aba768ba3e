//! Issue 44, "Trust the screen and the disk": every readout describes the puzzle on screen
//! (the hover's distances, the pinned state, the breakpoints, the results' names, the status
//! line), and opening a puzzle never touches another type's work. Driven headless with
//! egui_kittest at 1024 x 640.

use crate::common::gui::*;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::oracle::OracleStatus;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings, UnsavedChoice};
use puzzlelab::puzzles::{self, Cell, Place};
use puzzlelab::runs::breakpoints::Breakpoints;
use puzzlelab::search::Algorithm;

/// The app in a 1024 x 640 window.
fn small_window(settings: Settings) -> Harness<'static, PuzzleLabApp> {
    harness_at(1024.0, 640.0, settings)
}

/// Writes `text` as `name` in `dir` and opens it (as File > Open does), returning its path.
fn open_text(
    h: &mut Harness<'static, PuzzleLabApp>,
    dir: &std::path::Path,
    name: &str,
    text: &str,
) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    open_path(h, path.clone());
    path
}

/// A maze of `rows` x `cols` squares, start top left, goal bottom right, free but for the
/// squares of `walls`.
fn maze_text(rows: usize, cols: usize, walls: &[(usize, usize)]) -> String {
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push(match (r, c) {
                (0, 0) => 'S',
                _ if (r, c) == (rows - 1, cols - 1) => 'G',
                _ if walls.contains(&(r, c)) => '#',
                _ => '.',
            });
        }
        text.push('\n');
    }
    text
}

fn shipped(name: &str) -> (&'static puzzles::PuzzleType, &'static puzzles::Shipped) {
    puzzles::shipped()
        .find(|(_, s)| s.file == name)
        .unwrap_or_else(|| panic!("{name} is shipped"))
}

fn select_type(h: &mut Harness<'static, PuzzleLabApp>, name: &str) {
    let t = puzzles::type_by_name(name).unwrap();
    h.state_mut().push(AppCommand::SelectType(t));
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, name);
}

/// The text of the status bar's readout of the square under the pointer, hovering `cell`.
fn hover_readout(h: &mut Harness<'static, PuzzleLabApp>, cell: Cell) -> String {
    h.hover_at(cell_pos(h, cell));
    h.run();
    let prefix = format!("row {}, column {}", cell.row, cell.col);
    let node = h.get_by_label_contains(&prefix);
    let ak = egui_kittest::kittest::NodeT::accesskit_node(&node);
    ak.label().or_else(|| ak.value()).unwrap_or_default()
}

/// Item 1: tick and untick Optimal moves on a maze, open another maze: the hover says
/// nothing of the first maze's distances (its explored space is dropped with it), and ticked
/// again, the distances are the new maze's.
#[test]
fn the_hover_never_gives_distances_of_a_maze_no_longer_on_screen() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_text(&mut h, dir.path(), "free.txt", &maze_text(12, 12, &[]));
    click_label(&mut h, "Distances");
    h.run();
    click_label(&mut h, "Optimal moves");
    run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
    });
    let free = hover_readout(&mut h, Cell::new(3, 3));
    assert!(free.contains("6 steps from the start"), "{free}");
    click_label(&mut h, "Optimal moves");
    h.run();
    assert!(!h.state().windows.oracle.enabled);
    // Another maze: a wall where the pointer is, the goal walled off.
    let walls: Vec<(usize, usize)> = (0..12).map(|c| (3, c)).collect();
    open_text(&mut h, dir.path(), "walled.txt", &maze_text(12, 12, &walls));
    let wall = hover_readout(&mut h, Cell::new(3, 3));
    assert!(wall.contains("wall"), "{wall}");
    assert!(
        !wall.contains("from the start") && !wall.contains("nearest goal"),
        "the first maze's distances on the second's wall: {wall}"
    );
    assert!(
        h.state().windows.oracle.space().is_none(),
        "the old space is gone"
    );
    // Ticked again: the new maze's own distances (its goal cannot be reached).
    click_label(&mut h, "Optimal moves");
    run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
    });
    let near = hover_readout(&mut h, Cell::new(2, 3));
    assert!(
        near.contains("5 steps from the start, no way to a goal"),
        "{near}"
    );
}

/// Item 4: with an edited, solved grid maze on screen, opening a sliding tile file asks
/// nothing and leaves the maze as it was (its file, edits, undo history and run); a file of
/// the maze's own type still asks, and Discard replaces only the maze.
#[test]
fn opening_a_file_of_another_type_leaves_the_edited_maze_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    let sliding = dir.path().join("eight.txt");
    std::fs::write(&sliding, "1 2 3\n4 5 6\n7 0 8\n").unwrap();
    open_text(&mut h, dir.path(), "mine.txt", &maze_text(6, 6, &[]));
    click_cell(&mut h, Cell::new(2, 2));
    assert!(h.state().is_modified());
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    let solved = h.state().result().unwrap().clone();
    let maze_text_now = h.state().puzzle().to_text();

    open_path(&mut h, sliding.clone());
    assert!(
        h.state().unsaved_question().is_none(),
        "no question about the maze's edits"
    );
    assert_eq!(h.state().puzzle().puzzle_type().name, "sliding");
    assert!(h.state().title().starts_with("eight.txt"));

    select_type(&mut h, "maze");
    assert_eq!(h.state().puzzle().to_text(), maze_text_now);
    assert!(h.state().is_modified());
    assert!(
        h.state().title().starts_with("mine.txt *"),
        "{}",
        h.state().title()
    );
    assert!(h.state().can_undo());
    assert_eq!(h.state().result().map(|r| r.cost), Some(solved.cost));

    // A Klotski layout from the Puzzles menu asks nothing either.
    let (t, pennant) = shipped("klotski-pennant.txt");
    h.state_mut().push(AppCommand::OpenShipped(t, pennant));
    h.run();
    assert!(h.state().unsaved_question().is_none());
    assert_eq!(h.state().puzzle().puzzle_type().name, "klotski");
    select_type(&mut h, "maze");
    assert_eq!(h.state().puzzle().to_text(), maze_text_now);

    // Another maze file asks about this maze's edits; Discard replaces the maze only.
    let other = dir.path().join("other.txt");
    std::fs::write(&other, maze_text(5, 7, &[])).unwrap();
    open_path(&mut h, other);
    assert!(h.state().unsaved_question().is_some());
    h.state_mut()
        .push(AppCommand::AnswerUnsaved(UnsavedChoice::Discard));
    h.run();
    assert!(h.state().title().starts_with("other.txt"));
    assert_eq!(h.state().puzzle().dims(), (5, 7));
    select_type(&mut h, "sliding");
    assert!(h.state().title().starts_with("eight.txt"));
    select_type(&mut h, "klotski");
    assert!(h.state().title().starts_with("klotski-pennant.txt"));
}

/// Items 4 and 13: a Moving AI scenario opened while Klotski is on screen opens in the grid
/// maze's workspace (the Klotski layout stays), and goes on File > Open Recent.
#[test]
fn a_scenario_opens_in_the_mazes_workspace_and_goes_on_open_recent() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    let (t, pennant) = shipped("klotski-pennant.txt");
    h.state_mut().push(AppCommand::OpenShipped(t, pennant));
    h.run();
    let layout = h.state().puzzle().to_text();
    let scen = write_tiny_scenario(dir.path(), false);
    open_path(&mut h, scen.clone());
    assert_eq!(h.state().puzzle().puzzle_type().name, "maze");
    assert_eq!(h.state().puzzle().dims(), (4, 5), "the scenario's map");
    assert!(!h.state().status().is_error, "{:?}", h.state().status());
    let recent = &h.state().settings().recent;
    assert!(
        recent
            .first()
            .is_some_and(|r| r.path.ends_with("tiny.map.scen") && r.type_name == "maze"),
        "{recent:?}"
    );
    select_type(&mut h, "klotski");
    assert_eq!(h.state().puzzle().to_text(), layout);
    // Open Recent opens it again.
    h.state_mut().push(AppCommand::OpenRecent(scen));
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, "maze");
    // Showing a problem moved the map's start and goal: those edits are asked about.
    if h.state().unsaved_question().is_some() {
        h.state_mut()
            .push(AppCommand::AnswerUnsaved(UnsavedChoice::Discard));
        h.run();
    }
    assert!(!h.state().status().is_error, "{:?}", h.state().status());
    h.get_by_label_contains("Scenario tiny.map.scen");
}

/// Whether the details panel shows a pinned state.
fn shows_a_pin(h: &mut Harness<'static, PuzzleLabApp>) -> bool {
    if h.query_by_label("Pause the run when").is_none() {
        click_label(h, "Breakpoints");
        h.run();
    }
    h.query_by_label_contains("Pinned state:").is_some()
}

/// Item 8: breakpoints belong to their type (one set on a maze is not the 8-puzzle's), and a pin to its puzzle: another maze, or a grid made too small for it,
/// drops it, so "Pinned state: row 17, column 9" never shows on Klondike or a 10 x 14 maze.
#[test]
fn breakpoints_stay_with_their_type_and_pins_with_their_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings::default());
    open_text(&mut h, dir.path(), "big.txt", &maze_text(20, 20, &[]));
    let set = Breakpoints {
        pinned: Some(Place::from(Cell::new(17, 9))),
        pinned_expanded: true,
        reexpansion: true,
        ..Breakpoints::default()
    };
    h.state_mut().push(AppCommand::SetBreakpoints(set));
    h.run();
    assert!(shows_a_pin(&mut h));
    h.get_by_label_contains("Pinned state: row 17, column 9");

    select_type(&mut h, "sliding");
    assert_eq!(h.state().runs.breakpoints, Breakpoints::default());
    select_type(&mut h, "klondike");
    assert!(!shows_a_pin(&mut h));
    select_type(&mut h, "maze");
    assert_eq!(h.state().runs.breakpoints, set, "the maze's own, kept");

    // Another maze: the pin goes with the one it was set on; the limit is the type's.
    open_text(&mut h, dir.path(), "small.txt", &maze_text(10, 14, &[]));
    assert_eq!(h.state().runs.breakpoints.pinned, None);
    assert!(h.state().runs.breakpoints.reexpansion);
    assert!(!shows_a_pin(&mut h));

    // A pin outside the grid after a resize is dropped; one inside stays.
    let inside = Breakpoints {
        pinned: Some(Place::from(Cell::new(8, 3))),
        ..set
    };
    h.state_mut().push(AppCommand::SetBreakpoints(inside));
    h.run();
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            puzzlelab::ui::views::maze::Command::Resize(9, 14),
        )));
    h.run();
    assert_eq!(h.state().puzzle().dims(), (9, 14));
    assert_eq!(h.state().runs.breakpoints.pinned, inside.pinned);
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            puzzlelab::ui::views::maze::Command::Resize(8, 14),
        )));
    h.run();
    assert_eq!(h.state().runs.breakpoints.pinned, None);
    assert!(!shows_a_pin(&mut h));

    // "g passes 10": its value field is named for a screen reader (the harness checks).
    let g = Breakpoints {
        g_above: Some(10.0),
        ..h.state().runs.breakpoints
    };
    h.state_mut().push(AppCommand::SetBreakpoints(g));
    h.run();
    h.get_by_label("g passes");
}

/// Item 9: runs on shipped puzzles are filed under their file name and type, in the table and
/// its CSV, not under the type alone.
#[test]
fn results_name_shipped_puzzles_by_their_file_and_type() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    for file in ["maze-small.txt", "maze-terrain.txt"] {
        let (t, s) = shipped(file);
        h.state_mut().push(AppCommand::OpenShipped(t, s));
        h.run();
        assert!(h.state().title().starts_with(file), "{}", h.state().title());
        h.state_mut()
            .push(AppCommand::SetAlgorithm(Algorithm::AStar));
        h.state_mut().push(AppCommand::Start);
        run_until(&mut h, |app| app.result().is_some());
    }
    click_cell(&mut h, Cell::new(0, 1));
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    let rows = h.state_mut().settings_to_save().results.clone();
    let names: Vec<&str> = rows.iter().map(|r| r.puzzle.as_str()).collect();
    assert_eq!(
        names,
        [
            "maze-small.txt (Grid maze)",
            "maze-terrain.txt (Grid maze)",
            "maze-terrain.txt (Grid maze, edited)"
        ]
    );
    let csv = dir.path().join("results.csv");
    h.state_mut().push(AppCommand::ExportResults(csv.clone()));
    h.run();
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.contains("maze-small.txt (Grid maze)"), "{text}");
    assert!(text.contains("maze-terrain.txt (Grid maze)"), "{text}");
    // The first puzzle of a type picked in the side panel is a shipped one too.
    select_type(&mut h, "klotski");
    assert!(
        h.state().title().starts_with("klotski-"),
        "{}",
        h.state().title()
    );
}

/// The palette offers "Export results…" once there are results, and Undo and Redo only when
/// there is something to undo or redo.
#[test]
fn the_palette_lists_undo_only_when_undoable_and_export_results() {
    use puzzlelab::ui::command_palette::entries;
    let labels = |h: &Harness<'static, PuzzleLabApp>| -> Vec<String> {
        entries(h.state()).into_iter().map(|e| e.label).collect()
    };
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    let (t, small) = shipped("maze-small.txt");
    h.state_mut().push(AppCommand::OpenShipped(t, small));
    h.run();
    let fresh = labels(&h);
    assert!(!fresh.iter().any(|l| l == "Undo"), "{fresh:?}");
    assert!(!fresh.iter().any(|l| l == "Redo"), "{fresh:?}");
    assert!(!fresh.iter().any(|l| l == "Export results…"), "{fresh:?}");
    click_cell(&mut h, Cell::new(0, 1));
    assert!(labels(&h).iter().any(|l| l == "Undo"));
    h.state_mut().push(AppCommand::Undo);
    h.run();
    assert!(labels(&h).iter().any(|l| l == "Redo"));
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    assert!(labels(&h).iter().any(|l| l == "Export results…"));
}

/// Close race leaves no line about the race in the status bar.
#[test]
fn close_race_leaves_no_line_about_the_race() {
    let mut h = small_window(Settings {
        full_speed: true,
        ..Settings::default()
    });
    select_type(&mut h, "maze");
    for a in [Algorithm::Bfs, Algorithm::AStar] {
        h.state_mut().push(AppCommand::RaceToggle(a));
    }
    h.state_mut().push(AppCommand::StartRace);
    h.run();
    run_until(&mut h, |app| app.race().is_some_and(|r| !r.is_running()));
    assert!(h.state().status().text.starts_with("Race over"));
    h.state_mut().push(AppCommand::CloseRace);
    h.run();
    let status = &h.state().status().text;
    assert!(
        !status.starts_with("Race over") && !status.starts_with("Racing"),
        "{status}"
    );
}

/// Escape closes an open menu and stops nothing; with no menu open it stops the search.
#[test]
fn escape_closes_an_open_menu() {
    let mut h = small_window(Settings {
        full_speed: false,
        speed: 2.0,
        ..Settings::default()
    });
    h.state_mut().push(AppCommand::Step);
    h.run();
    assert!(h.state().is_running());
    h.get_by_label("File").click();
    h.run();
    assert!(h.query_by_label("Save as…").is_some(), "the menu is open");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.query_by_label("Save as…").is_none(), "the menu closed");
    assert!(h.state().is_running(), "Escape closed the menu only");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!h.state().is_running(), "with no menu open, Escape stops");
}
