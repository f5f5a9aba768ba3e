//! The desktop app around the workbench (issue 30): the theme chosen in the View menu and
//! File > Open Recent, each kept across restarts.

use crate::common::gui::*;

use eframe::egui;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, MAX_RECENT, PuzzleLabApp, Settings, Theme};

fn fixed() -> Settings {
    // A fixed memory limit: the default depends on the machine's memory.
    Settings {
        memory_limit_mib: Some(4096),
        ..Settings::default()
    }
}

/// The View menu's Light and Dark set egui's theme at once, and the choice comes back after
/// a restart; the main window looks right in both (snapshots).
#[test]
fn the_theme_is_chosen_in_the_view_menu_and_kept() {
    let mut h = harness(fixed());
    h.run();
    assert_eq!(h.state().settings().theme, Theme::System);
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Light").click();
    h.run();
    assert_eq!(h.state().settings().theme, Theme::Light);
    assert_eq!(h.ctx.theme(), egui::Theme::Light);
    // The menu closes with Escape; the window in the light theme, the pointer resting on
    // the status bar (where the menu put it is no part of the picture).
    h.key_press(egui::Key::Escape);
    h.hover_at(egui::pos2(1100.0, 790.0));
    h.run();
    h.snapshot("main_window_light");

    let kept = h.state_mut().settings_to_save().clone();
    assert_eq!(kept.theme, Theme::Light);
    let mut restarted = harness(kept);
    restarted.run();
    assert_eq!(restarted.ctx.theme(), egui::Theme::Light);
    let mut results = egui_kittest::SnapshotResults::new();
    results.extend_harness(&mut h);
    results.extend_harness(&mut restarted);

    let mut dark = harness(Settings {
        theme: Theme::Dark,
        ..fixed()
    });
    dark.run();
    assert_eq!(dark.ctx.theme(), egui::Theme::Dark);
    dark.snapshot("main_window_dark");
    results.extend_harness(&mut dark);
}

/// Files opened and saved come first in File > Open Recent with their type (once each, at
/// most ten); one clicked opens again; one that is gone is taken off with a message; Clear
/// list empties it; the list comes back after a restart.
#[test]
fn open_recent_lists_the_files_opened_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    let maze = dir.path().join("a-maze.txt");
    std::fs::write(&maze, "S..\n.#.\n..G\n").unwrap();
    let klotski = dir.path().join("classic.txt");
    let shipped = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/klotski-classic.txt"),
    )
    .unwrap();
    std::fs::write(&klotski, shipped).unwrap();

    let mut h = harness(fixed());
    h.run();
    open_path(&mut h, maze.clone());
    open_path(&mut h, klotski.clone());
    let recent = |h: &egui_kittest::Harness<'static, PuzzleLabApp>| {
        h.state()
            .settings()
            .recent
            .iter()
            .map(|r| (r.path.file_name().unwrap().to_owned(), r.type_name.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        recent(&h),
        [
            ("classic.txt".into(), "klotski".to_owned()),
            ("a-maze.txt".into(), "maze".to_owned())
        ]
    );
    // Saved under a new name: first, once.
    let saved = dir.path().join("saved.txt");
    h.state_mut().push(AppCommand::SaveTo(saved.clone()));
    h.run();
    assert_eq!(recent(&h)[0], ("saved.txt".into(), "klotski".to_owned()));
    assert_eq!(recent(&h).len(), 3);

    // The menu lists them by name and type; a click opens the maze again.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open Recent").click();
    h.run();
    h.get_by_label("a-maze.txt — Grid maze").click();
    // The file is read on a background thread: wait for it as `open_path` does (a bounded
    // `run` ran out of steps on a loaded CI machine).
    h.step();
    run_until(&mut h, |app| !app.status().text.starts_with("Opening"));
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, "maze");
    assert_eq!(recent(&h)[0], ("a-maze.txt".into(), "maze".to_owned()));

    // A file that is gone: taken off, with a message; the puzzle on screen stays.
    std::fs::remove_file(&klotski).unwrap();
    h.state_mut().push(AppCommand::OpenRecent(
        std::path::absolute(&klotski).unwrap(),
    ));
    h.run();
    assert!(h.state().status().is_error);
    assert!(
        h.state().status().text.contains("no longer there"),
        "{}",
        h.state().status().text
    );
    assert!(!recent(&h).iter().any(|(name, _)| name == "classic.txt"));
    assert_eq!(h.state().puzzle().puzzle_type().name, "maze");

    // Kept across a restart.
    let kept = h.state_mut().settings_to_save().clone();
    let restarted = PuzzleLabApp::new(kept);
    assert_eq!(restarted.settings().recent.len(), 2);

    // At most ten, newest first.
    for i in 0..12 {
        let path = dir.path().join(format!("m{i}.txt"));
        std::fs::write(&path, "S.\n.G\n").unwrap();
        open_path(&mut h, path);
        assert!(
            h.state().status().text.starts_with("Opened"),
            "{}",
            h.state().status().text
        );
    }
    assert_eq!(recent(&h).len(), MAX_RECENT);
    assert_eq!(recent(&h)[0].0, "m11.txt");

    h.state_mut().push(AppCommand::ClearRecent);
    h.run();
    assert!(recent(&h).is_empty());
}

/// The launcher file names the app as the window does (its class is the app id), opens a
/// file given to it, and says which files it reads; every icon size decodes at its size;
/// every file the Debian package installs is in the tree. (`desktop-file-validate` passes
/// on it too: see the closing note of issue 30.)
#[test]
fn the_launcher_the_icons_and_the_package_agree() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let launcher = std::fs::read_to_string(root.join("assets/puzzlelab.desktop")).unwrap();
    let lines: Vec<&str> = launcher.lines().collect();
    assert_eq!(lines.first(), Some(&"[Desktop Entry]"));
    for wanted in [
        "Type=Application",
        "Exec=puzzlelab %f",
        "Icon=puzzlelab",
        "Terminal=false",
    ] {
        assert!(lines.contains(&wanted), "{wanted} missing");
    }
    assert!(lines.contains(&format!("StartupWMClass={}", puzzlelab::ui::APP_ID).as_str()));
    let mime = lines
        .iter()
        .find_map(|l| l.strip_prefix("MimeType="))
        .expect("MimeType");
    assert!(mime.contains("text/plain") && mime.contains("application/json"));

    for side in [32, 64, 128, 256] {
        let png = std::fs::read(root.join(format!("assets/icon/puzzlelab-{side}.png"))).unwrap();
        let icon = eframe::icon_data::from_png_bytes(&png).expect("a PNG");
        assert_eq!((icon.width, icon.height), (side, side));
    }
    let window_icon = eframe::icon_data::from_png_bytes(puzzlelab::ui::ICON_PNG).unwrap();
    assert_eq!(window_icon.width, 256);

    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let deb = &manifest[manifest
        .find("[package.metadata.deb]")
        .expect("deb metadata")..];
    let mut assets = 0;
    for line in deb.lines().filter(|l| l.trim_start().starts_with("[\"")) {
        let source = line.trim_start().trim_start_matches("[\"");
        let source = &source[..source.find('"').unwrap()];
        assets += 1;
        if source.starts_with("target/") {
            continue; // built by `cargo build --release`
        }
        // A glob (`puzzles/*`, `docs/*.md`) names files of a folder: one at least.
        match source.rsplit_once("/*") {
            Some((folder, suffix)) => {
                let matches = std::fs::read_dir(root.join(folder))
                    .map(|entries| {
                        entries
                            .flatten()
                            .filter(|e| e.file_name().to_string_lossy().ends_with(suffix))
                            .count()
                    })
                    .unwrap_or(0);
                assert!(matches > 0, "{source} matches nothing in the tree");
            }
            None => assert!(root.join(source).exists(), "{source} is not in the tree"),
        }
    }
    assert!(assets >= 8, "{assets} assets");
}

/// The whole app in a window of 1200 x 800 points at `scale` physical pixels a point.
fn scaled(scale: f32, settings: Settings) -> egui_kittest::Harness<'static, PuzzleLabApp> {
    egui_kittest::Harness::builder()
        .with_size(egui::vec2(1200.0, 800.0))
        .with_pixels_per_point(scale)
        .with_max_steps(160)
        .build_ui_state(
            |ui, app: &mut PuzzleLabApp| app.frame_ui(ui),
            PuzzleLabApp::new(settings),
        )
}

/// At scale factors 1, 1.5 and 2 a click lands on the square under the pointer (on a small
/// grid drawn square by square and on a large one drawn as a texture), and the window at 2
/// looks right (snapshot).
#[test]
fn high_dpi_scales_draw_and_take_clicks_where_they_are() {
    use puzzlelab::puzzles::Cell;
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.txt");
    let mut text = String::new();
    for _ in 0..12 {
        text.push_str(&".".repeat(12));
        text.push('\n');
    }
    std::fs::write(&small, &text).unwrap();
    let big = dir.path().join("big.txt");
    let mut text = String::new();
    for _ in 0..300 {
        text.push_str(&".".repeat(300));
        text.push('\n');
    }
    std::fs::write(&big, &text).unwrap();
    let mut results = egui_kittest::SnapshotResults::new();
    for scale in [1.0, 1.5, 2.0] {
        for (path, cell) in [(&small, Cell::new(4, 7)), (&big, Cell::new(150, 77))] {
            let mut h = scaled(scale, fixed());
            h.run();
            open_path(&mut h, path.clone());
            assert_eq!(
                h.state().puzzle().dims().0,
                if path == &small { 12 } else { 300 }
            );
            click_cell(&mut h, cell);
            let text = h.state().puzzle().to_text();
            let row = text.lines().nth(cell.row).unwrap();
            assert_eq!(
                row.chars().nth(cell.col),
                Some('#'),
                "scale {scale}: the square clicked is a wall"
            );
            assert_eq!(
                text.matches('#').count(),
                1,
                "scale {scale}: that square only"
            );
            results.extend_harness(&mut h);
        }
    }
    // The first puzzle (no file path in the menu bar, which would change from run to run).
    let mut h = scaled(2.0, fixed());
    h.run();
    h.snapshot("main_window_scale_2");
    results.extend_harness(&mut h);
}

/// The canvas tells a screen reader (AccessKit) what is on it: the puzzle, its size, its
/// start and goal, and the search's state, updated as a run goes; the timeline's symbol
/// buttons have names.
#[test]
fn the_canvas_describes_the_puzzle_and_the_search_to_a_screen_reader() {
    use egui_kittest::kittest::NodeT as _;
    let dir = tempfile::tempdir().unwrap();
    let path = write_open_maze(dir.path());
    let mut h = harness(Settings {
        full_speed: true,
        ..fixed()
    });
    open_path(&mut h, path);
    let description = |h: &egui_kittest::Harness<'static, PuzzleLabApp>| {
        h.get_by_label(puzzlelab::ui::CANVAS_LABEL)
            .accesskit_node()
            .description()
            .unwrap_or_default()
    };
    assert_eq!(
        description(&h),
        "Grid maze, 12 by 12 squares; start at row 0, column 0; goal at row 11, column 11. \
         Search not started."
    );
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let said = description(&h);
    assert!(
        said.contains("Solution found: 22 moves, cost 22;") && said.contains("states expanded"),
        "{said}"
    );
    for (_, name) in puzzlelab::ui::TIMELINE_BUTTONS {
        assert!(h.query_by_label(name).is_some(), "{name}");
    }
}

/// An edit is written to the state file on its own (frames only, no more input), and the
/// file holds it; a new app started from that file has the edit, and can undo it.
#[test]
fn an_edit_is_kept_in_the_state_file_without_being_saved() {
    use puzzlelab::puzzles::Cell;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("work.json");
    let mut h = harness(fixed());
    h.state_mut().enable_autosave(state.clone());
    open_path(&mut h, write_open_maze(dir.path()));
    click_cell(&mut h, Cell::new(3, 4));
    let edited = h.state().puzzle().to_text();
    assert!(edited.contains('#'));
    // Frames go on (as the window's repaints do) until the write is done.
    run_until(&mut h, |app| !app.autosave_pending());
    let loaded = puzzlelab::app::autosave::load(&state);
    let settings = loaded.settings.expect("the state file parses");
    let mut restarted = PuzzleLabApp::new(settings);
    assert_eq!(restarted.puzzle().to_text(), edited);
    assert!(loaded.notice.is_none());
    // The undo history came back too: Undo takes the wall off.
    assert!(restarted.can_undo());
    restarted.apply(AppCommand::Undo);
    assert!(!restarted.puzzle().to_text().contains('#'));
}

/// A 12 x 12 open maze from the top-left corner to the bottom-right, written in `dir`.
fn write_open_maze(dir: &std::path::Path) -> std::path::PathBuf {
    let mut text = String::new();
    for r in 0..12 {
        for c in 0..12 {
            text.push(match (r, c) {
                (0, 0) => 'S',
                (11, 11) => 'G',
                _ => '.',
            });
        }
        text.push('\n');
    }
    let path = dir.join("open.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// A state file that does not parse is set aside beside it, whole, and the app is told to
/// start afresh with a message; the next start finds no file and says nothing.
#[test]
fn a_corrupt_state_file_is_set_aside_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("work.json");
    std::fs::write(&state, b"{\"puzzle_json\": \"torn").unwrap();
    let loaded = puzzlelab::app::autosave::load(&state);
    assert!(loaded.settings.is_none());
    let notice = loaded.notice.expect("a message");
    assert!(notice.contains("set aside"), "{notice}");
    assert!(!state.exists());
    let aside: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("work.json.bad-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(
        std::fs::read(dir.path().join(&aside[0])).unwrap(),
        b"{\"puzzle_json\": \"torn"
    );
    let again = puzzlelab::app::autosave::load(&state);
    assert!(again.settings.is_none() && again.notice.is_none());
}

/// The environment variable that makes [`autosave_writer_child`] run (in a child process).
const CHILD_VAR: &str = "PUZZLELAB_TEST_AUTOSAVE_CHILD";

/// Run by [`a_write_killed_midway_leaves_the_old_or_the_new_file_whole`] in a child
/// process: writes two large states in turn to the file named by [`CHILD_VAR`], forever
/// (it is killed).
#[test]
#[ignore = "run as a child process by a_write_killed_midway_leaves_the_old_or_the_new_file_whole"]
fn autosave_writer_child() {
    let Some(path) = std::env::var_os(CHILD_VAR) else {
        return;
    };
    let path = std::path::PathBuf::from(path);
    let states = [vec![b'a'; 8 << 20], vec![b'b'; 8 << 20]];
    for i in 0.. {
        puzzlelab::puzzles::write_atomically(&path, &states[i % 2]).unwrap();
    }
}

/// A process killed (SIGKILL) at random moments while writing the state file again and
/// again leaves it whole: all of the old state or all of the new, never part of one.
#[cfg(unix)]
#[test]
fn a_write_killed_midway_leaves_the_old_or_the_new_file_whole() {
    use rand::{Rng, SeedableRng};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("work.json");
    let mut rng = rand::rngs::StdRng::seed_from_u64(30);
    let exe = std::env::current_exe().unwrap();
    for round in 0..6 {
        let mut child = std::process::Command::new(&exe)
            .args([
                "desktop::autosave_writer_child",
                "--exact",
                "--ignored",
                "--test-threads=1",
            ])
            .env(CHILD_VAR, &path)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Until it has written once, then a little more.
        let started = std::time::Instant::now();
        while !path.exists() && started.elapsed() < std::time::Duration::from_secs(30) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        std::thread::sleep(std::time::Duration::from_millis(rng.random_range(1..60)));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), 8 << 20, "round {round}: a torn file");
        assert!(
            bytes.iter().all(|&b| b == bytes[0]),
            "round {round}: two states mixed"
        );
    }
    // The next start reads the last whole state and clears the cut-short temporary files.
    let loaded = puzzlelab::app::autosave::load(&path);
    assert!(
        loaded.notice.is_some(),
        "8 MiB of one letter is no state: set aside"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".") && n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Opens the palette with Ctrl+K (or Ctrl+Shift+P) and types `query` into it.
fn palette(h: &mut egui_kittest::Harness<'static, PuzzleLabApp>, shift_p: bool, query: &str) {
    if shift_p {
        h.key_press_modifiers(
            egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
            egui::Key::P,
        );
    } else {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::K);
    }
    h.run();
    assert!(puzzlelab::ui::command_palette::is_open(&h.ctx));
    // The search field has the keyboard from the start.
    h.event(egui::Event::Text(query.to_owned()));
    h.run();
}

/// Walk report W22: File > New's items are in the palette too: "new puzzle script" then
/// Enter opens the template in the script editor, as File > New puzzle script does (a
/// lesson with the side panel folded has no other way to it).
#[test]
fn the_command_palette_offers_file_new_items() {
    use puzzlelab::ui::command_palette::{entries, filter};
    let mut h = harness(fixed());
    h.run();
    let best = filter(entries(h.state()), "new puzzle script");
    assert_eq!(
        best.first().map(|e| e.label.as_str()),
        Some("New puzzle script")
    );
    palette(&mut h, false, "new puzzle script");
    h.key_press(egui::Key::Enter);
    for _ in 0..4 {
        h.run();
    }
    assert_eq!(h.state().puzzle().puzzle_type().name, "script");
    assert!(
        h.state().status().text.starts_with("New puzzle script"),
        "{}",
        h.state().status().text
    );
}

/// The command palette, keyboard only: Ctrl+K and "A*" then Enter chooses A*; Ctrl+Shift+P
/// and "Klotski" then Enter brings Klotski; Down chooses the next match; Escape closes
/// without running anything; a query that matches nothing says so.
#[test]
fn the_command_palette_finds_and_runs_commands_by_keyboard() {
    use puzzlelab::search::Algorithm;
    use puzzlelab::ui::command_palette::{entries, filter, is_open};
    let mut h = harness(fixed());
    h.run();
    // Open the grid maze, whose algorithms include A*.
    palette(&mut h, false, "puzzle type grid");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, "maze");
    assert!(!is_open(&h.ctx));

    palette(&mut h, false, "A*");
    let best = filter(entries(h.state()), "A*");
    assert_eq!(best[0].label, "Algorithm: A*");
    // The field's abbreviations find their algorithm first.
    for (query, label) in [
        ("BFS", "Algorithm: Breadth-first (BFS)"),
        ("DFS", "Algorithm: Depth-first (backtracking, DFS)"),
        ("ucs", "Algorithm: Dijkstra (uniform cost, UCS)"),
    ] {
        let best = filter(entries(h.state()), query);
        assert_eq!(
            best.first().map(|e| e.label.as_str()),
            Some(label),
            "{query}"
        );
    }
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().algorithm(), Algorithm::AStar);
    assert!(!is_open(&h.ctx));

    palette(&mut h, true, "Klotski");
    let first = &filter(entries(h.state()), "Klotski")[0].label;
    assert!(first.contains("Klotski"), "{first}");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, "klotski");

    // Down, then Enter: the second match runs (themes: System, Light, Dark).
    palette(&mut h, false, "theme");
    h.key_press(egui::Key::ArrowDown);
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().settings().theme, Theme::Light);

    // Escape closes and runs nothing.
    palette(&mut h, false, "theme: dark");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!is_open(&h.ctx));
    assert_eq!(h.state().settings().theme, Theme::Light);

    palette(&mut h, false, "qqqqzzzz");
    assert!(h.query_by_label("No command matches.").is_some());
    assert!(filter(entries(h.state()), "qqqqzzzz").is_empty());
    h.key_press(egui::Key::Escape);
    h.run();
    // Every entry names what it does; the list holds the types, the algorithms, the
    // shipped puzzles and the shortcuts of the toolbar.
    let all = entries(h.state());
    assert!(
        all.iter()
            .any(|e| e.label == "Start the search" && e.shortcut == "Space")
    );
    assert!(
        all.iter()
            .any(|e| e.label.starts_with("Open shipped: Rush Hour"))
    );
    assert!(all.iter().any(|e| e.label == "Puzzle type: Sliding tiles"));
}

/// The labels of the controls Tab reaches from the start, in order, until it comes back to
/// the first (at most `most` presses).
fn tab_order(h: &mut egui_kittest::Harness<'static, PuzzleLabApp>, most: usize) -> Vec<String> {
    use egui_kittest::kittest::NodeT as _;
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..most {
        h.key_press(egui::Key::Tab);
        h.run();
        let Some(node) = h.query_by(|n| n.is_focused()) else {
            seen.push(String::new());
            continue;
        };
        let ak = node.accesskit_node();
        let label = ak.label().or_else(|| ak.value()).unwrap_or_default();
        if seen.first() == Some(&label) {
            break;
        }
        seen.push(label);
    }
    seen
}

/// Tab goes through the window's controls, each once and each with a name, panel by panel
/// (egui orders focus as the panels are laid out): the menus, the toolbar (Start first),
/// the side panel's puzzle types and tools, the details panel, then the playback bar and
/// the canvas; disabled controls are skipped.
#[test]
fn tab_reaches_the_controls_in_a_sensible_order() {
    let mut h = harness(fixed());
    h.run();
    let order = tab_order(&mut h, 120);
    let at = |label: &str| {
        order
            .iter()
            .position(|l| l == label)
            .unwrap_or_else(|| panic!("Tab never reaches {label:?}: {order:#?}"))
    };
    assert!(
        order.iter().all(|l| !l.is_empty()),
        "a focused control without a name: {order:#?}"
    );
    let panels = [
        "File",
        "Start",
        "Full speed",
        "Back from the Klondike",
        "Rush Hour",
        "Optimal moves",
        "Legend",
        "Results (0 runs)",
        "moves/s",
        puzzlelab::ui::CANVAS_LABEL,
    ];
    for pair in panels.windows(2) {
        assert!(at(pair[0]) < at(pair[1]), "{pair:?}: {order:#?}");
    }
    // Pause and the playback buttons are disabled before a run: not reached.
    assert!(!order.iter().any(|l| l == "Pause" || l == "Play"));
    let mut distinct = order.clone();
    distinct.sort();
    distinct.dedup();
    // The two panels' resize handles share a name.
    assert_eq!(distinct.len() + 1, order.len(), "{order:#?}");
}

/// Whether the last frame asked the window to close (as its close button does).
fn asked_to_close(h: &egui_kittest::Harness<'static, PuzzleLabApp>) -> bool {
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .is_some_and(|v| {
            v.commands
                .iter()
                .any(|c| matches!(c, egui::ViewportCommand::Close))
        })
}

/// File > Quit and Ctrl+Q close the window (issue 44: the File menu had no Quit).
#[test]
fn file_quit_and_ctrl_q_close_the_window() {
    let mut h = harness(Settings::default());
    h.step();
    assert!(!asked_to_close(&h));
    h.get_by_label("File").click();
    h.run();
    h.get_by_label_contains("Quit").click();
    h.step();
    assert!(asked_to_close(&h), "File > Quit");
    let mut h = harness(Settings::default());
    h.run();
    // The key alone in its frame (kittest runs the frames of several queued events in one
    // step and keeps the last one's output).
    h.event(egui::Event::Key {
        key: egui::Key::Q,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::COMMAND,
    });
    h.step();
    assert!(asked_to_close(&h), "Ctrl+Q");
}

/// The window's X11 class names the app in both parts (issue 56, item 14f): egui-winit
/// passes an app id to winit as the class with an empty instance, so on X11 the window is
/// made without one (winit then names both parts after the program), while Wayland gets
/// the app id, and eframe's storage folder keeps it. Winit's own rule picks the backend.
#[test]
fn the_window_class_has_an_instance_on_x11_and_the_app_id_on_wayland() {
    use puzzlelab::ui::{APP_ID, opens_on_wayland, window_viewport};
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    assert!(!opens_on_wayland(env(&[("DISPLAY", ":0")])));
    assert!(!opens_on_wayland(env(&[
        ("DISPLAY", ":0"),
        ("WAYLAND_DISPLAY", "")
    ])));
    assert!(opens_on_wayland(env(&[("WAYLAND_DISPLAY", "wayland-0")])));
    assert!(opens_on_wayland(env(&[
        ("DISPLAY", ":0"),
        ("WAYLAND_SOCKET", "3")
    ])));

    let viewport = eframe::egui::ViewportBuilder::default().with_app_id(APP_ID);
    assert_eq!(window_viewport(viewport.clone(), false).app_id, None);
    assert_eq!(
        window_viewport(viewport, true).app_id.as_deref(),
        Some(APP_ID)
    );
}
