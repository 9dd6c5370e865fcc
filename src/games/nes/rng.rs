//! The ROM's random numbers: a 16-bit linear feedback shift register (`rng_seed`,
//! $0017-$0018) stepped once a frame by the main loop, menus included, and the piece
//! picker that reads it (`pickRandomTetrimino`), whose one reroll makes repeats rarer.

use super::orientation::{Orientation, SPAWN_TABLE};

/// The register's value at power-on, before the frames of the boot sequence step it.
pub const POWER_ON_SEED: u16 = 0x8988;

/// `rng_seed`: $0017 is the high byte (the one pieces and garbage read), $0018 the low.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rng(pub u16);

impl Rng {
    /// One step of `generateNextPseudorandomNumber`: shift right, the new top bit the
    /// exclusive or of bits 9 and 1 (bit 1 of each byte).
    pub fn step(&mut self) {
        let bit = ((self.0 >> 9) ^ (self.0 >> 1)) & 1;
        self.0 = (bit << 15) | (self.0 >> 1);
    }

    /// `count` steps.
    pub fn steps(&mut self, count: u32) {
        for _ in 0..count {
            self.step();
        }
    }

    /// Steps once, then again while `again` holds for the high byte: the ROM's loops that
    /// draw until a value is in range (a garbage hole column below 10).
    pub fn step_until(&mut self, again: impl Fn(u8) -> bool) {
        loop {
            self.step();
            if !again(self.high()) {
                return;
            }
        }
    }

    /// The high byte, $0017, the one the game reads.
    pub fn high(self) -> u8 {
        (self.0 >> 8) as u8
    }
}

/// The picker's memory besides the register: `spawnID` ($0019, the last orientation dealt)
/// and `spawnCount` ($001A, pieces dealt, wrapping).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Picker {
    pub spawn_id: Orientation,
    pub spawn_count: u8,
}

impl Picker {
    /// `pickRandomTetrimino`: the table entry at (high byte + count) mod 8; if that is the
    /// eighth (no piece) or repeats the last piece, step the register once and take
    /// (high byte mod 8 + last id) mod 7 instead, which may repeat.
    pub fn pick(&mut self, rng: &mut Rng) -> Orientation {
        self.spawn_count = self.spawn_count.wrapping_add(1);
        let index = usize::from(rng.high().wrapping_add(self.spawn_count) & 7);
        let first = SPAWN_TABLE.get(index).copied();
        let chosen = match first {
            Some(o) if o != self.spawn_id => o,
            _ => {
                rng.step();
                let sum = u16::from(rng.high() & 7) + u16::from(self.spawn_id);
                SPAWN_TABLE[usize::from(sum % 7)]
            }
        };
        self.spawn_id = chosen;
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_register_has_period_32767() {
        let mut r = Rng(POWER_ON_SEED);
        let mut n = 0u32;
        loop {
            r.step();
            n += 1;
            if r.0 == POWER_ON_SEED {
                break;
            }
        }
        assert_eq!(n, 32767);
    }

    #[test]
    fn picker_deals_spawn_orientations() {
        let mut r = Rng(POWER_ON_SEED);
        let mut p = Picker::default();
        for _ in 0..1000 {
            let o = p.pick(&mut r);
            assert!(SPAWN_TABLE.contains(&o));
            r.step();
        }
    }
}
