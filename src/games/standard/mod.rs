//! The `standard` rule set: the "simplified" Tetris of the one-piece-player literature
//! (Fahey; Thiery & Scherrer's benchmark), on the Tencent shapes' geometry.
//!
//! 10x20 board; the seven shapes drawn uniformly and independently from the seeded generator
//! (`Generator::Uniform`), only the current piece known. A placement is a rotation state and a
//! column: the piece falls straight down from above the stack (no path is checked, no tucks)
//! and lines are counted. Two game-over rules:
//!
//! * [`TopOut::Simplified`] (Thiery & Scherrer): the piece may stick out above row 0 if the
//!   lines it clears bring the stack back within the 20 rows; the game ends when the stack is
//!   above the board after clearing.
//! * [`TopOut::Strict`]: the game ends as soon as the placed piece reaches above the top row,
//!   before clearing.
//!
//! The board type has exactly 20 rows, so a piece that sticks out is written in two parts:
//! its on-board cells, then (after the clears) its overflow cells moved down by the lines
//! cleared, which is where a plain shift puts them.

pub mod family;
use crate::games::tencent::board::{Board, WIDTH};
use crate::games::Piece;
use crate::piece::Shape;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// When the game is lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TopOut {
    /// The stack is above the top row after the clears.
    #[default]
    Simplified,
    /// The placed piece is above the top row before the clears.
    Strict,
}

/// A standard placement: rotation state (canonical, `0..shape.orientations()`) and the column
/// of the piece centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Drop {
    pub state: u8,
    /// Column of the piece centre (the offsets' (0, 0) cell).
    pub x: i8,
}

/// The result of dropping a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Landing {
    /// The board after the lock and the clears.
    pub board: Board,
    /// Row of the piece centre where it came to rest (negative above the board).
    pub y: i8,
    /// Rows the piece spans, top and bottom (top may be negative).
    pub top: i8,
    pub bottom: i8,
    /// Lines cleared.
    pub lines: u32,
    /// The on-board cells of the piece (cells above row 0 left out).
    pub piece: Board,
    /// The board with the piece's on-board cells written, before the clears.
    pub locked: Board,
}

/// Column range of the piece centre that keeps every cell of `shape` in `state` on the board.
#[inline]
pub fn columns(shape: Shape, state: u8) -> std::ops::RangeInclusive<i8> {
    let cells = shape.cells(state);
    let min_dx = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let max_dx = cells.iter().map(|c| c.0).max().unwrap_or(0);
    -min_dx..=(WIDTH as i8 - 1 - max_dx)
}

/// Every placement of `shape`, in the fixed order: state ascending, then column ascending.
pub fn drops(shape: Shape) -> impl Iterator<Item = Drop> {
    (0..shape.orientations())
        .flat_map(move |state| columns(shape, state).map(move |x| Drop { state, x }))
}

/// The resting row of the piece centre when `shape` in `state` falls straight down at column
/// `x` from above the stack, given the board's column tops.
#[inline(always)]
pub fn rest_y(tops: &[u8; WIDTH], shape: Shape, state: u8, x: i8) -> i8 {
    shape
        .cells(state)
        .iter()
        .map(|&(dx, dy)| tops[(x + dx) as usize] as i8 - 1 - dy)
        .min()
        .unwrap_or(0)
}

/// The cells of one rotation state packed like board rows: `strip` holds the piece's rows
/// (its top row first, ten bits a row) with its leftmost cell in column 0; `left`, `top` and
/// `bottom` are the smallest dx, the smallest dy and the largest dy of its offsets; for each of
/// its `width` columns, left to right, `column_top` and `column_bottom` are the smallest and
/// largest dy of its cells there (a tetromino's cells in one column are contiguous).
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    pub strip: u64,
    pub left: i8,
    pub top: i8,
    pub bottom: i8,
    pub width: u8,
    pub column_top: [i8; 4],
    pub column_bottom: [i8; 4],
}

const fn geometry(shape: Shape, state: u8) -> Geometry {
    let cells = shape.cells(state);
    let (mut left, mut right, mut top, mut bottom) = (i8::MAX, i8::MIN, i8::MAX, i8::MIN);
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = cells[i];
        if dx < left {
            left = dx;
        }
        if dx > right {
            right = dx;
        }
        if dy < top {
            top = dy;
        }
        if dy > bottom {
            bottom = dy;
        }
        i += 1;
    }
    let mut strip = 0u64;
    let mut column_top = [i8::MAX; 4];
    let mut column_bottom = [i8::MIN; 4];
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = cells[i];
        let j = (dx - left) as usize;
        strip |= 1 << ((dy - top) as u32 * WIDTH as u32 + j as u32);
        if dy < column_top[j] {
            column_top[j] = dy;
        }
        if dy > column_bottom[j] {
            column_bottom[j] = dy;
        }
        i += 1;
    }
    Geometry {
        strip,
        left,
        top,
        bottom,
        width: (right - left + 1) as u8,
        column_top,
        column_bottom,
    }
}

/// The packed geometry of `shape` in `state`.
#[inline(always)]
pub fn geometry_of(shape: Shape, state: u8) -> &'static Geometry {
    &GEOMETRY[shape.index()][(state & 3) as usize]
}

/// The board holding `strip` (rows of ten bits, first row at board row `row`).
#[inline(always)]
pub fn place_strip(strip: u64, row: usize) -> Board {
    const CELLS: u64 = (1 << 50) - 1;
    let i = row / 5;
    let s = (strip as u128) << ((row % 5) * WIDTH);
    let mut words = [0u64; 4];
    words[i] = s as u64 & CELLS;
    if i + 1 < 4 {
        words[i + 1] = (s >> 50) as u64 & CELLS;
    }
    Board(words)
}

const GEOMETRY: [[Geometry; 4]; 7] = {
    let mut table = [[Geometry {
        strip: 0,
        left: 0,
        top: 0,
        bottom: 0,
        width: 0,
        column_top: [0; 4],
        column_bottom: [0; 4],
    }; 4]; 7];
    let mut s = 0;
    while s < 7 {
        let mut r = 0;
        while r < 4 {
            table[s][r] = geometry(Shape::from_index(s), r as u8);
            r += 1;
        }
        s += 1;
    }
    table
};

/// Drops `shape` at `drop` on `board` (whose column tops are `tops`). `None` when the game
/// ends under `top_out`.
#[inline(always)]
pub fn land(
    board: &Board,
    tops: &[u8; WIDTH],
    shape: Shape,
    drop: Drop,
    top_out: TopOut,
) -> Option<Landing> {
    let y = rest_y(tops, shape, drop.state, drop.x);
    let g = GEOMETRY[shape.index()][(drop.state & 3) as usize];
    let top = y + g.top;
    let bottom = y + g.bottom;
    let strip = g.strip << (drop.x + g.left) as u32;
    if top < 0 && top_out == TopOut::Strict {
        return None;
    }
    let piece = if top >= 0 {
        place_strip(strip, top as usize)
    } else {
        // Rows above the board are left out here and written after the clears.
        place_strip(strip >> (WIDTH as u32 * (-top) as u32), 0)
    };
    let locked = Board(std::array::from_fn(|i| board.0[i] | piece.0[i]));
    let mut after = locked;
    // Most placements clear nothing: test the four words at once before the row-wise clear.
    let lines = if crate::games::tencent::features::any_full_row(&locked) {
        after.clear_full_rows()
    } else {
        0
    };
    if top < 0 {
        // The overflow rows move down by the lines cleared, like every row above the clears.
        if (top as i32) + (lines as i32) < 0 {
            return None;
        }
        for &(dx, dy) in &shape.cells(drop.state) {
            let cy = y + dy;
            if cy < 0 {
                after.fill((drop.x + dx) as usize, (cy as i32 + lines as i32) as usize);
            }
        }
    }
    Some(Landing {
        board: after,
        y,
        top,
        bottom,
        lines,
        piece,
        locked,
    })
}

/// The piece generator of a standard game: uniform shapes from `rand_pcg::Pcg32` seeded by
/// `seed_from_u64`, the same stream as `seed::Generator::Uniform` (so game `g` of a seed file
/// with seed `s` plays seed `s + g`, and game 0 is the file's own sequence), endless.
pub struct Pieces {
    rng: rand_pcg::Pcg32,
}

impl Pieces {
    pub fn new(seed: u64) -> Pieces {
        Pieces {
            rng: rand_pcg::Pcg32::seed_from_u64(seed),
        }
    }
}

impl Iterator for Pieces {
    type Item = Shape;
    #[inline]
    fn next(&mut self) -> Option<Shape> {
        let r: u32 = self.rng.gen_range(0..7);
        Some(Shape::from_index(r as usize))
    }
}

/// The seed of game `game` of a run whose seed file says `seed`.
pub const fn game_seed(seed: u64, game: u64) -> u64 {
    seed.wrapping_add(game)
}

/// A piece of a standard sequence (state 0: the player picks the rotation).
pub const fn piece(shape: Shape) -> Piece {
    Piece { shape, state: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_def::{GameDef, Generator, InitialState};
    use crate::games::tencent::board::HEIGHT;

    #[test]
    fn the_generator_matches_the_seed_files_uniform_stream() {
        let seed = GameDef {
            name: "t".into(),
            rules: crate::games::registry::RuleSet::Standard,
            pieces: 500,
            generator: Generator::Uniform { seed: 42 },
            initial_state: InitialState::Zero,
            rotation: None,
            objective: None,
            combo_table: None,
            start: None,
            tetrio: None,
            nes: None,
            pieces_from_queue: false,
        };
        let from_seed: Vec<Shape> = seed.pieces().iter().map(|p| p.shape).collect();
        let ours: Vec<Shape> = Pieces::new(42).take(500).collect();
        assert_eq!(ours, from_seed);
    }

    #[test]
    fn packed_piece_rows_match_the_cells_at_every_row_and_column() {
        for shape in Shape::ALL {
            for drop in drops(shape) {
                let g = GEOMETRY[shape.index()][drop.state as usize];
                for top in 0..=(HEIGHT as i8 - 1 - (g.bottom - g.top)) {
                    let y = top - g.top;
                    let mut want = Board::EMPTY;
                    for (dx, dy) in shape.cells(drop.state) {
                        want.fill((drop.x + dx) as usize, (y + dy) as usize);
                    }
                    let got = place_strip(g.strip << (drop.x + g.left) as u32, top as usize);
                    assert_eq!(got, want, "{shape:?} {drop:?} top {top}");
                }
            }
        }
    }

    #[test]
    fn placements_cover_every_column_of_every_orientation() {
        // I: 10 upright + 7 flat; O: 9; T, L, J: 8 + 9 + 8 + 9; S, Z: 8 + 9.
        let counts: Vec<usize> = Shape::ALL.iter().map(|&s| drops(s).count()).collect();
        assert_eq!(counts, vec![17, 34, 34, 34, 9, 17, 17]);
    }

    #[test]
    fn a_piece_rests_on_the_highest_cell_under_it() {
        let b = Board::from_text("....#.....\n##########\n").unwrap();
        let mut b2 = b;
        b2.clear_full_rows();
        let tops = b.column_tops();
        // T state 0 (flat, stem down) centred on column 4: the stem (4, y+1) rests on (4,18).
        let l = land(&b, &tops, Shape::T, Drop { state: 0, x: 4 }, TopOut::Strict).unwrap();
        assert_eq!(l.y, 16);
        assert_eq!(l.lines, 1);
        // After the clear: cell (4,18)->19 ... the T's cells on rows 16,17 move down by one.
        assert_eq!(l.board.cells(), 1 + 4);
        assert!(l.board.filled(4, 19) && l.board.filled(4, 18) && l.board.filled(3, 17));
    }

    #[test]
    fn sticking_out_is_allowed_only_when_the_clears_bring_it_back() {
        // Columns 0..=8 filled to the top in rows 1..19 except column 9 empty; column 9 has
        // rows 1..19 empty. An upright I in column 9 lands with rows 16..19 and clears 4.
        let mut rows = [0u16; HEIGHT];
        for row in rows.iter_mut().skip(1) {
            *row = 0x1FF;
        }
        let b = Board::from_rows(&rows);
        let tops = b.column_tops();
        let i = Drop { state: 0, x: 9 };
        let l = land(&b, &tops, Shape::I, i, TopOut::Strict).unwrap();
        assert_eq!((l.top, l.bottom, l.lines), (16, 19, 4));
        // Now a vertical I on column 0 (top at row 1): it sticks out 3 rows above the board
        // and clears nothing: lost under both rules.
        let c0 = Drop { state: 0, x: 0 };
        assert!(land(&b, &tops, Shape::I, c0, TopOut::Simplified).is_none());
        // Rows 0, 1 empty; row 2 filled in columns 0..=8; rows 3..=19 filled in columns
        // 1..=9. Column 9's top is row 3, so an upright I there spans rows -1..=2: it sticks
        // out one row and completes row 2 only.
        let mut rows = [0x3FEu16; HEIGHT];
        rows[0] = 0;
        rows[1] = 0;
        rows[2] = 0x1FF;
        let b = Board::from_rows(&rows);
        let tops = b.column_tops();
        // One line brings the overflow row back to row 0: allowed.
        let l = land(&b, &tops, Shape::I, i, TopOut::Simplified).unwrap();
        assert_eq!((l.top, l.bottom, l.lines), (-1, 2, 1));
        assert!(l.board.filled(9, 0) && l.board.filled(9, 1) && l.board.filled(9, 2));
        assert!(land(&b, &tops, Shape::I, i, TopOut::Strict).is_none());
    }
}
