//! The game families beamtris plays (tencent, guideline, TETR.IO's own engine, NES and
//! standard), one folder each: its rules, board, pieces, move generation, replay, scoring,
//! features, and its declaration (`family.rs`), listed once in [`FAMILIES`]. Shared by every
//! family: a piece of the sequence ([`Piece`]), where a piece is ([`Pos`]), the SRS kick
//! tables ([`srs`]) and the declaration's types ([`registry`]).

pub mod guideline;
pub mod nes;
pub mod registry;
pub mod seven_bag;
pub mod srs;
pub mod standard;
pub mod tencent;
pub mod tetrio;

use crate::piece::Shape;
use serde::{Deserialize, Serialize};

/// The registry: every family beamtris knows, one line each. A new family is one folder and
/// one line here.
pub const FAMILIES: [&registry::FamilyInfo; 5] = [
    &tencent::family::FAMILY,
    &guideline::family::FAMILY,
    &tetrio::family::FAMILY,
    &nes::family::FAMILY,
    &standard::family::FAMILY,
];

/// The family named `name`.
pub fn family_named(name: &str) -> Option<&'static registry::FamilyInfo> {
    FAMILIES.into_iter().find(|f| f.name == name)
}

/// A piece of the sequence: its shape and the rotation state it spawns in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Piece {
    pub shape: Shape,
    pub state: u8,
}

/// Where a piece is: its centre cell and rotation state. `y` may be negative while the piece
/// is above the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    pub x: i8,
    pub y: i8,
    pub state: u8,
}

impl Pos {
    /// The position one unit op away (whether it fits is the caller's question).
    #[inline(always)]
    pub const fn moved(self, op: crate::record::Op) -> Pos {
        use crate::record::Op;
        match op {
            Op::Left => Pos {
                x: self.x - 1,
                ..self
            },
            Op::Right => Pos {
                x: self.x + 1,
                ..self
            },
            Op::Down => Pos {
                y: self.y + 1,
                ..self
            },
            Op::Rotate => Pos {
                state: (self.state + 1) & 3,
                ..self
            },
            // Not ops of the Tencent game: its grammar refuses them before a replay.
            Op::Ccw | Op::Flip | Op::Hold => self,
        }
    }
}
