//! Dialogs of the window: "save the unsaved edits?" before a puzzle is replaced, the path
//! field shown when no file dialog can be, and the window title.

use eframe::egui;

use crate::app::{AppCommand, AppState, Panel, UnsavedChoice, WindowCommand};

/// The question about unsaved edits, as a modal: Save, Discard or Cancel (Escape cancels);
/// or, when it is about the run shown, Discard the run or Cancel.
pub(super) fn unsaved_ui(app: &mut Panel<'_>, ctx: &egui::Context) {
    if app.unsaved_question().is_none() {
        return;
    }
    let choice = if app.question_is_about_run() {
        question_modal(
            ctx,
            "Discard the run?",
            "Opening that state puts it on screen in place of the puzzle: the run shown \
             (its result and timeline) is discarded.",
            &[
                ("Discard the run", UnsavedChoice::Discard),
                ("Cancel", UnsavedChoice::Cancel),
            ],
        )
    } else {
        let name = app.run_name();
        question_modal(
            ctx,
            "Unsaved edits",
            &format!(
                "{name} has edits that are not saved. Save them before opening another puzzle?"
            ),
            &[
                ("Save", UnsavedChoice::Save),
                ("Discard", UnsavedChoice::Discard),
                ("Cancel", UnsavedChoice::Cancel),
            ],
        )
    };
    if let Some(choice) = choice {
        app.push(AppCommand::AnswerUnsaved(choice));
    }
}

/// The question at a close request while unsaved edits would be lost (see
/// [`crate::app::SavesItself::unkept_edits`]): Quit without saving, or Cancel.
pub(super) fn quit_ui(app: &mut Panel<'_>, ctx: &egui::Context) {
    let Some(what) = app.windows.quit_question.clone() else {
        return;
    };
    let choice = question_modal(
        ctx,
        "Quit without saving?",
        &what,
        &[
            ("Quit without saving", UnsavedChoice::Discard),
            ("Cancel", UnsavedChoice::Cancel),
        ],
    );
    if let Some(choice) = choice {
        app.push(AppCommand::Window(WindowCommand::AnswerQuit(choice)));
    }
}

/// A modal question: `heading`, `text`, and a row of `buttons` (label, answer); returns the
/// answer clicked, or [`UnsavedChoice::Cancel`] when it is closed otherwise (Escape, a
/// click outside). The modal's id is its heading, so each question keeps its own.
fn question_modal(
    ctx: &egui::Context,
    heading: &str,
    text: &str,
    buttons: &[(&str, UnsavedChoice)],
) -> Option<UnsavedChoice> {
    let mut choice = None;
    let modal = egui::Modal::new(egui::Id::unique(heading)).show(ctx, |ui| {
        ui.heading(heading);
        ui.label(text);
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            for &(label, answer) in buttons {
                if ui.button(label).clicked() {
                    choice = Some(answer);
                }
            }
        });
    });
    if modal.should_close() && choice.is_none() {
        choice = Some(UnsavedChoice::Cancel);
    }
    choice
}

/// The path field, a modal shown when no file dialog could be: type a path, then Enter or
/// the button does what the dialog would have; Cancel or Escape closes it. The field has the
/// keyboard from the moment it opens, its text (the last folder) selected, so typing
/// replaces it and no letter reaches the window's shortcuts.
pub(super) fn path_field_ui(app: &mut Panel<'_>, ctx: &egui::Context) {
    let Some((kind, text)) = &app.windows.path_prompt else {
        return;
    };
    // The field edits a copy; a change goes to the app as a command.
    let (kind, mut text) = (*kind, text.clone());
    let before = text.clone();
    let text = &mut text;
    let mut go = false;
    let mut cancel = false;
    let modal = egui::Modal::new(egui::Id::unique("path field")).show(ctx, |ui| {
        ui.heading(kind.title());
        ui.label("No file dialog could be shown here: type the file's path.");
        let label = ui.label("File path:");
        let mut output = egui::TextEdit::singleline(text)
            .desired_width(420.0)
            .show(ui);
        let field = output.response.response.clone().labelled_by(label.id);
        let id = egui::Id::unique("path field opened");
        if !ui.data(|d| d.get_temp::<bool>(id).unwrap_or(false)) {
            ui.data_mut(|d| d.insert_temp(id, true));
            field.request_focus();
            let all = egui::text::CCursorRange::two(
                egui::text::CCursor::new(0),
                egui::text::CCursor::new(text.chars().count()),
            );
            output.state.cursor.set_char_range(Some(all));
            output.state.store(ui.ctx(), field.id);
        }
        go = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        ui.horizontal(|ui| {
            go |= ui.button(kind.verb()).clicked();
            cancel = ui.button("Cancel").clicked();
        });
    });
    // Escape, or a click outside the modal.
    cancel |= modal.should_close();
    let path = text.trim().to_owned();
    if *text != before {
        app.push(AppCommand::Window(WindowCommand::PathText(text.clone())));
    }
    if go && !path.is_empty() {
        app.push(AppCommand::DialogAnswered(kind, Some(path.into())));
        app.push(AppCommand::CancelPath);
    } else if cancel {
        app.push(AppCommand::CancelPath);
    }
    if go || cancel {
        ctx.data_mut(|d| d.remove_temp::<bool>(egui::Id::unique("path field opened")));
    }
}

/// Sets the window title (file name, and a mark for unsaved edits) when it changes.
pub(super) fn title(app: &AppState, ctx: &egui::Context) {
    let title = app.title();
    let id = egui::Id::unique("window title");
    if ctx.data(|d| d.get_temp::<String>(id)).as_ref() != Some(&title) {
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
        ctx.data_mut(|d| d.insert_temp(id, title));
    }
}
