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
    // The menu closes with a click elsewhere; the window in the light theme.
    h.key_press(egui::Key::Escape);
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
    h.state_mut().push(AppCommand::OpenPath(maze.clone()));
    h.run();
    h.state_mut().push(AppCommand::OpenPath(klotski.clone()));
    h.run();
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
        h.state_mut().push(AppCommand::OpenPath(path));
        h.run();
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
        let path = source.trim_end_matches("/*");
        assert!(root.join(path).exists(), "{source} is not in the tree");
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
            h.state_mut().push(AppCommand::OpenPath(path.clone()));
            h.run();
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
    let path = dir.path().join("open.txt");
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
    std::fs::write(&path, text).unwrap();
    let mut h = harness(Settings {
        full_speed: true,
        ..fixed()
    });
    h.state_mut().push(AppCommand::OpenPath(path));
    h.run();
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
