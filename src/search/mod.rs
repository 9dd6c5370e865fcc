//! Players and searches that choose placements.

pub mod greedy;
