//! Decision speed of the greedy one-piece players: one decision = every placement of one
//! piece evaluated and the best one chosen. Positions are taken from a real Dellacherie game
//! (standard rules, seed 1), so the boards have realistic stacks.
//!
//! `cargo bench --bench players`

use beamtris::eval::players::Weights;
use beamtris::games::standard::TopOut;
use beamtris::games::tencent::features;
use beamtris::search::greedy;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let pos = beamtris::bench::player_positions(1024);
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
