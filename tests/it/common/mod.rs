//! Helpers shared by the integration tests.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use puzzlelab::puzzles::sliding::pattern_db;

/// This test process's pattern-database cache: a temporary folder, removed when the process
/// ends, made this process's cache folder (`pattern_db::set_cache_dir`) and given to every
/// child `puzzlelab` as `PUZZLELAB_CACHE_DIR`. Tests never read or write the user's cache.
pub fn temp_cache() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("puzzlelab-test-cache")
            .tempdir()
            .expect("a temporary folder");
        pattern_db::set_cache_dir(dir.path().to_path_buf());
        dir
    });
    dir.path()
}

/// Runs the `puzzlelab` binary with `args` (and this process's [`temp_cache`]): its exit
/// code, standard output and standard error.
pub fn puzzlelab(args: &[&str]) -> (i32, String, String) {
    puzzlelab_with_cache(temp_cache(), args)
}

/// [`puzzlelab`] with the pattern-database cache `cache` instead of the test process's shared
/// one.
pub fn puzzlelab_with_cache(cache: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
        .env(pattern_db::CACHE_DIR_VAR, cache)
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[allow(dead_code)]
pub mod gui;

/// Every arrangement of a small sliding board (`rows x cols`, goal: tiles in order, the blank
/// last) with its exact distance to the goal, by a breadth-first search written here (the
/// reference the engine's figures are checked against).
pub fn tile_distances(rows: usize, cols: usize) -> HashMap<Vec<u8>, u32> {
    let n = rows * cols;
    let start: Vec<u8> = (1..n as u8).chain([0]).collect();
    let mut dist = HashMap::from([(start.clone(), 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        let b = s.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (b / cols, b % cols);
        let near = [
            (r > 0).then(|| b - cols),
            (r + 1 < rows).then(|| b + cols),
            (c > 0).then(|| b - 1),
            (c + 1 < cols).then(|| b + 1),
        ];
        for q in near.into_iter().flatten() {
            let mut next = s.clone();
            next.swap(b, q);
            if !dist.contains_key(&next) {
                dist.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    dist
}

/// pyperplan's IPC domains in `../shared/pddl/benchmarks`: each folder with its problem files
/// (the `.pddl` files whose names do not say `domain`), folders and files sorted; `None`, with
/// a line on standard error, when the folder is not there.
pub fn ipc_domains() -> Option<Vec<(PathBuf, Vec<PathBuf>)>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pddl/benchmarks");
    if !root.is_dir() {
        eprintln!("{} is not there: skipped", root.display());
        return None;
    }
    let entries = |dir: &Path| -> Vec<PathBuf> {
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        paths.sort();
        paths
    };
    let domains = entries(&root).into_iter().filter(|p| p.is_dir());
    let with_problems = domains.map(|dir| {
        let problems = entries(&dir)
            .into_iter()
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy().into_owned();
                n.ends_with(".pddl") && !n.contains("domain")
            })
            .collect();
        (dir, problems)
    });
    Some(with_problems.collect())
}

/// The first problem of each of pyperplan's IPC domains ([`ipc_domains`]), loaded: its path
/// and the puzzle. `None` when `../shared/pddl` is not there.
pub fn first_ipc_tasks() -> Option<Vec<(PathBuf, Box<dyn puzzlelab::puzzles::Puzzle>)>> {
    let domains = ipc_domains()?;
    let firsts = domains.into_iter().filter_map(|(_, problems)| {
        let first = problems.into_iter().next()?;
        let puzzle = puzzlelab::puzzles::load_file(&first, None)
            .unwrap_or_else(|e| panic!("{}: {e}", first.display()));
        Some((first, puzzle))
    });
    Some(firsts.collect())
}
