//! Training data for a learned value, drawn from the search's own games.
//!
//! A solve runs as usual; every `every` pieces the observer takes `per_step` of the boards the
//! beam kept, evenly spaced in rank order (the best, the worst and those between). Once the
//! solve is done, each taken board is played on from where it stood: a rollout, a beam of
//! `rollout_beam` over the next `horizon` pieces of the same queue, with the same weights.
//! What the rollout's best line scored is the board's label: the points that board was still
//! worth with *these* pieces ahead. A board from which no line survives the horizon is marked
//! (`survived` 0, `reached` the pieces placed).
//!
//! The rows are written as CSV (docs/learning.md): `step,rank_index,score,gained,value,
//! reached,survived` and then the value features of [`crate::eval::value::VALUE_FEATURES`].

use super::csv;
use super::lineage::Lineage;
use crate::eval::value::{value_features, NUM_FEATURES, VALUE_FEATURES};
use crate::games::tencent::board::Board;
use crate::games::Piece;
use crate::search::beam::{Kept, StepReport};
use crate::search::tencent::{self as beam, BeamConfig, BeamResult};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What to draw.
#[derive(Clone, Debug)]
pub struct DataConfig {
    /// Take boards after every `every`-th piece.
    pub every: usize,
    /// Boards taken at each such step.
    pub per_step: usize,
    /// Pieces each rollout plays.
    pub horizon: usize,
    /// The rollouts' beam width.
    pub rollout_beam: usize,
}

/// One board and what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The piece (0-based) whose placement made the board.
    pub step: usize,
    /// Its place in the beam's rank order (0 = best ranked).
    pub rank_index: usize,
    /// The game's score when the board was reached.
    pub score: u32,
    /// Points the rollout's best line added over the horizon.
    pub gained: u32,
    /// The label: the points the best-ranked line at the horizon added plus what the
    /// evaluator estimates its last board is still worth (`-rank / score_weight`); `gained`
    /// when no line survived.
    pub value: f64,
    /// Pieces the rollout placed (the horizon unless every line died).
    pub reached: usize,
    /// Whether a line survived the whole horizon.
    pub survived: bool,
    /// How many of the states the solve's beam kept `horizon` pieces later descend from
    /// this board: whether the search itself, in hindsight, built on it.
    pub descendants: u32,
    /// The value features of the board.
    pub features: [f64; NUM_FEATURES],
}

/// A board the observer took, before its rollout.
struct Taken {
    step: usize,
    rank_index: usize,
    board: Board,
    score: u32,
}

/// Runs the solve of `pieces` (up to `limit`) and the rollouts from the boards it kept.
/// Returns the solve's result and the samples in (step, rank) order; `rollout_done(n, of)`
/// counts the rollouts. `stop` cuts both short.
pub fn collect(
    pieces: &[Piece],
    limit: Option<usize>,
    cfg: &BeamConfig,
    data: &DataConfig,
    stop: &AtomicBool,
    report: impl FnMut(&StepReport),
    rollout_done: impl Fn(usize, usize) + Sync,
) -> (BeamResult, Vec<Sample>) {
    // Only steps whose horizon fits in the game: the rollout of piece k's board plays
    // pieces k + 1 ..= k + horizon and needs one more to know the last is not the end.
    let last_step = pieces.len().checked_sub(data.horizon + 2);
    let mut lineage = Lineage::new(data.every, data.per_step, last_step);
    let mut taken = Vec::new();
    let mut observe = |k: usize, kept: &[Kept<Board>]| {
        for i in lineage.observe(k, kept) {
            taken.push(Taken {
                step: k,
                rank_index: i,
                board: kept[i].state,
                score: kept[i].score,
            });
        }
    };
    let result = beam::search_observed(pieces, limit, cfg, stop, report, Some(&mut observe));
    let upcoming = beam::upcoming_i(pieces);
    let descendants = lineage.descendants(data.horizon);
    let done = AtomicUsize::new(0);
    let samples = taken
        .par_iter()
        .zip(&descendants)
        .map(|(t, &descendants)| {
            let mut sample = Sample {
                step: t.step,
                rank_index: t.rank_index,
                score: t.score,
                gained: 0,
                value: 0.0,
                reached: 0,
                survived: false,
                descendants,
                features: value_features(&t.board, upcoming[t.step]),
            };
            if data.rollout_beam == 0 {
                return sample;
            }
            let rollout_cfg = BeamConfig {
                beam: data.rollout_beam,
                moves: cfg.moves,
                evaluator: cfg.evaluator.clone(),
                start: t.board,
            };
            let ahead = &pieces[t.step + 1..t.step + data.horizon + 2];
            let mut end_rank = f64::NAN;
            let r = beam::search(ahead, Some(data.horizon), &rollout_cfg, stop, |s| {
                end_rank = s.best_rank
            });
            let survived = r.placed == data.horizon;
            // The rank is g(board) - w x score, so -rank / w is the score plus the
            // evaluator's estimate of the board, in points.
            let value = if survived {
                -end_rank / cfg.evaluator.weights.score_weight
            } else {
                r.score as f64
            };
            rollout_done(done.fetch_add(1, Ordering::Relaxed) + 1, taken.len());
            sample.gained = r.score;
            sample.value = value;
            sample.reached = r.placed;
            sample.survived = survived;
            sample
        })
        .collect();
    (result, samples)
}

/// The columns before the value features.
const LEAD: [&str; 8] = [
    "step",
    "rank_index",
    "score",
    "gained",
    "value",
    "reached",
    "survived",
    "descendants",
];

/// The CSV header line (no newline).
pub fn csv_header() -> String {
    csv::header(&LEAD, &VALUE_FEATURES)
}

/// The samples as CSV, header first.
pub fn to_csv(samples: &[Sample]) -> String {
    let mut out = csv_header();
    out.push('\n');
    for s in samples {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{}",
            s.step,
            s.rank_index,
            s.score,
            s.gained,
            csv::number(s.value),
            s.reached,
            s.survived as u8,
            s.descendants
        ));
        csv::push_numbers(&mut out, &s.features);
        out.push('\n');
    }
    out
}

/// Reads samples written by [`to_csv`]. Errors name the line (1-based) and the column.
pub fn from_csv(text: &str) -> Result<Vec<Sample>, String> {
    let expected = format!(
        "{} value features: {}",
        NUM_FEATURES,
        VALUE_FEATURES.join(",")
    );
    let mut out = Vec::new();
    for row in csv::rows(text, &csv_header(), &expected)? {
        let features = row.numbers(LEAD.len(), &VALUE_FEATURES)?;
        let survived = row.count(6)?;
        if survived > 1 {
            return Err(format!("line {}, column 7 (survived): 0 or 1", row.line()));
        }
        out.push(Sample {
            step: row.count(0)? as usize,
            rank_index: row.count(1)? as usize,
            score: row.count32(2)?,
            gained: row.count32(3)?,
            value: row.number(4, "value")?,
            reached: row.count(5)? as usize,
            descendants: row.count32(7)?,
            survived: survived == 1,
            features,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tencent::{Evaluator, Weights};
    use crate::game_def::GameDef;
    use crate::games::tencent::movegen::MoveSet;

    #[test]
    fn rollouts_label_the_boards_the_beam_kept() {
        let pieces = GameDef::tencent_geek_4().pieces();
        let cfg = BeamConfig {
            beam: 40,
            moves: MoveSet::Drop,
            evaluator: Evaluator::new(Weights::kept("tuned-b3000").unwrap()),
            start: Board::EMPTY,
        };
        let data = DataConfig {
            every: 25,
            per_step: 3,
            horizon: 30,
            rollout_beam: 10,
        };
        let run = || {
            collect(
                &pieces,
                Some(200),
                &cfg,
                &data,
                &AtomicBool::new(false),
                |_| {},
                |_, _| {},
            )
        };
        let (result, samples) = run();
        assert!(result.complete);
        // steps 24, 49, ..., 199: 8 steps of 3 boards
        assert_eq!(samples.len(), 24);
        assert_eq!(samples[0].step, 24);
        assert_eq!(samples[0].rank_index, 0);
        assert_eq!(samples[2].rank_index, 39);
        // the best-ranked board's rollout survives the horizon; counts are whole numbers
        let s = &samples[0];
        assert!(s.survived && s.reached == 30);
        assert_eq!(s.features[0], s.features[0].round());
        // the same run draws the same samples (rollouts run in parallel)
        assert_eq!(run().1, samples);
        // the CSV reads back to the same samples
        let back = from_csv(&to_csv(&samples)).unwrap();
        assert_eq!(back, samples);
    }

    #[test]
    fn bad_csv_is_refused_with_its_line() {
        assert!(from_csv("").unwrap_err().starts_with("empty file"));
        assert!(from_csv("a,b\n").unwrap_err().starts_with("line 1"));
        let row = format!(
            "{}\n1,0,5,7,9.5,30,1,3{}\n",
            csv_header(),
            ",0".repeat(NUM_FEATURES)
        );
        assert_eq!(from_csv(&row).unwrap().len(), 1);
        let bad = row.replace("1,0,5,7,9.5,30,1,3", "1,0,5,x,9.5,30,1,3");
        assert_eq!(
            from_csv(&bad).unwrap_err(),
            "line 2, column 4: not a count: \"x\""
        );
        let short = format!("{}\n1,2\n", csv_header());
        assert!(from_csv(&short)
            .unwrap_err()
            .starts_with("line 2: 2 columns"));
    }
}
