//! The Tencent family's declaration for the registry ([`crate::games::FAMILIES`]).

use crate::games::registry::{Capability::*, FamilyInfo, GameOption, RuleSet};

/// The Tencent Geek Challenge game: unit moves, no kicks, no hold, cells x 1/3/6/10.
pub const FAMILY: FamilyInfo = FamilyInfo {
    name: "tencent",
    title: "Tencent Geek Challenge",
    rules: RuleSet::Tencent,
    builtin: "seeds/tencent-geek-4.json",
    objectives: &["points"],
    supports: &[Solve, Verify, Show, Fumen, Html, Play, Tune, Polish, Bench],
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
    ],
    search_flags: &["--moves"],
    weights: &["open-column", "edge"],
    default_beam: 4000,
    imports: &[],
    exports: &[],
};
