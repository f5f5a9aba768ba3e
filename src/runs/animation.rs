//! A recorded run as an animated GIF: the picture's squares with the search's marks at evenly
//! spaced moments of the recording (see [`crate::runs::recording`]), from the first expansion to the
//! last, one GIF frame each, the last with the solution's path drawn over the marks (as the
//! canvas shows a finished run). The colours come from the caller (the app passes the
//! canvas's).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::puzzles::Place;
use crate::runs::recording::{Change, TraceRecorder};

/// The longest side of a GIF made, in pixels: a larger picture is shrunk by a whole factor,
/// each pixel showing the strongest mark of its block of squares.
pub const MAX_GIF_SIDE: usize = 512;
/// The side a small picture is enlarged to at least (by a whole factor), in pixels.
const MIN_GIF_SIDE: usize = 256;
/// The most frames a GIF may have.
pub const MAX_FRAMES: usize = 3000;

/// What to make: frames a second and length in seconds (frames = their product, at least 1,
/// at most [`MAX_FRAMES`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GifOptions {
    /// Frames a second (1 to 50; a GIF counts time in hundredths of a second).
    pub fps: u32,
    /// Length in seconds.
    pub seconds: f64,
}

impl GifOptions {
    /// The number of frames these options make.
    pub fn frames(self) -> usize {
        ((f64::from(self.fps.clamp(1, 50)) * self.seconds).round() as usize).clamp(1, MAX_FRAMES)
    }
}

/// The colours of a GIF, RGB: each square's own colour with no mark (`rows * cols`, row-major),
/// and the colours of the marks; and the solution's path drawn on the last frame.
#[derive(Clone, Debug, Default)]
pub struct GifColors {
    /// Each square's colour without marks, row by row from the top.
    pub squares: Vec<[u8; 3]>,
    /// Squares that keep their colour under marks (walls, starts, goals).
    pub keeps_color: Vec<bool>,
    /// A state on the frontier.
    pub frontier: [u8; 3],
    /// A closed state.
    pub closed: [u8; 3],
    /// The state expanded last at the frame's moment.
    pub current: [u8; 3],
    /// The solution's path (places from the start to the goal; empty when the run found
    /// none), drawn on the last frame in `solution_color` over every mark but the walls,
    /// start and goals.
    pub solution: Vec<Place>,
    /// The colour of the solution's path.
    pub solution_color: [u8; 3],
}

/// Why a GIF could not be made.
#[derive(Debug, thiserror::Error)]
pub enum GifError {
    /// The recording is of boards, or empty, or its picture has no squares.
    #[error("{0}")]
    Nothing(String),
    /// Writing failed.
    #[error("could not write the GIF: {0}")]
    Encoding(#[from] gif::EncodingError),
    /// Stopped by the caller.
    #[error("stopped")]
    Cancelled,
}

/// Writes `recording` of a `rows` x `cols` picture as an animated GIF to `out`, with
/// `options`' frames; `progress(done, total)` is called after each frame, and `cancel` is
/// looked at between frames. Returns the number of frames written.
///
/// # Errors
/// [`GifError::Nothing`] for a recording of boards or of no expansion, or colours of the
/// wrong size; [`GifError::Encoding`] when writing fails; [`GifError::Cancelled`].
pub fn write_gif(
    recording: &TraceRecorder,
    (rows, cols): (usize, usize),
    colors: &GifColors,
    options: GifOptions,
    out: impl Write,
    mut progress: impl FnMut(usize, usize),
    cancel: &AtomicBool,
) -> Result<usize, GifError> {
    if recording.has_boards() {
        return Err(GifError::Nothing(
            "a board puzzle's search has no places to draw".into(),
        ));
    }
    if recording.expansions() == 0 || rows == 0 || cols == 0 {
        return Err(GifError::Nothing("the recording has no expansion".into()));
    }
    if colors.squares.len() != rows * cols || colors.keeps_color.len() != rows * cols {
        return Err(GifError::Nothing(
            "the colours do not fit the picture".into(),
        ));
    }
    let side = rows.max(cols);
    let (up, down) = if side < MIN_GIF_SIDE {
        ((MIN_GIF_SIDE / side).clamp(1, 16), 1)
    } else {
        (1, side.div_ceil(MAX_GIF_SIDE))
    };
    let (width, height) = (cols.div_ceil(down) * up, rows.div_ceil(down) * up);
    let mut palette = Palette::default();
    let base: Vec<u8> = colors.squares.iter().map(|&c| palette.index(c)).collect();
    let frontier = palette.index(colors.frontier);
    let closed = palette.index(colors.closed);
    let current = palette.index(colors.current);
    let solution_color = palette.index(colors.solution_color);
    let mut on_solution = vec![false; rows * cols];
    for p in &colors.solution {
        if let Some(flag) = on_solution.get_mut(p.cell.row * cols + p.cell.col)
            && p.cell.col < cols
        {
            *flag = true;
        }
    }
    let mut encoder = gif::Encoder::new(out, width as u16, height as u16, &palette.rgb())?;
    encoder.set_repeat(gif::Repeat::Infinite)?;
    let total = options.frames();
    let delay = (100 / options.fps.clamp(1, 50)) as u16;
    // The marks: 0 none, 1 frontier, 2 closed, by square (a side's state marks its square).
    let mut places = Marks::new(rows, cols);
    recording.sources(|p, c| places.replay(p, c));
    let mut shown = 0;
    let mut pixels = vec![0u8; width * height];
    for frame in 0..total {
        if cancel.load(Ordering::Relaxed) {
            return Err(GifError::Cancelled);
        }
        let target = recording.expansions() * (frame + 1) / total;
        while shown < target {
            recording.step_forward(shown, |p, c| places.replay(p, c));
            shown += 1;
        }
        let now = shown
            .checked_sub(1)
            .and_then(|j| recording.expansion(j))
            .and_then(|e| e.place);
        // The last frame is the run's end: the solution found, no state being expanded.
        let last = frame + 1 == total;
        let now = now.filter(|_| !last || colors.solution.is_empty());
        for y in 0..rows.div_ceil(down) {
            for x in 0..cols.div_ceil(down) {
                // The strongest mark of the block: current, closed, frontier, none.
                let mut best = (0u8, base[(y * down) * cols + x * down]);
                for r in y * down..((y + 1) * down).min(rows) {
                    for c in x * down..((x + 1) * down).min(cols) {
                        let i = r * cols + c;
                        let rank = if colors.keeps_color[i] {
                            0
                        } else if last && on_solution[i] {
                            4
                        } else if now.is_some_and(|p| (p.cell.row, p.cell.col) == (r, c)) {
                            3
                        } else {
                            places.square(i)
                        };
                        if rank > best.0 {
                            best = (
                                rank,
                                [base[i], frontier, closed, current, solution_color][rank as usize],
                            );
                        }
                    }
                }
                for dy in 0..up {
                    let row = (y * up + dy) * width + x * up;
                    pixels[row..row + up].fill(best.1);
                }
            }
        }
        let gif_frame = gif::Frame {
            width: width as u16,
            height: height as u16,
            delay,
            buffer: std::borrow::Cow::Borrowed(&pixels),
            ..gif::Frame::default()
        };
        encoder.write_frame(&gif_frame)?;
        progress(frame + 1, total);
    }
    Ok(total)
}

/// The colours used, at most 256 (more map to the first).
#[derive(Default)]
struct Palette {
    colors: Vec<[u8; 3]>,
}

impl Palette {
    fn index(&mut self, color: [u8; 3]) -> u8 {
        if let Some(i) = self.colors.iter().position(|&c| c == color) {
            return i as u8;
        }
        if self.colors.len() < 256 {
            self.colors.push(color);
            return (self.colors.len() - 1) as u8;
        }
        0
    }

    fn rgb(&self) -> Vec<u8> {
        let mut rgb: Vec<u8> = self.colors.iter().flatten().copied().collect();
        // A GIF's palette has a power of two colours, at least two.
        let size = self.colors.len().max(2).next_power_of_two();
        rgb.resize(size * 3, 0);
        rgb
    }
}

/// Each place's mark (0 none, 1 frontier, 2 closed), five places a square: the square and
/// its sides.
struct Marks {
    rows: usize,
    cols: usize,
    places: Vec<u8>,
}

impl Marks {
    fn new(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            places: vec![0; rows * cols * 5],
        }
    }

    fn replay(&mut self, place: Place, change: Change) {
        if place.cell.row >= self.rows || place.cell.col >= self.cols {
            return;
        }
        let slot = (place.cell.row * self.cols + place.cell.col) * 5
            + place.side.map_or(4, crate::puzzles::Side::index);
        let mark = &mut self.places[slot];
        *mark = match change {
            Change::Close => 2,
            Change::Open if *mark == 0 => 1,
            Change::Unclose { was_open } => u8::from(was_open),
            Change::Unopen if *mark == 1 => 0,
            Change::Open | Change::Unopen => *mark,
        };
    }

    /// The strongest mark on square `i` (row-major) or its sides.
    fn square(&self, i: usize) -> u8 {
        self.places[i * 5..i * 5 + 5]
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
    }
}
