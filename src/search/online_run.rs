//! `play` on a guideline game: one game played online (see [`super::online`]), each piece
//! decided by a beam over only the pieces a player sees (hold, current, the previews), its
//! record written and replayed; the figures reported come from the replay.

use super::online::{self, Speculation};
use super::section_play::SectionPlay;
use super::{guideline, play_runs::median};
use crate::error::{Error, Result};
use crate::eval::guideline::{GuidelineEvaluator, GuidelineWeights};
use crate::game_def::{GameDef, Generator};
use crate::games::guideline::replay::{self as guideline_replay, GuidelineGame, Outcome};
use crate::games::guideline::Objective;
use crate::io;
use crate::results::RunInfo;
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What an online game plays and how its player decides.
pub struct OnlineRun<'a> {
    /// The game's seed, and the guideline game it makes.
    pub seed: &'a GameDef,
    pub game: &'a GuidelineGame,
    /// Pieces to play (at most the game's length).
    pub pieces: usize,
    /// Previews the player sees after the piece in play.
    pub previews: usize,
    /// States each search of a decision keeps per piece.
    pub beam: usize,
    /// The search past the previews (`None`: the visible window only).
    pub speculation: Option<Speculation>,
    /// The evaluator's weights, and the name they were asked for by.
    pub weights_name: String,
    pub weights: GuidelineWeights,
    /// Whether the 4-wide solver plays combo sections.
    pub fourwide: bool,
    /// The rayon pool the searches run on, and its worker count.
    pub pool: &'a rayon::ThreadPool,
    pub threads: usize,
    /// Where the record goes.
    pub record_file: &'a Path,
}

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
    /// The search past the previews, when on.
    pub speculation: Option<online::Speculation>,
    /// The 4-wide solver in sections: its policy's configuration, when used.
    pub fourwide: Option<crate::fourwide::Config>,
    /// Moves the 4-wide policy chose (steps of a section's combo).
    pub fourwide_policy_moves: usize,
    pub weights_name: String,
    pub weights: GuidelineWeights,
    /// Wall time of a decision, mean and max over the game's moves.
    pub seconds_per_move_mean: f64,
    pub seconds_per_move_median: f64,
    pub seconds_per_move_max: f64,
    /// CPU time of the deciding thread, mean and max (a shared machine's wall time also
    /// holds what other processes took).
    pub cpu_seconds_per_move_mean: Option<f64>,
    pub cpu_seconds_per_move_median: Option<f64>,
    pub cpu_seconds_per_move_max: Option<f64>,
    /// Decisions that took more than half a second of CPU time (wall time where the OS does
    /// not report CPU time).
    pub moves_over_half_second: usize,
    pub threads: usize,
    pub seed: String,
    pub game: GameDef,
    pub record_file: String,
    #[serde(flatten)]
    pub run: RunInfo,
}

/// Plays the online game `r` describes: solves the 4-wide policy first when asked for (saying
/// so on stderr), plays up to `r.pieces` locks with a line on stderr every 30 s, writes the
/// record to `r.record_file`, and reports the replay of the record as written. When `stop`
/// is set the game ends and keeps its moves so far; a game without a single move (stopped
/// before it, or lost at the first piece) is an error, with no record written.
pub fn play_online(r: OnlineRun, stop: &AtomicBool) -> Result<GuidelinePlayReport> {
    let (seed, game, pieces, previews) = (r.seed, r.game, r.pieces, r.previews);
    let evaluator = GuidelineEvaluator::new(r.weights.clone());
    let section_play = if r.fourwide {
        let bag = matches!(
            seed.generator,
            Generator::Tetrio { .. } | Generator::Bag7 { .. }
        );
        let t = Instant::now();
        let s = SectionPlay::solve(game, previews, bag)?;
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
    eprintln!(
        "playing {} online: {}, {previews} previews, beam {}, weights {}; \
         Ctrl-C or SIGTERM stops and keeps the moves so far",
        seed.name,
        crate::limits::plural(pieces as u64, "piece", "pieces"),
        r.beam,
        r.weights_name,
    );
    let start = Instant::now();
    let mut last_line = Instant::now();
    let played = r.pool.install(|| {
        let player = online::Player {
            previews,
            beam: r.beam,
            evaluator: &evaluator,
            fourwide: section_play.as_ref(),
            speculation: r.speculation,
            seven_bag: seed.deals_seven_bags(),
        };
        online::play(game, pieces, &player, stop, |locks, _| {
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
        // A signal before the first move (during the 4-wide policy's solve, say) is not a
        // game that cannot start.
        let why = if stop.load(Ordering::SeqCst) {
            "stopped before the first move"
        } else {
            "no placement of the first piece survives"
        };
        return Err(Error(format!(
            "{why} in {}; there is no record to write",
            seed.name
        )));
    }
    let outcome = write_and_replay(game, &played.moves, r.record_file)?;
    let fourwide = section_play.as_ref().map(|s| *s.config());
    Ok(report(r, outcome, played, fourwide, run_info))
}

/// Writes the record of `moves` to `record_file` and replays it as `verify` would: from its
/// text, parsed back (the file is what the figures are about).
fn write_and_replay(
    game: &GuidelineGame,
    moves: &[guideline::Move],
    record_file: &Path,
) -> Result<Outcome> {
    let record = guideline::record(game, moves);
    io::write_atomic(record_file, format!("{record}\n").as_bytes())?;
    let reread = game
        .parse_record(&record.to_string())
        .map_err(|e| Error(format!("bug: the written record does not parse: {e}")))?;
    let outcome = guideline_replay::replay(&reread, game);
    if outcome.pieces != moves.len() {
        return Err(Error(format!(
            "bug: the game made {} moves but its record {} replays {}",
            moves.len(),
            record_file.display(),
            outcome.pieces
        )));
    }
    Ok(outcome)
}

/// The report of the game `r` played (`played`), whose record replays to `outcome`.
fn report(
    r: OnlineRun,
    outcome: Outcome,
    played: online::Played,
    fourwide: Option<crate::fourwide::Config>,
    run: RunInfo,
) -> GuidelinePlayReport {
    let game = r.game;
    let score = outcome.value(game.rules.objective);
    let per_piece = |v: u64| v as f64 / outcome.pieces.max(1) as f64;
    let n = played.times.len().max(1) as f64;
    let wall: Vec<f64> = played.times.iter().map(|t| t.wall_seconds).collect();
    let cpu: Option<Vec<f64>> = played.times.iter().map(|t| t.cpu_seconds).collect();
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let charged = cpu.as_deref().unwrap_or(&wall);
    GuidelinePlayReport {
        score,
        objective: game.rules.objective,
        attack_per_piece: per_piece(outcome.attack),
        points_per_piece: per_piece(outcome.points),
        outcome,
        topped_out: played.topped_out,
        stopped: played.stopped,
        pieces_asked: r.pieces,
        previews: r.previews,
        beam: r.beam,
        speculation: r.speculation,
        fourwide,
        fourwide_policy_moves: played.policy_moves,
        weights_name: r.weights_name,
        weights: r.weights,
        seconds_per_move_mean: wall.iter().sum::<f64>() / n,
        seconds_per_move_median: median(&wall),
        seconds_per_move_max: max(&wall),
        cpu_seconds_per_move_mean: cpu.as_ref().map(|c| c.iter().sum::<f64>() / n),
        cpu_seconds_per_move_median: cpu.as_deref().map(median),
        cpu_seconds_per_move_max: cpu.as_deref().map(max),
        moves_over_half_second: charged.iter().filter(|&&s| s > 0.5).count(),
        threads: r.threads,
        seed: r.seed.name.clone(),
        game: r.seed.clone(),
        record_file: r.record_file.display().to_string(),
        run,
    }
}
