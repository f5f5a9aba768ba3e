//! The engine's rules of issue 57 (beside `architecture.rs`, which holds the layers and the
//! 600-line cap of every source file): one definition of the frontier's order, and one Jump
//! Point Search scanner.

use std::path::{Path, PathBuf};

/// The Rust files under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The file's path under `src/`, with `/` between its parts.
fn relative(file: &Path) -> String {
    let path = file.strip_prefix(src()).expect("a file under src");
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The tie policies as an order are read in `search/order.rs` only (`limits.rs` defines
/// them, with their names); every open list reads the order from there, and none defines an
/// order of its own (an `Ord` of its entries).
fn order_rule_breaks(file: &str, text: &str) -> Vec<String> {
    let mut breaks = Vec::new();
    if !matches!(file, "search/order.rs" | "search/limits.rs") {
        for variant in ["HighG", "LowG", "Fifo", "Lifo"] {
            if text.contains(&format!("TieBreak::{variant}")) {
                breaks.push(format!("{file} reads TieBreak::{variant}"));
            }
        }
    }
    let keeps_an_open_list = ["TieKeys", "BucketQueue", "order::", "heap_push"]
        .iter()
        .any(|w| text.contains(w));
    if file != "search/order.rs" && keeps_an_open_list {
        for own in ["impl Ord for", "impl PartialOrd for", "total_cmp"] {
            if text.contains(own) {
                breaks.push(format!("{file} keeps an open list and orders by `{own}`"));
            }
        }
    }
    breaks
}

#[test]
fn the_order_check_sees_policies_and_orders() {
    assert!(order_rule_breaks("runs/x.rs", "TieBreak::LowG => a.cmp(b)").len() == 1);
    let own = "use crate::search::order::Key;\nimpl Ord for E {}";
    assert_eq!(order_rule_breaks("search/x.rs", own).len(), 1);
    assert!(order_rule_breaks("search/order.rs", "TieBreak::Fifo impl Ord for").is_empty());
    assert!(order_rule_breaks("search/x.rs", "TieBreak::ALL; x.total_cmp(y)").is_empty());
}

#[test]
fn the_frontier_order_has_one_definition() {
    let mut breaks = Vec::new();
    let mut readers = Vec::new();
    for file in rust_files(&src()) {
        let name = relative(&file);
        let text = std::fs::read_to_string(&file).expect("a source file");
        breaks.extend(order_rule_breaks(&name, &text));
        if name != "search/order.rs" && (text.contains("order::") || text.contains("TieKeys")) {
            readers.push(name);
        }
    }
    assert!(breaks.is_empty(), "{breaks:#?}");
    // The four open lists of issue 57 (the heaps of best-first and octile, the bucket
    // queue, the Learn panel's re-derivation) and the bidirectional A*'s heaps.
    for open_list in [
        "search/best_first.rs",
        "search/bidirectional_astar.rs",
        "search/bucket_queue.rs",
        "search/octile.rs",
        "search/octile/heap.rs",
        "runs/open_list.rs",
    ] {
        assert!(
            readers.iter().any(|r| r == open_list),
            "{open_list} does not read search::order: {readers:?}"
        );
    }
}

/// Where `text` (the code of `src/<file>`) scans for jump points outside the one scanner's
/// module (`search/octile.rs` and `search/octile/`: the pruning rule, the scans on bit rows in
/// `jump.rs`, JPS+'s distances by the same rule in `jps_plus.rs`): it names the pruning rule,
/// or, speaking of jump points, defines a scan of its own (`fn jump(`, the name the
/// per-square scan had, `fn scan_row(`).
fn jump_scanner_breaks(file: &str, text: &str) -> Vec<String> {
    if file == "search/octile.rs" || file.starts_with("search/octile/") {
        return Vec::new();
    }
    let mut breaks = Vec::new();
    if text.contains("pruned_directions") {
        breaks.push(format!("{file} names the pruning rule"));
    }
    if text.to_lowercase().contains("jump point") {
        for sign in ["fn jump(", "fn scan_row("] {
            if text.contains(sign) {
                breaks.push(format!("{file} scans for jump points: `{sign}`"));
            }
        }
    }
    breaks
}

#[test]
fn the_jump_scanner_check_sees_scans() {
    let own_scan = "//! Jump Point Search\nfn jump(maze: &Maze)";
    assert_eq!(
        jump_scanner_breaks("puzzles/maze/jump.rs", own_scan).len(),
        1
    );
    assert!(jump_scanner_breaks("puzzles/klondike/mod.rs", "pub fn jump(&self)").is_empty());
    let pruning = "crate::search::octile::pruned_directions(arrived, free, push)";
    assert_eq!(jump_scanner_breaks("puzzles/x.rs", pruning).len(), 1);
    assert!(jump_scanner_breaks("search/octile/jump.rs", "fn jump(").is_empty());
    assert!(jump_scanner_breaks("puzzles/maze/jump.rs", "map.jump_points(here)").is_empty());
}

/// One JPS scanner (issue 57): the maze's Jump Point Search (`solve -a jps`, the app) and the
/// Moving AI scenarios' scan the same bit rows with the same code; the maze builds its scan
/// once per run from it (`OctileMap::jump_points`), and JPS+'s distances are computed by
/// that scanner's rules in `search/octile/jps_plus.rs`.
#[test]
fn jump_point_search_has_one_scanner() {
    let mut breaks = Vec::new();
    for file in rust_files(&src()) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        breaks.extend(jump_scanner_breaks(&relative(&file), &text));
    }
    assert!(breaks.is_empty(), "{breaks:#?}");
    let maze = std::fs::read_to_string(src().join("puzzles/maze/jump.rs")).expect("the maze's JPS");
    assert!(
        maze.contains(".jump_points(") && maze.contains(".jump_plus_lines("),
        "the maze's JPS and JPS+ read search::octile's scanner and distances"
    );
}
