//! A large grid drawn as a texture, one pixel a square, written incrementally.

use eframe::egui::{self, Color32, ColorImage, TextureHandle, TextureOptions};

use super::palette::{
    BLOCKED, BRANCH, CLOSED, CLUSTER, CURRENT, DFS_PATH, FREE, FRONTIER, GOAL, SOLUTION, START,
    heat_color, terrain_color,
};
use super::scene::{Scene, is_plain_grid};
use crate::app::{Mark, SearchView, ShadeKind};
use crate::puzzles::{Cell, Picture, Place, Square};

/// A large grid drawn as a texture, one pixel a square. It is remade whole only when the
/// picture changes (an edit); everything else is written into it incrementally — the squares
/// whose search marks changed since the last frame (from [`SearchView::changed`]), the marks
/// of a previous run taken off, the solution's squares as playback moves on or back, and the
/// overlays (depth-first path, current state) — and only the tiles touched are uploaded
/// ([`TextureHandle::set_partial`]). A frame's work follows what changed, not the grid's size.
#[derive(Clone, Default)]
pub struct GridTexture {
    handle: Option<TextureHandle>,
    /// What the whole picture depends on: the puzzle's revision, the cluster overlay, the
    /// size.
    key: Option<(u64, bool, usize, usize)>,
    /// The pixels uploaded, when the texture has one pixel a square (not shrunk to fit).
    image: Option<ColorImage>,
    /// The view drawn ([`SearchView::id`]), its revision, and how many of its changes.
    view: (u64, u64, usize),
    /// Pixels carrying a mark of the view drawn, to clear when another view comes; past a
    /// sixteenth of the picture no more are listed and [`GridTexture::marked_many`] is set.
    marked: Vec<u32>,
    /// Whether marks were drawn on more pixels than `marked` lists: another view clears them
    /// by copying the unmarked picture back whole.
    marked_many: bool,
    /// The solution drawn (its path's address and length), and its squares painted, in
    /// order: the first `shown + 1` of its path.
    solution: Option<(usize, usize)>,
    solution_pixels: Vec<u32>,
    /// Whether each pixel is one of `solution_pixels`.
    on_solution: Vec<bool>,
    /// Pixels painted with an overlay colour (path, current state) that must be restored
    /// before the next overlay is drawn.
    overlay: Vec<usize>,
    /// Whether the picture of the puzzle revision `.0` (of `.1` squares) is a plain grid:
    /// found once per edit, not every frame.
    plain: Option<(u64, usize, bool)>,
    /// The start and goal squares with their colours, drawn as markers over the texture.
    pub(super) markers: Vec<(Cell, Color32)>,
    /// The picture with no search marks, no solution and no overlays, made when a new run
    /// must clear many marks; forgotten when the picture changes.
    base: Option<ColorImage>,
    /// For a texture shrunk to fit: the view, its revision, the solution's position and the
    /// solution it was made for.
    fitted_state: Option<ShownState>,
    /// Whether some of the search's marks wait for the next update (see [`Scene::budget`]).
    behind: bool,
    /// Copies of the picture shrunk by powers of two, made when a square is drawn smaller
    /// than a pixel and kept up to date with the picture's changed tiles (see [`Level`]).
    levels: Vec<Level>,
}

/// The picture shrunk by `k` (a power of two, at most [`TILE`]): each texel is the mean
/// colour of a k x k block of squares. Drawn instead of the one-pixel-a-square texture when a
/// square is smaller than a pixel: sampling that texture keeps every k-th square only, and a
/// maze's walls and passages (alternate rows and columns) then beat into dark and light
/// patches (a 121 x 2047 maze at 0.13 pixels a square showed seven).
#[derive(Clone)]
struct Level {
    k: usize,
    image: ColorImage,
    handle: TextureHandle,
}

/// See [`GridTexture::fitted_state`].
type ShownState = (u64, u64, usize, Option<(usize, usize)>);

/// Side of the square tiles uploaded separately when part of the picture changes.
const TILE: usize = 64;

/// How many marks are written between two looks at the clock.
const MARKS_CHUNK: usize = 4096;

/// The tiles of a texture `cols` pixels wide touched by an update, row-major.
struct DirtyTiles {
    cols: usize,
    tiles_across: usize,
    tiles: Vec<bool>,
}

impl DirtyTiles {
    fn new(cols: usize) -> Self {
        Self {
            cols,
            tiles_across: cols.div_ceil(TILE),
            tiles: Vec::new(),
        }
    }

    /// Marks the tile of pixel `i` (row-major).
    fn mark(&mut self, i: usize) {
        let tile = (i / self.cols / TILE) * self.tiles_across + (i % self.cols) / TILE;
        if self.tiles.len() <= tile {
            self.tiles.resize(tile + 1, false);
        }
        self.tiles[tile] = true;
    }
}

impl GridTexture {
    /// Brings the texture up to date with `scene` and returns its id.
    pub(super) fn update(&mut self, ctx: &egui::Context, scene: &Scene) -> egui::TextureId {
        let picture: &Picture = &scene.picture;
        let key = (
            scene.revision,
            scene.cluster.is_some(),
            picture.rows,
            picture.cols,
        );
        // A texture shrunk to fit (a grid larger than the backend takes) has no pixel a
        // square to update: it is remade whenever what it shows changes.
        let shown_state = (
            scene.view.id,
            scene.view.revision,
            scene.shown,
            scene
                .result
                .map(|r| (r.path.as_ptr() as usize, r.path.len())),
        );
        if let Some(handle) = &self.handle
            && self.key == Some(key)
        {
            let id = handle.id();
            if self.image.is_some() {
                let deadline = std::time::Instant::now() + scene.budget;
                self.behind = !self.apply_changes(scene, Some(deadline));
                if self.behind {
                    // The rest of the search's marks go into the next frames.
                    ctx.request_repaint();
                }
                return id;
            }
            if self.fitted_state == Some(shown_state) {
                return id;
            }
        }
        self.key = None;
        self.base = None;
        self.behind = false;
        self.fitted_state = Some(shown_state);
        let image = grid_image(scene);
        let max_side = ctx.input(|i| i.max_texture_side);
        let fitted = image.size[0] > max_side || image.size[1] > max_side;
        self.on_solution = vec![false; image.pixels.len()];
        self.marked.clear();
        self.solution = None;
        self.solution_pixels.clear();
        self.overlay.clear();
        // The picture made holds the view's marks; its changes are written again only to
        // list the pixels marked, which a view that forgot some changes cannot do.
        let view = scene.view;
        self.marked_many = view.changes_forgotten > 0;
        let written = if self.marked_many {
            view.changes_end()
        } else {
            0
        };
        self.view = (view.id, 0, written);
        self.image = Some(image);
        // The view's marks, the solution and the overlays, then one upload of the whole.
        self.apply_changes(scene, None);
        let Some(image) = self.image.take() else {
            return egui::TextureId::default();
        };
        let options = TextureOptions::NEAREST;
        let upload = if fitted {
            fit_texture(image.clone(), max_side)
        } else {
            image.clone()
        };
        match &mut self.handle {
            Some(handle) => handle.set(upload, options),
            None => self.handle = Some(ctx.load_texture("grid", upload, options)),
        }
        self.levels.clear();
        self.image = (!fitted).then_some(image);
        self.key = Some(key);
        match &self.handle {
            Some(handle) => handle.id(),
            None => egui::TextureId::default(),
        }
    }

    /// Writes what changed since the last update into the pixels, and uploads the tiles it
    /// touched (none while the texture is being made whole). The search's marks are written
    /// until `deadline`, the rest left for the next call; returns whether all were written.
    fn apply_changes(&mut self, scene: &Scene, deadline: Option<std::time::Instant>) -> bool {
        let Some(image) = &mut self.image else {
            return true;
        };
        let cols = image.size[0];
        let tiles_across = cols.div_ceil(TILE);
        let mut dirty = DirtyTiles::new(cols);
        let on_solution = &mut self.on_solution;
        // Sets pixel `i` to its square's colour (or the solution's) and marks its tile.
        let mut repaint = |i: usize, image: &mut ColorImage, on_solution: &[bool]| {
            let Some(p) = image.pixels.get_mut(i) else {
                return;
            };
            *p = if on_solution.get(i) == Some(&true) {
                SOLUTION
            } else {
                square_pixel(scene, i)
            };
            dirty.mark(i);
        };
        for &i in &self.overlay {
            repaint(i, image, on_solution);
        }
        // Another run's view: its marks come off, one by one if they are few, else by copying
        // the unmarked picture back whole (then uploaded whole).
        let view = scene.view;
        let mut whole = false;
        if self.view.0 != view.id || self.view.2 > view.changes_end() {
            if self.marked_many || self.marked.len() > image.pixels.len() / 16 {
                let base = self.base.get_or_insert_with(|| unmarked_image(scene));
                image.pixels.copy_from_slice(&base.pixels);
                for &i in &self.solution_pixels {
                    image.pixels[i as usize] = SOLUTION;
                }
                self.marked.clear();
                self.marked_many = false;
                self.overlay.clear();
                whole = true;
            }
            for i in std::mem::take(&mut self.marked) {
                repaint(i as usize, image, on_solution);
            }
            self.view = (view.id, 0, 0);
        }
        let mut written = self.view.2;
        let Some(pending) = view.changes_since(written) else {
            // Changes forgotten before this picture showed them: made whole next frame.
            self.key = None;
            return false;
        };
        let most_listed = image.pixels.len() / 16;
        for chunk in pending.chunks(MARKS_CHUNK) {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                break;
            }
            for &i in chunk {
                if !self.marked_many {
                    self.marked.push(i);
                }
                repaint(i as usize, image, on_solution);
            }
            if self.marked.len() > most_listed {
                self.marked = Vec::new();
                self.marked_many = true;
            }
            written += chunk.len();
        }
        let complete = written == view.changes_end();
        self.view = (view.id, view.revision, written);
        view.changes_drawn.set(written);
        // The solution: a new one replaces the old; playback paints or restores the squares
        // between the old and the new position (a solution never visits a square twice).
        let solution = scene
            .result
            .filter(|r| r.solved && !r.path.is_empty())
            .map(|r| &r.path);
        let identity = solution.map(|p| (p.as_ptr() as usize, p.len()));
        if identity != self.solution {
            for i in std::mem::take(&mut self.solution_pixels) {
                on_solution[i as usize] = false;
                repaint(i as usize, image, on_solution);
            }
            self.solution = identity;
        }
        if let Some(path) = solution {
            let want = scene.shown.min(path.len() - 1) + 1;
            while self.solution_pixels.len() > want {
                if let Some(i) = self.solution_pixels.pop() {
                    on_solution[i as usize] = false;
                    repaint(i as usize, image, on_solution);
                }
            }
            for place in &path[self.solution_pixels.len()..want] {
                let i = place.cell.row * cols + place.cell.col;
                if i < on_solution.len() {
                    on_solution[i] = true;
                    self.solution_pixels.push(i as u32);
                    repaint(i, image, on_solution);
                }
            }
        }
        self.overlay = draw_overlays(scene, image);
        for &i in &self.overlay {
            dirty.mark(i);
        }
        let Some(handle) = &mut self.handle else {
            return complete; // being made whole: uploaded at once by the caller
        };
        if self.key.is_none() {
            return complete;
        }
        if whole {
            handle.set(image.clone(), TextureOptions::NEAREST);
            self.levels.clear();
            return complete;
        }
        let [w, h] = image.size;
        for (tile, _) in dirty.tiles.iter().enumerate().filter(|(_, d)| **d) {
            let (x0, y0) = ((tile % tiles_across) * TILE, (tile / tiles_across) * TILE);
            if x0 >= w || y0 >= h {
                continue;
            }
            let (tw, th) = (TILE.min(w - x0), TILE.min(h - y0));
            let pixels = (y0..y0 + th)
                .flat_map(|y| image.pixels[y * w + x0..y * w + x0 + tw].iter().copied())
                .collect();
            handle.set_partial(
                [x0, y0],
                ColorImage::new([tw, th], pixels),
                TextureOptions::NEAREST,
            );
            for level in &mut self.levels {
                // TILE is a multiple of k: the tile is whole blocks of the level.
                let k = level.k;
                let (lx0, ly0) = (x0 / k, y0 / k);
                let (lw, lh) = (tw.div_ceil(k), th.div_ceil(k));
                shrink_into(image, k, &mut level.image, [lx0, ly0], [lw, lh]);
                let [w, _] = level.image.size;
                let pixels = (ly0..ly0 + lh)
                    .flat_map(|y| {
                        level.image.pixels[y * w + lx0..y * w + lx0 + lw]
                            .iter()
                            .copied()
                    })
                    .collect();
                level.handle.set_partial(
                    [lx0, ly0],
                    ColorImage::new([lw, lh], pixels),
                    LEVEL_OPTIONS,
                );
            }
        }
        complete
    }

    /// The texture to draw for squares `pixels_per_square` physical pixels across: the one
    /// pixel a square, or, for squares smaller than a pixel, the picture shrunk by the least
    /// power of two `k` that makes a texel at least a pixel (made on first use at that scale,
    /// then kept up to date tile by tile). Call after [`GridTexture::update`].
    pub(super) fn texture_for(
        &mut self,
        ctx: &egui::Context,
        pixels_per_square: f32,
    ) -> egui::TextureId {
        let Some(handle) = &self.handle else {
            return egui::TextureId::default();
        };
        let k = level_factor(pixels_per_square);
        let Some(image) = self.image.as_ref().filter(|_| k > 1) else {
            return handle.id();
        };
        if let Some(level) = self.levels.iter().find(|l| l.k == k) {
            return level.handle.id();
        }
        let shrunk = shrink(image, k);
        let handle = ctx.load_texture(format!("grid / {k}"), shrunk.clone(), LEVEL_OPTIONS);
        let id = handle.id();
        self.levels.push(Level {
            k,
            image: shrunk,
            handle,
        });
        id
    }

    /// Whether `scene`'s picture is a plain grid (see [`is_plain_grid`]), worked out once per
    /// puzzle revision; the start and goal markers are found at the same time.
    pub(super) fn is_plain(&mut self, scene: &Scene) -> bool {
        let picture: &Picture = &scene.picture;
        let key = (scene.revision, picture.squares.len());
        if let Some((revision, len, plain)) = self.plain
            && (revision, len) == key
        {
            return plain;
        }
        let plain = is_plain_grid(picture);
        self.plain = Some((key.0, key.1, plain));
        self.markers = picture
            .squares
            .iter()
            .enumerate()
            .filter_map(|(i, square)| {
                let color = match square {
                    Square::Start => START,
                    Square::Goal => GOAL,
                    _ => return None,
                };
                Some((Cell::new(i / picture.cols, i % picture.cols), color))
            })
            .take(1024)
            .collect();
        plain
    }

    /// Whether the last update left some of the search's marks for the next one.
    pub fn is_behind(&self) -> bool {
        self.behind
    }

    /// The pixels last uploaded, when the texture has one pixel a square.
    pub fn pixels(&self) -> Option<&ColorImage> {
        self.image.as_ref()
    }
}

/// The colour of square `i` (row-major) of a plain grid: its kind, its search mark, the
/// percolating cluster.
fn square_pixel(scene: &Scene, i: usize) -> Color32 {
    let picture: &Picture = &scene.picture;
    let mark = scene
        .view
        .mark(Cell::new(i / picture.cols, i % picture.cols));
    let marked = shaded_mark_color(scene.view, i, mark);
    square_color(picture, scene.cluster, i, marked)
}

/// The colour of the mark `mark` on square `i` (row-major) of `view`'s picture, under the
/// view's shading: a heat map colours the closed set by level, a branch fades every mark off
/// it.
pub(super) fn shaded_mark_color(view: &SearchView, i: usize, mark: Mark) -> Option<Color32> {
    let color = mark_color(mark)?;
    let Some(shade) = &view.shade else {
        return Some(color);
    };
    let level = shade.levels.get(i).copied().unwrap_or(0);
    Some(match shade.kind {
        ShadeKind::Heat { .. } if mark == Mark::Closed && level > 0 => heat_color(level),
        ShadeKind::Heat { .. } => color,
        ShadeKind::Branch if level > 0 => color,
        ShadeKind::Branch => color.lerp_to_gamma(FREE, 0.8),
    })
}

/// The colour of square `i` of a plain grid with search mark colour `marked`.
fn square_color(
    picture: &Picture,
    cluster: Option<&[bool]>,
    i: usize,
    marked: Option<Color32>,
) -> Color32 {
    match picture.squares[i] {
        Square::Blocked => BLOCKED,
        Square::Start => START,
        Square::Goal => GOAL,
        Square::Terrain(c) => {
            let fill = terrain_color(c);
            marked.map_or(fill, |m| fill.lerp_to_gamma(m, 0.55))
        }
        _ => marked.unwrap_or(match cluster {
            Some(c) if c.get(i) == Some(&true) => CLUSTER,
            _ => FREE,
        }),
    }
}

/// The canvas's colours for a GIF of a search of `picture` (see
/// [`crate::runs::animation::write_gif`]).
pub(crate) fn gif_colors(picture: &Picture) -> crate::runs::animation::GifColors {
    let rgb = |c: Color32| [c.r(), c.g(), c.b()];
    crate::runs::animation::GifColors {
        squares: (0..picture.squares.len())
            .map(|i| rgb(square_color(picture, None, i, None)))
            .collect(),
        keeps_color: picture
            .squares
            .iter()
            .map(|s| matches!(s, Square::Blocked | Square::Start | Square::Goal))
            .collect(),
        frontier: rgb(FRONTIER),
        closed: rgb(CLOSED),
        current: rgb(CURRENT),
        solution: Vec::new(),
        solution_color: rgb(SOLUTION),
    }
}

/// The pixels of a grid with no search marks, without overlays.
fn unmarked_image(scene: &Scene) -> ColorImage {
    let picture: &Picture = &scene.picture;
    let pixels = (0..picture.squares.len())
        .map(|i| square_color(picture, scene.cluster, i, None))
        .collect();
    ColorImage::new([picture.cols, picture.rows], pixels)
}

/// The pixels of a grid, each square's colour (see [`square_pixel`]), without overlays.
fn grid_image(scene: &Scene) -> ColorImage {
    let picture: &Picture = &scene.picture;
    let pixels = (0..picture.squares.len())
        .map(|i| square_pixel(scene, i))
        .collect();
    ColorImage::new([picture.cols, picture.rows], pixels)
}

/// Paints the search's overlays onto `image`: the depth-first path and the state being
/// expanded. Returns the pixels painted, to be restored before the next overlay.
fn draw_overlays(scene: &Scene, image: &mut ColorImage) -> Vec<usize> {
    let picture: &Picture = &scene.picture;
    let view = scene.view;
    let mut painted = Vec::new();
    let mut put = |place: &Place, color: Color32| {
        let i = place.cell.row * picture.cols + place.cell.col;
        if let Some(p) = image.pixels.get_mut(i) {
            *p = color;
            painted.push(i);
        }
    };
    for place in &view.branch {
        put(place, BRANCH);
    }
    for place in &view.path {
        put(place, DFS_PATH);
    }
    if let Some(current) = &view.current {
        put(current, CURRENT);
    }
    painted
}

/// How a shrunk level is sampled: its texels are about a pixel, and a linear filter keeps a
/// texel's colour from jumping as the grid is panned by part of a pixel.
const LEVEL_OPTIONS: TextureOptions = TextureOptions::LINEAR;

/// The factor a grid of squares `pixels_per_square` physical pixels across is shrunk by: 1
/// when a square is at least a pixel, else the least power of two that makes a texel at
/// least a pixel, at most [`TILE`] (so a tile of the picture is whole blocks of the level).
fn level_factor(pixels_per_square: f32) -> usize {
    if pixels_per_square.is_nan() || pixels_per_square <= 0.0 || pixels_per_square >= 1.0 {
        return 1;
    }
    let wanted = (1.0 / pixels_per_square).ceil() as usize;
    wanted.next_power_of_two().min(TILE)
}

/// `image` shrunk by `k` (sides rounded up): each texel the mean colour of its k x k block of
/// pixels (a block at the right or bottom edge may be smaller).
fn shrink(image: &ColorImage, k: usize) -> ColorImage {
    let k = k.max(1);
    let [w, h] = image.size;
    let size = [w.div_ceil(k), h.div_ceil(k)];
    let mut out = ColorImage::new(size, vec![Color32::TRANSPARENT; size[0] * size[1]]);
    shrink_into(image, k, &mut out, [0, 0], size);
    out
}

/// Writes the texels `origin` to `origin + size` (column, row) of `out`, `image` shrunk by
/// `k`: each the mean colour of its k x k block of `image`'s pixels. Texels outside `out`
/// are skipped.
fn shrink_into(
    image: &ColorImage,
    k: usize,
    out: &mut ColorImage,
    origin: [usize; 2],
    size: [usize; 2],
) {
    let [w, h] = image.size;
    let [ow, oh] = out.size;
    for ty in origin[1]..(origin[1] + size[1]).min(oh) {
        for tx in origin[0]..(origin[0] + size[0]).min(ow) {
            let (x0, y0) = (tx * k, ty * k);
            let (x1, y1) = ((x0 + k).min(w), (y0 + k).min(h));
            let mut sum = [0u32; 4];
            for y in y0..y1 {
                for p in &image.pixels[y * w + x0..y * w + x1] {
                    for (s, c) in sum.iter_mut().zip(p.to_array()) {
                        *s += u32::from(c);
                    }
                }
            }
            let n = ((x1 - x0) * (y1 - y0)).max(1) as u32;
            let [r, g, b, a] = sum.map(|s| ((s + n / 2) / n) as u8);
            out.pixels[ty * ow + tx] = Color32::from_rgba_premultiplied(r, g, b, a);
        }
    }
}

/// `image` shrunk by a whole factor (each texel the mean of its block) if a side exceeds
/// what the graphics backend takes (`max_side`), so an oversized map still draws.
fn fit_texture(image: ColorImage, max_side: usize) -> ColorImage {
    let [w, h] = image.size;
    let k = w.max(h).div_ceil(max_side.max(1));
    if k <= 1 {
        return image;
    }
    shrink(&image, k)
}

pub(super) fn mark_color(mark: Mark) -> Option<Color32> {
    match mark {
        Mark::Closed => Some(CLOSED),
        Mark::Frontier => Some(FRONTIER),
        Mark::None => None,
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use std::borrow::Cow;

    use eframe::egui::Vec2;

    use super::*;
    use crate::app::SearchView;
    use crate::puzzles::Report;

    fn scene<'a>(picture: &'a Picture, view: &'a SearchView, revision: u64) -> Scene<'a> {
        Scene {
            picture: Cow::Borrowed(picture),
            view,
            result: None,
            shown: 0,
            transition: None,
            sliding: None,
            selected: None,
            ghost: None,
            zoom: 1.0,
            pan: Vec2::ZERO,
            cluster: None,
            board: false,
            revision,
            budget: std::time::Duration::from_millis(3),
        }
    }

    /// The pixels drawn from scratch: squares, the solution shown, the overlays.
    fn full_rebuild(scene: &Scene) -> ColorImage {
        let mut image = grid_image(scene);
        if let Some(report) = scene.result.filter(|r| r.solved && !r.path.is_empty()) {
            let shown = scene.shown.min(report.path.len() - 1);
            for place in &report.path[..=shown] {
                image.pixels[place.cell.row * scene.picture.cols + place.cell.col] = SOLUTION;
            }
        }
        draw_overlays(scene, &mut image);
        image
    }

    /// A timeline replayed back and forth, its drawn changes forgotten as it goes, draws the
    /// same pixels as a full rebuild at every position; its list of changes stays short; a
    /// new run's view after it clears every mark.
    #[test]
    fn a_replay_back_and_forth_draws_what_a_rebuild_draws() {
        let ctx = egui::Context::default();
        let mut rng = StdRng::seed_from_u64(4);
        let mut text = String::new();
        for r in 0..200 {
            for c in 0..200 {
                text.push(match (r, c) {
                    (0, 0) => 'S',
                    _ if rng.random_bool(0.25) => '#',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        let maze = crate::puzzles::parse(&text, Some("maze")).expect("a grid maze");
        let mut recording = crate::runs::recording::TraceRecorder::new(1 << 30);
        maze.solve(
            crate::search::Algorithm::Bfs,
            &mut recording,
            &crate::search::CancelToken::new(),
        )
        .expect("a search");
        recording.finish();
        let len = recording.expansions();
        let mut track = crate::app::Track::new(
            std::sync::Arc::new(recording),
            crate::search::Algorithm::Bfs,
        );
        let mut view = SearchView::for_puzzle(maze.as_ref());
        let picture = maze.picture();
        let mut texture = GridTexture::default();
        let mut longest = 0;
        for round in 0..40 {
            let target = if round % 2 == 0 {
                len
            } else {
                rng.random_range(0..len / 4)
            };
            // A few frames' worth at a time, drawn between, as the app does.
            while !track.seek(&mut view, target, Some(std::time::Instant::now())) {
                texture.update(&ctx, &scene(&picture, &view, 0));
            }
            let s = scene(&picture, &view, 0);
            texture.update(&ctx, &s);
            while texture.is_behind() {
                texture.update(&ctx, &s);
            }
            longest = longest.max(view.changed.len());
            let shown = texture.pixels().expect("one pixel a square");
            assert!(shown.pixels == full_rebuild(&s).pixels, "round {round}");
        }
        assert!(
            longest < 3 * 200 * 200,
            "drawn changes are forgotten: {longest} kept"
        );
        assert!(
            view.changes_forgotten > 4 * 200 * 200,
            "{}",
            view.changes_forgotten
        );
        // A picture made afresh of the view whose first changes are forgotten.
        let mut other = GridTexture::default();
        let s = scene(&picture, &view, 0);
        other.update(&ctx, &s);
        let shown = other.pixels().expect("one pixel a square");
        assert!(shown.pixels == full_rebuild(&s).pixels, "made afresh");
        // Another run: every mark of the replayed view comes off both.
        let fresh = SearchView::for_puzzle(maze.as_ref());
        let s = scene(&picture, &fresh, 0);
        for texture in [&mut texture, &mut other] {
            texture.update(&ctx, &s);
            while texture.is_behind() {
                texture.update(&ctx, &s);
            }
            let shown = texture.pixels().expect("one pixel a square");
            assert!(shown.pixels == full_rebuild(&s).pixels, "a new view");
        }
    }

    /// Incremental updates (marks written as they arrive, tiles uploaded) give the same
    /// pixels as a full rebuild, through random search progress and random edits.
    #[test]
    fn incremental_updates_match_a_full_rebuild() {
        let ctx = egui::Context::default();
        let mut rng = StdRng::seed_from_u64(12);
        // A 300 x 300 grid maze, open but for the start (top-left) and the goal.
        let mut text = String::new();
        for r in 0..300 {
            for c in 0..300 {
                text.push(match (r, c) {
                    (0, 0) => 'S',
                    (299, 299) => 'G',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        let mut maze = crate::puzzles::parse(&text, Some("maze")).expect("a grid maze");
        let mut revision = 0;
        let mut view = SearchView::for_puzzle(maze.as_ref());
        let mut texture = GridTexture::default();
        let place = |rng: &mut StdRng| {
            Place::from(Cell::new(
                rng.random_range(0..300),
                rng.random_range(0..300),
            ))
        };
        for round in 0..60 {
            let many = if round % 20 == 3 { 150_000 } else { 800 };
            if round % 15 == 14 {
                // An edit: the picture changes, the texture is remade whole.
                for _ in 0..50 {
                    let cell = Cell::new(rng.random_range(0..300), rng.random_range(0..300));
                    maze.paint(cell, 1);
                }
                revision += 1;
                view = SearchView::for_puzzle(maze.as_ref());
            }
            if round % 15 == 7 {
                // A new run on the same picture: the old marks come off incrementally.
                view = SearchView::for_puzzle(maze.as_ref());
            }
            // Marks as a replay makes them: places put on the frontier, then some closed.
            use crate::runs::recording::Change;
            for _ in 0..rng.random_range(0..many) {
                view.replay(place(&mut rng), Change::Open);
            }
            for _ in 0..rng.random_range(0..400) {
                view.replay(place(&mut rng), Change::Close);
            }
            view.current = Some(place(&mut rng));
            if rng.random_bool(0.5) {
                view.path = (0..rng.random_range(0..500))
                    .map(|_| place(&mut rng))
                    .collect();
            }
            view.revision += 1;
            let picture = maze.picture();
            let s = scene(&picture, &view, revision);
            texture.update(&ctx, &s);
            while texture.is_behind() {
                texture.update(&ctx, &s);
            }
            let shown = texture.pixels().expect("one pixel a square");
            assert!(shown.pixels == full_rebuild(&s).pixels, "round {round}");
        }
        // A solution played forward and back, by single moves and by jumps.
        let path: Vec<Place> = (0..2000)
            .map(|k| {
                Place::from(Cell::new(
                    k / 300,
                    if (k / 300) % 2 == 0 {
                        k % 300
                    } else {
                        299 - k % 300
                    },
                ))
            })
            .collect();
        let report = Report {
            puzzle_type: "maze",
            algorithm: crate::search::Algorithm::Bfs,
            outcome: crate::search::Outcome::Found,
            solved: true,
            optimal: true,
            cost: 1999.0,
            moves: vec![String::new(); 1999],
            path,
            boards: Vec::new(),
            stats: crate::search::Stats::default(),
            notes: Vec::new(),
            message: None,
        };
        let view = SearchView::for_puzzle(maze.as_ref());
        let picture = maze.picture();
        for round in 0..40 {
            let mut s = scene(&picture, &view, revision);
            s.result = Some(&report);
            s.shown = if round % 3 == 0 {
                rng.random_range(0..2200)
            } else {
                round * 7
            };
            texture.update(&ctx, &s);
            let shown = texture.pixels().expect("one pixel a square");
            assert!(
                shown.pixels == full_rebuild(&s).pixels,
                "playback round {round}"
            );
        }
    }

    /// The whole picture shrunk by `k` the plain way: every pixel added to its block's sums.
    fn reference_shrink(image: &ColorImage, k: usize) -> Vec<Color32> {
        let [w, h] = image.size;
        let (sw, sh) = (w.div_ceil(k), h.div_ceil(k));
        let mut sums = vec![([0u32; 4], 0u32); sw * sh];
        for (i, p) in image.pixels.iter().enumerate() {
            let (x, y) = (i % w, i / w);
            let block = &mut sums[(y / k) * sw + x / k];
            for (s, c) in block.0.iter_mut().zip(p.to_array()) {
                *s += u32::from(c);
            }
            block.1 += 1;
        }
        sums.into_iter()
            .map(|(s, n)| {
                let [r, g, b, a] = s.map(|s| ((s + n / 2) / n) as u8);
                Color32::from_rgba_premultiplied(r, g, b, a)
            })
            .collect()
    }

    #[test]
    fn the_level_of_a_scale_makes_a_texel_at_least_a_pixel() {
        assert_eq!(level_factor(1.0), 1);
        assert_eq!(level_factor(3.0), 1);
        assert_eq!(level_factor(0.5), 2);
        assert_eq!(level_factor(0.4), 4);
        assert_eq!(level_factor(0.13), 8);
        assert_eq!(level_factor(0.001), TILE);
        assert_eq!(level_factor(0.0), 1);
        assert_eq!(level_factor(f32::NAN), 1);
    }

    /// Shrunk levels, kept up to date tile by tile as marks arrive and playback moves, hold
    /// the one-pixel-a-square picture shrunk whole; an edit remakes them.
    #[test]
    fn shrunk_levels_follow_the_picture_tile_by_tile() {
        let ctx = egui::Context::default();
        let mut rng = StdRng::seed_from_u64(21);
        // 150 x 333: neither side a multiple of a tile or of a block.
        let mut text = String::new();
        for r in 0..150 {
            for c in 0..333 {
                text.push(match (r, c) {
                    (0, 0) => 'S',
                    (149, 332) => 'G',
                    _ if rng.random_bool(0.3) => '#',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        let mut maze = crate::puzzles::parse(&text, Some("maze")).expect("a grid maze");
        let mut view = SearchView::for_puzzle(maze.as_ref());
        let mut texture = GridTexture::default();
        let mut revision = 0;
        let place = |rng: &mut StdRng| {
            Place::from(Cell::new(
                rng.random_range(0..150),
                rng.random_range(0..333),
            ))
        };
        for round in 0..30 {
            if round % 10 == 9 {
                maze.paint(
                    Cell::new(rng.random_range(0..150), rng.random_range(0..333)),
                    1,
                );
                revision += 1;
                view = SearchView::for_puzzle(maze.as_ref());
            }
            use crate::runs::recording::Change;
            for _ in 0..rng.random_range(0..3000) {
                view.replay(place(&mut rng), Change::Open);
            }
            for _ in 0..rng.random_range(0..1000) {
                view.replay(place(&mut rng), Change::Close);
            }
            view.current = Some(place(&mut rng));
            view.revision += 1;
            let picture = maze.picture();
            let s = scene(&picture, &view, revision);
            texture.update(&ctx, &s);
            while texture.is_behind() {
                texture.update(&ctx, &s);
            }
            let full = texture.pixels().expect("one pixel a square").clone();
            assert_eq!(
                texture.texture_for(&ctx, 1.5),
                texture.handle.as_ref().map(|h| h.id()).unwrap()
            );
            for pixels_per_square in [0.5, 0.13, 0.01] {
                let id = texture.texture_for(&ctx, pixels_per_square);
                let k = level_factor(pixels_per_square);
                let level = texture.levels.iter().find(|l| l.k == k).expect("a level");
                assert_eq!(level.handle.id(), id);
                assert_eq!(
                    level.image.size,
                    [333usize.div_ceil(k), 150usize.div_ceil(k)]
                );
                assert!(
                    level.image.pixels == reference_shrink(&full, k),
                    "round {round}, k {k}"
                );
            }
        }
    }
}
