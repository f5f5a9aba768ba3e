//! Exports of what the window shows: the canvas as a PNG picture.

use std::path::Path;

use eframe::egui::{ColorImage, Rect};

/// The part of a window screenshot `image` inside `rect` (in points, `pixels_per_point`
/// pixels each), clamped to the image.
pub fn crop(image: &ColorImage, rect: Rect, pixels_per_point: f32) -> ColorImage {
    let [w, h] = image.size;
    let bounds = Rect::from_min_size(
        eframe::egui::Pos2::ZERO,
        eframe::egui::vec2(w as f32, h as f32) / pixels_per_point,
    );
    image.region(&rect.intersect(bounds), Some(pixels_per_point))
}

/// Writes `image` as an 8-bit RGBA PNG file at `path`, atomically (a temporary file, then a
/// rename).
///
/// # Errors
/// Any I/O error, or the PNG encoder's error as an I/O error.
pub fn write_png(image: &ColorImage, path: &Path) -> std::io::Result<()> {
    let [w, h] = image.size;
    crate::puzzles::write_atomically_with(path, |out| {
        let mut encoder = png::Encoder::new(out, w as u32, h as u32);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
        // Screenshots are opaque, where premultiplied and straight alpha agree.
        writer
            .write_image_data(image.as_raw())
            .map_err(std::io::Error::other)?;
        writer.finish().map_err(std::io::Error::other)
    })
}
