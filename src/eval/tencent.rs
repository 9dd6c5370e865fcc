//! The beam's rank of a board: a weighted sum of features minus a weighted score, lower is
//! better. Weights are data (JSON: feature name -> weight, plus `score_weight`); the features
//! the beam uses on every child are computed word-parallel on the packed board.

use super::value::ValueModel;
use crate::games::tencent::board::{Board, WIDTH};
pub use crate::games::tencent::fast_features::{fast_features, FastFeatures};
use crate::games::Piece;
use crate::piece::Shape;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Evaluator weights as written in a weights file: `{"cells": -1, "holes": 7.9, ...,
/// "score_weight": 0.026}`. Lower rank is better, so a feature that is bad gets a positive
/// weight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// Weight of the score accumulated so far (subtracted from the rank).
    pub score_weight: f64,
    /// A clear of 1, 2, 3 or 4 lines is allowed only when the board then holds at least this
    /// many cells (counted after the piece, before the clear). Clearing a low board spends
    /// lines for few points; every line cleared is ten cells the game will not score again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_clear_cells: Option<[u32; 4]>,
    /// Over the game's last `fade_pieces` pieces the board's features (the value of what is
    /// on it) weigh in proportion to the pieces left, from all of it to 1/`fade_pieces` at
    /// the last: cells still on the board when the game ends score nothing, so near the end
    /// the beam should cash them in rather than keep a board that promises points later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fade_pieces: Option<u32>,
    /// A learned value (`beamtris learn fit`): the points the board is expected to add over
    /// the next pieces, counted as points so far are (times `score_weight`, subtracted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Box<ValueModel>>,
    /// The cells weight at each step follows the I pieces coming next in the known sequence
    /// (see [`IAhead`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub i_ahead: Option<IAhead>,
    /// A column kept open for the clears (see [`OpenColumn`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_column: Option<OpenColumn>,
    /// Feature name -> weight.
    #[serde(flatten)]
    pub features: BTreeMap<String, f64>,
}

/// A cells weight that moves with the I pieces ahead: at the step that places piece `k`, the
/// `cells` weight grows by `cells` times (the I pieces among pieces `k + 1` to `k + window`,
/// minus that count's mean over the game's steps). Only a vertical I clears four rows, and a
/// 4-row clear scores the cells on the board ten times: a tall board is worth more when I
/// pieces are coming than in a drought, when its rows must go one to three at a time. The
/// offset is the same for every board of a step; each child pays a cell count and a
/// multiply-add. Only the beam on a Tencent-rules game reads it (it knows the sequence; a one-piece player does not).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IAhead {
    /// Pieces after the one placed in which the I pieces are counted (at least 1).
    pub window: u32,
    /// Added to the cells weight for each I in the window above the game's mean count
    /// (negative: more cells are worth more when more I pieces come).
    pub cells: f64,
}

/// A column the beam keeps open from the top of the stack to the floor: each filled cell in it
/// adds `cells` to the rank. Rows are cleared by locking a piece upright in that column: an I
/// clears four rows, and an upright J or L three when the row at the top of its bar is open
/// beside the column too. Without it the search keeps the open column at the board's edge,
/// where only one of J and L fits; a column inside the board lets both make triples, a triple
/// scoring the cells on the board six times where two doubles score them three times each
/// (results/learning/row-gaps/open-column/README.md).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenColumn {
    /// The column, 0 to 9 from the left.
    pub column: u32,
    /// Added to the rank for each filled cell in the column (positive: a filled cell there is
    /// bad).
    pub cells: f64,
}

/// The keys of [`Weights`] beside `score_weight`, the features and the `value` model: what a
/// file of other weights (player or guideline) must not hold, each refusal naming the key.
pub const SHAPING_KEYS: [&str; 4] = ["min_clear_cells", "fade_pieces", "i_ahead", "open_column"];

/// The largest `i_ahead.window`: the longest game the generator check allows is far longer,
/// but a window past a few dozen pieces no longer says when the next I comes.
pub const I_AHEAD_MAX_WINDOW: u32 = 1000;

impl IAhead {
    /// The offset of the cells weight at each step of `pieces` (the game's pieces: step `k`
    /// places piece `k`). The window is cut at the game's end; the mean is over every step,
    /// so the offsets sum to zero up to rounding. One pass, the window slid back from the end:
    /// a game may be long and the window wide.
    pub fn cells_offsets(&self, pieces: &[Piece]) -> Vec<f64> {
        let n = pieces.len();
        let window = self.window as usize;
        let is_i = |k: usize| u32::from(pieces[k].shape == Shape::I);
        // counts[k]: I pieces among k + 1 ..= k + window (cut at n).
        let mut counts = vec![0u32; n];
        let mut in_window = 0u32;
        for k in (0..n).rev() {
            counts[k] = in_window;
            in_window += is_i(k);
            if k + window < n {
                in_window -= is_i(k + window);
            }
        }
        let mean = counts.iter().map(|&c| f64::from(c)).sum::<f64>() / n.max(1) as f64;
        counts
            .iter()
            .map(|&c| self.cells * (f64::from(c) - mean))
            .collect()
    }
}

/// Names of the features a weights file may use.
pub const FEATURES: [&str; 12] = [
    "cells",
    "row_transitions",
    "column_transitions",
    "holes",
    "wells",
    "rows_with_holes",
    "max_height",
    "landing_height",
    "eroded_cells",
    "lines",
    "tetris_ready",
    "i_ready",
];

/// The weight sets `--weights` offers by name on the Tencent game: the styles a user chooses
/// between. Weights tuned along the way are files under `results/weights/` (see
/// [`Weights::kept`]), loaded with `--weights FILE`.
pub const PRESETS: [&str; 2] = ["open-column", "edge"];

/// The preset `solve` uses on the Tencent game when `--weights` is not given.
pub const DEFAULT_PRESET: &str = "open-column";

/// The weight sets kept as files under `results/weights/`, by name, with their text: the
/// former presets, which the tests, `beamtris bench` and `tune`'s default start still use.
const KEPT: [(&str, &str); 7] = [
    (
        "default",
        include_str!("../../results/weights/default.json"),
    ),
    ("tuned", include_str!("../../results/weights/tuned.json")),
    (
        "tuned-b3000",
        include_str!("../../results/weights/tuned-b3000.json"),
    ),
    (
        "tuned-b6000",
        include_str!("../../results/weights/tuned-b6000.json"),
    ),
    (
        "tuned-b6000-i",
        include_str!("../../results/weights/tuned-b6000-i.json"),
    ),
    (
        "dellacherie",
        include_str!("../../results/weights/dellacherie.json"),
    ),
    (
        "eltetris",
        include_str!("../../results/weights/eltetris.json"),
    ),
];

fn features(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
    pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

/// `edge`: the well at the left edge. `tuned-b6000` (results/weights/) with a cells weight
/// that follows the I pieces among the next ten, nudged for beam 4 000: fifteen nudges of its
/// six weights (each times e^N(0, 0.03)) each scored a whole game at beam 4 000, and these are
/// the geometric mean of the five best (results/default-beam-4000/). 1 420 930 at beam 4 000.
fn edge() -> Weights {
    Weights {
        score_weight: 0.06920999326679998,
        min_clear_cells: None,
        fade_pieces: Some(20),
        value: None,
        i_ahead: Some(IAhead {
            window: 10,
            cells: -0.4024868544688893,
        }),
        open_column: None,
        features: features(&[
            ("cells", -2.4737001854239455),
            ("row_transitions", 3.2428835564536027),
            ("column_transitions", 16.303752353221192),
            ("holes", 6.995585548230062),
        ]),
    }
}

impl Weights {
    /// A preset: `open-column` (the default: column 4 kept open for the clears, so that both
    /// J and L clear three rows, with weights tuned for it) or `edge` (every row cleared
    /// through a well at the left edge, the former default).
    pub fn preset(name: &str) -> Option<Weights> {
        Some(match name {
            "edge" => edge(),
            // `edge` with the open column at column 4 (3 a cell there), tuned again by the
            // cross-entropy method with the column in place, each candidate the whole game at
            // beam 3 000: the first generation's best candidate
            // (results/learning/row-gaps/open-column/).
            "open-column" => Weights {
                score_weight: 0.11214145423887399,
                open_column: Some(OpenColumn {
                    column: 4,
                    cells: 3.0,
                }),
                features: features(&[
                    ("cells", -4.136902795458966),
                    ("row_transitions", 2.953071498328162),
                    ("column_transitions", 7.755049214768858),
                    ("holes", 5.148954707323655),
                ]),
                // The start's fade and `i_ahead`, which `tune` carries unchanged.
                ..edge()
            },
            _ => return None,
        })
    }

    /// A weight set kept as a file under `results/weights/` (`default`, MaxDumbledore's
    /// hand-set weights that `tune` starts from; `tuned`, `tuned-b3000`, `tuned-b6000`,
    /// `tuned-b6000-i`, the tuning's steps; `dellacherie`, `eltetris`, the one-piece players'
    /// weights as beam weights), read from the copy built in.
    pub fn kept(name: &str) -> Option<Weights> {
        let (_, text) = KEPT.iter().find(|(n, _)| *n == name)?;
        Some(Weights::parse(text).expect("a kept weights file parses"))
    }

    /// The file a former preset's weights are kept in, for the error that points at it.
    pub fn kept_file(name: &str) -> Option<String> {
        KEPT.iter()
            .any(|(n, _)| *n == name)
            .then(|| format!("results/weights/{name}.json"))
    }

    /// Parses and checks weights JSON.
    pub fn parse(text: &str) -> std::result::Result<Weights, String> {
        let mut w: Weights =
            serde_json::from_str(text).map_err(|e| crate::error::json_error(&e))?;
        check_weights(&w.features, w.score_weight, &FEATURES, "feature")?;
        if w.fade_pieces == Some(0) {
            return Err("fade_pieces: must be at least 1 (leave it out for no fade)".into());
        }
        if let Some(v) = &mut w.value {
            v.check()?;
        }
        if let Some(ia) = &w.i_ahead {
            if ia.window == 0 || ia.window > I_AHEAD_MAX_WINDOW {
                return Err(format!(
                    "i_ahead.window: {} is not from 1 to {I_AHEAD_MAX_WINDOW}",
                    ia.window
                ));
            }
            if let Some(problem) = super::weight_problem(ia.cells) {
                return Err(format!("i_ahead.cells: {problem}"));
            }
        }
        if let Some(oc) = &w.open_column {
            if oc.column as usize >= WIDTH {
                return Err(format!(
                    "open_column.column: {} is not a column (0 to {})",
                    oc.column,
                    WIDTH - 1
                ));
            }
            if let Some(problem) = super::weight_problem(oc.cells) {
                return Err(format!("open_column.cells: {problem}"));
            }
        }
        Ok(w)
    }

    /// Whether a clear of `lines` lines with `cells` on the board may be kept.
    #[inline(always)]
    pub fn clear_allowed(&self, lines: u32, cells: u32) -> bool {
        match self.min_clear_cells {
            Some(min) if lines > 0 => cells >= min[(lines - 1) as usize],
            _ => true,
        }
    }

    fn get(&self, name: &str) -> f64 {
        self.features.get(name).copied().unwrap_or(0.0)
    }
}

/// Checks a weights map of the one weights format (feature name -> weight, and
/// `score_weight`): every name among `known`, every weight finite. `kind` names the features
/// in the message ("feature", "guideline feature").
pub fn check_weights(
    features: &BTreeMap<String, f64>,
    score_weight: f64,
    known: &[&str],
    kind: &str,
) -> std::result::Result<(), String> {
    for (k, v) in features {
        let problem = if !known.contains(&k.as_str()) {
            format!("unknown {kind} (known: {}, score_weight)", known.join(", "))
        } else if let Some(problem) = super::weight_problem(*v) {
            problem
        } else {
            continue;
        };
        return Err(format!("{}: {problem}", crate::error::printable(k)));
    }
    if let Some(problem) = super::weight_problem(score_weight) {
        return Err(format!("score_weight: {problem}"));
    }
    Ok(())
}

/// What the rank needs to know about the placement that made a board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Move {
    /// Dellacherie's landing height: the middle of the piece's lowest and highest cells,
    /// rows counted from the floor (bottom row = 1).
    pub landing_height: f64,
    /// Lines the placement cleared.
    pub lines: u32,
    /// Lines cleared x the piece's own cells in them.
    pub eroded_cells: u32,
    /// Pieces from the next one to the next I piece (1: the next piece is an I; 0: none
    /// left): what the optimizer knows and a player does not.
    pub upcoming_i: u32,
}

/// Weights unpacked into fields for the hot loop.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub weights: Weights,
    cells: f64,
    row_transitions: f64,
    column_transitions: f64,
    holes: f64,
    wells: f64,
    rows_with_holes: f64,
    max_height: f64,
    landing_height: f64,
    eroded_cells: f64,
    lines: f64,
    tetris_ready: f64,
    i_ready: f64,
    score_weight: f64,
    /// `open_column`: the column and the weight of a filled cell in it.
    open_column: Option<(usize, f64)>,
    value: Option<Box<ValueModel>>,
}

/// `i_ready` counts a ready well only when an I comes within this many pieces.
pub const I_READY_WITHIN: u32 = 2;

impl Evaluator {
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator {
            cells: weights.get("cells"),
            row_transitions: weights.get("row_transitions"),
            column_transitions: weights.get("column_transitions"),
            holes: weights.get("holes"),
            wells: weights.get("wells"),
            rows_with_holes: weights.get("rows_with_holes"),
            max_height: weights.get("max_height"),
            landing_height: weights.get("landing_height"),
            eroded_cells: weights.get("eroded_cells"),
            lines: weights.get("lines"),
            tetris_ready: weights.get("tetris_ready"),
            i_ready: weights.get("i_ready"),
            score_weight: weights.score_weight,
            open_column: weights.open_column.map(|oc| (oc.column as usize, oc.cells)),
            value: weights.value.clone(),
            weights,
        }
    }

    /// Whether the rank reads the placement (so the caller must fill [`Move`]).
    pub fn uses_move(&self) -> bool {
        self.landing_height != 0.0 || self.eroded_cells != 0.0 || self.lines != 0.0
    }

    /// Whether the rank reads how far the next I piece is.
    pub fn uses_upcoming(&self) -> bool {
        self.i_ready != 0.0 || self.value.is_some()
    }

    /// `rank` (of a board reached with `score` points) at a step with `left` pieces to the
    /// game's end, this one included: within the last `fade_pieces`, the part that is not the
    /// score shrinks to `left / fade_pieces` of itself.
    #[inline(always)]
    pub fn faded(&self, rank: f64, score: u32, left: usize) -> f64 {
        match self.weights.fade_pieces {
            Some(fade) if left < fade as usize => {
                let points = self.score_weight * score as f64;
                (rank + points) * (left as f64 / fade as f64) - points
            }
            _ => rank,
        }
    }

    /// The rank of `board` reached with `score` points (lower is better).
    #[inline]
    pub fn rank(&self, board: &Board, mv: &Move, score: u32) -> f64 {
        let f = fast_features(board);
        let mut r = self.cells * f.cells as f64
            + self.row_transitions * f.row_transitions as f64
            + self.column_transitions * f.column_transitions as f64
            + self.holes * f.holes as f64
            - self.score_weight * score as f64;
        if self.rows_with_holes != 0.0 {
            r += self.rows_with_holes * f.rows_with_holes as f64;
        }
        if self.max_height != 0.0 {
            r += self.max_height * (crate::games::tencent::board::HEIGHT - board.top_row()) as f64;
        }
        if self.wells != 0.0 {
            r += self.wells * crate::games::tencent::features::wells(board) as f64;
        }
        if self.landing_height != 0.0 {
            r += self.landing_height * mv.landing_height;
        }
        if self.eroded_cells != 0.0 {
            r += self.eroded_cells * mv.eroded_cells as f64;
        }
        if self.lines != 0.0 {
            r += self.lines * mv.lines as f64;
        }
        let i_soon = mv.upcoming_i != 0 && mv.upcoming_i <= I_READY_WITHIN;
        if self.tetris_ready != 0.0 || (self.i_ready != 0.0 && i_soon) {
            let ready = crate::games::tencent::features::tetris_ready(board) as f64;
            r += self.tetris_ready * ready;
            if i_soon {
                r += self.i_ready * ready;
            }
        }
        if let Some((column, weight)) = self.open_column {
            r += weight * board.column_cells(column) as f64;
        }
        if let Some(value) = &self.value {
            r -= self.score_weight * value.value(board, mv.upcoming_i, &f);
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_files_parse() {
        for p in PRESETS {
            assert!(Weights::preset(p).is_some());
        }
        let w = Weights::parse(r#"{"cells": -1, "holes": 2.5, "score_weight": 0.1}"#).unwrap();
        assert_eq!(w.get("holes"), 2.5);
        let e = Weights::parse(r#"{"cels": -1, "score_weight": 0.1}"#).unwrap_err();
        assert!(e.starts_with("cels: unknown feature"), "{e}");
        assert!(Weights::parse(r#"{"cells": -1}"#)
            .unwrap_err()
            .contains("score_weight"));
        for (name, _) in KEPT {
            let kept = Weights::kept(name).unwrap();
            let json = serde_json::to_string(&kept).unwrap();
            assert_eq!(Weights::parse(&json).unwrap(), kept, "{name}");
        }
    }

    #[test]
    fn i_ahead_counts_the_i_pieces_in_its_window_about_their_mean() {
        let pieces: Vec<Piece> = "TIOOISZ"
            .chars()
            .map(|c| Piece {
                shape: Shape::from_letter(c).unwrap(),
                state: 0,
            })
            .collect();
        let ia = IAhead {
            window: 2,
            cells: -1.0,
        };
        // I pieces among the next two: 1 (I, O), 0, 1 (O, I), 1, 0, 0, 0 (cut at the end);
        // their mean is 3/7.
        let mean = 3.0 / 7.0;
        let want: Vec<f64> = [1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0]
            .iter()
            .map(|c| -(c - mean))
            .collect();
        assert_eq!(ia.cells_offsets(&pieces), want);
        // On a whole game, the same as counting each window afresh.
        let game = crate::game_def::GameDef::tencent_geek_4().pieces();
        for window in [1, 10, 1000] {
            let ia = IAhead {
                window,
                cells: -0.4,
            };
            let n = game.len();
            let counts: Vec<f64> = (0..n)
                .map(|k| {
                    let ahead = &game[(k + 1).min(n)..(k + 1 + window as usize).min(n)];
                    ahead.iter().filter(|p| p.shape == Shape::I).count() as f64
                })
                .collect();
            let mean = counts.iter().sum::<f64>() / n as f64;
            let want: Vec<f64> = counts.iter().map(|c| -0.4 * (c - mean)).collect();
            assert_eq!(ia.cells_offsets(&game), want, "window {window}");
        }
        let w = parses_back(
            r#"{"cells": -1, "score_weight": 0.5, "i_ahead": {"window": 10, "cells": -0.4}}"#,
        );
        assert_eq!(
            w.i_ahead,
            Some(IAhead {
                window: 10,
                cells: -0.4
            })
        );
        for (bad, want) in [
            (
                r#"{"window": 0, "cells": -0.4}"#,
                "i_ahead.window: 0 is not from 1 to 1000",
            ),
            (
                r#"{"window": 1001, "cells": 1}"#,
                "i_ahead.window: 1001 is not from 1",
            ),
            (r#"{"window": 10}"#, "missing field `cells`"),
            (
                r#"{"window": 10, "cells": 1, "wndow": 3}"#,
                "unknown field `wndow`",
            ),
        ] {
            assert_refused("i_ahead", bad, want);
        }
    }

    /// The weights `text` holds, after checking that writing them out reads back the same.
    fn parses_back(text: &str) -> Weights {
        let w = Weights::parse(text).unwrap();
        assert_eq!(
            Weights::parse(&serde_json::to_string(&w).unwrap()).unwrap(),
            w
        );
        w
    }

    /// Weights whose `key` is the object `bad` are refused with a message holding `want`.
    fn assert_refused(key: &str, bad: &str, want: &str) {
        let text = format!(r#"{{"score_weight": 0.5, "{key}": {bad}}}"#);
        let err = Weights::parse(&text).unwrap_err();
        assert!(err.contains(want), "{bad}: {err}");
    }

    #[test]
    fn tuned_b3000_is_the_tuning_runs_third_mean() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/results/tune/b3000-reach-full/gen-003/cand-00.weights.json"
        );
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(
            Weights::parse(&text).unwrap(),
            Weights::kept("tuned-b3000").unwrap()
        );
    }

    #[test]
    fn the_fade_shrinks_the_features_over_the_last_pieces() {
        let w =
            Weights::parse(r#"{"cells": -1, "holes": 5, "score_weight": 0.5, "fade_pieces": 4}"#)
                .unwrap();
        assert_eq!(w.fade_pieces, Some(4));
        let e = Evaluator::new(w);
        let board =
            Board::from_text(&("..........\n".repeat(18) + "#.........\n.#########\n")).unwrap();
        // 10 cells, 1 hole (under the cell at the left): -10 + 5 - 0.5 x 100
        let rank = e.rank(&board, &Move::default(), 100);
        assert_eq!(rank, -10.0 + 5.0 - 50.0);
        assert_eq!(e.faded(rank, 100, 4), rank);
        assert_eq!(e.faded(rank, 100, 1000), rank);
        assert_eq!(e.faded(rank, 100, 2), -5.0 / 2.0 - 50.0);
        assert_eq!(e.faded(rank, 100, 1), -5.0 / 4.0 - 50.0);
        assert_eq!(e.faded(rank, 100, 0), -50.0);
        let plain = Evaluator::new(Weights::kept("tuned-b3000").unwrap());
        assert_eq!(plain.faded(rank, 100, 1), rank);
        let err =
            Weights::parse(r#"{"cells": -1, "score_weight": 0.5, "fade_pieces": 0}"#).unwrap_err();
        assert!(err.starts_with("fade_pieces: must be at least 1"), "{err}");
        assert!(Weights::parse(r#"{"score_weight": 0.5, "fade_pieces": -3}"#).is_err());
    }

    #[test]
    fn the_open_column_weighs_each_filled_cell_in_it() {
        let text =
            r#"{"cells": -1, "score_weight": 0.5, "open_column": {"column": 4, "cells": 3}}"#;
        let w = parses_back(text);
        assert_eq!(
            w.open_column,
            Some(OpenColumn {
                column: 4,
                cells: 3.0
            })
        );
        let e = Evaluator::new(w);
        // Column 4 holds two cells (rows 17 and 19), the board 12: -12 + 3 x 2 - 0.5 x 10.
        let board =
            Board::from_text(&("..........\n".repeat(17) + "....#.....\n##........\n#####.####\n"))
                .unwrap();
        assert_eq!(board.column_cells(4), 2);
        assert_eq!(board.column_cells(5), 0);
        assert_eq!(board.column_cells(0), 2);
        assert_eq!(e.rank(&board, &Move::default(), 10), -12.0 + 6.0 - 5.0);
        for (bad, want) in [
            (
                r#"{"column": 10, "cells": 3}"#,
                "open_column.column: 10 is not a column (0 to 9)",
            ),
            (
                r#"{"column": -1, "cells": 3}"#,
                "invalid value: integer `-1`",
            ),
            (r#"{"column": 4}"#, "missing field `cells`"),
            (r#"{"column": 4, "cells": 1e300}"#, "open_column.cells"),
            (
                r#"{"column": 4, "cells": 1, "colum": 3}"#,
                "unknown field `colum`",
            ),
        ] {
            assert_refused("open_column", bad, want);
        }
    }

    #[test]
    fn open_column_is_the_tuning_runs_best_candidate_with_the_column_at_4() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/results/learning/row-gaps/open-column/tune/best.json"
        );
        let mut file = Weights::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        file.open_column = Some(OpenColumn {
            column: 4,
            cells: 3.0,
        });
        assert_eq!(file, Weights::preset("open-column").unwrap());
    }

    #[test]
    fn tuned_b6000_is_the_b6000_runs_best_candidate_with_a_fade_of_20() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/results/tune/b6000-reach-full/gen-002/cand-04.weights.json"
        );
        let mut file = Weights::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        file.fade_pieces = Some(20);
        assert_eq!(file, Weights::kept("tuned-b6000").unwrap());
    }
}
