//! Score and line count in the ROM's binary-coded decimal, byte by byte, so that its two
//! quirks come out as the game has them: the soft-drop points add `holdDownPoints - 1` to
//! the low byte with a carry fix-up that can drop the ones digit, and the score stops at
//! 999 999.

/// `score` ($0053-$0055): three BCD bytes, low first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Score(pub [u8; 3]);

/// `pointsTable`: BCD points of 0 to 4 lines at level 0, low byte first.
const POINTS: [[u8; 2]; 5] = [
    [0x00, 0x00],
    [0x40, 0x00],
    [0x00, 0x01],
    [0x00, 0x03],
    [0x00, 0x12],
];

/// The value of a BCD byte, each nibble a digit (a nibble above 9 counts as its value, as
/// the screen's tile would show it).
fn digits(b: u8) -> u32 {
    u32::from(b >> 4) * 10 + u32::from(b & 0x0F)
}

/// Adds `add` to BCD byte `b` with the ROM's fix-up: +6 when the low nibble passes 9,
/// +$60 and a carry out when the byte passes $9F.
fn add_bcd(b: u8, add: u8) -> (u8, bool) {
    let mut v = b.wrapping_add(add);
    if v & 0x0F >= 0x0A {
        v = v.wrapping_add(6);
    }
    if v >= 0xA0 {
        (v.wrapping_add(0x60), true)
    } else {
        (v, false)
    }
}

impl Score {
    /// The score as a number.
    pub fn value(self) -> u32 {
        digits(self.0[2]) * 10_000 + digits(self.0[1]) * 100 + digits(self.0[0])
    }

    /// `addHoldDownPoints`: nothing below 2 points. The ROM decrements the low byte, adds
    /// the points in binary, then adds 6 if the low nibble passed 9; only on that path does
    /// it check the high nibble, and then it stores the high nibble alone plus $60 (the
    /// ones digit lost) and increments the middle byte without a BCD fix-up. A high nibble
    /// of $A left unchecked is fixed by the line-clear addition that always follows.
    pub fn add_soft_drop(&mut self, points: u8) {
        if points < 2 {
            return;
        }
        let sum = self.0[0].wrapping_sub(1).wrapping_add(points);
        if sum & 0x0F < 0x0A {
            self.0[0] = sum;
            return;
        }
        let fixed = sum.wrapping_add(6);
        self.0[0] = fixed;
        let high = fixed & 0xF0;
        if high >= 0xA0 {
            self.0[0] = high.wrapping_add(0x60);
            self.0[1] = self.0[1].wrapping_add(1);
        }
    }

    /// `addLineClearPoints`: the points of `lines` (0-4) added level + 1 times, each time
    /// capped at 999 999 (the ROM sets all six digits to 9 when the top byte passes $9F).
    pub fn add_lines(&mut self, lines: u8, level: u8) {
        let points = POINTS[usize::from(lines.min(4))];
        let times = u16::from(level) + 1;
        for _ in 0..times {
            let (lo, c0) = add_bcd(self.0[0], points[0]);
            self.0[0] = lo;
            let mid_in = if c0 {
                self.0[1].wrapping_add(1)
            } else {
                self.0[1]
            };
            let (mid, c1) = add_bcd(mid_in, points[1]);
            self.0[1] = mid;
            let high_in = if c1 {
                self.0[2].wrapping_add(1)
            } else {
                self.0[2]
            };
            let (high, c2) = add_bcd(high_in, 0);
            if c2 {
                self.0 = [0x99; 3];
            } else {
                self.0[2] = high;
            }
        }
    }
}

/// `lines` ($0050-$0051): BCD, low byte first; the ROM increments the high byte in binary.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Lines(pub [u8; 2]);

impl Lines {
    /// The count as a number.
    pub fn value(self) -> u32 {
        u32::from(self.0[1]) * 100 + digits(self.0[0])
    }

    /// One more line (A-type), with the ROM's fix-ups.
    pub fn increment(&mut self) {
        let mut lo = self.0[0].wrapping_add(1);
        if lo & 0x0F >= 0x0A {
            lo = lo.wrapping_add(6);
            if lo & 0xF0 >= 0xA0 {
                lo &= 0x0F;
                self.0[1] = self.0[1].wrapping_add(1);
            }
        }
        self.0[0] = lo;
    }

    /// One line fewer (B-type), stopping at 0.
    pub fn decrement(&mut self) {
        if self.0 == [0, 0] {
            return;
        }
        let mut lo = self.0[0].wrapping_sub(1);
        if lo & 0x0F >= 0x0A {
            lo = lo.wrapping_sub(6);
            if lo & 0xF0 >= 0xA0 {
                lo = (lo & 0x0F) | 0x90;
                self.0[1] = self.0[1].wrapping_sub(1);
            }
        }
        self.0[0] = lo;
    }

    /// The level the line count asks for when it ends in 0: its tens and hundreds digits
    /// read as one BCD byte (lines 120 ask for $12, that is 18), compared with the binary
    /// level. This is what lets a start above level 9 wait longer for its first transition.
    pub fn target_level(self) -> u8 {
        (self.0[1] << 4) | (self.0[0] >> 4)
    }
}

/// The level after one more line was counted (A-type): when the count ends in 0, one up if
/// the level is below the count's tens and hundreds read as BCD (`cmp` then `bpl`: signed).
/// This one rule gives both the transition every 10 lines and the late first transition of
/// a start above level 9.
pub fn level_after_line(level: u8, lines: Lines) -> u8 {
    if lines.0[0] & 0x0F == 0 && level.wrapping_sub(lines.target_level()) >= 0x80 {
        level.wrapping_add(1)
    } else {
        level
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(n: u32) -> Score {
        let b = |d: u32| (((d / 10 % 10) << 4) | (d % 10)) as u8;
        Score([b(n % 100), b(n / 100 % 100), b(n / 10_000 % 100)])
    }

    #[test]
    fn line_points_are_the_table_times_level_plus_one() {
        let mut s = Score::default();
        s.add_lines(4, 18);
        assert_eq!(s.value(), 22_800);
        s.add_lines(1, 0);
        assert_eq!(s.value(), 22_840);
        s.add_lines(2, 9);
        assert_eq!(s.value(), 23_840);
        s.add_lines(3, 29);
        assert_eq!(s.value(), 32_840);
    }

    #[test]
    fn the_score_stops_at_999999() {
        let mut s = score(988_998);
        s.add_lines(4, 18);
        assert_eq!(s.value(), 999_999);
    }

    #[test]
    fn soft_drop_adds_points_less_one() {
        let mut s = score(1234);
        s.add_soft_drop(5);
        assert_eq!(s.value(), 1238);
        s.add_soft_drop(1);
        assert_eq!(s.value(), 1238);
        // through the nibble fix-up
        let mut s = score(1209);
        s.add_soft_drop(3);
        assert_eq!(s.value(), 1211);
        // past 99: the ones digit is lost, the hundreds carry
        let mut s = score(1298);
        s.add_soft_drop(5);
        assert_eq!(s.value(), 1300);
    }

    #[test]
    fn lines_count_in_bcd_and_give_the_target_level() {
        let mut l = Lines::default();
        for _ in 0..120 {
            l.increment();
        }
        assert_eq!(l.value(), 120);
        assert_eq!(l.target_level(), 0x12);
        let mut b = Lines([0x25, 0]);
        for _ in 0..30 {
            b.decrement();
        }
        assert_eq!(b.value(), 0);
        let mut c = Lines([0x10, 0x01]);
        c.decrement();
        assert_eq!(c.value(), 109);
    }

    #[test]
    fn first_transition_by_start_level() {
        for start in 0..=19u8 {
            let (mut lines, mut level, mut moves) = (Lines::default(), start, Vec::new());
            for n in 1..=300u32 {
                lines.increment();
                let after = level_after_line(level, lines);
                if after != level {
                    moves.push(n);
                }
                level = after;
            }
            let want = match start {
                0..=9 => 10 * (u32::from(start) + 1),
                10..=15 => 100,
                _ => 100 + 10 * (u32::from(start) - 15),
            };
            assert_eq!(moves[0], want, "start level {start}");
            assert!(moves.windows(2).all(|w| w[1] - w[0] == 10), "{moves:?}");
        }
    }
}
