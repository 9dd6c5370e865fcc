//! The 10x24 guideline field (20 visible rows and 4 buffer rows) as ten column words.
//!
//! Column `x` is a `u32` whose bit `23 - y` holds cell (x, y): bits count rows from the top,
//! the project's convention, and it is the order in which a falling piece meets the cells, so
//! that move generation floods downward with an addition (a carry runs toward higher bits).
//! Forty bytes a board; equality and hashing are word compares. A `Board` never holds a
//! piece in flight.

use serde::{Deserialize, Serialize};

/// Columns on the board.
pub const WIDTH: usize = 10;
/// Rows on the board: 20 visible and 4 buffer rows above them.
pub const HEIGHT: usize = 24;
/// Rows of the visible field; a lock with every cell at or above this row locks out.
pub const VISIBLE: usize = 20;
/// The bits of a column that hold cells.
pub const COLUMN_BITS: u32 = (1 << HEIGHT) - 1;

/// The bit of row `y` in a column word.
#[inline(always)]
pub const fn row_bit(y: usize) -> u32 {
    1 << (HEIGHT - 1 - y)
}

/// A 10x24 board: ten columns, bit `23 - y` of column `x` set when cell (x, y) is filled.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Board {
    pub cols: [u32; WIDTH],
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { cols: [0; WIDTH] };

    /// Whether cell (x, y) is filled; y = 0 is the bottom row.
    #[inline(always)]
    pub const fn filled(&self, x: usize, y: usize) -> bool {
        self.cols[x] & row_bit(y) != 0
    }

    /// Whether (x, y) is off the board or filled: what kicks, spins and moves treat as solid.
    #[inline(always)]
    pub const fn solid(&self, x: i32, y: i32) -> bool {
        x < 0
            || x >= WIDTH as i32
            || y < 0
            || y >= HEIGHT as i32
            || self.filled(x as usize, y as usize)
    }

    /// Fills cell (x, y).
    #[inline(always)]
    pub fn fill(&mut self, x: usize, y: usize) {
        self.cols[x] |= row_bit(y);
    }

    /// The rows that are full, as a column word (bit `23 - y` for row y).
    #[inline(always)]
    pub fn full_rows(&self) -> u32 {
        self.cols.iter().fold(COLUMN_BITS, |acc, c| acc & c)
    }

    /// Removes the rows in `rows` (a column word); the rows above them fall.
    #[inline]
    pub fn clear_rows(&mut self, rows: u32) {
        if rows == 0 {
            return;
        }
        let keep = COLUMN_BITS & !rows;
        let n = rows.count_ones();
        for c in self.cols.iter_mut() {
            // The kept cells packed toward bit 0 keep their order (top first); shifted down by
            // the cleared count they sit on the floor again.
            *c = pext(*c, keep) << n;
        }
    }

    /// Pushes `rows` garbage rows in from the floor, each full but for column `hole`; the
    /// stack rises by `rows`. False when a filled cell is pushed past the top row (it is lost:
    /// in a game the stack has topped out).
    pub fn push_garbage(&mut self, rows: u32, hole: usize) -> bool {
        let rows = rows.min(HEIGHT as u32);
        if rows == 0 {
            return true;
        }
        // Rows count from the top bit down, so a rise is a shift toward bit 0; the rows shifted
        // out past bit 0 were above the top.
        let lost = (1u32 << rows) - 1;
        let floor = COLUMN_BITS & !(COLUMN_BITS >> rows);
        let mut kept = true;
        for (x, c) in self.cols.iter_mut().enumerate() {
            kept &= *c & lost == 0;
            *c >>= rows;
            if x != hole {
                *c |= floor;
            }
        }
        kept
    }

    /// Whether no cell is filled.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.cols.iter().all(|&c| c == 0)
    }

    /// Filled cells on the board.
    #[inline]
    pub fn cell_count(&self) -> u32 {
        self.cols.iter().map(|c| c.count_ones()).sum()
    }

    /// Column `x`'s cells from its top down to the floor, filled or not (none when the column
    /// is empty): the column has no holes exactly when it fills all of them.
    #[inline(always)]
    pub const fn below_top(&self, x: usize) -> u32 {
        // The highest cell is the lowest set bit; the mask wraps to zero for an empty column.
        let c = self.cols[x];
        COLUMN_BITS & !(c & c.wrapping_neg()).wrapping_sub(1)
    }

    /// The height of column `x`: one above its highest filled cell, 0 when empty.
    #[inline(always)]
    pub const fn height(&self, x: usize) -> u32 {
        // The highest cell is the lowest set bit; an empty column counts 32 trailing zeros.
        (HEIGHT as u32).saturating_sub(self.cols[x].trailing_zeros())
    }

    /// The board from rows written top first, `X` (or any piece letter) filled and `.` or `_`
    /// empty; missing rows at the top are empty. For tests and board files.
    pub fn from_rows(rows: &[&str]) -> Option<Board> {
        if rows.len() > HEIGHT {
            return None;
        }
        let mut b = Board::EMPTY;
        for (i, row) in rows.iter().enumerate() {
            let y = rows.len() - 1 - i;
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != WIDTH {
                return None;
            }
            for (x, ch) in cells.into_iter().enumerate() {
                match ch {
                    '.' | '_' => {}
                    _ => b.fill(x, y),
                }
            }
        }
        Some(b)
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let top = (0..WIDTH).map(|x| self.height(x)).max().unwrap_or(0) as usize;
        for y in (0..top).rev() {
            let row: String = (0..WIDTH)
                .map(|x| if self.filled(x, y) { 'X' } else { '.' })
                .collect();
            writeln!(f, "{row}")?;
        }
        write!(f, "----------")
    }
}

/// Parallel bit extract: the bits of `x` selected by `mask`, packed toward bit 0 in order.
#[inline(always)]
fn pext(x: u32, mask: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled for this build.
        unsafe { core::arch::x86_64::_pext_u32(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut bit, mut m) = (0u32, 0u32, mask);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_clear_and_fall() {
        let mut b = Board::from_rows(&[
            "X.........",
            "XXXXXXXXXX",
            ".X........",
            "XXXXXXXXXX",
            "..X.......",
        ])
        .unwrap();
        let full = b.full_rows();
        assert_eq!(full, row_bit(1) | row_bit(3));
        b.clear_rows(full);
        assert_eq!(
            b,
            Board::from_rows(&["X.........", ".X........", "..X......."]).unwrap()
        );
        assert_eq!(b.cell_count(), 3);
        assert_eq!(b.height(0), 3);
        assert_eq!(b.height(2), 1);
        assert_eq!(b.height(9), 0);
    }

    #[test]
    fn garbage_pushes_the_stack_up_from_the_floor() {
        let mut b = Board::from_rows(&["X.........", ".XX......."]).unwrap();
        assert!(b.push_garbage(2, 3));
        assert_eq!(
            b,
            Board::from_rows(&["X.........", ".XX.......", "XXX.XXXXXX", "XXX.XXXXXX",]).unwrap()
        );
        // A cell in the top row pushed up one row is lost, and the push says so.
        let mut top = Board::EMPTY;
        top.fill(4, HEIGHT - 1);
        top.fill(4, HEIGHT - 3);
        assert!(!top.push_garbage(1, 0));
        assert!(!top.filled(4, HEIGHT - 1));
        assert!(top.filled(4, HEIGHT - 2));
        assert_eq!(top.height(0), 0);
        assert_eq!(top.height(1), 1);
    }

    #[test]
    fn the_buffer_rows_clear_too() {
        let mut b = Board::EMPTY;
        for x in 0..WIDTH {
            b.fill(x, 23);
        }
        b.fill(4, 0);
        b.clear_rows(b.full_rows());
        assert_eq!(b.cell_count(), 1);
        assert!(b.filled(4, 0));
        assert!(b.solid(-1, 5) && b.solid(10, 5) && b.solid(3, -1) && b.solid(3, 24));
        assert!(!b.solid(3, 23));
    }
}
