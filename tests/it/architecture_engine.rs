//! The engine's rules of issue 57 (beside `architecture.rs`, which holds the layers and the
//! 600-line cap of every source file): one definition of the frontier's order.

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
