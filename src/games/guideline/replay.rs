//! Replaying a record on a guideline game (SPEC §3, §8, §9): spawn, hold, moves, hard drop,
//! lock, and the numbers `verify` reports.

use super::board::Board;
use super::game::{self, State};
use super::piece::Active;
use super::score::Spin;
use super::Rules;
use crate::piece::Shape;
use crate::record::{Op, Record, RecordError, Token};
use serde::Serialize;

/// A guideline game: its rules, its length and the generator's pieces (at least one more
/// than the length, for a hold with an empty slot on the last piece).
#[derive(Clone, Debug)]
pub struct GuidelineGame {
    pub rules: Rules,
    /// Locks in a full game.
    pub length: usize,
    pub pieces: Vec<Shape>,
    /// The state before the first lock: board, hold, combo, back-to-back (`State::START`
    /// unless the game starts from a given position).
    pub start: State,
}

impl GuidelineGame {
    /// Parses a record of this game: its grammar, and no more pieces than the game has.
    pub fn parse_record(&self, text: &str) -> Result<Record, RecordError> {
        let record = Record::parse_with(text, self.rules.grammar())?;
        let mut n = 0;
        for (i, token) in record.tokens.iter().enumerate() {
            if *token == Token::New {
                n += 1;
                if n > self.length {
                    return Err(RecordError::BadToken {
                        index: i + 1,
                        text: "N".into(),
                        reason: format!(
                            "piece {n}: the game has {}",
                            crate::limits::plural(self.length as u64, "piece", "pieces")
                        ),
                    });
                }
            }
        }
        Ok(record)
    }
}

/// Why a guideline replay stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The record ended before the game.
    RecordEnd,
    /// The game's last lock was made.
    PiecesDone,
    /// A spawning piece overlapped a cell.
    BlockOut,
    /// A piece locked entirely above the visible field.
    LockOut,
}

impl Outcome {
    /// The objective's value of this outcome.
    pub fn value(&self, objective: super::Objective) -> u64 {
        match objective {
            super::Objective::Points => self.points,
            super::Objective::Attack => self.attack,
            super::Objective::Lines => self.lines,
        }
    }
}

/// What `verify` reports of a guideline replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
pub struct Outcome {
    pub points: u64,
    pub attack: u64,
    /// Scored locks.
    pub pieces: usize,
    pub lines: u64,
    pub end_reason: Option<EndReason>,
    /// The largest combo counter reached (0 when nothing cleared two in a row or at all).
    pub max_combo: u32,
    /// Clearing locks that were T-spins, full and mini.
    pub tspins: u32,
    /// Clearing T-spins that were full.
    pub tspins_full: u32,
    pub perfect_clears: u32,
    /// Back-to-back clears.
    pub back_to_backs: u32,
    /// Four-row clears.
    pub tetrises: u32,
    /// Pieces that used hold.
    pub holds: u32,
}

/// One lock as the replay made it (a `--trace` line).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct LockEvent {
    /// 0-based lock index.
    pub lock: usize,
    pub piece: Shape,
    /// This piece came in through hold.
    pub hold: bool,
    /// The locked cells, (x, y) with y up.
    pub cells: [(i8, i8); 4],
    pub rows: u32,
    pub spin: Spin,
    /// The combo counter after the lock.
    pub combo: i32,
    pub back_to_back: bool,
    pub perfect_clear: bool,
    pub points: u32,
    pub attack: u32,
    pub total_points: u64,
    pub total_attack: u64,
    #[serde(skip)]
    pub before: State,
    #[serde(skip)]
    pub after: State,
    /// Where the piece locked (for views).
    #[serde(skip)]
    pub piece_at: Active,
}

/// Replays `record` (parsed by [`GuidelineGame::parse_record`]) on `game`.
pub fn replay(record: &Record, game: &GuidelineGame) -> Outcome {
    replay_with(record, game, |_| {})
}

/// Replays `record`, calling `on_lock` after every scored lock.
pub fn replay_with(
    record: &Record,
    game: &GuidelineGame,
    mut on_lock: impl FnMut(&LockEvent),
) -> Outcome {
    let mut state = game.start;
    let mut out = Outcome::default();
    let mut active: Option<(Active, bool)> = None;
    let tokens = &record.tokens;
    let end = |mut out: Outcome, reason| {
        out.end_reason = Some(reason);
        out
    };
    for (i, token) in tokens.iter().enumerate() {
        match *token {
            Token::New => {
                let shape = game.pieces[state.next_index(out.pieces)];
                match Active::spawn(&state.board, shape) {
                    Some(piece) => active = Some((piece, false)),
                    None => return end(out, EndReason::BlockOut),
                }
            }
            Token::Op(Op::Hold, _) => {
                let Some((piece, _)) = active else { continue };
                let incoming = match state.hold {
                    Some(held) => held,
                    None => game.pieces[out.pieces + 1],
                };
                state.hold = Some(piece.shape);
                out.holds += 1;
                match Active::spawn(&state.board, incoming) {
                    Some(p) => active = Some((p, true)),
                    None => return end(out, EndReason::BlockOut),
                }
            }
            Token::Op(op, count) => {
                if let Some((piece, _)) = active.as_mut() {
                    for _ in 0..count {
                        *piece = piece.apply(&state.board, op, game.rules.rotation);
                    }
                }
            }
        }
        if !matches!(tokens.get(i + 1), None | Some(Token::New)) {
            continue;
        }
        let Some((piece, held)) = active.take() else {
            continue;
        };
        let piece = piece.hard_dropped(&state.board);
        let before = state;
        let (after, lock) = game::lock(&state, &piece, game.rules.combo_table);
        if lock.lock_out {
            return end(out, EndReason::LockOut);
        }
        state = after;
        let e = lock.earned;
        out.points += e.points as u64;
        out.attack += e.attack as u64;
        out.lines += lock.lines as u64;
        out.pieces += 1;
        if lock.lines > 0 {
            out.max_combo = out.max_combo.max(e.combo as u32);
            out.tspins += (lock.spin != Spin::None) as u32;
            out.tspins_full += (lock.spin == Spin::Full) as u32;
            out.back_to_backs += e.back_to_back as u32;
            out.tetrises += (lock.lines == 4) as u32;
        }
        out.perfect_clears += lock.perfect as u32;
        on_lock(&LockEvent {
            lock: out.pieces - 1,
            piece: piece.shape,
            hold: held,
            cells: piece.cells(),
            rows: lock.lines,
            spin: lock.spin,
            combo: e.combo,
            back_to_back: e.back_to_back,
            perfect_clear: lock.perfect,
            points: e.points,
            attack: e.attack,
            total_points: out.points,
            total_attack: out.attack,
            before,
            after: state,
            piece_at: piece,
        });
        if out.pieces == game.length {
            return end(out, EndReason::PiecesDone);
        }
    }
    end(out, EndReason::RecordEnd)
}

/// The board after replaying `record` (for tests and views).
pub fn final_board(record: &Record, game: &GuidelineGame) -> Board {
    let mut board = Board::EMPTY;
    replay_with(record, game, |e| board = e.after.board);
    board
}
