//! Placements of one piece in the well: guideline SRS (every position reachable by left,
//! right, down, clockwise and counter-clockwise with the SPEC's kicks) or hard drop only.
//!
//! Only placements that clear exactly one row count: a 4-wide combo keeps its residual count,
//! and a placement that clears nothing ends the combo. Two placements that leave the same
//! field are one placement, so the result is a sorted set of fields.

use super::field::{Field, Piece, FULL_ROW};
use crate::games::srs::{self, RotationSystem};
use crate::piece::Shape;
use serde::{Deserialize, Serialize};

/// Which moves a piece may make before it locks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Placements {
    /// Every SRS-reachable resting position: tucks and spins included.
    Srs,
    /// Rotate and shift at the top, then drop straight down.
    HardDrop,
}

impl Placements {
    /// The name used on the command line and in results files.
    pub const fn name(self) -> &'static str {
        match self {
            Placements::Srs => "srs",
            Placements::HardDrop => "harddrop",
        }
    }
}

/// Rows 0..11 may hold a piece's cells; nothing goes higher.
const TOP_ROW: i32 = 11;
/// The row of a spawning piece's box bottom.
const SPAWN_Y: i32 = 8;

/// The crate's shape for a 4-wide piece: the SRS tables are kept once, in
/// [`crate::games::srs`].
pub fn shape(piece: Piece) -> Shape {
    match piece {
        Piece::T => Shape::T,
        Piece::J => Shape::J,
        Piece::L => Shape::L,
        Piece::S => Shape::S,
        Piece::Z => Shape::Z,
        Piece::I => Shape::I,
        Piece::O => Shape::O,
    }
}

/// The cells of `piece` in rotation state `rot` (0, R = 1, 2, L = 3).
fn cells(piece: Piece, rot: u8) -> [(i32, i32); 4] {
    srs::cells(shape(piece), rot).map(|(x, y)| (x as i32, y as i32))
}

/// The kick tests for turning from state `from` to state `to` (one step either way), under
/// the Guideline's SRS.
fn kicks(piece: Piece, from: u8, to: u8) -> impl Iterator<Item = (i32, i32)> {
    srs::kicks(RotationSystem::Srs, shape(piece), from, to)
        .iter()
        .map(|&(x, y)| (x as i32, y as i32))
}

/// The piece's cells at box origin (`bx`, `by`) as a 16-row board, or `None` when a cell is
/// outside the well or above row 11.
fn mask(shape: &[(i32, i32); 4], bx: i32, by: i32) -> Option<u64> {
    let mut m = 0u64;
    for &(cx, cy) in shape {
        let (x, y) = (bx + cx, by + cy);
        if !(0..4).contains(&x) || !(0..=TOP_ROW).contains(&y) {
            return None;
        }
        m |= 1 << (4 * y + x);
    }
    Some(m)
}

/// The field left by locking a piece whose cells are `piece` on `board`, when exactly one
/// row is completed; `None` otherwise.
fn lock(board: u64, piece: u64) -> Option<Field> {
    let all = board | piece;
    let full: Vec<u32> = (0..16)
        .filter(|&y| all >> (4 * y) & FULL_ROW == FULL_ROW)
        .collect();
    if full.len() != 1 {
        return None;
    }
    let y = full[0];
    let below = all & ((1u64 << (4 * y)) - 1);
    let above = (all >> (4 * (y + 1))) << (4 * y);
    let rest = below | above;
    // Residual cells stay in rows 0..7: 6 residuals reach row 5 at most.
    u32::try_from(rest).ok().map(Field)
}

/// Box x range wide enough for every piece and rotation.
const XS: std::ops::Range<i32> = -3..4;
/// Box y range wide enough for every piece and rotation below the top row.
const YS: std::ops::Range<i32> = -3..12;

fn slot(rot: u8, bx: i32, by: i32) -> usize {
    ((rot as i32 * 7 + (bx + 3)) * 15 + (by + 3)) as usize
}

/// Every field `piece` can leave on `field` with exactly one row cleared, sorted.
pub fn placements(field: Field, piece: Piece, rule: Placements) -> Vec<Field> {
    let mut out = match rule {
        Placements::Srs => srs_placements(field.board(), piece),
        Placements::HardDrop => drop_placements(field.board(), piece),
    };
    out.sort_unstable();
    out.dedup();
    out
}

/// A breadth-first search over (rotation, x, y) from every spawn column.
fn srs_placements(board: u64, piece: Piece) -> Vec<Field> {
    let shapes: [[(i32, i32); 4]; 4] = std::array::from_fn(|r| cells(piece, r as u8));
    let fits = |rot: u8, bx: i32, by: i32| -> Option<u64> {
        mask(&shapes[rot as usize], bx, by).filter(|m| m & board == 0)
    };
    let mut seen = vec![false; 4 * 7 * 15];
    let mut queue: Vec<(u8, i32, i32)> = Vec::new();
    for bx in XS {
        if fits(0, bx, SPAWN_Y).is_some() && !seen[slot(0, bx, SPAWN_Y)] {
            seen[slot(0, bx, SPAWN_Y)] = true;
            queue.push((0, bx, SPAWN_Y));
        }
    }
    let mut out = Vec::new();
    let mut head = 0;
    while head < queue.len() {
        let (rot, bx, by) = queue[head];
        head += 1;
        let here = fits(rot, bx, by).expect("queued positions fit");
        if fits(rot, bx, by - 1).is_none() {
            out.extend(lock(board, here));
        }
        let mut next: Vec<(u8, i32, i32)> = vec![(rot, bx - 1, by), (rot, bx + 1, by)];
        next.push((rot, bx, by - 1));
        if piece != Piece::O {
            for to in [(rot + 1) % 4, (rot + 3) % 4] {
                let kick = kicks(piece, rot, to)
                    .map(|(dx, dy)| (to, bx + dx, by + dy))
                    .find(|&(r, x, y)| fits(r, x, y).is_some());
                next.extend(kick);
            }
        }
        for (r, x, y) in next {
            if XS.contains(&x) && YS.contains(&y) && fits(r, x, y).is_some() {
                let s = slot(r, x, y);
                if !seen[s] {
                    seen[s] = true;
                    queue.push((r, x, y));
                }
            }
        }
    }
    out
}

/// Every rotation at every column, dropped straight down from the spawn height.
fn drop_placements(board: u64, piece: Piece) -> Vec<Field> {
    let rotations: &[u8] = if piece == Piece::O {
        &[0]
    } else {
        &[0, 1, 2, 3]
    };
    let mut out = Vec::new();
    for &rot in rotations {
        let shape = cells(piece, rot);
        for bx in XS {
            let Some(mut m) = mask(&shape, bx, SPAWN_Y).filter(|m| m & board == 0) else {
                continue;
            };
            let mut by = SPAWN_Y;
            while let Some(below) = mask(&shape, bx, by - 1).filter(|m| m & board == 0) {
                m = below;
                by -= 1;
            }
            out.extend(lock(board, m));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(text: &str) -> Field {
        Field::parse(text).unwrap()
    }

    #[test]
    fn rotation_turns_clockwise() {
        // T pointing right: a column at x = 1 with the nub at (2, 1).
        let mut t = cells(Piece::T, 1);
        t.sort();
        assert_eq!(t, [(1, 0), (1, 1), (1, 2), (2, 1)]);
        // I in state R is column 2 of its 4x4 box.
        assert!(cells(Piece::I, 1).iter().all(|c| c.0 == 2));
    }

    #[test]
    fn i_on_xxx_() {
        // A vertical I in the last column clears the bottom row and leaves 3 cells above it;
        // a flat I on top clears row 1 and leaves the field as it was.
        let out = placements(f("XXX_"), Piece::I, Placements::Srs);
        assert_eq!(out, [f("XXX_"), f("___X/___X/___X")]);
    }

    #[test]
    fn every_placement_keeps_the_residual_count() {
        for seed in ["XXX_", "XXX_/XXX_"] {
            for p in Piece::ALL {
                for rule in [Placements::Srs, Placements::HardDrop] {
                    for g in placements(f(seed), p, rule) {
                        assert_eq!(g.cells(), f(seed).cells(), "{seed} {p} -> {g}");
                    }
                }
            }
        }
    }

    #[test]
    fn hard_drops_are_srs_placements() {
        for seed in ["XXX_", "X_XX", "XX_X/XXX_"] {
            for p in Piece::ALL {
                let srs = placements(f(seed), p, Placements::Srs);
                for g in placements(f(seed), p, Placements::HardDrop) {
                    assert!(srs.contains(&g), "{seed} {p} -> {g}");
                }
            }
        }
    }
}
