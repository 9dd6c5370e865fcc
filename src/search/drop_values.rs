//! The feature counts of every drop placement of one piece on the standard rules, updated from
//! the board before the placement instead of recounted: the speed of a one-piece player is
//! this loop.
//!
//! The board is held as column bitboards (bit y = row y, row 0 at the top) between two walls
//! on each side. A placement that clears no line changes only the columns it fills, so every
//! feature is the board's total minus the old share of a few columns plus their new share:
//! row transitions over the column pairs that touch the piece, column transitions and holes
//! from the gap left under the piece, wells over the piece's columns and their neighbours.
//! All placements of one rotation state are counted at once, one lane per column (`N` lanes,
//! `W` piece columns, both constants): every step is the same operation on arrays, which the
//! compiler turns into vector instructions, and nothing branches on the board but the wells
//! loop. Placements that clear lines or stick out above the board (about 3 % in Dellacherie
//! games) are flagged for the caller to recount from scratch.

// Lane loops index several arrays in step (`for i in 0..N`): the form the vectoriser reads
// best, and the reader too.
#![allow(clippy::needless_range_loop)]

use crate::games::standard::Geometry;
use crate::games::tencent::board::{column_top, Board, HEIGHT, WIDTH};
use crate::games::tencent::features;

/// The twenty rows of a column.
const ROWS: u32 = (1 << HEIGHT) - 1;
/// The floor under a column: filled for column transitions and tops.
const FLOOR: u32 = 1 << HEIGHT;
/// Board column `x` sits at index `x + WALLS` of the padded column array.
const WALLS: usize = 2;
/// Length of the padded arrays: lane `i` of a state reads up to index `i + W + 3`, and the
/// lanes past the last placement read walls (full columns) or tops of 0, which make no wells
/// and no valid placement.
const SPAN: usize = 32;

/// The integer features a greedy value combines (landing height aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub row_transitions: i32,
    pub column_transitions: i32,
    pub holes: i32,
    pub wells: i32,
    pub eroded: i32,
    pub lines: i32,
    pub cells: i32,
    pub hole_depth: i32,
    pub rows_with_holes: i32,
}

/// Cumulative wells of each padded column (a wall, full, has none): a well cell is empty with
/// both neighbours filled and adds 1 plus the empty cells directly below it. Every reach step
/// moves the marks one row down while they stay on empty cells, so the loop runs as many
/// times as the deepest well plus its run below.
#[inline(always)]
fn wells_per_column(cols: &[u32; SPAN]) -> [i32; WIDTH] {
    let mut reach = [0u32; WIDTH];
    let mut empty = [0u32; WIDTH];
    for x in 0..WIDTH {
        let i = x + WALLS;
        empty[x] = !cols[i] & ROWS;
        reach[x] = empty[x] & cols[i - 1] & cols[i + 1];
    }
    let mut count = [0i32; WIDTH];
    while reach.iter().fold(0, |a, &r| a | r) != 0 {
        for x in 0..WIDTH {
            count[x] += reach[x].count_ones() as i32;
            reach[x] = (reach[x] << 1) & empty[x];
        }
    }
    count
}

/// Column transitions of one column: the floor filled, nothing counted above row 0.
#[inline(always)]
fn column_transitions_of(col: u32) -> i32 {
    let c = col | FLOOR;
    ((c ^ (c >> 1)) & ROWS).count_ones() as i32
}

/// `N` consecutive entries of `a` from `start`, borrowed.
#[inline(always)]
fn window<T, const N: usize>(a: &[T; SPAN], start: usize) -> &[T; N] {
    a[start..start + N]
        .try_into()
        .expect("windows fit the padded arrays")
}

/// What a decision computes once from the board before its placements. Arrays are indexed by
/// board column (`tops`, `full_left`, ...) or by padded column (`cols`, prefix sums) so that a
/// state's lanes read them as plain windows.
pub struct DropValues {
    pub board: Board,
    /// Row of each column's highest cell (`HEIGHT` when empty).
    pub tops: [u8; WIDTH],
    /// `tops` as lanes read them; 0 past the board.
    lane_tops: [i32; SPAN],
    /// Column `x` at index `x + WALLS`; the walls and everything past them are full columns.
    cols: [u32; SPAN],
    /// `full_left[x]`: the rows filled in every column left of `x`; `full_right[x]`: in every
    /// column from `x` on. A placement fills a row when these and its own columns all do.
    full_left: [u32; SPAN],
    full_right: [u32; SPAN],
    /// Prefix sums over padded columns: `row_pairs[i]` = row transitions between padded
    /// columns `k` and `k + 1` for `k < i`; `wells[i]` = wells of padded columns `< i`.
    row_pairs: [i32; SPAN],
    wells: [i32; SPAN],
    pub counts: Counts,
    /// Bit y: row y holds a hole (only with `HOLES`).
    hole_rows: u32,
    /// 1 where column x holds a hole (only with `HOLES`).
    hole_columns: [i32; SPAN],
}

/// The counts of the `N` placements of one rotation state, lane `i` with the piece's leftmost
/// column at `i`. Lanes flagged in `recount` (and lanes past the last placement) hold nothing
/// meaningful.
pub struct StateCounts<const N: usize> {
    pub row_transitions: [i32; N],
    pub column_transitions: [i32; N],
    pub holes: [i32; N],
    pub wells: [i32; N],
    pub hole_depth: [i32; N],
    pub rows_with_holes: [i32; N],
    /// Rows the piece spans.
    pub top: [i32; N],
    pub bottom: [i32; N],
    /// Bit `i`: the placement of lane `i` clears a line or sticks out above the board.
    pub recount: u32,
}

impl DropValues {
    /// `HOLES`: also count hole depth and rows with holes (the BCTS features).
    #[inline(always)]
    pub fn new<const HOLES: bool>(board: &Board) -> DropValues {
        let columns = board.columns();
        let mut cols = [ROWS; SPAN];
        cols[WALLS..WALLS + WIDTH].copy_from_slice(&columns);
        let tops = columns.map(column_top);
        let mut lane_tops = [0; SPAN];
        for x in 0..WIDTH {
            lane_tops[x] = tops[x] as i32;
        }
        let mut full_left = [ROWS; SPAN];
        let mut full_right = [ROWS; SPAN];
        for x in 0..WIDTH {
            full_left[x + 1] = full_left[x] & columns[x];
            full_right[WIDTH - 1 - x] = full_right[WIDTH - x] & columns[WIDTH - 1 - x];
        }
        // Past the board the pairs are wall against wall and the wells none: the sums stay.
        let last = WIDTH + WALLS;
        let mut row_pairs = [0i32; SPAN];
        for i in WALLS..=last {
            row_pairs[i] = row_pairs[i - 1] + (cols[i - 1] ^ cols[i]).count_ones() as i32;
        }
        let mut wells = [0i32; SPAN];
        for (x, w) in wells_per_column(&cols).into_iter().enumerate() {
            wells[x + WALLS + 1] = wells[x + WALLS] + w;
        }
        for i in last + 1..SPAN {
            row_pairs[i] = row_pairs[last];
            wells[i] = wells[last];
        }
        let mut counts = Counts {
            row_transitions: row_pairs[last],
            column_transitions: columns.iter().map(|&c| column_transitions_of(c)).sum(),
            holes: columns
                .iter()
                .zip(tops)
                .map(|(&c, t)| (HEIGHT as i32 - t as i32) - c.count_ones() as i32)
                .sum(),
            wells: wells[last],
            cells: board.cells() as i32,
            ..Counts::default()
        };
        let mut hole_rows = 0;
        let mut hole_columns = [0; SPAN];
        if HOLES {
            counts.hole_depth = features::hole_depth(board) as i32;
            hole_rows = features::hole_row_mask(board);
            let mask = features::hole_column_mask(board);
            for (x, h) in hole_columns.iter_mut().enumerate().take(WIDTH) {
                *h = (mask >> x & 1) as i32;
            }
        }
        DropValues {
            board: *board,
            tops,
            lane_tops,
            cols,
            full_left,
            full_right,
            row_pairs,
            wells,
            counts,
            hole_rows,
            hole_columns,
        }
    }

    /// The counts after dropping a piece whose columns are `p`, for every leftmost column at
    /// once (lane `i`: leftmost column `i`).
    #[inline(always)]
    pub fn state_counts<const W: usize, const N: usize, const HOLES: bool>(
        &self,
        p: &PieceColumns<W>,
    ) -> StateCounts<N> {
        let base = &self.counts;
        let tops: [&[i32; N]; W] = std::array::from_fn(|j| window(&self.lane_tops, j));
        // The piece rests where the lowest cell of one of its columns meets that column's top.
        let mut y = [i32::MAX; N];
        for j in 0..W {
            for i in 0..N {
                y[i] = y[i].min(tops[j][i] - 1 - p.bottom[j]);
            }
        }
        let mut out = StateCounts {
            row_transitions: [base.row_transitions; N],
            column_transitions: [base.column_transitions; N],
            holes: [base.holes; N],
            wells: [base.wells; N],
            hole_depth: [base.hole_depth; N],
            rows_with_holes: [0; N],
            top: [0; N],
            bottom: [0; N],
            recount: 0,
        };
        for i in 0..N {
            out.top[i] = y[i] + p.piece_top;
            out.bottom[i] = y[i] + p.piece_bottom;
        }
        // Padded columns i ..= i + W + 3: the piece's and two neighbours on each side.
        let mut n: [[u32; N]; 8] = [[0; N]; 8];
        for (k, lane) in n.iter_mut().enumerate().take(W + 4) {
            *lane = *window(&self.cols, k);
        }
        let mut full: [u32; N] = *window(&self.full_left, 0);
        let full_right: &[u32; N] = window(&self.full_right, W);
        let mut new_hole_rows = [0u32; N];
        for i in 0..N {
            full[i] &= full_right[i];
        }
        for j in 0..W {
            let hole_columns: &[i32; N] = window(&self.hole_columns, j);
            for i in 0..N {
                let column_top = y[i] + p.top[j];
                let column_bottom = y[i] + p.bottom[j];
                // Lanes that stick out shift by nothing; they are recounted anyway.
                n[j + 2][i] |= p.run[j] << column_top.max(0);
                full[i] &= n[j + 2][i];
                let gap = tops[j][i] - 1 - column_bottom;
                out.holes[i] += gap;
                out.column_transitions[i] += 2 * (gap > 0) as i32 - (column_top == 0) as i32;
                if HOLES {
                    let gap_rows = (1u32 << gap.clamp(0, 31)) - 1;
                    new_hole_rows[i] |= gap_rows << (column_bottom + 1).clamp(0, 31);
                    let deepens = (gap > 0) as i32 | hole_columns[i];
                    out.hole_depth[i] += deepens * (p.bottom[j] - p.top[j] + 1);
                }
            }
        }
        // Rare: build the lane mask only when some lane needs it.
        let mut any = false;
        for i in 0..N {
            any |= (full[i] != 0) | (out.top[i] < 0);
        }
        if any {
            for i in 0..N {
                out.recount |= (((full[i] != 0) | (out.top[i] < 0)) as u32) << i;
            }
        }
        // Row transitions of the column pairs that touch the piece: padded (i + k, i + k + 1)
        // for k in 1..=W + 1.
        let pairs_after: &[i32; N] = window(&self.row_pairs, W + 2);
        let pairs_before: &[i32; N] = window(&self.row_pairs, 1);
        for k in 1..W + 2 {
            for i in 0..N {
                out.row_transitions[i] += (n[k][i] ^ n[k + 1][i]).count_ones() as i32;
            }
        }
        for i in 0..N {
            out.row_transitions[i] -= pairs_after[i] - pairs_before[i];
        }
        // Wells of the piece's columns and their neighbours: padded i + 1 ..= i + W + 2.
        let mut empty: [[u32; N]; 8] = [[0; N]; 8];
        let mut reach: [[u32; N]; 8] = [[0; N]; 8];
        for k in 1..W + 3 {
            for i in 0..N {
                empty[k][i] = !n[k][i] & ROWS;
                reach[k][i] = empty[k][i] & n[k - 1][i] & n[k + 1][i];
            }
        }
        let wells_after: &[i32; N] = window(&self.wells, W + 3);
        let wells_before: &[i32; N] = window(&self.wells, 1);
        for i in 0..N {
            out.wells[i] -= wells_after[i] - wells_before[i];
        }
        loop {
            let mut any = 0;
            for lane in reach.iter().take(W + 3).skip(1) {
                for &r in lane {
                    any |= r;
                }
            }
            if any == 0 {
                break;
            }
            for k in 1..W + 3 {
                for i in 0..N {
                    out.wells[i] += reach[k][i].count_ones() as i32;
                    reach[k][i] = (reach[k][i] << 1) & empty[k][i];
                }
            }
        }
        if HOLES {
            for i in 0..N {
                out.rows_with_holes[i] = (self.hole_rows | new_hole_rows[i]).count_ones() as i32;
            }
        }
        out
    }
}

/// One rotation state's columns, left to right, in the form the placement loop uses.
#[derive(Clone, Copy, Debug)]
pub struct PieceColumns<const W: usize> {
    /// Smallest and largest dy of the cells in each column (a tetromino's cells in one column
    /// are contiguous).
    top: [i32; W],
    bottom: [i32; W],
    /// Each column's cells as bits, its top cell at bit 0.
    run: [u32; W],
    /// Smallest and largest dy of all four cells.
    piece_top: i32,
    piece_bottom: i32,
}

impl<const W: usize> PieceColumns<W> {
    #[inline(always)]
    pub fn of(g: &Geometry) -> PieceColumns<W> {
        debug_assert_eq!(g.width as usize, W);
        let top = std::array::from_fn(|j| g.column_top[j] as i32);
        let bottom: [i32; W] = std::array::from_fn(|j| g.column_bottom[j] as i32);
        PieceColumns {
            top,
            bottom,
            run: std::array::from_fn(|j| (1 << (bottom[j] - top[j] + 1)) - 1),
            piece_top: g.top as i32,
            piece_bottom: g.bottom as i32,
        }
    }
}
