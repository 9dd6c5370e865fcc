//! Reach placements: every position reachable from spawn by unit moves, flood-filled on bit
//! masks of centre columns, keeping resting positions and floating ones that clear a line.

use crate::games::tencent::board::{Board, FULL_ROW, HEIGHT};
use crate::games::tencent::{SPAWN_X, SPAWN_Y};
use crate::games::{Piece, Pos};
use crate::piece::Shape;

/// For each state and centre row, the centre columns where the piece fits (bit x).
struct Fit {
    rows: [[u16; HEIGHT + 1]; 4],
}

/// Rows above the board are free, rows below the floor are not: `free[r + 2]` for r in
/// -2..=21, so a cell offset never needs a bounds check.
fn free_rows(board: &Board) -> [u16; HEIGHT + 4] {
    let mut free = [0u16; HEIGHT + 4];
    free[0] = FULL_ROW;
    free[1] = FULL_ROW;
    for y in 0..HEIGHT {
        free[y + 2] = !board.row(y) & FULL_ROW;
    }
    free
}

/// The first centre row at which `shape` may touch the stack in some state: above it every
/// cell of every state is in a row above `top_row`, so the piece fits wherever the walls let
/// it, and can neither rest nor complete a row.
fn open_rows(shape: Shape, states: u8, top_row: usize) -> usize {
    let lowest = (0..states)
        .flat_map(|s| shape.cells(s))
        .map(|c| c.1)
        .max()
        .unwrap_or(0);
    (top_row as i8 - lowest).max(0) as usize
}

impl Fit {
    /// One pass per cell over all twenty rows: the same shift for every row, so the rows are
    /// lanes of one vector operation.
    fn new(board: &Board, shape: Shape, states: u8) -> Fit {
        let free = free_rows(board);
        let mut rows = [[0u16; HEIGHT + 1]; 4];
        for s in 0..states {
            let fit = &mut rows[s as usize];
            fit[..HEIGHT].fill(FULL_ROW);
            for (dx, dy) in shape.cells(s) {
                let start = (dy + 2) as usize;
                let cell_rows = &free[start..start + HEIGHT];
                if dx >= 0 {
                    for (m, &f) in fit.iter_mut().zip(cell_rows) {
                        *m &= f >> dx;
                    }
                } else {
                    for (m, &f) in fit.iter_mut().zip(cell_rows) {
                        *m &= (f << -dx) & FULL_ROW;
                    }
                }
            }
        }
        Fit { rows }
    }
}

/// Spreads `r` left and right within `valid`.
#[inline(always)]
fn spread(mut r: u16, valid: u16) -> u16 {
    loop {
        let n = r | (((r << 1) | (r >> 1)) & valid);
        if n == r {
            return r;
        }
        r = n;
    }
}

/// Positions reachable from spawn by unit moves, as masks per (state, row).
struct Reach {
    fit: Fit,
    reach: [[u16; HEIGHT]; 4],
    /// States the shape distinguishes: I, S, Z cycle through 2, O through 1 (rotation from the
    /// last back to the first), the rest through 4.
    states: u8,
    /// Rows above this one hold no placement (see [`open_rows`]).
    open: usize,
    /// No state reaches this row, nor (no move goes up) any row below it.
    end: usize,
}

impl Reach {
    // Rows index three arrays in step (fit, reach of this state, reach of the previous one).
    #[allow(clippy::needless_range_loop)]
    fn new(board: &Board, piece: Piece) -> Option<Reach> {
        let shape = piece.shape;
        let states = shape.orientations();
        let open = open_rows(shape, states, board.top_row());
        let fit = Fit::new(board, shape, states);
        let s0 = shape.canonical_state(piece.state) as usize;
        let spawn_bit = 1u16 << SPAWN_X;
        if fit.rows[s0][SPAWN_Y as usize] & spawn_bit == 0 {
            return None;
        }
        // No move goes up, so one pass from the top suffices: a row's positions come from the
        // row above (D) and from each other (L, R, C), closed within the row.
        let mut reach = [[0u16; HEIGHT]; 4];
        reach[s0][0] = spawn_bit;
        let n = states as usize;
        // In the open rows every state spreads from spawn to the walls within row 0 (each
        // state's columns are an interval holding the spawn column), and falls unchanged.
        let first = open.saturating_sub(1);
        if first > 0 {
            for (s, rows) in reach.iter_mut().enumerate().take(n) {
                rows[..first].fill(fit.rows[s][0]);
            }
        }
        let mut end = HEIGHT;
        for y in first..HEIGHT {
            let mut any = 0u16;
            for s in 0..n {
                let valid = fit.rows[s][y];
                if y > 0 {
                    reach[s][y] |= reach[s][y - 1] & valid;
                }
                any |= reach[s][y];
            }
            if any == 0 {
                end = y;
                break;
            }
            loop {
                let mut changed = false;
                for k in 0..n {
                    let s = (s0 + k) % n;
                    let from = (s + n - 1) % n;
                    let valid = fit.rows[s][y];
                    let old = reach[s][y];
                    let seeds = old | (reach[from][y] & valid);
                    let r = spread(seeds, valid);
                    if r != old {
                        reach[s][y] = r;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
        Some(Reach {
            fit,
            reach,
            states,
            open,
            end,
        })
    }
}

/// Reach placements: resting positions reachable by unit moves, plus floating positions that
/// complete at least one row. Appends to `out` in a fixed order (state, row, column).
pub fn reach_placements(board: &Board, piece: Piece, out: &mut Vec<Pos>) {
    let Some(reach) = Reach::new(board, piece) else {
        return;
    };
    let shape = piece.shape;
    let rows = board.rows();
    let candidates: u32 = (0..HEIGHT)
        .filter(|&y| {
            let missing = (!rows[y] & FULL_ROW).count_ones();
            (1..=4).contains(&missing)
        })
        .fold(0, |acc, y| acc | 1 << y);
    for s in 0..reach.states as usize {
        // Bit dy + 2: the piece has a cell dy rows from its centre in this state.
        let cell_rows = shape
            .cells(s as u8)
            .iter()
            .fold(0u32, |acc, c| acc | 1 << (c.1 + 2));
        // candidates shifted so that bit dy + 2 stands for row y + dy
        let near = |y: usize| ((candidates as u64) << 2 >> y) as u32 & cell_rows;
        for y in reach.open.saturating_sub(1)..reach.end {
            let r = reach.reach[s][y];
            if r == 0 {
                continue;
            }
            let below = if y + 1 < HEIGHT {
                reach.fit.rows[s][y + 1]
            } else {
                0
            };
            let resting = r & !below;
            let mut floating = r & below;
            let mut keep = resting;
            if near(y) != 0 {
                while floating != 0 {
                    let x = floating.trailing_zeros() as i8;
                    floating &= floating - 1;
                    let pos = Pos {
                        x,
                        y: y as i8,
                        state: s as u8,
                    };
                    if completes_row(&rows, candidates, shape, pos) {
                        keep |= 1 << x;
                    }
                }
            }
            while keep != 0 {
                let x = keep.trailing_zeros() as i8;
                keep &= keep - 1;
                out.push(Pos {
                    x,
                    y: y as i8,
                    state: s as u8,
                });
            }
        }
    }
}

fn completes_row(rows: &[u16; HEIGHT], candidates: u32, shape: Shape, pos: Pos) -> bool {
    let cells = shape.cells(pos.state);
    cells.iter().any(|&(_, dy)| {
        let r = pos.y + dy;
        if r < 0 || candidates >> r & 1 == 0 {
            return false;
        }
        let mut row = rows[r as usize];
        for &(cx, cy) in &cells {
            if cy == dy {
                row |= 1 << (pos.x + cx);
            }
        }
        row == FULL_ROW
    })
}
