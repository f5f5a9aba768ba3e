//! The timeline bar under the canvas: the scrubber over a finished run's expansions, steps
//! and jumps, the heat maps with their colour bar, and the pinned state's figures.

use eframe::egui::{self, RichText};

use super::palette::heat_color;
use super::rows::{fixed_row, steady_label, widest};
use crate::app::{
    AppCommand, AppState, Panel, Pinned, SettingCommand, ShadeKind, TimelineCommand, WindowCommand,
};
use crate::runs::recording::Quantity;

/// The timeline's step buttons: the symbol each shows and the name a screen reader says
/// (its accessible label): to the start, one expansion back, one forward, to the head.
pub const TIMELINE_BUTTONS: [(&str, &str); 4] = [
    ("|<", "Timeline start"),
    ("<", "One expansion back"),
    (">", "One expansion forward"),
    (">|", "Timeline head"),
];

/// The accessibility label of the scrubber, by which UI tests find it.
pub const SCRUBBER_LABEL: &str = "timeline position";

fn push(app: &mut Panel<'_>, command: TimelineCommand) {
    app.push(AppCommand::Timeline(command));
}

/// The rows of the timeline bar: the colour bar, the scrubber, and the jumps, heat map and
/// pin.
pub(super) const TIMELINE_ROWS: usize = 3;

/// The rows of the timeline bar in a centre column `width` points wide: [`TIMELINE_ROWS`],
/// or in classroom mode (`classroom`, whose large type a class reads from the back of the
/// room) one more where its tools, as many as a run can show (`pinned`: with a pinned
/// state's two buttons), do not fit one row: they are split in two, the jumps and the pin,
/// then the heat map and the branch, each in sight whole. (Elsewhere a row too long for
/// its column scrolls sideways under the wheel.) It depends on the width alone (and the
/// pin), never on whether a run is recorded, so the canvas does not move when one starts
/// or ends.
pub(super) fn timeline_rows(ui: &egui::Ui, width: f32, pinned: bool, classroom: bool) -> usize {
    let [jumps_and_pin, heat_and_branch] = tools_widths(ui, pinned);
    TIMELINE_ROWS + usize::from(classroom && jumps_and_pin + heat_and_branch > width)
}

/// The narrowest centre column, in points, whose timeline rows are all in sight in
/// classroom mode: the wider half of the tools split in two (the scrubber's row and the playback bar have narrower
/// compact forms).
pub(super) fn least_column(ui: &egui::Ui, pinned: bool) -> f32 {
    let [jumps_and_pin, heat_and_branch] = tools_widths(ui, pinned);
    jumps_and_pin.max(heat_and_branch)
}

/// The width of the heat map's choice (the combo box, without its label), in points.
const HEAT_WIDTH: f32 = 130.0;

/// The widths, in points, of the tools row's two halves at their widest: the jumps and the
/// pin (with a pinned state's buttons when `pinned`), then the separator, the heat map's
/// choice and the branch; each widget with the gap after it, and a little to spare.
fn tools_widths(ui: &egui::Ui, pinned: bool) -> [f32; 2] {
    let spacing = ui.spacing();
    let (pad, gap) = (2.0 * spacing.button_padding.x, spacing.item_spacing.x);
    let button = |text: &str| super::rows::text_width(ui, text) + pad + gap;
    let separator = 6.0 + gap;
    let mut first: f32 = ["< layer", "layer >", "< f", "f >"]
        .map(button)
        .iter()
        .sum();
    first += separator + button("Pin this state").max(button("Pin squares"));
    if pinned {
        first += button("Go to its expansion") + button("Unpin");
    }
    let second = separator
        + HEAT_WIDTH
        + spacing.icon_width
        + super::rows::text_width(ui, "Colour by")
        + 2.0 * gap
        + spacing.icon_width
        + spacing.icon_spacing
        + super::rows::text_width(ui, "Only the branch")
        + gap;
    [first + 8.0, second + 8.0]
}

/// Draws the timeline bar in `rows` rows (see [`timeline_rows`]). It is always there, as
/// high, so the canvas does not move when a run ends or starts; until a run is recorded its
/// controls are disabled and its top row says what it is for.
pub(super) fn timeline_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, rows: usize) {
    let len = app.timeline_len();
    let timeline = app.timeline().filter(|_| len > 0);
    let active = timeline.is_some();
    let mut position = timeline.map_or(0, |t| t.target.min(len));
    let (heat, branch_only, inspecting, pinned, single) =
        timeline.map_or((None, false, false, None, false), |t| {
            (
                t.heat,
                t.branch_only,
                t.inspecting,
                t.pinned,
                t.track.is_some(),
            )
        });
    // The top row: the colour bar of the heat map, or what the bar is for.
    let shade = app.marks().shade.clone().filter(|_| active);
    fixed_row(ui, "timeline colour bar", |ui| {
        match shade.as_ref().map(|s| &s.kind) {
            Some(&ShadeKind::Heat { quantity, min, max }) => color_bar_ui(ui, quantity, min, max),
            _ if !active => {
                ui.label(
                    RichText::new(if app.marks().unrecorded {
                        "Timeline: this run goes too fast to record; the details panel shows its figures"
                    } else if app.is_running() {
                        "Timeline: the run's expansions are recorded as it goes"
                    } else {
                        "Timeline: replay a run's expansions one by one, also while it runs"
                    })
                    .weak(),
                );
            }
            _ => {}
        }
    });
    fixed_row(ui, "timeline scrubber", |ui| {
        ui.add_enabled_ui(active, |ui| {
            scrubber_ui(app, ui, &mut position, len);
        });
    });
    // The jumps, the pin and the heat map: one row, or two where the column is too narrow
    // for one (`rows`), each in sight whole.
    let split = rows > TIMELINE_ROWS;
    fixed_row(ui, "timeline tools", |ui| {
        ui.add_enabled_ui(active, |ui| {
            jumps_ui(app, ui);
            if single {
                ui.separator();
                pin_ui(app, ui, inspecting, pinned);
                if !split {
                    ui.separator();
                    heat_and_branch_ui(app, ui, heat, branch_only);
                }
            }
        });
    });
    if split {
        fixed_row(ui, "timeline tools, continued", |ui| {
            ui.add_enabled_ui(active, |ui| {
                if single {
                    heat_and_branch_ui(app, ui, heat, branch_only);
                }
            });
        });
    }
}

/// The heat map's choice and "Only the branch".
fn heat_and_branch_ui(
    app: &mut Panel<'_>,
    ui: &mut egui::Ui,
    heat: Option<Quantity>,
    branch_only: bool,
) {
    heat_ui(app, ui, heat);
    let mut on = branch_only;
    if ui
        .checkbox(&mut on, "Only the branch")
        .on_hover_text("Dim every mark but the pinned state's branch (the goal's if none)")
        .changed()
    {
        push(app, TimelineCommand::BranchOnly(on));
    }
}

/// What the scrubber's label says before a run is recorded.
const NO_RUN: &str = "no run recorded";

/// The scrubber's row: to the start, one back, one forward, to the end, the slider and
/// "expansion k of n". The label keeps the width of its longest text, so the slider's
/// track keeps its length under a dragging pointer.
fn scrubber_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, position: &mut usize, len: usize) {
    let longest = format!("expansion {len} of {len}");
    let long_texts = [longest.as_str(), NO_RUN];
    // Where the centre column is narrow (800 x 600 with the details open) the row drops its
    // title and its label reads "k/n", so that the slider keeps a usable length and the
    // label stays in the row.
    let compact = {
        let spacing = ui.spacing();
        let (pad, gap) = (2.0 * spacing.button_padding.x, spacing.item_spacing.x);
        let full = super::rows::text_width(ui, "Timeline")
            + 4.0 * (super::rows::text_width(ui, ">|") + pad)
            + widest(ui, &long_texts)
            + 24.0
            + 100.0
            + 6.0 * gap;
        ui.available_width() < full
    };
    if !compact {
        ui.label(RichText::new("Timeline").strong()).on_hover_text(
            "Every expansion of the run, recorded: drag to see the search as it was, also \
             while it runs (>| follows the live search again)",
        );
    }
    let at = *position;
    let following = app.timeline().is_none_or(|t| t.follow);
    // Each button shows a symbol; a screen reader says its name (see TIMELINE_BUTTONS).
    let mut go = |ui: &mut egui::Ui, (symbol, name): (&str, &str), hover: &str, enabled, c| {
        let response = super::rows::symbol_button(ui, enabled, symbol, name).on_hover_text(hover);
        if response.clicked() {
            push(app, c);
        }
    };
    let [start, back, forward, head] = TIMELINE_BUTTONS;
    go(
        ui,
        start,
        "The start (position 0)",
        at > 0,
        TimelineCommand::Seek(0),
    );
    go(
        ui,
        back,
        "One expansion back ( [ )",
        at > 0,
        TimelineCommand::Step(-1),
    );
    go(
        ui,
        forward,
        "One expansion forward ( ] )",
        at < len,
        TimelineCommand::Step(1),
    );
    go(
        ui,
        head,
        "The head: the run's end, or, while it runs, the live search, followed as it goes",
        at < len || !following,
        TimelineCommand::Follow,
    );
    let short_longest = format!("{len}/{len}");
    let texts = if compact {
        [short_longest.as_str(), "-"]
    } else {
        long_texts
    };
    let label_width = widest(ui, &texts);
    ui.spacing_mut().slider_width = (ui.available_width() - label_width - 24.0).max(40.0);
    // An empty timeline still draws its handle at the start, not mid-track.
    let mut value = *position;
    let slider = ui.add(
        egui::Slider::new(&mut value, 0..=len.max(1))
            .show_value(false)
            .smart_aim(false),
    );
    slider.widget_info(|| egui::WidgetInfo::slider(true, value as f64, SCRUBBER_LABEL));
    if slider.changed() && len > 0 {
        *position = value.min(len);
        push(app, TimelineCommand::Seek(*position));
    }
    let label = if len > 0 {
        format!("expansion {position} of {len}")
    } else {
        NO_RUN.to_owned()
    };
    if compact {
        let short = if len > 0 {
            format!("{position}/{len}")
        } else {
            "-".to_owned()
        };
        // A screen reader (and a test) reads the full label.
        steady_label(ui, short, &texts)
            .on_hover_text(label.as_str())
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, label.as_str()));
    } else {
        steady_label(ui, label, &texts);
    }
}

/// The jumps: back to where this layer (depth) or f began, on to the next greater. (No
/// "Jump:" title: the row fits the centre column at 1200 x 800; each button's tooltip says
/// where it goes.)
fn jumps_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    for q in [Quantity::Depth, Quantity::F] {
        let name = if q == Quantity::Depth { "layer" } else { "f" };
        if ui
            .small_button(format!("< {name}"))
            .on_hover_text(format!("Back to where this {} began", q.label()))
            .clicked()
        {
            push(app, TimelineCommand::Previous(q));
        }
        if ui
            .small_button(format!("{name} >"))
            .on_hover_text(format!("On to the next greater {}", q.label()))
            .clicked()
        {
            push(app, TimelineCommand::Next(q));
        }
    }
}

/// The heat map's choice.
fn heat_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, heat: Option<Quantity>) {
    let name = |q: Option<Quantity>| match q {
        None => "marks",
        Some(Quantity::Order) => "expansion order",
        Some(q) => q.label(),
    };
    let mut chosen = heat;
    // A fixed width: another choice's longer name does not rewrap the row.
    egui::ComboBox::from_label("Colour by")
        .width(HEAT_WIDTH)
        .selected_text(name(heat))
        .show_ui(ui, |ui| {
            for q in [
                None,
                Some(Quantity::Order),
                Some(Quantity::Depth),
                Some(Quantity::G),
                Some(Quantity::H),
                Some(Quantity::F),
            ] {
                ui.selectable_value(&mut chosen, q, name(q));
            }
        });
    if chosen != heat {
        push(app, TimelineCommand::Heat(chosen));
    }
}

/// Inspecting (clicks pin squares) and the pinned state's figures.
fn pin_ui(app: &mut Panel<'_>, ui: &mut egui::Ui, inspecting: bool, pinned: Option<Pinned>) {
    let boards = app.timeline_recording().is_some_and(|r| r.has_boards());
    if boards {
        if ui
            .button("Pin this state")
            .on_hover_text("Keep the state expanded at this position to look at")
            .clicked()
        {
            push(app, TimelineCommand::PinShown);
        }
    } else {
        let mut on = inspecting;
        if ui
            .toggle_value(&mut on, "Pin squares")
            .on_hover_text(
                "While on, a click on the canvas pins that square's state instead of editing",
            )
            .changed()
        {
            push(app, TimelineCommand::Inspect(on));
        }
    }
    if pinned.is_some() {
        if ui.small_button("Go to its expansion").clicked() {
            push(app, TimelineCommand::ToPinned);
        }
        if ui.small_button("Unpin").clicked() {
            push(app, TimelineCommand::PinCell(None));
        }
    }
}

/// The pinned state's figures, for the details panel: g, h, f, depth, the move it was
/// reached by, when it was put on the frontier and expanded, and for board puzzles its board.
pub(super) fn pinned_ui(app: &AppState, ui: &mut egui::Ui) {
    let (Some(timeline), Some(recording)) = (app.timeline(), app.timeline_recording()) else {
        return;
    };
    let Some(pinned) = timeline.pinned else {
        return;
    };
    let j = match pinned {
        Pinned::Place(p) => recording.first_expansion(p),
        Pinned::Expansion(j) => Some(j),
    };
    let Some(info) = j.and_then(|j| recording.expansion(j)) else {
        return;
    };
    ui.separator();
    ui.strong("Pinned state");
    egui::Grid::new("pinned").num_columns(2).show(ui, |ui| {
        let mut row = |name: &str, value: String| {
            ui.label(name);
            ui.label(value);
            ui.end_row();
        };
        if let Some(place) = info.place {
            let side = place.side.map_or(String::new(), |s| {
                format!(", entered from the {}", s.word())
            });
            row(
                "square",
                format!("row {}, column {}{side}", place.cell.row, place.cell.col),
            );
        }
        let figure = |v: Option<f32>| v.map_or("—".to_owned(), |v| v.to_string());
        row("g", figure(info.g));
        row("h", figure(info.h));
        row("f", figure(info.f()));
        row("depth", info.depth.to_string());
        // A board's parent is not recorded (only its picture): the row is left out then,
        // rather than shown empty.
        let reached = match (info.place, info.parent) {
            (Some(here), Some(parent)) => Some(super::direction(
                here.cell.row as i64 - parent.cell.row as i64,
                here.cell.col as i64 - parent.cell.col as i64,
            )),
            (_, None) if info.depth == 0 => Some("a start".to_owned()),
            (None, _) => None,
            _ => Some("—".to_owned()),
        };
        if let Some(reached) = reached {
            row("reached by", reached);
        }
        if let Some(place) = info.place {
            let generated = match recording.first_generation(place) {
                Some(None) => "at the start".to_owned(),
                Some(Some(k)) => format!("during expansion {}", k + 1),
                None => "never (a start)".to_owned(),
            };
            row("on the frontier", generated);
        }
        row("expanded", format!("expansion {}", info.index + 1));
        if info.iteration > 0 {
            row("IDA* iteration", info.iteration.to_string());
        }
    });
    if let Some(board) = recording.board_at(info.index) {
        let text = board.board_text();
        ui.label(RichText::new(text).monospace());
    }
}

/// The heat map's colour bar: the ramp from its least to its greatest value.
fn color_bar_ui(ui: &mut egui::Ui, quantity: Quantity, min: f64, max: f64) {
    ui.horizontal(|ui| {
        ui.label(format!("{} {}", quantity.label(), trim(min)));
        let (rect, _) = ui.allocate_exact_size(egui::vec2(200.0, 12.0), egui::Sense::hover());
        let steps = 64;
        for k in 0..steps {
            let x0 = rect.left() + rect.width() * k as f32 / steps as f32;
            let x1 = rect.left() + rect.width() * (k + 1) as f32 / steps as f32;
            let level = 1 + (k * 254 / (steps - 1)) as u8;
            ui.painter().rect_filled(
                egui::Rect::from_x_y_ranges(x0..=x1, rect.y_range()),
                0.0,
                heat_color(level),
            );
        }
        ui.label(trim(max));
    });
}

fn trim(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// The GIF export window: frames a second and length, then a file to write.
pub(super) fn gif_window_ui(app: &mut Panel<'_>, ctx: &egui::Context) {
    if !app.windows.gif_window {
        return;
    }
    let mut open = true;
    let mut asked = None;
    let (mut fps, mut seconds) = (app.settings.gif_fps, app.settings.gif_seconds);
    // Over the canvas's corner, never over the menu bar.
    let corner = app
        .canvas
        .rect
        .map_or(egui::pos2(300.0, 80.0), |r| r.min + egui::vec2(12.0, 12.0));
    egui::Window::new("Export search as GIF")
        .default_pos(corner)
        .open(&mut open)
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            ui.label("The run from its first expansion to its last, at evenly spaced moments.");
            egui::Grid::new("gif options")
                .num_columns(2)
                .show(ui, |ui| {
                    let label = ui.label("Frames a second");
                    ui.add(egui::DragValue::new(&mut fps).range(1..=50))
                        .labelled_by(label.id);
                    ui.end_row();
                    let label = ui.label("Length (seconds)");
                    ui.add(
                        egui::DragValue::new(&mut seconds)
                            .range(0.5..=120.0)
                            .speed(0.1),
                    )
                    .labelled_by(label.id);
                    ui.end_row();
                });
            let options = crate::runs::animation::GifOptions { fps, seconds };
            ui.label(format!("{} frames", options.frames()));
            if ui.button("Choose file and export…").clicked() {
                asked = Some(options);
            }
        });
    if let Some(options) = asked {
        let picture = app.puzzle().picture();
        let colors = Box::new(super::texture::gif_colors(&picture));
        app.push(AppCommand::ExportGifDialog(colors, options));
    }
    if fps != app.settings.gif_fps {
        app.push(AppCommand::Setting(SettingCommand::GifFps(fps)));
    }
    if seconds != app.settings.gif_seconds {
        app.push(AppCommand::Setting(SettingCommand::GifSeconds(seconds)));
    }
    if !open {
        app.push(AppCommand::Window(WindowCommand::GifWindow(false)));
    }
}

/// The GIF export's progress bar and its Stop button, while it runs.
pub(super) fn gif_progress_ui(app: &mut Panel<'_>, ui: &mut egui::Ui) {
    let Some(job) = app.windows.gif_job.clone() else {
        return;
    };
    use std::sync::atomic::Ordering;
    if job.finished.load(Ordering::Relaxed) {
        // The frame's work lets the finished job go.
        return;
    }
    let (done, total) = (
        job.done.load(Ordering::Relaxed),
        job.total.load(Ordering::Relaxed).max(1),
    );
    ui.add(
        egui::ProgressBar::new(done as f32 / total as f32)
            .desired_width(160.0)
            .text(format!("GIF {done}/{total}")),
    );
    if ui.small_button("Stop").clicked() {
        app.push(AppCommand::Window(WindowCommand::StopGif));
    }
}
