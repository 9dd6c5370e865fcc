//! The 4-wide well as a bit set, the seven pieces, and the SPEC's field notation.
//!
//! A well is 4 columns wide, so one row is 4 bits and rows 0..15 fit in a `u64`: bit
//! `4 * y + x` is the cell at column `x`, row `y` (row 0 at the bottom, as in the SPEC, unlike
//! the Tencent board). Residual fields live in rows 0..7, so they also fit in a `u32`; the
//! extra rows are room for a piece in flight (cells up to row 11).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The four cells of a full row.
pub const FULL_ROW: u64 = 0xF;

/// A field of residual cells (rows 0..7), packed 4 bits per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Field(pub u32);

impl Field {
    /// The cells as a 16-row board, for collision tests with a piece in flight.
    pub const fn board(self) -> u64 {
        self.0 as u64
    }

    /// Number of filled cells.
    pub const fn cells(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether column `x`, row `y` is filled.
    pub const fn filled(self, x: u32, y: u32) -> bool {
        self.0 >> (4 * y + x) & 1 == 1
    }

    /// Parses the SPEC notation: rows from the top down to row 0 separated by `/`, `X` filled,
    /// `_` empty. The error says which row and character are wrong.
    pub fn parse(text: &str) -> Result<Field> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() > 8 {
            return Err(Error::at(
                format!("field {text:?}"),
                "more than 8 rows (residual cells live in rows 0..7)",
            ));
        }
        let mut bits = 0u32;
        for (i, row) in rows.iter().enumerate() {
            let y = (rows.len() - 1 - i) as u32;
            if row.chars().count() != 4 {
                return Err(Error::at(
                    format!("field {text:?}, row {}", i + 1),
                    "a row has 4 cells written X or _",
                ));
            }
            for (x, ch) in row.chars().enumerate() {
                match ch {
                    'X' | 'x' => bits |= 1 << (4 * y + x as u32),
                    '_' => {}
                    other => {
                        return Err(Error::at(
                            format!("field {text:?}, row {}", i + 1),
                            format!("cell {other:?} is neither X nor _"),
                        ))
                    }
                }
            }
        }
        Ok(Field(bits))
    }
}

impl fmt::Display for Field {
    /// The SPEC notation, leaving out empty rows on top (an empty field prints as `____`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let top = (0..8).rev().find(|&y| self.0 >> (4 * y) & 0xF != 0);
        let Some(top) = top else {
            return f.write_str("____");
        };
        for y in (0..=top).rev() {
            for x in 0..4 {
                f.write_str(if self.filled(x, y) { "X" } else { "_" })?;
            }
            if y > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

/// The seven pieces, in the SPEC's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Piece {
    T,
    J,
    L,
    S,
    Z,
    I,
    O,
}

impl Piece {
    /// All pieces; a piece's index in this array is `piece as usize`.
    pub const ALL: [Piece; 7] = [
        Piece::T,
        Piece::J,
        Piece::L,
        Piece::S,
        Piece::Z,
        Piece::I,
        Piece::O,
    ];

    /// The piece with index `i` (0..7).
    pub const fn from_index(i: usize) -> Piece {
        Piece::ALL[i]
    }

    /// The piece's letter.
    pub const fn letter(self) -> char {
        ['T', 'J', 'L', 'S', 'Z', 'I', 'O'][self as usize]
    }

    /// The piece written as `letter` (either case).
    pub fn from_letter(letter: char) -> Result<Piece> {
        Piece::ALL
            .into_iter()
            .find(|p| p.letter() == letter.to_ascii_uppercase())
            .ok_or_else(|| Error(format!("{letter:?} is not a piece (one of TJLSZIO)")))
    }

    /// A string of piece letters, e.g. `IOTSZ`.
    pub fn parse_list(text: &str) -> Result<Vec<Piece>> {
        text.trim()
            .chars()
            .map(Piece::from_letter)
            .collect::<Result<Vec<_>>>()
            .map_err(|e| Error::at(format!("pieces {text:?}"), e))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in ["XXX_", "__XX/___X", "XXX_/XXX_", "X_XX", "X___/X___/X___"] {
            let field = Field::parse(text).unwrap();
            assert_eq!(field.to_string(), text);
        }
        let f = Field::parse("__XX/___X").unwrap();
        assert!(f.filled(3, 0) && f.filled(2, 1) && f.filled(3, 1));
        assert_eq!(f.cells(), 3);
    }

    #[test]
    fn bad_notation_is_an_error() {
        assert!(Field::parse("XX_").is_err());
        assert!(Field::parse("XX_Y").is_err());
        assert!(Piece::parse_list("IOQ").is_err());
        assert_eq!(
            Piece::parse_list("iot").unwrap(),
            [Piece::I, Piece::O, Piece::T]
        );
    }
}
