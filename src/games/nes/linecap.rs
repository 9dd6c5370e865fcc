//! TetrisGYM's linecap option "Killscreen x2" (kirjavascript/TetrisGYM, docs/nes.md
//! "Killscreen x2"): once the game reaches a level (or a line count), pieces fall two rows a
//! frame. What this module holds is when the switch happens; the doubled drop itself is in
//! `moving.rs` (`drop`), which runs the ROM's drop routine three times a frame.
//!
//! The switch (`checkLinecap` in GYM's `src/playstate/updatestats.asm`) is tested at a
//! line clear's update, after its lines are counted and the level stepped, and only while
//! it has not happened yet (`linecapState` 0): `levelNumber >= linecapLevel` (unsigned), or
//! for a line count, the count's high byte at least the cap's and then its low BCD byte at
//! least the cap's, each compared alone (so a cap of 298 waits for 398 once 300 is passed).
//! A game that starts at or above the level is not switched until its first clear
//! (`initGameState` sets `linecapState` to 0).

use super::score::Lines;

/// When Killscreen x2 starts (`linecapWhen` with `linecapLevel` or `linecapLines`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum LinecapWhen {
    /// At a clear that leaves the level at least this.
    Level(u8),
    /// At a clear that leaves the line count at this (as the ROM compares it: BCD bytes).
    Lines(Lines),
}

impl LinecapWhen {
    /// Whether a clear that leaves `level` and `lines` switches the double gravity on.
    pub fn reached(self, level: u8, lines: Lines) -> bool {
        match self {
            LinecapWhen::Level(at) => level >= at,
            // `lda lines+1 / cmp linecapLines+1 / bcc end / lda lines / cmp linecapLines /
            // bcc end`: both bytes compared unsigned, each on its own
            LinecapWhen::Lines(at) => lines.0[1] >= at.0[1] && lines.0[0] >= at.0[0],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nes::buttons::Buttons;
    use crate::games::nes::gameplay::{GameplayState, PlayState};
    use crate::games::nes::placement::Carry;
    use crate::games::nes::playfield::Playfield;
    use crate::piece::Shape;

    /// Level 38 at 328 lines, rows 18 and 19 full but for columns 4 and 5: the O dropped
    /// from its spawn clears two lines, reaching 330 lines and level 39.
    fn before_the_switch(when: Option<LinecapWhen>) -> GameplayState {
        let mut board = Playfield::default();
        for y in 18..20 {
            for x in (0..10).filter(|x| !(4..6).contains(x)) {
                board.set(x, y, true);
            }
        }
        let mut g = GameplayState::at_spawn(38, board, Shape::O, Shape::O, Carry::default());
        g.lines = Lines([0x28, 3]);
        g.killscreen_x2 = when;
        g
    }

    /// The piece's row after each frame until it stops (the last entry is the frame the
    /// lock starts).
    fn fall(g: &mut GameplayState, input: Buttons) -> Vec<i8> {
        let mut rows = Vec::new();
        loop {
            g.step(input);
            rows.push(g.y);
            if g.play_state != PlayState::Move {
                return rows;
            }
        }
    }

    /// Steps with no button until the next piece is in play.
    fn to_next_spawn(g: &mut GameplayState) {
        while g.play_state != PlayState::Move {
            g.step(Buttons::NONE);
        }
    }

    #[test]
    fn the_clear_to_level_39_switches_and_the_next_piece_falls_two_rows_a_frame() {
        let mut g = before_the_switch(Some(LinecapWhen::Level(39)));
        // the clearing piece still falls a row a frame: 18 rows, the lock on frame 19
        let rows = fall(&mut g, Buttons::NONE);
        assert_eq!(rows.len(), 19);
        assert_eq!(rows[..3], [1, 2, 3]);
        assert!(!g.double_gravity);
        // the switch is made at the score update, on the frame the lines are counted
        while g.lines.value() == 328 {
            assert!(!g.double_gravity);
            g.step(Buttons::NONE);
        }
        assert_eq!((g.lines.value(), g.level), (330, 39));
        assert!(g.double_gravity);
        to_next_spawn(&mut g);
        // the next O: two rows on each frame from its first, rests at row 18 after 9
        // frames, and the lock starts on the 10th (the first of its three drops fails)
        assert_eq!(
            fall(&mut g, Buttons::NONE),
            [2, 4, 6, 8, 10, 12, 14, 16, 18, 18]
        );
        assert_eq!(g.play_state, PlayState::Lock);
    }

    #[test]
    fn below_the_level_or_without_the_option_gravity_stays_single() {
        for when in [None, Some(LinecapWhen::Level(40))] {
            let mut g = before_the_switch(when);
            fall(&mut g, Buttons::NONE);
            to_next_spawn(&mut g);
            assert_eq!(g.level, 39);
            assert!(!g.double_gravity);
            assert_eq!(fall(&mut g, Buttons::NONE).len(), 19, "{when:?}");
        }
        // a line count reached switches too
        let mut g = before_the_switch(Some(LinecapWhen::Lines(Lines([0x30, 3]))));
        fall(&mut g, Buttons::NONE);
        to_next_spawn(&mut g);
        assert!(g.double_gravity);
    }

    #[test]
    fn a_game_already_past_the_level_waits_for_its_first_clear() {
        let mut g = GameplayState::at_spawn(
            40,
            Playfield::default(),
            Shape::O,
            Shape::O,
            Carry::default(),
        );
        g.killscreen_x2 = Some(LinecapWhen::Level(39));
        assert_eq!(fall(&mut g, Buttons::NONE).len(), 19);
        to_next_spawn(&mut g);
        // no line was cleared: `checkLinecap` did not run
        assert!(!g.double_gravity);
    }

    #[test]
    fn a_push_down_counts_three_times_a_frame() {
        // from the routine run three times (GYM's `drop_tetrimino`), worked by hand: frame 1
        // starts the push (gravity), the second run counts 2 (gravity), the third reaches 3
        // (a pushed row, a point); then the count alternates, 2 and 3 rows a frame
        let mut g = GameplayState::at_spawn(
            39,
            Playfield::default(),
            Shape::O,
            Shape::O,
            Carry::default(),
        );
        g.double_gravity = true;
        let mut seen = Vec::new();
        for _ in 0..6 {
            g.step(Buttons::DOWN);
            seen.push((g.y, g.hold_down_points));
        }
        assert_eq!(seen, [(3, 1), (5, 2), (8, 4), (10, 5), (13, 7), (15, 8)]);
    }

    #[test]
    fn shifts_and_turns_happen_before_the_two_rows() {
        let mut g = GameplayState::at_spawn(
            39,
            Playfield::default(),
            Shape::T,
            Shape::T,
            Carry::default(),
        );
        g.double_gravity = true;
        g.step(Buttons::LEFT.with(Buttons::A));
        assert_eq!((g.x, g.y), (4, 2));
        g.step(Buttons::NONE);
        g.step(Buttons::LEFT);
        assert_eq!((g.x, g.y), (3, 6));
    }

    #[test]
    fn level_and_line_caps_compare_as_the_rom_does() {
        assert!(!LinecapWhen::Level(39).reached(38, Lines([0x29, 3])));
        assert!(LinecapWhen::Level(39).reached(39, Lines([0x30, 3])));
        assert!(LinecapWhen::Level(39).reached(45, Lines([0x90, 3])));
        let cap = LinecapWhen::Lines(Lines([0x30, 3]));
        assert!(!cap.reached(38, Lines([0x29, 3])));
        assert!(cap.reached(39, Lines([0x32, 3])));
        // the bytes are compared one at a time: 298 is not passed by 300 to 397
        let odd = LinecapWhen::Lines(Lines([0x98, 2]));
        assert!(!odd.reached(36, Lines([0x00, 3])));
        assert!(!odd.reached(45, Lines([0x97, 3])));
        assert!(odd.reached(45, Lines([0x98, 3])));
    }
}
