//! A codec for fumen (テト譜) strings, version 115: the page lists that fumen viewers and most
//! Tetris tools read and write (`v115@vhAAgH` is one empty page).
//!
//! Written from the format's public description rather than pulled in as a crate: the one Rust
//! crate for it (`fumen` 0.1.2) was last released in 2020 with 7 of its 45 items documented,
//! and the format is small enough to own. The npm package `tetris-fumen` is the reference implementation; the
//! integration test `tests/show_fumen.rs` decodes this encoder's output with it.
//!
//! The format, as this module implements it:
//! * Text is a sequence of base-64 digits (`A-Z a-z 0-9 + /`), a number written over n digits
//!   least significant first. `?` may appear anywhere as a line-break hint and is ignored.
//! * The field is 23 rows of 10 (row 0 at the bottom) plus one garbage row below; a cell holds
//!   0 (empty), a piece kind 1..=7 (I L O Z T J S) or 8 (gray).
//! * Each page starts with its field as a difference to the field the previous page left
//!   (after its lock and line clears): the 240 cells, top row first, as runs of equal
//!   `new - old + 8`, each run `diff * 240 + (len - 1)` in 2 digits. A field with no change is
//!   one run (`vh`) followed by a 1-digit count of the next pages that repeat it without any
//!   field data.
//! * Then the action in 3 digits: `((((!lock*2 + comment)*2 + colour)*2 + mirror)*2 + rise)`,
//!   times 240 plus the operation's position, times 4 plus its rotation, times 8 plus its kind.
//! * A page whose comment differs from the previous one sets the comment flag and carries it,
//!   JavaScript-`escape`d: the length in 2 digits, then 4 characters to 5 digits, each
//!   character an index into the 95 printable ASCII characters, base 96.
//! * A locked operation is written into the field and full rows are cleared before the next
//!   page's difference is applied.

mod decode;
mod encode;

pub use decode::{decode, first_page, holds_fumen, holds_old_fumen, unescape};
pub use encode::{encode, escape};

use std::fmt;

/// Columns of the fumen field.
pub const WIDTH: usize = 10;
/// Visible rows of the v115 field (the 20 rows of a board plus 3 above).
pub const FIELD_TOP: usize = 23;
/// Field rows plus the garbage row.
const ROWS: usize = FIELD_TOP + 1;
/// Cells the field difference covers.
pub(crate) const BLOCKS: usize = ROWS * WIDTH;
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/// Comment characters: printable ASCII from the space; a character's value is its index.
const COMMENT_BASE: u32 = 96;
const MAX_COMMENT: usize = 4095;

/// What a fumen cell or operation holds, numbered as the format numbers them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Kind {
    Empty = 0,
    I = 1,
    L = 2,
    O = 3,
    Z = 4,
    T = 5,
    J = 6,
    S = 7,
    Gray = 8,
}

impl Kind {
    const ALL: [Kind; 9] = [
        Kind::Empty,
        Kind::I,
        Kind::L,
        Kind::O,
        Kind::Z,
        Kind::T,
        Kind::J,
        Kind::S,
        Kind::Gray,
    ];

    /// The kind with format number `n`.
    pub fn from_code(n: u32) -> Option<Kind> {
        Kind::ALL.get(n as usize).copied()
    }

    /// The letter fumen tools print (`_` empty, `X` gray).
    pub const fn letter(self) -> char {
        match self {
            Kind::Empty => '_',
            Kind::I => 'I',
            Kind::L => 'L',
            Kind::O => 'O',
            Kind::Z => 'Z',
            Kind::T => 'T',
            Kind::J => 'J',
            Kind::S => 'S',
            Kind::Gray => 'X',
        }
    }

    /// The kind of a tetromino letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL[1..8].iter().copied().find(|k| k.letter() == c)
    }

    /// The cells of the kind in spawn orientation around its rotation centre, y up.
    fn spawn_blocks(self) -> Option<[(i32, i32); 4]> {
        Some(match self {
            Kind::I => [(0, 0), (-1, 0), (1, 0), (2, 0)],
            Kind::T => [(0, 0), (-1, 0), (1, 0), (0, 1)],
            Kind::O => [(0, 0), (1, 0), (0, 1), (1, 1)],
            Kind::L => [(0, 0), (-1, 0), (1, 0), (1, 1)],
            Kind::J => [(0, 0), (-1, 0), (1, 0), (-1, 1)],
            Kind::S => [(0, 0), (-1, 0), (0, 1), (1, 1)],
            Kind::Z => [(0, 0), (1, 0), (0, 1), (-1, 1)],
            Kind::Empty | Kind::Gray => return None,
        })
    }
}

/// The four orientations, named as fumen names them (SRS).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rotation {
    Spawn,
    Right,
    Reverse,
    Left,
}

impl Rotation {
    pub const ALL: [Rotation; 4] = [
        Rotation::Spawn,
        Rotation::Right,
        Rotation::Reverse,
        Rotation::Left,
    ];

    /// The format's number for the rotation (it counts from Reverse).
    const fn code(self) -> u32 {
        match self {
            Rotation::Reverse => 0,
            Rotation::Right => 1,
            Rotation::Spawn => 2,
            Rotation::Left => 3,
        }
    }

    fn from_code(n: u32) -> Rotation {
        [
            Rotation::Reverse,
            Rotation::Right,
            Rotation::Spawn,
            Rotation::Left,
        ][(n & 3) as usize]
    }

    /// Turns a spawn-orientation offset (y up).
    const fn turn(self, (x, y): (i32, i32)) -> (i32, i32) {
        match self {
            Rotation::Spawn => (x, y),
            Rotation::Right => (y, -x),
            Rotation::Reverse => (-x, -y),
            Rotation::Left => (-y, x),
        }
    }
}

/// A piece on a page: its kind, rotation and rotation centre `(x, y)`, y up from the bottom
/// row (the coordinates fumen editors and `tetris-fumen` show).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Operation {
    pub kind: Kind,
    pub rotation: Rotation,
    pub x: i32,
    pub y: i32,
}

impl Operation {
    /// The four cells `(x, y)`, y up; `None` for a kind that is not a tetromino.
    pub fn cells(&self) -> Option<[(i32, i32); 4]> {
        let blocks = self.kind.spawn_blocks()?;
        Some(blocks.map(|b| {
            let (dx, dy) = self.rotation.turn(b);
            (self.x + dx, self.y + dy)
        }))
    }

    /// The operation of `kind` that fills exactly `cells` (y up), trying the rotations in
    /// `Rotation::ALL` order, so I, S, Z and O always come out in one canonical orientation.
    pub fn covering(kind: Kind, cells: &[(i32, i32); 4]) -> Option<Operation> {
        let mut want = *cells;
        want.sort();
        for rotation in Rotation::ALL {
            let at_origin = Operation {
                kind,
                rotation,
                x: 0,
                y: 0,
            };
            let mut got = at_origin.cells()?;
            got.sort();
            let (dx, dy) = (want[0].0 - got[0].0, want[0].1 - got[0].1);
            if got
                .iter()
                .zip(&want)
                .all(|(g, w)| (g.0 + dx, g.1 + dy) == *w)
            {
                return Some(Operation {
                    x: dx,
                    y: dy,
                    ..at_origin
                });
            }
        }
        None
    }

    /// How far the rotation centre sits from the cell the format stores for this kind and
    /// rotation: the format keeps the original fumen's reference cell, which differs from the
    /// SRS centre for O, I, S and Z in some orientations.
    const fn wire_shift(kind: Kind, rotation: Rotation) -> (i32, i32) {
        match (kind, rotation) {
            (Kind::O, Rotation::Left) => (1, -1),
            (Kind::O, Rotation::Reverse) => (1, 0),
            (Kind::O, Rotation::Spawn) => (0, -1),
            (Kind::I, Rotation::Reverse) => (1, 0),
            (Kind::I, Rotation::Left) => (0, -1),
            (Kind::S, Rotation::Spawn) => (0, -1),
            (Kind::S, Rotation::Right) => (-1, 0),
            (Kind::Z, Rotation::Spawn) => (0, -1),
            (Kind::Z, Rotation::Left) => (1, 0),
            _ => (0, 0),
        }
    }
}

/// A fumen field: 23 rows and the garbage row, each cell a [`Kind`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Field {
    /// `rows[0]` is the garbage row; `rows[y + 1]` is field row y (0 = bottom).
    rows: [[Kind; WIDTH]; ROWS],
}

impl Default for Field {
    fn default() -> Field {
        Field {
            rows: [[Kind::Empty; WIDTH]; ROWS],
        }
    }
}

impl Field {
    /// The cell at column `x`, row `y` (0 = bottom, -1 = the garbage row).
    pub fn get(&self, x: usize, y: i32) -> Kind {
        self.rows[(y + 1) as usize][x]
    }

    /// Sets the cell at column `x`, row `y` (-1 ..= 22).
    pub fn set(&mut self, x: usize, y: i32, kind: Kind) {
        self.rows[(y + 1) as usize][x] = kind;
    }

    /// Cells in the order the field difference walks them: top row first, garbage row last.
    fn walk(&self) -> impl Iterator<Item = Kind> + '_ {
        self.rows.iter().rev().flat_map(|r| r.iter().copied())
    }

    /// Writes a tetromino's cells (cells outside the field are dropped).
    fn fill(&mut self, op: &Operation) {
        if let Some(cells) = op.cells() {
            for (x, y) in cells {
                if (0..WIDTH as i32).contains(&x) && (0..FIELD_TOP as i32).contains(&y) {
                    self.set(x as usize, y, op.kind);
                }
            }
        }
    }

    /// Removes the full field rows (never the garbage row) and lets the rows above fall.
    fn clear_lines(&mut self) {
        let kept: Vec<[Kind; WIDTH]> = self.rows[1..]
            .iter()
            .filter(|row| row.contains(&Kind::Empty))
            .copied()
            .collect();
        for (i, row) in self.rows[1..].iter_mut().enumerate() {
            *row = kept.get(i).copied().unwrap_or([Kind::Empty; WIDTH]);
        }
    }

    /// The field a page leaves to the next one.
    fn after(&self, page: &Page) -> Field {
        let mut next = self.clone();
        if page.lock {
            if let Some(op) = &page.operation {
                next.fill(op);
            }
            next.clear_lines();
        }
        next
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows.iter().rev() {
            let line: String = row.iter().map(|k| k.letter()).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// One page: the field shown, the piece on it and the page's comment.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Page {
    pub field: Field,
    pub operation: Option<Operation>,
    /// The comment shown with the page (the format stores it only where it changes).
    pub comment: String,
    /// Lock the operation into the field (and clear lines) for the next page.
    pub lock: bool,
    /// Guideline colours; fumen editors set it on the first page.
    pub colour: bool,
}

/// Why a string is not a fumen this codec reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "fumen: {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covering_finds_every_orientation_of_every_kind() {
        for kind in [
            Kind::I,
            Kind::L,
            Kind::O,
            Kind::Z,
            Kind::T,
            Kind::J,
            Kind::S,
        ] {
            for rotation in Rotation::ALL {
                let op = Operation {
                    kind,
                    rotation,
                    x: 4,
                    y: 10,
                };
                let cells = op.cells().unwrap();
                let found = Operation::covering(kind, &cells).unwrap();
                let mut a = found.cells().unwrap();
                let mut b = cells;
                a.sort();
                b.sort();
                assert_eq!(a, b, "{kind:?} {rotation:?}");
            }
        }
    }
}
