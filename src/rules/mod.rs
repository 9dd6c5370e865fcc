//! Rule sets: geometry, spawn, moves, top-out and scoring of each game beamtris plays.

pub mod standard;
pub mod tencent;

use crate::piece::Shape;
use serde::{Deserialize, Serialize};

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
