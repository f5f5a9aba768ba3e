//! The app as eframe runs it: its state ([`AppState`]) and, beside it, the views of the
//! puzzle types ([`TypeView`]). A view borrows the state through a [`ViewWrite`] while it
//! runs; it is never part of what it borrows, so it is never taken out and put back.

use std::collections::HashMap;

use eframe::egui;

use super::view::ViewRequest;
use super::{AppCommand, AppState, Settings, TypeView, ViewDraw, ViewRegistry, ViewWrite};

/// The views of the puzzle types: the one of the type on screen, and those of the types put
/// aside (each keeps its state, a scramble or a selection, till its type comes back).
#[derive(Default)]
struct Views {
    /// The view of the type on screen, once the UI installed its registry.
    current: Option<Box<dyn TypeView>>,
    /// The views of the other types, by type name, each with the count of replaced puzzles
    /// of its type's workspace it last knew of (a puzzle replaced while its view was parked
    /// is news to it when it comes back).
    parked: HashMap<&'static str, (Box<dyn TypeView>, u64)>,
    /// The count of replaced puzzles ([`super::workspace::Workspace::replaced`]) the view
    /// on screen last knew of.
    seen_replaced: u64,
}

/// The application: its state, and the views that draw and edit it. Everything of the state
/// is reached through it (it dereferences to [`AppState`]); what involves the views (the
/// frame's begin and end, commands, the views' own settings) is here.
pub struct PuzzleLabApp {
    state: AppState,
    views: Views,
}

impl std::ops::Deref for PuzzleLabApp {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.state
    }
}

impl std::ops::DerefMut for PuzzleLabApp {
    fn deref_mut(&mut self) -> &mut AppState {
        &mut self.state
    }
}

impl From<AppState> for PuzzleLabApp {
    fn from(state: AppState) -> Self {
        Self {
            state,
            views: Views::default(),
        }
    }
}

impl PuzzleLabApp {
    /// An app restored from `settings` (see [`AppState::new`]).
    pub fn new(settings: Settings) -> Self {
        AppState::new(settings).into()
    }

    /// The app restored from the state file at `state` (see [`AppState::from_state_file`]).
    pub fn from_state_file(
        state: Option<std::path::PathBuf>,
        storage: Option<&dyn eframe::Storage>,
    ) -> Self {
        AppState::from_state_file(state, storage).into()
    }

    /// The app started from what reading the state file gave (see [`AppState::from_loaded`]).
    pub fn from_loaded(
        state: Option<std::path::PathBuf>,
        loaded: super::autosave::Loaded,
        storage: Option<&dyn eframe::Storage>,
    ) -> Self {
        AppState::from_loaded(state, loaded, storage).into()
    }

    /// Installs the UI's registry of views, and the view of the puzzle on screen.
    pub fn install_views(&mut self, registry: ViewRegistry) {
        self.state.views.registry = Some(registry);
        self.views.serve(&mut self.state);
    }

    /// The view of the puzzle on screen, if the UI installed views.
    pub fn type_view(&self) -> Option<&dyn TypeView> {
        self.views.current.as_deref()
    }

    /// The app's state, read (the same as dereferencing the app).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Runs `f` on the view of the puzzle on screen with the state to change, then makes the
    /// view follow the puzzle's type again and serves what `f` asked of it.
    pub fn with_view<T>(
        &mut self,
        f: impl FnOnce(&mut dyn TypeView, &mut ViewWrite<'_>) -> T,
    ) -> Option<T> {
        self.views.run(&mut self.state, f)
    }

    /// Carries out `command`, then what it asked of the view.
    pub fn apply(&mut self, command: AppCommand) {
        self.state.apply(command);
        self.views.serve(&mut self.state);
    }

    /// The frame's work before anything is drawn (see [`AppState::begin_frame`]), then the
    /// view's.
    pub fn begin_frame(&mut self, ctx: &egui::Context) {
        // A close request while a view holds unsaved edits that a restart would not bring
        // back is cancelled and asked about first (the answer may quit anyway).
        if ctx.input(|i| i.viewport().close_requested())
            && !self.state.windows.quit_anyway
            && let Some(what) = self.views.unkept_edits()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.state.windows.quit_question = Some(what);
        }
        self.state.begin_frame(ctx);
        if self.state.frame.closing {
            return;
        }
        // What the view's background work sent, before its own frame's work.
        self.state.poll_view_work();
        self.with_view(|view, app| {
            if let Some(work) = view.frame_work() {
                work.tick(app, ctx);
            }
        });
        self.state.refresh_picture();
    }

    /// The frame's work after it is drawn: the commands pushed while drawing are applied,
    /// the work is kept (autosave) and the next frame asked for.
    pub fn end_frame(&mut self, ctx: &egui::Context) {
        let commands = std::mem::take(&mut self.state.commands);
        // The frame's reports of what it drew ask for no frame of their own.
        let any = commands.iter().any(AppCommand::asks_repaint);
        if any {
            // The commands change what the next frame shows: draw it right away.
            ctx.request_repaint();
        }
        // The panel says again, by a command, whether it shows the oracle's controls.
        self.state.windows.oracle.in_panel = false;
        for command in commands {
            self.apply(command);
        }
        self.state.after_commands(ctx, any);
    }

    /// The settings as they would be saved now: the puzzle and the views' own settings
    /// written in.
    pub fn settings_to_save(&mut self) -> &Settings {
        self.views.store_settings(&mut self.state);
        self.state.settings_to_save()
    }
}

impl Views {
    /// Writes the view on screen's own settings into the settings (a parked view's were
    /// written when it was parked: it has not changed since).
    fn store_settings(&mut self, state: &mut AppState) {
        if let Some(view) = &mut self.current
            && let Some(settings) = view.kept_settings()
        {
            (state.settings.views).insert(view.type_name().to_owned(), settings);
        }
    }

    /// Runs `f` on the view on screen with `state` to change, then serves what it asked.
    fn run<T>(
        &mut self,
        state: &mut AppState,
        f: impl FnOnce(&mut dyn TypeView, &mut ViewWrite<'_>) -> T,
    ) -> Option<T> {
        self.serve(state);
        let view = self.current.as_deref_mut()?;
        let out = f(view, &mut ViewWrite::write(state));
        self.ran(state);
        self.serve(state);
        Some(out)
    }

    /// Runs drawing code `f` on the view on screen: it reads `state` and sends commands into
    /// the frame's queue, and changes nothing else (so nothing is left to serve after it).
    fn draw<T>(
        &mut self,
        state: &mut AppState,
        f: impl FnOnce(&mut dyn TypeView, &mut ViewDraw<'_>) -> T,
    ) -> Option<T> {
        self.serve(state);
        let view = self.current.as_deref_mut()?;
        let mut commands = std::mem::take(&mut state.commands);
        let out = f(view, &mut ViewDraw::draw(state, &mut commands));
        state.commands = commands;
        Some(out)
    }

    /// Makes the view follow the puzzle on screen, then serves the state's requests in order
    /// (each may ask for more).
    fn serve(&mut self, state: &mut AppState) {
        self.sync_to(state, state.work.puzzle.puzzle_type().name);
        while let Some(request) = state.views.requests.pop_front() {
            let name = match &request {
                ViewRequest::Open(_, name) | ViewRequest::Deliver(name, _) => name,
                _ => state.work.puzzle.puzzle_type().name,
            };
            self.sync_to(state, name);
            let Some(view) = self.current.as_deref_mut() else {
                continue;
            };
            let app = &mut ViewWrite::write(state);
            match request {
                ViewRequest::Apply(command) | ViewRequest::Deliver(_, command) => {
                    view.apply(app, command);
                }
                ViewRequest::Undo => {
                    if let Some(undo) = view.own_undo() {
                        undo.undo(app);
                    }
                }
                ViewRequest::Redo => {
                    if let Some(undo) = view.own_undo() {
                        undo.redo(app);
                    }
                }
                ViewRequest::Save => {
                    if let Some(saver) = view.saves_itself() {
                        saver.save(app);
                    }
                }
                ViewRequest::SaveAs(path) => {
                    if let Some(saver) = view.saves_itself() {
                        saver.save_as(app, path);
                    }
                }
                ViewRequest::Open(path, name) => {
                    if let Some(opener) = view.opens_files() {
                        opener.open_path(app, &path);
                    }
                    if !state.status.is_error {
                        state.settings.note_recent(&path, name);
                    }
                }
            }
            self.ran(state);
            self.sync_to(state, state.work.puzzle.puzzle_type().name);
        }
        self.store_settings(state);
    }

    /// What the views (the one on screen and the parked ones) would lose at a quit now:
    /// the first one's words (see [`super::SavesItself::unkept_edits`]).
    fn unkept_edits(&mut self) -> Option<String> {
        let parked = self.parked.values_mut().map(|(view, _)| view);
        (self.current.iter_mut().chain(parked))
            .find_map(|view| view.saves_itself().and_then(|s| s.unkept_edits()))
    }

    /// After the view on screen ran: a puzzle it put on screen itself is not news to it (it
    /// is not told [`super::FollowsPuzzle::puzzle_replaced`] of its own open).
    fn ran(&mut self, state: &AppState) {
        self.seen_replaced = state.work.replaced;
    }

    /// Makes the view on screen the one of the type named (through the registry the UI
    /// installed): kept if it is, else parked (its settings written) and the type's own
    /// brought back or made with its kept settings. A view learns here that its puzzle was
    /// replaced ([`super::FollowsPuzzle`]), and the app whether its undo covers the
    /// type (not if the view has [`super::OwnUndo`]): both facts are derived here alone.
    fn sync_to(&mut self, state: &mut AppState, name: &'static str) {
        let Some(registry) = state.views.registry else {
            return;
        };
        let replaced = state.work.replaced;
        if self.current.as_ref().is_none_or(|v| v.type_name() != name) {
            if let Some(mut old) = self.current.take() {
                if let Some(settings) = old.kept_settings() {
                    (state.settings.views).insert(old.type_name().to_owned(), settings);
                }
                self.parked
                    .insert(old.type_name(), (old, self.seen_replaced));
            }
            (self.current, self.seen_replaced) = match self.parked.remove(name) {
                Some((view, seen)) => (Some(view), seen),
                // A new view knows nothing of any puzzle before this one.
                None => (
                    (registry.make)(name, state.settings.views.get(name)),
                    replaced,
                ),
            };
        }
        if self.seen_replaced != replaced {
            self.seen_replaced = replaced;
            if let Some(follows) = (self.current.as_deref_mut()).and_then(|v| v.follows_puzzle()) {
                follows.puzzle_replaced();
            }
        }
        let view = self.current.as_deref_mut();
        state.edits.uses_app_undo = view.is_none_or(|v| v.own_undo().is_none());
        let view = self.current.as_deref_mut();
        state.edits.view_saves =
            view.is_some_and(|v| v.saves_itself().is_some_and(|s| s.saves_itself()));
    }
}

impl PuzzleLabApp {
    /// The panels' context for this frame (see [`Panel`]).
    pub fn panel(&mut self) -> Panel<'_> {
        Panel {
            state: &mut self.state,
            views: &mut self.views,
        }
    }
}

/// What a panel of the window is handed: the app's state to read (it dereferences to
/// [`AppState`]), the commands it may send (the window's own parts too change through
/// commands: [`super::WindowCommand`], [`super::SettingCommand`], [`super::CanvasCommand`],
/// [`super::OracleCommand`]), and the view of the puzzle on screen to run. Every command is
/// applied at the end of the frame.
pub struct Panel<'a> {
    state: &'a mut AppState,
    views: &'a mut Views,
}

impl std::ops::Deref for Panel<'_> {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        self.state
    }
}

impl Panel<'_> {
    /// Queues a command, to be applied at the end of the frame.
    pub fn push(&mut self, command: AppCommand) {
        self.state.commands.push(command);
    }

    /// Queues a command of the view of the puzzle on screen (see [`super::ViewCommand`]).
    pub fn push_view(&mut self, command: impl std::any::Any + Send) {
        self.push(AppCommand::View(super::ViewCommand::new(command)));
    }

    /// The view of the puzzle on screen, if the UI installed views.
    pub fn type_view(&self) -> Option<&dyn TypeView> {
        self.views.current.as_deref()
    }

    /// The state as a view reads it (see [`super::ViewRead`]).
    pub fn view_read(&self) -> super::ViewRead<'_> {
        super::ViewRead::read(self.state)
    }

    /// Runs drawing code `f` on the view of the puzzle on screen (its tools, its panels and
    /// windows, its pointer input): it reads the state and sends commands.
    pub fn with_view<T>(
        &mut self,
        f: impl FnOnce(&mut dyn TypeView, &mut ViewDraw<'_>) -> T,
    ) -> Option<T> {
        self.views.draw(self.state, f)
    }

    /// Whether the view on screen has its docked panel open (see [`super::OwnPanels`]).
    pub fn view_is_docked(&mut self) -> bool {
        (self.views.current.as_deref_mut())
            .and_then(|v| v.own_panels())
            .is_some_and(|p| p.is_docked())
    }
}
