//! The `puzzlelab` binary: the GUI, or a headless subcommand. See `puzzlelab --help`.

fn main() -> std::process::ExitCode {
    puzzlelab::cli::main()
}
