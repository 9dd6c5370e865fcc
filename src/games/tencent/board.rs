//! The 10x20 playfield packed into four `u64` words, five rows of ten bits each.
//!
//! Row 0 is the top (the Tencent game's convention) and bit `x` of a row is column `x`.
//! Thirty-two bytes a board keeps a beam of tens of thousands of boards in cache and makes
//! equality and hashing a handful of word compares. A `Board` never holds a piece in flight.

use serde::{Deserialize, Serialize};

/// Columns on the board.
pub const WIDTH: usize = 10;
/// Rows on the board.
pub const HEIGHT: usize = 20;
/// A row with every cell filled.
pub const FULL_ROW: u16 = (1 << WIDTH) - 1;
const ROWS_PER_WORD: usize = 5;
const ROW_MASK: u64 = FULL_ROW as u64;
/// Bit 0 of each of the five rows of a word.
const LOW_BITS: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40;
/// The fifty cell bits of a word.
const ALL_ROWS: u64 = ROW_MASK * LOW_BITS;

/// The five cells of column `x` in a word, row 0 of the word at bit 0.
#[inline(always)]
fn extract_column(word: u64, x: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled for this build.
        unsafe { core::arch::x86_64::_pext_u64(word, LOW_BITS << x) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let bits = (word >> x) & LOW_BITS;
        (bits & 1) | (bits >> 9 & 2) | (bits >> 18 & 4) | (bits >> 27 & 8) | (bits >> 36 & 16)
    }
}

/// The row of the highest filled cell of a column given as bits (bit y = row y, as
/// [`Board::columns`] gives them); `HEIGHT` for an empty column. Branch-free: a trailing-zero
/// count with the floor as a stop.
#[inline(always)]
pub const fn column_top(column: u32) -> u8 {
    (column | 1 << HEIGHT).trailing_zeros() as u8
}

/// A 10x20 board: 20 rows of 10 bits, row 0 at the top, five rows to a word.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Board(pub [u64; 4]);

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board([0; 4]);

    /// The ten cells of row `y` (0 = top) as bits, column `x` at bit `x`.
    #[inline(always)]
    pub const fn row(&self, y: usize) -> u16 {
        ((self.0[y / ROWS_PER_WORD] >> ((y % ROWS_PER_WORD) * WIDTH)) & ROW_MASK) as u16
    }

    /// Replaces row `y` with `bits`.
    #[inline(always)]
    pub fn set_row(&mut self, y: usize, bits: u16) {
        let shift = (y % ROWS_PER_WORD) * WIDTH;
        let word = &mut self.0[y / ROWS_PER_WORD];
        *word = (*word & !(ROW_MASK << shift)) | (((bits & FULL_ROW) as u64) << shift);
    }

    /// Whether the cell at column `x`, row `y` is filled.
    #[inline(always)]
    pub const fn filled(&self, x: usize, y: usize) -> bool {
        self.row(y) >> x & 1 == 1
    }

    /// Fills the cell at column `x`, row `y`.
    #[inline(always)]
    pub const fn fill(&mut self, x: usize, y: usize) {
        self.0[y / ROWS_PER_WORD] |= 1u64 << ((y % ROWS_PER_WORD) * WIDTH + x);
    }

    /// All twenty rows, top first.
    #[inline]
    pub fn rows(&self) -> [u16; HEIGHT] {
        let mut rows = [0u16; HEIGHT];
        for (y, row) in rows.iter_mut().enumerate() {
            *row = self.row(y);
        }
        rows
    }

    /// Builds a board from twenty rows, top first.
    #[inline]
    pub fn from_rows(rows: &[u16; HEIGHT]) -> Board {
        let mut words = [0u64; 4];
        for (y, &row) in rows.iter().enumerate() {
            words[y / ROWS_PER_WORD] |= ((row & FULL_ROW) as u64) << ((y % ROWS_PER_WORD) * WIDTH);
        }
        Board(words)
    }

    /// Number of filled cells.
    #[inline(always)]
    pub const fn cells(&self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// Number of filled cells in column `x`.
    #[inline(always)]
    pub const fn column_cells(&self, x: usize) -> u32 {
        let column = LOW_BITS << x;
        (self.0[0] & column).count_ones()
            + (self.0[1] & column).count_ones()
            + (self.0[2] & column).count_ones()
            + (self.0[3] & column).count_ones()
    }

    /// Whether no cell is filled.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// Bits of the full rows, bit `y` for row `y`.
    #[inline(always)]
    pub fn full_rows(&self) -> u32 {
        let mut full = 0u32;
        for (w, &word) in self.0.iter().enumerate() {
            full |= (extract_column(full_row_flags(word), 0) as u32) << (w * ROWS_PER_WORD);
        }
        full
    }

    /// Whether the two boards share a filled cell.
    #[inline(always)]
    pub const fn overlaps(&self, other: &Board) -> bool {
        (self.0[0] & other.0[0])
            | (self.0[1] & other.0[1])
            | (self.0[2] & other.0[2])
            | (self.0[3] & other.0[3])
            != 0
    }

    /// The cells of both boards.
    #[inline(always)]
    pub const fn union(&self, other: &Board) -> Board {
        Board([
            self.0[0] | other.0[0],
            self.0[1] | other.0[1],
            self.0[2] | other.0[2],
            self.0[3] | other.0[3],
        ])
    }

    /// Removes the full rows and lets the rows above them fall (a plain shift, no gravity).
    /// Returns how many rows were removed.
    #[inline]
    pub fn clear_full_rows(&mut self) -> u32 {
        let full = self.full_rows();
        if full != 0 {
            self.remove_rows(full);
        }
        full.count_ones()
    }

    /// Removes the rows whose bits are set in `rows` (bit y = row y); the rows above them
    /// fall and empty rows come in at the top.
    #[inline]
    pub fn remove_rows(&mut self, mut rows: u32) {
        // Top to bottom: removing row y moves only the rows above it, so the indices of the
        // lower rows still to remove stay put.
        while rows != 0 {
            let y = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            self.remove_row(y);
        }
    }

    /// Removes row `y`: the rows above shift down one, word by word, carrying each word's last
    /// row into the next word's first.
    #[inline(always)]
    fn remove_row(&mut self, y: usize) {
        let w = y / ROWS_PER_WORD;
        let i = (y % ROWS_PER_WORD) * WIDTH;
        let words = self.0;
        let carry = |j: usize| {
            if j == 0 {
                0
            } else {
                (words[j - 1] >> (4 * WIDTH)) & ROW_MASK
            }
        };
        let low = words[w] & ((1u64 << i) - 1);
        let high = words[w] & !((1u64 << (i + WIDTH)) - 1);
        self.0[w] = high | (low << WIDTH) | carry(w);
        for j in (0..w).rev() {
            self.0[j] = ((words[j] << WIDTH) & ALL_ROWS) | carry(j);
        }
    }

    /// Each column as bits, bit y = row y.
    #[inline]
    pub fn columns(&self) -> [u32; WIDTH] {
        let mut cols = [0u32; WIDTH];
        for (x, col) in cols.iter_mut().enumerate() {
            let mut c = 0u32;
            for (w, &word) in self.0.iter().enumerate() {
                c |= (extract_column(word, x) as u32) << (w * ROWS_PER_WORD);
            }
            *col = c;
        }
        cols
    }

    /// The index of the highest row holding a cell, or `HEIGHT` when the board is empty.
    #[inline]
    pub fn top_row(&self) -> usize {
        for (w, &word) in self.0.iter().enumerate() {
            if word != 0 {
                return w * ROWS_PER_WORD + (word.trailing_zeros() as usize) / WIDTH;
            }
        }
        HEIGHT
    }

    /// For each column, the row index of its highest filled cell (`HEIGHT` for an empty column).
    #[inline]
    pub fn column_tops(&self) -> [u8; WIDTH] {
        self.columns().map(column_top)
    }

    /// Column heights counted from the floor (0 for an empty column).
    #[inline]
    pub fn column_heights(&self) -> [u8; WIDTH] {
        self.column_tops().map(|top| HEIGHT as u8 - top)
    }

    /// The board as text, top row first: `#` filled, `.` empty, one line per row.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(HEIGHT * (WIDTH + 1));
        for y in 0..HEIGHT {
            let row = self.row(y);
            for x in 0..WIDTH {
                s.push(if row >> x & 1 == 1 { '#' } else { '.' });
            }
            s.push('\n');
        }
        s
    }

    /// Parses the text form written by [`Board::to_text`]: up to 20 lines of 10 characters,
    /// `#` (or `X`, `x`, `@`) filled and `.` (or `_`, space) empty. Fewer than 20 lines fill the
    /// bottom of the board. Errors name the line and column.
    pub fn from_text(text: &str) -> Result<Board, String> {
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.trim().is_empty())
            .collect();
        if lines.len() > HEIGHT {
            return Err(format!(
                "line {}: a board has at most {HEIGHT} rows, found {}",
                HEIGHT + 1,
                lines.len()
            ));
        }
        let mut rows = [0u16; HEIGHT];
        let offset = HEIGHT - lines.len();
        for (i, line) in lines.iter().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            if chars.len() != WIDTH {
                return Err(format!(
                    "line {}: expected {WIDTH} cells, found {}",
                    i + 1,
                    chars.len()
                ));
            }
            for (x, c) in chars.iter().enumerate() {
                match c {
                    '#' | 'X' | 'x' | '@' => rows[offset + i] |= 1 << x,
                    '.' | '_' | ' ' => {}
                    other => {
                        return Err(format!(
                            "line {}, column {}: unexpected character {other:?} (use # or .)",
                            i + 1,
                            x + 1
                        ))
                    }
                }
            }
        }
        Ok(Board::from_rows(&rows))
    }
}

/// For each of the five rows in `word`, bit 0 of the row is set when the row is full: bit `i`
/// of `run` ends up set when bits `i` to `i + 9` all are, and the rows lie end to end, so at
/// a row's first bit that is the row.
#[inline(always)]
const fn full_row_flags(word: u64) -> u64 {
    let two = word & (word >> 1);
    let four = two & (two >> 2);
    let eight = four & (four >> 4);
    let run = eight & (word >> 8) & (word >> 9);
    run & LOW_BITS
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_through_words() {
        let mut rows = [0u16; HEIGHT];
        for (y, r) in rows.iter_mut().enumerate() {
            *r = ((y as u16 * 37) ^ 0x155) & FULL_ROW;
        }
        let b = Board::from_rows(&rows);
        assert_eq!(b.rows(), rows);
        for (y, row) in rows.iter().enumerate() {
            for x in 0..WIDTH {
                assert_eq!(b.filled(x, y), row >> x & 1 == 1);
            }
        }
    }

    #[test]
    fn clears_full_rows_and_shifts_the_rest_down() {
        let mut rows = [0u16; HEIGHT];
        rows[19] = FULL_ROW;
        rows[18] = 0b1;
        rows[17] = FULL_ROW;
        rows[16] = 0b10;
        rows[4] = FULL_ROW;
        rows[3] = 0b100;
        let mut b = Board::from_rows(&rows);
        assert_eq!(b.full_rows(), 1 << 19 | 1 << 17 | 1 << 4);
        assert_eq!(b.clear_full_rows(), 3);
        let mut expect = [0u16; HEIGHT];
        expect[19] = 0b1;
        expect[18] = 0b10;
        expect[6] = 0b100;
        assert_eq!(b.rows(), expect);
        assert_eq!(b.cells(), 3);
    }

    #[test]
    fn word_wise_removal_equals_row_by_row_removal() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
        for _ in 0..2000 {
            let mut rows = [0u16; HEIGHT];
            for r in rows.iter_mut() {
                *r = rng.gen::<u16>() & FULL_ROW;
            }
            let remove: u32 = rng.gen::<u32>() & rng.gen::<u32>() & ((1 << HEIGHT) - 1);
            let mut b = Board::from_rows(&rows);
            b.remove_rows(remove);
            let kept: Vec<u16> = (0..HEIGHT)
                .filter(|y| remove >> y & 1 == 0)
                .map(|y| rows[y])
                .collect();
            let mut expect = [0u16; HEIGHT];
            expect[HEIGHT - kept.len()..].copy_from_slice(&kept);
            assert_eq!(b.rows(), expect);
            let cols = Board::from_rows(&rows).columns();
            for (x, col) in cols.iter().enumerate() {
                for (y, row) in rows.iter().enumerate() {
                    assert_eq!(col >> y & 1 == 1, row >> x & 1 == 1);
                }
            }
            let tops = Board::from_rows(&rows).column_tops();
            for (x, &top) in tops.iter().enumerate() {
                let first = (0..HEIGHT)
                    .find(|&y| rows[y] >> x & 1 == 1)
                    .unwrap_or(HEIGHT);
                assert_eq!(top as usize, first);
            }
        }
    }

    #[test]
    fn text_round_trip_and_errors() {
        let text = "..........\n".repeat(18) + "#.........\n##########\n";
        let b = Board::from_text(&text).unwrap();
        assert_eq!(b.to_text(), text);
        assert_eq!(b.cells(), 11);
        assert_eq!(b.column_heights(), [2, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(b.top_row(), 18);
        let err = Board::from_text("#.........\n#..x.....?\n").unwrap_err();
        assert!(err.contains("line 2, column 10"), "{err}");
        assert!(Board::from_text("###\n").unwrap_err().contains("line 1"));
    }
}
