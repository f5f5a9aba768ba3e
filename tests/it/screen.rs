//! Issue 28: a screen that stays put. The canvas keeps its place while runs start and end
//! and bars, fields and labels come and go; keys reach the widget meant for them.

use crate::common::gui::*;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, DialogKind, PuzzleLabApp, Settings, TimelineCommand};
use puzzlelab::runs::recording::Quantity;
use puzzlelab::search::{Algorithm, Weight};
use puzzlelab::ui::{CANVAS_LABEL, SCRUBBER_LABEL};

/// The whole app in a window of `w` x `h` points.
fn sized(w: f32, h: f32, settings: Settings) -> Harness<'static, PuzzleLabApp> {
    harness_at(w, h, settings)
}

fn full_speed() -> Settings {
    Settings {
        full_speed: true,
        ..Settings::default()
    }
}

fn canvas(h: &Harness<'static, PuzzleLabApp>) -> egui::Rect {
    h.get_by_label(CANVAS_LABEL).rect()
}

/// Starts a search of the puzzle on screen and runs frames until it ends.
fn solve(h: &mut Harness<'static, PuzzleLabApp>) {
    h.state_mut().push(AppCommand::Start);
    h.step();
    run_until(h, |a| a.result().is_some());
    h.run();
}

/// Runs `change`, a frame, and checks the canvas is where it was.
fn stays(
    h: &mut Harness<'static, PuzzleLabApp>,
    what: &str,
    change: impl FnOnce(&mut Harness<'static, PuzzleLabApp>),
) {
    let before = canvas(h);
    change(h);
    h.run();
    assert_eq!(canvas(h), before, "the canvas moved: {what}");
}

#[test]
fn the_canvas_keeps_its_place_while_runs_end_and_bars_come_and_go() {
    for (w, ht) in [(1024.0, 640.0), (800.0, 600.0), (1400.0, 900.0)] {
        let mut h = sized(w, ht, full_speed());
        h.run();
        stays(
            &mut h,
            "a run ends and its timeline has something to show",
            solve,
        );
        assert!(h.state().timeline().is_some());
        stays(&mut h, "the colour bar appears", |h| {
            h.state_mut()
                .push(AppCommand::Timeline(TimelineCommand::Heat(Some(
                    Quantity::G,
                ))))
        });
        stays(&mut h, "only the branch", |h| {
            h.state_mut()
                .push(AppCommand::Timeline(TimelineCommand::BranchOnly(true)))
        });
        stays(&mut h, "scrubbed to the start", |h| {
            h.state_mut()
                .push(AppCommand::Timeline(TimelineCommand::Seek(0)))
        });
        stays(&mut h, "the colour bar goes", |h| {
            h.state_mut()
                .push(AppCommand::Timeline(TimelineCommand::Heat(None)))
        });
        stays(&mut h, "the path field opens", |h| {
            h.state_mut().push(AppCommand::AskPath(DialogKind::Open))
        });
        stays(&mut h, "the path field closes", |h| {
            h.state_mut().push(AppCommand::CancelPath)
        });
        stays(&mut h, "'optimal' becomes 'not optimal'", |h| {
            h.state_mut()
                .push(AppCommand::SetAlgorithm(Algorithm::Greedy))
        });
        stays(&mut h, "weighted A* and its weight", |h| {
            let w = Weight::new(3.0).unwrap();
            h.state_mut()
                .push(AppCommand::SetAlgorithm(Algorithm::WeightedAStar(w)))
        });
        stays(&mut h, "the speed changes its number's length", |h| {
            h.state_mut().push(AppCommand::SetSpeed(100_000.0, true))
        });
        stays(&mut h, "a new run starts (the timeline empties)", |h| {
            h.state_mut().push(AppCommand::SetSpeed(2.0, false));
            h.state_mut().push(AppCommand::Start);
            h.step();
            assert!(h.state().is_running());
        });
        h.state_mut().push(AppCommand::Stop);
        h.run();
    }
}

#[test]
fn the_canvas_keeps_its_place_while_the_oracle_talks_and_a_solution_plays() {
    use puzzlelab::app::oracle::OracleStatus;
    use puzzlelab::puzzles::oracle::Distance;
    let mut h = sized(1024.0, 640.0, full_speed());
    h.run();
    h.get_by_label("Klotski (sliding blocks)").click();
    h.run();
    stays(&mut h, "the oracle gets ready", |h| {
        // Below the list of types at 640 points high: scrolled to first.
        h.get_by_label("Optimal moves").scroll_to_me();
        h.run();
        h.get_by_label("Optimal moves").click();
        run_until(h, |app| {
            matches!(
                app.windows.oracle.status(),
                OracleStatus::Ready(Distance::Exact(_))
            )
        });
    });
    stays(&mut h, "hints and every move's arrow", |h| {
        h.get_by_label("Show all").click();
        h.get_by_label("Hint").click();
    });
    stays(&mut h, "a solution found", solve);
    stays(&mut h, "the playback's third move", |h| {
        h.state_mut().push(AppCommand::ShowStep(3))
    });
    let n = h.state().result().unwrap().moves.len();
    stays(&mut h, "the playback's end", |h| {
        h.state_mut().push(AppCommand::ShowStep(n))
    });
}

#[test]
fn the_path_field_has_the_keyboard_its_text_selected_and_escape_closes_it() {
    let mut h = sized(1024.0, 640.0, full_speed());
    h.run();
    let zoom = h.state().canvas_zoom();
    h.state_mut().push(AppCommand::AskPath(DialogKind::Open));
    h.run();
    assert!(
        h.get_by_label("File path:").is_focused(),
        "the field has the keyboard"
    );
    assert!(
        !h.state().status().is_error,
        "the modal says why, not a red status"
    );
    // Letters typed replace the folder put in the field; none reaches a shortcut
    // (S steps a search, F fits the view, Space starts).
    for key in [egui::Key::S, egui::Key::F, egui::Key::Space] {
        h.key_press(key);
    }
    h.event(egui::Event::Text("sf x".into()));
    h.run();
    assert!(!h.state().is_running(), "no search started or stepped");
    assert_eq!(h.state().marks().stats.expanded, 0);
    assert_eq!(h.state().canvas_zoom(), zoom);
    assert_eq!(
        h.get_by_label("File path:").value().as_deref(),
        Some("sf x"),
        "typing replaced the selected folder"
    );
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(h.query_by_label("File path:").is_none(), "Escape closes it");
    assert!(!h.state().status().is_error);
    // With the field gone, the keys are shortcuts again.
    h.key_press(egui::Key::S);
    h.run();
    assert!(h.state().is_running() || h.state().marks().stats.expanded > 0);
}

#[test]
fn every_key_press_counts_even_several_in_one_frame() {
    let mut h = sized(1024.0, 640.0, full_speed());
    h.run();
    solve(&mut h);
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Seek(0)));
    h.run();
    // Five quick presses of ] arrive in one frame: five expansions on.
    for _ in 0..5 {
        h.key_press(egui::Key::CloseBracket);
    }
    h.run();
    assert_eq!(h.state().timeline().unwrap().target, 5);
    for _ in 0..2 {
        h.key_press(egui::Key::OpenBracket);
    }
    h.run();
    assert_eq!(h.state().timeline().unwrap().target, 3);
    // Three presses of S in one frame: three states expanded.
    // (Step from idle starts a paused search and expands one state.)
    h.state_mut().push(AppCommand::Step);
    run_until(&mut h, |app| app.marks().stats.expanded == 1);
    assert!(h.state().is_paused());
    let before = 1;
    for _ in 0..3 {
        h.key_press(egui::Key::S);
    }
    run_until(&mut h, |app| app.marks().stats.expanded >= before + 3);
    h.run();
    assert_eq!(h.state().marks().stats.expanded, before + 3);
}

#[test]
fn closing_a_race_brings_back_the_run_on_screen_and_its_timeline() {
    let mut h = sized(1200.0, 800.0, full_speed());
    h.run();
    solve(&mut h);
    let len = h.state().timeline_len();
    assert!(len > 0);
    for a in [Algorithm::Bfs, Algorithm::Dfs] {
        h.state_mut().push(AppCommand::RaceToggle(a));
    }
    h.state_mut().push(AppCommand::StartRace);
    h.step();
    run_until(&mut h, |app| app.race().is_some_and(|r| !r.is_running()));
    h.get_by_label("Close race").click();
    h.run();
    assert!(h.state().race().is_none());
    assert_eq!(h.state().timeline_len(), len, "the run's own timeline");
    let timeline = h.state().timeline().expect("the run's timeline is back");
    assert_eq!(timeline.target, len, "at the run's end");
    assert!(timeline.track.is_some(), "with its tools (one run's track)");
    h.get_by_label(&format!("expansion {len} of {len}"));
    h.get_by_label("Colour by");
}

#[test]
fn the_timeline_is_there_before_any_run_disabled_with_its_handle_at_the_start() {
    let mut h = sized(1024.0, 640.0, full_speed());
    h.run();
    assert!(h.state().timeline().is_none());
    h.get_by_label("no run recorded");
    let scrubber = h.get_by_label(SCRUBBER_LABEL);
    assert_eq!(scrubber.value(), None::<String>.or(scrubber.value()));
    // Dragging the disabled scrubber does nothing.
    let rect = scrubber.rect();
    h.drag_at(rect.center());
    h.run();
    h.drop_at(rect.right_center());
    h.run();
    assert!(h.state().timeline().is_none());
}

#[test]
fn the_state_space_window_shows_its_hover_readout_and_whole_graph_in_view() {
    use puzzlelab::app::oracle::OracleStatus;
    use puzzlelab::puzzles::oracle::Distance;
    use puzzlelab::ui::space_window::GRAPH_LABEL;
    for (w, ht) in [(1024.0, 640.0), (800.0, 600.0)] {
        let mut h = sized(w, ht, Settings::default());
        h.run();
        h.get_by_label("Car maze").click();
        h.run();
        click_label(&mut h, "play by hand");
        h.run();
        click_label(&mut h, "Optimal moves");
        run_until(&mut h, |app| {
            matches!(
                app.windows.oracle.status(),
                OracleStatus::Ready(Distance::Exact(_))
            )
        });
        click_label(&mut h, "State space...");
        run_until(&mut h, |app| app.windows.space_window.layout.is_some());
        h.run();
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w, ht));
        let graph = h.get_by_label(GRAPH_LABEL).rect();
        assert!(
            screen.contains_rect(graph),
            "graph {graph:?} cut at {w}x{ht}"
        );
        let hint = h
            .get_by_label("Hover a state of the graph for its distances; click to open it.")
            .rect();
        // Sweep the pointer over the graph until it is over a state.
        let mut found = None;
        'sweep: for i in 0..24 {
            for j in 0..12 {
                let p = graph.min
                    + egui::vec2(
                        graph.width() * (i as f32 + 0.5) / 24.0,
                        graph.height() * (j as f32 + 0.5) / 12.0,
                    );
                h.hover_at(p);
                h.run();
                if let Some(node) = h.query_by_label_contains("Click to open it.") {
                    found = Some(node.rect());
                    break 'sweep;
                }
            }
        }
        let readout = found.expect("hovering the graph names a state");
        assert_eq!(readout.top(), hint.top(), "in the row kept for it");
        assert!(
            screen.contains_rect(readout),
            "readout {readout:?} out of view"
        );
        assert!(readout.bottom() <= graph.top(), "above the graph");
    }
}

#[test]
fn the_grid_maze_distance_map_has_a_colour_bar_hover_distances_and_keeps_its_tick() {
    use puzzlelab::app::oracle::OracleStatus;
    use puzzlelab::puzzles::maze::Maze;
    let mut h = sized(1200.0, 900.0, Settings::default());
    h.run();
    h.get_by_label("Grid maze").click();
    h.run();
    let maze = h
        .state()
        .puzzle()
        .as_any()
        .downcast_ref::<Maze>()
        .unwrap()
        .clone();
    let start = maze.start();
    let goal = maze.goals()[0];
    let pixel = |h: &mut Harness<'static, PuzzleLabApp>, cell| {
        let image = h.render().expect("rendered");
        let p = cell_pos(h, cell);
        *image.get_pixel(p.x as u32, p.y as u32)
    };
    let (start_before, goal_before) = (pixel(&mut h, start), pixel(&mut h, goal));
    click_label(&mut h, "Distances");
    h.run();
    click_label(&mut h, "Optimal moves");
    run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
    });
    click_label(&mut h, "Distance map");
    h.run();
    h.get_by_label("distance map colour bar");
    // The start and the goal keep their colours under the map.
    assert_eq!(pixel(&mut h, start), start_before);
    assert_eq!(pixel(&mut h, goal), goal_before);
    // Hovering a free square names its distances, as the Klondike's squares do.
    let free = (0..maze.rows())
        .flat_map(|r| (0..maze.cols()).map(move |c| puzzlelab::puzzles::Cell::new(r, c)))
        .find(|&c| c != start && !maze.goals().contains(&c) && !maze.is_blocked(c))
        .unwrap();
    assert!(h.query_by_label_contains("to the nearest goal").is_none());
    h.hover_at(cell_pos(&h, free));
    h.run();
    h.get_by_label_contains("to the nearest goal");
    // A switch to another type and back: the tick, the map and its bar are still there.
    h.get_by_label("Back from the Klondike").click();
    h.run();
    h.get_by_label("Grid maze").click();
    run_until(&mut h, |app| {
        matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
    });
    h.run();
    assert!(h.state().windows.oracle.show_map);
    h.get_by_label("distance map colour bar");
}

#[test]
fn the_status_bar_keeps_its_two_texts_apart() {
    let mut h = sized(800.0, 600.0, full_speed());
    h.run();
    h.get_by_label("Klotski (sliding blocks)").click();
    h.run();
    solve(&mut h);
    let status = h.state().status().text.clone();
    assert!(status.len() > 80, "a long status: {status}");
    let canvas = canvas(&h);
    h.hover_at(canvas.center());
    h.run();
    let readout = h.get_by_label_contains("row ").rect();
    let line = h.get_by_label_contains("Solved").rect();
    assert!(
        !line.intersects(readout),
        "status {line:?} over readout {readout:?}"
    );
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0));
    assert!(screen.contains_rect(line) && screen.contains_rect(readout));
}

#[test]
fn boards_of_pieces_draw_empty_squares_dim_and_show_their_exit() {
    use puzzlelab::puzzles::Cell;
    let mut h = sized(1024.0, 640.0, Settings::default());
    let path = |f: &str| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(f)
    };
    h.state_mut()
        .push(AppCommand::OpenPath(path("klotski-classic.txt")));
    h.run();
    let image = h.render().unwrap();
    let at = |image: &image::RgbaImage, p: egui::Pos2| *image.get_pixel(p.x as u32, p.y as u32);
    let luma = |c: image::Rgba<u8>| c.0[..3].iter().map(|&v| u32::from(v)).sum::<u32>();
    // The classic layout's empty squares are (4, 1) and (4, 2); (0, 0) is a block.
    let empty = at(&image, cell_pos(&h, Cell::new(4, 1)));
    let block = at(&image, cell_pos(&h, Cell::new(0, 0)));
    assert!(
        luma(empty) < luma(block),
        "empty {empty:?} brighter than block {block:?}"
    );
    assert!(luma(empty) < 3 * 120, "a dim tray: {empty:?}");
    // Empty squares are inset as the pieces are: the gap between two of them shows.
    let (a, b) = (cell_pos(&h, Cell::new(4, 1)), cell_pos(&h, Cell::new(4, 2)));
    let gap = at(&image, a + (b - a) / 2.0);
    assert_ne!(gap, empty, "a line between empty squares");

    // Rush Hour: the exit, outside the right edge at the red car's row (row 2).
    h.state_mut()
        .push(AppCommand::OpenPath(path("rush-hour-walls.txt")));
    h.run();
    let image = h.render().unwrap();
    let side = cell_pos(&h, Cell::new(0, 1)).x - cell_pos(&h, Cell::new(0, 0)).x;
    let edge = cell_pos(&h, Cell::new(2, 5)) + egui::vec2(side * 0.5, 0.0);
    let exit = at(&image, edge + egui::vec2(side * 0.09, side * 0.3));
    let [r, g, b, _] = exit.0;
    assert!(
        r > 150 && g < 130 && b < 60,
        "the exit bar is orange: {exit:?}"
    );
    let beside = at(&image, edge + egui::vec2(side * 0.09, side * 1.3));
    assert_ne!(beside, exit, "only at the red car's row");
}

#[test]
fn on_a_big_grid_the_start_marker_is_grabbed_where_it_is_drawn_and_not_clipped() {
    use puzzlelab::puzzles::Cell;
    use puzzlelab::puzzles::maze::Maze;
    let dir = tempfile::tempdir().unwrap();
    let n = 200;
    let mut text = String::new();
    for r in 0..n {
        for c in 0..n {
            text.push(match (r, c) {
                (0, 0) => 'S',
                (r, c) if r == n - 1 && c == n - 1 => 'G',
                _ => '.',
            });
        }
        text.push('\n');
    }
    let path = dir.path().join("big.txt");
    std::fs::write(&path, text).unwrap();
    let mut h = sized(1024.0, 640.0, Settings::default());
    h.state_mut().push(AppCommand::OpenPath(path));
    h.run();
    h.run();
    assert!(puzzlelab::ui::canvas_is_texture(&h.ctx));
    let maze = |h: &Harness<'static, PuzzleLabApp>| {
        h.state()
            .puzzle()
            .as_any()
            .downcast_ref::<Maze>()
            .unwrap()
            .clone()
    };
    let canvas = canvas(&h);
    let start = cell_pos(&h, Cell::new(0, 0));
    let end = cell_pos(&h, Cell::new(n - 1, n - 1));
    // The markers (4 points across at least) lie wholly inside the canvas.
    assert!(start.x - 4.0 >= canvas.left() && start.y - 4.0 >= canvas.top());
    assert!(end.x + 4.0 <= canvas.right() && end.y + 4.0 <= canvas.bottom());
    // A press 3 points from the start's centre (on its marker, off its tiny square) and a
    // drag move the start; nothing is painted.
    let side = cell_pos(&h, Cell::new(0, 1)).x - start.x;
    assert!(side < 3.0, "squares of {side} points");
    let press = start + egui::vec2(3.0, 2.0);
    let to = cell_pos(&h, Cell::new(50, 60));
    drag_between(&mut h, press, to, 4);
    let after = maze(&h);
    assert_ne!(after.start(), Cell::new(0, 0), "the start moved");
    assert!(
        (0..n).all(|r| (0..n).all(|c| !after.is_blocked(Cell::new(r, c)))),
        "no wall painted"
    );
}

#[test]
fn a_fast_runs_plots_come_from_its_recording_and_idastar_draws_no_wedges() {
    let mut h = sized(1200.0, 900.0, full_speed());
    h.run();
    h.get_by_label("Grid maze").click();
    h.run();
    h.state_mut().push(AppCommand::SetAlgorithm(Algorithm::Bfs));
    solve(&mut h);
    let expanded = h.state().result().unwrap().stats.expanded as f64;
    let track = h.state().timeline().unwrap().track.as_ref().unwrap();
    let sizes = track.sizes();
    assert!(
        sizes.len() > 10,
        "a curve, not one snapshot's dot: {} rows",
        sizes.len()
    );
    assert_eq!(sizes.first().unwrap()[0], 0.0);
    assert_eq!(sizes.last().unwrap()[0], expanded);
    assert!(
        sizes.windows(2).all(|w| w[0][2] <= w[1][2]),
        "the closed set only grows"
    );
    // IDA*: no line of frontier against expansions (a saw of wedges), its bars instead.
    h.get_by_label("Sliding tiles").click();
    h.run();
    h.state_mut()
        .push(AppCommand::SetAlgorithm(Algorithm::IdaStar));
    solve(&mut h);
    h.get_by_label_contains("IDA* keeps no open list or closed set");
}

/// Presses on `from`, moves straight to `to` in one frame, and releases there.
fn fast_drag(
    h: &mut Harness<'static, PuzzleLabApp>,
    from: puzzlelab::puzzles::Cell,
    to: puzzlelab::puzzles::Cell,
) {
    let (a, b) = (cell_pos(h, from), cell_pos(h, to));
    drag_between(h, a, b, 1);
}

/// The rows and columns of the piece lettered `letter` on the picture.
fn piece_cells(h: &Harness<'static, PuzzleLabApp>, letter: char) -> Vec<(usize, usize)> {
    let picture = h.state().puzzle().picture();
    (0..picture.squares.len())
        .filter(|&i| {
            matches!(picture.squares[i],
                puzzlelab::puzzles::Square::Piece { letter: l, .. } if l == letter as u8)
        })
        .map(|i| (i / picture.cols, i % picture.cols))
        .collect()
}

#[test]
fn a_dragged_piece_follows_the_pointer_along_its_legal_slides() {
    use puzzlelab::puzzles::Cell;
    let path = |f: &str| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(f)
    };
    let mut h = sized(1200.0, 900.0, Settings::default());
    h.state_mut()
        .push(AppCommand::OpenPath(path("klotski-classic.txt")));
    h.run();
    // The small block i at (4, 0) goes right; then the tall block d (rows 2-3, column 0),
    // grabbed at its top and dragged one square down, follows: rows 3-4.
    fast_drag(&mut h, Cell::new(4, 0), Cell::new(4, 1));
    assert_eq!(piece_cells(&h, 'i'), vec![(4, 1)]);
    assert_eq!(piece_cells(&h, 'd'), vec![(2, 0), (3, 0)]);
    fast_drag(&mut h, Cell::new(2, 0), Cell::new(3, 0));
    assert_eq!(
        piece_cells(&h, 'd'),
        vec![(3, 0), (4, 0)],
        "grabbed at its top"
    );
    // Dragged past where it can go, it stops at the last free square.
    fast_drag(&mut h, Cell::new(4, 1), Cell::new(4, 3));
    assert_eq!(piece_cells(&h, 'i'), vec![(4, 2)], "j blocks the way");

    // Rush Hour: car D (column 5, rows 1-2) dragged 3 squares down in one go moves 3.
    h.state_mut()
        .push(AppCommand::OpenPath(path("rush-hour-walls.txt")));
    h.run();
    if h.state().unsaved_question().is_some() {
        h.get_by_label("Discard").click();
        h.run();
    }
    assert_eq!(piece_cells(&h, 'D'), vec![(1, 5), (2, 5)]);
    fast_drag(&mut h, Cell::new(1, 5), Cell::new(4, 5));
    assert_eq!(piece_cells(&h, 'D'), vec![(4, 5), (5, 5)]);
}

#[test]
fn seed_fields_show_the_seed_of_the_board_on_screen_and_words_a_newcomer_knows() {
    use puzzlelab::ui::views::sliding::Command as SlidingCommand;
    let mut h = sized(1200.0, 900.0, Settings::default());
    h.run();
    h.get_by_label("Sliding tiles").click();
    h.run();
    let seed = h.state().settings().seed;
    let scramble = |h: &mut Harness<'static, PuzzleLabApp>| {
        h.state_mut()
            .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
                SlidingCommand::ScrambleUniform,
            )));
        h.run();
    };
    scramble(&mut h);
    // The field still shows the seed that made the board ...
    assert_eq!(h.state().settings().seed, seed);
    assert!(h.state().status().text.contains(&format!("seed {seed}")));
    let first = h.state().puzzle().picture().squares;
    // ... and asking again makes a new board, from the next seed, which the field shows.
    scramble(&mut h);
    assert_eq!(h.state().settings().seed, seed + 1);
    assert_ne!(h.state().puzzle().picture().squares, first);
    // The blank is the blank, not "tile 0".
    let picture = h.state().puzzle().picture();
    let blank = (0..picture.squares.len())
        .find(|&i| {
            matches!(
                picture.squares[i],
                puzzlelab::puzzles::Square::Void | puzzlelab::puzzles::Square::Free
            )
        })
        .map(|i| puzzlelab::puzzles::Cell::new(i / picture.cols, i % picture.cols))
        .expect("a blank");
    h.hover_at(cell_pos(&h, blank));
    h.run();
    assert!(
        h.query_all_by_label_contains(" · the blank").count() == 1,
        "the status bar names the blank"
    );
    assert!(h.query_by_label_contains("tile 0").is_none());
    // No "(seeds/000)" in the help, which means nothing to a user.
    assert!(h.query_by_label_contains("seeds/").is_none());
    h.get_by_label("Equal f: expand");
}

#[test]
fn a_generated_mazes_runs_are_not_filed_as_the_file_it_replaced() {
    use puzzlelab::ui::views::maze::Command as MazeCommand;
    let mut h = sized(1200.0, 900.0, full_speed());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/maze-small.txt");
    h.state_mut().push(AppCommand::OpenPath(path));
    h.run();
    solve(&mut h);
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            MazeCommand::Generate,
        )));
    h.run();
    solve(&mut h);
    let rows = h.state_mut().settings_to_save().results.clone();
    let names: Vec<&str> = rows.iter().map(|r| r.puzzle.as_str()).collect();
    assert_eq!(
        names[names.len() - 2..],
        [
            "maze-small.txt (Grid maze)",
            "maze-small.txt (Grid maze, edited)"
        ]
    );
}

#[test]
fn after_a_resize_the_wrapped_toolbar_is_drawn_and_takes_the_first_click() {
    let mut h = sized(1400.0, 800.0, full_speed());
    h.run();
    let wide = h.get_by_label("Details").rect();
    // Narrower: the toolbar wraps onto a second row, laid out in the very first frame.
    h.set_size(egui::vec2(700.0, 800.0));
    h.step();
    let narrow = h.get_by_label("Details").rect();
    assert!(
        narrow.top() > wide.top(),
        "wrapped onto a second row: {narrow:?}"
    );
    let canvas = canvas(&h);
    assert!(
        canvas.top() >= narrow.bottom(),
        "the canvas is below the toolbar"
    );
    // ... and drawn in that frame, not clipped to the one row the toolbar had before.
    let image = h.render().unwrap();
    let colours: std::collections::HashSet<_> = (narrow.left() as u32..narrow.right() as u32)
        .flat_map(|x| (narrow.top() as u32..narrow.bottom() as u32).map(move |y| (x, y)))
        .map(|(x, y)| image.get_pixel(x, y).0)
        .collect();
    assert!(
        colours.len() > 2,
        "the Details button is drawn: {} colours",
        colours.len()
    );
    // The first click after the resize lands on the widget drawn there.
    h.get_by_label("Start").click();
    h.step();
    h.step();
    assert!(h.state().is_running() || h.state().result().is_some());
}

#[test]
fn the_gif_window_opens_over_the_canvas_and_the_results_say_their_outcome() {
    let mut h = sized(1024.0, 640.0, full_speed());
    h.run();
    h.get_by_label("Grid maze").click();
    h.run();
    solve(&mut h);
    let canvas = canvas(&h);
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Export search as GIF…").click();
    h.run();
    h.run();
    let title = h.get_by_label("Export search as GIF").rect();
    assert!(
        title.top() >= canvas.top(),
        "the window {title:?} opens over the canvas {canvas:?}, not the menu bar"
    );
    h.key_press(egui::Key::Escape);
    h.run();
    let node = h.get_by_label_contains("Results (");
    let header = egui_kittest::kittest::NodeT::accesskit_node(&node)
        .label()
        .unwrap_or_default()
        .to_owned();
    click_label(&mut h, &header);
    h.run();
    h.get_by_label("outcome");
    h.get_by_label("solved, optimal");
}

#[test]
fn the_scrubbers_track_keeps_its_length_as_its_label_changes() {
    let mut h = sized(1024.0, 640.0, full_speed());
    h.run();
    solve(&mut h);
    let len = h.state().timeline_len();
    assert!(len >= 10, "a run of {len} expansions");
    // (The slider and its handle both carry the label: the widest is the track.)
    let track = |h: &Harness<'static, PuzzleLabApp>| {
        h.query_all_by_label(SCRUBBER_LABEL)
            .map(|n| n.rect())
            .max_by(|a, b| a.width().total_cmp(&b.width()))
            .unwrap()
    };
    let at_end = track(&h);
    for position in [0, 7, len / 2, len] {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(position)));
        h.run();
        h.get_by_label(&format!("expansion {position} of {len}"));
        assert_eq!(track(&h), at_end, "at expansion {position}");
    }
}

#[test]
fn a_long_solutions_move_counter_is_wide_enough_for_its_text() {
    // A serpentine maze: a path of over a thousand moves, so "move N of N" is longer
    // than "no solution yet".
    let dir = tempfile::tempdir().unwrap();
    let n = 61;
    let mut text = String::new();
    for r in 0..n {
        for c in 0..n {
            let open = r % 2 == 0 || (r % 4 == 1 && c == n - 1) || (r % 4 == 3 && c == 0);
            text.push(match (r, c) {
                (0, 0) => 'S',
                (r, c) if r == n - 1 && c == n - 1 => 'G',
                _ if open => '.',
                _ => '#',
            });
        }
        text.push('\n');
    }
    let path = dir.path().join("snake.txt");
    std::fs::write(&path, text).unwrap();
    let mut h = sized(1400.0, 900.0, full_speed());
    h.state_mut().push(AppCommand::OpenPath(path));
    h.run();
    h.state_mut().push(AppCommand::SetAlgorithm(Algorithm::Bfs));
    solve(&mut h);
    let total = h.state().result().unwrap().moves.len();
    assert!(total >= 1000, "{total} moves");
    let label = format!("move {total} of {total}");
    let font = egui::TextStyle::Body.resolve(&h.ctx.global_style());
    let needed = h.ctx.fonts_mut(|f| {
        f.layout_no_wrap(label.clone(), font, egui::Color32::WHITE)
            .size()
            .x
    });
    let shown = h.get_by_label(&label).rect();
    assert!(
        shown.width() >= needed,
        "'{label}' needs {needed} points, has {}",
        shown.width()
    );
}

/// Defect 7: a big maze whose squares are smaller than a pixel is drawn as a whole, not as
/// patches. A 121 x 2047 maze (passages on odd rows and columns, walls between them, as a
/// generated maze has) at 800 x 600: one pixel a square sampled every few squares hits
/// mostly walls in some columns of the screen and mostly passages in others, so the maze
/// broke into light and dark bands. Drawn from a copy shrunk by block means, every column
/// of the screen shows about the maze's mean.
#[test]
fn a_big_maze_smaller_than_a_pixel_a_square_is_drawn_whole_not_in_patches() {
    use puzzlelab::puzzles::Cell;
    use rand::{Rng as _, SeedableRng as _, rngs::StdRng};
    let (rows, cols) = (121, 2047);
    let mut rng = StdRng::seed_from_u64(7);
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push(match (r, c) {
                (1, 1) => 'S',
                (119, 2045) => 'G',
                (r, c) if r % 2 == 1 && c % 2 == 1 => '.',
                (r, c) if r % 2 == 0 && c % 2 == 0 => '#',
                (0, _) | (120, _) | (_, 0) | (_, 2046) => '#',
                _ if rng.random_bool(0.5) => '#',
                _ => '.',
            });
        }
        text.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.txt");
    std::fs::write(&path, text).unwrap();
    let mut h = sized(800.0, 600.0, Settings::default());
    h.state_mut().push(AppCommand::OpenPath(path));
    h.run();
    h.run();
    assert!(puzzlelab::ui::canvas_is_texture(&h.ctx));
    let first = cell_pos(&h, Cell::new(0, 0));
    let last = cell_pos(&h, Cell::new(rows - 1, cols - 1));
    let side = cell_pos(&h, Cell::new(0, 1)).x - first.x;
    assert!(side < 0.5, "squares of {side} points: smaller than a pixel");
    let image = h.render().expect("rendered");
    let scale = image.width() as f32 / h.ctx.content_rect().width();
    // The mean grey of each screen column inside the maze, away from the markers and the
    // edges of the picture.
    let (y0, y1) = ((first.y * scale) as u32 + 2, (last.y * scale) as u32 - 2);
    let (x0, x1) = (
        ((first.x + 12.0) * scale) as u32,
        ((last.x - 12.0) * scale) as u32,
    );
    assert!(
        y1 > y0 + 4 && x1 > x0 + 100,
        "a maze of {x0}..{x1} x {y0}..{y1}"
    );
    let column_means: Vec<f32> = (x0..x1)
        .map(|x| {
            let sum: u32 = (y0..y1)
                .map(|y| {
                    let p = image.get_pixel(x, y);
                    (u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])) / 3
                })
                .sum();
            sum as f32 / (y1 - y0) as f32
        })
        .collect();
    let mean = column_means.iter().sum::<f32>() / column_means.len() as f32;
    let (darkest, lightest) = column_means
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &m| (lo.min(m), hi.max(m)));
    assert!(
        lightest - darkest < 40.0,
        "columns of the screen range from {darkest:.0} to {lightest:.0} grey (mean {mean:.0}): patches"
    );
}

/// Issue 29: drawing never writes into the model. The canvas tells the view, after drawing,
/// how many of its changes the big grid's texture shows, and a timeline scrubbed back and
/// forth then forgets those changes instead of keeping every one.
#[test]
fn the_changes_a_big_grid_has_drawn_are_forgotten_as_the_timeline_moves() {
    use puzzlelab::puzzles::Puzzle as _;
    // An open grid, the start top-left and the goal bottom-right.
    let n = 150;
    let open = puzzlelab::puzzles::maze::Maze::new(n, n);
    let mut h = sized(
        1024.0,
        640.0,
        Settings {
            puzzle_json: Some(open.to_json().to_string()),
            ..full_speed()
        },
    );
    h.run();
    assert!(puzzlelab::ui::canvas_is_texture(&h.ctx));
    h.state_mut().push(AppCommand::SetAlgorithm(Algorithm::Bfs));
    h.run();
    solve(&mut h);
    let expanded = h.state().marks().stats.expanded as usize;
    assert!(expanded > 10_000, "{expanded} expansions");
    for position in [0, expanded, expanded / 3, expanded, 0, expanded] {
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(position)));
        for _ in 0..40 {
            h.step();
        }
    }
    let view = h.state().marks();
    assert!(
        view.changes_forgotten > 0,
        "no drawn change was forgotten: {} kept",
        view.changed.len()
    );
    assert!(
        view.changed.len() < 4 * n * n,
        "{} changes kept",
        view.changed.len()
    );
}

/// At 800 x 600 with the details panel open the centre column is narrow: the playback row
/// still shows every control within it (compact labels), not scrolled off its right end, and
/// so does the timeline's scrubber row its position.
#[test]
fn the_playback_row_fits_a_narrow_centre_column() {
    let mut h = sized(800.0, 600.0, full_speed());
    h.run();
    h.get_by_label("Grid maze").click();
    h.run();
    solve(&mut h);
    let canvas = canvas(&h);
    let total = h.state().result().unwrap().moves.len();
    for label in ["First", "Back", "Next", "Last", "Play"] {
        let rect = h.get_by_label(label).rect();
        assert!(
            rect.left() >= canvas.left() - 1.0 && rect.right() <= canvas.right() + 1.0,
            "{label} at {rect:?}, the canvas {canvas:?}"
        );
    }
    let counter = h.get_by_label(&format!("move {total} of {total}")).rect();
    assert!(counter.right() <= canvas.right() + 1.0, "{counter:?}");
    // The timeline's label too ("k/n" there, read out in full).
    let len = h.state().timeline_len();
    let at = h.get_by_label(&format!("expansion {len} of {len}")).rect();
    assert!(
        at.right() <= canvas.right() + 1.0,
        "{at:?}, the canvas {canvas:?}"
    );
}

/// Ticking Distance map on the Klondike board adds its colour bar to the side panel without
/// widening it: the canvas stays put (the bar's row was wider than the panel at 1024 x 640
/// and 800 x 600).
#[test]
fn the_distance_maps_colour_bar_does_not_widen_the_side_panel() {
    use puzzlelab::app::oracle::OracleStatus;
    for (w, ht) in [(1024.0, 640.0), (800.0, 600.0)] {
        let mut h = sized(w, ht, Settings::default());
        h.run();
        assert_eq!(h.state().puzzle().puzzle_type().name, "klondike");
        click_label(&mut h, "Optimal moves");
        run_until(&mut h, |app| {
            matches!(app.windows.oracle.status(), OracleStatus::Ready(_))
        });
        h.run();
        stays(&mut h, "the distance map's colour bar appears", |h| {
            click_label(h, "Distance map");
            h.run();
        });
        h.get_by_label("distance map colour bar");
    }
}
