//! `beamtris tbp`: serve the Tetris Bot Protocol on stdin/stdout (docs/tbp.md).

use crate::error::{Error, Result};
use crate::eval::guideline::{GuidelineEvaluator, GuidelineWeights};
use crate::games::guideline::{ComboTable, Objective, Rules, TopOut};
use crate::games::srs::RotationSystem;
use crate::protocols::tbp::{self, Config};
use std::time::Duration;

/// Play as a TBP bot: JSON messages on stdin, answers on stdout, notes on stderr.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// States the search keeps per piece (the online player's default).
    #[arg(long, default_value_t = super::play::DEFAULT_BEAM)]
    pub beam: usize,
    /// Milliseconds a suggestion may take: the search stops at the next piece after this and
    /// plays the best line it has. The default keeps a decision under half a second.
    #[arg(long, default_value_t = DEFAULT_THINK_MS)]
    pub think_ms: u64,
    /// Previews of the queue the search reads at most, after the piece in play (TETR.IO
    /// shows 5; 0 ranks the piece in play alone). A piece the 7-bag makes certain right after
    /// them is read too.
    #[arg(long, default_value_t = super::play::DEFAULT_PREVIEWS)]
    pub previews: usize,
    /// A guideline preset (attack, points, versus) or a weights file (default: `versus` with
    /// `--combo-table tetrio-chaining`, else `attack`).
    #[arg(long)]
    pub weights: Option<String>,
    /// The kick table of the front end's game: srs, or srs-plus (TETR.IO, with 180° turns).
    #[arg(long, value_enum, default_value_t = RotationArg::SrsPlus)]
    pub rotation: RotationArg,
    /// How combos add attack: guideline (the classic table), tetrio (TETR.IO's multiplier) or
    /// tetrio-chaining (TETR.IO as played today: the multiplier and the back-to-back chain
    /// bonus; a chain the `start` message reports as on counts from its first clear, since
    /// TBP does not say how long it is).
    #[arg(long, value_enum, default_value_t = ComboArg::Guideline)]
    pub combo_table: ComboArg,
    /// Where pieces enter and when the game ends at the top: guideline (pieces spawn with
    /// their lowest cells in row 21 of 40; block out and lock out end the game) or tetrio
    /// (TETR.IO's versus game: a piece the stack keeps from that spawn starts a row higher,
    /// where TETR.IO spawns it, and a piece may lock wholly above the 20 visible rows).
    #[arg(long, value_enum, default_value_t = TopOutArg::Guideline)]
    pub top_out: TopOutArg,
    #[command(flatten)]
    pub speculation: super::play::SpeculationArgs,
    /// The search's threads (one: the budget is one core's).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Do not start thinking before `suggest`. By default the bot starts on a position as
    /// soon as the front end falls silent after changing it; the moves are the same either
    /// way, only the wait differs.
    #[arg(long)]
    pub no_ponder: bool,
}

/// The think time that keeps a decision under half a second of wall time: the search stops
/// at the first piece boundary after it, and a step of beam 1 000 takes a few milliseconds.
pub const DEFAULT_THINK_MS: u64 = 400;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RotationArg {
    Srs,
    SrsPlus,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopOutArg {
    Guideline,
    Tetrio,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComboArg {
    Guideline,
    Tetrio,
    TetrioChaining,
}

/// The bot's settings from the flags, checked.
pub fn config(args: &Args) -> Result<Config> {
    crate::limits::check_beam("--beam", args.beam)?;
    if args.think_ms == 0 {
        return Err(Error("--think-ms 0: give at least 1".into()));
    }
    let rules = Rules {
        rotation: match args.rotation {
            RotationArg::Srs => RotationSystem::Srs,
            RotationArg::SrsPlus => RotationSystem::SrsPlus,
        },
        combo_table: match args.combo_table {
            ComboArg::Guideline => ComboTable::Guideline,
            ComboArg::Tetrio => ComboTable::Tetrio,
            ComboArg::TetrioChaining => ComboTable::TetrioChaining,
        },
        objective: Objective::Attack,
        top: match args.top_out {
            TopOutArg::Guideline => TopOut::Guideline,
            TopOutArg::Tetrio => TopOut::Tetrio,
        },
    };
    let weights = GuidelineWeights::resolve(
        args.weights
            .as_deref()
            .unwrap_or(crate::eval::guideline::rules_preset(&rules)),
    )?;
    let (_, pool) = super::thread_pool(Some(args.threads))?;
    Ok(Config {
        rules,
        beam: args.beam,
        previews: args.previews,
        think: Duration::from_millis(args.think_ms),
        evaluator: GuidelineEvaluator::new(weights),
        speculation: super::play::speculation(&args.speculation)?,
        pool,
        ponder: !args.no_ponder,
    })
}

/// Serves the protocol until `quit` or the end of input.
pub fn run(args: &Args) -> Result<()> {
    let config = config(args)?;
    let stdin = std::io::BufReader::new(std::io::stdin());
    tbp::serve(stdin, std::io::stdout().lock(), &config)
}
