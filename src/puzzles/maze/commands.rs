//! What the maze lends the command line through the registry: its subcommands
//! ([`COMMANDS`]: `scenario`, in `scenario.rs`, and `percolation`) and its generator of
//! `generate maze` ([`GENERATOR`]).

use std::path::Path;

use super::generate::{self, Generator};
use super::percolation::{self, Experiment, run_experiment};
use super::{Connectivity, Maze};
use crate::puzzles::batch::{
    self, Command, Console, EXIT_BAD_INPUT, EXIT_SOLVED, GenerateArgs, emit_to, ranged,
};
use crate::search::CancelToken;

mod scenario;

/// The maze's subcommands, `scenario` and `percolation`.
pub static COMMANDS: [Command; 2] = [
    Command {
        name: "scenario",
        follows: "bench",
        about: "Run every problem of a Moving AI scenario file (`.scen`) on its map with \
                8-connected moves, diagonal cost sqrt(2) and no corner cutting, and check each \
                computed length against the stated optimal one. Exit code 0 when all match, 1 \
                otherwise",
        arguments: <scenario::ScenarioArgs as clap::Args>::augment_args,
        run: |matches, console| batch::run_parsed(matches, console, scenario::scenario),
        shards: Some(scenario::SHARDS),
    },
    Command {
        name: "percolation",
        follows: "generate",
        about: "The percolation experiment: for open-square probabilities from 0 to 1, the \
                fraction of random square grids that percolate from top to bottom",
        arguments: <PercolationArgs as clap::Args>::augment_args,
        run: |matches, console| batch::run_parsed(matches, console, percolation),
        shards: None,
    },
];

/// `generate maze`: a maze by one of the generators (`-a`), braided; `generate`'s default.
pub static GENERATOR: batch::Generator = batch::Generator {
    help: "a maze by one of the generators (-a)",
    is_default: true,
    arguments: <MazeOptions as clap::Args>::augment_args,
    run: |matches, console| batch::run_generator(matches, console, generate_maze),
};

/// The options of `generate maze`, its own.
#[derive(Debug, clap::Args)]
struct MazeOptions {
    /// The maze generator: binary-tree, sidewinder, aldous-broder, wilson, hunt-and-kill,
    /// recursive-backtracker, kruskal, prim, growing-tree, eller or recursive-division.
    #[arg(long, short, default_value = "recursive-backtracker", value_name = "G")]
    algorithm: String,
    /// Rows of cells, 1 to 1023 (the maze has 2 * rows + 1 rows of squares).
    #[arg(long, default_value_t = 10, value_parser = ranged(1, generate::MAX_CELLS))]
    rows: usize,
    /// Columns of cells, 1 to 1023 (the maze has 2 * cols + 1 columns of squares).
    #[arg(long, default_value_t = 10, value_parser = ranged(1, generate::MAX_CELLS))]
    cols: usize,
    /// The fraction of dead ends to remove (0 to 1): 0 keeps the maze perfect.
    #[arg(long, default_value_t = 0.0)]
    braid: f64,
}

/// `generate maze`: a maze by one of the generators, braided; its text printed.
fn generate_maze(args: &MazeOptions, shared: &GenerateArgs, console: &mut dyn Console) -> u8 {
    let Some(generator) = Generator::from_name(&args.algorithm) else {
        let known: Vec<&str> = Generator::ALL.iter().map(|g| g.name()).collect();
        console.say(&format!(
            "unknown generator `{}` (known: {})",
            args.algorithm,
            known.join(", ")
        ));
        return EXIT_BAD_INPUT;
    };
    if !(0.0..=1.0).contains(&args.braid) {
        console.say("--braid must be from 0 to 1");
        return EXIT_BAD_INPUT;
    }
    let generated = generate::generate(generator, args.rows, args.cols, shared.seed, args.braid);
    let mut maze = Maze::new(3, 3);
    maze.apply_generated(&generated);
    emit_to!(console, &crate::puzzles::Puzzle::to_text(&maze));
    EXIT_SOLVED
}

/// The arguments of `percolation`.
#[derive(Debug, clap::Args)]
struct PercolationArgs {
    /// Side of the square grids, 2 to 512.
    #[arg(long, default_value_t = 48,
          value_parser = ranged(percolation::MIN_EXPERIMENT_SIDE, percolation::MAX_EXPERIMENT_SIDE))]
    side: usize,
    /// Random grids per probability, 1 to 100000.
    #[arg(long, default_value_t = 60, value_parser = ranged(1, percolation::MAX_TRIALS))]
    trials: usize,
    /// Probabilities 0, 1/steps, ..., 1; steps from 1 to 10000.
    #[arg(long, default_value_t = 40, value_parser = ranged(1, percolation::MAX_STEPS))]
    steps: usize,
    /// Moves: 4 or 8.
    #[arg(long, default_value_t = 4)]
    moves: u8,
    /// The seed of the random grids.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `percolation`: for each probability, the fraction of the random grids that percolate,
/// as text (`open  percolating` rows) or one JSON object.
fn percolation(args: &PercolationArgs, console: &mut dyn Console) -> u8 {
    let connectivity = match args.moves {
        4 => Connectivity::Four,
        8 => Connectivity::Eight,
        m => {
            console.say(&format!("--moves must be 4 or 8, not {m}"));
            return EXIT_BAD_INPUT;
        }
    };
    let experiment = Experiment {
        side: args.side,
        trials: args.trials,
        steps: args.steps,
        connectivity,
        seed: args.seed,
    };
    let curve = run_experiment(&experiment, &CancelToken::new(), |_| {});
    if args.json {
        let v = serde_json::json!({
            "side": args.side,
            "trials": args.trials,
            "moves": args.moves,
            "curve": curve,
        });
        emit_to!(console, &format!("{v:#}\n"));
    } else {
        let mut text = String::from("open  percolating\n");
        for p in &curve {
            text += &format!("{:.3}  {:.3}\n", p.open, p.fraction);
        }
        emit_to!(console, &text);
    }
    EXIT_SOLVED
}

/// Reads a text file for `scenario`, or reports why not (the error names the file).
fn read(path: &Path, console: &mut dyn Console) -> Result<String, u8> {
    crate::puzzles::read_text_file(path).map_err(|e| {
        console.say(&e.to_string());
        EXIT_BAD_INPUT
    })
}
