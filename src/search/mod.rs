//! Searches over a known piece sequence, and the one-piece players.

pub mod beam;
mod drop_values;
pub mod greedy;
pub mod guideline;
pub mod nes;
pub mod online;
pub mod online_run;
pub mod play_batch;
pub mod play_runs;
pub mod polish;
/// Progress of a beam search on stderr.
pub mod progress;
pub mod section_play;
/// What a sprint's placement costs in key presses (TETR.IO's finesse).
pub mod sprint_keys;
pub mod tencent;
pub mod tencent_play;
pub mod tune;
pub mod tuning;
pub mod width;
