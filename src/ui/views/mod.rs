//! One view per puzzle type (see [`TypeView`]): each module draws its type's tools, takes its
//! canvas input and applies its own commands. The registry below is the only place that
//! lists them: adding a type adds its view's file and one line to `type_views!`.

use std::path::Path;

use crate::puzzles::PuzzleType;

use crate::app::{
    AppAccess, AppCommand, OracleCommand, ShownMoment, TypeView, ViewContext, ViewDraw, ViewRead,
    ViewRegistry, WindowCommand, count_in,
};

/// A type's entry in the registry.
struct Entry {
    /// The engine's entry of the type this view shows (one of [`crate::puzzles::TYPES`]),
    /// by reference: the view is joined to its type by the entry itself, not by a name.
    engine: &'static PuzzleType,
    /// Its view, given the settings it kept last time.
    make: fn(Option<&serde_json::Value>) -> Box<dyn TypeView>,
    /// The files its view opens itself (see [`crate::app::OpensFiles::open_path`]).
    claims: fn(&Path) -> bool,
    /// What File > New offers for the type (none for most).
    new: &'static [NewItem],
    /// The type's own commands the command palette offers while its puzzle is on screen
    /// (a script's Edit script; none for most).
    commands: &'static [NewItem],
}

/// An item of File > New that a type's view offers: a label, and the commands that make
/// the new thing (put a puzzle on screen, open the view's editor).
pub struct NewItem {
    /// The menu item's label.
    pub label: &'static str,
    /// Its hover text.
    pub hint: &'static str,
    /// The commands to push, or why there are none.
    pub commands: fn() -> Result<Vec<AppCommand>, String>,
}

/// Every view's File > New items, in the registry's order.
pub fn new_items() -> impl Iterator<Item = &'static NewItem> {
    VIEWS.iter().flat_map(|e| e.new.iter())
}

/// The own commands of the type `engine` (the puzzle on screen's), for the command palette.
pub fn own_commands(engine: &PuzzleType) -> impl Iterator<Item = &'static NewItem> {
    view_of(engine).into_iter().flat_map(|e| e.commands.iter())
}

/// Declares each view's module (a file or folder beside this one, public: a test drives a
/// view by its own commands, `views::<module>::Command`) and lists its entry in `VIEWS`, in
/// the order given.
macro_rules! type_views {
    ($($module:ident,)*) => {
        $(pub mod $module;)*

        /// Each puzzle type's view.
        static VIEWS: &[Entry] = &[$($module::ENTRY),*];
    };
}

type_views! {
    klondike,
    maze,
    car_maze,
    klotski,
    sliding,
    rush_hour,
    script,
    sokoban,
    planning,
}

/// The registry the app uses to make views.
pub const REGISTRY: ViewRegistry = ViewRegistry {
    make: make_view,
    claims: claimed_by,
};

fn make_view(name: &str, settings: Option<&serde_json::Value>) -> Option<Box<dyn TypeView>> {
    let engine = crate::puzzles::type_by_name(name)?;
    view_of(engine).map(|e| (e.make)(settings))
}

/// The view entry of the engine's type `engine` (compared by reference).
fn view_of(engine: &PuzzleType) -> Option<&'static Entry> {
    VIEWS.iter().find(|e| std::ptr::eq(e.engine, engine))
}

/// How many view entries each engine type has, in the order of [`crate::puzzles::TYPES`],
/// and how many entries name no engine type: every type has exactly one view, and no view
/// is left over, when this is all ones and zero (the architecture test checks it).
pub fn views_per_type() -> (Vec<usize>, usize) {
    let types = crate::puzzles::TYPES;
    let counts = types
        .iter()
        .map(|t| VIEWS.iter().filter(|e| std::ptr::eq(e.engine, *t)).count())
        .collect();
    let strays = VIEWS
        .iter()
        .filter(|e| !types.iter().any(|t| std::ptr::eq(e.engine, *t)))
        .count();
    (counts, strays)
}

/// The type whose view opens `path` itself (a Moving AI scenario opens in the grid maze's
/// view, with its map).
fn claimed_by(path: &Path) -> Option<&'static str> {
    VIEWS
        .iter()
        .find(|e| (e.claims)(path))
        .map(|e| e.engine.name)
}

/// For [`Entry::claims`]: a view that opens no file itself.
fn claims_none(_path: &Path) -> bool {
    false
}

/// A row of radio buttons labelled `title`, one per `(value, label, hint)`: returns the value
/// clicked if it differs from `current` (a board type's move metric, for example).
fn choice_ui<T: PartialEq + Copy>(
    ui: &mut eframe::egui::Ui,
    title: &str,
    current: T,
    choices: &[(T, &str, &str)],
) -> Option<T> {
    let mut chosen = None;
    ui.horizontal(|ui| {
        ui.label(title);
        for &(value, label, hint) in choices {
            if ui
                .radio(current == value, label)
                .on_hover_text(hint)
                .clicked()
                && current != value
            {
                chosen = Some(value);
            }
        }
    });
    chosen
}

/// "Mode: play by hand / edit layout" for board types with a layout editor: returns the mode
/// clicked (true for editing) if it differs from `editing`.
fn mode_ui(ui: &mut eframe::egui::Ui, editing: bool) -> Option<bool> {
    choice_ui(
        ui,
        "Mode",
        editing,
        &[
            (false, "play by hand", "drag pieces to play"),
            (true, "edit layout", "a click applies the chosen tool"),
        ],
    )
}

/// An editor's tools as a wrapped row of toggles, `title` first if any: returns the tool
/// clicked, `(tool, label, hint)` each.
fn tools_row_ui<T: PartialEq + Copy>(
    ui: &mut eframe::egui::Ui,
    title: Option<&str>,
    current: T,
    tools: &[(T, &str, &str)],
) -> Option<T> {
    let mut chosen = None;
    ui.horizontal_wrapped(|ui| {
        if let Some(title) = title {
            ui.label(title);
        }
        for &(tool, label, hint) in tools {
            if ui
                .selectable_label(current == tool, label)
                .on_hover_text(hint)
                .clicked()
            {
                chosen = Some(tool);
            }
        }
    });
    chosen
}

/// Undo and Redo buttons for the app's history (types whose edits it records), into `ui`.
fn undo_redo_ui(app: &mut ViewDraw<'_>, ui: &mut eframe::egui::Ui, undo_hint: &str) {
    if ui
        .add_enabled(app.can_undo(), eframe::egui::Button::new("Undo"))
        .on_hover_text(undo_hint)
        .clicked()
    {
        app.push(AppCommand::Undo);
    }
    if ui
        .add_enabled(app.can_redo(), eframe::egui::Button::new("Redo"))
        .on_hover_text("Ctrl+Y or Ctrl+Shift+Z")
        .clicked()
    {
        app.push(AppCommand::Redo);
    }
}

/// The move counter of hand play: the moves played since the position was loaded, scrambled
/// or last edited, in the puzzle's metric ("3 moves played", "1 piece move played"); `None`
/// for a type not played by hand.
fn played_text(app: &ViewContext<impl AppAccess>) -> Option<String> {
    let played = app
        .puzzle()
        .capabilities()
        .hand_play
        .map(|h| h.moves_played())?;
    let metric = app.puzzle().metric_label();
    Some(format!("{} played", count_in(played as u64, &metric)))
}

/// A view's settings read back from what it kept, or its defaults if there are none or they
/// no longer parse.
fn settings_from<T: serde::de::DeserializeOwned + Default>(kept: Option<&serde_json::Value>) -> T {
    kept.and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default()
}

/// The legend entries of a search drawn on the squares (types whose states have places),
/// each only while the canvas draws it: closed, frontier, the state being expanded (while a
/// search runs), the depth-first path and the solution (once found, and not scrubbed back
/// before it).
fn search_legend(app: &ViewRead<'_>) -> Vec<(eframe::egui::Color32, String)> {
    use crate::ui::palette::{CLOSED, CURRENT, DFS_PATH, FRONTIER, SOLUTION};
    let marks = app.marks();
    let mut entries = Vec::new();
    if marks.closed_places > 0 {
        entries.push((CLOSED, "closed: expanded".to_owned()));
    }
    if marks.frontier_places > 0 {
        entries.push((FRONTIER, "frontier: reached, not yet expanded".to_owned()));
    }
    if app.is_running() && marks.current.is_some() {
        entries.push((CURRENT, "expanding now".to_owned()));
    }
    if app.algorithm() == crate::search::Algorithm::Dfs && !marks.path.is_empty() {
        entries.push((DFS_PATH, "depth-first path (the stack)".to_owned()));
    }
    if app.shows_solution() {
        entries.push((SOLUTION, "solution".to_owned()));
    }
    entries
}

/// A legend entry: `color` means `meaning`.
fn entry(color: eframe::egui::Color32, meaning: &str) -> (eframe::egui::Color32, String) {
    (color, meaning.to_owned())
}

/// The optimal-move oracle's controls, for types played by hand: the switch, its progress
/// while it explores the state space (or loads pattern databases), the distance from the
/// position ("optimal from here: N moves"), **Hint** (an arrow on one optimal move) and
/// **Show all** (every move's arrow, coloured closer / as far / farther), and on reaching the
/// goal the moves played beside the optimum from the start.
pub(crate) fn oracle_ui(app: &mut ViewDraw<'_>, ui: &mut eframe::egui::Ui) {
    use crate::app::oracle::OracleStatus;
    use eframe::egui::RichText;
    ui.separator();
    app.push(AppCommand::Oracle(OracleCommand::Shown));
    let mut enabled = app.oracle().enabled;
    if ui
        .checkbox(&mut enabled, "Optimal moves")
        .on_hover_text("show the least number of moves from the position, with hints")
        .changed()
    {
        app.push(AppCommand::Oracle(OracleCommand::Enable(enabled)));
    }
    let metric = app.oracle().metric();
    match app.oracle().status() {
        OracleStatus::Off => {}
        OracleStatus::Preparing(line) => {
            // Wrapped: a long progress line must not widen the panel.
            ui.horizontal_wrapped(|ui| {
                ui.spinner();
                ui.label(line);
                if ui.button("Stop").clicked() {
                    app.push(AppCommand::Oracle(OracleCommand::CancelBuild));
                }
            });
        }
        OracleStatus::Failed(why) => {
            ui.label(
                RichText::new(format!("No oracle: {why}")).color(crate::ui::palette::MOVE_WORSE),
            );
            if ui.button("Try again").clicked() {
                app.push(AppCommand::Oracle(OracleCommand::Retry));
            }
        }
        OracleStatus::Unavailable(why) => {
            // Trying again would fail the same way: no Try again, only the reason.
            ui.label(
                RichText::new(format!("No oracle for this puzzle: {why}."))
                    .color(crate::ui::palette::MOVE_WORSE),
            );
        }
        OracleStatus::Ready(distance) => oracle_ready_ui(app, ui, distance, &metric),
    }
}

/// The oracle's readout once it knows the `distance` from the position (moves counted in
/// `metric`): the distance, what the canvas shows, the moves played beside the optimum,
/// **Hint** and **Show all**, the windows on the state space and what the hint says.
fn oracle_ready_ui(
    app: &mut ViewDraw<'_>,
    ui: &mut eframe::egui::Ui,
    distance: crate::puzzles::oracle::Distance,
    metric: &str,
) {
    use crate::puzzles::oracle::{Distance, Rating};
    use eframe::egui::RichText;
    let line = match distance {
        Distance::Exact(0) => "Solved.".to_owned(),
        Distance::Exact(n) => format!("Optimal from here: {}", count_in(n, metric)),
        Distance::AtLeast(n) => format!("At least {} (searching...)", count_in(n, metric)),
        Distance::DeadEnd => {
            "No way to the goal from here: no move leads to it (Undo goes back).".to_owned()
        }
    };
    ui.label(RichText::new(line).strong());
    match app.shown_moment() {
        ShownMoment::Search => {
            ui.label(
                RichText::new(
                    "The canvas shows a state of the search; the oracle describes the \
                     puzzle's own position (its arrows are hidden).",
                )
                .weak(),
            );
        }
        ShownMoment::Solution(k) => {
            ui.label(RichText::new(format!("At move {k} of the solution's playback.")).weak());
        }
        ShownMoment::Puzzle => {}
    }
    // Moves played by hand reached the goal (not a solution's playback).
    if distance == Distance::Exact(0)
        && app.shown_moment() == ShownMoment::Puzzle
        && let (Some(played), Some(best)) = (
            (app.puzzle().capabilities().hand_play).map(|h| h.moves_played()),
            app.oracle().start_distance(),
        )
        && played > 0
    {
        ui.label(format!(
            "Solved in {}; optimal from the start: {best}",
            count_in(played as u64, metric)
        ));
    }
    ui.horizontal(|ui| {
        let (mut hint, mut all) = (app.oracle().show_hint, app.oracle().show_all);
        if ui
            .toggle_value(&mut hint, "Hint")
            .on_hover_text("an arrow on one optimal move")
            .changed()
        {
            app.push(AppCommand::Oracle(OracleCommand::ShowHint(hint)));
        }
        if ui
            .toggle_value(&mut all, "Show all")
            .on_hover_text(
                "every move: blue brings the goal closer, grey leaves it, black takes it farther",
            )
            .changed()
        {
            app.push(AppCommand::Oracle(OracleCommand::ShowAll(all)));
        }
    });
    // What the hint says, right under its switch (below the space's links it was out of
    // sight in a window of 800 points).
    if let Some(hint) = hinted_move(&app.as_read()) {
        ui.label(RichText::new(format!("Hint: {hint}")).color(crate::ui::palette::MOVE_BETTER));
    }
    oracle_space_ui(app, ui, metric);
    if let Some(a) = app.oracle().assessment()
        && app.oracle().show_all
        && a.distance != Distance::DeadEnd
    {
        let n = |r: Rating| a.moves.iter().filter(|m| m.rating == r).count();
        ui.label(format!(
            "{} closer, {} as far, {} farther",
            n(Rating::Better),
            n(Rating::Neutral),
            n(Rating::Worse)
        ));
    }
}

/// The move Hint points at (its label, as the solution lists name it): while Hint is on and
/// the canvas shows the position the oracle assessed.
pub(crate) fn hinted_move(app: &ViewRead<'_>) -> Option<String> {
    let oracle = app.oracle();
    if !oracle.enabled || !oracle.show_hint || oracle.hidden {
        return None;
    }
    Some(oracle.assessment()?.hint()?.label.clone())
}

/// The oracle's links to its state space: the **Distance map** switch (with its colour bar)
/// where states are squares, and the **State space** and **Heuristic** windows.
fn oracle_space_ui(app: &mut ViewDraw<'_>, ui: &mut eframe::egui::Ui, metric: &str) {
    use eframe::egui::RichText;
    if app
        .oracle()
        .space()
        .is_some_and(|s| s.place_of(0).is_some())
    {
        let mut map = app.oracle().show_map;
        if ui
            .checkbox(&mut map, "Distance map")
            .on_hover_text(
                "each square coloured by its distance from the start (yellow near, \
                 dark blue far); hover a square for its distances",
            )
            .changed()
        {
            app.push(AppCommand::Oracle(OracleCommand::ShowMap(map)));
        }
        if app.oracle().show_map && app.oracle().distance_map().is_none() {
            ui.label(
                RichText::new("The map is drawn for spaces up to 20,000 states; hover a square for its distances.")
                    .weak(),
            );
        }
        if app.oracle().show_map
            && let Some(far) = app.oracle().heat_far()
        {
            distance_bar_ui(ui, far, metric);
        }
    }
    if app.oracle().space().is_some()
        && ui
            .button("State space...")
            .on_hover_text("the distance histogram and the state graph; open any state")
            .clicked()
    {
        app.push(AppCommand::Window(WindowCommand::SpaceWindow(true)));
    }
    if (app.oracle().space().is_some()
        || app
            .puzzle()
            .capabilities()
            .heuristic_sampling
            .is_some_and(|s| s.samples_heuristic_quality()))
        && ui
            .button("Heuristic...")
            .on_hover_text(
                "the heuristic against the exact costs: admissible, consistent, how \
                 close; where it lies",
            )
            .clicked()
    {
        app.push(AppCommand::Window(WindowCommand::HeuristicWindow(true)));
    }
}

/// The distance map's colour bar: from the start (0) to the farthest square (`far`, in
/// `metric`), in the colours the canvas tints the squares with.
/// The bar is at most 120 points wide and narrows to leave its labels room, so the side
/// panel keeps its width (and the canvas its place); the far label wraps below it when even
/// a short bar leaves it no room.
fn distance_bar_ui(ui: &mut eframe::egui::Ui, far: u32, metric: &str) {
    use eframe::egui;
    let text = format!("{} from the start", count_in(far, metric));
    let gap = ui.spacing().item_spacing.x;
    let room = ui.available_width()
        - crate::ui::rows::text_width(ui, "0")
        - crate::ui::rows::text_width(ui, &text)
        - 2.0 * gap
        - ui.spacing().scroll.bar_width;
    let width = room.clamp(40.0, 120.0);
    ui.horizontal_wrapped(|ui| {
        ui.label("0");
        let (rect, response) =
            ui.allocate_exact_size(egui::vec2(width, 12.0), egui::Sense::hover());
        let steps = 48;
        for k in 0..steps {
            let (a, b) = (k as f32 / steps as f32, (k + 1) as f32 / steps as f32);
            let x = |t: f32| rect.left() + rect.width() * t;
            ui.painter().rect_filled(
                egui::Rect::from_x_y_ranges(x(a)..=x(b), rect.y_range()),
                0.0,
                crate::ui::palette::heat_map_color((a + b) / 2.0),
            );
        }
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Image, true, "distance map colour bar")
        });
        ui.label(text);
    });
}

/// For a square of a puzzle whose states are places, with its space explored: the distance
/// of the state there from the start and to the nearest goal ("3 jumps from the start, 6 to
/// the goal"); of the nearest to the goal where a square holds several.
fn space_distances(app: &ViewRead<'_>, cell: crate::puzzles::Cell) -> Option<String> {
    let space = app.oracle().space()?;
    let node = space
        .nodes_at(cell)
        .into_iter()
        .min_by_key(|&n| space.to_goal(n).unwrap_or(u32::MAX))?;
    let metric = app.oracle().metric();
    // From the start on screen (not the square the space was explored from).
    let from = app.oracle().distance_from_origin(node);
    Some(match (from, space.to_goal(node)) {
        (Some(from), Some(to)) => {
            format!(
                "{} from the start, {to} to the nearest goal",
                count_in(from, &metric)
            )
        }
        (Some(from), None) => {
            format!(
                "{} from the start, no way to a goal",
                count_in(from, &metric)
            )
        }
        (None, Some(to)) => format!("{} to the nearest goal", count_in(to, &metric)),
        (None, None) => "no way to a goal".to_owned(),
    })
}
