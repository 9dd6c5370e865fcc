//! Move generation against independent searches and replays.

use super::drop::{shift_range, step_down};
use super::*;
use crate::games::tencent;
use crate::games::tencent::board::{FULL_ROW, HEIGHT, WIDTH};
use crate::piece::Shape;
use rand::{Rng, SeedableRng};

fn apply(board: &Board, shape: Shape, start: Pos, ops: &[Op]) -> Pos {
    let mut p = start;
    for op in ops {
        let q = p.moved(*op);
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
fn drop_equals_an_independent_search_on_low_and_tall_boards() {
    // Boards whose stack reaches rows 1-2 take the general path, the others the low-stack
    // path (column tops in byte lanes); compare both with brute force.
    let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
    for k in 0..1000 {
        let mut rows = random_board(&mut rng).rows();
        if k % 2 == 0 {
            for row in rows.iter_mut().take(3).skip(1) {
                *row = rng.gen::<u16>() & rng.gen::<u16>() & FULL_ROW & !(1 << 4);
            }
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
            && ops.iter().position(|&o| o == Op::Left) > ops.iter().position(|&o| o == Op::Down)
    );
}
