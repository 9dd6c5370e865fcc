//! `learn data` and `learn fit` on guideline games: the solve `solve` would run, observed
//! for the lineage of its kept boards, and a lineage fit written as guideline weights
//! (docs/learning.md). The flags are `learn`'s own; what makes no sense without rollouts is
//! refused here with one line.

use super::learn::{check_data_args, provenance, DataArgs, FitArgs};
use super::solve::{guideline_weights_name, FourwideUse};
use crate::error::{Error, Result};
use crate::eval::guideline::{objective_preset, GuidelineEvaluator, GuidelineWeights, FEATURES};
use crate::fourwide::continuation::Continuation;
use crate::games::guideline::Objective;
use crate::io;
use crate::learn::fit::{self, Label, Row};
use crate::learn::guideline::{self as data, Draw};
use crate::seed::Seed;
use std::path::Path;
use std::time::Instant;

/// `learn data` on a guideline game.
pub(super) fn run_data(args: &DataArgs, seed: &Seed) -> Result<()> {
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
    let weights_name = guideline_weights_name(&args.weights, objective);
    let weights = GuidelineWeights::resolve(&weights_name)?;
    let evaluator = GuidelineEvaluator::new(weights);
    let (_, pool) = super::thread_pool(args.threads)?;
    io::check_outputs(&[("--out", &args.out)])?;
    let stop = super::stop_on_ctrl_c();
    let steps = args.pieces.unwrap_or(game.length).min(game.length);
    // The search `solve` runs on this game, the 4-wide sub-strategy where it applies.
    let continuation =
        Continuation::build(&game.pieces, game.rules.combo_table, game.rules.objective);
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
    let (line, samples) = pool.install(|| data::collect(&draw, &stop, |r| progress.step(r)));
    progress.finish();
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(Error(
            "stopped before the data was complete; nothing written".into(),
        ));
    }
    io::write_atomic(&args.out, data::to_csv(objective, &samples).as_bytes())?;
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
pub(super) fn run_fit(
    args: &FitArgs,
    objective: Objective,
    texts: &[(&Path, String)],
) -> Result<()> {
    let label = args.label.unwrap_or(Label::Lineage);
    if label != Label::Lineage {
        let name = format!("{label:?}").to_lowercase();
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
        .unwrap_or_else(|| objective_preset(objective).to_string());
    let base = GuidelineWeights::resolve(&base_name)?;
    let mut samples = Vec::new();
    for (path, text) in texts {
        samples.extend(data::from_csv(objective, text).map_err(|e| Error::at(path.display(), e))?);
    }
    let rows: Vec<Row> = samples
        .iter()
        .map(|s| Row {
            step: s.step,
            label: fit::lineage_label(s.descendants),
            features: &s.features,
        })
        .collect();
    let r = fit::ridge(&rows, &FEATURES, args.ridge, &args.features).map_err(Error)?;
    let weights = data::add(&base, &r.weights, scale);
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
