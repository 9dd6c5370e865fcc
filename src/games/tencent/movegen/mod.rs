//! Placements of a piece on a board under the `tencent` rules, and the op path to each.
//!
//! Two move sets:
//! * [`MoveSet::Drop`]: rotate at spawn, shift along the top, hard drop. Landing rows come from
//!   the column tops, so a board is a few lookups per placement.
//! * [`MoveSet::Reach`]: every position reachable by unit L/R/D/C moves (tucks, late
//!   rotations), found by flood-filling bit masks of centre columns row by row. It keeps the
//!   resting positions and the floating ones that clear a line, since the game locks a piece
//!   wherever its ops end.
//!
//! The centre cell (offset (0,0)) is always part of the piece, so a valid centre lies in
//! columns 0..=9 and, as pieces only move down from row 0, rows 0..=19: a piece's positions fit
//! in 4 states x 20 rows of 10-bit masks.
//!
//! Placements that fill the same cells are one: the position's state is reported as the
//! shape's canonical state (I, S, Z repeat their states, O has one).

mod drop;
mod path;
mod reach;
#[cfg(test)]
pub(crate) mod tests;

pub use drop::{drop_path, drop_placements};
pub use path::shortest_path;
pub use reach::reach_placements;

use crate::games::tencent::board::Board;
use crate::games::{Piece, Pos};
use crate::record::Op;

/// Which moves a placement may use.
#[derive(
    Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum MoveSet {
    /// Rotate at spawn, shift, hard drop.
    Drop,
    /// Any sequence of unit moves: tucks, spins, floating line clears.
    Reach,
}

/// Placements of `piece` under `moves`, appended to `out`.
pub fn placements(board: &Board, piece: Piece, moves: MoveSet, out: &mut Vec<Pos>) {
    match moves {
        MoveSet::Drop => drop_placements(board, piece, out),
        MoveSet::Reach => reach_placements(board, piece, out),
    }
}

/// The op path to `target` under `moves`: the drop path, or a shortest unit-move path.
pub fn path(board: &Board, piece: Piece, target: Pos, moves: MoveSet) -> Option<Vec<Op>> {
    match moves {
        MoveSet::Drop => Some(drop_path(piece, target)),
        _ => shortest_path(board, piece, target),
    }
}
