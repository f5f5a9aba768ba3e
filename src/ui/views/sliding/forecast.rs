//! The sliding view's forecast of IDA*'s iterations (see
//! [`crate::puzzles::sliding::stratified`]): for the board on screen with pattern databases
//! attached, each iteration's expansions forecast on a background thread (a second or so),
//! then shown beside the run: this iteration and the next, with the time the next should
//! take at the run's pace.

use std::sync::{Arc, Weak};

use eframe::egui::{self, RichText};

use crate::app::{AppAccess, ViewContext, ViewWrite, WorkOrder};
use crate::puzzles::sliding::pattern_db::PatternDb;
use crate::puzzles::sliding::stratified;
use crate::search::CancelToken;
use crate::search::layers::Iteration;

/// Bounds forecast past the board's estimate (in steps of two moves).
const AHEAD: u32 = 14;

/// Stratified-sampling probes per bound (on Korf's 100, 100 probes keep the forecast of
/// every board within a factor of about 2, and of most within 15 %).
const PROBES: usize = 200;

/// The view's name for the forecast's work (see [`WorkOrder`]).
const FORECASTING: &str = "ida-forecast";

/// The forecasts for one board and database.
#[derive(Default)]
pub struct IterationForecast {
    /// The board and database forecast. The database is held weakly, which keeps its
    /// allocation, so no other database is made at its address while it is the key (an
    /// address alone may be a new database's, made where a dropped one was).
    key: Option<(Vec<u8>, Weak<PatternDb>)>,
    /// Whether the app's work for the view makes the forecast now.
    running: bool,
    /// (bound, expansions forecast), bound rising by two.
    table: Vec<(u32, f64)>,
}

impl IterationForecast {
    /// Has the app forecast the board on screen (its `tiles`, row-major, and `db`, the
    /// database attached when IDA* is chosen: forecasts are of IDA* with pattern databases
    /// only) when it or its database changed, in place of the forecast of the board before;
    /// the table comes back as [`super::Command::Forecast`].
    pub fn tick(&mut self, app: &mut ViewWrite<'_>, db: Option<Arc<PatternDb>>, tiles: Vec<u8>) {
        let Some(db) = db else {
            if self.running {
                app.forget_work(FORECASTING);
            }
            self.key = None;
            self.running = false;
            self.table.clear();
            return;
        };
        let same = (self.key.as_ref())
            .is_some_and(|(t, d)| *t == tiles && std::ptr::eq(d.as_ptr(), Arc::as_ptr(&db)));
        if !same {
            self.key = Some((tiles.clone(), Arc::downgrade(&db)));
            self.table.clear();
            let order = WorkOrder::new(
                FORECASTING,
                "ida-forecast",
                CancelToken::new(),
                move |cx| super::Command::Forecast(forecast_table(&db, &tiles, cx.cancel)),
                |_| super::Command::Forecast(Vec::new()),
            );
            self.running = app.start_work(order).is_ok();
        }
    }

    /// The forecast's table, made by the app's work.
    pub fn done(&mut self, table: Vec<(u32, f64)>) {
        self.running = false;
        self.table = table;
    }

    /// The forecast for `bound`, if made.
    pub fn at(&self, bound: u32) -> Option<f64> {
        self.table
            .iter()
            .find(|(b, _)| *b == bound)
            .map(|&(_, n)| n)
    }

    /// The lines under the run's figures: this iteration's forecast and the next one's, with
    /// its time at the pace of the run so far.
    pub fn ui(&self, app: &ViewContext<impl AppAccess>, ui: &mut egui::Ui) {
        if self.key.is_none() {
            return;
        }
        if self.running {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(RichText::new("Forecasting IDA*'s iterations...").weak());
            });
            return;
        }
        let Some(&(first, _)) = self.table.first() else {
            return;
        };
        let stats = app.run_stats();
        let about = |n: f64| {
            if n >= 1e6 {
                format!("about {:.1} M states", n / 1e6)
            } else if n < 1.5 {
                "about 1 state".to_owned()
            } else {
                format!("about {n:.0} states")
            }
        };
        // A solved run has no next iteration: its completed ones are set beside their forecast.
        if let Some(report) = app
            .result()
            .filter(|r| r.solved && !r.iterations.is_empty() && !app.is_running())
        {
            self.solved_ui(&report.iterations, ui, &about);
            return;
        }
        let (current, next) = if stats.iterations > 0 {
            let bound = stats.threshold as u32;
            (Some(bound), bound + 2)
        } else {
            (None, first)
        };
        if let Some(bound) = current
            && let Some(n) = self.at(bound)
        {
            ui.label(format!(
                "This iteration (bound {bound}): forecast {}.",
                about(n)
            ));
        }
        if let Some(n) = self.at(next) {
            // At a chosen speed the run's pace is that speed; at full speed, its own so far.
            let settings = app.settings();
            let seconds = if !settings.full_speed && settings.speed > 0.0 {
                Some(n / settings.speed)
            } else if stats.elapsed_ms > 0.0 && stats.expanded > 0 {
                Some(n * stats.elapsed_ms / 1000.0 / stats.expanded as f64)
            } else {
                None
            };
            let pace = seconds.map_or_else(String::new, |s| {
                format!(", ~{}", crate::search::format_ms(s * 1000.0))
            });
            ui.label(format!(
                "{} (bound {next}): {}{pace}.",
                if current.is_some() {
                    "Next iteration"
                } else {
                    "First iteration"
                },
                about(n)
            ))
            .on_hover_text(
                "Stratified sampling of the iteration's own tree (Chen 1992): probes walk it \
                 level by level, one node standing for each kind (estimate, parent's estimate, \
                 blank's moves). On Korf's 100 it is within 15 % on most boards (README).",
            );
        }
    }

    /// After a solved run: its completed iterations' forecast against their expansions, and
    /// the last iteration's (forecast whole; it ended at its first solution).
    fn solved_ui(
        &self,
        iterations: &[Iteration],
        ui: &mut egui::Ui,
        about: &dyn Fn(f64) -> String,
    ) {
        let Some((last, done)) = iterations.split_last() else {
            return;
        };
        let known: Vec<(f64, u64)> = done
            .iter()
            .filter_map(|it| Some((self.at(it.bound as u32)?, it.expanded)))
            .collect();
        if !known.is_empty() {
            let forecast: f64 = known.iter().map(|k| k.0).sum();
            let expanded: u64 = known.iter().map(|k| k.1).sum();
            ui.label(format!(
                "Completed iterations ({}): forecast {}, expanded {expanded}.",
                known.len(),
                about(forecast)
            ));
        }
        if let Some(n) = self.at(last.bound as u32) {
            ui.label(format!(
                "Last iteration (bound {}): forecast {} in full; it ended at its first \
                 solution after {} states.",
                last.bound,
                about(n),
                last.expanded
            ));
        }
    }
}

/// The forecasts for `tiles` from its estimate to [`AHEAD`] moves past it, on this one
/// thread (a pool of one), so that a run started meanwhile keeps every core of rayon's pool.
fn forecast_table(db: &PatternDb, tiles: &[u8], cancel: &CancelToken) -> Vec<(u32, f64)> {
    let h = db.estimate(tiles);
    let table = || {
        (0..=AHEAD / 2)
            .map(|k| h + 2 * k)
            .map(|bound| {
                let seed = u64::from(bound);
                let n = stratified::expansions(db, tiles, bound, PROBES, seed, cancel);
                (bound, n)
            })
            .take_while(|_| !cancel.is_cancelled())
            .collect()
    };
    match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool.install(table),
        Err(_) => table(),
    }
}
