//! A value learned from the search's own games (docs/learning.md).
//!
//! * [`data`]: boards the beam kept, each labelled by a rollout over the pieces ahead;
//! * [`fit`]: a linear value fitted to those labels, written as a weights file's `"value"`
//!   ([`crate::eval::value`]).
//!
//! The loop is approximate value iteration: solve, draw data, fit, solve with the model,
//! draw data again from that search, refit.

pub mod data;
pub mod fit;
