//! Shrunk copies of a large grid's picture, for squares smaller than a pixel: each texel the
//! mean colour of a block of squares, so a maze's walls and passages do not beat into bands.

use eframe::egui::{Color32, ColorImage, TextureHandle, TextureOptions};

use super::TILE;

/// The picture shrunk by `k` (a power of two, at most [`TILE`]): each texel is the mean
/// colour of a k x k block of squares. Drawn instead of the one-pixel-a-square texture when a
/// square is smaller than a pixel: sampling that texture keeps every k-th square only, and a
/// maze's walls and passages (alternate rows and columns) then beat into dark and light
/// patches (a 121 x 2047 maze at 0.13 pixels a square showed seven).
#[derive(Clone)]
pub(super) struct Level {
    pub(super) k: usize,
    pub(super) image: ColorImage,
    pub(super) handle: TextureHandle,
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
    let mut out = ColorImage::new(size, vec![Color32::TRANSPARENT; size[0] * size[1]]);
    shrink_into(image, k, &mut out, [0, 0], size);
    out
}

/// Writes the texels `origin` to `origin + size` (column, row) of `out`, `image` shrunk by
/// `k`: each the mean colour of its k x k block of `image`'s pixels. Texels outside `out`
/// are skipped.
pub(super) fn shrink_into(
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
pub(super) fn fit_texture(image: ColorImage, max_side: usize) -> ColorImage {
    let [w, h] = image.size;
    let k = w.max(h).div_ceil(max_side.max(1));
    if k <= 1 {
        return image;
    }
    shrink(&image, k)
}
