//! Micro-benchmarks of the hot paths, run by `beamtris bench`: replay of a full record,
//! placement generation on three boards, and beam-child evaluation. Figures go to results/
//! with the command that produced them; timed loops never live in tests.

use crate::eval::players::Weights;
use crate::eval::tencent::fast_features;
use crate::games::standard::{self, TopOut};
use crate::games::tencent::board::Board;
use crate::games::tencent::movegen::{self, MoveSet};
use crate::games::tencent::replay;
use crate::games::{tencent, Piece};
use crate::piece::Shape;
use crate::record::Record;
use crate::search::greedy;
use serde::Serialize;
use std::hint::black_box;
use std::time::Instant;

/// One measured figure.
#[derive(Serialize, Debug, Clone)]
pub struct Figure {
    pub name: String,
    /// Nanoseconds of thread CPU time per iteration (median of the repeats).
    pub ns_per_iter: f64,
    /// Items (placements, pieces) produced per iteration, where that means something.
    pub items_per_iter: f64,
    /// Items per second at the median.
    pub items_per_second: f64,
}

/// Times `f` (returning the items it produced) in thread CPU time and keeps the median of
/// `repeats` runs of `iters` calls each.
pub fn measure(name: &str, iters: u64, repeats: usize, mut f: impl FnMut() -> usize) -> Figure {
    let mut samples = Vec::with_capacity(repeats);
    let mut items = 0usize;
    let origin = Instant::now();
    let now =
        || crate::results::thread_cpu_ns().unwrap_or_else(|| origin.elapsed().as_nanos() as u64);
    for _ in 0..repeats {
        let start = now();
        items = 0;
        for _ in 0..iters {
            items += black_box(f());
        }
        samples.push((now() - start) as f64 / iters as f64);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let ns = samples[samples.len() / 2];
    let per_iter = items as f64 / iters as f64;
    Figure {
        name: name.to_string(),
        ns_per_iter: ns,
        items_per_iter: per_iter,
        items_per_second: if ns > 0.0 { per_iter * 1e9 / ns } else { 0.0 },
    }
}

/// Boards from a record's replay: empty, the board after half the pieces, and the tallest.
pub fn fixture_boards(record: &Record, pieces: &[Piece]) -> [(&'static str, Board); 3] {
    let mut mid = Board::EMPTY;
    let mut tall = Board::EMPTY;
    let half = record.pieces() / 2;
    replay::replay_with(record, pieces, |s| {
        if s.index == half {
            mid = s.lock.board;
        }
        if s.lock.board.top_row() < tall.top_row() || tall.is_empty() {
            tall = s.lock.board;
        }
    });
    [("empty", Board::EMPTY), ("mid-game", mid), ("tall", tall)]
}

/// All engine figures for `record` on `pieces`.
pub fn engine_figures(record: &Record, pieces: &[Piece], scale: u64) -> Vec<Figure> {
    let mut figures = Vec::new();
    figures.push(measure("replay full record", scale.max(1) * 20, 7, || {
        replay::replay(record, pieces).pieces
    }));
    let mut buf = Vec::with_capacity(64);
    for (name, board) in fixture_boards(record, pieces) {
        for moves in [MoveSet::Drop, MoveSet::Reach] {
            let label = format!(
                "placements {} on {name} board (all 7 shapes, per piece)",
                match moves {
                    MoveSet::Drop => "drop",
                    MoveSet::Reach => "reach",
                }
            );
            let mut f = measure(&label, scale * 20_000, 7, || {
                let mut n = 0;
                for shape in Shape::ALL {
                    buf.clear();
                    movegen::placements(&board, Piece { shape, state: 1 }, moves, &mut buf);
                    n += buf.len();
                }
                n
            });
            // per piece, not per 7 pieces
            f.ns_per_iter /= 7.0;
            f.items_per_iter /= 7.0;
            figures.push(f);
        }
        let mut placements = Vec::new();
        let piece = Piece {
            shape: Shape::T,
            state: 0,
        };
        movegen::drop_placements(&board, piece, &mut placements);
        figures.push(measure(
            &format!("lock + features per child on {name} board (T, drop)"),
            scale * 20_000,
            7,
            || {
                let mut acc = 0u32;
                for &p in &placements {
                    let l = tencent::lock(&board, Shape::T, p);
                    acc = acc.wrapping_add(fast_features(&l.board).holes);
                }
                black_box(acc);
                placements.len()
            },
        ));
    }
    for f in figures.iter_mut().filter(|f| f.name.contains("per child")) {
        f.ns_per_iter /= f.items_per_iter.max(1.0);
        f.items_per_iter = 1.0;
    }
    figures
}

/// (board, piece) pairs met by a greedy Dellacherie game on the standard rules (seed 1): the
/// boards a one-piece player decides on, with realistic stacks.
pub fn player_positions(n: usize) -> Vec<(Board, Shape)> {
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

/// Time per decision (every placement of one piece valued, the best landed) of the three
/// one-piece players, over 1024 positions of a Dellacherie game.
pub fn player_figures(scale: u64) -> Vec<Figure> {
    let positions = player_positions(1024);
    let mut figures = Vec::new();
    for (name, w) in [
        ("dellacherie", Weights::DELLACHERIE),
        ("eltetris", Weights::EL_TETRIS),
        ("bcts", Weights::BCTS),
    ] {
        let mut f = measure(
            &format!("{name} decision (standard rules, per decision)"),
            scale * 20,
            7,
            || {
                for &(board, shape) in &positions {
                    black_box(greedy::best_standard(
                        black_box(&board),
                        shape,
                        &w,
                        TopOut::Simplified,
                    ));
                }
                positions.len()
            },
        );
        f.ns_per_iter /= positions.len() as f64;
        f.items_per_iter = 1.0;
        figures.push(f);
    }
    figures
}

/// Guideline boards for the placement figures: empty, the board after half of `record`,
/// the record's tallest board, and a T-spin-ready board (a T-spin double slot under an
/// overhang, stack 7 rows high).
pub fn guideline_boards(
    record: &Record,
    game: &crate::games::guideline::replay::GuidelineGame,
) -> [(&'static str, crate::games::guideline::Board); 4] {
    use crate::games::guideline::{replay as gr, Board};
    let half = record.pieces() / 2;
    let mut mid = Board::EMPTY;
    let mut tall = Board::EMPTY;
    let top = |b: &Board| (0..10).map(|x| b.height(x)).max().unwrap_or(0);
    gr::replay_with(record, game, |e| {
        if e.lock == half {
            mid = e.after.board;
        }
        if top(&e.after.board) > top(&tall) {
            tall = e.after.board;
        }
    });
    let tspin = Board::from_rows(&[
        "........XX",
        "XX.....XXX",
        "XXX...XXXX",
        "XXXX.XXXXX",
        "XXX...XXXX",
        "XXXX.XXXXX",
        "X.XXXXXXXX",
    ])
    .expect("a valid board");
    [
        ("empty", Board::EMPTY),
        ("mid-game", mid),
        ("tallest", tall),
        ("T-spin-ready", tspin),
    ]
}

/// Guideline figures: replay of `record` on `game`, and SRS placements with spin kinds per
/// piece on four boards.
pub fn guideline_figures(
    record: &Record,
    game: &crate::games::guideline::replay::GuidelineGame,
    scale: u64,
) -> Vec<Figure> {
    use crate::games::guideline::{movegen, replay as gr};
    let mut figures = vec![measure(
        &format!("guideline replay of a {}-piece record", record.pieces()),
        scale.max(1) * 40,
        7,
        || gr::replay(record, game).pieces,
    )];
    let mut buf = Vec::with_capacity(128);
    for (name, board) in guideline_boards(record, game) {
        let mut f = measure(
            &format!(
                "guideline SRS placements on {name} board ({}, all 7 shapes, per piece)",
                game.rules.rotation.name()
            ),
            scale * 10_000,
            7,
            || {
                let mut n = 0;
                for shape in Shape::ALL {
                    buf.clear();
                    movegen::placements(&board, shape, game.rules.rotation, &mut buf);
                    n += buf.len();
                }
                n
            },
        );
        f.ns_per_iter /= 7.0;
        f.items_per_iter /= 7.0;
        figures.push(f);
    }
    figures
}

/// The cost of one beam step per kept state, both games side by side in one run: a search
/// of `steps` pieces at `beam` states, its thread CPU time divided by the states expanded.
pub fn beam_step_figures(
    game: &crate::games::guideline::replay::GuidelineGame,
    tencent: &[Piece],
    beam: usize,
    steps: usize,
) -> Vec<Figure> {
    use crate::eval::guideline::{GuidelineEvaluator, GuidelineWeights};
    use crate::eval::tencent::{Evaluator, Weights as BeamWeights};
    use crate::search::tencent::{self as tencent_beam, BeamConfig};
    use std::sync::atomic::AtomicBool;
    let stop = AtomicBool::new(false);
    let cfg = BeamConfig {
        start: crate::games::tencent::board::Board::EMPTY,
        beam,
        moves: MoveSet::Reach,
        evaluator: Evaluator::new(BeamWeights::kept("tuned").expect("a preset")),
    };
    let ev = GuidelineEvaluator::new(GuidelineWeights::preset("attack").expect("a preset"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    // The search runs on the pool's worker, so this figure is wall time (the median of 5),
    // with both games measured in turn in the same run.
    let time = |name: String, run: &mut (dyn FnMut() -> usize + Send)| {
        let mut samples = Vec::new();
        let mut kept = 0;
        for _ in 0..5 {
            let start = Instant::now();
            kept = pool.install(&mut *run);
            samples.push(start.elapsed().as_nanos() as f64 / kept.max(1) as f64);
        }
        samples.sort_by(|a, b| a.total_cmp(b));
        Figure {
            name,
            ns_per_iter: samples[2],
            items_per_iter: kept as f64,
            items_per_second: 1e9 / samples[2],
        }
    };
    let t = time(
        format!("tencent beam step per kept board (reach, beam {beam}, 1 thread, wall)"),
        &mut || {
            let mut kept = 0;
            tencent_beam::search(tencent, Some(steps), &cfg, &stop, |r| kept += r.kept);
            kept
        },
    );
    let g = time(
        format!("guideline beam step per kept state (hold, beam {beam}, 1 thread, wall)"),
        &mut || {
            let mut kept = 0;
            crate::search::guideline::search(game, steps, beam, &ev, None, &stop, |r| {
                kept += r.kept
            });
            kept
        },
    );
    let mut out = vec![t, g];
    let ratio = out[1].ns_per_iter / out[0].ns_per_iter;
    out.push(Figure {
        name: "guideline / tencent beam step per kept state (ratio)".into(),
        ns_per_iter: ratio,
        items_per_iter: 1.0,
        items_per_second: 0.0,
    });
    out
}
