//! Puzzle scripts: the panel shows the script's description and source, its parameters as
//! controls, and the moves of the state on screen as buttons that play them by hand (a click
//! on a drawn cell plays the move naming it); the canvas draws the script's `draw(state)`.
//! The script editor (`editor.rs`) docks beside the canvas; File > New puzzle script opens
//! the template (`template.rhai`) in it.

mod capabilities;
mod editor;
mod highlight;
mod parameters;

use parameters::ParameterAnswer;
use std::any::Any;
use std::collections::BTreeMap;
use std::path::PathBuf;

use eframe::egui;
use serde::{Deserialize, Serialize};

use super::{Entry, NewItem};
use crate::app::{AppAccess, CapabilityKind, Description, ViewCapability, ViewContext, ViewDraw};
use crate::app::{AppCommand, CanvasExtras, Pointer, TypeView, ViewCommand, ViewRead, ViewWrite};
use crate::puzzles::Cell;
use crate::puzzles::script::{self, Script};

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &script::TYPE,
    make: |kept| Box::new(ScriptView::new(kept)),
    claims: super::claims_none,
    new: &[NewItem {
        label: "New puzzle script",
        hint: "a small working script that explains each part of the contract, opened in \
               the script editor",
        commands: new_script,
    }],
    commands: capabilities::COMMANDS,
};

/// The script File > New puzzle script opens: a small working puzzle whose comments explain
/// each function and constant of the contract.
pub const TEMPLATE: &str = include_str!("template.rhai");

/// File > New puzzle script: the template on screen (after asking about unsaved edits of the
/// script there) with the editor open.
fn new_script() -> Result<Vec<AppCommand>, String> {
    let script =
        Script::from_text(TEMPLATE).map_err(|e| format!("The template does not compile: {e}"))?;
    Ok(vec![
        AppCommand::OpenGenerated(
            Box::new(script),
            "New puzzle script: edit it, then Ctrl+S saves it to a file.".to_owned(),
        ),
        AppCommand::View(ViewCommand::new(Command::OpenEditor)),
    ])
}

/// The most moves listed as buttons.
const MAX_LISTED: usize = 60;

/// The most bytes of unsaved editor text kept in the view's settings, counted as written
/// to the state file (JSON-escaped: a tab or a quote takes two bytes there; see
/// [`kept_bytes`]): the state file takes up to [`crate::app::MAX_VIEW_BYTES`] a view, and a
/// view over it sets the whole file aside at the next start. The text being edited is kept
/// first.
pub(super) const MAX_KEPT_DRAFTS: usize = 40 * 1024;

/// The bytes a draft of `text` kept under `key` takes in the state file: both as JSON
/// strings (quoted and escaped), with the colon and comma between entries.
pub(super) fn kept_bytes(key: &str, text: &str) -> usize {
    let json = |s: &str| serde_json::to_string(s).map_or(usize::MAX / 4, |j| j.len());
    json(key) + json(text) + 2
}

/// The view of puzzle scripts: the moves of the state on screen, made again when the puzzle
/// changes, and the script editor.
struct ScriptView {
    /// The puzzle's revision the state on screen was asked about, and what the script said.
    listed: Option<(u64, Listed)>,
    /// The moves listed that name a drawn cell (a click on it plays the move), with it.
    cells: Vec<(String, Cell)>,
    /// Whether the script failed to say which cells its moves name (a click then says why).
    cells_failed: bool,
    /// The script editor.
    editor: editor::Editor,
    /// A parameter change being compiled (the app's work for the view, [`SETTING`]): the
    /// puzzle's revision it was asked at.
    parameter: Option<u64>,
    /// Unsaved editor text of scripts not being edited, by file (or script name).
    drafts: BTreeMap<String, String>,
    /// The state a solution's playback shows, as text, replayed once for the puzzle's
    /// revision and the moves played back: (revision, moves, text).
    played: Option<(u64, Vec<String>, String)>,
}

/// What the view keeps across restarts: whether the editor was open, and unsaved editor
/// text by file (or script name).
#[derive(Default, Serialize, Deserialize)]
#[serde(default)]
struct Kept {
    editor_open: bool,
    drafts: BTreeMap<String, String>,
}

/// What the script says of the state on screen, asked once per revision: its moves (label
/// and cost), whether it is a goal, and why `draw` failed on it, each with the script's
/// error where it failed.
struct Listed {
    moves: Result<Vec<(String, f64)>, script::ScriptError>,
    solved: Result<bool, script::ScriptError>,
    draw_error: Option<script::ScriptError>,
}

impl Listed {
    /// The script's first error on the state on screen (of `moves`, `is_goal`, `draw`).
    fn error(&self) -> Option<&script::ScriptError> {
        (self.moves.as_ref().err())
            .or_else(|| self.solved.as_ref().err())
            .or(self.draw_error.as_ref())
    }
}

/// The view's commands.
#[derive(Debug)]
pub enum Command {
    /// Play the move with this label.
    Play(String),
    /// The script failed on the state on screen (the error, with its line): said on the
    /// status bar as an error.
    Failed(String),
    /// A click on the canvas at this cell, which a move listed names (or the script failed
    /// to say which cells its moves name): the move found there is played and said in the
    /// status bar, or the script's error looking for one.
    ClickCell(Cell),
    /// Set a parameter.
    SetParameter(String, i64),
    /// Back to the position the script was loaded at.
    Reset,
    /// Open the script editor beside the canvas.
    OpenEditor,
    /// Close the script editor (its unsaved text is kept).
    CloseEditor,
    /// Save the editor's text (to the script's file, or, without one, after reloading it,
    /// to a file the dialog asks for) and reload the script.
    SaveEditor,
    /// Save the editor's text to this file, the script's file from now on, and reload it.
    SaveEditorAs(PathBuf),
    /// Drop the editor's unsaved edits: back to the text last saved.
    RevertEditor,
    /// After an outside change met unsaved edits: take the file's text (true) or keep the
    /// editor's (false).
    ResolveConflict(bool),
    /// The answer of a save and reload, from its background work.
    Reloaded(editor::ReloadAnswer),
    /// The script's file changed (its text, or why it could not be read), from the work
    /// that watches it.
    FileChanged(PathBuf, Result<String, String>),
    /// A parameter change's new version, or the script's error at that value, from its
    /// background work.
    ParameterSet(ParameterAnswer),
}

impl ScriptView {
    /// The script's error at the state on screen (as last asked, for this revision), else
    /// the error of the last save or reload (the last good version stays loaded), else the
    /// error that ended the run shown.
    fn standing_error(&self, app: &ViewRead<'_>) -> Option<String> {
        let listed = (self.listed.as_ref()).filter(|(revision, _)| *revision == app.revision());
        if let Some(e) = listed.and_then(|(_, l)| l.error()) {
            return Some(format!("Script error at the state on screen: {e}"));
        }
        if let Some(e) = self.editor.error_text() {
            return Some(format!("{e} (the last good version stays loaded)"));
        }
        let ran = app.result().and_then(|r| r.error.as_ref());
        ran.map(|e| format!("The run stopped at a script error: {e}"))
    }

    /// The view, with the editor as it was left (open or not, its unsaved text).
    fn new(kept: Option<&serde_json::Value>) -> Self {
        let kept: Kept = super::settings_from(kept);
        let mut editor = editor::Editor::default();
        editor.open = kept.editor_open;
        Self {
            listed: None,
            played: None,
            cells: Vec::new(),
            cells_failed: false,
            editor,
            parameter: None,
            drafts: kept.drafts,
        }
    }

    /// Makes the editor follow the script on screen (once it was replaced, or its file
    /// changed).
    fn sync(&mut self, app: &ViewContext<impl AppAccess>) {
        let path = app.settings().path.clone();
        if self.editor.synced && self.editor.file == path {
            return;
        }
        if let (Some(script), shipped) = (app.model::<Script>(), app.shipped_file()) {
            self.editor.sync(script, path, shipped, &mut self.drafts);
        }
    }

    /// Asks the script about the state on screen once it changed (its moves, goal and
    /// drawing); a new error goes to the status bar (through [`Command::Failed`]). The
    /// frame's work ([`FrameWork::tick`]), before anything is drawn: drawing reads what it
    /// found and calls no script.
    fn relist(&mut self, app: &mut ViewWrite<'_>) {
        let revision = app.revision();
        if self.listed.as_ref().is_some_and(|(r, _)| *r == revision) {
            return;
        }
        let Some(script) = app.model::<Script>() else {
            return;
        };
        let listed = Listed {
            moves: script.moves_here(),
            solved: script.goal_here(),
            draw_error: script.draw_error(),
        };
        let cells = script.move_cells_here();
        self.cells_failed = cells.is_err();
        self.cells = cells
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(label, cell)| Some((label, cell?)))
            .collect();
        if let Some(e) = listed.error() {
            app.push_view(Command::Failed(e.to_string()));
        }
        self.listed = Some((revision, listed));
    }

    /// The state a solution's playback shows, as text, once per revision and moves played
    /// back (see [`played_moves`]); the frame's work, so drawing replays nothing.
    fn replay(&mut self, app: &ViewWrite<'_>) {
        let Some(moves) = played_moves(&app.as_read()) else {
            return;
        };
        let revision = app.revision();
        if (self.played.as_ref()).is_some_and(|(r, m, _)| *r == revision && *m == moves) {
            return;
        }
        let text = (app.model::<Script>())
            .and_then(|s| s.state_text_after(&moves))
            .map_or_else(
                || "(the solution could not be replayed)".to_owned(),
                |text| format!("{text} (after move {} of the solution)", moves.len()),
            );
        self.played = Some((revision, moves, text));
    }

    /// A click on `cell` (see [`Command::ClickCell`]): plays the move found there and says
    /// so, or says the script's error looking for one.
    fn click_cell(&mut self, app: &mut ViewWrite<'_>, cell: Cell) {
        match app.model::<Script>().map(|s| s.move_at_cell(cell)) {
            Some(Ok(Some(label))) if app.edit_model(|s: &mut Script| s.play(&label)) => {
                app.set_status(format!("Played {label}."));
            }
            Some(Err(e)) => app.set_error(format!("Script error: {e}")),
            _ => {}
        }
    }

    /// The moves of the state on screen, as buttons.
    fn moves_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        let Some((_, listed)) = &self.listed else {
            return;
        };
        match &listed.moves {
            Err(e) => {
                ui.label(
                    egui::RichText::new(format!("Script error: {e}"))
                        .color(ui.visuals().error_fg_color),
                );
            }
            Ok(moves) if moves.is_empty() => {
                ui.label("No move from here.");
            }
            Ok(moves) => {
                ui.label(if !self.cells.is_empty() {
                    "Play a move (or click its cell on the canvas):"
                } else {
                    "Play a move:"
                });
                let mut chosen = None;
                // Hint's move is marked where it is played (and on its cell: see
                // `canvas_extras`).
                let hinted = super::hinted_move(&app.as_read());
                ui.horizontal_wrapped(|ui| {
                    for (label, cost) in moves.iter().take(MAX_LISTED) {
                        let hint = hinted.as_deref() == Some(label.as_str());
                        let mut text = egui::RichText::new(label);
                        if hint {
                            text = text.strong();
                        }
                        let button = ui.add(egui::Button::new(text).selected(hint));
                        let button = match (*cost == 1.0, hint) {
                            (true, false) => button,
                            (true, true) => button.on_hover_text("the hint: an optimal move"),
                            (false, false) => button.on_hover_text(format!("costs {cost}")),
                            (false, true) => button
                                .on_hover_text(format!("the hint: an optimal move; costs {cost}")),
                        };
                        if button.clicked() {
                            chosen = Some(label.clone());
                        }
                    }
                });
                if moves.len() > MAX_LISTED {
                    ui.label(format!("… and {} more", moves.len() - MAX_LISTED));
                }
                if let Some(label) = chosen {
                    app.push_view(Command::Play(label));
                }
            }
        }
    }
}

/// The solution's first moves the canvas shows while it is played back (after at least
/// one), or `None`.
fn played_moves(app: &ViewRead<'_>) -> Option<Vec<String>> {
    match app.shown_moment() {
        crate::app::ShownMoment::Solution(k) if k > 0 => app
            .result()
            .map(|r| r.moves.iter().take(k).cloned().collect()),
        _ => None,
    }
}

/// The most characters of a state the side panel shows: a state of 10^5 numbers is 700 kB
/// of text, laid out and drawn every frame (the canvas draws the state whole).
const MAX_STATE_TEXT: usize = 2000;

/// `text` cut after `most` characters, saying how many more there are.
fn shortened(text: &str, most: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(most) {
        None => text.into(),
        Some((end, _)) => {
            let more = text[end..].chars().count();
            format!("{}… ({more} more characters)", &text[..end]).into()
        }
    }
}

impl TypeView for ScriptView {
    fn type_name(&self) -> &'static str {
        script::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        // The state the canvas shows: the solution's, played back to a move (replayed by
        // the frame's work, [`ScriptView::replay`]), or the script's own (a search's board
        // said as such).
        let shown = app.shown_moment();
        let played = played_moves(&app.as_read());
        let revision = app.revision();
        let replayed = (self.played.as_ref())
            .filter(|(r, m, _)| Some(m) == played.as_ref() && *r == revision)
            .map(|(_, _, text)| text.clone());
        let Some((name, description, source, state)) = app.model::<Script>().map(|s| {
            let state = match (&played, replayed, shown) {
                (Some(_), Some(text), _) => text,
                (None, _, crate::app::ShownMoment::Search) => {
                    "the search's, on the canvas".to_owned()
                }
                _ => s.state_text(),
            };
            (
                s.name(),
                s.description().map(str::to_owned),
                s.source_note().map(str::to_owned),
                state,
            )
        }) else {
            return;
        };
        let (solved, goal_error, draw_error) = match self.listed.as_ref() {
            Some((_, l)) => (
                l.solved.as_ref().is_ok_and(|s| *s),
                l.solved.as_ref().err().cloned(),
                l.draw_error.clone(),
            ),
            None => (false, None, None),
        };
        ui.label(egui::RichText::new(name).strong());
        if ui
            .add_enabled(!self.editor.open, egui::Button::new("Edit script"))
            .on_hover_text("the script's text beside the canvas; Ctrl+S saves and reloads it")
            .clicked()
        {
            app.push_view(Command::OpenEditor);
        }
        if let Some(description) = description {
            ui.label(description);
        }
        if let Some(source) = source {
            ui.label(egui::RichText::new(format!("Source: {source}")).weak());
        }
        Self::parameters_ui(app, ui);
        ui.separator();
        ui.label(format!("State: {}", shortened(&state, MAX_STATE_TEXT)));
        let red = ui.visuals().error_fg_color;
        if let Some(e) = draw_error {
            ui.label(
                egui::RichText::new(format!("draw failed, the state is shown as text: {e}"))
                    .color(red),
            );
        }
        if let Some(e) = goal_error {
            ui.label(egui::RichText::new(format!("Script error: {e}")).color(red));
        }
        if solved {
            ui.label(egui::RichText::new("A goal state!").strong());
        }
        self.moves_ui(app, ui);
        ui.horizontal(|ui| {
            super::undo_redo_ui(app, ui, "Ctrl+Z: take back a move");
            if ui
                .button("Reset")
                .on_hover_text("back to the script's start")
                .clicked()
            {
                app.push_view(Command::Reset);
            }
        });
        if let Some(played) = super::played_text(app) {
            ui.label(played);
        }
        super::oracle_ui(app, ui);
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        let Some(command) = command.take::<Command>() else {
            return;
        };
        match command {
            Command::Play(label) => {
                app.edit_model(|s: &mut Script| s.play(&label));
            }
            Command::Failed(e) => {
                app.set_error(format!("Script error at the state on screen: {e}"));
            }
            Command::ClickCell(cell) => self.click_cell(app, cell),
            Command::SetParameter(name, value) => self.set_parameter(app, name, value),
            Command::Reset => {
                app.edit_model(|s: &mut Script| s.reset());
            }
            Command::OpenEditor => {
                self.editor.open = true;
                self.sync(app);
            }
            Command::CloseEditor => self.editor.open = false,
            Command::SaveEditor => {
                self.sync(app);
                self.editor.save(app);
            }
            Command::SaveEditorAs(path) => {
                self.sync(app);
                self.editor.save_as(app, path);
            }
            Command::RevertEditor => {
                self.editor.text = self.editor.base.clone();
                self.editor.error = None;
                self.editor.note = Some("Reverted to the text last saved.".to_owned());
            }
            Command::ResolveConflict(take_file) => self.editor.resolve(app, take_file),
            Command::Reloaded(answer) => self.editor.reloaded(app, answer),
            Command::FileChanged(path, change) => self.editor.file_changed(app, path, change),
            Command::ParameterSet(answer) => self.parameter_set(app, answer),
        }
    }

    /// A click on a drawn cell plays the move whose `cell` names it, if one does.
    fn pointer(&mut self, app: &mut ViewDraw<'_>, pointer: Pointer) -> bool {
        let Pointer::Click(cell) = pointer else {
            return false;
        };
        if app.shown_moment() != crate::app::ShownMoment::Puzzle {
            return false;
        }
        // What the frame's work listed for the state on screen: the script is asked again
        // when the command is applied, not here.
        let listed_now = (self.listed.as_ref()).is_some_and(|(r, _)| *r == app.revision());
        let named = self.cells.iter().any(|(_, c)| *c == cell);
        let takes = listed_now && (named || self.cells_failed);
        if takes {
            app.push_view(Command::ClickCell(cell));
        }
        takes
    }

    /// The move a click on the square plays (as listed for the state on screen), if one
    /// does; the status bar says the square's place (row and column from 0) before it.
    /// Hint's move outlined on its cell, when the move names one.
    fn canvas_extras(&self, app: &ViewRead<'_>, hover: Option<Cell>) -> CanvasExtras<'_> {
        let hinted = super::hinted_move(app);
        CanvasExtras {
            selected: hinted.and_then(|hint| {
                (self.cells.iter())
                    .find(|(label, _)| *label == hint)
                    .map(|(_, cell)| *cell)
            }),
            hover_text: hover.and_then(|cell| self.hover_text(app, cell)),
            ..CanvasExtras::default()
        }
    }

    fn describe(&self, app: &ViewRead<'_>) -> Description {
        let about = "A puzzle written as a script (a .rhai file): start(), moves(state) and \
         is_goal(state), with an optional heuristic(state) and draw(state). Press Start to \
         watch any algorithm search it, or play its moves by hand with the buttons below \
         (or click a drawn cell that a move names). Edit script opens the script beside \
         the canvas: Ctrl+S saves and reloads it; a script from a file is reloaded when the \
         file is saved from outside. docs/formats.md describes the contract.";
        let legend = {
            use crate::puzzles::Square;
            use crate::ui::palette::{BLOCKED, NUMBER, TARGET, TRAY};
            // Only the kinds of cell the drawing on screen has.
            type Kind = (fn(&Square) -> bool, egui::Color32, &'static str);
            let kinds: [Kind; 4] = [
                (
                    |s| *s == Square::Free,
                    TRAY,
                    "an empty cell of the script's drawing",
                ),
                (
                    |s| *s == Square::Blocked,
                    BLOCKED,
                    "a wall (#) of the drawing",
                ),
                (
                    |s| matches!(s, Square::Number(_)),
                    NUMBER,
                    "a number of the drawing",
                ),
                (
                    |s| matches!(s, Square::Piece { target: true, .. }),
                    TARGET,
                    "a cell the drawing colours 'target'",
                ),
            ];
            let mut entries: Vec<_> = (kinds.into_iter())
                .filter(|(is, _, _)| app.draws_square(is))
                .map(|(_, color, meaning)| super::entry(color, meaning))
                .collect();
            if app.shows_solution() {
                entries.push(super::entry(
                    crate::ui::palette::SOLUTION,
                    "a solution was found: the timeline plays it",
                ));
            }
            entries
        };
        Description {
            about,
            legend,
            standing_error: self.standing_error(app),
        }
    }

    fn capability(&mut self, kind: CapabilityKind) -> Option<ViewCapability<'_>> {
        crate::lend_capabilities!(self, kind; FrameWork, OwnPanels, SavesItself, FollowsPuzzle, KeepsSettings)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl ScriptView {
    /// A line about the square `cell` under the pointer, for the status bar.
    fn hover_text(&self, app: &ViewRead<'_>, cell: Cell) -> Option<String> {
        let listed_now = self
            .listed
            .as_ref()
            .is_some_and(|(r, _)| *r == app.revision());
        let click = (listed_now && app.shown_moment() == crate::app::ShownMoment::Puzzle)
            .then(|| self.cells.iter().find(|(_, c)| *c == cell))
            .flatten();
        click.map(|(label, _)| format!("a click plays {label}"))
    }
}

#[cfg(test)]
mod tests {
    /// A long state is cut, saying how much more there is; a short one is shown whole.
    #[test]
    fn a_long_state_is_shortened_for_the_panel() {
        assert_eq!(super::shortened("[1, 2]", 10), "[1, 2]");
        assert_eq!(
            super::shortened("[1, 2, 3]", 4),
            "[1, … (5 more characters)"
        );
    }
}
