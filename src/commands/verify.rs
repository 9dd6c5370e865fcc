//! `beamtris verify RECORD`: replay a record and print its score as JSON.

use crate::error::{Error, Result};
use crate::games::guideline::replay as guideline;
use crate::games::tencent::replay;
use crate::io;
use serde::Serialize;
use std::path::PathBuf;

/// Replay a record file and print its outcome as one JSON object.
///
/// Tencent game: `{"score", "pieces", "lines", "end_reason", "valid", "clears", ...}`.
/// Guideline games: `{"points", "attack", "pieces", "lines", "end_reason", "max_combo",
/// "tspins", "perfect_clears", ...}`. A record the game would refuse (a bad token, a first
/// token that is not N, F under SRS, H1 not directly after N, more pieces than the game; for
/// the Tencent game 0 or more than 100 ops for a piece) is an error: one line on stderr naming
/// the file and the token, exit code 2.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record file: comma-separated tokens `N,C1,L2,D17,...`.
    pub record: PathBuf,
    #[command(flatten)]
    pub game: super::game::GameArgs,
    /// Before the summary, print one JSON line per lock: piece, hold, cells, rows cleared, spin,
    /// combo, back-to-back, points and attack gained.
    #[arg(long)]
    pub trace: bool,
}

/// One Tencent lock, for `--trace`.
#[derive(Serialize)]
struct TencentLock {
    lock: usize,
    piece: crate::piece::Shape,
    /// Cells (x, y), y = 0 at the top as the Tencent game counts.
    cells: [(i8, i8); 4],
    rows: u32,
    points: u32,
    score: u64,
}

/// What `verify` prints for a guideline game.
#[derive(Serialize)]
struct GuidelineReport {
    #[serde(flatten)]
    outcome: guideline::Outcome,
    /// The game's objective and its value.
    objective: crate::games::guideline::Objective,
    score: u64,
    /// Every piece of the record was played: the game did not end (lock out, block out)
    /// while the record still had pieces to place. As on the Tencent game.
    valid: bool,
    /// On a game of TETR.IO's generator: the record replayed on TETR.IO's engine under its
    /// rules (the game file's `tetrio` options, or today's versus rules played alone), with
    /// TETR.IO's statistics by its own names (`docs/tetrio.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    tetrio_stats: Option<crate::games::tetrio::stats::TetrioStats>,
}

/// TETR.IO's statistics of a record on a game of TETR.IO's generator (`None` on others).
pub fn tetrio_stats(
    seed: &crate::seed::Seed,
    record: &crate::record::Record,
    place: &str,
) -> Result<Option<crate::games::tetrio::stats::TetrioStats>> {
    use crate::games::tetrio::game::TetrioGame;
    let game = match (&seed.tetrio, &seed.generator) {
        (Some(t), _) => t.clone(),
        (None, crate::seed::Generator::Tetrio { seed, no_szo }) => {
            let mut t = TetrioGame::solo(*seed);
            t.options["no_szo"] = serde_json::Value::Bool(*no_szo);
            t
        }
        _ => return Ok(None),
    };
    if seed.start.is_some() {
        return Ok(None);
    }
    let paths: Vec<String> = record
        .paths()
        .iter()
        .map(|p| p.iter().map(|op| op.letter()).collect())
        .collect();
    let e = game.replay(&paths, place)?;
    Ok(Some(e.stats))
}

fn print_json(value: &impl Serialize) {
    println!(
        "{}",
        serde_json::to_string(value).expect("plain data serialises")
    );
}

fn run_guideline(args: &Args, seed: &crate::seed::Seed) -> Result<()> {
    let game = seed.guideline_game().expect("a guideline seed");
    let text = io::read_text(&args.record)?;
    let record = game
        .parse_record(&text)
        .map_err(|e| Error::at(args.record.display(), e))?;
    let outcome = guideline::replay_with(&record, &game, |event| {
        if args.trace {
            print_json(event);
        }
    });
    let score = match game.rules.objective {
        crate::games::guideline::Objective::Points => outcome.points,
        crate::games::guideline::Objective::Attack => outcome.attack,
    };
    let tetrio_stats = tetrio_stats(seed, &record, &args.record.display().to_string())?;
    print_json(&GuidelineReport {
        outcome,
        objective: game.rules.objective,
        score,
        valid: outcome.pieces >= record.pieces(),
        tetrio_stats,
    });
    Ok(())
}

#[derive(Serialize)]
struct Report {
    score: u64,
    pieces: usize,
    lines: u64,
    end_reason: replay::EndReason,
    /// Every piece of the record was played: the game did not end (top-out, blocked spawn,
    /// the sequence's end) while the record still had pieces to place.
    valid: bool,
    /// Clears of 1, 2, 3 and 4 lines.
    clears: [u64; 4],
    /// Mean cells on the board at a scoring lock, by lines cleared.
    mean_cells_at_clear: [f64; 4],
}

pub fn run(args: &Args) -> Result<()> {
    let seed = args.game.load_with_records("verify")?;
    if seed.guideline_rules().is_some() {
        return run_guideline(args, &seed);
    }
    let record = io::read_record(&args.record)?;
    let mut clears = [0u64; 4];
    let mut cells = [0u64; 4];
    let outcome = replay::replay_from(&seed.tencent_start(), &record, &seed.pieces(), |step| {
        if args.trace {
            let shape = step.piece.shape;
            print_json(&TencentLock {
                lock: step.index,
                piece: shape,
                cells: shape
                    .cells(step.pos.state)
                    .map(|(dx, dy)| (step.pos.x + dx, step.pos.y + dy)),
                rows: step.lock.lines,
                points: step.gain,
                score: step.score,
            });
        }
        if step.gain > 0 {
            let i = step.lock.lines as usize - 1;
            clears[i] += 1;
            cells[i] += step.lock.cells as u64;
        }
    });
    let mean = |i: usize| {
        if clears[i] == 0 {
            0.0
        } else {
            (cells[i] as f64 / clears[i] as f64 * 10.0).round() / 10.0
        }
    };
    let report = Report {
        score: outcome.score,
        pieces: outcome.pieces,
        lines: outcome.lines,
        end_reason: outcome.end_reason,
        valid: outcome.pieces >= record.pieces(),
        clears,
        mean_cells_at_clear: [mean(0), mean(1), mean(2), mean(3)],
    };
    print_json(&report);
    Ok(())
}
