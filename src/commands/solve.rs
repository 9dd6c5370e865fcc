//! `beamtris solve`: beam search over a seed's sequence; writes the record and a results JSON
//! whose score comes from replaying that record.

use crate::error::{Error, Result};
use crate::io;
use crate::movegen::MoveSet;
use crate::replay;
use crate::results::{load_average, peak_memory_bytes, process_cpu_seconds, RunInfo};
use crate::search::beam::{self, BeamConfig};
use crate::search::evaluator::{Evaluator, Weights};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Find a high-scoring record by beam search, replay it, and write it with a results JSON.
///
/// Writes `OUT` (JSON: score from the replay, beam, moves, weights, time, memory, command,
/// commit, machine, date) and the record beside it as `OUT` with `.txt`. Ctrl-C stops the
/// search and writes the best line found so far, marked `"complete": false`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game definition (default: the built-in Tencent Geek 4 game).
    #[arg(long)]
    pub seed: Option<PathBuf>,
    /// Boards kept per piece.
    #[arg(long, default_value_t = 1500)]
    pub beam: usize,
    /// Placements: `drop` (rotate, shift, hard drop) or `reach` (any unit moves: tucks, spins).
    #[arg(long, value_enum, default_value_t = MoveSet::Reach)]
    pub moves: MoveSet,
    /// Evaluator weights: a preset or a JSON weights file. Tencent presets: default, tuned
    /// (the default; `default` tuned by `beamtris tune`), dellacherie, eltetris. Guideline
    /// presets: attack, points (the default is the game's objective).
    #[arg(long)]
    pub weights: Option<String>,
    /// Worker threads (default: all cores). The record does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Place only the first K pieces (default: the whole game).
    #[arg(long)]
    pub pieces: Option<usize>,
    /// Results JSON path (default: results/solve-SEED-MOVES-bBEAM.json); the record goes to
    /// the same path with `.txt`.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The results file of a solve.
#[derive(Serialize)]
pub struct SolveReport {
    /// Score of the record under replay (equal to the search's own figure).
    pub score: u64,
    pub complete: bool,
    pub seed: String,
    pub beam: usize,
    pub moves: MoveSet,
    pub weights_name: String,
    pub weights: Weights,
    /// Pieces the record places.
    pub pieces: usize,
    pub lines: u64,
    pub end_reason: replay::EndReason,
    /// Score of the replay after every 1000 pieces (1000, 2000, ...).
    pub score_every_1000: Vec<u64>,
    pub wall_seconds: f64,
    /// CPU seconds of the whole process (all threads).
    pub cpu_seconds: Option<f64>,
    /// One-minute load average at the start: other work on the machine.
    pub load_average_at_start: Option<f64>,
    pub peak_memory_bytes: Option<u64>,
    pub threads: usize,
    pub record_file: String,
    #[serde(flatten)]
    pub run: RunInfo,
}

/// Pieces between two entries of `score_every_1000`.
const CHECKPOINT_EVERY: usize = 1000;

/// Where the record goes: the results path with `.txt`.
pub fn record_path(out: &Path) -> PathBuf {
    out.with_extension("txt")
}

pub fn run(args: &Args) -> Result<()> {
    let seed = io::load_seed(args.seed.as_deref())?;
    if seed.guideline_rules().is_some() {
        return super::solve_guideline::run(args, &seed);
    }
    if seed.rules != "tencent" {
        return Err(Error(format!(
            "solve plays the tencent rule set; the seed's rules are {:?}",
            seed.rules
        )));
    }
    if args.beam == 0 {
        return Err(Error("--beam: must be at least 1".into()));
    }
    let weights_name = args.weights.clone().unwrap_or_else(|| "tuned".into());
    let weights = Weights::resolve(&weights_name)?;
    let (threads, pool) = super::thread_pool(args.threads)?;
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "results/solve-{}-{}-b{}.json",
            seed.name,
            match args.moves {
                MoveSet::Drop => "drop",
                MoveSet::Reach => "reach",
            },
            args.beam
        ))
    });
    let run_info = RunInfo::now();
    let load_at_start = load_average();
    let stop = super::stop_on_ctrl_c();
    let pieces = seed.pieces();
    let cfg = BeamConfig {
        beam: args.beam,
        moves: args.moves,
        evaluator: Evaluator::new(weights.clone()),
    };
    let start = Instant::now();
    let total = args
        .pieces
        .unwrap_or(usize::MAX)
        .min(pieces.len().saturating_sub(1));
    let bar = crate::progress::bar(
        total as u64,
        "{pos}/{len} pieces  {per_sec}  eta {eta}  best {msg}",
    );
    // Without a terminal (a run logged to a file) a line every half minute stands in for the
    // bar.
    let plain = bar.is_hidden();
    let mut last_line = Instant::now();
    let result = pool.install(|| {
        beam::search(&pieces, args.pieces, &cfg, &stop, |r| {
            bar.set_position(r.placed as u64);
            if r.placed % 16 == 0 || r.placed == r.total {
                bar.set_message(r.best_score.to_string());
            }
            if plain && last_line.elapsed().as_secs() >= 30 {
                last_line = Instant::now();
                let secs = start.elapsed().as_secs_f64();
                let eta = secs / r.placed as f64 * (r.total - r.placed) as f64;
                eprintln!(
                    "{:>7.0} s  piece {}/{}  best {}  eta {:.0} s",
                    secs, r.placed, r.total, r.best_score, eta
                );
            }
        })
    });
    bar.finish_and_clear();
    let wall_seconds = start.elapsed().as_secs_f64();
    let record_file = record_path(&out);
    let text = format!("{}\n", result.record);
    io::write_atomic(&record_file, text.as_bytes())?;
    let mut checkpoints = Vec::new();
    let outcome = replay::replay_with(&result.record, &pieces, |step| {
        if (step.index + 1) % CHECKPOINT_EVERY == 0 {
            checkpoints.push(step.score);
        }
    });
    if outcome.score != result.score as u64 {
        return Err(Error(format!(
            "bug: the search claims {} but its record {} replays to {}",
            result.score,
            record_file.display(),
            outcome.score
        )));
    }
    let report = SolveReport {
        score: outcome.score,
        complete: result.complete,
        seed: seed.name.clone(),
        beam: args.beam,
        moves: args.moves,
        weights_name,
        weights,
        pieces: outcome.pieces,
        lines: outcome.lines,
        end_reason: outcome.end_reason,
        score_every_1000: checkpoints,
        wall_seconds,
        cpu_seconds: process_cpu_seconds(),
        load_average_at_start: load_at_start,
        peak_memory_bytes: peak_memory_bytes(),
        threads,
        record_file: record_file.display().to_string(),
        run: run_info,
    };
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, format!("{json}\n").as_bytes())?;
    eprintln!(
        "score {} (verified by replay), {} pieces, {:.1} s{}; wrote {} and {}",
        report.score,
        report.pieces,
        wall_seconds,
        if result.complete {
            ""
        } else {
            ", stopped early"
        },
        out.display(),
        record_file.display()
    );
    println!("{json}");
    Ok(())
}
