//! B-type garbage (`initPlayfieldIfTypeB`): rows 8-19 drawn from the register, each with a
//! hole made sure of, then the rows above the chosen height emptied.

use super::playfield::Playfield;
use super::rng::Rng;

/// `rngTable`: the register's high byte mod 8 picks a block (`true`) or the empty tile.
const BLOCK_BY_DRAW: [bool; 8] = [false, true, false, true, true, true, false, false];

/// Rows from the top left empty for each height 0-5 (`typeBBlankInitCountByHeightTable`,
/// in rows): height 0 empties the whole field, height 5 keeps twelve rows.
const EMPTY_ROWS: [usize; 6] = [20, 17, 15, 12, 10, 8];

/// Fills `field` for B-type height `height` (0-5, larger taken as 5), stepping `rng` as the
/// ROM does: once a row, once a cell from column 9 to 0, then until the high byte mod 16 is
/// a column for the hole. The ROM's clearing loop runs one byte past the blank rows, so the
/// leftmost cell of the top garbage row is always empty too.
pub fn fill(field: &mut Playfield, rng: &mut Rng, height: u8) {
    for y in 8..20 {
        rng.step();
        for x in (0..10).rev() {
            rng.step();
            field.set(x, y, BLOCK_BY_DRAW[usize::from(rng.high() & 7)]);
        }
        rng.step_until(|v| v & 0x0F >= 10);
        field.set(usize::from(rng.high() & 0x0F), y, false);
    }
    let empty = EMPTY_ROWS[usize::from(height.min(5))] * 10 + 1;
    field.0[..empty].fill(false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_garbage_row_has_a_hole() {
        for h in 0..6u8 {
            let mut f = Playfield::default();
            let mut r = Rng(0x1234);
            fill(&mut f, &mut r, h);
            for y in 0..20 {
                assert!(!f.row_full(y as u8));
            }
            let rows = (0..20).filter(|&y| (0..10).any(|x| f.get(x, y))).count();
            assert!(rows <= 20 - EMPTY_ROWS[usize::from(h)]);
        }
    }
}
