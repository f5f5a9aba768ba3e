//! The script view's opt-in capabilities (see [`crate::app::view_capabilities`]): its
//! frame's work (following the script on screen, asking it about the state shown, Ctrl+S,
//! the file's watch), the docked editor, saving itself, forgetting what it knew of a
//! replaced script, and the settings it keeps (the editor open or not, unsaved drafts).

use std::collections::BTreeMap;

use eframe::egui;

use super::{Kept, MAX_KEPT_DRAFTS, ScriptView, kept_bytes};
use crate::app::{FollowsPuzzle, FrameWork, KeepsSettings, OwnPanels, SavesItself};
use crate::app::{ViewDraw, ViewWrite};
use crate::puzzles::script;

impl FrameWork for ScriptView {
    fn tick(&mut self, app: &mut ViewWrite<'_>, ctx: &egui::Context) {
        self.sync(app);
        // What drawing shows of the state on screen, asked of the script here.
        self.relist(app);
        self.replay(app);
        if self.editor.open {
            let save = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::S);
            if ctx.input_mut(|i| i.consume_shortcut(&save)) {
                self.editor.save(app);
            }
        }
        // The file's watch is the app's work; it and the reloads send their news as the
        // view's commands.
        self.editor.watch(app);
    }
}

impl OwnPanels for ScriptView {
    fn is_docked(&self) -> bool {
        self.editor.open
    }

    fn docked_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        if !self.editor.open {
            return;
        }
        self.sync(app);
        // The canvas keeps at least half of what is left of the window, and at least its
        // share of the window's width (beside the side panel at 1024 x 640 it kept 34 %).
        let room = ui.available_width();
        let share = ui.ctx().content_rect().width() * crate::ui::CANVAS_SHARE;
        let max = (room * 0.5).min(room - share - 24.0).max(240.0);
        egui::Panel::right("script_editor")
            .resizable(true)
            .default_size(420.0_f32.min(max))
            .min_size(240.0_f32.min(max))
            .max_size(max)
            .show(ui, |ui| {
                let failed = self.listed.as_ref().and_then(|(_, l)| l.error());
                let failed = failed.map(script::ScriptError::format_error);
                self.editor.panel_ui(app, ui, failed);
            });
    }
}

impl SavesItself for ScriptView {
    /// While the editor is open, File > Save writes its text and reloads the script, as
    /// Ctrl+S does.
    fn saves_itself(&self) -> bool {
        self.editor.open
    }

    fn save(&mut self, app: &mut ViewWrite<'_>) {
        self.editor.save(app);
    }

    /// File > Save As's answer while the editor is open: the editor's text is written to
    /// `path` and loaded, as the editor's own Save As does.
    fn save_as(&mut self, app: &mut ViewWrite<'_>, path: std::path::PathBuf) {
        self.sync(app);
        self.editor.save_as(app, path);
    }

    fn unkept_edits(&self) -> Option<String> {
        self.editor.too_large_to_keep().then(|| {
            "The script editor's unsaved text is too large to be kept across restarts: \
             quitting now loses it. Save it first (Ctrl+S in the editor)."
                .to_owned()
        })
    }
}

impl FollowsPuzzle for ScriptView {
    fn puzzle_replaced(&mut self) {
        self.editor.synced = false;
        self.listed = None;
        self.parameter = None;
    }
}

impl KeepsSettings for ScriptView {
    fn settings(&self) -> Option<serde_json::Value> {
        // The text being edited first, then the others while they fit.
        let mut drafts = BTreeMap::new();
        let mut total = 0;
        let current = (self.editor.is_dirty() && !self.editor.key.is_empty())
            .then_some((&self.editor.key, &self.editor.text));
        for (key, text) in current.into_iter().chain(&self.drafts) {
            total += kept_bytes(key, text);
            if total > MAX_KEPT_DRAFTS {
                break;
            }
            drafts.insert(key.clone(), text.clone());
        }
        serde_json::to_value(Kept {
            editor_open: self.editor.open,
            drafts,
        })
        .ok()
    }
}

/// The script's own commands in the command palette: Edit script (the side panel's button,
/// folded away in a lesson at 1024 x 640, the walk 56's finding D).
pub(super) const COMMANDS: &[super::NewItem] = &[super::NewItem {
    label: "Edit script",
    hint: "the script's text beside the canvas; Ctrl+S saves and reloads it",
    commands: edit_script,
}];

/// Edit script: the editor open, and shown at once where it takes turns with the Learn
/// panel.
fn edit_script() -> Result<Vec<crate::app::AppCommand>, String> {
    Ok(vec![
        crate::app::AppCommand::View(crate::app::ViewCommand::new(super::Command::OpenEditor)),
        crate::app::AppCommand::Window(crate::app::WindowCommand::LearnBeside(
            crate::app::learn::Beside::Docked,
        )),
    ])
}
