//! A learned value for the Tencent beam: the points a board is still worth with the pieces
//! ahead, as a linear function of a richer board description than the hand-weighted rank's.
//!
//! The beam's rank is `features · w − score_weight × score`; a weights file may add a
//! `"value"` model, and the rank is then `features · w − score_weight × (score + value)`. A
//! pure learned ranking is `{"score_weight": 1, "value": {...}}`: the beam keeps the boards
//! with the highest estimated total, the points so far plus the points the model expects
//! from the board over the next pieces. A blend keeps a hand-weighted rank and adds a learned
//! correction in points (`learn fit --base`). The model is fitted by `beamtris learn fit` on what
//! `beamtris learn data` wrote (docs/learning.md).
//!
//! The model file is versioned (`format`, `version`) and names its family and its terms by
//! feature name; an unknown name, a missing version or a non-finite weight is refused on
//! load with the key that is wrong.

use crate::games::tencent::board::{Board, HEIGHT, WIDTH};
use crate::games::tencent::fast_features::{fast_features, FastFeatures};
use crate::games::tencent::features;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `format` a value model carries.
pub const FORMAT: &str = "beamtris-value-model";
/// The model version this build reads and writes.
pub const VERSION: u32 = 1;

/// Names of the value features, in the order [`value_features`] returns them.
pub const VALUE_FEATURES: [&str; NUM_FEATURES] = [
    "cells",
    "cells_sq",
    "holes",
    "rows_with_holes",
    "hole_depth",
    "row_transitions",
    "column_transitions",
    "max_height",
    "max_height_sq",
    "height_spread",
    "bumpiness",
    "bumpiness_sq",
    "well_depth",
    "wells",
    "tetris_ready",
    "tetris_ready_cells",
    "next_i",
    "i_within_2",
    "ready_and_i_within_2",
    "ready_and_i_far",
    "cells_and_i_far",
    "edge_well",
];

/// How many value features there are.
pub const NUM_FEATURES: usize = 22;

/// `next_i` when no I piece comes (and its cap): the I is as good as absent.
pub const NEXT_I_CAP: u32 = 14;

/// The value features of `board`, reached by a placement whose next I piece is `upcoming_i`
/// pieces away (0: none comes). Every feature is a count or a product of counts, so equal
/// boards with the same queue ahead get equal values.
#[inline]
pub fn value_features(board: &Board, upcoming_i: u32) -> [f64; NUM_FEATURES] {
    features_of(board, upcoming_i, &fast_features(board), Needs::ALL)
}

/// Which of the costlier features a model reads (the rest cost next to nothing once the
/// rank's own features are known).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Needs {
    /// Anything read off the column heights: heights, bumpiness, wells' depth, readiness.
    shape: bool,
    hole_depth: bool,
    wells: bool,
}

impl Needs {
    const ALL: Needs = Needs {
        shape: true,
        hole_depth: true,
        wells: true,
    };

    /// What the features with nonzero weights in `dense` read.
    fn of(dense: &[f64; NUM_FEATURES]) -> Needs {
        let reads = |names: &[&str]| {
            VALUE_FEATURES
                .iter()
                .zip(dense)
                .any(|(n, &w)| w != 0.0 && names.contains(n))
        };
        Needs {
            shape: reads(&[
                "max_height",
                "max_height_sq",
                "height_spread",
                "bumpiness",
                "bumpiness_sq",
                "well_depth",
                "tetris_ready",
                "tetris_ready_cells",
                "ready_and_i_within_2",
                "ready_and_i_far",
                "edge_well",
            ]),
            hole_depth: reads(&["hole_depth"]),
            wells: reads(&["wells"]),
        }
    }
}

/// What the column heights tell.
#[derive(Clone, Copy, Debug, Default)]
struct Shape {
    max_height: u32,
    spread: u32,
    bumpiness: u32,
    bumpiness_sq: u32,
    well_depth: u32,
    edge_well: bool,
    ready: u32,
}

impl Shape {
    #[inline]
    fn of(board: &Board) -> Shape {
        let tops = board.column_tops();
        let heights = tops.map(|t| HEIGHT as u8 - t);
        let (mut lo, mut hi) = (u8::MAX, 0u8);
        let (mut bump, mut bump_sq) = (0u32, 0u32);
        for x in 0..WIDTH {
            lo = lo.min(heights[x]);
            hi = hi.max(heights[x]);
            if x + 1 < WIDTH {
                let d = heights[x].abs_diff(heights[x + 1]) as u32;
                bump += d;
                bump_sq += d * d;
            }
        }
        // The deepest well: a column below both neighbours (a wall counts as the board's top).
        let (mut well_depth, mut well_x) = (0u32, 0usize);
        for x in 0..WIDTH {
            let left = if x == 0 { HEIGHT as u8 } else { heights[x - 1] };
            let right = if x + 1 == WIDTH {
                HEIGHT as u8
            } else {
                heights[x + 1]
            };
            let d = left.min(right).saturating_sub(heights[x]) as u32;
            if d > well_depth {
                (well_depth, well_x) = (d, x);
            }
        }
        Shape {
            max_height: hi as u32,
            spread: (hi - lo) as u32,
            bumpiness: bump,
            bumpiness_sq: bump_sq,
            well_depth,
            edge_well: well_depth > 0 && (well_x == 0 || well_x + 1 == WIDTH),
            ready: features::tetris_ready_with_tops(board, &tops),
        }
    }
}

/// The value features; those `needs` does not ask for are 0.
#[inline]
fn features_of(
    board: &Board,
    upcoming_i: u32,
    f: &FastFeatures,
    needs: Needs,
) -> [f64; NUM_FEATURES] {
    let sh = if needs.shape {
        Shape::of(board)
    } else {
        Shape::default()
    };
    let next_i = if upcoming_i == 0 {
        NEXT_I_CAP
    } else {
        upcoming_i.min(NEXT_I_CAP)
    };
    let soon = (upcoming_i != 0 && upcoming_i <= 2) as u32;
    let cells = f.cells as f64;
    let max_height = sh.max_height as f64;
    let ready = sh.ready;
    [
        cells,
        cells * cells / 100.0,
        f.holes as f64,
        f.rows_with_holes as f64,
        if needs.hole_depth {
            features::hole_depth(board) as f64
        } else {
            0.0
        },
        f.row_transitions as f64,
        f.column_transitions as f64,
        max_height,
        max_height * max_height,
        sh.spread as f64,
        sh.bumpiness as f64,
        sh.bumpiness_sq as f64,
        sh.well_depth as f64,
        if needs.wells {
            features::wells(board) as f64
        } else {
            0.0
        },
        ready as f64,
        (ready * f.cells) as f64 / 10.0,
        next_i as f64,
        soon as f64,
        (ready * soon) as f64,
        (ready * (1 - soon)) as f64 * next_i as f64,
        cells * next_i as f64 / 10.0,
        sh.edge_well as u32 as f64,
    ]
}

/// A learned value: the points a board is expected to add over the next pieces, as a sum of
/// weighted value features. As written in a weights file under `"value"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueModel {
    /// Always [`FORMAT`].
    pub format: String,
    /// The model version ([`VERSION`]).
    pub version: u32,
    /// The family whose boards it values: `tencent`.
    pub family: String,
    /// Feature name -> weight (points per unit of the feature). Names not given weigh 0.
    pub terms: BTreeMap<String, f64>,
    /// Where the model came from (the data files and the fit), for the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
    /// The weights in [`VALUE_FEATURES`] order, filled by [`ValueModel::check`].
    #[serde(skip)]
    dense: [f64; NUM_FEATURES],
    /// The costlier features the terms read, filled by [`ValueModel::check`].
    #[serde(skip)]
    needs: Needs,
}

impl ValueModel {
    /// A model of `terms` (checked).
    pub fn new(
        terms: BTreeMap<String, f64>,
        provenance: Option<String>,
    ) -> Result<ValueModel, String> {
        let mut m = ValueModel {
            format: FORMAT.into(),
            version: VERSION,
            family: "tencent".into(),
            terms,
            provenance,
            dense: [0.0; NUM_FEATURES],
            needs: Needs::default(),
        };
        m.check()?;
        Ok(m)
    }

    /// Checks the format, version, family and every term, and fills the dense weights.
    /// Errors name the key, under `value.`.
    pub fn check(&mut self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!(
                "value.format: {:?} is not a value model (expected {FORMAT:?})",
                crate::error::printable(&self.format)
            ));
        }
        if self.version != VERSION {
            return Err(format!(
                "value.version: {} is not a version this build reads ({VERSION})",
                self.version
            ));
        }
        if self.family != "tencent" {
            return Err(format!(
                "value.family: {:?}: value models are for the tencent family",
                crate::error::printable(&self.family)
            ));
        }
        self.dense = [0.0; NUM_FEATURES];
        for (k, &v) in &self.terms {
            let Some(i) = VALUE_FEATURES.iter().position(|n| n == k) else {
                return Err(format!(
                    "value.terms.{}: unknown value feature (known: {})",
                    crate::error::printable(k),
                    VALUE_FEATURES.join(", ")
                ));
            };
            if let Some(problem) = super::weight_problem(v) {
                return Err(format!(
                    "value.terms.{}: {problem}",
                    crate::error::printable(k)
                ));
            }
            self.dense[i] = v;
        }
        self.needs = Needs::of(&self.dense);
        Ok(())
    }

    /// The points `board` is expected to add over the next pieces, the next I piece
    /// `upcoming_i` pieces away (0: none); `f` is the board's [`fast_features`], which the
    /// rank has at hand.
    #[inline]
    pub fn value(&self, board: &Board, upcoming_i: u32, f: &FastFeatures) -> f64 {
        let phi = features_of(board, upcoming_i, f, self.needs);
        phi.iter().zip(&self.dense).map(|(a, b)| a * b).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        let rows = text.lines().count();
        Board::from_text(&("..........\n".repeat(HEIGHT - rows) + text)).unwrap()
    }

    #[test]
    fn features_of_a_hand_counted_board() {
        // Four rows full but for column 9, a hole under column 0's block on top.
        let b = board("#.........\n.#........\n#########.\n#########.\n#########.\n#########.\n");
        let f = value_features(&b, 2);
        let get = |n: &str| f[VALUE_FEATURES.iter().position(|&x| x == n).unwrap()];
        assert_eq!(get("cells"), 38.0);
        assert_eq!(get("cells_sq"), 14.44);
        assert_eq!(get("holes"), 1.0);
        assert_eq!(get("rows_with_holes"), 1.0);
        // heights: 6 5 4 4 4 4 4 4 4 0
        assert_eq!(get("max_height"), 6.0);
        assert_eq!(get("max_height_sq"), 36.0);
        assert_eq!(get("height_spread"), 6.0);
        assert_eq!(get("bumpiness"), 1.0 + 1.0 + 4.0);
        assert_eq!(get("bumpiness_sq"), 1.0 + 1.0 + 16.0);
        // column 9: its left neighbour 4 high, the wall 20: depth 4
        assert_eq!(get("well_depth"), 4.0);
        assert_eq!(get("edge_well"), 1.0);
        assert_eq!(get("tetris_ready"), 4.0);
        assert_eq!(get("tetris_ready_cells"), 4.0 * 38.0 / 10.0);
        assert_eq!(get("next_i"), 2.0);
        assert_eq!(get("i_within_2"), 1.0);
        assert_eq!(get("ready_and_i_within_2"), 4.0);
        assert_eq!(get("ready_and_i_far"), 0.0);
        // no I ahead: next_i is capped
        let far = value_features(&b, 0);
        assert_eq!(far[16], NEXT_I_CAP as f64);
        assert_eq!(far[19], 4.0 * NEXT_I_CAP as f64);
    }

    #[test]
    fn a_model_reads_only_what_its_terms_need_and_gets_the_full_value() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(9);
        // every subset shape: all terms, the rank's own features only, one shape term
        let subsets: [&[&str]; 4] = [
            &VALUE_FEATURES,
            &[
                "cells",
                "holes",
                "row_transitions",
                "next_i",
                "cells_and_i_far",
            ],
            &["cells", "bumpiness"],
            &["hole_depth", "wells"],
        ];
        for names in subsets {
            let terms: BTreeMap<String, f64> = names
                .iter()
                .map(|n| (n.to_string(), rng.gen_range(-50.0..50.0)))
                .collect();
            let m = ValueModel::new(terms.clone(), None).unwrap();
            for i in 0..300 {
                let mut rows = [0u16; HEIGHT];
                for row in rows.iter_mut().skip(rng.gen_range(4..HEIGHT)) {
                    *row = rng.gen_range(0..1023);
                }
                let b = Board::from_rows(&rows);
                let full = value_features(&b, i % 17);
                let want: f64 = VALUE_FEATURES
                    .iter()
                    .zip(full)
                    .map(|(n, x)| terms.get(*n).copied().unwrap_or(0.0) * x)
                    .sum();
                let got = m.value(&b, i % 17, &fast_features(&b));
                assert!((got - want).abs() < 1e-9, "{names:?}: {got} {want}");
            }
        }
    }

    #[test]
    fn models_are_checked_on_load() {
        let mut terms = BTreeMap::new();
        terms.insert("cells".to_string(), 30.0);
        let m = ValueModel::new(terms.clone(), None).unwrap();
        let json = serde_json::to_string(&m).unwrap();
        let mut back: ValueModel = serde_json::from_str(&json).unwrap();
        back.check().unwrap();
        assert_eq!(back, m);
        let b = board("##########\n#########.\n");
        assert_eq!(m.value(&b, 0, &fast_features(&b)), 30.0 * 19.0);
        terms.insert("celz".to_string(), 1.0);
        assert!(ValueModel::new(terms, None)
            .unwrap_err()
            .starts_with("value.terms.celz: unknown value feature"));
        let mut old = m.clone();
        old.version = 7;
        assert!(old.check().unwrap_err().starts_with("value.version: 7"));
    }
}
