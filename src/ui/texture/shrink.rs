//! Shrunk copies of a large grid's picture, for squares smaller than a pixel: each texel the
//! mean colour of a block of squares, so a maze's walls and passages do not beat into bands.

use eframe::egui::{self, Color32, ColorImage, TextureHandle, TextureOptions};

use super::TILE;

/// The picture shrunk by `k` (a power of two, at most [`TILE`]): each texel is the mean
/// colour of a k x k block of squares. Drawn instead of the one-pixel-a-square texture when a
/// square is smaller than a pixel: sampling that texture keeps every k-th square only, and a
/// maze's walls and passages (alternate rows and columns) then beat into dark and light
/// patches (a 121 x 2047 maze at 0.13 pixels a square showed seven). Each texel keeps the sums
/// of its block's channels, so a changed square updates it in constant time.
#[derive(Clone)]
pub(super) struct Level {
    pub(super) k: usize,
    pub(super) image: ColorImage,
    pub(super) handle: TextureHandle,
    /// Each texel's block's channel sums (r, g, b, a), row-major.
    sums: Vec<[u32; 4]>,
    /// How many rows of texels are made (from the top): the level is drawn once all are.
    pub(super) built: usize,
    /// Whether all rows were made once: a level made again from the top (see
    /// [`Level::restart`]) stays drawn meanwhile, its lower rows a few frames old.
    was_built: bool,
    /// The picture's size, one pixel a square.
    picture: [usize; 2],
    /// The level of the picture with no search marks (texels, sums), made a band of rows at
    /// a time beside the level's own: a new run's level is this copied back at once, never
    /// the last run's rows (see [`Level::restore_base`]).
    base: (Vec<Color32>, Vec<[u32; 4]>),
    /// How many rows of `base` are made.
    base_built: usize,
}

/// Rows of texels made between two looks at the clock.
const BAND: usize = 8;

/// One square's change: its index (row-major), its colour before and after.
pub(super) type Change = (u32, Color32, Color32);

impl Level {
    /// A level of `image` shrunk by `k`, none of it made yet (see [`Level::build`]).
    pub(super) fn new(ctx: &egui::Context, image: &ColorImage, k: usize) -> Level {
        let [w, h] = image.size;
        let size = [w.div_ceil(k), h.div_ceil(k)];
        let blank = ColorImage::new(size, vec![Color32::TRANSPARENT; size[0] * size[1]]);
        let handle = ctx.load_texture(format!("grid / {k}"), blank.clone(), LEVEL_OPTIONS);
        Level {
            k,
            image: blank,
            handle,
            sums: vec![[0; 4]; size[0] * size[1]],
            built: 0,
            was_built: false,
            picture: [w, h],
            base: (Vec::new(), Vec::new()),
            base_built: 0,
        }
    }

    /// Makes the level again from the top (the picture changed whole). Its rows are not
    /// drawn meanwhile: they are another picture's.
    pub(super) fn restart(&mut self) {
        self.built = 0;
        self.was_built = false;
    }

    /// Puts the level of the unmarked picture back, whole and uploaded, if it is made (the
    /// work of the level's size, not the picture's); returns whether it was.
    pub(super) fn restore_base(&mut self) -> bool {
        if self.base_built < self.image.size[1] {
            return false;
        }
        self.image.pixels.clone_from(&self.base.0);
        self.sums.clone_from(&self.base.1);
        self.handle.set(self.image.clone(), LEVEL_OPTIONS);
        self.built = self.image.size[1];
        self.was_built = true;
        true
    }

    /// Makes more rows of the unmarked picture's level from `base` until `deadline`.
    fn build_base(&mut self, base: &ColorImage, deadline: std::time::Instant) {
        let [lw, lh] = self.image.size;
        if base.size != self.picture {
            return;
        }
        if self.base.0.len() != lw * lh {
            self.base = (vec![Color32::TRANSPARENT; lw * lh], vec![[0; 4]; lw * lh]);
            self.base_built = 0;
        }
        while self.base_built < lh && std::time::Instant::now() < deadline {
            let rows = BAND.min(lh - self.base_built);
            for ty in self.base_built..self.base_built + rows {
                for tx in 0..lw {
                    let t = ty * lw + tx;
                    self.base.1[t] = block_sum(base, self.k, tx, ty);
                    self.base.0[t] = mean(self.base.1[t], block_len(self.picture, self.k, tx, ty));
                }
            }
            self.base_built += rows;
        }
    }

    /// Whether all rows were made at least once, so the level can be drawn while it is made
    /// again.
    pub(super) fn was_built(&self) -> bool {
        self.was_built
    }

    /// Sums texel (`tx`, `ty`)'s block of `image` again and sets its colour.
    fn recount(&mut self, image: &ColorImage, tx: usize, ty: usize) {
        let t = ty * self.image.size[0] + tx;
        self.sums[t] = block_sum(image, self.k, tx, ty);
        self.image.pixels[t] = self.texel(tx, ty);
    }

    /// Texel (`tx`, `ty`)'s colour: the mean of its block, from its sums.
    fn texel(&self, tx: usize, ty: usize) -> Color32 {
        let t = ty * self.image.size[0] + tx;
        mean(self.sums[t], block_len(self.picture, self.k, tx, ty))
    }

    /// Makes more rows of texels from `image` and uploads them, until all are made or
    /// `deadline` passes; returns whether all are made.
    pub(super) fn build(
        &mut self,
        image: &ColorImage,
        base: Option<&ColorImage>,
        deadline: std::time::Instant,
    ) -> bool {
        // The unmarked picture's level first once this one is made (it is what a new run
        // shows at once).
        if self.built >= self.image.size[1]
            && let Some(base) = base
        {
            self.build_base(base, deadline);
        }
        let [lw, lh] = self.image.size;
        while self.built < lh {
            let rows = BAND.min(lh - self.built);
            for ty in self.built..self.built + rows {
                for tx in 0..lw {
                    self.recount(image, tx, ty);
                }
            }
            let band = self.image.pixels[self.built * lw..(self.built + rows) * lw].to_vec();
            self.handle.set_partial(
                [0, self.built],
                ColorImage::new([lw, rows], band),
                LEVEL_OPTIONS,
            );
            self.built += rows;
            if std::time::Instant::now() >= deadline {
                break;
            }
        }
        self.was_built |= self.built >= lh;
        self.built >= lh
    }

    /// Makes the texels of `rows` (of the level) again from `image` and uploads them: for rows
    /// of the picture painted whole. Rows not made yet are left to [`Level::build`].
    pub(super) fn recount_rows(&mut self, image: &ColorImage, rows: std::ops::Range<usize>) {
        let lw = self.image.size[0];
        let rows = rows.start..rows.end.min(self.built);
        if rows.is_empty() || image.size != self.picture {
            return;
        }
        for ty in rows.clone() {
            for tx in 0..lw {
                self.recount(image, tx, ty);
            }
        }
        let band = self.image.pixels[rows.start * lw..rows.end * lw].to_vec();
        self.handle.set_partial(
            [0, rows.start],
            ColorImage::new([lw, rows.len()], band),
            LEVEL_OPTIONS,
        );
    }

    /// Takes in the squares `changes` (each with its colour before and after), updating
    /// their texels' sums and colours in constant time each, and uploads the level's tiles
    /// they fall in: a frame's work follows the squares changed, not the picture's size.
    ///
    /// The squares `repainted` (overlays drawn straight into the picture) have their texels
    /// made again from `image`.
    pub(super) fn update(&mut self, image: &ColorImage, changes: &[Change], repainted: &[u32]) {
        let (k, [w, h], [lw, lh]) = (self.k, self.picture, self.image.size);
        if (changes.is_empty() && repainted.is_empty()) || w == 0 || lw == 0 {
            return;
        }
        let tiles_across = lw.div_ceil(TILE);
        let mut dirty = vec![false; tiles_across * lh.div_ceil(TILE)];
        for &(i, before, after) in changes {
            let (x, y) = (i as usize % w, i as usize / w);
            let (tx, ty) = (x / k, y / k);
            // Rows not made yet are made from the picture as it is then.
            if ty >= self.built || tx >= lw {
                continue;
            }
            let t = ty * lw + tx;
            for ((s, new), old) in self.sums[t]
                .iter_mut()
                .zip(after.to_array())
                .zip(before.to_array())
            {
                *s = (*s + u32::from(new)).saturating_sub(u32::from(old));
            }
            self.image.pixels[t] = self.texel(tx, ty);
            if let Some(d) = dirty.get_mut((ty / TILE) * tiles_across + tx / TILE) {
                *d = true;
            }
        }
        for &i in repainted {
            let (tx, ty) = (i as usize % w / k, i as usize / w / k);
            if ty >= self.built || tx >= lw || image.size != [w, h] {
                continue;
            }
            self.recount(image, tx, ty);
            if let Some(d) = dirty.get_mut((ty / TILE) * tiles_across + tx / TILE) {
                *d = true;
            }
        }
        for (tile, _) in dirty.iter().enumerate().filter(|(_, d)| **d) {
            let (x0, y0) = ((tile % tiles_across) * TILE, (tile / tiles_across) * TILE);
            let (tw, th) = (TILE.min(lw - x0), TILE.min(lh - y0));
            let texels = (y0..y0 + th)
                .flat_map(|y| {
                    self.image.pixels[y * lw + x0..y * lw + x0 + tw]
                        .iter()
                        .copied()
                })
                .collect();
            self.handle
                .set_partial([x0, y0], ColorImage::new([tw, th], texels), LEVEL_OPTIONS);
        }
    }
}

/// How a shrunk level is sampled: its texels are about a pixel, and a linear filter keeps a
/// texel's colour from jumping as the grid is panned by part of a pixel.
pub(super) const LEVEL_OPTIONS: TextureOptions = TextureOptions::LINEAR;

/// The factor a grid of squares `pixels_per_square` physical pixels across is shrunk by: 1
/// when a square is at least a pixel, else the least power of two that makes a texel at
/// least a pixel, at most [`TILE`] (so a tile of the picture is whole blocks of the level).
pub(super) fn level_factor(pixels_per_square: f32) -> usize {
    if pixels_per_square.is_nan() || pixels_per_square <= 0.0 || pixels_per_square >= 1.0 {
        return 1;
    }
    let wanted = (1.0 / pixels_per_square).ceil() as usize;
    wanted.next_power_of_two().min(TILE)
}

/// `image` shrunk by `k` (sides rounded up): each texel the mean colour of its k x k block of
/// pixels (a block at the right or bottom edge may be smaller).
pub(super) fn shrink(image: &ColorImage, k: usize) -> ColorImage {
    let k = k.max(1);
    let [w, h] = image.size;
    let size = [w.div_ceil(k), h.div_ceil(k)];
    let pixels = (0..size[1])
        .flat_map(|ty| (0..size[0]).map(move |tx| (tx, ty)))
        .map(|(tx, ty)| {
            mean(
                block_sum(image, k, tx, ty),
                block_len(image.size, k, tx, ty),
            )
        })
        .collect();
    ColorImage::new(size, pixels)
}

/// The number of pixels in texel (`tx`, `ty`)'s k x k block of a picture of `size` (fewer at
/// the right and bottom edges), at least 1.
fn block_len([w, h]: [usize; 2], k: usize, tx: usize, ty: usize) -> u32 {
    let cols = (tx * k + k).min(w).saturating_sub(tx * k);
    let rows = (ty * k + k).min(h).saturating_sub(ty * k);
    (cols * rows).max(1) as u32
}

/// The colour whose channels are `sum` over `n` pixels, rounded.
fn mean(sum: [u32; 4], n: u32) -> Color32 {
    let [r, g, b, a] = sum.map(|s| ((s + n / 2) / n) as u8);
    Color32::from_rgba_premultiplied(r, g, b, a)
}

/// `image` shrunk by a whole factor (each texel the mean of its block) if a side exceeds
/// what the graphics backend takes (`max_side`), so an oversized map still draws.
pub(super) fn fit_texture(image: ColorImage, max_side: usize) -> ColorImage {
    let [w, h] = image.size;
    let k = w.max(h).div_ceil(max_side.max(1));
    if k <= 1 {
        return image;
    }
    shrink(&image, k)
}

/// The channel sums (r, g, b, a) of texel (`tx`, `ty`)'s k x k block of `image` (smaller at
/// the right and bottom edges; empty past them).
fn block_sum(image: &ColorImage, k: usize, tx: usize, ty: usize) -> [u32; 4] {
    let [w, h] = image.size;
    let (x0, y0) = ((tx * k).min(w), (ty * k).min(h));
    let (x1, y1) = ((x0 + k).min(w), (y0 + k).min(h));
    let mut sum = [0u32; 4];
    for y in y0..y1 {
        for p in &image.pixels[y * w + x0..y * w + x1] {
            for (s, c) in sum.iter_mut().zip(p.to_array()) {
                *s += u32::from(c);
            }
        }
    }
    sum
}
