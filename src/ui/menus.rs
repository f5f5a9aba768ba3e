//! The menu bar: File (open, recent files, save, export, quit), Edit, View (the windows,
//! the panels, classroom mode, the theme) and Help (every key).

use eframe::egui::{self, Color32, RichText};

use super::{NOT_KEPT_LABEL, command_palette, toolbar, views};
use crate::app::{AppCommand, Panel, SettingCommand, Theme, WindowCommand};
use crate::puzzles;

/// File > Open Recent: the files opened or saved last, newest first, each with its puzzle
/// type; a click opens one (a file that is gone is taken off with a message).
fn recent_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    if app.settings.recent.is_empty() {
        ui.label(RichText::new("No files opened yet").weak());
        return;
    }
    let mut chosen = None;
    for recent in &app.settings.recent {
        let name = recent.name();
        let label = puzzles::type_by_name(&recent.type_name).map_or("", |t| t.label);
        if ui
            .button(format!("{name} — {label}"))
            .on_hover_text(recent.path.display().to_string())
            .clicked()
        {
            chosen = Some(recent.path.clone());
        }
    }
    if let Some(path) = chosen {
        app.push(AppCommand::OpenRecent(path));
    }
    ui.separator();
    if ui.button("Clear list").clicked() {
        app.push(AppCommand::ClearRecent);
    }
}

pub(super) fn menu_bar_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui
                .add(egui::Button::new("Open…").shortcut_text("Ctrl+O"))
                .clicked()
            {
                app.push(AppCommand::OpenDialog);
            }
            ui.menu_button("Open Recent", |ui| recent_ui(app, ui));
            // What the types' views offer to make (a puzzle script from a template).
            for item in views::new_items() {
                if ui.button(item.label).on_hover_text(item.hint).clicked() {
                    match (item.commands)() {
                        Ok(commands) => commands.into_iter().for_each(|c| app.push(c)),
                        Err(e) => app.push(AppCommand::SayError(e)),
                    }
                }
            }
            if ui
                .add(egui::Button::new("Save").shortcut_text("Ctrl+S"))
                .clicked()
            {
                app.push(AppCommand::Save);
            }
            if ui.button("Save as…").clicked() {
                app.push(AppCommand::SaveDialog);
            }
            ui.separator();
            if ui.button("Export canvas as PNG…").clicked() {
                app.push(AppCommand::ExportCanvasDialog);
            }
            let solved = app.result().is_some_and(|r| r.solved);
            if ui
                .add_enabled(solved, egui::Button::new("Export solution moves…"))
                .clicked()
            {
                app.push(AppCommand::ExportMovesDialog);
            }
            let traced = app
                .timeline_recording()
                .is_some_and(|t| !t.is_empty() && !t.has_boards());
            if ui
                .add_enabled(
                    traced && app.result().is_some(),
                    egui::Button::new("Export search trace…"),
                )
                .on_hover_text("The last run as a trace for Posthoc, the search trace viewer")
                .clicked()
            {
                app.push(AppCommand::ExportTraceDialog);
            }
            let animated = app.timeline_recording().is_some_and(|r| !r.has_boards());
            if ui
                .add_enabled(animated, egui::Button::new("Export search as GIF…"))
                .on_hover_text("The last run as an animated picture")
                .clicked()
            {
                app.push(AppCommand::Window(WindowCommand::GifWindow(true)));
                ui.close();
            }
            ui.separator();
            if ui
                .add(egui::Button::new("Quit").shortcut_text("Ctrl+Q"))
                .clicked()
            {
                toolbar::quit(ui.ctx());
            }
        });
        ui.menu_button("View", |ui| view_menu_ui(app, ui));
        ui.menu_button("Puzzles", |ui| {
            // The list is longer than an 800 x 600 window: it scrolls (with a bar in sight)
            // instead of running off the bottom.
            let room = (ui.ctx().content_rect().bottom() - ui.min_rect().top() - 16.0).max(120.0);
            ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
            egui::ScrollArea::vertical()
                .id_salt("shipped puzzles")
                .max_height(room)
                .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::VisibleWhenNeeded)
                .show(ui, |ui| {
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                    for (puzzle_type, shipped) in puzzles::shipped() {
                        if ui
                            .button(format!("{} — {}", puzzle_type.label, shipped.file))
                            .clicked()
                        {
                            app.push(AppCommand::OpenShipped(puzzle_type, shipped));
                        }
                    }
                });
        });
        ui.menu_button("Help", help_menu_ui);
        if let Some(why) = app.autosave_off() {
            // A lasting sign, not only a status line the next message replaces: this window
            // does not keep its work in the state file (another window does, or the file
            // could not be read and is left as it is).
            ui.separator();
            ui.label(RichText::new(NOT_KEPT_LABEL).color(Color32::from_rgb(200, 40, 40)))
                .on_hover_text(format!("{why} Save to a file to keep the work."));
        }
        if let Some(path) = &app.settings.path {
            ui.separator();
            // The window title's mark for unsaved edits, here too: under Xvfb or full screen
            // the title bar is not in sight.
            let mark = if app.is_modified() { " *" } else { "" };
            let label = ui.label(RichText::new(format!("{}{mark}", path.display())).weak());
            if app.is_modified() {
                label.on_hover_text("Edited since it was opened or saved");
            }
        }
    });
}

/// The View menu: the command palette, the Learn window, classroom mode, the side panels,
/// the theme.
fn view_menu_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    if ui
        .button(format!(
            "Command palette…  {}",
            command_palette::PALETTE_KEYS
        ))
        .clicked()
    {
        command_palette::open(ui.ctx());
        ui.close();
    }
    let mut learn = app.windows.learn.open;
    ui.checkbox(&mut learn, "Learn: pseudo-code and open list")
        .on_hover_text("the algorithm's lines, lit as the run goes; the open list");
    if learn != app.windows.learn.open {
        app.push(AppCommand::Window(WindowCommand::Learn(learn)));
    }
    let mut classroom = app.settings.classroom;
    ui.checkbox(
        &mut classroom,
        format!("Classroom mode  {}", toolbar::keys::CLASSROOM),
    )
    .on_hover_text("large type for a projector; the run driven by keys (Help)");
    if classroom != app.settings.classroom {
        app.push(AppCommand::Setting(SettingCommand::Classroom(classroom)));
    }
    // Ticked and off while the Learn panel leaves no room for them, saying why.
    let for_room = super::side_folded_for_room(app, ui.ctx());
    let mut folded = app.settings.panels_folded || for_room;
    ui.add_enabled(
        !for_room,
        egui::Checkbox::new(
            &mut folded,
            format!("Fold the side panels  {}", toolbar::keys::FOLD),
        ),
    )
    .on_disabled_hover_text(super::FOLDED_FOR_ROOM);
    if !for_room && folded != app.settings.panels_folded {
        app.push(AppCommand::Setting(SettingCommand::PanelsFolded(folded)));
    }
    ui.separator();
    ui.label("Theme");
    let mut chosen = app.settings.theme;
    for theme in Theme::ALL {
        ui.radio_value(&mut chosen, theme, theme.label());
    }
    if chosen != app.settings.theme {
        app.push(AppCommand::Setting(SettingCommand::Theme(chosen)));
    }
}

/// The Help menu: every key and what it does.
fn help_menu_ui(ui: &mut egui::Ui) {
    ui.label(RichText::new("Keys").strong());
    egui::Grid::new("keys").show(ui, |ui| {
        for (key, what) in toolbar::keys::LIST {
            ui.label(RichText::new(*key).monospace());
            ui.label(*what);
            ui.end_row();
        }
    });
}
