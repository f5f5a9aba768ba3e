//! Helpers shared by the integration tests.

use std::process::Command;

#[allow(dead_code)]
/// Runs the `puzzlelab` binary with `args`: its exit code, standard output and standard error.
pub fn puzzlelab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_puzzlelab"))
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
