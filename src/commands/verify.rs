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
}

pub fn run(args: &Args) -> Result<()> {
    let seed = io::load_seed(args.seed.as_deref())?;
    let record = io::read_record(&args.record)?;
    let outcome = replay::replay(&record, &seed.pieces());
    let report = Report {
        score: outcome.score,
        pieces: outcome.pieces,
        lines: outcome.lines,
        end_reason: outcome.end_reason,
        valid: true,
    };
    println!(
        "{}",
        serde_json::to_string(&report).expect("plain data serialises")
    );
    Ok(())
}
