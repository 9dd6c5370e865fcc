//! A replay as fumen pages: one page per piece, showing the board before the lock with the
//! piece drawn where it locks, the lock flag set so the viewer clears the lines itself.
//!
//! The Tencent rotation states are not fumen's SRS orientations (different centres, S and Z
//! turning the other way), so a lock is not mapped state by state: each lock becomes the
//! fumen piece, rotation and position whose four cells are exactly the locked cells. The 20
//! rows of the board sit at the bottom of fumen's 23-row field, so a piece reaching above the
//! board (only on a top-out) still fits.

use super::fumen::{self, Field, Kind, Operation, Page};
use super::game::{shape_of_colour, Colours, Frame, Game};
use crate::board::{HEIGHT, WIDTH};
use crate::error::{Error, Result};
use crate::piece::Shape;

/// The fumen kind (and colour) of a shape.
pub const fn kind_of(shape: Shape) -> Kind {
    match shape {
        Shape::I => Kind::I,
        Shape::L => Kind::L,
        Shape::J => Kind::J,
        Shape::T => Kind::T,
        Shape::O => Kind::O,
        Shape::S => Kind::S,
        Shape::Z => Kind::Z,
    }
}

/// A board cell `(x, y)` (y = 0 at the top, negative above the board) in fumen coordinates
/// (y = 0 at the bottom).
pub const fn to_fumen(x: i8, y: i8) -> (i32, i32) {
    (x as i32, HEIGHT as i32 - 1 - y as i32)
}

/// The fumen operation whose cells are the frame's locked cells.
pub fn operation(frame: &Frame) -> Result<Operation> {
    let cells = frame.cells.map(|(x, y)| to_fumen(x, y));
    Operation::covering(kind_of(frame.piece.shape), &cells).ok_or_else(|| {
        Error(format!(
            "internal error: piece {} ({:?}) has no fumen orientation",
            frame.index, frame.piece
        ))
    })
}

/// A coloured board as the bottom 20 rows of a fumen field.
pub fn field(colours: &Colours) -> Field {
    let mut f = Field::default();
    for (y, row) in colours.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            if let Some(shape) = shape_of_colour(c) {
                f.set(x, HEIGHT as i32 - 1 - y as i32, kind_of(shape));
            }
        }
    }
    debug_assert!(colours.iter().all(|r| r.len() == WIDTH));
    f
}

/// The comment of the page that shows the state after `k` pieces.
fn comment(game: &Game, k: usize) -> String {
    let snap = game.snapshot(k);
    let piece = match snap.next {
        Some(p) => format!("piece {k} {}", p.shape.letter()),
        None => format!("end after {k} pieces"),
    };
    format!("{piece}, score {}, lines {}", snap.score, snap.lines)
}

/// Pages for the pieces `from..to` (0-based, `to` exclusive), and a last page with the board
/// after piece `to - 1` and no piece. With `comments`, each page says which piece it is and
/// the score and lines so far (most of the string's length: about 75 characters a page
/// against 3 without, when every field follows from the previous lock).
pub fn pages(game: &Game, from: usize, to: usize, comments: bool) -> Result<Vec<Page>> {
    game.check_count("--to", to)?;
    if from >= to {
        return Err(Error(format!(
            "--from {from} --to {to}: the range holds no piece (--to is exclusive)"
        )));
    }
    let mut pages = Vec::with_capacity(to - from + 1);
    for k in from..=to {
        let snap = game.snapshot(k);
        let op = match game.frames.get(k) {
            Some(frame) if k < to => Some(operation(frame)?),
            _ => None,
        };
        pages.push(Page {
            field: field(snap.colours),
            operation: op,
            comment: if comments {
                comment(game, k)
            } else {
                String::new()
            },
            lock: true,
            colour: k == from,
        });
    }
    Ok(pages)
}

/// The fumen string of the pieces `from..to`.
pub fn export(game: &Game, from: usize, to: usize, comments: bool) -> Result<String> {
    Ok(fumen::encode(&pages(game, from, to, comments)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::record::Record;
    use crate::rules::{tencent, Piece, Pos};
    use crate::seed::Seed;

    /// Every shape in every Tencent state maps to a fumen operation with the same cells, and
    /// locking it in fumen gives the engine's board.
    #[test]
    fn every_shape_and_state_maps_to_its_exact_cells() {
        for shape in Shape::ALL {
            for state in 0..4u8 {
                let piece = Piece { shape, state };
                let pos = Pos { x: 4, y: 17, state };
                assert!(tencent::fits(&Board::EMPTY, shape, pos));
                let lock = tencent::lock(&Board::EMPTY, shape, pos);
                let frame = Frame {
                    index: 0,
                    piece,
                    pos,
                    cells: shape.cells(state).map(|(dx, dy)| (4 + dx, 17 + dy)),
                    before: Board::EMPTY,
                    after: lock.board,
                    colours: [[0; WIDTH]; HEIGHT],
                    gain: 0,
                    cleared: 0,
                    score: 0,
                    lines: 0,
                    top_out: false,
                };
                let op = operation(&frame).unwrap();
                assert_eq!(op.kind, kind_of(shape));
                let mut got = op.cells().unwrap();
                let mut want = frame.cells.map(|(x, y)| to_fumen(x, y));
                got.sort();
                want.sort();
                assert_eq!(got, want, "{shape:?} state {state}");
            }
        }
    }

    #[test]
    fn pages_replay_to_the_engine_boards_in_our_decoder() {
        let record = Record::parse(
            "N,C1,L1,D18,N,R1,D19,L1,N,D18,N,R3,D18,N,R4,D19,N,R4,D16,N,R3,D15,N,C1,R5,D17",
        )
        .unwrap();
        let game = Game::replay(&record, Seed::tencent_geek_4().pieces()).unwrap();
        let text = export(&game, 0, game.placed(), true).unwrap();
        let bare = export(&game, 0, game.placed(), false).unwrap();
        assert!(
            bare.len() * 4 < text.len(),
            "comments make most of the length"
        );
        let bare = fumen::decode(&bare).unwrap();
        assert!(bare.iter().all(|p| p.comment.is_empty()));
        let decoded = fumen::decode(&text).unwrap();
        assert_eq!(decoded.len(), game.placed() + 1);
        for (k, page) in decoded.iter().enumerate() {
            assert_eq!(page.field, field(game.snapshot(k).colours), "page {k}");
        }
        assert!(decoded[3].comment.starts_with("piece 3 "));
        assert!(pages(&game, 2, 2, true).is_err());
        assert!(pages(&game, 0, game.placed() + 1, true).is_err());
    }
}
