//! `beamtris play --seed GAME.json` on a guideline game: online play, each piece decided by
//! a beam over only the pieces a player sees (hold, current, `--previews` more); the record
//! and a results JSON whose figures come from replaying it.

use super::play::Args;
use crate::error::{Error, Result};
use crate::eval::guideline::{GuidelineEvaluator, GuidelineWeights};
use crate::io;
use crate::results::RunInfo;
use crate::games::guideline::replay::{self, Outcome};
use crate::games::guideline::Objective;
use crate::search::section_play::SectionPlay;
use crate::search::{guideline, online};
use crate::seed::Seed;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// TETR.IO's preview count.
pub const DEFAULT_PREVIEWS: usize = 5;
/// Wide enough to use most of half a second a move on one thread of the development machine
/// (results/guideline/play-p5/summary.md).
pub const DEFAULT_BEAM: usize = 1000;

/// The results file of an online guideline game.
#[derive(Serialize)]
pub struct GuidelinePlayReport {
    /// The objective's value under replay.
    pub score: u64,
    pub objective: Objective,
    /// Points, attack, pieces, lines, end reason, max combo, T-spins, perfect clears, ... of
    /// the replayed record.
    #[serde(flatten)]
    pub outcome: Outcome,
    pub attack_per_piece: f64,
    pub points_per_piece: f64,
    /// No placement of a piece survived: the game was lost before the pieces asked for.
    pub topped_out: bool,
    /// A signal stopped the game early.
    pub stopped: bool,
    /// Pieces asked for (the game's length, or `--max-pieces`).
    pub pieces_asked: usize,
    pub previews: usize,
    pub beam: usize,
    /// The 4-wide solver in sections: its policy's configuration, when used.
    pub fourwide: Option<crate::fourwide::Config>,
    /// Moves the 4-wide policy chose (steps of a section's combo).
    pub fourwide_policy_moves: usize,
    pub weights_name: String,
    pub weights: GuidelineWeights,
    /// Wall time of a decision, mean and max over the game's moves.
    pub seconds_per_move_mean: f64,
    pub seconds_per_move_max: f64,
    /// CPU time of the deciding thread, mean and max (a shared machine's wall time also
    /// holds what other processes took).
    pub cpu_seconds_per_move_mean: Option<f64>,
    pub cpu_seconds_per_move_max: Option<f64>,
    /// Decisions that took more than half a second of CPU time (wall time where the OS does
    /// not report CPU time).
    pub moves_over_half_second: usize,
    pub threads: usize,
    pub seed: String,
    pub game: Seed,
    pub record_file: String,
    #[serde(flatten)]
    pub run: RunInfo,
}

/// Flags of `play` that only the one-piece players read.
fn refuse_player_flags(args: &Args) -> Result<()> {
    let refused = [
        (args.games != 1, "--games"),
        (args.max_lines.is_some(), "--max-lines"),
        (args.policy != "dellacherie", "--policy"),
        (
            args.top_out != super::play::TopOutArg::Simplified,
            "--top-out",
        ),
    ];
    for (given, flag) in refused {
        if given {
            return Err(Error(format!(
                "{flag}: not for guideline games (one game, played by a beam over the visible \
                 pieces; choose its evaluator with --weights)"
            )));
        }
    }
    Ok(())
}

pub fn run(args: &Args, seed: &Seed, seed_path: &Path) -> Result<()> {
    refuse_player_flags(args)?;
    let game = seed.guideline_game().expect("a guideline seed");
    let previews = args.previews.unwrap_or(DEFAULT_PREVIEWS);
    let beam = args.beam.unwrap_or(DEFAULT_BEAM);
    crate::limits::check_beam("--beam", beam)?;
    if previews == 0 {
        // Holding into the empty slot plays the first preview, which a player must see.
        return Err(Error(
            "--previews 0: give at least 1 (holding into the empty slot plays the first preview)"
                .into(),
        ));
    }
    if args.max_pieces == Some(0) {
        return Err(Error("--max-pieces 0: give at least 1".into()));
    }
    let pieces = args.max_pieces.map_or(game.length, |p| {
        (p.min(usize::MAX as u64) as usize).min(game.length)
    });
    let weights_name = match &args.weights {
        Some(w) => w.to_string_lossy().into_owned(),
        None => super::solve_guideline::objective_preset(game.rules.objective).to_string(),
    };
    let weights = GuidelineWeights::resolve(&weights_name)?;
    let evaluator = GuidelineEvaluator::new(weights.clone());
    // One thread unless told: the half second a move is a one-thread budget.
    let (threads, pool) = super::thread_pool(Some(args.threads.unwrap_or(1)))?;
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "runs/play-{}-p{previews}-b{beam}-{}{}.json",
            seed.name,
            weights_name.replace(['/', '.'], "_"),
            if pieces < game.length {
                format!("-pieces{pieces}")
            } else {
                String::new()
            }
        ))
    });
    let record_file = args
        .record_out
        .clone()
        .unwrap_or_else(|| out.with_extension("txt"));
    let weights_path = Path::new(&weights_name);
    let mut inputs = vec![("--seed", seed_path)];
    if weights_path.is_file() {
        inputs.push(("--weights", weights_path));
    }
    io::check_not_inputs(
        &[
            ("--out", out.as_path()),
            ("the record", record_file.as_path()),
        ],
        &inputs,
    )?;
    io::check_outputs(&[
        ("--out", out.as_path()),
        ("the record", record_file.as_path()),
    ])?;
    let use_fourwide = args
        .fourwide
        .unwrap_or(super::solve::FourwideUse::Off)
        .applies(&game.rules);
    let section_play = if use_fourwide {
        let bag = matches!(
            seed.generator,
            crate::seed::Generator::Tetrio { .. } | crate::seed::Generator::Bag7 { .. }
        );
        let t = Instant::now();
        let s = SectionPlay::solve(&game, previews, bag)?;
        eprintln!(
            "4-wide policy for sections: {} generator, hold, {} previews, solved in {:.1} s",
            s.config().generator.name(),
            s.config().preview,
            t.elapsed().as_secs_f64()
        );
        Some(s)
    } else {
        None
    };
    let run_info = RunInfo::now();
    let stop = super::stop_on_ctrl_c();
    eprintln!(
        "playing {} online: {}, {previews} previews, beam {beam}, weights {weights_name}; \
         Ctrl-C or SIGTERM stops and keeps the moves so far",
        seed.name,
        crate::limits::plural(pieces as u64, "piece", "pieces"),
    );
    let start = Instant::now();
    let mut last_line = Instant::now();
    let played = pool.install(|| {
        let player = online::Player {
            previews,
            beam,
            evaluator: &evaluator,
            fourwide: section_play.as_ref(),
        };
        online::play(&game, pieces, &player, &stop, |locks, _| {
            if last_line.elapsed().as_secs() >= 30 {
                last_line = Instant::now();
                eprintln!(
                    "{:>7.0} s  piece {}/{pieces}",
                    start.elapsed().as_secs_f64(),
                    locks + 1
                );
            }
        })
    });
    if played.moves.is_empty() {
        return Err(Error(format!(
            "no placement of the first piece survives in {}; there is no record to write",
            seed.name
        )));
    }
    let record = guideline::record(&game, &played.moves);
    io::write_atomic(&record_file, format!("{record}\n").as_bytes())?;
    // Parse the text back as verify would: the file is what the figures are about.
    let reread = game
        .parse_record(&record.to_string())
        .map_err(|e| Error(format!("bug: the written record does not parse: {e}")))?;
    let outcome = replay::replay(&reread, &game);
    if outcome.pieces != played.moves.len() {
        return Err(Error(format!(
            "bug: the game made {} moves but its record {} replays {}",
            played.moves.len(),
            record_file.display(),
            outcome.pieces
        )));
    }
    let score = match game.rules.objective {
        Objective::Points => outcome.points,
        Objective::Attack => outcome.attack,
    };
    let per_piece = |v: u64| v as f64 / outcome.pieces.max(1) as f64;
    let n = played.times.len().max(1) as f64;
    let wall: Vec<f64> = played.times.iter().map(|t| t.wall_seconds).collect();
    let cpu: Option<Vec<f64>> = played.times.iter().map(|t| t.cpu_seconds).collect();
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let charged = cpu.as_deref().unwrap_or(&wall);
    let report = GuidelinePlayReport {
        score,
        objective: game.rules.objective,
        attack_per_piece: per_piece(outcome.attack),
        points_per_piece: per_piece(outcome.points),
        outcome,
        topped_out: played.topped_out,
        stopped: played.stopped,
        pieces_asked: pieces,
        previews,
        beam,
        fourwide: section_play.as_ref().map(|s| *s.config()),
        fourwide_policy_moves: played.policy_moves,
        weights_name,
        weights,
        seconds_per_move_mean: wall.iter().sum::<f64>() / n,
        seconds_per_move_max: max(&wall),
        cpu_seconds_per_move_mean: cpu.as_ref().map(|c| c.iter().sum::<f64>() / n),
        cpu_seconds_per_move_max: cpu.as_deref().map(max),
        moves_over_half_second: charged.iter().filter(|&&s| s > 0.5).count(),
        threads,
        seed: seed.name.clone(),
        game: seed.clone(),
        record_file: record_file.display().to_string(),
        run: run_info,
    };
    let json = serde_json::to_string_pretty(&report).expect("plain data serialises");
    io::write_atomic(&out, format!("{json}\n").as_bytes())?;
    eprintln!(
        "{} {:?} (verified by replay): {} points, {} attack over {} pieces ({:.3} attack, {:.1} \
         points a piece), max combo {}, {} T-spins, {} perfect clears, {} moves by the 4-wide \
         policy{}; {:.3} s a move (max {:.3}); wrote {} and {}",
        report.score,
        report.objective,
        report.outcome.points,
        report.outcome.attack,
        report.outcome.pieces,
        report.attack_per_piece,
        report.points_per_piece,
        report.outcome.max_combo,
        report.outcome.tspins,
        report.outcome.perfect_clears,
        report.fourwide_policy_moves,
        if report.topped_out {
            ", TOPPED OUT"
        } else {
            ""
        },
        report.seconds_per_move_mean,
        report.seconds_per_move_max,
        out.display(),
        record_file.display()
    );
    println!("{json}");
    Ok(())
}
