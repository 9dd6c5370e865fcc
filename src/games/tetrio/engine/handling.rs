//! The handling model: shifting with DAS, ARR and DCD, gravity and soft drop, lock delay
//! and lock resets.

use super::*;

impl Engine {
    pub(super) fn is_20g(&self) -> bool {
        let g = self.gravity.value;
        let h = self.o.height as f64;
        let is20 = g > h;
        let mode = self.o.gravitymay20g;
        if self.keys[SOFT] {
            let prefer = self.o.handling.may20g || (is20 && mode);
            return (self.o.handling.sdf == 41. || g * self.o.handling.sdf > h) && prefer;
        }
        is20 && mode
    }

    pub(super) fn should_lock(&self) -> bool {
        !self.o.infinite_movement && self.falling.lock_resets >= self.o.lockresets
    }

    pub(super) fn should_fall_faster(&self) -> bool {
        !self.o.infinite_movement && self.falling.rot_resets > self.o.lockresets + 15
    }

    /// Moves the piece down by `value` rows (a fraction); false if it cannot.
    pub(super) fn internal_fall(&mut self, value: f64) -> bool {
        let y = self.falling.y;
        let mut y1 = (1e6 * (y - value) + 0.5).floor() / 1e6;
        let mut y2 = y - 1.;
        if y1 % 1. == 0. {
            y1 -= 1e-6;
        }
        if y2 % 1. == 0. {
            y2 += 2e-6;
        }
        let x = self.falling.x;
        if !self.fits_at(x, y1) || !self.fits_at(x, y2) {
            return false;
        }
        let highest = self.falling.highest_y;
        if highest > y1 {
            self.falling.highest_y = y1.floor();
        }
        if y1.floor() < y.floor() {
            self.falling.path.push('D');
        }
        self.falling.y = y1;
        self.last_spin = None;
        self.state &= !STATE_FLOOR;
        if y1 < highest || self.o.infinite_movement {
            self.falling.lock_resets = 0;
            self.falling.rot_resets = 0;
        }
        true
    }

    pub(super) fn internal_lock(&mut self, subframe: f64) -> bool {
        self.falling.locking += subframe;
        self.falling.locking > self.o.locktime
            || self.state & ACTION_FORCELOCK != 0
            || self.should_lock()
    }

    pub(super) fn internal_dcd(&mut self) {
        let h = &self.o.handling;
        if self.state & STATE_WALL == 0 || h.dcd == 0. {
            return;
        }
        for s in &mut self.shifts {
            s.das = s.das.min(h.das - h.dcd);
            s.arr = h.arr;
        }
    }

    pub(super) fn fall(&mut self, subframe: f64) {
        if self.falling.safe_lock > 0 {
            self.falling.safe_lock -= 1;
        }
        let mut fall = self.gravity.value * subframe;
        if self.keys[SOFT] {
            let sdf = self.o.handling.sdf;
            if sdf == 41. {
                fall = 400. * subframe;
            } else {
                fall *= sdf;
                fall = fall.max(0.05 * sdf);
            }
        }
        let (x, y) = (self.falling.x, self.falling.y);
        if self.should_lock() && !self.fits_at(x, y - 1.) {
            fall = 20.;
            self.state |= ACTION_FORCELOCK;
        }
        if self.should_fall_faster() {
            fall +=
                0.5 * subframe * (self.falling.rot_resets as f64 - (self.o.lockresets + 15) as f64);
        }
        let mut drop = fall;
        while drop > 0. {
            let y = self.falling.y;
            if !self.internal_fall(drop.min(1.)) {
                if self.internal_lock(subframe) {
                    if self.o.handling.safelock {
                        self.falling.safe_lock = 7;
                    }
                    self.lock(false);
                }
                return;
            }
            if y.floor() != self.falling.y.floor() {
                self.state &= !ROT_ALL;
                if self.keys[SOFT] {
                    self.drop_points(crate::games::tetrio::solo::SOFT_DROP_POINTS);
                }
            }
            drop -= drop.min(1.);
        }
    }

    pub(super) fn shift_once(&mut self) -> bool {
        self.state |= ACTION_MOVE;
        let dx = self.last_shift;
        let (x, y) = (self.falling.x, self.falling.y);
        if self.fits_at(x + dx, y) {
            self.falling.x += dx;
            self.falling.path.push(if dx < 0 { 'L' } else { 'R' });
            if self.falling.lock_resets < 31 {
                self.falling.lock_resets += 1;
            }
            self.state &= !(ROT_ALL | STATE_WALL);
            if self.is_20g() {
                self.slam();
            }
            if !self.should_lock() {
                self.falling.locking = 0.;
            }
            true
        } else {
            self.state |= STATE_WALL;
            false
        }
    }

    pub(super) fn process_shift(&mut self, i: usize, delta: f64) {
        let dir = if i == 0 { -1 } else { 1 };
        if !self.shifts[i].held || self.last_shift != dir {
            return;
        }
        let h = self.o.handling.clone();
        let s = &mut self.shifts[i];
        let arr_delta = (delta - (h.das - s.das).max(0.)).max(0.);
        s.das = (s.das + delta).min(h.das);
        if s.das < h.das {
            return;
        }
        s.arr += arr_delta;
        if s.arr < h.arr {
            return;
        }
        let times = if h.arr == 0. {
            self.o.width as f64
        } else {
            (s.arr / h.arr).floor()
        };
        s.arr -= h.arr * times;
        for _ in 0..times as usize {
            self.shift_once();
        }
    }

    pub(super) fn process_all_shift(&mut self, delta: f64) {
        self.process_shift(0, delta);
        self.process_shift(1, delta);
    }

    /// Takes the piece to the floor at once (20G); rows a held soft drop takes it down score
    /// as the soft drop's (SDF 41 with `may20g` slams the piece after each move).
    pub(super) fn slam(&mut self) {
        let mut rows = 0;
        while self.internal_fall(1.) {
            rows += 1;
        }
        if self.keys[SOFT] && rows > 0 {
            self.drop_points(rows as f64 * crate::games::tetrio::solo::SOFT_DROP_POINTS);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn down(key: Key) -> Event {
        Event::KeyDown {
            key,
            subframe: 0.,
            hoisted: false,
        }
    }

    /// SDF 41 with `may20g`: a piece that appears while soft drop is held goes to the floor
    /// at once (20G), and its rows score a point each, as the soft drop's (TETR.IO's scores of
    /// four players of `bhudgens/tetrio-replays` and of `halp1`'s match, 2 to 24 points short
    /// without them). GameDef 1 deals O then J: the O falls to the floor by the soft drop (21
    /// rows: its box's top row from 22.04 to 1.04), the hard drop locks it there (columns 4
    /// and 5), and the J appears and slams onto it (19 rows: its lowest minos on row 2), 19
    /// points more (none before).
    #[test]
    fn rows_a_held_soft_drop_slams_score_as_its_rows() {
        let o = Options::parse(
            &serde_json::json!({"version": 19, "seed": 1,
                "handling": {"sdf": 41, "may20g": true}}),
            "test",
        )
        .unwrap();
        let mut e = Engine::new(o);
        e.tick(&[down(Key::SoftDrop)]);
        assert_eq!((e.falling.piece, e.stats.score), (2, 21));
        e.tick(&[down(Key::HardDrop)]);
        assert_eq!(e.locks.len(), 1);
        assert_eq!((e.falling.piece, e.falling.y), (5, 3.04));
        assert_eq!((e.pending_drop_points(), e.stats.score), (19, 40));
    }
}
