//! `beamtris polish RECORD`: re-search a Tencent record's segments from its own boards with a
//! wider beam, keep every segment whose new line reaches the same board with more points, and
//! write the improved record with a results JSON whose score comes from replaying it.

use crate::error::{Error, Result};
use crate::eval::tencent::{Evaluator, Weights};
use crate::games::tencent::movegen::MoveSet;
use crate::games::tencent::replay;
use crate::io;
use crate::results::{load_average, RunInfo};
use crate::search::polish::{polish, segment_starts, PolishConfig};
use crate::search::tencent::rebuild_record;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Improve a Tencent record by re-searching its segments with a wider beam.
///
/// A Tencent game's future depends on the board alone, so a segment of the record (pieces
/// `s..s + SEGMENT`) can be replaced by any placement of the same pieces that leads from the
/// same board to the same board: the rest replays unchanged. For each segment in turn, a beam
/// of `--beam` boards searches from the record's board before it, and keeps the best-scoring
/// line that ends on the record's board after it; a segment is replaced when that line scores
/// more. The record read is not changed. Ctrl-C (SIGINT) or SIGTERM stops between segments
/// and writes the line as it stands.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record to improve (a Tencent record: comma-separated tokens `N,C1,L2,D17,...`).
    pub record: PathBuf,
    #[command(flatten)]
    pub game: super::game::GameArgs,
    /// Boards kept per piece within a segment.
    #[arg(long, default_value_t = 5000)]
    pub beam: usize,
    /// Pieces per segment.
    #[arg(long, default_value_t = 100)]
    pub segment: usize,
    /// Pieces between the starts of two segments (default: half a segment, so they overlap).
    #[arg(long)]
    pub stride: Option<usize>,
    /// Passes over the record; a pass that replaces nothing ends the run.
    #[arg(long, default_value_t = 1)]
    pub passes: usize,
    /// Stop after this many seconds (checked between segments) and write what was gained.
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Placements the segments' searches consider: `drop` or `reach`.
    #[arg(long, value_enum, default_value_t = MoveSet::Reach)]
    pub moves: MoveSet,
    /// Evaluator weights of the segments' searches: a preset or a JSON weights file.
    #[arg(long, default_value = crate::eval::tencent::DEFAULT_PRESET)]
    pub weights: String,
    /// Worker threads (default: all cores). The record does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Results JSON path (default: runs/polish-RECORD-bBEAM-sSEGMENT.json, in a folder git
    /// ignores); the improved record goes to the same path with `.txt`.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The results file of a polish.
#[derive(Serialize)]
struct PolishReport {
    /// The improved record's score under replay.
    score: u64,
    /// The score of the record read.
    score_before: u64,
    gained: u64,
    /// Whether the last pass tried every segment (no time limit or signal cut it).
    complete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_by: Option<&'static str>,
    passes: usize,
    segments_searched: usize,
    segments_replaced: usize,
    record_read: String,
    seed: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<crate::seed::Seed>,
    beam: usize,
    segment: usize,
    stride: usize,
    moves: MoveSet,
    weights_name: String,
    weights: Weights,
    pieces: usize,
    lines: u64,
    end_reason: replay::EndReason,
    #[serde(flatten)]
    cost: super::solve::RunCost,
}

fn default_out(record: &Path, args: &Args) -> PathBuf {
    let stem = record
        .file_stem()
        .map_or_else(|| "record".into(), |s| s.to_string_lossy().into_owned());
    PathBuf::from(format!(
        "runs/polish-{stem}-b{}-s{}.json",
        args.beam, args.segment
    ))
}

pub fn run(args: &Args) -> Result<()> {
    let seed = args.game.load()?;
    if seed.rules != "tencent" {
        return Err(Error(format!(
            "polish improves records of the tencent rule set; the game {} plays {:?} (a \
             guideline game's future depends on hold, combo and back-to-back as well as the \
             board)",
            seed.name, seed.rules
        )));
    }
    crate::limits::check_beam("--beam", args.beam)?;
    for (flag, value) in [("--segment", args.segment), ("--passes", args.passes)] {
        if value == 0 {
            return Err(Error(format!("{flag} 0: give at least 1")));
        }
    }
    if args.stride == Some(0) {
        return Err(Error("--stride 0: give at least 1".into()));
    }
    if let Some(s) = args.seconds {
        if !(s.is_finite() && s > 0.0) {
            return Err(Error(format!(
                "--seconds {}: give a positive number",
                crate::error::quote_number(s)
            )));
        }
    }
    let record = io::read_record(&args.record)?;
    let pieces = seed.pieces();
    let start = seed.tencent_start();
    let mut positions = Vec::new();
    let before = replay::replay_from(&start, &record, &pieces, |step| positions.push(step.pos));
    if before.pieces < record.pieces() {
        return Err(Error::at(
            args.record.display(),
            format!(
                "the game ends at piece {} ({}) with {} of the record still to place: not \
                 a record of {}",
                before.pieces.saturating_sub(1),
                before.end_reason,
                crate::limits::plural((record.pieces() - before.pieces) as u64, "piece", "pieces"),
                seed.name
            ),
        ));
    }
    if before.end_reason == replay::EndReason::TopOut || positions.len() >= pieces.len() {
        // A top-out lock and the game's last piece score nothing: the line before them is
        // what there is to polish (as `solve` never places the last piece).
        positions.pop();
    }
    let (weights, _) = Weights::resolve_noted(&args.weights)?;
    let (threads, pool) = super::thread_pool(args.threads)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&args.record, args));
    let stop = super::stop_on_ctrl_c();
    let record_file = super::solve::check_outputs(
        &args.game,
        &args.weights,
        &[("the record", args.record.as_path())],
        &out,
    )?;
    let stride = args.stride.unwrap_or((args.segment / 2).max(1));
    let cfg = PolishConfig {
        beam: args.beam,
        segment: args.segment,
        stride,
        moves: args.moves,
        evaluator: Evaluator::new(weights.clone()),
    };
    let run_info = RunInfo::now();
    let load_at_start = load_average();
    let t0 = Instant::now();
    let deadline = args.seconds.map(|s| t0 + Duration::from_secs_f64(s));
    let per_pass = segment_starts(positions.len(), args.segment.min(positions.len()), stride).len();
    eprintln!(
        "polishing {} ({} points, {}): segments of {} every {}, beam {}; Ctrl-C or SIGTERM \
         stops and keeps what was gained",
        args.record.display(),
        before.score,
        crate::limits::plural(positions.len() as u64, "piece", "pieces"),
        args.segment,
        stride,
        args.beam
    );
    let bar = crate::progress::bar(per_pass as u64, "{pos}/{len} segments  eta {eta}  {msg}");
    let mut last_line = Instant::now();
    let outcome = pool.install(|| {
        polish(
            &pieces,
            &start,
            &mut positions,
            &cfg,
            args.passes,
            deadline,
            &stop,
            |r| {
                if bar.position() + 1 >= per_pass as u64 {
                    bar.set_position(0);
                } else {
                    bar.inc(1);
                }
                bar.set_message(format!("score {}", r.total));
                if bar.is_hidden() && last_line.elapsed().as_secs() >= 30 {
                    last_line = Instant::now();
                    eprintln!(
                        "{:>7.0} s  pieces {}..{}  score {}",
                        t0.elapsed().as_secs_f64(),
                        r.start,
                        r.start + r.len,
                        r.total
                    );
                }
            },
        )
    });
    bar.finish_and_clear();
    let wall_seconds = t0.elapsed().as_secs_f64();
    let improved = rebuild_record(&start, &pieces, &positions, MoveSet::Reach);
    let text = format!("{improved}\n");
    let after = replay::replay_from(&start, &improved, &pieces, |_| {});
    if after.score != before.score + outcome.gained {
        return Err(Error(format!(
            "bug: polish claims {} but its record replays to {}",
            before.score + outcome.gained,
            after.score
        )));
    }
    io::write_atomic(&record_file, text.as_bytes())?;
    let report = PolishReport {
        score: after.score,
        score_before: before.score,
        gained: outcome.gained,
        complete: outcome.finished,
        stopped_by: crate::signal::interrupted_by().map(crate::signal::name),
        passes: outcome.passes,
        segments_searched: outcome.searched,
        segments_replaced: outcome.replaced,
        record_read: args.record.display().to_string(),
        seed: seed.name.clone(),
        game: args.game.changes_game().then(|| seed.clone()),
        beam: args.beam,
        segment: args.segment,
        stride,
        moves: args.moves,
        weights_name: args.weights.clone(),
        weights,
        pieces: after.pieces,
        lines: after.lines,
        end_reason: after.end_reason,
        cost: super::solve::RunCost::measured(
            wall_seconds,
            load_at_start,
            threads,
            &record_file,
            run_info,
        ),
    };
    let json = super::solve::write_report(&out, &report)?;
    eprintln!(
        "score {} (+{}, verified by replay), {} of {} segments replaced, {:.1} s{}; wrote {} \
         and {}",
        after.score,
        outcome.gained,
        outcome.replaced,
        outcome.searched,
        wall_seconds,
        if outcome.finished { "" } else { ", cut short" },
        out.display(),
        record_file.display()
    );
    println!("{json}");
    Ok(())
}
