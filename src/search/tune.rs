//! Weight tuning by the cross-entropy method (CEM).
//!
//! Each generation samples a population from a diagonal Gaussian over the tuned
//! coordinates, scores every candidate (in parallel, with rayon), and moves the Gaussian
//! to the mean and spread of the best few (the elite). The first candidate of every
//! generation is the current mean itself, so the best weights found are never worse than
//! the starting ones on the tuning objective.
//!
//! A weight that starts positive is tuned on a log scale (its sign is part of what it means:
//! holes are bad); one that starts at zero or below (`cells`, extra features) is tuned as a
//! signed number. The rank is invariant to scaling all weights by one positive factor, so one
//! coordinate is redundant; CEM copes with that, and keeping it means no weight is frozen.
//!
//! Sampling draws from a generator seeded by (rng seed, generation), so a run resumed from
//! its state after generation g draws exactly what an uninterrupted run would have drawn.
//! The state is plain data (serde), written by the caller after every generation.

use crate::eval::guideline::GuidelineWeights;
use crate::eval::tencent::Weights;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::BTreeMap;

/// Weights the method can tune: a score weight and named feature weights, in the project's
/// one weights format. Both game families' evaluators (the Tencent board rank and the
/// guideline rank) have such weights, so one tuner serves both.
pub trait Tunable: Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned {
    fn score_weight_mut(&mut self) -> &mut f64;
    fn features_mut(&mut self) -> &mut BTreeMap<String, f64>;
    fn score_weight(&self) -> f64;
    fn features(&self) -> &BTreeMap<String, f64>;
}

macro_rules! tunable {
    ($t:ty) => {
        impl Tunable for $t {
            fn score_weight_mut(&mut self) -> &mut f64 {
                &mut self.score_weight
            }
            fn features_mut(&mut self) -> &mut BTreeMap<String, f64> {
                &mut self.features
            }
            fn score_weight(&self) -> f64 {
                self.score_weight
            }
            fn features(&self) -> &BTreeMap<String, f64> {
                &self.features
            }
        }
    };
}
tunable!(Weights);
tunable!(GuidelineWeights);

/// The weights tuned by default (the `default` preset's features and the score weight).
pub const DEFAULT_TUNED: [&str; 5] = [
    "cells",
    "row_transitions",
    "column_transitions",
    "holes",
    "score_weight",
];

/// One tuned coordinate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// A feature name, or `score_weight`.
    pub name: String,
    /// Tuned as ln(weight) (the weight stays positive) rather than the weight itself.
    pub log: bool,
}

/// The coordinates for `names`, log-scaled where the start weight is positive.
pub fn params_for(start: &impl Tunable, names: &[String]) -> Vec<Param> {
    names
        .iter()
        .map(|n| Param {
            name: n.clone(),
            log: weight_of(start, n) > 0.0,
        })
        .collect()
}

fn weight_of(w: &impl Tunable, name: &str) -> f64 {
    if name == "score_weight" {
        w.score_weight()
    } else {
        w.features().get(name).copied().unwrap_or(0.0)
    }
}

/// The start point in tuned coordinates.
pub fn encode(start: &impl Tunable, params: &[Param]) -> Vec<f64> {
    params
        .iter()
        .map(|p| {
            let w = weight_of(start, &p.name);
            if p.log {
                w.ln()
            } else {
                w
            }
        })
        .collect()
}

/// The initial spread: a factor of e^0.5 (about 1.65) either way on log coordinates, and
/// half the start value (at least 1) on signed ones.
pub fn initial_sigma(start: &impl Tunable, params: &[Param]) -> Vec<f64> {
    params
        .iter()
        .map(|p| {
            if p.log {
                0.5
            } else {
                (weight_of(start, &p.name).abs() * 0.5).max(1.0)
            }
        })
        .collect()
}

/// `start` with the tuned coordinates replaced by `x`.
pub fn decode<W: Tunable>(start: &W, params: &[Param], x: &[f64]) -> W {
    let mut w = start.clone();
    for (p, &v) in params.iter().zip(x) {
        let value = if p.log { v.exp() } else { v };
        if p.name == "score_weight" {
            *w.score_weight_mut() = value;
        } else {
            w.features_mut().insert(p.name.clone(), value);
        }
    }
    w
}

/// Settings of the method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CemConfig {
    /// Candidates per generation (the first is the current mean).
    pub population: usize,
    /// Candidates the distribution is refit to.
    pub elite: usize,
    /// Seed of the sampling generator.
    pub rng_seed: u64,
    /// Weight of the elite fit against the previous distribution (1 = plain CEM).
    pub smoothing: f64,
    /// Lower bound on every coordinate's spread, so the search never freezes early.
    pub min_sigma: f64,
}

impl CemConfig {
    /// A quarter of the population as elite (at least 2), smoothing 0.7, spread floor 0.05.
    pub fn new(population: usize, rng_seed: u64) -> CemConfig {
        CemConfig {
            population,
            elite: (population / 4).max(2).min(population),
            rng_seed,
            smoothing: 0.7,
            min_sigma: 0.05,
        }
    }
}

/// A scored point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub x: Vec<f64>,
    pub score: f64,
    /// Generation (1-based) it was scored in.
    pub generation: usize,
}

/// What one generation found: the learning curve's point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationSummary {
    /// 1-based.
    pub generation: usize,
    /// Best score in this generation.
    pub best: f64,
    /// Mean score of this generation's candidates.
    pub mean: f64,
    /// Score of the distribution's mean (candidate 0).
    pub center: f64,
    /// Best score in any generation so far.
    pub best_ever: f64,
    /// Every candidate's score, in sampling order.
    pub scores: Vec<f64>,
    /// The distribution the generation sampled from.
    pub mean_x: Vec<f64>,
    pub sigma: Vec<f64>,
}

/// Where the method stands: enough to continue after an interruption.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CemState {
    /// Generations completed.
    pub generation: usize,
    pub mean: Vec<f64>,
    pub sigma: Vec<f64>,
    pub best: Option<Candidate>,
    pub history: Vec<GenerationSummary>,
}

impl CemState {
    pub fn new(mean: Vec<f64>, sigma: Vec<f64>) -> CemState {
        CemState {
            generation: 0,
            mean,
            sigma,
            best: None,
            history: Vec::new(),
        }
    }

    /// Checks a state read back from a file against the `params` parameters tuned: every
    /// vector of their length, every number finite, every spread non-negative, one summary
    /// per finished generation. A hand-edited or damaged state would otherwise sample from
    /// the wrong distribution and write its weights back. The error names the key.
    pub fn check(&self, params: usize) -> Result<(), String> {
        let vector = |key: &str, x: &[f64], non_negative: bool| -> Result<(), String> {
            if x.len() != params {
                return Err(format!("{key}: {} values for {params} parameters", x.len()));
            }
            if let Some(i) = x
                .iter()
                .position(|v| !v.is_finite() || (non_negative && *v < 0.0))
            {
                return Err(format!(
                    "{key}[{i}]: {} is not a {}number",
                    x[i],
                    if non_negative {
                        "finite non-negative "
                    } else {
                        "finite "
                    }
                ));
            }
            Ok(())
        };
        vector("cem.mean", &self.mean, false)?;
        vector("cem.sigma", &self.sigma, true)?;
        if let Some(best) = &self.best {
            vector("cem.best.x", &best.x, false)?;
        }
        if self.history.len() != self.generation {
            return Err(format!(
                "cem.history: {} generations summarised, cem.generation says {}",
                self.history.len(),
                self.generation
            ));
        }
        for (i, g) in self.history.iter().enumerate() {
            vector(&format!("cem.history[{i}].mean_x"), &g.mean_x, false)?;
            vector(&format!("cem.history[{i}].sigma"), &g.sigma, true)?;
        }
        Ok(())
    }
}

/// A standard normal draw (Box-Muller; `rand` alone has no normal distribution).
fn normal(rng: &mut impl Rng) -> f64 {
    let u1: f64 = 1.0 - rng.gen::<f64>(); // (0, 1]
    let u2: f64 = rng.gen();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// The candidates of the next generation: the mean, then `population - 1` draws.
pub fn sample(state: &CemState, cfg: &CemConfig) -> Vec<Vec<f64>> {
    let g = state.generation as u64 + 1;
    let mut rng =
        rand_pcg::Pcg64::seed_from_u64(cfg.rng_seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut out = vec![state.mean.clone()];
    while out.len() < cfg.population.max(1) {
        out.push(
            state
                .mean
                .iter()
                .zip(&state.sigma)
                .map(|(m, s)| m + s * normal(&mut rng))
                .collect(),
        );
    }
    out
}

/// Refits the distribution to the elite of `candidates` (scored by `scores`, higher is
/// better; ties go to the earlier candidate) and records the generation.
pub fn update(state: &mut CemState, cfg: &CemConfig, candidates: &[Vec<f64>], scores: &[f64]) {
    let g = state.generation + 1;
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let elite = &order[..cfg.elite.clamp(1, order.len())];
    let n = elite.len() as f64;
    let a = cfg.smoothing;
    let (mean_x, sigma) = (state.mean.clone(), state.sigma.clone());
    for (i, (mean, sigma)) in state.mean.iter_mut().zip(&mut state.sigma).enumerate() {
        let m = elite.iter().map(|&k| candidates[k][i]).sum::<f64>() / n;
        let var = elite
            .iter()
            .map(|&k| (candidates[k][i] - m).powi(2))
            .sum::<f64>()
            / n;
        *mean = (1.0 - a) * *mean + a * m;
        *sigma = ((1.0 - a) * *sigma + a * var.sqrt()).max(cfg.min_sigma);
    }
    let top = order[0];
    if state.best.as_ref().is_none_or(|b| scores[top] > b.score) {
        state.best = Some(Candidate {
            x: candidates[top].clone(),
            score: scores[top],
            generation: g,
        });
    }
    state.history.push(GenerationSummary {
        generation: g,
        best: scores[top],
        mean: scores.iter().sum::<f64>() / scores.len() as f64,
        center: scores[0],
        best_ever: state.best.as_ref().map_or(scores[top], |b| b.score),
        scores: scores.to_vec(),
        mean_x,
        sigma,
    });
    state.generation = g;
}

/// Runs one generation: sample, score every candidate in parallel (in the current rayon
/// pool; results keep sampling order), refit. Returns `None`, leaving the state as it was,
/// when `objective` gives `None` for any candidate (it was stopped).
pub fn generation(
    state: &mut CemState,
    cfg: &CemConfig,
    objective: impl Fn(&[f64]) -> Option<f64> + Sync,
) -> Option<()> {
    let candidates = sample(state, cfg);
    let scores: Option<Vec<f64>> = candidates.par_iter().map(|x| objective(x)).collect();
    update(state, cfg, &candidates, &scores?);
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy objective with its maximum 0 at (3, -2, 0.5).
    fn toy(x: &[f64]) -> Option<f64> {
        let t = [3.0, -2.0, 0.5];
        Some(-x.iter().zip(t).map(|(a, b)| (a - b).powi(2)).sum::<f64>())
    }

    fn run(generations: usize, state: &mut CemState, cfg: &CemConfig) {
        while state.generation < generations {
            generation(state, cfg, toy).unwrap();
        }
    }

    #[test]
    fn cem_finds_the_toy_maximum_deterministically() {
        let cfg = CemConfig::new(16, 7);
        let mut a = CemState::new(vec![0.0; 3], vec![2.0; 3]);
        run(40, &mut a, &cfg);
        let best = a.best.clone().unwrap();
        assert!(best.score > -0.01, "best {best:?}");
        for (m, t) in a.mean.iter().zip([3.0, -2.0, 0.5]) {
            assert!((m - t).abs() < 0.1, "mean {:?}", a.mean);
        }
        // the best-ever curve never falls, and the same seed gives the same run
        assert!(a
            .history
            .windows(2)
            .all(|w| w[1].best_ever >= w[0].best_ever));
        let mut b = CemState::new(vec![0.0; 3], vec![2.0; 3]);
        run(40, &mut b, &cfg);
        assert_eq!(a, b);
        let mut c = CemState::new(vec![0.0; 3], vec![2.0; 3]);
        run(40, &mut c, &CemConfig::new(16, 8));
        assert_ne!(a.history[0].scores, c.history[0].scores);
    }

    #[test]
    fn update_moves_to_the_elite() {
        let cfg = CemConfig {
            population: 4,
            elite: 2,
            rng_seed: 0,
            smoothing: 1.0,
            min_sigma: 0.0,
        };
        let mut s = CemState::new(vec![0.0], vec![1.0]);
        let cands = vec![vec![0.0], vec![1.0], vec![3.0], vec![-5.0]];
        update(&mut s, &cfg, &cands, &[0.0, 1.0, 3.0, -5.0]);
        assert_eq!(s.mean, vec![2.0]);
        assert_eq!(s.sigma, vec![1.0]);
        assert_eq!(s.best.as_ref().unwrap().x, vec![3.0]);
        assert_eq!(s.history[0].center, 0.0);
        assert_eq!(s.history[0].mean, -0.25);
    }

    #[test]
    fn a_damaged_state_is_refused_by_key() {
        let fresh = CemState::new(vec![1.0, 2.0], vec![0.5, 0.5]);
        assert_eq!(fresh.check(2), Ok(()));
        let mut s = fresh.clone();
        s.best = Some(Candidate {
            x: vec![1.0],
            score: 3.0,
            generation: 1,
        });
        assert_eq!(
            s.check(2).unwrap_err(),
            "cem.best.x: 1 values for 2 parameters"
        );
        let mut s = fresh.clone();
        s.sigma = vec![];
        assert_eq!(
            s.check(2).unwrap_err(),
            "cem.sigma: 0 values for 2 parameters"
        );
        let mut s = fresh.clone();
        s.sigma[1] = -1.0;
        assert_eq!(
            s.check(2).unwrap_err(),
            "cem.sigma[1]: -1 is not a finite non-negative number"
        );
        let mut s = fresh.clone();
        s.generation = 1;
        assert!(s
            .check(2)
            .unwrap_err()
            .starts_with("cem.history: 0 generations"));
    }

    #[test]
    fn resumed_run_equals_uninterrupted_run() {
        let cfg = CemConfig::new(8, 3);
        let mut whole = CemState::new(vec![1.0; 3], vec![1.0; 3]);
        run(5, &mut whole, &cfg);
        let mut part = CemState::new(vec![1.0; 3], vec![1.0; 3]);
        run(2, &mut part, &cfg);
        let text = serde_json::to_string(&part).unwrap();
        let mut resumed: CemState = serde_json::from_str(&text).unwrap();
        run(5, &mut resumed, &cfg);
        assert_eq!(resumed, whole);
    }

    #[test]
    fn weights_round_trip_through_coordinates() {
        let start = Weights::kept("default").unwrap();
        let names: Vec<String> = DEFAULT_TUNED
            .iter()
            .map(|s| s.to_string())
            .chain(["wells".to_string()])
            .collect();
        let params = params_for(&start, &names);
        assert!(!params[0].log, "cells starts at -1: signed");
        assert!(params[1].log && params[4].log);
        assert!(!params[5].log, "wells starts at 0: signed");
        let x = encode(&start, &params);
        let mut back = decode(&start, &params, &x);
        assert_eq!(back.features.remove("wells"), Some(0.0));
        for (k, v) in &start.features {
            assert!((back.features[k] - v).abs() < 1e-12);
        }
        assert!((back.score_weight - start.score_weight).abs() < 1e-15);
    }

    #[test]
    fn candidates_keep_the_starting_fade_clear_floor_i_ahead_and_open_column() {
        let start = Weights::preset("open-column").unwrap();
        let names: Vec<String> = DEFAULT_TUNED.iter().map(|s| s.to_string()).collect();
        let params = params_for(&start, &names);
        let mut x = encode(&start, &params);
        x[0] += 0.5;
        let candidate = decode(&start, &params, &x);
        assert_ne!(candidate.features, start.features);
        assert_eq!(candidate.fade_pieces, Some(20));
        assert_eq!(candidate.min_clear_cells, start.min_clear_cells);
        assert!(candidate.i_ahead.is_some());
        assert_eq!(candidate.i_ahead, start.i_ahead);
        assert!(candidate.open_column.is_some());
        assert_eq!(candidate.open_column, start.open_column);
    }
}
