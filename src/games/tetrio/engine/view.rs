//! What a view shows of the engine between locks: the board (bottom row first), the hold
//! piece, the piece to play and the previews, the combo and back-to-back counters.

use super::Engine;

/// The engine's game at one moment, as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The board's rows, bottom first, each cell 0 (empty), 1 to 7 (TETR.IO's piece index
    /// plus one: `Z L O S I J T`) or 8 (garbage).
    pub rows: Vec<Vec<u8>>,
    /// The held piece (TETR.IO's piece index).
    pub hold: Option<u8>,
    /// The piece in play, then the previews (TETR.IO's piece indexes).
    pub next: Vec<u8>,
    /// The combo counter (−1 before a clear), and the back-to-back chain (−1 before one).
    pub combo: i64,
    pub b2b: i64,
}

impl Engine {
    /// The game as it stands, with `previews` pieces after the one in play.
    pub fn snapshot(&self, previews: usize) -> Snapshot {
        let mut next = vec![self.falling.piece];
        next.extend(self.queue.iter().take(previews).copied());
        Snapshot {
            rows: self.board.clone(),
            hold: self.held,
            next,
            combo: self.combo,
            b2b: self.b2b,
        }
    }

    /// The pieces left in the 7-bag after the last of `previews` previews (TBP's
    /// `bag_state`): the dealt pieces past them up to the end of that bag, or a whole bag when
    /// the previews end one. Bags are dealt whole, so their ends lie a multiple of seven from
    /// the end of the dealt queue.
    pub fn bag_after(&self, previews: usize) -> Vec<u8> {
        let len = self.queue.len();
        let mut end = len;
        while end >= previews + 7 {
            end -= 7;
        }
        if end <= previews {
            return (0..7).collect();
        }
        self.queue
            .iter()
            .skip(previews)
            .take(end - previews)
            .copied()
            .collect()
    }
}
