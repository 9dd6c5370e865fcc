//! Drop placements: rotate at spawn, shift along the top, hard drop.

#[cfg(test)]
use crate::games::tencent;
use crate::games::tencent::board::{Board, HEIGHT, WIDTH};
use crate::games::tencent::{SPAWN_X, SPAWN_Y};
use crate::games::{Piece, Pos};
use crate::piece::Shape;
use crate::record::Op;

/// Per column offset of a piece state: the lowest cell's `dy` (`i8::MIN` where the column is
/// empty), and the horizontal extent. Precomputed once for the 28 shape states.
#[derive(Clone, Copy)]
struct Profile {
    min_dx: i8,
    max_dx: i8,
    /// `bottom[dx + 2]` = largest dy of a cell in column dx.
    bottom: [i8; 5],
    /// The drop placements of this state at every column, left to right, with `y` still 0:
    /// the low-stack path copies them out and only writes the rows.
    row: [Pos; WIDTH],
    /// How many of `row` are on the board.
    count: u8,
}

const fn profile(shape: Shape, state: u8) -> Profile {
    let cells = shape.cells(state);
    let mut p = Profile {
        min_dx: 2,
        max_dx: -2,
        bottom: [i8::MIN; 5],
        row: [Pos {
            x: 0,
            y: 0,
            state: 0,
        }; WIDTH],
        count: 0,
    };
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = cells[i];
        if dx < p.min_dx {
            p.min_dx = dx;
        }
        if dx > p.max_dx {
            p.max_dx = dx;
        }
        let b = &mut p.bottom[(dx + 2) as usize];
        if dy > *b {
            *b = dy;
        }
        i += 1;
    }
    p.count = WIDTH as u8 - (p.max_dx - p.min_dx) as u8;
    let mut k = 0;
    while k < p.count as usize {
        p.row[k] = Pos {
            x: k as i8 - p.min_dx,
            y: 0,
            state: shape.canonical_state(state),
        };
        k += 1;
    }
    p
}

const PROFILES: [[Profile; 4]; 7] = {
    let mut table = [[profile(Shape::O, 0); 4]; 7];
    let mut s = 0;
    while s < 7 {
        let mut r = 0;
        while r < 4 {
            table[s][r] = profile(Shape::ALL[s], r as u8);
            r += 1;
        }
        s += 1;
    }
    table
};

/// Drop placements: for each distinct rotation reachable at spawn, each column reachable by
/// shifting along the top, the hard-drop landing position. Appends to `out` in a fixed order
/// (rotation count, then column left to right). Nothing is appended when the piece cannot
/// spawn.
///
/// Works on column bitboards: a cell's fall ends above the first filled cell below it, so a
/// landing row is a trailing-zero count per piece column.
pub fn drop_placements(board: &Board, piece: Piece, out: &mut Vec<Pos>) {
    if board.top_row() >= SPAWN_ZONE_ROWS {
        drop_placements_low_stack(board, piece, out);
        return;
    }
    let shape = piece.shape;
    let mut cols = board.columns();
    for c in cols.iter_mut() {
        *c |= 1 << HEIGHT; // the floor
    }
    let mut state = piece.state;
    for r in 0..shape.orientations() {
        if r > 0 {
            state = (state + 1) & 3;
        }
        let cells = shape.cells(state);
        let p = &PROFILES[shape.index()][state as usize];
        let fits_at = |x: i8| {
            x + p.min_dx >= 0
                && x + p.max_dx < WIDTH as i8
                && cells.iter().all(|&(dx, dy)| {
                    let row = SPAWN_Y + dy;
                    row < 0 || cols[(x + dx) as usize] >> row & 1 == 0
                })
        };
        if !fits_at(SPAWN_X) {
            // the piece cannot spawn (r = 0) or this rotation is blocked, and so are the next
            break;
        }
        let mut lo = SPAWN_X;
        while fits_at(lo - 1) {
            lo -= 1;
        }
        let mut hi = SPAWN_X;
        while fits_at(hi + 1) {
            hi += 1;
        }
        for x in lo..=hi {
            out.push(Pos {
                x,
                y: SPAWN_Y + drop_distance(&cols, p, x),
                state: shape.canonical_state(state),
            });
        }
    }
}

/// Rows 0..=2: the only rows a piece at spawn height can touch.
const SPAWN_ZONE_ROWS: usize = 3;

/// [`drop_placements`] when the stack is below the spawn rows: every column fits at spawn
/// height and every cell starts above its column's top, so a landing row is the least of
/// `top - 1 - bottom` over the piece's columns, taken for all columns at once (lanes of bytes,
/// which the compiler vectorises) and written out in one stretch per rotation.
#[inline]
fn drop_placements_low_stack(board: &Board, piece: Piece, out: &mut Vec<Pos>) {
    /// Stands for "no column here": above any landing row, small enough not to overflow.
    const OFF_BOARD: i8 = 64;
    let shape = piece.shape;
    // tops[x + 2] for x in -2..22: columns off the board never bound the fall
    let mut tops = [OFF_BOARD; 24];
    for (x, top) in board.column_tops().into_iter().enumerate() {
        tops[x + 2] = top as i8;
    }
    out.reserve(4 * WIDTH);
    let mut state = piece.state;
    for r in 0..shape.orientations() {
        if r > 0 {
            state = (state + 1) & 3;
        }
        let p = &PROFILES[shape.index()][state as usize];
        let mut land = [OFF_BOARD; 16];
        for dx in p.min_dx..=p.max_dx {
            // the lowest cell of column dx; 1 + b >= -1, so no lane overflows
            let b = p.bottom[(dx + 2) as usize];
            let column: &[i8; 16] = tops[(dx + 2) as usize..(dx + 18) as usize]
                .try_into()
                .expect("16 lanes");
            for (y, &t) in land.iter_mut().zip(column) {
                *y = (*y).min(t - (1 + b));
            }
        }
        let lo = (-p.min_dx) as usize;
        let mut row = p.row;
        for (k, pos) in row.iter_mut().enumerate() {
            pos.y = land[lo + k];
        }
        out.extend_from_slice(&row[..p.count as usize]);
    }
}

/// Rows the piece falls from spawn height: for each of its columns, the gap between its
/// lowest cell and the first filled cell (or the floor) below it.
#[inline(always)]
fn drop_distance(cols: &[u32; WIDTH], p: &Profile, x: i8) -> i8 {
    let mut d = i8::MAX;
    for dx in p.min_dx..=p.max_dx {
        let b = p.bottom[(dx + 2) as usize];
        if b != i8::MIN {
            let start = (SPAWN_Y + b + 1).max(0);
            let first = (cols[(x + dx) as usize] >> start).trailing_zeros() as i8 + start;
            d = d.min(first - 1 - (SPAWN_Y + b));
        }
    }
    d
}

/// Moves down one row at a time while the piece fits.
#[cfg(test)]
pub(super) fn step_down(board: &Board, shape: Shape, mut pos: Pos) -> i8 {
    while tencent::fits(
        board,
        shape,
        Pos {
            y: pos.y + 1,
            ..pos
        },
    ) {
        pos.y += 1;
    }
    pos.y
}

/// Columns reachable by shifting from `pos` one step at a time.
#[cfg(test)]
pub(super) fn shift_range(board: &Board, shape: Shape, pos: Pos) -> (i8, i8) {
    let mut lo = pos.x;
    while tencent::fits(board, shape, Pos { x: lo - 1, ..pos }) {
        lo -= 1;
    }
    let mut hi = pos.x;
    while tencent::fits(board, shape, Pos { x: hi + 1, ..pos }) {
        hi += 1;
    }
    (lo, hi)
}

/// The ops of the drop path to `target` (a placement from [`drop_placements`]).
pub fn drop_path(piece: Piece, target: Pos) -> Vec<Op> {
    let n = piece.shape.orientations();
    let mut rotations = 0;
    while piece.shape.canonical_state(piece.state + rotations) != target.state {
        rotations += 1;
        assert!(rotations < n, "target state not reachable by rotation");
    }
    let mut ops = vec![Op::Rotate; rotations as usize];
    let dx = target.x - SPAWN_X;
    let side = if dx < 0 { Op::Left } else { Op::Right };
    ops.extend(std::iter::repeat_n(side, dx.unsigned_abs() as usize));
    ops.extend(std::iter::repeat_n(Op::Down, (target.y - SPAWN_Y) as usize));
    ops
}
