//! The beam over a NES game: a state is the board, the line count and the level (the level
//! sets the gravity the next piece falls under, so the placements a speed reaches); a move
//! is a rotation and a shift count, whose inputs `movegen::inputs` gives.
//!
//! The game ends at a line target, so the score that counts is the score at the lock that
//! reaches it. Every state that reaches it becomes one state, [`State::DONE`], whose only
//! child is itself (a pass); equal states merge keeping the best-ranked, and done states rank
//! by their points ahead of all others, so the beam always holds the best finished line while
//! the others play on. Its score carries [`DONE_BONUS`] so that the line the search returns
//! is a finished one when there is any.

use super::beam::{search_game, BeamGame, Line, StepReport};
use super::width::Width;
use crate::eval::nes::NesEvaluator;
use crate::games::nes::movegen::{
    placements, Board, Gravity, Outcome, Placement, Speed, Tuck, FIRST_ENTRY_DELAY,
};
use crate::games::nes::orientation::spawn_of;
use crate::games::nes::score::{level_after_line, Lines};
use crate::piece::Shape;
use std::sync::atomic::AtomicBool;

/// Added to the score of a line that reached the target.
pub const DONE_BONUS: u32 = 1 << 31;

/// A state between pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    pub board: Board,
    pub lines: Lines,
    pub level: u8,
}

impl State {
    /// Every line that reached the target, merged into one.
    pub const DONE: State = State {
        board: Board([0xFFFF; 20]),
        lines: Lines([0xFF, 0xFF]),
        level: 0xFF,
    };
}

/// A piece's move: turns and shifts and a late tuck or spin, or a pass once the game is
/// over.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub turns: u8,
    pub shifts: i8,
    pub tuck: Option<Tuck>,
}

impl Move {
    /// No piece: the game reached its line target.
    pub const PASS: Move = Move {
        turns: u8::MAX,
        shifts: 0,
        tuck: None,
    };
}

/// A NES game as the beam searches it.
pub struct NesBeam<'a> {
    pub pieces: &'a [Shape],
    pub level: u8,
    pub speed: Speed,
    pub target: u32,
    /// TetrisGYM's Killscreen x2 from this level: from the clear that reaches it, pieces
    /// fall two rows a frame (the level is above the start, so a state at it or beyond got
    /// there by a clear).
    pub killscreen_x2: Option<u8>,
    pub steps: usize,
    pub evaluator: &'a NesEvaluator,
}

impl NesBeam<'_> {
    /// The gravity a piece falls under at `level`.
    pub fn gravity(&self, level: u8) -> Gravity {
        Gravity {
            level,
            double: self.killscreen_x2.is_some_and(|k| level >= k),
        }
    }
}

impl NesBeam<'_> {
    /// The gravity the board after `o` will face [`LOOK_AHEAD_LINES`] lines later: the
    /// evaluator judges a stack by the speed it is about to meet, so that it is low enough
    /// before a transition (at level 28 or 38), not after.
    fn gravity_ahead(&self, o: Outcome) -> Gravity {
        let (mut lines, mut level) = (o.lines, o.level);
        for _ in 0..LOOK_AHEAD_LINES {
            lines.increment();
            level = level_after_line(level, lines);
        }
        self.gravity(level)
    }
}

/// How many lines ahead the evaluator looks for the gravity to come: one tetris.
pub const LOOK_AHEAD_LINES: u32 = 12;

/// The rank of a done line of `points`: ahead of every other state, by points.
fn done_rank(points: u32) -> f64 {
    -1e15 - f64::from(points)
}

impl BeamGame for NesBeam<'_> {
    type State = State;
    type Move = Move;
    type Scratch = Vec<Placement>;

    fn start(&self) -> State {
        State {
            board: Board::default(),
            lines: Lines::default(),
            level: self.level,
        }
    }

    fn steps(&self) -> usize {
        self.steps
    }

    fn expand(
        &self,
        k: usize,
        state: &State,
        score: u32,
        scratch: &mut Vec<Placement>,
        emit: &mut impl FnMut(Move, State, u32, f64),
    ) {
        if *state == State::DONE {
            emit(
                Move::PASS,
                State::DONE,
                score,
                done_rank(score - DONE_BONUS),
            );
            return;
        }
        let delay = if k == 0 { FIRST_ENTRY_DELAY } else { 0 };
        placements(
            &state.board,
            self.gravity(state.level),
            delay,
            self.pieces[k],
            self.speed,
            scratch,
        );
        let next = self.pieces.get(k + 1).map(|&s| spawn_of(s));
        for p in scratch.iter() {
            let o = Outcome::of(&state.board, p.rest, state.lines, state.level);
            let points = score + o.points;
            let mv = Move {
                turns: p.turns,
                shifts: p.shifts,
                tuck: p.tuck,
            };
            if o.lines.value() >= self.target {
                emit(mv, State::DONE, points + DONE_BONUS, done_rank(points));
                continue;
            }
            if next.is_some_and(|n| !o.board.fits(n, 5, 0)) {
                continue;
            }
            let child = State {
                board: o.board,
                lines: o.lines,
                level: o.level,
            };
            emit(
                mv,
                child,
                points,
                self.evaluator.rank(
                    &o.board,
                    o.cleared,
                    points,
                    self.gravity_ahead(o),
                    self.speed,
                ),
            );
        }
    }
}

/// Searches `game` at `width`; the progress and the line's score without [`DONE_BONUS`].
pub fn search(
    game: &NesBeam,
    width: Width,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&StepReport),
) -> Line<Move> {
    let mut line = search_game(game, width, stop, |r| {
        progress(&StepReport {
            best_score: r.best_score & !DONE_BONUS,
            ..*r
        })
    });
    line.score &= !DONE_BONUS;
    line.moves.retain(|m| *m != Move::PASS);
    line
}
