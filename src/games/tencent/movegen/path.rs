//! Shortest op paths by breadth-first search over piece positions.

use crate::games::tencent;
use crate::games::tencent::board::{Board, HEIGHT, WIDTH};
use crate::games::{Piece, Pos};
use crate::record::Op;

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
            let q = p.moved(op);
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
