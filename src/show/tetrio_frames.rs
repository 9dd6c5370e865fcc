//! A game replayed on TETR.IO's own engine as the views' [`Replay`]: the board as TETR.IO had
//! it after each lock (garbage rows included), hold, previews, combo, back-to-back, attack.

use super::block::Block;
use super::frames::{Chains, Frame, Lock, Replay, Row, Solo, SoloFigures};
use crate::error::{Error, Result};
use crate::games::guideline::board::{HEIGHT, VISIBLE};
use crate::games::tetrio::engine::{self, Snapshot};
use crate::games::tetrio::pieces::{LETTERS, SHAPES};
use crate::games::tetrio::stats::TetrioStats;
use crate::piece::Shape;

/// What a view needs of the engine after a lock (or at the start): its snapshot, and the
/// points, lines and attack so far.
pub struct TetrioState {
    pub snapshot: Snapshot,
    pub points: u64,
    pub lines: u64,
    pub attack: u64,
    /// The presses and finesse faults so far (the time is the locks').
    pub solo: SoloFigures,
}

impl SoloFigures {
    /// The figures of TETR.IO's statistics.
    pub fn of(stats: &TetrioStats) -> SoloFigures {
        SoloFigures {
            time_ms: stats.final_time,
            inputs: stats.inputs,
            faults: stats.finesse.faults,
        }
    }
}

/// The shape of TETR.IO's piece index.
fn shape(piece: u8) -> Shape {
    Shape::from_letter(LETTERS[piece as usize]).expect("TETR.IO's letters are the seven shapes")
}

fn block(cell: u8) -> Option<Block> {
    match cell {
        0 => None,
        1..=7 => Some(Block::Piece(shape(cell - 1))),
        _ => Some(Block::Start),
    }
}

impl Replay {
    /// The replay of `states` (the start, then the game after each of `locks`), `last` the
    /// statistics at the end (what `verify` reports: keys and time after the last lock
    /// included), `total` the pieces in the whole game, `end` why it ended.
    pub fn from_tetrio(
        states: &[TetrioState],
        locks: &[engine::Lock],
        last: &TetrioStats,
        total: usize,
        end: &'static str,
    ) -> Result<Replay> {
        let mut frames = states
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let rows = s
                    .snapshot
                    .rows
                    .iter()
                    .take(HEIGHT)
                    .map(|r| {
                        let row: Row = std::array::from_fn(|x| r.get(x).copied().and_then(block));
                        (r.len() == row.len()).then_some(row)
                    })
                    .collect::<Option<Vec<Row>>>()
                    .ok_or_else(|| Error("the views draw boards 10 columns wide".into()))?;
                Ok(Frame {
                    rows,
                    score: s.points,
                    lines: s.lines,
                    next: if k < locks.len() {
                        s.snapshot.next.iter().map(|&p| shape(p)).collect()
                    } else {
                        Vec::new()
                    },
                    chains: Some(Chains {
                        hold: s.snapshot.hold.map(shape),
                        combo: s.snapshot.combo as i32,
                        back_to_back: s.snapshot.b2b >= 0,
                        attack: s.attack,
                    }),
                    note: None,
                })
            })
            .collect::<Result<Vec<Frame>>>()?;
        // A record's replay runs lock by lock: the time so far is the frame of the last lock
        // (the end's, from the statistics at the end).
        let mut solo: Vec<SoloFigures> = states
            .iter()
            .enumerate()
            .map(|(k, s)| SoloFigures {
                time_ms: k.checked_sub(1).map_or(0.0, |i| {
                    locks
                        .get(i)
                        .map_or(s.solo.time_ms, |l| l.frame as f64 * 1000.0 / 60.0)
                }),
                ..s.solo
            })
            .collect();
        if let (Some(f), Some(s)) = (frames.last_mut(), solo.last_mut()) {
            f.score = last.score;
            f.lines = last.lines as u64;
            *s = SoloFigures::of(last);
        }
        let locks = locks
            .iter()
            .zip(states.windows(2))
            .map(|(l, pair)| Lock {
                piece: shape(l.piece),
                cells: SHAPES[l.piece as usize][l.rotation as usize]
                    .map(|(bx, by)| ((l.x + bx) as i8, (l.y - by) as i8)),
                gain: (pair[1].points - pair[0].points) as u32,
                attack: Some(l.attack),
                held: l.held,
            })
            .collect();
        Ok(Replay {
            height: HEIGHT,
            visible: VISIBLE,
            total,
            frames,
            locks,
            end,
            solo: Some(Solo {
                figures: solo,
                keys_known: true,
                time_known: true,
            }),
        })
    }
}

/// Frame `k` of a replay with hold and previews as text: the counters, then the board (the
/// buffer rows above row 20 only where they hold cells), as the guideline text view draws it.
pub fn render(replay: &Replay, k: usize) -> String {
    let f = &replay.frames[k];
    let c = f.chains.unwrap_or(Chains {
        hold: None,
        combo: -1,
        back_to_back: false,
        attack: 0,
    });
    let queue: String = f.next.iter().map(|s| s.letter()).collect();
    let mut out = format!(
        "lock {k}/{}  points {}  attack {}  lines {}  combo {}  back-to-back {}\n\
         hold {}  next {}\n",
        replay.total,
        f.score,
        c.attack,
        f.lines,
        c.combo.max(0),
        if c.back_to_back { "on" } else { "off" },
        c.hold.map_or('-', |s| s.letter()),
        queue
    );
    let top = f
        .rows
        .iter()
        .rposition(|r| r.iter().any(|c| c.is_some()))
        .map_or(0, |y| y + 1);
    for y in (0..top.max(replay.visible)).rev() {
        let row: String = f.rows[y]
            .iter()
            .map(|c| c.map_or('.', |b| b.letter()))
            .collect();
        out.push_str(&format!("|{row}|"));
        if y == replay.visible {
            out.push_str(" buffer");
        }
        out.push('\n');
        if y == replay.visible {
            out.push_str("|----------| row 20\n");
        }
    }
    out.push_str("+----------+\n");
    out
}
