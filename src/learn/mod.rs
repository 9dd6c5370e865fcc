//! A value learned from the search's own games (docs/learning.md).
//!
//! * [`data`]: boards the Tencent beam kept, each labelled by a rollout over the pieces ahead
//!   and by its lineage;
//! * [`guideline`]: boards the guideline beam kept, labelled by their lineage, and the
//!   weights a fit on them makes;
//! * [`lineage`]: which kept boards are taken and how many later states descend from each
//!   (both families);
//! * [`fit`]: a linear value fitted to those labels by one ridge regression (both families),
//!   written as a Tencent weights file's `"value"` ([`crate::eval::value`]) or as guideline
//!   weights;
//! * [`csv`]: the data files' CSV.
//!
//! The loop is approximate value iteration: solve, draw data, fit, solve with the model,
//! draw data again from that search, refit.

pub mod csv;
pub mod data;
pub mod fit;
pub mod guideline;
pub mod lineage;
