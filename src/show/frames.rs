//! The one data model the fumen pages, the HTML page and the animation draw: a replay as plain
//! data, state by state, that each game family's replay fills in.
//!
//! The two families differ in board height (20 rows, or 20 visible and 4 buffer rows), in
//! coordinates (y down from the top, or y up from the bottom) and in what a player sees beside
//! the board (the next piece; or hold, five previews, combo, back-to-back and attack). The
//! views need none of those differences, only a grid of piece letters with row 0 at the
//! bottom, the cells of each lock in the same coordinates, and the numbers to print, so the
//! conversion happens once here and each view has a single implementation.

pub use super::block::Block;
use super::game::{self, block_of_colour};
use super::guideline_text::{GuidelinePlayback, PREVIEWS};
use crate::games::guideline::board::{HEIGHT as GUIDELINE_HEIGHT, VISIBLE};
use crate::games::guideline::replay::{self as guideline, EndReason};
use crate::games::guideline::State;
use crate::games::tencent::board::{HEIGHT as TENCENT_HEIGHT, WIDTH};
use crate::piece::Shape;

/// One row of cells, each the block that filled it.
pub type Row = [Option<Block>; WIDTH];

/// What the guideline family shows beside the board; the Tencent game has none of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chains {
    pub hold: Option<Shape>,
    /// The combo counter (−1 before a clear).
    pub combo: i32,
    pub back_to_back: bool,
    pub attack: u64,
}

/// The game after some locks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The board, `rows[0]` the bottom row.
    pub rows: Vec<Row>,
    /// Score (Tencent) or points (guideline) so far.
    pub score: u64,
    pub lines: u64,
    /// The piece to place next and the previews after it (empty at the end).
    pub next: Vec<Shape>,
    pub chains: Option<Chains>,
    /// What else the family shows beside score and lines (a NES game: level and speed):
    /// fields apart by two spaces, each a label, a space and its value
    /// (`level 18  speed 30hz`); see [`Frame::figures`].
    pub note: Option<String>,
}

impl Frame {
    /// The family's own figures of [`Frame::note`], each its label and its value
    /// (`[("level", "18"), ("speed", "30hz")]`); a field of one word is a label with no value.
    pub fn figures(&self) -> Vec<(&str, &str)> {
        self.note.as_deref().map_or_else(Vec::new, |note| {
            note.split("  ")
                .map(str::trim)
                .filter(|field| !field.is_empty())
                .map(|field| field.split_once(' ').unwrap_or((field, "")))
                .map(|(label, value)| (label, value.trim()))
                .collect()
        })
    }
}

/// One lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lock {
    pub piece: Shape,
    /// The locked cells `(x, y)`, y up from the bottom row; a Tencent top-out lock may reach
    /// above the board.
    pub cells: [(i8, i8); 4],
    /// Score or points this lock earned.
    pub gain: u32,
    /// Attack this lock sent (guideline only).
    pub attack: Option<u32>,
    /// The piece came in through hold (guideline only).
    pub held: bool,
}

/// A whole replay: `frames[k]` is the game after `k` locks, `locks[k]` the lock from frame
/// `k` to frame `k + 1`.
#[derive(Clone, Debug)]
pub struct Replay {
    /// Rows of the board (20, or 24 for guideline games).
    pub height: usize,
    /// Rows drawn as the field; those from here up are buffer rows.
    pub visible: usize,
    /// Pieces in the whole game.
    pub total: usize,
    pub frames: Vec<Frame>,
    pub locks: Vec<Lock>,
    /// Why the game ended, in words.
    pub end: &'static str,
    /// TETR.IO's solo figures after 0, 1, ... n locks (`None` for the other families).
    pub solo: Option<Solo>,
}

/// TETR.IO's solo figures of a replay, and which of them the record can tell: a record of
/// placements has no keys (its inputs and faults are the export's to give) and, on a game
/// without lock times, no time.
#[derive(Clone, Debug, PartialEq)]
pub struct Solo {
    /// After 0, 1, ... n locks.
    pub figures: Vec<SoloFigures>,
    pub keys_known: bool,
    pub time_known: bool,
}

/// What TETR.IO's solo rules count besides the score and the lines: the time, the key
/// presses and the finesse faults so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SoloFigures {
    /// Milliseconds (TETR.IO's `finalTime` so far).
    pub time_ms: f64,
    pub inputs: u32,
    pub faults: u32,
}

impl Replay {
    /// Locks in the replay.
    pub fn placed(&self) -> usize {
        self.locks.len()
    }

    /// Checks a piece count given on the command line (`what` names the flag).
    pub fn check_count(&self, what: &str, k: usize) -> crate::error::Result<()> {
        if k > self.placed() {
            return Err(crate::error::Error(format!(
                "{what} {k}: the record places only {}",
                crate::limits::plural(self.placed() as u64, "piece", "pieces")
            )));
        }
        Ok(())
    }

    /// A Tencent replay, turned upside down (its rows count from the top).
    pub fn from_tencent(g: &game::TencentReplay) -> Replay {
        let flip = |y: i8| TENCENT_HEIGHT as i8 - 1 - y;
        let frames = (0..=g.placed())
            .map(|k| {
                let snap = g.snapshot(k);
                Frame {
                    rows: snap
                        .colours
                        .iter()
                        .rev()
                        .map(|row| row.map(block_of_colour))
                        .collect(),
                    score: snap.score,
                    lines: snap.lines,
                    next: snap.next.map(|p| p.shape).into_iter().collect(),
                    chains: None,
                    note: None,
                }
            })
            .collect();
        let locks = g
            .frames
            .iter()
            .map(|f| Lock {
                piece: f.piece.shape,
                cells: f.cells.map(|(x, y)| (x, flip(y))),
                gain: f.gain,
                attack: None,
                held: false,
            })
            .collect();
        Replay {
            height: TENCENT_HEIGHT,
            visible: TENCENT_HEIGHT,
            total: g.pieces.len(),
            frames,
            locks,
            end: super::text::end_reason(g),
            solo: None,
        }
    }

    /// A guideline replay; `game` gives the pieces for the previews.
    pub fn from_guideline(g: &GuidelinePlayback, game: &guideline::GuidelineGame) -> Replay {
        let frame = |k: usize, state: &State, rows: Vec<Row>, score, lines, attack| {
            let next = if k < g.placed() {
                game.pieces
                    .iter()
                    .skip(state.next_index(k))
                    .take(1 + PREVIEWS)
                    .copied()
                    .collect()
            } else {
                Vec::new()
            };
            Frame {
                rows,
                score,
                lines,
                next,
                chains: Some(Chains {
                    hold: state.hold,
                    combo: state.combo,
                    back_to_back: state.b2b,
                    attack,
                }),
                note: None,
            }
        };
        let mut frames = vec![frame(0, &g.start.0, g.start.1.to_vec(), 0, 0, 0)];
        let mut lines = 0;
        for (k, (e, grid)) in g.locks.iter().enumerate() {
            lines += e.rows as u64;
            frames.push(frame(
                k + 1,
                &e.after,
                grid.to_vec(),
                e.total_points,
                lines,
                e.total_attack,
            ));
        }
        let locks = g
            .locks
            .iter()
            .map(|(e, _)| Lock {
                piece: e.piece,
                cells: e.cells,
                gain: e.points,
                attack: Some(e.attack),
                held: e.hold,
            })
            .collect();
        Replay {
            height: GUIDELINE_HEIGHT,
            visible: VISIBLE,
            total: game.length,
            frames,
            locks,
            end: match g.outcome.end_reason {
                Some(EndReason::RecordEnd) | None => "end of record",
                Some(EndReason::PiecesDone) => "last piece",
                Some(EndReason::BlockOut) => "block out",
                Some(EndReason::LockOut) => "lock out",
            },
            solo: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_def::GameDef;
    use crate::record::Record;

    #[test]
    fn tencent_frames_are_the_snapshots_upside_down() {
        let record = Record::parse("N,D18,N,C1,L3,D19").unwrap();
        let g = game::TencentReplay::replay(&record, GameDef::tencent_geek_4().pieces()).unwrap();
        let r = Replay::from_tencent(&g);
        assert_eq!((r.placed(), r.frames.len(), r.height), (2, 3, 20));
        for (k, f) in r.frames.iter().enumerate() {
            let snap = g.snapshot(k);
            for y in 0..TENCENT_HEIGHT {
                for x in 0..WIDTH {
                    assert_eq!(f.rows[y][x].is_some(), snap.board.filled(x, 19 - y));
                }
            }
        }
        // Z in state 0 dropped to 18: two cells in the bottom row, two above them.
        let mut cells = r.locks[0].cells;
        cells.sort();
        assert_eq!(cells, [(3, 2), (4, 1), (4, 2), (5, 1)]);
        assert!(cells.iter().all(
            |&(x, y)| r.frames[1].rows[y as usize][x as usize] == Some(Block::Piece(Shape::Z))
        ));
        assert_eq!(r.frames[0].next, vec![Shape::Z]);
        assert!(r.frames[2].next.is_empty());
        assert!(r.frames[0].figures().is_empty());
    }

    #[test]
    fn a_note_is_labelled_figures() {
        let mut f = Frame {
            rows: Vec::new(),
            score: 0,
            lines: 0,
            next: Vec::new(),
            chains: None,
            note: Some("level 18  speed 30hz".into()),
        };
        assert_eq!(f.figures(), [("level", "18"), ("speed", "30hz")]);
        f.note = Some("level 19".into());
        assert_eq!(f.figures(), [("level", "19")]);
    }
}
