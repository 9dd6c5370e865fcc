//! The playfield as the ROM addresses it: the 256 bytes of page $0400, ten a row, rows 0-19
//! on screen. Indices are computed in one byte, so a cell above the top (row -1 or -2)
//! wraps to the end of the page (rows 24 and 25), where the game reads and writes it like
//! any other; a model with only 200 cells would lose those.

use super::orientation::{cells, Orientation};

/// Page $0400-$04FF: `true` for a block, `false` for the empty tile $EF.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Playfield(pub [bool; 256]);

impl Default for Playfield {
    fn default() -> Self {
        Playfield([false; 256])
    }
}

/// The byte index of the cell (x, y), as `y * 10 + x` wraps in the ROM's arithmetic.
fn index(x: i8, y: i8) -> usize {
    usize::from((i16::from(y) * 10 + i16::from(x)) as u8)
}

impl Playfield {
    /// The cell at column `x`, row `y` of the screen (0-9, 0-19).
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.0[(y * 10 + x) & 0xFF]
    }

    /// Sets the cell at column `x`, row `y`.
    pub fn set(&mut self, x: usize, y: usize, block: bool) {
        self.0[(y * 10 + x) & 0xFF] = block;
    }

    /// `isPositionValid`: every cell of `o` at (x, y) is in rows -2 to 19 and columns 0 to
    /// 9, and its byte (wrapped) is empty.
    pub fn fits(&self, o: Orientation, x: i8, y: i8) -> bool {
        cells(o).iter().all(|&(dx, dy)| {
            let (cx, cy) = (x + dx, y + dy);
            (-2..20).contains(&cy) && (0..10).contains(&cx) && !self.0[index(cx, cy)]
        })
    }

    /// Writes the cells of `o` at (x, y) (the lock), each byte wrapped as the ROM does.
    pub fn lock(&mut self, o: Orientation, x: i8, y: i8) {
        for &(dx, dy) in cells(o) {
            self.0[index(x + dx, y + dy)] = true;
        }
    }

    /// Whether the ten bytes of row `row` (0-25) are all blocks.
    pub fn row_full(&self, row: u8) -> bool {
        let start = usize::from(row) * 10;
        (start..start + 10).all(|i| self.0[i & 0xFF])
    }

    /// Clears row `row`: every byte before it moves ten on, and the top row empties. For
    /// row 0 the ROM's countdown starts at byte 255 instead (its index is one byte), so the
    /// whole page moves and its last ten bytes leave it (they land on page $0500).
    pub fn clear_row(&mut self, row: u8) {
        let end = if row == 0 { 256 } else { usize::from(row) * 10 };
        for i in (0..end).rev() {
            if i + 10 < 256 {
                self.0[i + 10] = self.0[i];
            }
        }
        self.0[..10].fill(false);
    }

    /// The screen rows as text, `#` a block and `.` empty, top row first (for tests and
    /// error messages).
    pub fn rows_text(&self) -> String {
        (0..20)
            .map(|y| {
                (0..10)
                    .map(|x| if self.get(x, y) { '#' } else { '.' })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_above_the_top_wrap_to_the_end_of_the_page() {
        let mut p = Playfield::default();
        // I vertical (0x11) at x 9, y 0: cells at rows -2 to 1.
        p.lock(0x11, 9, 0);
        assert!(p.0[255 - 10] && p.0[255] && p.get(9, 0) && p.get(9, 1));
        // a piece whose cell falls on byte 255 no longer fits
        assert!(!p.fits(0x11, 9, 0));
    }

    #[test]
    fn clearing_a_row_drops_the_rows_above() {
        let mut p = Playfield::default();
        for x in 0..10 {
            p.set(x, 19, true);
        }
        p.set(3, 18, true);
        assert!(p.row_full(19));
        p.clear_row(19);
        assert!(p.get(3, 19) && !p.get(3, 18) && !p.row_full(19));
    }
}
