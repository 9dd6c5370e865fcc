//! Board evaluation: the classic hand-made features of one-piece Tetris players and the
//! published weight sets that combine them.

pub mod features;
pub mod guideline;
pub mod weights;
pub mod weights_file;

pub use features::Features;
pub use weights::Weights;
