//! The state graph drawn: a layered layout of an explored state space (a column per distance
//! from the start, each column ordered by the mean height of the states leading to it, so
//! that moves run mostly level), rasterised into an image on a background thread named
//! `space-layout`. The window shows the image at any size and finds the state under a click
//! from the positions kept with it.

use std::sync::Arc;

use eframe::egui::{Color32, ColorImage};

use super::job::Job;
use crate::puzzles::oracle::{HardestFound, Oracle, OracleError};
use crate::search::CancelToken;

/// The largest space drawn as a graph.
pub const MAX_DRAWN_STATES: usize = 200_000;

/// The image's size in pixels (width, height).
pub const IMAGE_SIZE: [usize; 2] = [1200, 600];

/// A laid-out state graph.
pub struct SpaceLayout {
    /// Each state's position, (x, y) from 0 to 1 (x: distance from the start).
    pub positions: Vec<[f32; 2]>,
    /// The graph drawn: edges faint, states coloured by distance to the goal (viridis, near
    /// dark; dead ends grey), goals orange, one optimal solution from the start vermillion.
    pub image: ColorImage,
    /// The states of that solution, start first.
    pub solution: Vec<u32>,
}

/// A layout being computed: `None` when it was stopped or the space is too large.
type LayoutJob = Job<Option<SpaceLayout>>;

/// Lays out the space of `oracle` on a new thread; `wake` is called when it is done.
///
/// # Errors
/// The error of spawning the thread.
fn start_layout(
    oracle: Arc<dyn Oracle>,
    wake: Arc<dyn Fn() + Send + Sync>,
) -> std::io::Result<LayoutJob> {
    Job::start("space-layout", CancelToken::new(), wake, move |cx| {
        oracle.space().and_then(|s| lay_out(s, &cx.cancel))
    })
}

/// Lays out and draws `space`; `None` when cancelled or above [`MAX_DRAWN_STATES`].
pub fn lay_out(
    space: &dyn crate::puzzles::oracle::Space,
    cancel: &CancelToken,
) -> Option<SpaceLayout> {
    let n = space.len();
    if n == 0 || n > MAX_DRAWN_STATES {
        return None;
    }
    // Columns by distance from the start, in breadth-first order (the nodes' order).
    let layer_of: Vec<usize> = (0..n as u32)
        .map(|v| space.distance_from_start(v).unwrap_or(0) as usize)
        .collect();
    let layers = layer_of.iter().max().copied().unwrap_or(0) + 1;
    let mut columns: Vec<Vec<u32>> = vec![Vec::new(); layers];
    for v in 0..n as u32 {
        columns[layer_of[v as usize]].push(v);
    }
    // The moves between neighbouring columns, both ways.
    let mut next: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut previous: Vec<Vec<u32>> = vec![Vec::new(); n];
    for v in 0..n as u32 {
        for &w in space.successors(v) {
            if layer_of[w as usize] == layer_of[v as usize] + 1 {
                next[v as usize].push(w);
                previous[w as usize].push(v);
            }
        }
    }
    // Barycentre sweeps (Sugiyama's layered drawing): each column ordered by the mean
    // height of its neighbours in the column before, then after, four times each way.
    let mut y = vec![0.5f32; n];
    let place = |column: &[u32], y: &mut [f32]| {
        let len = column.len() as f32;
        for (i, &v) in column.iter().enumerate() {
            y[v as usize] = (i as f32 + 0.5) / len;
        }
    };
    for column in &columns {
        place(column, &mut y);
    }
    let mean = |of: &[u32], y: &[f32], own: f32| {
        if of.is_empty() {
            own
        } else {
            of.iter().map(|&w| y[w as usize]).sum::<f32>() / of.len() as f32
        }
    };
    for sweep in 0..8 {
        if cancel.is_cancelled() {
            return None;
        }
        let down = sweep % 2 == 0;
        let order: Vec<usize> = if down {
            (1..layers).collect()
        } else {
            (0..layers.saturating_sub(1)).rev().collect()
        };
        for d in order {
            let neighbours = if down { &previous } else { &next };
            let mut keyed: Vec<(f32, u32)> = columns[d]
                .iter()
                .map(|&v| (mean(&neighbours[v as usize], &y, y[v as usize]), v))
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            columns[d] = keyed.into_iter().map(|(_, v)| v).collect();
            place(&columns[d], &mut y);
        }
    }
    let x_of = |v: usize| {
        if layers == 1 {
            0.5
        } else {
            layer_of[v] as f32 / (layers - 1) as f32
        }
    };
    let positions: Vec<[f32; 2]> = (0..n).map(|v| [x_of(v), y[v]]).collect();
    let solution = optimal_path(space);
    let image = draw(space, &positions, &solution, cancel)?;
    Some(SpaceLayout {
        positions,
        image,
        solution,
    })
}

/// One optimal solution from node 0: each step to the first successor one move closer.
fn optimal_path(space: &dyn crate::puzzles::oracle::Space) -> Vec<u32> {
    let mut path = vec![0];
    let mut at = 0;
    while let Some(d) = space.to_goal(at).filter(|&d| d > 0) {
        let Some(&next) = space
            .successors(at)
            .iter()
            .find(|&&s| space.to_goal(s) == Some(d - 1))
        else {
            break;
        };
        path.push(next);
        at = next;
    }
    path
}

/// The margin round the graph in the image, in pixels.
const MARGIN: f32 = 6.0;

/// Where a position is drawn, as a fraction of the image's width and height (0 to 1 each
/// way, the origin top left), inside a margin of [`MARGIN`] pixels: the window and the tests
/// map it onto the image's place on screen.
pub fn image_fraction(p: [f32; 2]) -> [f32; 2] {
    let [w, h] = IMAGE_SIZE.map(|n| n as f32);
    [
        (MARGIN + p[0] * (w - 2.0 * MARGIN)) / w,
        (MARGIN + p[1] * (h - 2.0 * MARGIN)) / h,
    ]
}

/// The position drawn at fraction `f` of the image (the inverse of [`image_fraction`]), for
/// clicks.
pub fn position_at_fraction(f: [f32; 2]) -> [f32; 2] {
    let [w, h] = IMAGE_SIZE.map(|n| n as f32);
    [
        (f[0] * w - MARGIN) / (w - 2.0 * MARGIN),
        (f[1] * h - MARGIN) / (h - 2.0 * MARGIN),
    ]
}

/// The pixel of a position.
fn pixel(p: [f32; 2]) -> (f32, f32) {
    let [fx, fy] = image_fraction(p);
    (fx * IMAGE_SIZE[0] as f32, fy * IMAGE_SIZE[1] as f32)
}

/// The points a pixel apart on the segment from `a` to `b`, both ends included.
pub(super) fn points_on(a: (f32, f32), b: (f32, f32)) -> impl Iterator<Item = (f32, f32)> {
    let steps = (b.0 - a.0).abs().max((b.1 - a.1).abs()).ceil().max(1.0) as usize;
    (0..=steps).map(move |i| {
        let t = i as f32 / steps as f32;
        (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
    })
}

fn draw(
    space: &dyn crate::puzzles::oracle::Space,
    positions: &[[f32; 2]],
    solution: &[u32],
    cancel: &CancelToken,
) -> Option<ColorImage> {
    let [w, h] = IMAGE_SIZE;
    // Edges accumulate as light in a float buffer, then are toned down to grey.
    let mut light = vec![0.0f32; w * h];
    for v in 0..positions.len() as u32 {
        if v % 4096 == 0 && cancel.is_cancelled() {
            return None;
        }
        for &s in space.successors(v) {
            let ends = (pixel(positions[v as usize]), pixel(positions[s as usize]));
            for (x, y) in points_on(ends.0, ends.1) {
                let (x, y) = (x as usize, y as usize);
                if x < w && y < h {
                    light[y * w + x] += 1.0;
                }
            }
        }
    }
    let peak = light.iter().copied().fold(1.0f32, f32::max).ln_1p();
    let peak = peak.max(1.0);
    let mut image = ColorImage::filled([w, h], Color32::from_gray(20));
    for (px, &l) in image.pixels.iter_mut().zip(&light) {
        if l > 0.0 {
            let g = 40 + (150.0 * l.ln_1p() / peak) as u8;
            *px = Color32::from_gray(g);
        }
    }
    let max_goal = (0..positions.len() as u32)
        .filter_map(|v| space.to_goal(v))
        .max()
        .unwrap_or(1)
        .max(1);
    let dot = |p: (f32, f32), color: Color32, r: i32, image: &mut ColorImage| {
        for dy in -r..=r {
            for dx in -r..=r {
                let (x, y) = (p.0 as i32 + dx, p.1 as i32 + dy);
                if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
                    image.pixels[y as usize * w + x as usize] = color;
                }
            }
        }
    };
    for (v, &p) in positions.iter().enumerate() {
        let color = match space.to_goal(v as u32) {
            Some(0) => Color32::from_rgb(230, 159, 0),
            Some(d) => viridis(1.0 - d as f32 / max_goal as f32),
            None => Color32::from_gray(120),
        };
        dot(pixel(p), color, 1, &mut image);
    }
    for pair in solution.windows(2) {
        let (a, b) = (
            pixel(positions[pair[0] as usize]),
            pixel(positions[pair[1] as usize]),
        );
        for p in points_on(a, b) {
            dot(p, Color32::from_rgb(213, 94, 0), 1, &mut image);
        }
    }
    Some(image)
}

/// The viridis colour map (van der Walt and Smith, 2015) at `t` from 0 (dark purple) through
/// teal to 1 (yellow): it reads in order in grey and under colour-vision deficiencies.
pub fn viridis(t: f32) -> Color32 {
    const STOPS: [(u8, u8, u8); 5] = [
        (68, 1, 84),
        (59, 82, 139),
        (33, 145, 140),
        (94, 201, 98),
        (253, 231, 37),
    ];
    ramp(&STOPS, t)
}

/// The cividis colour map at `t` (0 dark blue, through grey, to 1 yellow): made for readers
/// with colour-vision deficiencies (Nuñez, Anderton and Renslow, PLOS ONE 2018), and with no
/// green, so a heat map never looks like the search's frontier. Five stops of the published
/// table, linearly interpolated.
pub fn cividis(t: f32) -> Color32 {
    ramp(
        &[
            (0, 32, 77),
            (65, 77, 107),
            (124, 123, 120),
            (188, 175, 111),
            (255, 234, 70),
        ],
        t,
    )
}

/// The colour at `t` (0 to 1) of a ramp through `stops`, evenly spaced.
fn ramp(stops: &[(u8, u8, u8); 5], t: f32) -> Color32 {
    let t = t.clamp(0.0, 1.0) * 4.0;
    let k = (t.floor() as usize).min(3);
    let u = t - k as f32;
    let (a, b) = (stops[k], stops[k + 1]);
    let mix = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * u).round() as u8;
    Color32::from_rgb(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The state nearest position `p` (0 to 1 each way), within `radius` (same units).
pub fn nearest(layout: &SpaceLayout, p: [f32; 2], radius: f32) -> Option<u32> {
    layout
        .positions
        .iter()
        .enumerate()
        .map(|(v, q)| (v, (q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)))
        .filter(|&(_, d2)| d2 <= radius * radius)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(v, _)| v as u32)
}

/// The "State space" window's state: the layout of the oracle's space and the choices of
/// its buttons.
pub struct SpaceWindow {
    /// Whether the window is open.
    pub open: bool,
    job: Option<LayoutJob>,
    /// The graph laid out, once done.
    pub layout: Option<SpaceLayout>,
    /// The image of the graph as a texture (made by the frame's work from the layout).
    pub texture: Option<eframe::egui::TextureHandle>,
    /// The profile of the space drawn.
    pub profile: Option<crate::search::space::Profile>,
    /// The oracle generation (see [`super::oracle::OracleState::generation`]) drawn.
    drawn_for: Option<u64>,
    /// The choices of "Open random".
    pub random: RandomPosition,
    /// A random layout: at least this many moves from the goal.
    pub layout_min: u32,
    /// A random layout: the seed of the first layout tried.
    pub layout_seed: u64,
    generating: Option<Job<Result<HardestFound, OracleError>>>,
}

/// The choices of the window's "Open random": a random state of the space at least so far
/// from the goal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RandomPosition {
    /// At least this many moves (or the metric's units) from the goal.
    pub min_distance: u32,
    /// The seed.
    pub seed: u64,
    /// The seed that made the random position opened last (see [`super::seed_to_use`]).
    pub used_seed: Option<u64>,
}

/// How long the window's layout generator tries before giving its hardest find.
pub const GENERATE_BUDGET: std::time::Duration = std::time::Duration::from_secs(30);

impl Default for SpaceWindow {
    fn default() -> Self {
        SpaceWindow {
            open: false,
            job: None,
            layout: None,
            texture: None,
            profile: None,
            drawn_for: None,
            random: RandomPosition::default(),
            layout_min: 20,
            layout_seed: 1,
            generating: None,
        }
    }
}

impl SpaceWindow {
    /// The frame's work while open: lays out a newly explored space on a background thread
    /// and takes the layout when done, its image made a texture of `ctx`.
    pub fn tick(
        &mut self,
        oracle: &super::oracle::OracleState,
        wake: &Arc<dyn Fn() + Send + Sync>,
        ctx: &eframe::egui::Context,
    ) {
        if !self.open {
            return;
        }
        let Some(space) = oracle.space() else {
            self.job = None;
            self.layout = None;
            self.texture = None;
            self.profile = None;
            self.drawn_for = None;
            return;
        };
        if self.drawn_for != Some(oracle.generation()) {
            self.drawn_for = Some(oracle.generation());
            self.profile = Some(space.profile());
            self.layout = None;
            self.texture = None;
            self.job = oracle
                .shared()
                .filter(|_| space.len() <= MAX_DRAWN_STATES)
                .and_then(|o| start_layout(o, wake.clone()).ok());
        }
        if let Some(done) = self.job.as_mut().and_then(|job| job.poll(|()| {})) {
            self.job = None;
            self.layout = done.ok().flatten();
        }
        if let (Some(layout), None) = (&self.layout, &self.texture) {
            self.texture = Some(ctx.load_texture(
                "state-graph",
                layout.image.clone(),
                eframe::egui::TextureOptions::LINEAR,
            ));
        }
    }

    /// "Open random": a random state of `oracle`'s space at least the chosen distance from
    /// the goal, drawn with the seed [`super::seed_to_use`] gives (the field moves on to the
    /// next seed when this one made the position on screen); `None` when no state is that
    /// far, or no space is explored.
    pub fn random_state(&mut self, oracle: &super::oracle::OracleState) -> Option<u32> {
        use rand::{Rng, SeedableRng};
        let space = oracle.space()?;
        let random = &mut self.random;
        let seed = super::seed_to_use(&mut random.seed, &mut random.used_seed);
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let far: Vec<u32> = (0..space.len() as u32)
            .filter(|&v| space.to_goal(v).is_some_and(|d| d >= random.min_distance))
            .collect();
        (!far.is_empty()).then(|| far[rng.random_range(0..far.len())])
    }

    /// Starts making random layouts like `template` on a background thread (see
    /// [`crate::puzzles::oracle::hardest_of_random`]) under `limits`.
    pub fn start_generating(
        &mut self,
        template: &dyn crate::puzzles::Puzzle,
        limits: crate::search::Limits,
        wake: &Arc<dyn Fn() + Send + Sync>,
    ) -> std::io::Result<()> {
        let template = template.clone_box();
        let (min, seed) = (self.layout_min, self.layout_seed);
        let cancel = CancelToken::with_limits(limits);
        self.generating = Some(Job::start(
            "layout-generate",
            cancel,
            wake.clone(),
            move |cx| {
                crate::puzzles::oracle::hardest_of_random(
                    template.as_ref(),
                    min,
                    seed,
                    GENERATE_BUDGET,
                    &cx.cancel,
                    &mut |_, _| {},
                )
            },
        )?);
        Ok(())
    }

    /// Stops making layouts.
    pub fn stop_generating(&mut self) {
        self.generating = None;
    }

    /// Whether layouts are being made.
    pub fn is_generating(&self) -> bool {
        self.generating.is_some()
    }

    /// The command that opens the generated layout, or why there is none, once done.
    pub fn poll_generated(&mut self) -> Option<Result<super::AppCommand, String>> {
        let answer = self.generating.as_mut()?.poll(|()| {})?;
        self.generating = None;
        let answer = answer
            .map_err(|e| e.to_string())
            .and_then(|a| a.map_err(|e| e.to_string()));
        self.layout_seed = self.layout_seed.wrapping_add(1_000);
        Some(match answer {
            Ok(found) => {
                let status = format!(
                    "Generated a layout: its hardest position, {} moves from the goal ({} \
                     layouts explored in {:.1} s){}.",
                    found.distance,
                    found.layouts,
                    found.elapsed.as_secs_f64(),
                    if found.meets {
                        ""
                    } else {
                        ", short of the length asked for"
                    }
                );
                Ok(super::AppCommand::OpenGenerated(found.puzzle, status))
            }
            Err(e) => Err(format!("No layout generated: {e}")),
        })
    }

    /// Whether the graph is being laid out.
    pub fn is_laying_out(&self) -> bool {
        self.job.is_some()
    }
}
