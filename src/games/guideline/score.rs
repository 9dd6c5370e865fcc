//! What a lock earns under the guideline rules (SPEC §6): points and attack, with combo,
//! back-to-back and perfect-clear bonuses and both combo tables.

use serde::{Deserialize, Serialize};

/// A lock's spin kind (SPEC §5). Only T pieces spin.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spin {
    None,
    Mini,
    Full,
}

/// How combos add attack.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComboTable {
    /// The classic Guideline table: 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, then 5.
    Guideline,
    /// TETR.IO's multiplier: lines x (1 + c/4), at least ln(1 + 1.25 c) from c = 2.
    Tetrio,
    /// TETR.IO today (`docs/tetrio.md`): the multiplier, and the back-to-back bonus growing
    /// with the chain (`b2bchaining`): `floor(1 + ln(1 + 0.8 b)) + (1 + frac(ln(1 + 0.8 b))) / 3`
    /// for the b-th back-to-back clear from b = 2, +1 for the first.
    TetrioChaining,
}

/// What the optimizer maximises.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    Points,
    Attack,
    /// A sprint (TETR.IO's 40 LINES): [`SPRINT_LINES`] lines in the fewest pieces. The score
    /// is the lines cleared; the game ends at the lock that reaches the goal.
    Lines,
}

/// The lines that end a sprint (`Objective::Lines`).
pub const SPRINT_LINES: u32 = 40;

impl Objective {
    /// What a lock of `lines` rows that `earned` this counts towards the objective.
    #[inline(always)]
    pub fn gain(self, earned: &Earned, lines: u32) -> u32 {
        match self {
            Objective::Points => earned.points,
            Objective::Attack => earned.attack,
            Objective::Lines => lines,
        }
    }

    /// The score that ends a game of this objective when reached (a sprint's lines).
    pub fn goal(self) -> Option<u32> {
        (self == Objective::Lines).then_some(SPRINT_LINES)
    }

    /// The objective as game files and results name it.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Points => "points",
            Objective::Attack => "attack",
            Objective::Lines => "lines",
        }
    }
}

/// What one lock earned, and the combo and back-to-back state it leaves.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Earned {
    pub points: u32,
    pub attack: u32,
    /// This clear was back-to-back.
    pub back_to_back: bool,
    /// The combo counter after the lock (−1 after a lock that clears nothing).
    pub combo: i32,
    /// Whether the last clearing lock was difficult, after this one.
    pub b2b_chain: bool,
    /// Back-to-back clears in a row, after this lock (kept under `TetrioChaining` only).
    pub chain: u8,
}

/// Points for 0..=4 rows: no spin, mini, full. A mini T-spin never clears three rows and a
/// T-spin never four (the T spans three rows and a triple fills all four corners), so those
/// slots repeat the largest real entry and are never read.
const POINTS: [[u32; 5]; 3] = [
    [0, 100, 300, 500, 800],
    [100, 200, 400, 400, 400],
    [400, 800, 1200, 1600, 1600],
];
/// Attack lines for 0..=4 rows, in the same layout.
const LINES: [[u32; 5]; 3] = [[0, 0, 1, 2, 4], [0, 0, 1, 1, 1], [0, 2, 4, 6, 6]];
/// Perfect-clear points for 1..=4 rows.
const PERFECT_POINTS: [u32; 5] = [0, 800, 1200, 1800, 2000];
/// Perfect-clear points for a back-to-back four-row clear.
const PERFECT_B2B_TETRIS: u32 = 3200;
/// Attack a perfect clear adds.
const PERFECT_LINES: u32 = 10;
/// Guideline combo attack for combo 1..=10; 5 from 11 on.
const GUIDELINE_COMBO: [u32; 10] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];

/// Scores a lock of `lines` rows with `spin`, leaving the board empty when `perfect`, after a
/// combo counter `combo` and a back-to-back chain `b2b` (the last clear was difficult).
pub fn score(
    lines: u32,
    spin: Spin,
    perfect: bool,
    combo: i32,
    b2b: bool,
    table: ComboTable,
) -> Earned {
    score_chained(lines, spin, perfect, combo, b2b, 0, table)
}

/// [`score`] after `chain` back-to-back clears in a row (read under `TetrioChaining` only).
#[inline]
pub fn score_chained(
    lines: u32,
    spin: Spin,
    perfect: bool,
    combo: i32,
    b2b: bool,
    chain: u8,
    table: ComboTable,
) -> Earned {
    let row = spin as usize;
    let n = lines.min(4) as usize;
    if lines == 0 {
        return Earned {
            points: POINTS[row][0],
            attack: 0,
            back_to_back: false,
            combo: -1,
            b2b_chain: b2b,
            chain,
        };
    }
    let combo = combo + 1;
    let difficult = lines == 4 || spin != Spin::None;
    let back_to_back = difficult && b2b;
    let base = POINTS[row][n];
    let mut points = if back_to_back { base * 3 / 2 } else { base };
    if combo >= 1 {
        points += 50 * combo as u32;
    }
    let attack = LINES[row][n] + back_to_back as u32;
    let mut attack = match (table, combo >= 1) {
        // TETR.IO's own formula covers combo 0 too (and the chain's bonus).
        (ComboTable::TetrioChaining, _) => tetrio_attack(lines, spin, back_to_back, chain, combo),
        (ComboTable::Guideline, true) => {
            attack
                + GUIDELINE_COMBO
                    .get(combo as usize - 1)
                    .copied()
                    .unwrap_or(5)
        }
        (ComboTable::Tetrio, true) => {
            let c = combo as f64;
            let mut x = attack as f64 * (1.0 + 0.25 * c);
            if combo >= 2 {
                x = x.max((1.0 + 1.25 * c).ln());
            }
            x.floor() as u32
        }
        (_, false) => attack,
    };
    if perfect {
        points += if n == 4 && back_to_back {
            PERFECT_B2B_TETRIS
        } else {
            PERFECT_POINTS[n]
        };
        attack += PERFECT_LINES;
    }
    Earned {
        points,
        attack,
        back_to_back,
        combo,
        b2b_chain: difficult,
        chain: match table {
            ComboTable::TetrioChaining if back_to_back => chain.saturating_add(1),
            _ => 0,
        },
    }
}

/// TETR.IO's attack of a clear (before an all clear's): `chain` back-to-back clears before
/// this one when it is back-to-back.
fn tetrio_attack(lines: u32, spin: Spin, back_to_back: bool, chain: u8, combo: i32) -> u32 {
    use crate::games::tetrio::attack::{attack, ComboRule, SpinKind};
    let kind = match spin {
        Spin::None => SpinKind::None,
        Spin::Mini => SpinKind::Mini,
        Spin::Full => SpinKind::Normal,
    };
    let b = if back_to_back { chain as u32 + 1 } else { 0 };
    attack(
        lines,
        kind,
        b,
        combo.max(0) as u32,
        true,
        ComboRule::Multiplier,
    )
    .floor() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use ComboTable::{Guideline, Tetrio};

    #[test]
    fn tables_of_the_spec() {
        let s = |l, sp, c, b| score(l, sp, false, c, b, Guideline);
        assert_eq!(s(4, Spin::None, -1, false).points, 800);
        assert_eq!(s(4, Spin::None, -1, false).attack, 4);
        // back-to-back tetris: 1200 points, 5 lines; combo 1 adds 50 and 0 lines
        let e = s(4, Spin::None, 0, true);
        assert_eq!(
            (e.points, e.attack, e.back_to_back, e.combo),
            (1200 + 50, 5, true, 1)
        );
        // TSD, mini single, zero-row spins
        assert_eq!(s(2, Spin::Full, -1, false).points, 1200);
        assert_eq!(s(2, Spin::Full, -1, false).attack, 4);
        assert_eq!(s(1, Spin::Mini, -1, true).points, 300);
        assert_eq!(s(1, Spin::Mini, -1, true).attack, 1);
        let zero = s(0, Spin::Full, 3, true);
        assert_eq!(
            (zero.points, zero.attack, zero.combo, zero.b2b_chain),
            (400, 0, -1, true)
        );
        assert_eq!(s(0, Spin::Mini, 3, false).points, 100);
        // a single breaks the chain, sends nothing at combo 0
        let single = s(1, Spin::None, -1, true);
        assert_eq!(
            (single.points, single.attack, single.b2b_chain),
            (100, 0, false)
        );
        // guideline combo table: c = 1..12
        let combo: Vec<u32> = (0..12).map(|c| s(1, Spin::None, c, false).attack).collect();
        assert_eq!(combo, [0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5]);
    }

    #[test]
    fn perfect_clears() {
        let p = |l, b| score(l, Spin::None, true, -1, b, Guideline);
        assert_eq!(p(1, false).points, 100 + 800);
        assert_eq!(p(4, false).points, 800 + 2000);
        assert_eq!(p(4, true).points, 1200 + 3200);
        assert_eq!(p(4, true).attack, 4 + 1 + 10);
        assert_eq!(p(2, false).attack, 11);
    }

    #[test]
    fn tetrio_multiplier() {
        let t = |l, sp, c, b| score(l, sp, false, c, b, Tetrio).attack;
        // combo 0: the lines as they are
        assert_eq!(t(4, Spin::None, -1, false), 4);
        // tetris at combo 1: 4 x 1.25 = 5; b2b tetris at combo 2: 5 x 1.5 = 7.5 -> 7
        assert_eq!(t(4, Spin::None, 0, false), 5);
        assert_eq!(t(4, Spin::None, 1, true), 7);
        // singles: 0 lines, raised to ln(1 + 1.25c) from c = 2: ln 3.5 = 1.25 -> 1,
        // c = 5: ln 7.25 = 1.98 -> 1, c = 6: ln 8.5 = 2.14 -> 2
        assert_eq!(t(1, Spin::None, 0, false), 0);
        assert_eq!(t(1, Spin::None, 1, false), 1);
        assert_eq!(t(1, Spin::None, 4, false), 1);
        assert_eq!(t(1, Spin::None, 5, false), 2);
        // TSD at combo 3, b2b: (4 + 1) x 1.75 = 8.75 -> 8; a perfect clear adds 10 after
        assert_eq!(t(2, Spin::Full, 2, true), 8);
        assert_eq!(score(2, Spin::Full, true, 2, true, Tetrio).attack, 18);
    }

    #[test]
    fn tetrio_chaining_grows_the_back_to_back_bonus() {
        use super::score_chained;
        // Four quads in a row, no combo between them: 4, then 5 (b = 1), then b = 2:
        // 4 + floor(1 + ln 2.6) + (1 + frac(ln 2.6)) / 3 = 5.65 -> 5, then b = 3: 4 + 2.41 -> 6.
        let (mut b2b, mut chain, mut got) = (false, 0u8, Vec::new());
        for _ in 0..4 {
            let e = score_chained(
                4,
                Spin::None,
                false,
                -1,
                b2b,
                chain,
                ComboTable::TetrioChaining,
            );
            got.push(e.attack);
            (b2b, chain) = (e.b2b_chain, e.chain);
        }
        assert_eq!(got, [4, 5, 5, 6]);
        assert_eq!(chain, 3);
        // docs/guideline.md's example: a back-to-back quad at b = 2 (one back-to-back clear
        // before it) and combo 1 (the counter at 0 before it): floor(5.652 × 1.25) = 7
        let e = score_chained(4, Spin::None, false, 0, true, 1, ComboTable::TetrioChaining);
        assert_eq!((e.attack, e.combo, e.chain), (7, 1, 2));
        // A plain clear breaks the chain; the other tables keep no chain.
        let e = score_chained(
            1,
            Spin::None,
            false,
            -1,
            true,
            3,
            ComboTable::TetrioChaining,
        );
        assert_eq!((e.chain, e.b2b_chain), (0, false));
        let e = score_chained(4, Spin::None, false, -1, true, 0, ComboTable::Tetrio);
        assert_eq!((e.attack, e.chain), (5, 0));
    }
}
