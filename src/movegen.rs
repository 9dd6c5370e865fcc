//! Placements of a piece on a board under the `tencent` rules, and the op path to each.
//!
//! Two move sets:
//! * [`MoveSet::Drop`]: rotate at spawn, shift along the top, hard drop. Landing rows come from
//!   the column tops, so a board is a few lookups per placement.
//! * [`MoveSet::Reach`]: every position reachable by unit L/R/D/C moves (tucks, late
//!   rotations), found by flood-filling bit masks of centre columns row by row. It keeps the
//!   resting positions and the floating ones that clear a line, since the game locks a piece
//!   wherever its ops end.
//!
//! The centre cell (offset (0,0)) is always part of the piece, so a valid centre lies in
//! columns 0..=9 and, as pieces only move down from row 0, rows 0..=19: a piece's positions fit
//! in 4 states x 20 rows of 10-bit masks.
//!
//! Placements that fill the same cells are one: the position's state is reported as the
//! shape's canonical state (I, S, Z repeat their states, O has one).

use crate::board::{Board, FULL_ROW, HEIGHT, WIDTH};
use crate::piece::Shape;
use crate::record::Op;
use crate::rules::tencent::{self, SPAWN_X, SPAWN_Y};
use crate::rules::{Piece, Pos};

/// Which moves a placement may use.
#[derive(
    Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum MoveSet {
    /// Rotate at spawn, shift, hard drop.
    Drop,
    /// Any sequence of unit moves: tucks, spins, floating line clears.
    Reach,
}

/// Per column offset of a piece state: the lowest cell's `dy` (`i8::MIN` where the column is
/// empty), and the horizontal extent. Precomputed once for the 28 shape states.
#[derive(Clone, Copy)]
struct Profile {
    min_dx: i8,
    max_dx: i8,
    /// `bottom[dx + 2]` = largest dy of a cell in column dx.
    bottom: [i8; 5],
}

const fn profile(shape: Shape, state: u8) -> Profile {
    let cells = shape.cells(state);
    let mut p = Profile {
        min_dx: 2,
        max_dx: -2,
        bottom: [i8::MIN; 5],
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
    p
}

const PROFILES: [[Profile; 4]; 7] = {
    let mut table = [[Profile {
        min_dx: 0,
        max_dx: 0,
        bottom: [0; 5],
    }; 4]; 7];
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
fn step_down(board: &Board, shape: Shape, mut pos: Pos) -> i8 {
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
fn shift_range(board: &Board, shape: Shape, pos: Pos) -> (i8, i8) {
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

/// For each state and centre row, the centre columns where the piece fits (bit x).
struct Fit {
    rows: [[u16; HEIGHT + 1]; 4],
}

#[inline(always)]
fn free_cells(board_rows: &[u16; HEIGHT], r: i8) -> u16 {
    if r < 0 {
        FULL_ROW
    } else if r as usize >= HEIGHT {
        0
    } else {
        !board_rows[r as usize] & FULL_ROW
    }
}

impl Fit {
    fn new(board_rows: &[u16; HEIGHT], shape: Shape, states: u8) -> Fit {
        let mut rows = [[0u16; HEIGHT + 1]; 4];
        for s in 0..states {
            let cells = shape.cells(s);
            for y in 0..HEIGHT as i8 {
                let mut m = FULL_ROW;
                for (dx, dy) in cells {
                    let free = free_cells(board_rows, y + dy);
                    m &= if dx >= 0 {
                        free >> dx
                    } else {
                        (free << (-dx)) & FULL_ROW
                    };
                }
                rows[s as usize][y as usize] = m;
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
}

impl Reach {
    // Rows index three arrays in step (fit, reach of this state, reach of the previous one).
    #[allow(clippy::needless_range_loop)]
    fn new(board: &Board, piece: Piece) -> Option<Reach> {
        let shape = piece.shape;
        let states = shape.orientations();
        let rows = board.rows();
        let fit = Fit::new(&rows, shape, states);
        let s0 = shape.canonical_state(piece.state) as usize;
        let spawn_bit = 1u16 << SPAWN_X;
        if fit.rows[s0][SPAWN_Y as usize] & spawn_bit == 0 {
            return None;
        }
        let mut reach = [[0u16; HEIGHT]; 4];
        reach[s0][0] = spread(spawn_bit, fit.rows[s0][0]);
        let n = states as usize;
        loop {
            let mut changed = false;
            for k in 0..n {
                let s = (s0 + k) % n;
                let from = (s + n - 1) % n;
                let mut above = 0u16;
                for y in 0..HEIGHT {
                    let valid = fit.rows[s][y];
                    let old = reach[s][y];
                    let seeds = old | ((above | reach[from][y]) & valid);
                    let r = if seeds == old {
                        old
                    } else {
                        spread(seeds, valid)
                    };
                    if r != old {
                        reach[s][y] = r;
                        changed = true;
                    }
                    above = r;
                }
            }
            if !changed {
                break;
            }
        }
        Some(Reach { fit, reach, states })
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
        for y in 0..HEIGHT {
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
            if candidates != 0 {
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

/// Placements of `piece` under `moves`, appended to `out`.
pub fn placements(board: &Board, piece: Piece, moves: MoveSet, out: &mut Vec<Pos>) {
    match moves {
        MoveSet::Drop => drop_placements(board, piece, out),
        MoveSet::Reach => reach_placements(board, piece, out),
    }
}

/// A shortest op path (fewest unit ops) from spawn to a position with the same cells as
/// `target`, by breadth-first search over (state, row, column). `None` when unreachable.
pub fn shortest_path(board: &Board, piece: Piece, target: Pos) -> Option<Vec<Op>> {
    const N: usize = 4 * HEIGHT * WIDTH;
    let shape = piece.shape;
    let index = |p: Pos| (p.state as usize * HEIGHT + p.y as usize) * WIDTH + p.x as usize;
    let start = tencent::spawn_pos(piece);
    if !tencent::fits(board, shape, start) {
        return None;
    }
    let is_target = |p: Pos| {
        p.x == target.x
            && p.y == target.y
            && shape.canonical_state(p.state) == shape.canonical_state(target.state)
    };
    let mut parent: Vec<Option<(usize, Op)>> = vec![None; N];
    let mut seen = vec![false; N];
    let mut queue = std::collections::VecDeque::new();
    seen[index(start)] = true;
    queue.push_back(start);
    let mut found = None;
    while let Some(p) = queue.pop_front() {
        if is_target(p) {
            found = Some(p);
            break;
        }
        for op in [Op::Down, Op::Left, Op::Right, Op::Rotate] {
            let q = match op {
                Op::Left => Pos { x: p.x - 1, ..p },
                Op::Right => Pos { x: p.x + 1, ..p },
                Op::Down => Pos { y: p.y + 1, ..p },
                Op::Rotate => Pos {
                    state: (p.state + 1) & 3,
                    ..p
                },
            };
            if !tencent::fits(board, shape, q) || seen[index(q)] {
                continue;
            }
            seen[index(q)] = true;
            parent[index(q)] = Some((index(p), op));
            queue.push_back(q);
        }
    }
    let mut at = index(found?);
    let mut ops = Vec::new();
    while let Some((from, op)) = parent[at] {
        ops.push(op);
        at = from;
    }
    ops.reverse();
    Some(ops)
}

/// The op path to `target` under `moves`: the drop path, or a shortest unit-move path.
pub fn path(board: &Board, piece: Piece, target: Pos, moves: MoveSet) -> Option<Vec<Op>> {
    match moves {
        MoveSet::Drop => Some(drop_path(piece, target)),
        _ => shortest_path(board, piece, target),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn apply(board: &Board, shape: Shape, start: Pos, ops: &[Op]) -> Pos {
        let mut p = start;
        for op in ops {
            let q = match op {
                Op::Left => Pos { x: p.x - 1, ..p },
                Op::Right => Pos { x: p.x + 1, ..p },
                Op::Down => Pos { y: p.y + 1, ..p },
                Op::Rotate => Pos {
                    state: (p.state + 1) & 3,
                    ..p
                },
            };
            if tencent::fits(board, shape, q) {
                p = q;
            }
        }
        p
    }

    /// A random ragged board: random column heights with random holes, rows 0..=2 empty.
    pub(crate) fn random_board(rng: &mut impl Rng) -> Board {
        let mut rows = [0u16; HEIGHT];
        for x in 0..WIDTH {
            let h = rng.gen_range(0..=16usize);
            for row in rows.iter_mut().skip(HEIGHT - h) {
                if rng.gen_bool(0.85) {
                    *row |= 1 << x;
                }
            }
        }
        for row in rows.iter_mut() {
            if *row == FULL_ROW {
                *row &= !(1 << 3);
            }
        }
        Board::from_rows(&rows)
    }

    fn same_cells(shape: Shape, a: Pos, b: Pos) -> bool {
        a.x == b.x && a.y == b.y && shape.canonical_state(a.state) == shape.canonical_state(b.state)
    }

    #[test]
    fn every_path_replays_onto_its_placement_and_reach_contains_drop() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..300 {
            let board = random_board(&mut rng);
            for shape in Shape::ALL {
                let piece = Piece {
                    shape,
                    state: rng.gen_range(0..4),
                };
                let start = tencent::spawn_pos(piece);
                let mut drops = Vec::new();
                drop_placements(&board, piece, &mut drops);
                let mut reach = Vec::new();
                reach_placements(&board, piece, &mut reach);
                for &d in &drops {
                    assert!(
                        reach.iter().any(|&r| same_cells(shape, r, d)),
                        "drop {d:?} missing from reach for {piece:?} on {board:?}"
                    );
                    let ops = path(&board, piece, d, MoveSet::Drop).unwrap();
                    assert!(same_cells(shape, apply(&board, shape, start, &ops), d));
                    // a drop placement rests
                    assert!(!tencent::fits(&board, shape, Pos { y: d.y + 1, ..d }));
                }
                for &r in &reach {
                    let ops = shortest_path(&board, piece, r)
                        .unwrap_or_else(|| panic!("no path to {r:?} on {board:?}"));
                    assert!(ops.len() <= 100);
                    assert!(same_cells(shape, apply(&board, shape, start, &ops), r));
                    checked += 1;
                }
                // no duplicates: placements filling the same cells are one
                for (i, a) in reach.iter().enumerate() {
                    for b in &reach[..i] {
                        assert!(!same_cells(shape, *a, *b));
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// An independent reference: breadth-first search over single positions.
    fn reach_by_bfs(board: &Board, piece: Piece) -> Vec<Pos> {
        let shape = piece.shape;
        let start = tencent::spawn_pos(piece);
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![start];
        seen.insert(start);
        while let Some(p) = stack.pop() {
            for q in [
                Pos { x: p.x - 1, ..p },
                Pos { x: p.x + 1, ..p },
                Pos { y: p.y + 1, ..p },
                Pos {
                    state: (p.state + 1) & 3,
                    ..p
                },
            ] {
                if tencent::fits(board, shape, q) && seen.insert(q) {
                    stack.push(q);
                }
            }
        }
        let mut out: Vec<Pos> = seen
            .into_iter()
            .filter(|&p| {
                let rests = !tencent::fits(board, shape, Pos { y: p.y + 1, ..p });
                rests || tencent::lock(board, shape, p).lines > 0
            })
            .map(|p| Pos {
                state: shape.canonical_state(p.state),
                ..p
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    #[test]
    fn reach_equals_an_independent_search() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        for _ in 0..300 {
            let board = random_board(&mut rng);
            for shape in Shape::ALL {
                let piece = Piece {
                    shape,
                    state: rng.gen_range(0..4),
                };
                let mut got = Vec::new();
                reach_placements(&board, piece, &mut got);
                got.sort();
                assert_eq!(got, reach_by_bfs(&board, piece), "{piece:?} {board:?}");
            }
        }
    }

    #[test]
    fn drop_equals_an_independent_search_on_tall_boards() {
        // Boards whose stack reaches rows 1-2 take the slow path; compare with brute force.
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        for _ in 0..500 {
            let mut rows = random_board(&mut rng).rows();
            for row in rows.iter_mut().take(3).skip(1) {
                *row = rng.gen::<u16>() & rng.gen::<u16>() & FULL_ROW & !(1 << 4);
            }
            let board = Board::from_rows(&rows);
            for shape in Shape::ALL {
                let piece = Piece {
                    shape,
                    state: rng.gen_range(0..4),
                };
                let mut got = Vec::new();
                drop_placements(&board, piece, &mut got);
                let mut want = Vec::new();
                let spawn = tencent::spawn_pos(piece);
                if tencent::fits(&board, shape, spawn) {
                    let mut p = spawn;
                    for r in 0..shape.orientations() {
                        if r > 0 {
                            p.state = (p.state + 1) & 3;
                            if !tencent::fits(&board, shape, p) {
                                break;
                            }
                        }
                        let (lo, hi) = shift_range(&board, shape, p);
                        for x in lo..=hi {
                            let y = step_down(&board, shape, Pos { x, ..p });
                            want.push(Pos {
                                x,
                                y,
                                state: shape.canonical_state(p.state),
                            });
                        }
                    }
                }
                assert_eq!(got, want, "{piece:?} {board:?}");
                for &d in &got {
                    let ops = path(&board, piece, d, MoveSet::Drop).unwrap();
                    assert!(same_cells(shape, apply(&board, shape, spawn, &ops), d));
                }
            }
        }
    }

    #[test]
    fn a_tuck_under_an_overhang_is_reached_and_replays() {
        // An overhang at row 17 over columns 0..=1; an O can slide under it from the right.
        let text = "..........\n".repeat(17) + "##........\n..........\n......####\n";
        let board = Board::from_text(&text).unwrap();
        let piece = Piece {
            shape: Shape::O,
            state: 0,
        };
        let mut reach = Vec::new();
        reach_placements(&board, piece, &mut reach);
        let tuck = Pos {
            x: 0,
            y: 19,
            state: 0,
        };
        assert!(reach.contains(&tuck));
        let mut drops = Vec::new();
        drop_placements(&board, piece, &mut drops);
        assert!(!drops.contains(&tuck));
        let ops = shortest_path(&board, piece, tuck).unwrap();
        assert_eq!(
            apply(&board, Shape::O, tencent::spawn_pos(piece), &ops),
            tuck
        );
        assert!(
            ops.contains(&Op::Left)
                && ops.iter().position(|&o| o == Op::Left)
                    > ops.iter().position(|&o| o == Op::Down)
        );
    }
}
