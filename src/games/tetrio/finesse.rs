//! TETR.IO's finesse: the fewest key presses that bring a piece from its spawn to where it
//! locked, in the air on an empty board (a tap moves one column, a press held for DAS moves
//! to the wall, a turn left or right rotates it; 180s are not in the table, and a 180 press
//! counts as two turns), compared with the presses the player made.

use super::pieces::{BOX, SHAPES};
use std::collections::{HashMap, VecDeque};

/// The spawn column of `piece` on a board `width` wide (TETR.IO's).
pub fn spawn_x(piece: u8, width: usize) -> i32 {
    (width as f64 / 2. - BOX[piece as usize] as f64 / 2.).floor() as i32
}

/// The cells of `piece` in `rotation` with its box at column `x`, as (column, row) with the
/// rows counted from the piece's top cell, sorted: two states that fill the same cells on
/// the stack (an S turned twice, an O turned) compare equal.
fn footprint(piece: u8, rotation: u8, x: i32) -> [(i32, i32); 4] {
    let s = SHAPES[piece as usize][rotation as usize];
    let top = s.iter().map(|c| c.1).min().unwrap_or(0);
    let mut cells = s.map(|(bx, by)| (x + bx, by - top));
    cells.sort_unstable();
    cells
}

fn fits(piece: u8, rotation: u8, x: i32, width: i32) -> bool {
    SHAPES[piece as usize][rotation as usize]
        .iter()
        .all(|&(bx, _)| (0..width).contains(&(x + bx)))
}

/// The columns a press held for DAS takes `piece` in `rotation` to from column `x`: the
/// leftmost and the rightmost where it still fits the board.
fn walls(piece: u8, rotation: u8, x: i32, width: i32) -> (i32, i32) {
    let mut left = x;
    while fits(piece, rotation, left - 1, width) {
        left -= 1;
    }
    let mut right = x;
    while fits(piece, rotation, right + 1, width) {
        right += 1;
    }
    (left, right)
}

/// The fewest presses from the spawn (rotation 0, TETR.IO's spawn column) to the cells of
/// `piece` in `rotation` at box column `x`; `None` when no sequence reaches them (a piece
/// kicked where the air cannot take it).
pub fn optimal(piece: u8, rotation: u8, x: i32, width: usize) -> Option<u32> {
    let w = width as i32;
    let target = footprint(piece, rotation, x);
    let spawn = spawn_x(piece, width);
    let mut seen: HashMap<(i32, u8), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert((spawn, 0), 0);
    queue.push_back((spawn, 0u8));
    while let Some((cx, r)) = queue.pop_front() {
        let d = seen[&(cx, r)];
        if footprint(piece, r, cx) == target {
            return Some(d);
        }
        let (left, right) = walls(piece, r, cx, w);
        let next = [
            (cx - 1, r),
            (cx + 1, r),
            (left, r),
            (right, r),
            (cx, (r + 1) % 4),
            (cx, (r + 3) % 4),
        ];
        for (nx, nr) in next {
            if fits(piece, nr, nx, w) && !seen.contains_key(&(nx, nr)) {
                seen.insert((nx, nr), d + 1);
                queue.push_back((nx, nr));
            }
        }
    }
    None
}

/// [`optimal`] for a placement given by its cells, (column, row) with rows up: the state and
/// column of TETR.IO's `piece` that fill them, judged as TETR.IO judges it.
pub fn optimal_cells(piece: u8, cells: [(i32, i32); 4], width: usize) -> Option<u32> {
    let top = cells.iter().map(|c| c.1).max()?;
    let mut want = cells.map(|(x, y)| (x, top - y));
    want.sort_unstable();
    let left = want[0].0;
    (0..4u8)
        .flat_map(|r| (left - 3..=left).map(move |x| (r, x)))
        .find(|&(r, x)| footprint(piece, r, x) == want)
        .and_then(|(r, x)| optimal(piece, r, x, width))
}

/// One press of a fault-free way to a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A tap: one column left or right.
    Left,
    Right,
    /// A press held for DAS, then ARR: this many columns (to the wall, unless the
    /// handling's ARR lets a release stop it part way).
    DasLeft(u32),
    DasRight(u32),
    Cw,
    Ccw,
    /// A 180 turn: one press, two turns for finesse.
    Half,
}

/// The presses that bring `piece` from its spawn to the cells of `piece` in `rotation` at
/// box column `x` with no finesse fault (as many finesse presses as [`optimal`], a 180
/// counting two) and, among those, the fewest presses (a 180 where two turns would do, when
/// `allow180`). Several states may fill the same cells (an S turned twice, a vertical I by
/// either turn): the one asked for is kept when it costs no more. Returns the steps and the
/// state `(rotation, x)` they end in. With `stops` (an ARR slow enough to release the key on
/// a column), a held key may also stop part way: one press for any shift of two columns or
/// more, fewer presses than the table's (not a fault).
pub fn fewest(
    piece: u8,
    rotation: u8,
    x: i32,
    width: usize,
    allow180: bool,
    stops: bool,
) -> Option<(Vec<Step>, (u8, i32))> {
    let w = width as i32;
    let target = footprint(piece, rotation, x);
    let spawn = (spawn_x(piece, width), 0u8);
    // (finesse presses, presses) and the step that reached each state, relaxed until
    // stable: a few dozen states, deterministic.
    type Cost = (u32, u32);
    type At = (i32, u8);
    let mut best: HashMap<At, (Cost, Option<(At, Step)>)> = HashMap::new();
    best.insert(spawn, ((0, 0), None));
    let mut queue = VecDeque::from([spawn]);
    while let Some((cx, r)) = queue.pop_front() {
        let (cost, _) = best[&(cx, r)];
        let (left, right) = walls(piece, r, cx, w);
        let mut next = vec![((cx - 1, r), Step::Left, 1), ((cx + 1, r), Step::Right, 1)];
        let near = if stops { 2 } else { cx - left };
        for to in (left..=cx - near).rev() {
            next.push(((to, r), Step::DasLeft((cx - to) as u32), 1));
        }
        let near = if stops { 2 } else { right - cx };
        for to in cx + near..=right {
            next.push(((to, r), Step::DasRight((to - cx) as u32), 1));
        }
        next.push(((cx, (r + 1) % 4), Step::Cw, 1));
        next.push(((cx, (r + 3) % 4), Step::Ccw, 1));
        if allow180 {
            next.push(((cx, (r + 2) % 4), Step::Half, 2));
        }
        for (state, step, keys) in next {
            if !fits(piece, state.1, state.0, w) {
                continue;
            }
            let c = (cost.0 + keys, cost.1 + 1);
            if best.get(&state).is_none_or(|(old, _)| c < *old) {
                best.insert(state, (c, Some(((cx, r), step))));
                queue.push_back(state);
            }
        }
    }
    // The cheapest state with the cells; ties: the one asked for, then by state and column.
    let end = best
        .iter()
        .filter(|(&(sx, sr), _)| footprint(piece, sr, sx) == target)
        .map(|(&(sx, sr), (c, _))| (*c, (sr, sx) != (rotation, x), sr, sx))
        .min()
        .map(|(_, _, sr, sx)| (sx, sr))?;
    let mut steps = Vec::new();
    let mut at = end;
    while let Some((from, step)) = best[&at].1 {
        steps.push(step);
        at = from;
    }
    steps.reverse();
    Some((steps, (end.1, end.0)))
}

/// The cells of `piece` in `rotation` with its box at column `x` and its top at row `y`
/// (rows up), sorted: two locks that fill the same cells compare equal.
pub fn cells(piece: u8, rotation: u8, x: i32, y: i32) -> [(i32, i32); 4] {
    let mut c = SHAPES[piece as usize][rotation as usize].map(|(bx, by)| (x + bx, y - by));
    c.sort_unstable();
    c
}

#[cfg(test)]
mod tests {
    use super::{fewest, optimal, Step};
    use crate::games::tetrio::pieces::{I, O, T};

    #[test]
    fn the_fewest_presses_are_the_guideline_finesse() {
        // At the spawn: nothing; a tap; a press to the wall and a tap back.
        assert_eq!(optimal(T, 0, 3, 10), Some(0));
        assert_eq!(optimal(T, 0, 4, 10), Some(1));
        assert_eq!(optimal(T, 0, 6, 10), Some(2));
        // Upside down: two turns (no 180s in the table), at the wall one more press.
        assert_eq!(optimal(T, 2, 3, 10), Some(2));
        assert_eq!(optimal(T, 2, 0, 10), Some(3));
        // An O turned is the same O; a vertical I reaches column 4 by one turn left.
        assert_eq!(optimal(O, 2, 4, 10), Some(0));
        assert_eq!(optimal(I, 1, 2, 10), Some(1));
    }

    /// The finesse presses of `steps` (a 180 counts two).
    fn judged(steps: &[Step]) -> u32 {
        steps.iter().map(|s| 1 + u32::from(*s == Step::Half)).sum()
    }

    #[test]
    fn the_fewest_steps_are_fault_free_and_use_a_180_where_it_saves_a_press() {
        // Three columns right of the T's spawn: DAS to the wall and a tap back, not 3 taps.
        let (steps, end) = fewest(T, 0, 6, 10, true, false).unwrap();
        assert_eq!(steps, [Step::DasRight(4), Step::Left]);
        assert_eq!(end, (0, 6));
        // With an ARR that lets the key go on a column: one press.
        let (steps, _) = fewest(T, 0, 6, 10, true, true).unwrap();
        assert_eq!(steps, [Step::DasRight(3)]);
        // Upside down: one 180 press (two turns for finesse), the optimum.
        let (steps, _) = fewest(T, 2, 3, 10, true, false).unwrap();
        assert_eq!(steps, [Step::Half]);
        assert_eq!(judged(&steps), optimal(T, 2, 3, 10).unwrap());
        let (steps, _) = fewest(T, 2, 3, 10, false, false).unwrap();
        assert_eq!(steps, [Step::Cw, Step::Cw]);
        // A vertical I asked for clockwise at box column 2 (its cells in column 4): one turn
        // left reaches the same cells, in state 3 at column 3.
        let (steps, end) = fewest(I, 1, 2, 10, true, false).unwrap();
        assert_eq!(steps, [Step::Ccw]);
        assert_eq!(end, (3, 3));
        // Every placement of every piece: as many finesse presses as the table.
        for piece in 0..7u8 {
            for r in 0..4u8 {
                for x in -3..10 {
                    if let Some(best) = optimal(piece, r, x, 10) {
                        let (steps, _) = fewest(piece, r, x, 10, true, false).unwrap();
                        assert_eq!(judged(&steps), best, "piece {piece} {r} {x}");
                        // A key released part way: never more presses than the table's.
                        let (steps, _) = fewest(piece, r, x, 10, true, true).unwrap();
                        assert!(judged(&steps) <= best, "piece {piece} {r} {x}");
                    }
                }
            }
        }
    }
}
