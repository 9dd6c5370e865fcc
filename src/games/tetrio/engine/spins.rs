//! Rotation with SRS+ kicks, and how a rotation is recognised as a spin.

use super::*;

impl Engine {
    pub(super) fn corner(&self, x: i32, y: i32) -> bool {
        x < 0
            || x >= self.o.width as i32
            || y < 0
            || y >= self.height()
            || self.board[y as usize][x as usize] != 0
    }

    pub(super) fn detect_t_spin(&self, fin_or_tst: bool) -> SpinKind {
        if self.falling.piece != T {
            return SpinKind::None;
        }
        if fin_or_tst {
            return SpinKind::Normal;
        }
        let (x, y) = (self.falling.x + 1, self.falling.y.floor() as i32 - 1);
        let c = [
            self.corner(x - 1, y + 1),
            self.corner(x + 1, y + 1),
            self.corner(x + 1, y - 1),
            self.corner(x - 1, y - 1),
        ];
        if c.iter().filter(|&&b| b).count() < 3 {
            return SpinKind::None;
        }
        let r = self.falling.rotation as usize;
        if c[r] && c[(r + 1) % 4] {
            SpinKind::Normal
        } else {
            SpinKind::Mini
        }
    }

    pub(super) fn immobile(&self) -> bool {
        let f = &self.falling;
        let row = f.y.floor() as i32;
        !self.legal(f.piece, f.rotation, f.x - 1, row)
            && !self.legal(f.piece, f.rotation, f.x + 1, row)
            && !self.legal(f.piece, f.rotation, f.x, row + 1)
            && !self.legal(f.piece, f.rotation, f.x, row - 1)
    }

    pub(super) fn detect_spin(&self, fin_or_tst: bool) -> SpinKind {
        use SpinKind::*;
        let rule = self.o.spin;
        if rule == SpinRule::None {
            return None;
        }
        let is_t = self.falling.piece == T;
        let t = if is_t {
            self.detect_t_spin(fin_or_tst)
        } else {
            None
        };
        let all = self.immobile();
        match rule {
            SpinRule::None => None,
            SpinRule::TSpins => t,
            SpinRule::TSpinsPlus => t.max(if all && is_t { Mini } else { None }),
            SpinRule::All => {
                if t != None {
                    t
                } else if all {
                    Normal
                } else {
                    None
                }
            }
            SpinRule::AllMini => {
                if t != None {
                    t
                } else if all {
                    Mini
                } else {
                    None
                }
            }
            SpinRule::AllPlus => t.max(if all {
                if is_t {
                    Mini
                } else {
                    Normal
                }
            } else {
                None
            }),
            SpinRule::AllMiniPlus => t.max(if all { Mini } else { None }),
            SpinRule::MiniOnly => {
                if t == Normal {
                    Mini
                } else {
                    t.max(if all { Mini } else { None })
                }
            }
        }
    }

    /// Rotates by `amount` quarter turns clockwise (3 is counter-clockwise, 2 is a 180).
    pub(super) fn rotate(&mut self, amount: u8) {
        let f = &self.falling;
        let from = f.rotation;
        let to = (from + amount) % 4;
        self.state |= ACTION_MOVE | ACTION_ROTATE;
        let max_movement = !self.o.infinite_movement && f.total_rotations > self.o.lockresets + 15;
        let (x, y) = (f.x, f.y);
        let mut found = None;
        if self.legal(f.piece, to, x, y.floor() as i32) {
            found = Some((x, y, None));
        } else {
            for (i, &(dx, dy)) in kicks(f.piece, from, to).iter().enumerate() {
                let ny = if max_movement {
                    y - dy as f64
                } else {
                    y.ceil() - 0.1 - dy as f64
                };
                if self.legal(f.piece, to, x + dx, ny.floor() as i32) {
                    found = Some((x + dx, ny, Some((i, dx, dy))));
                    break;
                }
            }
        }
        let Some((nx, ny, kick)) = found else { return };
        // The last test of the T's quarter turns from state 0 or 2 into state 1 or 3 (the
        // "TST" and "fin" kicks) always makes a full spin.
        let fin_or_tst = matches!(kick, Some((_, dx, 2))
            if (from == 0 || from == 2) && ((to == 3 && dx == 1) || (to == 1 && dx == -1)));
        let dir = if amount == 2 {
            self.state |= ROT_180;
            if to > from {
                1
            } else {
                -1
            }
        } else if amount == 1 {
            1
        } else {
            -1
        };
        let f = &mut self.falling;
        f.path.push(match amount {
            1 => 'C',
            3 => 'A',
            _ => 'F',
        });
        f.x = nx;
        f.y = ny;
        f.rotation = to;
        self.state |= if dir == 1 { ROT_RIGHT } else { ROT_LEFT };
        self.state &= !(ROT_SPIN | ROT_MINI | 32);
        let f = &mut self.falling;
        if f.lock_resets < 31 {
            f.lock_resets += 1;
        }
        if f.rot_resets < 63 {
            f.rot_resets += 1;
        }
        let spin = self.detect_spin(fin_or_tst);
        self.last_spin = Some(spin);
        if spin != SpinKind::None {
            self.state |= ROT_SPIN;
            if spin == SpinKind::Mini {
                self.state |= ROT_MINI;
            }
        }
        self.falling.total_rotations += 1;
        self.internal_dcd();
        if !self.should_lock() {
            self.falling.locking = 0.;
        }
    }
}
