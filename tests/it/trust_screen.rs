//! What the window tells a newcomer, checked against what happened (issue 44, "Trust the
//! screen"): hand play counted in the puzzle's metric, Klotski's undo of layout edits, the end
//! of a quick stroke, the colours of the light theme and the legend, the race's plots, the
//! timeline's rows, and the wording of notes and refusals. Driven headless with egui_kittest.

use crate::common::gui::*;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings};
use puzzlelab::puzzles::klotski::Klotski;
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::rush_hour::RushHour;
use puzzlelab::puzzles::{self, Cell};

/// Puts the type named `name` on screen (its shipped puzzle, the first time).
fn select_type(h: &mut Harness<'static, PuzzleLabApp>, name: &str) {
    let t = puzzles::TYPES.iter().find(|t| t.name == name).unwrap();
    h.state_mut().push(AppCommand::SelectType(t));
    h.run();
    assert_eq!(h.state().puzzle().puzzle_type().name, name);
}

/// The puzzle on screen as the model `M`.
fn model<M: Clone + 'static>(h: &Harness<'static, PuzzleLabApp>) -> M {
    h.state()
        .puzzle()
        .as_any()
        .downcast_ref::<M>()
        .expect("the puzzle on screen is of this type")
        .clone()
}

/// Presses on `from` and moves the held pointer to `to` in `segments` moves, a frame each,
/// the last of which arrives with the release (as a quick hand makes it: the window gets the
/// last motion and the release in the same frame).
fn quick_stroke(h: &mut Harness<'static, PuzzleLabApp>, from: Cell, to: Cell, segments: usize) {
    let (a, b) = (cell_pos(h, from), cell_pos(h, to));
    h.hover_at(a);
    h.run();
    h.drag_at(a);
    h.run();
    for i in 1..segments {
        h.hover_at(a + (b - a) * (i as f32 / segments as f32));
        h.run();
    }
    // Both in the next frame's input, as a window delivers them (kittest's queue would give
    // each event a frame of its own).
    let input = h.input_mut();
    input.events.push(egui::Event::PointerMoved(b));
    input.events.push(egui::Event::PointerButton {
        pos: b,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    h.run();
}

/// Presses on `from`, drags to `to` in a few frames and releases there.
fn drag_cells(h: &mut Harness<'static, PuzzleLabApp>, from: Cell, to: Cell) {
    let (a, b) = (cell_pos(h, from), cell_pos(h, to));
    drag_between(h, a, b, 4);
}

fn status(h: &Harness<'static, PuzzleLabApp>) -> String {
    h.state().status().text.clone()
}

/// Item 5: three slides on the first Rush Hour board are three moves (not the eight cells
/// they pass), shown by a move counter while playing and in the oracle's "Solved in".
#[test]
fn rush_hour_hand_play_counts_slides_in_the_metric_with_a_move_counter() {
    let mut h = harness_sized(Settings::default(), 1000.0);
    select_type(&mut h, "rush-hour");
    assert_eq!(model::<RushHour>(&h).vehicle_at(Cell::new(0, 2)), Some(1));
    h.get_by_label("0 moves played");
    h.get_by_label("Optimal moves").click();
    h.run();
    run_until(&mut h, |app| {
        app.windows.oracle.start_distance().is_some() && !h_busy(app)
    });
    // B down three cells, C up one, the red car A four to the exit: three slides.
    drag_cells(&mut h, Cell::new(2, 2), Cell::new(5, 2));
    assert_eq!(model::<RushHour>(&h).vehicle_at(Cell::new(5, 2)), Some(1));
    assert_eq!(model::<RushHour>(&h).moves_played_by_hand(), 1);
    h.get_by_label("1 move played");
    drag_cells(&mut h, Cell::new(1, 4), Cell::new(0, 4));
    drag_cells(&mut h, Cell::new(2, 1), Cell::new(2, 5));
    let board = model::<RushHour>(&h);
    assert!(board.is_solved(), "the red car is at the exit");
    assert_eq!(board.moves_played_by_hand(), 3);
    h.get_by_label("3 moves played");
    run_until(&mut h, |app| app.windows.oracle.start_distance() == Some(3));
    h.get_by_label("Solved in 3 moves; optimal from the start: 3");
    // Undo takes the whole last slide back.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(model::<RushHour>(&h).moves_played_by_hand(), 2);
    assert_eq!(model::<RushHour>(&h).vehicle_at(Cell::new(2, 0)), Some(0));
}

/// Whether the oracle is still preparing.
fn h_busy(app: &PuzzleLabApp) -> bool {
    matches!(
        app.windows.oracle.status(),
        puzzlelab::app::oracle::OracleStatus::Preparing(_)
    )
}

/// Item 5, Klotski: with the `piece` metric a drag of a piece two cells is one move, taken
/// back at once; with `cell moves` each cell is one.
#[test]
fn klotski_hand_play_counts_a_drag_as_one_piece_move() {
    let mut h = harness_sized(Settings::default(), 1000.0);
    select_type(&mut h, "klotski");
    h.get_by_label("piece moves").click();
    h.run();
    // The classic layout's bottom row is "i..j": drag i two cells right.
    assert_eq!(model::<Klotski>(&h).piece_at(Cell::new(4, 0)), Some('i'));
    drag_cells(&mut h, Cell::new(4, 0), Cell::new(4, 2));
    assert_eq!(model::<Klotski>(&h).piece_at(Cell::new(4, 2)), Some('i'));
    assert_eq!(model::<Klotski>(&h).moves_played(), 1);
    h.get_by_label("1 piece move played");
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(model::<Klotski>(&h).piece_at(Cell::new(4, 0)), Some('i'));
    assert_eq!(model::<Klotski>(&h).moves_played(), 0);
    // Counting cells, the same drag is two moves.
    h.get_by_label("cell moves").click();
    h.run();
    drag_cells(&mut h, Cell::new(4, 0), Cell::new(4, 2));
    assert_eq!(model::<Klotski>(&h).moves_played(), 2);
    h.get_by_label("2 cell moves played");
}

/// Item 6: Ctrl+Z takes back a Klotski layout edit (as the status bar says it does), Ctrl+Y
/// makes it again, and the status line says what happened instead of "Edited".
#[test]
fn ctrl_z_undoes_a_klotski_layout_edit_and_the_status_says_so() {
    let mut h = harness_sized(Settings::default(), 1000.0);
    select_type(&mut h, "klotski");
    h.get_by_label("edit layout").click();
    h.run();
    h.get_by_label("1x1").click();
    h.run();
    click_cell(&mut h, Cell::new(4, 1));
    let placed = model::<Klotski>(&h).piece_at(Cell::new(4, 1));
    assert!(placed.is_some());
    assert!(status(&h).contains("Ctrl+Z undoes"), "{}", status(&h));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(model::<Klotski>(&h).piece_at(Cell::new(4, 1)), None);
    assert!(
        status(&h).starts_with("Undid the layout edit"),
        "{}",
        status(&h)
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    h.run();
    assert_eq!(model::<Klotski>(&h).piece_at(Cell::new(4, 1)), placed);
    assert!(
        status(&h).starts_with("Made the layout edit again"),
        "{}",
        status(&h)
    );
    // The Undo edit button says so too.
    h.get_by_label("Undo edit").click();
    h.run();
    assert_eq!(model::<Klotski>(&h).piece_at(Cell::new(4, 1)), None);
    assert!(!status(&h).starts_with("Edited"), "{}", status(&h));

    // In play, Ctrl+Z takes back a move, and the status line follows.
    h.get_by_label("play by hand").click();
    h.run();
    drag_cells(&mut h, Cell::new(3, 1), Cell::new(4, 1));
    assert_eq!(model::<Klotski>(&h).piece_at(Cell::new(4, 1)), Some('g'));
    assert!(status(&h).starts_with("Edited"), "{}", status(&h));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(model::<Klotski>(&h).piece_at(Cell::new(3, 1)), Some('g'));
    assert!(status(&h).starts_with("Took back a move"), "{}", status(&h));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(status(&h).starts_with("Nothing to undo"), "{}", status(&h));
}

/// Item 7: a quick stroke whose last segment arrives with the release paints to where it
/// was released, and a quick drag of the goal drops it there.
#[test]
fn a_quick_stroke_paints_and_a_quick_drag_drops_where_released() {
    let mut h = harness(Settings::default());
    select_type(&mut h, "maze");
    h.get_by_label("Clear").click();
    h.run();
    let cols = model::<Maze>(&h).cols();
    assert_eq!(cols, 14);
    quick_stroke(&mut h, Cell::new(2, 0), Cell::new(2, cols - 1), 4);
    let maze = model::<Maze>(&h);
    for col in 0..cols {
        assert!(maze.is_blocked(Cell::new(2, col)), "column {col}");
    }
    assert!(!maze.is_blocked(Cell::new(3, 0)));

    let goal = maze.goal();
    let target = Cell::new(goal.row, goal.col - 8);
    quick_stroke(&mut h, goal, target, 4);
    assert_eq!(
        model::<Maze>(&h).goal(),
        target,
        "the goal is where it was dropped"
    );

    // A vehicle dragged quickly lands where it was released too.
    select_type(&mut h, "rush-hour");
    quick_stroke(&mut h, Cell::new(2, 2), Cell::new(5, 2), 2);
    assert_eq!(model::<RushHour>(&h).vehicle_at(Cell::new(5, 2)), Some(1));
    assert_eq!(model::<RushHour>(&h).vehicle_at(Cell::new(2, 2)), None);
}

/// A brisk stroke as a real window delivers it (seen under Xvfb with xdotool): the press in
/// one frame, then every move and the release together in the next, before egui has seen
/// the pointer dragged in any frame. The stroke still paints every square to where the
/// button came up, the last one included.
#[test]
fn a_stroke_moved_and_released_in_one_frame_paints_to_the_release() {
    let mut h = harness(Settings::default());
    select_type(&mut h, "maze");
    h.get_by_label("Clear").click();
    h.run();
    let (from, to) = (Cell::new(4, 2), Cell::new(4, 9));
    let (a, b) = (cell_pos(&h, from), cell_pos(&h, to));
    h.hover_at(a);
    h.run();
    let input = h.input_mut();
    input.events.push(egui::Event::PointerButton {
        pos: a,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    let input = h.input_mut();
    for i in 1..=3 {
        input
            .events
            .push(egui::Event::PointerMoved(a + (b - a) * (i as f32 / 3.0)));
    }
    input.events.push(egui::Event::PointerButton {
        pos: b,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    h.run();
    let maze = model::<Maze>(&h);
    for col in from.col..=to.col {
        assert!(maze.is_blocked(Cell::new(4, col)), "column {col}");
    }
    assert!(
        !maze.is_blocked(Cell::new(4, to.col + 1)),
        "past the release"
    );
}

/// Small: Start on an unsolvable 8-puzzle says it is unsolvable and why, runs no search and
/// says nothing "failed".
#[test]
fn start_on_an_unsolvable_board_says_why_and_runs_no_search() {
    let mut h = harness(Settings::default());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("swapped.txt");
    std::fs::write(&path, "1 2 3\n4 5 6\n8 7 0\n").unwrap();
    open_path(&mut h, path);
    assert_eq!(h.state().puzzle().puzzle_type().name, "sliding");
    h.get_by_label("Start").click();
    h.run();
    let text = status(&h);
    assert!(text.starts_with("Unsolvable: "), "{text}");
    assert!(
        text.contains("parit") || text.contains("permutation"),
        "{text}"
    );
    assert!(text.ends_with("No search was run."), "{text}");
    assert!(!text.to_lowercase().contains("failed"), "{text}");
    assert!(!h.state().is_running());
    assert!(h.state().result().is_none());
    // The side panel's reason reads as a sentence too (and the status bar's).
    let sentences = h
        .query_all_by_label_contains("Unsolvable: the tiles are an odd permutation")
        .count();
    assert_eq!(sentences, 2, "the side panel and the status bar");
    // A new board (resized) takes the old one's reason off the status line.
    h.state_mut()
        .push(AppCommand::View(puzzlelab::app::ViewCommand::new(
            puzzlelab::ui::views::sliding::Command::Resize(3, 4),
        )));
    h.run();
    let text = status(&h);
    assert!(!text.contains("Unsolvable"), "{text}");
}

/// Small: the oracle of a 24-puzzle cannot be made, so the panel says why and offers no
/// Try again that could not succeed.
#[test]
fn the_24_puzzles_oracle_says_why_it_cannot_be_and_offers_no_try_again() {
    use puzzlelab::app::ViewCommand;
    use puzzlelab::app::oracle::OracleStatus;
    use puzzlelab::ui::views::sliding::Command as SlidingCommand;
    let mut h = harness_sized(Settings::default(), 1000.0);
    select_type(&mut h, "sliding");
    h.state_mut()
        .push(AppCommand::View(ViewCommand::new(SlidingCommand::Resize(
            5, 5,
        ))));
    h.run();
    h.get_by_label("Optimal moves").click();
    h.run();
    run_until(&mut h, |app| {
        matches!(
            app.windows.oracle.status(),
            OracleStatus::Unavailable(_) | OracleStatus::Failed(_)
        )
    });
    assert!(
        matches!(
            h.state().windows.oracle.status(),
            OracleStatus::Unavailable(_)
        ),
        "{:?}",
        h.state().windows.oracle.status()
    );
    h.get_by_label(
        "No oracle for this puzzle: boards above 16 squares are too large for optimal search by \
         hand.",
    );
    assert!(h.query_by_label("Try again").is_none());
}

/// Small: a report's notes read as sentences in the window (a capital, a full stop), not as
/// the command line's lower-case "note:" fragments.
#[test]
fn notes_read_as_sentences_in_the_status_bar_and_the_solution_panel() {
    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        1000.0,
    );
    select_type(&mut h, "rush-hour");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    let note = "Metric: moves (a vehicle slides any distance).";
    assert!(status(&h).contains(note), "{}", status(&h));
    assert!(!status(&h).contains(" metric:"), "{}", status(&h));
    h.get_by_label(note);
}

/// The colour of the rendered window at `pos` (points), as (red, green, blue).
fn pixel(h: &mut Harness<'static, PuzzleLabApp>, pos: egui::Pos2) -> [u8; 3] {
    let image = h.render().expect("the harness renders");
    let ppp = h.ctx.pixels_per_point();
    let p = image
        .get_pixel((pos.x * ppp) as u32, (pos.y * ppp) as u32)
        .0;
    [p[0], p[1], p[2]]
}

/// Where the legend draws the swatch of the entry `meaning`: left of its label.
fn swatch_pos(h: &Harness<'static, PuzzleLabApp>, meaning: &str) -> egui::Pos2 {
    let label = h.get_by_label(meaning).rect();
    let gap = h.ctx.global_style().spacing.item_spacing.x;
    egui::pos2(label.left() - gap - 8.0, label.center().y)
}

/// Item 10: in the light theme an empty square of a board is light, on the canvas and in
/// the legend, and stays apart from a wall; in the dark theme it stays the dim tray.
#[test]
fn the_light_themes_empty_squares_are_light_and_apart_from_walls() {
    use puzzlelab::app::Theme;
    for (theme, light) in [(Theme::Light, true), (Theme::Dark, false)] {
        let mut h = harness(Settings {
            theme,
            ..Settings::default()
        });
        select_type(&mut h, "rush-hour");
        h.run();
        // The first board's bottom-left square is empty.
        let empty = cell_pos(&h, Cell::new(5, 0));
        let square = pixel(&mut h, empty);
        let swatch = swatch_pos(&h, "empty square");
        let empty_swatch = pixel(&mut h, swatch);
        let wall = swatch_pos(&h, "wall");
        let wall_swatch = pixel(&mut h, wall);
        assert_eq!(square, empty_swatch, "the legend shows the square's colour");
        if light {
            assert!(square.iter().all(|&c| c > 180), "{theme:?}: {square:?}");
            assert!(
                i32::from(square[0]) - i32::from(wall_swatch[0]) > 100,
                "{square:?} against the wall's {wall_swatch:?}"
            );
        } else {
            assert!(square.iter().all(|&c| c < 100), "{theme:?}: {square:?}");
        }
    }
}

/// Item 14: the legend follows the timeline's "Colour by": the closed set's entry gives way
/// to the colours of the least and greatest value, and comes back with "marks"; "Only the
/// branch" adds the faded marks.
#[test]
fn the_legend_follows_colour_by() {
    use puzzlelab::app::TimelineCommand;
    use puzzlelab::runs::recording::Quantity;
    use puzzlelab::search::Algorithm;
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    select_type(&mut h, "maze");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    h.get_by_label("closed: expanded");
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Heat(Some(
            Quantity::G,
        ))));
    h.run();
    h.get_by_label("closed, coloured by g: least, 0");
    h.get_by_label_contains("closed, coloured by g: greatest, ");
    assert!(h.query_by_label("closed: expanded").is_none());
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Heat(None)));
    h.run();
    h.get_by_label("closed: expanded");
    assert!(h.query_by_label_contains("coloured by").is_none());
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::BranchOnly(true)));
    h.run();
    h.get_by_label("marks off the branch, faded");

    // A race's panes are not shaded: the legend says nothing of the run before's shading.
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::BranchOnly(false)));
    h.state_mut()
        .push(AppCommand::Timeline(TimelineCommand::Heat(Some(
            Quantity::G,
        ))));
    h.run();
    h.get_by_label("closed, coloured by g: least, 0");
    for a in [Algorithm::Bfs, Algorithm::AStar] {
        h.state_mut().push(AppCommand::RaceToggle(a));
    }
    h.state_mut().push(AppCommand::StartRace);
    h.step();
    run_until(&mut h, |app| app.race().is_some_and(|r| !r.is_running()));
    h.run();
    assert!(h.query_by_label_contains("coloured by").is_none());
    h.get_by_label("closed: expanded");
}

/// Item 11: during a race the plots draw the race's lanes (each lane's frontier curve and
/// states per depth, under its name), not the single run before it.
#[test]
fn race_plots_draw_the_lanes_not_the_run_before() {
    use puzzlelab::search::Algorithm;
    let mut h = harness_sized(
        Settings {
            full_speed: true,
            ..Settings::default()
        },
        1400.0,
    );
    select_type(&mut h, "maze");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    // The single run's plot: its frontier and closed set.
    h.get_by_label("closed set");
    for a in [Algorithm::Bfs, Algorithm::AStar] {
        h.state_mut().push(AppCommand::RaceToggle(a));
    }
    h.state_mut().push(AppCommand::StartRace);
    h.step();
    run_until(&mut h, |app| app.race().is_some_and(|r| !r.is_running()));
    h.run();
    assert!(h.query_by_label("closed set").is_none(), "the run before");
    let race = h.state().race().unwrap();
    let labels: Vec<String> = race.lanes.iter().map(|l| l.label()).collect();
    for lane in &race.lanes {
        // The finished lane's curve comes from its recording: more than a lone point.
        let sizes = lane.track.as_ref().map_or(0, |t| t.sizes().len());
        assert!(sizes > 1, "{}: {sizes} points", lane.label());
        assert!(lane.marks.layers.len() > 1, "{}", lane.label());
    }
    // Each lane is named in both plots' legends (below the Plots header, in the details
    // panel; its pane's heading is elsewhere).
    let plots = h.get_by_label("Plots").rect();
    for label in labels {
        let in_plots = h
            .query_all_by_label(&label)
            .filter(|n| n.rect().top() > plots.top() && n.rect().left() >= plots.left() - 30.0)
            .count();
        assert_eq!(in_plots, 2, "{label}");
    }
}

/// Item 12: at 1200 x 800, after a run, the timeline's row of tools (jumps, pin, Colour by,
/// Only the branch) fits the centre column; and a row that does not fit (a narrower window)
/// scrolls sideways under the vertical wheel, as the README says.
#[test]
fn the_timeline_tools_fit_1200_by_800_and_the_wheel_scrolls_a_long_row() {
    let settings = Settings {
        full_speed: true,
        ..Settings::default()
    };
    let mut h = harness_at(1200.0, 800.0, settings.clone());
    select_type(&mut h, "maze");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let centre = h.get_by_label(puzzlelab::ui::SCRUBBER_LABEL).rect();
    let canvas = h.get_by_label(puzzlelab::ui::CANVAS_LABEL).rect();
    for label in ["< layer", "Pin squares", "Only the branch"] {
        let rect = h.get_by_label(label).rect();
        assert!(
            rect.left() >= canvas.left() && rect.right() <= canvas.right(),
            "{label} at {rect:?}, out of the centre column {canvas:?} (scrubber {centre:?})"
        );
    }

    // At 1024 x 640 the row is wider than the centre column: the vertical wheel over it
    // brings its end into sight.
    let mut h = harness_at(1024.0, 640.0, settings);
    select_type(&mut h, "maze");
    h.get_by_label("Start").click();
    run_until(&mut h, |app| app.result().is_some());
    h.run();
    let canvas = h.get_by_label(puzzlelab::ui::CANVAS_LABEL).rect();
    let before = h.get_by_label("Only the branch").rect();
    assert!(
        before.right() > canvas.right(),
        "{before:?} fits {canvas:?}"
    );
    h.hover_at(h.get_by_label("< layer").rect().center());
    h.run();
    wheel(&mut h, -200.0);
    let after = h.get_by_label("Only the branch").rect();
    assert!(
        after.right() <= canvas.right() + 1.0 && after.left() < before.left(),
        "{before:?} -> {after:?}, centre column {canvas:?}"
    );
}

/// While a full-speed search runs and the picture is some frames behind it, the Statistics
/// panel gives the search's own figures so far: the replay that draws the picture counts only
/// places, and its figures said "States generated 0", "Peak frontier 0" and "max 0" beside
/// 512 states expanded (seen in the window under Xvfb).
#[test]
fn a_running_searchs_statistics_are_its_own_while_the_picture_catches_up() {
    let mut maze = Maze::new(600, 600);
    maze.randomize(0.25, 5);
    let mut h = harness(Settings {
        puzzle_json: Some(puzzles::Puzzle::to_json(&maze).to_string()),
        algorithm: Some(puzzlelab::search::Algorithm::Bfs),
        full_speed: true,
        ..Settings::default()
    });
    h.step();
    h.step();
    h.get_by_label("Start").click();
    let mut behind = 0;
    for _ in 0..2000 {
        h.step();
        let app = h.state();
        if app.result().is_some() {
            break;
        }
        let shown = app.shown_stats().clone();
        if !app.is_running() || shown.expanded == 0 {
            continue;
        }
        assert!(shown.generated >= shown.expanded, "{shown:?}");
        assert!(shown.max_frontier > 0 && shown.max_depth > 0, "{shown:?}");
        assert_eq!(
            shown.expanded + shown.frontier,
            shown.max_closed,
            "{shown:?}"
        );
        assert!(
            h.query_by_label(&shown.generated.to_string()).is_some(),
            "the panel shows {} states generated",
            shown.generated
        );
        // The replay's own figures: what the panel showed before.
        if app.marks().stats.generated == 0 {
            behind += 1;
        }
    }
    assert!(behind > 0, "the picture was never behind the search");
    // After the end, while the picture catches up, the final figures: not the replay's
    // expansions beside the final states generated.
    let done = h.state().result().expect("the search ended").stats.clone();
    let mut catching_up = 0;
    for _ in 0..2000 {
        let app = h.state();
        assert_eq!(app.shown_stats(), &done);
        // Caught up: the replay at the end, or the end's marks set whole (issue 56 item 12)
        // and every row of them set.
        if app.marks().stats.expanded == done.expanded && !app.marks().is_setting_whole() {
            break;
        }
        catching_up += 1;
        h.step();
    }
    assert_eq!(h.state().marks().stats.expanded, done.expanded);
    // The end's marks are set whole from the recording now (issue 56 item 12), so the
    // picture may be at the end in the first frame; it never takes more than a few.
    assert!(catching_up < 50, "{catching_up} frames to catch up");
}
