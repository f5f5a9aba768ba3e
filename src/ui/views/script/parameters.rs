//! A script's parameters: their number fields in the panel, and a change compiled again
//! (its top level and `start()` run) by the app's work for the view, whose answer comes back
//! as [`Command::ParameterSet`].

use eframe::egui;

use super::{Command, ScriptView, editor};
use crate::app::{ViewDraw, ViewWrite, WorkOrder};
use crate::puzzles::script::Script;
use crate::search::CancelToken;

/// The view's name for the work of a parameter change.
const SETTING: &str = "script-parameter";

/// What a parameter change's work answers: the new version, or the script's error at that
/// value.
pub struct ParameterAnswer(pub(super) Result<Script, String>);

impl std::fmt::Debug for ParameterAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_ok() {
            "ParameterAnswer(Ok(..))"
        } else {
            "ParameterAnswer(Err(..))"
        })
    }
}

impl ScriptView {
    /// Sets parameter `name` to `value`: the script is compiled again with it (its top level
    /// and `start()` run) on a job, as a reload is, and the new version replaces the one on
    /// screen as an edit (undone by Ctrl+Z) once it is made, within this frame when it comes
    /// at once. A change asked meanwhile replaces it.
    pub(super) fn set_parameter(&mut self, app: &mut ViewWrite<'_>, name: String, value: i64) {
        let Some(script) = app.model::<Script>().cloned() else {
            return;
        };
        let order = WorkOrder::new(
            SETTING,
            "script-reload",
            CancelToken::new(),
            move |_| {
                let mut script = script;
                let set = script.set_parameter(&name, value).map(|()| script);
                Command::ParameterSet(ParameterAnswer(set))
            },
            |e| Command::ParameterSet(ParameterAnswer(Err(e.to_string()))),
        );
        match app.start_work(order) {
            Ok(()) => {
                self.parameter = Some(app.revision());
                app.wait_for_work(SETTING, editor::RELOAD_WAIT);
                if app.is_working(SETTING) {
                    app.set_status("Setting the parameter: the script runs start() again…");
                }
            }
            Err(e) => app.set_error(format!("Could not set the parameter: {e}")),
        }
    }

    /// Takes the parameter change's new version; one made from a puzzle edited since is
    /// dropped.
    pub(super) fn parameter_set(&mut self, app: &mut ViewWrite<'_>, answer: ParameterAnswer) {
        let Some(revision) = self.parameter.take() else {
            return;
        };
        if revision != app.revision() {
            return;
        }
        match answer.0 {
            Ok(new) => {
                app.edit_model(|s: &mut Script| {
                    *s = new;
                    true
                });
                app.set_status("Parameter set: the script is at its new start.");
            }
            Err(e) => app.set_error(format!("Script error: {e}")),
        }
    }

    /// The script's parameters as number fields.
    pub(super) fn parameters_ui(app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        let Some(parameters) = app.model::<Script>().map(|s| s.parameters().to_vec()) else {
            return;
        };
        for p in parameters {
            let mut value = p.value;
            ui.horizontal(|ui| {
                let label = ui.label(format!("Parameter {}", p.name));
                ui.add(egui::DragValue::new(&mut value).range(p.min..=p.max))
                    .labelled_by(label.id)
                    .on_hover_text(format!(
                        "from {} to {}; default {}",
                        p.min, p.max, p.default
                    ));
            });
            if value != p.value {
                app.push_view(Command::SetParameter(p.name.clone(), value));
            }
        }
    }
}
