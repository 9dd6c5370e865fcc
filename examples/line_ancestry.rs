//! Where the best line stood in the beam: runs the default solve at a given width and prints,
//! for every piece, the rank (0 = best) of the best line's board among the boards kept then,
//! the piece, and the board's cells. It shows whether the width or the ranking decides:
//! a line that often sits near the cutoff needs width; one that sits near the top needs a
//! better ranking (results/learning/README.md).
//!
//! `cargo run --release --example line_ancestry -- 3000 > ancestry.txt`

use beamtris::eval::tencent::{Evaluator, Weights};
use beamtris::game_def::GameDef;
use beamtris::games::tencent::board::Board;
use beamtris::games::tencent::movegen::MoveSet;
use beamtris::search::beam::Kept;
use beamtris::search::tencent::{search_observed, BeamConfig};
use std::sync::atomic::AtomicBool;

fn main() {
    let beam: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .expect("usage: line_ancestry BEAM");
    let pieces = GameDef::tencent_geek_4().pieces();
    let cfg = BeamConfig {
        beam,
        moves: MoveSet::Reach,
        evaluator: Evaluator::new(Weights::kept("tuned-b3000").unwrap()),
        start: Board::EMPTY,
    };
    let mut parents: Vec<Vec<u32>> = Vec::new();
    let mut last_scores: Vec<u32> = Vec::new();
    let mut cells: Vec<Vec<u8>> = Vec::new();
    // Per step: each kept board's parent index and cells; the scores of the last step.
    let mut observe = |_k: usize, kept: &[Kept<Board>]| {
        parents.push(kept.iter().map(|c| c.parent).collect());
        cells.push(kept.iter().map(|c| c.state.cells() as u8).collect());
        last_scores = kept.iter().map(|c| c.score).collect();
    };
    let r = search_observed(
        &pieces,
        None,
        &cfg,
        &AtomicBool::new(false),
        |_| {},
        Some(&mut observe),
    );
    eprintln!("score {}", r.score);
    // The best-scoring board of the last step, traced back through its parents.
    let mut idx = (0..last_scores.len())
        .max_by_key(|&i| last_scores[i])
        .expect("the beam kept a board") as u32;
    let n = parents.len();
    let mut out = vec![0u32; n];
    for k in (0..n).rev() {
        out[k] = idx;
        idx = parents[k][idx as usize];
    }
    for k in 0..n {
        println!(
            "{} {} {:?} {}",
            k, out[k], pieces[k].shape, cells[k][out[k] as usize]
        );
    }
}
