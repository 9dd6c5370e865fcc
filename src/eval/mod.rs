//! Evaluation: the weights that rank a family's boards and the evaluators that apply them.
//!
//! * [`tencent`]: the beam's evaluator on the Tencent board (a rank, lower is better);
//! * [`guideline`]: the beam's evaluator on guideline states;
//! * [`value`]: a learned value of Tencent boards that a weights file may add to the rank;
//! * [`players`]: the one-piece players' published weight sets (a value, higher is better);
//! * [`weights_file`]: one loader for weights files, whatever command reads them.

pub mod guideline;
pub mod nes;
pub mod players;
pub mod tencent;
pub mod value;
pub mod weights_file;

/// The largest weight a weights file may give, in size. A rank is a sum of weights times
/// features (a score up to millions, squares of counts), so a weight past this overflows it to
/// infinity, every board ranks alike and the search quietly plays nonsense.
pub const MAX_WEIGHT: f64 = 1e12;

/// What is wrong with a weight `v`, if anything: not a finite number, or past [`MAX_WEIGHT`].
pub fn weight_problem(v: f64) -> Option<String> {
    if !v.is_finite() {
        Some("weight must be a finite number".into())
    } else if v.abs() > MAX_WEIGHT {
        Some(format!(
            "weight {v:e} is larger than {MAX_WEIGHT:e} in size (the rank would overflow)"
        ))
    } else {
        None
    }
}
