//! `beamtris verify RECORD`: replay a record and print its score as JSON.

use crate::error::Result;
use crate::family::Family;
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

pub fn run(args: &Args) -> Result<()> {
    let seed = args.game.load_for_record("verify", &args.record)?;
    let game = crate::family::open(seed)?;
    let place = args.record.display().to_string();
    let mut print = |line: String| println!("{line}");
    let trace = args.trace.then_some(&mut print as &mut dyn FnMut(String));
    let json = crate::with_game!(&game, g => {
        let record = g
            .read_record(&args.record, "verify")
            .map_err(|e| args.game.explain(&args.record, e))?;
        serde_json::to_string(&g.verify(&record, &place, trace)?)
    });
    println!("{}", json.expect("plain data serialises"));
    Ok(())
}
