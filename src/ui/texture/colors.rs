//! The colours of a grid texture's squares: a square's kind, its search mark under the
//! marks' shading, the percolating cluster, the overlays (depth-first path, current state),
//! and the same colours for a GIF of the search.

use eframe::egui::{Color32, ColorImage};

use super::super::palette::{
    BLOCKED, BRANCH, CLOSED, CLUSTER, CURRENT, DFS_PATH, FREE, FRONTIER, GOAL, SOLUTION, START,
    heat_color, terrain_color,
};
use super::super::scene::Scene;
use crate::app::{Mark, SearchMarks, ShadeKind};
use crate::puzzles::{Cell, Picture, Place, Square};

/// The colour of square `i` (row-major) of a plain grid: its kind, its search mark, the
/// percolating cluster.
pub(super) fn square_pixel(scene: &Scene, i: usize) -> Color32 {
    let picture: &Picture = &scene.picture;
    let mark = scene
        .marks
        .mark(Cell::new(i / picture.cols, i % picture.cols));
    let marked = shaded_mark_color(scene.marks, i, mark);
    square_color(picture, scene.cluster, i, marked)
}

/// The colour of the mark `mark` on square `i` (row-major) of `marks`' picture, under the
/// marks' shading: a heat map colours the closed set by level, a branch fades every mark off
/// it.
pub(in crate::ui) fn shaded_mark_color(
    marks: &SearchMarks,
    i: usize,
    mark: Mark,
) -> Option<Color32> {
    let color = mark_color(mark)?;
    let Some(shade) = &marks.shade else {
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
pub(super) fn square_color(
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
pub(super) fn unmarked_image(scene: &Scene) -> ColorImage {
    let picture: &Picture = &scene.picture;
    let pixels = (0..picture.squares.len())
        .map(|i| square_color(picture, scene.cluster, i, None))
        .collect();
    ColorImage::new([picture.cols, picture.rows], pixels)
}

/// The pixels of a grid, each square's colour (see [`square_pixel`]), without overlays.
pub(super) fn grid_image(scene: &Scene) -> ColorImage {
    let picture: &Picture = &scene.picture;
    let pixels = (0..picture.squares.len())
        .map(|i| square_pixel(scene, i))
        .collect();
    ColorImage::new([picture.cols, picture.rows], pixels)
}

/// Paints the search's overlays onto `image`: the depth-first path and the state being
/// expanded. Returns the pixels painted, to be restored before the next overlay.
pub(super) fn draw_overlays(scene: &Scene, image: &mut ColorImage) -> Vec<usize> {
    let picture: &Picture = &scene.picture;
    let marks = scene.marks;
    let mut painted = Vec::new();
    let mut put = |place: &Place, color: Color32| {
        let i = place.cell.row * picture.cols + place.cell.col;
        if let Some(p) = image.pixels.get_mut(i) {
            *p = color;
            painted.push(i);
        }
    };
    for place in &marks.branch {
        put(place, BRANCH);
    }
    for place in &marks.path {
        put(place, DFS_PATH);
    }
    if let Some(current) = &marks.current {
        put(current, CURRENT);
    }
    painted
}

/// The colour of a search mark, or none for an unmarked square.
fn mark_color(mark: Mark) -> Option<Color32> {
    match mark {
        Mark::Closed => Some(CLOSED),
        Mark::Frontier => Some(FRONTIER),
        Mark::None => None,
    }
}
