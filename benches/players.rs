//! Decision speed of the greedy one-piece players: one decision = every placement of one
//! piece evaluated and the best one chosen. Positions are taken from a real Dellacherie game
//! (standard rules, seed 1), so the boards have realistic stacks.
//!
//! `cargo bench --bench players`

use beamtris::board::Board;
use beamtris::eval::{features, Weights};
use beamtris::piece::Shape;
use beamtris::rules::standard::{self, TopOut};
use beamtris::search::greedy;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

/// (board, piece) pairs met by a Dellacherie game.
fn positions(n: usize) -> Vec<(Board, Shape)> {
    let mut board = Board::EMPTY;
    let mut out = Vec::with_capacity(n);
    for shape in standard::Pieces::new(1).take(n) {
        out.push((board, shape));
        match greedy::best_standard(&board, shape, &Weights::DELLACHERIE, TopOut::Simplified) {
            Some((_, l)) => board = l.board,
            None => board = Board::EMPTY,
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let pos = positions(1024);
    for (name, w) in [
        ("dellacherie", Weights::DELLACHERIE),
        ("eltetris", Weights::EL_TETRIS),
        ("bcts", Weights::BCTS),
    ] {
        c.bench_function(&format!("decision/{name}"), |b| {
            let mut i = 0;
            b.iter(|| {
                let (board, shape) = pos[i & 1023];
                i += 1;
                black_box(greedy::best_standard(
                    black_box(&board),
                    shape,
                    &w,
                    TopOut::Simplified,
                ))
            })
        });
    }
    c.bench_function("features/all_of_board", |b| {
        let mut i = 0;
        b.iter(|| {
            let (board, _) = pos[i & 1023];
            i += 1;
            black_box(features::Features::of_board(black_box(&board)))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
