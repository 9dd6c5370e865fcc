//! One replay of a record kept in memory, lock by lock, for the views to draw.
//!
//! Every view (text, animation, fumen, HTML page) needs the same things per piece: the board
//! before and after the lock, where the piece went, the running score and lines, and which
//! piece filled each cell so it can be coloured. The engine's `Board` holds no colours (the
//! search never needs them), so this module follows the replay with a colour grid that it
//! clears exactly as the board is cleared, and checks after every lock that the two agree.

use crate::error::{Error, Result};
use crate::games::tencent::board::{Board, HEIGHT, WIDTH};
use crate::games::tencent::replay::{self, Outcome, Step};
use crate::games::{Piece, Pos};
use crate::piece::Shape;
use crate::record::Record;

/// The cells of the board, each 0 (empty) or 1 + the shape index of the piece that filled it.
pub type Colours = [[u8; WIDTH]; HEIGHT];

/// A cell colour code for `shape` (0 is empty).
pub const fn colour_of(shape: Shape) -> u8 {
    shape.index() as u8 + 1
}

/// The colour code of a cell of the starting board (no piece filled it in this game).
pub const START_COLOUR: u8 = 8;

/// The shape a non-zero colour code stands for (none for a starting-board cell).
pub fn shape_of_colour(code: u8) -> Option<Shape> {
    (1..=7)
        .contains(&code)
        .then(|| Shape::from_index(code as usize - 1))
}

/// The drawn cell a colour code stands for.
pub fn block_of_colour(code: u8) -> Option<crate::show::block::Block> {
    use crate::show::block::Block;
    match code {
        0 => None,
        START_COLOUR => Some(Block::Start),
        c => shape_of_colour(c).map(Block::Piece),
    }
}

/// One lock of the replay.
#[derive(Clone, Debug)]
pub struct Frame {
    /// 0-based piece index.
    pub index: usize,
    pub piece: Piece,
    /// Where the piece locked.
    pub pos: Pos,
    /// The piece's four cells `(x, y)`, y = 0 at the top; y < 0 is above the board.
    pub cells: [(i8, i8); 4],
    /// The board before the lock.
    pub before: Board,
    /// The board after the lock and its clears (a top-out lock clears nothing).
    pub after: Board,
    /// `after` with colours.
    pub colours: Colours,
    /// Points this lock earned.
    pub gain: u32,
    /// Rows this lock cleared (0 when the lock ended the game).
    pub cleared: u32,
    /// Score after this lock.
    pub score: u64,
    /// Lines cleared after this lock.
    pub lines: u64,
    /// This lock left a cell in row 0 and ended the game.
    pub top_out: bool,
}

/// A whole replay: every lock, the piece sequence and how the game ended.
#[derive(Clone, Debug)]
pub struct TencentReplay {
    pub frames: Vec<Frame>,
    /// The seed's whole piece sequence.
    pub pieces: Vec<Piece>,
    pub outcome: Outcome,
    /// The board before the first piece, and its colours (every cell [`START_COLOUR`]).
    pub start: Board,
    pub start_colours: Colours,
}

/// The state shown after `k` pieces have locked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot<'a> {
    /// Pieces locked so far.
    pub placed: usize,
    pub board: Board,
    pub colours: &'a Colours,
    pub score: u64,
    pub lines: u64,
    /// The piece to place next, if the sequence and the record go on.
    pub next: Option<Piece>,
}

impl TencentReplay {
    /// Replays `record` on `pieces`, keeping every lock.
    pub fn replay(record: &Record, pieces: Vec<Piece>) -> Result<TencentReplay> {
        TencentReplay::replay_from(&Board::EMPTY, record, pieces)
    }

    /// Replays `record` on `pieces` from the board `start`, keeping every lock.
    pub fn replay_from(
        start: &Board,
        record: &Record,
        pieces: Vec<Piece>,
    ) -> Result<TencentReplay> {
        let mut frames: Vec<Frame> = Vec::new();
        let mut colours: Colours = [[0; WIDTH]; HEIGHT];
        for (y, row) in colours.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                if start.filled(x, y) {
                    *c = START_COLOUR;
                }
            }
        }
        let start_colours = colours;
        let mut lines = 0u64;
        let mut mismatch: Option<usize> = None;
        let limit = pieces.len();
        let outcome = replay::replay_from(start, record, &pieces, |step: &Step| {
            let cells = step
                .piece
                .shape
                .cells(step.pos.state)
                .map(|(dx, dy)| (step.pos.x + dx, step.pos.y + dy));
            let ends = step.lock.top_out || step.index + 1 >= limit;
            paint(&mut colours, &cells, colour_of(step.piece.shape));
            if !step.lock.top_out {
                clear_full(&mut colours);
            }
            if occupancy(&colours) != step.lock.board && mismatch.is_none() {
                mismatch = Some(step.index);
            }
            let cleared = if ends { 0 } else { step.lock.lines };
            lines += cleared as u64;
            frames.push(Frame {
                index: step.index,
                piece: step.piece,
                pos: step.pos,
                cells,
                before: step.before,
                after: step.lock.board,
                colours,
                gain: step.gain,
                cleared,
                score: step.score,
                lines,
                top_out: step.lock.top_out,
            });
        });
        if let Some(k) = mismatch {
            return Err(Error(format!(
                "internal error: the colour grid left the board after piece {k}"
            )));
        }
        Ok(TencentReplay {
            frames,
            pieces,
            outcome,
            start: *start,
            start_colours,
        })
    }

    /// Pieces locked in the whole replay.
    pub fn placed(&self) -> usize {
        self.frames.len()
    }

    /// The state after `k` locks; `k` must be at most [`TencentReplay::placed`].
    pub fn snapshot(&self, k: usize) -> Snapshot<'_> {
        let next = if k < self.frames.len() {
            Some(self.frames[k].piece)
        } else {
            None
        };
        match k.checked_sub(1).and_then(|i| self.frames.get(i)) {
            None => Snapshot {
                placed: 0,
                board: self.start,
                colours: &self.start_colours,
                score: 0,
                lines: 0,
                next,
            },
            Some(f) => Snapshot {
                placed: k,
                board: f.after,
                colours: &f.colours,
                score: f.score,
                lines: f.lines,
                next,
            },
        }
    }

    /// Checks a piece count given on the command line (`what` names the flag).
    pub fn check_count(&self, what: &str, k: usize) -> Result<()> {
        if k > self.placed() {
            return Err(Error(format!(
                "{what} {k}: the record places only {}",
                crate::limits::plural(self.placed() as u64, "piece", "pieces")
            )));
        }
        Ok(())
    }
}

fn paint(colours: &mut Colours, cells: &[(i8, i8); 4], code: u8) {
    for &(x, y) in cells {
        if (0..HEIGHT as i8).contains(&y) && (0..WIDTH as i8).contains(&x) {
            colours[y as usize][x as usize] = code;
        }
    }
}

/// Removes full rows and shifts the rows above down, as `Board::clear_full_rows` does.
fn clear_full(colours: &mut Colours) {
    let kept: Vec<[u8; WIDTH]> = colours
        .iter()
        .filter(|row| row.contains(&0))
        .copied()
        .collect();
    let gap = HEIGHT - kept.len();
    *colours = [[0; WIDTH]; HEIGHT];
    colours[gap..].copy_from_slice(&kept);
}

/// The filled cells of a colour grid as a board.
pub fn occupancy(colours: &Colours) -> Board {
    let mut rows = [0u16; HEIGHT];
    for (y, row) in colours.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            if c != 0 {
                rows[y] |= 1 << x;
            }
        }
    }
    Board::from_rows(&rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_def::GameDef;

    #[test]
    fn snapshots_follow_the_replay() {
        let record = Record::parse("N,D18,N,C1,L3,D19,N,R3,D18").unwrap();
        let game = TencentReplay::replay(&record, GameDef::tencent_geek_4().pieces()).unwrap();
        assert_eq!(game.placed(), 3);
        let s0 = game.snapshot(0);
        assert!(s0.board.is_empty());
        assert_eq!(s0.next.map(|p| p.shape), Some(Shape::Z));
        let s3 = game.snapshot(3);
        assert_eq!(s3.board, game.frames[2].after);
        assert_eq!(s3.next, None);
        assert_eq!(occupancy(s3.colours), s3.board);
        assert_eq!(s3.board.cells(), 12);
        assert!(game.check_count("--at", 4).is_err());
    }

    #[test]
    fn colour_grid_clears_like_the_board() {
        let mut c: Colours = [[0; WIDTH]; HEIGHT];
        c[19] = [1; WIDTH];
        c[18][3] = 4;
        clear_full(&mut c);
        assert_eq!(c[19][3], 4);
        assert_eq!(c[18], [0; WIDTH]);
    }
}
