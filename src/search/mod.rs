//! Searches over a known piece sequence.

pub mod beam;
pub mod evaluator;
pub mod tune;
