//! Replays a record on the `tencent` rule set the way the game's `replayStep` does, giving the
//! score, the pieces spawned and why the game ended.

use crate::games::tencent::board::Board;
use crate::games::tencent::{self, Lock};
use crate::games::{Piece, Pos};
use crate::record::{Op, Record, Token};
use serde::Serialize;

/// Why a replay stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The record ran out; the game ends with the score so far.
    RecordEnd,
    /// A lock left a cell in row 0.
    TopOut,
    /// A piece could not spawn.
    SpawnBlocked,
    /// The last piece of the sequence locked (it never scores).
    PieceLimit,
}

impl std::fmt::Display for EndReason {
    /// In words, for messages (the JSON says `top_out` and so on).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EndReason::RecordEnd => "the record ends",
            EndReason::TopOut => "a lock tops out",
            EndReason::SpawnBlocked => "a piece cannot spawn",
            EndReason::PieceLimit => "the sequence ends",
        })
    }
}

/// The outcome of a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub score: u64,
    /// Pieces spawned (the game's `brickCount`).
    pub pieces: usize,
    pub lines: u64,
    pub end_reason: EndReason,
}

/// One locked piece, as the replay saw it.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// 0-based piece index.
    pub index: usize,
    pub piece: Piece,
    /// Where the piece locked.
    pub pos: Pos,
    /// The board before the lock.
    pub before: Board,
    pub lock: Lock,
    /// Points this lock earned.
    pub gain: u32,
    /// Score after this lock.
    pub score: u64,
}

fn apply(board: &Board, piece: Piece, pos: Pos, op: Op) -> Pos {
    let next = pos.moved(op);
    if tencent::fits(board, piece.shape, next) {
        next
    } else {
        pos
    }
}

/// Replays `record` on `pieces` (the whole sequence; its length is the piece limit).
pub fn replay(record: &Record, pieces: &[Piece]) -> Outcome {
    replay_with(record, pieces, |_| {})
}

/// Replays `record`, calling `on_lock` after every lock that the game performs.
pub fn replay_with(record: &Record, pieces: &[Piece], on_lock: impl FnMut(&Step)) -> Outcome {
    replay_from(&Board::EMPTY, record, pieces, on_lock)
}

/// Replays `record` from the board `start`, calling `on_lock` after every lock.
pub fn replay_from(
    start: &Board,
    record: &Record,
    pieces: &[Piece],
    mut on_lock: impl FnMut(&Step),
) -> Outcome {
    let mut board = *start;
    let mut score: u64 = 0;
    let mut lines: u64 = 0;
    let mut spawned = 0usize;
    let mut active: Option<(Piece, Pos)> = None;
    let tokens = &record.tokens;
    let outcome = |score, spawned, lines, end_reason| Outcome {
        score,
        pieces: spawned,
        lines,
        end_reason,
    };
    for (i, token) in tokens.iter().enumerate() {
        match *token {
            Token::New => {
                if spawned >= pieces.len() {
                    // Cannot happen for a record of the game: the limit-th lock ends it first.
                    return outcome(score, spawned, lines, EndReason::PieceLimit);
                }
                let piece = pieces[spawned];
                spawned += 1;
                if tencent::spawn_blocked(&board, piece) {
                    return outcome(score, spawned, lines, EndReason::SpawnBlocked);
                }
                active = Some((piece, tencent::spawn_pos(piece)));
            }
            Token::Op(op, count) => {
                if let Some((piece, pos)) = active.as_mut() {
                    for _ in 0..count {
                        *pos = apply(&board, *piece, *pos, op);
                    }
                }
            }
        }
        let locks_now = matches!(tokens.get(i + 1), None | Some(Token::New));
        if !locks_now {
            continue;
        }
        let Some((piece, pos)) = active.take() else {
            continue;
        };
        let before = board;
        let lock = tencent::lock(&board, piece.shape, pos);
        let ends = lock.top_out || spawned >= pieces.len();
        let gain = if ends { 0 } else { lock.gain() };
        score += gain as u64;
        if !ends {
            lines += lock.lines as u64;
        }
        board = lock.board;
        on_lock(&Step {
            index: spawned - 1,
            piece,
            pos,
            before,
            lock,
            gain,
            score,
        });
        if lock.top_out {
            return outcome(score, spawned, lines, EndReason::TopOut);
        }
        if spawned >= pieces.len() {
            return outcome(score, spawned, lines, EndReason::PieceLimit);
        }
    }
    outcome(score, spawned, lines, EndReason::RecordEnd)
}
