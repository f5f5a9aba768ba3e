//! Frame times of the real app, driven headless with egui_kittest (no window), and the Stop
//! latency: `cargo bench --bench frame`. Prints, as its last line, one JSON object:
//!
//! - `frame_ms`: every frame while breadth-first search runs at full speed on a 2048 x 2048
//!   random grid (30 % walls), start to finish, the grid fitted to a 1280 x 800 window;
//! - `full_speed`: that search's own time in the app (`in_app_ms`, the Time the statistics
//!   show, the least of three runs in new windows, frames at the app's pace while it runs:
//!   20 a second, `puzzlelab::solver::FULL_SPEED_FRAME`, then back to back) beside the same
//!   search run headless as `puzzlelab solve` runs it (`cli_ms`, the least of three), the
//!   same search on the solver thread with no window taking its events (`solver_thread_ms`,
//!   the least of three), and the ratio of the first two; `in_app_ms_frames_back_to_back`,
//!   one more run with frames back to back throughout (run last, after the memory peaks);
//!   and `end_to_picture_ms`, from the search's end to the frame whose canvas shows its
//!   final marks (the view at the recording's head, every changed square drawn), with
//!   `end_to_picture_frames` the frames after the result's arrival; the same with every
//!   frame costing 100 ms (a slow renderer's frame, slept after the app's work):
//!   `end_to_picture_ms_100ms_frames`, `end_to_coarse_ms_100ms_frames` (to the first frame
//!   showing the end, its coarse picture at least) and `end_to_picture_frames_100ms_frames`;
//! - `stop_ms`: from the frame in which Stop is clicked to the first frame whose status says
//!   stopped, over 20 Stops at random moments of that search;
//! - `long_solution_frame_ms`: idle frames and frames with a click (Back, Next), with a
//!   generated 2047 x 2047 maze's solution (about 240,000 moves) on screen;
//! - `scrub_frame_ms`: every frame while the finished search's timeline goes to 40 random
//!   positions (each asked for, then frames until the view shows it), and
//!   `scrub_frames_per_seek` the frames each took; `recording_bytes` and
//!   `recording_events`, the search's recording;
//! - `learn_frame_ms`: every frame while the Learn panel is open (pseudo-code, the open list,
//!   g and arrows on the squares) and the timeline goes to 40 positions among the first
//!   20,000 expansions, then to the end;
//! - `peak_rss_mb`: the process's peak resident memory, and `peak_rss_mb_by_phase` the peak
//!   after the search, the scrubbing and the stops.
//!
//! With `FRAME_TRACE` set, each search frame over 10 ms is printed to stderr as it happens.

use std::time::{Duration, Instant};

/// How often the app draws a full-speed search while it runs.
const FRAME: Duration = puzzlelab::solver::FULL_SPEED_FRAME;
/// A slow renderer's frame (llvmpipe under Xvfb: 85-100 ms a frame, measured).
const SLOW_FRAME: Duration = Duration::from_millis(100);

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, PuzzleLabApp, Settings, TimelineCommand};
use puzzlelab::puzzles::maze::Maze;
use puzzlelab::puzzles::maze::generate::{self, Generator};
use puzzlelab::puzzles::{NoWatcher, Puzzle as _};
use puzzlelab::search::{Algorithm, CancelToken, Limits};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Takes each frame's texture uploads and drops them, as a GPU takes them off the app's
/// heap in the real window. Without a renderer kittest keeps every upload until a first
/// render, so a headless run's memory grew by each scrubbed frame's texture tiles (12 MB a
/// seek on the 2048 x 2048 grid: 400 MB of the 748 MB once measured here).
struct Uploads;

impl egui_kittest::TestRenderer for Uploads {
    fn handle_delta(&mut self, delta: &mut egui::TexturesDelta) {
        delta.set.clear();
        delta.free.clear();
    }

    fn render(
        &mut self,
        _ctx: &egui::Context,
        _output: &egui::FullOutput,
    ) -> Result<image::RgbaImage, String> {
        Err("the frame benchmark does not render".into())
    }
}

fn harness(maze: &Maze) -> Harness<'static, PuzzleLabApp> {
    let settings = Settings {
        puzzle_json: Some(maze.to_json().to_string()),
        algorithm: Some(Algorithm::Bfs),
        full_speed: true,
        ..Settings::default()
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .renderer(Uploads)
        .build_ui_state(
            |ui, app: &mut PuzzleLabApp| app.frame_ui(ui),
            PuzzleLabApp::new(settings),
        );
    h.step();
    h.step();
    h
}

/// Whether the canvas shows the run's end: its result is in, the timeline's view is at the
/// recording's head and every changed square has been drawn.
fn final_picture_drawn(h: &Harness<'static, PuzzleLabApp>) -> bool {
    let app = h.state();
    let at_head = app
        .timeline()
        .and_then(|t| t.track.as_ref())
        .is_none_or(|track| track.is_caught_up() && track.shown() == track.len());
    let marks = app.marks();
    // Marks set whole to the end are drawn once the canvas has painted every row of them.
    let whole_painted = marks.whole.is_none()
        || puzzlelab::ui::with_canvas_texture(&h.ctx, |t| t.whole_drawn()).flatten()
            == Some((marks.id, marks.dims().0));
    app.result().is_some()
        && at_head
        && !marks.is_setting_whole()
        && whole_painted
        && marks.changes_drawn >= marks.changes_forgotten + marks.changed.len()
}

/// Whether the canvas shows the run's end, coarse or exact: its result is in and the canvas
/// draws the marks set whole to the end (their coarse picture under the rows painted), or
/// the final picture.
fn end_on_screen(h: &Harness<'static, PuzzleLabApp>) -> bool {
    let marks = h.state().marks();
    let drawing_end = marks.whole.is_some()
        && puzzlelab::ui::with_canvas_texture(&h.ctx, |t| t.whole_drawn())
            .flatten()
            .is_some_and(|(id, _)| id == marks.id);
    h.state().result().is_some() && (drawing_end || final_picture_drawn(h))
}

/// The search's own time, run headless as `puzzlelab solve` runs it (no watcher): the least
/// of three runs, in milliseconds.
fn cli_search_ms(maze: &Maze) -> f64 {
    least_of_three(|| {
        let cancel = CancelToken::with_limits(Limits::default());
        let report = maze.solve(Algorithm::Bfs, &mut NoWatcher, &cancel).ok()?;
        Some(report.stats.elapsed_ms)
    })
}

/// The least of three runs of `run` (a search's own time in milliseconds, `None` when it
/// failed).
fn least_of_three(mut run: impl FnMut() -> Option<f64>) -> f64 {
    (0..3).filter_map(|_| run()).fold(f64::INFINITY, f64::min)
}

/// The search's own time on the solver thread at full speed, recorded as the app records it
/// but with no window taking its events (they are taken at the end): the least of three runs,
/// in milliseconds. Beside [`cli_search_ms`] it is the price of watching and recording;
/// beside the time in the app, the price of sharing the processor with the window.
fn solver_thread_ms(maze: &Maze) -> f64 {
    least_of_three(|| {
        let mut handle = puzzlelab::solver::SolverHandle::spawn(
            Box::new(maze.clone()),
            Algorithm::Bfs,
            f64::INFINITY,
            false,
            Limits::default(),
            std::sync::Arc::new(|| {}),
        )
        .ok()?;
        match handle.wait() {
            puzzlelab::solver::Event::Finished(report) => Some(report.stats.elapsed_ms),
            _ => None,
        }
    })
}

/// One full-speed search in the app, from the click on Start to the frame that draws its
/// final picture.
struct AppRun {
    h: Harness<'static, PuzzleLabApp>,
    /// Every frame's time, in milliseconds.
    frames: Vec<f64>,
    /// From the click to the final picture, in seconds.
    search_s: f64,
    /// From the click to the first frame that shows the end (coarse or exact), in seconds.
    end_shown_s: f64,
    /// The frames from the result's arrival to the final picture.
    end_frames: usize,
    /// The search's own time, as the statistics show it.
    in_app_ms: f64,
}

/// Runs the search in a new window on `maze`: while it runs a frame comes each
/// [`FRAME`], as the app asks for them (the solver wakes it at most that often at full
/// speed); once it has ended they come back to back, to the final picture. With
/// `frame_cost`, every frame takes at least that long (a slow renderer's frame, as
/// llvmpipe's 85-100 ms under Xvfb: the time after the app's work, slept here).
fn app_run(maze: &Maze, deadline: Duration, frame_cost: Option<Duration>) -> AppRun {
    let mut h = harness(maze);
    h.get_by_label("Start").click();
    let mut frames = Vec::new();
    let started = Instant::now();
    let (mut end_shown_s, mut end_frames) = (None, 0);
    while !final_picture_drawn(&h) && started.elapsed() < deadline {
        let began = Instant::now();
        frames.push(frame(&mut h));
        if h.state().result().is_some() {
            end_frames += 1;
        }
        if end_shown_s.is_none() && end_on_screen(&h) {
            end_shown_s = Some(started.elapsed().as_secs_f64());
        }
        let pause = match (h.state().result(), frame_cost) {
            (None, Some(cost)) => FRAME.max(cost),
            (None, None) => FRAME,
            (Some(_), Some(cost)) => cost,
            (Some(_), None) => Duration::ZERO,
        };
        std::thread::sleep(pause.saturating_sub(began.elapsed()));
        if std::env::var_os("FRAME_TRACE").is_some() && *frames.last().unwrap() > 10.0 {
            eprintln!(
                "slow frame {} {:.1} ms, expanded {}",
                frames.len(),
                frames.last().unwrap(),
                h.state().marks().stats.expanded
            );
        }
    }
    let search_s = started.elapsed().as_secs_f64();
    let in_app_ms = h.state().result().map_or(f64::NAN, |r| r.stats.elapsed_ms);
    AppRun {
        h,
        frames,
        search_s,
        end_shown_s: end_shown_s.unwrap_or(search_s),
        end_frames,
        in_app_ms,
    }
}

/// The search's own time in the app with frames drawn back to back throughout, as fast as
/// they come (no display paces them): the most the window's work can slow the search.
fn back_to_back_ms(maze: &Maze, deadline: Duration) -> f64 {
    let mut h = harness(maze);
    h.get_by_label("Start").click();
    let started = Instant::now();
    while h.state().result().is_none() && started.elapsed() < deadline {
        h.step();
    }
    h.state().result().map_or(f64::NAN, |r| r.stats.elapsed_ms)
}

/// Runs one frame and returns its duration in milliseconds.
fn frame(h: &mut Harness<'static, PuzzleLabApp>) -> f64 {
    let t = Instant::now();
    h.step();
    t.elapsed().as_secs_f64() * 1000.0
}

fn quantiles(mut v: Vec<f64>) -> serde_json::Value {
    v.sort_by(f64::total_cmp);
    let q = |p: f64| {
        v.get(((v.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    serde_json::json!({
        "p50": (q(0.5) * 100.0).round() / 100.0,
        "p99": (q(0.99) * 100.0).round() / 100.0,
        "max": (q(1.0) * 100.0).round() / 100.0,
        "frames": v.len(),
    })
}

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kib| (kib / 1024.0).round())
}

/// Frames with the Learn panel open (pseudo-code, the open list rebuilt at each moment up to
/// its limit, g and arrows on the squares), seeking among the first 20,000 expansions of the
/// run on screen (of `len`) and then to its end, where the open list is refused at once.
fn learn_frames(
    h: &mut Harness<'static, PuzzleLabApp>,
    len: usize,
    deadline: Duration,
) -> Vec<f64> {
    h.state_mut().windows.learn.open = true;
    let mut rng = StdRng::seed_from_u64(47);
    let mut times = Vec::new();
    for i in 0..40 {
        let k = if i == 39 {
            len
        } else {
            rng.random_range(0..=len.min(20_000))
        };
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(k)));
        let t = Instant::now();
        loop {
            times.push(frame(h));
            if h.state().marks().stats.expanded as usize == k || t.elapsed() > deadline {
                break;
            }
        }
    }
    h.state_mut().windows.learn.open = false;
    times
}

fn main() {
    let deadline = Duration::from_secs(300);
    let mut grid = Maze::new(2048, 2048);
    grid.randomize(0.3, 7);

    // Full-speed BFS, start to finish (to the frame that draws its final picture).
    let cli_ms = cli_search_ms(&grid);
    let solver_ms = solver_thread_ms(&grid);
    // The search in the app (then twice more at the end, each in a new window), frames at
    // the app's pace while it runs: the least of the three times beside the least of three
    // of the others; this run's frames, and its end to the final picture.
    let AppRun {
        mut h,
        frames,
        search_s,
        end_frames,
        in_app_ms: last_in_app_ms,
        ..
    } = app_run(&grid, deadline, None);
    let searched = h.state().result().map_or(0, |r| r.stats.expanded);
    // The search began in the frame that took the click, after the run's start: the end is
    // at most this long before the picture (an overestimate by the spawn's time).
    let end_to_picture_ms = search_s * 1000.0 - last_in_app_ms;
    let rss_search = peak_rss_mb();

    // The timeline: seeks to random positions, back and forth.
    h.step();
    let mut rng = StdRng::seed_from_u64(11);
    let len = h.state().timeline_len();
    let (recording_bytes, recording_events) = h
        .state()
        .timeline_recording()
        .map_or((0, 0), |r| (r.bytes(), r.len()));
    let mut scrub = Vec::new();
    let mut per_seek = Vec::new();
    for _ in 0..40 {
        let k = rng.random_range(0..=len);
        h.state_mut()
            .push(AppCommand::Timeline(TimelineCommand::Seek(k)));
        let mut n = 0;
        let t = Instant::now();
        loop {
            let view_id = h.state().marks().id;
            scrub.push(frame(&mut h));
            n += 1;
            if std::env::var_os("FRAME_TRACE").is_some() && *scrub.last().unwrap() > 16.0 {
                eprintln!(
                    "slow scrub frame {:.1} ms, seek to {k}, frame {n} of it{}",
                    scrub.last().unwrap(),
                    if h.state().marks().id == view_id {
                        ""
                    } else {
                        ", changes restarted"
                    }
                );
            }
            if h.state().marks().stats.expanded as usize == k || t.elapsed() > deadline {
                break;
            }
        }
        per_seek.push(f64::from(n));
    }

    let rss_scrub = peak_rss_mb();
    let learn = learn_frames(&mut h, len, deadline);

    // Stop at random moments.
    let mut rng = StdRng::seed_from_u64(5);
    let mut stops = Vec::new();
    for _ in 0..20 {
        if h.query_by_label("Start").is_none() {
            eprintln!(
                "no Start button: status {:?}, running {}",
                h.state().status(),
                h.state().is_running()
            );
            h.step();
            continue;
        }
        h.get_by_label("Start").click();
        h.step();
        for _ in 0..rng.random_range(2..40) {
            h.step();
        }
        if h.state().result().is_some() {
            continue; // it finished first
        }
        h.get_by_label("Stop").click();
        let t = Instant::now();
        let finished_first = loop {
            let f = frame(&mut h);
            if std::env::var_os("FRAME_TRACE").is_some() && f > 10.0 {
                eprintln!("slow stop frame {f:.1} ms, {:?}", h.state().status().text);
            }
            let status = &h.state().status().text;
            // The search may end on its own between the click and the stop taking effect.
            if status.starts_with("Solved") || status.starts_with("No path") {
                break true;
            }
            if status.starts_with("Stopped") || t.elapsed() > deadline {
                break false;
            }
        };
        if finished_first {
            continue;
        }
        stops.push(t.elapsed().as_secs_f64() * 1000.0);
        // The frame after shows the Start button again.
        h.step();
    }
    drop(h);
    let rss_stops = peak_rss_mb();

    // A long solution on screen.
    let generated = generate::generate(Generator::RecursiveBacktracker, 1023, 1023, 3, 0.0);
    let mut maze = Maze::new(3, 3);
    maze.apply_generated(&generated);
    let mut h = harness(&maze);
    h.get_by_label("Start").click();
    let started = Instant::now();
    while h.state().result().is_none() && started.elapsed() < deadline {
        h.step();
    }
    let moves = h.state().result().map_or(0, |r| r.moves.len());
    h.step();
    let mut long = Vec::new();
    for i in 0..100 {
        long.push(frame(&mut h));
        if std::env::var_os("FRAME_TRACE").is_some() && *long.last().unwrap() > 10.0 {
            eprintln!("slow playback frame {i}: {:.1} ms", long.last().unwrap());
        }
        if i % 2 == 0 {
            h.get_by_label(if i % 4 == 0 { "Back" } else { "Next" })
                .click();
            long.push(frame(&mut h));
        }
    }

    let peak_rss = peak_rss_mb();
    drop(h);
    // Last, so that their memory is not in the peaks above: two more runs for the least of
    // three, and one with frames back to back.
    let mut in_app_ms = last_in_app_ms;
    for _ in 0..2 {
        in_app_ms = in_app_ms.min(app_run(&grid, deadline, None).in_app_ms);
    }
    let busy_ms = back_to_back_ms(&grid, deadline);
    // The end with every frame costing 100 ms (a slow renderer): from the search's end to
    // the first frame showing the end (its coarse picture at least) and to the exact one.
    let slow = app_run(&grid, deadline, Some(SLOW_FRAME));
    let slow_end_ms = |s: f64| (s * 1000.0 - slow.in_app_ms).round();
    let slow_frames = slow.end_frames;
    let (slow_coarse_ms, slow_exact_ms) =
        (slow_end_ms(slow.end_shown_s), slow_end_ms(slow.search_s));
    drop(slow);

    let v = serde_json::json!({
        "frame_ms": quantiles(frames),
        "full_speed": {
            "in_app_ms": (in_app_ms * 10.0).round() / 10.0,
            "cli_ms": (cli_ms * 10.0).round() / 10.0,
            "solver_thread_ms": (solver_ms * 10.0).round() / 10.0,
            "in_app_over_cli": (in_app_ms / cli_ms * 100.0).round() / 100.0,
            "in_app_ms_frames_back_to_back": (busy_ms * 10.0).round() / 10.0,
            "end_to_picture_ms": end_to_picture_ms.round(),
            "end_to_picture_frames": end_frames,
            "end_to_picture_ms_100ms_frames": slow_exact_ms,
            "end_to_coarse_ms_100ms_frames": slow_coarse_ms,
            "end_to_picture_frames_100ms_frames": slow_frames,
        },
        "stop_ms": quantiles(stops),
        "long_solution_frame_ms": quantiles(long),
        "scrub_frame_ms": quantiles(scrub),
        "scrub_frames_per_seek": quantiles(per_seek),
        "learn_frame_ms": quantiles(learn),
        "recording_bytes": recording_bytes,
        "recording_events": recording_events,
        "peak_rss_mb": peak_rss,
        "peak_rss_mb_by_phase": {
            "search": rss_search, "scrub": rss_scrub, "stops": rss_stops,
        },
        "bfs_expanded": searched,
        "bfs_seconds_in_app": (search_s * 100.0).round() / 100.0,
        "long_solution_moves": moves,
    });
    println!("{v}");
}
