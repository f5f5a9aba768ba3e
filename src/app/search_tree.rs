//! The "Search tree" window's state: the states a run expanded (the first
//! [`MAX_TREE_NODES`]; the rest counted), each a dot at (its order of expansion across, its
//! depth or g down), coloured by f, joined to the expansion of its parent, the solution's
//! branch in vermillion. Drawn into an image on a background thread once a run has ended
//! (or while it is paused); since the order of expansion runs across, the window shows the
//! tree as far as the timeline's cursor by showing the image up to it, and a click on a
//! node seeks the timeline to its expansion.

use std::collections::HashMap;
use std::sync::Arc;

use eframe::egui::{Color32, ColorImage};

use super::job::Job;
use super::space_layout::{cividis, points_on};
use crate::puzzles::Place;
use crate::runs::recording::TraceRecorder;
use crate::search::CancelToken;

/// The most expansions drawn.
pub const MAX_TREE_NODES: usize = 100_000;

/// The image's size in pixels (width, height).
pub const TREE_IMAGE: [usize; 2] = [1200, 420];

/// The picture of a run's search tree and where each node is on it.
pub struct TreeLayout {
    /// The picture.
    pub image: ColorImage,
    /// Each drawn expansion's position, as fractions of the picture (x: order of expansion,
    /// y: depth or g from the top).
    pub positions: Vec<[f32; 2]>,
    /// The expansions recorded (some may not be drawn: see [`MAX_TREE_NODES`]).
    pub total: usize,
    /// The depth (or g) at the bottom of the picture.
    pub y_max: f32,
    /// The least and greatest f drawn (the colours' ends).
    pub f_range: (f32, f32),
    /// Whether y is g (else depth).
    pub by_g: bool,
    /// Whether nodes are joined to their parents (puzzles whose states are places).
    pub joined: bool,
    /// The expansions on the solution's branch, start first (drawn in vermillion).
    pub branch: Vec<usize>,
}

/// The solution found, for the tree to draw its branch.
#[derive(Clone, Debug, Default)]
pub struct Solution {
    /// Its places, start first (empty if none, or for puzzles whose states are boards).
    pub places: Vec<Place>,
    /// Found by a depth-first search (IDA*): when it found the goal it stood on the
    /// solution's states, so the branch is the last expansion at each depth (what draws it
    /// where the states have no places).
    pub depth_first: bool,
}

/// Lays out and draws the tree of `recording`'s expansions with `solution`'s branch in
/// vermillion. `None` if there is nothing to draw or when cancelled.
pub fn lay_out_tree(
    recording: &TraceRecorder,
    solution: &Solution,
    by_g: bool,
    cancel: &CancelToken,
) -> Option<TreeLayout> {
    let total = recording.expansions();
    let n = total.min(MAX_TREE_NODES);
    if n == 0 {
        return None;
    }
    let [w, h] = TREE_IMAGE;
    let Nodes {
        parent,
        y_value,
        f_value,
        last,
        last_at_depth,
        joined,
    } = read_nodes(recording, n, by_g, cancel)?;
    let y_max = y_value.iter().copied().fold(1.0f32, f32::max);
    let (f_lo, f_hi) = f_value
        .iter()
        .filter(|f| f.is_finite())
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &f| {
            (lo.min(f), hi.max(f))
        });
    let f_range = if f_lo.is_finite() {
        (f_lo, f_hi)
    } else {
        (0.0, 1.0)
    };
    // Margins of half a node, so that the first and last fit.
    let positions: Vec<[f32; 2]> = (0..n)
        .map(|k| {
            let x = if n == 1 {
                0.5
            } else {
                k as f32 / (n - 1) as f32
            };
            [0.004 + 0.992 * x, 0.02 + 0.96 * y_value[k] / y_max]
        })
        .collect();
    let pixel = |p: [f32; 2]| (p[0] * (w - 1) as f32, p[1] * (h - 1) as f32);
    let mut image = draw_edges(&parent, &positions, pixel, cancel)?;
    let mut dot = |p: (f32, f32), color: Color32, r: i32| {
        for dy in -r..=r {
            for dx in -r..=r {
                let (x, y) = (p.0 as i32 + dx, p.1 as i32 + dy);
                if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
                    image.pixels[y as usize * w + x as usize] = color;
                }
            }
        }
    };
    let span = (f_range.1 - f_range.0).max(1e-6);
    // Larger dots for smaller trees, so that their colours read when the picture is shrunk.
    let r = match n {
        0..2_000 => 4,
        2_000..20_000 => 2,
        _ => 1,
    };
    // The solution's branch: each of its places' last expansion, joined in order; after a
    // depth-first search, the last expansion at each depth (the states it stood on).
    let mut chain: Vec<usize> = solution
        .places
        .iter()
        .filter_map(|p| last.get(p).copied())
        .collect();
    if chain.len() < 2 && solution.depth_first {
        chain = last_at_depth;
    }
    for pair in chain.windows(2) {
        for p in points_on(pixel(positions[pair[0]]), pixel(positions[pair[1]])) {
            dot(p, Color32::from_rgb(213, 94, 0), 1);
        }
    }
    for k in 0..n {
        let color = if f_value[k].is_finite() {
            cividis((f_value[k] - f_range.0) / span)
        } else {
            Color32::from_gray(170)
        };
        dot(pixel(positions[k]), color, r);
    }
    for &k in &chain {
        dot(pixel(positions[k]), Color32::from_rgb(213, 94, 0), r);
    }
    Some(TreeLayout {
        image,
        positions,
        total,
        y_max,
        f_range,
        by_g,
        joined,
        branch: chain,
    })
}

/// What the tree reads of the first `n` expansions.
struct Nodes {
    /// Each expansion's parent's expansion (puzzles whose states are places; else none).
    parent: Vec<Option<usize>>,
    /// Each expansion's depth, or g.
    y_value: Vec<f32>,
    /// Each expansion's f (NaN without).
    f_value: Vec<f32>,
    /// The last expansion of each place.
    last: HashMap<Place, usize>,
    /// The last expansion at each depth.
    last_at_depth: Vec<usize>,
    /// Whether any node has a parent drawn.
    joined: bool,
}

/// Reads the first `n` expansions of `recording` (y: g if `by_g`, else depth); `None` when
/// cancelled.
fn read_nodes(
    recording: &TraceRecorder,
    n: usize,
    by_g: bool,
    cancel: &CancelToken,
) -> Option<Nodes> {
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut y_value = vec![0.0f32; n];
    let mut f_value = vec![f32::NAN; n];
    let mut last: HashMap<Place, usize> = HashMap::new();
    // The last expansion at each depth.
    let mut last_at_depth: Vec<usize> = Vec::new();
    let mut joined = false;
    for k in 0..n {
        if k % 4096 == 0 && cancel.is_cancelled() {
            return None;
        }
        let e = recording.expansion(k)?;
        y_value[k] = if by_g {
            e.g.unwrap_or(e.depth as f32)
        } else {
            e.depth as f32
        };
        f_value[k] = e.f().unwrap_or(f32::NAN);
        parent[k] = e.parent.and_then(|p| last.get(&p).copied());
        joined |= parent[k].is_some();
        if let Some(place) = e.place {
            last.insert(place, k);
        }
        let d = usize::try_from(e.depth).unwrap_or(usize::MAX);
        if d < last_at_depth.len() {
            last_at_depth[d] = k;
        } else if d == last_at_depth.len() {
            last_at_depth.push(k);
        }
    }
    Some(Nodes {
        parent,
        y_value,
        f_value,
        last,
        last_at_depth,
        joined,
    })
}

/// The picture's background with the edges from each node to its `parent` drawn on it, in
/// greys that grow lighter where more edges cross (`pixel` maps a position to the
/// picture's pixels); `None` when cancelled.
fn draw_edges(
    parent: &[Option<usize>],
    positions: &[[f32; 2]],
    pixel: impl Fn([f32; 2]) -> (f32, f32),
    cancel: &CancelToken,
) -> Option<ColorImage> {
    let [w, h] = TREE_IMAGE;
    let n = positions.len();
    // Edges accumulate as light, then are toned down to grey.
    let mut light = vec![0.0f32; w * h];
    for k in 0..n {
        if k % 4096 == 0 && cancel.is_cancelled() {
            return None;
        }
        if let Some(p) = parent[k] {
            for (x, y) in points_on(pixel(positions[p]), pixel(positions[k])) {
                if let Some(l) = light.get_mut(y as usize * w + x as usize) {
                    *l += 1.0;
                }
            }
        }
    }
    let peak = light
        .iter()
        .copied()
        .fold(1.0f32, f32::max)
        .ln_1p()
        .max(1.0);
    let mut image = ColorImage::filled([w, h], Color32::from_gray(18));
    for (px, &l) in image.pixels.iter_mut().zip(&light) {
        if l > 0.0 {
            *px = Color32::from_gray(45 + (120.0 * l.ln_1p() / peak) as u8);
        }
    }
    Some(image)
}

/// The expansion drawn nearest the point `p` (fractions of the picture) within `radius`
/// (same units, across and down alike).
pub fn nearest_node(layout: &TreeLayout, p: [f32; 2], radius: f32) -> Option<usize> {
    let n = layout.positions.len();
    if n == 0 {
        return None;
    }
    // Positions rise with the index across: look only at the nodes within reach.
    let at = |x: f32| ((x - 0.004) / 0.992 * (n.max(2) - 1) as f32).round() as i64;
    let lo = at(p[0] - radius).clamp(0, n as i64 - 1) as usize;
    let hi = at(p[0] + radius).clamp(0, n as i64 - 1) as usize;
    (lo..=hi)
        .map(|k| {
            let q = layout.positions[k];
            (k, (q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2))
        })
        .filter(|&(_, d2)| d2 <= radius * radius)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

/// What the window works on and shows.
#[derive(Default)]
pub struct TreeWindow {
    /// Whether the window is open.
    pub open: bool,
    /// Lay the tree out by g (else by depth).
    pub by_g: bool,
    job: Option<Job<Option<TreeLayout>>>,
    /// The tree drawn, once done.
    pub layout: Option<Arc<TreeLayout>>,
    /// The picture as a texture (made by the frame's work from the layout).
    pub texture: Option<eframe::egui::TextureHandle>,
    /// What was drawn: (the recording's identity, its `id`, never its address,
    /// which a new run's recording may take; its expansions; by g).
    drawn_for: Option<(u64, usize, bool)>,
}

impl TreeWindow {
    /// The frame's work while open: draws the tree of `recording` on a background thread
    /// when it changed and the run is not going on (`settled`), the places of the solution
    /// (asked only then) in vermillion, and takes the drawing, made a texture of `ctx`.
    pub fn tick(
        &mut self,
        recording: Option<&Arc<TraceRecorder>>,
        solution: impl FnOnce() -> Solution,
        settled: bool,
        wake: &Arc<dyn Fn() + Send + Sync>,
        ctx: &eframe::egui::Context,
    ) {
        if !self.open {
            return;
        }
        let Some(recording) = recording else {
            self.job = None;
            self.layout = None;
            self.texture = None;
            self.drawn_for = None;
            return;
        };
        let key = (recording.id(), recording.expansions(), self.by_g);
        if settled && self.drawn_for != Some(key) {
            self.drawn_for = Some(key);
            let (recording, solution, by_g) = (recording.clone(), solution(), self.by_g);
            self.job = Job::start("search-tree", CancelToken::new(), wake.clone(), move |cx| {
                lay_out_tree(&recording, &solution, by_g, &cx.cancel)
            })
            .ok();
        }
        if let Some(done) = self.job.as_mut().and_then(|job| job.poll(|()| {})) {
            self.job = None;
            self.layout = done.ok().flatten().map(Arc::new);
            self.texture = None;
        }
        if let (Some(layout), None) = (&self.layout, &self.texture) {
            self.texture = Some(ctx.load_texture(
                "search-tree",
                layout.image.clone(),
                eframe::egui::TextureOptions::LINEAR,
            ));
        }
    }

    /// Whether the tree is being drawn.
    pub fn is_drawing(&self) -> bool {
        self.job.is_some()
    }
}
