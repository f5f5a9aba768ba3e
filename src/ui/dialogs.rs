//! Dialogs of the window: "save the unsaved edits?" before a puzzle is replaced, the path
//! field shown when no file dialog can be, and the window title.

use eframe::egui;

use crate::app::{AppCommand, PuzzleLabApp, UnsavedChoice};

/// The question about unsaved edits, as a modal: Save, Discard or Cancel (Escape cancels).
pub(super) fn unsaved_ui(app: &mut PuzzleLabApp, ctx: &egui::Context) {
    if app.unsaved_question().is_none() {
        return;
    }
    let name = app.run_name();
    let mut choice = None;
    let modal = egui::Modal::new(egui::Id::unique("unsaved edits")).show(ctx, |ui| {
        ui.heading("Unsaved edits");
        ui.label(format!(
            "{name} has edits that are not saved. Save them before opening another puzzle?"
        ));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                choice = Some(UnsavedChoice::Save);
            }
            if ui.button("Discard").clicked() {
                choice = Some(UnsavedChoice::Discard);
            }
            if ui.button("Cancel").clicked() {
                choice = Some(UnsavedChoice::Cancel);
            }
        });
    });
    if modal.should_close() && choice.is_none() {
        choice = Some(UnsavedChoice::Cancel);
    }
    if let Some(choice) = choice {
        app.push(AppCommand::AnswerUnsaved(choice));
    }
}

/// The path field, shown above the canvas when no file dialog could be: type a path, then
/// Enter or the button does what the dialog would have; Cancel closes it.
pub(super) fn path_field_ui(app: &mut PuzzleLabApp, ui: &mut egui::Ui) {
    let Some((kind, text)) = &mut app.path_prompt else {
        return;
    };
    let kind = *kind;
    let mut go = false;
    let mut cancel = false;
    ui.horizontal(|ui| {
        let label = ui.label("File path:");
        // The row fits the canvas's width: the field takes what the buttons leave.
        let width = (ui.available_width() - 260.0).max(80.0);
        let field = ui
            .add(egui::TextEdit::singleline(text).desired_width(width))
            .labelled_by(label.id);
        go = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        go |= ui.button(kind.verb()).clicked();
        cancel = ui.button("Cancel").clicked();
    });
    let path = text.trim().to_owned();
    if go && !path.is_empty() {
        app.push(kind.command(path.into()));
        app.push(AppCommand::CancelPath);
    } else if cancel {
        app.push(AppCommand::CancelPath);
    }
    ui.separator();
}

/// Sets the window title (file name, and a mark for unsaved edits) when it changes.
pub(super) fn title(app: &PuzzleLabApp, ctx: &egui::Context) {
    let title = app.title();
    let id = egui::Id::unique("window title");
    if ctx.data(|d| d.get_temp::<String>(id)).as_ref() != Some(&title) {
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
        ctx.data_mut(|d| d.insert_temp(id, title));
    }
}
