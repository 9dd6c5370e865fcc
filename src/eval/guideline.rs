//! The beam's rank of a guideline state: board shape (heights, bumpiness, holes,
//! transitions), what the rules pay for (a well kept open for four-row clears, T-spin double
//! slots, the back-to-back chain, a running combo), and the objective so far.
//!
//! Weights are data in the project's one weights format: a JSON map from feature name to
//! weight plus `score_weight`; lower rank is better, so a bad feature gets a positive weight.

use crate::error::Result;
use crate::fourwide::section::full_rows_from;
use crate::games::guideline::board::{Board, COLUMN_BITS, HEIGHT, WIDTH};
use crate::games::guideline::State;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Names of the features a guideline weights file may use.
pub const FEATURES: [&str; 13] = [
    "max_height",
    "total_height",
    "height_over_half",
    "bumpiness",
    "bumpiness_sq",
    "holes",
    "covered",
    "row_transitions",
    "well_depth",
    "tslot",
    "b2b",
    "combo",
    "fourwide_rows",
];

/// Built-in guideline weight sets.
pub const PRESETS: [&str; 4] = ["attack", "points", "versus", "blitz"];

/// Guideline evaluator weights: `{"holes": 6, ..., "score_weight": 10}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GuidelineWeights {
    pub score_weight: f64,
    #[serde(flatten)]
    pub features: BTreeMap<String, f64>,
}

fn weights(score_weight: f64, pairs: &[(&str, f64)]) -> GuidelineWeights {
    GuidelineWeights {
        score_weight,
        features: pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
    }
}

impl GuidelineWeights {
    /// A built-in set: `attack` (lines sent) or `points`.
    pub fn preset(name: &str) -> Option<GuidelineWeights> {
        // Hand-tuned at beam 500 on the five Cold Clear 2 comparison games (SRS, 500 pieces):
        // little weight on the score so far, a strong pull toward T-spin double slots; for
        // points a deep well and the back-to-back chain pay too (four-row clears score 800,
        // 1200 back-to-back), for attack they lose to T-spins and perfect clears
        // (results/guideline/weights.md).
        let shape = |well: f64, b2b: f64| {
            [
                ("max_height", 0.3),
                ("total_height", 0.4),
                ("height_over_half", 6.0),
                ("bumpiness", 0.8),
                ("bumpiness_sq", 0.25),
                ("holes", 6.0),
                ("covered", 1.0),
                ("row_transitions", 0.6),
                ("well_depth", well),
                ("tslot", -10.0),
                ("b2b", b2b),
                ("combo", -1.0),
            ]
        };
        Some(match name {
            "attack" => weights(1.5, &shape(0.0, -8.0)),
            "points" => weights(0.006, &shape(-2.5, -15.0)),
            // TETR.IO's BLITZ: the `points` shape with half the weight on the score so far,
            // whose points grow with the level (results/tetrio/blitz/README.md: at beam 300
            // on the public BLITZ game, 0.003 scored 480 784 against 440 402 for 0.006 and
            // 409 568 for 0.01).
            "blitz" => weights(0.003, &shape(-2.5, -15.0)),
            // TETR.IO's attack with its back-to-back chain bonus (`tetrio_chaining`): the
            // `attack` shape with a five times stronger pull to keep the chain, tuned by the
            // cross-entropy method on six other TETR.IO seeds (results/tetrio/versus-preset):
            // lines of chains some 185 clears long, a third more attack than `attack`.
            "versus" => weights(
                1.98,
                &[
                    ("max_height", 0.28),
                    ("total_height", 0.252),
                    ("height_over_half", 7.06),
                    ("bumpiness", 1.81),
                    ("bumpiness_sq", 0.255),
                    ("holes", 6.21),
                    ("covered", 1.03),
                    ("row_transitions", 0.527),
                    ("well_depth", -1.48),
                    ("tslot", -10.8),
                    ("b2b", -41.7),
                    ("combo", -0.876),
                ],
            ),
            _ => return None,
        })
    }

    /// A preset name or the path of a weights file; errors name the file and JSON place.
    pub fn resolve(name_or_path: &str) -> Result<GuidelineWeights> {
        super::preset_or_file(
            name_or_path,
            "guideline",
            &PRESETS,
            GuidelineWeights::preset,
            GuidelineWeights::parse,
        )
    }

    /// Parses and checks weights JSON.
    pub fn parse(text: &str) -> std::result::Result<GuidelineWeights, String> {
        // A Tencent weights file given to a guideline game: said so, rather than serde's
        // "invalid type: map" about its `value` model or an unknown feature. Read again only
        // when the file was refused.
        let tencent_key = || -> Option<String> {
            let Ok(serde_json::Value::Object(map)) = serde_json::from_str(text) else {
                return None;
            };
            let key = std::iter::once("value")
                .chain(crate::eval::tencent::SHAPING_KEYS)
                .chain(["lines"])
                .find(|key| map.contains_key(*key) && !FEATURES.contains(key))?;
            Some(format!(
                "{key}: a Tencent weights key; this is a guideline game, whose weights are \
                 score_weight and the guideline features ({})",
                FEATURES.join(", ")
            ))
        };
        let w: GuidelineWeights = serde_json::from_str(text)
            .map_err(|e| tencent_key().unwrap_or_else(|| crate::error::json_error(&e)))?;
        crate::io::refuse_duplicate_keys(text)?;
        crate::eval::tencent::check_weights(
            &w.features,
            w.score_weight,
            &FEATURES,
            "guideline feature",
        )
        .map_err(|e| tencent_key().unwrap_or(e))?;
        Ok(w)
    }

    fn get(&self, name: &str) -> f64 {
        self.features.get(name).copied().unwrap_or(0.0)
    }
}

/// A guideline state's features.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize)]
pub struct Features {
    /// The tallest column.
    pub max_height: u32,
    /// The column heights summed.
    pub total_height: u32,
    /// How far the tallest column reaches above row 10, squared: danger grows fast.
    pub height_over_half: u32,
    /// Sum of height steps between neighbouring columns, the deepest well left out.
    pub bumpiness: u32,
    /// Sum of squared height steps, the deepest well left out.
    pub bumpiness_sq: u32,
    /// Empty cells below their column's top.
    pub holes: u32,
    /// Filled cells above the highest hole of each column (what must go before it opens).
    pub covered: u32,
    /// Filled/empty changes along the rows up to the tallest column, walls filled.
    pub row_transitions: u32,
    /// Depth of the lowest column below both neighbours, at most 4: room for a four-row clear.
    pub well_depth: u32,
    /// Rows a T turned into the best T-spin double slot would clear (0..=2).
    pub tslot: u32,
    /// The back-to-back chain is on.
    pub b2b: u32,
    /// The combo counter plus one (0 when no combo runs).
    pub combo: u32,
    /// The most rows, from the floor of some four adjacent columns up, in which the six other
    /// columns are full while the four hold at most six cells above their floor (counted half
    /// unless they hold exactly 3 or 6, a residual the 4-wide solver starts from): the side
    /// stacks of a 4-wide combo being built (a player who cannot see the combo's pieces yet
    /// needs a reason to build them; the 4-wide solver values the section once it is there).
    pub fourwide_rows: u32,
}

impl Features {
    /// The features in [`FEATURES`] order: what the rank weighs, and what `learn data`
    /// writes.
    #[inline]
    pub fn values(&self) -> [u32; FEATURES.len()] {
        [
            self.max_height,
            self.total_height,
            self.height_over_half,
            self.bumpiness,
            self.bumpiness_sq,
            self.holes,
            self.covered,
            self.row_transitions,
            self.well_depth,
            self.tslot,
            self.b2b,
            self.combo,
            self.fourwide_rows,
        ]
    }
}

/// The features of `state`.
#[inline]
pub fn features(state: &State) -> Features {
    features_with(state, true)
}

/// The features of `state`, `fourwide_rows` only when asked for (the beam ranks every child,
/// and the presets do not weigh it).
#[inline]
fn features_with(state: &State, fourwide: bool) -> Features {
    let b = &state.board;
    let mut h = [0u32; WIDTH];
    let mut cells = 0;
    for (x, hx) in h.iter_mut().enumerate() {
        *hx = b.height(x);
        cells += b.cols[x].count_ones();
    }
    let max_height = *h.iter().max().unwrap_or(&0);
    let total_height: u32 = h.iter().sum();
    let mut f = Features {
        max_height,
        total_height,
        height_over_half: max_height.saturating_sub(10).pow(2),
        // every cell from a column's top down is filled or a hole
        holes: total_height - cells,
        b2b: state.b2b as u32,
        combo: (state.combo + 1).max(0) as u32,
        ..Features::default()
    };
    // The well: the lowest column (leftmost of equals).
    let well = (0..WIDTH).min_by_key(|&x| (h[x], x)).unwrap_or(0);
    let side = |x: usize| if x < WIDTH { h[x] } else { u32::MAX };
    let left = if well == 0 { u32::MAX } else { h[well - 1] };
    f.well_depth = left.min(side(well + 1)).saturating_sub(h[well]).min(4);
    for x in 0..WIDTH - 1 {
        let d = h[x].abs_diff(h[x + 1]);
        f.bumpiness += d;
        f.bumpiness_sq += d * d;
    }
    // the well's own steps are its depth, not roughness
    for x in [well.wrapping_sub(1), well] {
        if x < WIDTH - 1 {
            let d = h[x].abs_diff(h[x + 1]);
            f.bumpiness -= d;
            f.bumpiness_sq -= d * d;
        }
    }
    if f.holes > 0 {
        for (x, &hx) in h.iter().enumerate() {
            // Bit 23 - y: the column's empty cells below its top.
            let empty_below = b.below_top(x) & !b.cols[x];
            if empty_below != 0 {
                // every cell between the highest hole and the top is filled
                f.covered += hx + empty_below.trailing_zeros() - HEIGHT as u32;
            }
        }
    }
    let rows = if max_height == 0 {
        0
    } else {
        COLUMN_BITS & !((1u32 << (HEIGHT as u32 - max_height)) - 1)
    };
    f.row_transitions = (!b.cols[0] & rows).count_ones() + (!b.cols[WIDTH - 1] & rows).count_ones();
    for x in 0..WIDTH - 1 {
        f.row_transitions += ((b.cols[x] ^ b.cols[x + 1]) & rows).count_ones();
    }
    f.tslot = tsd_slot_lines(b, &h);
    if fourwide {
        f.fourwide_rows = fourwide_rows(b);
    }
    f
}

/// See [`Features::fourwide_rows`].
fn fourwide_rows(b: &Board) -> u32 {
    let mut prefix = [COLUMN_BITS; WIDTH + 1];
    let mut suffix = [COLUMN_BITS; WIDTH + 1];
    // each column's lowest empty cell: its full rows from the bottom
    let mut base = [0usize; WIDTH];
    for x in 0..WIDTH {
        prefix[x + 1] = prefix[x] & b.cols[x];
        base[x] = full_rows_from(b.cols[x], 0);
    }
    for x in (0..WIDTH).rev() {
        suffix[x] = suffix[x + 1] & b.cols[x];
    }
    let mut best = 0;
    for c in 0..=WIDTH - 4 {
        let floor = base[c..c + 4].iter().copied().min().unwrap_or(0);
        if floor >= HEIGHT {
            continue;
        }
        let above = COLUMN_BITS >> floor;
        let cells: u32 = (c..c + 4).map(|x| (b.cols[x] & above).count_ones()).sum();
        if cells > 6 {
            continue;
        }
        let sides = prefix[c] & suffix[c + 4];
        let rows = full_rows_from(sides, floor) as u32;
        // full value once the well holds a residual the 4-wide solver can start from
        best = best.max(if cells == 3 || cells == 6 {
            rows
        } else {
            rows / 2
        });
    }
    best
}

/// The most rows a T-spin double slot on `board` would clear: a T pointing down with its
/// stem at (x, y), y the column's height, both lower corners filled, the three cells above
/// the stem empty and an overhang above one upper corner. Column words have row y at bit
/// 23 - y, so `c << 1` puts row y + 1 where row y was.
fn tsd_slot_lines(b: &Board, h: &[u32; WIDTH]) -> u32 {
    // prefix[x] = AND of columns 0..x, suffix[x] = AND of columns x..10: full rows but for
    // some columns
    let mut prefix = [COLUMN_BITS; WIDTH + 1];
    let mut suffix = [COLUMN_BITS; WIDTH + 2];
    for x in 0..WIDTH {
        prefix[x + 1] = prefix[x] & b.cols[x];
    }
    for x in (0..WIDTH).rev() {
        suffix[x] = suffix[x + 1] & b.cols[x];
    }
    let c = &b.cols;
    let mut best = 0;
    for x in 1..WIDTH - 1 {
        let (l, m, r) = (c[x - 1], c[x], c[x + 1]);
        let slot = l & r & !((l | m | r) << 1) & ((l | r) << 2);
        // the stem's row; a column of 24 has no slot (the shift empties the bit)
        let stem = (1u32 << 23) >> h[x].min(24);
        if slot & stem == 0 {
            continue;
        }
        let low = (prefix[x] & suffix[x + 1] & stem != 0) as u32;
        let high = ((prefix[x - 1] & suffix[x + 2]) << 1 & stem != 0) as u32;
        best = best.max(low + high);
    }
    best
}

/// Weights unpacked for the hot loop.
#[derive(Clone, Debug)]
pub struct GuidelineEvaluator {
    pub weights: GuidelineWeights,
    w: [f64; FEATURES.len()],
    score_weight: f64,
    /// `fourwide_rows` has a weight.
    fourwide: bool,
}

impl GuidelineEvaluator {
    pub fn new(weights: GuidelineWeights) -> GuidelineEvaluator {
        let w = FEATURES.map(|name| weights.get(name));
        GuidelineEvaluator {
            fourwide: weights.get("fourwide_rows") != 0.0,
            score_weight: weights.score_weight,
            w,
            weights,
        }
    }

    /// The rank of `state` reached with `score` (lower is better).
    #[inline]
    pub fn rank(&self, state: &State, score: u32) -> f64 {
        let v = features_with(state, self.fourwide).values();
        let mut r = -self.score_weight * score as f64;
        for (w, x) in self.w.iter().zip(v) {
            r += w * x as f64;
        }
        r
    }
}

/// The guideline preset made for a game of `rules`, offline or online: its objective's, and
/// for TETR.IO's attack with the back-to-back chain bonus, `versus`.
pub fn rules_preset(rules: &crate::games::guideline::Rules) -> &'static str {
    use crate::games::guideline::{ComboTable, Objective};
    match (rules.objective, rules.combo_table) {
        (Objective::Attack, ComboTable::TetrioChaining) => "versus",
        (Objective::Attack | Objective::Lines, _) => "attack",
        (Objective::Points, _) => "points",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(rows: &[&str]) -> State {
        State {
            board: Board::from_rows(rows).unwrap(),
            ..State::START
        }
    }

    #[test]
    fn each_rule_set_has_its_preset() {
        use crate::games::guideline::{ComboTable, Objective, Rules, TopOut};
        use crate::games::srs::RotationSystem;
        let rules = |combo_table, objective| Rules {
            rotation: RotationSystem::SrsPlus,
            combo_table,
            objective,
            top: TopOut::Guideline,
        };
        for (table, objective, preset) in [
            (ComboTable::TetrioChaining, Objective::Attack, "versus"),
            (ComboTable::Guideline, Objective::Attack, "attack"),
            (ComboTable::Tetrio, Objective::Attack, "attack"),
            (ComboTable::TetrioChaining, Objective::Points, "points"),
        ] {
            assert_eq!(rules_preset(&rules(table, objective)), preset);
        }
        for name in PRESETS {
            let w = GuidelineWeights::preset(name).unwrap();
            assert_eq!(
                GuidelineWeights::parse(&serde_json::to_string(&w).unwrap()),
                Ok(w)
            );
        }
        // the chain is five times the pull it is in `attack`
        let (versus, attack) = (
            GuidelineWeights::preset("versus").unwrap(),
            GuidelineWeights::preset("attack").unwrap(),
        );
        assert_eq!((versus.get("b2b"), attack.get("b2b")), (-41.7, -8.0));
    }

    #[test]
    fn values_are_in_the_order_of_the_names() {
        let f = features(&state(&["X..XXXXXX.", "XX.XXXXXXX", "XXXXXXXX.X"]));
        let named = serde_json::to_value(f).unwrap();
        assert_eq!(named.as_object().unwrap().len(), FEATURES.len());
        for (name, v) in FEATURES.iter().zip(f.values()) {
            assert_eq!(named[name], v, "{name}");
        }
    }

    #[test]
    fn fourwide_rows_counts_the_side_stacks_of_a_well() {
        // sides full in rows 0..5 beside a well in columns 6..9 holding XXX_ at its floor
        let rows = [
            "XXXXXX....",
            "XXXXXX....",
            "XXXXXX....",
            "XXXXXX....",
            "XXXXXXXXX.",
        ];
        assert_eq!(features(&state(&rows)).fourwide_rows, 5);
        // two cells at the floor: half
        let two = [
            "XXXXXX....",
            "XXXXXX....",
            "XXXXXX....",
            "XXXXXX....",
            "XXXXXXXX..",
        ];
        assert_eq!(features(&state(&two)).fourwide_rows, 2);
        // seven cells in the well: no section is being built there (nor in any window)
        let seven = [
            "XXXXXX....",
            "XXXXXX....",
            "XXXXXXX...",
            "XXXXXXXXX.",
            "XXXXXXXXX.",
        ];
        assert_eq!(features(&state(&seven)).fourwide_rows, 0);
        // a hole in a side row ends the count
        let gap = [
            "XXXXXX....",
            "XXXXXX....",
            "XXX.XX....",
            "XXXXXX....",
            "XXXXXXXXX.",
        ];
        assert_eq!(features(&state(&gap)).fourwide_rows, 2);
        // an empty board has none
        assert_eq!(features(&State::START).fourwide_rows, 0);
    }

    #[test]
    fn hand_counted_features() {
        let s = state(&[".X........", "X...XXXXXX", "XX.XXXXXXX"]);
        let f = features(&s);
        assert_eq!(f.max_height, 3);
        // heights 2 3 0 1 2 2 2 2 2 2
        assert_eq!(f.total_height, 2 + 3 + 1 + 2 * 6);
        // column 1: empty at row 1 below its top at row 2
        assert_eq!((f.holes, f.covered), (1, 1));
        // the well is column 2 (height 0): neighbours 3 and 1 -> depth 1
        assert_eq!(f.well_depth, 1);
        // steps without the well's two: |2-3| = 1 and |1-2| = 1
        assert_eq!((f.bumpiness, f.bumpiness_sq), (2, 2));
        assert_eq!(f.tslot, 2, "the T-spin double slot of the movegen test");
        // rows 0..2: row 2 ".X........" has 4 changes with walls, row 1 "X...XXXXXX" 2,
        // row 0 "XX.XXXXXXX" 2
        assert_eq!(f.row_transitions, 4 + 2 + 2);
    }

    /// The T-slot rule cell by cell, as the doc comment states it.
    fn naive_tslot(b: &Board) -> u32 {
        let mut best = 0;
        for x in 1..WIDTH - 1 {
            let y = b.height(x) as usize;
            if y + 2 >= HEIGHT {
                continue;
            }
            let f = |cx: usize, cy: usize| b.filled(cx, cy);
            let slot = f(x - 1, y)
                && f(x + 1, y)
                && !f(x - 1, y + 1)
                && !f(x, y + 1)
                && !f(x + 1, y + 1)
                && (f(x - 1, y + 2) || f(x + 1, y + 2));
            if !slot {
                continue;
            }
            let low = (0..WIDTH).all(|c| c == x || f(c, y)) as u32;
            let high = (0..WIDTH).all(|c| c + 1 >= x && c <= x + 1 || f(c, y + 1)) as u32;
            best = best.max(low + high);
        }
        best
    }

    #[test]
    fn tslot_matches_its_cell_by_cell_rule() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg32::seed_from_u64(5);
        let mut seen = [0; 3];
        for _ in 0..20_000 {
            let mut b = Board::EMPTY;
            let top = rng.gen_range(1..24);
            for x in 0..WIDTH {
                for y in 0..rng.gen_range(0..=top) {
                    if rng.gen_bool(0.9) {
                        b.fill(x, y);
                    }
                }
            }
            let h: [u32; WIDTH] = std::array::from_fn(|x| b.height(x));
            let got = tsd_slot_lines(&b, &h);
            assert_eq!(got, naive_tslot(&b), "{b:?}");
            seen[got as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    /// Every feature from its definition, cell by cell.
    fn naive(state: &State) -> Features {
        let b = &state.board;
        let h: Vec<u32> = (0..WIDTH)
            .map(|x| {
                (0..HEIGHT)
                    .rev()
                    .find(|&y| b.filled(x, y))
                    .map_or(0, |y| y as u32 + 1)
            })
            .collect();
        let max = *h.iter().max().unwrap();
        let well = (0..WIDTH).min_by_key(|&x| (h[x], x)).unwrap();
        let mut f = Features {
            max_height: max,
            total_height: h.iter().sum(),
            height_over_half: max.saturating_sub(10).pow(2),
            b2b: state.b2b as u32,
            combo: (state.combo + 1).max(0) as u32,
            ..Features::default()
        };
        let left = if well == 0 { u32::MAX } else { h[well - 1] };
        let right = if well == WIDTH - 1 {
            u32::MAX
        } else {
            h[well + 1]
        };
        f.well_depth = left.min(right).saturating_sub(h[well]).min(4);
        for x in 0..WIDTH - 1 {
            if x + 1 != well && x != well {
                let d = h[x].abs_diff(h[x + 1]);
                f.bumpiness += d;
                f.bumpiness_sq += d * d;
            }
        }
        for (x, &hx) in h.iter().enumerate() {
            let holes: Vec<usize> = (0..hx as usize).filter(|&y| !b.filled(x, y)).collect();
            f.holes += holes.len() as u32;
            if let Some(&top_hole) = holes.iter().max() {
                f.covered += (top_hole..HEIGHT).filter(|&y| b.filled(x, y)).count() as u32;
            }
        }
        for y in 0..max as usize {
            let cell = |x: i32| x < 0 || x >= WIDTH as i32 || b.filled(x as usize, y);
            f.row_transitions += (-1..WIDTH as i32)
                .filter(|&x| cell(x) != cell(x + 1))
                .count() as u32;
        }
        f.tslot = naive_tslot(b);
        for c in 0..=WIDTH - 4 {
            let well = c..c + 4;
            let Some(floor) = (0..HEIGHT).find(|&y| well.clone().any(|x| !b.filled(x, y))) else {
                continue;
            };
            let cells = (floor..HEIGHT)
                .flat_map(|y| well.clone().map(move |x| (x, y)))
                .filter(|&(x, y)| b.filled(x, y))
                .count();
            if cells > 6 {
                continue;
            }
            let rows = (floor..HEIGHT)
                .take_while(|&y| {
                    (0..WIDTH)
                        .filter(|x| !well.contains(x))
                        .all(|x| b.filled(x, y))
                })
                .count() as u32;
            let value = if cells == 3 || cells == 6 {
                rows
            } else {
                rows / 2
            };
            f.fourwide_rows = f.fourwide_rows.max(value);
        }
        f
    }

    #[test]
    fn features_match_their_definitions_on_random_states() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg32::seed_from_u64(6);
        for i in 0..5_000 {
            let mut b = Board::EMPTY;
            let top = rng.gen_range(0..24);
            // a third of the boards without holes, as most of a beam's are
            let fill = if i % 3 == 0 { 1.0 } else { 0.8 };
            for x in 0..WIDTH {
                for y in 0..rng.gen_range(0..=top) {
                    if rng.gen_bool(fill) {
                        b.fill(x, y);
                    }
                }
            }
            let s = State {
                board: b,
                hold: None,
                combo: i % 5 - 1,
                b2b: i % 2 == 0,
                chain: 0,
            };
            assert_eq!(features(&s), naive(&s), "{b:?}");
        }
    }

    #[test]
    fn fourwide_rows_matches_its_definition_on_random_wells() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg32::seed_from_u64(7);
        let mut seen = [0u32; 25];
        for _ in 0..5_000 {
            let mut b = Board::EMPTY;
            let c = rng.gen_range(0..=WIDTH - 4);
            let sides = rng.gen_range(0..22);
            for x in (0..WIDTH).filter(|x| !(c..c + 4).contains(x)) {
                for y in 0..sides {
                    // now and then a gap in a side row
                    if rng.gen_bool(0.995) {
                        b.fill(x, y);
                    }
                }
            }
            let floor = rng.gen_range(0..4);
            for x in c..c + 4 {
                for y in 0..floor {
                    b.fill(x, y);
                }
                for y in floor..floor + 3 {
                    if rng.gen_bool(0.25) {
                        b.fill(x, y);
                    }
                }
            }
            let s = State {
                board: b,
                ..State::START
            };
            let f = features(&s);
            assert_eq!(f, naive(&s), "{b:?}");
            seen[f.fourwide_rows as usize] += 1;
        }
        assert!(
            seen[1..].iter().filter(|&&n| n > 0).count() > 10,
            "{seen:?}"
        );
    }

    #[test]
    fn presets_parse_back() {
        for p in PRESETS {
            let w = GuidelineWeights::preset(p).unwrap();
            let json = serde_json::to_string(&w).unwrap();
            assert_eq!(GuidelineWeights::parse(&json).unwrap(), w);
        }
        let e = GuidelineWeights::parse(r#"{"cells": 1, "score_weight": 1}"#).unwrap_err();
        assert!(e.starts_with("cells: unknown guideline feature"), "{e}");
    }

    #[test]
    fn tencent_weights_keys_are_refused_by_name() {
        let keys = std::iter::once("value")
            .chain(crate::eval::tencent::SHAPING_KEYS)
            .chain(["lines"]);
        for key in keys {
            let text = format!(r#"{{"score_weight": 1, "holes": 2, "{key}": 1}}"#);
            let e = GuidelineWeights::parse(&text).unwrap_err();
            assert!(
                e.starts_with(&format!("{key}: a Tencent weights key")),
                "{e}"
            );
        }
    }
}
