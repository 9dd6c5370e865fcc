//! Every placement a piece can reach under SRS or SRS+ from its spawn, with its spin kind,
//! and a shortest op path to each.
//!
//! A placement is the locked cells *and* the spin kind: the same cells reached by a T-spin
//! and by a plain drop score differently, so they are two placements. Cells filled by two
//! rotation states (S, Z, I repeat their shapes, O has one) are one placement.
//!
//! The flood works on bit masks: for each rotation state and box column a `u32` over the box
//! rows, bit `23 - y` for box origin row `y` (down is toward higher bits, as in the board's
//! columns, so a drop fills a run with one addition). Every position is expanded once, when it
//! is first reached: its drop run, its left and right neighbours, and its rotations tried kick
//! by kick for all its rows at once. For T pieces the flood also keeps, per position, whether
//! it can be reached with a shift or drop last, with a rotation last, or with a 90° turn into
//! R or L that won with its fifth test: what the spin check needs.
//!
//! [`path`] finds a shortest op path by a breadth-first search that moves the piece with the
//! replay's own [`Active::apply`]; the tests use the same search to enumerate every placement
//! independently of the flood.

use super::board::{Board, HEIGHT, WIDTH};
use super::game::spin_of;
use super::piece::{spawn_origin, Active, Twist};
use super::score::Spin;
use super::{Rules, TopOut};
use crate::games::srs::{self, RotationSystem};
use crate::piece::Shape;
use crate::record::Op;

/// A place a piece can lock: its rotation state, box origin (x, y up) and spin kind. The
/// state is the first one with these cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Placement {
    pub shape: Shape,
    pub state: u8,
    pub x: i8,
    pub y: i8,
    pub spin: Spin,
}

impl Placement {
    /// The locked cells, (x, y) with y up.
    pub fn cells(&self) -> [(i8, i8); 4] {
        srs::cells(self.shape, self.state).map(|(cx, cy)| (self.x + cx, self.y + cy))
    }

    /// The piece resting here with a twist that makes the lock see this spin kind: none, a
    /// rotation (mini where the corners say mini), or a fifth-test turn (always full).
    pub fn active(&self) -> Active {
        Active {
            shape: self.shape,
            state: self.state,
            x: self.x,
            y: self.y,
            twist: match self.spin {
                Spin::None => Twist::None,
                Spin::Mini => Twist::Rotated,
                Spin::Full => Twist::RotatedFifth,
            },
        }
    }
}

/// Box columns: origins x = −2..=9 (a box may hang two columns off the left wall).
const NX: usize = 12;
/// Box origin rows as bits: bit `23 - y` for y = 23 down to −3.
const VALID: u32 = (1 << 27) - 1;
/// Rows below the floor, solid: bits 24.. of a column word.
const FLOOR: u32 = !((1 << HEIGHT) - 1);

#[inline(always)]
const fn ix_of(x: i8) -> usize {
    (x + 2) as usize
}
#[inline(always)]
const fn bit_of(y: i8) -> u32 {
    1 << (23 - y as i32)
}
/// Moves row bits by `dy` rows up (bit i -> i - dy).
#[inline(always)]
const fn shift_up(bits: u32, dy: i8) -> u32 {
    if dy >= 0 {
        bits >> dy
    } else {
        bits << -dy
    }
}

/// The positions below `from` (a subset of `fit`) that a drop reaches, `from` included: each
/// run of `fit` is filled from its highest `from` bit down (a carry runs toward higher bits).
#[inline(always)]
const fn fill_down(from: u32, fit: u32) -> u32 {
    ((fit.wrapping_add(from) ^ fit) & fit) | from
}

/// Where each rotation state fits, per box column.
fn fit_masks(board: &Board, shape: Shape, states: usize) -> [[u32; NX]; 4] {
    // Board column c at index c + 2, solid walls around it: box column ix and cell column cx
    // meet at index ix + cx without a bounds branch.
    let mut ext = [u32::MAX; NX + 3];
    for (e, c) in ext[2..2 + WIDTH].iter_mut().zip(board.cols) {
        *e = c | FLOOR;
    }
    let mut fit = [[0u32; NX]; 4];
    for (r, row) in fit.iter_mut().enumerate().take(states) {
        let cells = srs::cells(shape, r as u8);
        // rows above 23 are solid: a cell cy above the box bottom blocks the top cy rows
        let ceiling = cells
            .iter()
            .fold(0u32, |m, &(_, cy)| m | ((1u32 << cy) - 1));
        for (ix, f) in row.iter_mut().enumerate() {
            let mut blocked = ceiling;
            for &(cx, cy) in &cells {
                blocked |= ext[ix + cx as usize] << cy;
            }
            *f = !blocked & VALID;
        }
    }
    fit
}

/// The flood's result: every reachable position, and for T pieces how each was reached.
struct Reach {
    fit: [[u32; NX]; 4],
    any: [[u32; NX]; 4],
    /// Reached with a shift or drop last (or spawned there).
    moved: [[u32; NX]; 4],
    /// Reached with a rotation last (not a fifth-test 90° turn into R or L).
    rotated: [[u32; NX]; 4],
    /// Reached with a 90° turn into R or L that won with its fifth test.
    fifth: [[u32; NX]; 4],
}

fn flood(board: &Board, start: Active, system: RotationSystem) -> Reach {
    let shape = start.shape;
    let states = if shape == Shape::O { 1 } else { 4 };
    let track = shape == Shape::T;
    let mut reach = Reach {
        fit: fit_masks(board, shape, states),
        any: [[0; NX]; 4],
        moved: [[0; NX]; 4],
        rotated: [[0; NX]; 4],
        fifth: [[0; NX]; 4],
    };
    let mut done = [[0u32; NX]; 4];
    let mut pending = [[0u32; NX]; 4];
    // Each (state, column) is on the stack at most once (while its pending bits are unset).
    let mut stack = [(0u8, 0u8); 4 * NX];
    let mut depth = 0;
    let (sx, sy) = (start.x, start.y);
    let s = bit_of(sy);
    reach.any[0][ix_of(sx)] = s;
    reach.moved[0][ix_of(sx)] = s;
    pending[0][ix_of(sx)] = s;
    stack[0] = (0, ix_of(sx) as u8);
    depth += 1;
    // Above the stack every position from the spawn row down is reached by turning at spawn
    // (the first test wins there), shifting and dropping: seed them all at once rather than
    // one shift at a time. A box whose bottom row is at or above the tallest column has every
    // cell above the stack.
    let top = (0..WIDTH).map(|x| board.height(x)).max().unwrap_or(0) as i8;
    if top <= sy {
        // box bottoms top..=sy, as bits 23 - y
        let open = ((1u32 << (24 - top as u32)) - 1) & !(bit_of(sy) - 1);
        for (r, (fits, row)) in reach
            .fit
            .iter()
            .zip(pending.iter_mut())
            .enumerate()
            .take(states)
        {
            for (ix, (&fit, pend)) in fits.iter().zip(row.iter_mut()).enumerate() {
                let seed = fit & open;
                if seed != 0 {
                    reach.any[r][ix] |= seed;
                    reach.moved[r][ix] |= seed;
                    if *pend == 0 {
                        stack[depth] = (r as u8, ix as u8);
                        depth += 1;
                    }
                    *pend |= seed;
                }
            }
        }
    }
    let turns: &[u8] = match (shape, system.has_180()) {
        (Shape::O, _) => &[],
        (_, true) => &[1, 3, 2],
        (_, false) => &[1, 3],
    };
    while depth > 0 {
        depth -= 1;
        let (r, ix) = stack[depth];
        let (r, ix) = (r as usize, ix as usize);
        let d = pending[r][ix];
        pending[r][ix] = 0;
        let f = reach.fit[r][ix];
        let below = fill_down((d << 1) & f, f);
        let now = (d | below) & !done[r][ix];
        done[r][ix] |= now;
        reach.any[r][ix] |= now;
        if track {
            reach.moved[r][ix] |= below;
        }
        let mut add = |reach: &mut Reach, r2: usize, ix2: usize, bits: u32| {
            let new = bits & !reach.any[r2][ix2];
            if new != 0 {
                reach.any[r2][ix2] |= new;
                if pending[r2][ix2] == 0 {
                    stack[depth] = (r2 as u8, ix2 as u8);
                    depth += 1;
                }
                pending[r2][ix2] |= new;
            }
        };
        for ix2 in [ix.wrapping_sub(1), ix + 1] {
            if ix2 < NX {
                let t = now & reach.fit[r][ix2];
                if track {
                    reach.moved[r][ix2] |= t;
                }
                add(&mut reach, r, ix2, t);
            }
        }
        for &q in turns {
            let r2 = (r + q as usize) & 3;
            let mut cand = now;
            for (k, &(dx, dy)) in srs::kicks(system, shape, r as u8, r2 as u8)
                .iter()
                .enumerate()
            {
                let ix2 = ix as i32 + dx as i32;
                if !(0..NX as i32).contains(&ix2) {
                    continue;
                }
                let ix2 = ix2 as usize;
                let moved = shift_up(cand, dy) & reach.fit[r2][ix2];
                if moved == 0 {
                    continue;
                }
                cand &= !shift_up(moved, -dy);
                if track {
                    if q != 2 && k == 4 && r2 & 1 == 1 {
                        reach.fifth[r2][ix2] |= moved;
                    } else {
                        reach.rotated[r2][ix2] |= moved;
                    }
                }
                add(&mut reach, r2, ix2, moved);
                if cand == 0 {
                    break;
                }
            }
        }
    }
    reach
}

/// Every placement of `shape` on `board` (none when it cannot spawn), appended to `out` in a
/// fixed order: state, box column, row from the top, spin kind.
pub fn placements(board: &Board, shape: Shape, system: RotationSystem, out: &mut Vec<Placement>) {
    if shape != Shape::T {
        if let Some(resting) = resting_on_skyline(board, shape) {
            push_placements(board, shape, &resting, None, out);
            return;
        }
    }
    placements_by_flood(board, shape, system, out);
}

/// [`placements`] always through the flood: what the skyline shortcut is tested against.
pub fn placements_by_flood(
    board: &Board,
    shape: Shape,
    system: RotationSystem,
    out: &mut Vec<Placement>,
) {
    if let Some(start) = Active::spawn(board, shape) {
        placements_from(board, start, system, out);
    }
}

/// Every placement of `shape` under `rules`: from where [`TopOut::spawn`] starts it (a row
/// over the guideline's spawn when TETR.IO's top lets a piece start there), else as
/// [`placements`].
pub fn placements_under(board: &Board, shape: Shape, rules: &Rules, out: &mut Vec<Placement>) {
    // The guideline's top, or its spawn free: the pieces start there (the hot path).
    if rules.top == TopOut::Guideline || Active::spawn(board, shape).is_some() {
        return placements(board, shape, rules.rotation, out);
    }
    if let Some(start) = rules.top.spawn(board, shape) {
        placements_from(board, start, rules.rotation, out);
    }
}

/// Every placement reachable from `start` (a piece of rotation state 0), by the flood.
fn placements_from(board: &Board, start: Active, system: RotationSystem, out: &mut Vec<Placement>) {
    let shape = start.shape;
    let reach = flood(board, start, system);
    let states = if shape == Shape::O { 1 } else { 4 };
    let mut resting = [[0u32; NX]; 4];
    for r in 0..states {
        for ix in 0..NX {
            let f = reach.fit[r][ix];
            let rest = reach.any[r][ix] & !(f >> 1);
            if shape == Shape::T {
                resting[r][ix] = rest;
            } else if rest != 0 {
                fold(shape, r, ix, rest, &mut resting);
            }
        }
    }
    push_placements(board, shape, &resting, Some(&reach), out);
}

/// Records resting positions `rest` of state `r` at box column `ix` under the first state
/// with the same cells.
#[inline(always)]
fn fold(shape: Shape, r: usize, ix: usize, rest: u32, resting: &mut [[u32; NX]; 4]) {
    let (c, (dx, dy)) = srs::canonical(shape, r as u8);
    let ix2 = (ix as i32 + dx as i32) as usize;
    resting[c as usize][ix2] |= shift_up(rest, dy);
}

/// The resting positions of a piece other than T on a board whose columns are all filled
/// solid from the floor and no taller than the spawn row, folded as in [`placements`];
/// `None` on any other board. There every box column fits at the spawn row, where the flood
/// reaches it by turning at spawn and shifting, and fits all the way down to one resting row
/// set by the heights (a column without overhangs never lets a piece in below its top), so
/// the flood's answer is known without it: 80-90 % of the boards a guideline beam expands,
/// where a T still needs the flood for its spin kinds.
fn resting_on_skyline(board: &Board, shape: Shape) -> Option<[[u32; NX]; 4]> {
    let (_, sy) = spawn_origin(shape);
    let mut h = [0i8; WIDTH];
    for (x, hx) in h.iter_mut().enumerate() {
        // filled solid from the floor
        if board.cols[x] != board.below_top(x) {
            return None;
        }
        *hx = board.height(x) as i8;
        if *hx > sy {
            return None;
        }
    }
    let states = if shape == Shape::O { 1 } else { 4 };
    let mut resting = [[0u32; NX]; 4];
    for r in 0..states {
        let cells = srs::cells(shape, r as u8);
        for ix in 0..NX {
            let x0 = ix as i32 - 2;
            let mut y = i8::MIN;
            let mut inside = true;
            for &(cx, cy) in &cells {
                let x = x0 + cx as i32;
                if !(0..WIDTH as i32).contains(&x) {
                    inside = false;
                    break;
                }
                // the box row where this cell sits on its column's top
                y = y.max(h[x as usize] - cy);
            }
            if inside {
                fold(shape, r, ix, bit_of(y), &mut resting);
            }
        }
    }
    Some(resting)
}

/// Appends the placements of the resting positions, in order of state, box column and row
/// from the top; a T's spin kinds come from how the flood `reach` reached each position.
fn push_placements(
    board: &Board,
    shape: Shape,
    resting: &[[u32; NX]; 4],
    reach: Option<&Reach>,
    out: &mut Vec<Placement>,
) {
    for (r, row) in resting.iter().enumerate() {
        for (ix, &bits) in row.iter().enumerate() {
            let mut b = bits;
            while b != 0 {
                let i = b.trailing_zeros();
                b &= b - 1;
                let at = Placement {
                    shape,
                    state: r as u8,
                    x: ix as i8 - 2,
                    y: 23 - i as i8,
                    spin: Spin::None,
                };
                let Some(reach) = reach.filter(|_| shape == Shape::T) else {
                    out.push(at);
                    continue;
                };
                let bit = 1u32 << i;
                let twisted = |twist| {
                    spin_of(
                        board,
                        &Active {
                            twist,
                            ..at.active()
                        },
                    )
                };
                let mut kinds = [false; 3];
                if reach.moved[r][ix] & bit != 0 {
                    kinds[Spin::None as usize] = true;
                }
                if reach.rotated[r][ix] & bit != 0 {
                    kinds[twisted(Twist::Rotated) as usize] = true;
                }
                if reach.fifth[r][ix] & bit != 0 {
                    kinds[twisted(Twist::RotatedFifth) as usize] = true;
                }
                for spin in [Spin::None, Spin::Mini, Spin::Full] {
                    if kinds[spin as usize] {
                        out.push(Placement { spin, ..at });
                    }
                }
            }
        }
    }
}

/// The ops a path may use, in the order the search tries them.
const OPS: [Op; 6] = [Op::Left, Op::Right, Op::Down, Op::Rotate, Op::Ccw, Op::Flip];

/// A breadth-first search over piece positions from spawn, by unit ops through
/// [`Active::apply`]; `visit` sees every position the first time it is reached, with the index
/// of its parent, and returns true to stop. Positions: (state, box x, box y, twist); the
/// twist is kept only for T pieces.
fn search(
    board: &Board,
    start: Active,
    system: RotationSystem,
    mut visit: impl FnMut(&Active, &[(Active, u32, Op)]) -> bool,
) -> Option<Vec<(Active, u32, Op)>> {
    let shape = start.shape;
    let key = |a: &Active| -> usize {
        let twist = if shape == Shape::T {
            a.twist as usize
        } else {
            0
        };
        (((a.state as usize * NX + ix_of(a.x)) * 27 + (23 - a.y) as usize) * 3) + twist
    };
    let mut seen = vec![false; 4 * NX * 27 * 3];
    let mut nodes: Vec<(Active, u32, Op)> = vec![(start, u32::MAX, Op::Hold)];
    seen[key(&start)] = true;
    let ops: &[Op] = if system.has_180() { &OPS } else { &OPS[..5] };
    let mut head = 0;
    while head < nodes.len() {
        let here = nodes[head].0;
        if visit(&here, &nodes) {
            nodes.truncate(head + 1);
            return Some(nodes);
        }
        for &op in ops {
            let mut next = here.apply(board, op, system);
            if shape != Shape::T {
                next.twist = Twist::None;
            }
            if next != here && !seen[key(&next)] {
                seen[key(&next)] = true;
                nodes.push((next, head as u32, op));
            }
        }
        head += 1;
    }
    None
}

/// The placement a piece at `piece` locks as: hard-dropped, its cells folded onto the first
/// state with them, and its spin kind.
pub fn lands_as(board: &Board, piece: &Active) -> Placement {
    let dropped = piece.hard_dropped(board);
    let spin = spin_of(board, &dropped);
    let (c, (dx, dy)) = if dropped.shape == Shape::T {
        (dropped.state, (0, 0))
    } else {
        srs::canonical(dropped.shape, dropped.state)
    };
    Placement {
        shape: dropped.shape,
        state: c,
        x: dropped.x + dx,
        y: dropped.y + dy,
        spin,
    }
}

/// A shortest op path from spawn to `target` (the piece then hard-drops and locks there with
/// the target's spin kind), or `None` when it cannot be reached.
pub fn path(board: &Board, target: &Placement, system: RotationSystem) -> Option<Vec<Op>> {
    path_from(board, Active::spawn(board, target.shape)?, target, system)
}

/// A shortest op path to `target` from where `rules` start its piece ([`TopOut::spawn`]).
pub fn path_under(board: &Board, target: &Placement, rules: &Rules) -> Option<Vec<Op>> {
    let start = rules.top.spawn(board, target.shape)?;
    path_from(board, start, target, rules.rotation)
}

fn path_from(
    board: &Board,
    start: Active,
    target: &Placement,
    system: RotationSystem,
) -> Option<Vec<Op>> {
    let nodes = search(board, start, system, |a, _| lands_as(board, a) == *target)?;
    let mut ops = Vec::new();
    let mut at = nodes.len() - 1;
    while nodes[at].1 != u32::MAX {
        ops.push(nodes[at].2);
        at = nodes[at].1 as usize;
    }
    ops.reverse();
    Some(ops)
}

/// Every placement of `shape` found by the breadth-first search alone, sorted: the
/// reference the flood is tested against.
pub fn placements_by_search(board: &Board, shape: Shape, system: RotationSystem) -> Vec<Placement> {
    let mut all = Vec::new();
    let Some(start) = Active::spawn(board, shape) else {
        return all;
    };
    search(board, start, system, |a, _| {
        all.push(lands_as(board, a));
        false
    });
    all.sort();
    all.dedup();
    all
}

pub mod surface;

#[cfg(test)]
mod tests;
