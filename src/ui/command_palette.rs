//! The command palette (Ctrl+K or Ctrl+Shift+P): every command of the window in one
//! searchable list (menu items, search controls, puzzle types, algorithms, shipped puzzles,
//! recent files, toggles), each with its shortcut. Typing filters it (fuzzy matching with
//! `nucleo-matcher`, the matcher of the Helix editor), the arrow keys choose, Enter runs,
//! Escape closes: all of it by keyboard.

use eframe::egui;
use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher};

use super::toolbar::keys;
use crate::app::{
    AppCommand, AppState, OracleCommand, Panel, SettingCommand, Theme, WindowCommand,
};
use crate::puzzles;

/// The label of the palette's search field (tests find it by this).
pub const PALETTE_LABEL: &str = "Command palette";

/// The shortcuts that open the palette, as shown.
pub const PALETTE_KEYS: &str = keys::PALETTE;

/// The most commands listed at once (the best matches).
const SHOWN: usize = 12;

/// One command of the palette: what it says, its shortcut, and what it does.
pub struct Entry {
    /// What the list shows and the filter matches.
    pub label: String,
    /// Its keyboard shortcut, if it has one.
    pub shortcut: &'static str,
    /// A short name that, typed in full, puts this entry first (an algorithm's abbreviation:
    /// "BFS" would otherwise rank "Bidirectional BFS" above breadth-first search).
    alias: Option<&'static str>,
    /// What it does: the command it sends.
    run: Run,
}

/// What choosing an entry does.
enum Run {
    /// Sends this command.
    Command(AppCommand),
    /// Makes the commands of a File > New item (or of a type's own command) when chosen
    /// (the item's own work, done once, not while the list is drawn) and sends them, or
    /// says why there are none.
    New(fn() -> Result<Vec<AppCommand>, String>),
}

impl Entry {
    fn command(label: impl Into<String>, shortcut: &'static str, command: AppCommand) -> Self {
        Self {
            label: label.into(),
            shortcut,
            alias: None,
            run: Run::Command(command),
        }
    }
}

/// A command of the windows (see [`WindowCommand`]).
fn window(command: WindowCommand) -> AppCommand {
    AppCommand::Window(command)
}

/// A change of a setting (see [`SettingCommand`]).
fn setting(command: SettingCommand) -> AppCommand {
    AppCommand::Setting(command)
}

/// Every command that applies now, in a steady order (the order shown for an empty filter).
pub fn entries(app: &AppState) -> Vec<Entry> {
    let mut list = Vec::new();
    run_entries(app, &mut list);
    window_entries(app, &mut list);
    choice_entries(app, &mut list);
    list
}

/// The run's commands, the file's and the edits'.
fn run_entries(app: &AppState, list: &mut Vec<Entry>) {
    if app.is_running() {
        let (label, command) = if app.is_paused() {
            ("Resume the search", AppCommand::Resume)
        } else {
            ("Pause the search", AppCommand::Pause)
        };
        list.push(Entry::command(label, keys::START_PAUSE, command));
        list.push(Entry::command(
            "Stop the search",
            keys::STOP,
            AppCommand::Stop,
        ));
    } else {
        list.push(Entry::command(
            "Start the search",
            keys::START_PAUSE,
            AppCommand::Start,
        ));
    }
    list.push(Entry::command(
        "Step: expand one state",
        keys::STEP,
        AppCommand::Step,
    ));
    list.push(Entry::command(
        "Open a puzzle file…",
        "Ctrl+O",
        AppCommand::OpenDialog,
    ));
    // Every view's File > New items ("New puzzle script").
    for item in super::views::new_items() {
        list.push(Entry {
            label: item.label.to_owned(),
            shortcut: "",
            alias: None,
            run: Run::New(item.commands),
        });
    }
    // The type's own commands (a script's Edit script: the side panel's button is folded
    // away in a lesson at 1024 x 640), each put first when typed in full.
    for item in super::views::own_commands(app.puzzle().puzzle_type()) {
        list.push(Entry {
            label: item.label.to_owned(),
            shortcut: "",
            alias: Some(item.label),
            run: Run::New(item.commands),
        });
    }
    list.push(Entry::command("Save", "Ctrl+S", AppCommand::Save));
    list.push(Entry::command("Save as…", "", AppCommand::SaveDialog));
    // Only what can be taken back or made again now (types with their own undo say so
    // themselves: see `AppState::may_undo`).
    if app.may_undo() {
        list.push(Entry::command("Undo", "Ctrl+Z", AppCommand::Undo));
    }
    if app.may_redo() {
        list.push(Entry::command("Redo", "Ctrl+Shift+Z", AppCommand::Redo));
    }
    list.push(Entry::command(
        "Fit the puzzle to the canvas",
        keys::FIT,
        AppCommand::FitView,
    ));
    list.push(Entry::command(
        "Export canvas as PNG…",
        "",
        AppCommand::ExportCanvasDialog,
    ));
    if app.result().is_some_and(|r| r.solved) {
        list.push(Entry::command(
            "Export solution moves…",
            "",
            AppCommand::ExportMovesDialog,
        ));
    }
    if !app.runs.results.is_empty() {
        list.push(Entry::command(
            "Export results…",
            "",
            AppCommand::ExportDialog,
        ));
    }
    if app.timeline_recording().is_some_and(|r| !r.has_boards()) {
        list.push(Entry::command(
            "Export search as GIF…",
            "",
            window(WindowCommand::GifWindow(true)),
        ));
    }
}

/// The panels and windows to show or hide, and the puzzle's own options.
fn window_entries(app: &AppState, list: &mut Vec<Entry>) {
    let details = app.settings().show_details;
    list.push(Entry::command(
        if details {
            "Hide the details panel"
        } else {
            "Show the details panel"
        },
        "",
        setting(SettingCommand::ShowDetails(!details)),
    ));
    // The puzzle's own options (as on the command line: `--set NAME=VALUE`).
    for option in app.puzzle().options() {
        for value in option.values.split('|').map(str::trim) {
            let name = &option.name;
            list.push(Entry::command(
                format!("Set {name} = {value}"),
                "",
                AppCommand::SetOption(name.to_string(), value.to_owned()),
            ));
        }
    }
    let oracle = app.windows.oracle.enabled;
    list.push(Entry::command(
        if oracle {
            "Optimal moves: off"
        } else {
            "Optimal moves: on (explore the state space)"
        },
        "",
        AppCommand::Oracle(OracleCommand::Enable(!oracle)),
    ));
    if app.windows.oracle.space().is_some() {
        list.push(Entry::command(
            "State space window",
            "",
            window(WindowCommand::SpaceWindow(true)),
        ));
    }
    list.push(Entry::command(
        "Learn window: pseudo-code, open list, numbers on the squares",
        "",
        window(WindowCommand::Learn(true)),
    ));
    list.push(Entry::command(
        "Classroom mode: on or off",
        super::toolbar::keys::CLASSROOM,
        setting(SettingCommand::Classroom(!app.settings().classroom)),
    ));
    // Always offered: where the space is not explored, the window says how to measure.
    list.push(Entry::command(
        "Heuristic window: the heuristic against exact costs",
        "",
        window(WindowCommand::HeuristicWindow(true)),
    ));
    if app.timeline_recording().is_some() {
        list.push(Entry::command(
            "Search tree window",
            "",
            window(WindowCommand::TreeWindow(true)),
        ));
    }
}

/// The choices: speed, theme, puzzle type, algorithm, shipped and recent files.
fn choice_entries(app: &AppState, list: &mut Vec<Entry>) {
    let (speed, full) = (app.settings().speed, app.settings().full_speed);
    list.push(Entry::command(
        if full {
            "Full speed: off"
        } else {
            "Full speed: on"
        },
        "",
        AppCommand::SetSpeed(speed, !full),
    ));
    for theme in Theme::ALL {
        list.push(Entry::command(
            format!("Theme: {}", theme.label()),
            "",
            setting(SettingCommand::Theme(theme)),
        ));
    }
    for t in puzzles::TYPES {
        list.push(Entry::command(
            format!("Puzzle type: {}", t.label),
            "",
            AppCommand::SelectType(t),
        ));
    }
    for algorithm in app.puzzle().algorithms() {
        let mut entry = Entry::command(
            palette_label(algorithm),
            "",
            AppCommand::SetAlgorithm(algorithm),
        );
        entry.alias = algorithm.abbreviation();
        list.push(entry);
    }
    for (t, shipped) in puzzles::shipped() {
        list.push(Entry::command(
            format!("Open shipped: {} — {}", t.label, shipped.file),
            "",
            AppCommand::OpenShipped(t, shipped),
        ));
    }
    for recent in &app.settings().recent {
        let name = recent.name();
        list.push(Entry::command(
            format!("Open recent: {name}"),
            "",
            AppCommand::OpenRecent(recent.path.clone()),
        ));
    }
    if !app.settings().recent.is_empty() {
        list.push(Entry::command(
            "Clear the recent files",
            "",
            AppCommand::ClearRecent,
        ));
    }
}

/// An algorithm's entry: its label and the field's abbreviation, in the label's parentheses
/// where it has some ("Algorithm: Breadth-first (BFS)", "Algorithm: Dijkstra (uniform cost,
/// UCS)").
fn palette_label(algorithm: crate::search::Algorithm) -> String {
    let label = algorithm.label();
    match algorithm.abbreviation() {
        None => format!("Algorithm: {label}"),
        Some(short) => match label.strip_suffix(')') {
            Some(open) => format!("Algorithm: {open}, {short})"),
            None => format!("Algorithm: {label} ({short})"),
        },
    }
}

/// A label with its entry's index, for the matcher (which hands back what it was given).
struct Indexed<'a>(usize, &'a str);

impl AsRef<str> for Indexed<'_> {
    fn as_ref(&self) -> &str {
        self.1
    }
}

/// The entries that match `query` (fuzzily: its letters in order, each word anywhere),
/// best first, an entry whose alias is the whole query before all; all of them, in order,
/// for an empty one.
pub fn filter(entries: Vec<Entry>, query: &str) -> Vec<Entry> {
    if query.trim().is_empty() {
        return entries;
    }
    let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut order: Vec<usize> = pattern
        .match_list(
            entries
                .iter()
                .enumerate()
                .map(|(i, e)| Indexed(i, &e.label)),
            &mut matcher,
        )
        .into_iter()
        .map(|(item, _score)| item.0)
        .collect();
    let query = query.trim();
    order.sort_by_key(|&i| {
        !entries
            .get(i)
            .and_then(|e| e.alias)
            .is_some_and(|a| a.eq_ignore_ascii_case(query))
    });
    let mut slots: Vec<Option<Entry>> = entries.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect()
}

/// The palette's state while it is open (kept in egui's memory).
#[derive(Clone, Default)]
struct Open {
    query: String,
    /// The chosen line among those shown.
    selected: usize,
    /// Whether the search field has had the focus given (once, when opened).
    focused: bool,
}

fn state_id() -> egui::Id {
    egui::Id::unique("command palette")
}

/// Opens the palette (as Ctrl+K does), with an empty filter.
pub fn open(ctx: &egui::Context) {
    ctx.data_mut(|d| d.insert_temp(state_id(), Open::default()));
}

/// Whether the palette is open.
pub fn is_open(ctx: &egui::Context) -> bool {
    ctx.data(|d| d.get_temp::<Open>(state_id()).is_some())
}

/// Opens the palette on Ctrl+K or Ctrl+Shift+P (before the other shortcuts take keys), and
/// draws it while open: the search field, the matching commands with their shortcuts (the
/// chosen one marked), Up and Down to choose, Enter or a click to run, Escape to close.
pub(super) fn palette_ui(app: &mut Panel<'_>, ctx: &egui::Context) {
    let open_keys = [
        egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::K),
        egui::KeyboardShortcut::new(
            egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
            egui::Key::P,
        ),
    ];
    if ctx.input_mut(|i| open_keys.iter().any(|k| i.consume_shortcut(k))) {
        open(ctx);
    }
    let Some(mut state) = ctx.data(|d| d.get_temp::<Open>(state_id())) else {
        return;
    };
    let (up, down, enter, escape) = ctx.input_mut(|i| {
        (
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
            i.consume_key(egui::Modifiers::NONE, egui::Key::Enter),
            i.consume_key(egui::Modifiers::NONE, egui::Key::Escape),
        )
    });
    let mut shown = filter(entries(app), &state.query);
    shown.truncate(SHOWN);
    if down {
        state.selected = (state.selected + 1).min(shown.len().saturating_sub(1));
    }
    if up {
        state.selected = state.selected.saturating_sub(1);
    }
    let mut run = enter.then_some(state.selected);
    let mut close = escape;
    let modal = egui::Modal::new(egui::Id::unique("command palette window")).show(ctx, |ui| {
        ui.set_width(460.0);
        let title = ui.label(egui::RichText::new(PALETTE_LABEL).strong());
        ui.label(egui::RichText::new(PALETTE_KEYS).weak());
        let field = ui.add(
            egui::TextEdit::singleline(&mut state.query)
                .hint_text("Type to filter: a command, a puzzle, an algorithm…")
                .desired_width(f32::INFINITY),
        );
        // A screen reader names the field by the title above it.
        let field = field.labelled_by(title.id);
        if !state.focused {
            field.request_focus();
            state.focused = true;
        }
        if field.changed() {
            state.selected = 0;
        }
        ui.separator();
        if shown.is_empty() {
            ui.label(egui::RichText::new("No command matches.").weak());
        }
        for (i, entry) in shown.iter().enumerate() {
            ui.horizontal(|ui| {
                let line = ui.selectable_label(i == state.selected, &entry.label);
                if !entry.shortcut.is_empty() {
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        ui.label(egui::RichText::new(entry.shortcut).weak());
                    });
                }
                if line.clicked() {
                    run = Some(i);
                }
            });
        }
    });
    close |= modal.should_close();
    if let Some(entry) = run.and_then(|i| shown.into_iter().nth(i)) {
        match entry.run {
            Run::Command(command) => app.push(command),
            Run::New(commands) => match commands() {
                Ok(commands) => commands.into_iter().for_each(|c| app.push(c)),
                Err(e) => app.push(AppCommand::SayError(e)),
            },
        }
        close = true;
    }
    if close {
        ctx.data_mut(|d| d.remove::<Open>(state_id()));
    } else {
        ctx.data_mut(|d| d.insert_temp(state_id(), state));
    }
}
