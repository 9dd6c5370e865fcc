//! TETR.IO's finesse: the fewest key presses that bring a piece from its spawn to where it
//! locked, in the air on an empty board (a tap moves one column, a press held for DAS moves
//! to the wall, a turn left or right rotates it; 180s are not in the table, and a 180 press
//! counts as two turns), compared with the presses the player made.

use super::pieces::{BOX, SHAPES};
use std::collections::{HashMap, VecDeque};

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

/// The fewest presses from the spawn (rotation 0, TETR.IO's spawn column) to the cells of
/// `piece` in `rotation` at box column `x`; `None` when no sequence reaches them (a piece
/// kicked where the air cannot take it).
pub fn optimal(piece: u8, rotation: u8, x: i32, width: usize) -> Option<u32> {
    let w = width as i32;
    let target = footprint(piece, rotation, x);
    let spawn = (w as f64 / 2. - BOX[piece as usize] as f64 / 2.).floor() as i32;
    let mut seen: HashMap<(i32, u8), u32> = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert((spawn, 0), 0);
    queue.push_back((spawn, 0u8));
    while let Some((cx, r)) = queue.pop_front() {
        let d = seen[&(cx, r)];
        if footprint(piece, r, cx) == target {
            return Some(d);
        }
        let mut next = vec![(cx - 1, r), (cx + 1, r)];
        let mut left = cx;
        while fits(piece, r, left - 1, w) {
            left -= 1;
        }
        let mut right = cx;
        while fits(piece, r, right + 1, w) {
            right += 1;
        }
        next.push((left, r));
        next.push((right, r));
        next.push((cx, (r + 1) % 4));
        next.push((cx, (r + 3) % 4));
        for (nx, nr) in next {
            if fits(piece, nr, nx, w) && !seen.contains_key(&(nx, nr)) {
                seen.insert((nx, nr), d + 1);
                queue.push_back((nx, nr));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::optimal;
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
}
