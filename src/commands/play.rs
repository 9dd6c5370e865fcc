//! `beamtris play`: the greedy one-piece players on a seed file, or online through a line
//! protocol.
//!
//! * `--seed seeds/standard.json`: G games of the simplified game in parallel (game `g` plays
//!   generator seed `seed + g`); prints mean lines, standard error, min, max, games that hit
//!   the cap and decisions per second, and writes them to a results file.
//! * `--seed seeds/tencent-geek-4.json`: one greedy game on the Tencent sequence (drops with a
//!   valid path from spawn); the score reported is the replay of the record it produced.
//! * `--protocol classroom`: play the classroom protocol on stdin/stdout.

use crate::error::{Error, Result};
use crate::eval::weights::{Weights, NAMES};
use crate::io;
use crate::protocol;
use crate::replay;
use crate::results::RunInfo;
use crate::rules::standard::{self, TopOut};
use crate::search::greedy;
use crate::seed::{Generator, Seed};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Play with a greedy one-piece player (Dellacherie, El-Tetris, BCTS weights).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: a `standard` seed file (uniform pieces) or a `tencent` one.
    #[arg(long, required_unless_present = "protocol")]
    pub seed: Option<PathBuf>,
    /// The weight set: dellacherie, eltetris or bcts.
    #[arg(long, default_value = "dellacherie")]
    pub policy: String,
    /// A weights JSON file (feature name -> weight) used instead of --policy.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Games to play (standard rules), in parallel.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// Stop a game once it has cleared this many lines (standard rules).
    #[arg(long)]
    pub max_lines: Option<u64>,
    /// Game over rule (standard rules): simplified (stack above the board after clearing) or
    /// strict (piece above the board before clearing).
    #[arg(long, value_enum, default_value_t = TopOutArg::Simplified)]
    pub top_out: TopOutArg,
    /// Results file (default: results/play-<game>-<policy>[-<cap>].json).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Where to write the tencent record (default: beside the results file, `.txt`).
    #[arg(long)]
    pub record_out: Option<PathBuf>,
    /// Play a line protocol on stdin/stdout instead of a seed file.
    #[arg(long, value_enum)]
    pub protocol: Option<ProtocolArg>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopOutArg {
    Simplified,
    Strict,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtocolArg {
    Classroom,
}

/// Summary of a batch of standard games.
#[derive(Serialize, Debug)]
pub struct StandardReport {
    pub run: RunInfo,
    pub game: String,
    pub policy: String,
    pub weights: Weights,
    pub top_out: TopOut,
    pub games: u64,
    pub seed: u64,
    pub max_lines: Option<u64>,
    pub max_pieces: u64,
    pub mean_lines: f64,
    pub standard_error: f64,
    pub min_lines: u64,
    pub max_lines_reached: u64,
    pub capped_games: u64,
    pub decisions: u64,
    /// Decisions per second of one thread (decisions / summed game times).
    pub decisions_per_second_per_thread: f64,
    /// Decisions per second of CPU time actually given to the game threads (Linux
    /// `CLOCK_THREAD_CPUTIME_ID`), which a busy shared machine does not dilute; absent where
    /// the OS does not report it.
    pub decisions_per_cpu_second: Option<f64>,
    /// Decisions per second of the whole run (decisions / wall time).
    pub decisions_per_second_wall: f64,
    pub wall_seconds: f64,
    pub threads: usize,
    pub lines_per_game: Vec<u64>,
}

/// Outcome of the greedy game on a tencent sequence.
#[derive(Serialize, Debug)]
pub struct TencentReport {
    pub run: RunInfo,
    pub game: String,
    pub policy: String,
    pub weights: Weights,
    pub score: u64,
    pub replay_score: u64,
    pub lines: u64,
    pub pieces: usize,
    pub end_reason: replay::EndReason,
    pub record_file: String,
    pub seconds: f64,
}

fn weights(args: &Args) -> Result<(String, Weights)> {
    if let Some(path) = &args.weights {
        let text = io::read_text(path)?;
        // serde_json's message already ends with "at line L column C".
        let w: Weights = serde_json::from_str(&text).map_err(|e| Error::at(path.display(), e))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "weights".into());
        return Ok((name, w));
    }
    let w = Weights::named(&args.policy).ok_or_else(|| {
        Error(format!(
            "--policy: unknown weight set {:?} (known: {})",
            args.policy,
            NAMES.join(", ")
        ))
    })?;
    Ok((args.policy.to_ascii_lowercase(), w))
}

pub fn run(args: &Args) -> Result<()> {
    if let Some(ProtocolArg::Classroom) = args.protocol {
        let stdin = std::io::stdin();
        return protocol::run_protocol(stdin.lock(), std::io::stdout().lock());
    }
    let (policy, w) = weights(args)?;
    let seed = io::load_seed(args.seed.as_deref())?;
    match seed.rules.as_str() {
        "standard" => run_standard(args, &seed, &policy, w),
        _ => run_tencent(args, &seed, &policy, w),
    }
}

/// Mean, standard error of the mean, min and max.
pub fn stats(values: &[u64]) -> (f64, f64, u64, u64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0, 0, 0);
    }
    let mean = values.iter().map(|&v| v as f64).sum::<f64>() / n;
    let var = if values.len() > 1 {
        values
            .iter()
            .map(|&v| (v as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0)
    } else {
        0.0
    };
    let min = values.iter().copied().min().unwrap_or(0);
    let max = values.iter().copied().max().unwrap_or(0);
    (mean, (var / n).sqrt(), min, max)
}

fn run_standard(args: &Args, seed: &Seed, policy: &str, w: Weights) -> Result<()> {
    let Generator::Uniform { seed: base } = seed.generator else {
        return Err(Error(format!(
            "{}: the standard rules draw pieces with the uniform generator",
            seed.name
        )));
    };
    if args.games == 0 {
        return Err(Error("--games: must be at least 1".into()));
    }
    let top_out = match args.top_out {
        TopOutArg::Simplified => TopOut::Simplified,
        TopOutArg::Strict => TopOut::Strict,
    };
    let run = RunInfo::now();
    let max_lines = args.max_lines.unwrap_or(u64::MAX);
    let max_pieces = seed.pieces as u64;
    let start = Instant::now();
    let games: Vec<(greedy::GameOutcome, f64, Option<u64>)> = (0..args.games)
        .into_par_iter()
        .map(|g| {
            let t = Instant::now();
            let cpu = crate::bench::thread_cpu_ns();
            let o = greedy::play_standard(
                &w,
                standard::game_seed(base, g),
                top_out,
                max_lines,
                max_pieces,
            );
            let cpu = match (cpu, crate::bench::thread_cpu_ns()) {
                (Some(a), Some(b)) => Some(b.saturating_sub(a)),
                _ => None,
            };
            (o, t.elapsed().as_secs_f64(), cpu)
        })
        .collect();
    let wall = start.elapsed().as_secs_f64();
    let lines: Vec<u64> = games.iter().map(|g| g.0.lines).collect();
    let (mean, se, min, max) = stats(&lines);
    let decisions: u64 = games.iter().map(|g| g.0.pieces).sum();
    let busy: f64 = games.iter().map(|g| g.1).sum();
    let cpu: Option<u64> = games.iter().map(|g| g.2).sum();
    let report = StandardReport {
        run,
        game: seed.name.clone(),
        policy: policy.to_string(),
        weights: w,
        top_out,
        games: args.games,
        seed: base,
        max_lines: args.max_lines,
        max_pieces,
        mean_lines: mean,
        standard_error: se,
        min_lines: min,
        max_lines_reached: max,
        capped_games: games.iter().filter(|g| g.0.capped).count() as u64,
        decisions,
        decisions_per_second_per_thread: decisions as f64 / busy.max(1e-9),
        decisions_per_cpu_second: cpu.map(|ns| decisions as f64 / (ns as f64 * 1e-9).max(1e-9)),
        decisions_per_second_wall: decisions as f64 / wall.max(1e-9),
        wall_seconds: wall,
        threads: rayon::current_num_threads(),
        lines_per_game: lines,
    };
    let cap = args
        .max_lines
        .map(|l| format!("-cap{l}"))
        .unwrap_or_default();
    let strict = if top_out == TopOut::Strict {
        "-strict"
    } else {
        ""
    };
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "results/play-{}-{policy}{strict}{cap}.json",
            seed.name
        ))
    });
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, json.as_bytes())?;
    eprintln!(
        "{policy} on {}: {} games, mean {:.1} lines (± {:.1} s.e.), min {min}, max {max}, {} capped, {:.0} decisions/s per thread ({} per CPU second); wrote {}",
        seed.name,
        args.games,
        mean,
        se,
        report.capped_games,
        report.decisions_per_second_per_thread,
        report
            .decisions_per_cpu_second
            .map(|d| format!("{d:.0}"))
            .unwrap_or_else(|| "?".into()),
        out.display()
    );
    println!("{json}");
    Ok(())
}

fn run_tencent(args: &Args, seed: &Seed, policy: &str, w: Weights) -> Result<()> {
    let run = RunInfo::now();
    let pieces = seed.pieces();
    let start = Instant::now();
    let game = greedy::play_tencent(&w, &pieces);
    let seconds = start.elapsed().as_secs_f64();
    let outcome = replay::replay(&game.record, &pieces);
    if outcome.score != game.score {
        return Err(Error(format!(
            "internal error: the greedy game scored {} but its record replays to {}",
            game.score, outcome.score
        )));
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/play-{}-{policy}.json", seed.name)));
    let record_path = args
        .record_out
        .clone()
        .unwrap_or_else(|| out.with_extension("txt"));
    io::write_atomic(&record_path, format!("{}\n", game.record).as_bytes())?;
    let report = TencentReport {
        run,
        game: seed.name.clone(),
        policy: policy.to_string(),
        weights: w,
        score: game.score,
        replay_score: outcome.score,
        lines: game.lines,
        pieces: game.pieces,
        end_reason: outcome.end_reason,
        record_file: record_path.display().to_string(),
        seconds,
    };
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, json.as_bytes())?;
    eprintln!(
        "{policy} on {}: score {} (replayed: {}), {} lines, {} pieces, {:?}; wrote {} and {}",
        seed.name,
        game.score,
        outcome.score,
        game.lines,
        game.pieces,
        outcome.end_reason,
        out.display(),
        record_path.display()
    );
    println!("{json}");
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn stats_of_a_small_sample() {
        let (mean, se, min, max) = super::stats(&[1, 2, 3, 4]);
        assert_eq!((mean, min, max), (2.5, 1, 4));
        // sample variance 5/3, s.e. sqrt(5/3/4)
        assert!((se - (5.0f64 / 12.0).sqrt()).abs() < 1e-12);
    }
}
