//! `beamtris learn`: a value for the beam learned from its own games.
//!
//! `learn data` runs a solve and labels boards its beam kept by their lineage and, on
//! Tencent games, by rollouts over the pieces ahead (CSV); `learn fit` fits a linear value to
//! one or more such files and writes a weights file that `solve --weights` reads. Guideline
//! games go through [`run_guideline_data`] and [`run_guideline_fit`]. docs/learning.md has the loop and the format.

use super::solve::{guideline_weights_name, FourwideUse};
use crate::error::{Error, Result};
use crate::eval::guideline::{GuidelineEvaluator, GuidelineWeights, FEATURES};
use crate::eval::tencent::{Evaluator, Weights};
use crate::fourwide::continuation::Continuation;
use crate::game_def::GameDef;
use crate::games::guideline::Objective;
use crate::games::registry::RuleSet;
use crate::games::tencent::movegen::MoveSet;
use crate::io;
use crate::learn::data::{self, DataConfig};
use crate::learn::fit::{self, Label, Row};
use crate::learn::guideline::{self as learn_guideline, Draw};
use crate::search::tencent::BeamConfig;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Learn a value for the beam: draw labelled boards from a solve, or fit a model to them.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub job: Job,
}

#[derive(clap::Subcommand, Debug)]
pub enum Job {
    /// Solve, keep some of the boards the beam kept, and label each by how many states the
    /// beam kept later descend from it and, on Tencent games, by a rollout over the pieces
    /// ahead (the points its best line adds). Writes CSV.
    Data(DataArgs),
    /// Fit a linear value to data files; write a weights file for `solve --weights`.
    Fit(FitArgs),
}

/// `learn data`.
#[derive(clap::Args, Debug)]
pub struct DataArgs {
    #[command(flatten)]
    pub game: super::game::GameArgs,
    /// Boards the solve keeps per piece.
    #[arg(long, default_value_t = 1000)]
    pub beam: usize,
    /// Placements: `drop` or `reach` (default; Tencent games only).
    #[arg(long, value_enum)]
    pub moves: Option<MoveSet>,
    /// Weights of the solve and of the rollouts: a preset or a weights file (a learned
    /// model too: that is the next round of value iteration). On a guideline game the
    /// default stands for the objective's preset, as in `solve`.
    #[arg(long, default_value = crate::eval::tencent::DEFAULT_PRESET)]
    pub weights: String,
    /// Place only the first K pieces (default: the whole game).
    #[arg(long)]
    pub pieces: Option<usize>,
    /// Take boards after every K-th piece.
    #[arg(long, default_value_t = 20)]
    pub every: usize,
    /// Boards taken at each such piece, evenly spaced in the beam's rank order.
    #[arg(long, default_value_t = 16)]
    pub per_step: usize,
    /// Pieces each rollout plays past its board, and over which its descendants are counted.
    #[arg(long, default_value_t = 40)]
    pub horizon: usize,
    /// The rollouts' beam width (0: no rollouts, only the descendants count). Default 30 on
    /// Tencent games; guideline games have no rollouts (0 only).
    #[arg(long)]
    pub rollout_beam: Option<usize>,
    /// Worker threads (default: all cores). The data does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The CSV to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// `learn fit`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// Data files written by `learn data`.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// What to fit: `value` (the points a rollout added plus the evaluator's estimate of
    /// its last board), `gained` (the points alone) or `lineage`. Default: `value` on
    /// Tencent data, `lineage` (the only label there) on guideline data.
    #[arg(long, value_enum)]
    pub label: Option<fit::Label>,
    /// Fit only these value features (comma-separated; default: all). A model without
    /// `hole_depth` and `wells` is cheaper to evaluate.
    #[arg(long, value_delimiter = ',')]
    pub features: Vec<String>,
    /// Ridge penalty on the standardised features (0: least squares).
    #[arg(long, default_value_t = 1e-3)]
    pub ridge: f64,
    /// Keep these weights' rank and add the fitted value as a correction to the value they
    /// stand for (their features over `score_weight`, in points), scaled by `--blend`.
    /// Without it the file ranks on the fitted value alone (score + value). On guideline
    /// data: guideline weights, by default the objective's preset.
    #[arg(long)]
    pub base: Option<String>,
    /// With `--base`: how far to move from the base's value towards the fitted one (0: the
    /// base as it is; 1: the fitted value alone; default 0.5). Tencent data only.
    #[arg(long, requires = "base")]
    pub blend: Option<f64>,
    /// Add the fitted value to the base's rank at this many points (on guideline data:
    /// units of the objective, attack or points) a unit instead of blending (for `--label
    /// lineage`, whose units are not points). Needs `--base` on Tencent data; required on
    /// guideline data.
    #[arg(long, conflicts_with = "blend")]
    pub add: Option<f64>,
    /// The weights file to write (Tencent: `{"score_weight": ..., "value": {...}}`;
    /// guideline: the guideline weights format).
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &Args) -> Result<()> {
    match &args.job {
        Job::Data(a) => run_data(a),
        Job::Fit(a) => run_fit(a),
    }
}

/// Checks the flags both families' `learn data` share.
fn check_data_args(args: &DataArgs) -> Result<()> {
    crate::limits::check_beam("--beam", args.beam)?;
    if args.pieces == Some(0) {
        return Err(Error("--pieces 0: give at least 1".into()));
    }
    for (flag, v) in [
        ("--every", args.every),
        ("--per-step", args.per_step),
        ("--horizon", args.horizon),
    ] {
        if v == 0 {
            return Err(Error(format!("{flag} 0: give at least 1")));
        }
    }
    Ok(())
}

/// Installs the signal handlers, then checks `--out` (writable, not the game or weights
/// file): both data paths, before their solve.
fn stop_after_checking_out(args: &DataArgs) -> Result<Arc<AtomicBool>> {
    let stop = super::stop_on_ctrl_c();
    io::check_outputs(
        &[("--out", &args.out)],
        &args
            .game
            .input_files_with("--weights", Some(Path::new(&args.weights))),
    )?;
    Ok(stop)
}

fn run_data(args: &DataArgs) -> Result<()> {
    let seed = args.game.load()?;
    if seed.guideline_rules().is_some() {
        return run_guideline_data(args, &seed);
    }
    if seed.rules != RuleSet::Tencent {
        return Err(Error(format!(
            "learn data: the game {} plays the {:?} rules; learned values are for the tencent \
             and guideline families",
            seed.name, seed.rules
        )));
    }
    check_data_args(args)?;
    let rollout_beam = args.rollout_beam.unwrap_or(30);
    if rollout_beam > 0 {
        crate::limits::check_beam("--rollout-beam", rollout_beam)?;
    }
    let (weights, _) = Weights::resolve_noted(&args.weights)?;
    let (_, pool) = super::thread_pool(args.threads)?;
    let stop = stop_after_checking_out(args)?;
    let pieces = seed.pieces();
    let cfg = BeamConfig {
        beam: args.beam,
        moves: args.moves.unwrap_or(MoveSet::Reach),
        evaluator: Evaluator::new(weights),
        start: seed.tencent_start(),
    };
    let data_cfg = DataConfig {
        every: args.every,
        per_step: args.per_step,
        horizon: args.horizon,
        rollout_beam,
    };
    eprintln!(
        "learn data on {}: solve at beam {} with {}, then {} boards every {} pieces, each \
         rolled out {} pieces at beam {}",
        seed.name, args.beam, args.weights, args.per_step, args.every, args.horizon, rollout_beam
    );
    let start = Instant::now();
    let total = args
        .pieces
        .unwrap_or(usize::MAX)
        .min(pieces.len().saturating_sub(1));
    let mut progress = super::SearchProgress::new(total, start);
    let rollouts = crate::progress::bar(0, "{pos}/{len} rollouts  eta {eta}");
    let (result, samples) = pool.install(|| {
        data::collect(
            &pieces,
            args.pieces,
            &cfg,
            &data_cfg,
            &stop,
            |r| progress.step(r),
            |n, of| {
                rollouts.set_length(of as u64);
                rollouts.set_position(n as u64);
            },
        )
    });
    progress.finish();
    rollouts.finish_and_clear();
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(Error(
            "stopped before the data was complete; nothing written".into(),
        ));
    }
    io::write_atomic(&args.out, data::to_csv(&samples).as_bytes())?;
    eprintln!(
        "{} samples (solve score {}, {:.1} s in all); wrote {}",
        samples.len(),
        result.score,
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

fn run_fit(args: &FitArgs) -> Result<()> {
    if !(args.ridge.is_finite() && args.ridge >= 0.0) {
        return Err(Error(format!(
            "--ridge {}: give a number of 0 or more",
            args.ridge
        )));
    }
    if let Some(blend) = args.blend {
        if !(blend.is_finite() && (0.0..=1.0).contains(&blend)) {
            return Err(Error(format!("--blend {blend}: give a number from 0 to 1")));
        }
    }
    if let Some(add) = args.add {
        if !add.is_finite() {
            return Err(Error(format!("--add {add}: give a finite number")));
        }
    }
    let mut inputs: Vec<(&str, &Path)> = args.data.iter().map(|p| ("data", p.as_path())).collect();
    if let Some(base) = args.base.as_deref().map(Path::new).filter(|b| b.is_file()) {
        inputs.push(("--base", base));
    }
    io::check_outputs(&[("--out", &args.out)], &inputs)?;
    let mut texts = Vec::with_capacity(args.data.len());
    for path in &args.data {
        texts.push((path.as_path(), io::read_text(path)?));
    }
    // The family (and, for guideline data, the objective) is the first file's header's; the
    // others must be of the same.
    let family = learn_guideline::objective_of(&texts[0].1);
    for (path, text) in &texts[1..] {
        if learn_guideline::objective_of(text) != family {
            return Err(Error::at(
                path.display(),
                format!(
                    "not of the family of {} ({}): fit one family (and objective) at a time",
                    texts[0].0.display(),
                    match family {
                        Some(o) => format!("guideline, {o:?}"),
                        None => "tencent".into(),
                    }
                ),
            ));
        }
    }
    match family {
        Some(objective) => run_guideline_fit(args, objective, &texts),
        None => run_fit_tencent(args, &texts),
    }
}

/// A fit's error: one about a flag as it is, one about the data naming the data files.
fn fit_error(args: &FitArgs, e: String) -> Error {
    if e.starts_with("--") {
        return Error(e);
    }
    let names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    Error::at(names.join(", "), e)
}

/// The provenance of a fit: the command that made it, as far as it matters.
fn provenance(args: &FitArgs, label: fit::Label) -> String {
    let names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    format!(
        "beamtris learn fit --label {} --ridge {}{}{} on {}",
        label.name(),
        args.ridge,
        if args.features.is_empty() {
            String::new()
        } else {
            format!(" --features {}", args.features.join(","))
        },
        match (&args.base, args.add) {
            (Some(b), Some(a)) => format!(" --base {b} --add {a}"),
            (Some(b), None) => format!(" --base {b} --blend {}", args.blend.unwrap_or(0.5)),
            (None, Some(a)) => format!(" --add {a}"),
            (None, None) => String::new(),
        },
        names.join(" ")
    )
}

fn run_fit_tencent(args: &FitArgs, texts: &[(&std::path::Path, String)]) -> Result<()> {
    if args.add.is_some() && args.base.is_none() {
        return Err(Error(
            "--add: give --base, the weights the fitted value is added to".into(),
        ));
    }
    let base = match &args.base {
        Some(b) => Some(Weights::resolve(b)?),
        None => None,
    };
    let mut samples = Vec::new();
    for (path, text) in texts {
        samples.extend(data::from_csv(text).map_err(|e| Error::at(path.display(), e))?);
    }
    let label = args.label.unwrap_or(fit::Label::Value);
    let f = fit::fit(
        &samples,
        label,
        args.ridge,
        &args.features,
        provenance(args, label),
    )
    .map_err(|e| fit_error(args, e))?;
    let weights = match (base, args.add) {
        (Some(b), Some(scale)) => fit::add(&b, &f.model, scale).map_err(Error)?,
        (Some(b), None) => fit::blend(&b, &f.model, args.blend.unwrap_or(0.5)).map_err(Error)?,
        (None, _) => Weights {
            score_weight: 1.0,
            min_clear_cells: None,
            fade_pieces: None,
            value: Some(Box::new(f.model)),
            i_ahead: None,
            open_column: None,
            features: Default::default(),
        },
    };
    let json = serde_json::to_string_pretty(&weights).expect("plain data serialises");
    io::write_atomic(&args.out, format!("{json}\n").as_bytes())?;
    eprintln!(
        "fitted on {} samples, R² {:.3}; held out {}, R² {:.3}; wrote {}",
        f.train,
        f.r2_train,
        f.held_out,
        f.r2_held_out,
        args.out.display()
    );
    Ok(())
}

/// `learn data` on a guideline game.
fn run_guideline_data(args: &DataArgs, seed: &GameDef) -> Result<()> {
    let game = seed.guideline_game().expect("a guideline seed");
    if let Some(b) = args.rollout_beam.filter(|&b| b > 0) {
        return Err(Error(format!(
            "--rollout-beam {b}: guideline games have no rollouts; their label is the lineage \
             (give 0 or leave it out)"
        )));
    }
    if args.moves.is_some() {
        return Err(Error(
            "--moves: guideline games place every reachable placement (SRS); leave it out".into(),
        ));
    }
    check_data_args(args)?;
    let objective = game.rules.objective;
    let weights_name = guideline_weights_name(&args.weights, &game.rules);
    let weights = GuidelineWeights::resolve(&weights_name)?;
    let evaluator = GuidelineEvaluator::new(weights);
    let (_, pool) = super::thread_pool(args.threads)?;
    let stop = stop_after_checking_out(args)?;
    let steps = args.pieces.unwrap_or(game.length).min(game.length);
    // The search `solve` runs on this game, the 4-wide sub-strategy where it applies.
    let continuation = Continuation::for_locks(
        &game.pieces,
        steps,
        game.rules.combo_table,
        game.rules.objective,
    );
    let fourwide = FourwideUse::Auto
        .applies(&game.rules)
        .then_some(&continuation);
    let draw = Draw {
        game: &game,
        steps,
        beam: args.beam,
        evaluator: &evaluator,
        fourwide,
        every: args.every,
        per_step: args.per_step,
        horizon: args.horizon,
    };
    eprintln!(
        "learn data on {} ({objective:?}): solve at beam {} with {weights_name}{}, then {} \
         boards every {} pieces, each with its descendants {} pieces later",
        seed.name,
        args.beam,
        if fourwide.is_some() {
            " and 4-wide"
        } else {
            ""
        },
        args.per_step,
        args.every,
        args.horizon
    );
    let start = Instant::now();
    let mut progress = super::SearchProgress::new(steps, start);
    let (line, samples) =
        pool.install(|| learn_guideline::collect(&draw, &stop, |r| progress.step(r)));
    progress.finish();
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(Error(
            "stopped before the data was complete; nothing written".into(),
        ));
    }
    io::write_atomic(
        &args.out,
        learn_guideline::to_csv(objective, &samples).as_bytes(),
    )?;
    eprintln!(
        "{} samples (solve: {} {objective:?} over {} pieces, {:.1} s); wrote {}",
        samples.len(),
        line.score,
        line.moves.len(),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// `learn fit` on guideline data of `objective`: the lineage fit, added to the base
/// guideline weights at `--add` units of the objective a unit of value.
fn run_guideline_fit(
    args: &FitArgs,
    objective: Objective,
    texts: &[(&Path, String)],
) -> Result<()> {
    let label = args.label.unwrap_or(Label::Lineage);
    if label != Label::Lineage {
        let name = label.name();
        return Err(Error(format!(
            "--label {name}: guideline data has no rollouts; its one label is lineage"
        )));
    }
    if args.blend.is_some() {
        return Err(Error(
            "--blend: the lineage value is not in units of the score; give --add SCALE".into(),
        ));
    }
    let Some(scale) = args.add else {
        return Err(Error(
            "learn fit on guideline data: give --add SCALE (the objective's units a unit of \
             the lineage value is worth; the value alone ranks nothing)"
                .into(),
        ));
    };
    let base_name = args
        .base
        .clone()
        // the preset named for the objective (the data file does not say the combo table)
        .unwrap_or_else(|| objective.name().to_string());
    let base = GuidelineWeights::resolve(&base_name)?;
    let mut samples = Vec::new();
    for (path, text) in texts {
        samples.extend(
            learn_guideline::from_csv(objective, text).map_err(|e| Error::at(path.display(), e))?,
        );
    }
    let rows: Vec<Row> = samples
        .iter()
        .map(|s| Row {
            step: s.step,
            label: fit::lineage_label(s.descendants),
            features: &s.features,
        })
        .collect();
    let r =
        fit::ridge(&rows, &FEATURES, args.ridge, &args.features).map_err(|e| fit_error(args, e))?;
    let weights = learn_guideline::add(&base, &r.weights, scale);
    let json = serde_json::to_string_pretty(&weights).expect("plain data serialises");
    io::write_atomic(&args.out, format!("{json}\n").as_bytes())?;
    let value: Vec<String> = FEATURES
        .iter()
        .zip(&r.weights)
        .filter(|(_, &w)| w != 0.0)
        .map(|(name, w)| format!("{name} {w:.4}"))
        .collect();
    eprintln!("{}", provenance(args, label));
    eprintln!("fitted value (per feature): {}", value.join(", "));
    eprintln!(
        "fitted on {} samples, R² {:.3}; held out {}, R² {:.3}; {base_name} + {scale} x the \
         value; wrote {}",
        r.train,
        r.r2_train,
        r.held_out,
        r.r2_held_out,
        args.out.display()
    );
    Ok(())
}
