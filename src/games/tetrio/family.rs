//! The TETR.IO family's declaration for the registry ([`crate::games::FAMILIES`]).

use crate::games::registry::{Capability::*, FamilyInfo, GameOption, RuleSet};

/// A game file with TETR.IO's own options (an imported round, 40 LINES, BLITZ): its records
/// replay on TETR.IO's engine, frame by frame.
pub const FAMILY: FamilyInfo = FamilyInfo {
    name: "tetrio",
    title: "TETR.IO",
    rules: RuleSet::Guideline,
    builtin: "seeds/tetrio-blitz.json",
    objectives: &["attack", "points", "lines"],
    supports: &[Solve, Verify, Show, Fumen, Html, Export, Play, Tune],
    options: &[
        GameOption {
            flag: "--tetrio-seed",
            default: "the game file's seed",
        },
        GameOption {
            flag: "--pps",
            default: "the game's own pace (an import's), else 2",
        },
    ],
    search_flags: &["--fourwide", "--no-fourwide"],
    weights: &["versus", "attack", "points", "blitz"],
    default_beam: 3000,
    imports: &[".ttr", ".ttrm"],
    exports: &[".ttr"],
};
