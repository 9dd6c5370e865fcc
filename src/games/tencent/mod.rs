//! The `tencent` rule set: "鹅罗斯方块", Tencent Geek Challenge #4 (2021), exactly as
//! the game's JavaScript plays it (docs/tencent.md).
//!
//! Pieces spawn with their centre at (4, 0), move by unit L/R/D and clockwise rotation with no
//! kicks (a blocked move is ignored), and lock wherever their ops end. A lock that leaves a
//! cell in row 0 ends the game before scoring; otherwise it scores the cells on the board
//! (before the clear) times 1/3/6/10 for 1/2/3/4 lines. The piece-limit-th piece never scores.

pub mod board;
pub mod family;
pub mod fast_features;
pub mod features;
pub mod movegen;
pub mod piece_cells;
pub mod replay;

use super::{Piece, Pos};
use crate::games::tencent::board::{Board, HEIGHT, WIDTH};
use crate::piece::Shape;

/// Spawn column of the piece centre.
pub const SPAWN_X: i8 = 4;
/// Spawn row of the piece centre.
pub const SPAWN_Y: i8 = 0;
/// Score multiplier by lines cleared at once.
pub const LINE_MULTIPLIER: [u32; 5] = [0, 1, 3, 6, 10];
/// Unit ops allowed per piece in a submitted record (at least one).
pub const MAX_OPS_PER_PIECE: u32 = 100;

/// The spawn position of `piece`.
#[inline(always)]
pub const fn spawn_pos(piece: Piece) -> Pos {
    Pos {
        x: SPAWN_X,
        y: SPAWN_Y,
        state: piece.state,
    }
}

/// The game's `isBrickPosValid`: every cell inside the side walls, not below the floor, and
/// either above the board or on an empty cell. There is no upper bound on height.
#[inline]
pub fn fits(board: &Board, shape: Shape, pos: Pos) -> bool {
    for (dx, dy) in shape.cells(pos.state) {
        let x = pos.x + dx;
        let y = pos.y + dy;
        if !(0..WIDTH as i8).contains(&x) || y >= HEIGHT as i8 {
            return false;
        }
        if y >= 0 && board.filled(x as usize, y as usize) {
            return false;
        }
    }
    true
}

/// Whether `piece` cannot spawn on `board`: the game ends at once.
#[inline]
pub fn spawn_blocked(board: &Board, piece: Piece) -> bool {
    match piece_cells::piece_cells(piece.shape, spawn_pos(piece)) {
        Some(cells) => board.overlaps(&cells),
        None => !fits(board, piece.shape, spawn_pos(piece)),
    }
}

/// What a lock did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Lock {
    /// The board after the lock and its line clears.
    pub board: Board,
    /// Filled cells after writing the piece, before clearing.
    pub cells: u32,
    /// Rows cleared.
    pub lines: u32,
    /// Row 0 held a cell after the piece was written: the game is over, the lock scores nothing.
    pub top_out: bool,
}

impl Lock {
    /// Points this lock earns (0 on a top-out).
    #[inline(always)]
    pub const fn gain(&self) -> u32 {
        if self.top_out {
            0
        } else {
            self.cells * LINE_MULTIPLIER[self.lines as usize]
        }
    }
}

/// Locks `shape` at `pos` (which must fit): writes its on-board cells, counts, checks row 0,
/// clears. Cells above the board are dropped, as in the game. A board between locks never
/// holds a full row, so the full rows are those the piece completed.
#[inline(always)]
pub fn lock(board: &Board, shape: Shape, pos: Pos) -> Lock {
    let piece = piece_cells::piece_cells(shape, pos).unwrap_or_else(|| {
        // A centre above the board: no piece gets there from spawn, but a position that fits
        // may still be asked for.
        let mut cells = Board::EMPTY;
        for (dx, dy) in shape.cells(pos.state) {
            if pos.y + dy >= 0 {
                cells.fill((pos.x + dx) as usize, (pos.y + dy) as usize);
            }
        }
        cells
    });
    let mut b = board.union(&piece);
    let cells = b.cells();
    let top_out = b.row(0) != 0;
    let full = b.full_rows();
    let lines = full.count_ones();
    if lines > 0 && !top_out {
        b.remove_rows(full);
    }
    Lock {
        board: b,
        cells,
        lines,
        top_out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tencent::movegen::tests::random_board;
    use rand::SeedableRng;

    /// The lock written out cell by cell, row by row: the reference the table's lock is held to.
    fn lock_by_cells(board: &Board, shape: Shape, pos: Pos) -> Lock {
        let mut rows = board.rows();
        for (dx, dy) in shape.cells(pos.state) {
            if pos.y + dy >= 0 {
                rows[(pos.y + dy) as usize] |= 1 << (pos.x + dx);
            }
        }
        let written = Board::from_rows(&rows);
        let top_out = rows[0] != 0;
        let kept: Vec<u16> = rows
            .iter()
            .copied()
            .filter(|&r| r != board::FULL_ROW)
            .collect();
        let lines = (HEIGHT - kept.len()) as u32;
        let after = if lines > 0 && !top_out {
            let mut fallen = [0u16; HEIGHT];
            fallen[HEIGHT - kept.len()..].copy_from_slice(&kept);
            Board::from_rows(&fallen)
        } else {
            written
        };
        Lock {
            board: after,
            cells: written.cells(),
            lines,
            top_out,
        }
    }

    #[test]
    fn lock_matches_the_cell_by_cell_lock_everywhere_a_piece_fits() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        let mut locks = 0;
        for _ in 0..300 {
            let board = random_board(&mut rng);
            for shape in Shape::ALL {
                for state in 0..4 {
                    // Centres above the board too: positions no piece reaches from spawn, but
                    // that fit and may be asked for.
                    for y in -2..HEIGHT as i8 {
                        for x in 0..WIDTH as i8 {
                            let pos = Pos { x, y, state };
                            if fits(&board, shape, pos) {
                                assert_eq!(
                                    lock(&board, shape, pos),
                                    lock_by_cells(&board, shape, pos),
                                    "{shape:?} {pos:?} on\n{}",
                                    board.to_text()
                                );
                                locks += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(locks > 100_000, "{locks}");
    }
}
