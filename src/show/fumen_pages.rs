//! A replay as fumen pages: one page per piece, showing the board before the lock with the
//! piece drawn where it locks, the lock flag set so the viewer clears the lines itself.
//!
//! The Tencent rotation states are not fumen's SRS orientations (different centres, S and Z
//! turning the other way), so a lock is not mapped state by state: each lock becomes the
//! fumen piece, rotation and position whose four cells are exactly the locked cells. The
//! board's row 0 is fumen's row 0. A Tencent board's 20 rows leave fumen's 3 top rows for a
//! piece reaching above the board (only on a top-out). A guideline board has 24 rows, one more
//! than fumen's field, but its top row never holds a cell: a scored lock has a cell below row
//! 20 (else it is a lock out) and spans at most 4 rows, so it reaches row 22 at most, and
//! clears only move cells down. A page that would need row 23 is refused, not cut.

use super::frames::{Block, Frame, Replay};
use crate::error::{Error, Result};
use crate::fumen::{self, Field, Kind, Operation, Page, FIELD_TOP};
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

fn too_high(what: String) -> Error {
    Error(format!(
        "{what} fills row {FIELD_TOP}, above the {FIELD_TOP} rows of a fumen field"
    ))
}

/// The fumen operation whose cells are lock `k`'s cells.
pub fn operation(replay: &Replay, k: usize) -> Result<Operation> {
    let lock = &replay.locks[k];
    if lock.cells.iter().any(|&(_, y)| y as usize >= FIELD_TOP) {
        return Err(too_high(format!("lock {k} ({})", lock.piece.letter())));
    }
    let cells = lock.cells.map(|(x, y)| (x as i32, y as i32));
    Operation::covering(kind_of(lock.piece), &cells).ok_or_else(|| {
        Error(format!(
            "internal error: lock {k} ({}) has no fumen orientation",
            lock.piece.letter()
        ))
    })
}

/// A frame's board as a fumen field; `k` (the locks before it) names it in an error.
pub fn field(frame: &Frame, k: usize) -> Result<Field> {
    let mut f = Field::default();
    for (y, row) in frame.rows.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            if let Some(block) = cell {
                if y >= FIELD_TOP {
                    return Err(too_high(format!("the board after {k} locks")));
                }
                let kind = match block {
                    Block::Piece(shape) => kind_of(*shape),
                    Block::Start => Kind::Gray,
                };
                f.set(x, y as i32, kind);
            }
        }
    }
    Ok(f)
}

/// The comment of the page that shows the state after `k` pieces.
fn comment(replay: &Replay, k: usize) -> String {
    let f = &replay.frames[k];
    // The piece that locks, which in a guideline game may be the one from hold.
    let piece = match replay.locks.get(k) {
        Some(lock) => format!("piece {k} {}", lock.piece.letter()),
        None => format!("end after {k} pieces"),
    };
    // A family's own figures (an NES game's level and speed) follow score and lines.
    let note = f
        .note
        .as_ref()
        .map_or(String::new(), |n| format!(", {}", n.replace("  ", ", ")));
    match f.chains {
        None => format!("{piece}, score {}, lines {}{note}", f.score, f.lines),
        Some(c) => format!(
            "{piece}, points {}, attack {}, lines {}",
            f.score, c.attack, f.lines
        ),
    }
}

/// Pages for the pieces `from..to` (0-based, `to` exclusive), and a last page with the board
/// after piece `to - 1` and no piece. With `comments`, each page says which piece it is and
/// the score and lines so far (most of the string's length: about 75 characters a page
/// against 3 without, when every field follows from the previous lock).
pub fn pages(replay: &Replay, from: usize, to: usize, comments: bool) -> Result<Vec<Page>> {
    replay.check_count("--from", from)?;
    replay.check_count("--to", to)?;
    if from >= to {
        if replay.placed() == 0 {
            return Err(Error(
                "the record places no piece (its game ended at the first), so there is no page \
                 to write"
                    .into(),
            ));
        }
        return Err(Error(format!(
            "--from {from} --to {to}: the range holds no piece (--to is exclusive)"
        )));
    }
    let mut pages = Vec::with_capacity(to - from + 1);
    for k in from..=to {
        let op = if k < to {
            Some(operation(replay, k)?)
        } else {
            None
        };
        pages.push(Page {
            field: field(&replay.frames[k], k)?,
            operation: op,
            comment: if comments {
                comment(replay, k)
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
pub fn export(replay: &Replay, from: usize, to: usize, comments: bool) -> Result<String> {
    Ok(fumen::encode(&pages(replay, from, to, comments)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_def::GameDef;
    use crate::games::tencent::board::{Board, HEIGHT, WIDTH};
    use crate::games::{tencent, Pos};
    use crate::record::Record;
    use crate::show::frames::Lock;
    use crate::show::game::TencentReplay;

    fn one_lock(height: usize, piece: Shape, cells: [(i8, i8); 4]) -> Replay {
        let frame = Frame {
            rows: vec![[None; WIDTH]; height],
            score: 0,
            lines: 0,
            next: vec![piece],
            chains: None,
            note: None,
        };
        Replay {
            height,
            visible: 20,
            total: 1,
            frames: vec![frame.clone(), frame],
            locks: vec![Lock {
                piece,
                cells,
                gain: 0,
                attack: None,
                held: false,
            }],
            end: "end of record",
            solo: None,
        }
    }

    /// Every shape in every Tencent state maps to a fumen operation with the same cells.
    #[test]
    fn every_shape_and_state_maps_to_its_exact_cells() {
        for shape in Shape::ALL {
            for state in 0..4u8 {
                let pos = Pos { x: 4, y: 17, state };
                assert!(tencent::fits(&Board::EMPTY, shape, pos));
                let cells = shape
                    .cells(state)
                    .map(|(dx, dy)| (4 + dx, HEIGHT as i8 - 1 - (17 + dy)));
                let op = operation(&one_lock(HEIGHT, shape, cells), 0).unwrap();
                assert_eq!(op.kind, kind_of(shape));
                let mut got = op.cells().unwrap();
                let mut want = cells.map(|(x, y)| (x as i32, y as i32));
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
        let game = TencentReplay::replay(&record, GameDef::tencent_geek_4().pieces()).unwrap();
        let replay = Replay::from_tencent(&game);
        let text = export(&replay, 0, replay.placed(), true).unwrap();
        let bare = export(&replay, 0, replay.placed(), false).unwrap();
        assert!(
            bare.len() * 4 < text.len(),
            "comments make most of the length"
        );
        let bare = fumen::decode(&bare).unwrap();
        assert!(bare.iter().all(|p| p.comment.is_empty()));
        let decoded = fumen::decode(&text).unwrap();
        assert_eq!(decoded.len(), replay.placed() + 1);
        for (k, page) in decoded.iter().enumerate() {
            assert_eq!(page.field, field(&replay.frames[k], k).unwrap(), "page {k}");
            for y in 0..HEIGHT {
                for x in 0..WIDTH {
                    let board = game.snapshot(k).board;
                    assert_eq!(
                        page.field.get(x, y as i32) != Kind::Empty,
                        board.filled(x, HEIGHT - 1 - y)
                    );
                }
            }
        }
        assert!(decoded[3].comment.starts_with("piece 3 "));
        assert!(pages(&replay, 2, 2, true).is_err());
        assert!(pages(&replay, 0, replay.placed() + 1, true).is_err());
    }

    /// A guideline board is 24 rows; fumen's field 23: the top row is refused, naming the
    /// lock, and row 22 (the highest a scored lock reaches) is kept.
    /// A family's own figures (an NES game's level and speed) end each page's comment.
    #[test]
    fn a_note_follows_score_and_lines_in_the_comment() {
        let mut replay = one_lock(HEIGHT, Shape::O, [(4, 0), (5, 0), (4, 1), (5, 1)]);
        assert_eq!(comment(&replay, 0), "piece 0 O, score 0, lines 0");
        replay.frames[0].note = Some("level 18  speed 30hz".into());
        assert_eq!(
            comment(&replay, 0),
            "piece 0 O, score 0, lines 0, level 18, speed 30hz"
        );
    }

    #[test]
    fn a_cell_in_row_23_is_refused_and_row_22_fits() {
        let tall = [(0, 20), (0, 21), (0, 22), (0, 23)];
        let err = export(&one_lock(24, Shape::I, tall), 0, 1, true).unwrap_err();
        assert_eq!(
            err.to_string(),
            "lock 0 (I) fills row 23, above the 23 rows of a fumen field"
        );
        let mut replay = one_lock(24, Shape::I, [(0, 19), (0, 20), (0, 21), (0, 22)]);
        replay.frames[1].rows[23][5] = Some(Block::Piece(Shape::O));
        let err = export(&replay, 0, 1, true).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("the board after 1 locks fills row 23"));
        replay.frames[1].rows[23][5] = None;
        let decoded = fumen::decode(&export(&replay, 0, 1, true).unwrap()).unwrap();
        let mut got = decoded[0].operation.unwrap().cells().unwrap();
        got.sort();
        assert_eq!(got, [(0, 19), (0, 20), (0, 21), (0, 22)]);
    }
}
