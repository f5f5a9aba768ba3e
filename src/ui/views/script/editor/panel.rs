//! The script editor's panel: the file and its state, Save, Revert and Close, the error,
//! the choice after an outside change, the last run's answer, and the text with its colours
//! and line numbers. The editor's document (its text, file, reloads and watch) is
//! `editor/mod.rs`; this only draws it and sends the view's commands.

use eframe::egui;

use super::super::highlight;
use super::{Editor, FormatError};
use crate::app::ViewDraw;

impl Editor {
    /// The text laid out with its colours (remade only when the text, the error's line or
    /// the theme changed).
    fn layout_job(&mut self, text: &str, font: egui::FontId, dark: bool) -> egui::text::LayoutJob {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut hasher);
        let hash = hasher.finish();
        let line = self.marked_line();
        if let Some((h, l, d, job)) = &self.layout_cache
            && (*h, *l, *d) == (hash, line, dark)
        {
            return job.clone();
        }
        let job = highlight::layout(text, font, dark, line);
        self.layout_cache = Some((hash, line, dark, job.clone()));
        job
    }

    /// The editor's panel: the file and its state, Save, Revert and Close, the error, the
    /// choice after an outside change, the last run's answer, and the text. `failed` is the
    /// loaded script's error on the state on screen, if it has one.
    pub fn panel_ui(
        &mut self,
        app: &mut ViewDraw<'_>,
        ui: &mut egui::Ui,
        failed: Option<FormatError>,
    ) {
        self.failed = failed;
        self.run_error = app.result().and_then(|r| r.error.clone());
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new("Script editor").strong());
            ui.label(egui::RichText::new(self.file_label()).weak());
        });
        ui.horizontal_wrapped(|ui| {
            let hint = if self.file.is_some() {
                "Ctrl+S: write the file and reload the script"
            } else {
                "Ctrl+S: reload the script, then choose a file to save it to"
            };
            if ui.button("Save and reload").on_hover_text(hint).clicked() {
                app.push_view(super::super::Command::SaveEditor);
            }
            if ui
                .add_enabled(self.is_dirty(), egui::Button::new("Revert"))
                .on_hover_text("back to the text last saved (drops the unsaved edits)")
                .clicked()
            {
                app.push_view(super::super::Command::RevertEditor);
            }
            if ui
                .button("Close editor")
                .on_hover_text("unsaved edits are kept for when it opens again")
                .clicked()
            {
                app.push_view(super::super::Command::CloseEditor);
            }
        });
        // Below the text, so that a message coming or going never moves the lines under the
        // pointer (the text jumped by two lines when an error appeared).
        egui::Panel::bottom("script_editor_messages").show(ui, |ui| self.messages_ui(app, ui));
        ui.separator();
        self.text_ui(ui);
    }

    /// The error (with the last good version's note) or the last note, the conflict's
    /// question, and the last run's answer.
    fn messages_ui(&self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        if let Some(text) = self.error_text() {
            let red = ui.visuals().error_fg_color;
            ui.label(egui::RichText::new(text).color(red));
            ui.label(egui::RichText::new("The last good version stays loaded.").weak());
        } else if let Some(e) = &self.failed {
            // A run-time error of the script loaded, as red as a compile error.
            let red = ui.visuals().error_fg_color;
            ui.label(egui::RichText::new(self.located(e)).color(red));
            ui.label(egui::RichText::new("(at the state on screen)").weak());
        } else if let Some(note) = &self.note {
            ui.label(egui::RichText::new(note).weak());
        }
        if self.too_large_to_keep() {
            ui.label(
                egui::RichText::new(
                    "This unsaved text is too large to be kept across restarts: save it.",
                )
                .color(ui.visuals().warn_fg_color),
            );
        }
        if self.conflict.is_some() {
            ui.label(
                egui::RichText::new("The file changed on disk, and the editor has unsaved edits.")
                    .color(ui.visuals().error_fg_color),
            );
            ui.horizontal_wrapped(|ui| {
                if ui
                    .button("Load the file")
                    .on_hover_text("drop the editor's edits and reload the file's text")
                    .clicked()
                {
                    app.push_view(super::super::Command::ResolveConflict(true));
                }
                if ui
                    .button("Keep my edits")
                    .on_hover_text("keep the editor's text (unsaved); Save writes it")
                    .clicked()
                {
                    app.push_view(super::super::Command::ResolveConflict(false));
                }
            });
        }
        if let Some(e) = &self.run_error {
            let red = ui.visuals().error_fg_color;
            let text = format!("Last run: stopped at a script error: {}", self.located(e));
            ui.label(egui::RichText::new(text).color(red));
        } else if let Some(report) = app.result() {
            let line = if report.solved {
                format!(
                    "Last run: {}{}",
                    crate::app::count(report.moves.len() as u64, "move"),
                    if report.optimal { ", optimal" } else { "" }
                )
            } else {
                let why = match report.outcome {
                    crate::search::Outcome::NotFound => "no solution",
                    crate::search::Outcome::Cancelled => "stopped",
                    crate::search::Outcome::MemoryLimit => "at the memory limit",
                    crate::search::Outcome::Timeout => "at the time limit",
                    crate::search::Outcome::ScriptError => "script error",
                    crate::search::Outcome::Found => "found",
                };
                format!("Last run: {why}")
            };
            ui.label(egui::RichText::new(line).weak());
        }
    }

    /// The text with line numbers in a gutter, its long lines wrapped at the editor's width
    /// (a narrow editor at 1024 x 640 cut the template's own comments, the walk's W1; a
    /// wrapped line's number stands at its first row), scrolling down.
    fn text_ui(&mut self, ui: &mut egui::Ui) {
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let dark = ui.visuals().dark_mode;
        let lines = self.text.lines().count().max(1) + usize::from(self.text.ends_with('\n'));
        let digits = lines.to_string().len().max(2);
        let gutter = ui.fonts_mut(|f| f.glyph_width(&font, '0')) * (digits as f32 + 1.5);
        let error_line = self.marked_line();
        let red = ui.visuals().error_fg_color;
        let label = ui.label("Script text").id;
        // A new error's line is brought into view (the walk's W1: Ctrl+S marked line 14
        // below the editor's fold, and nothing showed it).
        let scroll_to = error_line.filter(|l| self.scrolled_to != Some(*l));
        self.scrolled_to = error_line;
        let mut text = std::mem::take(&mut self.text);
        egui::ScrollArea::vertical()
            .id_salt("script editor text")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    let (gutter_rect, _) =
                        ui.allocate_exact_size(egui::vec2(gutter, 1.0), egui::Sense::hover());
                    let mut layouter = |ui: &egui::Ui, buffer: &dyn egui::TextBuffer, w: f32| {
                        let mut job = self.layout_job(buffer.as_str(), font.clone(), dark);
                        job.wrap.max_width = w;
                        ui.fonts_mut(|f| f.layout_job(job))
                    };
                    let output = egui::TextEdit::multiline(&mut text)
                        .id_salt("script editor")
                        .code_editor()
                        .desired_rows(30)
                        .desired_width(f32::INFINITY)
                        .layouter(&mut layouter)
                        .show(ui);
                    output.response.response.clone().labelled_by(label);
                    // The line numbers, each at its row (a row that ends a line starts the next).
                    let painter = ui.painter();
                    let mut line = 1;
                    let mut starts_line = true;
                    for row in &output.galley.rows {
                        if starts_line {
                            let y = output.galley_pos.y + row.pos.y;
                            let marked = error_line == Some(line);
                            if marked {
                                let rect = egui::Rect::from_min_size(
                                    egui::pos2(gutter_rect.left(), y),
                                    egui::vec2(gutter, row.height()),
                                );
                                marked_line_ui(ui, rect, line, scroll_to == Some(line));
                            }
                            let colour = if marked {
                                red
                            } else {
                                ui.visuals().weak_text_color()
                            };
                            let number = if marked {
                                format!(">{line}")
                            } else {
                                line.to_string()
                            };
                            painter.text(
                                egui::pos2(gutter_rect.right() - 4.0, y),
                                egui::Align2::RIGHT_TOP,
                                number,
                                font.clone(),
                                colour,
                            );
                        }
                        starts_line = row.ends_with_newline;
                        if starts_line {
                            line += 1;
                        }
                    }
                });
            });
        self.text = text;
    }
}

/// The gutter's mark of the error's `line` at `rect`, named for a screen reader ("Marked
/// line 14"), scrolled into view when `scroll` (a new error's line).
fn marked_line_ui(ui: &egui::Ui, rect: egui::Rect, line: usize, scroll: bool) {
    let response = ui.interact(
        rect,
        ui.scope_id().with("marked line"),
        egui::Sense::hover(),
    );
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Label, true, format!("Marked line {line}"))
    });
    if scroll {
        ui.scroll_to_rect(rect, Some(egui::Align::Center));
    }
}
