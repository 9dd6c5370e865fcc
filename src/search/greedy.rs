//! One-piece players: each piece goes where the weighted features of the resulting board are
//! best (Dellacherie, El-Tetris, BCTS weights from [`crate::eval::players`]).
//!
//! Ties break by a fixed order, the first placement met wins: on the `standard` rules, state
//! ascending then centre column ascending (so: fewest rotations, then leftmost); on the
//! `tencent` rules, fewest clockwise rotations at spawn, then leftmost column.

use super::drop_values::{Counts, DropValues, PieceColumns};
use crate::eval::players::Weights;
use crate::games::standard::{self, Drop, Landing, TopOut};
use crate::games::tencent;
use crate::games::tencent::board::{Board, WIDTH};
use crate::games::tencent::features::{self, Features};
use crate::games::tencent::movegen;
use crate::games::{Piece, Pos};
use crate::piece::Shape;
use crate::record::{Op, Record};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The weighted sum, in one fixed order so that every way of computing the features gives the
/// same value to the last bit (ties then break the same way).
#[inline(always)]
fn combine(w: &Weights, landing_height: f64, c: &Counts) -> f64 {
    let mut v = w.landing_height * landing_height
        + w.row_transitions * c.row_transitions as f64
        + w.column_transitions * c.column_transitions as f64
        + w.holes * c.holes as f64
        + w.wells * c.wells as f64;
    if c.lines > 0 {
        v += w.eroded_cells * c.eroded as f64 + w.rows_cleared * c.lines as f64;
    }
    // Features some sets leave out: skip their work.
    if w.cells != 0.0 {
        v += w.cells * c.cells as f64;
    }
    if w.hole_depth != 0.0 {
        v += w.hole_depth * c.hole_depth as f64;
    }
    if w.rows_with_holes != 0.0 {
        v += w.rows_with_holes * c.rows_with_holes as f64;
    }
    v
}

/// The value of a landing: the weighted features of the placement and of the board after it,
/// all computed from scratch.
#[inline(always)]
pub fn landing_value(w: &Weights, l: &Landing) -> f64 {
    let b = &l.board;
    let mut c = Counts {
        row_transitions: features::row_transitions(b) as i32,
        column_transitions: features::column_transitions(b) as i32,
        holes: features::holes(b) as i32,
        wells: features::wells(b) as i32,
        ..Counts::default()
    };
    if l.lines > 0 {
        let (eroded, lines) = features::eroded_cells_of(&l.locked, &l.piece);
        c.eroded = eroded as i32;
        c.lines = lines as i32;
    }
    if w.cells != 0.0 {
        c.cells = b.cells() as i32;
    }
    if w.hole_depth != 0.0 {
        c.hole_depth = features::hole_depth(b) as i32;
    }
    if w.rows_with_holes != 0.0 {
        c.rows_with_holes = features::rows_with_holes(b) as i32;
    }
    let lh = features::landing_height_of_rows(l.top as i32, l.bottom as i32);
    let v = combine(w, lh, &c);
    if w.top_row_cells != 0.0 {
        v + w.top_row_cells * features::top_row_cells(b) as f64
    } else {
        v
    }
}

/// The best placement when `top_row_cells` is weighted (the vectorised valuation leaves it
/// out): the vectorised best stands unless its board has a top-row cell (a negative weight
/// only lowers the others, and equals stay behind it in the order); otherwise every
/// placement is valued from scratch, in the same order, the first met among equals.
fn with_top_row_cells(
    board: &Board,
    tops: &[u8; crate::games::tencent::board::WIDTH],
    shape: Shape,
    w: &Weights,
    top_out: TopOut,
    fast: Drop,
) -> Option<Drop> {
    let landed = standard::land(board, tops, shape, fast, top_out)?;
    if w.top_row_cells < 0.0 && features::top_row_cells(&landed.board) == 0 {
        return Some(fast);
    }
    let mut best = (f64::NEG_INFINITY, None);
    for d in standard::drops(shape) {
        if let Some(l) = standard::land(board, tops, shape, d, top_out) {
            let v = landing_value(w, &l);
            if v > best.0 {
                best = (v, Some(d));
            }
        }
    }
    best.1
}

/// The best placement of `shape` on `board` under the standard rules, with its landing;
/// `None` when every placement loses.
///
/// The features count bits: a build for baseline x86-64 has no popcount instruction, so on a
/// CPU that has one this runs a copy of the search compiled with it. (A copy compiled for
/// AVX-512's vector popcount was measured too: slower on this machine's Xeon than the AVX2
/// build of `.cargo/config.toml`.)
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
    let mut drop;
    let values;
    if w.hole_depth != 0.0 || w.rows_with_holes != 0.0 {
        values = DropValues::new::<true>(board);
        drop = scan::<true>(&values, shape, w, top_out)?;
    } else {
        values = DropValues::new::<false>(board);
        drop = scan::<false>(&values, shape, w, top_out)?;
    }
    if w.top_row_cells != 0.0 {
        drop = with_top_row_cells(board, &values.tops, shape, w, top_out, drop)?;
    }
    standard::land(board, &values.tops, shape, drop, top_out).map(|l| (drop, l))
}

/// The values of the placements of one state, lane `i` with the leftmost column at `i`, the
/// same operations in the same order as [`combine`] (so the same value to the last bit).
/// Lanes that [`DropValues`] flags for recounting are valued from scratch
/// ([`landing_value`]). A placement that loses, and a lane past the last placement, is worth
/// minus infinity (every real value is finite).
#[inline(always)]
#[allow(clippy::needless_range_loop)] // lanes indexed in step, as in `drop_values`
fn state_values<const W: usize, const N: usize, const HOLES: bool>(
    values: &DropValues,
    shape: Shape,
    state: u8,
    w: &Weights,
    top_out: TopOut,
) -> [f64; N] {
    let g = standard::geometry_of(shape, state);
    let c = values.state_counts::<W, N, HOLES>(&PieceColumns::<W>::of(g));
    let cells = (values.counts.cells + 4) as f64;
    let mut v = [0f64; N];
    for i in 0..N {
        let landing_height = features::landing_height_of_rows(c.top[i], c.bottom[i]);
        v[i] = w.landing_height * landing_height
            + w.row_transitions * c.row_transitions[i] as f64
            + w.column_transitions * c.column_transitions[i] as f64
            + w.holes * c.holes[i] as f64
            + w.wells * c.wells[i] as f64;
    }
    if w.cells != 0.0 {
        for x in v.iter_mut() {
            *x += w.cells * cells;
        }
    }
    if HOLES && w.hole_depth != 0.0 {
        for i in 0..N {
            v[i] += w.hole_depth * c.hole_depth[i] as f64;
        }
    }
    if HOLES && w.rows_with_holes != 0.0 {
        for i in 0..N {
            v[i] += w.rows_with_holes * c.rows_with_holes[i] as f64;
        }
    }
    for x in v.iter_mut().skip(WIDTH + 1 - W) {
        *x = f64::NEG_INFINITY;
    }
    let mut recount = c.recount & ((1 << (WIDTH + 1 - W)) - 1);
    while recount != 0 {
        let i = recount.trailing_zeros() as usize;
        recount &= recount - 1;
        let drop = Drop {
            state,
            x: i as i8 - g.left,
        };
        v[i] = standard::land(&values.board, &values.tops, shape, drop, top_out)
            .map_or(f64::NEG_INFINITY, |l| landing_value(w, &l));
    }
    v
}

/// The value of any drop (for tests).
#[cfg(test)]
fn value_of<const HOLES: bool>(
    values: &DropValues,
    shape: Shape,
    drop: Drop,
    w: &Weights,
    top_out: TopOut,
) -> Option<f64> {
    let g = standard::geometry_of(shape, drop.state);
    let lane = (drop.x + g.left) as usize;
    let s = drop.state;
    let v = match g.width {
        1 => state_values::<1, 16, HOLES>(values, shape, s, w, top_out)[lane],
        2 => state_values::<2, 16, HOLES>(values, shape, s, w, top_out)[lane],
        3 => state_values::<3, 8, HOLES>(values, shape, s, w, top_out)[lane],
        _ => state_values::<4, 8, HOLES>(values, shape, s, w, top_out)[lane],
    };
    (v != f64::NEG_INFINITY).then_some(v)
}

/// The placements of one rotation state, left to right; `best` keeps the first met among
/// equals.
#[inline(always)]
fn scan_state<const W: usize, const N: usize, const HOLES: bool>(
    values: &DropValues,
    shape: Shape,
    state: u8,
    w: &Weights,
    top_out: TopOut,
    best: &mut (f64, Option<Drop>),
) {
    let left = standard::geometry_of(shape, state).left;
    let lanes = state_values::<W, N, HOLES>(values, shape, state, w, top_out);
    // The largest value, then the first lane holding it: the first met among equals.
    let top = largest(lanes);
    if top > best.0 {
        let at = lanes.iter().position(|&v| v == top).unwrap_or(0);
        *best = (
            top,
            Some(Drop {
                state,
                x: at as i8 - left,
            }),
        );
    }
}

/// The largest of `N` (a power of two) values, halving the lanes each step so that each step
/// is one vector operation. No value is NaN.
#[inline(always)]
fn largest<const N: usize>(mut v: [f64; N]) -> f64 {
    let mut n = N;
    while n > 1 {
        n /= 2;
        for i in 0..n {
            v[i] = if v[i + n] > v[i] { v[i + n] } else { v[i] };
        }
    }
    v[0]
}

/// The best placement: state ascending, then column ascending, the first met among equals.
#[inline(always)]
fn scan<const HOLES: bool>(
    values: &DropValues,
    shape: Shape,
    w: &Weights,
    top_out: TopOut,
) -> Option<Drop> {
    let mut best = (f64::NEG_INFINITY, None);
    for state in 0..shape.orientations() {
        let v = values;
        match standard::geometry_of(shape, state).width {
            1 => scan_state::<1, 16, HOLES>(v, shape, state, w, top_out, &mut best),
            2 => scan_state::<2, 16, HOLES>(v, shape, state, w, top_out, &mut best),
            3 => scan_state::<3, 8, HOLES>(v, shape, state, w, top_out, &mut best),
            _ => scan_state::<4, 8, HOLES>(v, shape, state, w, top_out, &mut best),
        }
    }
    best.1
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
    let never = AtomicBool::new(false);
    let lines = AtomicU64::new(0);
    play_standard_watched(w, seed, top_out, max_lines, max_pieces, &never, &lines)
        .expect("never stopped")
}

/// Pieces between two looks at the stop flag and two progress updates (a few ms of play).
pub const WATCH_EVERY: u64 = 1 << 14;

/// [`play_standard`] for long runs: every [`WATCH_EVERY`] pieces it adds the lines cleared
/// since the last look to `lines_seen` (a progress counter shared by the games of a run; the
/// rest is added when the game ends) and returns `None` once `stop` is set (the game is then
/// left unfinished). The game played is the same, piece for piece.
pub fn play_standard_watched(
    w: &Weights,
    seed: u64,
    top_out: TopOut,
    max_lines: u64,
    max_pieces: u64,
    stop: &AtomicBool,
    lines_seen: &AtomicU64,
) -> Option<GameOutcome> {
    let mut board = Board::EMPTY;
    let mut lines = 0u64;
    let mut reported = 0u64;
    let mut pieces = 0u64;
    let mut capped = false;
    for shape in standard::Pieces::new(seed) {
        if lines >= max_lines || pieces >= max_pieces {
            capped = true;
            break;
        }
        if pieces & (WATCH_EVERY - 1) == 0 && pieces > 0 {
            lines_seen.fetch_add(lines - reported, Ordering::Relaxed);
            reported = lines;
            if stop.load(Ordering::Relaxed) {
                return None;
            }
        }
        let Some((_, l)) = best_standard(&board, shape, w, top_out) else {
            break;
        };
        board = l.board;
        lines += l.lines as u64;
        pieces += 1;
    }
    lines_seen.fetch_add(lines - reported, Ordering::Relaxed);
    Some(GameOutcome {
        lines,
        pieces,
        capped,
    })
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
    let mut positions = Vec::new();
    movegen::drop_placements(board, piece, &mut positions);
    positions
        .into_iter()
        .map(|pos| TencentDrop {
            pos,
            path: movegen::drop_path(piece, pos),
        })
        .collect()
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
/// such placement exists (or the next spawn is blocked); the record then simply ends. The
/// game starts on `start`.
pub fn play_tencent(w: &Weights, pieces: &[Piece], start: &Board) -> TencentGame {
    let mut board = *start;
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
    use crate::game_def::GameDef;
    use crate::games::tencent::board::HEIGHT;

    #[test]
    fn greedy_dellacherie_clears_lines_on_standard() {
        let g = play_standard(&Weights::DELLACHERIE, 1, TopOut::Simplified, 200, u64::MAX);
        assert!(g.capped && g.lines >= 200, "{g:?}");
    }

    #[test]
    fn a_watched_game_is_the_same_game_and_stops_when_asked() {
        let w = Weights::DELLACHERIE;
        let plain = play_standard(&w, 3, TopOut::Strict, 20_000, u64::MAX);
        let seen = AtomicU64::new(0);
        let go = AtomicBool::new(false);
        let watched =
            play_standard_watched(&w, 3, TopOut::Strict, 20_000, u64::MAX, &go, &seen).unwrap();
        assert_eq!(plain, watched);
        assert_eq!(seen.load(Ordering::Relaxed), plain.lines);
        let stop = AtomicBool::new(true);
        let seen = AtomicU64::new(0);
        assert_eq!(
            play_standard_watched(&w, 3, TopOut::Strict, 20_000, u64::MAX, &stop, &seen),
            None
        );
        assert!(seen.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn incremental_values_equal_the_from_scratch_values_to_the_last_bit() {
        for (k, w) in [Weights::DELLACHERIE, Weights::EL_TETRIS, Weights::BCTS]
            .iter()
            .enumerate()
        {
            let mut board = Board::EMPTY;
            for shape in standard::Pieces::new(100 + k as u64).take(3000) {
                let values = DropValues::new::<true>(&board);
                let tops = board.column_tops();
                for top_out in [TopOut::Simplified, TopOut::Strict] {
                    for drop in standard::drops(shape) {
                        let slow = standard::land(&board, &tops, shape, drop, top_out)
                            .map(|l| landing_value(w, &l));
                        let fast = value_of::<true>(&values, shape, drop, w, top_out);
                        assert_eq!(
                            fast.map(f64::to_bits),
                            slow.map(f64::to_bits),
                            "{shape:?} {drop:?}{board:?}"
                        );
                    }
                }
                // Play a weaker move now and then so the boards get holes and tall stacks.
                let pick = if board.cells().is_multiple_of(3) {
                    0.0
                } else {
                    1.0
                };
                let w2 = Weights {
                    holes: w.holes * pick,
                    ..*w
                };
                match best_standard(&board, shape, &w2, TopOut::Simplified) {
                    Some((_, l)) => board = l.board,
                    None => board = Board::EMPTY,
                }
            }
        }
    }

    /// Random ragged boards (holes, overhangs, wells of every depth, stacks up to the top) and
    /// solid stacks (the counted-in-closed-form case).
    #[test]
    fn incremental_values_equal_the_from_scratch_values_on_random_boards() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        for _ in 0..4000 {
            let mut b = Board::EMPTY;
            if rng.gen_bool(0.5) {
                let height = rng.gen_range(0..=HEIGHT);
                let density = rng.gen_range(0.3..1.0);
                for y in HEIGHT - height..HEIGHT {
                    for x in 0..WIDTH {
                        if rng.gen_bool(density) {
                            b.fill(x, y);
                        }
                    }
                }
            } else {
                // solid columns of random heights (no holes), now and then one hole
                for x in 0..WIDTH {
                    for y in HEIGHT - rng.gen_range(0..=12)..HEIGHT {
                        b.fill(x, y);
                    }
                }
                if rng.gen_bool(0.3) {
                    let (x, y) = (rng.gen_range(0..WIDTH), rng.gen_range(10..HEIGHT));
                    b.set_row(y, b.row(y) & !(1 << x));
                }
            }
            let tops = b.column_tops();
            let with_holes = DropValues::new::<true>(&b);
            let without = DropValues::new::<false>(&b);
            for shape in Shape::ALL {
                for drop in standard::drops(shape) {
                    for (k, w) in [Weights::DELLACHERIE, Weights::EL_TETRIS, Weights::BCTS]
                        .iter()
                        .enumerate()
                    {
                        for top_out in [TopOut::Simplified, TopOut::Strict] {
                            let slow = standard::land(&b, &tops, shape, drop, top_out)
                                .map(|l| landing_value(w, &l));
                            let fast = if k == 2 {
                                value_of::<true>(&with_holes, shape, drop, w, top_out)
                            } else {
                                value_of::<false>(&without, shape, drop, w, top_out)
                            };
                            assert_eq!(
                                fast.map(f64::to_bits),
                                slow.map(f64::to_bits),
                                "{shape:?} {drop:?} {w:?}{b:?}"
                            );
                        }
                    }
                }
            }
        }
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
        let seed = GameDef::tencent_geek_4();
        let pieces: Vec<Piece> = seed.pieces().into_iter().take(1500).collect();
        for w in [Weights::DELLACHERIE, Weights::EL_TETRIS, Weights::BCTS] {
            let g = play_tencent(&w, &pieces, &Board::EMPTY);
            let out = crate::games::tencent::replay::replay(&g.record, &pieces);
            assert_eq!(out.score, g.score);
            assert_eq!(out.lines, g.lines);
            assert_eq!(out.pieces, g.pieces);
            assert!(g.score > 0);
            assert!(g.record.validate().is_ok());
        }
    }

    #[test]
    fn tencent_paths_reach_their_positions() {
        let seed = GameDef::tencent_geek_4();
        for &piece in seed.pieces().iter().take(50) {
            for d in tencent_drops(&Board::EMPTY, piece) {
                let record = Record::from_paths([d.path.as_slice()]);
                let mut seen = None;
                crate::games::tencent::replay::replay_with(&record, &[piece, piece], |s| {
                    seen = Some(s.pos)
                });
                // placements are named by their canonical state: the same cells
                let seen = seen.map(|p| Pos {
                    state: piece.shape.canonical_state(p.state),
                    ..p
                });
                assert_eq!(seen, Some(d.pos), "{piece:?} {:?}", d.path);
            }
        }
    }

    /// With `top_row_cells` weighted the choice is that of valuing every placement from
    /// scratch (first met among equals), on games whose stacks reach the top row.
    #[test]
    fn top_row_cells_choice_equals_a_full_scan() {
        let w = Weights {
            top_row_cells: Weights::BCTS.column_transitions,
            ..Weights::BCTS
        };
        let mut board = Board::EMPTY;
        let mut top_row_boards = 0;
        for (i, shape) in standard::Pieces::new(7).take(20_000).enumerate() {
            let tops = board.column_tops();
            let mut full = (f64::NEG_INFINITY, None);
            for d in standard::drops(shape) {
                if let Some(l) = standard::land(&board, &tops, shape, d, TopOut::Simplified) {
                    let v = landing_value(&w, &l);
                    if v > full.0 {
                        full = (v, Some((d, l)));
                    }
                }
            }
            let chosen = best_standard(&board, shape, &w, TopOut::Simplified);
            assert_eq!(chosen, full.1, "{shape:?}{board:?}");
            if let Some((_, l)) = chosen {
                top_row_boards += (features::top_row_cells(&l.board) > 0) as u32;
            }
            // A player that seeks height and ignores holes half the time builds the tall stacks
            // this needs.
            let weak = Weights {
                landing_height: 20.0,
                holes: 0.0,
                rows_with_holes: 0.0,
                ..w
            };
            let pick = if i % 2 == 0 { &weak } else { &w };
            board = match best_standard(&board, shape, pick, TopOut::Simplified) {
                Some((_, l)) => l.board,
                None => Board::EMPTY,
            };
        }
        assert!(top_row_boards > 0, "no choice reached the top row");
    }
}
