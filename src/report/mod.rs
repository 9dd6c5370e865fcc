//! Reports over results files: summaries and plots of sweeps, weight comparisons and tuning.

pub mod svg;
