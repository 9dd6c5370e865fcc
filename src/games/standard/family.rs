//! The standard family's declaration for the registry ([`crate::games::FAMILIES`]).

use crate::games::registry::{Capability::*, FamilyInfo, RuleSet};

/// The one-piece game of the literature: only the current piece known, played to its end.
pub const FAMILY: FamilyInfo = FamilyInfo {
    name: "standard",
    title: "standard one-piece",
    rules: RuleSet::Standard,
    builtin: "seeds/standard.json",
    objectives: &["lines"],
    supports: &[Play],
    options: &[],
    search_flags: &[],
    weights: &["dellacherie", "eltetris", "bcts"],
    default_beam: 0,
    imports: &[],
    exports: &[],
};
