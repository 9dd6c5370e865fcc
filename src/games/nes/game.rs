//! A TetrisGYM game as beamtris plays it: an A-type game from a starting level on an empty
//! board with the pieces of a GYM seed, played at a given input speed until a line target.
//! The game file's `"nes"` part ([`NesOptions`]) and its generator `{"kind": "gym", "seed":
//! "1A2B3C"}` define it.

use super::gym::{gym_pieces, parse_gym_seed};
use super::movegen::Speed;
use super::score::{level_after_line, Lines};
use crate::piece::Shape;
use serde::{Deserialize, Serialize};

/// The highest starting level (TetrisGYM's level menu reaches further; gravity stops
/// changing at 29).
pub const MAX_LEVEL: u8 = 29;
/// The most lines a game may aim for: the points stay far below 2^31.
pub const MAX_LINES: u32 = 1000;
/// The default line target: from level 18, the transition to level 29.
pub const DEFAULT_LINES: u32 = 230;
/// The lowest level Killscreen x2 may start from: the cartridge's own killscreen (a row a
/// frame) starts at 29.
pub const MIN_KILLSCREEN_X2: u8 = 29;
/// The default starting level.
pub const DEFAULT_LEVEL: u8 = 18;

/// The `"nes"` part of a game file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NesOptions {
    /// The level the game starts at (0-29).
    #[serde(default = "default_level")]
    pub level: u8,
    /// The player's input speed: `30hz`, `15hz` or `das`.
    #[serde(default)]
    pub speed: Speed,
    /// The game ends at the lock that brings the line count to this (that lock's points
    /// count).
    #[serde(default = "default_lines")]
    pub lines: u32,
    /// TetrisGYM's linecap "Killscreen x2" from this level (29 or more, above the start):
    /// from the clear that reaches it, pieces fall two rows a frame. Absent: the
    /// cartridge's gravity throughout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub killscreen_x2: Option<u8>,
}

fn default_level() -> u8 {
    DEFAULT_LEVEL
}

fn default_lines() -> u32 {
    DEFAULT_LINES
}

impl Default for NesOptions {
    fn default() -> Self {
        NesOptions {
            level: DEFAULT_LEVEL,
            speed: Speed::Tap30,
            lines: DEFAULT_LINES,
            killscreen_x2: None,
        }
    }
}

impl NesOptions {
    /// What is wrong with the options, naming the field.
    pub fn check(&self) -> Result<(), String> {
        if self.level > MAX_LEVEL {
            return Err(format!(
                "nes.level: {} is not a level from 0 to {MAX_LEVEL}",
                self.level
            ));
        }
        if !(1..=MAX_LINES).contains(&self.lines) {
            return Err(format!(
                "nes.lines: {} is not a line target from 1 to {MAX_LINES}",
                self.lines
            ));
        }
        if let Some(k) = self.killscreen_x2 {
            if k < MIN_KILLSCREEN_X2 {
                return Err(format!(
                    "nes.killscreen_x2: {k} is below level {MIN_KILLSCREEN_X2}, where the single killscreen starts"
                ));
            }
            if k <= self.level {
                return Err(format!(
                    "nes.killscreen_x2: {k} is not above the starting level {}",
                    self.level
                ));
            }
        }
        Ok(())
    }

    /// The level at which `lines` lines played from the start leave the game.
    pub fn level_at(&self, lines: u32) -> u8 {
        let (mut count, mut level) = (Lines::default(), self.level);
        for _ in 0..lines {
            count.increment();
            level = level_after_line(level, count);
        }
        level
    }

    /// Pieces enough to reach the line target with a full board left over: each piece adds
    /// 4 cells, each line takes 10, and the board holds at most 200.
    pub fn pieces(&self) -> usize {
        (self.lines as usize * 10 + 200).div_ceil(4)
    }
}

/// A game to play: the seed's pieces and the options.
#[derive(Clone, Debug)]
pub struct NesGame {
    /// The seed as written (6 hex digits).
    pub seed: String,
    pub options: NesOptions,
    /// The pieces, first first, as many as the game may place.
    pub pieces: Vec<Shape>,
}

impl NesGame {
    /// The game of GYM seed `seed` (checked), `options` and `pieces` pieces.
    pub fn new(seed: &str, options: NesOptions, pieces: usize) -> crate::error::Result<NesGame> {
        let bytes = parse_gym_seed(seed)?;
        Ok(NesGame {
            seed: seed.trim().to_ascii_uppercase(),
            options,
            pieces: gym_pieces(bytes).take(pieces + 1).collect(),
        })
    }
}

/// The score of `lines` lines all cleared four at a time from `level` (the last clear the
/// remainder, when `lines` is not a multiple of 4), counted as the ROM counts lines, levels
/// and points: the best score those lines can make.
pub fn all_tetris_score(level: u8, lines: u32) -> u64 {
    let (mut count, mut level) = (Lines::default(), level);
    let mut score = 0u64;
    let mut left = lines;
    while left > 0 {
        let clear = left.min(4);
        for _ in 0..clear {
            count.increment();
            level = level_after_line(level, count);
        }
        score += u64::from(super::movegen::POINTS[clear as usize]) * (u64::from(level) + 1);
        left -= clear;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_tetris_score_from_18_to_230_lines() {
        // 32 tetrises at 18 (the 33rd reaches 132 lines and level 19 first), then 10 lines a
        // level: worked by hand from the level rule
        let mut by_hand = 32 * 1200 * 19;
        let mut count = 128u32;
        let mut level = 18u32;
        while count + 4 <= 228 {
            count += 4;
            if count / 10 > (count - 4) / 10 && count >= 130 {
                level += 1;
            }
            by_hand += 1200 * (level + 1);
        }
        // 228 -> 230: a double
        by_hand += 100 * 30;
        assert_eq!(all_tetris_score(18, 230), u64::from(by_hand));
        assert_eq!(all_tetris_score(18, 4), 22_800);
        assert_eq!(all_tetris_score(0, 1), 40);
    }
}
