//! The toolbar above the canvas (Start / Pause / Step / Stop, the algorithm, the speed, Fit)
//! and the keyboard shortcuts that do the same. It stays in sight at any window size: the
//! side panel scrolls under it.

use eframe::egui::{self, RichText};

use super::rows::steady_label;
use crate::app::{AppCommand, Panel, SettingCommand, TimelineCommand};
use crate::search::{Algorithm, Weight};

/// The slowest and fastest animation speeds, in expansions a second; beyond the fastest is
/// Full speed (snapshots, no delay).
pub const SPEEDS: std::ops::RangeInclusive<f64> = 1.0..=1_000_000.0;

/// The keyboard shortcuts, as the tooltips name them.
pub mod keys {
    /// Start a search, or pause / resume the running one.
    pub const START_PAUSE: &str = "Space";
    /// Expand one state.
    pub const STEP: &str = "S or Right arrow";
    /// Stop the running search.
    pub const STOP: &str = "Escape";
    /// Zoom the canvas to fit the puzzle.
    pub const FIT: &str = "F";
    /// Classroom mode on or off.
    pub const CLASSROOM: &str = "F2";
    /// Fold the side panels away, or bring them back.
    pub const FOLD: &str = "F3";
    /// Open the command palette.
    pub const PALETTE: &str = "Ctrl+K or Ctrl+Shift+P";

    /// Every key, with what it does (the Help menu).
    pub const LIST: &[(&str, &str)] = &[
        (START_PAUSE, "start the search, pause it, resume it"),
        ("S", "expand one state (a new search starts paused)"),
        (
            "Right arrow",
            "after a run: one expansion forward on the timeline; else as S",
        ),
        (
            "Left arrow",
            "one expansion back on the timeline (where the arrows move pieces, outside \
             classroom mode: use [ and ])",
        ),
        ("[ and ]", "one expansion back and forward on the timeline"),
        ("Home / End", "the run's first and last moment"),
        (
            ", and .",
            "one micro-step back and forward (Learn window open)",
        ),
        ("+ / -", "twice or half the speed"),
        (STOP, "stop the search"),
        (FIT, "fit the puzzle to the canvas"),
        (CLASSROOM, "classroom mode: large type for a projector"),
        (FOLD, "fold the side panels away, or bring them back"),
        (PALETTE, "the command palette"),
        ("Ctrl+Z / Ctrl+Y", "undo / redo an edit"),
        ("Ctrl+O / Ctrl+S", "open / save a puzzle file"),
        ("Ctrl+Q", "quit"),
    ];
}

/// The toolbar: one row (wrapping in a narrow window).
pub(super) fn toolbar_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    ui.horizontal_wrapped(|ui| {
        controls_ui(app, ui);
        ui.separator();
        algorithm_ui(app, ui);
        ui.separator();
        speed_ui(app, ui);
        ui.separator();
        if ui
            .button("Fit")
            .on_hover_text(format!("Zoom to show the whole puzzle ({})", keys::FIT))
            .clicked()
        {
            app.push(AppCommand::FitView);
        }
        // Off, and saying why, while the details panel cannot be shown: another panel takes
        // its place, the panels are folded, or the window has no room for it.
        let why_off = details_off(app, ui);
        let mut details = app.settings.show_details && why_off.is_none();
        if ui
            .add_enabled_ui(why_off.is_none(), |ui| {
                ui.toggle_value(&mut details, "Details")
            })
            .inner
            .on_hover_text("Show or hide the panel of statistics, plots, solution and results")
            .on_disabled_hover_text(why_off.unwrap_or_default())
            .changed()
        {
            app.push(AppCommand::Setting(SettingCommand::ShowDetails(details)));
        }
    });
}

/// Why the details panel cannot be shown now, if it cannot (the toolbar's Details is then
/// off and says so: a button that lit up with nothing shown was the walk 56's finding E).
fn details_off(app: &mut Panel<'_>, ui: &egui::Ui) -> Option<&'static str> {
    if app.windows.learn.open {
        Some("The Learn panel takes the details panel's place: close it to see the details")
    } else if app.view_is_docked() {
        Some("The editor takes the details panel's place: close it to see the details")
    } else if app.settings.panels_folded {
        Some("The side panels are folded (F3): unfold them to see the details")
    } else if super::details_folded_for_room(app, ui) {
        Some(
            "No room for the details panel beside the canvas at classroom mode's type \
             size in this window: widen the window, or leave classroom mode (F2)",
        )
    } else {
        None
    }
}

/// Start (or Stop with Pause / Resume while a search runs) and Step. Each button keeps its
/// width whatever it says, so the row does not jump.
fn controls_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let width = egui::vec2(58.0, 0.0);
    if app.is_running() {
        if ui
            .add(egui::Button::new("Stop").min_size(width))
            .on_hover_text(format!("Stop the search ({})", keys::STOP))
            .clicked()
        {
            app.push(AppCommand::Stop);
        }
        let (label, command) = if app.is_paused() {
            ("Resume", AppCommand::Resume)
        } else {
            ("Pause", AppCommand::Pause)
        };
        if ui
            .add(egui::Button::new(label).min_size(width))
            .on_hover_text(format!("{label} the search ({})", keys::START_PAUSE))
            .clicked()
        {
            app.push(command);
        }
    } else {
        if ui
            .add(egui::Button::new("Start").min_size(width))
            .on_hover_text(format!("Start the search ({})", keys::START_PAUSE))
            .clicked()
        {
            app.push(AppCommand::Start);
        }
        // Keeps the place of the Pause button, so Step does not move at Start.
        ui.add_enabled(false, egui::Button::new("Pause").min_size(width));
    }
    if ui
        .add(egui::Button::new("Step").min_size(width))
        .on_hover_text(format!("Expand one state, then pause ({})", keys::STEP))
        .clicked()
    {
        app.push(AppCommand::Step);
    }
}

/// The algorithm list, and weighted A*'s weight when it is chosen.
fn algorithm_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let mut chosen = app.algorithm();
    let optimal = if app.work.puzzle.guarantees_optimal(chosen) {
        "finds a least-cost solution"
    } else {
        "may find a costlier solution"
    };
    // One width whatever the name chosen, cut with "…" where longer (the tooltip and the
    // list say it whole): a longer name pushed Full speed, Fit and Details aside. The combo
    // truncates to the room it is given, so it is given just its width.
    const COMBO_WIDTH: f32 = 150.0;
    let room = egui::vec2(COMBO_WIDTH, ui.spacing().interact_size.y);
    let combo = ui
        .allocate_ui(room, |ui| {
            ui.set_min_size(room);
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            egui::ComboBox::from_id_salt("algorithm")
                .selected_text(chosen.label())
                .width(COMBO_WIDTH)
                .truncate()
                .show_ui(ui, |ui| {
                    for algorithm in app.work.puzzle.algorithms() {
                        let is_chosen = chosen.same_kind(algorithm);
                        if ui.selectable_label(is_chosen, algorithm.label()).clicked() && !is_chosen
                        {
                            chosen = algorithm;
                        }
                    }
                })
                .response
        })
        .inner;
    let label = ui.label("Algorithm");
    combo
        .labelled_by(label.id)
        .on_hover_text(format!("{}: {optimal}", chosen.label()));
    // Always there (disabled for the other algorithms), so choosing weighted A* does not
    // rewrap the toolbar and move the canvas.
    let mut w = match chosen {
        Algorithm::WeightedAStar(weight) => weight.value(),
        _ => Weight::DEFAULT.value(),
    };
    let weighted = matches!(chosen, Algorithm::WeightedAStar(_));
    let label = ui.add_enabled(weighted, egui::Label::new("w"));
    let response = ui
        .add_enabled(
            weighted,
            egui::DragValue::new(&mut w)
                .range(1.0..=5.0)
                .speed(0.02)
                .fixed_decimals(1),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "Weighted A*'s weight w: it orders its open list by g + w·h (drag or type; 1 is A*)",
        );
    if response.changed()
        && weighted
        && let Some(weight) = Weight::new(w)
    {
        chosen = Algorithm::WeightedAStar(weight);
    }
    let mark = if app.work.puzzle.guarantees_optimal(chosen) {
        "optimal"
    } else {
        "not optimal"
    };
    steady_label(ui, RichText::new(mark).weak(), &["optimal", "not optimal"])
        .on_hover_text(format!("{}: {optimal}", chosen.label()));
    if chosen != app.algorithm() {
        app.push(AppCommand::SetAlgorithm(chosen));
    }
}

/// The speed: a logarithmic slider over [`SPEEDS`] and Full speed.
fn speed_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let (mut speed, mut full) = (app.settings.speed, app.settings.full_speed);
    ui.spacing_mut().slider_width = 100.0;
    let slider = ui
        .add_enabled(
            !full,
            egui::Slider::new(&mut speed, SPEEDS)
                .logarithmic(true)
                .show_value(false),
        )
        .on_hover_text("Speed: expansions a second, from 1 to 1,000,000");
    slider.widget_info(|| egui::WidgetInfo::slider(!full, speed, "speed"));
    // The value in a label of steady width: 5 /s and 100000 /s take the same room.
    steady_label(ui, format!("{} /s", speed_text(speed)), &["1000000 /s"]);
    let check = ui
        .checkbox(&mut full, "Full speed")
        .on_hover_text("As fast as the machine goes; the canvas shows snapshots");
    if slider.changed() || check.changed() {
        app.push(AppCommand::SetSpeed(speed, full));
    }
}

/// A speed as the toolbar shows it: a whole number a second (expansions, or the playback's
/// moves), or one decimal below 10.
pub(super) fn speed_text(speed: f64) -> String {
    if speed < 10.0 {
        format!("{speed:.1}")
    } else {
        format!("{speed:.0}")
    }
}

/// The keyboard shortcuts of the toolbar and the File menu: Space starts or pauses, S or
/// Right steps, Escape stops, F fits, Ctrl+O opens, Ctrl+S saves, Ctrl+Q quits, Ctrl+Z
/// undoes, Ctrl+Y and Ctrl+Shift+Z redo. None act while a text field has the keyboard.
pub(super) fn shortcuts(app: &mut Panel<'_>, ui: &egui::Ui) {
    // A modal (the path field, the question about unsaved edits) has the keys, Escape to
    // close it; so has a text field with the keyboard.
    let modal = app.windows.path_prompt.is_some() || app.unsaved_question().is_some();
    if modal || ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    let command = |key| egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, key);
    let redo_shift = egui::KeyboardShortcut::new(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    let (undo, redo) = ui.input_mut(|i| {
        // The longer shortcut first, so Ctrl+Shift+Z is not taken for Ctrl+Z.
        let redo = i.consume_shortcut(&redo_shift) || i.consume_shortcut(&command(egui::Key::Y));
        (i.consume_shortcut(&command(egui::Key::Z)), redo)
    });
    if undo {
        app.push(AppCommand::Undo);
    }
    if redo {
        app.push(AppCommand::Redo);
    }
    // An open menu takes Escape to close (egui closes it on the key), so it is not taken
    // here, and it does not stop a search either.
    let menu_open = egui::Popup::is_any_open(ui.ctx());
    if ui.input_mut(|i| i.consume_shortcut(&command(egui::Key::Q))) {
        quit(ui.ctx());
    }
    let (open, save, space, step, escape, fit) = ui.input_mut(|i| {
        let open = i.consume_shortcut(&command(egui::Key::O));
        let save = i.consume_shortcut(&command(egui::Key::S));
        let plain = |i: &mut egui::InputState, key| i.consume_key(egui::Modifiers::NONE, key);
        let space = plain(i, egui::Key::Space);
        let step = (presses(i, egui::Key::ArrowRight), presses(i, egui::Key::S));
        (
            open,
            save,
            space,
            step,
            !menu_open && plain(i, egui::Key::Escape),
            plain(i, egui::Key::F),
        )
    });
    if open {
        app.push(AppCommand::OpenDialog);
    }
    if save {
        app.push(AppCommand::Save);
    }
    if space {
        app.push(match (app.is_running(), app.is_paused()) {
            (false, _) => AppCommand::Start,
            (true, false) => AppCommand::Pause,
            (true, true) => AppCommand::Resume,
        });
    }
    let (right, step) = step;
    // After a run, or back on the timeline of a paused one, Right walks the timeline, as
    // Left does; at the head of a run (or before any) it expands one state, as S does.
    let on_timeline = app.timeline().is_some() && (!app.is_running() || app.is_scrubbed());
    let step = step + if on_timeline { 0 } else { right };
    for _ in 0..step {
        app.push(AppCommand::Step);
    }
    if app.timeline().is_some() {
        timeline_keys(app, ui, if on_timeline { right } else { 0 });
    }
    view_keys(app, ui);
    if escape && app.is_running() {
        app.push(AppCommand::Stop);
    }
    if fit {
        app.push(AppCommand::FitView);
    }
}

/// The timeline's keys: `[` and Left back, `]` (and Right, `forward`) forward, Home and End
/// to the run's ends.
fn timeline_keys(app: &mut Panel<'_>, ui: &egui::Ui, forward: usize) {
    let (back, ahead, home, end) = ui.input_mut(|i| {
        (
            presses(i, egui::Key::OpenBracket) + presses(i, egui::Key::ArrowLeft),
            presses(i, egui::Key::CloseBracket),
            presses(i, egui::Key::Home) > 0,
            presses(i, egui::Key::End) > 0,
        )
    });
    let by = (ahead + forward) as i64 - back as i64;
    if by != 0 {
        app.push(AppCommand::Timeline(TimelineCommand::Step(by)));
    }
    if home {
        app.push(AppCommand::Timeline(TimelineCommand::Seek(0)));
    }
    let (back, ahead) = ui.input_mut(|i| {
        (
            presses(i, egui::Key::Comma) > 0,
            presses(i, egui::Key::Period) > 0,
        )
    });
    if (back || ahead) && app.windows.learn.open {
        app.push(AppCommand::Learn(
            crate::app::learn::LearnCommand::MicroStep(ahead),
        ));
    }
    if end {
        let len = app.timeline_len();
        app.push(AppCommand::Timeline(TimelineCommand::Seek(len)));
    }
}

/// The view's keys: classroom mode (F2), the side panels folded (F3), the speed (+ and -).
fn view_keys(app: &mut Panel<'_>, ui: &egui::Ui) {
    let (classroom, fold, faster, slower) = ui.input_mut(|i| {
        (
            presses(i, egui::Key::F2) > 0,
            presses(i, egui::Key::F3) > 0,
            presses(i, egui::Key::Plus) + presses(i, egui::Key::Equals),
            presses(i, egui::Key::Minus),
        )
    });
    if classroom {
        let on = !app.settings.classroom;
        app.push(AppCommand::Setting(SettingCommand::Classroom(on)));
    }
    if fold && super::side_folded_for_room(app, ui.ctx()) {
        // Folding them would change nothing on screen: why they stay folded is said.
        app.push(AppCommand::SayError(format!(
            "F3: {}.",
            super::FOLDED_FOR_ROOM
        )));
    } else if fold {
        let folded = !app.settings.panels_folded;
        app.push(AppCommand::Setting(SettingCommand::PanelsFolded(folded)));
    }
    if faster + slower > 0 {
        let factor = 2f64.powi(faster as i32 - slower as i32);
        let speed = (app.settings.speed * factor).clamp(*SPEEDS.start(), *SPEEDS.end());
        app.push(AppCommand::SetSpeed(speed, false));
    }
}

/// How many times `key` (without modifiers) went down in this frame, auto-repeats
/// included, taking each press out of the input: five quick presses within one frame are
/// five steps, not one.
fn presses(input: &mut egui::InputState, key: egui::Key) -> usize {
    input.count_and_consume_key(egui::Modifiers::NONE, key)
}

/// Closes the window as its close button does (File > Quit, Ctrl+Q): the work is written to
/// the state file on the way out (see [`crate::app::autosave`]).
pub(super) fn quit(ctx: &egui::Context) {
    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
}

#[cfg(test)]
mod tests {
    use super::keys::LIST;

    /// Walk report W21: the Help menu's list names the palette's two shortcuts and Quit's.
    #[test]
    fn the_key_list_names_the_palette_and_quit() {
        let has = |key: &str| LIST.iter().any(|(k, _)| *k == key);
        assert!(has("Ctrl+K or Ctrl+Shift+P"));
        assert!(has("Ctrl+Q"));
    }
}
