//! Spawning, hold, and the lock: clears, combo and back-to-back, attack, cancelling and
//! sending, garbage taken in, and TETR.IO's statistics.

use super::*;
use crate::games::tetrio::attack::attack;

impl Engine {
    pub(super) fn next_piece(&mut self, ignore_blockout: bool, is_hold: bool) {
        let p = self.draw();
        self.initiate(p, ignore_blockout, is_hold);
    }

    pub(super) fn initiate(&mut self, piece: u8, ignore_blockout: bool, is_hold: bool) {
        if self.o.handling.irs_hold {
            let mut r: i32 = 0;
            if self.keys[CCW] {
                r -= 1;
            }
            if self.keys[CW] {
                r += 1;
            }
            if self.keys[R180] {
                r += 2;
            }
            self.falling.irs = r.rem_euclid(4);
        }
        if self.o.handling.ihs_hold && self.keys[HOLD] && !is_hold {
            self.state |= ACTION_IHS;
        }
        self.internal_dcd();
        self.state &= !(ROT_ALL
            | STATE_ALL
            | ACTION_FORCELOCK
            | ACTION_SOFTDROP
            | ACTION_MOVE
            | ACTION_ROTATE);
        if !is_hold {
            self.hold_locked = false;
        }
        let prev = &self.falling;
        self.falling = Falling {
            piece,
            rotation: 0,
            x: (self.o.width as f64 / 2. - BOX[piece as usize] as f64 / 2.).floor() as i32,
            y: self.o.height as f64 + 2.04,
            locking: 0.,
            lock_resets: 0,
            rot_resets: 0,
            safe_lock: prev.safe_lock,
            highest_y: self.o.height as f64 + 2.,
            total_rotations: 0,
            irs: prev.irs,
            path: String::new(),
            held: is_hold,
        };
        // Finesse counts the presses of the piece in play only, and spares it only for soft
        // drop let go while it was in play: a hold starts both afresh.
        self.solo.piece_keys = 0;
        self.solo.piece_soft = false;
        if !ignore_blockout && self.blocked_out() {
            self.state ^= ACTION_IHS;
            self.falling.irs = 0;
            self.topped_out = true;
        } else if self.state & ACTION_IHS != 0 {
            self.state ^= ACTION_IHS;
            self.hold();
        } else {
            if self.falling.irs != 0 {
                let irs = self.falling.irs as u8;
                self.rotate(irs);
                self.falling.irs = 0;
            }
            if self.blocked_out() {
                self.topped_out = true;
            } else if self.is_20g() {
                self.slam();
            }
        }
    }

    pub(super) fn blocked_out(&mut self) -> bool {
        let f = &self.falling;
        if self.fits_at(f.x, f.y) {
            return false;
        }
        if self.last_was_clear && self.o.clutch {
            let (y0, h0) = (self.falling.y, self.falling.highest_y);
            while (self.falling.y.floor() as i32) < self.height() {
                self.falling.y += 1.;
                self.falling.highest_y += 1.;
                if self.fits_at(self.falling.x, self.falling.y) {
                    return false;
                }
            }
            self.falling.y = y0;
            self.falling.highest_y = h0;
        }
        true
    }

    pub(super) fn hold(&mut self) {
        if self.hold_locked || !self.o.display_hold {
            return;
        }
        self.hold_locked = !self.o.infinite_hold;
        self.stats.holds += 1;
        let current = self.falling.piece;
        match self.held.replace(current) {
            Some(p) => self.initiate(p, false, true),
            None => self.next_piece(false, true),
        }
        self.hold_locked = !self.o.infinite_hold;
    }

    pub(super) fn hard_drop(&mut self) {
        let mut rows = 0;
        while self.internal_fall(1.) {
            rows += 1;
        }
        self.drop_points(rows as f64 * crate::games::tetrio::solo::HARD_DROP_POINTS);
        self.lock(true);
    }

    pub(super) fn lock(&mut self, hard: bool) {
        self.hold_locked = false;
        let f = self.falling.clone();
        let row = f.y.floor() as i32;
        let h = self.height();
        for &(bx, by) in &SHAPES[f.piece as usize][f.rotation as usize] {
            let (cx, cy) = (f.x + bx, row - by);
            if cy >= 0 && cy < h && cx >= 0 && cx < self.o.width as i32 {
                self.board[cy as usize][cx as usize] = f.piece + 1;
            }
        }
        let mut lines = 0u32;
        let mut garbage_cleared = 0u32;
        let width = self.o.width;
        self.board.retain(|r| {
            let full = r.iter().all(|&c| c != 0);
            if full {
                lines += 1;
                if r.contains(&8) {
                    garbage_cleared += 1;
                }
            }
            !full
        });
        while self.board.len() < self.o.height + self.o.buffer {
            self.board.push(vec![0; width]);
        }
        let pc = self.board.iter().all(|r| r.iter().all(|&c| c == 0));
        self.stats.garbage.cleared += garbage_cleared;
        let spin = self.last_spin.unwrap_or(SpinKind::None);
        let pc_b2b = pc && self.o.allclears && self.o.allclear_b2b > 0;
        let mut broke: Option<i64> = Some(self.b2b);
        let b2b_before = self.b2b;
        if lines > 0 {
            self.combo += 1;
            if (spin != SpinKind::None || lines >= 4) && !pc_b2b {
                self.b2b += 1;
                broke = None;
            }
            if pc_b2b {
                self.b2b += self.o.allclear_b2b;
                broke = None;
            }
            if broke.is_some() {
                self.b2b = -1;
            }
        } else {
            self.combo = -1;
            broke = None;
        }
        let raw = attack(
            lines,
            spin,
            self.b2b.max(0) as u32,
            self.combo.max(0) as u32,
            self.o.b2bchaining,
            self.o.combo,
        );
        let mult = self.multiplier.value;
        let mut events: Vec<i64> = Vec::new();
        let special = self.o.garbagespecialbonus
            && garbage_cleared > 0
            && (spin != SpinKind::None || lines >= 4);
        if raw > 0. {
            events.push((raw * mult).floor() as i64 + special as i64);
        }
        if let Some(btb) = broke {
            if self.o.b2bcharging && btb + 1 > self.o.b2bcharge_at {
                let surge = ((btb - self.o.b2bcharge_at + self.o.b2bcharge_base + 1) as f64 * mult)
                    .floor() as i64;
                let third = (surge as f64 / 3.).round() as i64;
                events.splice(0..0, [third, third, surge - 2 * third]);
            }
        }
        if pc && self.o.allclears {
            events.push((self.o.allclear_garbage * mult).floor() as i64);
        }
        events.retain(|&g| g > 0);
        let attack_sum: i64 = events.iter().sum();
        if self.o.hasgarbage {
            self.stats.garbage.attack += attack_sum as u32;
        }
        if lines > 0 {
            self.last_was_clear = true;
            while let Some(&g) = events.first() {
                let left = self.garbage.cancel(g, self.stats.piecesplaced as i64);
                if left == 0 {
                    events.remove(0);
                } else {
                    events[0] = left;
                    break;
                }
            }
        } else {
            self.last_was_clear = false;
            let rows = self.garbage.tank(self.frame, self.cap.value, hard);
            for t in rows {
                self.insert_garbage(t);
            }
        }
        self.count_clear(lines, spin, pc);
        let sent: i64 = events.iter().sum();
        for &t in &self.targets.clone() {
            for &g in &events {
                if let Some(iid) = self.network.send(t, g) {
                    self.outbox.push(Outgoing {
                        frame: self.frame,
                        target: t,
                        iid,
                        amount: g,
                    });
                }
            }
        }
        if self.o.hasgarbage {
            self.stats.garbage.sent += sent as u32;
        }
        self.stats.piecesplaced += 1;
        self.stats.lines += lines;
        self.stats.topcombo = self.stats.topcombo.max((self.combo + 1) as u32);
        self.stats.topbtb = self.stats.topbtb.max((self.b2b + 1) as u32);
        let lock = Lock {
            frame: self.frame,
            piece: f.piece,
            rotation: f.rotation,
            x: f.x,
            y: row,
            spin,
            lines,
            allclear: pc,
            sent: sent as u32,
            attack: attack_sum as u32,
            held: f.held,
            path: f.path.clone(),
            hard,
            grown: self.multiplier.frame as i64,
            counted: self.piece_counts(),
        };
        // Back-to-back scores when this clear continues a chain already running.
        let b2b = lines > 0 && self.b2b > b2b_before && b2b_before >= 0;
        self.solo_lock(&lock, b2b);
        self.locks.push(lock);
        if !self.solo.ended {
            self.next_piece(false, false);
        }
        self.last_spin = None;
    }

    pub(super) fn count_clear(&mut self, lines: u32, spin: SpinKind, pc: bool) {
        let c = &mut self.stats.clears;
        if pc {
            c.allclear += 1;
        }
        if spin != SpinKind::None {
            self.stats.tspins += 1;
        }
        let slot = match (spin, lines) {
            (SpinKind::None, 0) => return,
            (SpinKind::None, 1) => &mut c.singles,
            (SpinKind::None, 2) => &mut c.doubles,
            (SpinKind::None, 3) => &mut c.triples,
            (SpinKind::None, 4) => &mut c.quads,
            (SpinKind::None, _) => &mut c.pentas,
            (SpinKind::Mini, 0) => &mut c.minitspins,
            (SpinKind::Mini, 1) => &mut c.minitspinsingles,
            (SpinKind::Mini, 2) => &mut c.minitspindoubles,
            (SpinKind::Mini, 3) => &mut c.minitspintriples,
            (SpinKind::Mini, _) => &mut c.minitspinquads,
            (SpinKind::Normal, 0) => &mut c.realtspins,
            (SpinKind::Normal, 1) => &mut c.tspinsingles,
            (SpinKind::Normal, 2) => &mut c.tspindoubles,
            (SpinKind::Normal, 3) => &mut c.tspintriples,
            (SpinKind::Normal, 4) => &mut c.tspinquads,
            (SpinKind::Normal, _) => &mut c.tspinpentas,
        };
        *slot += 1;
    }

    pub(super) fn insert_garbage(&mut self, t: Tanked) {
        let w = self.o.width;
        let row: Vec<u8> = (0..w)
            .map(|i| {
                if i >= t.column && i < t.column + t.size {
                    0
                } else {
                    8
                }
            })
            .collect();
        self.board.insert(0, row);
        // TETR.IO drops the row just under the top of the buffer, keeping the top one.
        let full = self.o.height + self.o.buffer;
        self.board.remove(full - 2);
        self.arrivals.push(Arrival {
            frame: self.frame,
            iid: t.cid,
            column: t.column,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tetrio::pieces::I;

    /// The attack of an I's quad down a well of four garbage rows (column 0), all clears off.
    fn quad_attack(special: bool) -> u32 {
        let o = Options::parse(
            &serde_json::json!({"version": 19, "seed": 1, "handling": {}, "allclears": false, "garbagespecialbonus": special}),
            "test",
        )
        .unwrap();
        let mut e = Engine::new(o);
        for _ in 0..4 {
            e.insert_garbage(Tanked {
                cid: 1,
                column: 0,
                size: 1,
            });
        }
        (e.falling.piece, e.falling.rotation, e.falling.x) = (I, 1, -2);
        e.drop_and_lock(true);
        let l = e.locks.last().unwrap();
        assert_eq!((l.lines, e.stats.garbage.cleared), (4, 4));
        l.attack
    }

    /// `garbagespecialbonus`: a quad that clears garbage rows sends one more (5, not 4).
    #[test]
    fn the_special_bonus_adds_one_to_a_quad_clearing_garbage() {
        assert_eq!(quad_attack(false), 4);
        assert_eq!(quad_attack(true), 5);
    }
}
