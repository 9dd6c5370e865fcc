//! The features the Tencent beam reads on every child, computed word-parallel on the packed
//! board: cells, transitions, holes and rows with holes, five rows at a time. Each is checked
//! against its cell-by-cell definition in [`super::features`].

use crate::games::tencent::board::Board;

/// The features the beam reads on every board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FastFeatures {
    pub cells: u32,
    /// Walls count as filled; an empty row counts 2.
    pub row_transitions: u32,
    /// The floor counts as filled; nothing is counted at the top edge.
    pub column_transitions: u32,
    /// Empty cells with a filled cell anywhere above them.
    pub holes: u32,
    /// Rows holding at least one hole.
    pub rows_with_holes: u32,
}

const LOW_BITS: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40;
const HIGH_BITS: u64 = LOW_BITS << 9;
const ALL_ROWS: u64 = 0x3FF * LOW_BITS;
/// Bits 0..=8 of each row: the pairs (x, x+1) inside a row.
const INNER_PAIRS: u64 = 0x1FF * LOW_BITS;
/// The first four rows of a word: pairs (row, row+1) inside the word.
const UPPER_FOUR_ROWS: u64 = (1 << 40) - 1;

/// Cells, transitions, holes and rows with holes, five rows at a time. Always inlined: as a
/// call its result came back through memory, field by field, and the rank's first read of
/// it waited on those stores (a quarter of the rank's time).
#[inline(always)]
pub fn fast_features(board: &Board) -> FastFeatures {
    let w = board.0;
    let mut f = FastFeatures::default();
    let mut covered = 0u64; // columns with a filled cell in some row above this word
    for i in 0..4 {
        let word = w[i];
        f.cells += word.count_ones();
        f.row_transitions += ((word ^ (word >> 1)) & INNER_PAIRS).count_ones()
            + (!word & LOW_BITS).count_ones()
            + (!word & HIGH_BITS).count_ones();
        f.column_transitions += ((word ^ (word >> 10)) & UPPER_FOUR_ROWS).count_ones();
        let next_first = if i < 3 { w[i + 1] & 0x3FF } else { 0x3FF };
        f.column_transitions += (((word >> 40) ^ next_first) & 0x3FF).count_ones();
        // covered-from-above mask for each row of the word
        let carry = covered * LOW_BITS;
        let c1 = word | (word << 10);
        let c2 = c1 | (c1 << 20);
        let prefix = (c2 | (word << 40)) & ALL_ROWS; // row r: OR of rows 0..=r in the word
        let above = ((prefix << 10) | carry) & ALL_ROWS;
        let holes = above & !word;
        f.holes += holes.count_ones();
        // Each row's ten bits or-ed into its first bit (the rows lie end to end, and bits
        // from the row above land past the first bit): a branch per row mispredicted.
        let two = holes | (holes >> 1);
        let four = two | (two >> 2);
        let eight = four | (four >> 4);
        let any = eight | (holes >> 8) | (holes >> 9);
        f.rows_with_holes += (any & LOW_BITS).count_ones();
        covered |= (prefix >> 40) & 0x3FF;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tencent::board::{HEIGHT, WIDTH};
    use rand::{Rng, SeedableRng};

    /// The reference definitions of `eval::features` (tested there cell by cell).
    fn naive(board: &Board) -> FastFeatures {
        use crate::games::tencent::features as f;
        FastFeatures {
            cells: f::cells(board),
            row_transitions: f::row_transitions(board),
            column_transitions: f::column_transitions(board),
            holes: f::holes(board),
            rows_with_holes: f::rows_with_holes(board),
        }
    }

    #[test]
    fn fast_features_match_the_cell_by_cell_definitions() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        for i in 0..3000 {
            let mut rows = [0u16; HEIGHT];
            let density = (i % 10) as f64 / 10.0;
            for row in rows.iter_mut().skip(rng.gen_range(0..HEIGHT)) {
                for x in 0..WIDTH {
                    if rng.gen_bool(density) {
                        *row |= 1 << x;
                    }
                }
            }
            let b = Board::from_rows(&rows);
            assert_eq!(fast_features(&b), naive(&b), "{b:?}");
        }
    }

    #[test]
    fn hand_counted_board() {
        let text = "..........\n".repeat(16) + "#.........\n#.#.......\n#...######\n##.#######\n";
        let b = Board::from_text(&text).unwrap();
        let f = fast_features(&b);
        assert_eq!(f.cells, 1 + 2 + 7 + 9);
        // empty rows 2 each (16 rows), "#........." 2, "#.#......." 4, "#...######" 2,
        // "##.#######" 2
        assert_eq!(f.row_transitions, 32 + 2 + 4 + 2 + 2);
        // holes: column 2 is empty at rows 18 and 19 under the cell at row 17
        assert_eq!(f.holes, 2);
        assert_eq!(f.rows_with_holes, 2);
        // wells: (1,17) between two cells, 1 + one empty cell below = 2; (2,19) between two
        // cells on the floor = 1
        assert_eq!(crate::games::tencent::features::wells(&b), 3);
    }
}
