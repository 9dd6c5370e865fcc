//! TetrisGYM's seeded pieces (`pickTetriminoSeed`, "SPSv3"): a 6-hex-digit seed is a
//! register of its own (the first two bytes, stepped like the game's), a piece count (the
//! third byte), and, from the third byte's high digit, how many extra steps each piece takes.
//! The pieces depend on the seed alone, not on frames, so a seed names one sequence.

use super::orientation::{shape, Orientation};
use super::rng::{Picker, Rng};
use crate::error::{Error, Result};
use crate::piece::Shape;

/// Reads a seed as TetrisGYM's menu shows it: exactly six hexadecimal digits.
pub fn parse_gym_seed(text: &str) -> Result<[u8; 3]> {
    let t = text.trim();
    if t.len() != 6 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::at(
            format!("seed `{}`", crate::error::printable(t)),
            "a TetrisGYM seed is 6 hexadecimal digits, like 1A2B3C",
        ));
    }
    let byte = |i: usize| u8::from_str_radix(&t[i..i + 2], 16).unwrap_or(0);
    Ok([byte(0), byte(2), byte(4)])
}

/// The picker's state: `set_seed` ($0002-$0004 in TetrisGYM's RAM; bytes 0-1 the register,
/// byte 2 the piece count, kept with `spawnID` in a vanilla [`Picker`]) and the seed's third
/// byte as entered (`set_seed_input+2`, whose high digit sets the extra steps).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GymPicker {
    pub rng: Rng,
    pub picker: Picker,
    pub input_third: u8,
}

impl GymPicker {
    /// The picker at the game's start (`spawnID` 0, as after the RAM clear).
    pub fn new(seed: [u8; 3]) -> GymPicker {
        GymPicker {
            rng: Rng((u16::from(seed[0]) << 8) | u16::from(seed[1])),
            picker: Picker {
                spawn_id: 0,
                spawn_count: seed[2],
            },
            input_third: seed[2],
        }
    }

    /// One piece: a step, then the high digit of the third byte plus 2 more (a digit 0
    /// counts as 16; `sec` then `adc #1` adds the 2), then the vanilla pick with its reroll
    /// on these bytes.
    pub fn pick(&mut self) -> Orientation {
        self.rng.step();
        let digit = match self.input_third >> 4 {
            0 => 16,
            d => u32::from(d),
        };
        self.rng.steps(digit + 2);
        self.picker.pick(&mut self.rng)
    }
}

/// The shapes TetrisGYM deals for `seed`, first piece first, without end.
pub fn gym_pieces(seed: [u8; 3]) -> impl Iterator<Item = Shape> {
    let mut p = GymPicker::new(seed);
    std::iter::from_fn(move || shape(p.pick()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_six_hex_digits() {
        assert_eq!(parse_gym_seed("1A2b3C").unwrap(), [0x1A, 0x2B, 0x3C]);
        for bad in ["", "12345", "1234567", "12345g", "+12345", "ü2345"] {
            let e = parse_gym_seed(bad).unwrap_err();
            assert!(e.0.contains("6 hexadecimal digits"), "{e}");
        }
    }
}
