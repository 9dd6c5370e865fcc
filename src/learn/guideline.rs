//! Training data from guideline games, and the weights a lineage fit on it makes.
//!
//! The guideline beam is observed as the Tencent one is ([`super::lineage`]: the same boards
//! taken, the same descendants count); there are no rollouts, so the one label is the
//! lineage. The features written are the guideline evaluator's own
//! ([`crate::eval::guideline::FEATURES`]), so a value fitted on them is linear in what the
//! rank already weighs, and the base weights plus the scaled value are just new weights.

use super::csv;
use super::lineage::Lineage;
use crate::eval::guideline::{features, GuidelineEvaluator, GuidelineWeights, FEATURES};
use crate::fourwide::continuation::Continuation;
use crate::games::guideline::replay::GuidelineGame;
use crate::games::guideline::{Objective, State};
use crate::search::beam::{Kept, Line, StepReport};
use crate::search::guideline::{self as search, Move};
use std::sync::atomic::AtomicBool;

/// Number of guideline features.
pub const NUM_FEATURES: usize = FEATURES.len();

/// One board the guideline beam kept, and how much of the beam grew from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The piece (0-based) whose placement made the board.
    pub step: usize,
    /// Its place in the beam's rank order (0 = best ranked).
    pub rank_index: usize,
    /// The objective's value (attack or points) when the board was reached.
    pub score: u32,
    /// How many of the states the beam kept `horizon` pieces later descend from it.
    pub descendants: u32,
    /// The guideline evaluator's features of the state, in [`FEATURES`] order.
    pub features: [f64; NUM_FEATURES],
}

/// The solve to observe and what to take from it.
pub struct Draw<'a> {
    pub game: &'a GuidelineGame,
    /// Pieces to place (at most the game's length).
    pub steps: usize,
    pub beam: usize,
    pub evaluator: &'a GuidelineEvaluator,
    /// The 4-wide sub-strategy, as `solve` would use it.
    pub fourwide: Option<&'a Continuation>,
    /// Take boards after every `every`-th piece, `per_step` of them.
    pub every: usize,
    pub per_step: usize,
    /// Pieces over which the descendants are counted.
    pub horizon: usize,
}

/// Runs the solve and returns its line and the samples in (step, rank) order. Only steps
/// with a whole horizon of the solve after them are taken.
pub fn collect(
    draw: &Draw,
    stop: &AtomicBool,
    report: impl FnMut(&StepReport),
) -> (Line<Move>, Vec<Sample>) {
    let steps = draw.steps.min(draw.game.length);
    let mut lineage = Lineage::new(
        draw.every,
        draw.per_step,
        steps.checked_sub(draw.horizon + 1),
    );
    let mut samples = Vec::new();
    let mut observe = |k: usize, kept: &[Kept<State>]| {
        for i in lineage.observe(k, kept) {
            samples.push(Sample {
                step: k,
                rank_index: i,
                score: kept[i].score,
                descendants: 0,
                features: features(&kept[i].state).values().map(f64::from),
            });
        }
    };
    let line = search::search_observed(
        draw.game,
        steps,
        draw.beam,
        draw.evaluator,
        draw.fourwide,
        stop,
        report,
        Some(&mut observe),
    );
    for (s, d) in samples.iter_mut().zip(lineage.descendants(draw.horizon)) {
        s.descendants = d;
    }
    (line, samples)
}

/// The columns before the features: the score column is named by the objective (`attack`
/// or `points`), which is how a reader tells a guideline file, and its objective, from a
/// Tencent one (whose third column is `score`).
fn lead(objective: Objective) -> [&'static str; 4] {
    ["step", "rank_index", objective.name(), "descendants"]
}

/// The CSV header line of a guideline game of `objective` (no newline).
pub fn csv_header(objective: Objective) -> String {
    csv::header(&lead(objective), &FEATURES)
}

/// The samples of a game of `objective` as CSV, header first.
pub fn to_csv(objective: Objective, samples: &[Sample]) -> String {
    let mut out = csv_header(objective);
    out.push('\n');
    for s in samples {
        out.push_str(&format!(
            "{},{},{},{}",
            s.step, s.rank_index, s.score, s.descendants
        ));
        csv::push_numbers(&mut out, &s.features);
        out.push('\n');
    }
    out
}

/// Whether `text` is a guideline data file, and of which objective (by its header).
pub fn objective_of(text: &str) -> Option<Objective> {
    let first = text.lines().next()?.trim_end();
    [Objective::Attack, Objective::Points]
        .into_iter()
        .find(|&o| first == csv_header(o))
}

/// Reads samples written by [`to_csv`] for `objective`. Errors name the line (1-based) and
/// the column.
pub fn from_csv(objective: Objective, text: &str) -> Result<Vec<Sample>, String> {
    let expected = format!(
        "guideline, {}: {}",
        lead(objective)[2],
        csv_header(objective)
    );
    let mut out = Vec::new();
    for row in csv::rows(text, &csv_header(objective), &expected)? {
        out.push(Sample {
            step: row.count(0)? as usize,
            rank_index: row.count(1)? as usize,
            score: row.count32(2)?,
            descendants: row.count32(3)?,
            features: row.numbers(4, &FEATURES)?,
        });
    }
    Ok(out)
}

/// `base` plus `scale` objective units (attack or points) for each unit of the fitted value
/// `value` (a weight per feature, in [`FEATURES`] order; higher is better). The rank is
/// `Σ w × features − score_weight × score`, lower better, so a value worth `scale × v`
/// units of score enters as `−score_weight × scale × v`: each feature's weight becomes
/// `w − score_weight × scale × value`.
pub fn add(base: &GuidelineWeights, value: &[f64], scale: f64) -> GuidelineWeights {
    let mut out = base.clone();
    for (name, v) in FEATURES.iter().zip(value) {
        let own = out.features.get(*name).copied();
        let w = own.unwrap_or(0.0) - base.score_weight * scale * v;
        // a feature the base leaves out stays out unless the value weighs it
        if own.is_some() || w != 0.0 {
            out.features.insert(name.to_string(), w);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_def::GameDef;

    #[test]
    fn the_header_round_trips_and_names_the_objective() {
        for o in [Objective::Attack, Objective::Points] {
            let h = csv_header(o);
            assert_eq!(objective_of(&format!("{h}\n")), Some(o));
            assert_eq!(h.split(',').count(), 4 + NUM_FEATURES);
            assert_eq!(h.split(',').skip(4).collect::<Vec<_>>(), FEATURES);
        }
        assert_eq!(
            csv_header(Objective::Attack),
            "step,rank_index,attack,descendants,max_height,total_height,height_over_half,\
             bumpiness,bumpiness_sq,holes,covered,row_transitions,well_depth,tslot,b2b,combo,\
             fourwide_rows"
        );
        // a Tencent file is not a guideline one
        assert_eq!(objective_of(&super::super::data::csv_header()), None);
        // the objective must match
        let points = to_csv(Objective::Points, &[]);
        assert!(from_csv(Objective::Attack, &points)
            .unwrap_err()
            .starts_with("line 1: the header is not this build's (guideline, attack"));
    }

    #[test]
    fn draws_the_kept_boards_and_their_lineage() {
        let seed = GameDef::load(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/seeds/cc2/tetrio-1-srs-attack.json"
        )))
        .unwrap();
        let game = seed.guideline_game().unwrap();
        let evaluator = GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap());
        let draw = Draw {
            game: &game,
            steps: 60,
            beam: 30,
            evaluator: &evaluator,
            fourwide: None,
            every: 10,
            per_step: 4,
            horizon: 20,
        };
        let stop = AtomicBool::new(false);
        let (line, samples) = collect(&draw, &stop, |_| {});
        assert_eq!(line.moves.len(), 60);
        // steps 9, 19, 29, 39 (39 + 20 is the last step, 59): 4 boards each
        assert_eq!(samples.len(), 16);
        assert_eq!(samples[4].step, 19);
        assert_eq!(
            samples[..4]
                .iter()
                .map(|s| s.rank_index)
                .collect::<Vec<_>>(),
            [0, 9, 19, 29]
        );
        // the beam keeps 30 states: the lineages of one step's boards share them
        let at_9: u32 = samples[..4].iter().map(|s| s.descendants).sum();
        assert!(at_9 <= 30 && samples[0].descendants > 0, "{samples:?}");
        // features are the evaluator's own; the CSV reads back to the same samples
        assert!(samples.iter().all(|s| s.features.iter().all(|f| *f >= 0.0)));
        let text = to_csv(Objective::Attack, &samples);
        assert_eq!(objective_of(&text), Some(Objective::Attack));
        assert_eq!(from_csv(Objective::Attack, &text).unwrap(), samples);
    }

    #[test]
    fn adding_a_value_lowers_the_rank_of_what_it_values() {
        let base = GuidelineWeights::preset("attack").unwrap(); // score_weight 1.5, holes 6
        let mut value = [0.0; NUM_FEATURES];
        value[5] = -2.0; // holes: a hole is worth -2 units
        value[9] = 1.0; // tslot
        value[12] = 0.5; // fourwide_rows: no weight in the base
        let w = add(&base, &value, 0.1);
        // holes: 6 + 1.5 x 0.1 x 2 (worse), tslot: -10 - 0.15 (better)
        assert!((w.features["holes"] - 6.3).abs() < 1e-12);
        assert!((w.features["tslot"] + 10.15).abs() < 1e-12);
        assert!((w.features["fourwide_rows"] + 0.075).abs() < 1e-12);
        assert_eq!(w.features["b2b"], base.features["b2b"]);
        assert_eq!(w.score_weight, base.score_weight);
        assert_eq!(add(&base, &value, 0.0), base);
        // written and read back, the weights are the same
        let text = serde_json::to_string(&w).unwrap();
        assert_eq!(GuidelineWeights::parse(&text).unwrap(), w);
    }
}
