//! The commands group's switchboard: [`AppState::apply`] carries out one [`AppCommand`] by
//! handing it to its group's file (runs `run.rs`, playback `playback.rs`, files `files.rs`,
//! exports `export.rs`, workspaces `workspace.rs`, edits `edits.rs`, windows `windows.rs`,
//! views `view_work.rs`, the Learn panel `learn/`). It holds no command of its own beyond
//! the one-line ones (`CancelPath`, `ClearResults`, `SayError`).

use super::files::DialogKind;
use super::view::ViewRequest;
use super::{AppCommand, AppState};
use crate::puzzles::Puzzle;

/// The largest puzzle (in squares) whose text is compared with the file's after each edit
/// (a 512 x 512 grid: a quarter of a megabyte of text, well under a millisecond).
pub(super) const COMPARED_SQUARES: usize = 512 * 512;

/// The text format of `puzzle`, to compare with the file's, for puzzles up to
/// [`COMPARED_SQUARES`] squares; `None` for larger ones (any edit counts as a change).
pub(super) fn comparable_text(puzzle: &dyn Puzzle) -> Option<String> {
    let (rows, cols) = puzzle.dims();
    (rows * cols <= COMPARED_SQUARES).then(|| puzzle.to_text())
}

/// How many edits can be undone.
pub const UNDO_LIMIT: usize = 50;

impl AppState {
    /// Carries out one command now.
    pub fn apply(&mut self, command: AppCommand) {
        match command {
            AppCommand::SelectType(t) => self.switch_type(t),
            // Each type keeps its own puzzle: these open in the workspace of the puzzle's
            // type, asking only about the edits of the puzzle they replace there.
            command @ (AppCommand::OpenShipped(..)
            | AppCommand::OpenState(_)
            | AppCommand::OpenGenerated(..)
            | AppCommand::OpenRead(..)) => self.open_in_its_workspace(command),
            AppCommand::OpenPath(path) => self.open_file(path),
            AppCommand::OpenRecent(path) => self.open_recent(path),
            AppCommand::ClearRecent => self.clear_recent(),
            AppCommand::AnswerUnsaved(choice) => self.answer_unsaved(choice),
            AppCommand::AskPath(kind) => self.ask_path(kind),
            AppCommand::DialogAnswered(kind, path) => self.dialog_answered(kind, path),
            AppCommand::CancelPath => self.windows.path_prompt = None,
            AppCommand::OpenDialog => self.spawn_dialog(DialogKind::Open),
            AppCommand::OpenMapDialog => self.spawn_dialog(DialogKind::OpenMap),
            AppCommand::SaveDialog => self.spawn_dialog(DialogKind::Save),
            AppCommand::SaveDialogNamed(name) => {
                self.spawn_dialog_named(DialogKind::Save, Some(name));
            }
            AppCommand::Save => self.save(),
            AppCommand::SaveTo(path) => self.save_to(&path),
            AppCommand::SetAlgorithm(a) => self.set_algorithm(a),
            AppCommand::Start => self.start(false),
            AppCommand::Stop => self.stop(),
            AppCommand::Pause => self.pause(),
            AppCommand::Resume => self.resume(),
            AppCommand::Step => self.step(),
            AppCommand::SetBreakpoints(breakpoints) => self.set_breakpoints(breakpoints),
            AppCommand::SetSpeed(speed, full) => self.set_speed(speed, full),
            AppCommand::Paint(cell, value) => self.paint(cell, value),
            AppCommand::SetOption(name, value) => {
                self.edit_puzzle(|p| p.set_option(&name, &value).is_ok());
            }
            AppCommand::Undo => self.undo(),
            AppCommand::Redo => self.redo(),
            AppCommand::View(command) => self.ask_view(ViewRequest::Apply(command)),
            AppCommand::FitView => self.fit_view(),
            AppCommand::ExportResults(path) => self.export_results(&path),
            AppCommand::ExportDialog => self.spawn_dialog(DialogKind::Export),
            AppCommand::ClearResults => self.runs.results.clear(),
            AppCommand::RaceToggle(a) => self.race_toggle(a),
            AppCommand::StartRace => self.start_race(),
            AppCommand::StartTieRace => self.start_tie_race(),
            AppCommand::StopRace => self.stop_race(),
            AppCommand::CloseRace => self.close_race(),
            AppCommand::ExportCanvasDialog => self.spawn_dialog(DialogKind::Canvas),
            AppCommand::ExportMovesDialog => self.spawn_dialog(DialogKind::Moves),
            AppCommand::ExportCanvas(path) => self.export_canvas(path),
            AppCommand::ExportMoves(path) => self.export_moves(&path),
            AppCommand::ExportTraceDialog => self.spawn_dialog(DialogKind::Trace),
            AppCommand::ExportGraph(path) => self.export_graph(path),
            AppCommand::ExportGraphDialog => self.spawn_dialog(DialogKind::Graph),
            AppCommand::ExportTrace(path) => self.export_trace(path),
            AppCommand::Timeline(command) => self.apply_timeline(command),
            AppCommand::Learn(command) => self.apply_learn(command),
            AppCommand::Window(command) => self.apply_window(command),
            AppCommand::Setting(command) => self.apply_setting(command),
            AppCommand::Canvas(command) => self.apply_canvas(command),
            AppCommand::Oracle(command) => self.apply_oracle(command),
            AppCommand::SayError(text) => self.set_error(text),
            AppCommand::ExportGifDialog(colors, options) => self.ask_gif_path(colors, options),
            AppCommand::ExportGif(path) => self.export_gif(path),
            AppCommand::ShowStep(n) => self.show_step(n),
            AppCommand::Play(on) => self.play(on),
        }
    }
}
