//! `beamtris bench`: measure the engine's hot paths and the one-piece players' decisions, and
//! write them as JSON (under runs/ unless `--out` names the committed files in results/).

use super::game::GameArgs;
use crate::bench;
use crate::error::{Error, Result};
use crate::game_def::GameDef;
use crate::games::registry::{Capability, RuleSet};
use crate::io;
use crate::results::RunInfo;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The shortest `--record` the engine figures take: its middle board and its tallest one are
/// two of the three boards measured, and a short record's are nearly empty, which would time
/// the empty board three times under three names.
const MIN_RECORD_PIECES: usize = 100;

/// The record `bench` replays when none is given: chys87's public record of the built-in
/// Tencent game.
const DEFAULT_RECORD: &str = "tests/data/tencent/records/chys87-1395326.txt";

/// Measure a family's engine (replay, placement generation, a beam step) on a record of one of
/// its games, and the one-piece players' decisions; print a table and write JSON.
///
/// The game is the record's, found as `verify` finds it: the game flags, else the game or
/// results file beside the record, else the built-in Tencent game. Figures are thread CPU
/// time, the median of 7 samples; this VM's speed drifts between runs, so
/// scripts/bench_repeat.sh repeats the whole measurement and summarises it.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record to replay and take boards from (default: chys87's public record of the
    /// built-in Tencent game; a guideline record's game is the results file beside it, e.g.
    /// results/guideline/solve-tetrio-1742887628-attack-b300.txt).
    #[arg(long)]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub game: GameArgs,
    /// Work multiplier: larger is slower and steadier (1 to 1000).
    #[arg(long, default_value_t = 5)]
    pub scale: u64,
    /// Where to write the engine figures (default: runs/bench-FAMILY.json, under runs/, which
    /// git ignores; give `--out results/bench/bench-engine.json` or
    /// `results/bench/bench-guideline.json` to replace the committed figures).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Where to write the one-piece players' decision times (default under runs/; the
    /// committed figures are results/bench/bench-players.json).
    #[arg(long, default_value = "runs/bench-players.json")]
    pub players_out: PathBuf,
    /// Which figures to measure.
    #[arg(long, value_enum, default_value_t = Suite::All)]
    pub suite: Suite,
}

/// The groups of figures `bench` measures.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    /// The record's family: Tencent replay, placement generation and child evaluation
    /// (results/bench/bench-engine.json); guideline replay, SRS placements and a beam step of
    /// both games (results/bench/bench-guideline.json).
    Engine,
    /// Decision time of the one-piece players (results/bench/bench-players.json).
    Players,
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
    let engine = args.suite != Suite::Players;
    let players = args.suite != Suite::Engine;
    let record_path = match &args.record {
        Some(path) => path.clone(),
        None if args.game.seed.is_some() || args.game.changes_game() => {
            return Err(Error(
                "bench: a game given needs --record, a record of that game to replay".into(),
            ))
        }
        None => PathBuf::from(DEFAULT_RECORD),
    };
    let game = if engine {
        let seed = args.game.load_for_record("bench", &record_path)?;
        let family = seed.family();
        if !family.supports(Capability::Bench) {
            return Err(family.refuse(Capability::Bench, &seed.name));
        }
        Some(seed)
    } else {
        None
    };
    let out = args.out.clone().unwrap_or_else(|| {
        let name = game.as_ref().map_or("engine", |g| g.family().name);
        PathBuf::from(format!("runs/bench-{name}.json"))
    });
    let mut outputs = Vec::new();
    if engine {
        outputs.push(("--out", out.as_path()));
    }
    if players {
        outputs.push(("--players-out", args.players_out.as_path()));
    }
    let mut inputs = args.game.input_files();
    inputs.push(("--record", record_path.as_path()));
    io::check_outputs(&outputs, &inputs)?;
    if let Some(seed) = &game {
        let run = RunInfo::now();
        let figures = match seed.rules {
            RuleSet::Tencent => tencent_figures(seed, &record_path, scale)?,
            RuleSet::Guideline => guideline_figures(seed, &record_path, scale)?,
            _ => unreachable!("the registry declares bench for the Tencent and guideline families"),
        };
        write(&out, figures, run)?;
    }
    if players {
        let run = RunInfo::now();
        write(&args.players_out, bench::player_figures(scale), run)?;
    }
    Ok(())
}

/// The Tencent engine's figures on a record of `seed` (its mid-game and tallest boards).
fn tencent_figures(seed: &GameDef, path: &Path, scale: u64) -> Result<Vec<bench::Figure>> {
    let record = io::read_record(path)?;
    if record.pieces() < MIN_RECORD_PIECES {
        return Err(Error::at(
            path.display(),
            format!(
                "{}; the mid-game and tall boards are taken from the record, so give one of \
                 at least {MIN_RECORD_PIECES}",
                crate::limits::plural(record.pieces() as u64, "piece", "pieces")
            ),
        ));
    }
    Ok(bench::engine_figures(&record, &seed.pieces(), scale))
}

/// The guideline engine's figures on a record of `seed`, and a beam step of both games.
fn guideline_figures(seed: &GameDef, path: &Path, scale: u64) -> Result<Vec<bench::Figure>> {
    let game = seed
        .guideline_game()
        .ok_or_else(|| Error::at(path.display(), "not a guideline game"))?;
    let text = io::read_text(path)?;
    let record = game
        .parse_record(&text)
        .map_err(|e| Error::at(path.display(), e))?;
    let mut figures = bench::guideline_figures(&record, &game, scale);
    let tencent = GameDef::tencent_geek_4().pieces();
    figures.extend(bench::beam_step_figures(
        &game,
        &tencent,
        200,
        100 * scale as usize,
    ));
    Ok(figures)
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
