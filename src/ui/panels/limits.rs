//! The run's limits in the side panel: the memory budget and the tie-breaking policy.

use eframe::egui;

use crate::app::{AppCommand, Panel, SettingCommand};

/// The memory budget of each search, in MiB (a setting; the default is half of the memory
/// this process may use).
pub(in crate::ui) fn memory_limit_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    use crate::search::limits::{MIB, default_memory_budget, format_bytes};
    let default_mib = default_memory_budget() / MIB;
    let mut mib = app.settings.memory_limit_mib.unwrap_or(default_mib);
    ui.horizontal(|ui| {
        ui.label("Memory limit");
        let drag = ui
            .add(
                egui::DragValue::new(&mut mib)
                    .range(16..=1024 * 1024)
                    .speed(16.0)
                    .suffix(" MiB"),
            )
            .on_hover_text(format!(
                "A search stops, with a message, before its closed set, frontier and stacks \
                 would use more than this. Default: half of the memory available, {}.",
                format_bytes(default_memory_budget())
            ));
        if drag.changed() {
            app.push(AppCommand::Setting(SettingCommand::MemoryLimit(Some(mib))));
        }
        if app.settings.memory_limit_mib.is_some()
            && ui
                .small_button("Default")
                .on_hover_text("Go back to half of the memory available")
                .clicked()
        {
            app.push(AppCommand::Setting(SettingCommand::MemoryLimit(None)));
        }
    });
}

/// Which of the states of equal priority the best-first searches expand first (a setting;
/// see [`crate::search::TieBreak`]). Applies from the next run.
pub(in crate::ui) fn tie_break_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    use crate::search::TieBreak;
    let chosen = app.settings.tie_break;
    egui::ComboBox::from_label("Equal f: expand")
        .selected_text(chosen.label())
        .show_ui(ui, |ui| {
            for t in TieBreak::ALL {
                if ui.selectable_label(t == chosen, t.label()).clicked() {
                    app.push(AppCommand::Setting(SettingCommand::TieBreak(t)));
                }
            }
        })
        .response
        .on_hover_text(
            "Among states of equal priority f on the open list (Dijkstra, A*, weighted A*, \
             greedy, JPS, bidirectional A*), which is expanded first. The cost found does not \
             change; the number of states expanded can, a lot (larger g first is the default).",
        );
}
