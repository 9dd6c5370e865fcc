//! One-piece players: each piece goes where the weighted features of the resulting board are
//! best (Dellacherie, El-Tetris, BCTS weights from [`crate::eval::weights`]).
//!
//! Ties break by a fixed order, the first placement met wins: on the `standard` rules, state
//! ascending then centre column ascending (so: fewest rotations, then leftmost); on the
//! `tencent` rules, fewest clockwise rotations at spawn, then leftmost column.

use crate::board::{Board, WIDTH};
use crate::eval::features::{self, Features};
use crate::eval::Weights;
use crate::piece::Shape;
use crate::record::{Op, Record};
use crate::rules::standard::{self, Drop, Landing, TopOut};
use crate::rules::tencent;
use crate::rules::{Piece, Pos};

/// The value of a landing: the weighted features of the placement and of the board after it.
#[inline(always)]
pub fn landing_value(w: &Weights, l: &Landing) -> f64 {
    let b = &l.board;
    let mut v = w.landing_height * features::landing_height_of_rows(l.top as i32, l.bottom as i32)
        + w.row_transitions * features::row_transitions(b) as f64
        + w.column_transitions * features::column_transitions(b) as f64
        + w.holes * features::holes(b) as f64
        + w.wells * features::wells(b) as f64;
    if l.lines > 0 {
        let (eroded, lines) = features::eroded_cells_of(&l.locked, &l.piece);
        v += w.eroded_cells * eroded as f64 + w.rows_cleared * lines as f64;
    }
    // Features some sets leave out: skip their work.
    if w.cells != 0.0 {
        v += w.cells * b.cells() as f64;
    }
    if w.hole_depth != 0.0 {
        v += w.hole_depth * features::hole_depth(b) as f64;
    }
    if w.rows_with_holes != 0.0 {
        v += w.rows_with_holes * features::rows_with_holes(b) as f64;
    }
    v
}

/// The best placement of `shape` on `board` under the standard rules, with its landing;
/// `None` when every placement loses.
///
/// The features count bits; a build for baseline x86-64 has no popcount instruction, so on a
/// CPU that has one this runs a copy of the search compiled with it (about twice as fast).
#[inline]
pub fn best_standard(
    board: &Board,
    shape: Shape,
    w: &Weights,
    top_out: TopOut,
) -> Option<(Drop, Landing)> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports popcnt, the only feature the function enables.
            return unsafe { best_standard_popcnt(board, shape, w, top_out) };
        }
    }
    best_standard_generic(board, shape, w, top_out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn best_standard_popcnt(
    board: &Board,
    shape: Shape,
    w: &Weights,
    top_out: TopOut,
) -> Option<(Drop, Landing)> {
    best_standard_generic(board, shape, w, top_out)
}

#[inline(always)]
fn best_standard_generic(
    board: &Board,
    shape: Shape,
    w: &Weights,
    top_out: TopOut,
) -> Option<(Drop, Landing)> {
    let tops = board.column_tops();
    // Keep only the value and the placement; the winner's landing is recomputed at the end
    // (cheaper than copying a landing at every improvement).
    let mut best: Option<(f64, Drop)> = None;
    for drop in standard::drops(shape) {
        let Some(l) = standard::land(board, &tops, shape, drop, top_out) else {
            continue;
        };
        let v = landing_value(w, &l);
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, drop));
        }
    }
    let (_, drop) = best?;
    standard::land(board, &tops, shape, drop, top_out).map(|l| (drop, l))
}

/// One standard game's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    pub lines: u64,
    /// Pieces placed (decisions made).
    pub pieces: u64,
    /// The game stopped at the line or piece cap, not by losing.
    pub capped: bool,
}

/// Plays one standard game with seed `seed` until it is lost, `max_lines` lines are cleared
/// or `max_pieces` pieces are placed.
pub fn play_standard(
    w: &Weights,
    seed: u64,
    top_out: TopOut,
    max_lines: u64,
    max_pieces: u64,
) -> GameOutcome {
    let mut board = Board::EMPTY;
    let mut lines = 0u64;
    let mut pieces = 0u64;
    for shape in standard::Pieces::new(seed) {
        if lines >= max_lines || pieces >= max_pieces {
            return GameOutcome {
                lines,
                pieces,
                capped: true,
            };
        }
        let Some((_, l)) = best_standard(&board, shape, w, top_out) else {
            break;
        };
        board = l.board;
        lines += l.lines as u64;
        pieces += 1;
    }
    GameOutcome {
        lines,
        pieces,
        capped: false,
    }
}

/// A drop placement of the tencent game and the unit ops that reach it from spawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TencentDrop {
    pub pos: Pos,
    /// Rotations at spawn, then shifts, then the drop.
    pub path: Vec<Op>,
}

/// The tencent placements reachable by rotating at spawn, shifting, then dropping straight
/// down, every step valid; each distinct cell set once, in the tie order (fewest rotations,
/// then leftmost).
pub fn tencent_drops(board: &Board, piece: Piece) -> Vec<TencentDrop> {
    let shape = piece.shape;
    let spawn = tencent::spawn_pos(piece);
    let mut out = Vec::new();
    if !tencent::fits(board, shape, spawn) {
        return out;
    }
    let mut at = spawn;
    for r in 0..shape.orientations() {
        if r > 0 {
            at.state = (at.state + 1) & 3;
            if !tencent::fits(board, shape, at) {
                break; // a blocked rotation blocks the ones after it too
            }
        }
        let mut left = at.x;
        while tencent::fits(board, shape, Pos { x: left - 1, ..at }) {
            left -= 1;
        }
        let mut right = at.x;
        while tencent::fits(board, shape, Pos { x: right + 1, ..at }) {
            right += 1;
        }
        for x in left..=right {
            let mut pos = Pos { x, ..at };
            while tencent::fits(
                board,
                shape,
                Pos {
                    y: pos.y + 1,
                    ..pos
                },
            ) {
                pos.y += 1;
            }
            let mut path = vec![Op::Rotate; r as usize];
            let shift = if x < at.x { Op::Left } else { Op::Right };
            path.extend(std::iter::repeat_n(
                shift,
                (x - at.x).unsigned_abs() as usize,
            ));
            path.extend(std::iter::repeat_n(Op::Down, (pos.y - at.y) as usize));
            out.push(TencentDrop { pos, path });
        }
    }
    out
}

/// A greedy game on the tencent rules.
#[derive(Clone, Debug)]
pub struct TencentGame {
    pub record: Record,
    pub score: u64,
    pub lines: u64,
    /// Pieces placed.
    pub pieces: usize,
}

/// Plays `pieces` (the whole sequence; its length is the piece limit) on the tencent rules,
/// each piece greedily among [`tencent_drops`] that keep row 0 empty. The game stops when no
/// such placement exists (or the next spawn is blocked); the record then simply ends.
pub fn play_tencent(w: &Weights, pieces: &[Piece]) -> TencentGame {
    let mut board = Board::EMPTY;
    let mut score = 0u64;
    let mut lines = 0u64;
    let mut paths: Vec<Vec<Op>> = Vec::new();
    for (k, &piece) in pieces.iter().enumerate() {
        let mut best: Option<(f64, TencentDrop, tencent::Lock)> = None;
        for d in tencent_drops(&board, piece) {
            let lock = tencent::lock(&board, piece.shape, d.pos);
            if lock.top_out || d.path.is_empty() {
                continue;
            }
            let (f, _) = Features::of_placement(&board, piece.shape, d.pos);
            let v = w.value(&f);
            if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((v, d, lock));
            }
        }
        let Some((_, d, lock)) = best else {
            break;
        };
        paths.push(d.path);
        if k + 1 == pieces.len() {
            break; // the limit-th piece never scores and ends the game
        }
        score += lock.gain() as u64;
        lines += lock.lines as u64;
        board = lock.board;
    }
    let record = Record::from_paths(paths.iter().map(|p| p.as_slice()));
    TencentGame {
        pieces: paths.len(),
        record,
        score,
        lines,
    }
}

/// Leftmost column of the cells of `shape` in `state` with its centre at column `x`.
pub fn leftmost_column(shape: Shape, state: u8, x: i8) -> i8 {
    x + shape.cells(state).iter().map(|c| c.0).min().unwrap_or(0)
}

const _: () = assert!(WIDTH == 10);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::Seed;

    #[test]
    fn greedy_dellacherie_clears_lines_on_standard() {
        let g = play_standard(&Weights::DELLACHERIE, 1, TopOut::Simplified, 200, u64::MAX);
        assert!(g.capped && g.lines >= 200, "{g:?}");
    }

    #[test]
    fn ties_break_towards_fewest_rotations_then_leftmost() {
        // On an empty board with only cells weighted, every O placement is worth the same.
        let w = Weights {
            cells: 1.0,
            ..Weights::default()
        };
        let (d, _) = best_standard(&Board::EMPTY, Shape::O, &w, TopOut::Strict).unwrap();
        assert_eq!(d, Drop { state: 0, x: 0 });
        let (d, _) = best_standard(&Board::EMPTY, Shape::T, &w, TopOut::Strict).unwrap();
        assert_eq!(d, Drop { state: 0, x: 1 });
    }

    #[test]
    fn tencent_greedy_score_equals_the_replay_of_its_record() {
        let seed = Seed::tencent_geek_4();
        let pieces: Vec<Piece> = seed.pieces().into_iter().take(1500).collect();
        for w in [Weights::DELLACHERIE, Weights::EL_TETRIS, Weights::BCTS] {
            let g = play_tencent(&w, &pieces);
            let out = crate::replay::replay(&g.record, &pieces);
            assert_eq!(out.score, g.score);
            assert_eq!(out.lines, g.lines);
            assert_eq!(out.pieces, g.pieces);
            assert!(g.score > 0);
            assert!(g.record.validate().is_ok());
        }
    }

    #[test]
    fn tencent_paths_reach_their_positions() {
        let seed = Seed::tencent_geek_4();
        for &piece in seed.pieces().iter().take(50) {
            for d in tencent_drops(&Board::EMPTY, piece) {
                let record = Record::from_paths([d.path.as_slice()]);
                let mut seen = None;
                crate::replay::replay_with(&record, &[piece, piece], |s| seen = Some(s.pos));
                assert_eq!(seen, Some(d.pos), "{piece:?} {:?}", d.path);
            }
        }
    }
}
