//! One-piece players: each piece goes where the weighted features of the resulting board are
//! best (Dellacherie, El-Tetris, BCTS weights from [`crate::eval::weights`]).
//!
//! Ties break by a fixed order, the first placement met wins: on the `standard` rules, state
//! ascending then centre column ascending (so: fewest rotations, then leftmost); on the
//! `tencent` rules, fewest clockwise rotations at spawn, then leftmost column.

use crate::board::{Board, FULL_ROW, HEIGHT, WIDTH};
use crate::eval::features::{self, Features};
use crate::eval::Weights;
use crate::movegen;
use crate::piece::Shape;
use crate::record::{Op, Record};
use crate::rules::standard::{self, Drop, Landing, TopOut};
use crate::rules::tencent;
use crate::rules::{Piece, Pos};

/// The integer features a greedy value combines (landing height aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    row_transitions: i32,
    column_transitions: i32,
    holes: i32,
    wells: i32,
    eroded: i32,
    lines: i32,
    cells: i32,
    hole_depth: i32,
    rows_with_holes: i32,
}

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
    combine(w, lh, &c)
}

/// Row transitions of one ten-cell row, walls filled, for every row value.
const ROW_TRANSITIONS: [u8; 1 << WIDTH] = {
    let mut t = [0u8; 1 << WIDTH];
    let mut r = 0;
    while r < (1 << WIDTH) {
        let ext = (r << 1) | 1 | (1 << (WIDTH + 1)); // walls at both ends
        t[r] = ((ext ^ (ext >> 1)) & ((1 << (WIDTH + 1)) - 1)).count_ones() as u8;
        r += 1;
    }
    t
};

/// The twenty rows of `b`, top first (constant shifts, unrolled).
#[inline(always)]
fn rows_of(b: &Board) -> [u16; HEIGHT] {
    let mut rows = [0u16; HEIGHT];
    for (i, &word) in b.0.iter().enumerate() {
        for k in 0..5 {
            rows[5 * i + k] = (word >> (WIDTH * k)) as u16 & FULL_ROW;
        }
    }
    rows
}

/// For each column, the row of its highest filled cell (`HEIGHT` when empty).
#[inline(always)]
fn tops_of(rows: &[u16; HEIGHT]) -> [u8; WIDTH] {
    let mut tops = [HEIGHT as u8; WIDTH];
    let mut seen = 0u16;
    for (y, &row) in rows.iter().enumerate() {
        let mut new = row & !seen;
        seen |= row;
        while new != 0 {
            tops[new.trailing_zeros() as usize] = y as u8;
            new &= new - 1;
        }
    }
    tops
}

/// What a decision computes once from the board before the placement, so that a placement
/// clearing no line updates the features from the cells it adds instead of recounting them.
struct Base {
    board: Board,
    tops: [u8; WIDTH],
    rows: [u16; HEIGHT],
    row_transitions: i32,
    column_transitions: i32,
    holes: i32,
    cells: i32,
    hole_depth: i32,
    /// Bit y: row y holds a hole.
    hole_rows: u32,
    /// Bit x: column x holds a hole.
    hole_columns: u16,
}

impl Base {
    #[inline(always)]
    fn new(board: &Board, w: &Weights) -> Base {
        let bcts = w.hole_depth != 0.0 || w.rows_with_holes != 0.0;
        let rows = rows_of(board);
        Base {
            board: *board,
            tops: tops_of(&rows),
            rows,
            row_transitions: features::row_transitions(board) as i32,
            column_transitions: features::column_transitions(board) as i32,
            holes: features::holes(board) as i32,
            cells: board.cells() as i32,
            hole_depth: if bcts {
                features::hole_depth(board) as i32
            } else {
                0
            },
            hole_rows: if bcts {
                features::hole_row_mask(board)
            } else {
                0
            },
            hole_columns: if bcts {
                features::hole_column_mask(board)
            } else {
                0
            },
        }
    }

    /// The value of dropping `shape` at `drop`; `None` when it loses. Placements that clear
    /// lines or stick out above the board go the long way ([`landing_value`]); the others
    /// update the counts: the rows the piece spans change their row transitions; in each of
    /// its columns, a gap of `g` empty cells left under the piece adds `g` holes and two
    /// column transitions, and a piece reaching row 0 loses the transition above it; its cells
    /// gain hole depth when their column has an empty cell below them.
    #[inline(always)]
    ///
    /// `HOLES` says whether the weights use hole depth or rows with holes; without them the
    /// work for those two is left out at compile time.
    fn value<const HOLES: bool>(
        &self,
        shape: Shape,
        drop: Drop,
        w: &Weights,
        top_out: TopOut,
    ) -> Option<f64> {
        let g = standard::geometry_of(shape, drop.state);
        let left = drop.x + g.left;
        // The piece rests where the lowest cell of one of its columns meets that column's top.
        let mut y = i8::MAX;
        for j in 0..g.width as usize {
            y = y.min(self.tops[left as usize + j] as i8 - 1 - g.column_bottom[j]);
        }
        let top = y + g.top;
        let bottom = y + g.bottom;
        let strip = g.strip << left as u32;
        let long_way = || {
            standard::land(&self.board, &self.tops, shape, drop, top_out)
                .map(|l| landing_value(w, &l))
        };
        if top < 0 {
            return long_way();
        }
        let piece = standard::place_strip(strip, top as usize);
        let locked = Board(std::array::from_fn(|i| self.board.0[i] | piece.0[i]));
        if features::any_full_row(&locked) {
            return long_way();
        }
        let mut c = Counts {
            row_transitions: self.row_transitions,
            column_transitions: self.column_transitions,
            holes: self.holes,
            wells: features::wells(&locked) as i32,
            cells: self.cells + 4,
            hole_depth: self.hole_depth,
            ..Counts::default()
        };
        for k in 0..=(bottom - top) as usize {
            let before = self.rows[top as usize + k];
            let after = before | ((strip >> (WIDTH * k)) as u16 & FULL_ROW);
            c.row_transitions +=
                ROW_TRANSITIONS[after as usize] as i32 - ROW_TRANSITIONS[before as usize] as i32;
        }
        let mut new_hole_rows = 0u32;
        for j in 0..g.width as usize {
            let x = left as usize + j;
            let column_top = (y + g.column_top[j]) as i32;
            let column_bottom = (y + g.column_bottom[j]) as i32;
            let gap = self.tops[x] as i32 - 1 - column_bottom;
            if gap > 0 {
                c.column_transitions += 2;
                c.holes += gap;
                if HOLES {
                    new_hole_rows |= ((1u32 << gap) - 1) << (column_bottom + 1);
                }
            }
            if column_top == 0 {
                c.column_transitions -= 1;
            }
            if HOLES && (gap > 0 || self.hole_columns >> x & 1 == 1) {
                c.hole_depth += column_bottom - column_top + 1;
            }
        }
        if HOLES {
            c.rows_with_holes = (self.hole_rows | new_hole_rows).count_ones() as i32;
        }
        Some(combine(
            w,
            features::landing_height_of_rows(top as i32, bottom as i32),
            &c,
        ))
    }
}

/// The best placement of `shape` on `board` under the standard rules, with its landing;
/// `None` when every placement loses.
///
/// The features count bits; a build for baseline x86-64 has no popcount instruction, so on a
/// CPU that has one this runs a copy of the search compiled with it.
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
    let base = Base::new(board, w);
    let best = if w.hole_depth != 0.0 || w.rows_with_holes != 0.0 {
        scan::<true>(&base, shape, w, top_out)
    } else {
        scan::<false>(&base, shape, w, top_out)
    };
    let (_, drop) = best?;
    standard::land(board, &base.tops, shape, drop, top_out).map(|l| (drop, l))
}

/// The best value and placement, the first met among equals.
#[inline(always)]
fn scan<const HOLES: bool>(
    base: &Base,
    shape: Shape,
    w: &Weights,
    top_out: TopOut,
) -> Option<(f64, Drop)> {
    let mut best: Option<(f64, Drop)> = None;
    for drop in standard::drops(shape) {
        let Some(v) = base.value::<HOLES>(shape, drop, w, top_out) else {
            continue;
        };
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, drop));
        }
    }
    best
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
    fn incremental_values_equal_the_from_scratch_values_to_the_last_bit() {
        for (k, w) in [Weights::DELLACHERIE, Weights::EL_TETRIS, Weights::BCTS]
            .iter()
            .enumerate()
        {
            let mut board = Board::EMPTY;
            for shape in standard::Pieces::new(100 + k as u64).take(3000) {
                let base = Base::new(&board, w);
                let tops = board.column_tops();
                for top_out in [TopOut::Simplified, TopOut::Strict] {
                    for drop in standard::drops(shape) {
                        let slow = standard::land(&board, &tops, shape, drop, top_out)
                            .map(|l| landing_value(w, &l));
                        let fast = if k == 2 {
                            base.value::<true>(shape, drop, w, top_out)
                        } else {
                            base.value::<false>(shape, drop, w, top_out)
                        };
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

    #[test]
    fn rows_and_tops_match_the_board() {
        let mut rng = 7u64;
        for _ in 0..2000 {
            let mut b = Board::EMPTY;
            for y in 0..HEIGHT {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
                if (rng >> 60) < 10 {
                    b.set_row(y, (rng >> 20) as u16 & FULL_ROW);
                }
            }
            let rows = rows_of(&b);
            assert_eq!(rows, b.rows());
            assert_eq!(tops_of(&rows), b.column_tops());
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
                // placements are named by their canonical state: the same cells
                let seen = seen.map(|p| Pos {
                    state: piece.shape.canonical_state(p.state),
                    ..p
                });
                assert_eq!(seen, Some(d.pos), "{piece:?} {:?}", d.path);
            }
        }
    }
}
