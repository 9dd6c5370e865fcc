//! The board of a guideline game as text, after K locks: the 20 visible rows (and the buffer
//! rows when something reaches them), each cell lettered by the piece that filled it, with
//! the hold slot, the pieces to come, combo, back-to-back, points and attack.

use crate::error::{Error, Result};
use crate::games::guideline::board::{Board, HEIGHT, VISIBLE, WIDTH};
use crate::games::guideline::replay::{self, GuidelineGame, LockEvent, Outcome};
use crate::games::guideline::State;
use crate::piece::Shape;
use crate::record::Record;
use crate::show::block::Block;

/// Previews shown after the current piece (TETR.IO shows five).
pub const PREVIEWS: usize = 5;

/// The board with the block in each cell, row 0 at the bottom.
pub type Grid = [[Option<Block>; WIDTH]; HEIGHT];

/// A guideline replay kept lock by lock, with a letter grid that follows the board.
pub struct GuidelinePlayback {
    /// Each lock with the letter grid after it (row 0 at the bottom).
    pub locks: Vec<(LockEvent, Grid)>,
    pub outcome: Outcome,
    /// The state and grid before the first lock (the game's starting position).
    pub start: (State, Grid),
}

impl GuidelinePlayback {
    /// Replays `record` on `game`, following every lock with the letter grid; a grid that
    /// stops matching the engine's board is a bug, reported as an error.
    pub fn replay(record: &Record, game: &GuidelineGame) -> Result<GuidelinePlayback> {
        let mut grid: Grid = [[None; WIDTH]; HEIGHT];
        for (y, row) in grid.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                if game.start.board.filled(x, y) {
                    *c = Some(Block::Start);
                }
            }
        }
        let start = (game.start, grid);
        let mut locks = Vec::new();
        let mut mismatch = None;
        let outcome = replay::replay_with(record, game, |e| {
            for &(x, y) in &e.cells {
                grid[y as usize][x as usize] = Some(Block::Piece(e.piece));
            }
            let mut kept: Vec<[Option<Block>; WIDTH]> = grid
                .iter()
                .copied()
                .filter(|row| row.iter().any(|c| c.is_none()))
                .collect();
            kept.resize(HEIGHT, [None; WIDTH]);
            grid.copy_from_slice(&kept);
            if occupancy(&grid) != e.after.board && mismatch.is_none() {
                mismatch = Some(e.lock);
            }
            locks.push((*e, grid));
        });
        if let Some(lock) = mismatch {
            return Err(Error(format!(
                "bug: the letter grid and the board differ after lock {lock}"
            )));
        }
        Ok(GuidelinePlayback {
            locks,
            outcome,
            start,
        })
    }

    /// Locks made.
    pub fn placed(&self) -> usize {
        self.locks.len()
    }
}

fn occupancy(grid: &Grid) -> Board {
    let mut b = Board::EMPTY;
    for (y, row) in grid.iter().enumerate() {
        for (x, c) in row.iter().enumerate() {
            if c.is_some() {
                b.fill(x, y);
            }
        }
    }
    b
}

/// The text of the game after `k` locks (0 = the empty start).
pub fn render(g: &GuidelinePlayback, game: &GuidelineGame, k: usize) -> Result<String> {
    if k > g.placed() {
        return Err(Error(format!(
            "--at {k}: the record makes {} locks",
            g.placed()
        )));
    }
    let (state, grid, totals) = match k {
        0 => (g.start.0, g.start.1, (0, 0)),
        _ => {
            let (e, grid) = &g.locks[k - 1];
            (e.after, *grid, (e.total_points, e.total_attack))
        }
    };
    let lines: u64 = g.locks[..k].iter().map(|(e, _)| e.rows as u64).sum();
    let letter = |s: Option<Shape>| s.map_or('-', |s| s.letter());
    let next = state.next_index(k);
    let queue: String = game
        .pieces
        .iter()
        .skip(next)
        .take(1 + PREVIEWS)
        .map(|s| s.letter())
        .collect();
    let mut out = format!(
        "lock {k}/{}  points {}  attack {}  lines {lines}  combo {}  back-to-back {}\n\
         hold {}  next {}\n",
        game.length,
        totals.0,
        totals.1,
        state.combo.max(0),
        if state.b2b { "on" } else { "off" },
        letter(state.hold),
        queue
    );
    let top = (0..WIDTH).map(|x| state.board.height(x)).max().unwrap_or(0) as usize;
    for y in (0..top.max(VISIBLE)).rev() {
        let row: String = grid[y]
            .iter()
            .map(|c| c.map_or('.', |b| b.letter()))
            .collect();
        out.push_str(&format!("|{row}|"));
        if y == VISIBLE {
            out.push_str(" buffer");
        }
        out.push('\n');
        if y == VISIBLE {
            out.push_str("|----------| row 20\n");
        }
    }
    out.push_str("+----------+\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::guideline::{ComboTable, Objective, Rules, TopOut};
    use crate::games::srs::RotationSystem;

    #[test]
    fn ten_vertical_i_pieces_and_a_hold() {
        let game = GuidelineGame {
            rules: Rules {
                rotation: RotationSystem::SrsPlus,
                combo_table: ComboTable::Guideline,
                objective: Objective::Attack,
                top: TopOut::Guideline,
            },
            length: 12,
            pieces: vec![Shape::I; 9]
                .into_iter()
                .chain([Shape::T, Shape::I, Shape::O, Shape::S, Shape::Z])
                .collect(),
            start: State::START,
        };
        let text =
            "N,C1,L5,N,C1,L4,N,C1,L3,N,C1,L2,N,C1,L1,N,C1,N,C1,R1,N,C1,R2,N,C1,R3,N,H1,C1,R4";
        let record = game.parse_record(text).unwrap();
        let g = GuidelinePlayback::replay(&record, &game).unwrap();
        let before = render(&g, &game, 9).unwrap();
        assert!(before.starts_with("lock 9/12  points 0  attack 0  lines 0  combo 0  back-to-back off\nhold -  next TIOSZ"), "{before}");
        assert!(
            before.contains("\n|IIIIIIIII.|\n+----------+\n"),
            "{before}"
        );
        // the T goes to hold, the tenth I clears four rows and the board
        let after = render(&g, &game, 10).unwrap();
        assert!(after.starts_with("lock 10/12  points 2800  attack 14  lines 4  combo 0  back-to-back on\nhold T  next OSZ"), "{after}");
        assert!(after.ends_with("|..........|\n+----------+\n"));
        assert_eq!(after.lines().count(), 2 + 20 + 1);
        assert!(render(&g, &game, 11)
            .unwrap_err()
            .to_string()
            .contains("10 locks"));
    }
}
