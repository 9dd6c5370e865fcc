//! The keys: a key event first plays the frame up to its fraction, then moves, turns, holds,
//! drops or starts and stops DAS and soft drop.

use super::*;

impl Engine {
    pub(super) fn process_subframe(&mut self, subframe: f64) {
        if subframe <= self.subframe {
            return;
        }
        let delta = subframe - self.subframe;
        self.process_all_shift(delta);
        self.fall(delta);
        self.subframe = subframe;
    }

    pub(super) fn keydown(&mut self, key: Key, subframe: f64, hoisted: bool) {
        self.process_subframe(subframe);
        match key {
            Key::MoveLeft | Key::MoveRight => {
                let (i, dir) = if key == Key::MoveLeft {
                    (0, -1)
                } else {
                    (1, 1)
                };
                let h = &self.o.handling;
                self.shifts[i] = Shift {
                    held: true,
                    das: if hoisted { h.das - h.dcd } else { 0. },
                    arr: h.arr,
                };
                self.last_shift = dir;
                self.shift_once();
            }
            Key::SoftDrop => self.keys[SOFT] = true,
            Key::RotateCcw => {
                self.keys[CCW] = true;
                self.rotate(3);
            }
            Key::RotateCw => {
                self.keys[CW] = true;
                self.rotate(1);
            }
            Key::Rotate180 => {
                self.keys[R180] = true;
                if self.o.allow180 {
                    self.rotate(2);
                }
            }
            Key::Hold => {
                self.keys[HOLD] = true;
                self.hold();
            }
            Key::HardDrop => {
                if self.o.allow_harddrop && self.falling.safe_lock == 0 {
                    self.hard_drop();
                }
            }
        }
    }

    pub(super) fn keyup(&mut self, key: Key, subframe: f64) {
        self.process_subframe(subframe);
        let h = self.o.handling.clone();
        match key {
            Key::MoveLeft | Key::MoveRight => {
                let (i, other) = if key == Key::MoveLeft { (0, 1) } else { (1, 0) };
                self.shifts[i].held = false;
                self.shifts[i].das = 0.;
                if self.shifts[other].held {
                    self.last_shift = if other == 0 { -1 } else { 1 };
                }
                if h.cancel {
                    self.shifts[other].arr = h.arr;
                    self.shifts[other].das = 0.;
                }
            }
            Key::SoftDrop => {
                self.state |= ACTION_SOFTDROP;
                self.keys[SOFT] = false;
                if !self.solo.ended {
                    self.soft_drop_released();
                }
            }
            Key::RotateCcw => self.keys[CCW] = false,
            Key::RotateCw => self.keys[CW] = false,
            Key::Rotate180 => self.keys[R180] = false,
            Key::Hold => self.keys[HOLD] = false,
            Key::HardDrop => {}
        }
    }
}
