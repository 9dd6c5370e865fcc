//! The `beamtris` command line: parses arguments and hands them to the library.

use beamtris::commands;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// beamtris: find the best move sequences for fixed-seed Tetris games.
#[derive(Parser, Debug)]
#[command(name = "beamtris", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Search for a high-scoring record by beam search; write it and its verified score.
    Solve(commands::solve::Args),
    /// Improve a Tencent record by re-searching its segments with a wider beam.
    Polish(commands::polish::Args),
    /// Replay a record and print its score, pieces and end reason as JSON.
    Verify(commands::verify::Args),
    /// Show a replay: the board as text, a terminal animation, fumen pages or an HTML page.
    Show(commands::show::Args),
    /// Play a game move by move: a one-piece player, online guideline play that sees only the previews, or a line protocol.
    #[command(mut_arg("seed", |a| a.help(
        "The game definition, a seed file (required unless --tetrio-seed, --queue or --board \
         gives the game, or --protocol plays one; with those, TETR.IO's rules as played today: \
         SRS+, attack as TETR.IO counts it, 1 000 pieces; `seeds/tetrio-versus.json`)"
    )))]
    Play(commands::play::Args),
    /// List the game families: what each supports, the game flags it takes, its presets.
    Families(commands::families::Args),
    /// Print the evaluation features of a board file as JSON.
    Features(commands::features::Args),
    /// Solve the 4-wide combo problem, or query its best placement.
    Fourwide(commands::fourwide::Args),
    /// Tune evaluator weights by the cross-entropy method over in-process beam searches.
    Tune(commands::tune::Args),
    /// Summarise a folder of solve results (a beam sweep, a weight comparison or the score-time curve) with plots.
    Report(commands::report::Args),
    /// Measure the engine's hot paths and the players' decisions; write the figures as JSON (under runs/ unless told).
    Bench(commands::bench::Args),
    /// Import a TETR.IO replay: simulate its inputs, write each round's placements, compare statistics.
    Import(commands::import::Args),
    /// Export a record to TETR.IO: a solo replay (.ttr) whose keys play it, checked by the import.
    Export(commands::export::Args),
    /// Play as a Tetris Bot Protocol (TBP) bot: JSON messages on stdin, answers on stdout.
    Tbp(commands::tbp::Args),
    /// Learn a value for the beam from its own games: draw labelled boards, fit a model.
    Learn(commands::learn::Args),
    /// Play a match between two bots (TBP commands or the builtin player) on TETR.IO's versus rules.
    Versus(commands::versus::Args),
}

/// A mistake in the arguments gets one line, like every other input error: clap's message
/// without its usage block, exit code 2. `--help`, `--version` and a bare `beamtris` still
/// print clap's full text.
fn exit_on_usage_error(e: clap::Error) -> ! {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {
            // The message and its tips ("a similar argument exists"), up to the usage block.
            let text = e.to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(|l| l.trim())
                .filter(|l| !l.is_empty())
                .collect();
            // "not provided:" is followed by its list on the same line.
            let message = message.join("; ").replace(":; ", ": ");
            let message = message.strip_prefix("error: ").unwrap_or(&message);
            eprintln!("beamtris: {message} (--help lists the flags)");
            std::process::exit(2);
        }
    }
}

/// `--beam -3` reaches the flag's own check ("give at least 1", "invalid digit") rather than
/// reading as an unknown flag `-3`: no flag of beamtris is a digit.
fn allow_negative_numbers(cmd: clap::Command) -> clap::Command {
    cmd.allow_negative_numbers(true)
        .mut_subcommands(allow_negative_numbers)
}

fn main() {
    // Output piped into a reader that stops early (`beamtris verify R --trace | head`) ends
    // the process quietly, as it does for other command-line tools, instead of a panic in
    // `println!` on a closed pipe (Rust ignores SIGPIPE by default).
    // SAFETY: restoring the default action of a signal, before any thread is started.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let matches = allow_negative_numbers(Cli::command())
        .try_get_matches()
        .unwrap_or_else(|e| exit_on_usage_error(e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit_on_usage_error(e));
    let result = match &cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Verify(args) => commands::verify::run(args),
        Command::Polish(args) => commands::polish::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Families(args) => commands::families::run(args),
        Command::Features(args) => commands::features::run(args),
        Command::Fourwide(args) => commands::fourwide::run(args),
        Command::Tune(args) => commands::tune::run(args),
        Command::Report(args) => commands::report::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Tbp(args) => commands::tbp::run(args),
        Command::Learn(args) => commands::learn::run(args),
        Command::Import(args) => commands::import::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Versus(args) => commands::versus::run(args),
    };
    if let Err(e) = &result {
        // One line whatever a message quotes from the user's input (a path, a JSON key).
        eprintln!(
            "beamtris: {}",
            beamtris::error::for_terminal(&e.to_string())
        );
    }
    // A run cut by SIGINT, SIGTERM or SIGHUP has written what it had (marked incomplete); the exit
    // code says it was cut, so a script does not take it for a finished run.
    if let Some(sig) = beamtris::signal::interrupted_by() {
        eprintln!(
            "beamtris: stopped by {}; exit code {}",
            beamtris::signal::name(sig),
            128 + sig
        );
        std::process::exit(128 + sig);
    }
    if result.is_err() {
        std::process::exit(2);
    }
}
