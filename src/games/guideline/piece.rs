//! The piece in play under the guideline rules: spawn, the unit moves with SRS kicks, the
//! hard drop, and what the spin check needs to know about the last move.
//!
//! `replay` and the path search both move pieces through [`Active::apply`], so a path the
//! search writes is replayed by the very code that found it.

use super::board::{Board, HEIGHT, WIDTH};
use crate::games::srs::{self, RotationSystem};
use crate::piece::Shape;
use crate::record::Op;
use serde::Serialize;

/// What the last move that changed the piece's position was, for the spin check (SPEC §5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Twist {
    /// Spawned, shifted, soft- or hard-dropped since the last rotation.
    None,
    /// A rotation (any direction) that won with any test but a 90° turn's fifth into R or L.
    Rotated,
    /// A 90° turn into state R or L that won with its fifth test (the (±1, −2) kick): a
    /// T-spin with three corners is full whatever its corners.
    RotatedFifth,
}

/// A piece on the board: shape, rotation state, box origin (x, y up) and its last move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Active {
    pub shape: Shape,
    pub state: u8,
    pub x: i8,
    pub y: i8,
    pub twist: Twist,
}

/// The spawn box origin of `shape`: (3, 19), the I piece (3, 18); lowest cells in row 20.
pub const fn spawn_origin(shape: Shape) -> (i8, i8) {
    match shape {
        Shape::I => (3, 18),
        _ => (3, 19),
    }
}

/// Whether `shape` in `state` with its box at (x, y) lies on the board on empty cells.
#[inline]
pub fn fits(board: &Board, shape: Shape, state: u8, x: i8, y: i8) -> bool {
    srs::cells(shape, state).iter().all(|&(cx, cy)| {
        let (px, py) = (x as i32 + cx as i32, y as i32 + cy as i32);
        (0..WIDTH as i32).contains(&px)
            && (0..HEIGHT as i32).contains(&py)
            && !board.filled(px as usize, py as usize)
    })
}

impl Active {
    /// `shape` at its spawn position, or `None` when that overlaps a cell (block out).
    pub fn spawn(board: &Board, shape: Shape) -> Option<Active> {
        Active::spawn_lifted(board, shape, 0)
    }

    /// `shape` in its spawn state `rows` above its spawn position, or `None` when that
    /// overlaps a cell (TETR.IO spawns a row higher than the guideline).
    pub fn spawn_lifted(board: &Board, shape: Shape, rows: i8) -> Option<Active> {
        let (x, y) = spawn_origin(shape);
        let y = y + rows;
        fits(board, shape, 0, x, y).then_some(Active {
            shape,
            state: 0,
            x,
            y,
            twist: Twist::None,
        })
    }

    /// The cells on the board, (x, y) with y up.
    #[inline]
    pub fn cells(&self) -> [(i8, i8); 4] {
        srs::cells(self.shape, self.state).map(|(cx, cy)| (self.x + cx, self.y + cy))
    }

    /// Whether the piece is at (x, y) in `state` on `board`.
    #[inline]
    fn fits_at(&self, board: &Board, state: u8, x: i8, y: i8) -> bool {
        fits(board, self.shape, state, x, y)
    }

    /// The piece after `op` (L, R, D, C, A or F); a move that cannot be made changes nothing.
    /// `F` under a system without 180° turns and `H` are not moves of the piece (the record's
    /// grammar refuses them) and change nothing.
    #[inline]
    pub fn apply(&self, board: &Board, op: Op, system: RotationSystem) -> Active {
        let shift = |dx: i8, dy: i8| {
            if self.fits_at(board, self.state, self.x + dx, self.y + dy) {
                Active {
                    x: self.x + dx,
                    y: self.y + dy,
                    twist: Twist::None,
                    ..*self
                }
            } else {
                *self
            }
        };
        match op {
            Op::Left => shift(-1, 0),
            Op::Right => shift(1, 0),
            Op::Down => shift(0, -1),
            Op::Rotate => self.rotate(board, system, 1),
            Op::Ccw => self.rotate(board, system, 3),
            Op::Flip => self.rotate(board, system, 2),
            Op::Hold => *self,
        }
    }

    /// Turns by `quarters` clockwise (1, 2 or 3), trying the kicks in order.
    fn rotate(&self, board: &Board, system: RotationSystem, quarters: u8) -> Active {
        let to = (self.state + quarters) & 3;
        for (i, &(dx, dy)) in srs::kicks(system, self.shape, self.state, to)
            .iter()
            .enumerate()
        {
            let (x, y) = (self.x + dx, self.y + dy);
            if self.fits_at(board, to, x, y) {
                let fifth = quarters != 2 && i == 4 && (to == 1 || to == 3);
                return Active {
                    state: to,
                    x,
                    y,
                    twist: if fifth {
                        Twist::RotatedFifth
                    } else {
                        Twist::Rotated
                    },
                    ..*self
                };
            }
        }
        *self
    }

    /// Rows the piece can still fall.
    #[inline]
    pub fn drop_distance(&self, board: &Board) -> i8 {
        let mut d = 0;
        while self.fits_at(board, self.state, self.x, self.y - d - 1) {
            d += 1;
        }
        d
    }

    /// The piece after a hard drop: as low as it goes; a drop of a row or more clears the
    /// twist.
    #[inline]
    pub fn hard_dropped(&self, board: &Board) -> Active {
        let d = self.drop_distance(board);
        if d == 0 {
            *self
        } else {
            Active {
                y: self.y - d,
                twist: Twist::None,
                ..*self
            }
        }
    }
}
