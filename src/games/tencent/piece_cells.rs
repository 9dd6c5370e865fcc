//! A piece at a position as a board: its cells in the board's own four words, read from a
//! table per shape, rotation state and centre row and shifted to the centre column.
//!
//! The beam locks tens of pieces on every board it keeps. Writing a piece cell by cell
//! (a division of the row by five, an indexed store, and a wide load of the board right
//! after, which waits on the narrow stores) made the lock a quarter of a search step; the
//! table turns it into four shifts and four ors.

use super::board::{Board, HEIGHT, WIDTH};
use crate::games::Pos;
use crate::piece::Shape;

/// One entry: the cells with the piece's leftmost cell in column 0.
#[derive(Clone, Copy)]
struct Entry {
    words: [u64; 4],
    /// The leftmost cell's column offset from the centre (0, -1 or -2).
    left: i8,
    /// Columns from the leftmost cell to the rightmost (0 to 3).
    span: i8,
    /// A cell is below the floor: no valid position.
    below_floor: bool,
}

const fn entry(shape: Shape, state: u8, y: usize) -> Entry {
    let cells = shape.cells(state);
    let (mut left, mut right) = (0i8, 0i8);
    let mut i = 0;
    while i < 4 {
        if cells[i].0 < left {
            left = cells[i].0;
        }
        if cells[i].0 > right {
            right = cells[i].0;
        }
        i += 1;
    }
    let mut cells_on_board = Board::EMPTY;
    let mut below_floor = false;
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = cells[i];
        let row = y as i32 + dy as i32;
        below_floor |= row >= HEIGHT as i32;
        // Cells above the board are dropped, as the game drops them.
        if row >= 0 && row < HEIGHT as i32 {
            cells_on_board.fill((dx - left) as usize, row as usize);
        }
        i += 1;
    }
    Entry {
        words: cells_on_board.0,
        left,
        span: right - left,
        below_floor,
    }
}

const fn table() -> [[[Entry; HEIGHT]; 4]; 7] {
    let empty = Entry {
        words: [0; 4],
        left: 0,
        span: 0,
        below_floor: true,
    };
    let mut out = [[[empty; HEIGHT]; 4]; 7];
    let mut s = 0;
    while s < 7 {
        let mut r = 0;
        while r < 4 {
            let mut y = 0;
            while y < HEIGHT {
                out[s][r][y] = entry(Shape::ALL[s], r as u8, y);
                y += 1;
            }
            r += 1;
        }
        s += 1;
    }
    out
}

static TABLE: [[[Entry; HEIGHT]; 4]; 7] = table();

/// The on-board cells of `shape` at `pos`, for a position inside the side walls and above
/// the floor with its centre in rows 0 to 19 (every position a piece reaches from spawn: no
/// move goes up); `None` for any other.
#[inline(always)]
pub fn piece_cells(shape: Shape, pos: Pos) -> Option<Board> {
    if !(0..HEIGHT as i8).contains(&pos.y) {
        return None;
    }
    let e = &TABLE[shape as usize][(pos.state & 3) as usize][pos.y as usize];
    let shift = pos.x + e.left;
    if e.below_floor || shift < 0 || shift + e.span >= WIDTH as i8 {
        return None;
    }
    let s = shift as u32;
    Some(Board([
        e.words[0] << s,
        e.words[1] << s,
        e.words[2] << s,
        e.words[3] << s,
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_matches_its_cells() {
        for shape in Shape::ALL {
            for state in 0..4u8 {
                for y in -3..=HEIGHT as i8 {
                    for x in -3..=WIDTH as i8 + 2 {
                        let pos = Pos { x, y, state };
                        let cells = shape.cells(state).map(|(dx, dy)| (x + dx, y + dy));
                        let inside = cells
                            .iter()
                            .all(|&(cx, cy)| (0..WIDTH as i8).contains(&cx) && cy < HEIGHT as i8)
                            && (0..HEIGHT as i8).contains(&y);
                        let got = piece_cells(shape, pos);
                        if !inside {
                            assert!(got.is_none(), "{shape:?} {pos:?}");
                            continue;
                        }
                        let mut want = Board::EMPTY;
                        for (cx, cy) in cells {
                            if cy >= 0 {
                                want.fill(cx as usize, cy as usize);
                            }
                        }
                        assert_eq!(got, Some(want), "{shape:?} {pos:?}");
                    }
                }
            }
        }
    }
}
