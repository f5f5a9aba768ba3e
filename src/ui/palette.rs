//! The canvas's colours: the squares, the search's marks, the solution, the pieces, the
//! oracle's arrows and the heat maps. Every picture of a puzzle (the canvas, the race panes,
//! the texture of a large grid, the legend, the plots) takes its colours from here.
//!
//! The marks use the Okabe–Ito palette (Okabe and Ito, "Color Universal Design", 2008), which
//! stays distinct under the common colour-vision deficiencies.

use eframe::egui::Color32;

pub(crate) const FREE: Color32 = Color32::from_gray(238);

pub(crate) const BLOCKED: Color32 = Color32::from_gray(48);

pub(crate) const NUMBER: Color32 = Color32::from_rgb(250, 240, 214);

/// Okabe–Ito blue.
pub(crate) const START: Color32 = Color32::from_rgb(0, 114, 178);

/// Okabe–Ito orange.
pub(crate) const GOAL: Color32 = Color32::from_rgb(230, 159, 0);

/// Okabe–Ito sky blue.
pub(crate) const CLOSED: Color32 = Color32::from_rgb(86, 180, 233);

/// Okabe–Ito bluish green: darker than free squares and the closed set, so it stands out.
pub(crate) const FRONTIER: Color32 = Color32::from_rgb(0, 158, 115);

/// Okabe–Ito yellow.
pub(crate) const CURRENT: Color32 = Color32::from_rgb(240, 228, 66);

/// Okabe–Ito reddish purple.
pub(crate) const DFS_PATH: Color32 = Color32::from_rgb(204, 121, 167);

/// Okabe–Ito vermillion.
pub(crate) const SOLUTION: Color32 = Color32::from_rgb(213, 94, 0);

/// The pinned state's branch: a dark purple, apart from the depth-first path and the
/// solution.
pub(crate) const BRANCH: Color32 = Color32::from_rgb(90, 30, 130);

pub(crate) const SELECTED: Color32 = Color32::from_rgb(0, 114, 178);

/// The piece to bring to the goal, and the car to get out: vermillion.
pub(crate) const TARGET: Color32 = Color32::from_rgb(213, 94, 0);

/// A pale orange, apart from every mark.
pub(crate) const CLUSTER: Color32 = Color32::from_rgb(247, 210, 150);

/// A sliding tile on its own square (sky blue), and one elsewhere (sand).
pub(crate) const TILE_HOME: Color32 = Color32::from_rgb(86, 180, 233);

pub(crate) const TILE_AWAY: Color32 = Color32::from_rgb(235, 205, 150);

/// An empty square of a board of pieces in the dark theme: a dim tray, so the pieces are
/// the brightest things on it.
pub(crate) const TRAY: Color32 = Color32::from_gray(72);

/// An empty square of a board of pieces in the light theme: a pale tray, far from the
/// board's walls ([`BLOCKED`]), which the dark tray is too near to tell apart on a light
/// window.
pub(crate) const TRAY_LIGHT: Color32 = Color32::from_gray(212);

/// `color` as drawn in the theme (`dark` or light): the colours that follow the theme (an
/// empty square of a board) change, the others stay.
pub(crate) fn themed(color: Color32, dark: bool) -> Color32 {
    if color == TRAY && !dark {
        TRAY_LIGHT
    } else {
        color
    }
}

/// The oracle's arrows: a move that brings the goal closer (navy blue), one that leaves
/// the distance (grey) and one that takes it farther (black); each outlined in white. None
/// is a colour of the search's marks (frontier green, solution vermillion) or a piece's.
pub(crate) const MOVE_BETTER: Color32 = Color32::from_rgb(0, 45, 140);

pub(crate) const MOVE_NEUTRAL: Color32 = Color32::from_gray(150);

pub(crate) const MOVE_WORSE: Color32 = Color32::from_gray(16);

/// The distance map's colour at `t` (0 the start, 1 the farthest): cividis reversed (yellow
/// near, dark blue far, no green to mistake for the frontier), a little transparent so the
/// squares' numbers show through.
pub(crate) fn heat_map_color(t: f32) -> Color32 {
    crate::app::space_layout::cividis(1.0 - t).gamma_multiply(0.7)
}

/// The heuristic tint's colour for h* - h at `t` of the largest (0 exact, 1 the farthest
/// below): from a pale blue to a dark blue, a little transparent; overestimates are drawn in
/// [`SOLUTION`] vermillion apart.
pub(crate) fn gap_color(t: f32) -> Color32 {
    Color32::from_rgb(225, 236, 246)
        .lerp_to_gamma(Color32::from_rgb(8, 48, 107), t.clamp(0.0, 1.0))
        .gamma_multiply(0.75)
}

/// The colour of a class of interchangeable pieces.
pub(crate) fn piece_color(class: u8) -> Color32 {
    const PALETTE: [Color32; 6] = [
        Color32::from_rgb(90, 140, 200),
        Color32::from_rgb(230, 170, 60),
        Color32::from_rgb(110, 180, 120),
        Color32::from_rgb(170, 120, 190),
        Color32::from_rgb(90, 180, 190),
        Color32::from_rgb(200, 130, 110),
    ];
    PALETTE[usize::from(class) % PALETTE.len()]
}

/// The shade of a square with terrain cost `cost` (2 to 9): darker is dearer.
pub(crate) fn terrain_color(cost: u8) -> Color32 {
    let t = f32::from(cost.clamp(2, 9) - 2) / 7.0;
    Color32::from_rgb(222, 206, 170).lerp_to_gamma(Color32::from_rgb(120, 84, 40), t)
}

/// The colour of heat level `level` (1 least to 255 most): the cividis colour map (see
/// [`crate::app::space_layout::cividis`]), dark blue through grey to yellow, which reads in
/// order in grey and under colour-vision deficiencies and has no green to mistake for the
/// frontier.
pub(crate) fn heat_color(level: u8) -> Color32 {
    crate::app::space_layout::cividis(f32::from(level.saturating_sub(1)) / 254.0)
}

#[cfg(test)]
mod tests {
    use super::piece_color;
    use crate::puzzles::script::colour_class;

    /// A puzzle script's named colours are drawn in a colour of that name: the channel that
    /// names it is the largest (blue, red) or the one it lacks is the smallest.
    #[test]
    fn a_scripts_named_colours_are_drawn_in_their_colour() {
        let rgb = |name: &str| {
            let c = piece_color(colour_class(name));
            (i32::from(c.r()), i32::from(c.g()), i32::from(c.b()))
        };
        let (r, g, b) = rgb("blue");
        assert!(b > r && b > g);
        let (r, g, b) = rgb("red");
        assert!(r > g && r > b);
        let (r, g, b) = rgb("green");
        assert!(g > r && g > b);
        let (r, g, b) = rgb("orange");
        assert!(r > g && g > b);
        let (r, g, b) = rgb("purple");
        assert!(g < r && g < b);
        let (r, g, b) = rgb("cyan");
        assert!(r < g && r < b);
        assert_eq!(colour_class("Blue"), colour_class("blue"));
        assert_eq!(colour_class("ochre"), colour_class("ochre"));
    }
}
