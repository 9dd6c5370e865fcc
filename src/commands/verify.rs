//! `beamtris verify RECORD`: replay a record and print its score as JSON.

use crate::error::Result;
use crate::io;
use crate::replay;
use serde::Serialize;
use std::path::PathBuf;

/// Replay a record file and print `{"score", "pieces", "end_reason", "valid"}` as JSON.
///
/// A record the game would refuse (bad token, first token not N, 0 or more than 100 ops for
/// a piece) is an error: one line on stderr naming the file and the token, exit code 2.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record file: comma-separated tokens `N,C1,L2,D17,...`.
    pub record: PathBuf,
    /// The game definition (default: the built-in Tencent Geek 4 game).
    #[arg(long)]
    pub seed: Option<PathBuf>,
}

#[derive(Serialize)]
struct Report {
    score: u64,
    pieces: usize,
    lines: u64,
    end_reason: replay::EndReason,
    valid: bool,
    /// Clears of 1, 2, 3 and 4 lines.
    clears: [u64; 4],
    /// Mean cells on the board at a scoring lock, by lines cleared.
    mean_cells_at_clear: [f64; 4],
}

pub fn run(args: &Args) -> Result<()> {
    let seed = io::load_seed(args.seed.as_deref())?;
    let record = io::read_record(&args.record)?;
    let mut clears = [0u64; 4];
    let mut cells = [0u64; 4];
    let outcome = replay::replay_with(&record, &seed.pieces(), |step| {
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
        valid: true,
        clears,
        mean_cells_at_clear: [mean(0), mean(1), mean(2), mean(3)],
    };
    println!(
        "{}",
        serde_json::to_string(&report).expect("plain data serialises")
    );
    Ok(())
}
