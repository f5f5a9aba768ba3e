//! A large grid drawn as a texture, one pixel a square, written incrementally.

use eframe::egui::{self, Color32, ColorImage, TextureHandle, TextureOptions};

mod colors;
mod shrink;
mod tiles;

pub(crate) use colors::gif_colors;
pub(super) use colors::shaded_mark_color;
use colors::{draw_overlays, grid_image, square_color, square_pixel, unmarked_image};
use shrink::{Level, fit_texture, level_factor};
use tiles::{DirtyTiles, TILE, upload_tile};

use super::palette::{FREE, GOAL, SOLUTION, START};
use super::scene::{Scene, is_plain_grid};
use crate::puzzles::{Cell, Picture, Square};

/// A large grid drawn as a texture, one pixel a square. It is remade whole only when the
/// picture changes (an edit); everything else is written into it incrementally — the squares
/// whose search marks changed since the last frame (from [`SearchMarks::changed`]), the marks
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
    /// The marks drawn ([`SearchMarks::id`]), their revision, and how many of their changes.
    marks: (u64, u64, usize),
    /// Pixels carrying one of the marks drawn, to clear when other marks come; past a
    /// sixteenth of the picture no more are listed and [`GridTexture::marked_many`] is set.
    marked: Vec<u32>,
    /// Whether marks were drawn on more pixels than `marked` lists: other marks clear them
    /// by copying the unmarked picture back whole.
    marked_many: bool,
    /// The solution drawn (the marks it was drawn with, [`SearchMarks::id`], which a new run
    /// changes, then its path's address and length: an address alone may be a new run's,
    /// made where a dropped one was), and its squares painted, in order: the first
    /// `shown + 1` of its path.
    solution: Option<(u64, usize, usize)>,
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
    /// For a texture shrunk to fit: the marks, its revision, the solution's position and the
    /// solution it was made for.
    fitted_state: Option<ShownState>,
    /// Whether some of the search's marks wait for the next update (see [`Scene::budget`]).
    behind: bool,
    /// Copies of the picture shrunk by powers of two, made when a square is drawn smaller
    /// than a pixel and kept up to date with the picture's changed tiles (see [`Level`]).
    levels: Vec<Level>,
    /// Whether the last frame drew a shrunk level: the one pixel a square is then kept up
    /// to date in memory only, its tiles uploaded when it is drawn again (`deferred`).
    level_shown: bool,
    /// Tiles of the one pixel a square changed but not uploaded while a level was drawn
    /// (row-major), and whether all are (a change of the whole picture).
    deferred: Vec<bool>,
    deferred_whole: bool,
    /// Marks being set whole to a run's end ([`crate::app::Whole`]) as drawn: the coarse end
    /// picture at once, then the rows painted from the marks over it.
    whole: Option<WholeDrawn>,
}

/// The drawing of marks set whole (see [`GridTexture::paint_whole`]).
#[derive(Clone)]
struct WholeDrawn {
    /// The marks ([`SearchMarks::id`]).
    id: u64,
    /// Rows of the one pixel a square painted from them, from the top.
    rows: usize,
    /// The coarse end picture, drawn under the rows painted until all are; dropped then.
    coarse: Option<TextureHandle>,
}

/// See [`GridTexture::fitted_state`].
type ShownState = (u64, u64, usize, Option<(usize, usize)>);

/// How many marks are written between two looks at the clock.
const MARKS_CHUNK: usize = 4096;

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
            scene.marks.id,
            scene.marks.revision,
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
                let painted = self.paint_whole(ctx, scene, scene.deadline);
                self.behind = !self.apply_changes(scene, Some(scene.deadline)) || !painted;
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
        // Marks with none draw the unmarked picture that a later run's clearing
        // copies back (see `base`): kept now, rather than made again then (25 ms on
        // 2048 x 2048, measured).
        if scene.marks.frontier_places == 0 && scene.marks.closed_places == 0 {
            self.base = Some(image.clone());
        }
        let max_side = ctx.input(|i| i.max_texture_side);
        let fitted = image.size[0] > max_side || image.size[1] > max_side;
        self.on_solution = vec![false; image.pixels.len()];
        self.marked.clear();
        self.solution = None;
        self.solution_pixels.clear();
        self.overlay.clear();
        // The picture made holds the marks; its changes are written again only to
        // list the pixels marked, which marks that forgot some changes cannot do.
        let marks = scene.marks;
        self.marked_many = marks.changes_forgotten > 0;
        let written = if self.marked_many {
            marks.changes_end()
        } else {
            0
        };
        self.marks = (marks.id, 0, written);
        self.image = Some(image);
        // The marks, the solution and the overlays, then one upload of the whole.
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
        self.deferred.clear();
        self.deferred_whole = false;
        self.image = (!fitted).then_some(image);
        self.key = Some(key);
        // Marks being set whole: the picture made holds the rows set so far; the rest are
        // painted as they are set, over the coarse end picture.
        self.whole = None;
        if let Some(whole) = scene.marks.whole.as_ref().filter(|_| !fitted) {
            self.start_whole(ctx, scene, whole.rows);
            self.behind = !self.paint_whole(ctx, scene, scene.deadline);
        }
        match &self.handle {
            Some(handle) => handle.id(),
            None => egui::TextureId::default(),
        }
    }

    /// Starts drawing `scene`'s marks being set whole: makes the coarse end picture (a texel a
    /// block of [`crate::app::Whole::block`] squares, each its block's top-left square's end
    /// colour: the work of at most [`crate::app::COARSE_BLOCKS`] texels), with the first
    /// `rows` of the one pixel a square taken as painted.
    fn start_whole(&mut self, ctx: &egui::Context, scene: &Scene, rows: usize) {
        let marks = scene.marks;
        let Some(whole) = &marks.whole else {
            return;
        };
        let picture: &Picture = &scene.picture;
        let (block, (brows, bcols)) = (whole.block.max(1), whole.coarse_dims(marks.dims()));
        let pixels = (0..brows * bcols)
            .map(|b| {
                let (r, c) = ((b / bcols) * block, (b % bcols) * block);
                let i = r * picture.cols + c;
                if i >= picture.squares.len() {
                    return FREE;
                }
                let mark = whole.coarse.get(b).copied().unwrap_or_default();
                let marked = shaded_mark_color(marks, i, mark);
                square_color(picture, scene.cluster, i, marked)
            })
            .collect();
        let image = ColorImage::new([bcols, brows], pixels);
        let coarse = ctx.load_texture("grid / coarse end", image, TextureOptions::NEAREST);
        // The pixels painted from these marks are not listed: other marks copy the unmarked
        // picture back whole.
        self.marked.clear();
        self.marked_many = true;
        self.marks = (marks.id, marks.revision, 0);
        self.whole = Some(WholeDrawn {
            id: marks.id,
            rows,
            coarse: Some(coarse),
        });
    }

    /// Paints the rows of marks being set whole ([`SearchMarks::whole`]) that are set and not
    /// painted yet into the one pixel a square, a band of [`TILE`] rows at a time until
    /// `deadline` (one band at least), uploading their tiles and making their texels of the
    /// shrunk levels again; the first call for new marks makes the coarse end picture.
    /// Returns whether nothing is left to paint (also when no marks are being set whole).
    fn paint_whole(
        &mut self,
        ctx: &egui::Context,
        scene: &Scene,
        deadline: std::time::Instant,
    ) -> bool {
        let marks = scene.marks;
        let Some(set) = marks.whole.as_ref().map(|w| w.rows) else {
            self.whole = None;
            return true;
        };
        if self.whole.as_ref().is_none_or(|w| w.id != marks.id) {
            self.start_whole(ctx, scene, 0);
        }
        let (Some(whole), Some(image)) = (&mut self.whole, &mut self.image) else {
            return true;
        };
        let [cols, rows] = image.size;
        let mut dirty = DirtyTiles::new(cols, false);
        let mut painted = Vec::new();
        while whole.rows < set.min(rows) {
            let from = whole.rows;
            let to = (from + TILE).min(set).min(rows);
            for i in from * cols..to * cols {
                image.pixels[i] = if self.on_solution.get(i) == Some(&true) {
                    SOLUTION
                } else {
                    square_pixel(scene, i)
                };
            }
            for tile_col in 0..cols.div_ceil(TILE) {
                for row in (from..to).step_by(TILE) {
                    dirty.mark(row * cols + tile_col * TILE);
                }
                dirty.mark((to - 1) * cols + tile_col * TILE);
            }
            painted.push(from..to);
            whole.rows = to;
            if std::time::Instant::now() >= deadline {
                break;
            }
        }
        let done = whole.rows >= rows;
        if done {
            whole.coarse = None;
        }
        self.upload(&dirty, false);
        if let Some(image) = &self.image {
            for level in &mut self.levels {
                for band in &painted {
                    level.recount_rows(image, band.start / level.k..band.end.div_ceil(level.k));
                }
            }
        }
        done
    }

    /// While marks set whole are drawn: the coarse end picture, drawn under the rows painted
    /// from the marks, and the fraction of the picture's rows those are (from the top).
    pub fn coarse_end(&self) -> Option<(egui::TextureId, f32)> {
        let whole = self.whole.as_ref()?;
        let coarse = whole.coarse.as_ref()?;
        let rows = self.image.as_ref()?.size[1].max(1);
        Some((coarse.id(), whole.rows as f32 / rows as f32))
    }

    /// For marks set whole ([`SearchMarks::whole`]): their id, and how many rows of the
    /// picture are painted from them (the rest show their coarse end picture).
    pub fn whole_drawn(&self) -> Option<(u64, usize)> {
        self.whole.as_ref().map(|w| (w.id, w.rows))
    }

    /// Writes what changed since the last update into the pixels, and uploads the tiles it
    /// touched (none while the texture is being made whole). The search's marks are written
    /// until `deadline`, the rest left for the next call; returns whether all were written.
    fn apply_changes(&mut self, scene: &Scene, deadline: Option<std::time::Instant>) -> bool {
        let Some(image) = &mut self.image else {
            return true;
        };
        let cols = image.size[0];
        let mut dirty = DirtyTiles::new(cols, !self.levels.is_empty());
        let on_solution = &mut self.on_solution;
        // Sets pixel `i` to its square's colour (or the solution's) and marks its tile.
        let mut repaint = |i: usize, image: &mut ColorImage, on_solution: &[bool]| {
            let Some(p) = image.pixels.get_mut(i) else {
                return;
            };
            let before = *p;
            *p = if on_solution.get(i) == Some(&true) {
                SOLUTION
            } else {
                square_pixel(scene, i)
            };
            dirty.change(i, before, *p);
        };
        for &i in &self.overlay {
            repaint(i, image, on_solution);
        }
        // Another run's marks: its marks come off, one by one if they are few, else by copying
        // the unmarked picture back whole (then uploaded whole).
        let marks = scene.marks;
        let mut whole = false;
        if self.marks.0 != marks.id || self.marks.2 > marks.changes_end() {
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
            self.marks = (marks.id, 0, 0);
        }
        let mut written = self.marks.2;
        let Some(pending) = marks.changes_since(written) else {
            // Changes forgotten before this picture showed them: made whole next frame.
            self.key = None;
            return false;
        };
        let most_listed = image.pixels.len() / 16;
        for (n, chunk) in pending.chunks(MARKS_CHUNK).enumerate() {
            // One chunk at least, so the picture moves on however late the frame is.
            if n > 0 && deadline.is_some_and(|d| std::time::Instant::now() >= d) {
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
        let complete = written == marks.changes_end();
        self.marks = (marks.id, marks.revision, written);
        // The solution: a new one replaces the old; playback paints or restores the squares
        // between the old and the new position (a solution never visits a square twice).
        let solution = scene
            .result
            .filter(|r| r.solved && !r.path.is_empty())
            .map(|r| &r.path);
        let identity = solution.map(|p| (marks.id, p.as_ptr() as usize, p.len()));
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
            if dirty.list_pixels {
                dirty.repainted.push(i as u32);
            }
        }
        self.upload(&dirty, whole);
        complete
    }

    /// Uploads the tiles of the picture that `dirty` lists, or all of it when it changed
    /// `whole`; while a shrunk level is shown, marks them to upload later instead. Nothing
    /// while the texture is being made whole (the caller uploads it at once).
    fn upload(&mut self, dirty: &DirtyTiles, whole: bool) {
        let (Some(image), Some(handle)) = (&self.image, &mut self.handle) else {
            return; // being made whole: uploaded at once by the caller
        };
        if self.key.is_none() {
            return;
        }
        if whole {
            if self.level_shown {
                self.deferred_whole = true;
            } else {
                handle.set(image.clone(), TextureOptions::NEAREST);
            }
            // Each level becomes the unmarked picture's at once, then takes the squares
            // written since (made again from the picture); a level without one is made
            // again from the top, and not drawn meanwhile: no row of another run is shown.
            let mut since: Vec<u32> = (dirty.changes.iter().map(|c| c.0))
                .chain(dirty.repainted.iter().copied())
                .chain(self.solution_pixels.iter().copied())
                .collect();
            since.sort_unstable();
            since.dedup();
            for level in &mut self.levels {
                if level.restore_base() {
                    level.update(image, &[], &since);
                } else {
                    level.restart();
                }
            }
            return;
        }
        let tiles_across = image.size[0].div_ceil(TILE);
        for (tile, _) in dirty.tiles.iter().enumerate().filter(|(_, d)| **d) {
            if self.level_shown {
                if self.deferred.len() <= tile {
                    self.deferred.resize(tile + 1, false);
                }
                self.deferred[tile] = true;
            } else {
                upload_tile(handle, image, tiles_across, tile);
            }
        }
        for level in &mut self.levels {
            level.update(image, &dirty.changes, &dirty.repainted);
        }
    }

    /// The texture to draw for squares `pixels_per_square` physical pixels across: the one
    /// pixel a square, or, for squares smaller than a pixel, the picture shrunk by the least
    /// power of two `k` that makes a texel at least a pixel. A level is made on first use at
    /// its scale a band of rows at a time, until `deadline` each frame (the one pixel a
    /// square drawn meanwhile, and a repaint asked for), then kept up to date with the pixels
    /// that change. Made again after the picture changed whole (another run's marks cleared),
    /// it stays drawn while its rows are redone from the top. Call after
    /// [`GridTexture::update`].
    pub(super) fn texture_for(
        &mut self,
        ctx: &egui::Context,
        pixels_per_square: f32,
        deadline: std::time::Instant,
    ) -> egui::TextureId {
        let Some(handle) = &self.handle else {
            return egui::TextureId::default();
        };
        let k = level_factor(pixels_per_square);
        let Some(image) = self.image.as_ref().filter(|_| k > 1) else {
            let id = handle.id();
            if self.image.is_some() {
                self.levels.clear();
                return self.one_pixel_a_square();
            }
            return id;
        };
        // Only the level drawn is kept up to date.
        self.levels.retain(|l| l.k == k);
        if self.levels.is_empty() {
            self.levels.push(Level::new(ctx, image, k));
        }
        let built = self
            .levels
            .iter_mut()
            .all(|level| level.build(image, self.base.as_ref(), deadline));
        if !built {
            ctx.request_repaint();
        }
        match self.levels.first().filter(|l| built || l.was_built()) {
            Some(level) => {
                self.level_shown = true;
                level.handle.id()
            }
            None => self.one_pixel_a_square(),
        }
    }

    /// The one pixel a square, to draw: the tiles changed while a level was drawn are
    /// uploaded first, and the levels forgotten when it is drawn for squares a pixel or more.
    fn one_pixel_a_square(&mut self) -> egui::TextureId {
        self.level_shown = false;
        let (Some(handle), Some(image)) = (&mut self.handle, &self.image) else {
            return egui::TextureId::default();
        };
        if std::mem::take(&mut self.deferred_whole) {
            handle.set(image.clone(), TextureOptions::NEAREST);
            self.deferred.clear();
        }
        let tiles_across = image.size[0].div_ceil(TILE);
        for (tile, _) in std::mem::take(&mut self.deferred)
            .into_iter()
            .enumerate()
            .filter(|(_, d)| *d)
        {
            upload_tile(handle, image, tiles_across, tile);
        }
        handle.id()
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

    /// The marks drawn ([`SearchMarks::id`]) and how many of their changes the pixels show: the
    /// canvas hands them to [`SearchMarks::note_drawn`] after drawing.
    pub fn drawn(&self) -> (u64, usize) {
        (self.marks.0, self.marks.2)
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

#[cfg(test)]
mod tests;
