//! Evaluation: the weights that rank a family's boards and the evaluators that apply them.
//!
//! * [`tencent`]: the beam's evaluator on the Tencent board (a rank, lower is better);
//! * [`guideline`]: the beam's evaluator on guideline states;
//! * [`value`]: a learned value of Tencent boards that a weights file may add to the rank;
//! * [`players`]: the one-piece players' published weight sets (a value, higher is better);
//! * [`weights_file`]: one loader for weights files, whatever command reads them.

pub mod guideline;
pub mod players;
pub mod tencent;
pub mod value;
pub mod weights_file;
