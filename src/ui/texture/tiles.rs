//! The tiles of a grid texture: which 64-pixel tiles an update touched, and the upload of one
//! tile ([`TextureHandle::set_partial`]).

use eframe::egui::{Color32, ColorImage, TextureHandle, TextureOptions};

use super::shrink::Change;

/// Side of the square tiles uploaded separately when part of the picture changes.
pub(super) const TILE: usize = 64;

/// The tiles of a texture `cols` pixels wide touched by an update, row-major.
pub(super) struct DirtyTiles {
    pub(super) cols: usize,
    pub(super) tiles_across: usize,
    pub(super) tiles: Vec<bool>,
    /// The pixels changed with their colours before and after, when a shrunk level follows
    /// them (see [`super::shrink::Level::update`]).
    pub(super) changes: Vec<Change>,
    /// Pixels painted over (overlays), whose texels are made again.
    pub(super) repainted: Vec<u32>,
    /// Whether to list the pixels changed.
    pub(super) list_pixels: bool,
}

impl DirtyTiles {
    pub(super) fn new(cols: usize, list_pixels: bool) -> Self {
        Self {
            cols,
            tiles_across: cols.div_ceil(TILE),
            tiles: Vec::new(),
            changes: Vec::new(),
            repainted: Vec::new(),
            list_pixels,
        }
    }

    /// Marks the tile of pixel `i` (row-major).
    pub(super) fn mark(&mut self, i: usize) {
        let tile = (i / self.cols / TILE) * self.tiles_across + (i % self.cols) / TILE;
        if self.tiles.len() <= tile {
            self.tiles.resize(tile + 1, false);
        }
        self.tiles[tile] = true;
    }

    /// Marks pixel `i` changed from `before` to `after`.
    pub(super) fn change(&mut self, i: usize, before: Color32, after: Color32) {
        self.mark(i);
        if self.list_pixels && before != after {
            self.changes.push((i as u32, before, after));
        }
    }
}

/// Uploads tile `tile` (row-major, `tiles_across` a row) of `image` into `handle`.
pub(super) fn upload_tile(
    handle: &mut TextureHandle,
    image: &ColorImage,
    tiles_across: usize,
    tile: usize,
) {
    let [w, h] = image.size;
    let (x0, y0) = ((tile % tiles_across) * TILE, (tile / tiles_across) * TILE);
    if x0 >= w || y0 >= h {
        return;
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
}
