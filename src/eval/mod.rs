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

use crate::error::{Error, Result};

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

/// A family's weights by `--weights`: the preset of that name, else the weights file at
/// `name_or_path` read with `parse` (errors name the file and the JSON place). A name that is
/// neither is refused listing the `kind` family's `presets`.
pub fn preset_or_file<W>(
    name_or_path: &str,
    kind: &str,
    presets: &[&str],
    preset: impl Fn(&str) -> Option<W>,
    parse: impl Fn(&str) -> std::result::Result<W, String>,
) -> Result<W> {
    if let Some(w) = preset(name_or_path) {
        return Ok(w);
    }
    let path = std::path::Path::new(name_or_path);
    if !path.exists() {
        return Err(Error::at(
            name_or_path,
            format!(
                "neither a {kind} preset ({}) nor a weights file",
                presets.join(", ")
            ),
        ));
    }
    let text = crate::io::read_text(path)?;
    parse(&text).map_err(|e| Error::at(path.display(), e))
}
