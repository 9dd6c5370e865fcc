//! Named weight sets: a board is worth the weighted sum of its [`Features`].
//!
//! A weight set is a JSON map from feature name to weight (`{"holes": -4, ...}`); features it
//! leaves out weigh 0, unknown names are refused. The three published sets are built in:
//!
//! * `dellacherie`: Pierre Dellacherie's hand-tuned player (2003), as given by Fahey and by
//!   Thiery & Scherrer: landing height -1, eroded piece cells +1, row transitions -1, column
//!   transitions -1, holes -4, cumulative wells -1.
//! * `eltetris`: Yiyuan Lee's El-Tetris (2011), weights found by particle swarm optimisation;
//!   it rewards rows cleared instead of eroded cells.
//! * `bcts`: Thiery & Scherrer's "building controllers for Tetris" set (2009), found by the
//!   cross-entropy method, adding hole depth and rows with holes.

use crate::games::tencent::features::Features;
use serde::{Deserialize, Serialize};

/// A weight per feature; the value of a board is the dot product with its features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    pub landing_height: f64,
    pub eroded_cells: f64,
    pub rows_cleared: f64,
    pub row_transitions: f64,
    pub column_transitions: f64,
    pub holes: f64,
    pub wells: f64,
    pub hole_depth: f64,
    pub rows_with_holes: f64,
    pub cells: f64,
    /// Filled cells in the board's top row. None of the built-in sets weighs it; given the
    /// column-transition weight it turns our column transitions into MDPTetris's, which count
    /// the top edge of the board against an empty row above it.
    /// Only the one-piece player counts it (`greedy::landing_value`); [`Features`] has no
    /// such field, so [`Weights::value`] leaves it out.
    pub top_row_cells: f64,
}

/// The names [`Weights::named`] knows.
pub const NAMES: [&str; 3] = ["dellacherie", "eltetris", "bcts"];

impl Weights {
    /// Dellacherie's hand-tuned weights.
    pub const DELLACHERIE: Weights = Weights {
        landing_height: -1.0,
        eroded_cells: 1.0,
        rows_cleared: 0.0,
        row_transitions: -1.0,
        column_transitions: -1.0,
        holes: -4.0,
        wells: -1.0,
        hole_depth: 0.0,
        rows_with_holes: 0.0,
        cells: 0.0,
        top_row_cells: 0.0,
    };

    /// El-Tetris (Yiyuan Lee, 2011).
    pub const EL_TETRIS: Weights = Weights {
        landing_height: -4.500158825082766,
        eroded_cells: 0.0,
        rows_cleared: 3.4181268101392694,
        row_transitions: -3.2178882868487753,
        column_transitions: -9.348695305445199,
        holes: -7.899265427351652,
        wells: -3.3855972247263626,
        hole_depth: 0.0,
        rows_with_holes: 0.0,
        cells: 0.0,
        top_row_cells: 0.0,
    };

    /// BCTS (Thiery & Scherrer, 2009).
    pub const BCTS: Weights = Weights {
        landing_height: -12.63,
        eroded_cells: 6.60,
        rows_cleared: 0.0,
        row_transitions: -9.22,
        column_transitions: -19.77,
        holes: -13.08,
        wells: -10.49,
        hole_depth: -1.61,
        rows_with_holes: -24.04,
        cells: 0.0,
        top_row_cells: 0.0,
    };

    /// The built-in set called `name` (case-insensitive; `el-tetris` and `el_tetris` too).
    pub fn named(name: &str) -> Option<Weights> {
        match name.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "dellacherie" => Some(Weights::DELLACHERIE),
            "eltetris" => Some(Weights::EL_TETRIS),
            "bcts" => Some(Weights::BCTS),
            _ => None,
        }
    }

    /// The weighted sum of `f`.
    #[inline(always)]
    pub fn value(&self, f: &Features) -> f64 {
        self.landing_height * f.landing_height
            + self.eroded_cells * f.eroded_cells as f64
            + self.rows_cleared * f.rows_cleared as f64
            + self.row_transitions * f.row_transitions as f64
            + self.column_transitions * f.column_transitions as f64
            + self.holes * f.holes as f64
            + self.wells * f.wells as f64
            + self.hole_depth * f.hole_depth as f64
            + self.rows_with_holes * f.rows_with_holes as f64
            + self.cells * f.cells as f64
    }

    /// Whether a feature that only hole-depth or rows-with-holes players need is weighted:
    /// lets a player skip computing the others.
    pub fn uses_bcts_features(&self) -> bool {
        self.hole_depth != 0.0 || self.rows_with_holes != 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_sets_round_trip_through_json() {
        for name in NAMES {
            let w = Weights::named(name).expect("built-in");
            let json = serde_json::to_string(&w).unwrap();
            let back: Weights = serde_json::from_str(&json).unwrap();
            assert_eq!(back, w, "{name}");
        }
        assert_eq!(Weights::named("El-Tetris"), Some(Weights::EL_TETRIS));
        assert_eq!(Weights::named("nobody"), None);
    }

    #[test]
    fn a_partial_map_leaves_the_rest_at_zero_and_unknown_names_are_refused() {
        let w: Weights = serde_json::from_str(r#"{"holes": -4, "wells": -1}"#).unwrap();
        assert_eq!(w.holes, -4.0);
        assert_eq!(w.landing_height, 0.0);
        let err = serde_json::from_str::<Weights>(r#"{"holez": 1}"#).unwrap_err();
        assert!(err.to_string().contains("holez"), "{err}");
    }

    #[test]
    fn value_is_the_dot_product() {
        let f = Features {
            landing_height: 2.5,
            eroded_cells: 4,
            rows_cleared: 1,
            row_transitions: 40,
            column_transitions: 12,
            holes: 2,
            wells: 3,
            hole_depth: 5,
            rows_with_holes: 1,
            cells: 30,
        };
        assert_eq!(
            Weights::DELLACHERIE.value(&f),
            -2.5 + 4.0 - 40.0 - 12.0 - 8.0 - 3.0
        );
    }
}
