//! Score and line count in the ROM's binary-coded decimal, byte by byte, so that its two
//! quirks come out as the game has them: the soft-drop points add `holdDownPoints - 1` to
//! the low byte with a carry fix-up that drops the ones digit whenever the low byte passes
//! 99, and the score stops at 999 999.

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

    /// `addHoldDownPoints`: nothing below 2 points (`cmp #$02`, `bmi`: signed, so 130 and
    /// more would count as nothing too). `dec score`, `adc score`: the low byte less one
    /// plus the points, in binary. If the low nibble passed 9, +6. Then, on both paths, if
    /// the high nibble passed 9: `and #$F0`, `adc #$60` (the high nibble alone, so the ones
    /// digit is lost) and `inc score+1` (binary; the line-clear addition that always follows
    /// fixes its nibble).
    pub fn add_soft_drop(&mut self, points: u8) {
        if points.wrapping_sub(2) >= 0x80 {
            return;
        }
        let mut low = self.0[0].wrapping_sub(1).wrapping_add(points);
        if low & 0x0F >= 0x0A {
            low = low.wrapping_add(6);
        }
        if low & 0xF0 >= 0xA0 {
            low = (low & 0xF0).wrapping_add(0x60);
            self.0[1] = self.0[1].wrapping_add(1);
        }
        self.0[0] = low;
    }

    /// `addLineClearPoints`: the points of `lines` (0-4) added level + 1 times. Each time:
    /// the low byte gets its points in binary and only the byte's `cmp #$A0` (+$60 and a
    /// carry: the points end in 0, so no nibble fix-up is needed there); the middle byte its
    /// points and the carry with both fix-ups; the top byte the carry, its nibble fix-up,
    /// and if it passed $9F all six digits set to 9 (the cap at 999 999).
    pub fn add_lines(&mut self, lines: u8, level: u8) {
        let points = POINTS[usize::from(lines.min(4))];
        let times = u16::from(level) + 1;
        for _ in 0..times {
            let mut lo = self.0[0].wrapping_add(points[0]);
            let mut mid_in = self.0[1];
            if lo >= 0xA0 {
                lo = lo.wrapping_add(0x60);
                mid_in = mid_in.wrapping_add(1);
            }
            self.0[0] = lo;
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

    /// `addHoldDownPoints` then `addLineClearPoints` as the 6502 runs them, one
    /// instruction a line (A, the carry, the three score bytes): the reference the byte
    /// arithmetic above is checked against.
    fn rom_update(score: [u8; 3], hold_down_points: u8, lines: u8, level: u8) -> [u8; 3] {
        let mut m = score;
        let mut a: u8;
        let adc = |a: u8, v: u8, c: bool| -> (u8, bool) {
            let s = u16::from(a) + u16::from(v) + u16::from(c);
            (s as u8, s > 0xFF)
        };
        // lda holdDownPoints; cmp #$02; bmi addLineClearPoints
        if hold_down_points.wrapping_sub(2) & 0x80 == 0 {
            m[0] = m[0].wrapping_sub(1); // clc; dec score
            (a, _) = adc(hold_down_points, m[0], false); // adc score
            m[0] = a; // sta score
            if a & 0x0F >= 0x0A {
                // and #$0F; cmp #$0A; bcc L9C18 not taken: lda score; clc; adc #$06
                (a, _) = adc(m[0], 0x06, false);
                m[0] = a; // sta score
            }
            a = m[0] & 0xF0; // L9C18: lda score; and #$F0
            if a >= 0xA0 {
                // cmp #$A0; bcc L9C27; clc; adc #$60; sta score; inc score+1
                (a, _) = adc(a, 0x60, false);
                m[0] = a;
                m[1] = m[1].wrapping_add(1);
            }
        }
        let table = [0x0000u16, 0x0040, 0x0100, 0x0300, 0x1200];
        let points = table[usize::from(lines)].to_le_bytes();
        let mut counter = level.wrapping_add(1); // lda levelNumber; sta; inc generalCounter
        loop {
            (a, _) = adc(points[0], m[0], false); // L9C37: lda pointsTable,x; clc; adc score
            m[0] = a; // sta score
            if a >= 0xA0 {
                // cmp #$A0; bcc L9C4E; clc; adc #$60; sta score; inc score+1
                (a, _) = adc(a, 0x60, false);
                m[0] = a;
                m[1] = m[1].wrapping_add(1);
            }
            (a, _) = adc(points[1], m[1], false); // L9C4E: inx; lda pointsTable,x; clc; adc score+1
            m[1] = a; // sta score+1
            if a & 0x0F >= 0x0A {
                (m[1], _) = adc(m[1], 0x06, false); // lda score+1; clc; adc #$06; sta
            }
            if m[1] & 0xF0 >= 0xA0 {
                // L9C64: lda; and #$F0; cmp #$A0; bcc; lda score+1; clc; adc #$60; sta; inc score+2
                (m[1], _) = adc(m[1], 0x60, false);
                m[2] = m[2].wrapping_add(1);
            }
            if m[2] & 0x0F >= 0x0A {
                (m[2], _) = adc(m[2], 0x06, false); // L9C75
            }
            if m[2] & 0xF0 >= 0xA0 {
                m = [0x99; 3]; // L9C84: lda #$99; sta score, score+1, score+2
            }
            counter = counter.wrapping_sub(1); // L9C94: dec generalCounter; bne L9C37
            if counter == 0 {
                break;
            }
        }
        m
    }

    #[test]
    fn the_update_is_the_roms_instruction_for_instruction() {
        let bcd = |n: u32| (((n / 10) << 4) | (n % 10)) as u8;
        let mut checked = 0;
        for low in 0..100 {
            for mid in [0, 1, 9, 19, 50, 89, 98, 99] {
                for high in [0, 9, 42, 99] {
                    for points in 0..=40u8 {
                        for lines in 0..=4u8 {
                            for level in [0, 1, 9, 18, 19, 29] {
                                let start = [bcd(low), bcd(mid), bcd(high)];
                                let mut s = Score(start);
                                s.add_soft_drop(points);
                                s.add_lines(lines, level);
                                let want = rom_update(start, points, lines, level);
                                assert_eq!(
                                    s.0, want,
                                    "{start:02X?} + {points} soft, {lines} lines, level {level}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 100 * 8 * 4 * 41 * 5 * 6);
    }

    #[test]
    fn past_99_without_the_nibble_fix_up_the_ones_digit_is_lost_too() {
        // $95 - 1 + 15 = $A3: the low nibble stays below 10, the high nibble passes 9; the
        // ROM keeps $A0 + $60 = $00 and carries: 1 300, not 1 303.
        let mut s = score(1295);
        s.add_soft_drop(15);
        s.add_lines(0, 0);
        assert_eq!(s.value(), 1300);
        // The same through the nibble fix-up: $94 + 9 = $9D, +6 = $A3, then $00.
        let mut s = score(1295);
        s.add_soft_drop(10);
        s.add_lines(0, 0);
        assert_eq!(s.value(), 1300);
        // 20 rows from 99: $98 + $14 = $AC, +6 = $B2, then $B0 + $60 = $10: 1 310.
        let mut s = score(1299);
        s.add_soft_drop(21);
        s.add_lines(0, 0);
        assert_eq!(s.value(), 1310);
        // At the top: 999 990 + 19 rows passes 99 into a middle byte of $9A, which the
        // line-clear addition carries to the top byte and the cap.
        let mut s = score(999_990);
        s.add_soft_drop(19);
        s.add_lines(0, 0);
        assert_eq!(s.value(), 999_999);
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
