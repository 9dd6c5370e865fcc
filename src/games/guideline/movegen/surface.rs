//! Placements under 20G: the piece falls to the stack the moment it appears and after every
//! move, so it only slides along the surface. A position is a resting one; from it a shift
//! or a turn (with its kicks) is followed at once by the fall to the next resting position.
//! A turn that ends resting keeps its twist (a T-spin); a turn followed by a fall loses it.
//!
//! This is the move generator of a game at 20G (TETR.IO's BLITZ from level 14 on), and the
//! one a BLITZ solve uses from one row a frame on (`games::tetrio::blitz::SURFACE_GRAVITY`):
//! the flood of [`super::placements`] assumes the piece can be moved anywhere above the
//! stack, which gravity that strong does not allow. The search is a breadth-first search over the
//! few dozen resting positions, small enough to run for every piece.

use super::super::board::Board;
use super::super::piece::{Active, Twist};
use super::{lands_as, Placement};
use crate::games::srs::RotationSystem;
use crate::piece::Shape;
use crate::record::Op;

/// The moves tried from each resting position, in this order.
const MOVES: [Op; 5] = [Op::Left, Op::Right, Op::Rotate, Op::Ccw, Op::Flip];

/// `piece` after falling as far as it goes, and the rows it fell.
fn fall(board: &Board, piece: Active) -> (Active, i8) {
    let d = piece.drop_distance(board);
    (piece.hard_dropped(board), d)
}

/// One resting position found, the index of the one it came from and the move between.
type Node = (Active, u32, Op);

/// The breadth-first search over resting positions from the spawn; `visit` sees each the
/// first time it is reached and returns true to stop. `None` when the piece cannot spawn.
fn search(
    board: &Board,
    shape: Shape,
    system: RotationSystem,
    mut visit: impl FnMut(&Active) -> bool,
) -> Option<Vec<Node>> {
    let start = fall(board, Active::spawn(board, shape)?).0;
    let moves: &[Op] = if system.has_180() {
        &MOVES
    } else {
        &MOVES[..4]
    };
    let mut nodes: Vec<Node> = vec![(start, u32::MAX, Op::Hold)];
    let mut head = 0;
    while head < nodes.len() {
        let here = nodes[head].0;
        if visit(&here) {
            nodes.truncate(head + 1);
            return Some(nodes);
        }
        for &op in moves {
            let moved = here.apply(board, op, system);
            if moved == here {
                continue;
            }
            let (mut next, _) = fall(board, moved);
            if shape != Shape::T {
                next.twist = Twist::None;
            }
            if !nodes.iter().any(|n| n.0 == next) {
                nodes.push((next, head as u32, op));
            }
        }
        head += 1;
    }
    None
}

/// Every placement of `shape` on `board` under 20G (none when it cannot spawn), sorted, each
/// once, appended to `out`.
pub fn placements(board: &Board, shape: Shape, system: RotationSystem, out: &mut Vec<Placement>) {
    let from = out.len();
    search(board, shape, system, |a| {
        out.push(lands_as(board, a));
        false
    });
    out[from..].sort_unstable();
    let mut kept = from;
    for i in from..out.len() {
        if kept == from || out[i] != out[kept - 1] {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// A shortest path under 20G from the spawn to `target` as record ops: the rows down to the
/// stack first, then each move followed by the rows it falls. `None` when 20G cannot reach
/// it.
pub fn path(board: &Board, target: &Placement, system: RotationSystem) -> Option<Vec<Op>> {
    let nodes = search(board, target.shape, system, |a| {
        lands_as(board, a) == *target
    })?;
    let mut chain = Vec::new();
    let mut at = nodes.len() - 1;
    while nodes[at].1 != u32::MAX {
        chain.push(at);
        at = nodes[at].1 as usize;
    }
    chain.reverse();
    let spawn = Active::spawn(board, target.shape)?;
    let mut ops = vec![Op::Down; fall(board, spawn).1 as usize];
    let mut here = nodes[0].0;
    for i in chain {
        let op = nodes[i].2;
        let moved = here.apply(board, op, system);
        ops.push(op);
        let (next, rows) = fall(board, moved);
        ops.extend(std::iter::repeat_n(Op::Down, rows as usize));
        here = next;
    }
    Some(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::guideline::score::Spin;

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    #[test]
    fn on_an_empty_board_every_column_is_reached() {
        let mut free = Vec::new();
        let mut flat = Vec::new();
        for shape in [Shape::I, Shape::O, Shape::T, Shape::L] {
            free.clear();
            flat.clear();
            super::super::placements(&Board::EMPTY, shape, RotationSystem::SrsPlus, &mut free);
            placements(&Board::EMPTY, shape, RotationSystem::SrsPlus, &mut flat);
            free.sort_unstable();
            assert_eq!(flat, free, "{shape:?}");
        }
    }

    #[test]
    fn a_wall_of_the_stack_cannot_be_crossed() {
        // A wall 10 rows high in column 3: an O appears over columns 4 and 5, falls to the
        // floor there at once and cannot climb the wall, so columns 0 to 2 are out of reach.
        let b = board(&["...#......"; 10]);
        let mut out = Vec::new();
        placements(&b, Shape::O, RotationSystem::SrsPlus, &mut out);
        let left: Vec<i8> = out
            .iter()
            .map(|p| p.cells().iter().map(|c| c.0).min().unwrap())
            .collect();
        assert_eq!(left, [4, 5, 6, 7, 8]);
        // Without 20G the O passes over the wall: columns 0 to 2 and the wall's top too.
        let mut free = Vec::new();
        super::super::placements(&b, Shape::O, RotationSystem::SrsPlus, &mut free);
        assert_eq!(free.len(), 9);
    }

    #[test]
    fn a_path_slides_along_the_surface_and_replays_to_its_placement() {
        let b = board(&["....##....", "#...##...#"]);
        let mut out = Vec::new();
        placements(&b, Shape::T, RotationSystem::SrsPlus, &mut out);
        for p in &out {
            let ops = path(&b, p, RotationSystem::SrsPlus).expect("reached");
            let mut a = Active::spawn(&b, p.shape).unwrap();
            for op in &ops {
                a = a.apply(&b, *op, RotationSystem::SrsPlus);
            }
            assert_eq!(lands_as(&b, &a), *p);
            assert_eq!(a.drop_distance(&b), 0, "the path ends on the stack");
        }
        assert!(out
            .iter()
            .all(|p| p.spin == Spin::None || p.shape == Shape::T));
    }
}
