//! What a sprint's placement costs in key presses. TETR.IO's 40 LINES is ranked by pieces,
//! then by the inputs made with no finesse fault, then by the time; the search prices each
//! placement at the presses the export will make for it (`games::tetrio::export`): the
//! hold, TETR.IO's fewest presses for the cells (its finesse table), the hard drop; a
//! placement a drop from above cannot reach (a tuck, a spin) needs a soft drop and a move
//! after it besides (a lower bound; such a piece is not judged for finesse).

use crate::games::guideline::board::Board;
use crate::games::guideline::movegen::Placement;
use crate::games::guideline::piece::{fits, spawn_origin};
use crate::games::guideline::score::Spin;
use crate::games::tetrio::{finesse, pieces};
use crate::piece::Shape;
use std::sync::OnceLock;

/// What a key press costs in a sprint's rank (`Objective::Lines`), in the evaluator's units
/// (results/tetrio/forty-lines gives the figures of other weights).
pub const PRESS_WEIGHT: f64 = 9.0;

/// Columns of a box's origin the table covers: -3..13.
const XS: usize = 16;

/// TETR.IO's fewest presses for each shape, state and box column of the guideline game's
/// placements, on a board 10 wide (`u8::MAX`: no such placement).
fn table() -> &'static [[[u8; XS]; 4]; 7] {
    static TABLE: OnceLock<[[[u8; XS]; 4]; 7]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[[u8::MAX; XS]; 4]; 7];
        for shape in Shape::ALL {
            let letter = shape.letter();
            let Some(piece) = pieces::LETTERS.iter().position(|&l| l == letter) else {
                continue;
            };
            for state in 0..4u8 {
                for (i, slot) in t[shape as usize][state as usize].iter_mut().enumerate() {
                    let x = i as i8 - 3;
                    let p = Placement {
                        shape,
                        state,
                        x,
                        y: 5,
                        spin: Spin::None,
                    };
                    let cells = p.cells().map(|(cx, cy)| (cx as i32, cy as i32));
                    if cells.iter().all(|c| (0..10).contains(&c.0)) {
                        if let Some(n) = finesse::optimal_cells(piece as u8, cells, 10) {
                            *slot = n.min(u8::MAX as u32 - 1) as u8;
                        }
                    }
                }
            }
        }
        t
    })
}

/// Whether a hard drop from the spawn's height in `p`'s state and column ends in `p` (no
/// cell of the stack above it) and `p` is no spin.
fn from_above(board: &Board, p: &Placement) -> bool {
    let top = spawn_origin(p.shape).1;
    p.spin == Spin::None && (p.y + 1..=top).all(|y| fits(board, p.shape, p.state, p.x, y))
}

/// The presses that play `p` on `board` (with a hold first when `hold`).
pub fn presses(board: &Board, p: &Placement, hold: bool) -> u32 {
    let fewest = usize::try_from(p.x as i32 + 3)
        .ok()
        .and_then(|i| table()[p.shape as usize][p.state as usize].get(i))
        .copied()
        .filter(|&n| n != u8::MAX)
        .unwrap_or(3) as u32;
    let tuck = if from_above(board, p) { 0 } else { 2 };
    hold as u32 + fewest + tuck + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(shape: Shape, state: u8, x: i8, y: i8) -> Placement {
        Placement {
            shape,
            state,
            x,
            y,
            spin: Spin::None,
        }
    }

    #[test]
    fn presses_are_tetrio_finesse_plus_the_drop_and_a_tuck_costs_more() {
        let empty = Board::default();
        let (sx, _) = spawn_origin(Shape::T);
        // At the spawn: the hard drop; with a hold, one more.
        assert_eq!(presses(&empty, &at(Shape::T, 0, sx, 0), false), 1);
        assert_eq!(presses(&empty, &at(Shape::T, 0, sx, 0), true), 2);
        // Three columns right: DAS to the wall and a tap back, then the drop.
        assert_eq!(presses(&empty, &at(Shape::T, 0, sx + 3, 0), false), 3);
        // An S turned twice fills the cells of an S not turned a row lower: no turn needed.
        let s2 = at(Shape::S, 2, sx, 0);
        let s0 = at(Shape::S, 0, sx, -1);
        let sorted = |p: &Placement| {
            let mut c = p.cells();
            c.sort_unstable();
            c
        };
        assert_eq!(sorted(&s2), sorted(&s0));
        assert_eq!(presses(&empty, &s2, false), 1);
        // Under a roof the same placement is a tuck.
        let mut roofed = Board::default();
        roofed.fill(sx as usize + 1, 6);
        assert_eq!(presses(&roofed, &at(Shape::T, 0, sx, 0), false), 3);
    }
}
