//! The state of a guideline game between two pieces, and what a lock does to it (SPEC §3, §5,
//! §6, §9): lock out, spin detection, line clears, combo, back-to-back, perfect clears.
//!
//! Which piece comes next is not part of the state: after `k` locks a game has drawn
//! `k + 1` pieces from its sequence, or `k + 2` once the hold slot is filled, so the beam and
//! the replay derive it from the lock count and the hold slot.

use super::board::{Board, VISIBLE};
use super::piece::{Active, Twist};
use super::score::{self, ComboTable, Spin};
use super::Rules;
use crate::piece::Shape;
use serde::{Deserialize, Serialize};

/// Everything about a game between two pieces that changes what comes after.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct State {
    pub board: Board,
    pub hold: Option<Shape>,
    /// The combo counter: −1 before a clear, then 0, 1, ... for consecutive clearing locks.
    pub combo: i32,
    /// Whether the last clearing lock was difficult (a four-row clear or a T-spin).
    pub b2b: bool,
    /// Back-to-back clears in a row (kept under TETR.IO's chaining table only, else 0).
    pub chain: u8,
}

impl State {
    /// The start of a game: an empty board, nothing held.
    pub const START: State = State {
        board: Board::EMPTY,
        hold: None,
        combo: -1,
        b2b: false,
        chain: 0,
    };

    /// Index in the sequence of the piece that spawns after `locks` locks.
    #[inline(always)]
    pub const fn next_index(&self, locks: usize) -> usize {
        locks + self.hold.is_some() as usize
    }
}

/// What one lock did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Lock {
    /// Every cell at row 20 or above: the game is over and the lock is not scored.
    pub lock_out: bool,
    pub spin: Spin,
    pub lines: u32,
    /// The board is empty after the clear.
    pub perfect: bool,
    pub earned: score::Earned,
}

/// The spin kind of `piece` locking where it is (after its hard drop) on `board`.
#[inline]
pub fn spin_of(board: &Board, piece: &Active) -> Spin {
    if piece.shape != Shape::T || piece.twist == Twist::None {
        return Spin::None;
    }
    let (x, y) = (piece.x as i32, piece.y as i32);
    // Corners in the order bottom-left, bottom-right, top-left, top-right.
    let c = [
        board.solid(x, y),
        board.solid(x + 2, y),
        board.solid(x, y + 2),
        board.solid(x + 2, y + 2),
    ];
    if c.iter().filter(|&&b| b).count() < 3 {
        return Spin::None;
    }
    let front = match piece.state {
        0 => c[2] && c[3],
        1 => c[1] && c[3],
        2 => c[0] && c[1],
        _ => c[0] && c[2],
    };
    if front || piece.twist == Twist::RotatedFifth {
        Spin::Full
    } else {
        Spin::Mini
    }
}

/// Where a piece enters and how the game ends at the top.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TopOut {
    /// The guideline's: a piece spawns with its lowest cells in row 20; the game ends when
    /// that overlaps a cell (block out) or a piece locks wholly in rows 20 and up (lock out).
    #[default]
    Guideline,
    /// TETR.IO's, as its engine here plays it: a piece spawns a row higher and falls to the
    /// guideline's spawn when that is free, so it starts there unless the stack takes it;
    /// the game ends only when TETR.IO's spawn overlaps a cell too, never by lock out. (The
    /// clutch, a piece lifted further after a clear, is not searched.)
    Tetrio,
}

impl TopOut {
    /// `shape` where it starts on `board`, or `None` when it cannot spawn (block out).
    pub fn spawn(self, board: &Board, shape: Shape) -> Option<Active> {
        let guideline = Active::spawn(board, shape);
        match self {
            TopOut::Guideline => guideline,
            TopOut::Tetrio => guideline.or_else(|| Active::spawn_lifted(board, shape, 1)),
        }
    }

    /// Whether a piece locking in `cells` ends the game.
    fn locks_out(self, cells: &[(i8, i8)]) -> bool {
        self == TopOut::Guideline && cells.iter().all(|&(_, y)| y as usize >= VISIBLE)
    }
}

/// Locks `piece`, which must rest where it is (hard-dropped), on `state`: checks lock out,
/// detects the spin, writes the cells, clears full rows and scores. On a lock out the state
/// is returned unchanged.
#[inline]
pub fn lock(state: &State, piece: &Active, table: ComboTable) -> (State, Lock) {
    lock_with(state, piece, table, TopOut::Guideline)
}

/// [`lock`] under `rules`: their combo table, and the lock out of their top (none under
/// TETR.IO's).
#[inline]
pub fn lock_under(state: &State, piece: &Active, rules: &Rules) -> (State, Lock) {
    lock_with(state, piece, rules.combo_table, rules.top)
}

#[inline]
fn lock_with(state: &State, piece: &Active, table: ComboTable, top: TopOut) -> (State, Lock) {
    let cells = piece.cells();
    if top.locks_out(&cells) {
        return (
            *state,
            Lock {
                lock_out: true,
                spin: Spin::None,
                lines: 0,
                perfect: false,
                earned: score::Earned::default(),
            },
        );
    }
    let spin = spin_of(&state.board, piece);
    let mut board = state.board;
    for (x, y) in cells {
        board.fill(x as usize, y as usize);
    }
    let full = board.full_rows();
    board.clear_rows(full);
    let lines = full.count_ones();
    let perfect = lines > 0 && board.is_empty();
    let earned = score::score_chained(
        lines,
        spin,
        perfect,
        state.combo,
        state.b2b,
        state.chain,
        table,
    );
    (
        State {
            board,
            hold: state.hold,
            combo: earned.combo,
            b2b: earned.b2b_chain,
            chain: earned.chain,
        },
        Lock {
            lock_out: false,
            spin,
            lines,
            perfect,
            earned,
        },
    )
}
