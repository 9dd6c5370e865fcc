//! The features of the classic one-piece players (Dellacherie, El-Tetris, BCTS), each with its
//! published definition, computed with word-wide bit operations on the packed board.
//!
//! Every board feature works on the four 50-bit words of [`Board`] directly: a row is a
//! 10-bit field, "the row below" is a shift by 10 (with a carry between words), "the cell to
//! the left" a shift by 1 masked at row boundaries. A search evaluates every placement of every
//! piece with these, so none of them loops over cells; the loops are over the four words (and,
//! for wells, over the depth of the deepest well). `tests` checks each one against a plain
//! per-cell implementation of the written definition on random boards.
//!
//! Definitions (row 0 is the top, the board has 20 rows):
//! * **landing height**: the middle of the rows the placed piece occupies, counted from the
//!   floor with the bottom row at height 1 (a flat I on the floor: 1, an upright one: 2.5).
//! * **eroded piece cells**: lines cleared by the placement × the placed piece's own cells in
//!   those lines (Dellacherie).
//! * **row transitions**: filled/empty changes along each of the 20 rows, the side walls
//!   counting as filled (an empty row counts 2).
//! * **column transitions**: filled/empty changes down each column, the floor counting as
//!   filled; nothing is assumed above the top row, so the top edge adds nothing.
//! * **holes**: empty cells with at least one filled cell above them in their column.
//! * **cumulative wells**: a well cell is an empty cell whose left and right neighbours are
//!   filled (the walls count as filled); it adds 1 plus the number of empty cells directly
//!   below it (down to the first filled cell or the floor). A well `d` cells deep thus adds
//!   1 + 2 + ... + d, the El-Tetris/Dellacherie sum.
//! * **hole depth**: for each hole, the filled cells directly above it up to the next empty
//!   cell (BCTS). Each filled cell with an empty cell somewhere below it is counted once,
//!   for the first empty cell below it, which is how it is computed.
//! * **rows with holes**: rows holding at least one hole (BCTS).
//! * **cells**: filled cells.

use crate::games::tencent::board::{Board, HEIGHT, WIDTH};
use crate::games::Pos;
use crate::piece::Shape;
use serde::{Deserialize, Serialize};

/// The 50 bits of a word that hold cells.
const CELLS: u64 = (1 << 50) - 1;
/// Bit 0 (column 0) of each of the five rows of a word.
const COL0: u64 = 1 | 1 << 10 | 1 << 20 | 1 << 30 | 1 << 40;
/// Bit 9 (column 9) of each row.
const COL9: u64 = COL0 << 9;
/// Columns 0..=8 of each row.
const COLS0_8: u64 = COL0 * 0x1FF;
/// One row of ten cells.
const ROW: u64 = (1 << WIDTH) - 1;
/// Rows 0..=3 of a word (the rows that have a row below them in the same word).
const ROWS0_3: u64 = (1 << 40) - 1;

/// The words of `b`.
#[inline(always)]
fn words(b: &Board) -> [u64; 4] {
    b.0
}

/// Every set bit of `w` copied into all rows below it in the same word.
#[inline(always)]
fn fill_down(w: u64) -> u64 {
    let mut p = w;
    p |= p << 10;
    p |= p << 20;
    p |= p << 40;
    p & CELLS
}

/// Every set bit of `w` copied into all rows above it in the same word.
#[inline(always)]
fn fill_up(w: u64) -> u64 {
    let mut p = w;
    p |= p >> 10;
    p |= p >> 20;
    p |= p >> 40;
    p
}

/// A row of ten bits copied into each of the five rows of a word.
#[inline(always)]
const fn broadcast(row: u64) -> u64 {
    row * COL0
}

/// Bit 9 of each row of `w` that is non-zero.
#[inline(always)]
const fn nonzero_rows(w: u64) -> u64 {
    // (low nine bits + 0x1FF) reaches bit 9 unless they are zero, and never carries past it.
    (((w & COLS0_8) + COLS0_8) | w) & COL9
}

/// Bit 9 of each row of `w` that is full.
#[inline(always)]
const fn full_rows(w: u64) -> u64 {
    // (low nine bits + 1) reaches bit 9 only when they are all ones.
    ((w & COLS0_8) + COL0) & w & COL9
}

/// Whether any row of `b` is full.
#[inline(always)]
pub fn any_full_row(b: &Board) -> bool {
    let w = words(b);
    (full_rows(w[0]) | full_rows(w[1]) | full_rows(w[2]) | full_rows(w[3])) != 0
}

/// The cells of every full row of `b`.
#[inline(always)]
pub fn full_row_cells(b: &Board) -> Board {
    Board(words(b).map(|w| (full_rows(w) >> 9) * ROW))
}

/// Filled/empty changes along the 20 rows, the side walls counting as filled.
#[inline(always)]
pub fn row_transitions(b: &Board) -> u32 {
    // Inside rows and the right wall use bits 0..=9 of each row and count with one popcount
    // a word; the four words' left-wall bits are packed into one more word.
    let w = words(b);
    let mut t = 0;
    let mut left = 0;
    for (i, &x) in w.iter().enumerate() {
        let inside = (x ^ (x >> 1)) & COLS0_8;
        t += (inside | (!x & COL9)).count_ones();
        left |= (!x & COL0) << i;
    }
    t + left.count_ones()
}

/// Filled/empty changes down the columns, the floor counting as filled and nothing counted at
/// the top edge.
#[inline(always)]
pub fn column_transitions(b: &Board) -> u32 {
    let w = words(b);
    let mut t = 0;
    for i in 0..4 {
        // Rows 0..=3 against the row below them in the word, in bits 0..40; row 4 against the
        // first row of the next word (or the floor) in bits 40..50.
        let below = if i < 3 { w[i + 1] & ROW } else { ROW };
        t += (((w[i] ^ (w[i] >> 10)) & ROWS0_3) | (((w[i] >> 40) ^ below) << 40)).count_ones();
    }
    t
}

/// Filled cells in the top row (row 0). MDPTetris counts one more column transition for each:
/// it compares the top row with an empty row above the board, where we count nothing.
#[inline]
pub fn top_row_cells(b: &Board) -> u32 {
    b.row(0).count_ones()
}

/// Empty cells with a filled cell above them in their column, as a mask.
#[inline(always)]
fn hole_cells(b: &Board) -> [u64; 4] {
    let mut above = 0u64; // columns with a filled cell in an earlier word
    words(b).map(|w| {
        let filled_or_above = fill_down(w) | broadcast(above);
        let covered = ((filled_or_above << 10) & CELLS) | above;
        above = filled_or_above >> 40;
        covered & !w & CELLS
    })
}

/// Empty cells with at least one filled cell above them.
#[inline(always)]
pub fn holes(b: &Board) -> u32 {
    hole_cells(b).iter().map(|w| w.count_ones()).sum()
}

/// Rows holding at least one hole.
#[inline(always)]
pub fn rows_with_holes(b: &Board) -> u32 {
    hole_cells(b)
        .iter()
        .map(|&w| nonzero_rows(w).count_ones())
        .sum()
}

/// Bit `y` set for each row `y` holding a hole.
#[inline]
pub fn hole_row_mask(b: &Board) -> u32 {
    let mut mask = 0u32;
    for (i, w) in hole_cells(b).into_iter().enumerate() {
        let flags = nonzero_rows(w);
        for k in 0..5 {
            mask |= ((flags >> (10 * k + 9)) as u32 & 1) << (5 * i + k);
        }
    }
    mask
}

/// Bit `x` set for each column `x` holding a hole.
#[inline]
pub fn hole_column_mask(b: &Board) -> u16 {
    let all = hole_cells(b)
        .into_iter()
        .fold(0u64, |acc, w| acc | fill_up(w));
    (all & ROW) as u16
}

/// For each hole, the filled cells directly above it up to the next empty cell; that is, the
/// filled cells that have an empty cell somewhere below them.
#[inline(always)]
pub fn hole_depth(b: &Board) -> u32 {
    let w = words(b);
    let mut below = 0u64; // columns with an empty cell in a later word
    let mut depth = 0;
    for i in (0..4).rev() {
        let empty_or_below = fill_up(!w[i] & CELLS) | broadcast(below);
        let has_empty_below = (empty_or_below >> 10) | (below << 40);
        depth += (w[i] & has_empty_below).count_ones();
        below = empty_or_below & ROW;
    }
    depth
}

/// Every cell moved one row down (row 19 falls off).
#[inline(always)]
fn down_one(a: [u64; 4]) -> [u64; 4] {
    [
        (a[0] << 10) & CELLS,
        ((a[1] << 10) & CELLS) | (a[0] >> 40),
        ((a[2] << 10) & CELLS) | (a[1] >> 40),
        ((a[3] << 10) & CELLS) | (a[2] >> 40),
    ]
}

/// Cumulative wells: each well cell (empty, both neighbours filled, walls filled) adds 1 plus
/// the empty cells directly below it.
#[inline(always)]
pub fn wells(b: &Board) -> u32 {
    let w = words(b);
    let empty = w.map(|x| !x & CELLS);
    // Left neighbour filled: shift right-ward by one column, column 0 sees the wall.
    let well = w.map(|x| {
        let left = ((x << 1) & !COL0) | COL0;
        let right = ((x >> 1) & !COL9) | COL9;
        !x & left & right & CELLS
    });
    // reach[k] marks the cell k rows below a well cell when all k cells down to it are empty.
    let mut reach = well;
    let mut total = 0;
    loop {
        let n: u32 = reach.iter().map(|x| x.count_ones()).sum();
        if n == 0 {
            return total;
        }
        total += n;
        let d = down_one(reach);
        reach = [
            d[0] & empty[0],
            d[1] & empty[1],
            d[2] & empty[2],
            d[3] & empty[3],
        ];
    }
}

/// Rows a vertical I would clear now: the most rows, up to 4, that are full but for one
/// column, counted up from that column's lowest open cell (the column open above them).
#[inline]
pub fn tetris_ready(b: &Board) -> u32 {
    tetris_ready_with_tops(b, &b.column_tops())
}

/// [`tetris_ready`] given the board's [`Board::column_tops`].
#[inline]
pub fn tetris_ready_with_tops(b: &Board, tops: &[u8; crate::games::tencent::board::WIDTH]) -> u32 {
    let mut best = 0;
    for (x, &top) in tops.iter().enumerate() {
        let want = crate::games::tencent::board::FULL_ROW & !(1u16 << x);
        let mut n = 0;
        while n < 4 && (top as usize) > n && b.row(top as usize - 1 - n) == want {
            n += 1;
        }
        best = best.max(n as u32);
    }
    best
}

/// Filled cells.
#[inline(always)]
pub fn cells(b: &Board) -> u32 {
    b.cells()
}

/// Rows spanned by `shape` at `pos`: (top row, bottom row), either possibly above the board.
#[inline]
pub fn piece_rows(shape: Shape, pos: Pos) -> (i32, i32) {
    let cells = shape.cells(pos.state);
    let mut top = i32::MAX;
    let mut bottom = i32::MIN;
    for (_, dy) in cells {
        let y = pos.y as i32 + dy as i32;
        top = top.min(y);
        bottom = bottom.max(y);
    }
    (top, bottom)
}

/// Landing height of `shape` placed at `pos`: the middle of the rows it occupies, counted
/// from the floor with the bottom row at height 1.
#[inline]
pub fn landing_height(shape: Shape, pos: Pos) -> f64 {
    let (top, bottom) = piece_rows(shape, pos);
    landing_height_of_rows(top, bottom)
}

/// Landing height of a piece spanning rows `top..=bottom` (row 0 at the top).
#[inline(always)]
pub fn landing_height_of_rows(top: i32, bottom: i32) -> f64 {
    let h = HEIGHT as i32;
    // times 0.5, not divided by 2: the same value to the last bit, without a division
    ((h - bottom) + (h - top)) as f64 * 0.5
}

/// The on-board cells of `shape` at `pos` (cells above row 0 left out).
#[inline]
pub fn piece_cells(shape: Shape, pos: Pos) -> Board {
    let mut b = Board::EMPTY;
    for (dx, dy) in shape.cells(pos.state) {
        let (x, y) = (pos.x as i32 + dx as i32, pos.y as i32 + dy as i32);
        if (0..WIDTH as i32).contains(&x) && (0..HEIGHT as i32).contains(&y) {
            b.fill(x as usize, y as usize);
        }
    }
    b
}

/// Eroded piece cells from the board with the piece written (before clearing) and the
/// piece's cells: lines cleared × the piece's cells in them. Also returns the lines cleared.
#[inline(always)]
pub fn eroded_cells_of(locked: &Board, piece: &Board) -> (u32, u32) {
    let full = full_row_cells(locked);
    let lines: u32 = full.0.iter().map(|w| w.count_ones()).sum::<u32>() / WIDTH as u32;
    let own: u32 = (0..4).map(|i| (full.0[i] & piece.0[i]).count_ones()).sum();
    (lines * own, lines)
}

/// Eroded piece cells of placing `shape` at `pos` on `board` (the cells must be free).
#[inline]
pub fn eroded_cells(board: &Board, shape: Shape, pos: Pos) -> u32 {
    let piece = piece_cells(shape, pos);
    let locked = Board(std::array::from_fn(|i| board.0[i] | piece.0[i]));
    eroded_cells_of(&locked, &piece).0
}

/// All features of a board, with those of the placement that made it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Features {
    /// Landing height of the last piece (0 for a bare board).
    pub landing_height: f64,
    /// Eroded piece cells of the last placement.
    pub eroded_cells: u32,
    /// Lines the last placement cleared.
    pub rows_cleared: u32,
    pub row_transitions: u32,
    pub column_transitions: u32,
    pub holes: u32,
    pub wells: u32,
    pub hole_depth: u32,
    pub rows_with_holes: u32,
    pub cells: u32,
}

impl Features {
    /// The board features of `b`; the placement features are 0.
    #[inline]
    pub fn of_board(b: &Board) -> Features {
        Features {
            landing_height: 0.0,
            eroded_cells: 0,
            rows_cleared: 0,
            row_transitions: row_transitions(b),
            column_transitions: column_transitions(b),
            holes: holes(b),
            wells: wells(b),
            hole_depth: hole_depth(b),
            rows_with_holes: rows_with_holes(b),
            cells: cells(b),
        }
    }

    /// The features of placing `shape` at `pos` on `board`: the placement features, and the
    /// board features of the board after the line clears. The piece must fit and lie on the
    /// board. Returns the features and the board after clearing.
    pub fn of_placement(board: &Board, shape: Shape, pos: Pos) -> (Features, Board) {
        let piece = piece_cells(shape, pos);
        let mut after = Board(std::array::from_fn(|i| board.0[i] | piece.0[i]));
        let (eroded, lines) = eroded_cells_of(&after, &piece);
        after.clear_full_rows();
        let f = Features {
            landing_height: landing_height(shape, pos),
            eroded_cells: eroded,
            rows_cleared: lines,
            ..Features::of_board(&after)
        };
        (f, after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn board(text: &str) -> Board {
        Board::from_text(text).expect("test board parses")
    }

    // ---- naive references: the written definitions, cell by cell ----

    fn naive_row_transitions(b: &Board) -> u32 {
        let mut t = 0;
        for y in 0..HEIGHT {
            let mut prev = true; // left wall
            for x in 0..WIDTH {
                let c = b.filled(x, y);
                t += (c != prev) as u32;
                prev = c;
            }
            t += !prev as u32; // right wall
        }
        t
    }

    fn naive_column_transitions(b: &Board) -> u32 {
        let mut t = 0;
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                let below = if y + 1 < HEIGHT {
                    b.filled(x, y + 1)
                } else {
                    true
                };
                t += (b.filled(x, y) != below) as u32;
            }
        }
        t
    }

    fn is_hole(b: &Board, x: usize, y: usize) -> bool {
        !b.filled(x, y) && (0..y).any(|a| b.filled(x, a))
    }

    fn naive_holes(b: &Board) -> u32 {
        let mut n = 0;
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                n += is_hole(b, x, y) as u32;
            }
        }
        n
    }

    fn naive_rows_with_holes(b: &Board) -> u32 {
        (0..HEIGHT)
            .filter(|&y| (0..WIDTH).any(|x| is_hole(b, x, y)))
            .count() as u32
    }

    fn naive_hole_depth(b: &Board) -> u32 {
        let mut n = 0;
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                if is_hole(b, x, y) {
                    let mut a = y;
                    while a > 0 && b.filled(x, a - 1) {
                        n += 1;
                        a -= 1;
                    }
                }
            }
        }
        n
    }

    fn naive_wells(b: &Board) -> u32 {
        let filled = |x: i32, y: usize| x < 0 || x >= WIDTH as i32 || b.filled(x as usize, y);
        let mut n = 0;
        for y in 0..HEIGHT {
            for x in 0..WIDTH as i32 {
                if !filled(x, y) && filled(x - 1, y) && filled(x + 1, y) {
                    n += 1;
                    let mut below = y + 1;
                    while below < HEIGHT && !filled(x, below) {
                        n += 1;
                        below += 1;
                    }
                }
            }
        }
        n
    }

    fn check_against_naive(b: &Board) {
        assert_eq!(row_transitions(b), naive_row_transitions(b), "{b:?}");
        assert_eq!(column_transitions(b), naive_column_transitions(b), "{b:?}");
        assert_eq!(holes(b), naive_holes(b), "{b:?}");
        assert_eq!(rows_with_holes(b), naive_rows_with_holes(b), "{b:?}");
        assert_eq!(hole_depth(b), naive_hole_depth(b), "{b:?}");
        assert_eq!(wells(b), naive_wells(b), "{b:?}");
        let n: u32 = (0..HEIGHT)
            .map(|y| (0..WIDTH).filter(|&x| b.filled(x, y)).count() as u32)
            .sum();
        assert_eq!(cells(b), n);
    }

    /// Random boards of three kinds: uniform noise at a random density, stacks with a random
    /// surface and random holes (what a game produces), and boards with full rows.
    fn random_board(rng: &mut impl Rng) -> Board {
        let mut rows = [0u16; HEIGHT];
        match rng.gen_range(0..3) {
            0 => {
                let p: f64 = rng.gen();
                for row in rows.iter_mut() {
                    for x in 0..WIDTH {
                        if rng.gen_bool(p) {
                            *row |= 1 << x;
                        }
                    }
                }
            }
            1 => {
                for x in 0..WIDTH {
                    let top = rng.gen_range(0..=HEIGHT);
                    for (y, row) in rows.iter_mut().enumerate().skip(top) {
                        if rng.gen_bool(0.85) || y == top {
                            *row |= 1 << x;
                        }
                    }
                }
            }
            _ => {
                for row in rows.iter_mut() {
                    *row = if rng.gen_bool(0.3) {
                        crate::games::tencent::board::FULL_ROW
                    } else {
                        rng.gen::<u16>() & crate::games::tencent::board::FULL_ROW
                    };
                }
            }
        }
        Board::from_rows(&rows)
    }

    #[test]
    fn tetris_ready_counts_rows_full_but_the_open_column() {
        assert_eq!(tetris_ready(&Board::EMPTY), 0);
        let b = board(
            "#.........\n\
             #######.##\n\
             #######.##\n\
             #######.##\n\
             ###.######",
        );
        // three rows full but column 7, open above; the hole in column 3 is not a well
        assert_eq!(tetris_ready(&b), 3);
        let b = board(
            "####.#####\n\
             ####.#####\n\
             ####.#####\n\
             ####.#####\n\
             ####.#####",
        );
        assert_eq!(tetris_ready(&b), 4);
        // a covered column is not open: its lowest open cell is above the cover
        let b = board(
            "....#.....\n\
             ####.#####\n\
             ####.#####",
        );
        assert_eq!(tetris_ready(&b), 0);
    }

    #[test]
    fn bit_parallel_features_match_the_per_cell_definitions_on_random_boards() {
        let mut rng = rand_pcg::Pcg32::seed_from_u64(5);
        for _ in 0..20_000 {
            check_against_naive(&random_board(&mut rng));
        }
        check_against_naive(&Board::EMPTY);
        check_against_naive(&Board::from_rows(
            &[crate::games::tencent::board::FULL_ROW; HEIGHT],
        ));
    }

    #[test]
    fn empty_board() {
        let b = Board::EMPTY;
        // 20 rows × 2 (each wall against an empty row); the floor under 10 empty columns.
        assert_eq!(row_transitions(&b), 40);
        assert_eq!(column_transitions(&b), 10);
        assert_eq!(holes(&b), 0);
        assert_eq!(wells(&b), 0);
        assert_eq!(hole_depth(&b), 0);
        assert_eq!(rows_with_holes(&b), 0);
        assert_eq!(cells(&b), 0);
    }

    #[test]
    fn hand_worked_board() {
        // Bottom four rows (rows 16..19); everything above is empty.
        //   row 16: #.........   one cell, column 0
        //   row 17: ##.#######   column 2 empty
        //   row 18: #.########   column 1 empty, under a filled cell: a hole
        //   row 19: ###.######   column 3 empty, under filled cells: a hole
        let b = board(
            "#.........\n\
             ##.#######\n\
             #.########\n\
             ###.######\n",
        );
        // Rows: 16 rows of 2; row 16: #|. = 1, then . to wall = 1 -> 2;
        // row 17: ##.####### : 1→0 at x2, 0→1 at x3 -> 2; row 18: 2; row 19: 2.
        assert_eq!(row_transitions(&b), 16 * 2 + 2 + 2 + 2 + 2);
        // Columns (top to bottom then floor):
        // x0: rows 16-19 filled: 1 change (row 15 empty -> row 16 filled).
        // x1: 17 filled, 18 empty, 19 filled: 16->17, 17->18, 18->19 = 3.
        // x2: 17 empty, 18,19 filled: 1 (17->18).
        // x3: 17,18 filled, 19 empty, floor: 16->17, 18->19, 19->floor = 3.
        // x4..x9: 17..19 filled: 1 each = 6.
        assert_eq!(column_transitions(&b), 1 + 3 + 1 + 3 + 6);
        assert_eq!(holes(&b), 2);
        assert_eq!(rows_with_holes(&b), 2);
        // Hole (1,18): above it (1,17) filled, (1,16) empty -> 1.
        // Hole (3,19): above it (3,18), (3,17) filled, (3,16) empty -> 2.
        assert_eq!(hole_depth(&b), 3);
        // Well cells: (2,17) (neighbours (1,17) and (3,17) filled), adds 1, no empty below.
        // Row 16: (1,16): left (0,16) filled, right (2,16) empty -> no.
        // Row 18: (1,18): neighbours (0,18) and (2,18) filled -> well, adds 1 (19 filled).
        // Row 19: (3,19): neighbours filled -> well, adds 1.
        assert_eq!(wells(&b), 3);
        assert_eq!(cells(&b), 1 + 9 + 9 + 9);
    }

    #[test]
    fn wells_sum_one_to_depth() {
        // A 3-deep well in column 9 against the right wall, and a 2-deep one at column 0.
        let b = board(
            ".########.\n\
             .########.\n\
             #########.\n",
        );
        // Column 9: rows 17,18,19 well cells: 3 + 2 + 1 = 6. Column 0: rows 17,18: their
        // empty cells below stop at (0,19): 2 + 1 = 3.
        assert_eq!(wells(&b), 9);
        // (4,17) has both neighbours filled; below it (4,18) is empty (not a well cell, its
        // neighbours are empty, but it counts for the well above), then (4,19): adds 2.
        let c = board(
            "...#.#....\n\
             ..........\n\
             ##########\n",
        );
        // Row 17: (4,17) well (+2); (0,17),(1,17),(2,17): (0,17) left wall, right (1,17) empty
        // -> no; (9,17): left (8,17) empty -> no.
        assert_eq!(wells(&c), 2);
        assert_eq!(holes(&c), 2); // (3,18) and (5,18)
        assert_eq!(hole_depth(&c), 2);
        assert_eq!(rows_with_holes(&c), 1);
    }

    #[test]
    fn column_transitions_ignore_the_top_edge() {
        let full_column = board(&"#.........\n".repeat(HEIGHT));
        // Column 0 is filled from row 0 to the floor: no change; nine empty columns meet the
        // floor.
        assert_eq!(column_transitions(&full_column), 9);
        assert_eq!(row_transitions(&full_column), 2 * HEIGHT as u32); // #|. and .|wall
        assert_eq!(wells(&full_column), 0);
    }

    /// MDPTetris's column transitions, cell by cell: up each column from the floor (filled)
    /// through the 20 rows to an empty row above the board.
    fn mdptetris_column_transitions(b: &Board) -> u32 {
        let mut t = 0;
        for x in 0..WIDTH {
            let mut below = true; // floor
            for y in (0..HEIGHT).rev() {
                t += (b.filled(x, y) != below) as u32;
                below = b.filled(x, y);
            }
            t += below as u32; // the empty row above the board
        }
        t
    }

    #[test]
    fn top_row_cells_turn_ours_into_mdptetris_column_transitions() {
        // The full column reaches row 0: MDPTetris counts its top edge, we do not.
        let full_column = board(&"#.........\n".repeat(HEIGHT));
        assert_eq!(top_row_cells(&full_column), 1);
        assert_eq!(mdptetris_column_transitions(&full_column), 10);
        // Two top-row cells over a hole; the rest below the top.
        let b = board(&format!(
            "##........\n.#........\n{}#.#.......\n",
            ".#........\n".repeat(HEIGHT - 3)
        ));
        assert_eq!(top_row_cells(&b), 2);
        assert_eq!(column_transitions(&b), 12);
        assert_eq!(mdptetris_column_transitions(&b), 14);
        let mut rng = rand_pcg::Pcg64::seed_from_u64(15);
        for _ in 0..2000 {
            let b = random_board(&mut rng);
            assert_eq!(
                column_transitions(&b) + top_row_cells(&b),
                mdptetris_column_transitions(&b),
                "{b:?}"
            );
        }
    }

    #[test]
    fn landing_height_and_eroded_cells() {
        // An I placed upright in column 9 of a board whose bottom three rows are full except
        // column 9; the I fills rows 16..19 of column 9 and clears rows 17..19.
        let b = board(
            "#########.\n\
             #########.\n\
             #########.\n",
        );
        let pos = Pos {
            x: 9,
            y: 18,
            state: 0,
        };
        // I state 0: dy -2..=1 -> rows 16..=19.
        assert_eq!(piece_rows(Shape::I, pos), (16, 19));
        assert_eq!(landing_height(Shape::I, pos), 2.5);
        assert_eq!(eroded_cells(&b, Shape::I, pos), 3 * 3);
        let (f, after) = Features::of_placement(&b, Shape::I, pos);
        assert_eq!(f.rows_cleared, 3);
        assert_eq!(f.eroded_cells, 9);
        assert_eq!(after.cells(), 1);
        assert_eq!(f.cells, 1);
        assert_eq!(f.holes, 0);
        // A flat I on the floor of an empty board: height 1, nothing eroded.
        let flat = Pos {
            x: 1,
            y: 19,
            state: 1,
        };
        assert_eq!(landing_height(Shape::I, flat), 1.0);
        assert_eq!(eroded_cells(&Board::EMPTY, Shape::I, flat), 0);
    }
}
