//! The NES family's declaration for the registry ([`crate::games::FAMILIES`]).

use crate::games::registry::{Capability::*, FamilyInfo, GameOption, RuleSet};

/// NES Tetris from power-on, TetrisGYM's seeded pieces, at a tap speed.
pub const FAMILY: FamilyInfo = FamilyInfo {
    name: "nes",
    title: "NES Tetris",
    rules: RuleSet::Nes,
    builtin: "seeds/nes-gym.json",
    objectives: &["points"],
    supports: &[Solve, Verify, Show, Fumen, Html],
    options: &[
        GameOption {
            flag: "--gym-seed",
            default: "123456",
        },
        GameOption {
            flag: "--level",
            default: "18",
        },
        GameOption {
            flag: "--tap-hz",
            default: "30",
        },
        GameOption {
            flag: "--das",
            default: "off",
        },
        GameOption {
            flag: "--lines",
            default: "230",
        },
        GameOption {
            flag: "--killscreen-x2",
            default: "off",
        },
    ],
    search_flags: &[],
    // `nes` for a game with Killscreen x2, `nes-230` for the others (the solve picks)
    weights: &["nes", "nes-230"],
    default_beam: 2000,
    imports: &[".fm2"],
    exports: &[],
};
