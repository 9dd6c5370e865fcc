//! `beamtris bench`: measure the engine's hot paths and the one-piece players' decisions, and
//! write them as JSON (under runs/ unless `--out` names the committed files in results/).

use crate::bench;
use crate::error::{Error, Result};
use crate::io;
use crate::results::RunInfo;
use serde::Serialize;
use std::path::PathBuf;

/// The shortest `--record` the engine figures take: its middle board and its tallest one are
/// two of the three boards measured, and a short record's are nearly empty, which would time
/// the empty board three times under three names.
const MIN_RECORD_PIECES: usize = 100;

/// Measure replay, placement generation, child evaluation and the players' decisions; print a
/// table and write JSON.
///
/// Uses a record (default: chys87's public record in tests/data/tencent/records) for the replay
/// figure and for its mid-game and tallest boards. Figures are thread CPU time, the median of
/// 7 samples; this VM's speed drifts between runs, so scripts/bench_repeat.sh repeats the
/// whole measurement and summarises it.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record to replay and take boards from.
    #[arg(long, default_value = "tests/data/tencent/records/chys87-1395326.txt")]
    pub record: PathBuf,
    /// Work multiplier: larger is slower and steadier (1 to 1000).
    #[arg(long, default_value_t = 5)]
    pub scale: u64,
    /// Where to write the engine figures (default under runs/, which git ignores; give
    /// `--out results/bench/bench-engine.json` to replace the committed figures).
    #[arg(long, default_value = "runs/bench-engine.json")]
    pub out: PathBuf,
    /// Where to write the one-piece players' decision times (default under runs/; the
    /// committed figures are results/bench/bench-players.json).
    #[arg(long, default_value = "runs/bench-players.json")]
    pub players_out: PathBuf,
    /// Which figures to measure.
    #[arg(long, value_enum, default_value_t = Suite::All)]
    pub suite: Suite,
    /// The guideline game of the guideline suite.
    #[arg(long, default_value = "seeds/tetrio-1742887628-attack.json")]
    pub guideline_seed: PathBuf,
    /// The record of the guideline suite: a record of `--guideline-seed` to replay.
    #[arg(
        long,
        default_value = "results/guideline/solve-tetrio-1742887628-attack-b300.txt"
    )]
    pub guideline_record: PathBuf,
    /// Where to write the guideline figures (`--guideline-out results/bench/bench-guideline.json`
    /// to replace the committed figures).
    #[arg(long, default_value = "runs/bench-guideline.json")]
    pub guideline_out: PathBuf,
}

/// The groups of figures `bench` measures.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    /// Replay, placement generation, child evaluation (results/bench/bench-engine.json).
    Engine,
    /// Decision time of the one-piece players (results/bench/bench-players.json).
    Players,
    /// Guideline replay, SRS placements, and a beam step of both games
    /// (results/bench/bench-guideline.json).
    Guideline,
    /// Engine and players.
    All,
}

/// The largest `--scale`: at 1000 the whole measurement takes hours, and the work counts stay
/// far from overflowing.
pub const MAX_SCALE: u64 = 1000;

#[derive(Serialize)]
struct Report {
    figures: Vec<bench::Figure>,
    #[serde(flatten)]
    run: RunInfo,
}

pub fn run(args: &Args) -> Result<()> {
    if !(1..=MAX_SCALE).contains(&args.scale) {
        return Err(Error(format!(
            "--scale {}: give between 1 and {MAX_SCALE}",
            args.scale
        )));
    }
    let scale = args.scale;
    let engine = args.suite == Suite::Engine || args.suite == Suite::All;
    let players = args.suite == Suite::Players || args.suite == Suite::All;
    let mut outputs = Vec::new();
    if engine {
        outputs.push(("--out", args.out.as_path()));
    }
    if players {
        outputs.push(("--players-out", args.players_out.as_path()));
    }
    if args.suite == Suite::Guideline {
        outputs.push(("--guideline-out", args.guideline_out.as_path()));
    }
    let inputs = [
        ("--record", args.record.as_path()),
        ("--guideline-seed", args.guideline_seed.as_path()),
        ("--guideline-record", args.guideline_record.as_path()),
    ];
    io::check_outputs(&outputs, &inputs)?;
    if engine {
        let record = io::read_record(&args.record)?;
        if record.pieces() < MIN_RECORD_PIECES {
            return Err(Error::at(
                args.record.display(),
                format!(
                    "{}; the mid-game and tall boards are taken from the record, so give one \
                     of at least {MIN_RECORD_PIECES}",
                    crate::limits::plural(record.pieces() as u64, "piece", "pieces")
                ),
            ));
        }
        let pieces = crate::game_def::GameDef::tencent_geek_4().pieces();
        let run = RunInfo::now();
        let figures = bench::engine_figures(&record, &pieces, scale);
        write(&args.out, figures, run)?;
    }
    if players {
        let run = RunInfo::now();
        write(&args.players_out, bench::player_figures(scale), run)?;
    }
    if args.suite == Suite::Guideline {
        let seed = io::load_seed(Some(&args.guideline_seed))?;
        let game = seed
            .guideline_game()
            .ok_or_else(|| Error::at(args.guideline_seed.display(), "not a guideline game"))?;
        let text = io::read_text(&args.guideline_record)?;
        let record = game
            .parse_record(&text)
            .map_err(|e| Error::at(args.guideline_record.display(), e))?;
        let run = RunInfo::now();
        let mut figures = bench::guideline_figures(&record, &game, scale);
        let tencent = crate::game_def::GameDef::tencent_geek_4().pieces();
        figures.extend(bench::beam_step_figures(
            &game,
            &tencent,
            200,
            100 * scale as usize,
        ));
        write(&args.guideline_out, figures, run)?;
    }
    Ok(())
}

/// Prints the figures as a table on stderr and as JSON on stdout, and writes the JSON.
fn write(out: &std::path::Path, figures: Vec<bench::Figure>, run: RunInfo) -> Result<()> {
    for f in &figures {
        eprintln!(
            "{:<62} {:>12.1} ns  {:>8.1} items  {:>14.0} items/s",
            f.name, f.ns_per_iter, f.items_per_iter, f.items_per_second
        );
    }
    let json = serde_json::to_string_pretty(&Report { figures, run }).expect("serialises");
    io::write_atomic(out, format!("{json}\n").as_bytes())?;
    println!("{json}");
    Ok(())
}
