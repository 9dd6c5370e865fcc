//! `beamtris bench`: measure the engine's hot paths and the one-piece players' decisions, and
//! write them to results/.

use crate::bench;
use crate::error::Result;
use crate::io;
use crate::results::RunInfo;
use serde::Serialize;
use std::path::PathBuf;

/// Measure replay, placement generation, child evaluation and the players' decisions; print a
/// table and write JSON.
///
/// Uses a record (default: the chys87 record in ../shared/tencent/records) for the replay
/// figure and for its mid-game and tallest boards. Figures are thread CPU time, the median of
/// 7 samples; this VM's speed drifts between runs, so scripts/bench_repeat.sh repeats the
/// whole measurement and summarises it.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record to replay and take boards from.
    #[arg(long, default_value = "../shared/tencent/records/chys87-1395326.txt")]
    pub record: PathBuf,
    /// Work multiplier: larger is slower and steadier.
    #[arg(long, default_value_t = 5)]
    pub scale: u64,
    /// Where to write the engine figures.
    #[arg(long, default_value = "results/bench-engine.json")]
    pub out: PathBuf,
    /// Where to write the one-piece players' decision times.
    #[arg(long, default_value = "results/bench-players.json")]
    pub players_out: PathBuf,
    /// Which figures to measure.
    #[arg(long, value_enum, default_value_t = Suite::All)]
    pub suite: Suite,
    /// The guideline game and record of the guideline suite.
    #[arg(long, default_value = "seeds/tetrio-1742887628-attack.json")]
    pub guideline_seed: PathBuf,
    #[arg(
        long,
        default_value = "results/guideline/solve-tetrio-1742887628-attack-b300.txt"
    )]
    pub guideline_record: PathBuf,
    /// Where to write the guideline figures.
    #[arg(long, default_value = "results/bench-guideline.json")]
    pub guideline_out: PathBuf,
}

/// The groups of figures `bench` measures.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    /// Replay, placement generation, child evaluation (results/bench-engine.json).
    Engine,
    /// Decision time of the one-piece players (results/bench-players.json).
    Players,
    /// Guideline replay, SRS placements, and a beam step of both games
    /// (results/bench-guideline.json).
    Guideline,
    /// Engine and players.
    All,
}

#[derive(Serialize)]
struct Report {
    figures: Vec<bench::Figure>,
    #[serde(flatten)]
    run: RunInfo,
}

pub fn run(args: &Args) -> Result<()> {
    let scale = args.scale.max(1);
    if args.suite == Suite::Engine || args.suite == Suite::All {
        let record = io::read_record(&args.record)?;
        let pieces = crate::seed::Seed::tencent_geek_4().pieces();
        let run = RunInfo::now();
        let figures = bench::engine_figures(&record, &pieces, scale);
        write(&args.out, figures, run)?;
    }
    if args.suite == Suite::Players || args.suite == Suite::All {
        let run = RunInfo::now();
        write(&args.players_out, bench::player_figures(scale), run)?;
    }
    if args.suite == Suite::Guideline {
        let seed = io::load_seed(Some(&args.guideline_seed))?;
        let game = crate::rules::guideline::replay::Game::from_seed(&seed).ok_or_else(|| {
            crate::error::Error::at(args.guideline_seed.display(), "not a guideline game")
        })?;
        let text = io::read_text(&args.guideline_record)?;
        let record = game
            .parse_record(&text)
            .map_err(|e| crate::error::Error::at(args.guideline_record.display(), e))?;
        let run = RunInfo::now();
        let mut figures = bench::guideline_figures(&record, &game, scale);
        let tencent = crate::seed::Seed::tencent_geek_4().pieces();
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
