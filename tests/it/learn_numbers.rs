//! Issue 56 item 10 at every moment: each square the run reached carries its number and its
//! parent arrow on the canvas (the notes the canvas writes, `AppState::learn_notes`), at the
//! moment a Stop ends and at the goal's too.

use puzzlelab::app::{AppCommand, Mark, PuzzleLabApp, Settings};
use puzzlelab::puzzles::{Cell, Place};
use puzzlelab::search::Algorithm;

use crate::common::gui::{harness, lesson_at_1024_by_640, open_for_learning, run_until};

type Harness = egui_kittest::Harness<'static, PuzzleLabApp>;

/// Every square the canvas marks as reached (on the frontier or closed) has a `g` and, but
/// for the start, a parent next to it; returns how many squares that is.
fn every_reached_square_is_noted(app: &PuzzleLabApp, what: &str) -> usize {
    let marks = app.marks();
    let notes = app.learn_notes();
    let (rows, cols) = marks.dims();
    let mut reached = 0;
    for cell in (0..rows).flat_map(|r| (0..cols).map(move |c| Cell::new(r, c))) {
        if marks.mark(Place::from(cell)) == Mark::None {
            continue;
        }
        reached += 1;
        let note = notes
            .at(cell)
            .unwrap_or_else(|| panic!("{what}: {cell:?} is reached and carries nothing"));
        assert!(note.g.is_some(), "{what}: {cell:?} has no g: {note:?}");
        if cell != Cell::new(0, 0) {
            let parent = note.parent.expect("a parent");
            let steps = parent.cell.row.abs_diff(cell.row) + parent.cell.col.abs_diff(cell.col);
            assert_eq!(steps, 1, "{what}: {cell:?}'s parent {parent:?}");
        }
    }
    reached
}

/// A breadth-first run on the small maze with the Learn panel open.
fn bfs_on_the_small_maze(settings: Settings) -> Harness {
    let mut h = harness(settings);
    open_for_learning(&mut h, "maze-small.txt", Algorithm::Bfs);
    h
}

/// Item 10 at the goal: breadth-first tests a state when it is generated, and its last
/// expansion ends at the goal, part way through its successors. The goal is reached (the
/// figures count it with the frontier): it is marked, and carries its `g` (the path's
/// length) and the arrow to the square before it on the path, as every square reached.
#[test]
fn the_goal_a_breadth_first_run_ends_at_carries_its_number_and_parent() {
    let mut h = bfs_on_the_small_maze(Settings {
        full_speed: true,
        ..Settings::default()
    });
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let app = h.state();
    let report = app.result().unwrap().clone();
    assert!(report.solved);
    let (_, m) = app.learn_moment().unwrap();
    assert_eq!(m.position, m.len, "the run's last moment");
    let reached = every_reached_square_is_noted(app, "the goal's moment");
    // Every state reached: the expanded, the frontier's and the goal returned.
    assert_eq!(
        reached as u64,
        report.stats.expanded + report.stats.frontier + 1
    );
    let notes = app.learn_notes();
    let goal = report.path.last().unwrap().cell;
    let before = report.path[report.path.len() - 2];
    let note = notes.at(goal).expect("the goal carries a note");
    assert_eq!(note.g, Some(report.cost as f32));
    assert_eq!(note.parent, Some(before));
    assert_eq!(app.marks().mark(Place::from(goal)), Mark::Frontier);
    // The open list of the end is the frontier the figures count, without the goal: the
    // pseudo-code's goal test returns its path before it is put on (the walk's W4).
    let list = app.learn_open_list().unwrap();
    assert_eq!(list.len() as u64, report.stats.frontier);
    assert!(list.iter().all(|e| e.place.map(|p| p.cell) != Some(goal)));
}

/// Item 10 at a Stop: stepped, then stopped, the run's last moment (and every one before)
/// has every square reached noted.
#[test]
fn every_square_reached_is_noted_at_the_moment_a_stop_ends() {
    let mut h = bfs_on_the_small_maze(Settings::default());
    for p in 1..=6 {
        h.state_mut().push(AppCommand::Step);
        run_until(&mut h, |app| {
            app.learn_moment().is_some_and(|(_, m)| m.position >= p)
        });
    }
    h.state_mut().push(AppCommand::Stop);
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let (_, m) = h.state().learn_moment().unwrap();
    assert_eq!(m.step, puzzlelab::search::pseudocode::Step::Stopped);
    let len = m.len;
    assert!(every_reached_square_is_noted(h.state(), "the Stop's moment") > len);
    for p in (0..len).rev() {
        h.state_mut()
            .push(AppCommand::Timeline(puzzlelab::app::TimelineCommand::Seek(
                p,
            )));
        h.run();
        every_reached_square_is_noted(h.state(), &format!("moment {p}"));
    }
}

/// Item 2 of the Learn walk: the open list's depth and parent columns are not cut at
/// 1024 x 640 in classroom mode, on a maze and on the 8-puzzle (whose states are written
/// as boards): the columns' titles and every row's depth and parent lie inside the window
/// (the Learn panel's right edge).
#[test]
fn the_open_lists_depth_and_parent_columns_fit_a_lesson_at_1024_by_640() {
    use egui_kittest::kittest::Queryable as _;
    for (file, algorithm, at) in [
        ("maze-rooms.txt", Algorithm::AStar, 40),
        ("maze-octile-goals.txt", Algorithm::AStar, 30),
        ("maze-random-40.json", Algorithm::AStar, 200),
        ("sliding-8-easy-12.txt", Algorithm::AStar, 6),
        ("sliding-8-easy-12.txt", Algorithm::AStar, 30),
        // Moments of four digits: "n of moment 1234".
        ("sliding-8-hardest-a.txt", Algorithm::AStar, 1500),
    ] {
        let mut h = lesson_at_1024_by_640(file, algorithm, Some(at));
        if let Ok(dir) = std::env::var("LESSON_SHOT") {
            let name = format!("{file}-{at}");
            h.render()
                .unwrap()
                .save(format!("{dir}/{name}.png"))
                .unwrap();
        }
        let window = h.ctx.content_rect();
        let list = h.state().learn_open_list().expect("an open list");
        assert!(list.len() >= 2, "{file}: {list:?}");
        // The Learn panel, at the window's right, ends its content its margin (8 points)
        // and the vertical scroll bar's room (8) short of the window's edge: text past
        // that is cut (a label's rect is not clipped).
        let panel_left = h.get_by_label("Learn").rect().left();
        let room = window.right() - 16.0;
        let uncut = |r: eframe::egui::Rect, text: &str| {
            assert!(
                r.left() >= panel_left && r.right() <= room,
                "{file}: {text:?} cut: {r:?} in a window of {window:?}"
            );
        };
        for title in ["depth", "parent"] {
            uncut(h.get_by_label(title).rect(), title);
        }
        for entry in list.iter().take(8) {
            let parent = match entry.parent {
                Some(p) => puzzlelab::app::learn::square(p),
                None => format!("n of moment {}", entry.parent_expansion.unwrap() + 1),
            };
            for node in h.query_all_by_label(&parent) {
                uncut(node.rect(), &parent);
            }
        }
    }
}

/// Item 3 of the Learn walk (issue 56 item 9 with a script): in classroom mode at
/// 1024 x 640 with the Learn panel and the script editor open, the canvas keeps at least
/// 40 % of the window's width: the two take turns beside it, a switch under the canvas
/// says which; with the Learn panel shown, its code and open list fit beside the canvas,
/// none cut or over it.
#[test]
fn a_lesson_on_a_script_keeps_the_canvas_at_40_percent_of_1024_by_640() {
    use egui_kittest::kittest::Queryable as _;
    use puzzlelab::ui::CANVAS_LABEL;
    let mut h = crate::common::gui::harness_at(
        1024.0,
        640.0,
        Settings {
            full_speed: true,
            ..Settings::default()
        },
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("water-jugs.rhai");
    std::fs::copy("puzzles/water-jugs.rhai", &path).unwrap();
    crate::common::gui::open_path(&mut h, path);
    h.state_mut().push(AppCommand::SetAlgorithm(Algorithm::Bfs));
    crate::common::gui::click_label(&mut h, "Edit script");
    h.run_steps(4);
    assert!(h.query_by_label("Script editor").is_some());
    h.state_mut().windows.learn.open = true;
    h.state_mut().push(AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some());
    h.state_mut()
        .push(AppCommand::Timeline(puzzlelab::app::TimelineCommand::Seek(
            3,
        )));
    h.run();
    h.key_press(eframe::egui::Key::F2);
    h.run();
    h.run();
    assert!(h.state().settings().classroom);
    let window = h.ctx.content_rect();
    let canvas_keeps_its_share = |h: &Harness, what: &str| {
        let canvas = h.get_by_label(CANVAS_LABEL).rect();
        assert!(
            canvas.width() >= 0.4 * window.width(),
            "{what}: the canvas {canvas:?} in a window of {window:?}"
        );
        canvas
    };
    if let Ok(dir) = std::env::var("LESSON_SHOT") {
        h.render()
            .unwrap()
            .save(format!("{dir}/script-learn.png"))
            .unwrap();
    }
    let canvas = canvas_keeps_its_share(&h, "the Learn panel shown");
    // The Learn panel's code and open list beside the canvas, inside the window.
    let code = puzzlelab::search::pseudocode::pseudocode(Algorithm::Bfs);
    for (i, line) in code.lines.iter().enumerate() {
        let r = h.get_by_label(&format!("{:>2}  {line}", i + 1)).rect();
        assert!(
            window.contains_rect(r) && !r.intersects(canvas),
            "{line}: {r:?}"
        );
    }
    let open = h.get_by_label_contains("Open list: ").rect();
    assert!(
        window.contains_rect(open) && !open.intersects(canvas),
        "{open:?}"
    );
    // The switch shows the editor instead, and the Learn panel again.
    h.get_by_label("Editor").click();
    h.run();
    h.run();
    assert!(h.query_by_label("Script editor").is_some());
    assert!(h.query_by_label_contains("Open list: ").is_none());
    if let Ok(dir) = std::env::var("LESSON_SHOT") {
        h.render()
            .unwrap()
            .save(format!("{dir}/script-editor.png"))
            .unwrap();
    }
    canvas_keeps_its_share(&h, "the editor shown");
    h.get_by_label("Learn").click();
    h.run();
    h.run();
    h.get_by_label_contains("Open list: ");
    canvas_keeps_its_share(&h, "the Learn panel again");
}
