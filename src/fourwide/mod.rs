//! The 4-wide combo MDP (see `/work/shared/fourwide/SPEC.md`).

pub mod field;
pub mod srs;
pub mod transitions;
