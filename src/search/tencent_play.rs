//! One greedy game on a Tencent sequence (`play --seed seeds/tencent-geek-4.json`): the
//! one-piece player drops each piece where it has a valid path from spawn, over the game's
//! known pieces to its end, and the score reported is the replay of the record it wrote.

use super::greedy;
use crate::error::{Error, Result};
use crate::eval::players::Weights;
use crate::game_def::GameDef;
use crate::games::tencent::replay;
use crate::io;
use crate::results::RunInfo;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

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

/// Plays the greedy game of `w` (named `policy`) on the Tencent game `seed`, replays its
/// record (an error if the replay scores otherwise than the game) and writes the record to
/// `record_file`. `run`: provenance, taken when the run began.
pub fn play_tencent_game(
    seed: &GameDef,
    policy: &str,
    w: Weights,
    record_file: &Path,
    run: RunInfo,
) -> Result<TencentReport> {
    let pieces = seed.pieces();
    let start = Instant::now();
    let board = seed.tencent_start();
    let game = greedy::play_tencent(&w, &pieces, &board);
    let seconds = start.elapsed().as_secs_f64();
    let outcome = replay::replay_from(&board, &game.record, &pieces, |_| {});
    if outcome.score != game.score {
        return Err(Error(format!(
            "internal error: the greedy game scored {} but its record replays to {}",
            game.score, outcome.score
        )));
    }
    io::write_atomic(record_file, format!("{}\n", game.record).as_bytes())?;
    Ok(TencentReport {
        run,
        game: seed.name.clone(),
        policy: policy.to_string(),
        weights: w,
        score: game.score,
        replay_score: outcome.score,
        lines: game.lines,
        pieces: game.pieces,
        end_reason: outcome.end_reason,
        record_file: record_file.display().to_string(),
        seconds,
    })
}
