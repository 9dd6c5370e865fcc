//! What a Tencent beam step spends per kept board, part by part, on boards a real search
//! kept: move generation alone, then with each child locked, then with the spawn check and
//! the feature counts, then with the rank and the push into a children buffer (each line
//! includes the ones before). It is how the hot path was taken apart
//! (results/bench/lock-table.md); the whole-process A/B of a change is
//! `scripts/pair_time.sh`'s.
//!
//! `cargo run --release --example step_costs`

use beamtris::eval::tencent::{fast_features, Evaluator, Move, Weights};
use beamtris::game_def::GameDef;
use beamtris::games::tencent::board::Board;
use beamtris::games::tencent::movegen::{placements, MoveSet};
use beamtris::games::tencent::{lock, spawn_blocked};
use beamtris::games::{Piece, Pos};
use beamtris::search::beam::Kept;
use beamtris::search::tencent::{search_observed, BeamConfig};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Passes over the boards per measurement.
const REPEATS: usize = 5;

/// A kept board: the index of the piece to place on it, the board, its score.
type Parent = (usize, Board, u32);

/// Nanoseconds per board of `work` over every board, `REPEATS` times.
fn per_board(boards: &[Parent], mut work: impl FnMut(&Parent)) -> f64 {
    let start = Instant::now();
    for _ in 0..REPEATS {
        for parent in boards {
            work(parent);
        }
    }
    start.elapsed().as_secs_f64() * 1e9 / (boards.len() * REPEATS) as f64
}

fn main() {
    let pieces = GameDef::tencent_geek_4().pieces();
    let cfg = BeamConfig {
        beam: 300,
        moves: MoveSet::Reach,
        evaluator: Evaluator::new(Weights::kept("tuned-b3000").unwrap()),
        start: Board::EMPTY,
    };
    // Every board kept at every 50th step of the first 3 000 pieces.
    let mut boards: Vec<Parent> = Vec::new();
    let mut observe = |k: usize, kept: &[Kept<Board>]| {
        if k % 50 == 7 {
            boards.extend(kept.iter().map(|c| (k + 1, c.state, c.score)));
        }
    };
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    one_thread.install(|| {
        search_observed(
            &pieces,
            Some(3000),
            &cfg,
            &AtomicBool::new(false),
            |_| {},
            Some(&mut observe),
        )
    });
    let evaluator = &cfg.evaluator;
    let mut moves: Vec<Pos> = Vec::new();
    let (mut children, mut clearing) = (0usize, 0usize);
    for &(k, board, _) in &boards {
        moves.clear();
        placements(&board, pieces[k], MoveSet::Reach, &mut moves);
        children += moves.len();
        clearing += moves
            .iter()
            .filter(|&&p| lock(&board, pieces[k].shape, p).lines > 0)
            .count();
    }
    println!(
        "{} boards, {:.1} children a board, {:.1} % of them clear a row",
        boards.len(),
        children as f64 / boards.len() as f64,
        100.0 * clearing as f64 / children as f64
    );
    let reach = per_board(&boards, |&(k, board, _)| {
        moves.clear();
        placements(&board, pieces[k], MoveSet::Reach, &mut moves);
        black_box(&moves);
    });
    let locked = per_board(&boards, |&(k, board, _)| {
        moves.clear();
        placements(&board, pieces[k], MoveSet::Reach, &mut moves);
        for &p in &moves {
            black_box(lock(&board, pieces[k].shape, p));
        }
    });
    let counted = per_board(&boards, |&(k, board, _)| {
        moves.clear();
        placements(&board, pieces[k], MoveSet::Reach, &mut moves);
        let next: Piece = pieces[k + 1];
        for &p in &moves {
            let child = lock(&board, pieces[k].shape, p);
            if !child.top_out && !spawn_blocked(&child.board, next) {
                black_box(fast_features(&child.board));
            }
        }
    });
    let mut buffer: Vec<(Board, f64, u32, Pos)> = Vec::with_capacity(64);
    let ranked = per_board(&boards, |&(k, board, score)| {
        moves.clear();
        buffer.clear();
        placements(&board, pieces[k], MoveSet::Reach, &mut moves);
        let next: Piece = pieces[k + 1];
        for &p in &moves {
            let child = lock(&board, pieces[k].shape, p);
            if !child.top_out && !spawn_blocked(&child.board, next) {
                let score = score + child.gain();
                let rank = evaluator.rank(&child.board, &Move::default(), score);
                buffer.push((child.board, rank, score, p));
            }
        }
        black_box(&buffer);
    });
    println!("ns a board: placements {reach:.0}, + lock {locked:.0}, + spawn and counts {counted:.0}, + rank and push {ranked:.0}");
}
