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
    let every = data.every.max(1);
    let mut taken = Vec::new();
    // Every step's parent indices, for the descendants count.
    let mut parents: Vec<Vec<u32>> = Vec::new();
    let mut observe = |k: usize, kept: &[Kept<Board>]| {
        debug_assert_eq!(parents.len(), k);
        parents.push(kept.iter().map(|c| c.parent).collect());
        // Only steps whose horizon fits in the game: the rollout of piece k's board plays
        // pieces k + 1 ..= k + horizon and needs one more to know the last is not the end.
        if !(k + 1).is_multiple_of(every) || k + data.horizon + 2 > pieces.len() || kept.is_empty()
        {
            return;
        }
        let n = data.per_step.min(kept.len());
        for j in 0..n {
            let i = if n == 1 {
                0
            } else {
                j * (kept.len() - 1) / (n - 1)
            };
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
    let descendants = descendants(&parents, &taken, data.horizon);
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

/// For each taken board, how many of the states the beam kept `horizon` pieces later descend
/// from it (0 when its line was dropped; boards too near the end count what the last step
/// kept).
fn descendants(parents: &[Vec<u32>], taken: &[Taken], horizon: usize) -> Vec<u32> {
    let mut out = vec![0u32; taken.len()];
    let mut i = 0;
    while i < taken.len() {
        let k = taken[i].step;
        let last = (k + horizon).min(parents.len() - 1);
        // counts[j]: descendants at `last` of state j of step t, from t = last down to k.
        let mut counts = vec![1u32; parents[last].len()];
        for t in (k + 1..=last).rev() {
            let mut up = vec![0u32; parents[t - 1].len()];
            for (j, &c) in counts.iter().enumerate() {
                up[parents[t][j] as usize] += c;
            }
            counts = up;
        }
        while i < taken.len() && taken[i].step == k {
            out[i] = counts[taken[i].rank_index];
            i += 1;
        }
    }
    out
}

/// The CSV header line (no newline).
pub fn csv_header() -> String {
    let mut h = String::from("step,rank_index,score,gained,value,reached,survived,descendants");
    for f in VALUE_FEATURES {
        h.push(',');
        h.push_str(f);
    }
    h
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
            format_number(s.value),
            s.reached,
            s.survived as u8,
            s.descendants
        ));
        for f in s.features {
            out.push(',');
            out.push_str(&format_number(f));
        }
        out.push('\n');
    }
    out
}

/// A feature value as short as it reads back exactly.
fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// Reads samples written by [`to_csv`]. Errors name the line (1-based) and the column.
pub fn from_csv(text: &str) -> Result<Vec<Sample>, String> {
    let mut lines = text.lines();
    let header = lines.next().ok_or("empty file: expected the CSV header")?;
    if header.trim_end() != csv_header() {
        return Err(format!(
            "line 1: the header is not this build's ({} value features: {})",
            NUM_FEATURES,
            VALUE_FEATURES.join(",")
        ));
    }
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        if line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.trim_end().split(',').collect();
        if cols.len() != 8 + NUM_FEATURES {
            return Err(format!(
                "line {n}: {} columns, expected {}",
                cols.len(),
                8 + NUM_FEATURES
            ));
        }
        let int = |c: usize| -> Result<u64, String> {
            cols[c]
                .parse::<u64>()
                .map_err(|_| format!("line {n}, column {}: not a count: {:?}", c + 1, cols[c]))
        };
        let mut features = [0.0; NUM_FEATURES];
        for (j, f) in features.iter_mut().enumerate() {
            let c = 8 + j;
            *f = cols[c]
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    format!(
                        "line {n}, column {} ({}): not a number",
                        c + 1,
                        VALUE_FEATURES[j]
                    )
                })?;
        }
        let survived = int(6)?;
        if survived > 1 {
            return Err(format!("line {n}, column 7 (survived): 0 or 1"));
        }
        let value = cols[4]
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("line {n}, column 5 (value): not a number"))?;
        out.push(Sample {
            step: int(0)? as usize,
            rank_index: int(1)? as usize,
            score: u32::try_from(int(2)?).map_err(|_| format!("line {n}, column 3: too large"))?,
            gained: u32::try_from(int(3)?).map_err(|_| format!("line {n}, column 4: too large"))?,
            value,
            reached: int(5)? as usize,
            descendants: u32::try_from(int(7)?)
                .map_err(|_| format!("line {n}, column 8: too large"))?,
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
    use crate::games::tencent::movegen::MoveSet;
    use crate::seed::Seed;

    #[test]
    fn rollouts_label_the_boards_the_beam_kept() {
        let pieces = Seed::tencent_geek_4().pieces();
        let cfg = BeamConfig {
            beam: 40,
            moves: MoveSet::Drop,
            evaluator: Evaluator::new(Weights::preset("tuned-b3000").unwrap()),
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
    fn descendants_count_the_states_kept_later() {
        // step 0 keeps 3 states; step 1 keeps 4 (parents 0, 0, 2, 0); step 2 keeps 3
        // (parents 1, 3, 2).
        let parents = vec![vec![0, 0, 0], vec![0, 0, 2, 0], vec![1, 3, 2]];
        let taken: Vec<Taken> = (0..3)
            .map(|i| Taken {
                step: 0,
                rank_index: i,
                board: Board::EMPTY,
                score: 0,
            })
            .collect();
        // state 0 of step 0 has children 0, 1, 3 at step 1, and those have 1 and 3 kept at
        // step 2 (via 1 and 3): 2; state 2's child (2) has one kept child: 1.
        assert_eq!(descendants(&parents, &taken, 2), vec![2, 0, 1]);
        assert_eq!(descendants(&parents, &taken, 1), vec![3, 0, 1]);
        // a horizon past the last step counts what the last step kept
        assert_eq!(descendants(&parents, &taken, 9), vec![2, 0, 1]);
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
