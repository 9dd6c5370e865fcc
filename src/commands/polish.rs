//! `beamtris polish RECORD`: re-search a Tencent record's segments from its own boards with a
//! wider beam, keep every segment whose new line reaches the same board with more points, and
//! write the improved record with a results JSON whose score comes from replaying it. The
//! segment loop is [`crate::search::polish::polish_record`].

use crate::error::{Error, Result};
use crate::eval::tencent::Weights;
use crate::games::registry::Capability;
use crate::games::tencent::movegen::MoveSet;
use crate::io;
use crate::results::{load_average, RunInfo};
pub use crate::search::polish::PolishReport;
use crate::search::polish::{polish_record, record_line, PolishSettings};
use std::path::{Path, PathBuf};

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
    // The record's game as every command that reads a record finds it; the registry says
    // which families polish (a guideline game's future depends on hold, combo and
    // back-to-back as well as the board, so only the Tencent game's segments are re-searched).
    let seed = args.game.load_for_record("polish", &args.record)?;
    let family = seed.family();
    if !family.supports(Capability::Polish) {
        return Err(family.refuse(Capability::Polish, &seed.name));
    }
    check_flags(args)?;
    let record = io::read_record(&args.record)?;
    let line = record_line(&seed, &record, &args.record)?;
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
    let settings = PolishSettings {
        beam: args.beam,
        segment: args.segment,
        stride: args.stride.unwrap_or((args.segment / 2).max(1)),
        passes: args.passes,
        seconds: args.seconds,
        moves: args.moves,
        weights_name: args.weights.clone(),
        weights,
        record_read: &args.record,
        seed: &seed,
        report_game: args.game.changes_game(),
        pool: &pool,
        record_file: &record_file,
    };
    let run_info = RunInfo::now();
    let load_at_start = load_average();
    let report = polish_record(line, settings, &stop, |wall_seconds| {
        super::solve::RunCost::measured(
            wall_seconds,
            load_at_start,
            threads,
            &record_file,
            run_info,
        )
    })?;
    let json = super::solve::write_report(&out, &report)?;
    eprintln!(
        "score {} (+{}, verified by replay), {} of {} segments replaced, {:.1} s{}; wrote {} \
         and {}",
        report.score,
        report.gained,
        report.segments_replaced,
        report.segments_searched,
        report.cost.wall_seconds,
        if report.complete { "" } else { ", cut short" },
        out.display(),
        record_file.display()
    );
    println!("{json}");
    Ok(())
}

/// The sizes and the time limit, refused when no polish could use them.
fn check_flags(args: &Args) -> Result<()> {
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
    Ok(())
}
