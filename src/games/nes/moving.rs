//! The piece in play (`playState` 1), each frame: shift (DAS), rotate (no kicks), then drop
//! (the first piece's entry delay, soft drop, gravity).

use super::buttons::Buttons;
use super::gameplay::{frames_per_drop, GameplayState, PlayState};
use super::orientation::rotated;

impl GameplayState {
    /// `shift_tetrimino`: nothing while down is held; a new left or right press shifts at
    /// once and restarts DAS, a held one shifts when DAS reaches 16.
    pub(super) fn shift(&mut self, input: Buttons, pressed: Buttons) {
        if input.has(Buttons::DOWN) {
            return;
        }
        let sideways = Buttons::LEFT.with(Buttons::RIGHT);
        if pressed.0 & sideways.0 != 0 {
            self.autorepeat_x = 0;
        } else if input.0 & sideways.0 != 0 {
            self.autorepeat_x = self.autorepeat_x.wrapping_add(1);
            if self.autorepeat_x < 16 {
                return;
            }
            self.autorepeat_x = 10;
        } else {
            return;
        }
        let x = if input.has(Buttons::RIGHT) {
            self.x + 1
        } else {
            self.x - 1
        };
        if self.playfield.fits(self.current, x, self.y) {
            self.x = x;
        } else {
            self.autorepeat_x = 16;
        }
    }

    /// `rotate_tetrimino`: A clockwise, else B counter-clockwise; no kicks.
    pub(super) fn rotate(&mut self, pressed: Buttons) {
        let turned = if pressed.has(Buttons::A) {
            rotated(self.current, true)
        } else if pressed.has(Buttons::B) {
            rotated(self.current, false)
        } else {
            return;
        };
        if self.playfield.fits(turned, self.x, self.y) {
            self.current = turned;
        }
    }

    /// `drop_tetrimino`. With TetrisGYM's Killscreen x2 switched on (GYM's
    /// `src/playstate/active.asm`, `drop_tetrimino`): the routine runs three times a frame,
    /// the first two with `fallTimer` set to the level's speed (so each drops a row, or
    /// locks), the third with the timer the second left (0 after a drop: no gravity). The
    /// soft-drop count moves in all three, and the second and third run even after the first
    /// has started the lock (trying the same row again changes nothing).
    pub(super) fn drop(&mut self, input: Buttons, pressed: Buttons) {
        if self.double_gravity {
            let speed = frames_per_drop(self.level);
            for _ in 0..2 {
                self.fall_timer = speed;
                self.drop_once(input, pressed);
            }
        }
        self.drop_once(input, pressed);
    }

    /// `drop_tetrimino` of the cartridge (`drop_tetrimino_actual` in GYM): the first piece's
    /// entry delay, the soft-drop push (a row every 2 frames after a first of 3, down alone
    /// among the d-pad), else gravity.
    fn drop_once(&mut self, input: Buttons, pressed: Buttons) {
        if self.autorepeat_y < 0 {
            if pressed.has(Buttons::DOWN) {
                self.autorepeat_y = 0;
            } else {
                self.autorepeat_y += 1;
                return;
            }
        }
        let mut fall = false;
        if self.autorepeat_y == 0 {
            if !input.has(Buttons::LEFT)
                && !input.has(Buttons::RIGHT)
                && pressed.dpad() == Buttons::DOWN
            {
                self.autorepeat_y = 1;
            }
        } else if input.dpad() == Buttons::DOWN {
            self.autorepeat_y += 1;
            if self.autorepeat_y >= 3 {
                self.autorepeat_y = 1;
                self.hold_down_points = self.hold_down_points.wrapping_add(1);
                fall = true;
            }
        } else {
            self.autorepeat_y = 0;
            self.hold_down_points = 0;
        }
        if !fall {
            // `cmp` then `bpl`: a signed comparison of the timer with the speed.
            let speed = frames_per_drop(self.level);
            fall = self.fall_timer.wrapping_sub(speed) < 0x80;
        }
        if fall {
            self.fall_timer = 0;
            if self.playfield.fits(self.current, self.x, self.y + 1) {
                self.y += 1;
            } else {
                self.play_state = PlayState::Lock;
                self.redraw_from_piece();
            }
        }
    }
}
