//! `beamtris solve`: beam search over a seed's sequence, on either family; writes the record
//! and a results JSON whose score comes from replaying that record.

use crate::error::{Error, Result};
use crate::family::solve::{self, Request};
use crate::games::tencent::movegen::MoveSet;
use std::path::{Path, PathBuf};

pub use crate::family::guideline_weights_name;
pub use crate::family::solve::{record_path, write_report, FourwideUse};
pub use crate::results::RunCost;

/// Find a high-scoring record by beam search, replay it, and write it with a results JSON.
///
/// Writes `OUT` (JSON: score from the replay, beam, moves, weights, time, memory, command,
/// commit, machine, date) and the record beside it as `OUT` with `.txt`, the record first.
/// Both are checked before the search starts. Ctrl-C (SIGINT) or SIGTERM stops the search,
/// writes the best line found so far marked `"complete": false`, and exits 130 or 143.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub game: super::game::GameArgs,
    #[arg(long, help = crate::games::registry::beam_help(&crate::games::FAMILIES))]
    pub beam: Option<usize>,
    /// Finish within about SECONDS of wall time (the search and the replay; not the build).
    /// The beam is then as wide as the machine's speed allows, step by step, up to `--beam`
    /// (default then 1 000 000): it starts at 100 states and follows the time the steps take.
    /// The record then depends on the machine and its load; it replays like any other.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Placements: `drop` (rotate, shift, hard drop) or `reach` (any unit moves: tucks, spins).
    #[arg(long, value_enum, default_value_t = MoveSet::Reach)]
    pub moves: MoveSet,
    #[arg(
        long,
        default_value = crate::eval::tencent::DEFAULT_PRESET,
        hide_default_value = true,
        help = crate::games::registry::weights_help(&crate::games::FAMILIES)
    )]
    pub weights: String,
    /// Worker threads (default: all cores). The record does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Place only the first K pieces (default: the whole game).
    #[arg(long)]
    pub pieces: Option<usize>,
    /// Results JSON path (default: runs/solve-SEED-MOVES-bBEAM-WEIGHTS-pPIECES.json, a
    /// folder git ignores, so a run never replaces the committed results/); the record goes
    /// to the same path with `.txt`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Guideline games: the 4-wide sub-strategy, which ranks a board holding a 4-wide section
    /// by the combo run the 4-wide solver finds for it over the known pieces. `auto` uses it
    /// where it was measured to pay (the attack objective with the guideline combo table,
    /// results/guideline/fourwide-ablation-*), `on` and `off` force it.
    #[arg(long, value_enum, default_value_t = FourwideUse::Auto)]
    pub fourwide: FourwideUse,
    /// The same as `--fourwide off`: boards ranked by their features alone.
    #[arg(long, conflicts_with = "fourwide")]
    pub no_fourwide: bool,
}

/// The record's path for results file `out`, both checked before any search, so a bad path
/// costs nothing: neither names a file the run reads (the game's files, `weights` when it is
/// a file, and `extra`), both writable, neither a folder. `solve` and `polish` write this pair.
pub(crate) fn check_outputs<'a>(
    game: &'a super::game::GameArgs,
    weights: &'a str,
    extra: &[(&'static str, &'a Path)],
    out: &Path,
) -> Result<PathBuf> {
    let mut inputs = game.input_files_with("--weights", Some(Path::new(weights)));
    inputs.extend_from_slice(extra);
    solve::check_outputs(out, &inputs)
}

pub fn run(args: &Args) -> Result<()> {
    let seed = args.game.load()?;
    if let (crate::game_def::Generator::Queue { .. }, Some(p)) = (&seed.generator, args.pieces) {
        if p > seed.pieces {
            return Err(Error(format!(
                "--pieces {p}: the queue makes a game of {} (give more letters)",
                crate::limits::plural(seed.pieces as u64, "piece", "pieces")
            )));
        }
    }
    let request = Request {
        beam: args.beam,
        time: args.time,
        moves: args.moves,
        weights: args.weights.clone(),
        pieces: args.pieces,
        out: args.out.clone(),
        fourwide: if args.no_fourwide {
            FourwideUse::Off
        } else {
            args.fourwide
        },
        fourwide_given: args.no_fourwide || args.fourwide != FourwideUse::Auto,
        changes_game: args.game.changes_game(),
        threads: args.threads,
        pps: args.game.pps,
        inputs: args
            .game
            .input_files_with("--weights", Some(Path::new(&args.weights)))
            .into_iter()
            .map(|(flag, path)| (flag, path.to_path_buf()))
            .collect(),
    };
    let game = crate::family::open(seed)?;
    let solved = crate::with_game!(&game, g => solve::solve(g, &request))?;
    eprintln!("{}", solved.summary);
    println!("{}", solved.json);
    Ok(())
}
