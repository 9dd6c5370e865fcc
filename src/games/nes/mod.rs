//! NES Tetris (NTSC, the 1989 Nintendo cartridge), frame-exact from power-on: the menus,
//! A-type and B-type games, and TetrisGYM's seeded piece picker. The state is a set of plain
//! structs, one a phase ([`menus::MenuState`], [`gameplay::GameplayState`]), each field
//! naming the RAM it stands for, and one `step(input)` a frame. It is judged by real
//! movies: [`movie::play`] replays an FM2 from power-on, [`checks`] compares the frames the
//! real game was read at. docs/nes.md says what is implemented and how it was checked.

pub mod buttons;
pub mod checks;
pub mod family;
pub mod fm2;
pub mod game;
pub mod gameplay;
pub mod garbage;
pub mod gym;
pub mod linecap;
pub mod menus;
pub mod movegen;
pub mod movie;
mod moving;
pub mod orientation;
pub mod placement;
pub mod playfield;
pub mod record;
pub mod replay;
pub mod rng;
pub mod score;

pub use buttons::Buttons;
pub use gameplay::{GameType, GameplayState};
pub use menus::Console;
