//! The `guideline` rule set: the modern games (TETR.IO, Jstris) as docs/guideline.md
//! describes them: a 10x24 board, SRS or SRS+ kicks, hold, hard drop, block out and lock out,
//! T-spins (full and mini), combos, back-to-back, perfect clears, points and attack.
//!
//! * [`board`]: the field as ten column words;
//! * [`piece`]: the piece in play and its moves (the kicks come from [`crate::games::srs`]);
//! * [`game`]: the state between pieces and what a lock does to it;
//! * [`score`]: the points and attack tables;
//! * [`replay`]: a record played through, lock by lock;
//! * [`movegen`]: every placement a piece can reach, with its spin kind and a shortest path.

pub mod board;
pub mod family;
pub mod game;
pub mod movegen;
pub mod piece;
pub mod replay;
pub mod score;

pub use board::Board;
pub use game::{State, TopOut};
pub use score::{ComboTable, Objective, Spin};

use crate::games::srs::RotationSystem;
use crate::record::Grammar;
use serde::{Deserialize, Serialize};

/// The settings that make one guideline game differ from another.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Rules {
    pub rotation: RotationSystem,
    pub combo_table: ComboTable,
    pub objective: Objective,
    /// Where pieces enter and when the game ends at the top (the guideline's unless said).
    #[serde(default, skip_serializing_if = "is_guideline_top")]
    pub top: TopOut,
}

fn is_guideline_top(top: &TopOut) -> bool {
    *top == TopOut::Guideline
}

impl Rules {
    /// The record grammar of these rules: `F` only under SRS+.
    pub const fn grammar(&self) -> &'static Grammar {
        if self.rotation.has_180() {
            &Grammar::GUIDELINE_SRS_PLUS
        } else {
            &Grammar::GUIDELINE_SRS
        }
    }
}
