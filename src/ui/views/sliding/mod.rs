//! The sliding tile puzzle: board size, heuristic (pattern databases built in the
//! background), playing (click a tile or the arrow keys, undo), seeded scrambles and
//! unscrambling.

mod forecast;
mod pattern_build;

use std::any::Any;

use eframe::egui::{self, RichText};
use serde::{Deserialize, Serialize};

use super::Entry;
use crate::app::{AppAccess, TypeView, ViewCommand, ViewContext, ViewRead, ViewWrite};
use crate::app::{
    CanvasExtras, CapabilityKind, Description, FollowsPuzzle, FrameWork, KeepsSettings, OwnUndo,
    ViewCapability, ViewDraw,
};
use crate::puzzles::Side;
use crate::puzzles::sliding::pattern_db::PdbSet;
use crate::puzzles::sliding::{self, Sliding, TileHeuristic};
use crate::search::Algorithm;
use pattern_build::PatternBuilds;

/// The registry's entry.
pub(super) const ENTRY: Entry = Entry {
    engine: &sliding::TYPE,
    make: |kept| {
        Box::new(SlidingView {
            settings: super::settings_from(kept),
            ..SlidingView::default()
        })
    },
    claims: super::claims_none,
    new: &[],
    commands: &[],
};

/// The sliding view's settings kept across restarts.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
struct SlidingSettings {
    /// The length of a random-walk scramble.
    scramble_moves: usize,
}

impl Default for SlidingSettings {
    fn default() -> Self {
        Self { scramble_moves: 30 }
    }
}

/// The sliding tile puzzle's view.
#[derive(Default)]
pub struct SlidingView {
    settings: SlidingSettings,
    /// The moves of the last random-walk scramble, to play backwards.
    scramble: Vec<Side>,
    /// Moves still to play while unscrambling, next last.
    unscrambling: Vec<Side>,
    /// UI clock of the last unscramble move.
    unscrambled_at: f64,
    /// Pattern databases ready and being built.
    pattern_dbs: PatternBuilds,
    /// The seed of the last scramble (see [`crate::app::seed_to_use`]).
    used_seed: Option<u64>,
    /// IDA*'s iterations forecast for the board on screen.
    forecast: forecast::IterationForecast,
}

/// The sliding view's commands.
pub enum Command {
    /// Use this heuristic.
    Heuristic(TileHeuristic),
    /// Slide the tile that moves toward this side (the arrow keys).
    Key(Side),
    /// Take back the last move played.
    Undo,
    /// Scramble from the goal by a seeded random walk.
    ScrambleWalk,
    /// A uniformly random solvable board (seeded).
    ScrambleUniform,
    /// Play the last random-walk scramble backwards, back to the goal.
    Unscramble,
    /// A solved board of (rows, columns).
    Resize(usize, usize),
    /// Stop building the pattern databases.
    StopPdb,
    /// The pattern databases' build got this far (0 to 1).
    PdbProgress(f64),
    /// The pattern databases built, or why not.
    PdbBuilt(Result<std::sync::Arc<crate::puzzles::sliding::pattern_db::PatternDb>, String>),
    /// IDA*'s iterations forecast: (bound, expansions forecast), bound rising by two.
    Forecast(Vec<(u32, f64)>),
}

fn sliding(app: &ViewContext<impl AppAccess>) -> Option<&Sliding> {
    app.model::<Sliding>()
}

/// Edits the puzzle if it is a sliding tile puzzle; `edit` says whether it changed.
fn edit(app: &mut ViewWrite<'_>, edit: impl FnOnce(&mut Sliding) -> bool) -> bool {
    app.edit_model::<Sliding>(edit)
}

impl SlidingView {
    /// Whether the board is being unscrambled.
    pub fn is_unscrambling(&self) -> bool {
        !self.unscrambling.is_empty()
    }

    /// Sliding tiles with the pattern-database heuristic: attaches a ready database, or
    /// starts building one in the background, and takes the build's progress.
    fn tend_pattern_dbs(&mut self, app: &mut ViewWrite<'_>) {
        let Some(sliding) = app.model::<Sliding>() else {
            return;
        };
        let Some(set) = sliding.pdb_set() else {
            return;
        };
        if sliding.has_pattern_db() || !sliding.pattern_db_possible() {
            return;
        }
        let (rows, cols, goal) = (sliding.rows(), sliding.cols(), sliding.goal().to_vec());
        if self.pattern_dbs.is_stopped(rows, cols, &goal, set) {
            return;
        }
        if let Some(db) = self.pattern_dbs.ready_for(rows, cols, &goal, set) {
            // Derived data: attaching it changes no result shown.
            app.touch_model(false, |s: &mut Sliding| s.attach_pattern_db(db));
            return;
        }
        if let Some(order) = self.pattern_dbs.start(rows, cols, &goal, set)
            && let Err(e) = app.start_work(order)
        {
            self.pattern_dbs.not_started();
            app.set_error(format!("Could not start building pattern databases: {e}"));
        }
    }

    /// The pattern databases' build ended: a database built is kept (and attached by the
    /// frame's work), its end said in the status bar.
    fn pdb_built(
        &mut self,
        app: &mut ViewWrite<'_>,
        done: Result<std::sync::Arc<crate::puzzles::sliding::pattern_db::PatternDb>, String>,
    ) {
        match self.pattern_dbs.finished(done) {
            Some(Ok(db)) => {
                app.set_status(format!(
                    "Pattern databases ready ({} tiles).",
                    db.sizes_text()
                ));
            }
            Some(Err(e)) => app.set_error(format!("Pattern databases: {e}.")),
            None => {}
        }
    }

    /// The progress (0 to 1) of the pattern database build for the board on screen, if one
    /// is running.
    pub fn pattern_db_progress(&self, app: &ViewContext<impl AppAccess>) -> Option<f64> {
        let sliding = sliding(app)?;
        self.pattern_dbs.progress_for(
            sliding.rows(),
            sliding.cols(),
            sliding.goal(),
            sliding.pdb_set()?,
        )
    }

    /// The sliding tile puzzle: board size, heuristic, playing (click or arrow keys, undo),
    /// scrambling and unscrambling.
    fn panel_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        let Some(sliding) = sliding(app) else {
            return;
        };
        let (old_rows, old_cols) = (sliding.rows(), sliding.cols());
        let chosen = sliding.heuristic_kind();
        let played = sliding.moves_played();
        let solvable = sliding.check_solvable();
        let solved = sliding.is_solved();
        let (pdb_possible, pdb_ready) = (sliding.pattern_db_possible(), sliding.has_pattern_db());
        let goal = sliding.goal().to_vec();
        ui.horizontal(|ui| {
            let sides = sliding::MIN_SIDE..=sliding::MAX_SIDE;
            if let Some((rows, cols)) = crate::ui::size_ui(ui, (old_rows, old_cols), sides) {
                app.push_view(Command::Resize(rows, cols));
            }
        });
        egui::ComboBox::from_label("Heuristic")
            .selected_text(chosen.label())
            .show_ui(ui, |ui| {
                for h in TileHeuristic::ALL {
                    if ui.selectable_label(h == chosen, h.label()).clicked() && h != chosen {
                        app.push_view(Command::Heuristic(h));
                    }
                }
            });
        if let Some(set) = chosen.pdb_set(old_rows, old_cols) {
            let stopped = self.pattern_dbs.is_stopped(old_rows, old_cols, &goal, set);
            if !pdb_possible {
                ui.label(if chosen == TileHeuristic::PatternDb78 {
                    "The 7-8 pattern databases are for the 4 x 4 board only; linear conflict stands in."
                } else {
                    "Pattern databases need a board of at most 16 squares, or the 24-puzzle's \
                     5 x 5; linear conflict stands in."
                });
            } else if pdb_ready {
                ui.label(format!("Pattern databases ({}) ready.", set.name()));
                self.forecast.ui(app, ui);
            } else if stopped {
                ui.horizontal(|ui| {
                    ui.label("Build stopped; linear conflict stands in.");
                    if ui.button("Build").on_hover_text(build_hint(set)).clicked() {
                        self.pattern_dbs.resume();
                    }
                });
            } else if let Some(progress) = self.pattern_db_progress(app) {
                ui.horizontal(|ui| {
                    ui.add(
                        egui::ProgressBar::new(progress as f32)
                            .desired_width(170.0)
                            .text(format!("building tables {:.0}%", progress * 100.0)),
                    )
                    .on_hover_text(build_hint(set));
                    if ui
                        .button("Stop")
                        .on_hover_text("stop the build; linear conflict stands in")
                        .clicked()
                    {
                        app.push_view(Command::StopPdb);
                    }
                });
            }
        }
        ui.label("Click a tile next to the blank, or use the arrow keys.");
        ui.horizontal(|ui| {
            if ui
                .add_enabled(played > 0, egui::Button::new("Undo move"))
                .clicked()
            {
                app.push_view(Command::Undo);
            }
            ui.label(format!(
                "{} played",
                crate::app::count(played as u64, "move")
            ));
        });
        ui.horizontal(|ui| {
            if ui
                .button("Scramble")
                .on_hover_text("a random walk from the goal (seeded)")
                .clicked()
            {
                app.push_view(Command::ScrambleWalk);
            }
            let label = ui.label("moves");
            ui.add(egui::DragValue::new(&mut self.settings.scramble_moves).range(1..=10_000))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            if ui
                .button("Random board")
                .on_hover_text("a uniformly random solvable board (seeded)")
                .clicked()
            {
                app.push_view(Command::ScrambleUniform);
            }
            if ui
                .add_enabled(!self.scramble.is_empty(), egui::Button::new("Unscramble"))
                .on_hover_text("play the last scramble backwards")
                .clicked()
            {
                app.push_view(Command::Unscramble);
            }
        });
        match solvable {
            _ if solved => {
                ui.label(RichText::new("Solved!").strong());
            }
            Ok(()) => {}
            Err(reason) => {
                let why = crate::app::sentence(&reason.to_string());
                ui.label(RichText::new(why).color(ui.visuals().error_fg_color));
            }
        }
        super::oracle_ui(app, ui);
    }

    /// Slides the tile that moves toward `side`, animating the move.
    fn key(app: &mut ViewWrite<'_>, side: Side) {
        if !app.take_shown_board() {
            return;
        }
        let before = app.puzzle().clone_box();
        edit(app, |p| p.slide_toward(side));
        if app.puzzle().picture() != before.picture() {
            app.slide_from(before.as_ref());
        }
    }
}

impl TypeView for SlidingView {
    fn type_name(&self) -> &'static str {
        sliding::TYPE.name
    }

    fn tools_ui(&mut self, app: &mut ViewDraw<'_>, ui: &mut egui::Ui) {
        self.panel_ui(app, ui);
    }

    fn apply(&mut self, app: &mut ViewWrite<'_>, command: ViewCommand) {
        let Some(command) = command.take::<Command>() else {
            return;
        };
        match command {
            Command::Heuristic(h) => {
                edit(app, |p| {
                    p.set_heuristic(h);
                    true
                });
            }
            Command::Key(side) => Self::key(app, side),
            Command::Undo => self.undo(app),
            Command::ScrambleWalk => {
                let seed = app.next_seed(&mut self.used_seed);
                let moves = self.settings.scramble_moves;
                let mut walk = Vec::new();
                edit(app, |p| {
                    walk = p.scramble_walk(moves, seed);
                    true
                });
                self.scramble = walk.iter().map(|m| m.to).collect();
                self.unscrambling.clear();
                app.set_status(format!(
                    "Scrambled by {} random moves (seed {seed}).",
                    self.scramble.len()
                ));
            }
            Command::ScrambleUniform => {
                let seed = app.next_seed(&mut self.used_seed);
                edit(app, |p| {
                    p.scramble_uniform(seed);
                    true
                });
                self.scramble.clear();
                self.unscrambling.clear();
                app.set_status(format!("A random solvable board (seed {seed})."));
            }
            Command::Unscramble => {
                // Each walk move undone: the tile goes back the opposite way, last move first.
                self.unscrambling = self.scramble.iter().map(|s| s.opposite()).collect();
                self.unscrambled_at = app.now();
                self.scramble.clear();
            }
            Command::Resize(rows, cols) => match Sliding::solved(rows, cols) {
                Ok(mut p) => {
                    if let Some(old) = sliding(app) {
                        p.set_heuristic(old.heuristic_kind());
                    }
                    self.scramble.clear();
                    self.unscrambling.clear();
                    app.replace_puzzle(Box::new(p), None);
                    // The status line spoke of the board before (it may have said it was
                    // unsolvable).
                    app.set_status(format!(
                        "A solved {rows} x {cols} board: Scramble, or slide tiles by hand."
                    ));
                }
                Err(e) => app.set_error(format!("Cannot resize: {e}")),
            },
            Command::StopPdb => {
                if self.pattern_dbs.stop() {
                    app.forget_work(pattern_build::BUILDING);
                }
                app.set_status("Pattern database build stopped.");
            }
            Command::PdbProgress(fraction) => self.pattern_dbs.progress(fraction),
            Command::PdbBuilt(done) => self.pdb_built(app, done),
            Command::Forecast(table) => self.forecast.done(table),
        }
    }

    fn canvas_extras(
        &self,
        app: &ViewRead<'_>,
        hover: Option<crate::puzzles::Cell>,
    ) -> CanvasExtras<'_> {
        CanvasExtras {
            hover_text: hover.and_then(|cell| self.hover_text(app, cell)),
            ..CanvasExtras::default()
        }
    }

    fn describe(&self, _app: &ViewRead<'_>) -> Description {
        let about = "The n-by-n sliding tile puzzle (the 15-puzzle for n = 4): slide a tile next to the \
         gap into it, until the tiles stand in the goal order: 1, 2, 3 ... row by row with the \
         gap last, unless the puzzle's file gives another goal (Korf's instances put the gap \
         first). Click a tile next to the gap to move it; Scramble makes a random solvable position. A* \
         with pattern databases solves the hardest 15-puzzles. Source: the sliding puzzle \
         part of the maze article; solved tile at row i, column j is i*n+j+1.";
        let legend = {
            use crate::ui::palette::{TILE_AWAY, TILE_HOME};
            vec![
                super::entry(TILE_HOME, "tile on its own square"),
                super::entry(TILE_AWAY, "tile elsewhere"),
            ]
        };
        Description {
            about,
            legend,
            standing_error: None,
        }
    }

    fn capability(&mut self, kind: CapabilityKind) -> Option<ViewCapability<'_>> {
        crate::lend_capabilities!(self, kind; FrameWork, OwnUndo, FollowsPuzzle, KeepsSettings)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl SlidingView {
    /// A line about the square `cell` under the pointer, for the status bar.
    fn hover_text(&self, app: &ViewRead<'_>, cell: crate::puzzles::Cell) -> Option<String> {
        // Tile 0 is the blank (the gap).
        Some(match app.shown_model::<Sliding>()?.tile_at(cell)? {
            0 => "the blank".to_owned(),
            tile => format!("tile {tile}"),
        })
    }
}

impl FrameWork for SlidingView {
    fn tick(&mut self, app: &mut ViewWrite<'_>, ctx: &egui::Context) {
        self.tend_pattern_dbs(app);
        let algorithm = app.algorithm();
        let board = sliding(app).map(|board| {
            let db = board
                .attached_db()
                .filter(|_| algorithm == Algorithm::IdaStar);
            (db.cloned(), board.tiles_row_major())
        });
        if let Some((db, tiles)) = board {
            self.forecast.tick(app, db, tiles);
        }
        // Arrow keys slide the tile that moves that way, unless a text field has the
        // keyboard or classroom mode gives them to the run (Right and Left step it, as on
        // every type). They are taken here, before the panels, so the Right arrow is not also
        // the toolbar's Step.
        if !ctx.egui_wants_keyboard_input() && !app.settings().classroom {
            let keys = [
                (egui::Key::ArrowUp, Side::Up),
                (egui::Key::ArrowDown, Side::Down),
                (egui::Key::ArrowLeft, Side::Left),
                (egui::Key::ArrowRight, Side::Right),
            ];
            for (key, side) in keys {
                if ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, key)) {
                    Self::key(app, side);
                }
            }
        }
        let interval = 1.0 / app.settings().playback_rate.max(0.1);
        if !self.unscrambling.is_empty() && app.now() - self.unscrambled_at >= interval {
            self.unscrambled_at = app.now();
            if let Some(side) = self.unscrambling.pop() {
                Self::key(app, side);
            }
        }
        if !self.unscrambling.is_empty() {
            ctx.request_repaint();
        }
    }
}

impl OwnUndo for SlidingView {
    fn undo(&mut self, app: &mut ViewWrite<'_>) {
        edit(app, Sliding::undo);
    }
}

impl FollowsPuzzle for SlidingView {
    fn puzzle_replaced(&mut self) {
        self.scramble.clear();
        self.unscrambling.clear();
    }
}

impl KeepsSettings for SlidingView {
    fn settings(&self) -> Option<serde_json::Value> {
        serde_json::to_value(&self.settings).ok()
    }
}

/// What building the tables of `set` takes, for the progress bar's hover text (measured on
/// this project's 2-core machine; README "Sliding tile puzzle").
fn build_hint(set: PdbSet) -> &'static str {
    match set {
        PdbSet::Quick => "the quick pattern databases: a few seconds, cached on disk",
        PdbSet::Large => "the 7-8 pattern databases: about 10 minutes once, 317 MB cached on disk",
        PdbSet::Six => {
            "Korf and Felner's 6-6-6-6 pattern databases of the 24-puzzle: about 8 minutes \
             once, 320 MB cached on disk"
        }
        PdbSet::Custom => "pattern databases of hand-picked groups",
    }
}
