//! The `beamtris` command line: parses arguments and hands them to the library.

use beamtris::commands;
use clap::{Parser, Subcommand};

/// beamtris: find the best move sequences for fixed-seed Tetris games.
#[derive(Parser, Debug)]
#[command(name = "beamtris", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Replay a record and print its score, pieces and end reason as JSON.
    Verify(commands::verify::Args),
    /// Solve the 4-wide combo problem, or query its best placement.
    Fourwide(commands::fourwide::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Verify(args) => commands::verify::run(args),
        Command::Fourwide(args) => commands::fourwide::run(args),
    };
    if let Err(e) = result {
        eprintln!("beamtris: {e}");
        std::process::exit(2);
    }
}
