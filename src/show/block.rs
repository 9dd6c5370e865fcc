//! A filled cell as every view draws it.

use crate::piece::Shape;

/// A filled cell as the views draw it: the piece that filled it, or a cell no piece of the game
/// filled (the board it started on, or garbage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    Piece(Shape),
    Start,
}

impl Block {
    /// The letter the text views print: the piece's, `X` for a starting-board cell.
    pub fn letter(self) -> char {
        match self {
            Block::Piece(s) => s.letter(),
            Block::Start => 'X',
        }
    }
}
