//! The texture against plain references: full rebuilds, and shrinking done the plain way.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use std::borrow::Cow;

use eframe::egui::Vec2;

use super::*;
use crate::app::SearchMarks;
use crate::puzzles::Place;
use crate::puzzles::Report;
use crate::ui::palette::SOLUTION;

fn scene<'a>(picture: &'a Picture, marks: &'a SearchMarks, revision: u64) -> Scene<'a> {
    Scene {
        picture: Cow::Borrowed(picture),
        marks,
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
        deadline: std::time::Instant::now() + std::time::Duration::from_millis(3),
    }
}

fn in_a_minute() -> std::time::Instant {
    std::time::Instant::now() + std::time::Duration::from_secs(60)
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
/// new run's marks after it clears every mark.
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
    let mut marks = SearchMarks::for_puzzle(maze.as_ref());
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
        while !track.seek(&mut marks, target, Some(std::time::Instant::now())) {
            texture.update(&ctx, &scene(&picture, &marks, 0));
            let (id, changes) = texture.drawn();
            marks.note_drawn(id, changes);
        }
        let s = scene(&picture, &marks, 0);
        texture.update(&ctx, &s);
        while texture.is_behind() {
            texture.update(&ctx, &s);
        }
        let shown = texture.pixels().expect("one pixel a square");
        assert!(shown.pixels == full_rebuild(&s).pixels, "round {round}");
        let (id, changes) = texture.drawn();
        marks.note_drawn(id, changes);
        longest = longest.max(marks.changed.len());
    }
    assert!(
        longest < 3 * 200 * 200,
        "drawn changes are forgotten: {longest} kept"
    );
    assert!(
        marks.changes_forgotten > 4 * 200 * 200,
        "{}",
        marks.changes_forgotten
    );
    // A picture made afresh of the marks whose first changes are forgotten.
    let mut other = GridTexture::default();
    let s = scene(&picture, &marks, 0);
    other.update(&ctx, &s);
    let shown = other.pixels().expect("one pixel a square");
    assert!(shown.pixels == full_rebuild(&s).pixels, "made afresh");
    // Another run: every replayed mark comes off both.
    let fresh = SearchMarks::for_puzzle(maze.as_ref());
    let s = scene(&picture, &fresh, 0);
    for texture in [&mut texture, &mut other] {
        texture.update(&ctx, &s);
        while texture.is_behind() {
            texture.update(&ctx, &s);
        }
        let shown = texture.pixels().expect("one pixel a square");
        assert!(shown.pixels == full_rebuild(&s).pixels, "a new marks");
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
    let mut marks = SearchMarks::for_puzzle(maze.as_ref());
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
            marks = SearchMarks::for_puzzle(maze.as_ref());
        }
        if round % 15 == 7 {
            // A new run on the same picture: the old marks come off incrementally.
            marks = SearchMarks::for_puzzle(maze.as_ref());
        }
        // Marks as a replay makes them: places put on the frontier, then some closed.
        use crate::runs::recording::Change;
        for _ in 0..rng.random_range(0..many) {
            marks.replay(place(&mut rng), Change::Open);
        }
        for _ in 0..rng.random_range(0..400) {
            marks.replay(place(&mut rng), Change::Close);
        }
        marks.current = Some(place(&mut rng));
        if rng.random_bool(0.5) {
            marks.path = (0..rng.random_range(0..500))
                .map(|_| place(&mut rng))
                .collect();
        }
        marks.revision += 1;
        let picture = maze.picture();
        let s = scene(&picture, &marks, revision);
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
        lurd: None,
        path,
        boards: Vec::new(),
        motions: Vec::new(),
        stats: crate::search::Stats::default(),
        iterations: Vec::new(),
        per_f: Vec::new(),
        notes: Vec::new(),
        message: None,
        error: None,
    };
    let marks = SearchMarks::for_puzzle(maze.as_ref());
    let picture = maze.picture();
    for round in 0..40 {
        let mut s = scene(&picture, &marks, revision);
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
    let mut marks = SearchMarks::for_puzzle(maze.as_ref());
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
            marks = SearchMarks::for_puzzle(maze.as_ref());
        }
        use crate::runs::recording::Change;
        for _ in 0..rng.random_range(0..3000) {
            marks.replay(place(&mut rng), Change::Open);
        }
        for _ in 0..rng.random_range(0..1000) {
            marks.replay(place(&mut rng), Change::Close);
        }
        marks.current = Some(place(&mut rng));
        marks.revision += 1;
        let picture = maze.picture();
        let s = scene(&picture, &marks, revision);
        texture.update(&ctx, &s);
        while texture.is_behind() {
            texture.update(&ctx, &s);
        }
        let full = texture.pixels().expect("one pixel a square").clone();
        let one_a_square = texture.handle.as_ref().map(|h| h.id()).unwrap();
        assert_eq!(texture.texture_for(&ctx, 1.5, in_a_minute()), one_a_square);
        for pixels_per_square in [0.5, 0.13, 0.01] {
            // Made a band of rows a frame: with no time to spare, the one pixel a square is
            // drawn until the level is whole (75 rows of texels at k = 2 take several frames).
            let mut frames = 0;
            let id = loop {
                frames += 1;
                let id = texture.texture_for(&ctx, pixels_per_square, std::time::Instant::now());
                if id != one_a_square || frames > 1000 {
                    break id;
                }
            };
            if round == 0 && pixels_per_square == 0.5 {
                assert!(frames > 5, "made in {frames} frames");
            }
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
            // The whole shrink an oversized map gets (fit_texture) agrees as well.
            assert!(shrink::shrink(&full, k).pixels == reference_shrink(&full, k));
        }
        // Drawn one pixel a square again: every tile changed meanwhile is uploaded.
        if round % 3 == 0 {
            texture.texture_for(&ctx, 1.5, in_a_minute());
            assert!(texture.deferred.iter().all(|d| !d) && !texture.deferred_whole);
            assert!(texture.levels.is_empty() && !texture.level_shown);
        }
    }
}

/// Another run's marks clears many marks by copying the unmarked picture back whole: the
/// shrunk level drawn stays drawn (no upload of the whole one pixel a square, which took a
/// frame of 85 ms on 2048 x 2048) and shows the new run's picture from the first frame:
/// the unmarked picture's level is put back at once, never the last run's rows below a
/// seam (issue 56, item 12: they showed for 15 s under llvmpipe).
#[test]
fn a_level_made_again_after_another_run_stays_drawn() {
    let ctx = egui::Context::default();
    let mut rng = StdRng::seed_from_u64(8);
    let mut text = String::new();
    for r in 0..150 {
        for c in 0..333 {
            text.push(match (r, c) {
                (0, 0) => 'S',
                _ if rng.random_bool(0.3) => '#',
                _ => '.',
            });
        }
        text.push('\n');
    }
    let maze = crate::puzzles::parse(&text, Some("maze")).expect("a grid maze");
    let picture = maze.picture();
    let mut texture = GridTexture::default();
    // Made for marks with no marks, the picture is kept as the unmarked one.
    let blank = SearchMarks::for_puzzle(maze.as_ref());
    texture.update(&ctx, &scene(&picture, &blank, 0));
    let base = texture.base.as_ref().expect("the unmarked picture kept");
    assert!(base.pixels == unmarked_image(&scene(&picture, &blank, 0)).pixels);
    let mut marks = SearchMarks::for_puzzle(maze.as_ref());
    for _ in 0..8000 {
        let place = Place::from(Cell::new(
            rng.random_range(0..150),
            rng.random_range(0..333),
        ));
        marks.replay(place, crate::runs::recording::Change::Close);
    }
    marks.revision += 1;
    let s = scene(&picture, &marks, 0);
    texture.update(&ctx, &s);
    while texture.is_behind() {
        texture.update(&ctx, &s);
    }
    let one_a_square = texture.handle.as_ref().map(|h| h.id()).unwrap();
    let level_id = loop {
        let id = texture.texture_for(&ctx, 0.5, std::time::Instant::now());
        if id != one_a_square {
            break id;
        }
    };
    // The frames of the run: the unmarked picture's level is made beside it.
    for _ in 0..10 {
        texture.texture_for(&ctx, 0.5, in_a_minute());
    }
    // A new run: its marks have no marks, then some.
    let mut fresh = SearchMarks::for_puzzle(maze.as_ref());
    for frame in 0..3 {
        let s = scene(&picture, &fresh, 0);
        texture.update(&ctx, &s);
        if frame == 0 {
            assert!(
                texture.deferred_whole,
                "the whole picture changed, not uploaded"
            );
        }
        let id = texture.texture_for(&ctx, 0.5, std::time::Instant::now());
        assert_eq!(id, level_id, "frame {frame}: the level stays drawn");
        let full = texture.pixels().expect("one pixel a square").clone();
        assert!(full.pixels == full_rebuild(&s).pixels);
        let level = &texture.levels[0];
        assert!(level.built >= level.image.size[1]);
        assert!(
            level.image.pixels == reference_shrink(&full, 2),
            "frame {frame}: the level drawn is not the new run's picture"
        );
        for _ in 0..500 {
            let place = Place::from(Cell::new(
                rng.random_range(0..150),
                rng.random_range(0..333),
            ));
            fresh.replay(place, crate::runs::recording::Change::Close);
        }
        fresh.revision += 1;
    }
}

/// A jump to a finished run's end on a large picture sets the marks whole from the
/// recording's index: the first update draws the end's coarse picture at once (a texel a
/// block, each its block's top-left square's end mark), then the exact rows over it a band
/// at a time, each band what a plain replay to the end draws, until the whole picture is
/// and the coarse one is gone (issue 56, item 12: the end of a 2048 x 2048 run took 44 s).
#[test]
fn marks_set_whole_are_drawn_coarse_at_once_then_exactly() {
    let ctx = egui::Context::default();
    let mut rng = StdRng::seed_from_u64(12);
    let (rows, cols) = (300, 260);
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push(match (r, c) {
                (0, 0) => 'S',
                _ if rng.random_bool(0.3) => '#',
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
    let recording = std::sync::Arc::new(recording);
    let len = recording.expansions();
    assert!(len > rows * cols / 3, "{len} expansions");
    // The reference: a plain replay to the end (a track of a run not ended never jumps).
    let mut reference = SearchMarks::for_puzzle(maze.as_ref());
    let mut plain = crate::app::Track::new(recording.clone(), crate::search::Algorithm::Bfs);
    assert!(plain.seek(&mut reference, len, None));
    assert!(reference.whole.is_none(), "replayed, not set whole");
    let picture = maze.picture();
    // The end's picture, with the state being expanded the marks show (none while the rows
    // are set).
    let end_with = |current| {
        let mut marks = reference.clone();
        marks.current = current;
        full_rebuild(&scene(&picture, &marks, 0))
    };

    // The app's track: an early moment drawn, then the jump to the end.
    let mut track = crate::app::Track::new(recording.clone(), crate::search::Algorithm::Bfs);
    track.finish();
    let mut marks = SearchMarks::for_puzzle(maze.as_ref());
    assert!(track.seek(&mut marks, len / 20, None));
    let mut texture = GridTexture::default();
    let s = scene(&picture, &marks, 0);
    texture.update(&ctx, &s);
    while texture.is_behind() {
        texture.update(&ctx, &s);
    }
    assert!(!track.seek(&mut marks, len, Some(std::time::Instant::now())));
    let whole = marks.whole.clone().expect("set whole");
    assert!(
        whole.rows < rows,
        "a band at a time: {} rows set",
        whole.rows
    );
    let (brows, bcols) = whole.coarse_dims((rows, cols));
    for b in 0..brows * bcols {
        let cell = Cell::new((b / bcols) * whole.block, (b % bcols) * whole.block);
        assert_eq!(whole.coarse[b], reference.mark(cell), "block {b}");
    }
    let mut updates = 0;
    loop {
        let s = Scene {
            deadline: std::time::Instant::now(),
            ..scene(&picture, &marks, 0)
        };
        texture.update(&ctx, &s);
        updates += 1;
        let (id, painted) = texture.whole_drawn().expect("drawn whole");
        assert_eq!(id, marks.id);
        let shown = texture.pixels().expect("one pixel a square");
        let end = end_with(marks.current);
        assert!(
            shown.pixels[..painted * cols] == end.pixels[..painted * cols],
            "update {updates}: the {painted} rows painted are the end's"
        );
        if painted == rows {
            assert!(texture.coarse_end().is_none(), "the coarse picture goes");
            break;
        }
        let (_, done) = texture.coarse_end().expect("the coarse end picture drawn");
        assert!((done - painted as f32 / rows as f32).abs() < 1e-6);
        assert!(updates < 100, "the rows come");
        track.seek(&mut marks, len, Some(std::time::Instant::now()));
    }
    assert!(updates > 1, "exact in bands, not in one frame");
    assert!(track.seek(&mut marks, len, None));
    assert!(marks.whole.is_some() && !marks.is_setting_whole());
    assert_eq!(track.shown(), len);
    let s = scene(&picture, &marks, 0);
    texture.update(&ctx, &s);
    assert!(!texture.is_behind());
    let shown = texture.pixels().expect("one pixel a square");
    assert!(shown.pixels == full_rebuild(&scene(&picture, &reference, 0)).pixels);
    assert_eq!(
        (marks.closed_places, marks.frontier_places),
        (reference.closed_places, reference.frontier_places)
    );
    for r in 0..rows {
        for c in 0..cols {
            let cell = Cell::new(r, c);
            assert_eq!(marks.mark(cell), reference.mark(cell), "{cell:?}");
        }
    }
    // Going back from the end replays from the marks set whole.
    assert!(track.seek(&mut marks, len / 2, None));
    let mut back = SearchMarks::for_puzzle(maze.as_ref());
    let mut plain = crate::app::Track::new(recording.clone(), crate::search::Algorithm::Bfs);
    assert!(plain.seek(&mut back, len / 2, None));
    assert_eq!(
        (marks.closed_places, marks.frontier_places),
        (back.closed_places, back.frontier_places)
    );
}
