//! The exports group: what the window shows, written to files off the window's thread. Holds
//! the commands `ExportCanvas` (the canvas as a PNG picture), `ExportGraph`, `ExportTrace`,
//! `ExportMoves`, `ExportGifDialog` and `ExportGif` (the search as an animated GIF) and
//! `ExportResults` (the results table as CSV or JSON).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use eframe::egui::{ColorImage, Rect};

use super::files::DialogKind;
use super::job::Job;
use super::{AppState, GifJob, Status};
use crate::runs::results;
use crate::search::CancelToken;

/// The part of a window screenshot `image` inside `rect` (in points, `pixels_per_point`
/// pixels each), clamped to the image.
pub fn crop(image: &ColorImage, rect: Rect, pixels_per_point: f32) -> ColorImage {
    let [w, h] = image.size;
    let bounds = Rect::from_min_size(
        eframe::egui::Pos2::ZERO,
        eframe::egui::vec2(w as f32, h as f32) / pixels_per_point,
    );
    image.region(&rect.intersect(bounds), Some(pixels_per_point))
}

/// Writes `image` as an 8-bit RGBA PNG file at `path`, atomically (a temporary file, then a
/// rename).
///
/// # Errors
/// Any I/O error, or the PNG encoder's error as an I/O error.
pub fn write_png(image: &ColorImage, path: &Path) -> std::io::Result<()> {
    let [w, h] = image.size;
    crate::puzzles::write_atomically_with(path, |out| {
        let mut encoder = png::Encoder::new(out, w as u32, h as u32);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
        // Screenshots are opaque, where premultiplied and straight alpha agree.
        writer
            .write_image_data(image.as_raw())
            .map_err(std::io::Error::other)?;
        writer.finish().map_err(std::io::Error::other)
    })
}

impl AppState {
    /// Asks for a screenshot of the next frame and saves the canvas's part of it as PNG at
    /// `path`; the outcome comes back to the status bar.
    pub(super) fn export_canvas(&mut self, path: PathBuf) {
        let (Some(ctx), Some(rect)) = (self.frame.repaint.clone(), self.canvas.rect) else {
            self.set_error("Nothing to export yet: the canvas has not been drawn.");
            return;
        };
        let tx = self.io.notice_tx.clone();
        let pixels_per_point = ctx.pixels_per_point();
        let wake = ctx.clone();
        ctx.request_screenshot(move |image| {
            let picture = crop(&image, rect, pixels_per_point);
            let notice = match write_png(&picture, &path) {
                Ok(()) => Status {
                    text: format!(
                        "Saved a {} x {} picture of the canvas to {}.",
                        picture.size[0],
                        picture.size[1],
                        path.display()
                    ),
                    is_error: false,
                },
                Err(e) => Status {
                    text: format!("Could not save {}: {e}", path.display()),
                    is_error: true,
                },
            };
            let _ = tx.send(notice);
            wake.request_repaint();
        });
        ctx.request_repaint();
    }

    /// Writes the last single run's recording to `path` as a Posthoc search trace on a thread
    /// named `trace-export` (a large run's trace is hundreds of megabytes); the outcome comes
    /// back to the status bar.
    /// Writes the oracle's explored state graph to `path` on a background thread: a CSV
    /// edge list when the name ends in `.csv`, GraphML otherwise (see
    /// [`crate::puzzles::oracle::Space::write_graphml`]).
    pub(super) fn export_graph(&mut self, path: PathBuf) {
        let Some(oracle) = self.windows.oracle.shared().filter(|o| o.space().is_some()) else {
            self.set_error("No state graph to export: tick Optimal moves to explore the space.");
            return;
        };
        let shown = path.display().to_string();
        let is_csv = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        let spawned = self.write_in_background(
            "graph-export",
            path,
            move |out| {
                let Some(space) = oracle.space() else {
                    return Err("the state space is gone".to_owned());
                };
                if is_csv {
                    space.write_edge_csv(out).map_err(|e| e.to_string())?;
                } else {
                    space.write_graphml(out).map_err(|e| e.to_string())?;
                }
                Ok(format!(
                    "Wrote the state graph ({} states) to {shown}.",
                    space.len()
                ))
            },
            || {},
        );
        if let Err(e) = spawned {
            self.set_error(format!("Could not start the export: {e}"));
        } else {
            self.set_status("Writing the state graph...");
        }
    }

    pub(super) fn export_trace(&mut self, path: PathBuf) {
        self.catch_up_recording();
        let (Some(trace), Some(report)) =
            (self.timeline_recording().cloned(), self.work.result.clone())
        else {
            self.set_error("No search to export: run a search first (race lanes are not traced).");
            return;
        };
        if trace.has_boards() {
            self.set_error(
                "No trace to export: this puzzle's states are boards, not places on the picture \
                 (traces are written for puzzles whose states are places).",
            );
            return;
        }
        if trace.is_empty() {
            let why = trace.stopped().unwrap_or("the search expanded nothing");
            self.set_error(format!("No trace to export: {why}."));
            return;
        }
        let shown = path.display().to_string();
        let spawned = self.write_in_background(
            "trace-export",
            path,
            move |out| {
                let written = trace
                    .write_posthoc(&report, out)
                    .map_err(|e| e.to_string())?;
                Ok(format!(
                    "Wrote a search trace of {} to {shown}{}.",
                    super::count(written as u64, "event"),
                    trace
                        .stopped()
                        .map(|why| format!(" (partial: {why})"))
                        .unwrap_or_default()
                ))
            },
            || {},
        );
        match spawned {
            Ok(()) => self.set_status("Writing the search trace…"),
            Err(e) => self.set_error(format!("Could not start writing the trace: {e}")),
        }
    }

    /// Writes a file at `path` on a thread named `thread`, atomically
    /// ([`crate::puzzles::write_atomically_with`]: a failed write leaves no partial file
    /// and removes the temporary one). The status bar then says what `write` returned, or why it
    /// could not write; `finished` runs on the thread at the end either way.
    ///
    /// # Errors
    /// The operating system's error if the thread cannot be spawned.
    pub(super) fn write_in_background(
        &mut self,
        thread: &'static str,
        path: PathBuf,
        write: impl FnOnce(&mut dyn std::io::Write) -> Result<String, String> + Send + 'static,
        finished: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<()> {
        let job = Job::start(thread, CancelToken::new(), self.waker(), move |_| {
            let written = crate::puzzles::write_atomically_with(&path, |out| {
                write(out).map_err(std::io::Error::other)
            });
            let notice = match written {
                Ok(text) => Status {
                    text,
                    is_error: false,
                },
                Err(e) => Status {
                    text: format!("Could not write {}: {e}", path.display()),
                    is_error: true,
                },
            };
            finished();
            notice
        })?;
        self.io.writes.push(job);
        Ok(())
    }

    /// Writes the last single run as an animated GIF at `path` on a thread named
    /// `gif-export`, with the colours and options asked for ([`AppCommand::ExportGifDialog`]);
    /// its progress is [`AppState::gif_job`], its outcome comes to the status bar.
    pub(super) fn export_gif(&mut self, path: PathBuf) {
        let Some((mut colors, options)) = self.windows.gif_request.take() else {
            self.set_error("No GIF asked for: use File > Export search as GIF… first.");
            return;
        };
        // The last frame shows the run's end, as the canvas does: the solution found.
        colors.solution = (self.work.result.as_ref())
            .filter(|r| r.solved)
            .map(|r| r.path.clone())
            .unwrap_or_default();
        self.catch_up_recording();
        let Some(recording) = self.timeline_recording().cloned() else {
            self.set_error("No recorded run to export: run a search first.");
            return;
        };
        if recording.has_boards() {
            self.set_error("A board puzzle's search has no places to draw as a GIF.");
            return;
        }
        let dims = self.work.marks.dims();
        let job = Arc::new(GifJob::default());
        let shared = Arc::clone(&job);
        let wake = self.frame.repaint.clone();
        let done = Arc::clone(&job);
        let shown = path.display().to_string();
        let spawned = self.write_in_background(
            "gif-export",
            path,
            move |out| {
                let frames = crate::runs::animation::write_gif(
                    &recording,
                    dims,
                    &colors,
                    options,
                    out,
                    |frame, total| {
                        shared.done.store(frame, Ordering::Relaxed);
                        shared.total.store(total, Ordering::Relaxed);
                        if let Some(ctx) = &wake {
                            ctx.request_repaint();
                        }
                    },
                    &shared.cancel,
                )
                .map_err(|e| e.to_string())?;
                Ok(format!(
                    "Wrote a GIF of {} to {shown}.",
                    super::count(frames as u64, "frame")
                ))
            },
            move || done.finished.store(true, Ordering::Relaxed),
        );
        match spawned {
            Ok(()) => {
                self.windows.gif_job = Some(job);
                self.set_status("Writing the GIF…");
            }
            Err(e) => self.set_error(format!("Could not start writing the GIF: {e}")),
        }
    }

    /// Writes the solution's moves, one numbered move a line after a header, to `path`.
    pub(super) fn export_moves(&mut self, path: &Path) {
        let Some(report) = self.work.result.as_ref().filter(|r| r.solved) else {
            self.set_error("No solution to export: solve the puzzle first.");
            return;
        };
        let mut text = format!(
            "# {} solved by {}: {}, cost {}{}\n",
            report.puzzle_type,
            report.algorithm.label(),
            super::count(report.moves.len() as u64, "move"),
            crate::search::format_cost(report.cost),
            if report.optimal { " (optimal)" } else { "" }
        );
        for (i, mv) in report.moves.iter().enumerate() {
            text += &format!("{}. {mv}\n", i + 1);
        }
        match crate::puzzles::write_atomically(path, text.as_bytes()) {
            Ok(()) => self.set_status(format!(
                "Wrote {} to {}.",
                super::count(report.moves.len() as u64, "move"),
                path.display()
            )),
            Err(e) => self.set_error(format!("Could not write {}: {e}", path.display())),
        }
    }

    /// Asks where to write the GIF, in these colours and with these options.
    pub(super) fn ask_gif_path(
        &mut self,
        colors: Box<crate::runs::animation::GifColors>,
        options: crate::runs::animation::GifOptions,
    ) {
        self.windows.gif_request = Some((colors, options));
        self.windows.gif_window = false;
        self.spawn_dialog(DialogKind::Gif);
    }

    /// Writes the results table to `path` (CSV for a `.csv` name, else JSON).
    pub(super) fn export_results(&mut self, path: &Path) {
        match results::export(&self.runs.results, path) {
            Ok(()) => self.set_status(format!(
                "Exported {} results to {}.",
                self.runs.results.len(),
                path.display()
            )),
            Err(e) => self.set_error(format!("Could not export to {}: {e}", path.display())),
        }
    }
}
