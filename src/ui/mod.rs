//! The panels of the window: menu bar, side panel, status bar and the puzzle canvas. Each
//! `*_ui` function draws one part and pushes [`AppCommand`]s; nothing changes the app's state
//! until the commands are applied at the end of the frame.

mod breakpoints_panel;
mod canvas;
pub mod command_palette;
mod describe;
mod dialogs;
pub mod heuristic_window;
mod learn_overlay;
mod learn_window;
mod menus;
mod paint;
mod palette;
mod panels;
mod race_panel;
mod rows;
mod scene;
pub mod space_window;
mod status_bar;
mod texture;
mod timeline_bar;
mod toolbar;
pub mod tree_window;
pub mod views;

use eframe::egui;

use std::path::PathBuf;

use crate::app::learn::Beside;
use crate::app::{AppCommand, AppState, Panel, PuzzleLabApp, SettingCommand, Theme, WindowCommand};
use crate::puzzles;

pub use canvas::{CANVAS_LABEL, canvas_is_texture, canvas_ui, with_canvas_texture};
pub use learn_overlay::{
    ARROW_FROM as LEARN_ARROW_FROM, ARROW_LENGTH as LEARN_ARROW_LENGTH, MIN_SIDE as LEARN_MIN_SIDE,
};
pub use panels::RACE_STATS_NOTE;
pub use scene::{MARKER_MARGIN, TEXTURE_SQUARES};
pub use status_bar::status_shown;
pub use texture::GridTexture;
pub use timeline_bar::{SCRUBBER_LABEL, TIMELINE_BUTTONS};
pub use toolbar::{SPEEDS, keys};

use status_bar::{direction, status_bar_ui};

/// The menu bar's lasting mark while the window does not keep its work in the state file
/// (see [`crate::app::PuzzleLabApp::autosave_off`]).
pub const NOT_KEPT_LABEL: &str = "Work not kept";

/// The application id: the window's class on X11 and Wayland (so the task bar groups its
/// windows and finds the launcher `assets/puzzlelab.desktop`), and eframe's storage folder.
pub const APP_ID: &str = "puzzlelab";

/// The key under which eframe's store kept egui's memory (eframe's own name for it): taken
/// out, as the app does not keep it.
const EGUI_MEMORY_KEY: &str = "egui";

/// The window's icon: `assets/icon/puzzlelab-256.png`, drawn from `assets/icon/puzzlelab.svg`.
pub const ICON_PNG: &[u8] = include_bytes!("../../assets/icon/puzzlelab-256.png");

/// Opens the window. `file` is a puzzle to open instead of the remembered one.
///
/// # Errors
/// eframe's error when no window can be created.
pub fn run_gui(file: Option<PathBuf>) -> eframe::Result {
    let mut viewport = egui::ViewportBuilder::default()
        // The task bar groups the windows by this id; the launcher file
        // (assets/puzzlelab.desktop) has the same name.
        .with_app_id(APP_ID);
    if let Ok(icon) = eframe::icon_data::from_png_bytes(ICON_PNG) {
        viewport = viewport.with_icon(icon);
    }
    let wayland = opens_on_wayland(|name| std::env::var(name).ok());
    let options = eframe::NativeOptions {
        viewport: viewport
            .with_title("puzzlelab")
            .with_inner_size([1200.0, 800.0])
            .with_min_inner_size([640.0, 480.0])
            .with_drag_and_drop(true),
        // eframe keeps `viewport.app_id` for its storage folder; the window is made from
        // what this returns.
        window_builder: Some(Box::new(move |viewport| window_viewport(viewport, wayland))),
        ..Default::default()
    };
    // eframe reads its store whole before the app runs: it is checked first.
    let store_notice = eframe::storage_dir(APP_ID)
        .and_then(|dir| crate::app::autosave::check_eframe_store(&dir.join("app.ron")));
    eframe::run_native(
        APP_ID,
        options,
        Box::new(move |cc| {
            // The work kept in the state file, checked before it is trusted; on a first run
            // after an update, eframe's copy (taken over once).
            let mut app =
                PuzzleLabApp::from_state_file(crate::app::autosave::state_path(), cc.storage);
            if let Some(notice) = store_notice {
                let status = app.status();
                let text = if status.is_error {
                    format!("{} {notice}", status.text)
                } else {
                    notice
                };
                app.set_error(text);
            }
            app.frame.repaint = Some(cc.egui_ctx.clone());
            if let Some(path) = file {
                app.apply(AppCommand::OpenPath(path));
            }
            Ok(Box::new(app))
        }),
    )
}

/// Whether winit opens the window on Wayland rather than X11, decided as winit 0.30 decides
/// it: `WAYLAND_DISPLAY` or `WAYLAND_SOCKET` set and not empty. `var` reads a variable of
/// the environment.
pub fn opens_on_wayland(var: impl Fn(&str) -> Option<String>) -> bool {
    ["WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
        .iter()
        .any(|name| var(name).is_some_and(|v| !v.is_empty()))
}

/// The viewport the window is made from. On Wayland the app id [`APP_ID`] names the
/// window. On X11 egui-winit would hand it to winit as the class with an empty instance
/// (`WM_CLASS` "", "puzzlelab": window managers that match on the instance, and `xprop`'s
/// first field, see nothing); without an app id winit names both parts after the program
/// (`puzzlelab`, `puzzlelab`: the launcher's `StartupWMClass`).
pub fn window_viewport(
    mut viewport: egui::ViewportBuilder,
    wayland: bool,
) -> egui::ViewportBuilder {
    if !wayland {
        viewport.app_id = None;
    }
    viewport
}

impl eframe::App for PuzzleLabApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame_ui(ui);
    }

    /// The settings and work are kept in the state file alone (see
    /// [`crate::app::autosave`]): this writes what is not written yet, and once the state
    /// file holds the work, takes out of eframe's store what an earlier version kept there
    /// (the settings, and egui's memory with its theme). eframe keeps only the window's size
    /// and place.
    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.flush_autosave() {
            storage.remove_string(eframe::APP_KEY);
            storage.remove_string(EGUI_MEMORY_KEY);
        }
    }

    /// After the last save: the heavy state goes to a thread of its own (see
    /// [`crate::app::AppState::let_go_for_exit`]), so the window goes at once.
    fn on_exit(&mut self) {
        self.let_go_for_exit();
    }

    /// egui's memory (window places, the theme it was told) is not kept: the state file
    /// keeps the settings.
    fn persist_egui_memory(&self) -> bool {
        false
    }
}

impl PuzzleLabApp {
    /// Draws the whole window into `ui` and runs the frame's logic: the app's work before
    /// drawing, the panels (which push commands), then the commands applied.
    /// [`eframe::App::ui`] calls this; so do the UI tests.
    pub fn frame_ui(&mut self, ui: &mut egui::Ui) {
        if self.type_view().is_none() {
            self.install_views(views::REGISTRY);
        }
        apply_theme(self, ui.ctx());
        allow_for_slow_frames(ui.ctx());
        self.begin_frame(ui.ctx());
        // The frame that answers a close request draws nothing: the window goes after it.
        if !self.is_closing() {
            app_ui(&mut self.panel(), ui);
        }
        self.end_frame(ui.ctx());
    }
}

/// Draws the whole window: the menu bar and the toolbar on top, the status bar at the
/// bottom, the puzzle's own tools on the left, the run's details (statistics, plots,
/// solution, race, results) on the right, and the canvas with its playback bar in between.
fn app_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    // The palette first (it takes the keys while open), then the other keys, so a focused
    // button does not take Space as a click as well.
    command_palette::palette_ui(app, ui.ctx());
    if !command_palette::is_open(ui.ctx()) {
        toolbar::shortcuts(app, ui);
    }
    egui::Panel::top("menu_bar").show(ui, |ui| menus::menu_bar_ui(app, ui));
    let toolbar = egui::Panel::top("toolbar").show(ui, |ui| toolbar::toolbar_ui(app, ui));
    // After a resize the toolbar may wrap onto more rows (or fewer) than the frame was laid
    // out for: that frame is redone at once, so no row is left blank until the pointer moves
    // and no click lands on a widget that has moved.
    let id = egui::Id::unique("toolbar height");
    let height = toolbar.response.rect.height();
    let before = ui.data(|d| d.get_temp::<f32>(id));
    ui.data_mut(|d| d.insert_temp(id, height));
    if before.is_some_and(|b| b != height) {
        ui.ctx()
            .request_discard("the toolbar wrapped onto another number of rows");
    }
    egui::Panel::bottom("status_bar").show(ui, |ui| status_bar_ui(app, ui));
    // The panels scroll; a restart opens them at the top (egui would restore the offset).
    let first_frame = ui.ctx().cumulative_frame_nr() == 0;
    let scroll = |id: &str| {
        let area = egui::ScrollArea::vertical().id_salt(id);
        if first_frame {
            area.vertical_scroll_offset(0.0)
        } else {
            area
        }
    };
    // A lesson (classroom mode, the Learn panel open) keeps the canvas beside the Learn
    // panel: the side panel folds away when the window has no room for the three, as it
    // does outside classroom mode with the Learn panel open in a narrow window.
    let lesson = app.settings.classroom && app.windows.learn.open;
    let folded = app.settings.panels_folded || side_folded_for_room(app, ui.ctx());
    if !folded {
        side_and_details_ui(app, ui, &scroll);
    }
    // The canvas keeps at least `CANVAS_SHARE` of the window's width, in every mode: the
    // Learn panel narrows, and it and a view's docked panel (the script editor) take turns
    // beside the canvas when both do not fit (the caption's switch says which).
    let docked = app.view_is_docked();
    let window = ui.ctx().content_rect().width();
    let room = ui.available_width();
    let turns = app.windows.learn.open && docked && both_crowd_the_canvas(room, window);
    let beside = app.windows.learn.beside;
    let learn_shown = !turns || beside == Beside::Learn;
    let docked_shown = !turns || beside == Beside::Docked;
    let others = if docked && docked_shown {
        DOCKED_MIN
    } else {
        0.0
    };
    // Beside the side panel, its frame's margins are the canvas's to keep as well.
    let slack = if folded { 0.0 } else { PANEL_SLACK };
    let learn_max = room - window * CANVAS_SHARE - others - slack;
    if lesson && learn_shown {
        // Beside the bars below too: the pseudo-code and the open list get the height.
        learn_window::learn_panel_ui(app, ui, learn_max);
    }
    // Always there and always as high: the canvas keeps its place when a run ends.
    let margins = egui::Frame::side_top_panel(ui.style())
        .total_margin()
        .sum()
        .x;
    let pinned = app.timeline().is_some_and(|t| t.pinned.is_some());
    let width = ui.available_width() - margins;
    let timeline_rows = timeline_bar::timeline_rows(ui, width, pinned, app.settings.classroom);
    let timeline_height = rows::panel_height(ui, timeline_rows);
    egui::Panel::bottom("timeline_bar")
        .exact_size(timeline_height)
        .show(ui, |ui| timeline_bar::timeline_ui(app, ui, timeline_rows));
    // Right under the canvas: the moment in words.
    if app.windows.learn.open || app.settings.classroom {
        egui::Panel::bottom("caption").show(ui, |ui| {
            ui.horizontal(|ui| {
                if turns {
                    beside_switch_ui(app, ui);
                }
                learn_window::caption_ui(app, ui);
            });
        });
    }
    if !lesson && learn_shown {
        learn_window::learn_panel_ui(app, ui, learn_max);
    }
    if docked_shown {
        app.with_view(|view, app| {
            if let Some(panels) = view.own_panels() {
                panels.docked_ui(app, ui);
            }
        });
    }
    central_ui(app, ui);
}

/// The share of the window's width the canvas keeps beside the Learn panel and the editor.
pub const CANVAS_SHARE: f32 = 0.4;

/// The least width of a view's docked panel (the script editor), in points.
const DOCKED_MIN: f32 = 240.0;

/// Whether the Learn panel (at its usual width) and a docked panel (at its least) leave the
/// canvas less than [`CANVAS_SHARE`] of a `window` points wide, in the `room` left.
fn both_crowd_the_canvas(room: f32, window: f32) -> bool {
    room - learn_window::LEARN_WIDTH - DOCKED_MIN < window * CANVAS_SHARE
}

/// Which of the Learn panel and the docked panel a lesson shows, when they take turns.
fn beside_switch_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let mut beside = app.windows.learn.beside;
    ui.selectable_value(&mut beside, Beside::Learn, "Learn")
        .on_hover_text("show the Learn panel beside the canvas");
    ui.selectable_value(&mut beside, Beside::Docked, "Editor")
        .on_hover_text("show the editor beside the canvas (the window has no room for both)");
    if beside != app.windows.learn.beside {
        app.push(AppCommand::Window(WindowCommand::LearnBeside(beside)));
    }
    ui.separator();
}

/// The window's width, in points, below which the side panel folds away beside the Learn
/// panel: the side panel, a canvas and the Learn panel side by side.
const SIDE_ROOM: f32 = 1000.0;

/// Whether the side panels, not folded by the setting (F3), are folded for room: the Learn
/// panel open in a window narrower than [`SIDE_ROOM`].
pub(super) fn side_folded_for_room(app: &Panel<'_>, ctx: &egui::Context) -> bool {
    !app.settings.panels_folded && app.windows.learn.open && ctx.content_rect().width() < SIDE_ROOM
}

/// What F3 and the View menu say while the side panels are folded for room.
pub const FOLDED_FOR_ROOM: &str = "No room for the side panels beside the canvas and the \
    Learn panel in this window: close the Learn panel or widen the window (the script's \
    Edit script is in the command palette, Ctrl+K)";

/// The puzzle's own tools on the left and the run's details on the right (the Learn panel's
/// place while it is open).
fn side_and_details_ui(
    app: &mut Panel<'_>,
    ui: &mut egui::Ui,
    scroll: &dyn Fn(&str) -> egui::ScrollArea,
) {
    // Beside the Learn panel the side panel leaves the canvas its share and the Learn
    // panel its least width.
    let max = if app.windows.learn.open {
        let window = ui.ctx().content_rect().width();
        (window * (1.0 - CANVAS_SHARE) - learn_window::LEARN_MIN - PANEL_SLACK).clamp(240.0, 420.0)
    } else {
        420.0
    };
    let side = egui::Panel::left("side_panel")
        .resizable(true)
        .default_size(280.0_f32.min(max))
        .min_size(240.0)
        .max_size(max)
        .show(ui, |ui| {
            scroll("side scroll").show_viewport(ui, |ui, viewport| {
                side_panel_ui(app, ui);
                keep_scrolled_place(ui, viewport);
            });
        });
    let width = side.response.rect.width();
    ui.data_mut(|d| d.insert_temp(egui::Id::unique(SIDE_WIDTH), width));
    if app.windows.learn.open || app.view_is_docked() {
        // The Learn panel, or a view's docked panel (an editor), takes the details panel's
        // place while it is open.
        return;
    }
    if details_folded_for_room(app, ui) {
        return;
    }
    let mut details = app.settings.show_details;
    let shown = egui::Panel::right("details_panel")
        .resizable(true)
        .default_size(250.0)
        .min_size(200.0)
        .max_size(520.0)
        .show_collapsible(ui, &mut details, |ui| {
            scroll("details scroll").show_viewport(ui, |ui, viewport| {
                details_ui(app, ui);
                keep_scrolled_place(ui, viewport);
            });
        });
    if let Some(shown) = shown {
        let width = shown.response.rect.width();
        ui.data_mut(|d| d.insert_temp(egui::Id::unique(DETAILS_WIDTH), width));
    }
    if details != app.settings.show_details {
        app.push(AppCommand::Setting(SettingCommand::ShowDetails(details)));
    }
}

/// The points a panel's frame and separator take beyond the width it is given.
const PANEL_SLACK: f32 = 24.0;

/// The keys under which a frame keeps the side panel's and the details panel's widths (in
/// points, outer) for the next one.
const SIDE_WIDTH: &str = "side panel width";
const DETAILS_WIDTH: &str = "details panel width";

/// Whether the details panel, asked for, is folded away for room in classroom mode: the
/// centre column beside it and the side panel (at their last frames' widths, their defaults
/// before) would be narrower than the timeline's rows need ([`timeline_bar::least_column`]),
/// as with classroom mode's large type at 1024 x 640. The bars around the canvas are then never
/// cut, and the toolbar's Details says why it is off.
pub(super) fn details_folded_for_room(app: &mut Panel<'_>, ui: &egui::Ui) -> bool {
    let shown = app.settings.show_details && !app.settings.panels_folded;
    if !app.settings.classroom || !shown || app.windows.learn.open || app.view_is_docked() {
        return false;
    }
    let window = ui.ctx().content_rect().width();
    let width = |key: &str, default: f32| {
        ui.data(|d| d.get_temp::<f32>(egui::Id::unique(key)))
            .unwrap_or(default)
    };
    let side = width(SIDE_WIDTH, 280.0);
    let margins = egui::Frame::side_top_panel(ui.style())
        .total_margin()
        .sum()
        .x;
    let pinned = app.timeline().is_some_and(|t| t.pinned.is_some());
    window - side - width(DETAILS_WIDTH, 250.0) - margins < timeline_bar::least_column(ui, pinned)
}

/// Keeps a panel's scrolled content where it is on screen when it grows shorter (a window
/// closed, a row gone): room is left at its end down to the bottom of the `viewport` shown,
/// so that the scroll area never pulls the content down under the pointer (a click meant
/// for Hint unticked Optimal moves above it). Scrolling up gives the room back.
fn keep_scrolled_place(ui: &mut egui::Ui, viewport: egui::Rect) {
    let short = viewport.bottom() - ui.min_rect().height();
    if short > 0.5 {
        ui.allocate_space(egui::vec2(0.0, short));
    }
}

/// The canvas (or the race's panes) in the rest of the window, then the windows over it.
fn central_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    egui::CentralPanel::default().show(ui, |ui| {
        if app.runs.race.is_some() {
            race_panel::race_panes_ui(app, ui);
        } else {
            panels::playback_ui(app, ui);
            canvas_ui(app, ui);
        }
    });
    let ctx = ui.ctx().clone();
    app.with_view(|view, app| {
        if let Some(panels) = view.own_panels() {
            panels.windows_ui(app, &ctx);
        }
    });
    timeline_bar::gif_window_ui(app, &ctx);
    space_window::space_window_ui(app, &ctx);
    heuristic_window::heuristic_window_ui(app, &ctx);
    tree_window::tree_window_ui(app, &ctx);
    dialogs::path_field_ui(app, &ctx);
    dialogs::unsaved_ui(app, &ctx);
    dialogs::quit_ui(app, &ctx);
    dialogs::title(app, &ctx);
}

/// Gives egui the theme chosen in the View menu, when it changed.
fn apply_theme(app: &AppState, ctx: &egui::Context) {
    let wanted = match app.settings.theme {
        Theme::System => egui::ThemePreference::System,
        Theme::Light => egui::ThemePreference::Light,
        Theme::Dark => egui::ThemePreference::Dark,
    };
    if ctx.options(|o| o.theme_preference) != wanted {
        ctx.set_theme(wanted);
    }
    // Classroom mode: the whole window at a projector's scale, as large as the window holds
    // the canvas, the Learn panel and the bars at (see `classroom_scale`). Set when the mode
    // or the window's size changes only, so egui's own zoom keys still work between changes.
    let id = egui::Id::unique("classroom applied");
    let classroom = app.settings.classroom;
    let pixels = ctx.content_rect().size() * ctx.zoom_factor();
    let key = (classroom, pixels.x.round() as i32, pixels.y.round() as i32);
    if ctx.data(|d| d.get_temp::<(bool, i32, i32)>(id)) != Some(key) {
        ctx.data_mut(|d| d.insert_temp(id, key));
        ctx.set_zoom_factor(if classroom {
            classroom_scale(pixels)
        } else {
            1.0
        });
    }
}

/// egui's own longest click: a press held longer is a long press, not a click (seconds).
const CLICK_DURATION: f64 = 0.8;

/// The most a slow frame adds to the longest click, in seconds: beyond it a frame is a
/// stall, and a press held over it is a long press.
const SLOW_FRAME_ALLOWANCE: f64 = 10.0;

/// How many frames the slowest recent frame is remembered over.
const SLOW_FRAME_MEMORY: usize = 8;

/// Makes a click a click however long the frames take. egui times a press from the frame
/// that saw the button go down to the frame that saw it come up: with frames over 0.8 s
/// apart (a heavy frame under software rendering on a loaded machine) every click whose
/// press and release fell into two frames was taken for a long press and lost (four clicks
/// on Start in a row after a finished run, a checkbox). The longest click is egui's, plus the
/// slowest of the last few frames (as long as the app keeps drawing; an idle wait is not a
/// frame's cost, and egui's `stable_dt` leaves it out).
fn allow_for_slow_frames(ctx: &egui::Context) {
    let id = egui::Id::unique("recent frame times");
    let dt = f64::from(ctx.input(|i| i.stable_dt)).min(SLOW_FRAME_ALLOWANCE);
    let slowest = ctx.data_mut(|d| {
        let recent = d.get_temp_mut_or_default::<std::collections::VecDeque<f64>>(id);
        recent.push_back(dt);
        if recent.len() > SLOW_FRAME_MEMORY {
            recent.pop_front();
        }
        recent.iter().copied().fold(0.0, f64::max)
    });
    ctx.options_mut(|o| o.input_options.max_click_duration = CLICK_DURATION + slowest);
}

/// The UI's largest scale in classroom mode.
const CLASSROOM_SCALE: f32 = 1.5;

/// The least room, in points, classroom mode keeps for the window: the canvas beside the
/// Learn panel (its pseudo-code and open list), the toolbar, the timeline and the caption.
pub const LESSON_ROOM: egui::Vec2 = egui::vec2(780.0, 500.0);

/// Classroom mode's scale for a window of `pixels`: [`CLASSROOM_SCALE`], or less when the
/// window would then have less room than [`LESSON_ROOM`] (never below 1).
fn classroom_scale(pixels: egui::Vec2) -> f32 {
    (pixels.x / LESSON_ROOM.x)
        .min(pixels.y / LESSON_ROOM.y)
        .clamp(1.0, CLASSROOM_SCALE)
}

/// The left panel: the puzzle types, then the tools of the type on screen.
fn side_panel_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    ui.heading("Puzzle");
    let current = app.work.puzzle.puzzle_type().name;
    for puzzle_type in puzzles::TYPES {
        if ui
            .radio(current == puzzle_type.name, puzzle_type.label)
            .clicked()
        {
            app.push(AppCommand::SelectType(puzzle_type));
        }
    }
    ui.separator();
    let about = (app.type_view()).map(|v| v.describe(&app.view_read()).about);
    if let Some(about) = about {
        egui::CollapsingHeader::new("How this puzzle works")
            .id_salt(("about", current))
            .default_open(true)
            .show(ui, |ui| ui.label(about));
        ui.separator();
    }
    app.with_view(|view, app| view.tools_ui(app, ui));
}

/// The right panel: what the run shows (statistics, legend, plots, solution), the memory
/// limit, the race and the results table.
fn details_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    panels::stats_ui(app, ui);
    panels::memory_limit_ui(app, ui);
    panels::tie_break_ui(app, ui);
    ui.separator();
    timeline_bar::pinned_ui(app, ui);
    breakpoints_panel::breakpoints_ui(app, ui);
    panels::legend_ui(app, ui);
    if app.race().is_some() || !app.marks().samples.is_empty() {
        panels::plots_ui(app, ui);
    }
    if app.result().is_some_and(|r| r.solved) {
        ui.separator();
        panels::solution_ui(app, ui);
    }
    ui.separator();
    race_panel::race_ui(app, ui);
    ui.separator();
    race_panel::results_ui(app, ui);
}

/// "Rows" and "Columns" fields for a board now `size` (rows, columns), each side within
/// `sides`. Returns the new size when the user changed it.
pub(crate) fn size_ui(
    ui: &mut egui::Ui,
    size: (usize, usize),
    sides: std::ops::RangeInclusive<usize>,
) -> Option<(usize, usize)> {
    let (mut rows, mut cols) = size;
    let label = ui.label("Rows");
    ui.add(egui::DragValue::new(&mut rows).range(sides.clone()))
        .labelled_by(label.id);
    let label = ui.label("Columns");
    ui.add(egui::DragValue::new(&mut cols).range(sides))
        .labelled_by(label.id);
    ((rows, cols) != size).then_some((rows, cols))
}
