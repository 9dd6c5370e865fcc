//! The 4-wide combo MDP (docs/fourwide.md), solved exactly.
//!
//! The pipeline, one module per job: `field` (the well and the notation) → `srs` (one
//! piece's clearing placements) → `transitions` (the reachable fields and their successors)
//! → `sequence` (queue states of a generator and preview count) → `minimize` (partition
//! refinement of the (field, hold) pairs) → `value` (value iteration over classes × queue
//! states) → `policy` (values mapped back to states, best moves, save and load).

pub mod continuation;
pub mod field;
pub mod minimize;
pub mod policy;
pub mod section;
pub mod sequence;
pub mod simulate;
pub mod srs;
pub mod transitions;
pub mod value;

pub use field::{Field, Piece};
pub use policy::{Choice, Policy};
pub use sequence::Generator;
pub use srs::Placements;

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The Bellman residual a solve stops below.
pub const TOLERANCE: f64 = 1e-9;

/// One configuration of the problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// 3 (seed `XXX_`) or 6 (seed `XXX_/XXX_`).
    pub residuals: u8,
    pub generator: Generator,
    /// Pieces visible after the current one.
    pub preview: usize,
    /// Whether hold is on (always occupied, swap semantics).
    pub hold: bool,
    pub placements: Placements,
}

impl Config {
    /// The seed field, or an error for an unsupported residual count.
    pub fn seed(&self) -> Result<Field> {
        transitions::seed(self.residuals).ok_or_else(|| {
            Error(format!(
                "residuals {}: only 3 and 6 are supported",
                self.residuals
            ))
        })
    }
}

/// Solves `config` to a Bellman residual below [`TOLERANCE`], reporting each sweep's number
/// and residual to `progress`.
pub fn solve(config: &Config, progress: &mut dyn FnMut(usize, f64)) -> Result<Policy> {
    let started = std::time::Instant::now();
    let structure = policy::Structure::build(config)?;
    Ok(solve_structure(structure, started, progress))
}

/// Solves a configuration whose structure is built (so its size can be checked first);
/// `started` is when the work began (the policy's `seconds` count from it).
pub fn solve_structure(
    structure: policy::Structure,
    started: std::time::Instant,
    progress: &mut dyn FnMut(usize, f64),
) -> Policy {
    let solved = value::value_iteration(
        &structure.sequence,
        &structure.reduced,
        TOLERANCE,
        usize::MAX,
        progress,
    );
    let mut policy = Policy::new(
        structure,
        solved.values,
        solved.iterations,
        solved.residual,
        started.elapsed().as_secs_f64(),
    );
    policy.extrapolations = solved.extrapolations;
    policy
}

/// An upper bound on the memory a solve of `structure` holds at its peak: three arrays of
/// one `f64` per minimised state (the iterate, the next one or the random generator's
/// padded copy, and the values in plain order at the end), a fourth when the policy is
/// saved (the file's bytes).
pub fn solve_bytes(structure: &policy::Structure, save: bool) -> u64 {
    let arrays = if save { 4 } else { 3 };
    structure.minimized_states() as u64 * 8 * arrays
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(generator: Generator, preview: usize, hold: bool) -> Config {
        Config {
            residuals: 3,
            generator,
            preview,
            hold,
            placements: Placements::Srs,
        }
    }

    #[test]
    fn spec_values_random_no_hold_no_preview() {
        let policy = solve(&config(Generator::Random, 0, false), &mut |_, _| {}).unwrap();
        assert!(policy.residual < TOLERANCE);
        let values = policy.field_values();
        assert_eq!(values.len(), 40);
        let of = |text: &str| {
            let f = Field::parse(text).unwrap();
            values.iter().find(|(g, _)| *g == f).unwrap().1
        };
        let best = values.iter().map(|v| v.1).fold(0.0, f64::max);
        let mean = values.iter().map(|v| v.1).sum::<f64>() / 40.0;
        assert_eq!(format!("{best:.3}"), "3.010");
        assert_eq!(format!("{:.3}", of("XXX_")), "2.450");
        assert_eq!(format!("{:.3}", of("X_XX")), "2.374");
        assert_eq!(format!("{mean:.3}"), "1.359");
    }

    #[test]
    fn saved_policy_loads_back() {
        let policy = solve(&config(Generator::Bag, 1, true), &mut |_, _| {}).unwrap();
        let dir = std::env::temp_dir().join(format!("beamtris-fourwide-{}", std::process::id()));
        let path = dir.join("policy.bin");
        policy.save(&path).unwrap();
        let loaded = Policy::load(&path).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(loaded.values, policy.values);
        assert_eq!(loaded.config(), policy.config());
        let f = Field::parse("XXX_").unwrap();
        let a = policy.choices(f, Some(Piece::I), Piece::T, &[Piece::O], &[Piece::S]);
        let b = loaded.choices(f, Some(Piece::I), Piece::T, &[Piece::O], &[Piece::S]);
        assert_eq!(a.unwrap(), b.unwrap());
    }

    #[test]
    fn bag_values_do_not_depend_on_the_thread_count() {
        let c = config(Generator::Bag, 2, true);
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| solve(&c, &mut |_, _| {}).unwrap())
        };
        let (one, two) = (run(1), run(2));
        assert_eq!(one.values, two.values);
        assert_eq!(one.iterations, two.iterations);
    }

    #[test]
    fn state_counts_follow_the_spec() {
        // 40 x 7 x 7^p with hold under random; minimisation only merges.
        let c = config(Generator::Random, 1, true);
        let policy = solve(&c, &mut |_, _| {}).unwrap();
        assert!(policy.structure.minimized_states() <= policy.structure.states());
        assert_eq!(policy.structure.states(), 40 * 7 * 7);
    }
}
