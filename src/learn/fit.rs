//! Fitting a linear value to the samples: ridge regression within each step.
//!
//! The beam compares boards of the same step only, so what the model must get right is how
//! the boards of one step differ. Labels and features are centred within each step (which
//! also takes out how many pieces are left), standardised, and fitted by ridge regression,
//! solved exactly (normal equations, Cholesky). Every fifth step, in order, is held out and
//! the fit reports R² on both parts.

use super::data::Sample;
use crate::eval::tencent::Weights;
use crate::eval::value::{ValueModel, VALUE_FEATURES};
use std::collections::BTreeMap;

/// What the model is fitted to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Label {
    /// The points the rollout added over its horizon alone.
    Gained,
    /// Those points plus the evaluator's estimate of the rollout's last board.
    Value,
    /// ln(1 + descendants): how much of the solve's beam, `horizon` pieces later, grew from
    /// the board. Not in points: use it with `--add`.
    Lineage,
}

impl Label {
    /// The label as `--label` takes it.
    pub fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .expect("every label has a name")
            .get_name()
            .to_string()
    }

    fn of(self, s: &Sample) -> f64 {
        match self {
            Label::Gained => s.gained as f64,
            Label::Value => s.value,
            Label::Lineage => lineage_label(s.descendants),
        }
    }
}

/// The lineage label of a board with `descendants`: ln(1 + descendants), so that a board
/// the beam built twice as much on counts one step more, however large the beam.
pub fn lineage_label(descendants: u32) -> f64 {
    (1.0 + descendants as f64).ln()
}

/// The fitted model and how well it fits.
#[derive(Clone, Debug)]
pub struct Fit {
    pub model: ValueModel,
    /// Samples fitted on, and held out.
    pub train: usize,
    pub held_out: usize,
    /// R² of the within-step label on the fitted and the held-out samples.
    pub r2_train: f64,
    pub r2_held_out: f64,
}

/// One board for the fit: its step, its label and its features, in the family's order.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    pub step: usize,
    pub label: f64,
    pub features: &'a [f64],
}

/// A ridge fit over some family's features (see [`ridge`]).
#[derive(Clone, Debug)]
pub struct Ridge {
    /// A weight per feature, in the family's order (0 for those not fitted).
    pub weights: Vec<f64>,
    /// Samples fitted on, and held out.
    pub train: usize,
    pub held_out: usize,
    /// R² of the within-step label on the fitted and the held-out samples.
    pub r2_train: f64,
    pub r2_held_out: f64,
}

/// A centred row: features and label minus their step's means.
type Centred = (Vec<f64>, f64);

/// Centres each step's labels and features on the step's mean.
fn centred(rows: &[&Row]) -> Vec<Centred> {
    let mut by_step: BTreeMap<usize, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by_step.entry(r.step).or_default().push(r);
    }
    let mut out = Vec::with_capacity(rows.len());
    for group in by_step.values() {
        let n = group.len() as f64;
        let mut mean_x = vec![0.0; group[0].features.len()];
        let mut mean_y = 0.0;
        for r in group {
            for (m, x) in mean_x.iter_mut().zip(r.features) {
                *m += x / n;
            }
            mean_y += r.label / n;
        }
        for r in group {
            let x = r.features.iter().zip(&mean_x).map(|(v, m)| v - m).collect();
            out.push((x, r.label - mean_y));
        }
    }
    out
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky). `None` when `a` is not
/// positive definite.
fn solve_spd(mut a: Vec<Vec<f64>>, b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let dot = |u: &[f64], v: &[f64]| -> f64 { u.iter().zip(v).map(|(x, y)| x * y).sum() };
    // a = L Lᵀ, L written over a's lower triangle.
    for j in 0..n {
        let d = a[j][j] - dot(&a[j][..j], &a[j][..j]);
        if d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        a[j][j] = d;
        for i in j + 1..n {
            let s = a[i][j] - dot(&a[i][..j], &a[j][..j]);
            a[i][j] = s / d;
        }
    }
    // L y = b, then Lᵀ x = y.
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - dot(&a[i][..i], &y[..i])) / a[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| a[k][i] * x[k]).sum();
        x[i] = (y[i] - s) / a[i][i];
    }
    Some(x)
}

/// R² of `w` on centred rows.
fn r2(rows: &[Centred], w: &[f64]) -> f64 {
    let (mut ss_res, mut ss_tot) = (0.0, 0.0);
    for (x, y) in rows {
        let p: f64 = x.iter().zip(w).map(|(a, b)| a * b).sum();
        ss_res += (y - p) * (y - p);
        ss_tot += y * y;
    }
    if ss_tot == 0.0 {
        0.0
    } else {
        1.0 - ss_res / ss_tot
    }
}

/// Fits the rows' labels, linear in their features (named `names`), by ridge `lambda` (on
/// standardised features; 0 is plain least squares), over the features named in `only`
/// (all when empty). Whichever family the rows come from, this is the one fit.
pub fn ridge(rows: &[Row], names: &[&str], lambda: f64, only: &[String]) -> Result<Ridge, String> {
    for name in only {
        if !names.contains(&name.as_str()) {
            return Err(format!(
                "--features: {}: unknown feature (known: {})",
                crate::error::printable(name),
                names.join(", ")
            ));
        }
    }
    let width = names.len();
    debug_assert!(rows.iter().all(|r| r.features.len() == width));
    let mut steps: Vec<usize> = rows.iter().map(|r| r.step).collect();
    steps.sort_unstable();
    steps.dedup();
    if steps.len() < 2 {
        return Err(format!(
            "{} steps in the data: at least 2 are needed (one to fit, one to hold out)",
            steps.len()
        ));
    }
    let held: std::collections::BTreeSet<usize> =
        steps.iter().skip(4).step_by(5).copied().collect();
    let (held_rows, train_rows): (Vec<&Row>, Vec<&Row>) =
        rows.iter().partition(|r| held.contains(&r.step));
    let train = centred(&train_rows);
    let test = centred(&held_rows);
    let n = train.len() as f64;
    // Standardise: a feature constant within every step has no scale and weighs 0.
    let mut scale = vec![0.0; width];
    for (x, _) in &train {
        for (s, v) in scale.iter_mut().zip(x) {
            *s += v * v / n;
        }
    }
    let used: Vec<usize> = (0..width)
        .filter(|&j| scale[j] > 1e-12)
        .filter(|&j| only.is_empty() || only.iter().any(|n| n == names[j]))
        .collect();
    for s in scale.iter_mut() {
        *s = s.sqrt();
    }
    let m = used.len();
    let mut a = vec![vec![0.0; m]; m];
    let mut b = vec![0.0; m];
    for (x, y) in &train {
        for (p, &i) in used.iter().enumerate() {
            let xi = x[i] / scale[i];
            b[p] += xi * y;
            for (q, &j) in used.iter().enumerate().take(p + 1) {
                a[p][q] += xi * x[j] / scale[j];
            }
        }
    }
    // Only the lower triangle was summed; the solve reads nothing else.
    for (p, row) in a.iter_mut().enumerate() {
        row[p] += lambda * n;
    }
    let beta = solve_spd(a, &b)
        .ok_or("the features are collinear in this data: give a ridge (--ridge) above 0")?;
    let mut w = vec![0.0; width];
    for (p, &i) in used.iter().enumerate() {
        w[i] = beta[p] / scale[i];
    }
    Ok(Ridge {
        train: train.len(),
        held_out: test.len(),
        r2_train: r2(&train, &w),
        r2_held_out: r2(&test, &w),
        weights: w,
    })
}

/// Fits a value model to `samples`' `label` with ridge `lambda` (on standardised features; 0
/// is plain least squares), over the features named in `only` (all when empty).
/// `provenance` is written into the model.
pub fn fit(
    samples: &[Sample],
    label: Label,
    lambda: f64,
    only: &[String],
    provenance: String,
) -> Result<Fit, String> {
    let rows: Vec<Row> = samples
        .iter()
        .map(|s| Row {
            step: s.step,
            label: label.of(s),
            features: &s.features,
        })
        .collect();
    let r = ridge(&rows, &VALUE_FEATURES, lambda, only)?;
    let terms = VALUE_FEATURES
        .iter()
        .zip(&r.weights)
        .filter(|(_, &v)| v != 0.0)
        .map(|(k, &v)| (k.to_string(), v))
        .collect();
    Ok(Fit {
        model: ValueModel::new(terms, Some(provenance))?,
        train: r.train,
        held_out: r.held_out,
        r2_train: r.r2_train,
        r2_held_out: r.r2_held_out,
    })
}

/// `base` with a learned correction: its rank stands for a value in points (its features
/// over its `score_weight`, with the sign turned); the correction moves that value a fraction
/// `blend` of the way to `fitted`. 0 gives `base` (with an empty model), 1 ranks every
/// feature the model has as the model does.
pub fn blend(base: &Weights, fitted: &ValueModel, blend: f64) -> Result<Weights, String> {
    if base.score_weight <= 0.0 {
        return Err("--base: the weights' score_weight must be above 0 to stand for points".into());
    }
    let terms = VALUE_FEATURES.iter().map(|&name| {
        let own = -base.features.get(name).copied().unwrap_or(0.0) / base.score_weight;
        let target = fitted.terms.get(name).copied().unwrap_or(0.0);
        (name.to_string(), blend * (target - own))
    });
    with_value(base, terms, fitted)
}

/// `base` plus `scale` points for each unit of the fitted value (a lineage model's units are
/// not points: the scale says what one is worth).
pub fn add(base: &Weights, fitted: &ValueModel, scale: f64) -> Result<Weights, String> {
    let terms = fitted.terms.iter().map(|(k, v)| (k.clone(), v * scale));
    with_value(base, terms, fitted)
}

/// `base` with a value model of `terms` (those of weight 0 left out) and `fitted`'s
/// provenance. Refused when `base` holds a model already.
fn with_value(
    base: &Weights,
    terms: impl Iterator<Item = (String, f64)>,
    fitted: &ValueModel,
) -> Result<Weights, String> {
    if base.value.is_some() {
        return Err(
            "--base: the weights already hold a value model; start from hand weights".into(),
        );
    }
    let terms = terms.filter(|(_, v)| *v != 0.0).collect();
    let model = ValueModel::new(terms, fitted.provenance.clone())?;
    Ok(Weights {
        value: Some(Box::new(model)),
        ..base.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::value::NUM_FEATURES;

    #[test]
    fn a_blend_moves_the_base_value_towards_the_fit() {
        let base = Weights::kept("default").unwrap(); // cells -1, holes 7.9, ..., 1/38
        let mut terms = BTreeMap::new();
        terms.insert("cells".to_string(), 50.0);
        terms.insert("wells".to_string(), -10.0);
        let fitted = ValueModel::new(terms, None).unwrap();
        let half = blend(&base, &fitted, 0.5).unwrap();
        let t = &half.value.as_ref().unwrap().terms;
        // the base values a cell at 38 points: half way to 50 adds 6
        assert!((t["cells"] - 6.0).abs() < 1e-9);
        assert!((t["wells"] + 5.0).abs() < 1e-9);
        // holes: the base's -7.9 x 38 points, the fit's 0: half of it back
        assert!((t["holes"] - 0.5 * 7.899265427351652 * 38.0).abs() < 1e-9);
        assert_eq!(half.features, base.features);
        let none = blend(&base, &fitted, 0.0).unwrap();
        assert!(none.value.unwrap().terms.is_empty());
    }

    #[test]
    fn recovers_a_planted_linear_value() {
        // gained = 100 + 30 cells - 200 holes + noise-free, per step offsets
        let mut samples = Vec::new();
        for step in 0..20 {
            for i in 0..15 {
                let mut features = [0.0; NUM_FEATURES];
                features[0] = ((i * 7 + step * 3) % 40) as f64; // cells
                features[2] = ((i * 5 + step) % 6) as f64; // holes
                features[16] = ((i * 3 + step * 11) % 13) as f64; // next_i
                let gained = 1000 * step as i64 + 30 * features[0] as i64
                    - 200 * features[2] as i64
                    + 10 * features[16] as i64
                    + 5000;
                samples.push(Sample {
                    step,
                    rank_index: i,
                    score: 0,
                    gained: gained as u32,
                    value: gained as f64,
                    reached: 10,
                    survived: true,
                    descendants: 0,
                    features,
                });
            }
        }
        let f = fit(&samples, Label::Value, 0.0, &[], "test".into()).unwrap();
        let t = &f.model.terms;
        assert!((t["cells"] - 30.0).abs() < 1e-6, "{t:?}");
        assert!((t["holes"] + 200.0).abs() < 1e-6, "{t:?}");
        assert!((t["next_i"] - 10.0).abs() < 1e-6, "{t:?}");
        assert_eq!(t.len(), 3);
        assert!(f.r2_held_out > 0.999_999);
        assert_eq!(f.held_out, 4 * 15);
        // one step is not enough
        assert!(fit(&samples[..15], Label::Gained, 0.0, &[], "test".into()).is_err());
        // a subset: cells alone
        let only = ["cells".to_string()];
        let c = fit(&samples, Label::Value, 0.0, &only, "test".into()).unwrap();
        assert_eq!(c.model.terms.keys().collect::<Vec<_>>(), ["cells"]);
        let bad = ["cels".to_string()];
        assert!(fit(&samples, Label::Value, 0.0, &bad, "test".into())
            .unwrap_err()
            .starts_with("--features: cels: unknown"));
    }
}
