//! The guideline family's declaration for the registry ([`crate::games::FAMILIES`]).

use crate::games::registry::{Capability::*, FamilyInfo, GameOption, RuleSet};

/// The guideline games on beamtris's own replay (SRS or SRS+, hold, spins, combos): TETR.IO's
/// rules as played today for `--tetrio-seed`, `--queue` and `--board`, or a game file's.
pub const FAMILY: FamilyInfo = FamilyInfo {
    name: "guideline",
    title: "guideline",
    rules: RuleSet::Guideline,
    builtin: "seeds/tetrio-versus.json",
    objectives: &["attack", "points"],
    supports: &[
        Solve, Verify, Show, Fumen, Html, Export, Play, Tune, Bench, Versus,
    ],
    options: &[
        GameOption {
            flag: "--tetrio-seed",
            default: "the game file's generator",
        },
        GameOption {
            flag: "--queue",
            default: "the game file's generator",
        },
        GameOption {
            flag: "--board",
            default: "empty",
        },
        GameOption {
            flag: "--hold",
            default: "empty",
        },
        GameOption {
            flag: "--pps",
            default: "2 (export's key pace)",
        },
    ],
    search_flags: &["--fourwide", "--no-fourwide"],
    weights: &["versus", "attack", "points"],
    default_beam: 3000,
    imports: &[],
    exports: &[".ttr (a game of TETR.IO's generator)"],
};
